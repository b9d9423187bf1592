//! A position as the trainer feeds it to the pattern net: integer planes, each board padded to
//! the batch's largest width and height (the board in the top-left corner).
//!
//! | plane | meaning |
//! |---|---|
//! | 0..=3 | the cell's codebook row in each direction (see [`super::codes`]) |
//! | 4 | 1 on black's renju forbidden points (empty points, renju only) |
//! | 5 | 0 padding, 1 empty point, 2 stone |
//! | 6 | the position's variant (rule and, for renju, side to move), on every cell |
//! | 7 | the cell's threat row (see [`super::threats`]; read by version 3 nets) |
use super::codes::CodeReader;
use super::threats::threat_id;
use super::{variant, INPUT_PLANES};
use crate::game::{Board, Point};

pub const FORBIDDEN_PLANE: usize = 4;
pub const CELL_PLANE: usize = 5;
pub const VARIANT_PLANE: usize = 6;
pub const THREAT_PLANE: usize = 7;

/// Cell values of [`CELL_PLANE`].
pub const CELL_PADDING: i64 = 0;
pub const CELL_EMPTY: i64 = 1;
pub const CELL_STONE: i64 = 2;

/// Writes `board` into `out` (`INPUT_PLANES * pad_w * pad_h` values, zeroed by the caller).
pub fn encode_board(board: &Board, pad_w: usize, pad_h: usize, out: &mut [i64]) {
    debug_assert_eq!(out.len(), INPUT_PLANES * pad_w * pad_h);
    let area = pad_w * pad_h;
    let reader = CodeReader::default();
    let to_move = board.side_to_move();
    let variant = variant(board.rule(), to_move) as i64;
    let renju = board.rule().has_forbidden();
    out[VARIANT_PLANE * area..(VARIANT_PLANE + 1) * area].fill(variant);
    for y in 0..board.height() {
        for x in 0..board.width() {
            let at = y * pad_w + x;
            let idx = board.index(Point::new(x as u8, y as u8));
            let stone = board.get_idx(idx);
            for d in 0..4 {
                out[d * area + at] = reader.id(board.code(idx, d), stone, to_move) as i64;
            }
            out[CELL_PLANE * area + at] = if stone.is_some() {
                CELL_STONE
            } else {
                CELL_EMPTY
            };
            out[THREAT_PLANE * area + at] = threat_id(board, idx, to_move) as i64;
            if renju && stone.is_none() && board.is_forbidden_idx(idx) {
                out[FORBIDDEN_PLANE * area + at] = 1;
            }
        }
    }
}
