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
            if !board.is_forbidden(p)
                || board.outcome_of(p, Color::Black) != MoveOutcome::ForbiddenLoss
            {
                failures.push(format!(
                    "{}: is_forbidden / outcome_of disagree at {p}",
                    case.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// "h8" style coordinates: letter = column from `a` = 0; number = row. `rows_up` numbers rows from
/// the bottom (row 1 = y 14), otherwise from the top (row 1 = y 0).
fn named(s: &str, rows_up: bool) -> Point {
    let x = s.as_bytes()[0] - b'a';
    let n: u8 = s[1..].parse().unwrap();
    let y = if rows_up { 15 - n } else { n - 1 };
    pt(x, y)
}

/// The Gomocup referee's example: after h8 h9 i7 i9 h10 i6 i11 i12 black must not play g9. Both
/// ways of numbering rows give the same answer (they are mirror images and renju is symmetric);
/// Hoshi's protocol coordinates put row 1 at y = 0. g9 is a double three: g9-h8-i7 and g9-h10-i11.
#[test]
fn referee_example_g9_is_forbidden() {
    for rows_up in [false, true] {
        let moves: Vec<Point> = ["h8", "h9", "i7", "i9", "h10", "i6", "i11", "i12"]
            .iter()
            .map(|m| named(m, rows_up))
            .collect();
        let board = Board::from_moves(15, 15, Rule::Renju, &moves).unwrap();
        let g9 = named("g9", rows_up);
        assert_eq!(board.side_to_move(), Color::Black);
        assert_eq!(board.forbidden_points(), vec![g9], "\n{board}");
        assert!(!board.legal_moves().contains(&g9));
        assert_eq!(board.legal_moves().len(), 225 - 8 - 1);
        assert_eq!(board.threat(g9, Color::Black), Threat::DoubleThree);
        let mut b = board.clone();
        assert_eq!(b.play(g9), Ok(MoveOutcome::ForbiddenLoss));
    }
}

#[test]
fn renju_outcomes() {
    // White's overline wins; black's loses on the spot.
    let board = Board::from_diagram(
        Rule::Renju,
        "
        . . . . . . . . .
        o o o . o o . . .
        x x x . x x . . .
        . . . . . . . . .
        . . . . . . . . x",
    )
    .unwrap();
    assert_eq!(
        board.outcome_of(pt(3, 1), Color::White),
        MoveOutcome::Win(Color::White)
    );
    assert_eq!(
        board.outcome_of(pt(3, 2), Color::Black),
        MoveOutcome::ForbiddenLoss
    );
    assert_eq!(board.pattern(pt(3, 2), Color::Black, 0), Pattern::Overline);
    assert_eq!(board.pattern(pt(3, 1), Color::White, 0), Pattern::Five);
    assert!(board.is_forbidden(pt(3, 2)));
    assert!(!board.is_forbidden(pt(3, 1)));
    // Exact five wins for black.
    assert_eq!(
        board.outcome_of(pt(6, 2), Color::Black),
        MoveOutcome::Ongoing
    );
    let five = Board::from_diagram(
        Rule::Renju,
        ". x x x x . . \n. . . . . . .\n. o o o o . .\n. . . . . . .\n. . . . . . o",
    )
    .unwrap();
    assert_eq!(
        five.outcome_of(pt(0, 0), Color::Black),
        MoveOutcome::Win(Color::Black)
    );
    assert_eq!(
        five.outcome_of(pt(5, 0), Color::Black),
        MoveOutcome::Win(Color::Black)
    );
    assert_eq!(five.five_points(Color::Black).len(), 2);
    // Forbidden points only matter for black, and only under renju.
    let mut other = board.clone();
    other.set_rule(Rule::Standard);
    assert!(other.forbidden_points().is_empty());
    assert!(!other.is_win_move(pt(3, 1), Color::White));
    assert!(!other.is_win_move(pt(3, 2), Color::Black));
    other.set_rule(Rule::Freestyle);
    assert!(other.is_win_move(pt(3, 2), Color::Black));
}

/// Plays black and white stones at the given points of an otherwise empty board, in turn,
/// then asks what `color` playing `at` does.
fn outcome(w: usize, h: usize, rule: Rule, diagram: &str, at: Point, color: Color) -> MoveOutcome {
    let mut board = Board::from_diagram(rule, diagram).unwrap();
    assert_eq!((board.width(), board.height()), (w, h));
    let out = board.outcome_of(at, color);
    assert_eq!(out == MoveOutcome::Win(color), board.is_win_move(at, color));
    assert_eq!(
        board.is_win_move(at, color),
        board.five_points(color).contains(&board.index(at))
    );
    // The checked play agrees with the prediction for the side to move.
    if board.side_to_move() == color {
        assert_eq!(board.play(at), Ok(out));
    }
    out
}

#[test]
fn standard_and_freestyle_overlines() {
    let d = ". x x . x x x . .\n. o o o o . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . o";
    let six = pt(3, 0);
    assert_eq!(
        outcome(9, 5, Rule::Freestyle, d, six, Color::Black),
        MoveOutcome::Win(Color::Black)
    );
    assert_eq!(
        outcome(9, 5, Rule::Standard, d, six, Color::Black),
        MoveOutcome::Ongoing
    );
    // White: five, and in standard a six is no win for white either.
    assert_eq!(
        outcome(9, 5, Rule::Standard, d, pt(5, 1), Color::White),
        MoveOutcome::Win(Color::White)
    );
    let w6 = ". o o . o o o . .\n. x x x . . . x .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . x";
    assert_eq!(
        outcome(9, 5, Rule::Standard, w6, six, Color::White),
        MoveOutcome::Ongoing
    );
    assert_eq!(
        outcome(9, 5, Rule::Freestyle, w6, six, Color::White),
        MoveOutcome::Win(Color::White)
    );
}

#[test]
fn caro_blocked_fives() {
    use MoveOutcome::{Ongoing, Win};
    let b = Color::Black;
    // Blocked at both ends by white: no win; one end open: win.
    let both = "o x x . x x o . .\n. . o . o . . . o\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .";
    assert_eq!(outcome(9, 5, Rule::Caro, both, pt(3, 0), b), Ongoing);
    assert_eq!(outcome(9, 5, Rule::CaroExact, both, pt(3, 0), b), Ongoing);
    assert_eq!(outcome(9, 5, Rule::Freestyle, both, pt(3, 0), b), Win(b));
    let one = "o x x . x x . . .\n. . o . o . . . o\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .";
    assert_eq!(outcome(9, 5, Rule::Caro, one, pt(3, 0), b), Win(b));
    // The board edge does not block: edge + white is still a win.
    let edge = "x x . x x o . . .\n. o . o o . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .";
    assert_eq!(outcome(9, 5, Rule::Caro, edge, pt(2, 0), b), Win(b));
    assert_eq!(outcome(9, 5, Rule::CaroExact, edge, pt(2, 0), b), Win(b));
    // Both edges of a 5-wide board: still a win.
    let tiny = "x x . x x\n. o . o o\n. . . . .\n. . . . .\n. . . . .";
    assert_eq!(outcome(5, 5, Rule::Caro, tiny, pt(2, 0), b), Win(b));
    // Overlines: caro wins unless blocked at both ends; the exact variant never.
    let six = ". x x . x x x . .\n. o o o . o . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .";
    assert_eq!(outcome(9, 5, Rule::Caro, six, pt(3, 0), b), Win(b));
    assert_eq!(outcome(9, 5, Rule::CaroExact, six, pt(3, 0), b), Ongoing);
    let six_blocked = "o x x . x x x o .\n. o o . o o . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .";
    assert_eq!(outcome(9, 5, Rule::Caro, six_blocked, pt(3, 0), b), Ongoing);
    // A long caro run (seven, ends far from the new stone) blocked at both ends: the line is
    // longer than the pattern window, so this goes through the exact line classifier.
    let long = "o x x x x x . x o . .\n. o o o o . o . . . .\n. . . . . . . . . . .\n. . . . . . . . . . .\n. . . . . . . . . . o";
    assert_eq!(outcome(11, 5, Rule::Caro, long, pt(6, 0), b), Ongoing);
    let long_open = "o x x x x x . x . . .\n. o o o o . o . . . .\n. . . . . . . . . . .\n. . . . . . . . . . .\n. . . . . . . . . . o";
    assert_eq!(outcome(11, 5, Rule::Caro, long_open, pt(6, 0), b), Win(b));
    // Diagonal, blocked at both ends by white.
    let diag = "o . . . . . .\n. x . . . . .\n. . x . . . .\n. . . . . . .\n. . . . x . .\n. . . . . x .\n. . . . . . o";
    let with_whites = diag.replace(". . . . . . .", "o o . . . . .");
    assert_eq!(
        outcome(7, 7, Rule::Caro, &with_whites, pt(3, 3), b),
        Ongoing
    );
}

#[test]
fn rectangular_boards() {
    let mut tall = Board::new(7, 20, Rule::Freestyle).unwrap();
    for y in 15..19u8 {
        tall.play(pt(6, y)).unwrap();
        tall.play(pt(0, y)).unwrap();
    }
    assert_eq!(tall.play(pt(6, 19)), Ok(MoveOutcome::Win(Color::Black)));
    assert!(matches!(
        tall.play(pt(7, 0)),
        Err(GameError::OffBoard { .. })
    ));
    assert!(matches!(
        tall.play(pt(0, 20)),
        Err(GameError::OffBoard { .. })
    ));
    assert!(tall.is_on_board(6, 19) && !tall.is_on_board(7, 0) && !tall.is_on_board(-1, 3));
    assert!(!tall.is_on_board(0, 20) && !tall.is_on_board(3, -1));
    assert_eq!(tall.get(pt(9, 9)), None);
    let err = tall.play(pt(7, 3)).unwrap_err().to_string();
    assert!(err.contains("7,3") && err.contains("7x20"), "{err}");

    let mut wide = Board::new(32, 5, Rule::Standard).unwrap();
    for x in 27..31u8 {
        wide.play(pt(x, 4)).unwrap();
        wide.play(pt(x, 0)).unwrap();
    }
    assert_eq!(
        wide.outcome_of(pt(31, 4), Color::Black),
        MoveOutcome::Win(Color::Black)
    );
    assert_eq!(
        wide.outcome_of(pt(26, 0), Color::White),
        MoveOutcome::Win(Color::White)
    );
    // Anti-diagonal ending in the bottom-left corner of a 32x5 board.
    let mut b = Board::new(32, 5, Rule::Freestyle).unwrap();
    for i in 0..4u8 {
        b.play(pt(4 - i, i)).unwrap();
        b.play(pt(20 + i, 2)).unwrap();
    }
    assert_eq!(b.play(pt(0, 4)), Ok(MoveOutcome::Win(Color::Black)));
    assert!(Board::new(33, 5, Rule::Freestyle).is_err());
    assert!(Board::new(5, 4, Rule::Freestyle).is_err());
}

#[test]
fn diagram_round_trip_and_errors() {
    let text = ". x . o .\n. . x . .\no . . . .\n. . . . .\n. . . . x\n. . o . .\n";
    let board = Board::from_diagram(Rule::Caro, text).unwrap();
    assert_eq!((board.width(), board.height()), (5, 6));
    assert_eq!(board.to_string(), text);
    assert_eq!(board.stone_count(), 6);
    assert_eq!(board.side_to_move(), Color::Black);
    assert_eq!(board.get(pt(1, 0)), Some(Color::Black));
    assert_eq!(board.get(pt(2, 5)), Some(Color::White));
    assert!(Board::from_diagram(Rule::Caro, ". . .\n. .").is_err());
    assert!(Board::from_diagram(Rule::Caro, ". . q . .").is_err());
}

#[test]
fn threat_point_lists() {
    let board = Board::from_diagram(
        Rule::Freestyle,
        "
        . . . . . . . . .
        . x x x . . . . .
        . . . . . . . . .
        . . o o . o . . .
        . . . . . . . . .
        . . . . . . . . .",
    )
    .unwrap();
    let pts = |v: Vec<usize>| {
        let mut p: Vec<Point> = v.into_iter().map(|i| board.point(i)).collect();
        p.sort();
        p
    };
    assert_eq!(pts(board.five_points(Color::Black)), vec![]);
    // Black's open three: (4,1) makes a straight four, (0,1) and (5,1) a four (edge / split).
    assert_eq!(
        pts(board.four_points(Color::Black)),
        vec![pt(0, 1), pt(4, 1), pt(5, 1)]
    );
    assert_eq!(board.threat(pt(4, 1), Color::Black), Threat::OpenFour);
    assert_eq!(board.threat(pt(5, 1), Color::Black), Threat::Four);
    // White's split three `oo.o` on row 3: (4,3) makes a straight four, (1,3) and (6,3) a four.
    assert_eq!(
        pts(board.four_points(Color::White)),
        vec![pt(1, 3), pt(4, 3), pt(6, 3)]
    );
    assert_eq!(board.threat(pt(4, 3), Color::White), Threat::OpenFour);
    // Black open threes: next to the row (diagonals need two stones, the row is already three).
    assert!(board.open_three_points(Color::Black).is_empty());
    assert_eq!(pts(board.open_three_points(Color::White)), vec![]);
}
