//! Threat verification of the moves the search favours, so that forced wins decide the choice as
//! soon as they exist rather than when the playouts stumble on them:
//! - after each of the most visited root moves, does the opponent have a forced win (VCT)? If so
//!   that move is proven lost and the search turns away from it;
//! - after the most visited replies to our favourite move, do we? If so the reply is proven lost
//!   for the opponent, and our move may become a proven win.
//!
//! Budgets grow with a node's visits (a move the search believes in deserves a deeper look), a
//! node is looked at again once its budget has grown fourfold, and every check stops with the
//! search. It runs on the thread that runs the monitor, between its playouts.
use super::node::Node;
use super::tactics::TacticalCheck;
use super::threads::{update_proof, SharedSearch};
use crate::game::Board;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Solver nodes granted per visit of the node checked.
const NODES_PER_VISIT: u64 = 64;
/// The least and most one check may spend.
const MIN_NODES: u64 = 2_000;
const MAX_NODES: u64 = 4_000_000;
/// A node is checked again when its budget has grown this many times.
const REGROWTH: u64 = 4;
/// Root moves, and replies to the favourite, that are candidates for a check.
const ROOT_MOVES: usize = 4;
const REPLIES: usize = 3;
/// One check takes at most this share of the time left before the target.
const TIME_SHARE: f64 = 0.25;

/// What one search verified so far: the budget each node was checked with.
#[derive(Default)]
pub(crate) struct Verifier {
    checked: HashMap<*const Node, u64>,
    /// Checks run and proofs found, for the log.
    pub checks: u32,
    pub proofs: u32,
}

impl Verifier {
    /// Runs the most urgent check, if any is due; returns whether it ran one.
    pub fn step(&mut self, s: &SharedSearch<'_>, check: &dyn TacticalCheck, board: &Board) -> bool {
        let Some((path, node, nodes)) = self.most_urgent(s.tree.root()) else {
            return false;
        };
        let deadline = s.limits.target.or(s.limits.hard).map(|t| {
            let left = t.saturating_duration_since(Instant::now());
            Instant::now() + left.mul_f64(TIME_SHARE).max(Duration::from_millis(1))
        });
        let mut position = board.clone();
        for &mv in &path {
            position.play_unchecked(mv);
        }
        self.checked.insert(node as *const Node, nodes);
        self.checks += 1;
        if let Some(proof) = check.prove_deep(&position, nodes, deadline, s.stop) {
            if node.set_proof(proof) {
                self.proofs += 1;
                log::debug!("verify: {path:?} proven {proof:?} with {nodes} nodes");
                // The parents may now be settled too (the reply's move, then the root).
                let root = s.tree.root();
                if path.len() == 2 {
                    if let Some(parent) = child_by_move(root, path[0]) {
                        update_proof(parent);
                    }
                }
                update_proof(root);
            }
        }
        true
    }

    /// The candidate with the most visits whose budget has outgrown its last check: the path of
    /// moves to it from the root, the node, and the budget to check it with.
    fn most_urgent<'t>(&self, root: &'t Node) -> Option<(Vec<usize>, &'t Node, u64)> {
        let mut best: Option<(Vec<usize>, &'t Node, u64, u32)> = None;
        let mut consider = |path: Vec<usize>, node: &'t Node| {
            if node.proof().is_some() {
                return;
            }
            let visits = node.visits();
            let budget = (u64::from(visits) * NODES_PER_VISIT).clamp(MIN_NODES, MAX_NODES);
            let done = self.checked.get(&(node as *const Node)).copied();
            let due = match done {
                None => true,
                Some(d) => d < MAX_NODES && budget >= d * REGROWTH,
            };
            if due && best.as_ref().is_none_or(|b| visits > b.3) {
                best = Some((path, node, budget, visits));
            }
        };
        let top = most_visited(root, ROOT_MOVES);
        for &(mv, child) in &top {
            consider(vec![mv], child);
        }
        if let Some(&(mv, favourite)) = top.first() {
            for (reply, grandchild) in most_visited(favourite, REPLIES) {
                consider(vec![mv, reply], grandchild);
            }
        }
        best.map(|(path, node, budget, _)| (path, node, budget))
    }
}

/// The `k` most visited children of `node` that exist, with their moves, most visited first.
fn most_visited(node: &Node, k: usize) -> Vec<(usize, &Node)> {
    let edges = node.edges();
    let mut all: Vec<(usize, &Node)> = node
        .children()
        .filter(|(_, c)| c.visits() > 0)
        .map(|(i, c)| (edges[i].mv(), c))
        .collect();
    all.sort_by_key(|(_, c)| std::cmp::Reverse(c.visits()));
    all.truncate(k);
    all
}

fn child_by_move(node: &Node, mv: usize) -> Option<&Node> {
    let i = node.edges().iter().position(|e| e.mv() == mv)?;
    node.child(i)
}

#[cfg(test)]
mod tests {
    use super::super::{MctsParams, MctsThinker, Proof, TacticalCheck};
    use crate::game::{Board, Point, Rule};
    use crate::search::{Limits, ThinkRequest, Thinker};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Instant;

    /// Pretends that after `losing` the side to move (the opponent) has a forced win, and
    /// counts its deep checks.
    struct Oracle {
        losing: Point,
        deep_checks: std::sync::atomic::AtomicU32,
    }

    impl TacticalCheck for Oracle {
        fn prove(&self, _board: &Board) -> Option<Proof> {
            None
        }

        fn prove_deep(
            &self,
            board: &Board,
            _nodes: u64,
            _deadline: Option<Instant>,
            _stop: &AtomicBool,
        ) -> Option<Proof> {
            self.deep_checks
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            (board.history().get(3) == Some(&self.losing)).then_some(Proof::Win(9))
        }
    }

    fn think(thinker: &mut MctsThinker, board: &Board) -> Point {
        let request = ThinkRequest {
            board: board.clone(),
            blocked: Vec::new(),
            // A node limit, not a clock: the same moves every run (the monitor still ticks).
            limits: Limits {
                max_nodes: Some(6000),
                ..Limits::infinite(1)
            },
        };
        thinker
            .think(&request, &AtomicBool::new(false))
            .best
            .unwrap()
    }

    /// The MCTS over the classical evaluator.
    fn classical(params: MctsParams) -> MctsThinker {
        let sharpness = params.classical_prior_sharpness;
        MctsThinker::new(
            params,
            Arc::new(crate::search::evaluator::ClassicalEvaluator::new(sharpness)),
        )
    }

    #[test]
    fn a_favoured_move_that_allows_a_forced_win_is_dropped() {
        let p = Point::new;
        let board =
            Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(7, 8)]).unwrap();
        let mut params = MctsParams {
            smart_stop: false,
            ..MctsParams::default()
        };
        params.verify = false;
        let favourite = think(&mut classical(params.clone()), &board);

        let oracle = Arc::new(Oracle {
            losing: favourite,
            deep_checks: Default::default(),
        });
        params.verify = true;
        let mut thinker = classical(params.clone());
        thinker.set_tactical_check(Some(oracle.clone()));
        let chosen = think(&mut thinker, &board);
        assert_ne!(chosen, favourite, "the refuted move was played");
        assert!(
            oracle
                .deep_checks
                .load(std::sync::atomic::Ordering::Relaxed)
                > 1
        );

        // Without verification the same check plugged in changes nothing.
        params.verify = false;
        let mut thinker = classical(params);
        thinker.set_tactical_check(Some(oracle.clone()));
        assert_eq!(think(&mut thinker, &board), favourite);
    }
}
