//! Network files and the [`Network`] handle.
//!
//! A network is two files side by side: `<name>.safetensors` (the weights, always f32) and
//! `<name>.toml`, a sidecar describing the architecture:
//!
//! ```toml
//! version = 1            # ARCH_VERSION of the model code
//! blocks = 6
//! channels = 64
//! input_planes = 16      # INPUT_PLANES
//! feature_version = 1    # FEATURE_VERSION
//! description = "free text"
//! ```
//!
//! Loading checks the sidecar against this build and the weights against the architecture
//! (every tensor present, none extra, shapes equal) and says precisely what is wrong.
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use tch::{nn::VarStore, Device, Kind, Tensor};

use super::error::NnError;
use super::features::{FEATURE_VERSION, INPUT_PLANES};
use super::grid::splitmix64;
use super::meta::{network_paths, ModelKind, NetworkMeta};
use super::model::{Arch, FusedConvs, PolicyValueNet, ARCH_VERSION};
use super::pattern;
use super::pattern_mapping::MAPPING_PREFIX;
use super::pattern_model::PatternModel;

impl NetworkMeta {
    pub fn for_arch(arch: Arch, description: &str) -> NetworkMeta {
        let (version, input_planes, feature_version) = match arch.kind {
            ModelKind::Resnet => (ARCH_VERSION, INPUT_PLANES, FEATURE_VERSION),
            ModelKind::Pattern => (
                pattern::PATTERN_VERSION,
                pattern::input_planes(pattern::PATTERN_VERSION),
                pattern::PATTERN_FEATURE_VERSION,
            ),
        };
        NetworkMeta {
            kind: arch.kind,
            version,
            blocks: arch.blocks,
            channels: arch.channels,
            input_planes,
            feature_version,
            value_max: false,
            description: description.to_string(),
        }
    }

    pub fn arch(&self) -> Arch {
        Arch {
            kind: self.kind,
            blocks: self.blocks,
            channels: self.channels,
        }
    }

    /// Checks that this build can run the network the sidecar describes.
    fn check(&self, path: &Path) -> Result<(), NnError> {
        let expected = NetworkMeta::for_arch(self.arch(), "");
        // Pattern nets of every formula version up to this build's still load.
        let older_pattern =
            self.kind == ModelKind::Pattern && (1..expected.version).contains(&self.version);
        if !older_pattern {
            self.expect(path, "architecture version", expected.version, self.version)?;
        }
        let input_planes = match self.kind {
            ModelKind::Pattern => pattern::input_planes(self.version),
            ModelKind::Resnet => expected.input_planes,
        };
        self.expect(path, "input_planes", input_planes, self.input_planes)?;
        self.expect(
            path,
            "feature_version",
            expected.feature_version,
            self.feature_version,
        )?;
        self.arch().validate()
    }
}

/// The modules of either kind of net.
#[derive(Debug)]
enum Model {
    Resnet(Box<PolicyValueNet>),
    Pattern(Box<PatternModel>),
}

/// A policy-value network ready to run: var store, modules and where they live.
#[derive(Debug)]
pub struct Network {
    vs: VarStore,
    model: Model,
    meta: NetworkMeta,
    half: bool,
    /// Training only: a pattern net's codebook mapping, its hidden units a layer
    /// (`nn::pattern_mapping`). Not in the sidecar: a saved net holds the codebook it computes.
    mapping: Option<usize>,
    /// Batch norms folded into the convolutions for [`Network::infer`]; dropped whenever the
    /// weights may change (a training forward pass, `var_store_mut`, a precision change).
    fused: RefCell<Option<FusedConvs>>,
}

/// Scale of a widened pattern net's new codebook features against a fresh net's.
const NEW_FEATURE_SCALE: f64 = 0.1;

impl Network {
    /// Builds the modules on the CPU in f32 (so that random weights do not depend on the device).
    fn build(meta: NetworkMeta) -> Result<Network, NnError> {
        Network::build_with(meta, None)
    }

    fn build_with(meta: NetworkMeta, mapping: Option<usize>) -> Result<Network, NnError> {
        let arch = meta.arch();
        arch.validate()?;
        let vs = VarStore::new(Device::Cpu);
        let model = match arch.kind {
            ModelKind::Resnet => Model::Resnet(Box::new(PolicyValueNet::new(&vs.root(), arch))),
            ModelKind::Pattern => Model::Pattern(Box::new(PatternModel::new(
                &vs.root(),
                arch.channels,
                pattern::has_policy_context(meta.version),
                pattern::has_threat_rows(meta.version),
                meta.value_max,
                mapping,
            ))),
        };
        Ok(Network {
            vs,
            model,
            meta,
            half: false,
            mapping,
            fused: RefCell::new(None),
        })
    }

    /// This pattern net trained through a codebook mapping of `width` hidden units a layer
    /// (`nn::pattern_mapping`): its codebook becomes the mapping's table, or starts at zero with
    /// `fresh_table` (the rows then are the mapping's alone, as a net from scratch wants them).
    /// The mapping's output starts at zero ([`Network::copied_into`]), its hidden layers random
    /// from `seed`. The copy lives on the CPU in f32.
    pub fn with_mapping(
        &self,
        width: usize,
        fresh_table: bool,
        seed: i64,
    ) -> Result<Network, NnError> {
        if self.meta.kind != ModelKind::Pattern || width == 0 {
            return Err(NnError::InvalidArch(format!(
                "no codebook mapping of {width} units for a {} net",
                self.meta.kind.name()
            )));
        }
        let net = self.copied_into(Network::build_with(self.meta.clone(), Some(width))?)?;
        let vars: BTreeMap<String, Tensor> = net.vs.variables().into_iter().collect();
        let hidden: BTreeMap<String, Tensor> = vars
            .iter()
            .filter(|(name, _)| name.starts_with(MAPPING_PREFIX) && name.contains("hidden"))
            .map(|(name, var)| (name.clone(), var.shallow_clone()))
            .collect();
        randomise(&hidden, seed)?;
        if fresh_table {
            let mut table = vars["codebook.weight"].shallow_clone();
            let _ = tch::no_grad(|| table.f_zero_())?;
        }
        Ok(net)
    }

    /// Whether this net trains through a codebook mapping.
    pub fn has_mapping(&self) -> bool {
        self.mapping.is_some()
    }

    /// The training-only file beside a saved net with a codebook mapping: the mapping's weights
    /// and its table (`<name>.mapping.safetensors`).
    pub fn mapping_path(path: &Path) -> std::path::PathBuf {
        let (weights, _) = network_paths(path);
        weights.with_extension("mapping.safetensors")
    }

    /// Reads the mapping's weights and table saved beside `path` into this net (which has a
    /// mapping); `false` when there is no such file.
    pub fn load_mapping(&self, path: &Path) -> Result<bool, NnError> {
        let file = Network::mapping_path(path);
        if !self.has_mapping() || !file.is_file() {
            return Ok(false);
        }
        let saved: BTreeMap<String, Tensor> =
            Tensor::read_safetensors(&file)?.into_iter().collect();
        let vars: BTreeMap<String, Tensor> = self
            .vs
            .variables()
            .into_iter()
            .filter(|(name, _)| is_mapping_state(name))
            .collect();
        copy_checked(&file, &saved, &vars)?;
        Ok(true)
    }

    /// This pattern net as formula `version`: the tensors both versions have are copied, the
    /// ones only the new version has start at zero (so the net computes what it did, and
    /// training then learns them). The copy lives on the CPU in f32.
    pub fn with_pattern_version(&self, version: u32) -> Result<Network, NnError> {
        let mut meta = self.meta.clone();
        if meta.kind != ModelKind::Pattern || !(1..=pattern::PATTERN_VERSION).contains(&version) {
            return Err(NnError::InvalidArch(format!(
                "no pattern formula version {version} for a {} net",
                meta.kind.name()
            )));
        }
        meta.version = version;
        meta.input_planes = pattern::input_planes(version);
        self.copied_into(Network::build(meta)?)
    }

    /// This pattern net with the value's board maximum (`value_max`), its weights at zero so
    /// that the net computes what it did. The copy lives on the CPU in f32.
    pub fn with_value_max(&self) -> Result<Network, NnError> {
        let mut meta = self.meta.clone();
        if meta.kind != ModelKind::Pattern {
            return Err(NnError::InvalidArch(format!(
                "no value maximum for a {} net",
                meta.kind.name()
            )));
        }
        meta.value_max = true;
        self.copied_into(Network::build(meta)?)
    }

    /// This pattern net with `channels` features per cell (no fewer than it has): its own
    /// weights fill the first features; the new features' codebook rows start small and random
    /// and every weight that reads them starts at zero, so the net computes what it did and
    /// training grows the new features from there. The copy lives on the CPU in f32.
    pub fn widened(&self, channels: usize) -> Result<Network, NnError> {
        let mut meta = self.meta.clone();
        if meta.kind != ModelKind::Pattern || channels < meta.channels {
            return Err(NnError::InvalidArch(format!(
                "cannot widen a {} net of {} channels to {channels}",
                meta.kind.name(),
                meta.channels
            )));
        }
        meta.channels = channels;
        self.copied_into(Network::build(meta)?)
    }

    /// `net` (freshly built) with this net's weights: each tensor goes to the start of every
    /// axis of its namesake; the rest of `net` starts at zero, except the codebook's new
    /// features, which keep a tenth of their random start so that training can grow them.
    fn copied_into(&self, net: Network) -> Result<Network, NnError> {
        let ours: BTreeMap<String, Tensor> = self.vs.variables().into_iter().collect();
        for (name, var) in net.vs.variables() {
            let mut dst = var.shallow_clone();
            tch::no_grad(|| -> Result<(), tch::TchError> {
                if name.starts_with("codebook") {
                    let _ = dst.f_mul_scalar_(NEW_FEATURE_SCALE)?;
                } else {
                    let _ = dst.f_zero_()?;
                }
                let Some(src) = ours.get(&name) else {
                    return Ok(());
                };
                let src = src.to_kind(Kind::Float).to_device(Device::Cpu);
                let mut block = dst.shallow_clone();
                for (axis, &len) in src.size().iter().enumerate() {
                    block = block.f_narrow(axis as i64, 0, len)?;
                }
                block.f_copy_(&src)
            })?;
        }
        Ok(net)
    }

    /// Moves the weights to `device`; on CUDA they are also turned to half precision.
    fn place(mut self, device: Device) -> Network {
        if device != Device::Cpu {
            self.vs.set_device(device);
        }
        if device.is_cuda() {
            self.set_half(true);
        }
        self.prepare_inference();
        self
    }

    /// Folds the batch norms into the convolutions for [`Network::infer`] (done on load; do it
    /// again after training if the network will then mostly run inference).
    pub fn prepare_inference(&self) {
        if let Model::Resnet(model) = &self.model {
            *self.fused.borrow_mut() = Some(model.fuse());
        }
    }

    /// A freshly initialised network, a function of `(arch, seed)` only: the weights come from
    /// our own seeded generator, not libtorch's global one (which other threads may be using).
    /// Convolution and linear weights: He-uniform (bound sqrt(6 / fan_in)); their biases: 0;
    /// batch norm: weight 1, bias 0, running mean 0, running variance 1.
    pub fn random(arch: Arch, seed: i64, device: Device) -> Result<Network, NnError> {
        let net = Network::build(NetworkMeta::for_arch(arch, "random initialisation"))?;
        let vars: BTreeMap<String, Tensor> = net.vs.variables().into_iter().collect();
        randomise(&vars, seed)?;
        Ok(net.place(device))
    }

    /// An independent copy: the same description and weights, on the same device.
    pub fn duplicate(&self) -> Result<Network, NnError> {
        let mut copy = Network::build_with(self.meta.clone(), self.mapping)?.place(self.device());
        if self.half {
            copy.set_half(true);
        }
        copy.vs.copy(&self.vs)?;
        copy.prepare_inference();
        Ok(copy)
    }

    /// Loads a network (path with or without `.safetensors`; the sidecar sits beside it).
    pub fn load(path: impl AsRef<Path>, device: Device) -> Result<Network, NnError> {
        let (weights, sidecar) = network_paths(path.as_ref());
        for p in [&weights, &sidecar] {
            if !p.is_file() {
                return Err(NnError::MissingFile(p.clone()));
            }
        }
        let text = std::fs::read_to_string(&sidecar).map_err(|source| NnError::Io {
            path: sidecar.clone(),
            source,
        })?;
        let meta: NetworkMeta = toml::from_str(&text).map_err(|e| NnError::Sidecar {
            path: sidecar.clone(),
            message: e.to_string(),
        })?;
        meta.check(&sidecar)?;
        let net = Network::build(meta)?;
        net.load_weights(&weights)?;
        Ok(net.place(device))
    }

    /// Copies the weights from a safetensors file into the (CPU, f32) var store, after checking
    /// that the names and shapes match exactly.
    fn load_weights(&self, path: &Path) -> Result<(), NnError> {
        let file: BTreeMap<String, Tensor> = Tensor::read_safetensors(path)?.into_iter().collect();
        let vars: BTreeMap<String, Tensor> = self.vs.variables().into_iter().collect();
        copy_checked(path, &file, &vars)
    }

    /// Writes `<name>.safetensors` (f32, whatever the run-time precision) and `<name>.toml`.
    /// A net with a codebook mapping saves the codebook it computes, an ordinary network, and
    /// the mapping beside it for training to go on ([`Network::mapping_path`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), NnError> {
        let (weights, sidecar) = network_paths(path.as_ref());
        let mut vars: BTreeMap<String, Tensor> = self
            .vs
            .variables()
            .into_iter()
            .map(|(k, v)| (k, v.to_kind(Kind::Float).to_device(Device::Cpu)))
            .collect();
        if let (Some(_), Model::Pattern(model)) = (self.mapping, &self.model) {
            let state: Vec<(&str, &Tensor)> = vars
                .iter()
                .filter(|(k, _)| is_mapping_state(k))
                .map(|(k, v)| (k.as_str(), v))
                .collect();
            Tensor::write_safetensors(&state, Network::mapping_path(path.as_ref()))?;
            let codebook = tch::no_grad(|| model.codebook())
                .to_kind(Kind::Float)
                .to_device(Device::Cpu);
            vars.retain(|k, _| !k.starts_with(MAPPING_PREFIX));
            vars.insert("codebook.weight".to_string(), codebook);
        }
        let named: Vec<(&str, &Tensor)> = vars.iter().map(|(k, v)| (k.as_str(), v)).collect();
        Tensor::write_safetensors(&named, &weights)?;
        let text = toml::to_string(&self.meta).map_err(|e| NnError::Sidecar {
            path: sidecar.clone(),
            message: e.to_string(),
        })?;
        std::fs::write(&sidecar, text).map_err(|source| NnError::Io {
            path: sidecar,
            source,
        })
    }

    /// Runs the model. Casts `xs` to the weights' device and precision; outputs are in that
    /// precision too. Wrap in `tch::no_grad` for inference (see [`Network::infer`]).
    pub fn forward_t(&self, xs: &Tensor, train: bool) -> (Tensor, Tensor) {
        if train {
            // The weights are about to change.
            self.fused.borrow_mut().take();
        }
        let xs = xs.to_device(self.device());
        match &self.model {
            Model::Resnet(model) => model.forward_t(&xs.to_kind(self.kind()), train),
            // The pattern net's inputs are codebook rows and flags: integers, not planes.
            Model::Pattern(model) => model.forward(&xs.to_kind(Kind::Int64)),
        }
    }

    /// Inference: no gradients, eval-mode batch norm; returns f32 CPU tensors
    /// `(policy probabilities [B, H*W], wdl probabilities [B, 3])`.
    pub fn infer(&self, xs: &Tensor) -> (Tensor, Tensor) {
        tch::no_grad(|| {
            let (p, v) = match (&self.model, self.fused.borrow().as_ref()) {
                (Model::Resnet(model), Some(fused)) => {
                    let xs = xs.to_device(self.device()).to_kind(self.kind());
                    model.forward_fused(&xs, fused)
                }
                _ => self.forward_t(xs, false),
            };
            let p = p
                .to_kind(Kind::Float)
                .softmax(1, Kind::Float)
                .to_device(Device::Cpu);
            let v = v
                .to_kind(Kind::Float)
                .softmax(1, Kind::Float)
                .to_device(Device::Cpu);
            (p.contiguous(), v.contiguous())
        })
    }

    /// Switches the weights between f16 and f32 (the trainer wants f32 on CUDA).
    pub fn set_half(&mut self, half: bool) {
        if half {
            self.vs.half();
        } else {
            self.vs.float();
        }
        self.half = half;
        if self.fused.borrow().is_some() {
            self.prepare_inference();
        }
    }

    pub fn is_half(&self) -> bool {
        self.half
    }

    pub fn kind(&self) -> Kind {
        if self.half {
            Kind::Half
        } else {
            Kind::Float
        }
    }

    pub fn device(&self) -> Device {
        self.vs.device()
    }

    pub fn arch(&self) -> Arch {
        self.meta.arch()
    }

    pub fn meta(&self) -> &NetworkMeta {
        &self.meta
    }

    pub fn set_description(&mut self, description: &str) {
        self.meta.description = description.to_string();
    }

    /// The var store (the trainer builds its optimizer on it).
    pub fn var_store(&self) -> &VarStore {
        &self.vs
    }

    /// Mutable access to the weights; drops the folded inference copy.
    pub fn var_store_mut(&mut self) -> &mut VarStore {
        self.fused.borrow_mut().take();
        &mut self.vs
    }
}

/// Copies each tensor of `file` (read from `path`) into its namesake of `vars`, after checking
/// that the names and shapes match exactly.
fn copy_checked(
    path: &Path,
    file: &BTreeMap<String, Tensor>,
    vars: &BTreeMap<String, Tensor>,
) -> Result<(), NnError> {
    let have: BTreeSet<&String> = file.keys().collect();
    let want: BTreeSet<&String> = vars.keys().collect();
    if have != want {
        return Err(NnError::TensorNames {
            path: path.to_path_buf(),
            missing: want.difference(&have).map(|s| s.to_string()).collect(),
            extra: have.difference(&want).map(|s| s.to_string()).collect(),
        });
    }
    for (name, var) in vars {
        let src = &file[name];
        if src.size() != var.size() {
            return Err(NnError::TensorShape {
                path: path.to_path_buf(),
                name: name.clone(),
                expected: var.size(),
                found: src.size(),
            });
        }
        let mut dst = var.shallow_clone();
        tch::no_grad(|| dst.f_copy_(&src.to_kind(Kind::Float)))?;
    }
    Ok(())
}

/// Fills `vars` from our own seeded generator (see [`Network::random`]).
fn randomise(vars: &BTreeMap<String, Tensor>, seed: i64) -> Result<(), NnError> {
    let mut state = seed as u64 ^ 0x5EED_0F4E_70AA;
    for (name, var) in vars {
        let size = var.size();
        let count = size.iter().product::<i64>() as usize;
        let values: Vec<f32> = if size.len() >= 2 {
            let fan_in = size[1..].iter().product::<i64>().max(1) as f64;
            let bound = (6.0 / fan_in).sqrt();
            (0..count)
                .map(|_| {
                    let unit = (splitmix64(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
                    ((2.0 * unit - 1.0) * bound) as f32
                })
                .collect()
        } else {
            // Only batch norm has 1-D "weight"s; "running_var" starts at 1 too.
            let one = name.ends_with(".weight") || name.ends_with("running_var");
            vec![if one { 1.0 } else { 0.0 }; count]
        };
        let mut dst = var.shallow_clone();
        tch::no_grad(|| dst.f_copy_(&Tensor::from_slice(&values).view(size.as_slice())))?;
    }
    Ok(())
}

/// The tensors of a mapping's training-only file: its weights and the table under it.
fn is_mapping_state(name: &str) -> bool {
    name.starts_with(MAPPING_PREFIX) || name == "codebook.weight"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use crate::nn::grid::splitmix64;
    use crate::nn::{encode_into, features::encoded_len, GridPosition, Symmetry};
    use std::path::PathBuf;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hoshi-nn-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn sample_input() -> Tensor {
        let mut pos = GridPosition::new(9, 9, Rule::Standard);
        pos.scatter(12, 7);
        let mut buf = vec![0.0; encoded_len(9, 9)];
        encode_into(&pos, Symmetry::IDENTITY, 9, 9, &mut buf);
        Tensor::from_slice(&buf).view([1, 16, 9, 9])
    }

    fn max_diff(a: &Tensor, b: &Tensor) -> f64 {
        (a - b).abs().max().double_value(&[])
    }

    #[test]
    fn paths_accept_any_spelling() {
        let (w, s) = network_paths(Path::new("nets/a.safetensors"));
        assert_eq!(
            (w.to_str().unwrap(), s.to_str().unwrap()),
            ("nets/a.safetensors", "nets/a.toml")
        );
        assert_eq!(
            network_paths(Path::new("nets/a.toml")),
            (w.clone(), s.clone())
        );
        assert_eq!(network_paths(Path::new("nets/a")), (w, s));
        let (w, _) = network_paths(Path::new("nets/v1.2"));
        assert_eq!(w, PathBuf::from("nets/v1.2.safetensors"));
    }

    #[test]
    fn save_load_round_trip_gives_identical_outputs() {
        let dir = temp_dir("roundtrip");
        let net = Network::random(Arch::new(2, 16), 11, Device::Cpu).unwrap();
        net.save(dir.join("net")).unwrap();
        let loaded = Network::load(dir.join("net.safetensors"), Device::Cpu).unwrap();
        assert_eq!(loaded.arch(), Arch::new(2, 16));
        let xs = sample_input();
        let (p1, v1) = net.infer(&xs);
        let (p2, v2) = loaded.infer(&xs);
        assert_eq!(max_diff(&p1, &p2), 0.0);
        assert_eq!(max_diff(&v1, &v2), 0.0);
        // A differently seeded network really differs (the comparison above means something).
        let other = Network::random(Arch::new(2, 16), 12, Device::Cpu).unwrap();
        assert!(max_diff(&p1, &other.infer(&xs).0) > 0.0);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn folded_batch_norms_give_the_same_answers() {
        let mut net = Network::random(Arch::new(2, 16), 4, Device::Cpu).unwrap();
        assert!(
            net.fused.borrow().is_some(),
            "inference is prepared on creation"
        );
        // Give every batch norm non-trivial parameters and running statistics.
        let mut state = 99u64;
        for (name, var) in net.var_store_mut().variables() {
            if var.dim() == 1 {
                let values: Vec<f32> = (0..var.size()[0])
                    .map(|_| 0.5 + (splitmix64(&mut state) % 1000) as f32 / 1000.0)
                    .collect();
                let shift = if name.ends_with("bias") || name.ends_with("mean") {
                    -1.0
                } else {
                    0.0
                };
                let mut v = var.shallow_clone();
                tch::no_grad(|| v.copy_(&(Tensor::from_slice(&values) + shift)));
            }
        }
        assert!(
            net.fused.borrow().is_none(),
            "var_store_mut drops the folded copy"
        );
        let xs = Tensor::cat(&[sample_input(), sample_input().flip([3])], 0);
        let (p_ref, v_ref) = net.infer(&xs);
        net.prepare_inference();
        let (p, v) = net.infer(&xs);
        assert!(
            max_diff(&p, &p_ref) < 1e-5,
            "policy {}",
            max_diff(&p, &p_ref)
        );
        assert!(max_diff(&v, &v_ref) < 1e-5, "wdl {}", max_diff(&v, &v_ref));
        // A training pass changes the weights: the folded copy is dropped.
        let _ = net.forward_t(&xs, true);
        assert!(net.fused.borrow().is_none());
    }

    #[test]
    fn random_weights_depend_only_on_the_seed() {
        let xs = sample_input();
        let a = Network::random(Arch::new(1, 8), 77, Device::Cpu).unwrap();
        // Using libtorch's global generator in between must not matter.
        let _ = Tensor::randn([100], (Kind::Float, Device::Cpu));
        let b = Network::random(Arch::new(1, 8), 77, Device::Cpu).unwrap();
        assert_eq!(max_diff(&a.infer(&xs).0, &b.infer(&xs).0), 0.0);
        assert_eq!(max_diff(&a.infer(&xs).1, &b.infer(&xs).1), 0.0);
    }

    #[test]
    fn mismatched_sidecar_is_an_error() {
        let dir = temp_dir("mismatch");
        let net = Network::random(Arch::new(1, 8), 3, Device::Cpu).unwrap();
        net.save(dir.join("net")).unwrap();
        let sidecar = dir.join("net.toml");
        let good = std::fs::read_to_string(&sidecar).unwrap();

        // Wrong shape of tower: the weights file lacks block 1 and has the wrong widths.
        std::fs::write(&sidecar, good.replace("blocks = 1", "blocks = 2")).unwrap();
        let err = Network::load(dir.join("net"), Device::Cpu).unwrap_err();
        assert!(
            matches!(&err, NnError::TensorNames { missing, extra, .. }
            if missing.iter().any(|m| m.starts_with("blocks.1.")) && extra.is_empty()),
            "{err}"
        );

        std::fs::write(&sidecar, good.replace("channels = 8", "channels = 16")).unwrap();
        let err = Network::load(dir.join("net"), Device::Cpu).unwrap_err();
        assert!(matches!(err, NnError::TensorShape { .. }), "{err}");

        std::fs::write(&sidecar, good.replace("blocks = 1", "blocks = 0")).unwrap();
        let err = Network::load(dir.join("net"), Device::Cpu).unwrap_err();
        assert!(
            matches!(&err, NnError::TensorNames { missing, extra, .. }
            if missing.is_empty() && extra.iter().any(|m| m.starts_with("blocks.0."))),
            "{err}"
        );

        std::fs::write(
            &sidecar,
            good.replace("feature_version = 1", "feature_version = 99"),
        )
        .unwrap();
        let err = Network::load(dir.join("net"), Device::Cpu).unwrap_err();
        assert!(err.to_string().contains("feature_version is 99"), "{err}");

        std::fs::write(
            &sidecar,
            good.replace("input_planes = 16", "input_planes = 12"),
        )
        .unwrap();
        assert!(matches!(
            Network::load(dir.join("net"), Device::Cpu),
            Err(NnError::Mismatch { .. })
        ));

        std::fs::write(&sidecar, "blocks = \"many\"").unwrap();
        assert!(matches!(
            Network::load(dir.join("net"), Device::Cpu),
            Err(NnError::Sidecar { .. })
        ));

        std::fs::remove_file(&sidecar).unwrap();
        let err = Network::load(dir.join("net"), Device::Cpu).unwrap_err();
        assert!(
            matches!(&err, NnError::MissingFile(p) if p == &sidecar),
            "{err}"
        );
        let err = Network::load(dir.join("absent"), Device::Cpu).unwrap_err();
        assert!(err.to_string().contains("not found"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }
}
