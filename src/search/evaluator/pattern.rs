//! The pattern evaluator: the pattern-codebook net (`nn::pattern`) at every leaf, in plain
//! Rust, each search thread keeping its own incremental features. No libtorch, no batching:
//! a leaf costs a few microseconds, about what the classical evaluator costs.
use std::path::Path;
use std::sync::Arc;

use super::{softmax_in_place, Evaluator, Leaf, LeafEvaluator, NearPoint, Wdl};
use crate::game::{Board, Color, Pattern};
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
            // A forbidden point is within two steps of black stones, so among the near points,
            // and needs two threes or fours or an overline there: check those only.
            for p in near {
                if may_be_forbidden(p.patterns(Color::Black)) && board.is_forbidden_idx(p.idx) {
                    self.forbidden.push(p.idx);
                }
            }
        }
        let [win, draw, loss] = self.state.evaluate(board, &self.forbidden, moves, priors);
        softmax_in_place(priors);
        Wdl::new(win, draw, loss)
    }
}

fn may_be_forbidden(patterns: [Pattern; 4]) -> bool {
    let mut threats = 0;
    for p in patterns {
        match p {
            Pattern::Overline | Pattern::DoubleFour => return true,
            Pattern::OpenThree | Pattern::Four | Pattern::OpenFour => threats += 1,
            _ => {}
        }
    }
    threats >= 2
}

impl LeafEvaluator for PatternLeaf {
    fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
        self.evaluate_board(leaf.board, leaf.moves, leaf.near, priors)
    }
}
