//! Board, moves, rules (freestyle, standard, renju, caro), line patterns and the Zobrist hash.
//! No threads, no I/O.
//!
//! - `board`: the [`Board`] (padded index layout, make/unmake, hash, outcomes, legal moves).
//! - `pattern`: the [`Pattern`] a stone makes on one line, from precomputed tables.
//! - `threat`: the per-point [`Threat`] summary and scans for five/four/three points.
//! - `renju`: black's forbidden points.
//! - `diagram`: text diagrams (`Display`, `Board::from_diagram`).
//!
//! Pattern tables (one per [`LineRule`], ~1 MiB each) are built once per process on first use,
//! 40-80 ms each in release; `Board::new` builds the two its rule needs. A `Board` is `Send + Sync`
//! and cheap to clone (tens of KiB). Renju games being drawn after 200 stones and similar match
//! rules are the engine's business, not the board's.
mod board;
mod diagram;
mod error;
mod pattern;
mod renju;
mod threat;
mod types;
mod zobrist;

pub use board::{Board, MoveOutcome, DIRECTIONS};
pub use error::GameError;
pub use pattern::{LineRule, Pattern};
pub use threat::Threat;
pub use types::{Color, Point, Rule, MAX_SIZE, MIN_SIZE};
