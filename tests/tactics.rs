//! The threat solver inside the engine, through the real binary: a forced win is played at once
//! and reported proven (`ev +M…`), and the opponent's forced win is refuted.
mod common;

use common::Brain;
use hoshi::game::{Board, Color, Point, Rule};
use hoshi::solver::{Budget, Outcome, Solver};

fn board_after(rule: i64, extra_white: &[(u8, u8)], moves: &[Point]) -> Board {
    let mut b = Board::new(15, 15, Rule::from_protocol(rule).unwrap()).unwrap();
    for (x, y) in BLACK {
        b.place(Point::new(x, y), Color::Black).unwrap();
    }
    for &(x, y) in WHITE.iter().chain(extra_white) {
        b.place(Point::new(x, y), Color::White).unwrap();
    }
    for &m in moves {
        b.play(m).unwrap();
    }
    b
}

/// Black: a closed three on row 5 (x 5..7, white at 4,5) and a closed three on column 8
/// (y 6..8, white at 8,9). The point 8,5 makes two fours at once: a forced win.
const BLACK: [(u8, u8); 3 + 3] = [(5, 5), (6, 5), (7, 5), (8, 6), (8, 7), (8, 8)];
const WHITE: [(u8, u8); 4] = [(4, 5), (8, 9), (1, 13), (13, 1)];

fn setup(b: &mut Brain, black_is_us: bool, extra_white: &[(u8, u8)]) {
    b.send("BOARD");
    let (us, them) = if black_is_us { (1, 2) } else { (2, 1) };
    for (x, y) in BLACK {
        b.send(&format!("{x},{y},{us}"));
    }
    for (x, y) in WHITE.iter().chain(extra_white) {
        b.send(&format!("{x},{y},{them}"));
    }
    b.send("DONE");
}

#[test]
fn plays_a_forced_win_and_reports_it_proven() {
    for rule in [0, 1, 4] {
        let mut b = Brain::start();
        b.send("START 15");
        assert_eq!(b.answer(), "OK");
        b.send(&format!("INFO rule {rule}"));
        b.send("INFO timeout_turn 2000");
        // Black to move: 6 black, 6 white stones.
        setup(&mut b, true, &[(0, 0), (14, 14)]);
        let message = b.line();
        let m = b.expect_move();
        assert!(
            message.contains(" ev +M"),
            "rule {rule}: not proven: {message}"
        );
        let board = board_after(rule, &[(0, 0), (14, 14)], &[]);
        assert!(
            board.get(m).is_none() && !board.is_forbidden(m),
            "rule {rule}: {m}"
        );
        if rule != 4 {
            // The double four; in renju it is forbidden for black, who wins another way.
            assert_eq!(m, Point::new(8, 5), "rule {rule}: {message}");
        } else {
            assert_ne!(
                m,
                Point::new(8, 5),
                "black played its forbidden double four"
            );
        }
    }
}

#[test]
fn refutes_the_opponents_forced_win() {
    for rule in [0, 1, 4] {
        let mut b = Brain::start();
        b.send("START 15");
        assert_eq!(b.answer(), "OK");
        b.send(&format!("INFO rule {rule}"));
        b.send("INFO timeout_turn 1000");
        // White to move (6 black, 5 white): black threatens the double four at 8,5.
        setup(&mut b, false, &[(0, 0)]);
        let m = b.expect_move();
        let board = board_after(rule, &[(0, 0)], &[m]);
        assert_eq!(board.side_to_move(), Color::Black);
        let verdict = Solver::new().vcf(&board, Color::Black, Budget::nodes(1_000_000));
        assert!(
            !matches!(verdict, Outcome::Win { .. }),
            "rule {rule}: after {m} black still wins: {verdict:?}"
        );
    }
}
