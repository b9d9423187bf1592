//! A build without libtorch (`--no-default-features`, the Windows brain): a pattern network
//! plays (it runs in plain Rust); a config that names a residual network plays with the classical
//! evaluator and says why on stderr (stdout stays the protocol's), the commands that need
//! libtorch refuse with a clear message, and `bench` measures what it can.
#![cfg(not(feature = "torch"))]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Runs the brain with `args` and `input` on stdin; returns (success, stdout, stderr).
fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = common::brain_command()
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-hoshi");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).replace('\r', ""),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The first move of a game with `config`, logging at info level: (stdout lines up to the
/// move, stderr).
fn first_move(config: &std::path::Path) -> (Vec<String>, String) {
    let mut child = common::brain_command()
        .args(["--config", config.to_str().unwrap()])
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-hoshi");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"START 15\r\nINFO timeout_turn 300\r\nBEGIN\r\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap().trim_end().to_string();
        let is_move = common::parse_move(&line).is_some();
        lines.push(line);
        if is_move {
            break;
        }
    }
    stdin.write_all(b"END\r\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    (lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_shipped_pattern_network_plays_without_libtorch() {
    let cfg = common::config_with(
        "pattern-network",
        "[search]\nnetwork = \"networks/hoshi-p32-g24\"\n",
    );
    let (lines, err) = first_move(&cfg);
    assert!(
        err.contains("evaluator: pattern hoshi-p32-g24"),
        "stderr: {err}"
    );
    assert!(!err.contains("classical evaluator"), "stderr: {err}");
    assert!(
        common::parse_move(lines.last().unwrap()).is_some(),
        "{lines:?}"
    );
}

#[test]
fn a_config_naming_a_network_plays_classically_and_says_why() {
    let cfg = common::config_with(
        "names-a-network",
        "[search]\nnetwork = \"networks/hoshi-4x32-g0\"\n",
    );
    // Every stdout line up to the move is the protocol's (logs go to stderr only).
    let (lines, err) = first_move(&cfg);
    assert_eq!(lines.first().map(String::as_str), Some("OK"), "{lines:?}");
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("MESSAGE")),
        "{lines:?}"
    );
    assert!(
        err.contains("no libtorch") && err.contains("classical evaluator"),
        "stderr: {err}"
    );
}

#[test]
fn commands_that_need_libtorch_refuse_clearly() {
    let dir = std::env::temp_dir().join(format!("hoshi-notorch-{}", std::process::id()));
    let (d, o) = (dir.join("d"), dir.join("o"));
    let train = [
        "train",
        "--data",
        d.to_str().unwrap(),
        "--out",
        o.to_str().unwrap(),
        "--steps",
        "1",
    ];
    let (ok, out, err) = run(&train, "");
    assert!(!ok && out.is_empty(), "stdout: {out}");
    assert!(err.contains("no libtorch"), "stderr: {err}");
    let (ok, out, err) = run(&["promote", o.to_str().unwrap(), "x"], "");
    assert!(!ok && out.is_empty(), "stdout: {out}");
    assert!(err.contains("no libtorch"), "stderr: {err}");
    assert!(!dir.exists());
}

#[test]
fn bench_measures_the_classical_search() {
    let (ok, out, err) = run(&["bench", "--seconds", "0.1"], "");
    assert!(ok, "stderr: {err}");
    assert!(out.contains("no libtorch"), "{out}");
    assert!(out.contains("search with the classical evaluator"), "{out}");
    assert!(!out.contains("forward pass"), "{out}");
}
