//! END during a search: the brain leaves at once and cleanly (exit status 0, nothing on stderr),
//! with the network evaluator and without, many times over. A network thread still in a forward
//! pass must not be caught by libtorch's exit-time teardown.
mod common;

use common::config_with;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One game cut short by END 10 ms into a search (the loop of the issue that found the crash).
/// Returns the exit status, stderr and how long the exit took after END.
fn end_mid_search(config: Option<&Path>) -> (std::process::ExitStatus, String, Duration) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"));
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-hoshi");
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    stdin
        .write_all(b"START 15\r\nINFO timeout_turn 300\r\nBEGIN\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    stdin.write_all(b"TURN 8,8\r\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(10));
    let sent = Instant::now();
    stdin.write_all(b"END\r\n").unwrap();
    stdin.flush().unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("the brain did not exit after END");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = sent.elapsed();
    (status, errors.join().unwrap(), took)
}

fn check_many(config: Option<&Path>, runs: usize) {
    for run in 0..runs {
        let (status, errors, took) = end_mid_search(config);
        assert!(status.success(), "run {run}: {status:?}; stderr: {errors}");
        assert!(errors.trim().is_empty(), "run {run}: stderr: {errors}");
        // The manager gives about 0.5 s; a loaded CI machine gets some slack.
        assert!(
            took < Duration::from_secs(2),
            "run {run}: exit took {took:?}"
        );
    }
}

// The residual network's libtorch forward pass is what exit-time teardown used to crash.
#[cfg(feature = "torch")]
#[test]
fn end_mid_search_with_the_residual_network_exits_cleanly() {
    let cfg = config_with(
        "resnet-end",
        "[search]\nnetwork = \"networks/hoshi-4x32-g0\"\n",
    );
    check_many(Some(&cfg), 12);
}

// The default config: the pattern network, in every build.
#[test]
fn end_mid_search_with_the_default_pattern_network_exits_cleanly() {
    check_many(None, 6);
}

#[test]
fn end_mid_search_with_the_classical_evaluator_exits_cleanly() {
    let cfg = config_with("classical-end", "[search]\nnetwork = \"\"\n");
    check_many(Some(&cfg), 6);
}
