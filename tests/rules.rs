//! Rules of every variant, renju forbidden points (a table of positions with every forbidden point
//! marked), rectangular boards, and a randomised check of patterns, hash and make/unmake against a
//! slow reference written here from the definitions.
use hoshi::game::{Board, Color, GameError, MoveOutcome, Pattern, Point, Rule, Threat, DIRECTIONS};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicUsize, Ordering};

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

// ---------------------------------------------------------------------------------------------
// Randomised check against a slow reference written from the definitions (no tables, no overlay).
// ---------------------------------------------------------------------------------------------

const R_EMPTY: u8 = 0;
const R_OWN: u8 = 1;
const R_OPP: u8 = 2;

/// The whole line through `p` in direction `d`, from `color`'s side, `p` itself set to own.
fn ref_line(board: &Board, p: Point, color: Color, d: usize) -> (Vec<u8>, usize) {
    let (dx, dy) = DIRECTIONS[d];
    let (mut x, mut y) = (p.x as i32, p.y as i32);
    while board.is_on_board(x - dx, y - dy) {
        x -= dx;
        y -= dy;
    }
    let mut line = Vec::new();
    let mut centre = 0;
    while board.is_on_board(x, y) {
        let q = pt(x as u8, y as u8);
        if q == p {
            centre = line.len();
        }
        line.push(match board.get(q) {
            None => R_EMPTY,
            Some(c) if c == color => R_OWN,
            Some(_) => R_OPP,
        });
        x += dx;
        y += dy;
    }
    line[centre] = R_OWN;
    (line, centre)
}

#[derive(Clone, Copy)]
struct RefRule {
    exact: bool,
    caro: bool,
}

fn ref_rule(rule: Rule, color: Color) -> RefRule {
    RefRule {
        exact: !rule.overline_wins(color),
        caro: rule.blocked_five_fails(),
    }
}

/// 0: nothing, 1: winning five through `c`, 2: overline (exact rules).
fn ref_five(line: &[u8], c: usize, r: RefRule) -> u8 {
    let own = |i: isize| i >= 0 && (i as usize) < line.len() && line[i as usize] == R_OWN;
    let opp = |i: isize| i >= 0 && (i as usize) < line.len() && line[i as usize] == R_OPP;
    let c = c as isize;
    let left = (1..).take_while(|k| own(c - k)).count() as isize;
    let right = (1..).take_while(|k| own(c + k)).count() as isize;
    let len = left + right + 1;
    if len < 5 {
        0
    } else if r.exact && len > 5 {
        2
    } else if r.caro && opp(c - left - 1) && opp(c + right + 1) {
        0
    } else {
        1
    }
}

/// Pattern by brute force: depth 2 = up to twos, 1 = up to threes, 0 = fives and fours only.
fn ref_pattern(line: &mut Vec<u8>, c: usize, r: RefRule, depth: u32) -> Pattern {
    match ref_five(line, c, r) {
        1 => return Pattern::Five,
        2 => return Pattern::Overline,
        _ => {}
    }
    let near: Vec<usize> = (c.saturating_sub(5)..(c + 6).min(line.len()))
        .filter(|&q| line[q] == R_EMPTY)
        .collect();
    let completes = |line: &mut Vec<u8>, q: usize| {
        line[q] = R_OWN;
        let five = ref_five(line, c, r) == 1;
        line[q] = R_EMPTY;
        five
    };
    let wins: Vec<usize> = near
        .iter()
        .copied()
        .filter(|&q| completes(line, q))
        .collect();
    if !wins.is_empty() {
        // Straight four: the run through c is four long and both its ends complete a five.
        let a = (0..=c)
            .rev()
            .take_while(|&i| line[i] == R_OWN)
            .last()
            .unwrap();
        let b = (c..line.len())
            .take_while(|&i| line[i] == R_OWN)
            .last()
            .unwrap();
        let straight = b - a == 3 && a > 0 && wins.contains(&(a - 1)) && wins.contains(&(b + 1));
        return match (wins.len(), straight) {
            (1, _) => Pattern::Four,
            (_, true) => Pattern::OpenFour,
            _ => Pattern::DoubleFour,
        };
    }
    if depth == 0 {
        return Pattern::None;
    }
    let mut best = Pattern::None;
    for q in near {
        line[q] = R_OWN;
        let next = ref_pattern(line, c, r, depth - 1);
        line[q] = R_EMPTY;
        let made = match next {
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four | Pattern::DoubleFour => Pattern::Three,
            Pattern::OpenThree if depth == 2 => Pattern::OpenTwo,
            Pattern::Three if depth == 2 => Pattern::Two,
            _ => Pattern::None,
        };
        best = best.max(made);
    }
    best
}

fn ref_pattern_at(board: &Board, p: Point, color: Color, d: usize) -> Pattern {
    let (mut line, c) = ref_line(board, p, color, d);
    ref_pattern(&mut line, c, ref_rule(board.rule(), color), 2)
}

/// Renju forbidden check by actually placing stones on copies of the board. `placed` counts the
/// hypothetical stones (the library takes a completion point as legal beyond 8 of them).
fn ref_forbidden(board: &Board, p: Point, placed: usize) -> bool {
    let r = ref_rule(Rule::Renju, Color::Black);
    let pats: Vec<Pattern> = (0..4)
        .map(|d| {
            let (mut line, c) = ref_line(board, p, Color::Black, d);
            ref_pattern(&mut line, c, r, 0)
        })
        .collect();
    if pats.contains(&Pattern::Five) {
        return false;
    }
    if pats.contains(&Pattern::Overline) {
        return true;
    }
    if pats.iter().map(|p| p.four_count()).sum::<u32>() >= 2 {
        return true;
    }
    let threes: Vec<usize> = (0..4)
        .filter(|&d| {
            let (mut line, c) = ref_line(board, p, Color::Black, d);
            ref_pattern(&mut line, c, r, 1) == Pattern::OpenThree
        })
        .collect();
    if threes.len() < 2 {
        return false;
    }
    let mut with_p = board.clone();
    with_p.place(p, Color::Black).unwrap();
    let mut real = 0;
    for d in threes {
        let (dx, dy) = DIRECTIONS[d];
        let is_real = (-5..=5).any(|k| {
            let (x, y) = (p.x as i32 + k * dx, p.y as i32 + k * dy);
            if !with_p.is_on_board(x, y) || !with_p.is_empty(pt(x as u8, y as u8)) {
                return false;
            }
            let q = pt(x as u8, y as u8);
            let mut with_q = with_p.clone();
            with_q.place(q, Color::Black).unwrap();
            let (mut line, c) = ref_line(&with_q, p, Color::Black, d);
            ref_pattern(&mut line, c, r, 0) == Pattern::OpenFour
                && (placed + 1 >= 8 || !ref_forbidden(&with_p, q, placed + 1))
        });
        if is_real {
            real += 1;
        }
    }
    if real < 2 {
        FAKE_DOUBLE_THREES.fetch_add(1, Ordering::Relaxed);
    }
    real >= 2
}

/// Geometric double threes the reference found not to be forbidden (so the recursion mattered).
static FAKE_DOUBLE_THREES: AtomicUsize = AtomicUsize::new(0);

fn all_patterns(board: &Board) -> Vec<Pattern> {
    let mut out = Vec::new();
    for y in 0..board.height() as u8 {
        for x in 0..board.width() as u8 {
            for color in [Color::Black, Color::White] {
                for d in 0..4 {
                    out.push(board.pattern(pt(x, y), color, d));
                }
            }
        }
    }
    out
}

/// A random empty point, usually near the last stones so that shapes actually form.
fn random_move(board: &Board, rng: &mut StdRng) -> Point {
    loop {
        let p = match board.last_move() {
            Some(_) if rng.gen_bool(0.8) => {
                let n = board.history().len();
                let anchor = board.history()[rng.gen_range(n.saturating_sub(6)..n)];
                let x = anchor.x as i32 + rng.gen_range(-2..=2);
                let y = anchor.y as i32 + rng.gen_range(-2..=2);
                if !board.is_on_board(x, y) {
                    continue;
                }
                pt(x as u8, y as u8)
            }
            _ => pt(
                rng.gen_range(0..board.width()) as u8,
                rng.gen_range(0..board.height()) as u8,
            ),
        };
        if board.is_empty(p) {
            return p;
        }
    }
}

#[test]
fn random_games_match_reference_and_unmake_exactly() {
    let mut rng = StdRng::seed_from_u64(0x5EED_60B0);
    let mut checked_patterns = 0;
    let mut checked_forbidden = 0;
    let mut forbidden_found = 0;
    for game in 0..600 {
        let small = rng.gen_bool(0.6);
        let side = |rng: &mut StdRng| {
            if small {
                rng.gen_range(5..=10)
            } else {
                rng.gen_range(5..=32)
            }
        };
        let (w, h) = (side(&mut rng), side(&mut rng));
        let rule = Rule::ALL[rng.gen_range(0..Rule::ALL.len())];
        let mut board = Board::new(w, h, rule).unwrap();
        let fresh_patterns = all_patterns(&board);
        let mut snapshots = vec![(board.hash(), fresh_patterns.clone())];
        let moves = rng.gen_range(1..=(w * h).min(90));
        for _ in 0..moves {
            let p = random_move(&board, &mut rng);
            let color = board.side_to_move();
            let predicted = board.outcome_of(p, color);
            let wins = (0..4).any(|d| ref_pattern_at(&board, p, color, d) == Pattern::Five);
            assert_eq!(
                matches!(predicted, MoveOutcome::Win(_)),
                wins,
                "game {game}: {p}\n{board:?}"
            );
            assert_eq!(board.play(p), Ok(predicted));

            // Patterns at random empty points, both colours, all directions.
            for _ in 0..3 {
                if board.is_full() {
                    break;
                }
                let q = random_move(&board, &mut rng);
                for c in [Color::Black, Color::White] {
                    for d in 0..4 {
                        let want = ref_pattern_at(&board, q, c, d);
                        assert_eq!(
                            board.pattern(q, c, d),
                            want,
                            "game {game}: {q} {c:?} dir {d}\n{board:?}"
                        );
                        checked_patterns += 1;
                    }
                }
            }
            if rule == Rule::Renju && rng.gen_bool(0.15) {
                let mut want = Vec::new();
                for y in 0..h as u8 {
                    for x in 0..w as u8 {
                        if board.is_empty(pt(x, y)) && ref_forbidden(&board, pt(x, y), 0) {
                            want.push(pt(x, y));
                        }
                    }
                }
                assert_eq!(board.forbidden_points(), want, "game {game}\n{board:?}");
                if board.side_to_move() == Color::Black {
                    let legal = board.legal_moves();
                    assert_eq!(legal.len(), w * h - board.stone_count() - want.len());
                    assert!(want.iter().all(|p| !legal.contains(p)));
                }
                checked_forbidden += 1;
                forbidden_found += want.len();
            }
            if rng.gen_bool(0.2) {
                snapshots.push((board.hash(), all_patterns(&board)));
            } else {
                snapshots.push((board.hash(), Vec::new()));
            }
        }
        // The incremental hash equals the hash of the same moves replayed from scratch.
        let replay = Board::from_moves(w, h, rule, board.history()).unwrap();
        assert_eq!(replay.hash(), board.hash());
        assert_eq!(replay, board);
        // Unmake everything, checking each level on the way back.
        snapshots.pop();
        while let Some((hash, patterns)) = snapshots.pop() {
            board.undo().expect("a move to undo");
            assert_eq!(board.hash(), hash, "game {game}");
            if !patterns.is_empty() {
                assert_eq!(all_patterns(&board), patterns, "game {game}");
            }
        }
        assert_eq!(board.undo(), None);
        assert_eq!(board.hash(), Board::new(w, h, rule).unwrap().hash());
        assert_eq!(all_patterns(&board), fresh_patterns);
        assert_eq!(board.stone_count(), 0);
    }
    assert!(checked_patterns > 100_000, "{checked_patterns}");
    assert!(checked_forbidden > 50, "{checked_forbidden}");
    assert!(forbidden_found > 50, "{forbidden_found}");
    let fake = FAKE_DOUBLE_THREES.load(Ordering::Relaxed);
    assert!(fake > 5, "{fake}");
    eprintln!("{checked_patterns} patterns, {checked_forbidden} forbidden sets ({forbidden_found} points, {fake} fake double threes)");
}
