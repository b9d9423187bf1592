//! `promote`: copies a training checkpoint's network into the networks folder and prints the
//! lines to add to `networks/README.md`. Needs the `torch` feature.
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::train::TrainError;
#[cfg(feature = "torch")]
use {
    crate::nn::network_paths, crate::nn::Network, crate::train::trainer::read_checkpoint,
    tch::Device,
};

/// `promote`: copies a checkpoint's network into the networks folder.
#[derive(Args, Debug, Clone)]
pub struct PromoteArgs {
    /// The checkpoint (`<dir>/ckpt-<step>` or any of its files), or the moving average written
    /// with it (`<dir>/ema-<step>`, `train --ema`).
    pub checkpoint: PathBuf,
    /// The shipped network's name (file names `<name>.safetensors` and `<name>.toml`).
    pub name: String,
    #[arg(long, default_value = "networks")]
    pub networks: PathBuf,
}

/// Promotes the checkpoint; the README lines go to `out`.
pub fn run(args: &PromoteArgs, out: &mut dyn Write) -> Result<(), TrainError> {
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
    // The moving average `ema-<step>` takes its training record from `ckpt-<step>` beside it.
    let (weights, _) = network_paths(checkpoint);
    let file = weights.file_name().unwrap_or_default().to_string_lossy();
    let averaged = file
        .strip_prefix("ema-")
        .and_then(|rest| rest.strip_suffix(".safetensors"))
        .map(|step| {
            (
                weights.with_file_name(format!("ckpt-{step}")),
                weights.clone(),
            )
        });
    let (ckpt, source) = match averaged {
        Some((record, average)) => (read_checkpoint(&record)?, average),
        None => {
            let ckpt = read_checkpoint(checkpoint)?;
            let stem = ckpt.stem.clone();
            (ckpt, stem)
        }
    };
    // Refuse a checkpoint whose network does not load in this build.
    let net = Network::load(&source, Device::Cpu)?;
    let (src_weights, src_sidecar) = network_paths(&source);
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
    let ema = if s.ema > 0.0 {
        format!(" --ema {}", s.ema)
    } else {
        String::new()
    };
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
         - architecture: {kind} net, {blocks} blocks x {channels} channels (architecture version {version}, \
           feature version {features}, {planes} input planes)\n\
         - training: step {step}, seed {seed}, {opt} lr {lr} weight decay {wd}, batch {batch}, \
           value weight {vw}; last losses: policy {pl:.4}, value {vl:.4}\n\
         - data: `{data}` ({games} games, {samples} positions): say which engine and settings \
           played them\n\
         - commands: `pbrain-hoshi train {data_args}--out {out}{init} --steps {step} --batch {batch} \
           --kind {kind} --blocks {blocks} --channels {channels} --seed {seed} --optimizer {opt} --lr {lr}{lr_final} \
           --weight-decay {wd} --momentum {mom} --value-weight {vw}{aug}{ema}`, then \
           `pbrain-hoshi promote {ckpt} {name}`\n\
         - match results: run `pbrain-hoshi match --a {weights} --b mcts --games 200 \
           --movetime 1000 --rule ... --size ...` (and `--b` the previous shipped network) and \
           paste the result lines here\n",
        weights = dst_weights.display(),
        sidecar = dst_sidecar.display(),
        kind = meta.kind.name(),
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
        ckpt = source.display(),
    ))
}
