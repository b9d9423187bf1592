//! Extended Gomocup and Yixin commands that need the search, through the real binary:
//! SWAP2BOARD driven to the end, SWAPBOARD, BALANCE, PONDER/STOP, yxnbest, yxbalance*,
//! yxswap2step*, yxdraw/yxresign.
mod common;

use common::{parse_move, Brain};
use hoshi::game::{Board, MoveOutcome, Point, Rule};
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn moves_of(line: &str) -> Vec<Point> {
    line.split_whitespace()
        .map(|t| parse_move(t).unwrap_or_else(|| panic!("not a move list: {line:?}")))
        .collect()
}

/// Plays `stones` in order on an empty board: each must be legal and none may end the game.
fn check_opening(rule: Rule, stones: &[Point]) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for &p in stones {
        assert_eq!(b.play(p).unwrap(), MoveOutcome::Ongoing, "{stones:?}");
    }
    b
}

fn started(rule: i64) -> Brain {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send(&format!("INFO rule {rule}"));
    b.send("INFO timeout_turn 300");
    b
}

#[test]
fn swap2_opening_driven_to_the_end() {
    // Two brains: A opens, B chooses, A chooses again if B put two stones; then the game goes on.
    let mut a = started(1);
    let mut b = started(1);
    a.send("SWAP2BOARD");
    a.send("DONE");
    let three = moves_of(&a.answer());
    assert_eq!(three.len(), 3);
    let mut stones = three.clone();
    check_opening(Rule::Standard, &stones);
    b.send("SWAP2BOARD");
    for p in &stones {
        b.send(&p.to_string());
    }
    b.send("DONE");
    let answer = b.answer();
    if answer != "SWAP" {
        let extra = moves_of(&answer);
        assert!(extra.len() == 1 || extra.len() == 2, "{answer}");
        stones.extend(&extra);
        check_opening(Rule::Standard, &stones);
        if extra.len() == 2 {
            a.send("SWAP2BOARD");
            for p in &stones {
                a.send(&p.to_string());
            }
            a.send("DONE");
            let last = a.answer();
            if last != "SWAP" {
                let sixth = moves_of(&last);
                assert_eq!(sixth.len(), 1, "{last}");
                stones.extend(&sixth);
                check_opening(Rule::Standard, &stones);
            }
        }
    }
    // The opening becomes a normal game: whoever is to move gets a BOARD and answers a move.
    let board = check_opening(Rule::Standard, &stones);
    let mut c = started(1);
    c.send("BOARD");
    let me = board.side_to_move();
    for (i, p) in stones.iter().enumerate() {
        let colour = if i % 2 == 0 {
            hoshi::game::Color::Black
        } else {
            hoshi::game::Color::White
        };
        c.send(&format!("{p},{}", if colour == me { 1 } else { 2 }));
    }
    c.send("DONE");
    let m = c.expect_move();
    assert!(board.get(m).is_none());
}

#[test]
fn swap2_and_swap_errors_and_cases() {
    let mut b = started(0);
    b.send("SWAP2BOARD");
    b.send("7,7");
    b.send("DONE");
    assert!(
        b.answer().starts_with("ERROR"),
        "one stone is no swap2 case"
    );
    b.send("SWAPBOARD");
    b.send("DONE");
    let three = moves_of(&b.answer());
    assert_eq!(three.len(), 3);
    check_opening(Rule::Freestyle, &three);
    b.send("SWAPBOARD");
    for p in &three {
        b.send(&p.to_string());
    }
    b.send("DONE");
    let a = b.answer();
    if a != "SWAP" {
        let m = moves_of(&a);
        assert_eq!(m.len(), 1);
        let mut all = three.clone();
        all.extend(m);
        check_opening(Rule::Freestyle, &all);
    }
    b.send("SWAP2BOARD");
    b.send("7,7");
    b.send("7,7");
    b.send("8,8");
    b.send("DONE");
    assert!(b.answer().starts_with("ERROR"), "occupied stone accepted");
}

#[test]
fn balance_gives_n_legal_stones() {
    let mut b = started(4);
    for n in [1, 2, 4] {
        b.send(&format!("BALANCE {n}"));
        for l in ["7,7,2", "8,8,1", "6,8,2"] {
            b.send(l);
        }
        b.send("DONE");
        let stones = moves_of(&b.answer());
        assert_eq!(stones.len(), n);
        let mut all = vec![Point::new(7, 7), Point::new(8, 8), Point::new(6, 8)];
        all.extend(&stones);
        check_opening(Rule::Renju, &all);
    }
    b.send("BALANCE 0");
    b.send("DONE");
    assert!(b.answer().starts_with("ERROR"));
}

#[test]
fn ponder_then_stop_and_new_position() {
    let mut b = started(0);
    b.send("TURN 7,7");
    let m = b.expect_move();
    b.send("PONDER");
    b.expect_silence(Duration::from_millis(300));
    b.send("STOP");
    b.expect_silence(Duration::from_millis(200));
    // Pondering again, then a TURN ends it and is answered normally.
    b.send("PONDER");
    std::thread::sleep(Duration::from_millis(100));
    let reply = if m == Point::new(8, 8) {
        Point::new(6, 6)
    } else {
        Point::new(8, 8)
    };
    b.send(&format!("TURN {reply}"));
    let m2 = b.expect_move();
    assert!(m2 != m && m2 != reply && m2 != Point::new(7, 7));
    // A timed ponder ends by itself, silently.
    b.send("PONDER 100");
    b.expect_silence(Duration::from_millis(400));
    let t = Instant::now();
    let (took, _) = b.end();
    // Prompt, with a margin for process teardown on a loaded machine.
    assert!(took < Duration::from_secs(2), "{took:?} {:?}", t.elapsed());
}

#[test]
fn stop_answers_a_long_search_at_once() {
    let mut b = started(0);
    b.send("INFO timeout_turn 60000");
    b.send("INFO time_left 2147483647");
    b.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    b.send("yxstop");
    let m = b.expect_move();
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    assert_ne!(m, Point::new(7, 7));
}

#[test]
fn yixin_nbest_balance_swap2_steps() {
    let mut b = started(2);
    b.send("yxboard");
    for l in ["7,7,2", "8,7,1", "7,8,2"] {
        b.send(l);
    }
    b.send("done");
    b.send("yxnbest 3");
    let mut pv_moves = Vec::new();
    let best = loop {
        let l = b.line();
        if let Some(rest) = l.strip_prefix("INFO BESTLINE ") {
            pv_moves.push(parse_move(rest.split_whitespace().next().unwrap()).unwrap());
        } else if let Some(p) = parse_move(&l) {
            break p;
        }
    };
    let taken = [Point::new(7, 7), Point::new(8, 7), Point::new(7, 8)];
    assert!(!pv_moves.is_empty() && pv_moves.len() <= 3);
    let distinct: HashSet<_> = pv_moves.iter().collect();
    assert_eq!(distinct.len(), pv_moves.len(), "{pv_moves:?}");
    for p in pv_moves.iter().chain([&best]) {
        assert!(!taken.contains(p) && p.x < 15 && p.y < 15);
    }
    assert_eq!(pv_moves[0], best);
    // yxnbest did not play: the same position can be asked again.
    b.send("yxbalanceone 0");
    let one = moves_of(&b.answer());
    assert_eq!(one.len(), 1);
    assert!(!taken.contains(&one[0]));
    b.send("yxbalancetwo 0");
    let two = moves_of(&b.answer());
    assert_eq!(two.len(), 2);
    // yxswap2step1 on an empty board proposes three stones.
    b.send("yxboard");
    b.send("done");
    b.send("yxswap2step1");
    let three = moves_of(&b.answer());
    assert_eq!(three.len(), 3);
    check_opening(Rule::Renju, &three);
    // The GUI's end-of-game notices need no answer.
    b.send("yxdraw");
    b.send("yxresign");
    b.expect_silence(Duration::from_millis(200));
}
