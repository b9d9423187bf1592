//! Leaf evaluation for the tree search: move priors and a win/draw/loss estimate.
//!
//! Three implementations: [`ClassicalEvaluator`] (pattern scores, no network),
//! [`NetworkEvaluator`] (the policy-value net through `nn::service`, batched across the search
//! threads) and [`HybridEvaluator`] (classical leaves, the net re-pricing the nodes the search
//! keeps coming back to). An [`Evaluator`] is shared by the search; each search thread asks it
//! for its own [`LeafEvaluator`], which may keep per-thread state (buffers, a service client).
//!
//! The network and hybrid evaluators need the `torch` feature; without it
//! [`load_network_evaluator`] answers [`NoTorch`](crate::nn::NnError::NoTorch) and the caller searches classically.
mod classical;
#[cfg(feature = "torch")]
mod hybrid;
mod near;
#[cfg(feature = "torch")]
mod network;
mod network_settings;
mod pattern_net;
mod wdl;

pub use classical::{ClassicalEvaluator, ClassicalLeaf};
#[cfg(feature = "torch")]
pub use hybrid::HybridEvaluator;
pub use near::{threat_of, NearCursor, NearPoint};
#[cfg(feature = "torch")]
pub use network::{load_torch_evaluator, service_config, set_cpu_threads, NetworkEvaluator};
pub use network_settings::{NetworkSettings, RefineSettings};
pub use pattern_net::{PatternEvaluator, PatternLeaf};
pub use wdl::Wdl;

/// The evaluator for the network `settings` name: a pattern net runs in plain Rust in every
/// build; a residual net needs libtorch (without the `torch` feature:
/// [`NoTorch`](crate::nn::NnError::NoTorch)).
pub fn load_network_evaluator(
    settings: &NetworkSettings,
    classical_prior_sharpness: f32,
) -> Result<std::sync::Arc<dyn Evaluator>, crate::nn::NnError> {
    let path = resolve_network(&settings.path);
    if crate::nn::NetworkMeta::read(&path)?.kind == crate::nn::ModelKind::Pattern {
        return Ok(std::sync::Arc::new(PatternEvaluator::load(&path)?));
    }
    #[cfg(feature = "torch")]
    return load_torch_evaluator(settings, &path, classical_prior_sharpness);
    #[cfg(not(feature = "torch"))]
    {
        let _ = classical_prior_sharpness;
        Err(crate::nn::NnError::NoTorch("run a residual network"))
    }
}

/// A relative network path is looked for from the working directory, then beside the
/// executable, then in the repository.
pub fn resolve_network(path: &Path) -> PathBuf {
    if path.is_absolute() || has_network_file(path) {
        return path.to_path_buf();
    }
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf));
    exe_dir
        .into_iter()
        .chain(std::iter::once(PathBuf::from(env!("CARGO_MANIFEST_DIR"))))
        .map(|dir| dir.join(path))
        .find(|p| has_network_file(p))
        .unwrap_or_else(|| path.to_path_buf())
}

fn has_network_file(path: &Path) -> bool {
    crate::nn::network_paths(path).1.is_file()
}

use std::path::{Path, PathBuf};

use crate::game::Board;

/// A position to evaluate.
pub struct Leaf<'a> {
    pub board: &'a Board,
    /// The moves the search will consider (board indices): one prior each, in this order.
    pub moves: &'a [usize],
    /// Empty points near the stones, legal or not, in board order, with their line patterns
    /// (a cheap neighbourhood for static evaluators).
    pub near: &'a [NearPoint],
}

/// The search's evaluator, shared by its threads.
pub trait Evaluator: Send + Sync {
    /// A short name for logs and the MESSAGE line.
    fn name(&self) -> &str;

    /// Per-thread evaluation state for one search thread (dropped when the thread ends).
    fn leaf_evaluator(&self) -> Box<dyn LeafEvaluator>;

    /// How many search threads to run when `requested` are asked for. Evaluators that wait on
    /// a device may want more threads than cores, to fill larger batches.
    fn search_threads(&self, requested: usize) -> usize {
        requested.max(1)
    }

    /// Memory the evaluator holds (caches), taken off the tree's share of the memory limit.
    fn memory_bytes(&self) -> u64 {
        0
    }

    /// Whether the evaluator reads the twos of [`Leaf::near`] (searches may skip reading them
    /// for one that does not).
    fn reads_twos(&self) -> bool {
        true
    }

    /// When expanded nodes get a second opinion from [`LeafEvaluator::refine`] (`None`: never).
    fn refinement(&self) -> Option<Refinement> {
        None
    }
}

/// When and how much a refinement counts (see [`Evaluator::refinement`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refinement {
    /// Playouts through a node before it is refined.
    pub after_visits: u32,
    /// How many visits the refined value counts for in the node's statistics (0: priors only).
    pub value_weight: u32,
}

/// One search thread's evaluator.
pub trait LeafEvaluator: Send {
    /// Writes one prior per `leaf.moves` (summing to 1) into `priors` and returns the outcome
    /// estimate for the side to move.
    fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl;

    /// A second, costlier opinion on a node the search keeps visiting: `priors` holds its
    /// current priors (one per `leaf.moves`) and gets the new ones; returns the value for the
    /// side to move, or `None` (priors untouched) when there is no second opinion.
    fn refine(&mut self, _leaf: &Leaf<'_>, _priors: &mut Vec<f32>) -> Option<Wdl> {
        None
    }
}

/// `logits` turned into probabilities in place (max-shifted, so huge logits are fine).
pub(crate) fn softmax_in_place(logits: &mut [f32]) {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for l in logits.iter_mut() {
        *l = (*l - max).exp();
        sum += *l;
    }
    if sum > 0.0 && sum.is_finite() {
        logits.iter_mut().for_each(|l| *l /= sum);
    } else {
        let u = 1.0 / logits.len().max(1) as f32;
        logits.iter_mut().for_each(|l| *l = u);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_sums_to_one_and_keeps_order() {
        let mut v = vec![1.0, 3.0, 2.0];
        softmax_in_place(&mut v);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(v[1] > v[2] && v[2] > v[0]);
        let mut v = vec![1.0, 1000.0];
        softmax_in_place(&mut v);
        assert!(v[1] > 0.99 && v[0] >= 0.0);
        let mut v = vec![f32::NAN; 2];
        softmax_in_place(&mut v);
        assert_eq!(v, vec![0.5, 0.5]);
    }
}
