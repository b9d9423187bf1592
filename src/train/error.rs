//! The one error type of the `train` room.
use std::path::PathBuf;

use crate::game::GameError;
use crate::nn::NnError;

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("cannot read or write {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A shard whose header or a checksummed record is not what this build writes.
    #[error("bad shard {path}: {message}")]
    BadShard { path: PathBuf, message: String },

    #[error(transparent)]
    Nn(#[from] NnError),

    #[error("game: {0}")]
    Game(#[from] GameError),

    #[cfg(feature = "torch")]
    #[error("tensor: {0}")]
    Tensor(#[from] tch::TchError),

    /// A thinker answered something the rules do not allow.
    #[error("{thinker} played {what}")]
    BadMove { thinker: String, what: String },

    /// A bad setting or argument, or a checkpoint that does not match the request.
    #[error("{0}")]
    Config(String),
}

impl TrainError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> TrainError {
        let path = path.into();
        move |source| TrainError::Io { path, source }
    }
}
