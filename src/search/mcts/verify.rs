//! Checking the search's choice for a forced loss with the time the early stop saves: when the
//! most visited move can no longer be overtaken before the target (smart stop), the time left
//! goes to one deep look at the position after it: does the opponent have a forced win (VCT)? If
//! so the move is proven lost, the search turns away from it and goes on; if not (or the budget
//! runs out) the search stops as it would have. A move is checked once per search.
use super::outcome;
use super::params::MctsParams;
use super::tactics::TacticalCheck;
use super::threads::{update_proof, SharedSearch};
use crate::game::Board;
use std::time::{Duration, Instant};

/// Solver nodes one check may spend (the time left before the target usually ends it first).
const CHECK_NODES: u64 = 4_000_000;

/// What one search checked so far.
#[derive(Default)]
pub(crate) struct Verifier {
    checked: Vec<usize>,
    /// Checks run, moves refuted and the time they took, for the log.
    pub checks: u32,
    pub proofs: u32,
    pub spent: Duration,
}

impl Verifier {
    /// Checks the move the search would play now (once); true when it is proven lost.
    pub fn refutes_choice(
        &mut self,
        s: &SharedSearch<'_>,
        params: &MctsParams,
        check: &dyn TacticalCheck,
        board: &Board,
    ) -> bool {
        let root = s.tree.root();
        let Some(best) = outcome::best_edge(root, params) else {
            return false;
        };
        let Some(child) = root.child(best) else {
            return false;
        };
        let mv = root.edges()[best].mv();
        if child.proof().is_some() || self.checked.contains(&mv) {
            return false;
        }
        self.checked.push(mv);
        let mut position = board.clone();
        position.play_unchecked(mv);
        let deadline = s.limits.target.or(s.limits.hard);
        self.checks += 1;
        let started = Instant::now();
        let proven = check.prove_deep(&position, CHECK_NODES, deadline, s.stop);
        self.spent += started.elapsed();
        let Some(proof) = proven else {
            return false;
        };
        if !child.set_proof(proof) {
            return false;
        }
        self.proofs += 1;
        log::debug!("verify: move {mv} loses to a forced win ({proof:?})");
        update_proof(root);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{KnownThreats, MctsParams, MctsThinker, Proof, TacticalCheck};
    use crate::game::{Board, Point, Rule};
    use crate::search::{Limits, ThinkRequest, Thinker};
    use parking_lot::Mutex;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// Refutes the first move it is asked about (the opponent "has a forced win" after it) and
    /// no other; remembers every move it was asked about.
    #[derive(Default)]
    struct Oracle {
        asked: Mutex<Vec<Point>>,
    }

    impl TacticalCheck for Oracle {
        fn prove(&self, _board: &Board, _known: &KnownThreats) -> Option<Proof> {
            None
        }

        fn prove_deep(
            &self,
            board: &Board,
            _nodes: u64,
            _deadline: Option<Instant>,
            _stop: &AtomicBool,
        ) -> Option<Proof> {
            let mut asked = self.asked.lock();
            asked.push(board.last_move().unwrap());
            (asked.len() == 1).then_some(Proof::Win(9))
        }
    }

    fn think(verify: bool, oracle: &Arc<Oracle>) -> Point {
        let params = MctsParams {
            verify,
            ..MctsParams::default()
        };
        think_with(params, true, oracle)
    }

    fn think_with(params: MctsParams, banked: bool, oracle: &Arc<Oracle>) -> Point {
        let p = Point::new;
        let board =
            Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(7, 8)]).unwrap();
        let sharpness = params.classical_prior_sharpness;
        let evaluator = Arc::new(crate::search::evaluator::ClassicalEvaluator::new(sharpness));
        let mut thinker = MctsThinker::new(params, evaluator);
        thinker.set_tactical_check(Some(oracle.clone()));
        let now = Instant::now();
        let request = ThinkRequest {
            board,
            blocked: Vec::new(),
            limits: Limits {
                target: Some(now + Duration::from_millis(1500)),
                hard: Some(now + Duration::from_millis(3000)),
                // A match clock: only then does the smart stop end a search early.
                saved_time_banked: banked,
                ..Limits::infinite(1)
            },
        };
        thinker
            .think(&request, &AtomicBool::new(false))
            .best
            .unwrap()
    }

    #[test]
    fn a_settled_choice_that_loses_to_a_forced_win_is_dropped() {
        let oracle = Arc::new(Oracle::default());
        let chosen = think(true, &oracle);
        let asked = oracle.asked.lock().clone();
        // The smart stop settled on a move, the check refuted it, and the search went on to
        // play another.
        assert!(!asked.is_empty());
        assert_ne!(chosen, asked[0], "{asked:?}");

        // Without verification the check is never asked.
        let oracle = Arc::new(Oracle::default());
        think(false, &oracle);
        assert!(oracle.asked.lock().is_empty());
    }

    #[test]
    fn a_late_check_drops_a_refuted_choice_under_a_per_move_limit() {
        // No match clock: the smart stop never ends the search, so only the late check asks.
        let params = MctsParams {
            verify_late: 0.5,
            ..MctsParams::default()
        };
        let oracle = Arc::new(Oracle::default());
        let chosen = think_with(params.clone(), false, &oracle);
        let asked = oracle.asked.lock().clone();
        assert!(!asked.is_empty());
        assert_ne!(chosen, asked[0], "{asked:?}");
        // Each move is asked about once.
        let mut unique = asked.clone();
        unique.sort_by_key(|p| (p.x, p.y));
        unique.dedup();
        assert_eq!(unique.len(), asked.len(), "{asked:?}");

        let oracle = Arc::new(Oracle::default());
        let off = MctsParams {
            verify_late: 0.0,
            ..params
        };
        think_with(off, false, &oracle);
        assert!(oracle.asked.lock().is_empty());
    }
}
