//! The engine's [`Board`] as the network's [`FeatureSource`].
use super::features::{FeatureSource, PointThreats};
use crate::game::{Board, Color, Pattern, Point, Rule};

/// Hash salt per rule: the board's Zobrist hash covers stones and side to move but not the
/// rule, and the evaluation cache must not mix rules.
fn rule_salt(rule: Rule) -> u64 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 0x9E37_79B9_7F4A_7C15,
        Rule::Renju => 0xC2B2_AE3D_27D4_EB4F,
        Rule::Caro => 0x1656_67B1_9E37_79F9,
        Rule::CaroExact => 0x27D4_EB2F_1656_67C5,
    }
}

impl FeatureSource for Board {
    fn width(&self) -> usize {
        Board::width(self)
    }

    fn height(&self) -> usize {
        Board::height(self)
    }

    fn stone(&self, x: usize, y: usize) -> Option<Color> {
        self.get(Point::new(x as u8, y as u8))
    }

    fn side_to_move(&self) -> Color {
        Board::side_to_move(self)
    }

    fn rule(&self) -> Rule {
        Board::rule(self)
    }

    fn is_forbidden(&self, x: usize, y: usize) -> bool {
        self.is_forbidden_idx(self.index(Point::new(x as u8, y as u8)))
    }

    fn threats(&self, x: usize, y: usize, color: Color) -> PointThreats {
        let patterns = self.patterns_idx(self.index(Point::new(x as u8, y as u8)), color);
        PointThreats {
            five: patterns.contains(&Pattern::Five),
            four: patterns.iter().any(|p| p.is_four()),
            open_three: patterns.contains(&Pattern::OpenThree),
        }
    }

    fn hash(&self) -> u64 {
        Board::hash(self) ^ rule_salt(Board::rule(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::features::{encoded_len, plane};
    use crate::nn::{encode_into, Symmetry};

    #[test]
    fn board_planes_match_the_position() {
        // Black: a three on row 2; white: one stone. Black to move (3 vs 3 after the white).
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . .
            . . . . . . .
            . x x x . . .
            . . . . . . .
            o o . . . . o
            ",
        )
        .unwrap();
        assert_eq!(FeatureSource::side_to_move(&b), Color::Black);
        let (w, h) = (7, 5);
        let mut out = vec![0.0; encoded_len(w, h)];
        encode_into(&b, Symmetry::IDENTITY, w, h, &mut out);
        let at = |p: usize, x: usize, y: usize| out[p * w * h + y * w + x];
        assert_eq!(at(plane::OWN_STONES, 2, 2), 1.0);
        assert_eq!(at(plane::OPPONENT_STONES, 0, 4), 1.0);
        assert_eq!(at(plane::BLACK_TO_MOVE, 5, 0), 1.0);
        // (4,2) makes a straight four for black: a four point for the side to move.
        assert_eq!(at(plane::OWN_FOUR, 4, 2), 1.0);
        assert_eq!(at(plane::OWN_FIVE, 4, 2), 0.0);
        assert_eq!(at(plane::OPPONENT_FOUR, 4, 2), 0.0);
    }

    #[test]
    fn the_hash_tells_rules_apart() {
        let a = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let mut b = a.clone();
        b.set_rule(Rule::Renju);
        assert_ne!(FeatureSource::hash(&a), FeatureSource::hash(&b));
        assert_eq!(FeatureSource::hash(&a), FeatureSource::hash(&a.clone()));
    }
}
