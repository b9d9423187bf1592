//! Search: the contract between the controller and whatever thinks (the MCTS, or the classical
//! player), plus the searches themselves.
//!
//! - `think`: [`Thinker`], [`ThinkRequest`], [`Limits`], [`ThinkResult`], [`SearchInfo`], [`Style`];
//! - [`mcts`]: the tree search ([`MctsThinker`]);
//! - [`evaluator`]: the evaluator contract ([`evaluator::Evaluator`], [`evaluator::Leaf`],
//!   [`evaluator::Wdl`], [`evaluator::NearPoint`]), below the MCTS, and its implementations
//!   (classical, network, hybrid);
//! - [`one_ply`]: the one-ply pattern player and the pattern scores the evaluator uses;
//! - [`solving`]: the threat solver at the root and in the tree ([`solving::SolvingThinker`]);
//! - [`bench`]: playout throughput for `pbrain-hoshi bench`.
pub mod bench;
pub mod evaluator;
pub mod mcts;
pub mod one_ply;
pub mod solving;
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
    with_solver(classical_mcts(params))
}

/// The MCTS over the classical evaluator.
pub fn classical_mcts(params: MctsParams) -> MctsThinker {
    let evaluator = std::sync::Arc::new(evaluator::ClassicalEvaluator::new(
        params.classical_prior_sharpness,
    ));
    MctsThinker::new(params, evaluator)
}

/// The MCTS with the threat solver at its root and in its tree: the engine's player.
pub fn with_solver(mut mcts: MctsThinker) -> Box<dyn Thinker> {
    mcts.set_tactical_check(Some(std::sync::Arc::new(solving::SolverCheck::new())));
    Box::new(solving::SolvingThinker::new(mcts))
}
