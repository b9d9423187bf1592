//! The hybrid evaluator: the classical evaluator expands every node (tens of thousands a
//! second), and the network re-prices the moves of the nodes the search keeps coming back to
//! (a few hundred a second on a CPU core), so the search keeps the classical speed where it
//! is wide and shallow and gets the net's judgement where it concentrates.
use std::time::Duration;

use super::network::NetworkLeaf;
use super::Wdl;
use super::{
    ClassicalEvaluator, ClassicalLeaf, Evaluator, Leaf, LeafEvaluator, NetworkEvaluator,
    RefineSettings, Refinement,
};
use crate::nn::{Network, NnError, ServiceConfig};

pub struct HybridEvaluator {
    classical: ClassicalEvaluator,
    network: NetworkEvaluator,
    settings: RefineSettings,
    name: String,
}

impl HybridEvaluator {
    pub fn new(
        classical: ClassicalEvaluator,
        network: NetworkEvaluator,
        settings: RefineSettings,
    ) -> HybridEvaluator {
        let name = format!(
            "hybrid (classical, {} after {} visits)",
            network.name(),
            settings.after_visits
        );
        HybridEvaluator {
            classical,
            network,
            settings,
            name,
        }
    }

    /// Starts the hybrid over `network`: its service never waits for a batch to fill (the
    /// hybrid's threads ask for the net now and then, rarely together, so a batch that waited
    /// for company would mostly wait for nothing).
    pub fn start(
        network: Network,
        service: ServiceConfig,
        settings: RefineSettings,
        classical_prior_sharpness: f32,
    ) -> Result<HybridEvaluator, NnError> {
        let service = ServiceConfig {
            batch_deadline: Duration::ZERO,
            ..service
        };
        Ok(HybridEvaluator::new(
            ClassicalEvaluator::new(classical_prior_sharpness),
            NetworkEvaluator::new(network, service, 0)?,
            settings,
        ))
    }

    /// The network part (its service's statistics).
    pub fn network(&self) -> &NetworkEvaluator {
        &self.network
    }
}

impl Evaluator for HybridEvaluator {
    fn name(&self) -> &str {
        &self.name
    }

    fn leaf_evaluator(&self) -> Box<dyn LeafEvaluator> {
        Box::new(HybridLeaf {
            classical: self.classical.leaf(),
            network: self.network.network_leaf(),
            policy_mix: self.settings.policy_mix.clamp(0.0, 1.0),
            scratch: Vec::new(),
        })
    }

    // Most playouts never wait for the net: as many threads as a classical search.

    fn memory_bytes(&self) -> u64 {
        self.network.memory_bytes()
    }

    fn refinement(&self) -> Option<Refinement> {
        Some(Refinement {
            after_visits: self.settings.after_visits.max(1),
            value_weight: self.settings.value_weight,
        })
    }
}

struct HybridLeaf {
    classical: ClassicalLeaf,
    network: NetworkLeaf,
    policy_mix: f32,
    scratch: Vec<f32>,
}

impl LeafEvaluator for HybridLeaf {
    fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
        self.classical.evaluate(leaf, priors)
    }

    fn refine(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Option<Wdl> {
        match self.network.try_evaluate(leaf, &mut self.scratch) {
            Ok(value) => {
                mix_priors(priors, &self.scratch, self.policy_mix);
                Some(value)
            }
            Err(err) => {
                self.network.note_failure(&err);
                None
            }
        }
    }
}

/// `current` becomes `(1 - share) * current + share * refined`, element by element.
fn mix_priors(current: &mut [f32], refined: &[f32], share: f32) {
    for (c, &r) in current.iter_mut().zip(refined) {
        *c = (1.0 - share) * *c + share * r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixing_keeps_a_distribution_and_weighs_the_refined_share() {
        let mut current = vec![0.5, 0.5, 0.0];
        mix_priors(&mut current, &[0.0, 0.2, 0.8], 0.75);
        let expected = [0.125, 0.275, 0.6];
        for (c, e) in current.iter().zip(expected) {
            assert!((c - e).abs() < 1e-6, "{current:?}");
        }
        assert!((current.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let mut all = vec![0.3, 0.7];
        mix_priors(&mut all, &[1.0, 0.0], 1.0);
        assert_eq!(all, vec![1.0, 0.0]);
    }
}
