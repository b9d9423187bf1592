//! Board, moves, rules (freestyle, standard, renju, caro), line patterns and the Zobrist hash.
//! No threads, no I/O.
mod types;

pub use types::{Color, Point, Rule, MAX_SIZE, MIN_SIZE};
