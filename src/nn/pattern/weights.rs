//! A pattern net's weights, read from its network file without libtorch.
//!
//! Tensor names and shapes (what `nn::pattern_model` trains and the `VarStore` saves):
//! `codebook.weight [ID_COUNT, dim]`, `variant.weight [VARIANT_COUNT, dim]`, `forbidden [dim]`,
//! `policy.weight [1, dim]`, `policy.bias [1]`, `value1.weight [VALUE_HIDDEN, dim]`,
//! `value1.bias [VALUE_HIDDEN]`, `value2.weight [3, VALUE_HIDDEN]`, `value2.bias [3]`, and in
//! formula version 2 `policy_context.weight [dim, VALUE_HIDDEN]`, in version 3
//! `threat.weight [THREAT_IDS, dim]`, and where the sidecar says `value_max = true`
//! `value_max.weight [VALUE_HIDDEN, dim]`.
use std::path::Path;

use safetensors::{Dtype, SafeTensors};

use super::codes::ID_COUNT;
use super::threats::THREAT_IDS;
use super::{
    has_policy_context, has_threat_rows, input_planes, MAX_DIM, PATTERN_FEATURE_VERSION,
    PATTERN_VERSION, VALUE_HIDDEN, VARIANT_COUNT,
};
use crate::nn::meta::{network_paths, ModelKind, NetworkMeta};
use crate::nn::NnError;

/// Everything the incremental evaluation needs, as flat row-major `f32`s.
#[derive(Clone, Debug)]
pub struct PatternWeights {
    pub meta: NetworkMeta,
    pub dim: usize,
    pub codebook: Vec<f32>,
    pub variant: Vec<f32>,
    pub forbidden: Vec<f32>,
    pub policy: Vec<f32>,
    pub policy_bias: f32,
    pub value1: Vec<f32>,
    pub value1_bias: Vec<f32>,
    pub value2: Vec<f32>,
    pub value2_bias: Vec<f32>,
    /// `[dim, VALUE_HIDDEN]`, row-major; empty for a version 1 net (no board context).
    pub policy_context: Vec<f32>,
    /// `[THREAT_IDS, dim]`, row-major; empty before version 3 (no threat rows).
    pub threat: Vec<f32>,
    /// `[VALUE_HIDDEN, dim]`, row-major: the value's weights on the board's per-feature
    /// maximum; empty for a net without it.
    pub value_max: Vec<f32>,
}

impl PatternWeights {
    /// Loads the network `path` (with or without an extension); it must be of kind `pattern`.
    pub fn load(path: &Path) -> Result<PatternWeights, NnError> {
        let meta = NetworkMeta::read(path)?;
        let (weights_path, sidecar) = network_paths(path);
        meta.expect(
            &sidecar,
            "kind",
            ModelKind::Pattern.name(),
            meta.kind.name(),
        )?;
        if !(1..=PATTERN_VERSION).contains(&meta.version) {
            meta.expect(&sidecar, "pattern version", PATTERN_VERSION, meta.version)?;
        }
        meta.expect(
            &sidecar,
            "input_planes",
            input_planes(meta.version),
            meta.input_planes,
        )?;
        meta.expect(
            &sidecar,
            "feature_version",
            PATTERN_FEATURE_VERSION,
            meta.feature_version,
        )?;
        let dim = meta.channels;
        if dim == 0 || dim > MAX_DIM || meta.blocks != 0 {
            return Err(NnError::InvalidArch(format!(
                "pattern net with {} blocks x {} channels",
                meta.blocks, meta.channels
            )));
        }
        if !weights_path.is_file() {
            return Err(NnError::MissingFile(weights_path));
        }
        let bytes = std::fs::read(&weights_path).map_err(|source| NnError::Io {
            path: weights_path.clone(),
            source,
        })?;
        let file = SafeTensors::deserialize(&bytes).map_err(|e| NnError::Sidecar {
            path: weights_path.clone(),
            message: format!("not a safetensors file: {e}"),
        })?;
        let context = has_policy_context(meta.version);
        let mut expected: Vec<(&str, Vec<usize>)> = vec![
            ("codebook.weight", vec![ID_COUNT, dim]),
            ("variant.weight", vec![VARIANT_COUNT, dim]),
            ("forbidden", vec![dim]),
            ("policy.weight", vec![1, dim]),
            ("policy.bias", vec![1]),
            ("value1.weight", vec![VALUE_HIDDEN, dim]),
            ("value1.bias", vec![VALUE_HIDDEN]),
            ("value2.weight", vec![3, VALUE_HIDDEN]),
            ("value2.bias", vec![3]),
        ];
        if context {
            expected.push(("policy_context.weight", vec![dim, VALUE_HIDDEN]));
        }
        let threat = has_threat_rows(meta.version);
        if threat {
            expected.push(("threat.weight", vec![THREAT_IDS, dim]));
        }
        let value_max = meta.value_max;
        if value_max {
            expected.push(("value_max.weight", vec![VALUE_HIDDEN, dim]));
        }
        let names: Vec<String> = file.names().into_iter().cloned().collect();
        let extra: Vec<String> = names
            .iter()
            .filter(|n| !expected.iter().any(|(e, _)| e == n))
            .cloned()
            .collect();
        let missing: Vec<String> = expected
            .iter()
            .filter(|(e, _)| !names.iter().any(|n| n == e))
            .map(|(e, _)| e.to_string())
            .collect();
        if !extra.is_empty() || !missing.is_empty() {
            return Err(NnError::TensorNames {
                path: weights_path,
                missing,
                extra,
            });
        }
        let read = |name: &str, shape: &[usize]| -> Result<Vec<f32>, NnError> {
            let view = file.tensor(name).map_err(|e| NnError::Sidecar {
                path: weights_path.clone(),
                message: format!("{name}: {e}"),
            })?;
            if view.dtype() != Dtype::F32 || view.shape() != shape {
                return Err(NnError::TensorShape {
                    path: weights_path.clone(),
                    name: format!("{name} ({:?})", view.dtype()),
                    expected: shape.iter().map(|&s| s as i64).collect(),
                    found: view.shape().iter().map(|&s| s as i64).collect(),
                });
            }
            Ok(view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        };
        let mut tensors = Vec::with_capacity(expected.len());
        for (name, shape) in &expected {
            tensors.push(read(name, shape)?);
        }
        let mut it = tensors.into_iter();
        let mut next = || it.next().expect("one tensor per name");
        Ok(PatternWeights {
            meta,
            dim,
            codebook: next(),
            variant: next(),
            forbidden: next(),
            policy: next(),
            policy_bias: next()[0],
            value1: next(),
            value1_bias: next(),
            value2: next(),
            value2_bias: next(),
            policy_context: if context { next() } else { Vec::new() },
            threat: if threat { next() } else { Vec::new() },
            value_max: if value_max { next() } else { Vec::new() },
        })
    }

    /// Weights drawn uniformly from [-1, 1] (tests and benchmarks without a trained net).
    pub fn random(dim: usize, seed: u64) -> PatternWeights {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut v = |n: usize| {
            (0..n)
                .map(|_| rng.gen_range(-1.0..1.0))
                .collect::<Vec<f32>>()
        };
        PatternWeights {
            meta: NetworkMeta {
                kind: ModelKind::Pattern,
                version: PATTERN_VERSION,
                blocks: 0,
                channels: dim,
                input_planes: input_planes(PATTERN_VERSION),
                feature_version: PATTERN_FEATURE_VERSION,
                value_max: false,
                description: format!("random weights, seed {seed}"),
            },
            dim,
            codebook: v(ID_COUNT * dim),
            variant: v(VARIANT_COUNT * dim),
            forbidden: v(dim),
            policy: v(dim),
            policy_bias: 0.3,
            value1: v(VALUE_HIDDEN * dim),
            value1_bias: v(VALUE_HIDDEN),
            value2: v(3 * VALUE_HIDDEN),
            value2_bias: v(3),
            policy_context: v(dim * VALUE_HIDDEN),
            threat: v(THREAT_IDS * dim),
            value_max: Vec::new(),
        }
    }

    /// Heap bytes of the weights.
    pub fn memory_bytes(&self) -> u64 {
        let tables = self.codebook.len() + self.variant.len() + self.value1.len();
        let extras = self.policy_context.len() + self.threat.len() + self.value_max.len();
        4 * (tables + extras + 4 * self.dim) as u64
    }

    #[inline]
    pub(crate) fn codebook_row(&self, id: usize) -> &[f32] {
        &self.codebook[id * self.dim..(id + 1) * self.dim]
    }

    /// The threat row `id`, or `None` for a net without threat rows.
    #[inline]
    pub(crate) fn threat_row(&self, id: usize) -> Option<&[f32]> {
        self.threat.get(id * self.dim..(id + 1) * self.dim)
    }

    #[inline]
    pub(crate) fn variant_row(&self, variant: usize) -> &[f32] {
        &self.variant[variant * self.dim..(variant + 1) * self.dim]
    }
}
