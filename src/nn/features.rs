//! The network's input planes. The trainer and the engine share this encoding, so any change
//! to it must bump [`FEATURE_VERSION`] (network files record the version they were trained on).
//!
//! | plane | meaning (1.0 where true, 0.0 elsewhere) |
//! |---|---|
//! | 0 | a stone of the side to move |
//! | 1 | a stone of the opponent |
//! | 2 | on-board mask: 1 on every board point, 0 in the padding |
//! | 3 | constant: black is to move |
//! | 4..=8 | rule one-hot, constant over the board: freestyle, standard, renju, caro, caro-exact |
//! | 9 | black's forbidden points (renju only; empty points) |
//! | 10..=12 | empty points where a stone of the side to move makes a five / a four / an open three |
//! | 13..=15 | the same for the opponent |
//!
//! A tensor may be padded to a larger `pad_w` x `pad_h` than the board: the board sits in the
//! top-left corner and every plane, the constant ones included, is 0 in the padding. That makes
//! a padded board look exactly like the zero padding of a convolution, so the net gives the same
//! answer on the board whatever the padding.
use crate::game::{Color, Rule};

use super::symmetry::Symmetry;

/// Number of input planes.
pub const INPUT_PLANES: usize = 16;
/// Version of this encoding; stored in network sidecars and checked on load.
pub const FEATURE_VERSION: u32 = 1;

/// Plane indices (see the module table).
pub mod plane {
    pub const OWN_STONES: usize = 0;
    pub const OPPONENT_STONES: usize = 1;
    pub const ON_BOARD: usize = 2;
    pub const BLACK_TO_MOVE: usize = 3;
    pub const RULE_FIRST: usize = 4;
    pub const FORBIDDEN: usize = 9;
    pub const OWN_FIVE: usize = 10;
    pub const OWN_FOUR: usize = 11;
    pub const OWN_OPEN_THREE: usize = 12;
    pub const OPPONENT_FIVE: usize = 13;
    pub const OPPONENT_FOUR: usize = 14;
    pub const OPPONENT_OPEN_THREE: usize = 15;
}

/// What a stone of some colour placed on an empty point would make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointThreats {
    pub five: bool,
    pub four: bool,
    pub open_three: bool,
}

/// How the network reads a position. The engine implements it for its board; tests and
/// benches use [`super::GridPosition`].
pub trait FeatureSource {
    fn width(&self) -> usize;
    fn height(&self) -> usize;
    fn stone(&self, x: usize, y: usize) -> Option<Color>;
    fn side_to_move(&self) -> Color;
    fn rule(&self) -> Rule;
    /// Black's renju forbidden points (asked for empty points only, and only under renju).
    fn is_forbidden(&self, x: usize, y: usize) -> bool;
    /// What a stone of `color` placed on the empty point `(x, y)` would make.
    fn threats(&self, x: usize, y: usize, color: Color) -> PointThreats;
    /// Position hash, used as the evaluation cache key. It must tell apart positions that differ
    /// in stones, side to move or rule.
    fn hash(&self) -> u64;
}

/// Index of the rule's one-hot plane.
pub fn rule_plane(rule: Rule) -> usize {
    plane::RULE_FIRST
        + match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 2,
            Rule::Caro => 3,
            Rule::CaroExact => 4,
        }
}

/// Number of floats [`encode_into`] writes for one position.
pub fn encoded_len(pad_w: usize, pad_h: usize) -> usize {
    INPUT_PLANES * pad_w * pad_h
}

/// Writes the planes of `src`, seen through `sym`, as `[INPUT_PLANES, pad_h, pad_w]` (row-major)
/// into the first [`encoded_len`] floats of `out`. Allocates nothing.
///
/// Panics when the board is larger than the padding, when `out` is too short, or when `sym`
/// transposes a non-square board.
pub fn encode_into<S: FeatureSource + ?Sized>(
    src: &S,
    sym: Symmetry,
    pad_w: usize,
    pad_h: usize,
    out: &mut [f32],
) {
    let (w, h) = (src.width(), src.height());
    assert!(
        w <= pad_w && h <= pad_h,
        "board {w}x{h} larger than padding {pad_w}x{pad_h}"
    );
    assert!(sym.fits(w, h), "{sym:?} does not fit a {w}x{h} board");
    let area = pad_w * pad_h;
    let out = &mut out[..INPUT_PLANES * area];
    out.fill(0.0);

    let me = src.side_to_move();
    let rule = src.rule();
    let rule_plane = rule_plane(rule);
    let black_to_move = me == Color::Black;
    let forbidden_apply = rule.has_forbidden();

    for y in 0..h {
        for x in 0..w {
            let (tx, ty) = sym.apply(x, y, w, h);
            let at = ty * pad_w + tx;
            let mut set = |p: usize| out[p * area + at] = 1.0;
            set(plane::ON_BOARD);
            set(rule_plane);
            if black_to_move {
                set(plane::BLACK_TO_MOVE);
            }
            match src.stone(x, y) {
                Some(c) if c == me => set(plane::OWN_STONES),
                Some(_) => set(plane::OPPONENT_STONES),
                None => {
                    if forbidden_apply && src.is_forbidden(x, y) {
                        set(plane::FORBIDDEN);
                    }
                    let own = src.threats(x, y, me);
                    let opp = src.threats(x, y, me.opponent());
                    for (flag, p) in [
                        (own.five, plane::OWN_FIVE),
                        (own.four, plane::OWN_FOUR),
                        (own.open_three, plane::OWN_OPEN_THREE),
                        (opp.five, plane::OPPONENT_FIVE),
                        (opp.four, plane::OPPONENT_FOUR),
                        (opp.open_three, plane::OPPONENT_OPEN_THREE),
                    ] {
                        if flag {
                            set(p);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::GridPosition;

    fn at(out: &[f32], p: usize, x: usize, y: usize, pw: usize, ph: usize) -> f32 {
        out[p * pw * ph + y * pw + x]
    }

    #[test]
    fn planes_follow_the_table() {
        let mut pos = GridPosition::new(6, 5, Rule::Renju);
        pos.place(1, 1, Color::Black);
        pos.place(2, 1, Color::White);
        pos.side_to_move = Color::White;
        pos.set_forbidden(3, 3);
        pos.set_threats(
            4,
            0,
            Color::White,
            PointThreats {
                five: true,
                four: false,
                open_three: true,
            },
        );
        pos.set_threats(
            0,
            4,
            Color::Black,
            PointThreats {
                five: false,
                four: true,
                open_three: false,
            },
        );
        let (pw, ph) = (8, 7);
        let mut out = vec![7.0; encoded_len(pw, ph) + 3];
        encode_into(&pos, Symmetry::IDENTITY, pw, ph, &mut out);
        assert_eq!(out[encoded_len(pw, ph)], 7.0, "wrote past the encoding");
        // White to move: white stones are "own".
        assert_eq!(at(&out, plane::OWN_STONES, 2, 1, pw, ph), 1.0);
        assert_eq!(at(&out, plane::OPPONENT_STONES, 1, 1, pw, ph), 1.0);
        assert_eq!(at(&out, plane::OWN_STONES, 1, 1, pw, ph), 0.0);
        assert_eq!(at(&out, plane::BLACK_TO_MOVE, 0, 0, pw, ph), 0.0);
        assert_eq!(at(&out, plane::FORBIDDEN, 3, 3, pw, ph), 1.0);
        assert_eq!(at(&out, plane::OWN_FIVE, 4, 0, pw, ph), 1.0);
        assert_eq!(at(&out, plane::OWN_OPEN_THREE, 4, 0, pw, ph), 1.0);
        assert_eq!(at(&out, plane::OWN_FOUR, 4, 0, pw, ph), 0.0);
        assert_eq!(at(&out, plane::OPPONENT_FOUR, 0, 4, pw, ph), 1.0);
        for y in 0..ph {
            for x in 0..pw {
                let on = x < 6 && y < 5;
                let expect = if on { 1.0 } else { 0.0 };
                assert_eq!(at(&out, plane::ON_BOARD, x, y, pw, ph), expect);
                assert_eq!(at(&out, rule_plane(Rule::Renju), x, y, pw, ph), expect);
                assert_eq!(at(&out, rule_plane(Rule::Freestyle), x, y, pw, ph), 0.0);
            }
        }
        let total: f32 = out[..encoded_len(pw, ph)].iter().sum();
        // 30 mask + 30 rule + 2 stones + 1 forbidden + 2 own threats + 1 opponent threat.
        assert_eq!(total, 66.0);
    }

    #[test]
    fn forbidden_plane_only_under_renju_and_black_flag_set() {
        let mut pos = GridPosition::new(5, 5, Rule::Standard);
        pos.set_forbidden(2, 2);
        let mut out = vec![0.0; encoded_len(5, 5)];
        encode_into(&pos, Symmetry::IDENTITY, 5, 5, &mut out);
        assert_eq!(at(&out, plane::FORBIDDEN, 2, 2, 5, 5), 0.0);
        assert_eq!(at(&out, plane::BLACK_TO_MOVE, 4, 4, 5, 5), 1.0);
    }

    #[test]
    fn symmetry_moves_the_planes() {
        let mut pos = GridPosition::new(7, 7, Rule::Freestyle);
        pos.place(1, 2, Color::Black);
        for &s in Symmetry::all(7, 7) {
            let mut out = vec![0.0; encoded_len(7, 7)];
            encode_into(&pos, s, 7, 7, &mut out);
            let (tx, ty) = s.apply(1, 2, 7, 7);
            assert_eq!(at(&out, plane::OWN_STONES, tx, ty, 7, 7), 1.0);
            let stones: f32 = out[..49].iter().sum();
            assert_eq!(stones, 1.0);
        }
    }
}
