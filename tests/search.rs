//! The tree search through its public API: tactics on every rule, tree reuse, the memory limit,
//! the stop flag, legality and proofs.
use hoshi::game::{Board, Color, MoveOutcome, Point, Rule};
use hoshi::search::mcts::{MctsThinker, Proof};
use hoshi::search::{Eval, Limits, MctsParams, ThinkRequest, ThinkResult, Thinker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

fn thinker() -> MctsThinker {
    MctsThinker::classical(MctsParams::default())
}

/// A search limited by playouts (and a generous time cap, so a slow machine cannot hang it).
fn nodes(n: u64, threads: usize) -> Limits {
    Limits {
        max_nodes: Some(n),
        ..Limits::movetime(10_000, threads)
    }
}

fn think_on(t: &mut MctsThinker, board: &Board, blocked: &[Point], limits: Limits) -> ThinkResult {
    let request = ThinkRequest {
        board: board.clone(),
        blocked: blocked.to_vec(),
        limits,
    };
    let result = t.think(&request, &AtomicBool::new(false));
    let best = result.best.expect("a move");
    assert_playable(board, blocked, best);
    result
}

fn assert_playable(board: &Board, blocked: &[Point], m: Point) {
    assert!(board.is_empty(m), "{m} is not empty\n{board}");
    assert!(!blocked.contains(&m), "{m} is blocked");
    if board.side_to_move() == Color::Black {
        assert!(!board.is_forbidden(m), "{m} is forbidden\n{board}");
    }
}

/// `board` with `rule`, from a diagram where the side to move follows the stone counts.
fn diagram(rule: Rule, text: &str) -> Board {
    Board::from_diagram(rule, text).unwrap()
}

#[test]
fn wins_in_one_on_every_rule_and_both_colours() {
    // Both sides have a four; the side to move must take its own five, not block.
    let text = "
        . . . . . . . . . . .
        . . x x x x . . . . .
        . . . . . . . . . . .
        . . o o o o . . . . .
        . . . . . . . . . . .
        . . . . . . . . . o .
        . . . . . . . . . . .
    ";
    for rule in Rule::ALL {
        for threads in [1, 2] {
            let mut b = diagram(rule, text);
            assert_eq!(b.side_to_move(), Color::White);
            let mut t = thinker();
            let r = think_on(&mut t, &b, &[], nodes(200, threads));
            let m = r.best.unwrap();
            assert!(m == p(1, 3) || m == p(6, 3), "{rule}: {m}");
            assert_eq!(r.info.eval, Eval::Win(1), "{rule}");
            // And black, after a quiet white move elsewhere.
            b.play(p(10, 6)).unwrap();
            let r = think_on(&mut t, &b, &[], nodes(200, threads));
            let m = r.best.unwrap();
            assert!(m == p(1, 1) || m == p(6, 1), "{rule}: {m}");
            assert_eq!(b.clone().play(m), Ok(MoveOutcome::Win(Color::Black)));
        }
    }
}

#[test]
fn blocks_a_four_every_time_on_every_rule() {
    let text = "
        . . . . . . . . . . .
        . o x x x x . . . . .
        . . . . . . . . . . .
        . . . o . . o . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    ";
    for rule in Rule::ALL {
        let b = diagram(rule, text);
        assert_eq!(b.side_to_move(), Color::White);
        for threads in [1, 2] {
            let mut t = thinker();
            let r = think_on(&mut t, &b, &[], nodes(300, threads));
            assert_eq!(r.best, Some(p(6, 1)), "{rule}");
        }
    }
}
