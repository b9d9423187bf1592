//! The Gomocup protocol (seed 001) through the real binary: every example of the seed, full
//! games, BOARD/TURN continuation, TAKEBACK, RESTART, END, and every kind of bad input.
mod common;

use common::{parse_move, Brain};
use hoshi::game::{Board, Color, MoveOutcome, Point, Rule};
use std::time::Duration;

/// Starts a brain on a `w`x`h` board that answers within ~`turn_ms`.
fn started(w: usize, h: usize, turn_ms: u32) -> Brain {
    let mut b = Brain::start();
    if w == h {
        b.send(&format!("START {w}"));
    } else {
        b.send(&format!("RECTSTART {w},{h}"));
    }
    assert_eq!(b.answer(), "OK");
    b.send(&format!("INFO timeout_turn {turn_ms}"));
    b.send("INFO timeout_match 0");
    b
}

fn legal_on(board: &Board, p: Point) -> bool {
    (p.x as usize) < board.width() && (p.y as usize) < board.height() && board.get(p).is_none()
}

#[test]
fn seed_start_answers_ok_and_bad_sizes_error() {
    let mut b = Brain::start();
    b.send("START 20");
    assert_eq!(b.answer(), "OK");
    for bad in [
        "START 4", "START 33", "START 0", "START -5", "START", "START x",
    ] {
        b.send(bad);
        let a = b.answer();
        assert!(a.starts_with("ERROR"), "{bad} -> {a}");
    }
    // The 20x20 game is still there.
    b.send("TURN 10,10");
    let m = b.expect_move();
    assert!(m != Point::new(10, 10) && m.x < 20 && m.y < 20);
}

#[test]
fn seed_turn_begin_board_examples() {
    let mut b = started(20, 20, 200);
    b.send("TURN 10,10");
    let m = b.expect_move();
    assert!(m != Point::new(10, 10) && m.x < 20 && m.y < 20);

    b.send("RESTART");
    assert_eq!(b.answer(), "OK");
    b.send("BEGIN");
    let m = b.expect_move();
    assert!(m.x < 20 && m.y < 20);

    b.send("RESTART");
    assert_eq!(b.answer(), "OK");
    for l in ["BOARD", "10,10,1", "10,11,2", "11,11,1", "9,10,2", "DONE"] {
        b.send(l);
    }
    let m = b.expect_move();
    let taken = [(10, 10), (10, 11), (11, 11), (9, 10)];
    assert!(!taken.contains(&(m.x, m.y)), "played on a stone: {m}");
}

#[test]
fn info_prints_nothing_and_about_answers() {
    let mut b = Brain::start();
    for l in [
        "INFO timeout_match 300000",
        "INFO timeout_turn 10000",
        "INFO max_memory 83886080",
        "INFO time_left 300000",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO folder C:\\some folder\\x",
        "INFO some_future_key 42",
        "INFO rule 77",
    ] {
        b.send(l);
    }
    b.expect_silence(Duration::from_millis(300));
    b.send("ABOUT");
    let a = b.answer();
    assert!(a.starts_with("name=\"hoshi\""), "{a}");
    for key in ["version=", "author=", "country=", "www=", "email="] {
        assert!(a.contains(key), "{a} lacks {key}");
    }
}

#[test]
fn unachievable_info_is_reported_at_the_next_turn() {
    let mut b = started(15, 15, 100);
    b.send("INFO rule 77");
    b.expect_silence(Duration::from_millis(200));
    b.send("TURN 7,7");
    let a = b.answer();
    assert!(a.starts_with("ERROR") && a.contains("77"), "{a}");
    b.expect_move();
}

/// How long END may take to end the process.
const END_GRACE: Duration = Duration::from_secs(2);

#[test]
fn end_exits_fast_even_while_thinking() {
    let mut b = started(15, 15, 60_000);
    b.send("INFO time_left 2147483647");
    b.send("BEGIN");
    std::thread::sleep(Duration::from_millis(300));
    let (took, _) = b.end();
    // Far below the 60 s the search was given; the margin is for a loaded machine (process
    // teardown alone took ~0.6 s while two self-play workers kept both cores busy).
    assert!(took < END_GRACE, "END took {took:?}");
}

#[test]
fn end_when_idle_exits_with_success() {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    let (took, status) = b.end();
    assert!(status.success());
    assert!(took < END_GRACE, "END took {took:?}");
}

#[test]
fn board_then_turn_continues() {
    let mut b = started(15, 15, 100);
    for l in ["BOARD", "7,7,2", "8,8,1", "6,6,2", "DONE"] {
        b.send(l);
    }
    let m1 = b.expect_move();
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    for p in [Point::new(7, 7), Point::new(8, 8), Point::new(6, 6)] {
        board.play(p).unwrap();
    }
    assert!(legal_on(&board, m1));
    board.play(m1).unwrap();
    // The opponent now has 6,6 7,7 and must be stopped at some point; just check continuation.
    let reply = (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
        .find(|&p| board.get(p).is_none())
        .unwrap();
    board.play(reply).unwrap();
    b.send(&format!("TURN {reply}"));
    let m2 = b.expect_move();
    assert!(legal_on(&board, m2), "{m2} is not legal after BOARD+TURN");
}

#[test]
fn blocks_an_open_four_and_wins_a_five() {
    // We are to move (white) with black threatening a four; we must block at once.
    let mut b = started(15, 15, 200);
    for l in [
        "BOARD", "3,7,2", "4,7,2", "5,7,2", "6,7,2", "3,3,1", "10,10,1", "12,1,1", "DONE",
    ] {
        b.send(l);
    }
    let m = b.expect_move();
    assert!(
        m == Point::new(2, 7) || m == Point::new(7, 7),
        "did not block: {m}"
    );
    // Our own four on the board: win at once.
    b.send("RESTART");
    assert_eq!(b.answer(), "OK");
    for l in [
        "BOARD", "3,3,1", "4,3,1", "5,3,1", "6,3,1", "1,10,2", "5,10,2", "9,10,2", "12,12,2",
        "DONE",
    ] {
        b.send(l);
    }
    let m = b.expect_move();
    assert!(
        m == Point::new(2, 3) || m == Point::new(7, 3),
        "missed the win: {m}"
    );
}

#[test]
fn takeback_and_restart() {
    let mut b = started(15, 15, 100);
    b.send("TURN 7,7");
    let m = b.expect_move();
    b.send(&format!("TAKEBACK {m}"));
    assert_eq!(b.answer(), "OK");
    b.send("TAKEBACK 7,7");
    assert_eq!(b.answer(), "OK");
    // The board is empty again: 7,7 may be played by either side.
    b.send("TURN 7,7");
    let m2 = b.expect_move();
    assert_ne!(m2, Point::new(7, 7));
    // TAKEBACK of an empty point is an error and changes nothing.
    b.send("TAKEBACK 0,0");
    assert!(b.answer().starts_with("ERROR"));
    b.send("TURN 7,7");
    assert!(
        b.answer().starts_with("ERROR"),
        "7,7 should still be occupied"
    );
    b.send("RESTART");
    assert_eq!(b.answer(), "OK");
    b.send("TURN 7,7");
    b.expect_move();
}

/// A scripted opponent that plays the first empty point of a fixed scan, skipping the corners
/// of the brain's lines only by chance: the brain must win against it every time.
fn play_full_game(w: usize, h: usize, rule_code: i64, brain_begins: bool) {
    let rule = Rule::from_protocol(rule_code).unwrap();
    let mut b = started(w, h, 60);
    b.send(&format!("INFO rule {rule_code}"));
    let mut board = Board::new(w, h, rule).unwrap();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15 ^ (w as u64 * 131 + h as u64);
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let brain_colour = if brain_begins {
        Color::Black
    } else {
        Color::White
    };
    let mut next_cmd = if brain_begins {
        "BEGIN".to_string()
    } else {
        let p = Point::new((w / 2) as u8, (h / 2) as u8);
        board.play(p).unwrap();
        format!("TURN {p}")
    };
    for _ in 0..(w * h) {
        b.send(&next_cmd);
        let m = b.expect_move();
        assert!(
            legal_on(&board, m),
            "illegal move {m}; transcript {:?}",
            b.transcript
        );
        assert_eq!(board.side_to_move(), brain_colour);
        match board.play(m).unwrap() {
            MoveOutcome::Win(c) => {
                assert_eq!(c, brain_colour);
                return;
            }
            MoveOutcome::ForbiddenLoss => panic!("brain played a forbidden point {m}"),
            MoveOutcome::Draw => panic!("draw against a random mover"),
            MoveOutcome::Ongoing => {}
        }
        // The opponent: a random empty point.
        let empties: Vec<Point> = (0..h as u8)
            .flat_map(|y| (0..w as u8).map(move |x| Point::new(x, y)))
            .filter(|&p| board.get(p).is_none() && !board.is_forbidden(p))
            .collect();
        let p = empties[(rnd() % empties.len() as u64) as usize];
        match board.play(p).unwrap() {
            MoveOutcome::Ongoing => {}
            other => panic!("random mover ended the game: {other:?}"),
        }
        next_cmd = format!("TURN {p}");
    }
    panic!("no result");
}

#[test]
fn wins_full_games_against_a_random_mover() {
    play_full_game(15, 15, 1, true);
    play_full_game(20, 20, 0, false);
    play_full_game(12, 25, 0, true);
    play_full_game(15, 15, 4, true);
    play_full_game(15, 15, 4, false);
    play_full_game(15, 15, 8, false);
}

#[test]
fn bad_input_is_answered_and_the_game_goes_on() {
    let mut b = Brain::start();
    // Before START.
    for l in ["TURN 1,1", "BEGIN", "TAKEBACK 1,1", "RESTART"] {
        b.send(l);
        assert!(b.answer().starts_with("ERROR"), "{l}");
    }
    b.send("BOARD");
    b.send("1,1,1");
    b.send("DONE");
    assert!(b.answer().starts_with("ERROR"));
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 100");
    let bad = [
        "TURN 15,3",                   // off board
        "TURN 3,15",                   // off board
        "TURN -1,3",                   // negative
        "TURN 3",                      // missing y
        "TURN a,b",                    // not numbers
        "TURN 99999999999999999999,1", // overflow
        "RECTSTART 4,10",
        "RECTSTART 10",
    ];
    for l in bad {
        b.send(l);
        let a = b.answer();
        assert!(a.starts_with("ERROR"), "{l} -> {a}");
    }
    b.send("FOO BAR");
    assert_eq!(b.answer(), "UNKNOWN FOO BAR");
    // Bad boards: impossible counts, a five, duplicates, off-board stones.
    let boards: [&[&str]; 5] = [
        &["1,1,1", "2,2,1"],
        &["1,1,2", "2,2,2", "3,3,2"],
        &[
            "1,1,1", "2,1,1", "3,1,1", "4,1,1", "5,1,1", "1,5,2", "2,5,2", "3,5,2", "9,9,2",
            "12,12,2",
        ],
        &["1,1,1", "1,1,2"],
        &["20,1,1", "2,2,2"],
    ];
    for stones in boards {
        b.send("BOARD");
        for s in stones {
            b.send(s);
        }
        b.send("DONE");
        let a = b.answer();
        assert!(a.starts_with("ERROR"), "{stones:?} -> {a}");
    }
    // After all that, the game starts and continues normally.
    b.send("TURN 7,7");
    let m = b.expect_move();
    assert_ne!(m, Point::new(7, 7));
    b.send(&format!("TURN {m}"));
    assert!(b.answer().starts_with("ERROR"), "occupied point accepted");
    b.send("TURN 7,8");
    let m2 = b.expect_move();
    assert!(m2 != m && m2 != Point::new(7, 7) && m2 != Point::new(7, 8));
}

#[test]
fn random_garbage_never_kills_the_brain() {
    let mut b = started(15, 15, 50);
    let mut seed: u64 = 12345;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let words = [
        "TURN",
        "BEGIN",
        "BOARD",
        "DONE",
        "INFO",
        "START",
        "RECTSTART",
        "RESTART",
        "TAKEBACK",
        "ABOUT",
        "yxboard",
        "SWAP2BOARD",
        "PLAY",
        "PONDER",
        "STOP",
        "yxblock",
        "timeout_turn",
        "rule",
        "1,1",
        "7,7,1",
        ",",
        "-",
        "99999999999999999999999",
        "\t",
        "\u{fffd}",
        "é",
        "0",
        "300,300",
    ];
    let mut sent = 0;
    while sent < 3000 {
        let n = (rnd() % 4) as usize;
        let mut line = String::new();
        for i in 0..n {
            if i > 0 {
                line.push(if rnd() % 3 == 0 { ',' } else { ' ' });
            }
            line.push_str(words[(rnd() % words.len() as u64) as usize]);
        }
        // Never send END, the one command that must kill it; and keep away from commands
        // that would start a search of their own, so the output stays bounded.
        let upper = line.trim().to_uppercase();
        if upper.contains("END")
            || upper.contains("MARKER")
            || upper.starts_with("TURN")
            || upper.starts_with("BEGIN")
            || upper.starts_with("BOARD")
            || upper.starts_with("PONDER")
            || upper.starts_with("START")
            || upper.starts_with("RECTSTART")
            || upper.starts_with("SWAP")
            || upper.starts_with("PLAY")
        {
            continue;
        }
        // Truncate some lines mid-word.
        if rnd() % 5 == 0 && !line.is_empty() {
            let cut = (rnd() % line.len() as u64) as usize;
            while !line.is_char_boundary(cut.min(line.len())) {
                line.pop();
            }
            line.truncate(cut.min(line.len()));
        }
        b.send(&line);
        sent += 1;
    }
    b.send_raw(&[0xff, 0xfe, b'\r', b'\n']);
    // Close any block the garbage may have opened, then play on.
    b.send("DONE");
    b.send("RESTART");
    b.send("INFO rule 0");
    b.send("INFO timeout_turn 100");
    // Drain until this marker's answer shows everything above was processed.
    b.send("END_OF_GARBAGE_MARKER");
    loop {
        let l = b.line();
        if l == "UNKNOWN END_OF_GARBAGE_MARKER" {
            break;
        }
    }
    b.send("TURN 7,7");
    let m = b.expect_move();
    assert!(m != Point::new(7, 7) && m.x < 15 && m.y < 15);
    assert!(parse_move(&format!("{m}")).is_some());
}

/// The MESSAGE line before the next move, and that move.
fn message_and_move(b: &mut Brain) -> (String, Point) {
    let mut message = String::new();
    loop {
        let l = b.line();
        if l.starts_with("MESSAGE depth") {
            message = l;
        } else if let Some(m) = common::parse_move(&l) {
            return (message, m);
        }
    }
}

/// A game at 10 s a move whose BOARD gives field `owner` an open four on row 5 (3,5 to 6,5) and
/// the other side four scattered stones; black is to move.
fn open_four_on_row_5(owner: u8) -> Brain {
    let mut b = Brain::start();
    b.send("START 15");
    assert_eq!(b.answer(), "OK");
    b.send("INFO timeout_turn 10000");
    b.send("BOARD");
    let other = 3 - owner;
    for (x, y) in [(3, 5), (4, 5), (5, 5), (6, 5)] {
        b.send(&format!("{x},{y},{owner}"));
    }
    for (x, y) in [(0, 10), (2, 12), (10, 0), (12, 2)] {
        b.send(&format!("{x},{y},{other}"));
    }
    b.send("DONE");
    b
}

#[test]
fn a_finished_game_is_answered_at_once_and_never_as_a_win() {
    // The opponent has an open four on row 5; we (black, to move) can block one end only.
    let mut b = open_four_on_row_5(2);
    let (_, block) = message_and_move(&mut b);
    let other = if block == Point::new(2, 5) {
        Point::new(7, 5)
    } else {
        Point::new(2, 5)
    };
    // qpiskvork sends the loser the move that completes the five before END.
    let sent = std::time::Instant::now();
    b.send(&format!("TURN {other}"));
    let (message, m) = message_and_move(&mut b);
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "searched a finished game for {:?}",
        sent.elapsed()
    );
    assert!(message.contains(" ev -M"), "{message}");
    assert!(!message.contains(" ev +M"), "{message}");
    assert!(m != other && m != block, "{m}");
}

#[test]
fn our_own_five_on_the_board_is_reported_won() {
    // We have an open four and play the five.
    let mut b = open_four_on_row_5(1);
    let (message, five) = message_and_move(&mut b);
    assert!(message.contains(" ev +M1"), "{message}");
    // A manager that still sends the opponent's move gets an answer at once, reported won.
    let sent = std::time::Instant::now();
    b.send("TURN 14,14");
    let (message, m) = message_and_move(&mut b);
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    assert!(message.contains(" ev +M0"), "{message}");
    assert!(m != five && m != Point::new(14, 14));
}

#[test]
fn a_turn_limit_alone_is_searched_to_its_end() {
    // No match clock: time a move leaves unused is lost, so the search does not stop once its
    // choice is settled but uses the turn less the brain's margins (100 ms by default).
    let mut b = started(15, 15, 1000);
    b.send("TURN 7,7");
    let (message, _) = message_and_move(&mut b);
    let searched_ms = common::reported_ms(&message).expect(&message);
    assert!(searched_ms >= 850, "{message}");
}
