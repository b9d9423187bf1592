//! Drives the real `pbrain-hoshi` binary over stdin/stdout, as a manager would.
//!
//! `HOSHI_BRAIN_CMD` (and `HOSHI_LEGACY_CMD` for the file-protocol `hoshi`) replace the binary
//! cargo built with another command, split on whitespace: `wine /path/pbrain-hoshi.exe` runs the
//! tests against the Windows brain (see scripts/wine-smoke.sh). `HOSHI_TEST_SEARCHER` (`mcts` or
//! `alphabeta`) runs every brain with that `[search] searcher`, whatever config a test gives it,
//! so that the protocol tests cover both searchers (scripts/test.sh runs them once more with the
//! searcher that is not the default).
#![allow(dead_code)]
use crossbeam_channel::{Receiver, RecvTimeoutError};
use hoshi::game::Point;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Generous: CI machines are slow and shared, and a brain's move may take its whole budget.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(20);

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub transcript: Vec<String>,
}

/// The brain's command: `HOSHI_BRAIN_CMD`, else the `pbrain-hoshi` cargo built.
pub fn brain_command() -> Command {
    command_from_env("HOSHI_BRAIN_CMD", env!("CARGO_BIN_EXE_pbrain-hoshi"))
}

/// The legacy file-protocol brain's command: `HOSHI_LEGACY_CMD`, else the `hoshi` cargo built.
pub fn legacy_command() -> Command {
    command_from_env("HOSHI_LEGACY_CMD", env!("CARGO_BIN_EXE_hoshi"))
}

/// Whether `HOSHI_LEGACY_CMD` replaces the `hoshi` cargo built (a launcher such as Wine).
pub fn legacy_command_is_overridden() -> bool {
    std::env::var("HOSHI_LEGACY_CMD").is_ok_and(|c| !c.trim().is_empty())
}

/// `var`'s words as a command, or `default` when `var` is unset or empty.
fn command_from_env(var: &str, default: &str) -> Command {
    let words = std::env::var(var).unwrap_or_default();
    let mut words = words.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words);
            command
        }
        None => Command::new(default),
    }
}

/// Path of a config file with these extra TOML lines (on top of the shipped defaults).
pub fn config_with(name: &str, extra: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, extra).unwrap();
    path
}

/// The searcher `HOSHI_TEST_SEARCHER` asks every brain to run, if any.
pub fn test_searcher() -> Option<String> {
    std::env::var("HOSHI_TEST_SEARCHER")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// `args` with the config (given by `--config`, else none) made to run the test searcher.
fn with_test_searcher(args: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let Some(searcher) = test_searcher() else {
        return args;
    };
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let at = args.iter().position(|a| a == "--config");
    let base = at
        .and_then(|i| args.get(i + 1))
        .map(|p| std::fs::read_to_string(p).expect("the test's config"))
        .unwrap_or_default();
    let line = format!("searcher = \"{searcher}\"");
    let mut lines: Vec<String> = base
        .lines()
        .filter(|l| !l.trim_start().starts_with("searcher"))
        .map(str::to_string)
        .collect();
    match lines.iter().position(|l| l.trim() == "[search]") {
        Some(i) => lines.insert(i + 1, line),
        None => lines
            .splice(0..0, ["[search]".to_string(), line])
            .for_each(drop),
    }
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = config_with(&format!("searcher-{n}"), &(lines.join("\n") + "\n"));
    let path = path.to_string_lossy().into_owned();
    match at {
        Some(i) if i + 1 < args.len() => args[i + 1] = path,
        _ => args.extend(["--config".to_string(), path]),
    }
    args
}

impl Brain {
    /// Starts the brain with the repo's default config.
    pub fn start() -> Brain {
        Brain::start_with_args(&[])
    }

    pub fn start_with_config(path: &std::path::Path) -> Brain {
        Brain::start_with_args(&["--config", path.to_str().unwrap()])
    }

    pub fn start_with_args(args: &[&str]) -> Brain {
        let args = with_test_searcher(args);
        let mut child = brain_command()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pbrain-hoshi");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stdin = child.stdin.take();
        Brain {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// The process id of the started command (under Wine: the Windows process itself).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\r\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends raw bytes (no line ending added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, or None after `timeout`.
    pub fn try_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    pub fn line(&mut self) -> String {
        match self.try_line(REPLY_TIMEOUT) {
            Some(l) => l,
            None => panic!("no reply; transcript so far: {:?}", self.transcript),
        }
    }

    /// The next line that is not MESSAGE/DEBUG (those are logged by managers).
    pub fn answer(&mut self) -> String {
        loop {
            let l = self.line();
            if !(l.starts_with("MESSAGE") || l.starts_with("DEBUG")) {
                return l;
            }
        }
    }

    /// The next answer, which must be a move `x,y`.
    pub fn expect_move(&mut self) -> Point {
        let l = self.answer();
        parse_move(&l).unwrap_or_else(|| {
            panic!(
                "expected a move, got {l:?}; transcript {:?}",
                self.transcript
            )
        })
    }

    /// Asserts that nothing is printed for `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Some(l) = self.try_line(wait) {
            panic!("expected no output, got {l:?}");
        }
    }

    /// Sends END and waits for the process to exit; returns how long that took.
    pub fn end(mut self) -> (Duration, ExitStatus) {
        let t = Instant::now();
        self.send("END");
        let status = self.wait_exit(Duration::from_secs(10));
        (t.elapsed(), status)
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if t.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("brain did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `x,y` → Point.
pub fn parse_move(line: &str) -> Option<Point> {
    let (x, y) = line.trim().split_once(',')?;
    Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// The search time in milliseconds a MESSAGE line reports (its `tm` field), if it has one.
pub fn reported_ms(message: &str) -> Option<u64> {
    let words: Vec<&str> = message.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "tm")?;
    words.get(i + 1)?.parse().ok()
}
