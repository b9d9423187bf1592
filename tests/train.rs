//! The training pipeline end to end, on tiny games and a tiny net: self-play writes shards,
//! the trainer learns from them, checkpoints and resumes, the arena plays matches, and the
//! `selfplay` / `train` / `match` / `promote` subcommands drive all of it.
// The trainer, network players and the training subcommands need libtorch.
#![cfg(feature = "torch")]
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use hoshi::game::{Board, Rule};
use hoshi::nn::{Arch, Network};
use hoshi::search::one_ply::ClassicalPlayer;
use hoshi::search::Thinker;
use hoshi::train::arena::{elo_estimate, elo_from_score, ThinkerPair};
use hoshi::train::records::{read_dir, read_shard, shard_paths};
use hoshi::train::trainer::{latest_checkpoint, max_weight_difference};
use hoshi::train::{
    play_match, play_match_parallel, run_selfplay, train, DataSource, MatchConfig, OpeningConfig,
    PlayOptions, PolicyPlayer, SelfplayConfig, Sprt, TrainConfig, TrainError, Variant, Verdict,
};
use tch::Device;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-train-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn classical(_: &SelfplayConfig, _: u64) -> Result<Box<dyn Thinker>, TrainError> {
    Ok(Box::new(ClassicalPlayer))
}

/// Two tiny self-play games (9x9 and 8x10, standard and renju) in `dir`.
fn tiny_selfplay(dir: &Path) -> SelfplayConfig {
    let config = SelfplayConfig {
        out_dir: dir.to_path_buf(),
        worker: "tiny".into(),
        games: 2,
        variants: vec![
            Variant::new(Rule::Standard, 9, 9),
            Variant::new(Rule::Renju, 8, 10),
        ],
        play: PlayOptions {
            movetime_ms: 20,
            temperature_moves: 4,
            ..PlayOptions::default()
        },
        opening: OpeningConfig {
            min_stones: 2,
            max_stones: 3,
            radius: 2,
        },
        seed: 5,
        ..SelfplayConfig::default()
    };
    let report = run_selfplay(&config, &classical, &AtomicBool::new(false)).unwrap();
    assert_eq!(report.games_played, 2);
    config
}

fn tiny_training(data: &Path, out: &Path, steps: u64) -> TrainConfig {
    TrainConfig {
        data: vec![DataSource {
            dir: data.to_path_buf(),
            weight: 1,
        }],
        out_dir: out.to_path_buf(),
        steps,
        batch: 8,
        arch: Arch::new(1, 8),
        seed: 11,
        checkpoint_every: 1,
        log_every: 1,
        ..TrainConfig::default()
    }
}

#[test]
fn selfplay_writes_a_readable_shard_of_legal_games() {
    let dir = temp_dir("selfplay");
    tiny_selfplay(&dir);
    assert_eq!(shard_paths(&dir).unwrap(), vec![dir.join("tiny-1.hsp")]);
    let games = read_dir(&dir).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g.searched_positions() > 0);
        // Opening stones (2 or 3) carry no policy target; every searched move does, and its
        // target lies on empty points.
        let opening = g
            .positions
            .iter()
            .take_while(|p| p.policy.is_empty())
            .count();
        assert!((2..=3).contains(&opening), "{opening} opening stones");
        let mut board = Board::new(g.width, g.height, g.rule).unwrap();
        for pos in &g.positions {
            let total: f32 = pos.policy.iter().map(|e| e.1).sum();
            assert!(pos.policy.is_empty() || (total - 1.0).abs() < 1e-3);
            assert!(pos.policy.iter().all(|e| board.is_empty(e.0)));
            board.play(pos.mv).unwrap();
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn training_runs_checkpoints_and_resumes_exactly() {
    // One libtorch thread: on a busy machine more threads spin and run several times slower.
    tch::set_num_threads(1);
    let dir = temp_dir("trainer");
    let data = dir.join("data");
    tiny_selfplay(&data);
    let stop = AtomicBool::new(false);

    // Three steps straight through, a checkpoint after each.
    let straight = dir.join("straight");
    let report = train(&tiny_training(&data, &straight, 3), &stop).unwrap();
    assert_eq!((report.start_step, report.step), (0, 3));
    assert!(report.policy_loss.is_finite() && report.value_loss.is_finite());
    assert!(report.policy_loss > 0.0 && report.value_loss > 0.0);
    for step in 1..=3 {
        let stem = straight.join(format!("ckpt-{step:08}"));
        for ext in [".safetensors", ".toml", ".optim.safetensors", ".train.toml"] {
            let file = PathBuf::from(format!("{}{ext}", stem.display()));
            assert!(file.is_file(), "missing {}", file.display());
        }
    }
    let latest = latest_checkpoint(&straight).unwrap().unwrap();
    assert_eq!(latest.state.step, 3);
    assert_eq!((latest.state.blocks, latest.state.channels), (1, 8));

    // Resuming a finished run stays at its step; without --resume the folder is refused.
    let again = TrainConfig {
        resume: true,
        ..tiny_training(&data, &straight, 3)
    };
    let report = train(&again, &stop).unwrap();
    assert_eq!((report.start_step, report.step), (3, 3));
    assert!(matches!(
        train(&tiny_training(&data, &straight, 3), &stop),
        Err(TrainError::Config(_))
    ));
    // A resume asking for another shape of net is refused.
    let other_arch = TrainConfig {
        arch: Arch::new(2, 8),
        ..again.clone()
    };
    assert!(train(&other_arch, &stop).is_err());

    // Two steps, then a resumed run to three: the same weights as the straight run.
    let split = dir.join("split");
    train(&tiny_training(&data, &split, 2), &stop).unwrap();
    let resumed = train(
        &TrainConfig {
            resume: true,
            ..tiny_training(&data, &split, 3)
        },
        &stop,
    )
    .unwrap();
    assert_eq!((resumed.start_step, resumed.step), (2, 3));
    let a = Network::load(straight.join("ckpt-00000003"), Device::Cpu).unwrap();
    let b = Network::load(split.join("ckpt-00000003"), Device::Cpu).unwrap();
    let diff = max_weight_difference(&a, &b);
    assert!(diff < 1e-5, "resumed weights differ by {diff}");
    // And training did change the weights.
    let start = Network::random(Arch::new(1, 8), 11, Device::Cpu).unwrap();
    assert!(max_weight_difference(&a, &start) > 1e-4);
    std::fs::remove_dir_all(dir).ok();
}

/// A pattern net trained through a codebook mapping resumes exactly (the mapping and its
/// table come back from beside the checkpoint, the moving average's too), and every saved net
/// is an ordinary one the engine reads.
#[test]
fn a_codebook_mapping_trains_resumes_exactly_and_saves_plain_nets() {
    tch::set_num_threads(1);
    let dir = temp_dir("mapping");
    let data = dir.join("data");
    tiny_selfplay(&data);
    let stop = AtomicBool::new(false);
    let mapped = |out: &Path, steps: u64| TrainConfig {
        arch: Arch::pattern(8),
        mapping: Some(16),
        ema: 0.9,
        ..tiny_training(&data, out, steps)
    };
    let straight = dir.join("straight");
    train(&mapped(&straight, 3), &stop).unwrap();
    let split = dir.join("split");
    train(&mapped(&split, 2), &stop).unwrap();
    let resumed = train(
        &TrainConfig {
            resume: true,
            ..mapped(&split, 3)
        },
        &stop,
    )
    .unwrap();
    assert_eq!((resumed.start_step, resumed.step), (2, 3));
    for name in ["ckpt-00000003", "ema-00000003"] {
        let a = Network::load(straight.join(name), Device::Cpu).unwrap();
        let b = Network::load(split.join(name), Device::Cpu).unwrap();
        let diff = max_weight_difference(&a, &b);
        assert!(diff < 1e-5, "{name}: resumed weights differ by {diff}");
        assert!(Network::mapping_path(&straight.join(name)).is_file());
        hoshi::nn::PatternWeights::load(&straight.join(name)).unwrap();
    }
    // Resuming without the mapping, or with another, is refused.
    let plain = TrainConfig {
        resume: true,
        mapping: None,
        ..mapped(&split, 4)
    };
    assert!(matches!(train(&plain, &stop), Err(TrainError::Config(_))));
    std::fs::remove_dir_all(dir).ok();
}

/// `d * a + (1 - d) * b`, variable by variable.
fn blend(a: &Network, b: &Network, d: f64) -> Vec<(String, tch::Tensor)> {
    let bv = b.var_store().variables();
    let mut out: Vec<_> = a
        .var_store()
        .variables()
        .into_iter()
        .map(|(name, t)| {
            let mixed = &t * d + &bv[&name] * (1.0 - d);
            (name, mixed)
        })
        .collect();
    out.sort_by(|x, y| x.0.cmp(&y.0));
    out
}

fn largest_difference(net: &Network, expected: &[(String, tch::Tensor)]) -> f64 {
    let vars = net.var_store().variables();
    expected
        .iter()
        .map(|(name, t)| (&vars[name] - t).abs().max().double_value(&[]))
        .fold(0.0, f64::max)
}

#[test]
fn the_moving_average_and_the_reuse_cap_shape_a_run() {
    tch::set_num_threads(1);
    let dir = temp_dir("ema");
    let data = dir.join("data");
    tiny_selfplay(&data);
    let stop = AtomicBool::new(false);
    let averaged = |out: &Path, steps| TrainConfig {
        ema: 0.5,
        ..tiny_training(&data, out, steps)
    };
    let straight = dir.join("straight");
    train(&averaged(&straight, 3), &stop).unwrap();
    let load = |path: PathBuf| Network::load(path, Device::Cpu).unwrap();
    let start = Network::random(Arch::new(1, 8), 11, Device::Cpu).unwrap();
    let ema1 = load(straight.join("ema-00000001"));
    let ema2 = load(straight.join("ema-00000002"));
    let expected1 = blend(&start, &load(straight.join("ckpt-00000001")), 0.5);
    assert!(largest_difference(&ema1, &expected1) < 1e-6);
    let expected2 = blend(&ema1, &load(straight.join("ckpt-00000002")), 0.5);
    assert!(largest_difference(&ema2, &expected2) < 1e-6);
    assert!(max_weight_difference(&ema2, &load(straight.join("ckpt-00000002"))) > 1e-5);
    // Resumed at step 2, the average goes on from the one saved there.
    let split = dir.join("split");
    train(&averaged(&split, 2), &stop).unwrap();
    let resumed = TrainConfig {
        resume: true,
        ..averaged(&split, 3)
    };
    train(&resumed, &stop).unwrap();
    let diff = max_weight_difference(
        &load(straight.join("ema-00000003")),
        &load(split.join("ema-00000003")),
    );
    assert!(diff < 1e-5, "the resumed average differs by {diff}");
    // The average is promoted with its checkpoint's training record.
    let nets = dir.join("nets");
    let ema3 = straight.join("ema-00000003");
    let (ok, out, err) = hoshi(&[
        "promote",
        &ema3.display().to_string(),
        "tiny-ema",
        "--networks",
        &nets.display().to_string(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("--ema 0.5") && out.contains("step 3"), "{out}");
    let promoted = load(nets.join("tiny-ema"));
    assert_eq!(max_weight_difference(&promoted, &load(ema3)), 0.0);
    // At most two samples a position: the run ends early, its schedule with it.
    let capped = dir.join("capped");
    let report = train(
        &TrainConfig {
            max_reuse: Some(2.0),
            ..tiny_training(&data, &capped, 1000)
        },
        &stop,
    )
    .unwrap();
    let positions = latest_checkpoint(&capped).unwrap().unwrap().state.samples as u64;
    assert_eq!(
        report.step,
        (2 * positions).div_ceil(8),
        "{positions} positions"
    );
    // A decay of 1 or more is refused.
    let bad = TrainConfig {
        ema: 1.0,
        ..tiny_training(&data, &dir.join("bad"), 1)
    };
    assert!(matches!(train(&bad, &stop), Err(TrainError::Config(_))));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn training_can_start_from_a_network_and_weigh_its_data_folders() {
    tch::set_num_threads(1);
    let dir = temp_dir("init");
    let (old, new) = (dir.join("gen0"), dir.join("gen1"));
    tiny_selfplay(&old);
    tiny_selfplay(&new);
    let stop = AtomicBool::new(false);
    let parent = Network::random(Arch::new(1, 8), 77, Device::Cpu).unwrap();
    let parent_path = dir.join("parent");
    parent.save(&parent_path).unwrap();

    let out = dir.join("child");
    let config = TrainConfig {
        data: vec![
            DataSource::parse(&old.display().to_string()).unwrap(),
            DataSource::parse(&format!("{}:3", new.display())).unwrap(),
        ],
        init: Some(parent_path.clone()),
        optimizer: hoshi::train::optim::OptimizerSettings {
            lr: 1e-4,
            ..TrainConfig::default().optimizer
        },
        ..tiny_training(&old, &out, 1)
    };
    train(&config, &stop).unwrap();
    let child = Network::load(out.join("ckpt-00000001"), Device::Cpu).unwrap();
    let random = Network::random(Arch::new(1, 8), 11, Device::Cpu).unwrap();
    // One small step from the parent: its convolution weights moved by about the learning
    // rate (batch-norm statistics move more), and are far from the seed's random weights.
    let stem = |n: &Network| n.var_store().variables()["stem.weight"].shallow_clone();
    let moved = |a: &Network, b: &Network| (stem(a) - stem(b)).abs().max().double_value(&[]);
    let from_parent = moved(&child, &parent);
    assert!(from_parent > 0.0 && from_parent < 1e-3, "{from_parent}");
    assert!(moved(&child, &random) > 0.05);
    assert!(max_weight_difference(&child, &random) > max_weight_difference(&child, &parent));
    let state = latest_checkpoint(&out).unwrap().unwrap().state;
    assert_eq!(state.init, Some(parent_path.display().to_string()));
    assert!(state.data.ends_with(":3"), "{}", state.data);
    // Both folders hold the same number of positions: the weighted one counts three times.
    let one = read_dir(&old).unwrap();
    let per_folder: usize = one
        .iter()
        .map(|g| g.positions.iter().filter(|p| !p.policy.is_empty()).count())
        .sum();
    assert_eq!(state.samples, 4 * per_folder);

    // A parent of another shape is refused.
    let wrong = TrainConfig {
        arch: Arch::new(2, 8),
        ..config.clone()
    };
    let out2 = dir.join("wrong");
    assert!(matches!(
        train(
            &TrainConfig {
                out_dir: out2,
                ..wrong
            },
            &stop
        ),
        Err(TrainError::Config(_))
    ));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn elo_formula_on_known_scores() {
    assert_eq!(elo_from_score(0.5), 0.0);
    assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
    let e = elo_estimate(3, 0, 1);
    assert!((e.diff - 190.85).abs() < 0.01);
    assert!(e.error95 > 0.0);
    let even = elo_estimate(10, 5, 10);
    assert_eq!(even.diff, 0.0);
}

#[test]
fn a_two_game_match_runs_with_colours_swapped() {
    tch::set_num_threads(1);
    let mut a = ClassicalPlayer;
    let mut b = PolicyPlayer::new(
        Network::random(Arch::new(1, 8), 2, Device::Cpu).unwrap(),
        "random-net",
    );
    let config = MatchConfig {
        games: 2,
        variants: vec![Variant::new(Rule::Freestyle, 15, 15)],
        play: PlayOptions {
            movetime_ms: 20,
            ..PlayOptions::default()
        },
        seed: 3,
        ..MatchConfig::default()
    };
    let result = play_match(&mut a, &mut b, &config, &AtomicBool::new(false)).unwrap();
    assert_eq!(result.games(), 2);
    // The classical player beats an untrained net's policy with either colour.
    assert_eq!(result.wins, 2, "{result}");
}

#[test]
fn a_sequential_test_ends_a_one_sided_match_early() {
    tch::set_num_threads(1);
    let mut a = ClassicalPlayer;
    let mut b = PolicyPlayer::new(
        Network::random(Arch::new(1, 8), 2, Device::Cpu).unwrap(),
        "random-net",
    );
    let test: Sprt = "0,100".parse().unwrap();
    let config = MatchConfig {
        games: 60,
        play: PlayOptions {
            movetime_ms: 20,
            ..PlayOptions::default()
        },
        seed: 3,
        sprt: Some(test),
        ..MatchConfig::default()
    };
    let result = play_match(&mut a, &mut b, &config, &AtomicBool::new(false)).unwrap();
    // The classical player wins every game, so the test accepts the gain within a few games.
    assert!(result.games() < 20, "{result}");
    assert_eq!(
        test.verdict(result.wins, result.draws, result.losses),
        Verdict::H1,
        "{result}"
    );
}

/// A classical player that writes down every position it is asked about.
struct Recording {
    seen: Vec<Vec<hoshi::game::Point>>,
}

impl Thinker for Recording {
    fn think(
        &mut self,
        request: &hoshi::search::ThinkRequest,
        stop: &AtomicBool,
    ) -> hoshi::search::ThinkResult {
        self.seen.push(request.board.history().to_vec());
        ClassicalPlayer.think(request, stop)
    }
    fn clear(&mut self) {}
    fn name(&self) -> &str {
        "recording"
    }
}

#[test]
fn a_match_plays_the_given_openings_in_order() {
    let line = |text: &str| hoshi::protocol::format::parse_pv_moves(text).unwrap();
    let openings = vec![line("h8i9"), line("g7h8j9")];
    let config = MatchConfig {
        games: 4,
        variants: vec![Variant::new(Rule::Renju, 15, 15)],
        play: PlayOptions {
            movetime_ms: 20,
            ..PlayOptions::default()
        },
        openings: openings.clone(),
        ..MatchConfig::default()
    };
    let mut a = Recording { seen: Vec::new() };
    let result = play_match(
        &mut a,
        &mut ClassicalPlayer,
        &config,
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(result.games(), 4);
    // Each game starts from one of the openings, and both were played.
    let first_of = |opening: &Vec<hoshi::game::Point>| {
        a.seen
            .iter()
            .filter(|h| h.len() <= opening.len() + 1 && h.starts_with(opening))
            .count()
    };
    assert!(a
        .seen
        .iter()
        .all(|h| openings.iter().any(|o| h.starts_with(o))));
    assert_eq!(first_of(&openings[0]), 2, "{:?}", a.seen);
    assert_eq!(first_of(&openings[1]), 2, "{:?}", a.seen);
}

#[test]
fn a_parallel_match_plays_the_same_games_as_a_sequential_one() {
    tch::set_num_threads(1);
    // Deterministic players (one-ply classical vs an untrained policy) on 5 games: two full
    // opening pairs and a last opening played once.
    let config = MatchConfig {
        games: 5,
        variants: vec![
            Variant::new(Rule::Freestyle, 15, 15),
            Variant::new(Rule::Renju, 15, 15),
        ],
        play: PlayOptions {
            movetime_ms: 20,
            ..PlayOptions::default()
        },
        seed: 8,
        ..MatchConfig::default()
    };
    let net = || Network::random(Arch::new(1, 8), 5, Device::Cpu).unwrap();
    let mut a = ClassicalPlayer;
    let mut b = PolicyPlayer::new(net(), "random-net");
    let sequential = play_match(&mut a, &mut b, &config, &AtomicBool::new(false)).unwrap();
    let factory = || -> Result<ThinkerPair, TrainError> {
        Ok((
            Box::new(ClassicalPlayer),
            Box::new(PolicyPlayer::new(net(), "random-net")),
        ))
    };
    let parallel = play_match_parallel(&factory, &config, 3, &AtomicBool::new(false)).unwrap();
    assert_eq!(sequential.games(), 5);
    assert_eq!(parallel, sequential);
}

fn hoshi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"))
        .args(args)
        .env("RUST_LOG", "info")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_subcommands_drive_the_whole_pipeline() {
    let dir = temp_dir("cli");
    let s = |p: PathBuf| p.display().to_string();
    let (data, ckpts, nets) = (
        s(dir.join("data")),
        s(dir.join("ckpts")),
        s(dir.join("nets")),
    );

    let selfplay = [
        "selfplay",
        "--out",
        &data,
        "--games",
        "2",
        "--rule",
        "standard,renju",
        "--size",
        "9x9,10",
        "--worker",
        "cli",
        "--movetime",
        "10",
    ];
    let (ok, out, err) = hoshi(&selfplay);
    assert!(ok, "{err}");
    assert!(err.contains("positions/s") && err.contains("ETA"), "{err}");
    assert!(
        out.contains("selfplay cli: 2 games played (0 already there)"),
        "{out}"
    );
    // A restart with the same total has nothing left to play.
    let (ok, _, err) = hoshi(&selfplay);
    assert!(ok && err.contains("nothing to do"), "{err}");
    assert_eq!(read_dir(Path::new(&data)).unwrap().len(), 2);

    let (ok, out, err) = hoshi(&[
        "train",
        "--data",
        &data,
        "--out",
        &ckpts,
        "--steps",
        "2",
        "--batch",
        "4",
        "--blocks",
        "1",
        "--channels",
        "8",
        "--checkpoint-every",
        "1",
        "--log-every",
        "1",
        "--torch-threads",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("trained steps 0..2"), "{out}");
    // Progress: step of the total, losses, speed, time left.
    assert!(
        err.contains("step 2/2 loss") && err.contains("positions/s; ETA"),
        "{err}"
    );
    // --resume takes shape and seed from the checkpoint.
    let (ok, out, err) = hoshi(&[
        "train",
        "--data",
        &data,
        "--out",
        &ckpts,
        "--steps",
        "3",
        "--batch",
        "4",
        "--resume",
        "--torch-threads",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("trained steps 2..3"), "{out}");
    // Run again, it has nothing left to do and says so (no losses of zero steps).
    let (ok, out, err) = hoshi(&[
        "train", "--data", &data, "--out", &ckpts, "--steps", "3", "--batch", "4", "--resume",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("nothing left to train at step 3") && !out.contains("NaN"),
        "{out}"
    );

    let ckpt = s(dir.join("ckpts").join("ckpt-00000003"));
    let (ok, out, err) = hoshi(&["promote", &ckpt, "tiny-v0", "--networks", &nets]);
    assert!(ok, "{err}");
    assert!(
        out.contains("## tiny-v0") && out.contains("1 blocks x 8 channels"),
        "{out}"
    );
    assert!(out.contains("--steps 3"), "{out}");
    assert!(dir.join("nets/tiny-v0.safetensors").is_file());
    assert!(dir.join("nets/tiny-v0.toml").is_file());
    // Promoting onto an existing name is refused.
    let (ok, _, _) = hoshi(&["promote", &ckpt, "tiny-v0", "--networks", &nets]);
    assert!(!ok);

    let net = s(dir.join("nets/tiny-v0"));
    // The next generation: fine-tune the promoted net on two folders, the second weighted.
    let (next, data2) = (s(dir.join("ckpts-next")), format!("{data}:2"));
    let (ok, out, err) = hoshi(&[
        "train",
        "--data",
        &data,
        "--data",
        &data2,
        "--init",
        &net,
        "--out",
        &next,
        "--steps",
        "1",
        "--batch",
        "4",
        "--torch-threads",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("trained steps 0..1"), "{out}");
    assert!(err.contains("starting from the network"), "{err}");
    let sidecar = std::fs::read_to_string(dir.join("ckpts-next/ckpt-00000001.train.toml")).unwrap();
    // The shape comes from the --init network (1 x 8), not the 6 x 64 default.
    assert!(
        sidecar.contains("blocks = 1") && sidecar.contains("channels = 8"),
        "{sidecar}"
    );
    assert!(sidecar.contains(":2\""), "{sidecar}");
    // Its promotion text gives the command that made it: both folders and the parent.
    let (ok, out, err) = hoshi(&[
        "promote",
        &s(dir.join("ckpts-next/ckpt-00000001")),
        "tiny-v1",
        "--networks",
        &nets,
    ]);
    assert!(ok, "{err}");
    let made_by = format!("train --data {data} --data {data2} --out {next} --init {net} ");
    assert!(out.contains(&made_by), "{out}");

    let (ok, out, err) = hoshi(&[
        "match",
        "--a",
        "classical",
        "--b",
        &net,
        "--games",
        "2",
        "--movetime",
        "10",
        "--size",
        "9",
        "--torch-threads",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("classical vs") && out.contains("(games 2)"),
        "{out}"
    );
    assert!(
        err.contains("match: game 2/2") && err.contains("ETA 0 s"),
        "{err}"
    );

    // The one-ply policy player against the MCTS over the classical evaluator.
    let policy = format!("policy:{net}");
    let (ok, out, err) = hoshi(&[
        "match",
        "--a",
        &policy,
        "--b",
        "mcts",
        "--games",
        "2",
        "--movetime",
        "10",
        "--size",
        "9",
        "--rule",
        "renju",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("(games 2)"), "{out}");

    // Self-play with the MCTS over the promoted network, by node count, capped at 12 stones.
    let (ok, out, err) = hoshi(&[
        "selfplay",
        "--out",
        &data,
        "--games",
        "1",
        "--worker",
        "net",
        "--network",
        &net,
        "--movetime",
        "0",
        "--nodes",
        "16",
        "--size",
        "9",
        "--max-moves",
        "12",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("selfplay net: 1 games played"), "{out}");
    assert_eq!(read_dir(Path::new(&data)).unwrap().len(), 3);
    let from_net = &read_shard(&dir.join("data/net-1.hsp")).unwrap().games[0];
    assert!(from_net.positions.len() <= 12);
    // The MCTS's target is its root visit distribution: shares summing to 1, spread over
    // several moves where the search looked at several.
    for p in &from_net.positions {
        let total: f32 = p.policy.iter().map(|m| m.1).sum();
        assert!(
            p.policy.is_empty() || (total - 1.0).abs() < 1e-4,
            "{:?}",
            p.policy
        );
    }
    assert!(
        from_net.positions.iter().any(|p| p.policy.len() > 1),
        "no position with more than one visited move"
    );

    let (ok, _, err) = hoshi(&[
        "match",
        "--a",
        "classical",
        "--b",
        "nowhere.net",
        "--games",
        "2",
    ]);
    assert!(!ok && err.contains("not found"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn match_takes_player_b_settings_from_its_own_config() {
    let dir = temp_dir("config-b");
    let good = dir.join("b.toml");
    std::fs::write(&good, "[search]\nexploration = 3.0\n").unwrap();
    let common = [
        "match",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--games",
        "2",
        "--movetime",
        "10",
        "--size",
        "9",
    ];
    let (ok, out, err) = hoshi(&[&common[..], &["--config-b", good.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("with ") && out.contains("b.toml"), "{out}");
    assert!(out.contains("+") && out.contains("="), "{out}");

    // B's file is read and checked like any configuration.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[search]\nexploraton = 3.0\n").unwrap();
    let (ok, _, err) = hoshi(&[&common[..], &["--config-b", bad.to_str().unwrap()]].concat());
    assert!(!ok && err.contains("exploraton"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bench_measures_the_default_pattern_net_and_the_hybrid_search_of_the_residual_net() {
    let (ok, out, err) = hoshi(&["bench", "--seconds", "0.05"]);
    assert!(ok, "{err}");
    let rate = |label: &str| -> f64 {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label:?} line: {out}"));
        line.split_whitespace()
            .filter_map(|w| w.parse().ok())
            .next_back()
            .unwrap_or_else(|| panic!("no rate: {line}"))
    };
    assert!(
        out.contains("pattern network networks/hoshi-p32-g24"),
        "{out}"
    );
    assert!(rate("evaluations along a walk") > 0.0, "{out}");
    assert!(
        rate("the classical evaluator on the same walk") > 0.0,
        "{out}"
    );
    assert!(rate("evaluations from a fresh state") > 0.0, "{out}");
    // The residual figures then use a random net, and say so.
    assert!(out.contains("is a pattern net"), "{out}");

    let dir = temp_dir("bench");
    let config = dir.join("resnet.toml");
    std::fs::write(&config, "[search]\nnetwork = \"networks/hoshi-4x32-g0\"\n").unwrap();
    let (ok, out, err) = hoshi(&[
        "--config",
        config.to_str().unwrap(),
        "bench",
        "--seconds",
        "0.05",
    ]);
    assert!(ok, "{err}");
    let hybrid: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("hybrid search (the net refines after 64 visits"))
        .skip(1)
        .take(2)
        .collect();
    assert_eq!(hybrid.len(), 2, "{out}");
    for (line, threads) in hybrid.iter().zip(["1 thread(s):", "2 thread(s):"]) {
        let numbers: Vec<f64> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(line.trim_start().starts_with(threads), "{line}");
        // Threads, playouts/s, then the network's evaluations/s: the net refined some nodes.
        assert_eq!(numbers.len(), 3, "{line}");
        assert!(numbers[1] > 0.0 && numbers[2] > 0.0, "{line}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn match_drives_an_external_brain() {
    // The brain is this very binary with the classical evaluator, against the one-ply player.
    let dir = temp_dir("brain");
    let cfg = dir.join("classical.toml");
    std::fs::write(&cfg, "[search]\nnetwork = \"\"\n").unwrap();
    let brain = format!(
        "brain:{} --config {}",
        env!("CARGO_BIN_EXE_pbrain-hoshi"),
        cfg.display()
    );
    let args = ["--games", "2", "--movetime", "200", "--seed", "5"];
    let (ok, out, err) =
        hoshi(&[&["match", "--a", &brain, "--b", "classical"], &args[..]].concat());
    assert!(ok, "{err}");
    assert!(!err.contains("failure"), "{err}");
    // The MCTS brain beats the one-ply player with either colour.
    assert!(out.contains("+2 =0 -0"), "{out}\n{err}");

    // A brain that does not speak the protocol: every move is logged as a failure and made by
    // the classical player, and the match still ends.
    let (ok, _, err) = hoshi(
        &[
            &["match", "--a", "brain:cat", "--b", "classical"],
            &args[..],
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    assert!(err.contains("brain:cat: failure 1"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_pattern_net_trains_resumes_promotes_and_plays_in_the_engine() {
    let dir = temp_dir("pattern");
    let s = |p: PathBuf| p.display().to_string();
    let (data, ckpts, nets) = (
        s(dir.join("data")),
        s(dir.join("ckpts")),
        s(dir.join("nets")),
    );
    tiny_selfplay(Path::new(&data));
    let train = |steps: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--data",
            &data,
            "--out",
            &ckpts,
            "--steps",
            steps,
            "--batch",
            "8",
            "--checkpoint-every",
            "1",
            "--log-every",
            "1",
            "--torch-threads",
            "1",
        ];
        args.extend_from_slice(extra);
        hoshi(&args)
    };
    let (ok, out, err) = train("2", &["--kind", "pattern", "--channels", "8"]);
    assert!(ok, "{err}");
    assert!(out.contains("trained steps 0..2"), "{out}");
    let sidecar = std::fs::read_to_string(dir.join("ckpts/ckpt-00000002.toml")).unwrap();
    assert!(
        sidecar.contains("kind = \"pattern\"") && sidecar.contains("channels = 8"),
        "{sidecar}"
    );
    // A resumed run keeps the kind; asking for a residual net there is refused.
    let (ok, out, err) = train("3", &["--resume"]);
    assert!(ok && out.contains("trained steps 2..3"), "{err}");
    let (ok, _, err) = train("4", &["--resume", "--kind", "resnet"]);
    assert!(!ok && err.contains("pattern"), "{err}");
    let first = Network::load(dir.join("ckpts/ckpt-00000001"), Device::Cpu).unwrap();
    let third = Network::load(dir.join("ckpts/ckpt-00000003"), Device::Cpu).unwrap();
    assert!(max_weight_difference(&first, &third) > 1e-5);

    let ckpt = s(dir.join("ckpts").join("ckpt-00000003"));
    let (ok, out, err) = hoshi(&["promote", &ckpt, "tiny-pattern", "--networks", &nets]);
    assert!(ok, "{err}");
    assert!(
        out.contains("pattern net, 0 blocks x 8 channels") && out.contains("--kind pattern"),
        "{out}"
    );
    let net = s(dir.join("nets/tiny-pattern"));
    let (ok, out2, err) = hoshi(&[
        "match",
        "--a",
        &net,
        "--b",
        "classical",
        "--games",
        "2",
        "--movetime",
        "30",
        "--size",
        "9",
        "--rule",
        "renju",
    ]);
    assert!(ok && out2.contains("games 2"), "{out}\n{out2}\n{err}");

    // The engine with it in its config: the pattern evaluator, legal moves.
    let config = dir.join("engine.toml");
    std::fs::write(&config, format!("[search]\nnetwork = {:?}\n", net)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"))
        .args(["--config", config.to_str().unwrap()])
        .env("RUST_LOG", "info")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::{BufRead, Write};
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"START 12\r\nINFO timeout_turn 200\r\nBOARD\r\n6,6,1\r\n5,5,2\r\nDONE\r\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut answer = String::new();
    loop {
        answer.clear();
        assert!(stdout.read_line(&mut answer).unwrap() > 0, "no move");
        let line = answer.trim();
        if line != "OK" && !line.starts_with("MESSAGE") {
            break;
        }
    }
    stdin.write_all(b"END\r\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("evaluator: pattern tiny-pattern"),
        "{stderr}"
    );
    let answer = answer.trim();
    let (x, y) = answer.split_once(',').unwrap();
    let (x, y): (u8, u8) = (x.parse().unwrap(), y.trim().parse().unwrap());
    assert!(
        x < 12 && y < 12 && (x, y) != (6, 6) && (x, y) != (5, 5),
        "{answer}"
    );
    std::fs::remove_dir_all(dir).ok();
}
