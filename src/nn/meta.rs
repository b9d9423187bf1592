//! A network's sidecar (`<name>.toml`): which model the weights belong to and its shape. Plain
//! Rust, so a build without libtorch can still tell a pattern network (which it runs) from a
//! residual one (which it cannot).
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::NnError;

/// The weights and sidecar paths for a network path given with or without an extension
/// (`nets/a`, `nets/a.safetensors` and `nets/a.toml` all name the same network).
pub fn network_paths(path: &Path) -> (PathBuf, PathBuf) {
    let stem = match path.extension().and_then(|e| e.to_str()) {
        Some("safetensors") | Some("toml") => path.with_extension(""),
        _ => path.to_path_buf(),
    };
    let with = |ext: &str| {
        let mut s = stem.clone().into_os_string();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    };
    (with("safetensors"), with("toml"))
}

/// Which model a network file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// The residual convolutional net (`nn::model`), run by libtorch. Sidecars written before
    /// there was a `kind` are of this kind.
    #[default]
    Resnet,
    /// The pattern-codebook net (`nn::pattern`), run in plain Rust.
    Pattern,
}

impl ModelKind {
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Resnet => "resnet",
            ModelKind::Pattern => "pattern",
        }
    }

    fn is_resnet(&self) -> bool {
        *self == ModelKind::Resnet
    }
}

/// The sidecar's contents. For a pattern net `blocks` is 0 and `channels` is its feature width.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkMeta {
    /// Absent (and not written) for the residual net, so its sidecars read as before.
    #[serde(default, skip_serializing_if = "ModelKind::is_resnet")]
    pub kind: ModelKind,
    pub version: u32,
    pub blocks: usize,
    pub channels: usize,
    pub input_planes: usize,
    pub feature_version: u32,
    /// A pattern net whose value also reads the board's per-feature maximum (`value_max`).
    /// Absent (and not written) when false, so older sidecars read as before.
    #[serde(default, skip_serializing_if = "is_false")]
    pub value_max: bool,
    #[serde(default)]
    pub description: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl NetworkMeta {
    /// Reads the sidecar of the network `path` (with or without an extension).
    pub fn read(path: &Path) -> Result<NetworkMeta, NnError> {
        let (_, sidecar) = network_paths(path);
        if !sidecar.is_file() {
            return Err(NnError::MissingFile(sidecar));
        }
        let text = std::fs::read_to_string(&sidecar).map_err(|source| NnError::Io {
            path: sidecar.clone(),
            source,
        })?;
        toml::from_str(&text).map_err(|e| NnError::Sidecar {
            path: sidecar,
            message: e.to_string(),
        })
    }

    /// An error naming what differs between the sidecar and this build.
    pub(crate) fn expect(
        &self,
        path: &Path,
        what: &'static str,
        expected: impl ToString,
        found: impl ToString,
    ) -> Result<(), NnError> {
        let (expected, found) = (expected.to_string(), found.to_string());
        if expected == found {
            return Ok(());
        }
        Err(NnError::Mismatch {
            path: path.to_path_buf(),
            what,
            expected,
            found,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sidecar_without_a_kind_is_a_resnet_and_is_written_back_without_one() {
        let text =
            "version = 1\nblocks = 4\nchannels = 32\ninput_planes = 16\nfeature_version = 1\n";
        let meta: NetworkMeta = toml::from_str(text).unwrap();
        assert_eq!(meta.kind, ModelKind::Resnet);
        assert!(!toml::to_string(&meta).unwrap().contains("kind"));
        let pattern = NetworkMeta {
            kind: ModelKind::Pattern,
            ..meta
        };
        let text = toml::to_string(&pattern).unwrap();
        assert!(text.contains("kind = \"pattern\""), "{text}");
        assert_eq!(toml::from_str::<NetworkMeta>(&text).unwrap(), pattern);
    }
}
