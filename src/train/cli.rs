//! The training subcommands of `pbrain-hoshi`: `selfplay`, `train`, `match` and `promote`.
//! `main.rs` hands each one its parsed arguments and stdout; progress goes to the log (stderr,
//! shown with `RUST_LOG=info`), and only final answers (a match result, promote's README lines)
//! are written to the given output.
//!
//! A player SPEC is `classical`, `mcts`, `policy:FILE` or a network FILE (see
//! [`super::players`]); the MCTS and the network take their settings from the configuration.
//!
//! `train` and `promote` need the `torch` feature: without it they fail with
//! [`NoTorch`](crate::nn::NnError::NoTorch), as do network players, while `selfplay` and `match`
//! between `classical` and `mcts` players work as ever.
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::config::Config;
use crate::game::{Rule, MAX_SIZE, MIN_SIZE};

use super::arena::{play_match_parallel, MatchConfig, ThinkerPair};
use super::error::TrainError;
use super::game_play::{PlayOptions, PolicyTarget};
use super::players::{PlayerSetup, PlayerSpec};
use super::random_openings::OpeningConfig;
use super::selfplay::{run_selfplay, SelfplayConfig, Variant};
#[cfg(feature = "torch")]
use {
    super::optim::{OptimizerKind, OptimizerSettings},
    super::trainer::{
        latest_checkpoint, read_checkpoint, train as run_training, DataSource, TrainConfig,
    },
    crate::nn::file::network_paths,
    crate::nn::{parse_device, Arch, Network},
    tch::Device,
};

/// Opening and game-length options shared by `selfplay` and `match`.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Rules, comma-separated (freestyle, standard, renju, caro, caro5, or `all`); each game
    /// (each opening pair in a match) picks one.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board sizes, comma-separated: `15`, `15x15`, `20x20`, `12x9`, ...
    #[arg(long, default_value = "15x15")]
    pub size: String,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Node limit per move (with `--movetime 0`, the only limit).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads per move.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Fewest opening stones.
    #[arg(long, default_value_t = 2)]
    pub opening_min: usize,
    /// Most opening stones.
    #[arg(long, default_value_t = 5)]
    pub opening_max: usize,
    /// Opening stones lie at most this far from the centre.
    #[arg(long, default_value_t = 3)]
    pub opening_radius: usize,
    /// Declare a draw after this many stones.
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Device for network players: cpu, cuda or cuda:N (default: the config's network.device).
    #[arg(long)]
    pub device: Option<String>,
    /// libtorch intra-op threads (0: the config's network.cpu_threads).
    #[arg(long, default_value_t = 0)]
    pub torch_threads: i32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `selfplay`: one worker's games, appended to `<out>/<worker>-<n>.hsp`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    #[arg(long)]
    pub out: PathBuf,
    /// The worker's total games in OUT (a restart plays only the missing ones).
    #[arg(long)]
    pub games: usize,
    /// Worker id (letters, digits, '_', '.'): names its shards and seeds its games.
    #[arg(long, default_value = "w0")]
    pub worker: String,
    /// The player: classical, mcts, policy:FILE or a network FILE (the MCTS over it).
    #[arg(long, default_value = "mcts", conflicts_with = "network")]
    pub player: String,
    /// Play with the MCTS over this network (same as `--player FILE`).
    #[arg(long)]
    pub network: Option<PathBuf>,
    /// Searched moves sampled from the ranked moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub temperature_moves: usize,
    /// Sampling weight of a ranked move: score^(1/T).
    #[arg(long, default_value_t = 1.0)]
    pub temperature: f32,
    /// Sampling draws from this many of the best-ranked moves.
    #[arg(long, default_value_t = 5)]
    pub temperature_top: usize,
    /// Turn the thinker's exploration noise off.
    #[arg(long)]
    pub no_noise: bool,
    /// Games per shard file before a new one is opened.
    #[arg(long, default_value_t = 1000)]
    pub games_per_shard: usize,
    #[command(flatten)]
    pub game: GameArgs,
}

/// `train`: learns a network from the shards in DATA; checkpoints go to OUT.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// A folder of shards, as `DIR` or `DIR:WEIGHT` (each of its positions counts WEIGHT
    /// times); repeat for several folders (e.g. `--data gen0 --data gen1:3`).
    #[arg(long, required = true)]
    pub data: Vec<String>,
    /// Start from this network instead of random weights (when OUT holds no checkpoint yet);
    /// blocks and channels default to its own.
    #[arg(long)]
    pub init: Option<PathBuf>,
    #[arg(long)]
    pub out: PathBuf,
    /// Train until this step (a resumed run counts its earlier steps).
    #[arg(long)]
    pub steps: u64,
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Residual blocks (default 6; a resumed run takes its checkpoint's).
    #[arg(long)]
    pub blocks: Option<usize>,
    /// Channels (default 64; a resumed run takes its checkpoint's).
    #[arg(long)]
    pub channels: Option<usize>,
    /// Seed of the initial weights and of every batch (default 1; a resumed run takes its
    /// checkpoint's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Continue from the newest checkpoint in OUT (starts afresh when there is none).
    #[arg(long)]
    pub resume: bool,
    /// adam or sgd.
    #[arg(long, default_value = "adam")]
    pub optimizer: String,
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// Decay the learning rate along a cosine from --lr to this at --steps (default: constant).
    #[arg(long)]
    pub lr_final: Option<f64>,
    #[arg(long, default_value_t = 1e-4)]
    pub weight_decay: f64,
    /// SGD momentum.
    #[arg(long, default_value_t = 0.9)]
    pub momentum: f64,
    #[arg(long, default_value_t = 500)]
    pub checkpoint_every: u64,
    #[arg(long, default_value_t = 50)]
    pub log_every: u64,
    /// Weight of the value loss against the policy loss.
    #[arg(long, default_value_t = 1.0)]
    pub value_weight: f64,
    /// Train without random symmetries.
    #[arg(long)]
    pub no_augment: bool,
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// libtorch intra-op threads (0: libtorch's default).
    #[arg(long, default_value_t = 0)]
    pub torch_threads: i32,
}

/// `match`: A against B, each opening twice with colours swapped; prints W/D/L and Elo.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// classical, mcts, policy:FILE or a network FILE (the MCTS over it).
    #[arg(long)]
    pub a: String,
    /// classical, mcts, policy:FILE or a network FILE (the MCTS over it).
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at once, each job with its own two players (give each player
    /// `--threads` x jobs <= cores).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub game: GameArgs,
}

/// `promote`: copies a checkpoint's network into the networks folder.
#[derive(Args, Debug, Clone)]
pub struct PromoteArgs {
    /// The checkpoint (`<dir>/ckpt-<step>` or any of its files).
    pub checkpoint: PathBuf,
    /// The shipped network's name (file names `<name>.safetensors` and `<name>.toml`).
    pub name: String,
    #[arg(long, default_value = "networks")]
    pub networks: PathBuf,
}

fn finish(what: &str, result: Result<(), TrainError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("{what}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The `selfplay` subcommand.
pub fn selfplay(args: SelfplayArgs, config: &Config, out: &mut dyn Write) -> ExitCode {
    finish("selfplay", run_selfplay_command(&args, config, out))
}

/// The `train` subcommand.
pub fn train(args: TrainArgs, _config: &Config, out: &mut dyn Write) -> ExitCode {
    finish("train", run_train_command(&args, out))
}

/// The `match` subcommand.
pub fn match_players(args: MatchArgs, config: &Config, out: &mut dyn Write) -> ExitCode {
    finish("match", run_match_command(&args, config, out))
}

/// The `promote` subcommand.
pub fn promote(args: PromoteArgs, _config: &Config, out: &mut dyn Write) -> ExitCode {
    finish("promote", run_promote_command(&args, out))
}

/// `15`, `15x15` or `12x9`.
pub fn parse_size(text: &str) -> Result<(usize, usize), TrainError> {
    let bad = || {
        TrainError::Config(format!(
            "board size {text:?}: expected N or WxH with sides {MIN_SIZE} to {MAX_SIZE}"
        ))
    };
    let t = text.trim().to_ascii_lowercase();
    let (w, h) = match t.split_once('x') {
        Some((w, h)) => (w.trim().parse(), h.trim().parse()),
        None => (t.parse(), t.parse()),
    };
    let (w, h): (usize, usize) = (w.map_err(|_| bad())?, h.map_err(|_| bad())?);
    let ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
    if ok(w) && ok(h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

/// A rule name (`freestyle`, `standard`, `renju`, `caro`, `caro5`) or `INFO rule` code.
pub fn parse_rule(text: &str) -> Result<Rule, TrainError> {
    let t = text.trim().to_ascii_lowercase();
    Rule::from_name(&t)
        .or_else(|| t.parse().ok().and_then(Rule::from_protocol))
        .ok_or_else(|| {
            TrainError::Config(format!(
                "rule {text:?}: expected freestyle, standard, renju, caro, caro5 or an INFO rule code"
            ))
        })
}

/// The variants named by comma-separated rules (or `all`) and sizes.
pub fn parse_variants(rules: &str, sizes: &str) -> Result<Vec<Variant>, TrainError> {
    let rules: Vec<Rule> = if rules.trim() == "all" {
        Rule::ALL.to_vec()
    } else {
        rules.split(',').map(parse_rule).collect::<Result<_, _>>()?
    };
    let sizes: Vec<(usize, usize)> = sizes.split(',').map(parse_size).collect::<Result<_, _>>()?;
    Ok(Variant::all(&rules, &sizes))
}

#[cfg(feature = "torch")]
fn device(name: &str) -> Result<Device, TrainError> {
    Ok(parse_device(name)?)
}

impl GameArgs {
    fn play_options(&self) -> PlayOptions {
        PlayOptions {
            movetime_ms: self.movetime,
            max_nodes: self.nodes,
            threads: self.threads,
            max_moves: self.max_moves,
            ..PlayOptions::default()
        }
    }

    fn player_setup(&self, config: &Config) -> PlayerSetup {
        let mut setup = PlayerSetup::from_config(config, self.device.as_deref());
        if self.torch_threads > 0 {
            setup.network.cpu_threads = self.torch_threads as usize;
        }
        setup
    }

    fn opening(&self) -> OpeningConfig {
        OpeningConfig {
            min_stones: self.opening_min,
            max_stones: self.opening_max,
            radius: self.opening_radius,
        }
    }
}

fn run_selfplay_command(
    args: &SelfplayArgs,
    config: &Config,
    out: &mut dyn Write,
) -> Result<(), TrainError> {
    let spec = match &args.network {
        Some(path) => PlayerSpec::Network(path.clone()),
        None => PlayerSpec::parse(&args.player),
    };
    let config_sp = SelfplayConfig {
        out_dir: args.out.clone(),
        worker: args.worker.clone(),
        games: args.games,
        variants: parse_variants(&args.game.rule, &args.game.size)?,
        play: PlayOptions {
            temperature_moves: args.temperature_moves,
            temperature: args.temperature,
            temperature_top: args.temperature_top,
            policy_target: spec.policy_target(),
            ..args.game.play_options()
        },
        opening: args.game.opening(),
        exploration_noise: !args.no_noise,
        games_per_shard: args.games_per_shard,
        seed: args.game.seed,
    };
    let setup = args.game.player_setup(config);
    let factory = |c: &SelfplayConfig, seed: u64| spec.build(&setup, c.exploration_noise, seed);
    let report = run_selfplay(&config_sp, &factory, &AtomicBool::new(false))?;
    let [black, white, draws] = report.results;
    writeln!(
        out,
        "selfplay {}: {} games played ({} already there), {} positions; black won {black}, \
         white won {white}, drawn {draws}",
        config_sp.worker, report.games_played, report.games_before, report.positions,
    )
    .map_err(TrainError::io("stdout"))
}

/// Without libtorch there is nothing to train.
#[cfg(not(feature = "torch"))]
fn run_train_command(_args: &TrainArgs, _out: &mut dyn Write) -> Result<(), TrainError> {
    Err(crate::nn::NnError::NoTorch("train a network").into())
}

#[cfg(feature = "torch")]
fn run_train_command(args: &TrainArgs, out: &mut dyn Write) -> Result<(), TrainError> {
    if args.torch_threads > 0 {
        tch::set_num_threads(args.torch_threads);
    }
    let kind = OptimizerKind::from_name(&args.optimizer).ok_or_else(|| {
        TrainError::Config(format!(
            "optimizer {:?}: expected adam or sgd",
            args.optimizer
        ))
    })?;
    // A resumed run takes what the command line leaves out from its checkpoint.
    let previous = if args.resume {
        latest_checkpoint(&args.out)?
    } else {
        None
    };
    let prev = previous.as_ref().map(|c| &c.state);
    // A fresh run from --init takes the network's shape unless told otherwise.
    let init_arch = match (&args.init, prev) {
        (Some(path), None) => Some(Network::load(path, Device::Cpu)?.arch()),
        _ => None,
    };
    let data = args
        .data
        .iter()
        .map(|d| DataSource::parse(d))
        .collect::<Result<Vec<_>, _>>()?;
    let config = TrainConfig {
        data,
        init: args.init.clone(),
        out_dir: args.out.clone(),
        steps: args.steps,
        batch: args.batch,
        arch: Arch::new(
            args.blocks
                .or(prev.map(|s| s.blocks))
                .or(init_arch.map(|a| a.blocks))
                .unwrap_or(6),
            args.channels
                .or(prev.map(|s| s.channels))
                .or(init_arch.map(|a| a.channels))
                .unwrap_or(64),
        ),
        seed: args.seed.or(prev.map(|s| s.seed)).unwrap_or(1),
        resume: args.resume,
        optimizer: OptimizerSettings {
            kind,
            lr: args.lr,
            weight_decay: args.weight_decay,
            momentum: args.momentum,
        },
        checkpoint_every: args.checkpoint_every,
        log_every: args.log_every,
        augment: !args.no_augment,
        value_weight: args.value_weight,
        device: device(&args.device)?,
        lr_final: args.lr_final.or(prev.and_then(|s| s.lr_final)),
    };
    let report = run_training(&config, &AtomicBool::new(false))?;
    writeln!(
        out,
        "trained steps {}..{}: policy loss {:.4}, value loss {:.4}, {:.0} positions/s; checkpoint {}",
        report.start_step,
        report.step,
        report.policy_loss,
        report.value_loss,
        report.positions_per_second,
        report
            .checkpoint
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "none".into())
    )
    .map_err(TrainError::io("stdout"))
}

fn run_match_command(
    args: &MatchArgs,
    config: &Config,
    out: &mut dyn Write,
) -> Result<(), TrainError> {
    let setup = args.game.player_setup(config);
    let (spec_a, spec_b) = (PlayerSpec::parse(&args.a), PlayerSpec::parse(&args.b));
    let factory = || -> Result<ThinkerPair, TrainError> {
        Ok((
            spec_a.build(&setup, false, 0)?,
            spec_b.build(&setup, false, 0)?,
        ))
    };
    let match_config = MatchConfig {
        games: args.games,
        variants: parse_variants(&args.game.rule, &args.game.size)?,
        play: PlayOptions {
            policy_target: PolicyTarget::BestMove,
            ..args.game.play_options()
        },
        opening: args.game.opening(),
        seed: args.game.seed,
    };
    let result = play_match_parallel(&factory, &match_config, args.jobs, &AtomicBool::new(false))?;
    writeln!(
        out,
        "{} vs {} ({} {}, {} ms/move, seed {}): {result}",
        args.a, args.b, args.game.rule, args.game.size, args.game.movetime, args.game.seed
    )
    .map_err(TrainError::io("stdout"))
}

fn run_promote_command(args: &PromoteArgs, out: &mut dyn Write) -> Result<(), TrainError> {
    let lines = promote_checkpoint(&args.checkpoint, &args.name, &args.networks)?;
    out.write_all(lines.as_bytes())
        .map_err(TrainError::io("stdout"))
}

/// Without libtorch a checkpoint cannot be checked, so it is not promoted.
#[cfg(not(feature = "torch"))]
pub fn promote_checkpoint(
    _checkpoint: &Path,
    _name: &str,
    _networks: &Path,
) -> Result<String, TrainError> {
    Err(crate::nn::NnError::NoTorch("promote a checkpoint").into())
}

/// Copies the checkpoint's network (weights and sidecar) to `<networks>/<name>.*`, refusing to
/// overwrite, and returns the Markdown lines to add to `networks/README.md`.
#[cfg(feature = "torch")]
pub fn promote_checkpoint(
    checkpoint: &Path,
    name: &str,
    networks: &Path,
) -> Result<String, TrainError> {
    let name_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        && !name.starts_with('.');
    if !name_ok {
        return Err(TrainError::Config(format!(
            "network name {name:?}: use letters, digits, '_', '-' or '.'"
        )));
    }
    let ckpt = read_checkpoint(checkpoint)?;
    // Refuse a checkpoint whose network does not load in this build.
    let net = Network::load(&ckpt.stem, Device::Cpu)?;
    let (src_weights, src_sidecar) = network_paths(&ckpt.stem);
    let (dst_weights, dst_sidecar) = network_paths(&networks.join(name));
    for dst in [&dst_weights, &dst_sidecar] {
        if dst.exists() {
            return Err(TrainError::Config(format!(
                "{} already exists; pick another name",
                dst.display()
            )));
        }
    }
    std::fs::create_dir_all(networks).map_err(TrainError::io(networks))?;
    for (src, dst) in [(&src_weights, &dst_weights), (&src_sidecar, &dst_sidecar)] {
        std::fs::copy(src, dst).map_err(TrainError::io(dst))?;
    }
    let s = &ckpt.state;
    let meta = net.meta();
    let aug = if s.augment { "" } else { " --no-augment" };
    let lr_final = s
        .lr_final
        .map(|f| format!(" --lr-final {f}"))
        .unwrap_or_default();
    // `data` lists the folders as `a, b:3`: one --data each.
    let data_args: String = s.data.split(", ").map(|d| format!("--data {d} ")).collect();
    let init = s
        .init
        .as_ref()
        .map(|i| format!(" --init {i}"))
        .unwrap_or_default();
    Ok(format!(
        "\n## {name}\n\
         - files: `{weights}`, `{sidecar}`\n\
         - architecture: {blocks} blocks x {channels} channels (architecture version {version}, \
           feature version {features}, {planes} input planes)\n\
         - training: step {step}, seed {seed}, {opt} lr {lr} weight decay {wd}, batch {batch}, \
           value weight {vw}; last losses: policy {pl:.4}, value {vl:.4}\n\
         - data: `{data}` ({games} games, {samples} positions): say which engine and settings \
           played them\n\
         - commands: `pbrain-hoshi train {data_args}--out {out}{init} --steps {step} --batch {batch} \
           --blocks {blocks} --channels {channels} --seed {seed} --optimizer {opt} --lr {lr}{lr_final} \
           --weight-decay {wd} --momentum {mom} --value-weight {vw}{aug}`, then \
           `pbrain-hoshi promote {ckpt} {name}`\n\
         - match results: run `pbrain-hoshi match --a {weights} --b mcts --games 200 \
           --movetime 1000 --rule ... --size ...` (and `--b` the previous shipped network) and \
           paste the result lines here\n",
        weights = dst_weights.display(),
        sidecar = dst_sidecar.display(),
        blocks = meta.blocks,
        channels = meta.channels,
        version = meta.version,
        features = meta.feature_version,
        planes = meta.input_planes,
        step = s.step,
        seed = s.seed,
        opt = s.optimizer,
        lr = s.lr,
        wd = s.weight_decay,
        mom = s.momentum,
        batch = s.batch,
        vw = s.value_weight,
        pl = s.policy_loss,
        vl = s.value_loss,
        data = s.data,
        games = s.games,
        samples = s.samples,
        out = ckpt
            .stem
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        ckpt = ckpt.stem.display(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser, Subcommand};

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        command: Cmd,
    }

    #[derive(Subcommand)]
    enum Cmd {
        Selfplay(SelfplayArgs),
        Train(TrainArgs),
        Match(MatchArgs),
        Promote(PromoteArgs),
    }

    #[test]
    fn command_lines_parse_as_documented() {
        Cli::command().debug_assert();
        let parse = |line: &str| {
            Cli::try_parse_from(line.split_whitespace())
                .unwrap()
                .command
        };
        match parse(
            "x selfplay --out d --games 7 --rule renju,standard --size 15x15,20 --worker w3 \
             --movetime 250 --network n.safetensors --no-noise",
        ) {
            Cmd::Selfplay(a) => {
                assert_eq!(
                    (a.out, a.games, a.worker),
                    (PathBuf::from("d"), 7, "w3".into())
                );
                assert_eq!(
                    (a.game.rule, a.game.size),
                    ("renju,standard".into(), "15x15,20".into())
                );
                assert_eq!((a.game.movetime, a.no_noise), (250, true));
                assert_eq!(a.network, Some(PathBuf::from("n.safetensors")));
            }
            _ => panic!("not selfplay"),
        }
        match parse(
            "x train --data d --out o --steps 9 --batch 32 --blocks 2 --channels 16 --seed 4 --resume",
        ) {
            Cmd::Train(a) => {
                assert_eq!((a.steps, a.batch, a.blocks, a.channels), (9, 32, Some(2), Some(16)));
                assert_eq!((a.seed, a.resume, a.optimizer.as_str()), (Some(4), true, "adam"));
                assert_eq!((a.data, a.init), (vec!["d".to_string()], None));
            }
            _ => panic!("not train"),
        }
        match parse("x train --data g0 --data g1:3 --init networks/n --out o --steps 9") {
            Cmd::Train(a) => {
                assert_eq!(a.data, vec!["g0".to_string(), "g1:3".to_string()]);
                assert_eq!(a.init, Some(PathBuf::from("networks/n")));
            }
            _ => panic!("not train"),
        }
        match parse(
            "x match --a classical --b nets/x --games 10 --movetime 50 --rule caro --size 20",
        ) {
            Cmd::Match(a) => {
                assert_eq!(
                    (a.a.as_str(), a.b.as_str(), a.games),
                    ("classical", "nets/x", 10)
                );
                assert_eq!((a.game.movetime, a.game.size.as_str()), (50, "20"));
            }
            _ => panic!("not match"),
        }
        match parse("x promote ck/ckpt-00000100 hoshi-v1") {
            Cmd::Promote(a) => {
                assert_eq!(a.checkpoint, PathBuf::from("ck/ckpt-00000100"));
                assert_eq!(
                    (a.name.as_str(), a.networks),
                    ("hoshi-v1", PathBuf::from("networks"))
                );
            }
            _ => panic!("not promote"),
        }
        assert!(
            Cli::try_parse_from(["x", "selfplay", "--games", "3"]).is_err(),
            "--out is required"
        );
    }

    #[test]
    fn sizes_and_rules_parse() {
        assert_eq!(parse_size("15").unwrap(), (15, 15));
        assert_eq!(parse_size("20x20").unwrap(), (20, 20));
        assert_eq!(parse_size(" 12X9 ").unwrap(), (12, 9));
        for bad in ["4", "33x15", "x", "15x", "fifteen"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_rule("Renju").unwrap(), Rule::Renju);
        assert_eq!(parse_rule("caro5").unwrap(), Rule::CaroExact);
        assert_eq!(parse_rule("1").unwrap(), Rule::Standard);
        assert!(parse_rule("go").is_err());
        let v = parse_variants("all", "15,20x20").unwrap();
        assert_eq!(v.len(), 10);
        let v = parse_variants("renju,standard", "9x12").unwrap();
        assert_eq!(
            v,
            vec![
                Variant::new(Rule::Renju, 9, 12),
                Variant::new(Rule::Standard, 9, 12)
            ]
        );
    }

    #[test]
    fn unknown_specs_are_readable_errors() {
        let setup = PlayerSetup::from_config(&Config::default(), Some("cpu"));
        let err = match PlayerSpec::parse("no/such/net").build(&setup, false, 0) {
            Err(e) => e,
            Ok(_) => panic!("loaded a missing network"),
        };
        let expected = if crate::nn::HAS_TORCH {
            "not found"
        } else {
            "no libtorch"
        };
        assert!(err.to_string().contains(expected), "{err}");
    }
}
