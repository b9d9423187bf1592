//! Parser tests: every example of the seeds (001 Gomocup, 003 extended, 004 Yixin, the
//! Yixin-Board list of REFERENCE.md), every kind of bad input, and a random-garbage fuzz.
use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// Feeds lines one by one and collects every answer (blocks give one answer at DONE).
fn feed_all(lines: &[&str]) -> Vec<Parsed> {
    let mut parser = Parser::new();
    lines.iter().filter_map(|l| parser.feed(l)).collect()
}

/// The single command that one line (or one block) amounts to.
fn command(lines: &[&str]) -> Command {
    match feed_all(lines).as_slice() {
        [Parsed::Command(c)] => c.clone(),
        other => panic!("{lines:?} gave {other:?}"),
    }
}

/// The single error message that one line (or block) amounts to.
fn error(lines: &[&str]) -> String {
    match feed_all(lines).as_slice() {
        [Parsed::Error { message }] => message.clone(),
        other => panic!("{lines:?} should be an error, gave {other:?}"),
    }
}

fn info(line: &str) -> InfoKey {
    match command(&[line]) {
        Command::Info(key) => key,
        other => panic!("{line} gave {other:?}"),
    }
}

// ---- 001: the Gomocup protocol ---------------------------------------------------------

#[test]
fn gomocup_simple_commands() {
    assert_eq!(command(&["START 20"]), Command::Start(20));
    assert_eq!(command(&["TURN 10,10"]), Command::Turn(p(10, 10)));
    assert_eq!(command(&["BEGIN"]), Command::Begin);
    assert_eq!(command(&["END"]), Command::End);
    assert_eq!(command(&["ABOUT"]), Command::About);
    assert_eq!(command(&["RESTART"]), Command::Restart);
    assert_eq!(command(&["RECTSTART 20,15"]), Command::RectStart(20, 15));
    assert_eq!(command(&["TAKEBACK 9,10"]), Command::Takeback(p(9, 10)));
}

#[test]
fn gomocup_board_example() {
    let cmd = command(&["BOARD", "10,10,1", "10,11,2", "11,11,1", "9,10,2", "DONE"]);
    assert_eq!(
        cmd,
        Command::Board {
            stones: vec![
                (p(10, 10), Field::Own),
                (p(10, 11), Field::Opponent),
                (p(11, 11), Field::Own),
                (p(9, 10), Field::Opponent),
            ],
            search: true,
        }
    );
}

#[test]
fn board_field_three_and_empty_board() {
    let cmd = command(&["BOARD", "0,0,3", "DONE"]);
    assert_eq!(
        cmd,
        Command::Board {
            stones: vec![(p(0, 0), Field::Winning)],
            search: true
        }
    );
    assert_eq!(
        command(&["BOARD", "DONE"]),
        Command::Board {
            stones: vec![],
            search: true
        }
    );
}

#[test]
fn gomocup_info_examples() {
    assert_eq!(
        info("INFO timeout_match 300000"),
        InfoKey::TimeoutMatch(300000)
    );
    assert_eq!(info("INFO timeout_turn 10000"), InfoKey::TimeoutTurn(10000));
    assert_eq!(
        info("INFO max_memory 83886080"),
        InfoKey::MaxMemory(83886080)
    );
    assert_eq!(
        info("INFO time_left 2147483647"),
        InfoKey::TimeLeft(2147483647)
    );
    assert_eq!(info("INFO time_left -350"), InfoKey::TimeLeft(-350));
    assert_eq!(info("INFO game_type 1"), InfoKey::GameType(1));
    assert_eq!(info("INFO rule 4"), InfoKey::Rule(4));
    assert_eq!(info("INFO evaluate 4,5"), InfoKey::Evaluate(vec![p(4, 5)]));
    assert_eq!(
        info("INFO folder C:\\Documents and Settings\\All Users\\Application data"),
        InfoKey::Folder("C:\\Documents and Settings\\All Users\\Application data".into())
    );
}

#[test]
fn info_values_are_64_bit() {
    assert_eq!(
        info("INFO time_left 9223372036854775807"),
        InfoKey::TimeLeft(i64::MAX)
    );
    assert_eq!(
        info("INFO time_left -9223372036854775808"),
        InfoKey::TimeLeft(i64::MIN)
    );
    assert_eq!(info("INFO max_node +25"), InfoKey::MaxNode(25));
    let e = error(&["INFO time_left 9223372036854775808"]);
    assert!(e.contains("out of range"), "{e}");
}

#[test]
fn unknown_info_keys_are_kept_not_rejected() {
    assert_eq!(
        info("INFO Some_New_Key 12 34"),
        InfoKey::Unknown("some_new_key".into(), "12 34".into())
    );
    assert_eq!(
        info("INFO lonely"),
        InfoKey::Unknown("lonely".into(), String::new())
    );
}

// ---- 003: the extended Gomocup protocol -------------------------------------------------

#[test]
fn extended_simple_commands() {
    assert_eq!(command(&["PLAY 7,8"]), Command::Play(p(7, 8)));
    assert_eq!(command(&["PONDER"]), Command::Ponder(None));
    assert_eq!(command(&["PONDER 5000"]), Command::Ponder(Some(5000)));
    assert_eq!(command(&["PONDER -1"]), Command::Ponder(Some(-1)));
    assert_eq!(command(&["STOP"]), Command::Stop);
    assert_eq!(command(&["CLEARHASH"]), Command::ClearHash);
    assert_eq!(command(&["PROTOCOLVERSION"]), Command::ProtocolVersion);
}

#[test]
fn extended_info_keys() {
    assert_eq!(info("INFO evaluate"), InfoKey::Evaluate(vec![]));
    assert_eq!(info("INFO evaluate 3,4"), InfoKey::Evaluate(vec![p(3, 4)]));
    assert_eq!(
        info("INFO evaluate 3,4 5,6"),
        InfoKey::Evaluate(vec![p(3, 4), p(5, 6)])
    );
    assert_eq!(info("INFO rule 8"), InfoKey::Rule(8));
    assert_eq!(info("INFO analysis_mode 1"), InfoKey::AnalysisMode(1));
    assert_eq!(info("INFO max_depth -1"), InfoKey::MaxDepth(-1));
    assert_eq!(
        info("INFO max_node 2147483647"),
        InfoKey::MaxNode(2147483647)
    );
    assert_eq!(
        info("INFO time_increment 2000"),
        InfoKey::TimeIncrement(2000)
    );
    assert_eq!(info("INFO style 2"), InfoKey::Style(2));
    assert_eq!(info("INFO auto_pondering 0"), InfoKey::AutoPondering(0));
    assert_eq!(info("INFO protocol_lag 400"), InfoKey::ProtocolLag(400));
    assert_eq!(info("INFO thread_num 8"), InfoKey::ThreadNum(8));
}

#[test]
fn swap2board_three_cases() {
    assert_eq!(
        command(&["SWAP2BOARD", "DONE"]),
        Command::Swap2Board(vec![])
    );
    assert_eq!(
        command(&["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]),
        Command::Swap2Board(vec![p(7, 7), p(8, 7), p(9, 9)])
    );
    // The seed's own example writes "C5, R5" with a space.
    assert_eq!(
        command(&["SWAP2BOARD", "7,7", "8,7", "9,9", "6,5", "5, 5", "DONE"]),
        Command::Swap2Board(vec![p(7, 7), p(8, 7), p(9, 9), p(6, 5), p(5, 5)])
    );
}

#[test]
fn swapboard_cases_and_optional_field() {
    assert_eq!(command(&["SWAPBOARD", "DONE"]), Command::SwapBoard(vec![]));
    assert_eq!(
        command(&["SWAPBOARD", "7,7", "8,7,2", "9, 9", "DONE"]),
        Command::SwapBoard(vec![p(7, 7), p(8, 7), p(9, 9)])
    );
    let e = error(&["SWAPBOARD", "7,7,5", "DONE"]);
    assert!(e.contains("7,7,5") && e.contains("field 5"), "{e}");
}

#[test]
fn showforbid_block_and_yixin_word() {
    assert_eq!(
        command(&["SHOWFORBID", "7,7,1", "8,8,2", "DONE"]),
        Command::ShowForbid(Some(vec![
            (p(7, 7), Field::Own),
            (p(8, 8), Field::Opponent)
        ]))
    );
    assert_eq!(command(&["yxshowforbid"]), Command::ShowForbid(None));
}

#[test]
fn balance_example() {
    // As in 003 3.9, with the stray spaces of "[C2], [R2], 1".
    let cmd = command(&["BALANCE 2", "7,7,2", "8, 8, 1", "6,9,2", "DONE"]);
    assert_eq!(
        cmd,
        Command::Balance {
            n: 2,
            stones: vec![
                (p(7, 7), Field::Opponent),
                (p(8, 8), Field::Own),
                (p(6, 9), Field::Opponent)
            ],
        }
    );
    assert!(error(&["BALANCE"]).contains("needs a value"));
    assert!(error(&["BALANCE 0"]).contains("not a positive count"));
    assert!(error(&["BALANCE -2"]).contains("not a positive count"));
}

// ---- 004 and REFERENCE.md: Yixin ---------------------------------------------------------

#[test]
fn yixin_board_example() {
    let cmd = command(&["yxboard", "10,10,1", "10,11,2", "11,11,1", "9,10,2", "DONE"]);
    assert_eq!(
        cmd,
        Command::Board {
            stones: vec![
                (p(10, 10), Field::Own),
                (p(10, 11), Field::Opponent),
                (p(11, 11), Field::Own),
                (p(9, 10), Field::Opponent),
            ],
            search: false,
        }
    );
    // Yixin-Board writes everything in lower case, `done` included.
    assert_eq!(
        command(&["board", "7,7,2", "done"]),
        Command::Board {
            stones: vec![(p(7, 7), Field::Opponent)],
            search: true
        }
    );
}

#[test]
fn yixin_start_with_two_numbers() {
    assert_eq!(command(&["START 15 15"]), Command::Start(15));
    assert_eq!(command(&["start 15"]), Command::Start(15));
    assert_eq!(command(&["START 20 15"]), Command::RectStart(20, 15));
    assert_eq!(command(&["RECTSTART 20 15"]), Command::RectStart(20, 15));
    // RECTSTART keeps its own word even for a square board.
    assert_eq!(command(&["RECTSTART 15,15"]), Command::RectStart(15, 15));
}

#[test]
fn yixin_control_words() {
    assert_eq!(command(&["yxstop"]), Command::Stop);
    assert_eq!(command(&["yxhashclear"]), Command::ClearHash);
    assert_eq!(command(&["yxshowinfo"]), Command::YxShowInfo);
    assert_eq!(command(&["yxnbest 3"]), Command::YxNbest(3));
    assert_eq!(command(&["yxbalanceone 0"]), Command::YxBalanceOne(0));
    assert_eq!(command(&["yxbalancetwo -30"]), Command::YxBalanceTwo(-30));
    assert_eq!(command(&["yxsearchdefend"]), Command::YxSearchDefend);
    assert_eq!(command(&["yxdraw"]), Command::YxDraw);
    assert_eq!(command(&["yxresign"]), Command::YxResign);
    assert_eq!(command(&["yxblockreset"]), Command::YxBlockReset);
}

#[test]
fn yixin_steps() {
    for n in 1..=3u8 {
        assert_eq!(
            command(&[&format!("yxswap2step{n}")]),
            Command::YxSwap2Step(n)
        );
        assert_eq!(
            command(&[&format!("YXSWAP2STEP {n}")]),
            Command::YxSwap2Step(n)
        );
    }
    for n in 1..=6u8 {
        assert_eq!(
            command(&[&format!("yxsoosorvstep{n}")]),
            Command::YxSoosorvStep(n)
        );
    }
    assert!(error(&["yxswap2step4"]).contains("not in 1..=3"));
    assert!(error(&["yxswap2step0"]).contains("not in 1..=3"));
    assert!(error(&["yxsoosorvstep7"]).contains("not in 1..=6"));
    assert!(error(&["yxswap2step"]).contains("needs a step number"));
    assert!(error(&["yxswap2stepx"]).contains("not a number"));
    assert!(error(&["yxswap2step1 2"]).contains("takes no arguments"));
}

#[test]
fn yixin_block_lists() {
    assert_eq!(
        command(&["yxblock", "3,4", "5, 6", "done"]),
        Command::YxBlock(vec![p(3, 4), p(5, 6)])
    );
    assert_eq!(
        command(&["yxblockundo", "3,4", "done"]),
        Command::YxBlockUndo(vec![p(3, 4)])
    );
}

#[test]
fn yixin_info_keys() {
    assert_eq!(info("info show_detail 1"), InfoKey::ShowDetail(1));
    assert_eq!(info("INFO rule 2"), InfoKey::Rule(2));
    assert_eq!(info("INFO caution_factor 3"), InfoKey::CautionFactor(3));
    assert_eq!(info("INFO hash_size 1048576"), InfoKey::HashSize(1048576));
    assert_eq!(info("INFO pondering 1"), InfoKey::Pondering(1));
    assert_eq!(info("INFO vcthread 2"), InfoKey::VcThread(2));
    assert_eq!(info("INFO usedatabase 0"), InfoKey::UseDatabase(0));
    assert_eq!(info("INFO thread_num 4"), InfoKey::ThreadNum(4));
    assert_eq!(info("INFO max_depth 225"), InfoKey::MaxDepth(225));
    assert_eq!(info("INFO max_node 100000"), InfoKey::MaxNode(100000));
}

// ---- tolerance --------------------------------------------------------------------------

#[test]
fn case_crlf_tabs_and_spaces() {
    assert_eq!(command(&["turn\t10 ,11\r\n"]), Command::Turn(p(10, 11)));
    assert_eq!(command(&["  Turn   10, 11  \r"]), Command::Turn(p(10, 11)));
    assert_eq!(command(&["TURN 010,007"]), Command::Turn(p(10, 7)));
    assert_eq!(command(&["Begin\r\n"]), Command::Begin);
    assert_eq!(
        info("INFO\tTIMEOUT_TURN\t5000\r\n"),
        InfoKey::TimeoutTurn(5000)
    );
    let cmd = command(&["  Board \r\n", " 1 , 2 , 1 \r\n", "\t3,4,2\r\n", "Done\r\n"]);
    assert_eq!(
        cmd,
        Command::Board {
            stones: vec![(p(1, 2), Field::Own), (p(3, 4), Field::Opponent)],
            search: true
        }
    );
}

#[test]
fn blank_lines() {
    assert_eq!(feed_all(&[""]), vec![Parsed::Empty]);
    assert_eq!(feed_all(&[" \t\r\n"]), vec![Parsed::Empty]);
    // Inside a block a blank line is skipped.
    assert_eq!(
        command(&["SWAP2BOARD", "", "7,7", "  ", "DONE"]),
        Command::Swap2Board(vec![p(7, 7)])
    );
}

#[test]
fn unknown_commands_keep_the_line() {
    assert_eq!(
        feed_all(&["FOO bar 1,2\r\n"]),
        vec![Parsed::Unknown {
            line: "FOO bar 1,2".into()
        }]
    );
    assert_eq!(
        feed_all(&["SUGGEST 7,7"]),
        vec![Parsed::Unknown {
            line: "SUGGEST 7,7".into()
        }]
    );
}

#[test]
fn a_sequence_of_commands_keeps_state_right() {
    let out = feed_all(&[
        "START 15",
        "INFO time_left 1000",
        "BOARD",
        "7,7,1",
        "DONE",
        "TURN 8,8",
        "END",
    ]);
    assert_eq!(out.len(), 5);
    assert!(matches!(out[2], Parsed::Command(Command::Board { .. })));
    assert_eq!(out[3], Parsed::Command(Command::Turn(p(8, 8))));
    assert_eq!(out[4], Parsed::Command(Command::End));
}

// ---- bad input ----------------------------------------------------------------------------

#[test]
fn bad_points() {
    assert!(error(&["TURN"]).contains("needs x,y"));
    assert!(error(&["TURN 10"]).contains("is not x,y"));
    assert!(error(&["TURN 1,2,3"]).contains("is not x,y"));
    assert!(error(&["TURN -1,5"]).contains("negative coordinate"));
    assert!(error(&["TURN 5,-1"]).contains("negative coordinate"));
    assert!(error(&["TURN 256,0"]).contains("too large"));
    assert!(error(&["TURN 99999999999999999999,1"]).contains("out of range"));
    assert!(error(&["TURN 1,2 3,4"]).contains("one point expected"));
    assert!(error(&["TURN a,b"]).contains("not a number"));
    assert!(error(&["TURN 1.5,2"]).contains("not a number"));
    assert!(error(&["TURN 1,,2"]).contains("misplaced comma"));
    assert!(error(&["TURN ,1,2"]).contains("misplaced comma"));
    assert!(error(&["TURN 1,2,"]).contains("trailing comma"));
    assert!(error(&["PLAY"]).contains("PLAY needs x,y"));
    assert!(error(&["TAKEBACK 3"]).contains("TAKEBACK"));
    assert!(error(&["INFO evaluate 3,4 5"]).contains("INFO evaluate"));
    assert_eq!(command(&["TURN 255,0"]), Command::Turn(p(255, 0)));
}

#[test]
fn bad_sizes() {
    assert!(error(&["START"]).contains("needs a board size"));
    assert!(error(&["START -5"]).contains("negative size"));
    assert!(error(&["START fifteen"]).contains("not a number"));
    assert!(error(&["START 15 15 15"]).contains("too many"));
    assert!(error(&["RECTSTART 20"]).contains("width,height"));
    assert!(error(&["RECTSTART 20,-1"]).contains("negative size"));
    assert!(error(&["START 123456789012345678901"]).contains("out of range"));
}

#[test]
fn bad_info() {
    assert!(error(&["INFO"]).contains("needs a key"));
    assert!(error(&["INFO timeout_turn"]).contains("needs a value"));
    assert!(error(&["INFO timeout_turn abc"]).contains("not a number"));
    assert!(error(&["INFO timeout_turn 5000 ms"]).contains("one value expected"));
    assert!(error(&["INFO rule 1.0"]).contains("not a number"));
    assert!(error(&["INFO folder"]).contains("needs a value"));
}

#[test]
fn surplus_and_missing_arguments() {
    assert!(error(&["BEGIN now"]).contains("BEGIN takes no arguments"));
    assert!(error(&["ABOUT x"]).contains("takes no arguments"));
    assert!(error(&["BOARD 1"]).contains("BOARD takes no arguments"));
    assert!(error(&["yxstop 1"]).contains("STOP takes no arguments"));
    assert!(error(&["PONDER a"]).contains("not a number"));
    assert!(error(&["PONDER 1 2"]).contains("one value expected"));
    assert!(error(&["yxnbest"]).contains("needs a value"));
    assert!(error(&["yxnbest 0"]).contains("not a positive count"));
    assert!(error(&["yxbalanceone"]).contains("needs a value"));
    // END never fails: the brain must go.
    assert_eq!(command(&["END now please"]), Command::End);
}

#[test]
fn done_outside_a_block() {
    assert!(error(&["DONE"]).contains("without a block"));
}

#[test]
fn bad_block_line_ends_the_block_with_an_error() {
    let mut parser = Parser::new();
    assert_eq!(parser.feed("BOARD"), None);
    assert_eq!(parser.feed("7,7,1"), None);
    assert_eq!(parser.feed("7,x,2"), None);
    assert!(parser.in_block());
    match parser.feed("DONE") {
        Some(Parsed::Error { message }) => {
            assert!(message.starts_with("BOARD ignored"), "{message}");
            assert!(message.contains("'7,x,2'"), "{message}");
            assert!(!message.contains("more"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!parser.in_block());
    // The parser is usable again afterwards.
    assert_eq!(parser.feed("BEGIN"), Some(Parsed::Command(Command::Begin)));
}

#[test]
fn block_errors_name_the_first_bad_line_and_count_the_rest() {
    let e = error(&["BOARD", "1,1", "2,2,7", "-3,3,1", "4,4,1", "DONE"]);
    assert!(e.contains("'1,1'") && e.contains("missing field"), "{e}");
    assert!(e.contains("and 2 more bad lines"), "{e}");
    let e = error(&["yxboard", "1,1,1 2,2,2", "DONE"]);
    assert!(
        e.starts_with("YXBOARD") && e.contains("one x,y,field per line"),
        "{e}"
    );
    let e = error(&["SHOWFORBID", "300,1,1", "DONE"]);
    assert!(e.contains("too large"), "{e}");
    let e = error(&["BALANCE 1", "1,2,3,4", "DONE"]);
    assert!(e.contains("expected x,y,field"), "{e}");
    let e = error(&["yxblock", "garbage", "done"]);
    assert!(e.starts_with("YXBLOCK") && e.contains("garbage"), "{e}");
    let e = error(&["SWAP2BOARD", "7,7", "DONE now"]);
    assert!(e.contains("DONE takes no arguments"), "{e}");
}

#[test]
fn overlong_block_is_an_error() {
    let mut lines = vec!["SWAP2BOARD".to_string()];
    lines.extend((0..=MAX_BLOCK_LINES).map(|i| format!("{},{}", i % 32, i / 32)));
    lines.push("DONE".into());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert!(error(&refs).contains("more than 1024 lines"));
}

#[test]
fn a_command_word_interrupts_a_block() {
    let mut parser = Parser::new();
    assert_eq!(parser.feed("BOARD"), None);
    assert_eq!(parser.feed("7,7,1"), None);
    assert_eq!(parser.feed("END"), Some(Parsed::Command(Command::End)));
    assert!(!parser.in_block());
    // A new block replaces the abandoned one.
    assert_eq!(parser.feed("SWAP2BOARD"), None);
    assert_eq!(parser.feed("1,1"), None);
    assert_eq!(parser.feed("yxboard"), None);
    assert_eq!(parser.feed("2,2,2"), None);
    assert_eq!(
        parser.feed("done"),
        Some(Parsed::Command(Command::Board {
            stones: vec![(p(2, 2), Field::Opponent)],
            search: false
        }))
    );
    // An unknown word inside a block is a bad line, not an interruption.
    assert_eq!(parser.feed("BOARD"), None);
    assert_eq!(parser.feed("HELLO"), None);
    assert!(parser.in_block());
    assert!(matches!(parser.feed("DONE"), Some(Parsed::Error { .. })));
}

#[test]
fn quoted_lines_are_single_line_and_short() {
    let long = format!("TURN {}", "9".repeat(500));
    let e = error(&[&long]);
    assert!(e.chars().count() < 200, "{e}");
    let e = error(&["BOARD", "1,\u{7}2,1", "DONE"]);
    assert!(!e.chars().any(char::is_control), "{e:?}");
}

// ---- fuzz -------------------------------------------------------------------------------

/// Pieces that random lines are built from: words of every dialect, numbers of all sizes,
/// separators, control characters and some non-ASCII.
const PIECES: &[&str] = &[
    "START",
    "start",
    "RECTSTART",
    "TURN",
    "turn",
    "BEGIN",
    "BOARD",
    "yxboard",
    "DONE",
    "done",
    "INFO",
    "info",
    "timeout_turn",
    "time_left",
    "evaluate",
    "folder",
    "rule",
    "END",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "PONDER",
    "STOP",
    "yxstop",
    "SWAP2BOARD",
    "SWAPBOARD",
    "SHOWFORBID",
    "yxshowforbid",
    "BALANCE",
    "CLEARHASH",
    "PROTOCOLVERSION",
    "yxnbest",
    "yxblock",
    "yxblockundo",
    "yxswap2step",
    "yxsoosorvstep",
    "yxbalanceone",
    "0",
    "1",
    "2",
    "3",
    "7",
    "15",
    "20",
    "255",
    "256",
    "-1",
    "-0",
    "+4",
    "99999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    ",",
    ",",
    ",",
    " ",
    " ",
    "\t",
    "\r",
    "\n",
    "\r\n",
    "\0",
    "é",
    "点",
    "💥",
    "x",
    ".",
    "1.5",
    "--",
    "+",
    "-",
    ",,",
];

fn random_line(rng: &mut StdRng) -> String {
    let n = rng.gen_range(0..8);
    let mut line = String::new();
    for _ in 0..n {
        if rng.gen_bool(0.1) {
            // Raw random characters, any code point.
            let len = rng.gen_range(0..4);
            line.extend((0..len).filter_map(|_| char::from_u32(rng.gen_range(0..0x11000))));
        } else {
            line.push_str(PIECES[rng.gen_range(0..PIECES.len())]);
        }
    }
    line
}

/// Checks what must hold for every answer: one line, and blocks always end at DONE.
fn check_invariants(parser: &mut Parser, line: &str, answer: &Option<Parsed>) {
    if let Some(Parsed::Error { message }) = answer {
        assert!(
            !message.contains('\n') && !message.contains('\r'),
            "multi-line error for {line:?}: {message:?}"
        );
        assert!(!message.is_empty());
    }
    if !parser.in_block() && answer.is_none() && line.trim().is_empty() {
        panic!("blank line outside a block must answer Empty: {line:?}");
    }
}

#[test]
fn fuzz_random_lines_never_panic() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0001);
    let mut parser = Parser::new();
    let mut counts = [0usize; 5];
    for _ in 0..20_000 {
        let line = random_line(&mut rng);
        let was_in_block = parser.in_block();
        let answer = parser.feed(&line);
        check_invariants(&mut parser, &line, &answer);
        if !was_in_block {
            // Outside a block every line answers, unless it opened a block.
            assert!(answer.is_some() || parser.in_block(), "{line:?}");
        }
        let slot = match answer {
            None => 0,
            Some(Parsed::Command(_)) => 1,
            Some(Parsed::Error { .. }) => 2,
            Some(Parsed::Unknown { .. }) => 3,
            Some(Parsed::Empty) => 4,
        };
        counts[slot] += 1;
        // Now and then close any open block: DONE must always close it.
        if rng.gen_bool(0.05) && parser.in_block() {
            assert!(parser.feed("DONE").is_some());
            assert!(!parser.in_block());
        }
    }
    // The generator must reach every kind of answer, or the fuzz proves little.
    assert!(counts.iter().all(|&c| c > 50), "{counts:?}");
}

#[test]
fn fuzz_truncated_valid_lines_never_panic() {
    let valid = [
        "START 20",
        "RECTSTART 20,15",
        "TURN 10,11",
        "TAKEBACK 3, 4",
        "INFO timeout_turn 5000",
        "INFO evaluate 3,4 5,6",
        "INFO folder C:\\x y",
        "BALANCE 2",
        "PONDER -1",
        "yxswap2step3",
        "yxnbest 12",
        "10,11,2",
        "START 15 15",
        "yxbalancetwo -7",
    ];
    let mut rng = StdRng::seed_from_u64(0x5eed_0002);
    for line in valid {
        for cut in 0..=line.len() {
            for inside_block in [false, true] {
                let mut parser = Parser::new();
                if inside_block {
                    parser.feed("BOARD");
                }
                let prefix = &line[..cut];
                let answer = parser.feed(prefix);
                check_invariants(&mut parser, prefix, &answer);
                // Mangle one byte too: flip it to a random ASCII character.
                let mut bytes = prefix.as_bytes().to_vec();
                if !bytes.is_empty() {
                    let i = rng.gen_range(0..bytes.len());
                    bytes[i] = rng.gen_range(0x20..0x7f);
                }
                let mangled = String::from_utf8_lossy(&bytes).into_owned();
                let answer = parser.feed(&mangled);
                check_invariants(&mut parser, &mangled, &answer);
                parser.feed("DONE");
            }
        }
    }
}

#[test]
fn answers_for_non_commands() {
    let out = feed_all(&["TURN 1", "HELLO\tthere\r\n", "", "BEGIN"]);
    assert_eq!(
        out[0].answer(),
        Some("ERROR TURN: '1' is not x,y".to_string())
    );
    assert_eq!(out[1].answer(), Some("UNKNOWN HELLO there".to_string()));
    assert_eq!(out[2].answer(), None);
    assert_eq!(out[3].answer(), None);
}
