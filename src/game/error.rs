//! Errors of the game room. Their messages end up in protocol `ERROR` lines, so they read as sentences.
use thiserror::Error;

use super::types::{Point, MAX_SIZE, MIN_SIZE};

#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    #[error("unsupported board size {width}x{height}: each side must be between {MIN_SIZE} and {MAX_SIZE}")]
    BadSize { width: usize, height: usize },
    #[error("move {x},{y} is outside the {width}x{height} board")]
    OffBoard {
        x: i64,
        y: i64,
        width: usize,
        height: usize,
    },
    #[error("point {0} is already occupied")]
    Occupied(Point),
    #[error("cannot read board diagram: {0}")]
    BadDiagram(String),
}
