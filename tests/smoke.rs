//! The brain as a tournament runs it, end to end, with figures: a full game under Gomocup time
//! and memory limits (each answer's time as the manager sees it, the brain's own search time,
//! the difference, and the process's peak resident memory), BOARD/TURN with short limits, END,
//! and one move of the legacy file protocol.
//!
//! By default this drives the binaries cargo built; scripts/wine-smoke.sh points it at the
//! Windows brain under Wine (`HOSHI_BRAIN_CMD="wine .../pbrain-hoshi.exe"`, `HOSHI_LEGACY_CMD`),
//! where the difference between the manager's time and the brain's own is Wine's overhead.
//! The figures are printed as `smoke:` lines (run with `--nocapture` to see them).
mod common;

use common::{parse_move, Brain};
use hoshi::game::{Board, MoveOutcome, Point, Rule};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Gomocup's memory limit, sent as `INFO max_memory` and checked against the process's peak
/// resident set.
const MAX_MEMORY: u64 = 350 * 1024 * 1024;
/// Time per move in the full game.
const TURN_MS: u64 = 1000;
/// How far past the limit an answer may arrive, as the manager sees it: the brain already keeps
/// its lag and safety margins in hand; this covers the pipe, Wine and a loaded machine.
const ALLOWANCE_MS: u64 = 250;

/// One answer: the time from sending the command to reading the move, and the search time the
/// brain reported in its MESSAGE line (`tm`).
struct Answer {
    point: Point,
    observed: Duration,
    reported_ms: Option<u64>,
}

/// Sends `command` and reads up to the move, timing it.
fn timed_move(b: &mut Brain, command: &str) -> Answer {
    let started = Instant::now();
    b.send(command);
    let mut reported_ms = None;
    loop {
        let line = b.line();
        if let Some(message) = line.strip_prefix("MESSAGE") {
            if let Some(ms) = common::reported_ms(message) {
                reported_ms = Some(ms);
            }
            continue;
        }
        if line.starts_with("DEBUG") {
            continue;
        }
        let observed = started.elapsed();
        let point =
            parse_move(&line).unwrap_or_else(|| panic!("{command}: expected a move, got {line:?}"));
        return Answer {
            point,
            observed,
            reported_ms,
        };
    }
}

/// The process whose memory counts: the started process when its command line names the brain
/// (natively, and under Wine, where the Windows process keeps the launcher's pid), else a child
/// of it that does.
fn brain_process(pid: u32) -> u32 {
    let names_brain = |p: u32| {
        std::fs::read(format!("/proc/{p}/cmdline"))
            .map(|c| String::from_utf8_lossy(&c).contains("pbrain-hoshi"))
            .unwrap_or(false)
    };
    if names_brain(pid) {
        return pid;
    }
    let children = std::fs::read_dir("/proc").into_iter().flatten().flatten();
    children
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .find(|&p| status_field(p, "PPid:") == Some(pid as u64) && names_brain(p))
        .unwrap_or(pid)
}

/// A number field of `/proc/<pid>/status` (memory fields in KiB).
fn status_field(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].split_whitespace().next()?.parse().ok()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn brain_description() -> String {
    std::env::var("HOSHI_BRAIN_CMD")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_pbrain-hoshi").to_string())
}

/// Min, mean and max of some milliseconds.
fn spread(values: &[f64]) -> String {
    if values.is_empty() {
        return "none".into();
    }
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    format!("min {min:.0} / mean {mean:.0} / max {max:.0} ms")
}

/// One side of the full game: a brain process and what was measured of it.
struct Side {
    brain: Brain,
    pid: u32,
    startup: Duration,
    time_left: u64,
    observed: Vec<f64>,
    reported: Vec<f64>,
    overhead: Vec<f64>,
    peak_rss_kib: u64,
}

impl Side {
    fn start() -> Side {
        let started = Instant::now();
        let mut brain = Brain::start();
        brain.send("START 15");
        assert_eq!(brain.answer(), "OK");
        let startup = started.elapsed();
        let pid = brain_process(brain.pid());
        brain.send(&format!("INFO timeout_turn {TURN_MS}"));
        brain.send("INFO timeout_match 300000");
        brain.send(&format!("INFO max_memory {MAX_MEMORY}"));
        brain.send("INFO rule 0");
        Side {
            brain,
            pid,
            startup,
            time_left: 300_000,
            observed: Vec::new(),
            reported: Vec::new(),
            overhead: Vec::new(),
            peak_rss_kib: 0,
        }
    }

    /// Sends the time left and `command`, checks the answer came in time and notes the figures.
    fn play(&mut self, command: &str, ply: usize) -> Point {
        self.brain
            .send(&format!("INFO time_left {}", self.time_left));
        let answer = timed_move(&mut self.brain, command);
        let limit = TURN_MS.min(self.time_left);
        assert!(
            answer.observed <= Duration::from_millis(limit + ALLOWANCE_MS),
            "ply {ply} took {:?}, limit {limit} ms + {ALLOWANCE_MS} ms; transcript {:?}",
            answer.observed,
            self.brain.transcript
        );
        self.time_left = self
            .time_left
            .saturating_sub(answer.observed.as_millis() as u64);
        self.observed.push(ms(answer.observed));
        if let Some(tm) = answer.reported_ms {
            self.reported.push(tm as f64);
            self.overhead.push(ms(answer.observed) - tm as f64);
        }
        if let Some(rss) = status_field(self.pid, "VmRSS:") {
            self.peak_rss_kib = self.peak_rss_kib.max(rss);
        }
        answer.point
    }
}

#[test]
fn full_game_within_the_time_and_memory_limits() {
    // The brain against itself (two processes, as a tournament runs two brains), 15x15
    // freestyle, a second a move, to the end of the game (or 160 stones).
    let mut sides = [Side::start(), Side::start()];
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    let mut command = "BEGIN".to_string();
    let mut result = "unfinished at 160 stones".to_string();
    for ply in 0..160 {
        let side = &mut sides[ply % 2];
        let point = side.play(&command, ply);
        match board.play(point) {
            Ok(MoveOutcome::Ongoing) => command = format!("TURN {point}"),
            Ok(outcome) => {
                result = format!("{outcome:?}");
                break;
            }
            Err(e) => panic!("ply {ply}: illegal move {point}: {e}"),
        }
    }
    let all = |f: fn(&Side) -> &Vec<f64>| -> Vec<f64> {
        sides.iter().flat_map(|s| f(s).iter().copied()).collect()
    };
    let (observed, reported, overhead) = (
        all(|s| &s.observed),
        all(|s| &s.reported),
        all(|s| &s.overhead),
    );
    println!("smoke: brain {}", brain_description());
    println!(
        "smoke: startup (spawn to START's OK): {:.0} ms and {:.0} ms",
        ms(sides[0].startup),
        ms(sides[1].startup)
    );
    println!(
        "smoke: full game, brain against brain, 15x15 freestyle, timeout_turn {TURN_MS}: {} stones, {result}",
        board.stone_count()
    );
    println!(
        "smoke:   answer as the manager sees it: {}",
        spread(&observed)
    );
    println!(
        "smoke:   the brain's own time (MESSAGE tm): {}",
        spread(&reported)
    );
    println!(
        "smoke:   difference (pipe, process, Wine): {}",
        spread(&overhead)
    );
    for (k, side) in sides.into_iter().enumerate() {
        let peak_kib = status_field(side.pid, "VmHWM:").unwrap_or(side.peak_rss_kib);
        let (took, status) = side.brain.end();
        println!(
            "smoke:   {}: peak resident memory (VmHWM) {:.1} MiB of {} MiB; END to exit {:.0} ms",
            ["black", "white"][k],
            peak_kib as f64 / 1024.0,
            MAX_MEMORY >> 20,
            ms(took)
        );
        assert!(status.success(), "exit status {status:?}");
        assert!(
            peak_kib * 1024 < MAX_MEMORY,
            "peak resident memory {peak_kib} KiB"
        );
        assert!(took < Duration::from_secs(3), "END took {took:?}");
    }
    assert!(board.stone_count() >= 9, "{result}");
}

#[test]
fn board_and_turn_with_short_limits() {
    let mut b = Brain::start();
    b.send("START 20");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 300");
    b.send("INFO timeout_match 0");
    b.send(&format!("INFO max_memory {MAX_MEMORY}"));
    // The opponent (field 2) has an open three, the brain (field 1, to move) must block it at
    // one of its ends.
    b.send("BOARD");
    for line in ["10,10,2", "9,10,1", "10,11,2", "9,11,1", "10,12,2"] {
        b.send(line);
    }
    let first = timed_move(&mut b, "DONE");
    let mut board = Board::from_moves(
        20,
        20,
        Rule::Freestyle,
        &[
            Point::new(10, 10),
            Point::new(9, 10),
            Point::new(10, 11),
            Point::new(9, 11),
            Point::new(10, 12),
        ],
    )
    .unwrap();
    assert!(
        [Point::new(10, 9), Point::new(10, 13)].contains(&first.point),
        "did not block the three: {}",
        first.point
    );
    board.play(first.point).unwrap();
    let reply = if first.point == Point::new(10, 9) {
        Point::new(11, 11)
    } else {
        Point::new(11, 12)
    };
    board.play(reply).unwrap();
    let second = timed_move(&mut b, &format!("TURN {reply}"));
    assert!(board.is_empty(second.point), "{}", second.point);
    // time_left below the turn limit: the brain answers well inside it.
    b.send("INFO time_left 400");
    board.play(second.point).unwrap();
    let free = (0..20u8)
        .flat_map(|y| (0..20u8).map(move |x| Point::new(x, y)))
        .find(|&p| board.is_empty(p))
        .unwrap();
    board.play(free).unwrap();
    let third = timed_move(&mut b, &format!("TURN {free}"));
    assert!(board.is_empty(third.point), "{}", third.point);
    println!(
        "smoke: BOARD/TURN at timeout_turn 300: {:.0} ms, {:.0} ms; with time_left 400: {:.0} ms",
        ms(first.observed),
        ms(second.observed),
        ms(third.observed)
    );
    for a in [&first, &second] {
        assert!(a.observed <= Duration::from_millis(300 + ALLOWANCE_MS));
    }
    assert!(third.observed <= Duration::from_millis(400 + ALLOWANCE_MS));
    let (took, status) = b.end();
    assert!(status.success() && took < Duration::from_secs(3));
}

#[test]
fn one_move_of_the_file_protocol() {
    let dir: PathBuf = std::env::temp_dir().join(format!("hoshi-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 15x15, two stones each, x to move.
    let mut rows = vec!["---------------".to_string(); 15];
    rows[7] = "------xo-------".into();
    rows[8] = "-------xo------".into();
    std::fs::write(dir.join("PLOCHA.DAT"), rows.join("\r\n") + "\r\n").unwrap();
    std::fs::write(dir.join("TAH.DAT"), "x").unwrap();
    std::fs::write(dir.join("TIMEOUTS.DAT"), "1\r\n2147483647\r\n").unwrap();
    std::fs::write(dir.join("MSG.DAT"), "").unwrap();
    let started = Instant::now();
    let out = common::legacy_command()
        .current_dir(&dir)
        .env_remove("RUST_LOG")
        .output()
        .expect("run the legacy brain");
    let elapsed = started.elapsed();
    let tah = std::fs::read_to_string(dir.join("TAH.DAT")).unwrap_or_default();
    let msg = std::fs::read_to_string(dir.join("MSG.DAT")).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "smoke: file protocol, 1 s a move: TAH.DAT {:?} after {:.0} ms (launch to exit); MSG.DAT {:?}",
        tah.trim(),
        ms(elapsed),
        msg.trim()
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "stdout: {:?}", out.stdout);
    let p = parse_move(&tah).unwrap_or_else(|| panic!("TAH.DAT {tah:?}"));
    let (x, y) = (p.x as usize, p.y as usize);
    assert!(x < 15 && y < 15 && rows[y].as_bytes()[x] == b'-', "{p}");
    // The launch is part of the manager's clock (Wine's start-up included).
    assert!(
        elapsed <= Duration::from_millis(1000 + 4 * ALLOWANCE_MS),
        "{elapsed:?}"
    );
}
