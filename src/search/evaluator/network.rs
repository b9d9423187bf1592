//! The network evaluator: the policy-value net behind `nn::service`, whose evaluator thread
//! batches the requests of all search threads into one forward pass.
use std::path::Path;
use std::sync::Arc;

use super::Wdl;
use super::{ClassicalLeaf, Evaluator, HybridEvaluator, Leaf, LeafEvaluator, NetworkSettings};
use crate::nn::{parse_device, EvalClient, EvalService, Network, NnError, ServiceConfig};

/// The evaluator `settings` ask for over the residual net at `path` (resolved): the network on
/// every leaf, or the hybrid.
pub fn load_torch_evaluator(
    settings: &NetworkSettings,
    path: &Path,
    classical_prior_sharpness: f32,
) -> Result<Arc<dyn Evaluator>, NnError> {
    let network = load_network(settings, path)?;
    let service = service_config(settings);
    Ok(match settings.refine {
        None => Arc::new(NetworkEvaluator::new(
            network,
            service,
            settings.search_threads,
        )?),
        Some(refine) => Arc::new(HybridEvaluator::start(
            network,
            service,
            refine,
            classical_prior_sharpness,
        )?),
    })
}

/// Loads the network file named in `settings` onto its device (setting libtorch's CPU threads
/// for a CPU).
fn load_network(settings: &NetworkSettings, path: &Path) -> Result<Network, NnError> {
    let device = parse_device(&settings.device)?;
    if device == tch::Device::Cpu {
        set_cpu_threads(settings.cpu_threads);
    }
    Network::load(path, device)
}

/// Sets libtorch's intra-op thread count (process-wide) when `threads` > 0.
///
/// One thread is the shipped default: the search threads keep the other cores busy, and
/// libtorch's spinning worker threads collapse when they do not get a core of their own (on a
/// loaded 2-core machine a 6x64 net ran 5-8x slower with 2 threads than with 1).
pub fn set_cpu_threads(threads: usize) {
    if threads > 0 {
        tch::set_num_threads(threads as i32);
    }
}

/// Rough heap bytes of one cache entry (a 15x15 policy plus the slot).
const CACHE_ENTRY_BYTES: u64 = 64 + 4 * 15 * 15;

pub struct NetworkEvaluator {
    service: Arc<EvalService>,
    search_threads: usize,
    cache_entries: usize,
    name: String,
}

impl NetworkEvaluator {
    /// Starts the batching service on `network`.
    pub fn new(
        network: Network,
        config: ServiceConfig,
        search_threads: usize,
    ) -> Result<NetworkEvaluator, NnError> {
        let arch = network.arch();
        let name = format!(
            "network {}x{} on {:?}",
            arch.blocks,
            arch.channels,
            network.device()
        );
        let cache_entries = config.cache_entries;
        Ok(NetworkEvaluator {
            service: Arc::new(EvalService::start(network, config)?),
            search_threads,
            cache_entries,
            name,
        })
    }

    pub fn service(&self) -> &EvalService {
        &self.service
    }

    /// One search thread's client of the service.
    pub(super) fn network_leaf(&self) -> NetworkLeaf {
        NetworkLeaf {
            client: self.service.client(),
            fallback: ClassicalLeaf::new(1.0),
            failed: false,
        }
    }
}

/// The service configuration for `settings`.
pub fn service_config(settings: &NetworkSettings) -> ServiceConfig {
    ServiceConfig {
        max_batch: settings.max_batch.max(1),
        batch_deadline: settings.batch_deadline,
        random_symmetry: settings.random_symmetry,
        cache_entries: settings.cache_entries,
        ..ServiceConfig::default()
    }
}

impl Evaluator for NetworkEvaluator {
    fn name(&self) -> &str {
        &self.name
    }

    fn leaf_evaluator(&self) -> Box<dyn LeafEvaluator> {
        Box::new(self.network_leaf())
    }

    fn search_threads(&self, requested: usize) -> usize {
        match self.search_threads {
            0 => requested.max(1),
            n => n,
        }
    }

    fn memory_bytes(&self) -> u64 {
        self.cache_entries as u64 * CACHE_ENTRY_BYTES
    }
}

pub(super) struct NetworkLeaf {
    client: EvalClient,
    /// Used when the service fails, so a search never stops for want of an evaluation.
    fallback: ClassicalLeaf,
    failed: bool,
}

impl NetworkLeaf {
    /// The net's priors over `leaf.moves` (renormalised over them) and its value.
    pub(super) fn try_evaluate(
        &mut self,
        leaf: &Leaf<'_>,
        priors: &mut Vec<f32>,
    ) -> Result<Wdl, NnError> {
        let board = leaf.board;
        let e = self.client.evaluate(board)?;
        priors.clear();
        let width = board.width();
        priors.extend(leaf.moves.iter().map(|&m| {
            let p = board.point(m);
            e.policy[p.y as usize * width + p.x as usize]
        }));
        let sum: f32 = priors.iter().sum();
        if sum > 1e-12 && sum.is_finite() {
            priors.iter_mut().for_each(|p| *p /= sum);
        } else {
            let u = 1.0 / priors.len().max(1) as f32;
            priors.iter_mut().for_each(|p| *p = u);
        }
        Ok(Wdl::new(e.wdl[0], e.wdl[1], e.wdl[2]))
    }

    /// Logs the first failure of the service (later ones would only repeat it).
    pub(super) fn note_failure(&mut self, err: &NnError) {
        if !self.failed {
            log::error!("network evaluation failed ({err}); using the classical evaluator");
            self.failed = true;
        }
    }
}

impl LeafEvaluator for NetworkLeaf {
    fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
        match self.try_evaluate(leaf, priors) {
            Ok(v) => v,
            Err(err) => {
                self.note_failure(&err);
                self.fallback.evaluate(leaf, priors)
            }
        }
    }
}
