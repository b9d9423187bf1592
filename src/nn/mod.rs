//! The policy-value network and everything around it.
//!
//! Everything that touches `tch` (model, file, service, bench, opening a device) needs the
//! `torch` feature; the features, symmetries, grid positions, cache and device names are plain
//! Rust and always built.
//!
//! - [`features`]: the input planes shared by the trainer and the engine ([`FeatureSource`] is how
//!   a position is read, so this room does not depend on the board type).
//! - [`symmetry`]: the 8 (square) or 4 (rectangle) board symmetries.
//! - [`model`]: the residual convolutional net (`tch`), one net for every board size and shape.
//! - [`pattern`]: the pattern-codebook net, run incrementally in plain Rust at every leaf of a
//!   CPU search; [`pattern_model`] trains it in `tch`.
//! - [`meta`]: network sidecars and which kind of net a file holds.
//! - [`file`](mod@file): network files (safetensors weights + TOML sidecar) and the [`Network`] handle.
//! - [`device`]: `cpu` / `cuda` / `cuda:N`, loading libtorch's CUDA library at run time.
//! - [`cache`]: a bounded evaluation cache keyed by position hash.
//! - [`service`]: the batching evaluator thread and the blocking [`EvalClient`] used by search threads.
//! - [`throughput`]: throughput measurements for the `bench` subcommand.
//! - `board_source`: the engine's `Board` as a [`FeatureSource`].
//!
//! ```no_run
//! # #[cfg(feature = "torch")] {
//! use hoshi::game::Rule;
//! use hoshi::nn::{parse_device, EvalService, GridPosition, Network, ServiceConfig};
//!
//! let device = parse_device("cpu")?;
//! let network = Network::load("networks/main.safetensors", device)?;
//! let service = EvalService::start(network, ServiceConfig::default())?;
//! let mut client = service.client(); // one per search thread
//! let position = GridPosition::new(15, 15, Rule::Renju); // the engine passes its board
//! let eval = client.evaluate(&position)?;
//! println!("value {:.3}, prior of 7,7: {:.3}", eval.value(), eval.policy[7 * 15 + 7]);
//! # }
//! # Ok::<(), hoshi::nn::NnError>(())
//! ```
mod board_source;
pub mod cache;
pub mod device;
mod error;
pub mod features;
#[cfg(feature = "torch")]
pub mod file;
pub mod grid;
pub mod meta;
#[cfg(feature = "torch")]
pub mod model;
pub mod pattern;
#[cfg(feature = "torch")]
pub mod pattern_mapping;
#[cfg(feature = "torch")]
pub mod pattern_model;
#[cfg(feature = "torch")]
pub mod service;
pub mod symmetry;
#[cfg(feature = "torch")]
pub mod throughput;

pub use cache::{CacheStats, EvalCache};
pub use device::DeviceSpec;
#[cfg(feature = "torch")]
pub use device::{open_device, parse_device};
pub use error::NnError;
pub use features::{encode_into, FeatureSource, PointThreats, FEATURE_VERSION, INPUT_PLANES};
#[cfg(feature = "torch")]
pub use file::Network;
pub use grid::GridPosition;
pub use meta::{network_paths, ModelKind, NetworkMeta};
#[cfg(feature = "torch")]
pub use model::{Arch, PolicyValueNet, ARCH_VERSION};
pub use pattern::{PatternState, PatternWeights};
#[cfg(feature = "torch")]
pub use service::{EvalClient, EvalService, Evaluation, ServiceConfig, ServiceStats};
pub use symmetry::Symmetry;

/// Whether this build has libtorch (the `torch` feature): without it no network can be loaded.
pub const HAS_TORCH: bool = cfg!(feature = "torch");
