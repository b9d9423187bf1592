//! The trainer: learns a policy-value network from self-play shards.
//!
//! Loss per sample = policy cross-entropy against the visit fractions + `value_weight` x value
//! cross-entropy against the game's W/D/L from the side to move's view, or with `value_mix` w
//! against `(1 - w) x` that `+ w x` the root search's W/D/L where the shard recorded it (see
//! [`super::dataset`]). Samples are drawn
//! uniformly from every searched position of the `data` folders (a folder of weight `k` counts
//! each of its positions `k` times, so a newer generation can weigh more), under random
//! symmetries, with mixed board sizes padded per batch (see [`super::dataset`]).
//!
//! A run starts from random weights, or from a network (`init`: fine-tuning the shipped net on
//! a new generation's data with a fresh optimizer), or resumes its own checkpoint.
//!
//! Reproducible: the initial weights come from `seed`, and the batch of step `n` from
//! `(seed, n)` alone, so a run resumed from a checkpoint draws the same batches as one that was
//! never interrupted.
//!
//! ## Checkpoints
//! Every `checkpoint_every` steps (and at the end) the trainer writes into `out_dir`:
//! - `ckpt-<step>.safetensors` + `ckpt-<step>.toml`: the network (an ordinary network file);
//! - `ckpt-<step>.optim.safetensors`: the optimizer's moments;
//! - `ckpt-<step>.train.toml`: step, seed, optimizer settings, data and last losses
//!   ([`TrainState`]). It is written last, so a checkpoint without it is incomplete and ignored.
//!
//! `resume` continues from the newest complete checkpoint (and starts afresh when there is
//! none); without it, an `out_dir` that already holds checkpoints is refused.
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use tch::{Device, Kind, Tensor};

use crate::nn::{Arch, ModelKind, Network};

use super::dataset::TrainingSet;
use super::error::TrainError;
use super::optim::{Optimizer, OptimizerKind, OptimizerSettings};
use super::records::read_dir;

/// A folder of shards and how many times each of its positions counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSource {
    pub dir: PathBuf,
    pub weight: u32,
}

impl DataSource {
    /// `DIR` (weight 1) or `DIR:WEIGHT` with WEIGHT a whole number from 1 to 1000.
    pub fn parse(text: &str) -> Result<DataSource, TrainError> {
        let (dir, weight) = match text.rsplit_once(':') {
            Some((dir, w))
                if !dir.is_empty() && !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) =>
            {
                let weight = w.parse::<u32>().ok().filter(|w| (1..=1000).contains(w));
                let weight = weight.ok_or_else(|| {
                    TrainError::Config(format!("data {text:?}: the weight must be 1 to 1000"))
                })?;
                (dir, weight)
            }
            _ => (text, 1),
        };
        if dir.is_empty() {
            return Err(TrainError::Config("data: empty folder name".into()));
        }
        Ok(DataSource {
            dir: PathBuf::from(dir),
            weight,
        })
    }
}

impl std::fmt::Display for DataSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.weight {
            1 => write!(f, "{}", self.dir.display()),
            w => write!(f, "{}:{w}", self.dir.display()),
        }
    }
}

/// What a training run is asked to do.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The folders of shards to learn from (at least one).
    pub data: Vec<DataSource>,
    /// A network to start from instead of random weights when `out_dir` holds no checkpoint
    /// (its architecture must be `arch`).
    pub init: Option<PathBuf>,
    /// A pattern net's formula version for a fresh run (`None`: `init`'s, else the newest).
    pub pattern_version: Option<u32>,
    /// A fresh pattern net's value reads the board's per-feature maximum too (an `init`
    /// without it gains those weights at zero).
    pub value_max: bool,
    /// A pattern net's codebook trained through a mapping network of this many hidden units a
    /// layer (`nn::pattern_mapping`); the saved nets hold the codebook it computes.
    pub mapping: Option<usize>,
    pub out_dir: PathBuf,
    /// Train until this step (counting the steps of the run being resumed).
    pub steps: u64,
    pub batch: usize,
    pub arch: Arch,
    pub seed: u64,
    pub resume: bool,
    pub optimizer: OptimizerSettings,
    pub checkpoint_every: u64,
    /// Progress is logged every this many steps.
    pub log_every: u64,
    /// Random symmetries on the samples.
    pub augment: bool,
    pub value_weight: f64,
    /// Share of the root search's value in the value target (0: the game's result alone).
    pub value_mix: f64,
    /// The search's part of the value target: the mean over the position and this many after it
    /// (0: the position's own search value).
    pub value_horizon: usize,
    /// Policy target entries with a smaller share of the visits are left out (0: none).
    pub policy_floor: f64,
    pub device: Device,
    /// Cosine learning-rate decay from the optimizer's `lr` at step 0 to this at `steps`
    /// (`None`: a constant rate). The rate of a step depends on the step alone, so a resumed
    /// run follows the same schedule.
    pub lr_final: Option<f64>,
    /// Keep an exponential moving average of the weights with this decay per step, written
    /// beside each checkpoint as `ema-<step>` (a network file); 0: none.
    pub ema: f64,
    /// Train at most this many samples per position of the data (weights counted): fewer steps
    /// than `steps` on a small window, so that no position is learnt by heart.
    pub max_reuse: Option<f64>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            data: vec![DataSource {
                dir: PathBuf::from("selfplay-data"),
                weight: 1,
            }],
            init: None,
            pattern_version: None,
            value_max: false,
            mapping: None,
            out_dir: PathBuf::from("checkpoints"),
            steps: 1000,
            batch: 256,
            arch: Arch::new(6, 64),
            seed: 1,
            resume: false,
            optimizer: OptimizerSettings {
                kind: OptimizerKind::Adam,
                lr: 1e-3,
                weight_decay: 1e-4,
                momentum: 0.9,
            },
            checkpoint_every: 500,
            log_every: 50,
            augment: true,
            value_weight: 1.0,
            value_mix: 0.0,
            value_horizon: 0,
            policy_floor: 0.0,
            device: Device::Cpu,
            lr_final: None,
            ema: 0.0,
            max_reuse: None,
        }
    }
}

/// The `ckpt-<step>.train.toml` sidecar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainState {
    pub step: u64,
    pub seed: u64,
    /// Which net (absent in checkpoints of the residual net written before there was a choice).
    #[serde(default)]
    pub kind: ModelKind,
    pub blocks: usize,
    pub channels: usize,
    pub optimizer: String,
    pub lr: f64,
    pub weight_decay: f64,
    pub momentum: f64,
    pub batch: usize,
    pub value_weight: f64,
    /// Share of the search value in the value target (absent in older checkpoints: 0).
    #[serde(default)]
    pub value_mix: f64,
    /// Later positions averaged into the search value (absent in older checkpoints: 0).
    #[serde(default)]
    pub value_horizon: usize,
    /// The policy target's floor (absent in older checkpoints: 0).
    #[serde(default)]
    pub policy_floor: f64,
    /// The cosine schedule's final rate (absent: constant `lr`).
    #[serde(default)]
    pub lr_final: Option<f64>,
    /// The weights' moving average's decay (absent in older checkpoints: 0, none).
    #[serde(default)]
    pub ema: f64,
    /// The codebook mapping's hidden units a layer (0: none).
    #[serde(default)]
    pub mapping: usize,
    pub augment: bool,
    pub data: String,
    /// The network the run started from (absent: random weights).
    #[serde(default)]
    pub init: Option<String>,
    pub games: usize,
    pub samples: usize,
    /// Mean losses over the last logging window.
    pub policy_loss: f64,
    pub value_loss: f64,
}

/// A complete checkpoint on disk.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// `<dir>/ckpt-<step>`: the network path (see [`crate::nn::file::network_paths`]).
    pub stem: PathBuf,
    pub state: TrainState,
}

impl Checkpoint {
    pub fn optimizer_path(&self) -> PathBuf {
        with_suffix(&self.stem, ".optim.safetensors")
    }
}

fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// `<dir>/ckpt-<step, 8 digits>`.
pub fn checkpoint_stem(dir: &Path, step: u64) -> PathBuf {
    dir.join(format!("ckpt-{step:08}"))
}

/// `<dir>/ema-<step, 8 digits>`: the averaged network written with checkpoint `step`.
pub fn averaged_stem(dir: &Path, step: u64) -> PathBuf {
    dir.join(format!("ema-{step:08}"))
}

/// The moving average of the trained weights: a net that has seen the last few thousand
/// batches rather than the last one, steadier for self-play and matches (KataGo and others
/// export such an average).
struct Averaged {
    net: Network,
    decay: f64,
}

impl Averaged {
    /// Starts from `net`'s weights, or from the average saved with the checkpoint `resumed`.
    fn start(
        config: &TrainConfig,
        net: &Network,
        resumed: Option<u64>,
    ) -> Result<Option<Averaged>, TrainError> {
        if config.ema <= 0.0 {
            return Ok(None);
        }
        let saved = resumed
            .map(|step| averaged_stem(&config.out_dir, step))
            .filter(|stem| with_suffix(stem, ".safetensors").is_file());
        let net = match saved {
            Some(stem) => {
                log::info!("train: the moving average resumes from {}", stem.display());
                with_saved_mapping(config, Network::load(&stem, config.device)?, &stem)?
            }
            None => net.duplicate()?,
        };
        Ok(Some(Averaged {
            net,
            decay: config.ema,
        }))
    }

    /// One step: `average = decay * average + (1 - decay) * trained`.
    fn update(&mut self, trained: &Network) -> Result<(), TrainError> {
        let now = trained.var_store().variables();
        tch::no_grad(|| -> Result<(), TrainError> {
            for (name, mut avg) in self.net.var_store().variables() {
                if let Some(w) = now.get(&name) {
                    let _ = avg.f_mul_scalar_(self.decay)?;
                    let _ = avg.f_add_(&(w * (1.0 - self.decay)))?;
                }
            }
            Ok(())
        })
    }
}

/// Reads the checkpoint a path names: the stem or any of its files.
pub fn read_checkpoint(path: &Path) -> Result<Checkpoint, TrainError> {
    let text = path.to_string_lossy();
    let stem = [".train.toml", ".optim.safetensors", ".safetensors", ".toml"]
        .iter()
        .find_map(|s| text.strip_suffix(s))
        .unwrap_or(&text);
    let stem = PathBuf::from(stem);
    let sidecar = with_suffix(&stem, ".train.toml");
    let body = std::fs::read_to_string(&sidecar).map_err(TrainError::io(&sidecar))?;
    let state: TrainState = toml::from_str(&body)
        .map_err(|e| TrainError::Config(format!("checkpoint {}: {e}", sidecar.display())))?;
    Ok(Checkpoint { stem, state })
}

/// The newest complete checkpoint in `dir`, if any.
pub fn latest_checkpoint(dir: &Path) -> Result<Option<Checkpoint>, TrainError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(TrainError::io(dir)(e)),
    };
    let mut best: Option<(u64, PathBuf)> = None;
    for entry in entries {
        let name = entry.map_err(TrainError::io(dir))?.file_name();
        let Some(step) = name
            .to_str()
            .and_then(|n| n.strip_prefix("ckpt-"))
            .and_then(|n| n.strip_suffix(".train.toml"))
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        if best.as_ref().is_none_or(|b| step > b.0) {
            best = Some((step, dir.join(name)));
        }
    }
    best.map(|(_, p)| read_checkpoint(&p)).transpose()
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// The step the run started from (0, or the resumed checkpoint's).
    pub start_step: u64,
    pub step: u64,
    pub policy_loss: f64,
    pub value_loss: f64,
    /// Training positions per second over the run.
    pub positions_per_second: f64,
    /// The last checkpoint written (or resumed from, when no step was left).
    pub checkpoint: Option<PathBuf>,
}

/// The seed of step `step`'s batch.
fn step_seed(seed: u64, step: u64) -> u64 {
    let mut x = seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x7452_4149_4e21;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The learning rate of step `step` (see [`TrainConfig::lr_final`]).
pub fn learning_rate(config: &TrainConfig, step: u64) -> f64 {
    let lr = config.optimizer.lr;
    match config.lr_final {
        None => lr,
        Some(end) => {
            let t = (step as f64 / config.steps.max(1) as f64).min(1.0);
            end + 0.5 * (lr - end) * (1.0 + (std::f64::consts::PI * t).cos())
        }
    }
}

fn validate(config: &TrainConfig) -> Result<(), TrainError> {
    let bad = |m: &str| Err(TrainError::Config(m.to_string()));
    if config.batch == 0 {
        return bad("batch size must be at least 1");
    }
    if !(0.0..1.0).contains(&config.ema) {
        return bad("the moving average's decay lies in [0, 1)");
    }
    if config.checkpoint_every == 0 || config.log_every == 0 {
        return bad("checkpoint and log intervals must be at least 1 step");
    }
    if config.optimizer.lr.is_nan() || config.optimizer.lr <= 0.0 {
        return bad("the learning rate must be above 0");
    }
    if config.lr_final.is_some_and(|f| f.is_nan() || f < 0.0) {
        return bad("the final learning rate must be 0 or more");
    }
    if config.data.is_empty() {
        return bad("no data folder to learn from");
    }
    if !(0.0..=1.0).contains(&config.value_mix) {
        return bad("the value mix must be 0 to 1");
    }
    if !(0.0..1.0).contains(&config.policy_floor) {
        return bad("the policy floor must be at least 0 and below 1");
    }
    config.arch.validate()?;
    Ok(())
}

/// The data folders as one line: `gen0, gen1:3`.
fn data_line(config: &TrainConfig) -> String {
    config
        .data
        .iter()
        .map(DataSource::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every searched position of the data folders, each folder's counted `weight` times.
fn training_set(config: &TrainConfig) -> Result<TrainingSet, TrainError> {
    let mut parts = Vec::with_capacity(config.data.len());
    for source in &config.data {
        let games = read_dir(&source.dir)?;
        if games.is_empty() {
            log::warn!("train: no games in {}", source.dir.display());
        }
        parts.push((games, source.weight));
    }
    Ok(TrainingSet::weighted(parts)
        .with_value_mix(config.value_mix)
        .with_value_horizon(config.value_horizon)
        .with_policy_floor(config.policy_floor))
}

/// Cross-entropy of the value head's logits `[B, 3]` against the W/D/L targets `[B, 3]`, the
/// mean over the batch.
fn value_cross_entropy(logits: &Tensor, target: &Tensor) -> Tensor {
    -(target.to_device(logits.device()) * logits.to_kind(Kind::Float).log_softmax(1, Kind::Float))
        .sum_dim_intlist(1, false, Kind::Float)
        .mean(Kind::Float)
}

/// Where a run starts: a fresh network or a checkpoint, with its optimizer.
fn start(config: &TrainConfig) -> Result<(Network, Optimizer, u64, Option<PathBuf>), TrainError> {
    let found = latest_checkpoint(&config.out_dir)?;
    if let (false, Some(ckpt)) = (config.resume, &found) {
        return Err(TrainError::Config(format!(
            "{} already holds checkpoints (newest {}); use --resume or another --out",
            config.out_dir.display(),
            ckpt.stem.display()
        )));
    }
    let fresh = |net: Network| {
        let opt = Optimizer::new(net.var_store(), config.optimizer);
        (net, opt)
    };
    let Some(ckpt) = found else {
        let net = match &config.init {
            None => Network::random(config.arch, config.seed as i64, config.device)?,
            Some(path) => {
                let mut net = Network::load(path, config.device)?;
                let wider = Arch {
                    channels: config.arch.channels,
                    ..net.arch()
                };
                if wider == config.arch && config.arch.channels > net.arch().channels {
                    log::info!(
                        "train: {} widened from {} to {} features",
                        path.display(),
                        net.arch().channels,
                        config.arch.channels
                    );
                    net = net.widened(config.arch.channels)?;
                }
                if net.arch() != config.arch {
                    return Err(TrainError::Config(format!(
                        "--init {} is a {} net of {} blocks x {} channels, asked for {} x {}",
                        path.display(),
                        net.arch().kind.name(),
                        net.arch().blocks,
                        net.arch().channels,
                        config.arch.blocks,
                        config.arch.channels
                    )));
                }
                log::info!("train: starting from the network {}", path.display());
                net
            }
        };
        let net = match config.pattern_version {
            Some(v) if v != net.meta().version => {
                log::info!("train: the pattern net as formula version {v}");
                net.with_pattern_version(v)?
            }
            _ => net,
        };
        let net = if config.value_max && !net.meta().value_max {
            log::info!("train: the pattern net's value reads the board's maximum too");
            net.with_value_max()?
        } else {
            net
        };
        let net = match config.mapping {
            Some(width) => {
                log::info!("train: the codebook through a mapping of {width} units a layer");
                net.with_mapping(width, config.init.is_none(), config.seed as i64)?
            }
            None => net,
        };
        let (net, opt) = fresh(f32_weights(net));
        return Ok((net, opt, 0, None));
    };
    let s = &ckpt.state;
    let ckpt_arch = Arch {
        kind: s.kind,
        blocks: s.blocks,
        channels: s.channels,
    };
    if ckpt_arch != config.arch {
        return Err(TrainError::Config(format!(
            "checkpoint {} is a {} net of {} blocks x {} channels, asked for {} x {}",
            ckpt.stem.display(),
            s.kind.name(),
            s.blocks,
            s.channels,
            config.arch.blocks,
            config.arch.channels
        )));
    }
    if s.seed != config.seed {
        return Err(TrainError::Config(format!(
            "checkpoint {} was trained with seed {}, asked for {}",
            ckpt.stem.display(),
            s.seed,
            config.seed
        )));
    }
    if s.optimizer != config.optimizer.kind.name() {
        return Err(TrainError::Config(format!(
            "checkpoint {} used the {} optimizer, asked for {}",
            ckpt.stem.display(),
            s.optimizer,
            config.optimizer.kind.name()
        )));
    }
    if s.mapping != config.mapping.unwrap_or(0) {
        return Err(TrainError::Config(format!(
            "checkpoint {} was trained with a codebook mapping of {} units, asked for {}",
            ckpt.stem.display(),
            s.mapping,
            config.mapping.unwrap_or(0)
        )));
    }
    let net = with_saved_mapping(
        config,
        Network::load(&ckpt.stem, config.device)?,
        &ckpt.stem,
    )?;
    let (net, mut opt) = fresh(net);
    opt.load(&ckpt.optimizer_path(), s.step)?;
    log::info!(
        "train: resuming from {} (step {})",
        ckpt.stem.display(),
        s.step
    );
    Ok((net, opt, s.step, Some(ckpt.stem)))
}

/// A saved net in f32, with the codebook mapping the run trains (`config.mapping`) and the
/// mapping's weights saved beside it.
fn with_saved_mapping(
    config: &TrainConfig,
    net: Network,
    stem: &Path,
) -> Result<Network, TrainError> {
    let net = f32_weights(net);
    let Some(width) = config.mapping else {
        return Ok(net);
    };
    let net = net.with_mapping(width, false, config.seed as i64)?;
    if !net.load_mapping(stem)? {
        return Err(TrainError::Config(format!(
            "{} has no codebook mapping beside it ({})",
            stem.display(),
            Network::mapping_path(stem).display()
        )));
    }
    Ok(net)
}

/// Training runs in f32 whatever the device (a CUDA network loads in half precision).
fn f32_weights(mut net: Network) -> Network {
    if net.is_half() {
        net.set_half(false);
    }
    net
}

/// `config.steps`, or fewer where `max_reuse` caps the samples drawn per position of the data.
fn steps_within_reuse(config: &TrainConfig, positions: usize) -> u64 {
    let Some(reuse) = config.max_reuse else {
        return config.steps;
    };
    let most = (reuse * positions as f64 / config.batch as f64)
        .ceil()
        .max(1.0) as u64;
    if most < config.steps {
        log::info!(
            "train: at most {reuse} samples a position: {most} steps instead of {}",
            config.steps
        );
    }
    config.steps.min(most)
}

/// Runs (or resumes) training until `config.steps` or until `stop` is raised; either way it ends
/// with a checkpoint of the last step done.
pub fn train(config: &TrainConfig, stop: &AtomicBool) -> Result<TrainReport, TrainError> {
    validate(config)?;
    let set = training_set(config)?;
    if set.is_empty() {
        return Err(TrainError::Config(format!(
            "no training positions in {}",
            data_line(config)
        )));
    }
    log::info!(
        "train: {} games, {} positions (weights counted) from {}",
        set.games(),
        set.len(),
        data_line(config)
    );
    if config.value_mix > 0.0 {
        log::info!(
            "train: value targets mix {:.2} of the search value into the result for the {} \
             positions that recorded one",
            config.value_mix,
            set.samples_with_value()
        );
        if config.value_horizon > 0 {
            log::info!(
                "train: the search value averaged over each position and the {} after it",
                config.value_horizon
            );
        }
    }
    if config.policy_floor > 0.0 {
        log::info!(
            "train: policy targets without the moves under {:.3} of the visits",
            config.policy_floor
        );
    }
    let capped = TrainConfig {
        steps: steps_within_reuse(config, set.len()),
        ..config.clone()
    };
    let config = &capped;
    std::fs::create_dir_all(&config.out_dir).map_err(TrainError::io(&config.out_dir))?;
    let (mut net, mut opt, start_step, resumed) = start(config)?;
    let mut averaged = Averaged::start(config, &net, resumed.as_ref().map(|_| start_step))?;
    let save = |net: &mut Network,
                averaged: &mut Option<Averaged>,
                opt: &Optimizer,
                report: &TrainReport| {
        save_checkpoint(config, &set, net, averaged.as_mut(), opt, report)
    };
    let mut report = TrainReport {
        start_step,
        step: start_step,
        policy_loss: f64::NAN,
        value_loss: f64::NAN,
        positions_per_second: 0.0,
        checkpoint: resumed,
    };
    let started = Instant::now();
    let mut window = (0.0f64, 0.0f64, 0u64, Instant::now());
    let mut saved_step = start_step;
    while report.step < config.steps && !stop.load(Ordering::Relaxed) {
        let mut rng = StdRng::seed_from_u64(step_seed(config.seed, report.step));
        let batch = set.batch_for(config.arch.kind, config.batch, config.augment, &mut rng);
        let (logits, wdl) = net.forward_t(&batch.inputs, true);
        let device = net.device();
        let policy_target = batch.policy.to_device(device);
        let policy_loss = -(policy_target * logits.log_softmax(1, Kind::Float))
            .sum_dim_intlist(1, false, Kind::Float)
            .mean(Kind::Float);
        let value_loss = value_cross_entropy(&wdl, &batch.wdl);
        let loss = &policy_loss + &value_loss * config.value_weight;
        opt.zero_grad();
        loss.backward();
        opt.set_lr(learning_rate(config, report.step));
        opt.step();
        report.step += 1;
        if let Some(a) = averaged.as_mut() {
            a.update(&net)?;
        }

        window.0 += policy_loss.double_value(&[]);
        window.1 += value_loss.double_value(&[]);
        window.2 += 1;
        if report.step.is_multiple_of(config.log_every) || report.step == config.steps {
            let n = window.2 as f64;
            report.policy_loss = window.0 / n;
            report.value_loss = window.1 / n;
            let rate = n * config.batch as f64 / window.3.elapsed().as_secs_f64().max(1e-9);
            let steps_left = config.steps.saturating_sub(report.step);
            log::info!(
                "train: step {}/{} loss {:.4} (policy {:.4}, value {:.4}), lr {:.2e}; {:.0} positions/s; ETA {:.0} s",
                report.step,
                config.steps,
                report.policy_loss + config.value_weight * report.value_loss,
                report.policy_loss,
                report.value_loss,
                learning_rate(config, report.step - 1),
                rate,
                steps_left as f64 * config.batch as f64 / rate.max(1e-9)
            );
            window = (0.0, 0.0, 0, Instant::now());
        }
        if report.step.is_multiple_of(config.checkpoint_every) {
            report.checkpoint = Some(save(&mut net, &mut averaged, &opt, &report)?);
            saved_step = report.step;
        }
    }
    if window.2 > 0 {
        report.policy_loss = window.0 / window.2 as f64;
        report.value_loss = window.1 / window.2 as f64;
    }
    if report.step > saved_step {
        report.checkpoint = Some(save(&mut net, &mut averaged, &opt, &report)?);
    }
    let done = (report.step - start_step) as f64;
    report.positions_per_second =
        done * config.batch as f64 / started.elapsed().as_secs_f64().max(1e-9);
    Ok(report)
}

fn save_checkpoint(
    config: &TrainConfig,
    set: &TrainingSet,
    net: &mut Network,
    averaged: Option<&mut Averaged>,
    opt: &Optimizer,
    report: &TrainReport,
) -> Result<PathBuf, TrainError> {
    let stem = checkpoint_stem(&config.out_dir, report.step);
    let s = opt.settings();
    let state = TrainState {
        step: report.step,
        seed: config.seed,
        kind: config.arch.kind,
        blocks: config.arch.blocks,
        channels: config.arch.channels,
        optimizer: s.kind.name().to_string(),
        lr: config.optimizer.lr,
        weight_decay: s.weight_decay,
        momentum: s.momentum,
        batch: config.batch,
        value_weight: config.value_weight,
        value_mix: config.value_mix,
        value_horizon: config.value_horizon,
        policy_floor: config.policy_floor,
        lr_final: config.lr_final,
        ema: config.ema,
        mapping: config.mapping.unwrap_or(0),
        augment: config.augment,
        data: data_line(config),
        init: config.init.as_ref().map(|p| p.display().to_string()),
        games: set.games(),
        samples: set.len(),
        policy_loss: report.policy_loss,
        value_loss: report.value_loss,
    };
    net.set_description(&format!(
        "trainer checkpoint: step {}, seed {}, {} games / {} positions from {}",
        state.step, state.seed, state.games, state.samples, state.data
    ));
    net.save(&stem)?;
    if let Some(a) = averaged {
        // Before the sidecar, which marks the checkpoint complete.
        a.net.set_description(&format!(
            "moving average (decay {}) of the trainer's weights at step {}, seed {}, {} games / {} positions from {}",
            a.decay, state.step, state.seed, state.games, state.samples, state.data
        ));
        a.net.save(averaged_stem(&config.out_dir, report.step))?;
    }
    opt.save(&with_suffix(&stem, ".optim.safetensors"))?;
    let sidecar = with_suffix(&stem, ".train.toml");
    let tmp = with_suffix(&stem, ".train.toml.tmp");
    let text = toml::to_string(&state)
        .map_err(|e| TrainError::Config(format!("cannot write the training state: {e}")))?;
    std::fs::write(&tmp, text).map_err(TrainError::io(&tmp))?;
    std::fs::rename(&tmp, &sidecar).map_err(TrainError::io(&sidecar))?;
    log::info!("train: checkpoint {}", stem.display());
    Ok(stem)
}

/// Largest absolute difference between two networks' weights (same architecture), for tests
/// and for checking that a resumed run matches.
pub fn max_weight_difference(a: &Network, b: &Network) -> f64 {
    let av = a.var_store().variables();
    let bv = b.var_store().variables();
    let mut worst = 0.0f64;
    for (name, t) in &av {
        let Some(u) = bv.get(name) else {
            return f64::INFINITY;
        };
        let d = (t.to_kind(Kind::Float).to_device(Device::Cpu)
            - u.to_kind(Kind::Float).to_device(Device::Cpu))
        .abs()
        .max()
        .double_value(&[]);
        worst = worst.max(d);
    }
    if av.len() != bv.len() {
        return f64::INFINITY;
    }
    worst
}

/// Mean policy and value losses of `net` over every sample of `set` once, in batches of
/// `batch` (no training): held-out losses. The value loss is against `set`'s value targets
/// (the game's result unless the set was given a value mix).
pub fn holdout_losses(net: &Network, set: &TrainingSet, batch: usize) -> (f64, f64) {
    let kind = net.arch().kind;
    let (mut policy, mut value) = (0.0, 0.0);
    let mut at = 0;
    while at < set.len() {
        let end = (at + batch.max(1)).min(set.len());
        let b = set.batch_in_order(kind, at..end);
        let (p, v) = batch_losses(net, &b);
        policy += p * (end - at) as f64;
        value += v * (end - at) as f64;
        at = end;
    }
    let n = set.len().max(1) as f64;
    (policy / n, value / n)
}

/// Mean policy and value losses of `net` on one batch, without training.
fn batch_losses(net: &Network, batch: &super::dataset::Batch) -> (f64, f64) {
    tch::no_grad(|| {
        let (logits, wdl) = net.forward_t(&batch.inputs, false);
        let device = net.device();
        let p = -(batch.policy.to_device(device)
            * logits.to_kind(Kind::Float).log_softmax(1, Kind::Float))
        .sum_dim_intlist(1, false, Kind::Float)
        .mean(Kind::Float);
        let v = value_cross_entropy(&wdl, &batch.wdl);
        (p.double_value(&[]), v.double_value(&[]))
    })
}

/// Mean policy and value losses of `net` on `size` samples of `set` (no training), e.g. to
/// compare networks on held-out games.
pub fn evaluate_losses(net: &Network, set: &TrainingSet, size: usize, seed: u64) -> (f64, f64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let batch = set.batch_for(net.arch().kind, size, false, &mut rng);
    batch_losses(net, &batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Point, Rule};
    use crate::train::records::{GameRecord, GameResult, PositionRecord, ShardWriter};

    #[test]
    fn the_cosine_schedule_runs_from_lr_to_lr_final() {
        let mut config = TrainConfig {
            steps: 100,
            ..TrainConfig::default()
        };
        assert_eq!(learning_rate(&config, 50), config.optimizer.lr);
        config.lr_final = Some(1e-5);
        assert!((learning_rate(&config, 0) - 1e-3).abs() < 1e-12);
        assert!((learning_rate(&config, 50) - (1e-3 + 1e-5) / 2.0).abs() < 1e-12);
        assert!((learning_rate(&config, 100) - 1e-5).abs() < 1e-12);
        assert!(learning_rate(&config, 30) > learning_rate(&config, 31));
        config.lr_final = Some(-1.0);
        assert!(validate(&config).is_err());
    }

    #[test]
    fn checkpoint_paths_accept_any_spelling() {
        let dir = std::env::temp_dir().join(format!("hoshi-ckpt-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert!(latest_checkpoint(&dir).unwrap().is_none());
        let state = TrainState {
            step: 12,
            seed: 3,
            kind: ModelKind::Resnet,
            blocks: 1,
            channels: 8,
            optimizer: "adam".into(),
            lr: 1e-3,
            weight_decay: 0.0,
            momentum: 0.9,
            batch: 4,
            value_weight: 1.0,
            value_mix: 0.25,
            value_horizon: 0,
            policy_floor: 0.0,
            lr_final: Some(1e-5),
            ema: 0.0,
            mapping: 0,
            augment: true,
            data: "d".into(),
            init: None,
            games: 2,
            samples: 30,
            policy_loss: 1.5,
            value_loss: 0.7,
        };
        for step in [3u64, 12] {
            let s = TrainState {
                step,
                ..state.clone()
            };
            let stem = checkpoint_stem(&dir, step);
            std::fs::write(
                with_suffix(&stem, ".train.toml"),
                toml::to_string(&s).unwrap(),
            )
            .unwrap();
        }
        // An incomplete checkpoint (no training state) of a later step is ignored.
        std::fs::write(checkpoint_stem(&dir, 40).with_extension("safetensors"), b"").unwrap();
        let latest = latest_checkpoint(&dir).unwrap().unwrap();
        assert_eq!(latest.state, state);
        assert_eq!(latest.stem, dir.join("ckpt-00000012"));
        for spelling in [
            "",
            ".safetensors",
            ".toml",
            ".train.toml",
            ".optim.safetensors",
        ] {
            let p = with_suffix(&latest.stem, spelling);
            assert_eq!(read_checkpoint(&p).unwrap().stem, latest.stem, "{spelling}");
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn data_folders_parse_with_an_optional_weight() {
        let d = |t: &str| DataSource::parse(t).map(|s| (s.dir, s.weight));
        assert_eq!(d("gen0").unwrap(), (PathBuf::from("gen0"), 1));
        assert_eq!(d("data/gen1:3").unwrap(), (PathBuf::from("data/gen1"), 3));
        // A colon that is not followed by a number belongs to the path.
        assert_eq!(d("C:/data").unwrap(), (PathBuf::from("C:/data"), 1));
        assert!(d("gen1:0").is_err());
        assert!(d("gen1:5000").is_err());
        assert!(d("").is_err());
        assert_eq!(DataSource::parse("gen1:3").unwrap().to_string(), "gen1:3");
        assert_eq!(DataSource::parse("gen0").unwrap().to_string(), "gen0");
    }

    #[test]
    fn step_seeds_differ() {
        assert_ne!(step_seed(1, 0), step_seed(1, 1));
        assert_ne!(step_seed(1, 0), step_seed(2, 0));
    }

    /// A few games whose searched moves and results a net can memorise.
    fn memorable_games() -> Vec<GameRecord> {
        let (w, h) = (7, 7);
        (0..4u8)
            .map(|g| {
                let positions = (0..7u8)
                    .map(|i| {
                        let mv = Point::new((i + g) % 7, (i * 3 + g) % 7);
                        PositionRecord {
                            mv,
                            policy: if i == 0 { Vec::new() } else { vec![(mv, 1.0)] },
                            // The searches called every position a draw.
                            value: (i > 0).then_some([0.0, 1.0, 0.0]),
                        }
                    })
                    .collect();
                GameRecord {
                    rule: Rule::Freestyle,
                    width: w,
                    height: h,
                    result: if g % 2 == 0 {
                        GameResult::BlackWin
                    } else {
                        GameResult::WhiteWin
                    },
                    positions,
                }
            })
            .collect()
    }

    #[test]
    fn training_lowers_the_loss_on_its_own_data() {
        // One libtorch thread: on a busy machine more threads spin and run several times slower.
        tch::set_num_threads(1);
        let dir = std::env::temp_dir().join(format!("hoshi-train-fit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let data = dir.join("data");
        std::fs::create_dir_all(&data).unwrap();
        let games = memorable_games();
        let mut writer = ShardWriter::create_next(&data, "fit").unwrap();
        for g in &games {
            writer.append(g).unwrap();
        }
        let set = TrainingSet::new(games);
        let start = Network::random(Arch::new(1, 16), 4, Device::Cpu).unwrap();
        let before = evaluate_losses(&start, &set, 64, 9);
        for kind in [OptimizerKind::Adam, OptimizerKind::Sgd] {
            let config = |steps| TrainConfig {
                data: vec![DataSource {
                    dir: data.clone(),
                    weight: 1,
                }],
                out_dir: dir.join(kind.name()),
                steps,
                batch: 32,
                arch: Arch::new(1, 16),
                seed: 4,
                resume: true,
                optimizer: OptimizerSettings {
                    kind,
                    lr: if kind == OptimizerKind::Adam {
                        1e-2
                    } else {
                        2e-2
                    },
                    weight_decay: 1e-4,
                    momentum: 0.9,
                },
                checkpoint_every: 1000,
                log_every: 10,
                ..TrainConfig::default()
            };
            // Mean training losses over steps 1-10, then (resumed) over steps 51-60.
            let early = train(&config(10), &AtomicBool::new(false)).unwrap();
            let late = train(&config(60), &AtomicBool::new(false)).unwrap();
            assert_eq!((late.start_step, late.step), (10, 60));
            assert!(
                late.policy_loss < 0.7 * early.policy_loss && late.value_loss < early.value_loss,
                "{kind:?}: policy {:.3} -> {:.3}, value {:.3} -> {:.3}",
                early.policy_loss,
                late.policy_loss,
                early.value_loss,
                late.value_loss
            );
            if kind == OptimizerKind::Adam {
                // The inference net (batch-norm running statistics) learnt it too.
                let trained = Network::load(late.checkpoint.unwrap(), Device::Cpu).unwrap();
                let after = evaluate_losses(&trained, &set, 64, 9);
                // Once through every sample in order: the same kind of figure.
                let once = holdout_losses(&trained, &set, 5);
                assert!(once.0 < 0.7 * before.0 && once.1 < before.1, "{once:?}");
                assert!(
                    after.0 < 0.7 * before.0 && after.1 < before.1,
                    "inference: policy {:.3} -> {:.3}, value {:.3} -> {:.3}",
                    before.0,
                    after.0,
                    before.1,
                    after.1
                );
            }
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_value_mix_pulls_the_value_towards_the_search() {
        tch::set_num_threads(1);
        let dir = std::env::temp_dir().join(format!("hoshi-train-mix-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let data = dir.join("data");
        std::fs::create_dir_all(&data).unwrap();
        let games = memorable_games();
        let mut writer = ShardWriter::create_next(&data, "mix").unwrap();
        for g in &games {
            writer.append(g).unwrap();
        }
        // Every game was won, every search said draw: the mean draw probability after training
        // follows the value target.
        let draw_share = |mix: f64| {
            let config = TrainConfig {
                data: vec![DataSource {
                    dir: data.clone(),
                    weight: 1,
                }],
                out_dir: dir.join(format!("mix-{mix}")),
                steps: 40,
                batch: 32,
                arch: Arch::new(1, 16),
                seed: 4,
                optimizer: OptimizerSettings {
                    kind: OptimizerKind::Adam,
                    lr: 1e-2,
                    weight_decay: 0.0,
                    momentum: 0.9,
                },
                checkpoint_every: 1000,
                value_mix: mix,
                ..TrainConfig::default()
            };
            let report = train(&config, &AtomicBool::new(false)).unwrap();
            let state = read_checkpoint(report.checkpoint.as_ref().unwrap())
                .unwrap()
                .state;
            assert_eq!(state.value_mix, mix);
            let net = Network::load(report.checkpoint.unwrap(), Device::Cpu).unwrap();
            let set = TrainingSet::new(memorable_games());
            let batch = set.batch(64, false, &mut StdRng::seed_from_u64(1));
            tch::no_grad(|| {
                let (_, wdl) = net.forward_t(&batch.inputs, false);
                wdl.softmax(1, Kind::Float)
                    .select(1, 1)
                    .mean(Kind::Float)
                    .double_value(&[])
            })
        };
        let (result_only, mixed, search_only) = (draw_share(0.0), draw_share(0.5), draw_share(1.0));
        assert!(
            result_only < 0.2 && mixed > result_only + 0.2 && search_only > 0.8,
            "draw probability {result_only:.3} / {mixed:.3} / {search_only:.3}"
        );
        let bad = TrainConfig {
            value_mix: 1.5,
            ..TrainConfig::default()
        };
        assert!(validate(&bad).is_err());
        std::fs::remove_dir_all(dir).ok();
    }
}
