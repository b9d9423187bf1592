//! Search: the contract between the controller and whatever thinks (the MCTS, or the classical
//! player), plus the searches themselves.
pub mod classical;
mod think;

pub use think::{Eval, Limits, SearchInfo, ThinkRequest, ThinkResult, Thinker};

use crate::config::Config;

/// The thinker the config asks for.
pub fn default_thinker(_config: &Config) -> Box<dyn Thinker> {
    Box::new(classical::ClassicalPlayer)
}
