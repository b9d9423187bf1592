//! The policy-value network and everything around it.
//!
//! - [`features`]: the input planes shared by the trainer and the engine ([`FeatureSource`] is how
//!   a position is read, so this room does not depend on the board type).
//! - [`symmetry`]: the 8 (square) or 4 (rectangle) board symmetries.
//! - [`model`]: the residual convolutional net (`tch`), one net for every board size and shape.
//! - [`file`]: network files (safetensors weights + TOML sidecar) and the [`Network`] handle.
//! - [`device`]: `cpu` / `cuda` / `cuda:N`, loading libtorch's CUDA library at run time.
//! - [`cache`]: a bounded evaluation cache keyed by position hash.
//! - [`service`]: the batching evaluator thread and the blocking [`EvalClient`] used by search threads.
//! - [`bench`]: throughput measurements for the `bench` subcommand.
//! - `board_source`: the engine's `Board` as a [`FeatureSource`].
pub mod bench;
mod board_source;
pub mod cache;
pub mod device;
mod error;
pub mod features;
pub mod file;
pub mod grid;
pub mod model;
pub mod service;
pub mod symmetry;

pub use cache::{CacheStats, EvalCache};
pub use device::{open_device, parse_device, DeviceSpec};
pub use error::NnError;
pub use features::{encode_into, FeatureSource, PointThreats, FEATURE_VERSION, INPUT_PLANES};
pub use file::{Network, NetworkMeta};
pub use grid::GridPosition;
pub use model::{Arch, PolicyValueNet, ARCH_VERSION};
pub use service::{EvalClient, EvalService, Evaluation, ServiceConfig, ServiceStats};
pub use symmetry::Symmetry;
