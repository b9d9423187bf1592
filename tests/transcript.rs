//! Recorded protocol sessions replayed against the real binary: the brain's answers must match
//! the recording line for line, so moving code between rooms cannot change what a manager sees.
//!
//! Each session is `tests/data/transcripts/NAME.txt` (lines `> input` and `< expected output`)
//! with its config `NAME.toml` beside it. The configs make the searches deterministic: the
//! classical evaluator, one thread, `INFO max_node` instead of a clock. Only the figures that
//! measure time are masked before comparing: `n/ms` and `tm` of the search MESSAGE, and the
//! values of `INFO SPEED` / `INFO TOTALTIME`.
//!
//! To re-record a session after a deliberate change of behaviour, run
//! `HOSHI_RECORD=1 cargo test --release --test transcript`: each `> line` is sent, and whatever
//! the brain prints until it has been quiet for a while is written back as the `<` lines.
mod common;

use common::Brain;
use std::path::PathBuf;
use std::time::Duration;

/// How long a recording waits for more output after the last line.
const RECORD_QUIET: Duration = Duration::from_millis(1000);

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts")
}

/// One line of a session file.
enum Step {
    Send(String),
    Expect(String),
}

fn read_session(name: &str) -> Vec<Step> {
    let path = data_dir().join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| {
            if let Some(rest) = l.strip_prefix("> ") {
                Some(Step::Send(rest.to_string()))
            } else if let Some(rest) = l.strip_prefix("< ") {
                Some(Step::Expect(rest.to_string()))
            } else if l == "<" {
                Some(Step::Expect(String::new()))
            } else {
                None // comments and blank lines
            }
        })
        .collect()
}

/// Replaces the value after each `key` (a whitespace-separated word) with `*`.
fn mask_after(line: &str, keys: &[&str]) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    let mut mask_next = false;
    for w in words {
        if mask_next {
            out.push("*");
            mask_next = false;
        } else {
            mask_next = keys.contains(&w);
            out.push(w);
        }
    }
    out.join(" ")
}

/// The line with its time-dependent figures masked.
fn masked(line: &str) -> String {
    if line.starts_with("MESSAGE depth ") {
        mask_after(line, &["n/ms", "tm"])
    } else if line.starts_with("INFO SPEED ") || line.starts_with("INFO TOTALTIME ") {
        mask_after(line, &["SPEED", "TOTALTIME"])
    } else {
        line.to_string()
    }
}

fn start(name: &str) -> Brain {
    Brain::start_with_config(&data_dir().join(format!("{name}.toml")))
}

/// Sends the session's lines, reading after each the lines the recording says it answered.
fn replay(name: &str) {
    let steps = read_session(name);
    let mut brain = start(name);
    for step in &steps {
        match step {
            Step::Send(line) => brain.send(line),
            Step::Expect(expected) => {
                let got = brain.line();
                assert_eq!(
                    masked(&got),
                    masked(expected),
                    "session {name}: transcript so far {:#?}",
                    brain.transcript
                );
            }
        }
    }
    // Every session ends with END: nothing more may come, and the brain leaves cleanly.
    let status = brain.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "session {name}: exit status {status:?}");
    if let Some(extra) = brain.try_line(Duration::from_millis(200)) {
        panic!("session {name}: unexpected output after the recording: {extra:?}");
    }
}

/// Rewrites the session file from what the brain answers now.
fn record(name: &str) {
    let steps = read_session(name);
    let mut brain = start(name);
    let mut text = String::new();
    for step in &steps {
        if let Step::Send(line) = step {
            brain.send(line);
            text.push_str(&format!("> {line}\n"));
            while let Some(got) = brain.try_line(RECORD_QUIET) {
                text.push_str(&format!("< {got}\n"));
            }
        }
    }
    std::fs::write(data_dir().join(format!("{name}.txt")), text).unwrap();
}

fn check(name: &str) {
    if let Some(searcher) = common::test_searcher() {
        // The recordings hold their own searcher's lines.
        eprintln!("transcript {name}: skipped under HOSHI_TEST_SEARCHER={searcher}");
        return;
    }
    if std::env::var_os("HOSHI_RECORD").is_some() {
        record(name);
    } else {
        replay(name);
    }
}

#[test]
fn gomocup_game() {
    check("gomocup_game");
}

#[test]
fn extended_session() {
    check("extended_session");
}

#[test]
fn yixin_transposed_session() {
    check("yixin_transposed_session");
}

#[test]
fn gomocup_mode_refuses_other_dialects() {
    check("gomocup_mode");
}

#[test]
fn masking_keeps_everything_but_time() {
    assert_eq!(
        masked("MESSAGE depth 3-9 ev 57 n 2000 n/ms 35 tm 905 pv h8 i9"),
        "MESSAGE depth 3-9 ev 57 n 2000 n/ms * tm * pv h8 i9"
    );
    assert_eq!(masked("INFO SPEED 123456"), "INFO SPEED *");
    assert_eq!(masked("INFO NODES 2000"), "INFO NODES 2000");
    assert_eq!(masked("7,7"), "7,7");
}
