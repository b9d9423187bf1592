//! Codebook indices: what a cell looks like along one line, folded by the line's own symmetry.
//!
//! A cell's key in one direction is its own state (empty, a stone of the side to move, an
//! opponent stone) and the four cells on each side of it (empty, own, opponent, wall), read
//! from the board's incremental neighbour codes. A line read backwards is the same line, so the
//! two sides form an unordered pair: `(centre, {left, right})`. Only sequences that end in
//! walls can occur on a side (the board is padded with walls), 121 of them, which leaves
//! 3 x 7381 = 22143 codebook rows. The four directions share the codebook, so a board and its
//! 8 rotations and reflections get the same features, moved with the cells.
use std::sync::OnceLock;

use crate::game::Color;

/// Cells read on each side of the centre.
pub const SIDE_CELLS: usize = 4;
/// Distinct sequences of `SIDE_CELLS` cells that end in walls (empty/own/opponent, then walls).
const SIDE_KINDS: usize = 121;
/// Unordered pairs of side kinds.
const PAIRS: usize = SIDE_KINDS * (SIDE_KINDS + 1) / 2;
/// Codebook rows: three centre states times the side pairs.
pub const ID_COUNT: usize = 3 * PAIRS;

/// Centre states, from the side to move's point of view.
const CENTRE_EMPTY: usize = 0;
const CENTRE_OWN: usize = 1;
const CENTRE_OPPONENT: usize = 2;

/// The row of a cell far from everything: empty, with empty cells on both sides.
pub const EMPTY_ROW: usize = 0;

struct Tables {
    /// Side byte (nearest cell in the low bits, 2 bits each) pair → unordered pair index.
    pair: Vec<u16>,
    /// Side kind → its side byte (the inverse of the numbering `pair` uses).
    side: Vec<u8>,
    /// The board's left half (slots 1..=4, farthest first) → side byte (nearest first).
    reverse: [u8; 256],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        // Number the reachable side sequences; anything else (never on a real board) maps to 0.
        let mut kind = [0u16; 256];
        let mut side = Vec::with_capacity(SIDE_KINDS);
        for (byte, k) in kind.iter_mut().enumerate() {
            let cells: Vec<usize> = (0..SIDE_CELLS).map(|s| (byte >> (2 * s)) & 3).collect();
            let first_wall = cells.iter().position(|&c| c == 3).unwrap_or(SIDE_CELLS);
            if cells[first_wall..].iter().all(|&c| c == 3) {
                *k = side.len() as u16;
                side.push(byte as u8);
            }
        }
        debug_assert_eq!(side.len(), SIDE_KINDS);
        let mut pair = vec![0u16; 256 * 256];
        for a in 0..256usize {
            for b in 0..256usize {
                let (lo, hi) = {
                    let (x, y) = (kind[a] as usize, kind[b] as usize);
                    (x.min(y), x.max(y))
                };
                // Triangular numbering of (lo, hi) with lo <= hi.
                pair[a << 8 | b] = (hi * (hi + 1) / 2 + lo) as u16;
            }
        }
        let mut reverse = [0u8; 256];
        for (byte, r) in reverse.iter_mut().enumerate() {
            let mut out = 0;
            for k in 0..SIDE_CELLS {
                out |= ((byte >> (2 * k)) & 3) << (2 * (SIDE_CELLS - 1 - k));
            }
            *r = out as u8;
        }
        Tables {
            pair,
            side,
            reverse,
        }
    })
}

/// Swaps own and opponent stones in a 2-bit-per-cell code (walls and empties stay).
#[inline]
fn swap_stones(code: u32) -> u32 {
    let differ = (code ^ (code >> 1)) & 0x5_5555;
    code ^ (differ | (differ << 1))
}

/// What a codebook row stands for: the centre's state (0 empty, 1 own, 2 opponent) and the
/// cells of its two sides, nearest first, as `game::pattern` codes them (0 empty, 1 own, 2
/// opponent, 3 wall). The pair is unordered: the side of the lower kind comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowCells {
    pub centre: usize,
    pub sides: [[u8; SIDE_CELLS]; 2],
}

/// The cells codebook row `id` (below [`ID_COUNT`]) stands for.
pub fn row_cells(id: usize) -> RowCells {
    let tables = tables();
    let (centre, pair) = (id / PAIRS, id % PAIRS);
    // Invert the triangular numbering `hi * (hi + 1) / 2 + lo`.
    let mut hi = ((((8 * pair + 1) as f64).sqrt() - 1.0) / 2.0) as usize;
    while hi * (hi + 1) / 2 > pair {
        hi -= 1;
    }
    while (hi + 1) * (hi + 2) / 2 <= pair {
        hi += 1;
    }
    let lo = pair - hi * (hi + 1) / 2;
    let cells = |kind: usize| {
        let byte = tables.side[kind] as usize;
        std::array::from_fn(|s| ((byte >> (2 * s)) & 3) as u8)
    };
    RowCells {
        centre,
        sides: [cells(lo), cells(hi)],
    }
}

/// Builds the ids of one board's cells. Holding the tables keeps the lookups off the `OnceLock`.
#[derive(Clone, Copy)]
pub struct CodeReader {
    tables: &'static Tables,
}

impl Default for CodeReader {
    fn default() -> Self {
        CodeReader { tables: tables() }
    }
}

impl CodeReader {
    /// The codebook row of a cell in one direction.
    ///
    /// `code` is the board's black-perspective neighbour code of the cell in that direction (10
    /// slots, 2 bits each, see `game::pattern`), `centre` the cell's stone, `to_move` the side
    /// whose point of view the features take.
    #[inline]
    pub fn id(&self, code: u32, centre: Option<Color>, to_move: Color) -> usize {
        let code = match to_move {
            Color::Black => code,
            Color::White => swap_stones(code),
        };
        // Slots 1..=4 hold offsets -4..=-1 (farthest first); slots 5..=8 offsets +1..=+4.
        let left = self.tables.reverse[((code >> 2) & 0xFF) as usize] as usize;
        let right = ((code >> 10) & 0xFF) as usize;
        let centre = match centre {
            None => CENTRE_EMPTY,
            Some(c) if c == to_move => CENTRE_OWN,
            Some(_) => CENTRE_OPPONENT,
        };
        centre * PAIRS + self.tables.pair[left << 8 | right] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, Point, Rule};

    fn ids(board: &Board, p: Point, to_move: Color) -> [usize; 4] {
        let reader = CodeReader::default();
        let idx = board.index(p);
        [0, 1, 2, 3].map(|d| reader.id(board.code(idx, d), board.get(p), to_move))
    }

    #[test]
    fn an_empty_board_centre_is_the_empty_row_and_ids_stay_in_range() {
        let board = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(ids(&board, Point::new(7, 7), Color::Black), [EMPTY_ROW; 4]);
        for y in 0..15 {
            for x in 0..15 {
                for id in ids(&board, Point::new(x, y), Color::White) {
                    assert!(id < ID_COUNT);
                }
            }
        }
        // A corner sees walls: not the open-board row.
        assert_ne!(ids(&board, Point::new(0, 0), Color::Black)[0], EMPTY_ROW);
    }

    #[test]
    fn a_line_read_backwards_and_the_colours_seen_from_the_other_side_agree() {
        // Black at (5,7), white at (9,7): the centre (7,7) sees own two to the left and an
        // opponent two to the right; the mirrored board must give the same horizontal id.
        let a = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &[Point::new(5, 7), Point::new(9, 7)],
        )
        .unwrap();
        let b = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &[Point::new(9, 7), Point::new(5, 7)],
        )
        .unwrap();
        let centre = Point::new(7, 7);
        assert_eq!(
            ids(&a, centre, Color::Black)[0],
            ids(&b, centre, Color::Black)[0]
        );
        // Black's view of `a` is white's view of the colour-swapped `b`... which is `a` mirrored,
        // the same id again.
        assert_eq!(
            ids(&a, centre, Color::Black)[0],
            ids(&b, centre, Color::White)[0]
        );
        // But own and opponent are told apart.
        let c = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &[Point::new(5, 7), Point::new(0, 0), Point::new(9, 7)],
        )
        .unwrap();
        assert_ne!(
            ids(&c, centre, Color::Black)[0],
            ids(&a, centre, Color::Black)[0]
        );
        // The vertical line through the centre is empty on both boards.
        assert_eq!(ids(&a, centre, Color::Black)[1], EMPTY_ROW);
    }

    /// The cells a row stands for are the cells around the point whose id it is.
    #[test]
    fn a_row_describes_the_cells_it_was_read_from() {
        let moves = [
            (7, 7),
            (8, 7),
            (5, 7),
            (7, 9),
            (3, 7),
            (10, 7),
            (1, 1),
            (7, 3),
            (13, 7),
        ];
        let board = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &moves.map(|(x, y)| Point::new(x, y)),
        )
        .unwrap();
        let state = |x: i32, y: i32, to_move: Color| -> u8 {
            if !(0..15).contains(&x) || !(0..15).contains(&y) {
                return 3;
            }
            match board.get(Point::new(x as u8, y as u8)) {
                None => 0,
                Some(c) if c == to_move => 1,
                Some(_) => 2,
            }
        };
        let mut seen = std::collections::HashSet::new();
        for to_move in [Color::Black, Color::White] {
            for y in 0..15i32 {
                for x in 0..15i32 {
                    let p = Point::new(x as u8, y as u8);
                    let id = ids(&board, p, to_move)[0];
                    let row = row_cells(id);
                    assert_eq!(row.centre, state(x, y, to_move) as usize);
                    let side = |dx: i32| -> [u8; SIDE_CELLS] {
                        std::array::from_fn(|s| state(x + dx * (s as i32 + 1), y, to_move))
                    };
                    let (left, right) = (side(-1), side(1));
                    assert!(
                        row.sides == [left, right] || row.sides == [right, left],
                        "{p}: {row:?} against {left:?} {right:?}"
                    );
                    seen.insert(id);
                }
            }
        }
        assert!(seen.len() > 40, "the board shows many rows");
        // Every row describes cells of its own kind: walls only after the last cell.
        for id in (0..ID_COUNT).step_by(97) {
            for side in row_cells(id).sides {
                let first_wall = side.iter().position(|&c| c == 3).unwrap_or(SIDE_CELLS);
                assert!(side[first_wall..].iter().all(|&c| c == 3));
            }
        }
    }

    #[test]
    fn the_centre_stone_is_part_of_the_key() {
        let board = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let own = ids(&board, Point::new(7, 7), Color::Black)[0];
        let opp = ids(&board, Point::new(7, 7), Color::White)[0];
        assert_ne!(own, opp);
        assert_ne!(own, EMPTY_ROW);
        assert_eq!(own, PAIRS * CENTRE_OWN + EMPTY_ROW);
        assert_eq!(opp, PAIRS * CENTRE_OPPONENT + EMPTY_ROW);
    }
}
