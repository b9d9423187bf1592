//! The `[network]` settings the evaluators are built from: plain data, in every build (the
//! config produces them whether or not this build can load a network).
use std::path::PathBuf;
use std::time::Duration;

/// The `[network]` settings plus the file to load.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkSettings {
    pub path: PathBuf,
    /// `cpu`, `cuda` or `cuda:N`.
    pub device: String,
    pub max_batch: usize,
    pub batch_deadline: Duration,
    pub cache_entries: usize,
    pub random_symmetry: bool,
    /// Search threads while this network is in use (0: the thread count the search is given).
    pub search_threads: usize,
    /// libtorch's intra-op threads for CPU inference (0: libtorch's default, one per core).
    pub cpu_threads: usize,
    /// `Some`: search hybrid (classical leaves, the net refining busy nodes) instead of
    /// evaluating every leaf with the net.
    pub refine: Option<RefineSettings>,
}

/// The `[network]` refine settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefineSettings {
    /// Playouts through a node before the net re-prices its moves.
    pub after_visits: u32,
    /// Share of the net's priors in the refined priors (the rest: the classical ones).
    pub policy_mix: f32,
    /// Visits the net's value counts for in the refined node's statistics.
    pub value_weight: u32,
}
