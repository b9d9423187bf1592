//! Protocol modes, the extended-Gomocup and Yixin commands that need no search, and Yixin's
//! transposed coordinates, through the real binary.
mod common;

use common::{config_with, Brain};
use hoshi::game::{Board, Point, Rule};
use std::time::Duration;

fn renju_position() -> Vec<Point> {
    // REFERENCE.md's referee example: after h8 h9 i7 i9 h10 i6 i11 i12 black must not play g9.
    // Columns a.. = x 0.., rows 1.. = y 0.. (the orientation that makes g9 forbidden is tested
    // in tests/rules.rs; here we only need a position with forbidden points).
    let moves = [
        (7, 7),
        (7, 8),
        (8, 6),
        (8, 8),
        (7, 9),
        (8, 5),
        (8, 10),
        (8, 11),
    ];
    moves.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

/// Sends `command`'s board block: `moves` in order (black first), black's stones with field
/// `black_field` and white's with the other, then the block's end (`done` after a lowercase word).
fn send_block(b: &mut Brain, command: &str, moves: &[Point], black_field: u8) {
    b.send(command);
    for (i, m) in moves.iter().enumerate() {
        let field = if i % 2 == 0 {
            black_field
        } else {
            3 - black_field
        };
        b.send(&format!("{m},{field}"));
    }
    let lowercase = command.chars().all(|c| !c.is_ascii_uppercase());
    b.send(if lowercase { "done" } else { "DONE" });
}

fn board_of(moves: &[Point]) -> Board {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    for &m in moves {
        b.play(m).unwrap();
    }
    b
}

#[test]
fn gomocup_mode_answers_unknown_to_other_dialects() {
    let cfg = config_with("gomocup-mode", "[protocol]\nmode = \"gomocup\"\n");
    let mut b = Brain::start_with_config(&cfg);
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    for line in ["PROTOCOLVERSION", "yxshowforbid", "yxnbest 2", "STOP"] {
        b.send(line);
        assert_eq!(b.answer(), format!("UNKNOWN {line}"));
    }
    b.send("SWAP2BOARD");
    b.send("DONE");
    assert_eq!(b.answer(), "UNKNOWN DONE");
    // INFO prints nothing in gomocup mode, not even INFO evaluate (debug-only there); an
    // extended INFO key changes nothing: still a plain move, no SUGGEST.
    b.send("INFO evaluate 3,4");
    b.expect_silence(Duration::from_millis(200));
    b.send("INFO analysis_mode 1");
    b.send("INFO timeout_turn 100");
    b.send("TURN 7,7");
    b.expect_move();
}

#[test]
fn auto_mode_speaks_every_dialect() {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("PROTOCOLVERSION");
    assert_eq!(b.answer(), "1,0");
    b.send("yxshowforbid");
    assert_eq!(b.answer(), "FORBID .");
    b.send("yxshowinfo");
    assert!(b.line().starts_with("MESSAGE INFO MAX_THREAD_NUM"));
    assert!(b.line().starts_with("MESSAGE INFO MAX_HASH_SIZE"));
    b.send("CLEARHASH");
    b.send("yxhashclear");
    b.expect_silence(Duration::from_millis(200));
}

#[test]
fn showforbid_agrees_with_the_board() {
    let moves = renju_position();
    let expected = board_of(&moves).forbidden_points();
    assert!(
        !expected.is_empty(),
        "test position should have forbidden points"
    );
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO rule 4");
    // Extended SHOWFORBID: its own board block, answered "FORBID x,y x,y".
    // We would be black to move here (8 stones): black stones are "own" (1).
    send_block(&mut b, "SHOWFORBID", &moves, 1);
    let a = b.answer();
    let mut got: Vec<Point> = a
        .strip_prefix("FORBID")
        .unwrap()
        .split_whitespace()
        .map(|t| common::parse_move(t).unwrap())
        .collect();
    got.sort();
    let mut want = expected.clone();
    want.sort();
    assert_eq!(got, want, "{a}");
    // Yixin: yxboard sets the position, yxshowforbid answers in 2-digit form.
    send_block(&mut b, "yxboard", &moves, 1);
    b.expect_silence(Duration::from_millis(200));
    b.send("yxshowforbid");
    let a = b.answer();
    let body = a
        .strip_prefix("FORBID ")
        .unwrap()
        .strip_suffix('.')
        .unwrap();
    let mut got: Vec<Point> = body
        .as_bytes()
        .chunks(4)
        .map(|c| {
            let s = std::str::from_utf8(c).unwrap();
            Point::new(s[..2].parse().unwrap(), s[2..].parse().unwrap())
        })
        .collect();
    got.sort();
    assert_eq!(got, want, "{a}");
}

#[test]
fn analysis_mode_suggests_and_play_imposes() {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 100");
    b.send("INFO analysis_mode 1");
    b.send("TURN 7,7");
    let a = b.answer();
    let suggested =
        common::parse_move(a.strip_prefix("SUGGEST ").expect("SUGGEST answer")).unwrap();
    // The state did not change: the suggested point is still free, PLAY puts it there.
    b.send(&format!("PLAY {suggested}"));
    assert_eq!(b.answer(), format!("{suggested}"));
    b.send(&format!("PLAY {suggested}"));
    assert!(b.answer().starts_with("ERROR"), "occupied PLAY accepted");
}

#[test]
fn yixin_transposed_coordinates() {
    let cfg = config_with(
        "yixin-transpose",
        "[protocol]\nmode = \"yixin\"\nyixin_transpose = true\n",
    );
    let mut b = Brain::start_with_config(&cfg);
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 200");
    // Black (the opponent) has four in a column x=3, rows 3..6, sent as (row, column).
    b.send("BOARD");
    for (x, y, f) in [
        (3, 3, 2),
        (3, 4, 2),
        (3, 5, 2),
        (3, 6, 2),
        (10, 10, 1),
        (12, 1, 1),
        (1, 12, 1),
    ] {
        b.send(&format!("{y},{x},{f}"));
    }
    b.send("DONE");
    let m = b.expect_move();
    // The block is at x=3, y=2 or y=7, which Yixin-Board reads as (row, column) = (2,3) / (7,3).
    assert!(m == Point::new(2, 3) || m == Point::new(7, 3), "got {m}");
}

#[test]
fn info_evaluate_answers_from_the_tree() {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 300");
    b.send("TURN 7,7");
    let m = b.expect_move();
    // The tree was rooted before our move: the path from now on is our move's subtree.
    b.send("INFO evaluate");
    let now = b.line();
    assert!(now.starts_with("MESSAGE depth"), "{now}");
    assert!(now.contains(" n "), "{now}");
    // A path into the tree: the opponent's most likely reply is in it if anything is.
    b.send("INFO evaluate 0,0 0,1 0,2 0,3");
    assert_eq!(
        b.line(),
        "MESSAGE",
        "a path far from the tree must give an empty MESSAGE"
    );
    b.send("INFO evaluate 99,99");
    assert_eq!(b.line(), "MESSAGE");
    let _ = m;
}

#[test]
fn yixin_realtime_output_while_searching() {
    // The search must run long enough to report: no early stop on a settled move.
    let cfg = config_with("realtime", "[search]\nsmart_stop = false\n");
    let mut b = Brain::start_with_config(&cfg);
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO show_detail 1");
    b.send("INFO timeout_turn 1500");
    b.send("TURN 7,7");
    let mut realtime = Vec::new();
    let mut pv_blocks = 0;
    let m = loop {
        let l = b.line();
        if l == "INFO PV DONE" {
            pv_blocks += 1;
        }
        if let Some(p) = l.strip_prefix("MESSAGE REALTIME BEST ") {
            realtime.push(common::parse_move(p).expect("a point"));
        } else if let Some(p) = common::parse_move(&l) {
            break p;
        }
    };
    assert!(!realtime.is_empty(), "no live output in {:?}", b.transcript);
    assert!(pv_blocks > 0, "no live INFO PV block in {:?}", b.transcript);
    for p in &realtime {
        assert!(*p != Point::new(7, 7) && p.x < 15 && p.y < 15);
    }
    assert_ne!(m, Point::new(7, 7));
}

#[test]
fn no_forbidden_points_when_white_is_to_move() {
    // The referee position plus one more black stone: white to move. Black's forbidden points
    // are still there, but only the side to move could play one: FORBID lists none.
    let mut moves = renju_position();
    moves.push(Point::new(0, 0));
    assert!(!board_of(&moves).forbidden_points().is_empty());
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO rule 4");
    // White to move: white stones are "own" (1), black's "opponent" (2).
    send_block(&mut b, "SHOWFORBID", &moves, 2);
    assert_eq!(b.answer(), "FORBID");
    send_block(&mut b, "yxboard", &moves, 2);
    b.send("yxshowforbid");
    assert_eq!(b.answer(), "FORBID .");
}

/// Black (us) has four in a row on row 7 from 3,7 to 6,7, white blocks 2,7: 7,7 is the only win.
fn one_winning_point(b: &mut Brain, command: &str) {
    b.send(command);
    for s in [
        "3,7,1", "4,7,1", "5,7,1", "6,7,1", "2,7,2", "3,4,2", "10,10,2", "11,12,2",
    ] {
        b.send(s);
    }
    b.send(if command == "yxboard" { "done" } else { "DONE" });
}

#[test]
fn a_yxblock_point_is_never_played_even_when_it_wins() {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 500");
    // Yixin-Board sends the block first, then the position.
    b.send("yxblock");
    b.send("7,7");
    b.send("done");
    one_winning_point(&mut b, "BOARD");
    assert_ne!(b.expect_move(), Point::new(7, 7), "{:?}", b.transcript);
    // Still blocked for the n-best analysis of a position set afterwards.
    one_winning_point(&mut b, "yxboard");
    b.send("yxnbest 3");
    let mut suggested = Vec::new();
    loop {
        let l = b.line();
        if let Some(line) = l.strip_prefix("INFO BESTLINE ") {
            suggested.extend(
                line.split_whitespace()
                    .take(1)
                    .map(|t| common::parse_move(t).unwrap()),
            );
        } else if let Some(m) = common::parse_move(&l) {
            suggested.push(m);
            break;
        }
    }
    assert!(!suggested.contains(&Point::new(7, 7)), "{:?}", b.transcript);
    // After yxblockreset the winning point is played again.
    b.send("yxblockreset");
    one_winning_point(&mut b, "BOARD");
    assert_eq!(b.expect_move(), Point::new(7, 7));
}

#[test]
fn yxshowinfo_offers_a_hash_size_and_hash_size_is_the_memory_budget() {
    let mut b = Brain::start();
    b.send("yxshowinfo");
    assert!(b.line().starts_with("MESSAGE INFO MAX_THREAD_NUM"));
    let max: u32 = b
        .line()
        .strip_prefix("MESSAGE INFO MAX_HASH_SIZE ")
        .expect("MAX_HASH_SIZE line")
        .parse()
        .unwrap();
    // A power of two of KiB: 2^21 KiB = 2 GiB, the default tree cap.
    assert!((16..=40).contains(&max), "{max}");
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    // hash_size is KiB (as Yixin-Board sends it); a tiny one is refused as too little memory,
    // exactly like max_memory.
    b.send("INFO hash_size 64");
    b.send("INFO timeout_turn 200");
    b.send("BEGIN");
    assert!(
        b.answer().starts_with("ERROR INFO hash_size 64"),
        "{:?}",
        b.transcript
    );
    let first = b.expect_move();
    b.send("INFO hash_size 65536");
    b.send(&format!(
        "TURN {}",
        if first == Point::new(6, 6) {
            "8,8"
        } else {
            "6,6"
        }
    ));
    b.expect_move();
}
