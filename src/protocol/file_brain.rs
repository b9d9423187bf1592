//! The legacy file protocol front end (seed 002): the `hoshi` executable plays ONE move per run.
//!
//! The manager writes PLOCHA.DAT (the board), TAH.DAT (`x` or `o`: who moves), TIMEOUTS.DAT
//! and maybe INFO.DAT into the working directory, starts us, and reads our move back from
//! TAH.DAT. `dat_files` parses the contents; this module reads the files, checks and sets up
//! the position, and plays the turn through the engine's one `Controller` as a manager would
//! over the wire: RECTSTART, INFO `rule` and the clock (the manager's time and memory), then
//! the set-up position ([`Command::Position`]: BOARD cannot carry PLOCHA.DAT's stones in file
//! order nor the stones hidden under `#`). Its own [`AnswerSink`] keeps the move and the search's
//! summary; the turn ends when the search does. It writes `x,y` to TAH.DAT and a one-line
//! summary to MSG.DAT. On any problem (a missing or malformed file, an impossible position, a
//! full board, an ERROR from the engine such as a search that panicked) it writes a one-line
//! explanation to MSG.DAT, leaves TAH.DAT as the manager wrote it and exits non-zero: no move is
//! better than a made-up one.
//!
//! # Who is black
//! PLOCHA.DAT has no move order, only stones. Moves alternate from the first player (black), so
//! after `T` moves the first player is to move exactly when `T` is even. Without `#` squares
//! `T` is the stone count, which gives the rule "the side with more stones moved first; equal
//! counts: the side to move is black", and any other count (a difference above one, or the side
//! to move ahead) is an impossible position. In a continuous game each `#` hides a stone of a
//! completed five whose colour the file does not tell: `T` still counts them, and the position
//! is possible when some split of the `#` squares between the players balances the counts.
//!
//! Only renju tells the colours apart, and renju has no continuous variant, so with `#` squares
//! (which never reach the engine's `Board`) only the side to move matters: the mover's stones
//! get the colour the `Board` will have to move. Without `#` that is the true colour.
//!
//! # Files written
//! TAH.DAT and MSG.DAT only (under the names the manager used, if it wrote them in lower case).
//! INFO.DAT's `folder` is where a brain may keep persistent files (in `<folder>/hoshi`); Hoshi
//! keeps no state between moves, so it writes nothing there and creates no folder. Logs go to
//! stderr.
use super::dat_files::{
    format_tah, parse_info_dat, parse_plocha, parse_tah, parse_timeouts, LegacyBoard,
    LegacyTimeouts, Square, Symbol,
};
use super::report::search_message;
use crate::config::Config;
use crate::engine::{Answer, AnswerSink, Command, Controller, Event, InfoKey, Request};
use crate::game::{Board, Color, Point, Rule};
use crate::search::{SearchInfo, Thinker};
use parking_lot::Mutex;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

pub const PLOCHA_DAT: &str = "PLOCHA.DAT";
pub const TAH_DAT: &str = "TAH.DAT";
pub const TIMEOUTS_DAT: &str = "TIMEOUTS.DAT";
pub const INFO_DAT: &str = "INFO.DAT";
pub const MSG_DAT: &str = "MSG.DAT";

/// Everything that stops us from answering with a move.
#[derive(Debug, Error)]
pub enum LegacyError {
    #[error("{name} is missing")]
    Missing { name: &'static str },
    #[error("cannot read {name}: {source}")]
    Read {
        name: &'static str,
        source: io::Error,
    },
    /// A file's contents are wrong; the message names the file (and line).
    #[error("{0}")]
    Malformed(String),
    /// A rule or board size the engine does not play.
    #[error("{0}")]
    Unsupported(String),
    #[error("impossible position: {0}")]
    Impossible(String),
    #[error("no move possible: the board is full")]
    BoardFull,
    /// The config file (or the command line) is wrong.
    #[error("{0}")]
    Config(String),
    #[error("cannot write {name}: {source}")]
    Write {
        name: &'static str,
        source: io::Error,
    },
    #[error("internal error: {0}")]
    Internal(String),
    /// The engine answered ERROR instead of a move; its text says why.
    #[error("{0}")]
    Engine(String),
}

impl LegacyError {
    /// 1: the manager's files or position; 2: our config or command line; 3: our own failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            LegacyError::Config(_) => 2,
            LegacyError::Write { .. } | LegacyError::Internal(_) | LegacyError::Engine(_) => 3,
            _ => 1,
        }
    }
}

/// The path of the manager's file `name` in `dir`: the exact name, else one differing only in
/// letter case (a manager on a case-sensitive file system may write `plocha.dat`).
fn locate(dir: &Path, name: &str) -> PathBuf {
    let exact = dir.join(name);
    if exact.exists() {
        return exact;
    }
    std::fs::read_dir(dir)
        .ok()
        .and_then(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name())
                .find(|f| f.to_str().is_some_and(|f| f.eq_ignore_ascii_case(name)))
        })
        .map_or(exact, |f| dir.join(f))
}

/// The text of `name`, or `None` when there is no such file.
fn read_optional(dir: &Path, name: &'static str) -> Result<Option<String>, LegacyError> {
    match std::fs::read(locate(dir, name)) {
        // Stray non-UTF-8 bytes become U+FFFD, which the parsers reject with a clear message.
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(LegacyError::Read { name, source }),
    }
}

fn read_required(dir: &Path, name: &'static str) -> Result<String, LegacyError> {
    read_optional(dir, name)?.ok_or(LegacyError::Missing { name })
}

/// What the manager wrote for this move.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyInput {
    pub board: LegacyBoard,
    pub to_move: Symbol,
    pub timeouts: LegacyTimeouts,
    /// INFO.DAT's lines; empty when there is no INFO.DAT.
    pub info: Vec<InfoKey>,
}

impl LegacyInput {
    /// Reads and parses the files in `dir`. PLOCHA.DAT, TAH.DAT and TIMEOUTS.DAT are required;
    /// INFO.DAT is optional, but when present it must parse.
    pub fn read(dir: &Path) -> Result<LegacyInput, LegacyError> {
        let board =
            parse_plocha(&read_required(dir, PLOCHA_DAT)?).map_err(LegacyError::Malformed)?;
        let to_move = parse_tah(&read_required(dir, TAH_DAT)?).map_err(LegacyError::Malformed)?;
        let timeouts =
            parse_timeouts(&read_required(dir, TIMEOUTS_DAT)?).map_err(LegacyError::Malformed)?;
        let info = match read_optional(dir, INFO_DAT)? {
            Some(text) => parse_info_dat(&text).map_err(LegacyError::Malformed)?,
            None => Vec::new(),
        };
        Ok(LegacyInput {
            board,
            to_move,
            timeouts,
            info,
        })
    }

    /// INFO.DAT's `folder`, if it names one.
    pub fn folder(&self) -> Option<&str> {
        self.info.iter().rev().find_map(|k| match k {
            InfoKey::Folder(f) if !f.is_empty() => Some(f.as_str()),
            _ => None,
        })
    }
}

fn symbol_char(s: Symbol) -> char {
    match s {
        Symbol::Cross => 'x',
        Symbol::Circle => 'o',
    }
}

fn other(s: Symbol) -> Symbol {
    match s {
        Symbol::Cross => Symbol::Circle,
        Symbol::Circle => Symbol::Cross,
    }
}

/// Which symbol moved first (is black), by the parity argument of the module docs.
pub fn first_player(board: &LegacyBoard, to_move: Symbol) -> Result<Symbol, LegacyError> {
    let mine = board.count(Square::Stone(to_move));
    let theirs = board.count(Square::Stone(other(to_move)));
    let hidden = board.count(Square::Blocked);
    let total = mine + theirs + hidden;
    // After an even number of moves the first player is to move and both had as many moves;
    // after an odd number the other side has had one more.
    let (first, surplus) = if total.is_multiple_of(2) {
        (to_move, theirs as i64 - mine as i64)
    } else {
        (other(to_move), theirs as i64 - mine as i64 - 1)
    };
    // `surplus` is what the hidden stones must make up, in the mover's favour.
    if surplus.unsigned_abs() > hidden as u64 {
        let c = symbol_char(to_move);
        let d = symbol_char(other(to_move));
        let blocked = if hidden > 0 {
            format!(" and {hidden} '#'")
        } else {
            String::new()
        };
        return Err(LegacyError::Impossible(format!(
            "{mine} '{c}' and {theirs} '{d}' stones{blocked} with '{c}' to move"
        )));
    }
    Ok(first)
}

/// INFO.DAT's `rule` (the last one, if repeated; freestyle without one). The legacy codes are
/// the Gomocup bitmask: 1 exactly five, 2 continuous game; newer managers may add 4 (renju) and
/// 8 (caro). The continuous bit only says that `#` squares may appear, which PLOCHA.DAT shows
/// anyway, so it is dropped. Note 2 is NOT renju here, unlike Yixin-Board's `INFO rule 2`.
pub fn rule_from_info(info: &[InfoKey]) -> Result<Rule, LegacyError> {
    let code = info.iter().rev().find_map(|k| match k {
        InfoKey::Rule(code) => Some(*code),
        _ => None,
    });
    let Some(code) = code else {
        return Ok(Rule::Freestyle);
    };
    const CONTINUOUS: i64 = 2;
    let rule = if code >= 0 {
        Rule::from_protocol(code & !CONTINUOUS)
    } else {
        None
    };
    rule.ok_or_else(|| {
        LegacyError::Unsupported(format!(
            "INFO.DAT rule {code} is not supported (0 five or more, 1 exactly five, +2 continuous, 4 renju, 8 caro, 9 caro exactly five)"
        ))
    })
}

/// The position as the engine sees it.
#[derive(Debug, Clone)]
pub struct LegacyPosition {
    /// The stones; its side to move plays for `to_move`.
    pub board: Board,
    /// The `#` squares: the search must not play them.
    pub blocked: Vec<Point>,
    /// Who moved first (black).
    pub first: Symbol,
    pub to_move: Symbol,
}

impl LegacyPosition {
    /// The true colour of the side to move.
    pub fn to_move_color(&self) -> Color {
        if self.first == self.to_move {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether `p` is a square we may play: on the board, empty and not `#`.
    pub fn is_playable(&self, p: Point) -> bool {
        self.board.is_empty(p) && !self.blocked.contains(&p)
    }
}

/// Builds the position from PLOCHA.DAT and the side to move, the stones placed in the file's
/// order. Errors: a size the engine does not play, impossible counts, a five already
/// on the board, `#` squares under renju, no square left to play.
pub fn build_position(
    plocha: &LegacyBoard,
    to_move: Symbol,
    rule: Rule,
) -> Result<LegacyPosition, LegacyError> {
    let mut board = Board::new(plocha.width, plocha.height, rule)
        .map_err(|e| LegacyError::Unsupported(format!("{PLOCHA_DAT}: {e}")))?;
    let first = first_player(plocha, to_move)?;
    let hidden = plocha.count(Square::Blocked);
    if hidden > 0 && rule.has_forbidden() {
        return Err(LegacyError::Unsupported(format!(
            "{PLOCHA_DAT} has '#' squares (a continuous game) but the rule is renju"
        )));
    }
    // The Board's side to move follows its stone count; give the mover that colour (see the
    // module docs: without '#' this is the true colour, with '#' the rule is colour-blind).
    let visible =
        plocha.count(Square::Stone(Symbol::Cross)) + plocha.count(Square::Stone(Symbol::Circle));
    let mover_color = if visible.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let mut blocked = Vec::new();
    for (p, square) in plocha.occupied() {
        match square {
            Square::Stone(s) if s == to_move => board.place(p, mover_color),
            Square::Stone(_) => board.place(p, mover_color.opponent()),
            Square::Blocked => {
                blocked.push(p);
                Ok(())
            }
            Square::Empty => Ok(()),
        }
        .map_err(|e| LegacyError::Internal(e.to_string()))?;
    }
    debug_assert_eq!(board.side_to_move(), mover_color);
    if let Some(p) = board.stone_in_five() {
        return Err(LegacyError::Impossible(format!(
            "there is already a five through {p} (the game is over)"
        )));
    }
    // When none is free the engine would answer with a '#' square, or nothing.
    if plocha.count(Square::Empty) == 0 {
        return Err(LegacyError::BoardFull);
    }
    Ok(LegacyPosition {
        board,
        blocked,
        first,
        to_move,
    })
}

/// The INFO settings this move is played under, as the manager would send them: the turn's and
/// the match's time (INFO.DAT's values, in ms, win over TIMEOUTS.DAT's whole seconds when both
/// are given) and INFO.DAT's `max_memory`. Other INFO.DAT keys do not change how we play.
pub fn turn_info(timeouts: &LegacyTimeouts, info: &[InfoKey]) -> Vec<InfoKey> {
    let last = |pick: fn(&InfoKey) -> Option<i64>| info.iter().rev().find_map(pick);
    let mut keys = vec![
        InfoKey::TimeoutTurn(
            last(|k| match k {
                InfoKey::TimeoutTurn(v) => Some(*v),
                _ => None,
            })
            .unwrap_or_else(|| timeouts.turn_ms()),
        ),
        InfoKey::TimeoutMatch(
            last(|k| match k {
                InfoKey::TimeoutMatch(v) => Some(*v),
                _ => None,
            })
            .unwrap_or(0),
        ),
        InfoKey::TimeLeft(
            last(|k| match k {
                InfoKey::TimeLeft(v) => Some(*v),
                _ => None,
            })
            .unwrap_or(timeouts.time_left_ms),
        ),
    ];
    keys.extend(
        last(|k| match k {
            InfoKey::MaxMemory(v) => Some(*v),
            _ => None,
        })
        .map(InfoKey::MaxMemory),
    );
    keys
}

/// The requests a manager would send for this turn: a new game of PLOCHA.DAT's size, the rule
/// and the clock as INFO, then the position, answered with a move.
pub fn turn_requests(input: &LegacyInput, rule: Rule, position: &LegacyPosition) -> Vec<Command> {
    let mut requests = vec![
        Command::RectStart(input.board.width, input.board.height),
        Command::Info(InfoKey::Rule(rule.protocol_code())),
    ];
    requests.extend(
        turn_info(&input.timeouts, &input.info)
            .into_iter()
            .map(Command::Info),
    );
    requests.push(Command::Position {
        board: Box::new(position.board.clone()),
        blocked: position.blocked.clone(),
    });
    requests
}

/// The controller's answers to the turn: the move and its search's summary, or why there is
/// none. INFO values it refused come as errors before the move and are only logged.
#[derive(Default)]
struct TurnAnswers(Mutex<TurnRecord>);

#[derive(Default)]
struct TurnRecord {
    played: Option<Point>,
    summary: Option<SearchInfo>,
    last_error: Option<String>,
}

impl AnswerSink for TurnAnswers {
    fn send(&self, answer: Answer) {
        let mut record = self.0.lock();
        match answer {
            Answer::Move(p) => record.played = Some(p),
            Answer::SearchSummary(info) => record.summary = Some(info),
            Answer::Error(text) => {
                log::warn!("{text}");
                record.last_error = Some(text);
            }
            _ => {}
        }
    }

    fn close(&self) {}
}

impl TurnAnswers {
    /// The move and its search's summary, or the engine's last error as the reason for none.
    fn outcome(&self) -> Result<(Point, SearchInfo), LegacyError> {
        let mut record = self.0.lock();
        match (record.played, record.summary.take()) {
            (Some(point), Some(info)) => Ok((point, info)),
            _ => Err(LegacyError::Engine(
                record
                    .last_error
                    .take()
                    .unwrap_or_else(|| "the engine gave no move".to_string()),
            )),
        }
    }
}

/// Hands `requests` to a controller of their own, all arrived at `started` (the manager times
/// the turn from our launch), and lets the search they start end by its own limits.
fn ask_controller(
    config: &Config,
    thinker: Box<dyn Thinker>,
    requests: Vec<Command>,
    started: Instant,
) -> Result<(Point, SearchInfo), LegacyError> {
    let answers = Arc::new(TurnAnswers::default());
    let (sender, events) = crossbeam_channel::unbounded();
    for request in requests {
        let _ = sender.send(Event::Request(Request::Command(request), started));
    }
    let _ = sender.send(Event::AwaitSearch);
    Controller::new(config.clone(), answers.clone(), thinker, events, sender).run();
    answers.outcome()
}

/// Our answer: the move for TAH.DAT and the line for MSG.DAT (`None`: leave MSG.DAT alone).
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyAnswer {
    pub point: Point,
    pub message: Option<String>,
}

/// Reads the files in `dir` and plays the turn through the controller; writes nothing.
pub fn play_turn(
    dir: &Path,
    config: &Config,
    thinker: Box<dyn Thinker>,
    started: Instant,
) -> Result<LegacyAnswer, LegacyError> {
    let input = LegacyInput::read(dir)?;
    let rule = rule_from_info(&input.info)?;
    let position = build_position(&input.board, input.to_move, rule)?;
    if let Some(folder) = input.folder() {
        log::debug!("persistent folder {folder}: nothing to keep there");
    }
    log::info!(
        "{}x{} {rule}, '{}' to move ({:?}), {} '#'",
        input.board.width,
        input.board.height,
        symbol_char(input.to_move),
        position.to_move_color(),
        position.blocked.len()
    );
    let requests = turn_requests(&input, rule, &position);
    let (point, mut info) = ask_controller(config, thinker, requests, started)?;
    // The controller plays a blocked square without complaint (its last resort when nothing
    // else is free, which the position's check rules out here): from the search it is a bug.
    if !position.is_playable(point) {
        return Err(LegacyError::Internal(format!(
            "the search chose {point}, which is not a free square"
        )));
    }
    // The board's colours are swapped against the true ones when '#' squares hide an odd
    // number of stones (module docs): show the principal variation in the true colours.
    if position.board.side_to_move() != position.to_move_color() {
        for (color, _) in &mut info.pv {
            *color = color.opponent();
        }
    }
    let message = config.protocol.search_message.then(|| {
        format!(
            "hoshi '{}' ({}): {}",
            symbol_char(input.to_move),
            match position.to_move_color() {
                Color::Black => "black",
                Color::White => "white",
            },
            search_message(&info)
        )
    });
    Ok(LegacyAnswer { point, message })
}

/// When the OS started this process, if it can tell (else `now`). The manager times a move from
/// launch to exit, and loading the libraries before `main` is a noticeable part of that (with
/// libtorch linked in, about 0.2 s), so the clock should start there.
pub fn launch_instant(now: Instant) -> Instant {
    process_age()
        .and_then(|age| now.checked_sub(age))
        .unwrap_or(now)
}

#[cfg(target_os = "linux")]
fn process_age() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let uptime = std::fs::read_to_string("/proc/uptime").ok()?;
    age_from_proc(&stat, &uptime)
}

/// Windows: the process's creation time (`GetProcessTimes`) against the system time, both
/// FILETIMEs (100 ns ticks); kernel32 is linked by every Rust program on Windows.
#[cfg(windows)]
fn process_age() -> Option<Duration> {
    use std::ffi::c_void;
    #[repr(C)]
    #[derive(Default)]
    struct FileTime {
        low: u32,
        high: u32,
    }
    extern "system" {
        fn GetCurrentProcess() -> *mut c_void;
        fn GetProcessTimes(
            process: *mut c_void,
            creation: *mut FileTime,
            exit: *mut FileTime,
            kernel: *mut FileTime,
            user: *mut FileTime,
        ) -> i32;
        fn GetSystemTimeAsFileTime(now: *mut FileTime);
    }
    let [mut creation, mut exit, mut kernel, mut user, mut now] = Default::default();
    // SAFETY: the pseudo-handle of the current process needs no closing, and every pointer is
    // to a local FILETIME that outlives the call.
    let ok = unsafe {
        let ok = GetProcessTimes(
            GetCurrentProcess(),
            &mut creation,
            &mut exit,
            &mut kernel,
            &mut user,
        );
        GetSystemTimeAsFileTime(&mut now);
        ok
    };
    let ticks = |t: &FileTime| (u64::from(t.high) << 32) | u64::from(t.low);
    (ok != 0).then_some(())?;
    age_from_filetimes(ticks(&creation), ticks(&now))
}

#[cfg(not(any(target_os = "linux", windows)))]
fn process_age() -> Option<Duration> {
    None
}

/// The age of a process created at FILETIME `creation`, now `now` (100 ns ticks); a value that
/// makes no sense (negative, or over a minute) is dropped, as on Linux.
#[cfg_attr(not(windows), allow(dead_code))]
fn age_from_filetimes(creation: u64, now: u64) -> Option<Duration> {
    let age = Duration::from_nanos(now.checked_sub(creation)?.saturating_mul(100));
    (age < Duration::from_secs(60)).then_some(age)
}

/// `/proc/uptime` minus the process's start time (field 22 of `/proc/self/stat`, in ticks of
/// 1/100 s, the USER_HZ of every mainstream Linux port). Resolution 10 ms; a value that makes
/// no sense (negative, or over a minute) is dropped.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn age_from_proc(stat: &str, uptime: &str) -> Option<Duration> {
    const TICKS_PER_SECOND: f64 = 100.0;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let start_ticks: f64 = after_name.split_whitespace().nth(19)?.parse().ok()?;
    let up: f64 = uptime.split_whitespace().next()?.parse().ok()?;
    let age = up - start_ticks / TICKS_PER_SECOND;
    (-1.0..60.0)
        .contains(&age)
        .then(|| Duration::from_secs_f64(age.max(0.0)))
}

/// One line for MSG.DAT: some managers show only the first line.
fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_file(dir: &Path, name: &'static str, text: &str) -> Result<(), LegacyError> {
    std::fs::write(locate(dir, name), text).map_err(|source| LegacyError::Write { name, source })
}

/// Explains `error` in MSG.DAT (and on stderr) and returns the exit code. TAH.DAT is untouched.
pub fn report_failure(dir: &Path, error: &LegacyError) -> u8 {
    let text = one_line(&format!("hoshi: {error}"));
    log::error!("{text}");
    if let Err(e) = write_file(dir, MSG_DAT, &text) {
        log::error!("{e}");
    }
    error.exit_code()
}

/// The whole run: plays one move from the files in `dir` and writes TAH.DAT (and MSG.DAT), or
/// reports the failure. Returns the exit code.
pub fn run(dir: &Path, config: &Config, thinker: Box<dyn Thinker>, started: Instant) -> u8 {
    let written = play_turn(dir, config, thinker, started).and_then(|answer| {
        // MSG.DAT first: once TAH.DAT holds the move, the answer is complete.
        if let Some(message) = &answer.message {
            write_file(dir, MSG_DAT, &one_line(message))?;
        }
        write_file(dir, TAH_DAT, &format_tah(answer.point))?;
        log::info!("played {} in {:?}", answer.point, started.elapsed());
        Ok(())
    });
    match written {
        Ok(()) => 0,
        Err(e) => report_failure(dir, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::one_ply::ClassicalPlayer;
    use crate::search::{ThinkRequest, ThinkResult};
    use std::sync::atomic::AtomicBool;

    fn plocha(rows: &[&str]) -> LegacyBoard {
        parse_plocha(&rows.join("\n")).unwrap()
    }

    /// A 15x15 board with these rows at the top (the rest empty).
    fn board15(top: &[&str]) -> LegacyBoard {
        parse_plocha(&board15_text(top)).unwrap()
    }

    fn board15_text(top: &[&str]) -> String {
        let mut rows: Vec<String> = top.iter().map(|r| format!("{r:-<15}")).collect();
        rows.resize(15, "-".repeat(15));
        rows.join("\n")
    }

    const X: Symbol = Symbol::Cross;
    const O: Symbol = Symbol::Circle;

    #[test]
    fn first_player_from_counts() {
        // Empty board: whoever moves is black.
        assert_eq!(first_player(&board15(&[]), X).unwrap(), X);
        assert_eq!(first_player(&board15(&[]), O).unwrap(), O);
        // Equal counts: the side to move is black.
        assert_eq!(first_player(&board15(&["xo"]), O).unwrap(), O);
        assert_eq!(first_player(&board15(&["xo"]), X).unwrap(), X);
        // One more stone: that side moved first.
        assert_eq!(first_player(&board15(&["xox"]), O).unwrap(), X);
        assert_eq!(first_player(&board15(&["oxo"]), X).unwrap(), O);
    }

    #[test]
    fn impossible_counts() {
        // The side to move cannot be ahead, and nobody can be two stones ahead.
        let e = first_player(&board15(&["xox"]), X).unwrap_err();
        assert!(matches!(e, LegacyError::Impossible(_)), "{e}");
        assert!(e.to_string().contains("2 'x' and 1 'o'"), "{e}");
        assert!(first_player(&board15(&["xxx"]), O).is_err());
        assert!(first_player(&board15(&["xxxo"]), O).is_err());
        assert_eq!(e.exit_code(), 1);
    }

    #[test]
    fn hidden_stones_of_a_continuous_game() {
        // 2 x, 2 o, 5 '#': 9 moves were made, so the side not to move moved first, whatever
        // the visible counts say; the '#' can balance a difference up to their number.
        let b = board15(&["xxoo", "#####"]);
        assert_eq!(first_player(&b, X).unwrap(), O);
        assert_eq!(first_player(&b, O).unwrap(), X);
        // 7 x, 0 o and 5 '#' (12 moves): o to move is black only if o had 6 stones, 5 of them
        // hidden: impossible. x to move is impossible too (x would have to be behind).
        let b = board15(&["xxxxxxx", "#####"]);
        assert!(first_player(&b, O).is_err());
        assert!(first_player(&b, X).is_err());
        // 6 x, 0 o, 5 '#' (11 moves): o to move, x first, x 6 + 0 hidden, o 0 + 5 hidden.
        let b = board15(&["x-x-x-x-x-x", "#####"]);
        assert_eq!(first_player(&b, O).unwrap(), X);
    }

    #[test]
    fn seed_board_is_possible_for_both_sides() {
        let text = "\
---x-x--------------\n----x-o---x---------\n-----xxoooox--------\n-----#x-o-----------\n\
-----#xoooxo--------\n-----#--x-x---------\n-----#--------------\n-----#-----#-------x\n\
------o---#xoo-----o\n----xooo-#----------\n------xo#-----------\n-------#o-----------\n\
------#oxx----------\n-----o--------------\n--------------------\nooox----------------\n\
---x----------------\n-x-x----------xoo-x-\n--------------------\n--------------------\n";
        let b = parse_plocha(text).unwrap();
        for mover in [X, O] {
            let pos = build_position(&b, mover, Rule::Freestyle).unwrap();
            assert_eq!(pos.blocked.len(), 11);
            assert_eq!(pos.board.stone_count(), 50);
            // The mover's stones have the board's side-to-move colour.
            let c = pos.board.side_to_move();
            for (p, sq) in b.occupied() {
                match sq {
                    Square::Stone(s) if s == mover => assert_eq!(pos.board.get(p), Some(c)),
                    Square::Stone(_) => assert_eq!(pos.board.get(p), Some(c.opponent())),
                    _ => assert_eq!(pos.board.get(p), None),
                }
            }
        }
    }

    #[test]
    fn board_colours_are_true_colours_without_hash() {
        // o has one more stone: o is black and x (white) is to move.
        let b = board15(&["ooo", "xx"]);
        let pos = build_position(&b, X, Rule::Renju).unwrap();
        assert_eq!(pos.first, O);
        assert_eq!(pos.to_move_color(), Color::White);
        assert_eq!(pos.board.side_to_move(), Color::White);
        assert_eq!(pos.board.get(Point::new(0, 0)), Some(Color::Black));
        assert_eq!(pos.board.get(Point::new(0, 1)), Some(Color::White));
    }

    #[test]
    fn bad_positions() {
        let five = board15(&["xxxxx", "oooo"]);
        let e = build_position(&five, O, Rule::Freestyle).unwrap_err();
        assert!(e.to_string().contains("already a five"), "{e}");
        // Under exactly-five an overline is no five: the game goes on.
        let six = board15(&["xxxxxx", "oo-ooo"]);
        assert!(build_position(&six, O, Rule::Freestyle).is_err());
        assert!(build_position(&six, O, Rule::Standard).is_ok());
        let hashed = board15(&["x#", "o"]);
        let e = build_position(&hashed, X, Rule::Renju).unwrap_err();
        assert!(e.to_string().contains("renju"), "{e}");
        let small = plocha(&["----", "----", "----", "----"]);
        let e = build_position(&small, X, Rule::Freestyle).unwrap_err();
        assert!(matches!(e, LegacyError::Unsupported(_)), "{e}");
        assert!(e.to_string().contains("4x4"), "{e}");
    }

    #[test]
    fn full_board_or_only_hash_left() {
        // 5x5 with no five: rows shifted by two (runs of two at most in every direction).
        let rows: Vec<String> = (0..5)
            .map(|y| {
                (0..5)
                    .map(|x| if (x + 2 * y) % 4 < 2 { 'x' } else { 'o' })
                    .collect()
            })
            .collect();
        let full = parse_plocha(&rows.join("\n")).unwrap();
        let (nx, no) = (full.count(Square::Stone(X)), full.count(Square::Stone(O)));
        let mover = if nx > no { O } else { X };
        let e = build_position(&full, mover, Rule::Freestyle).unwrap_err();
        assert!(matches!(e, LegacyError::BoardFull), "{e}");
        // The same board with one stone turned into '#': no free square either.
        let mut rows = rows;
        rows[0].replace_range(0..1, "#");
        let hashed = parse_plocha(&rows.join("\n")).unwrap();
        let e = build_position(&hashed, X, Rule::Freestyle)
            .or_else(|_| build_position(&hashed, O, Rule::Freestyle))
            .unwrap_err();
        assert!(matches!(e, LegacyError::BoardFull), "{e}");
    }

    #[test]
    fn rules_of_info_dat() {
        let rule = |code| rule_from_info(&[InfoKey::Rule(code)]);
        assert_eq!(rule_from_info(&[]).unwrap(), Rule::Freestyle);
        assert_eq!(rule(0).unwrap(), Rule::Freestyle);
        assert_eq!(rule(1).unwrap(), Rule::Standard);
        // 2 is the continuous freestyle game here, not Yixin's renju.
        assert_eq!(rule(2).unwrap(), Rule::Freestyle);
        assert_eq!(rule(3).unwrap(), Rule::Standard);
        assert_eq!(rule(4).unwrap(), Rule::Renju);
        assert_eq!(rule(8).unwrap(), Rule::Caro);
        assert_eq!(rule(9).unwrap(), Rule::CaroExact);
        for bad in [-1, 5, 16, 100] {
            let e = rule(bad).unwrap_err();
            assert!(e.to_string().contains(&format!("rule {bad}")), "{e}");
        }
        // The last rule line counts.
        assert_eq!(
            rule_from_info(&[InfoKey::Rule(0), InfoKey::Rule(1)]).unwrap(),
            Rule::Standard
        );
    }

    #[test]
    fn clock_from_timeouts_and_info() {
        let config = Config::default();
        let t = LegacyTimeouts {
            turn_seconds: 5,
            time_left_ms: 100_000,
        };
        assert_eq!(
            turn_info(&t, &[]),
            vec![
                InfoKey::TimeoutTurn(5000),
                InfoKey::TimeoutMatch(0),
                InfoKey::TimeLeft(100_000)
            ]
        );
        // INFO.DAT is finer (ms) and wins; its max_memory is passed on, its other keys are not.
        let info = [
            InfoKey::TimeoutTurn(2500),
            InfoKey::TimeLeft(148_150),
            InfoKey::TimeoutMatch(180_000),
            InfoKey::MaxMemory(1 << 30),
            InfoKey::ThreadNum(7),
        ];
        assert_eq!(
            turn_info(&t, &info),
            vec![
                InfoKey::TimeoutTurn(2500),
                InfoKey::TimeoutMatch(180_000),
                InfoKey::TimeLeft(148_150),
                InfoKey::MaxMemory(1 << 30)
            ]
        );
        // The search's limits, from the controller's own turn, with these INFO.DAT lines.
        let dir = Scratch::new("clock");
        std::fs::write(dir.0.join(PLOCHA_DAT), board15_text(&[])).unwrap();
        std::fs::write(dir.0.join(TIMEOUTS_DAT), "0\n2147483647\n").unwrap();
        let limits = |info: &str| {
            std::fs::write(dir.0.join(TAH_DAT), "x").unwrap();
            std::fs::write(dir.0.join(INFO_DAT), info).unwrap();
            let (spy, seen) = Spy::new();
            let started = Instant::now();
            assert_eq!(run(&dir.0, &config, Box::new(spy), started), 0);
            let request = seen.lock().take().expect("the search ran");
            (request.limits, started)
        };
        // Turn 0: answer at once; the clock started at our launch.
        let (fast, started) = limits("");
        assert_eq!(fast.hard, Some(started));
        // Unlimited turn and match: no deadline. max_memory 0 = no limit.
        let (unlimited, _) = limits("timeout_turn -1\nmax_memory 0\n");
        assert_eq!((unlimited.hard, unlimited.target), (None, None));
        assert_eq!(unlimited.max_memory_bytes, None);
        assert!(unlimited.threads >= 1);
    }

    #[test]
    fn the_files_become_a_managers_requests() {
        let input = LegacyInput {
            board: board15(&["x#", "o"]),
            to_move: X,
            timeouts: LegacyTimeouts {
                turn_seconds: 5,
                time_left_ms: 100_000,
            },
            info: vec![InfoKey::Rule(3), InfoKey::MaxMemory(1 << 30)],
        };
        let rule = rule_from_info(&input.info).unwrap();
        let position = build_position(&input.board, X, rule).unwrap();
        // INFO.DAT's rule 3 (continuous, exactly five) is the engine's rule 1.
        assert_eq!(
            turn_requests(&input, rule, &position),
            vec![
                Command::RectStart(15, 15),
                Command::Info(InfoKey::Rule(1)),
                Command::Info(InfoKey::TimeoutTurn(5000)),
                Command::Info(InfoKey::TimeoutMatch(0)),
                Command::Info(InfoKey::TimeLeft(100_000)),
                Command::Info(InfoKey::MaxMemory(1 << 30)),
                Command::Position {
                    board: Box::new(position.board.clone()),
                    blocked: vec![Point::new(1, 0)],
                },
            ]
        );
    }

    #[test]
    fn the_position_reaches_the_search_as_set_up() {
        // The seed board: 24 x, 26 o and 11 '#', counts a BOARD would refuse. The search gets
        // the stones in the file's order, with the colours of `build_position`, and the '#'
        // squares blocked.
        let text = include_str!("../../tests/data/seed-plocha.dat");
        let plocha = parse_plocha(text).unwrap();
        let file_order: Vec<Point> = plocha
            .occupied()
            .into_iter()
            .filter(|(_, square)| matches!(square, Square::Stone(_)))
            .map(|(p, _)| p)
            .collect();
        let dir = Scratch::new("setup");
        std::fs::write(dir.0.join(PLOCHA_DAT), text).unwrap();
        std::fs::write(dir.0.join(TIMEOUTS_DAT), "1\n1000\n").unwrap();
        for mover in [X, O] {
            std::fs::write(dir.0.join(TAH_DAT), symbol_char(mover).to_string()).unwrap();
            let (spy, seen) = Spy::new();
            let code = run(&dir.0, &Config::default(), Box::new(spy), Instant::now());
            assert_eq!(code, 0);
            let request = seen.lock().take().expect("the search ran");
            let expected = build_position(&plocha, mover, Rule::Freestyle).unwrap();
            assert_eq!(request.board.history(), file_order.as_slice());
            for &p in &file_order {
                assert_eq!(request.board.get(p), expected.board.get(p), "{p}");
            }
            assert_eq!(request.blocked, expected.blocked);
        }
    }

    #[test]
    fn process_age_from_proc() {
        let stat = "4242 (my (odd) brain) S 1 4242 4242 0 -1 4194560 300 0 0 0 5 2 0 0 20 0 \
                    1 0 160605 9000000 800 18446744073709551615";
        let age = age_from_proc(stat, "1606.16 3000.00\n").unwrap();
        assert_eq!(age.as_millis(), 110);
        // Rounding may put the start a tick after "now": that is age zero.
        assert_eq!(age_from_proc(stat, "1606.04 1.0"), Some(Duration::ZERO));
        // Nonsense is dropped.
        assert_eq!(age_from_proc(stat, "5.0 1.0"), None);
        assert_eq!(age_from_proc(stat, "99999.0 1.0"), None);
        assert_eq!(age_from_proc("garbage", "1.0"), None);
        let now = Instant::now();
        let launched = launch_instant(now);
        assert!(launched <= now);
        if cfg!(any(target_os = "linux", windows)) {
            assert!(process_age().is_some());
        }
    }

    #[test]
    fn process_age_from_filetimes() {
        // 100 ns ticks: 2,500,000 ticks are 250 ms.
        let created = 133_000_000_000_000_000;
        assert_eq!(
            age_from_filetimes(created, created + 2_500_000),
            Some(Duration::from_millis(250))
        );
        assert_eq!(age_from_filetimes(created, created), Some(Duration::ZERO));
        // A clock that went back, or a process older than a minute: no age.
        assert_eq!(age_from_filetimes(created, created - 1), None);
        assert_eq!(age_from_filetimes(created, created + 61 * 10_000_000), None);
    }

    #[test]
    fn one_line_messages() {
        assert_eq!(one_line("a\r\nb\n\nc "), "a b c");
        assert_eq!(one_line("plain"), "plain");
    }

    /// A scratch directory under the system temp dir, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir()
                .join(format!("hoshi-legacy-unit-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The request a [`Spy`] was asked.
    type Seen = Arc<Mutex<Option<ThinkRequest>>>;

    /// A thinker that keeps the request it was asked and plays as the classical player.
    struct Spy(Seen);

    impl Spy {
        fn new() -> (Spy, Seen) {
            let seen = Seen::default();
            (Spy(Arc::clone(&seen)), seen)
        }
    }

    impl Thinker for Spy {
        fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult {
            *self.0.lock() = Some(request.clone());
            ClassicalPlayer.think(request, stop)
        }

        fn clear(&mut self) {}

        fn name(&self) -> &str {
            "spy"
        }
    }

    /// A thinker that fails in every way a buggy search could.
    struct Broken {
        answer: Option<Option<Point>>,
    }

    impl Thinker for Broken {
        fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult {
            let mut result = ClassicalPlayer.think(request, stop);
            match self.answer {
                Some(best) => result.best = best,
                None => panic!("broken thinker"),
            }
            result
        }

        fn clear(&mut self) {}

        fn name(&self) -> &str {
            "broken"
        }
    }

    #[test]
    fn a_bad_search_answer_is_caught() {
        let dir = Scratch::new("broken");
        // A '#' on 0,0 and a stone on 1,0.
        std::fs::write(dir.0.join(PLOCHA_DAT), board15_text(&["#x", "o"])).unwrap();
        std::fs::write(dir.0.join(TIMEOUTS_DAT), "1\n1000\n").unwrap();
        let config = Config::default();
        let turn = |answer: Option<Option<Point>>| {
            std::fs::write(dir.0.join(TAH_DAT), "x").unwrap();
            let code = run(&dir.0, &config, Box::new(Broken { answer }), Instant::now());
            let tah = std::fs::read_to_string(dir.0.join(TAH_DAT)).unwrap();
            let msg = std::fs::read_to_string(dir.0.join(MSG_DAT)).unwrap_or_default();
            (code, tah, msg)
        };
        for bad in [Point::new(0, 0), Point::new(1, 0), Point::new(15, 3)] {
            let (code, tah, msg) = turn(Some(Some(bad)));
            assert_eq!((code, tah.as_str()), (3, "x"), "{bad}");
            assert!(
                msg.contains("internal error") && msg.contains(&bad.to_string()),
                "{msg}"
            );
        }
        let (code, tah, msg) = turn(None);
        assert_eq!((code, tah.as_str()), (3, "x"));
        assert!(msg.contains("panicked"), "{msg}");
        // No answer at all: some free square, never the '#'.
        let (code, tah, _) = turn(Some(None));
        assert_eq!(code, 0);
        assert!(
            tah != "x" && tah != "0,0" && tah != "1,0" && tah != "0,1",
            "{tah}"
        );
    }

    #[test]
    fn lower_case_file_names_are_found_and_answered() {
        let dir = Scratch::new("lower");
        let rows: Vec<String> = (0..15)
            .map(|y| {
                if y == 7 {
                    "---xxxx--------".into()
                } else {
                    "-".repeat(15)
                }
            })
            .collect();
        std::fs::write(dir.0.join("plocha.dat"), rows.join("\r\n")).unwrap();
        std::fs::write(dir.0.join("tah.dat"), "o").unwrap();
        std::fs::write(dir.0.join("timeouts.dat"), "1\r\n10000\r\n").unwrap();
        // x has 4 stones, o none: impossible with o to move.
        let code = run(
            &dir.0,
            &Config::default(),
            Box::new(ClassicalPlayer),
            Instant::now(),
        );
        assert_eq!(code, 1);
        assert_eq!(std::fs::read_to_string(dir.0.join("tah.dat")).unwrap(), "o");
        let msg = std::fs::read_to_string(dir.0.join("MSG.DAT")).unwrap();
        assert!(msg.contains("impossible position"), "{msg}");
        // With o's stones in place, o must block at 2,7 or 7,7.
        let rows: Vec<String> = (0..15)
            .map(|y| match y {
                7 => "---xxxx--------".into(),
                9 => "-o-o-o---------".into(),
                _ => "-".repeat(15),
            })
            .collect();
        std::fs::write(dir.0.join("plocha.dat"), rows.join("\r\n")).unwrap();
        std::fs::write(dir.0.join("tah.dat"), "x").unwrap();
        std::fs::remove_file(dir.0.join("MSG.DAT")).unwrap();
        // x to move with 4 against 3: impossible; o to move is the real position.
        assert_eq!(
            run(
                &dir.0,
                &Config::default(),
                Box::new(ClassicalPlayer),
                Instant::now()
            ),
            1
        );
        std::fs::write(dir.0.join("tah.dat"), "o").unwrap();
        let code = run(
            &dir.0,
            &Config::default(),
            Box::new(ClassicalPlayer),
            Instant::now(),
        );
        assert_eq!(code, 0);
        let tah = std::fs::read_to_string(dir.0.join("tah.dat")).unwrap();
        assert!(tah == "2,7" || tah == "7,7", "{tah}");
        assert!(!dir.0.join("TAH.DAT").exists() || cfg!(windows));
    }
}
