//! The legacy file protocol (seed 002) through the real `hoshi` binary: each test plays the
//! manager, writing PLOCHA.DAT, TAH.DAT, TIMEOUTS.DAT (and INFO.DAT, MSG.DAT) into a fresh
//! directory, runs the brain there, and reads TAH.DAT and MSG.DAT back.
mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The 20x20 example of seed 002, verbatim.
const SEED_PLOCHA: &str = include_str!("data/seed-plocha.dat");

/// A working directory for one turn, removed when dropped.
struct Turn {
    dir: PathBuf,
}

/// What one run of the brain left behind.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    tah: Option<String>,
    msg: Option<String>,
    elapsed: Duration,
}

impl Turn {
    /// A directory with the manager's files for `plocha`, `to_move` to play, 5 s a move and an
    /// unlimited match, and the empty MSG.DAT the manager creates.
    fn new(name: &str, plocha: &str, to_move: &str) -> Turn {
        let dir =
            std::env::temp_dir().join(format!("hoshi-legacy-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let turn = Turn { dir };
        turn.write("PLOCHA.DAT", plocha);
        turn.write("TAH.DAT", to_move);
        turn.write("TIMEOUTS.DAT", "5\r\n2147483647\r\n");
        turn.write("MSG.DAT", "");
        turn
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).unwrap();
    }

    fn remove(&self, name: &str) {
        std::fs::remove_file(self.path(name)).unwrap();
    }

    fn read(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.path(name)).ok()
    }

    /// The names of the files in the directory, sorted.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    fn run(&self) -> Outcome {
        self.run_with(&[])
    }

    fn run_with(&self, args: &[&str]) -> Outcome {
        let before = (self.read("TAH.DAT"), self.read("MSG.DAT"));
        let outcome = self.run_once(args);
        // Under a launcher (Wine), a run that failed without a trace (no line on stderr,
        // TAH.DAT and MSG.DAT as the manager wrote them) never reached the brain: every refusal
        // of the brain's own writes MSG.DAT and logs it. CI saw one such run under Wine (exit 1,
        // nothing written, nothing printed). One more try, said loudly; the native binary gets
        // none, and a second silent failure still fails the test.
        let silent = outcome.code != Some(0)
            && outcome.stderr.trim().is_empty()
            && (outcome.tah.clone(), outcome.msg.clone()) == before;
        if silent && common::legacy_command_is_overridden() {
            eprintln!(
                "legacy: the launcher failed without a trace ({:?}); trying once more\n{}",
                outcome.code,
                outcome.diagnosis()
            );
            return self.run_once(args);
        }
        outcome
    }

    fn run_once(&self, args: &[&str]) -> Outcome {
        let started = Instant::now();
        let out = common::legacy_command()
            .args(args)
            .current_dir(&self.dir)
            .env_remove("RUST_LOG")
            .output()
            .expect("run hoshi");
        Outcome {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            tah: self.read("TAH.DAT"),
            msg: self.read("MSG.DAT"),
            elapsed: started.elapsed(),
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Outcome {
    /// Everything the run left, for a failed assertion.
    fn diagnosis(&self) -> String {
        format!(
            "after {:?}\nstdout: {:?}\nstderr: {}\nTAH.DAT: {:?}\nMSG.DAT: {:?}",
            self.elapsed, self.stdout, self.stderr, self.tah, self.msg
        )
    }

    /// The move in TAH.DAT, after checking the run succeeded and printed nothing on stdout.
    fn played(&self) -> (usize, usize) {
        assert_eq!(self.code, Some(0), "{}", self.diagnosis());
        assert_eq!(self.stdout, "", "stdout belongs to nobody in this protocol");
        let tah = self.tah.as_deref().expect("TAH.DAT");
        let (x, y) = tah
            .split_once(',')
            .unwrap_or_else(|| panic!("TAH.DAT {tah:?}"));
        (x.parse().unwrap(), y.parse().unwrap())
    }

    /// Checks a refused turn: exit `code`, TAH.DAT as the manager wrote it, and a one-line
    /// MSG.DAT containing every one of `words`.
    fn refused(&self, code: i32, tah_before: Option<&str>, words: &[&str]) {
        assert_eq!(self.code, Some(code), "{}", self.diagnosis());
        assert_eq!(
            self.tah.as_deref(),
            tah_before,
            "TAH.DAT must stay untouched"
        );
        assert_eq!(self.stdout, "");
        let msg = self.msg.as_deref().expect("MSG.DAT explains");
        assert!(
            !msg.contains('\n') && !msg.contains('\r'),
            "one line: {msg:?}"
        );
        assert!(msg.starts_with("hoshi: "), "{msg}");
        for w in words {
            assert!(msg.contains(w), "MSG.DAT {msg:?} lacks {w:?}");
        }
    }
}

/// The square of a PLOCHA.DAT text at column `x`, row `y`.
fn square(plocha: &str, x: usize, y: usize) -> char {
    let rows: Vec<&str> = plocha.lines().filter(|l| !l.trim().is_empty()).collect();
    rows.get(y).and_then(|r| r.chars().nth(x)).unwrap_or('?')
}

/// A 15x15 PLOCHA.DAT with these rows (`(row, text)`, padded with `-`), CRLF line ends.
fn board15(rows: &[(usize, &str)]) -> String {
    (0..15)
        .map(|y| {
            let row = rows.iter().find(|(r, _)| *r == y).map_or("", |(_, t)| t);
            format!("{row:-<15}\r\n")
        })
        .collect()
}

#[test]
fn seed_example_gets_a_legal_move_for_either_side() {
    for mover in ["x", "o"] {
        let turn = Turn::new(&format!("seed-{mover}"), SEED_PLOCHA, mover);
        let out = turn.run();
        let (x, y) = out.played();
        assert!(x < 20 && y < 20, "{x},{y} is off the board");
        assert_eq!(
            square(SEED_PLOCHA, x, y),
            '-',
            "{x},{y} is not an empty square"
        );
        // The default config writes a one-line search summary.
        let msg = out.msg.unwrap();
        assert!(msg.starts_with(&format!("hoshi '{mover}'")), "{msg}");
        assert!(!msg.contains('\n'), "{msg:?}");
        // 50 stones and 11 '#': 61 moves were made, so the side to move is white either way,
        // and the principal variation starts with the move played (column letter, row from 1).
        assert!(msg.contains("(white)"), "{msg}");
        let letter = (b'a' + x as u8) as char;
        assert!(
            msg.contains(&format!(" pv {letter}{} ", y + 1))
                || msg.ends_with(&format!(" pv {letter}{}", y + 1)),
            "{msg}"
        );
        // Nothing but the manager's files.
        assert_eq!(
            turn.listing(),
            ["MSG.DAT", "PLOCHA.DAT", "TAH.DAT", "TIMEOUTS.DAT"]
        );
    }
}

#[test]
fn win_in_one() {
    // x: 3,7 and 5..8,7. 4,7 makes six (a win in freestyle only), 9,7 exactly five.
    let plocha = board15(&[(7, "---x-xxxx"), (12, "o-o-o-o-o")]);
    let turn = Turn::new("win", &plocha, "x");
    let played = turn.run().played();
    assert!(played == (4, 7) || played == (9, 7), "{played:?}");
    // INFO.DAT rule 1 (exactly five): the overline point is no win.
    turn.write("TAH.DAT", "x");
    turn.write("INFO.DAT", "rule 1\r\n");
    assert_eq!(turn.run().played(), (9, 7));
    // The same for o, with the colours swapped: o has 5 stones against x's 5, o to move.
    let swapped = plocha.replace('x', "X").replace('o', "x").replace('X', "o");
    let turn = Turn::new("win-o", &swapped, "o");
    turn.write("INFO.DAT", "rule 1\r\n");
    assert_eq!(turn.run().played(), (9, 7));
}

#[test]
fn must_block_a_four() {
    // x (black, 4 stones) has a four 2..5,7 closed by o at 1,7; o (3 stones) must take 6,7.
    let plocha = board15(&[(1, "----------o-o"), (7, "-oxxxx")]);
    let turn = Turn::new("block", &plocha, "o");
    assert_eq!(turn.run().played(), (6, 7));
    // Vertically, on the other edge, under exactly-five.
    let plocha = board15(&[
        (0, "-------o-----o"),
        (1, "--------------o"),
        (2, "--------------x"),
        (3, "--------------x"),
        (4, "--------------x"),
        (5, "--------------x"),
    ]);
    let turn = Turn::new("block-v", &plocha, "o");
    turn.write("INFO.DAT", "rule 1\r\n");
    assert_eq!(turn.run().played(), (14, 6));
}

#[test]
fn renju_colours_follow_the_counts() {
    // x: 0,7 and 2..5,7; o blocks 6,7. 1,7 makes six: a win for white, forbidden for black.
    // With 6 o against 5 x, o moved first: x is white and takes the overline.
    let plocha = board15(&[(7, "x-xxxxo"), (12, "o-o-o-o-o")]);
    let turn = Turn::new("renju-white", &plocha, "x");
    turn.write("INFO.DAT", "rule 4\r\n");
    let out = turn.run();
    assert_eq!(out.played(), (1, 7));
    assert!(out.msg.unwrap().starts_with("hoshi 'x' (white)"));
    // With 5 o, x to move is black: the overline is forbidden, and nothing else wins.
    let plocha = board15(&[(7, "x-xxxxo"), (12, "o-o-o---o")]);
    let turn = Turn::new("renju-black", &plocha, "x");
    turn.write("INFO.DAT", "rule 4\r\n");
    let out = turn.run();
    let (x, y) = out.played();
    assert_ne!((x, y), (1, 7));
    assert_eq!(square(&plocha, x, y), '-');
    assert!(out.msg.unwrap().starts_with("hoshi 'x' (black)"));
    // Freestyle: black may take it too.
    turn.write("TAH.DAT", "x");
    turn.write("INFO.DAT", "rule 0\r\n");
    assert_eq!(turn.run().played(), (1, 7));
}

#[test]
fn a_hash_square_is_never_played_even_to_win() {
    // x's four 3..6,7 would be five on 7,7, but that square is '#' and 2,7 is o's.
    let plocha = board15(&[(0, "o---o---o"), (7, "--oxxxx#")]);
    let turn = Turn::new("hash", &plocha, "x");
    turn.write("INFO.DAT", "rule 2\r\n");
    let (x, y) = turn.run().played();
    assert_ne!((x, y), (7, 7));
    assert_eq!(square(&plocha, x, y), '-');
}

/// A full 15x15 board with no five: runs of two in every direction.
fn full_board() -> String {
    (0..15)
        .map(|y| {
            let row: String = (0..15)
                .map(|x| if (x + 2 * y) % 4 < 2 { 'x' } else { 'o' })
                .collect();
            row + "\r\n"
        })
        .collect()
}

#[test]
fn broken_files_are_refused() {
    let good = board15(&[(7, "------xo")]);
    type Break = fn(&Turn);
    let cases: [(&str, Break, &[&str]); 17] = [
        (
            "no-plocha",
            |t| t.remove("PLOCHA.DAT"),
            &["PLOCHA.DAT", "missing"],
        ),
        (
            "empty-plocha",
            |t| t.write("PLOCHA.DAT", "\r\n"),
            &["PLOCHA.DAT", "no board lines"],
        ),
        (
            "ragged",
            |t| t.write("PLOCHA.DAT", &board15(&[(3, "--------------x-")])),
            &["PLOCHA.DAT line 4", "16 squares"],
        ),
        (
            "unknown-char",
            |t| t.write("PLOCHA.DAT", &board15(&[(2, "--X")])),
            &["PLOCHA.DAT line 3, column 3", "unknown square 'X'"],
        ),
        (
            "too-small",
            |t| t.write("PLOCHA.DAT", "----\n----\n----\n----\n"),
            &["PLOCHA.DAT", "4x4"],
        ),
        ("no-tah", |t| t.remove("TAH.DAT"), &["TAH.DAT", "missing"]),
        (
            "bad-tah",
            |t| t.write("TAH.DAT", "q"),
            &["TAH.DAT", "expected 'x' or 'o'"],
        ),
        (
            "old-answer-in-tah",
            |t| t.write("TAH.DAT", "7,7"),
            &["TAH.DAT", "'7,7'"],
        ),
        (
            "no-timeouts",
            |t| t.remove("TIMEOUTS.DAT"),
            &["TIMEOUTS.DAT", "missing"],
        ),
        (
            "timeouts-not-a-number",
            |t| t.write("TIMEOUTS.DAT", "five\r\n1000\r\n"),
            &["TIMEOUTS.DAT line 1"],
        ),
        (
            "timeouts-one-line",
            |t| t.write("TIMEOUTS.DAT", "5\r\n"),
            &["TIMEOUTS.DAT", "two lines"],
        ),
        (
            "full-board",
            |t| t.write("PLOCHA.DAT", &full_board()),
            &["board is full"],
        ),
        (
            "impossible-counts",
            |t| t.write("PLOCHA.DAT", &board15(&[(7, "xxx-o")])),
            &["impossible position", "3 'x' and 1 'o'"],
        ),
        (
            "already-five",
            |t| t.write("PLOCHA.DAT", &board15(&[(3, "ooooo"), (7, "xxxxx")])),
            &["impossible position", "already a five"],
        ),
        (
            "bad-info",
            |t| t.write("INFO.DAT", "timeout_turn 1000\r\nrule many\r\n"),
            &["INFO.DAT line 2"],
        ),
        (
            "unsupported-rule",
            |t| t.write("INFO.DAT", "rule 16\r\n"),
            &["INFO.DAT rule 16"],
        ),
        (
            "renju-with-hash",
            |t| {
                t.write("INFO.DAT", "rule 4\r\n");
                t.write("PLOCHA.DAT", &board15(&[(7, "------xo#")]));
            },
            &["'#'", "renju"],
        ),
    ];
    for (name, break_it, words) in cases {
        // The full board has 113 x against 112 o: o is to move there; "xo" boards: x.
        let turn = Turn::new(name, &good, "x");
        if name == "full-board" {
            turn.write("TAH.DAT", "o");
        }
        break_it(&turn);
        let before = turn.read("TAH.DAT");
        let out = turn.run();
        eprintln!("{name}: {:?}", out.msg);
        out.refused(1, before.as_deref(), words);
    }
}

#[test]
fn good_board_for_the_broken_cases_is_playable() {
    // The baseline of `broken_files_are_refused`, and of its full board with a free square.
    let turn = Turn::new("baseline", &board15(&[(7, "------xo")]), "x");
    turn.run().played();
    let mut almost_full = full_board();
    almost_full.replace_range(0..1, "-");
    // 112 x, 112 o: x to move, and 0,0 is the only free square.
    let turn = Turn::new("almost-full", &almost_full, "x");
    assert_eq!(turn.run().played(), (0, 0));
}

#[test]
fn info_dat_with_a_folder() {
    let persist = std::env::temp_dir().join(format!(
        "hoshi-legacy-test-{}-persist dir",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&persist);
    std::fs::create_dir_all(&persist).unwrap();
    let plocha = board15(&[(6, "------x"), (7, "------o-x")]);
    let turn = Turn::new("folder", &plocha, "o");
    // The seed's example INFO.DAT, with our folder.
    turn.write(
        "INFO.DAT",
        &format!(
            "max_memory 83886080\r\ntimeout_match 180000\r\ntimeout_turn 2500\r\ngame_type 0\r\n\
             rule 3\r\ntime_left 148150\r\nfolder {}\r\n",
            persist.display()
        ),
    );
    let (x, y) = turn.run().played();
    assert_eq!(square(&plocha, x, y), '-');
    // Hoshi keeps nothing between moves: no <folder>/hoshi, nothing else anywhere.
    assert_eq!(std::fs::read_dir(&persist).unwrap().count(), 0);
    assert_eq!(
        turn.listing(),
        [
            "INFO.DAT",
            "MSG.DAT",
            "PLOCHA.DAT",
            "TAH.DAT",
            "TIMEOUTS.DAT"
        ]
    );
    // A folder that does not exist is not created.
    std::fs::remove_dir(&persist).unwrap();
    turn.write("TAH.DAT", "o");
    turn.run().played();
    assert!(!persist.exists());
}

#[test]
fn config_applies_and_logs_go_to_stderr() {
    let turn = Turn::new("config", &board15(&[(7, "------xo")]), "x");
    // No search summary: MSG.DAT stays as the manager made it. The log file is not written:
    // logs go to stderr, here at debug level.
    turn.write(
        "my.toml",
        "[protocol]\nsearch_message = false\n[log]\nlevel = \"debug\"\nfile = \"hoshi.log\"\n",
    );
    let out = turn.run_with(&["--config", "my.toml"]);
    out.played();
    assert_eq!(out.msg.as_deref(), Some(""));
    assert!(!turn.path("hoshi.log").exists());
    assert!(out.stderr.contains("played"), "stderr: {}", out.stderr);
    // A bad config: exit 2, MSG.DAT names the key, TAH.DAT untouched.
    turn.write("TAH.DAT", "x");
    turn.write("bad.toml", "[time]\nsafety_margn_ms = 5\n");
    turn.run_with(&["--config", "bad.toml"])
        .refused(2, Some("x"), &["time.safety_margn_ms"]);
    turn.run_with(&["--config", "missing.toml"])
        .refused(2, Some("x"), &["missing.toml"]);
    turn.run_with(&["--bogus"])
        .refused(2, Some("x"), &["command line"]);
}

#[test]
fn answers_within_the_turn_limit() {
    // One second a move: the Gomocup managers allow about a second of tolerance on top.
    let turn = Turn::new("clock", SEED_PLOCHA, "o");
    turn.write("TIMEOUTS.DAT", "1\r\n2147483647\r\n");
    let out = turn.run();
    out.played();
    assert!(out.elapsed < Duration::from_secs(2), "{:?}", out.elapsed);
    // 0 = as fast as possible; still a legal move.
    turn.write("TAH.DAT", "o");
    turn.write("TIMEOUTS.DAT", "0\r\n-20\r\n");
    let out = turn.run();
    let (x, y) = out.played();
    assert_eq!(square(SEED_PLOCHA, x, y), '-');
}

#[test]
fn case_of_file_names_follows_the_manager() {
    let turn = Turn::new("lower", &board15(&[(7, "------xo")]), "x");
    for name in ["PLOCHA.DAT", "TAH.DAT", "TIMEOUTS.DAT", "MSG.DAT"] {
        std::fs::rename(turn.path(name), turn.path(&name.to_lowercase())).unwrap();
    }
    let out = turn.run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let tah = turn.read("tah.dat").unwrap();
    assert!(tah.contains(','), "{tah}");
    assert!(turn.read("msg.dat").unwrap().starts_with("hoshi 'x'"));
    if !cfg!(windows) {
        assert_eq!(
            turn.listing(),
            ["msg.dat", "plocha.dat", "tah.dat", "timeouts.dat"]
        );
    }
}
