//! The slot where a tactical checker (the threat-space solver of `src/solver/`) plugs into the
//! tree search: before a new position below the root is evaluated, the check may prove it won
//! or lost, and the proof then propagates up the tree like any terminal result (the root itself
//! is proven through its children, so that the search knows the move that wins).
use super::node::Proof;
use crate::game::Board;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A tactical check the search runs on every position it expands.
pub trait TacticalCheck: Send + Sync {
    /// The proven result of `board` for its side to move, if the check finds one. It is called
    /// often: keep it cheap (or budgeted), and only answer what is certain. The search asks
    /// after its own move analysis has settled the fives: the side to move has none, and the
    /// opponent at most one, which the side to move may block.
    fn prove(&self, board: &Board) -> Option<Proof>;

    /// True when `prove` can find nothing unless the side to move can make a four (a forced
    /// win by fours starts with one): the search then skips it where there is no four point.
    fn needs_a_four(&self) -> bool {
        false
    }

    /// When the player who just moved (the side not to move) threatens a forced win by fours, the
    /// only moves worth searching: the board indices that refute it (empty: none does, the
    /// position is lost). `None` when nothing needs refuting or the check does not look.
    fn refutations(&self, _board: &Board) -> Option<Vec<usize>> {
        None
    }

    /// A deeper look at a position the search keeps coming back to: a forced win (fours and
    /// threats) for its side to move within `nodes`, `deadline` and `stop`. Only a win is
    /// answered; checks without a deep search answer nothing.
    fn prove_deep(
        &self,
        _board: &Board,
        _nodes: u64,
        _deadline: Option<Instant>,
        _stop: &AtomicBool,
    ) -> Option<Proof> {
        None
    }
}

/// Any suitable function is a check.
impl<F> TacticalCheck for F
where
    F: Fn(&Board) -> Option<Proof> + Send + Sync,
{
    fn prove(&self, board: &Board) -> Option<Proof> {
        self(board)
    }
}
