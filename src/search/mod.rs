//! Search: the contract between the controller and whatever thinks (the MCTS, or the classical
//! player), plus the searches themselves.
//!
//! - `think`: [`Thinker`], [`ThinkRequest`], [`Limits`], [`ThinkResult`], [`SearchInfo`], [`Style`];
//! - [`mcts`]: the tree search ([`MctsThinker`]);
//! - [`alphabeta`]: the alpha-beta search ([`AlphaBetaThinker`]);
//! - [`picker`]: the threat-staged move picker the searches share;
//! - [`evaluator`]: the evaluator contract ([`evaluator::Evaluator`], [`evaluator::Leaf`],
//!   [`evaluator::Wdl`], [`evaluator::NearPoint`]), below the MCTS, and its implementations
//!   (classical, network, hybrid);
//! - [`one_ply`]: the one-ply pattern player and the pattern scores the evaluator uses;
//! - [`solving`]: the threat solver at the root and in the tree ([`solving::SolvingThinker`]);
pub mod alphabeta;
pub mod evaluator;
pub mod mcts;
pub mod one_ply;
pub mod picker;
pub mod solving;
mod think;

pub use alphabeta::{AlphaBetaParams, AlphaBetaThinker};
pub use mcts::{MctsParams, MctsThinker};
pub use think::{
    Eval, Limits, ProgressSink, SearchInfo, Style, ThinkRequest, ThinkResult, Thinker,
};
