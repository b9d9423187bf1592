//! Rules of every variant, renju forbidden points (a table of positions with every forbidden point
//! marked), rectangular boards, and a randomised check of patterns, hash and make/unmake against a
//! slow reference written here from the definitions.
use hoshi::game::{Board, Color, GameError, MoveOutcome, Pattern, Point, Rule, Threat, DIRECTIONS};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn pt(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

// ---------------------------------------------------------------------------------------------
// Renju forbidden points: a table of diagrams. `x` black, `o` white, `.` empty, `*` an empty point
// that MUST be forbidden. Every other empty point must be legal: the test compares whole sets.
// Diagrams are pasted into a 15x15 board with their top-left corner at (3, 3), unless they are
// 15 rows tall.
// ---------------------------------------------------------------------------------------------

struct RenjuCase {
    name: &'static str,
    diagram: &'static str,
}

const RENJU_CASES: &[RenjuCase] = &[
    RenjuCase {
        name: "overline",
        diagram: "
            . . . . . . . . .
            . x x x * x x . .
            . . . . . . . . .",
    },
    RenjuCase {
        name: "double four on one line x.xXx.x",
        diagram: "
            . . . . . . . . .
            . x . x * x . x .
            . . . . . . . . .",
    },
    RenjuCase {
        name: "double four on one line xx.xX.xx",
        diagram: "
            . . . . . . . . . .
            . x x . * x . x x .
            . . . . . . . . . .",
    },
    RenjuCase {
        name: "double four on one line xxx.X.xxx",
        diagram: "
            . . . . . . . . . . .
            . x x x . * . x x x .
            . . . . . . . . . . .",
    },
    RenjuCase {
        name: "double four on two lines",
        diagram: "
            . . . . . . . .
            . o . . . . . .
            . . x . . . . .
            . . . x . . . .
            . . . . x . . .
            . o x x x * . .
            . . . . . . . .",
    },
    RenjuCase {
        name: "double three",
        diagram: "
            . . . . . . .
            . . . x . . .
            . . . x . . .
            . . x * x . .
            . . . . . . .
            . . . . . . .",
    },
    RenjuCase {
        name: "double three with a split three",
        diagram: "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . x . x * . . .
            . . . . x . . .
            . . . . x . . .
            . . . . . . . .",
    },
    RenjuCase {
        name: "four-three is legal",
        diagram: "
            . . . . . . . .
            . o x x x . . .
            . . . . . x . .
            . . . . . x . .
            . . . . . . . .",
    },
    RenjuCase {
        // The five point also makes an overline upwards: five wins. (The marked point is a plain
        // double three the column and row make with each other on the diagonals.)
        name: "five beats overline",
        diagram: "
            . . . . . . . . .
            . . . . . x . . .
            . . . . . x . . .
            . x x x x . . . .
            . . . * . x . . .
            . . . . . x . . .
            . . . . . x . . .
            . . . . . . . . .",
    },
    RenjuCase {
        // The row three of (8,8) (global) is blocked on the left, so only (11,8) turns it into a
        // straight four, and (11,8) is an overline: (8,8) is legal. (9,7) is a real double three.
        name: "fake double three: the only straight four point is an overline",
        diagram: "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . x . .
            . . . . . . * . x . .
            . . . o . . x x * . .
            . . . . x . . . x . .
            . . . x . . . . x . .
            . . . . . . . . x . .
            . . . . . . . . . . .",
    },
    RenjuCase {
        // (7,9) global: its row three (blocked at (5,9)) only becomes a straight four at (10,9),
        // and (10,9) is itself forbidden (it makes three threes), so (7,9) has one real three.
        // (11,11) is a plain double three (row 11 and the diagonal through (9,9)).
        name: "chain: the completion point is a forbidden double three",
        diagram: "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . o . . x x * . . .
            . . . . x . . x x . .
            . . . . x . . x * x .
            . . . . . . . . . . .",
    },
];

/// Builds the 15x15 board of a case and the set of points marked `*`.
fn renju_board(diagram: &str) -> (Board, Vec<Point>) {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let offset = if rows.len() == 15 { 0 } else { 3 };
    let mut grid = vec![vec!['.'; 15]; 15];
    let mut marked = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let (gx, gy) = (x + offset, y + offset);
            if c == '*' {
                marked.push(pt(gx as u8, gy as u8));
                grid[gy][gx] = '.';
            } else {
                grid[gy][gx] = c;
            }
        }
    }
    let text: String = grid
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    let board = Board::from_diagram(Rule::Renju, &text).expect("diagram");
    marked.sort();
    (board, marked)
}

#[test]
fn renju_forbidden_points_table() {
    let mut failures = Vec::new();
    for case in RENJU_CASES {
        let (board, mut want) = renju_board(case.diagram);
        want.sort();
        let mut got = board.forbidden_points();
        got.sort();
        if got != want {
            failures.push(format!(
                "{}: forbidden {:?}, expected {:?}\n{}",
                case.name, got, want, board
            ));
        }
        for &p in &want {
            assert!(board.is_forbidden(p), "{}: is_forbidden({p})", case.name);
            assert!(!board.legal_moves().contains(&p) || board.side_to_move() == Color::White);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
