//! The slot where a tactical checker (the threat-space solver of `src/solver/`) plugs into the
//! tree search: before a new position below the root is evaluated, the check may prove it won
//! or lost, and the proof then propagates up the tree like any terminal result (the root itself
//! is proven through its children, so that the search knows the move that wins).
use super::node::Proof;
use crate::game::{Board, Color, Pattern, Threat};
use crate::search::evaluator::NearPoint;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What the search's move analysis found in a position, handed to the check so that it need
/// not scan the board again: every four point of the side to move and every five point of the
/// opponent (legal or not), the side to move's double-three points, and the opponent's four
/// points.
#[derive(Default, Debug)]
pub struct KnownThreats {
    pub fours: Vec<usize>,
    pub their_fives: Vec<usize>,
    pub double_threes: Vec<usize>,
    pub their_fours: Vec<usize>,
}

impl KnownThreats {
    /// Reads them from the empty points within two steps of the stones, where every four and
    /// five point lies; the double threes and the opponent's fours only when `extended` (the
    /// checks that read them are on).
    pub fn read(&mut self, near: &[NearPoint], me: Color, extended: bool) {
        self.fours.clear();
        self.their_fives.clear();
        self.double_threes.clear();
        self.their_fours.clear();
        for n in near {
            if n.patterns(me).iter().any(|p| p.is_four()) {
                self.fours.push(n.idx);
            }
            let theirs = n.patterns(me.opponent());
            if theirs.contains(&Pattern::Five) {
                self.their_fives.push(n.idx);
            }
            if !extended {
                continue;
            }
            if n.threat(me) == Threat::DoubleThree {
                self.double_threes.push(n.idx);
            }
            if theirs.iter().any(|p| p.is_four()) {
                self.their_fours.push(n.idx);
            }
        }
    }
}

/// A tactical check the search runs on every position it expands.
pub trait TacticalCheck: Send + Sync {
    /// The proven result of `board` for its side to move, if the check finds one. It is called
    /// often: keep it cheap (or budgeted), and only answer what is certain. The search asks
    /// after its own move analysis has settled the fives: the side to move has none, and the
    /// opponent at most one, which the side to move may block; `known` holds what that
    /// analysis found.
    fn prove(&self, board: &Board, known: &KnownThreats) -> Option<Proof>;

    /// False when `prove` can find nothing in a position with these threats (a forced win by
    /// fours starts with a four): the search then does not ask.
    fn worth_asking(&self, _known: &KnownThreats) -> bool {
        true
    }

    /// When the player who just moved (the side not to move) threatens a forced win by fours, the
    /// only moves worth searching: the board indices that refute it (empty: none does, the
    /// position is lost). `None` when nothing needs refuting or the check does not look.
    /// `known`: what the move analysis found (the side to move has no five point).
    fn refutations(&self, _board: &Board, _known: &KnownThreats) -> Option<Vec<usize>> {
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
    fn prove(&self, board: &Board, _known: &KnownThreats) -> Option<Proof> {
        self(board)
    }
}
