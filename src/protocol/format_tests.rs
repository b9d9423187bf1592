//! Formatter tests, against the seeds' examples where they give one.
use super::*;

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

#[test]
fn plain_answers() {
    assert_eq!(ok(), "OK");
    assert_eq!(error("unsupported size"), "ERROR unsupported size");
    assert_eq!(error(""), "ERROR");
    assert_eq!(unknown("FOO 1"), "UNKNOWN FOO 1");
    assert_eq!(message("hello"), "MESSAGE hello");
    assert_eq!(debug("x"), "DEBUG x");
    assert_eq!(move_answer(p(11, 10)), "11,10");
    assert_eq!(suggest(p(7, 8)), "SUGGEST 7,8");
    assert_eq!(swap(), "SWAP");
    assert_eq!(protocol_version(1, 0), "1,0");
}

#[test]
fn free_text_stays_on_one_line() {
    assert_eq!(error("bad\r\nthing"), "ERROR bad  thing");
    assert_eq!(message("a\nb\tc\0"), "MESSAGE a b c");
    assert_eq!(unknown("x\ry"), "UNKNOWN x y");
    assert_eq!(message("\n"), "MESSAGE");
}

#[test]
fn several_moves() {
    // 003 3.6: "7,7 8,7 9,9".
    assert_eq!(moves(&[p(7, 7), p(8, 7), p(9, 9)]), "7,7 8,7 9,9");
    assert_eq!(moves(&[p(4, 5)]), "4,5");
    assert_eq!(moves(&[]), "");
}

#[test]
fn forbid_both_spellings() {
    // 003 3.8's example and its empty answer.
    assert_eq!(
        forbid_gomocup(&[p(5, 4), p(8, 7), p(10, 11)]),
        "FORBID 5,4 8,7 10,11"
    );
    assert_eq!(forbid_gomocup(&[]), "FORBID");
    // 004's example: FORBID 09121011.
    assert_eq!(forbid_yixin(&[p(9, 12), p(10, 11)]), "FORBID 09121011.");
    assert_eq!(forbid_yixin(&[p(0, 0)]), "FORBID 0000.");
    assert_eq!(forbid_yixin(&[]), "FORBID .");
}

#[test]
fn about_line() {
    let mut info = About::hoshi();
    let line = about(&info);
    assert!(line.starts_with("name=\"hoshi\", version=\""), "{line}");
    assert!(line.contains(&format!("version=\"{}\"", env!("CARGO_PKG_VERSION"))));
    for key in ["author=", "country=", "www=\"\"", "email=\"\""] {
        assert!(
            line.contains(key),
            "every recommended key is present: {line}"
        );
    }
    info.country = "CZ".into();
    info.www = "https://example.org".into();
    info.email = "a@b.c".into();
    info.author = "Jo \"J\" Doe".into();
    assert_eq!(
        about(&info),
        format!(
            "name=\"hoshi\", version=\"{}\", author=\"Jo 'J' Doe\", country=\"CZ\", \
             www=\"https://example.org\", email=\"a@b.c\"",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn realtime_and_showinfo_messages() {
    assert_eq!(realtime_best(p(7, 7)), "MESSAGE REALTIME BEST 7,7");
    assert_eq!(realtime_pos(p(1, 2)), "MESSAGE REALTIME POS 1,2");
    assert_eq!(realtime_done(p(1, 2)), "MESSAGE REALTIME DONE 1,2");
    assert_eq!(realtime_lose(p(3, 0)), "MESSAGE REALTIME LOSE 3,0");
    assert_eq!(realtime_refresh(), "MESSAGE REALTIME REFRESH");
    assert_eq!(max_thread_num(16), "MESSAGE INFO MAX_THREAD_NUM 16");
    assert_eq!(max_hash_size(21), "MESSAGE INFO MAX_HASH_SIZE 21");
}

#[test]
fn yixin_pv_block() {
    let block = [
        info_pv(0),
        info_numpv(2),
        info_depth(12),
        info_seldepth(20),
        info_nodes(5000),
        info_totaltime(130),
        info_speed(38461),
        info_eval(-35),
        info_winrate(0.4321),
        info_bestline(&[p(3, 3), p(8, 8), p(9, 9)]),
        info_pv_done(),
    ];
    assert_eq!(
        block,
        [
            "INFO PV 0",
            "INFO NUMPV 2",
            "INFO DEPTH 12",
            "INFO SELDEPTH 20",
            "INFO NODES 5000",
            "INFO TOTALTIME 130",
            "INFO SPEED 38461",
            "INFO EVAL -35",
            "INFO WINRATE 0.4321",
            "INFO BESTLINE 3,3 8,8 9,9",
            "INFO PV DONE",
        ]
    );
    assert_eq!(info_winrate(1.7), "INFO WINRATE 1.0000");
    assert_eq!(info_winrate(-0.1), "INFO WINRATE 0.0000");
    assert_eq!(info_winrate(f64::NAN), "INFO WINRATE 0.5000");
    assert_eq!(info_bestline(&[]), "INFO BESTLINE");
}

#[test]
fn pv_move_lines_parse_back() {
    let line = [p(7, 7), p(8, 8), p(31, 0), p(0, 31)];
    let text: String = line.iter().map(|&m| pv_move(m)).collect();
    assert_eq!(text, "h8i9af1a32");
    assert_eq!(parse_pv_moves(&text), Some(line.to_vec()));
    assert_eq!(parse_pv_moves(" h8 i9 "), Some(vec![p(7, 7), p(8, 8)]));
    assert_eq!(parse_pv_moves(""), Some(vec![]));
    for bad in ["h0", "h", "8", "h8,i9", "H8"] {
        assert_eq!(parse_pv_moves(bad), None, "{bad}");
    }
}

#[test]
fn pv_moves_count_rows_from_one() {
    // The centre of 15x15 is h8, as renju books, Rapfi and Yixin-Board label it.
    assert_eq!(pv_move(p(7, 7)), "h8");
    assert_eq!(pv_move(p(0, 0)), "a1");
    assert_eq!(pv_move(p(25, 19)), "z20");
    assert_eq!(pv_string(&[p(7, 7), p(8, 8), p(6, 6)]), "h8 i9 g7");
    assert_eq!(pv_string(&[]), "");
}

#[test]
fn wide_board_columns() {
    assert_eq!(column_letters(0), "a");
    assert_eq!(column_letters(25), "z");
    assert_eq!(column_letters(26), "aa");
    assert_eq!(column_letters(31), "af");
    assert_eq!(column_letters(26 + 26), "ba");
    assert_eq!(pv_move(p(31, 31)), "af32");
    for x in 0..1000 {
        assert_eq!(column_index(&column_letters(x)), Some(x), "{x}");
    }
    assert_eq!(column_index(""), None);
    assert_eq!(column_index("A"), None);
    assert_eq!(column_index("a1"), None);
}
