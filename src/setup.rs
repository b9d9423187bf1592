//! The config's plain sections turned into what the search runs with, in one place, for the
//! engine, the legacy file brain, `bench` and the training commands alike: the MCTS parameters
//! ([`mcts_params`]), the network evaluator's settings ([`network_settings`]), and the thinkers
//! ([`engine_thinker`], [`mcts_thinker`], [`classical_mcts`]). The search itself never reads the
//! config.
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::config::{Config, Searcher};
use crate::nn::NnError;
use crate::search::evaluator::{
    load_network_evaluator, resolve_network, ClassicalEvaluator, Evaluator, NetworkSettings,
    RefineSettings,
};
use crate::search::mcts::RootNoise;
use crate::search::solving::{SolverCheck, SolvingThinker};
use crate::search::{AlphaBetaParams, AlphaBetaThinker, MctsParams, MctsThinker, Style, Thinker};

/// The tree search's parameters from `[search]`.
pub fn mcts_params(config: &Config) -> MctsParams {
    let s = &config.search;
    MctsParams {
        exploration: s.exploration as f32,
        policy_temperature: s.policy_temperature as f32,
        fpu_reduction: s.fpu_reduction as f32,
        virtual_loss: s.virtual_loss as f32,
        style: Style::from_protocol(s.style).unwrap_or_default(),
        lcb_z: s.lcb_z as f32,
        tree_memory_share: s.tree_memory_share as f32,
        smart_stop: s.smart_stop,
        verify: s.verify_threats,
        verify_late: s.verify_late as f32,
        tree_defence: s.tree_defence,
        three_defence: s.three_defence,
        vct_defence: s.vct_defence,
        threat_stages: s.threat_stages,
        tree_vct_nodes: s.tree_vct_nodes,
        extend_forced: s.extend_forced,
        transpositions: s.transpositions,
        minimax_visits: s.minimax_visits,
        root_noise: s.selfplay_noise.then_some(self_play_noise(config)),
        gumbel: None,
        classical_prior_sharpness: s.classical_prior_sharpness as f32,
        tree_cap_bytes: s.tree_cap_mib.saturating_mul(1 << 20),
    }
}

/// The root's Dirichlet noise from `[search]` (`dirichlet_alpha`, `noise_fraction`).
pub fn self_play_noise(config: &Config) -> RootNoise {
    RootNoise {
        alpha: config.search.dirichlet_alpha as f32,
        fraction: config.search.noise_fraction as f32,
    }
}

/// The network to search with, or `None` for the classical evaluator (`search.network = ""`).
pub fn network_settings(config: &Config) -> Option<NetworkSettings> {
    let path = config.search.network.trim();
    (!path.is_empty()).then(|| network_settings_at(config, PathBuf::from(path)))
}

/// The `[network]` settings for the network file at `path`.
pub fn network_settings_at(config: &Config, path: PathBuf) -> NetworkSettings {
    let n = &config.network;
    NetworkSettings {
        path,
        device: n.device.clone(),
        max_batch: n.max_batch,
        batch_deadline: Duration::from_micros(n.batch_deadline_us),
        cache_entries: n.cache_entries,
        random_symmetry: n.random_symmetry,
        search_threads: n.search_threads,
        cpu_threads: n.cpu_threads,
        // `refine_after_visits > 0` asks for the hybrid search.
        refine: (n.refine_after_visits > 0).then_some(RefineSettings {
            after_visits: n.refine_after_visits,
            policy_mix: n.refine_policy_mix as f32,
            value_weight: n.refine_value_weight,
        }),
    }
}

/// The alpha-beta's parameters from `[search]`.
pub fn alphabeta_params(config: &Config) -> AlphaBetaParams {
    let s = &config.search;
    AlphaBetaParams {
        style: Style::from_protocol(s.style).unwrap_or_default(),
        memory_share: s.tree_memory_share as f32,
        hash_cap_bytes: s.hash_cap_mib.saturating_mul(1 << 20),
    }
}

/// The engine's thinker as the config asks for it: the searcher of `search.searcher` with the
/// solver, over the network when `search.network` names one (and it loads), else over the
/// classical evaluator.
pub fn engine_thinker(config: &Config) -> Box<dyn Thinker> {
    let params = mcts_params(config);
    let network = network_settings(config);
    if chosen_searcher(config) == Searcher::AlphaBeta {
        return alphabeta_thinker(alphabeta_params(config), &params, network.as_ref());
    }
    match mcts_thinker(params.clone(), network.as_ref()) {
        Ok(thinker) => thinker,
        Err(e) => {
            log::error!(
                "cannot use the network {}: {e}; searching with the classical evaluator",
                network
                    .map(|n| n.path.display().to_string())
                    .unwrap_or_default()
            );
            with_solver(classical_mcts(params))
        }
    }
}

/// The searcher `search.searcher` names; `"auto"`: the MCTS for a residual network (it batches
/// the net's positions across its threads, and wants a GPU), else the alpha-beta.
pub fn chosen_searcher(config: &Config) -> Searcher {
    match config.search.searcher {
        Searcher::Auto => {
            let residual = network_settings(config).is_some_and(|n| {
                crate::nn::NetworkMeta::read(&resolve_network(&n.path))
                    .is_ok_and(|meta| meta.kind != crate::nn::ModelKind::Pattern)
            });
            if residual {
                Searcher::Mcts
            } else {
                Searcher::AlphaBeta
            }
        }
        chosen => chosen,
    }
}

/// The alpha-beta with the solver over the evaluator of `network` (the classical evaluator when
/// it is `None` or does not load).
pub fn alphabeta_thinker(
    params: AlphaBetaParams,
    mcts: &MctsParams,
    network: Option<&NetworkSettings>,
) -> Box<dyn Thinker> {
    let classical = || -> Arc<dyn Evaluator> {
        Arc::new(ClassicalEvaluator::new(mcts.classical_prior_sharpness))
    };
    let evaluator = match network {
        None => classical(),
        Some(settings) => match load_network_evaluator(settings, mcts.classical_prior_sharpness) {
            Ok(e) => e,
            Err(e) => {
                log::error!(
                    "cannot use the network {}: {e}; searching with the classical evaluator",
                    settings.path.display()
                );
                classical()
            }
        },
    };
    log::info!("evaluator: {}", evaluator.name());
    Box::new(
        SolvingThinker::new(AlphaBetaThinker::new(params, evaluator))
            .with_vct_defence(mcts.vct_defence),
    )
}

/// The MCTS with the solver over the network of `network`, or over the classical evaluator
/// when `network` is `None`; an error when the network does not load.
pub fn mcts_thinker(
    params: MctsParams,
    network: Option<&NetworkSettings>,
) -> Result<Box<dyn Thinker>, NnError> {
    let Some(settings) = network else {
        return Ok(with_solver(classical_mcts(params)));
    };
    let evaluator = load_network_evaluator(settings, params.classical_prior_sharpness)?;
    log::info!("evaluator: {}", evaluator.name());
    Ok(with_solver(MctsThinker::new(params, evaluator)))
}

/// The MCTS over the classical evaluator (no solver).
pub fn classical_mcts(params: MctsParams) -> MctsThinker {
    let evaluator = Arc::new(ClassicalEvaluator::new(params.classical_prior_sharpness));
    MctsThinker::new(params, evaluator)
}

/// The MCTS with the threat solver at its root and in its tree: the engine's player.
pub fn with_solver(mut mcts: MctsThinker) -> Box<dyn Thinker> {
    let check = SolverCheck::new().with_tree_vct(mcts.params().tree_vct_nodes);
    mcts.set_tactical_check(Some(Arc::new(check)));
    let late_vct = mcts.params().verify;
    let vct_defence = mcts.params().vct_defence;
    Box::new(
        SolvingThinker::new(mcts)
            .with_late_vct(late_vct)
            .with_vct_defence(vct_defence),
    )
}

/// What the players are built from: the configuration's search and network settings.
#[derive(Clone, Debug)]
pub struct PlayerSetup {
    pub params: MctsParams,
    /// Root noise used when exploration is on.
    pub noise: RootNoise,
    /// Network settings; `path` is replaced by the SPEC's file.
    pub network: NetworkSettings,
}

/// The players' settings from a configuration, with the network's device overridden when
/// `device` is given.
pub fn player_setup(config: &Config, device: Option<&str>) -> PlayerSetup {
    let n = &config.network;
    PlayerSetup {
        params: mcts_params(config),
        noise: self_play_noise(config),
        network: NetworkSettings {
            device: device.unwrap_or(&n.device).to_string(),
            ..network_settings_at(config, PathBuf::new())
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_and_network_keys_reach_the_search() {
        let c = Config::default();
        // The shipped network is the default, and it is in the repository.
        let shipped = network_settings(&c).expect("a default network");
        assert_eq!(shipped.path, PathBuf::from("networks/hoshi-p32-g24"));
        assert_eq!(shipped.search_threads, 4);
        assert_eq!(
            shipped.refine,
            Some(RefineSettings {
                after_visits: 64,
                policy_mix: 1.0,
                value_weight: 64,
            }),
            "the hybrid search is the default"
        );
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for ext in ["safetensors", "toml"] {
            assert!(
                root.join(shipped.path.with_extension(ext)).is_file(),
                "{ext}"
            );
        }
        let c = Config::from_toml_str("[search]\nnetwork = \"\"\n", "test").unwrap();
        assert_eq!(network_settings(&c), None, "\"\" = the classical evaluator");
        assert_eq!(mcts_params(&c).style, Style::Classic);
        assert_eq!(mcts_params(&c).root_noise, None);
        let c = Config::from_toml_str(
            "[search]\nnetwork = \"nets/a\"\nstyle = 0\nselfplay_noise = true\nexploration = 2.5\n\
             [network]\ndevice = \"cuda:1\"\nmax_batch = 16\nbatch_deadline_us = 250\n\
             refine_after_visits = 0\n",
            "test",
        )
        .unwrap();
        let p = mcts_params(&c);
        assert_eq!(p.style, Style::Defensive);
        assert_eq!(p.exploration, 2.5);
        assert!(p.root_noise.is_some());
        let n = network_settings(&c).unwrap();
        assert_eq!(n.path, PathBuf::from("nets/a"));
        assert_eq!(n.device, "cuda:1");
        assert_eq!(n.max_batch, 16);
        assert_eq!(n.batch_deadline, Duration::from_micros(250));
        assert_eq!(
            n.refine, None,
            "refine_after_visits = 0: the net on every leaf"
        );
        let c = Config::from_toml_str(
            "[network]\nrefine_after_visits = 64\nrefine_value_weight = 32\nrefine_policy_mix = 0.5\n",
            "test",
        )
        .unwrap();
        let refine = network_settings(&c).unwrap().refine;
        assert_eq!(
            refine,
            Some(RefineSettings {
                after_visits: 64,
                policy_mix: 0.5,
                value_weight: 32,
            })
        );
    }

    #[test]
    fn auto_picks_the_alphabeta_for_a_pattern_net_and_the_mcts_for_a_residual_one() {
        let c = |text: &str| Config::from_toml_str(text, "test").unwrap();
        assert_eq!(chosen_searcher(&Config::default()), Searcher::Mcts);
        let auto = c("[search]\nsearcher = \"auto\"\n");
        assert_eq!(chosen_searcher(&auto), Searcher::AlphaBeta);
        assert_eq!(
            chosen_searcher(&c("[search]\nsearcher = \"auto\"\nnetwork = \"\"\n")),
            Searcher::AlphaBeta
        );
        let residual = c("[search]\nsearcher = \"auto\"\nnetwork = \"networks/hoshi-4x32-g0\"\n");
        assert_eq!(chosen_searcher(&residual), Searcher::Mcts);
        let forced = c("[search]\nsearcher = \"mcts\"\n");
        assert_eq!(chosen_searcher(&forced), Searcher::Mcts);
        let forced =
            c("[search]\nsearcher = \"alphabeta\"\nnetwork = \"networks/hoshi-4x32-g0\"\n");
        assert_eq!(chosen_searcher(&forced), Searcher::AlphaBeta);
    }

    #[test]
    fn config_limits_match_the_search() {
        assert_eq!(
            crate::config::MAX_REFINE_VALUE_WEIGHT,
            crate::search::mcts::MAX_ESTIMATE_WEIGHT
        );
        for style in 0..=2 {
            assert!(Style::from_protocol(style).is_some());
        }
        assert!(Style::from_protocol(3).is_none());
    }
}
