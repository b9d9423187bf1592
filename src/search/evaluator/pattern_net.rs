//! The pattern evaluator: the pattern-codebook net (`nn::pattern`) at every leaf, in plain
//! Rust, each search thread keeping its own incremental features. No libtorch, no batching:
//! a leaf costs a few microseconds, about what the classical evaluator costs.
use std::path::Path;
use std::sync::Arc;

use super::{softmax_in_place, Evaluator, Leaf, LeafEvaluator, NearPoint, Wdl};
use crate::game::Board;
use crate::nn::{NnError, PatternState, PatternWeights};

pub struct PatternEvaluator {
    net: Arc<PatternWeights>,
    name: String,
}

impl PatternEvaluator {
    pub fn new(net: PatternWeights, name: String) -> PatternEvaluator {
        PatternEvaluator {
            net: Arc::new(net),
            name,
        }
    }

    /// Loads a network file of kind `pattern`.
    pub fn load(path: &Path) -> Result<PatternEvaluator, NnError> {
        let net = PatternWeights::load(path)?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        Ok(PatternEvaluator::new(
            net,
            format!("pattern {}", stem.unwrap_or_default()),
        ))
    }

    /// One search thread's part.
    pub fn leaf(&self) -> PatternLeaf {
        PatternLeaf {
            state: PatternState::new(self.net.clone()),
            forbidden: Vec::new(),
        }
    }
}

impl Evaluator for PatternEvaluator {
    fn name(&self) -> &str {
        &self.name
    }

    fn leaf_evaluator(&self) -> Box<dyn LeafEvaluator> {
        Box::new(self.leaf())
    }

    fn memory_bytes(&self) -> u64 {
        self.net.memory_bytes()
    }

    /// The net reads the board itself; `near` only finds renju's forbidden points.
    fn reads_twos(&self) -> bool {
        false
    }
}

pub struct PatternLeaf {
    state: PatternState,
    forbidden: Vec<usize>,
}

impl PatternLeaf {
    /// Evaluates a board whose forbidden points are found from `near` (renju).
    pub fn evaluate_board(
        &mut self,
        board: &Board,
        moves: &[usize],
        near: &[NearPoint],
        priors: &mut Vec<f32>,
    ) -> Wdl {
        self.forbidden.clear();
        if board.rule().has_forbidden() {
            // A forbidden point is within two steps of black stones, so among the near points
            // (the check itself rejects ordinary points after four table lookups).
            self.forbidden.extend(
                near.iter()
                    .map(|p| p.idx)
                    .filter(|&i| board.is_forbidden_idx(i)),
            );
        }
        let [win, draw, loss] = self.state.evaluate(board, &self.forbidden, moves, priors);
        softmax_in_place(priors);
        Wdl::new(win, draw, loss)
    }
}

impl LeafEvaluator for PatternLeaf {
    fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
        self.evaluate_board(leaf.board, leaf.moves, leaf.near, priors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Point, Rule};

    #[test]
    fn the_near_points_filter_finds_every_forbidden_point() {
        // Black's threes and fours with forbidden points between them; white's stones far away.
        let moves = [
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 2),
            (9, 8),
            (0, 4),
            (9, 9),
            (0, 6),
            (5, 5),
            (0, 8),
            (5, 6),
            (0, 10),
            (5, 8),
            (14, 14),
            (11, 3),
            (14, 12),
            (12, 3),
            (14, 10),
            (13, 3),
        ];
        let board =
            Board::from_moves(15, 15, Rule::Renju, &moves.map(|(x, y)| Point::new(x, y))).unwrap();
        let want: Vec<usize> = board
            .forbidden_points()
            .iter()
            .map(|&p| board.index(p))
            .collect();
        assert!(!want.is_empty(), "the position has forbidden points");
        // The search's own neighbourhood: empty points within two steps of a stone.
        let mut points = Vec::new();
        crate::search::mcts::MoveGen::new().near_points(&board, &mut points);
        let near: Vec<NearPoint> = points.iter().map(|&i| NearPoint::read(&board, i)).collect();
        let mut leaf = PatternEvaluator::new(PatternWeights::random(8, 1), "t".into()).leaf();
        let mut priors = Vec::new();
        leaf.evaluate_board(&board, &[], &near, &mut priors);
        let mut found = leaf.forbidden.clone();
        found.sort_unstable();
        assert_eq!(found, want);
    }
}
