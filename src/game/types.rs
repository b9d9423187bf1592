//! The small value types every room shares: colours, rules and points.
use std::fmt;

/// A stone colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: handy for indexing per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The winning rule of a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; six or more does not.
    Standard,
    /// Black: exactly five, and overline/double-four/double-three are forbidden. White: five or more.
    Renju,
    /// Five or more wins unless blocked by opponent stones at both ends (board edge does not block).
    Caro,
    /// Exactly five, not blocked at both ends.
    CaroExact,
}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// The value of `INFO rule`: 0 freestyle, 1 standard, 2 (Yixin) or 4 renju, 8 caro,
    /// 9 caro with exactly five. Anything else is `None`.
    pub fn from_protocol(code: i64) -> Option<Rule> {
        match code {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// The canonical `INFO rule` code.
    pub fn protocol_code(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// Whether a line of six or more counts as a win for `color`.
    pub fn overline_wins(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Caro => true,
            Rule::Standard | Rule::CaroExact => false,
            Rule::Renju => color == Color::White,
        }
    }

    /// Whether a five blocked by opponent stones at both ends fails to win.
    pub fn blocked_five_fails(self) -> bool {
        matches!(self, Rule::Caro | Rule::CaroExact)
    }

    /// Whether black has forbidden points.
    pub fn has_forbidden(self) -> bool {
        self == Rule::Renju
    }

    /// A short lowercase name, as used in config files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro5",
        }
    }

    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board point in protocol coordinates: `x` = column, `y` = row, both from zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Whether `other` lies on one of the four lines through this point (a row, a column or a
    /// diagonal), at most `reach` steps away.
    pub fn on_a_line_within(self, other: Point, reach: u8) -> bool {
        let dx = self.x.abs_diff(other.x);
        let dy = self.y.abs_diff(other.y);
        (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
    }
}

/// Formats as the protocol does: `x,y`.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Smallest and largest board side the engine accepts.
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_round_trip() {
        for r in Rule::ALL {
            assert_eq!(Rule::from_protocol(r.protocol_code()), Some(r));
            assert_eq!(Rule::from_name(r.name()), Some(r));
        }
        assert_eq!(Rule::from_protocol(2), Some(Rule::Renju));
        assert_eq!(Rule::from_protocol(3), None);
        assert_eq!(Rule::from_protocol(-1), None);
    }

    #[test]
    fn a_point_reaches_along_its_four_lines_only() {
        let p = Point::new;
        let a = p(7, 7);
        for b in [p(7, 3), p(11, 7), p(3, 3), p(11, 3), p(8, 8)] {
            assert!(a.on_a_line_within(b, 4), "{b:?}");
        }
        for b in [p(7, 2), p(12, 12), p(8, 9), p(9, 10)] {
            assert!(!a.on_a_line_within(b, 4), "{b:?}");
        }
    }

    #[test]
    fn point_formats_as_protocol() {
        assert_eq!(Point::new(10, 3).to_string(), "10,3");
    }
}
