//! Player SPECs: which thinker plays a self-play game or one side of a match.
//!
//! | SPEC | thinker | policy target in self-play |
//! |---|---|---|
//! | `classical` | the one-ply classical player | its move |
//! | `mcts` | the MCTS over the classical evaluator | its root visit distribution |
//! | `policy:FILE` | the one-ply `PolicyPlayer` (needs the `torch` feature) over the network FILE | its policy |
//! | `FILE` | the MCTS over the network FILE | its root visit distribution |
//! | `brain:COMMAND` | an external Gomocup brain ([`BrainPlayer`]), e.g. an older Hoshi build | its move |
//!
//! The two MCTS players are the engine's own (`setup::mcts_thinker`): the threat solver at
//! the root and in the tree. The MCTS takes its parameters from the configuration's `[search]` section and the network
//! its batching settings from `[network]`; exploration noise (self-play) is the MCTS's root
//! Dirichlet noise with the configured alpha and fraction, or the policy player's own noise.
use std::path::PathBuf;

use crate::search::evaluator::NetworkSettings;
use crate::search::one_ply::ClassicalPlayer;
use crate::search::Thinker;
use crate::setup::{mcts_thinker, PlayerSetup};
use crate::train::{BrainPlayer, PolicyTarget, TrainError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Classical,
    Mcts,
    Policy(PathBuf),
    Network(PathBuf),
    Brain(String),
}

impl PlayerSpec {
    pub fn parse(spec: &str) -> PlayerSpec {
        match spec.trim() {
            "classical" => PlayerSpec::Classical,
            "mcts" => PlayerSpec::Mcts,
            s => match (s.strip_prefix("policy:"), s.strip_prefix("brain:")) {
                (Some(path), _) => PlayerSpec::Policy(PathBuf::from(path)),
                (_, Some(command)) => PlayerSpec::Brain(command.to_string()),
                _ => PlayerSpec::Network(PathBuf::from(s)),
            },
        }
    }

    /// The policy target that matches this thinker's ranked scores.
    pub fn policy_target(&self) -> PolicyTarget {
        match self {
            PlayerSpec::Classical | PlayerSpec::Policy(_) | PlayerSpec::Brain(_) => {
                PolicyTarget::RankedShares
            }
            PlayerSpec::Mcts | PlayerSpec::Network(_) => PolicyTarget::Visits,
        }
    }

    pub fn uses_network(&self) -> bool {
        matches!(self, PlayerSpec::Policy(_) | PlayerSpec::Network(_))
    }

    /// Builds the thinker. `exploration` turns self-play noise on; `seed` seeds the noise of
    /// the players that take a seed (the MCTS draws its own).
    pub fn build(
        &self,
        setup: &PlayerSetup,
        exploration: bool,
        seed: u64,
    ) -> Result<Box<dyn Thinker>, TrainError> {
        let mut params = setup.params.clone();
        params.root_noise = exploration.then_some(setup.noise);
        Ok(match self {
            PlayerSpec::Classical => Box::new(ClassicalPlayer),
            PlayerSpec::Mcts => mcts_thinker(params, None)?,
            PlayerSpec::Policy(path) => policy_player(path, setup, exploration, seed)?,
            PlayerSpec::Network(path) => {
                let settings = NetworkSettings {
                    path: path.clone(),
                    ..setup.network.clone()
                };
                mcts_thinker(params, Some(&settings))?
            }
            PlayerSpec::Brain(command) => Box::new(
                BrainPlayer::start(command)
                    .map_err(|e| TrainError::Config(format!("brain:{command}: {e}")))?,
            ),
        })
    }
}

/// The one-ply [`PolicyPlayer`](crate::train::PolicyPlayer) over the network at `path`.
#[cfg(feature = "torch")]
fn policy_player(
    path: &std::path::Path,
    setup: &PlayerSetup,
    exploration: bool,
    seed: u64,
) -> Result<Box<dyn Thinker>, TrainError> {
    use crate::nn::{parse_device, Network};
    let device = parse_device(&setup.network.device)?;
    if device == tch::Device::Cpu {
        crate::search::evaluator::set_cpu_threads(setup.network.cpu_threads);
    }
    let network = Network::load(path, device)?;
    let name = format!("policy:{}", path.display());
    Ok(Box::new(
        crate::train::PolicyPlayer::new(network, &name).with_exploration(exploration, seed),
    ))
}

/// Without libtorch there is no policy player.
#[cfg(not(feature = "torch"))]
fn policy_player(
    _path: &std::path::Path,
    _setup: &PlayerSetup,
    _exploration: bool,
    _seed: u64,
) -> Result<Box<dyn Thinker>, TrainError> {
    Err(crate::nn::NnError::NoTorch("load a network").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(PlayerSpec::parse("classical"), PlayerSpec::Classical);
        assert_eq!(PlayerSpec::parse(" mcts "), PlayerSpec::Mcts);
        assert_eq!(
            PlayerSpec::parse("policy:nets/a"),
            PlayerSpec::Policy(PathBuf::from("nets/a"))
        );
        assert_eq!(
            PlayerSpec::parse("nets/a.safetensors"),
            PlayerSpec::Network(PathBuf::from("nets/a.safetensors"))
        );
        assert_eq!(PlayerSpec::Mcts.policy_target(), PolicyTarget::Visits);
        assert_eq!(
            PlayerSpec::Classical.policy_target(),
            PolicyTarget::RankedShares
        );
    }

    #[cfg(feature = "torch")]
    #[test]
    fn every_spec_builds_a_thinker_that_plays() {
        use crate::game::{Board, Rule};
        use crate::nn::{Arch, Network};
        use crate::search::{Limits, ThinkRequest};
        use std::sync::atomic::AtomicBool;
        use tch::Device;
        let dir = std::env::temp_dir().join(format!("hoshi-players-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = dir.join("tiny");
        Network::random(Arch::new(1, 8), 1, Device::Cpu)
            .unwrap()
            .save(&net)
            .unwrap();
        let setup = crate::setup::player_setup(&crate::config::Config::default(), Some("cpu"));
        let board = Board::from_moves(9, 9, Rule::Renju, &[crate::game::Point::new(4, 4)]).unwrap();
        let net_path = net.display().to_string();
        for spec in [
            "classical".to_string(),
            "mcts".to_string(),
            format!("policy:{net_path}"),
            net_path.clone(),
        ] {
            let mut thinker = PlayerSpec::parse(&spec).build(&setup, true, 3).unwrap();
            let mut limits = Limits::infinite(1);
            limits.max_nodes = Some(50);
            let request = ThinkRequest {
                board: board.clone(),
                blocked: Vec::new(),
                limits,
            };
            let result = thinker.think(&request, &AtomicBool::new(false));
            let best = result.best.unwrap_or_else(|| panic!("{spec}: no move"));
            assert!(board.is_empty(best), "{spec}: {best}");
            assert!(!result.ranked.is_empty(), "{spec}: nothing ranked");
        }
        assert!(PlayerSpec::parse("no/such/net")
            .build(&setup, false, 0)
            .is_err());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn unknown_specs_are_readable_errors() {
        let setup = crate::setup::player_setup(&crate::config::Config::default(), Some("cpu"));
        let err = match PlayerSpec::parse("no/such/net").build(&setup, false, 0) {
            Err(e) => e,
            Ok(_) => panic!("loaded a missing network"),
        };
        assert!(err.to_string().contains("not found"), "{err}");
    }
}
