//! `train`: learns a network from self-play shards; checkpoints go to the output folder. Needs
//! the `torch` feature: without it the command fails with
//! [`NoTorch`](crate::nn::NnError::NoTorch).
use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::train::TrainError;
#[cfg(feature = "torch")]
use {
    crate::nn::{parse_device, Arch, ModelKind, Network},
    crate::train::dataset::TrainingSet,
    crate::train::optim::{OptimizerKind, OptimizerSettings},
    crate::train::records::read_dir,
    crate::train::trainer::{
        holdout_losses, latest_checkpoint, train as run_training, DataSource, TrainConfig,
    },
    std::sync::atomic::AtomicBool,
    tch::Device,
};

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
    /// Which net: `resnet` (the residual net, run by libtorch) or `pattern` (the
    /// pattern-codebook net, run in plain Rust at every leaf). Default: resnet, or what a
    /// resumed checkpoint or --init holds.
    #[arg(long)]
    pub kind: Option<String>,
    /// A pattern net's formula version (1: the policy reads each cell alone; 2: the value
    /// MLP's view of the board tunes the policy; 3: each empty cell also gets a row for the
    /// threats a stone there makes for either side). Default: --init's own, else the newest. An
    /// older --init gains the new weights at zero, so it starts from what it computed.
    #[arg(long)]
    pub pattern_version: Option<u32>,
    /// A pattern net whose value also reads each feature's largest value over the board (its
    /// strongest cell), beside the board's mean. An --init without it gains those weights at
    /// zero.
    #[arg(long)]
    pub value_max: bool,
    /// A pattern net's codebook learnt through a mapping network over each row's cells (two
    /// layers of this many units), so that rare patterns learn from common ones that look
    /// alike; the saved nets hold the codebook it computes, the mapping goes beside them for
    /// `--resume`. From scratch the rows are the mapping's; an --init's codebook stays as a
    /// table added to them.
    #[arg(long)]
    pub mapping: Option<usize>,
    /// Residual blocks (default 6; a resumed run takes its checkpoint's). A pattern net has none.
    #[arg(long)]
    pub blocks: Option<usize>,
    /// Channels (default 64; a pattern net's features per cell, default 32; a resumed run takes
    /// its checkpoint's). More than a pattern --init has: the net is widened, computing what it
    /// did, and the new features are trained from there.
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
    /// Value target = (1 - W) x the game's result + W x the root search's W/D/L, for positions
    /// whose shard recorded it (format version 2; older shards keep the result). 0 to 1; default
    /// 0 (the result alone), or a resumed checkpoint's.
    #[arg(long)]
    pub value_mix: Option<f64>,
    /// With --value-mix: the search's part is the mean of the search values of the position and
    /// the next H positions of its game, each from the position's side to move (a short-term
    /// average). Default 0 (the position's own), or a resumed checkpoint's.
    #[arg(long)]
    pub value_horizon: Option<usize>,
    /// Leave out of each policy target the moves that got less than this share of the visits
    /// (the most visited stays), such as the visits root noise alone sent to weak moves.
    /// Default 0 (all kept), or a resumed checkpoint's.
    #[arg(long)]
    pub policy_floor: Option<f64>,
    /// Also keep a moving average of the weights with this decay per step (such as 0.999),
    /// written beside each checkpoint as OUT/ema-<step>, a network file (default: none, or a
    /// resumed checkpoint's).
    #[arg(long)]
    pub ema: Option<f64>,
    /// Train at most this many samples per position of the data (weights counted), fewer
    /// steps than --steps where the data is small (the learning rate's schedule ends there).
    #[arg(long)]
    pub max_reuse: Option<f64>,
    /// After training, report the final network's policy and value losses over every position
    /// of this folder of shards once (held-out games; the value against the game's result).
    #[arg(long)]
    pub holdout: Option<PathBuf>,
    /// Train without random symmetries.
    #[arg(long)]
    pub no_augment: bool,
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// libtorch intra-op threads (0: libtorch's default).
    #[arg(long, default_value_t = 0)]
    pub torch_threads: i32,
}

#[cfg(feature = "torch")]
fn device(name: &str) -> Result<Device, TrainError> {
    Ok(parse_device(name)?)
}

/// Without libtorch there is nothing to train.
#[cfg(not(feature = "torch"))]
pub fn run(_args: &TrainArgs, _out: &mut dyn Write) -> Result<(), TrainError> {
    Err(crate::nn::NnError::NoTorch("train a network").into())
}

#[cfg(feature = "torch")]
pub fn run(args: &TrainArgs, out: &mut dyn Write) -> Result<(), TrainError> {
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
    let model_kind = match args.kind.as_deref() {
        None => prev
            .map(|s| s.kind)
            .or(init_arch.map(|a| a.kind))
            .unwrap_or_default(),
        Some("resnet") => ModelKind::Resnet,
        Some("pattern") => ModelKind::Pattern,
        Some(other) => {
            return Err(TrainError::Config(format!(
                "--kind {other:?}: expected resnet or pattern"
            )))
        }
    };
    let pattern = model_kind == ModelKind::Pattern;
    let data = args
        .data
        .iter()
        .map(|d| DataSource::parse(d))
        .collect::<Result<Vec<_>, _>>()?;
    let config = TrainConfig {
        data,
        init: args.init.clone(),
        pattern_version: args.pattern_version,
        value_max: args.value_max,
        mapping: args.mapping.filter(|&w| w > 0),
        out_dir: args.out.clone(),
        steps: args.steps,
        batch: args.batch,
        arch: Arch {
            kind: model_kind,
            blocks: args
                .blocks
                .or(prev.map(|s| s.blocks))
                .or(init_arch.map(|a| a.blocks))
                .unwrap_or(if pattern { 0 } else { 6 }),
            channels: args
                .channels
                .or(prev.map(|s| s.channels))
                .or(init_arch.map(|a| a.channels))
                .unwrap_or(if pattern { 32 } else { 64 }),
        },
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
        value_mix: args.value_mix.or(prev.map(|s| s.value_mix)).unwrap_or(0.0),
        value_horizon: args
            .value_horizon
            .or(prev.map(|s| s.value_horizon))
            .unwrap_or(0),
        policy_floor: args
            .policy_floor
            .or(prev.map(|s| s.policy_floor))
            .unwrap_or(0.0),
        device: device(&args.device)?,
        lr_final: args.lr_final.or(prev.and_then(|s| s.lr_final)),
        ema: args.ema.or(prev.map(|s| s.ema)).unwrap_or(0.0),
        max_reuse: args.max_reuse,
    };
    let report = run_training(&config, &AtomicBool::new(false))?;
    let checkpoint = report
        .checkpoint
        .as_ref()
        .map_or_else(|| "none".into(), |p| p.display().to_string());
    if report.step == report.start_step {
        // A resumed run that had already reached its steps: no losses to report.
        writeln!(
            out,
            "nothing left to train at step {}; checkpoint {checkpoint}",
            report.step
        )
    } else {
        writeln!(
            out,
            "trained steps {}..{}: policy loss {:.4}, value loss {:.4}, {:.0} positions/s; checkpoint {checkpoint}",
            report.start_step,
            report.step,
            report.policy_loss,
            report.value_loss,
            report.positions_per_second,
        )
    }
    .map_err(TrainError::io("stdout"))?;
    if let (Some(dir), Some(ckpt)) = (&args.holdout, &report.checkpoint) {
        let set = TrainingSet::new(read_dir(dir)?);
        if set.is_empty() {
            return Err(TrainError::Config(format!(
                "no positions to hold out in {}",
                dir.display()
            )));
        }
        let net = Network::load(ckpt, config.device)?;
        let (policy, value) = holdout_losses(&net, &set, 512);
        writeln!(
            out,
            "held out {} ({} games, {} positions): policy loss {policy:.4}, value loss {value:.4} \
             (against the results)",
            dir.display(),
            set.games(),
            set.len()
        )
        .map_err(TrainError::io("stdout"))?;
    }
    Ok(())
}
