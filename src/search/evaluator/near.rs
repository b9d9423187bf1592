//! [`NearPoint`]: an empty point near the stones with what either colour would make there, the
//! cheap neighbourhood static evaluators read; [`threat_of`], its fast threat classification.
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
