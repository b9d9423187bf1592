//! Typed answers → protocol lines (without the line ending; the writer adds CRLF or LF).
//!
//! Every line is a single line: free text (messages, errors, echoed lines) has its control
//! characters, CR and LF included, turned into spaces, because managers read line by line and
//! a stray newline would be taken for a move or an error.
//!
//! Points are written as given: map them with `CoordMap::to_protocol` first.
//!
//! FORBID has two spellings: the extended Gomocup `SHOWFORBID` answer is `FORBID 5,4 8,7`
//! (`FORBID` alone when none), Yixin's `yxshowforbid` answer is `FORBID 05040807.` — two
//! digits of x, two of y, for each point, then a dot; with no forbidden point that is
//! `FORBID .` (the seed's "FORBID " + nothing + "."). The engine answers with the spelling of
//! the command that asked.
use crate::game::Point;
use std::fmt::Write;

/// Free text made fit for one protocol line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// `WORD text`, or just `WORD` when the text is empty.
fn tagged(word: &str, text: &str) -> String {
    let text = one_line(text);
    if text.is_empty() {
        word.to_string()
    } else {
        format!("{word} {text}")
    }
}

/// Answer to START / RECTSTART / RESTART when all is well.
pub fn ok() -> String {
    "OK".to_string()
}

/// `ERROR message`.
pub fn error(message: &str) -> String {
    tagged("ERROR", message)
}

/// `UNKNOWN line`: the command that was not understood, echoed back.
pub fn unknown(line: &str) -> String {
    tagged("UNKNOWN", line)
}

/// `MESSAGE text`: shown or logged by the manager.
pub fn message(text: &str) -> String {
    tagged("MESSAGE", text)
}

/// `DEBUG text`.
pub fn debug(text: &str) -> String {
    tagged("DEBUG", text)
}

/// The brain's move: `x,y`.
pub fn move_answer(p: Point) -> String {
    p.to_string()
}

/// Analysis mode's answer: `SUGGEST x,y`.
pub fn suggest(p: Point) -> String {
    format!("SUGGEST {p}")
}

/// Several moves on one line, as SWAP2BOARD/SWAPBOARD/BALANCE answers: `7,7 8,7 9,9`.
pub fn moves(points: &[Point]) -> String {
    join_points(points)
}

fn join_points(points: &[Point]) -> String {
    let mut out = String::new();
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{p}");
    }
    out
}

/// The swap answer of SWAP2BOARD/SWAPBOARD.
pub fn swap() -> String {
    "SWAP".to_string()
}

/// Extended Gomocup's SHOWFORBID answer: `FORBID 5,4 8,7`, or `FORBID` when none.
pub fn forbid_gomocup(points: &[Point]) -> String {
    tagged("FORBID", &join_points(points))
}

/// Yixin's yxshowforbid answer: `FORBID 09121011.`, or `FORBID .` when none.
pub fn forbid_yixin(points: &[Point]) -> String {
    let mut out = String::from("FORBID ");
    for p in points {
        let _ = write!(out, "{:02}{:02}", p.x, p.y);
    }
    out.push('.');
    out
}

/// The ABOUT answer's fields. Empty fields are left out of the line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct About {
    pub name: String,
    pub version: String,
    pub author: String,
    pub country: String,
    pub www: String,
    pub email: String,
}

impl About {
    /// Hoshi's own details; the version comes from Cargo.
    pub fn hoshi() -> About {
        About {
            name: "hoshi".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            author: "Hoshi developers".to_string(),
            country: "International".to_string(),
            www: String::new(),
            email: String::new(),
        }
    }
}

/// `name="hoshi", version="0.1.0", author="…"`: keyword, `=`, value in double quotes, comma
/// separated. A double quote inside a value would end it early, so it becomes `'`.
pub fn about(info: &About) -> String {
    let fields = [
        ("name", &info.name),
        ("version", &info.version),
        ("author", &info.author),
        ("country", &info.country),
        ("www", &info.www),
        ("email", &info.email),
    ];
    let mut out = String::new();
    for (key, value) in fields {
        let value = one_line(value).replace('"', "'");
        if !out.is_empty() {
            out.push_str(", ");
        }
        let _ = write!(out, "{key}=\"{value}\"");
    }
    out
}

/// PROTOCOLVERSION's answer (003 3.11): `major,minor`.
pub fn protocol_version(major: u32, minor: u32) -> String {
    format!("{major},{minor}")
}

/// Yixin-Board's live search output.
pub fn realtime_best(p: Point) -> String {
    format!("MESSAGE REALTIME BEST {p}")
}

/// The move now being searched.
pub fn realtime_pos(p: Point) -> String {
    format!("MESSAGE REALTIME POS {p}")
}

/// A move whose search is done.
pub fn realtime_done(p: Point) -> String {
    format!("MESSAGE REALTIME DONE {p}")
}

/// A move proven to lose.
pub fn realtime_lose(p: Point) -> String {
    format!("MESSAGE REALTIME LOSE {p}")
}

/// Ask the GUI to clear its live marks.
pub fn realtime_refresh() -> String {
    "MESSAGE REALTIME REFRESH".to_string()
}

/// yxshowinfo's answers.
pub fn max_thread_num(n: u32) -> String {
    format!("MESSAGE INFO MAX_THREAD_NUM {n}")
}

pub fn max_hash_size(n: u64) -> String {
    format!("MESSAGE INFO MAX_HASH_SIZE {n}")
}

/// Yixin multi-PV block lines. One block per PV: `INFO PV n`, the figures, `INFO PV DONE`.
pub fn info_pv(index: u32) -> String {
    format!("INFO PV {index}")
}

pub fn info_numpv(count: u32) -> String {
    format!("INFO NUMPV {count}")
}

pub fn info_depth(depth: u32) -> String {
    format!("INFO DEPTH {depth}")
}

pub fn info_seldepth(depth: u32) -> String {
    format!("INFO SELDEPTH {depth}")
}

pub fn info_nodes(nodes: u64) -> String {
    format!("INFO NODES {nodes}")
}

pub fn info_totaltime(ms: u64) -> String {
    format!("INFO TOTALTIME {ms}")
}

/// Nodes per second.
pub fn info_speed(nodes_per_second: u64) -> String {
    format!("INFO SPEED {nodes_per_second}")
}

/// The evaluation in the engine's integer scale.
pub fn info_eval(eval: i64) -> String {
    format!("INFO EVAL {eval}")
}

/// The win rate as a fraction in 0..=1 (Yixin-Board reads a fraction, not a percentage).
/// Out-of-range values are clamped; NaN, which means "no idea", is written as 0.5.
pub fn info_winrate(rate: f64) -> String {
    let rate = if rate.is_nan() {
        0.5
    } else {
        rate.clamp(0.0, 1.0)
    };
    format!("INFO WINRATE {rate:.4}")
}

/// The PV's moves as `x,y` separated by spaces.
pub fn info_bestline(points: &[Point]) -> String {
    tagged("INFO BESTLINE", &join_points(points))
}

pub fn info_pv_done() -> String {
    "INFO PV DONE".to_string()
}

/// Column letters of the PV encoding: a..z, then aa..az, ba.. (bijective base 26, as in
/// spreadsheets) so that boards wider than 26 (up to 32) still read unambiguously: the
/// letters always end where the row digits start.
pub fn column_letters(x: usize) -> String {
    let mut n = x + 1;
    let mut letters = Vec::new();
    while n > 0 {
        n -= 1;
        letters.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

/// The inverse of `column_letters`; `None` for anything but lowercase ASCII letters.
pub fn column_index(letters: &str) -> Option<usize> {
    if letters.is_empty() {
        return None;
    }
    let mut n: usize = 0;
    for b in letters.bytes() {
        if !b.is_ascii_lowercase() {
            return None;
        }
        n = n.checked_mul(26)?.checked_add((b - b'a') as usize + 1)?;
    }
    Some(n - 1)
}

/// One PV move as renju books, Rapfi and Yixin-Board label the board: column letters from `a`
/// (x = 0), then the row counted from 1 (y = 0 is row 1), so the centre of 15x15 is `h8`.
pub fn pv_move(p: Point) -> String {
    format!("{}{}", column_letters(p.x as usize), p.y as usize + 1)
}

/// The inverse of [`pv_move`]: `h8` is x 7, y 7; `None` for anything else.
pub fn parse_pv_move(text: &str) -> Option<Point> {
    let split = text.find(|c: char| c.is_ascii_digit())?;
    let x = column_index(&text[..split])?;
    let row: usize = text[split..].parse().ok()?;
    if row == 0 || x > u8::MAX as usize || row > u8::MAX as usize + 1 {
        return None;
    }
    Some(Point::new(x as u8, (row - 1) as u8))
}

/// The moves of a line in the form [`pv_move`] writes, with or without spaces between them
/// (`h8i9g7`, `h8 i9 g7`); `None` if anything else is in it.
pub fn parse_pv_moves(text: &str) -> Option<Vec<Point>> {
    let mut moves = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        // A move is its letters and the digits after them.
        let letters = rest
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(rest.len());
        let end = rest[letters..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |k| letters + k);
        moves.push(parse_pv_move(&rest[..end])?);
        rest = rest[end..].trim_start();
    }
    Some(moves)
}

/// A principal variation, moves separated by spaces: `h8 i9 g7`.
pub fn pv_string(moves: &[Point]) -> String {
    moves
        .iter()
        .map(|&p| pv_move(p))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
