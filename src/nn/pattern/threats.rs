//! The threat row of a cell (formula version 3): what a stone on the empty cell would make over
//! its four lines combined, for the side to move and for the opponent.
//!
//! The codebook sees one line at a time, so a cell's features can only add its four lines up; a
//! four-three or a double three is a fact about the combination. The row of the pair
//! `(Threat of the side to move, Threat of the opponent)` gives the net that fact directly.
//! Both threats are read from the cells' ten-cell windows alone ([`Board::window_pattern_idx`]),
//! so a cell's row changes only when a stone within five steps on one of its lines does, and
//! the incremental evaluation stays exact. Stones and cells with nothing around them get row 0.
use crate::game::{Board, Color, Threat};

/// The variants of [`Threat`].
pub const THREAT_CLASSES: usize = 12;
/// Rows of the threat table: one per (own, opponent) pair of classes.
pub const THREAT_IDS: usize = THREAT_CLASSES * THREAT_CLASSES;
/// How far a stone's change reaches the threat rows along a line (the window's half).
pub const THREAT_REACH: usize = 5;

/// The threat row of the cell `idx` seen by `to_move`.
#[inline]
pub fn threat_id(board: &Board, idx: usize, to_move: Color) -> usize {
    if board.get_idx(idx).is_some() {
        return 0;
    }
    let threat = |color| {
        Threat::from_patterns([0, 1, 2, 3].map(|d| board.window_pattern_idx(idx, color, d)))
    };
    threat(to_move) as usize * THREAT_CLASSES + threat(to_move.opponent()) as usize
}

/// A 15x15 freestyle board, black to move, black's open three on row 7 from (6,7) to (8,7),
/// white's two stones in the corner and one far off.
#[cfg(test)]
pub(crate) fn board_with_an_open_three() -> Board {
    use crate::game::{Point, Rule};
    let moves = [(6, 7), (0, 0), (7, 7), (1, 0), (8, 7), (10, 12)];
    Board::from_moves(
        15,
        15,
        Rule::Freestyle,
        &moves.map(|(x, y)| Point::new(x, y)),
    )
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Point;

    #[test]
    fn the_row_pairs_the_side_to_moves_threat_with_the_opponents() {
        let board = board_with_an_open_three();
        let at = |x, y| board.index(Point::new(x, y));
        // (5,7) makes black an open four; for white it is nothing.
        assert_eq!(
            threat_id(&board, at(5, 7), Color::Black),
            Threat::OpenFour as usize * THREAT_CLASSES + Threat::None as usize
        );
        // Seen by white the same cell is the pair reversed.
        assert_eq!(
            threat_id(&board, at(5, 7), Color::White),
            Threat::None as usize * THREAT_CLASSES + Threat::OpenFour as usize
        );
        // Stones and far cells are row 0; every row is in range.
        assert_eq!(threat_id(&board, at(7, 7), Color::Black), 0);
        assert_eq!(threat_id(&board, at(13, 3), Color::Black), 0);
        assert_eq!(Threat::Five as usize, THREAT_CLASSES - 1);
    }
}
