//! Per-point threat summary (the four directions combined) and scans for threat points.
use super::board::Board;
use super::pattern::Pattern;
use super::types::{Color, Point};

/// What one stone makes over all four lines, roughly ordered by strength (`>=` compares).
/// Purely geometric: renju legality is [`Board::is_forbidden_idx`]'s business, and overlines
/// (exact-five rules) are ignored here (see [`Board::pattern_idx`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Threat {
    None,
    Two,
    OpenTwo,
    /// Two or more open twos.
    DoubleTwo,
    Three,
    OpenThree,
    /// Two or more open threes.
    DoubleThree,
    Four,
    /// A four and an open three on other lines.
    FourThree,
    OpenFour,
    /// Two or more fours (on different lines or one line).
    DoubleFour,
    Five,
}

impl Threat {
    /// Combines the four direction patterns of one point.
    pub fn from_patterns(patterns: [Pattern; 4]) -> Threat {
        let mut fours = 0;
        let mut open_four = false;
        let mut open_threes = 0;
        let mut three = false;
        let mut open_twos = 0;
        let mut two = false;
        for p in patterns {
            match p {
                Pattern::Five => return Threat::Five,
                Pattern::OpenFour => {
                    fours += 1;
                    open_four = true;
                }
                Pattern::DoubleFour => fours += 2,
                Pattern::Four => fours += 1,
                Pattern::OpenThree => open_threes += 1,
                Pattern::Three => three = true,
                Pattern::OpenTwo => open_twos += 1,
                Pattern::Two => two = true,
                Pattern::None | Pattern::Overline => {}
            }
        }
        match () {
            _ if fours >= 2 => Threat::DoubleFour,
            _ if open_four => Threat::OpenFour,
            _ if fours == 1 && open_threes > 0 => Threat::FourThree,
            _ if fours == 1 => Threat::Four,
            _ if open_threes >= 2 => Threat::DoubleThree,
            _ if open_threes == 1 => Threat::OpenThree,
            _ if three => Threat::Three,
            _ if open_twos >= 2 => Threat::DoubleTwo,
            _ if open_twos == 1 => Threat::OpenTwo,
            _ if two => Threat::Two,
            _ => Threat::None,
        }
    }
}

/// Own stones in a black-perspective code, for `color`.
#[inline]
fn own_stones(code: u32, color: Color) -> u32 {
    let lo = code & 0x5_5555;
    let hi = (code >> 1) & 0x5_5555;
    match color {
        Color::Black => (lo & !hi).count_ones(),
        Color::White => (hi & !lo).count_ones(),
    }
}

impl Board {
    /// The combined threat `color` would make on `p`.
    pub fn threat(&self, p: Point, color: Color) -> Threat {
        self.threat_idx(self.index(p), color)
    }

    #[inline]
    pub fn threat_idx(&self, idx: usize, color: Color) -> Threat {
        Threat::from_patterns(self.patterns_idx(idx, color))
    }

    /// Calls `f(idx, dir, pattern)` for every empty point and direction where `color` makes
    /// `pattern` with `keep(pattern)`, skipping lines with fewer than `min_own` own neighbours
    /// (a five needs 4, a four 3, an open three 2: a free filter before the table lookup).
    pub fn scan_patterns(
        &self,
        color: Color,
        min_own: u32,
        keep: impl Fn(Pattern) -> bool,
        mut f: impl FnMut(usize, usize, Pattern),
    ) {
        self.for_each_empty(|idx| self.scan_point(idx, color, min_own, &keep, |d, p| f(idx, d, p)));
    }

    /// How many stones of `color` the line through `idx` in direction `dir` holds within five
    /// steps: a five there needs 4, a four 3, an open three 2 (a free filter before a lookup).
    #[inline]
    pub(crate) fn own_on_line(&self, idx: usize, dir: usize, color: Color) -> u32 {
        own_stones(self.code(idx, dir), color)
    }

    /// [`Board::scan_patterns`] for the one point `idx`: calls `f(dir, pattern)`.
    #[inline]
    pub fn scan_point(
        &self,
        idx: usize,
        color: Color,
        min_own: u32,
        keep: impl Fn(Pattern) -> bool,
        mut f: impl FnMut(usize, Pattern),
    ) {
        for d in 0..4 {
            if own_stones(self.code(idx, d), color) >= min_own {
                let p = self.pattern_idx(idx, color, d);
                if keep(p) {
                    f(d, p);
                }
            }
        }
    }

    fn points_where(
        &self,
        color: Color,
        min_own: u32,
        keep: impl Fn(Pattern) -> bool,
    ) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        self.scan_patterns(color, min_own, keep, |idx, _, _| {
            if out.last() != Some(&idx) {
                out.push(idx);
            }
        });
        out
    }

    /// Calls `f(q, dir)` for every empty board index `q` up to four steps from `idx` along one of
    /// its four lines (`dir` is that line). After a move at `idx`, the new fives, fours and threes
    /// through it can only be made on these points: a local, cheap alternative to a board scan.
    #[inline]
    pub fn for_each_near(&self, idx: usize, mut f: impl FnMut(usize, usize)) {
        for d in 0..4 {
            let step = self.dir_step(d);
            for k in 1..=4 {
                for q in [idx + k * step, idx - k * step] {
                    if self.is_empty_idx(q) {
                        f(q, d);
                    }
                }
            }
        }
    }

    /// Empty points near `idx` (see [`Board::for_each_near`]) where `color` makes a five on the
    /// line through `idx`: after `color` makes a four at `idx`, the squares the opponent must take.
    pub fn fives_near(&self, idx: usize, color: Color) -> Vec<usize> {
        let mut out = Vec::new();
        self.for_each_near(idx, |q, d| {
            if self.pattern_idx(q, color, d) == Pattern::Five {
                out.push(q);
            }
        });
        out
    }

    /// Empty indices where `color` makes a winning five.
    pub fn five_points(&self, color: Color) -> Vec<usize> {
        self.points_where(color, 4, |p| p == Pattern::Five)
    }

    /// Empty indices where `color` makes a four (four, straight four or one-line double four) on
    /// some line.
    pub fn four_points(&self, color: Color) -> Vec<usize> {
        self.points_where(color, 3, Pattern::is_four)
    }

    /// Empty indices where `color` makes an open three on some line (geometric; renju legality of
    /// its completion is not checked).
    pub fn open_three_points(&self, color: Color) -> Vec<usize> {
        self.points_where(color, 2, |p| p == Pattern::OpenThree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use Pattern as P;

    #[test]
    fn fives_near_a_new_four() {
        let mut board = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . x x . x . . . .
            . . . . . . . . .
            . o o o . . . . .
            . . . . . . . . .
            . . . . . . . . o",
        )
        .unwrap();
        board.place(Point::new(5, 1), Color::Black).unwrap();
        let four = board.index(Point::new(5, 1));
        // Black's xx.xx: only the gap completes a five.
        assert_eq!(
            board.fives_near(four, Color::Black),
            vec![board.index(Point::new(3, 1))]
        );
        let mut all = board.five_points(Color::Black);
        all.sort();
        assert_eq!(all, vec![board.index(Point::new(3, 1))]);
        assert!(board.fives_near(four, Color::White).is_empty());
    }

    #[test]
    fn combines_directions() {
        let t = |p| Threat::from_patterns(p);
        assert_eq!(
            t([P::Four, P::OpenThree, P::None, P::None]),
            Threat::FourThree
        );
        assert_eq!(t([P::Four, P::Four, P::None, P::None]), Threat::DoubleFour);
        assert_eq!(
            t([P::DoubleFour, P::None, P::None, P::None]),
            Threat::DoubleFour
        );
        assert_eq!(
            t([P::OpenThree, P::OpenThree, P::Two, P::None]),
            Threat::DoubleThree
        );
        assert_eq!(t([P::Overline, P::Five, P::None, P::None]), Threat::Five);
        assert_eq!(t([P::Overline, P::None, P::None, P::Two]), Threat::Two);
        assert_eq!(
            t([P::OpenTwo, P::OpenTwo, P::Three, P::None]),
            Threat::Three
        );
    }
}
