//! The line parser: protocol lines in, typed `Command`s out.
//!
//! It is stateful only because some commands are blocks: `BOARD`, `yxboard`, `SWAP2BOARD`,
//! `SWAPBOARD`, `SHOWFORBID`, `BALANCE n`, `yxblock` and `yxblockundo` are followed by one
//! `x,y[,f]` line per stone and end with `DONE`. While a block is open `feed` answers `None`
//! and the whole block comes out at `DONE`.
//!
//! Leniency (what the managers and GUIs in the wild send):
//! - command words and INFO keys in any letter case; CRLF, tabs and stray spaces anywhere;
//! - `10,11`, `10, 11`, `10 ,11` are the same point; points in a list are separated by spaces;
//! - numbers are 64-bit signed integers (a leading `+` is accepted); coordinates must be
//!   non-negative and below 256 — the engine checks them against the board.
//!
//! Strictness: overflowing numbers, negative coordinates, missing or surplus arguments, and a
//! malformed value for a known INFO key are `Error`s (the engine answers `ERROR message`).
//! Unknown command words are `Unknown` (answer `UNKNOWN line`); unknown INFO keys are typed
//! `InfoKey::Unknown` (Gomocup says: ignore them).
//!
//! Malformed block lines: the block is NOT dropped silently. The parser keeps reading to `DONE`
//! and then returns one `Error` that names the first bad line and how many there were, instead
//! of the command; the engine answers `ERROR …` and keeps its old position. A blank line inside
//! a block is skipped. A line inside a block whose first word is a known command (say `END`,
//! `STOP` or a new `BOARD`) means the manager gave up on the block: the open block is dropped
//! (with a log warning) and that line is parsed as a command, so `END` always gets through.
//! `DONE` outside a block is an `Error`.
use super::{Command, Field, InfoKey};
use crate::game::Point;

/// Coordinates at or above this are rejected by the parser (a `Point` holds `u8`s).
pub const COORD_LIMIT: i64 = 256;
/// A block longer than this (a full 32×32 board) is malformed.
pub const MAX_BLOCK_LINES: usize = 1024;
/// Offending lines quoted in error messages are cut to this many characters.
const QUOTE_LIMIT: usize = 60;

/// What one input line amounts to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Parsed {
    Command(Command),
    /// Answer `ERROR message`.
    Error {
        message: String,
    },
    /// Answer `UNKNOWN line`: the command word is not one we know.
    Unknown {
        line: String,
    },
    /// A blank line outside a block: ignore it.
    Empty,
}

impl Parsed {
    /// The line to answer with, for a line that is not a command: `ERROR message` or
    /// `UNKNOWN line`. `None` for commands (the engine answers those) and blank lines.
    pub fn answer(&self) -> Option<String> {
        match self {
            Parsed::Error { message } => Some(super::format::error(message)),
            Parsed::Unknown { line } => Some(super::format::unknown(line)),
            Parsed::Command(_) | Parsed::Empty => None,
        }
    }
}

/// The parser state: `None` between commands, `Some` while a block is being read.
#[derive(Default, Debug)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a block (`BOARD` … `DONE` and friends) is being read.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Feeds one line (with or without its line ending). Returns `None` while a block is
    /// being read and the line was taken into it; otherwise what the line amounts to.
    pub fn feed(&mut self, line: &str) -> Option<Parsed> {
        let text = line.trim();
        if self.block.is_some() {
            return self.feed_block_line(text);
        }
        if text.is_empty() {
            return Some(Parsed::Empty);
        }
        self.start_line(text)
    }

    /// Parses a line outside a block: a command, or the opening of a block (`None`: the
    /// block's result comes at DONE).
    fn start_line(&mut self, text: &str) -> Option<Parsed> {
        let parsed = match parse_command_line(text) {
            LineParse::Done(cmd) => Parsed::Command(cmd),
            LineParse::Open(kind) => {
                self.block = Some(Block::new(kind));
                return None;
            }
            LineParse::Unknown => Parsed::Unknown {
                line: text.to_string(),
            },
            LineParse::Error(message) => Parsed::Error { message },
        };
        Some(parsed)
    }

    fn feed_block_line(&mut self, text: &str) -> Option<Parsed> {
        if text.is_empty() {
            return None;
        }
        let (word, rest) = split_word(text);
        let word = word.to_ascii_lowercase();
        if word == "done" {
            let block = self.block.take()?;
            let mut parsed = block.finish();
            if !rest.is_empty() {
                parsed = Parsed::Error {
                    message: format!("DONE takes no arguments, got '{}'", quote(rest)),
                };
            }
            return Some(parsed);
        }
        if is_command_word(&word) {
            if let Some(block) = self.block.take() {
                log::warn!(
                    "{} block abandoned after {} lines: '{}' arrived before DONE",
                    block.kind.name(),
                    block.lines,
                    quote(text)
                );
            }
            return self.start_line(text);
        }
        if let Some(block) = self.block.as_mut() {
            block.take_line(text);
        }
        None
    }
}

/// Which block is being read; decides what its lines must look like and what it becomes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockKind {
    Board { search: bool },
    Swap2Board,
    SwapBoard,
    ShowForbid,
    Balance(u32),
    YxBlock,
    YxBlockUndo,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board { search: true } => "BOARD",
            BlockKind::Board { search: false } => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::SwapBoard => "SWAPBOARD",
            BlockKind::ShowForbid => "SHOWFORBID",
            BlockKind::Balance(_) => "BALANCE",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        }
    }

    /// Stone blocks need the field number; move lists (swap openings, blocked moves) do not.
    fn needs_field(self) -> bool {
        matches!(
            self,
            BlockKind::Board { .. } | BlockKind::ShowForbid | BlockKind::Balance(_)
        )
    }
}

/// A block being read: the good lines so far, and the first bad one.
#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<(Point, Field)>,
    points: Vec<Point>,
    lines: usize,
    first_bad: Option<(String, String)>,
    bad_count: usize,
}

impl Block {
    fn new(kind: BlockKind) -> Block {
        Block {
            kind,
            stones: Vec::new(),
            points: Vec::new(),
            lines: 0,
            first_bad: None,
            bad_count: 0,
        }
    }

    fn take_line(&mut self, text: &str) {
        self.lines += 1;
        if self.lines > MAX_BLOCK_LINES {
            self.reject(text, format!("more than {MAX_BLOCK_LINES} lines"));
            return;
        }
        match parse_block_line(text, self.kind.needs_field()) {
            Ok((point, Some(field))) => self.stones.push((point, field)),
            Ok((point, None)) => self.points.push(point),
            Err(reason) => self.reject(text, reason),
        }
    }

    fn reject(&mut self, text: &str, reason: String) {
        self.bad_count += 1;
        if self.first_bad.is_none() {
            self.first_bad = Some((quote(text), reason));
        }
    }

    fn finish(self) -> Parsed {
        if let Some((line, reason)) = self.first_bad {
            let more = match self.bad_count {
                1 => String::new(),
                n => format!(" and {} more bad lines", n - 1),
            };
            return Parsed::Error {
                message: format!(
                    "{} ignored: bad line '{}' ({}){}",
                    self.kind.name(),
                    line,
                    reason,
                    more
                ),
            };
        }
        // Blocks that need a field only ever fill `stones`; the others fill `points`, after
        // dropping an optional field.
        let cmd = match self.kind {
            BlockKind::Board { search } => Command::Board {
                stones: self.stones,
                search,
            },
            BlockKind::ShowForbid => Command::ShowForbid(Some(self.stones)),
            BlockKind::Balance(n) => Command::Balance {
                n,
                stones: self.stones,
            },
            BlockKind::Swap2Board => Command::Swap2Board(self.points),
            BlockKind::SwapBoard => Command::SwapBoard(self.points),
            BlockKind::YxBlock => Command::YxBlock(self.points),
            BlockKind::YxBlockUndo => Command::YxBlockUndo(self.points),
        };
        Parsed::Command(cmd)
    }
}

/// The result of parsing a command line.
enum LineParse {
    Done(Command),
    Open(BlockKind),
    Unknown,
    Error(String),
}

impl From<Result<Command, String>> for LineParse {
    fn from(r: Result<Command, String>) -> LineParse {
        match r {
            Ok(c) => LineParse::Done(c),
            Err(e) => LineParse::Error(e),
        }
    }
}

/// Every command word we know, lower case, except the numbered Yixin steps.
const WORDS: &[&str] = &[
    "start",
    "rectstart",
    "restart",
    "turn",
    "begin",
    "board",
    "yxboard",
    "info",
    "end",
    "about",
    "takeback",
    "play",
    "ponder",
    "stop",
    "yxstop",
    "swap2board",
    "swapboard",
    "showforbid",
    "yxshowforbid",
    "balance",
    "clearhash",
    "yxhashclear",
    "protocolversion",
    "yxshowinfo",
    "yxnbest",
    "yxbalanceone",
    "yxbalancetwo",
    "yxblock",
    "yxblockundo",
    "yxblockreset",
    "yxsearchdefend",
    "yxdraw",
    "yxresign",
];

const SWAP2_STEP: &str = "yxswap2step";
const SOOSORV_STEP: &str = "yxsoosorvstep";

/// Whether a lower-cased word is a command we know (used to spot an interrupted block).
fn is_command_word(word: &str) -> bool {
    WORDS.contains(&word) || word.starts_with(SWAP2_STEP) || word.starts_with(SOOSORV_STEP)
}

/// Splits a trimmed line into its first word and the trimmed rest.
fn split_word(text: &str) -> (&str, &str) {
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    }
}

fn parse_command_line(text: &str) -> LineParse {
    let (word, args) = split_word(text);
    let word = word.to_ascii_lowercase();
    let no_args = |cmd: Command| -> LineParse {
        if args.is_empty() {
            LineParse::Done(cmd)
        } else {
            LineParse::Error(format!(
                "{} takes no arguments, got '{}'",
                cmd.name(),
                quote(args)
            ))
        }
    };
    let open = |kind: BlockKind| -> LineParse {
        if args.is_empty() {
            LineParse::Open(kind)
        } else {
            LineParse::Error(format!(
                "{} takes no arguments, got '{}'",
                kind.name(),
                quote(args)
            ))
        }
    };
    match word.as_str() {
        "start" => parse_start(args).into(),
        "rectstart" => parse_rectstart(args).into(),
        "restart" => no_args(Command::Restart),
        "turn" => single_point("TURN", args).map(Command::Turn).into(),
        "takeback" => single_point("TAKEBACK", args).map(Command::Takeback).into(),
        "play" => single_point("PLAY", args).map(Command::Play).into(),
        "begin" => no_args(Command::Begin),
        "board" => open(BlockKind::Board { search: true }),
        "yxboard" => open(BlockKind::Board { search: false }),
        "info" => parse_info(args).map(Command::Info).into(),
        // END always ends: a manager that adds junk still wants the brain gone.
        "end" => LineParse::Done(Command::End),
        "about" => no_args(Command::About),
        "ponder" => parse_ponder(args).into(),
        "stop" | "yxstop" => no_args(Command::Stop),
        "swap2board" => open(BlockKind::Swap2Board),
        "swapboard" => open(BlockKind::SwapBoard),
        "showforbid" => open(BlockKind::ShowForbid),
        "yxshowforbid" => no_args(Command::ShowForbid(None)),
        "balance" => match positive_count("BALANCE", args) {
            Ok(n) => LineParse::Open(BlockKind::Balance(n)),
            Err(e) => LineParse::Error(e),
        },
        "clearhash" | "yxhashclear" => no_args(Command::ClearHash),
        "protocolversion" => no_args(Command::ProtocolVersion),
        "yxshowinfo" => no_args(Command::YxShowInfo),
        "yxnbest" => positive_count("YXNBEST", args).map(Command::YxNbest).into(),
        "yxbalanceone" => single_number("YXBALANCEONE", args)
            .map(Command::YxBalanceOne)
            .into(),
        "yxbalancetwo" => single_number("YXBALANCETWO", args)
            .map(Command::YxBalanceTwo)
            .into(),
        "yxblock" => open(BlockKind::YxBlock),
        "yxblockundo" => open(BlockKind::YxBlockUndo),
        "yxblockreset" => no_args(Command::YxBlockReset),
        "yxsearchdefend" => no_args(Command::YxSearchDefend),
        "yxdraw" => no_args(Command::YxDraw),
        "yxresign" => no_args(Command::YxResign),
        w if w.starts_with(SWAP2_STEP) => parse_step(SWAP2_STEP, &w[SWAP2_STEP.len()..], args, 3)
            .map(Command::YxSwap2Step)
            .into(),
        w if w.starts_with(SOOSORV_STEP) => {
            parse_step(SOOSORV_STEP, &w[SOOSORV_STEP.len()..], args, 6)
                .map(Command::YxSoosorvStep)
                .into()
        }
        "done" => LineParse::Error("DONE without a block".to_string()),
        _ => LineParse::Unknown,
    }
}

/// `START n`, Yixin's `START w h` (also `START w,h`): square boards become `Start`.
fn parse_start(args: &str) -> Result<Command, String> {
    let numbers = flat_numbers("START", args)?;
    match numbers.as_slice() {
        [n] => Ok(Command::Start(size_value("START", n)?)),
        [w, h] => {
            let (w, h) = (size_value("START", w)?, size_value("START", h)?);
            Ok(if w == h {
                Command::Start(w)
            } else {
                Command::RectStart(w, h)
            })
        }
        [] => Err("START needs a board size".to_string()),
        _ => Err(format!("START: too many numbers in '{}'", quote(args))),
    }
}

/// `RECTSTART w,h` (also `RECTSTART w h`).
fn parse_rectstart(args: &str) -> Result<Command, String> {
    let numbers = flat_numbers("RECTSTART", args)?;
    match numbers.as_slice() {
        [w, h] => Ok(Command::RectStart(
            size_value("RECTSTART", w)?,
            size_value("RECTSTART", h)?,
        )),
        _ => Err(format!(
            "RECTSTART needs width,height, got '{}'",
            quote(args)
        )),
    }
}

fn parse_ponder(args: &str) -> Result<Command, String> {
    if args.is_empty() {
        return Ok(Command::Ponder(None));
    }
    single_number("PONDER", args).map(|ms| Command::Ponder(Some(ms)))
}

/// The number of a Yixin step, glued to the word (`yxswap2step2`) or after a space.
fn parse_step(word: &str, suffix: &str, args: &str, max: u8) -> Result<u8, String> {
    let upper = word.to_ascii_uppercase();
    let digits = match (suffix.is_empty(), args.is_empty()) {
        (false, true) => suffix,
        (true, false) => args,
        (true, true) => return Err(format!("{upper} needs a step number")),
        (false, false) => {
            return Err(format!(
                "{upper}{suffix} takes no arguments, got '{}'",
                quote(args)
            ))
        }
    };
    let n = number(digits)?;
    if (1..=max as i64).contains(&n) {
        Ok(n as u8)
    } else {
        Err(format!("{upper}: step {n} is not in 1..={max}"))
    }
}

/// Parses `key value` (what follows `INFO`); shared with the legacy INFO.DAT reader.
pub(crate) fn parse_info(args: &str) -> Result<InfoKey, String> {
    let (key, value) = split_word(args);
    if key.is_empty() {
        return Err("INFO needs a key".to_string());
    }
    let key = key.to_ascii_lowercase();
    let numeric: Option<fn(i64) -> InfoKey> = match key.as_str() {
        "timeout_turn" => Some(InfoKey::TimeoutTurn),
        "timeout_match" => Some(InfoKey::TimeoutMatch),
        "time_left" => Some(InfoKey::TimeLeft),
        "max_memory" => Some(InfoKey::MaxMemory),
        "game_type" => Some(InfoKey::GameType),
        "rule" => Some(InfoKey::Rule),
        "analysis_mode" => Some(InfoKey::AnalysisMode),
        "max_depth" => Some(InfoKey::MaxDepth),
        "max_node" => Some(InfoKey::MaxNode),
        "time_increment" => Some(InfoKey::TimeIncrement),
        "style" => Some(InfoKey::Style),
        "auto_pondering" => Some(InfoKey::AutoPondering),
        "protocol_lag" => Some(InfoKey::ProtocolLag),
        "thread_num" => Some(InfoKey::ThreadNum),
        "caution_factor" => Some(InfoKey::CautionFactor),
        "hash_size" => Some(InfoKey::HashSize),
        "pondering" => Some(InfoKey::Pondering),
        "vcthread" => Some(InfoKey::VcThread),
        "show_detail" => Some(InfoKey::ShowDetail),
        "usedatabase" => Some(InfoKey::UseDatabase),
        _ => None,
    };
    if let Some(make) = numeric {
        let what = format!("INFO {key}");
        return single_number(&what, value).map(make);
    }
    match key.as_str() {
        "evaluate" => point_list("INFO evaluate", value).map(InfoKey::Evaluate),
        "folder" if value.is_empty() => Err("INFO folder needs a value".to_string()),
        "folder" => Ok(InfoKey::Folder(value.to_string())),
        _ => Ok(InfoKey::Unknown(key, value.to_string())),
    }
}

/// Parses a numeric INFO value or command argument: exactly one 64-bit integer.
pub(crate) fn single_number(what: &str, args: &str) -> Result<i64, String> {
    let mut tokens = args.split_whitespace();
    match (tokens.next(), tokens.next()) {
        (None, _) => Err(format!("{what} needs a value")),
        (Some(t), None) => number(t).map_err(|e| format!("{what}: {e}")),
        (Some(_), Some(_)) => Err(format!("{what}: one value expected, got '{}'", quote(args))),
    }
}

/// A count that must be at least 1 (BALANCE n, yxnbest n).
fn positive_count(what: &str, args: &str) -> Result<u32, String> {
    let n = single_number(what, args)?;
    if n >= 1 && n <= u32::MAX as i64 {
        Ok(n as u32)
    } else {
        Err(format!("{what}: {n} is not a positive count"))
    }
}

/// One signed 64-bit integer token.
pub(crate) fn number(token: &str) -> Result<i64, String> {
    use std::num::IntErrorKind;
    token.parse::<i64>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("number '{}' out of range", quote(token))
        }
        IntErrorKind::Empty => "missing number".to_string(),
        _ => format!("'{}' is not a number", quote(token)),
    })
}

fn coordinate(token: &str) -> Result<u8, String> {
    let v = number(token)?;
    if v < 0 {
        Err(format!("negative coordinate {v}"))
    } else if v >= COORD_LIMIT {
        Err(format!("coordinate {v} too large"))
    } else {
        Ok(v as u8)
    }
}

fn size_value(what: &str, token: &str) -> Result<usize, String> {
    let v = number(token).map_err(|e| format!("{what}: {e}"))?;
    usize::try_from(v).map_err(|_| format!("{what}: negative size {v}"))
}

/// Splits text into comma-joined groups separated by whitespace: `3,4 5 , 6` →
/// `[["3","4"], ["5","6"]]`. Empty members (`3,,4`, `,3`, `3,`) are errors.
fn groups(text: &str) -> Result<Vec<Vec<&str>>, String> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    // Whether the next token joins the last group (a comma came before it).
    let mut joining = false;
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix(',') {
            if joining || out.is_empty() {
                return Err(format!("misplaced comma in '{}'", quote(text)));
            }
            joining = true;
            rest = after.trim_start();
            continue;
        }
        let end = rest
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(rest.len());
        let token = &rest[..end];
        match (joining, out.last_mut()) {
            (true, Some(group)) => group.push(token),
            _ => out.push(vec![token]),
        }
        joining = false;
        rest = rest[end..].trim_start();
    }
    if joining {
        return Err(format!("trailing comma in '{}'", quote(text)));
    }
    Ok(out)
}

/// All numbers of the text, whether separated by commas or spaces (START/RECTSTART sizes).
fn flat_numbers<'a>(what: &str, text: &'a str) -> Result<Vec<&'a str>, String> {
    groups(text)
        .map(|g| g.into_iter().flatten().collect())
        .map_err(|e| format!("{what}: {e}"))
}

fn point_from(group: &[&str]) -> Result<Point, String> {
    match group {
        [x, y] => Ok(Point::new(coordinate(x)?, coordinate(y)?)),
        _ => Err(format!("'{}' is not x,y", quote(&group.join(",")))),
    }
}

/// Exactly one `x,y` (TURN, TAKEBACK, PLAY).
fn single_point(what: &str, args: &str) -> Result<Point, String> {
    let gs = groups(args).map_err(|e| format!("{what}: {e}"))?;
    match gs.as_slice() {
        [g] => point_from(g).map_err(|e| format!("{what}: {e}")),
        [] => Err(format!("{what} needs x,y")),
        _ => Err(format!("{what}: one point expected, got '{}'", quote(args))),
    }
}

/// Zero or more `x,y` separated by spaces (INFO evaluate).
fn point_list(what: &str, args: &str) -> Result<Vec<Point>, String> {
    groups(args)
        .map_err(|e| format!("{what}: {e}"))?
        .iter()
        .map(|g| point_from(g).map_err(|e| format!("{what}: {e}")))
        .collect()
}

/// A block line `x,y,f` (field required) or `x,y[,f]` (field optional and then dropped: the
/// result's field is `None`).
fn parse_block_line(text: &str, needs_field: bool) -> Result<(Point, Option<Field>), String> {
    let gs = groups(text)?;
    let group = match gs.as_slice() {
        [g] => g,
        _ => return Err("one x,y,field per line expected".to_string()),
    };
    let (xy, field) = match group.as_slice() {
        [x, y] => ([*x, *y], None),
        [x, y, f] => ([*x, *y], Some(*f)),
        _ => return Err("expected x,y,field".to_string()),
    };
    let point = point_from(&xy)?;
    let field = match field {
        Some(f) => {
            let code = number(f)?;
            Some(Field::from_code(code).ok_or_else(|| format!("field {code} is not 1, 2 or 3"))?)
        }
        None if needs_field => return Err("missing field (x,y,field)".to_string()),
        None => None,
    };
    Ok((point, if needs_field { field } else { None }))
}

/// A line fragment fit to quote inside a one-line answer: control characters become spaces
/// and long text is cut.
pub(crate) fn quote(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(QUOTE_LIMIT)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > QUOTE_LIMIT {
        out.push('…');
    }
    out
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
