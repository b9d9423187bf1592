//! [`NearPoint`]: an empty point near the stones with what either colour would make there, the
//! cheap neighbourhood static evaluators read; [`threat_of`], its fast threat classification;
//! [`NearCursor`], a walk through a list of them in board order.
use crate::game::{Board, Color, Pattern, Threat};

/// An empty point near the stones, with what a stone of either colour would make there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearPoint {
    pub idx: usize,
    /// Indexed by `Color::index()`.
    pub patterns: [[Pattern; 4]; 2],
    pub threats: [Threat; 2],
}

impl NearPoint {
    /// Reads the point `idx` of `board`.
    pub fn read(board: &Board, idx: usize) -> NearPoint {
        let patterns = [
            board.patterns_idx(idx, Color::Black),
            board.patterns_idx(idx, Color::White),
        ];
        NearPoint {
            idx,
            patterns,
            threats: [threat_of(patterns[0]), threat_of(patterns[1])],
        }
    }

    /// [`NearPoint::read`] for readers of threes and more only: a line with fewer than two
    /// stones of a colour within reach reads `None` for it without a table lookup, so twos are
    /// not seen (threes, fours and fives are exact).
    pub fn read_threats(board: &Board, idx: usize) -> NearPoint {
        let patterns = board.threat_patterns_idx(idx);
        NearPoint {
            idx,
            patterns,
            threats: [threat_of(patterns[0]), threat_of(patterns[1])],
        }
    }

    #[inline]
    pub fn threat(&self, color: Color) -> Threat {
        self.threats[color.index()]
    }

    #[inline]
    pub fn patterns(&self, color: Color) -> [Pattern; 4] {
        self.patterns[color.index()]
    }
}

/// `Threat::from_patterns` with a fast path for the common case of nothing above an open two
/// (most points near the stones): the same answer, a fraction of the work.
#[inline]
pub fn threat_of(patterns: [Pattern; 4]) -> Threat {
    let max = patterns.iter().copied().max().unwrap_or(Pattern::None);
    if max > Pattern::OpenTwo {
        return Threat::from_patterns(patterns);
    }
    let open_twos = patterns.iter().filter(|&&p| p == Pattern::OpenTwo).count();
    match open_twos {
        0 if max == Pattern::Two => Threat::Two,
        0 => Threat::None,
        1 => Threat::OpenTwo,
        _ => Threat::DoubleTwo,
    }
}

/// Reads the near points of moves that come in board order, as `near` does, with one walk
/// through `near` instead of a search for each move (a move out of order starts the walk
/// again).
pub struct NearCursor<'a> {
    near: &'a [NearPoint],
    at: usize,
}

impl<'a> NearCursor<'a> {
    pub fn new(near: &'a [NearPoint]) -> NearCursor<'a> {
        NearCursor { near, at: 0 }
    }

    /// The near point of `idx`, if it is one.
    #[inline]
    pub fn get(&mut self, idx: usize) -> Option<&'a NearPoint> {
        if self.at > 0 && self.near[self.at - 1].idx >= idx {
            self.at = 0;
        }
        while self.near.get(self.at).is_some_and(|n| n.idx < idx) {
            self.at += 1;
        }
        let n = self.near.get(self.at).filter(|n| n.idx == idx)?;
        self.at += 1;
        Some(n)
    }

    /// The threat `color` makes on `idx` (none where it is no near point).
    #[inline]
    pub fn threat(&mut self, idx: usize, color: Color) -> Threat {
        self.get(idx).map_or(Threat::None, |n| n.threat(color))
    }
}
