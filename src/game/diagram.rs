//! Text diagrams of a board: `Display` prints one, `Board::from_diagram` reads one (handy in tests).
//!
//! Rows are printed top to bottom from `y = 0`, columns left to right from `x = 0`; `x` is black,
//! `o` white, `.` empty, cells separated by a space.
use std::fmt;

use super::board::Board;
use super::error::GameError;
use super::types::{Color, Point, Rule};

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height() {
            for x in 0..self.width() {
                let c = match self.get(Point::new(x as u8, y as u8)) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                };
                if x > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    /// Reads a diagram: one line per row (top = `y` 0), `x`/`X` black, `o`/`O` white, `.`/`+`/`-`
    /// empty; spaces are ignored and blank lines skipped. All rows must be equally long.
    ///
    /// Stones go into the history alternating black and white while both last, then the rest, so
    /// a diagram with balanced counts gets the right side to move; other diagrams (e.g. black stones
    /// only, for forbidden-point tests) still work, with `side_to_move` following the stone count.
    pub fn from_diagram(rule: Rule, text: &str) -> Result<Board, GameError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for line in text.lines() {
            let mut row = Vec::new();
            for ch in line.chars().filter(|c| !c.is_whitespace()) {
                row.push(match ch {
                    'x' | 'X' => Some(Color::Black),
                    'o' | 'O' => Some(Color::White),
                    '.' | '+' | '-' => None,
                    other => {
                        return Err(GameError::BadDiagram(format!(
                            "unexpected character {other:?}"
                        )))
                    }
                });
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        if let Some(bad) = rows.iter().position(|r| r.len() != width) {
            return Err(GameError::BadDiagram(format!(
                "row {bad} has {} cells, expected {width}",
                rows[bad].len()
            )));
        }
        let mut board = Board::new(width, height, rule)?;
        let mut stones: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
        for (y, row) in rows.iter().enumerate() {
            for (x, cell) in row.iter().enumerate() {
                if let Some(c) = cell {
                    stones[c.index()].push(Point::new(x as u8, y as u8));
                }
            }
        }
        let [black, white] = stones;
        let mut black = black.into_iter();
        let mut white = white.into_iter();
        loop {
            let b = black.next();
            let w = white.next();
            if b.is_none() && w.is_none() {
                break;
            }
            if let Some(p) = b {
                board.place(p, Color::Black)?;
            }
            if let Some(p) = w {
                board.place(p, Color::White)?;
            }
        }
        Ok(board)
    }
}
