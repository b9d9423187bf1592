//! The knobs of the tree search (the `[search]` section of the config).
pub use crate::search::Style;

/// Root exploration noise for self-play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootNoise {
    /// Dirichlet concentration.
    pub alpha: f32,
    /// Share of the prior replaced by noise.
    pub fraction: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MctsParams {
    /// PUCT exploration constant.
    pub exploration: f32,
    /// The evaluator's priors are raised to the power 1 / this and normalised again: above 1
    /// the search spreads over more moves than the policy names. 1 keeps them.
    pub policy_temperature: f32,
    /// First-play urgency: an unvisited move is valued at its parent's value minus this.
    pub fpu_reduction: f32,
    /// How many losses a playout in flight counts as while it passes through a node.
    pub virtual_loss: f32,
    pub style: Style,
    /// Final move: most visits, unless a move with at least a tenth of its visits has a higher
    /// lower confidence bound (`mean - lcb_z * stddev`); 0 disables the guard.
    pub lcb_z: f32,
    /// Share of the memory limit the tree may use (the rest is the process, caches, stacks).
    pub tree_memory_share: f32,
    /// Stop before the target time when the best move is the only one, or (when the limits say
    /// the saved time is banked) can no longer change.
    pub smart_stop: bool,
    /// When the smart stop fires, check the chosen move for the opponent's forced win with the
    /// time it saves (a tactical check must be plugged in).
    pub verify: bool,
    /// Where the opponent threatens a VCF, search only the moves that refute it (a tactical
    /// check must be plugged in).
    pub tree_defence: bool,
    /// Below the root, where the player who just moved has a live three, search only the moves
    /// that stop it and our own fours.
    pub three_defence: bool,
    /// At the root, where the opponent would have a VCT were it to move, search only the moves
    /// that leave it none (the solver's `vct_defences`; both searchers read it).
    pub vct_defence: bool,
    /// From this share of the target time on (0: never), the move the search would play is
    /// checked for the opponent's forced win (VCT) after it, each move once, as `verify` does
    /// with the time an early stop saves; a refuted move is proven lost and the search goes on.
    pub verify_late: f32,
    /// Below the root, expand through the threat-staged picker (`search::picker`): the exact
    /// defences of an opponent's open-four, double-four or four-three point plus our fours, and
    /// the wins in 3 and losses in 4 it proves.
    pub threat_stages: bool,
    /// Node budget of the check's VCT where the side to move has a double-three point and the
    /// opponent no four (a win the VCF cannot see); 0: never.
    pub tree_vct_nodes: u64,
    /// Below the root, a position with a single move (a forced block) is not evaluated: the
    /// playout plays the move and evaluates the position after it, as the alpha-beta extends
    /// forced replies.
    pub extend_forced: bool,
    /// A position reached again by another order of moves takes its moves, priors and value
    /// from the node expanded first (`transpositions`) instead of a fresh analysis and
    /// evaluation.
    pub transpositions: bool,
    /// From this many visits on (0: never), the PUCT choice values a child by the opponent's
    /// best answer below it, among those with an eighth of its visits, where that is worse for
    /// us than the child's mean: a refutation found late counts at once.
    pub minimax_visits: u32,
    /// Dirichlet noise on the root priors (self-play only).
    pub root_noise: Option<RootNoise>,
    /// Self-play only: a Gumbel root shares out a search under a playout limit (`gumbel`).
    pub gumbel: Option<super::GumbelRoot>,
    /// Sharpness of the classical evaluator's prior softmax (higher: more peaked).
    pub classical_prior_sharpness: f32,
    /// The tree never holds more than this, whatever the memory limit says.
    pub tree_cap_bytes: u64,
}

impl Default for MctsParams {
    fn default() -> MctsParams {
        MctsParams {
            exploration: 1.5,
            policy_temperature: 1.3,
            fpu_reduction: 0.2,
            virtual_loss: 1.0,
            style: Style::Classic,
            lcb_z: 1.65,
            tree_memory_share: 0.6,
            smart_stop: true,
            verify: false,
            tree_defence: false,
            three_defence: false,
            vct_defence: false,
            verify_late: 0.0,
            threat_stages: false,
            tree_vct_nodes: 0,
            extend_forced: false,
            transpositions: true,
            minimax_visits: 0,
            root_noise: None,
            gumbel: None,
            classical_prior_sharpness: 1.0,
            tree_cap_bytes: 2 << 30,
        }
    }
}

impl MctsParams {
    pub fn draw_weight(&self) -> f32 {
        self.style.draw_weight()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_order_the_draw() {
        assert_eq!(Style::from_protocol(1), Some(Style::Classic));
        assert_eq!(Style::from_protocol(3), None);
        let [d, c, o] = [0, 1, 2].map(|v| Style::from_protocol(v).unwrap().draw_weight());
        assert!(1.0 > d && d > c && c > o && o > 0.0);
        assert_eq!(c, 0.5);
    }
}
