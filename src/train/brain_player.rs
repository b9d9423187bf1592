//! An external Gomocup brain as a player (`brain:COMMAND`): another engine, or another build of
//! Hoshi, driven over stdin/stdout as a manager would, so that `match` measures the engine
//! against a reference binary (today's release, an older commit) under the same openings.
//!
//! Each move sends the whole position (`BOARD` in move order, field 1 = the side to move), the
//! time to the request's target as `INFO timeout_turn`, the request's threads as `INFO
//! thread_num`, and waits for the `x,y` answer until the
//! hard deadline plus [`GRACE`]. A brain that answers late, badly or not at all is logged as a
//! failure (counted in its name's log line) and the move is made by the classical player instead,
//! so that one broken game does not end the match.
use crate::game::{Color, Point};
use crate::search::one_ply::best_move;
use crate::search::{Eval, SearchInfo, ThinkRequest, ThinkResult, Thinker};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long past the hard deadline a late answer is still waited for (process start included).
pub const GRACE: Duration = Duration::from_secs(3);

/// A running external brain.
pub struct BrainPlayer {
    command: String,
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The board size and rule the brain was last started for.
    started_for: Option<(usize, usize, i64)>,
    failures: u32,
    /// The verdict of the brain's last search line (`ev …`), when it printed one.
    last_eval: Option<Eval>,
}

impl BrainPlayer {
    /// Starts `command` (split on whitespace: program, then arguments).
    pub fn start(command: &str) -> std::io::Result<BrainPlayer> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| std::io::Error::other("brain: empty command"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("brain-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })?;
        Ok(BrainPlayer {
            command: command.to_string(),
            name: format!("brain:{command}"),
            child,
            stdin,
            lines,
            started_for: None,
            failures: 0,
            last_eval: None,
        })
    }

    /// Moves the brain failed to answer properly so far.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.write_all(b"\r\n")?;
        self.stdin.flush()
    }

    /// The next non-MESSAGE line before `deadline`.
    fn answer(&mut self, deadline: Instant) -> Option<String> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with("MESSAGE") || l.starts_with("DEBUG") => {
                    if let Some(eval) = message_eval(&l) {
                        self.last_eval = Some(eval);
                    }
                    continue;
                }
                Ok(l) => return Some(l.trim().to_string()),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Sends the position and the clock; returns the brain's move, if it gave a legal one.
    fn ask(&mut self, request: &ThinkRequest) -> Result<Point, String> {
        let board = &request.board;
        let shape = (board.width(), board.height(), board.rule().protocol_code());
        let now = Instant::now();
        let wait_until = request.limits.hard.unwrap_or(now + Duration::from_secs(30)) + GRACE;
        let io = |e: std::io::Error| format!("cannot talk to the brain: {e}");
        if self.started_for != Some(shape) {
            let start = if shape.0 == shape.1 {
                format!("START {}", shape.0)
            } else {
                format!("RECTSTART {},{}", shape.0, shape.1)
            };
            self.send(&start).map_err(io)?;
            match self.answer(now + GRACE + Duration::from_secs(10)) {
                Some(ok) if ok == "OK" => {}
                other => return Err(format!("START answered {other:?}")),
            }
            self.send(&format!("INFO rule {}", shape.2)).map_err(io)?;
            self.send("INFO timeout_match 0").map_err(io)?;
            self.started_for = Some(shape);
        }
        let turn_ms = request
            .limits
            .target
            .map_or(0, |t| t.saturating_duration_since(now).as_millis() as u64);
        self.send(&format!("INFO timeout_turn {turn_ms}"))
            .map_err(io)?;
        let threads = request.limits.threads.max(1);
        self.send(&format!("INFO thread_num {threads}"))
            .map_err(io)?;
        self.send("INFO time_left 2147483647").map_err(io)?;
        self.send("BOARD").map_err(io)?;
        let me = board.side_to_move();
        for (i, &p) in board.history().iter().enumerate() {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let field = if colour == me { 1 } else { 2 };
            self.send(&format!("{},{},{field}", p.x, p.y)).map_err(io)?;
        }
        self.send("DONE").map_err(io)?;
        self.last_eval = None;
        let line = self
            .answer(wait_until)
            .ok_or_else(|| "no answer in time".to_string())?;
        let (x, y) = line
            .split_once(',')
            .ok_or_else(|| format!("not a move: {line:?}"))?;
        let parse = |v: &str| {
            v.trim()
                .parse::<u8>()
                .map_err(|_| format!("not a move: {line:?}"))
        };
        let p = Point::new(parse(x)?, parse(y)?);
        if !board.is_legal(p) {
            return Err(format!("illegal move {p}"));
        }
        Ok(p)
    }

    /// Replaces a brain that failed (it may be stuck mid-search).
    fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        match BrainPlayer::start(&self.command) {
            Ok(fresh) => {
                let failures = self.failures;
                *self = fresh;
                self.failures = failures;
            }
            Err(e) => log::error!("{}: cannot restart: {e}", self.name),
        }
    }
}

impl Thinker for BrainPlayer {
    fn think(&mut self, request: &ThinkRequest, _stop: &AtomicBool) -> ThinkResult {
        let started = Instant::now();
        let board = &request.board;
        let best = match self.ask(request) {
            Ok(p) => Some(p),
            Err(why) => {
                self.failures += 1;
                log::error!(
                    "{}: failure {} ({why}); the classical player moves instead",
                    self.name,
                    self.failures
                );
                self.restart();
                best_move(board, &request.blocked).map(|(i, _)| board.point(i))
            }
        };
        ThinkResult {
            best,
            info: SearchInfo {
                depth_min: 0,
                depth_max: 0,
                eval: self.last_eval.unwrap_or(Eval::Winrate {
                    win: 0.5,
                    draw: 0.0,
                    loss: 0.5,
                }),
                nodes: 0,
                elapsed: started.elapsed(),
                pv: best
                    .map(|p| vec![(board.side_to_move(), p)])
                    .unwrap_or_default(),
            },
            ranked: best.map(|p| vec![(p, 0.5)]).unwrap_or_default(),
            visits: Vec::new(),
        }
    }

    fn clear(&mut self) {}

    fn name(&self) -> &str {
        &self.name
    }
}

/// A proven result in a search line's `ev` field: Rapfi's and Hoshi's `+M13`/`-M9`, or the
/// `W13`/`L9` of older Hoshi builds. Scores are not read (their scales differ between engines).
fn message_eval(line: &str) -> Option<Eval> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "ev")?;
    let ev = words.next()?;
    let (win, plies) = if let Some(n) = ev.strip_prefix("+M").or_else(|| ev.strip_prefix('W')) {
        (true, n)
    } else if let Some(n) = ev.strip_prefix("-M").or_else(|| ev.strip_prefix('L')) {
        (false, n)
    } else {
        return None;
    };
    let plies: u32 = plies.parse().ok()?;
    Some(if win {
        Eval::Win(plies)
    } else {
        Eval::Loss(plies)
    })
}

impl Drop for BrainPlayer {
    fn drop(&mut self) {
        let _ = self.send("END");
        if self.failures > 0 {
            log::warn!("{}: {} failed moves in all", self.name, self.failures);
        }
        // Give it the half second a manager gives, then make sure it is gone.
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_results_are_read_from_both_message_forms() {
        let read = |l: &str| message_eval(l);
        assert_eq!(
            read("MESSAGE depth 3-5 ev +M13 n 1 n/ms 1 tm 1 pv h8"),
            Some(Eval::Win(13))
        );
        assert_eq!(
            read("MESSAGE depth 3-5 ev -M2 n 1 n/ms 1 tm 1"),
            Some(Eval::Loss(2))
        );
        assert_eq!(
            read("MESSAGE depth 1-1 ev W9 winrate 1 n 0"),
            Some(Eval::Win(9))
        );
        assert_eq!(read("MESSAGE depth 1-1 ev L4 n 0"), Some(Eval::Loss(4)));
        assert_eq!(read("MESSAGE depth 9-12 ev 57 n 3 n/ms 1 tm 9 pv h8"), None);
        assert_eq!(read("MESSAGE winrate 55.8 drawrate 0.0"), None);
    }
}
