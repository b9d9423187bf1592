//! The engine's [`Board`] seen as the network's [`FeatureSource`], for self-play, the trainer and
//! the policy player. A thin borrowed view (the `nn` room owns the encoding; this only answers
//! its questions from the board's pattern tables).
use crate::game::{Board, Color, Pattern, Point, Rule};
use crate::nn::{FeatureSource, PointThreats};

/// Salt per rule: the board's Zobrist hash covers stones and side to move but not the rule.
fn rule_salt(rule: Rule) -> u64 {
    (rule.protocol_code() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[derive(Clone, Copy)]
pub struct BoardView<'a>(pub &'a Board);

impl BoardView<'_> {
    fn index(&self, x: usize, y: usize) -> usize {
        self.0.index(Point::new(x as u8, y as u8))
    }
}

impl FeatureSource for BoardView<'_> {
    fn width(&self) -> usize {
        self.0.width()
    }

    fn height(&self) -> usize {
        self.0.height()
    }

    fn stone(&self, x: usize, y: usize) -> Option<Color> {
        self.0.get(Point::new(x as u8, y as u8))
    }

    fn side_to_move(&self) -> Color {
        self.0.side_to_move()
    }

    fn rule(&self) -> Rule {
        self.0.rule()
    }

    fn is_forbidden(&self, x: usize, y: usize) -> bool {
        self.0.is_forbidden_idx(self.index(x, y))
    }

    fn threats(&self, x: usize, y: usize, color: Color) -> PointThreats {
        let patterns = self.0.patterns_idx(self.index(x, y), color);
        PointThreats {
            five: patterns.contains(&Pattern::Five),
            four: patterns.iter().any(|p| p.is_four()),
            open_three: patterns.contains(&Pattern::OpenThree),
        }
    }

    fn hash(&self) -> u64 {
        self.0.hash() ^ rule_salt(self.0.rule())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::features::{encoded_len, plane};
    use crate::nn::{encode_into, Symmetry};

    #[test]
    fn planes_describe_the_board() {
        // Black to move; black has a three on row 2 (open at both ends).
        let board = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            . . . . . . . .
            . . x x x . . .
            . . . . . . . .
            o o . . . . . o
            ",
        )
        .unwrap();
        let view = BoardView(&board);
        assert_eq!(view.side_to_move(), Color::Black);
        let (w, h) = (8, 5);
        let mut out = vec![0.0; encoded_len(w, h)];
        encode_into(&view, Symmetry::IDENTITY, w, h, &mut out);
        let at = |p: usize, x: usize, y: usize| out[p * w * h + y * w + x];
        assert_eq!(at(plane::OWN_STONES, 3, 2), 1.0);
        assert_eq!(at(plane::OPPONENT_STONES, 0, 4), 1.0);
        assert_eq!(at(plane::OWN_FOUR, 1, 2), 1.0, "x x x x on the left");
        assert_eq!(at(plane::OWN_FOUR, 5, 2), 1.0);
        assert_eq!(at(plane::OWN_FOUR, 7, 0), 0.0);
        assert_eq!(at(plane::OWN_FIVE, 5, 2), 0.0);
        assert_eq!(at(plane::OPPONENT_FIVE, 2, 4), 0.0);
        assert_eq!(at(plane::BLACK_TO_MOVE, 0, 0), 1.0);
    }

    #[test]
    fn hash_tells_rules_apart() {
        let a = Board::new(9, 9, Rule::Standard).unwrap();
        let b = Board::new(9, 9, Rule::Renju).unwrap();
        assert_ne!(BoardView(&a).hash(), BoardView(&b).hash());
    }
}
