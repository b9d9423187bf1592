//! The legacy file protocol (seed 002): the manager writes PLOCHA.DAT (the board), TAH.DAT
//! (which symbol moves), TIMEOUTS.DAT and optionally INFO.DAT, starts the brain, and reads
//! the move back from TAH.DAT. This module only parses and formats file CONTENTS; reading and
//! writing the files is the front end's job.
//!
//! Symbols: `x` is the first player (black, who moves first), `o` the second (white). `#`
//! marks a square blocked by a winning line in a continuous game; `-` is empty.
//! INFO.DAT's `rule` is the legacy meaning (2 = continuous, 3 = continuous + exactly five);
//! it is kept raw in `InfoKey::Rule`, as everywhere else.
use super::parser::{number, parse_info, quote};
use super::InfoKey;
use crate::game::{Color, Point};

/// A player's symbol in the legacy files.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symbol {
    /// `x`: the first player.
    Cross,
    /// `o`: the second player.
    Circle,
}

impl Symbol {
    /// The first player (crosses) moves first, so crosses are black.
    pub fn color(self) -> Color {
        match self {
            Symbol::Cross => Color::Black,
            Symbol::Circle => Color::White,
        }
    }

    pub fn from_char(c: char) -> Option<Symbol> {
        match c {
            'x' => Some(Symbol::Cross),
            'o' => Some(Symbol::Circle),
            _ => None,
        }
    }
}

/// One square of PLOCHA.DAT.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Square {
    /// `-`
    Empty,
    /// `x` or `o`.
    Stone(Symbol),
    /// `#`: part of a winning line (continuous games).
    Blocked,
}

/// The board of PLOCHA.DAT, row by row from the top.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegacyBoard {
    pub width: usize,
    pub height: usize,
    /// `width * height` squares, row-major: index `y * width + x`.
    pub squares: Vec<Square>,
}

impl LegacyBoard {
    pub fn get(&self, x: usize, y: usize) -> Option<Square> {
        if x < self.width && y < self.height {
            Some(self.squares[y * self.width + x])
        } else {
            None
        }
    }

    /// The occupied squares (stones and blocked ones), row by row. The file holds no move
    /// order: the engine must cope with that, as with a Gomocup freestyle BOARD.
    pub fn occupied(&self) -> Vec<(Point, Square)> {
        let mut out = Vec::new();
        for (i, &sq) in self.squares.iter().enumerate() {
            if sq != Square::Empty {
                // Sizes are checked to be at most 256, so both fit in u8.
                let (x, y) = (i % self.width, i / self.width);
                out.push((Point::new(x as u8, y as u8), sq));
            }
        }
        out
    }

    pub fn count(&self, square: Square) -> usize {
        self.squares.iter().filter(|&&s| s == square).count()
    }
}

/// Largest side the parser takes (a `Point` holds coordinates below 256).
const MAX_SIDE: usize = 256;

/// Parses PLOCHA.DAT. The size comes from the file: its non-blank lines are the rows, all of
/// the same length (the protocol only uses square boards; a rectangle is accepted too).
/// Trailing whitespace and CR are ignored; any other character than `x o - #`, a ragged row
/// or an empty file is an error.
pub fn parse_plocha(text: &str) -> Result<LegacyBoard, String> {
    let rows: Vec<(usize, &str)> = text
        .lines()
        .map(str::trim_end)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let width = match rows.first() {
        Some((_, row)) => row.chars().count(),
        None => return Err("PLOCHA.DAT: no board lines".to_string()),
    };
    let height = rows.len();
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(format!(
            "PLOCHA.DAT: board {width}x{height} larger than {MAX_SIDE}"
        ));
    }
    let mut squares = Vec::with_capacity(width * height);
    for (line_no, row) in rows {
        let len = row.chars().count();
        if len != width {
            return Err(format!(
                "PLOCHA.DAT line {}: {len} squares where the first row has {width}",
                line_no + 1
            ));
        }
        for (col, c) in row.chars().enumerate() {
            let sq = match c {
                '-' => Square::Empty,
                '#' => Square::Blocked,
                _ => match Symbol::from_char(c) {
                    Some(s) => Square::Stone(s),
                    None => {
                        return Err(format!(
                            "PLOCHA.DAT line {}, column {}: unknown square '{}'",
                            line_no + 1,
                            col + 1,
                            c.escape_default()
                        ))
                    }
                },
            };
            squares.push(sq);
        }
    }
    Ok(LegacyBoard {
        width,
        height,
        squares,
    })
}

/// Parses TAH.DAT as the manager writes it: the symbol of the player to move, `x` or `o`.
pub fn parse_tah(text: &str) -> Result<Symbol, String> {
    let t = text.trim();
    let mut chars = t.chars();
    match (chars.next().and_then(Symbol::from_char), chars.next()) {
        (Some(s), None) => Ok(s),
        _ => Err(format!("TAH.DAT: expected 'x' or 'o', got '{}'", quote(t))),
    }
}

/// The brain's answer in TAH.DAT: `x,y` (column, row, from the top-left corner).
pub fn format_tah(p: Point) -> String {
    p.to_string()
}

/// TIMEOUTS.DAT: seconds per move on the first line, match time left in ms on the second.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LegacyTimeouts {
    /// 0 = play as fast as possible.
    pub turn_seconds: i64,
    /// May be negative; 2147483647 = unlimited.
    pub time_left_ms: i64,
}

impl LegacyTimeouts {
    /// The turn limit in ms, as the new protocol's `timeout_turn`.
    pub fn turn_ms(&self) -> i64 {
        self.turn_seconds.saturating_mul(1000)
    }
}

/// Parses TIMEOUTS.DAT. Both lines are required; blank lines after them are ignored, any
/// further content is an error.
pub fn parse_timeouts(text: &str) -> Result<LegacyTimeouts, String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    match lines.as_slice() {
        [turn, left] => Ok(LegacyTimeouts {
            turn_seconds: number(turn).map_err(|e| format!("TIMEOUTS.DAT line 1: {e}"))?,
            time_left_ms: number(left).map_err(|e| format!("TIMEOUTS.DAT line 2: {e}"))?,
        }),
        [_] | [] => Err("TIMEOUTS.DAT: two lines expected (turn seconds, time left ms)".into()),
        _ => Err(format!(
            "TIMEOUTS.DAT: {} lines where two are expected",
            lines.len()
        )),
    }
}

/// Parses INFO.DAT: `key value` lines, any subset of them (older managers write only some,
/// or no file at all: an empty text is fine). Values are typed as for `INFO` lines; a
/// malformed value for a known key is an error naming the line.
pub fn parse_info_dat(text: &str) -> Result<Vec<InfoKey>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_info(l.trim()).map_err(|e| format!("INFO.DAT line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 20x20 example of seed 002, verbatim.
    /// The 20x20 PLOCHA.DAT example of seed 002.
    const SEED_PLOCHA: &str = include_str!("../../tests/data/seed-plocha.dat");

    const X: Square = Square::Stone(Symbol::Cross);
    const O: Square = Square::Stone(Symbol::Circle);

    #[test]
    fn seed_plocha_example() {
        let b = parse_plocha(SEED_PLOCHA).unwrap();
        assert_eq!((b.width, b.height), (20, 20));
        assert_eq!(b.count(X), 24);
        assert_eq!(b.count(O), 26);
        assert_eq!(b.count(Square::Blocked), 11);
        assert_eq!(b.count(Square::Empty), 400 - 24 - 26 - 11);
        assert_eq!(b.get(3, 0), Some(X));
        assert_eq!(b.get(6, 1), Some(O));
        assert_eq!(b.get(5, 3), Some(Square::Blocked));
        assert_eq!(b.get(19, 7), Some(X));
        assert_eq!(b.get(19, 8), Some(O));
        assert_eq!(b.get(0, 15), Some(O));
        assert_eq!(b.get(0, 0), Some(Square::Empty));
        assert_eq!(b.get(20, 0), None);
        assert_eq!(b.get(0, 20), None);
        let occupied = b.occupied();
        assert_eq!(occupied.len(), 61);
        assert_eq!(occupied[0], (Point::new(3, 0), X));
        assert_eq!(occupied[60], (Point::new(18, 17), X));
    }

    #[test]
    fn plocha_with_crlf_and_blank_lines() {
        let text = "\r\n-x-\r\n\r\no--\r\n--#\r\n\r\n";
        let b = parse_plocha(text).unwrap();
        assert_eq!((b.width, b.height), (3, 3));
        assert_eq!(b.get(1, 0), Some(X));
        assert_eq!(b.get(0, 1), Some(O));
        assert_eq!(b.get(2, 2), Some(Square::Blocked));
    }

    #[test]
    fn bad_plocha() {
        assert!(parse_plocha("").unwrap_err().contains("no board lines"));
        assert!(parse_plocha("\n \n")
            .unwrap_err()
            .contains("no board lines"));
        let e = parse_plocha("---\n--\n---\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("2 squares"), "{e}");
        let e = parse_plocha("---\n-X-\n---\n").unwrap_err();
        assert!(e.contains("line 2, column 2") && e.contains("'X'"), "{e}");
        let e = parse_plocha("- -\n---\n---\n").unwrap_err();
        assert!(e.contains("unknown square ' '"), "{e}");
        let e = parse_plocha("-\u{1}-\n---\n---\n").unwrap_err();
        assert!(e.contains("\\u{1}"), "{e}");
        let wide = "-".repeat(300);
        assert!(parse_plocha(&wide).unwrap_err().contains("larger than 256"));
    }

    #[test]
    fn tah_files() {
        assert_eq!(parse_tah("x"), Ok(Symbol::Cross));
        assert_eq!(parse_tah("o\r\n"), Ok(Symbol::Circle));
        assert_eq!(parse_tah(" x \n"), Ok(Symbol::Cross));
        assert!(parse_tah("").is_err());
        assert!(parse_tah("X").is_err());
        assert!(parse_tah("xo").is_err());
        assert!(parse_tah("10,10").is_err());
        assert_eq!(Symbol::Cross.color(), Color::Black);
        assert_eq!(Symbol::Circle.color(), Color::White);
        assert_eq!(format_tah(Point::new(10, 3)), "10,3");
    }

    #[test]
    fn timeouts_files() {
        let t = parse_timeouts("5\r\n148150\r\n").unwrap();
        assert_eq!(
            t,
            LegacyTimeouts {
                turn_seconds: 5,
                time_left_ms: 148150
            }
        );
        assert_eq!(t.turn_ms(), 5000);
        assert_eq!(parse_timeouts("0\n-20\n\n").unwrap().time_left_ms, -20);
        assert_eq!(
            parse_timeouts("1\n2147483647").unwrap().time_left_ms,
            2147483647
        );
        assert_eq!(
            parse_timeouts(&format!("{}\n1", i64::MAX))
                .unwrap()
                .turn_ms(),
            i64::MAX
        );
        assert!(parse_timeouts("").unwrap_err().contains("two lines"));
        assert!(parse_timeouts("5").unwrap_err().contains("two lines"));
        assert!(parse_timeouts("5\n6\n7").unwrap_err().contains("3 lines"));
        assert!(parse_timeouts("five\n6").unwrap_err().contains("line 1"));
        assert!(parse_timeouts("5\n6.5").unwrap_err().contains("line 2"));
    }

    #[test]
    fn seed_info_dat_example() {
        let text = "max_memory 83886080\r\ntimeout_match 180000\r\ntimeout_turn 2500\r\n\
                    game_type 0\r\nrule 3\r\ntime_left 148150\r\n\
                    folder C:\\Documents and Settings\\All Users\\Application data\r\n";
        assert_eq!(
            parse_info_dat(text).unwrap(),
            vec![
                InfoKey::MaxMemory(83886080),
                InfoKey::TimeoutMatch(180000),
                InfoKey::TimeoutTurn(2500),
                InfoKey::GameType(0),
                InfoKey::Rule(3),
                InfoKey::TimeLeft(148150),
                InfoKey::Folder("C:\\Documents and Settings\\All Users\\Application data".into()),
            ]
        );
    }

    #[test]
    fn partial_and_bad_info_dat() {
        assert_eq!(parse_info_dat(""), Ok(vec![]));
        assert_eq!(
            parse_info_dat("\ntimeout_turn 100\n\n"),
            Ok(vec![InfoKey::TimeoutTurn(100)])
        );
        assert_eq!(
            parse_info_dat("whatever 1"),
            Ok(vec![InfoKey::Unknown("whatever".into(), "1".into())])
        );
        let e = parse_info_dat("rule 1\ntimeout_turn fast\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("not a number"), "{e}");
    }
}
