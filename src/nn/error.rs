//! The one error type of the `nn` room.
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum NnError {
    #[error("network file not found: {0}")]
    MissingFile(PathBuf),

    #[error("cannot read or write {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("bad network sidecar {path}: {message}")]
    Sidecar { path: PathBuf, message: String },

    #[error("network {path}: {what} is {found}, this build expects {expected}")]
    Mismatch {
        path: PathBuf,
        what: &'static str,
        expected: String,
        found: String,
    },

    #[error(
        "network weights {path} do not match the architecture: missing tensors [{}], unexpected tensors [{}]",
        missing.join(", "),
        extra.join(", ")
    )]
    TensorNames {
        path: PathBuf,
        missing: Vec<String>,
        extra: Vec<String>,
    },

    #[error("network weights {path}: tensor {name} has shape {found:?}, expected {expected:?}")]
    TensorShape {
        path: PathBuf,
        name: String,
        expected: Vec<i64>,
        found: Vec<i64>,
    },

    #[error("invalid network architecture: {0}")]
    InvalidArch(String),

    #[error("device: {0}")]
    Device(String),

    #[cfg(feature = "torch")]
    #[error("torch: {0}")]
    Torch(#[from] tch::TchError),

    /// A network was asked for, and this build has no libtorch (no `torch` feature).
    #[error("this build has no libtorch (built without the `torch` feature), so it cannot {0}")]
    NoTorch(&'static str),

    #[error("network evaluation failed: {0}")]
    EvaluationFailed(String),

    #[error("the evaluation service has stopped")]
    ServiceStopped,
}
