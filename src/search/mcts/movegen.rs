//! What a position offers the search: the rule-decided results (five, forced block, full board)
//! and the moves worth a child.
//!
//! The moves are the legal empty points within two points of a stone. Every five, four and
//! blocking point of a four lies within that distance, so the forced results below hold; the
//! solver treats this move set as complete, the usual approximation of Gomoku searches.
use super::node::Proof;
use crate::game::{Board, Color};

/// The analysis of one position.
#[derive(Debug, Default, Clone)]
pub struct Analysis {
    /// Set when the rules already decide the position.
    pub proof: Option<Proof>,
    /// The moves to search, in board order (legal, not excluded). For a proven position they are
    /// the moves that realise the result (the winning fives, the hopeless blocks).
    pub moves: Vec<usize>,
    /// Empty points near the stones (legal or not): the classical evaluator looks at them.
    pub near: Vec<usize>,
}

/// Per-thread scratch for move generation.
pub struct MoveGen {
    marks: Vec<u32>,
    stamp: u32,
}

impl Default for MoveGen {
    fn default() -> MoveGen {
        MoveGen::new()
    }
}

impl MoveGen {
    pub fn new() -> MoveGen {
        MoveGen {
            marks: Vec::new(),
            stamp: 0,
        }
    }

    /// Empty points within Chebyshev distance 2 of a stone, in board order, into `out`.
    pub fn near_points(&mut self, board: &Board, out: &mut Vec<usize>) {
        out.clear();
        if self.marks.len() != board.index_len() {
            self.marks = vec![0; board.index_len()];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        let stride = board.dir_step(1) as isize;
        for &s in board.history_idx() {
            for dy in -2..=2isize {
                for dx in -2..=2isize {
                    // The board's padding keeps every index within 5 steps of a point valid.
                    let i = (s as isize + dy * stride + dx) as usize;
                    if self.marks[i] != self.stamp && board.is_empty_idx(i) {
                        self.marks[i] = self.stamp;
                        out.push(i);
                    }
                }
            }
        }
        out.sort_unstable();
    }

    /// Analyses `board` for the side to move; `exclude` lists indices the side to move may not
    /// play (the root's blocked points; empty inside the tree).
    pub fn analyse(&mut self, board: &Board, exclude: &[usize]) -> Analysis {
        let mut a = Analysis::default();
        let me = board.side_to_move();
        let opp = me.opponent();
        let allowed = |i: &usize| !exclude.contains(i);
        if board.is_full() {
            a.proof = Some(Proof::Draw);
            return a;
        }
        if board.stone_count() == 0 {
            let centre = board.index(crate::game::Point::new(
                (board.width() / 2) as u8,
                (board.height() / 2) as u8,
            ));
            if allowed(&centre) {
                a.moves.push(centre);
            } else {
                a.moves = legal_everywhere(board, exclude);
            }
            return a;
        }
        let mut near = Vec::new();
        self.near_points(board, &mut near);

        let wins: Vec<usize> = near
            .iter()
            .copied()
            .filter(|&i| board.is_win_idx(i, me))
            .collect();
        if wins.iter().any(allowed) {
            a.proof = Some(Proof::Win(1));
            a.moves = wins.into_iter().filter(allowed).collect();
            a.near = near;
            return a;
        }
        let threats: Vec<usize> = near
            .iter()
            .copied()
            .filter(|&i| board.is_win_idx(i, opp))
            .collect();
        let legal = |i: usize| allowed(&i) && !(me == Color::Black && board.is_forbidden_idx(i));
        match threats.as_slice() {
            [] => {}
            &[block] if legal(block) => {
                a.moves.push(block);
                a.near = near;
                return a;
            }
            _ => {
                // Two fives to stop, or one we may not stop: the opponent wins next move.
                a.proof = Some(Proof::Loss(2));
                a.moves = threats.iter().copied().filter(|&i| legal(i)).collect();
                if !a.moves.is_empty() {
                    a.near = near;
                    return a;
                }
            }
        }
        a.moves = near.iter().copied().filter(|&i| legal(i)).collect();
        if a.moves.is_empty() {
            a.moves = legal_everywhere(board, exclude);
        }
        if a.moves.is_empty() && a.proof.is_none() {
            // Empty points left, but every one forbidden (or excluded): whatever is played loses.
            a.proof = Some(Proof::Loss(1));
        }
        a.near = near;
        a
    }
}

/// Every legal, non-excluded point of the board.
fn legal_everywhere(board: &Board, exclude: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    board.for_each_legal(|i| {
        if !exclude.contains(&i) {
            out.push(i);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Point, Rule};

    fn pts(board: &Board, v: &[usize]) -> Vec<Point> {
        v.iter().map(|&i| board.point(i)).collect()
    }

    #[test]
    fn empty_board_offers_the_centre() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(pts(&b, &a.moves), vec![Point::new(7, 7)]);
        assert_eq!(a.proof, None);
    }

    #[test]
    fn near_points_cover_two_steps_around_the_stones() {
        let b = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(0, 0)]).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.moves.len(), 8, "3x3 corner minus the stone");
        let b = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.moves.len(), 24);
    }

    #[test]
    fn five_to_make_is_a_win_in_one() {
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            . x x x x . . .
            . o o o . . . .
            . . . . . . . o
            . . . . . . . .
            ",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Win(1)));
        assert_eq!(pts(&b, &a.moves), vec![Point::new(0, 1), Point::new(5, 1)]);
        // With one of them excluded (the root's blocked points), the other one still wins.
        let a = MoveGen::new().analyse(&b, &[b.index(Point::new(0, 1))]);
        assert_eq!(pts(&b, &a.moves), vec![Point::new(5, 1)]);
    }

    #[test]
    fn a_four_must_be_blocked_and_two_fives_lose() {
        // White to move; black has a four on row 1 with one open end.
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            o x x x x . . .
            . . . . . . o .
            . . . . . . . .
            . . . . . . . o
            ",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, None);
        assert_eq!(pts(&b, &a.moves), vec![Point::new(5, 1)]);
        // An open four: two fives to stop.
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            . x x x x . . .
            . . . . . o o .
            . . . . . . . .
            o . . . . . . .
            ",
        )
        .unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Loss(2)));
        assert_eq!(pts(&b, &a.moves), vec![Point::new(0, 1), Point::new(5, 1)]);
    }

    #[test]
    fn renju_black_cannot_block_on_a_forbidden_point() {
        // White threatens a five at (4,4); for black that point is a double-three (forbidden).
        let b = Board::from_diagram(
            Rule::Renju,
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . x . . . . . .
            . . . . x . . . . . .
            o o o o . . . . . . .
            . . . . . x . . . . .
            . . . . . . x . . . .
            . . . . . . . . . . o
            . . . . . . . . . . o
            ",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let four = b.index(Point::new(4, 4));
        assert!(b.is_win_idx(four, Color::White));
        assert!(b.is_forbidden_idx(four), "double three for black\n{b}");
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Loss(2)));
        assert!(!a.moves.is_empty(), "black still needs some move to play");
        assert!(a.moves.iter().all(|&i| !b.is_forbidden_idx(i)));
    }

    #[test]
    fn full_board_is_a_draw() {
        let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
        // Rows alternate xxoox / ooxxo patterns shifted so no line has five.
        let rows = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"];
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                let p = Point::new(x as u8, y as u8);
                if c == 'x' {
                    blacks.push(p)
                } else {
                    whites.push(p)
                }
            }
        }
        for p in blacks {
            b.place(p, Color::Black).unwrap();
        }
        for p in whites {
            b.place(p, Color::White).unwrap();
        }
        assert!(b.is_full());
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Draw));
        assert!(a.moves.is_empty());
    }
}
