//! The training pipeline: self-play, the game-record format, the trainer and the arena.
//!
//! - [`records`]: the append-only shard format for self-play games (one file per worker).
//! - [`selfplay`]: a worker playing games against itself with any [`crate::search::Thinker`].
//! - [`random_openings`]: random balanced openings for self-play and matches.
//! - [`game_play`]: one game between thinkers, recorded with the search's move distribution.
//! - [`policy_player`]: a one-ply "policy argmax" thinker over a network.
//! - [`brain_player`]: an external Gomocup brain as a thinker (a `brain:COMMAND` player).
//! - [`dataset`]: training samples from records, batches with symmetries and padding.
//! - [`optim`]: Adam / SGD whose state can be checkpointed.
//! - [`trainer`]: the training loop, checkpoints and resume.
//! - [`arena`]: matches between two thinkers, with the Elo difference and its error bar.
//! - [`sprt`]: the sequential test that ends a match once it has decided.
//! - [`tactics_suite`]: forced-win positions drawn from self-play, and how a thinker scores on them.
//!
//! The commands that drive them (`selfplay`, `train`, `match`, `promote`) and the player SPECs
//! live in `crate::cli`.
//!
//! `dataset`, `optim`, `trainer` and `policy_player` need the `torch` feature; without it
//! self-play and matches between the classical players still work, and the rest answers
//! [`NoTorch`](crate::nn::NnError::NoTorch).
pub mod arena;
pub mod brain_player;
#[cfg(feature = "torch")]
pub mod dataset;
mod error;
pub mod game_play;
#[cfg(feature = "torch")]
pub mod optim;
#[cfg(feature = "torch")]
pub mod policy_player;
pub mod random_openings;
pub mod records;
pub mod selfplay;
pub mod sprt;
pub mod tactics_suite;
#[cfg(feature = "torch")]
pub mod trainer;

pub use arena::ThinkerPair;
pub use arena::{play_match, play_match_parallel, MatchConfig, MatchResult};
pub use brain_player::BrainPlayer;
pub use error::TrainError;
pub use game_play::{play_game, PlayOptions, PolicyTarget, Seats};
#[cfg(feature = "torch")]
pub use policy_player::PolicyPlayer;
pub use random_openings::{random_opening, OpeningConfig};
pub use records::{GameRecord, GameResult, PositionRecord, ShardWriter};
pub use selfplay::{run_selfplay, SelfplayConfig, SelfplayReport, ThinkerFactory, Variant};
pub use sprt::{Sprt, Verdict};
#[cfg(feature = "torch")]
pub use trainer::{train, DataSource, TrainConfig, TrainReport};
