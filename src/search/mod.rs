//! Search: the contract between the controller and whatever thinks (the MCTS, or the classical
//! player), plus the searches themselves.
//!
//! - `think`: [`Thinker`], [`ThinkRequest`], [`Limits`], [`ThinkResult`], [`SearchInfo`], [`Style`];
//! - [`mcts`]: the tree search ([`MctsThinker`]);
//! - [`evaluator`]: leaf evaluation for the tree search (classical or network);
//! - [`classical`]: the one-ply pattern player and the pattern scores the evaluator uses;
//! - [`bench`]: playout throughput for `pbrain-hoshi bench`.
pub mod bench;
pub mod classical;
pub mod evaluator;
pub mod mcts;
pub mod tactical;
mod think;

pub use mcts::{MctsParams, MctsThinker};
pub use think::{
    Eval, Limits, ProgressSink, SearchInfo, Style, ThinkRequest, ThinkResult, Thinker,
};

use crate::config::Config;

/// The thinker the config asks for: the MCTS, over the network when `search.network` names one
/// (and it loads), else over the classical evaluator.
pub fn default_thinker(config: &Config) -> Box<dyn Thinker> {
    let params = config.mcts_params();
    if let Some(settings) = config.network_settings() {
        match evaluator::load_network_evaluator(&settings, params.classical_prior_sharpness) {
            Ok(evaluator) => {
                log::info!("evaluator: {}", evaluator.name());
                return with_solver(MctsThinker::new(params, evaluator));
            }
            Err(e) => log::error!(
                "cannot use the network {}: {e}; searching with the classical evaluator",
                settings.path.display()
            ),
        }
    }
    with_solver(MctsThinker::classical(params))
}

/// The MCTS with the threat solver at its root and in its tree: the engine's player.
pub fn with_solver(mut mcts: MctsThinker) -> Box<dyn Thinker> {
    mcts.set_tactical_check(Some(std::sync::Arc::new(tactical::SolverCheck::new())));
    let late_vct = mcts.params().verify;
    Box::new(tactical::SolvingThinker::new(mcts).with_late_vct(late_vct))
}
