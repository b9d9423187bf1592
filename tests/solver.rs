//! Solver tests: the reference suite (lines replayed and checked on the board), defences, renju
//! forbidden-point cases, positions without a win, and cross-checks against a brute-force VCF and
//! an exhaustive defender on random positions.
//!
//! Everything here judges the solver with the board's public API only (`play`, `outcome_of`,
//! `is_win_move`, `is_forbidden`), never with the solver's own helpers.
use hoshi::game::{Board, Color, MoveOutcome, Point, Rule};
#[path = "support/solver_suite.rs"]
mod suite;
use hoshi::solver::{Budget, Outcome, ProvenResult, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use suite::{Expect, Kind};

// ---------------------------------------------------------------------------------------------
// Independent judges
// ---------------------------------------------------------------------------------------------

fn empties(b: &Board) -> Vec<Point> {
    let mut out = Vec::new();
    for y in 0..b.height() as u8 {
        for x in 0..b.width() as u8 {
            let p = Point::new(x, y);
            if b.is_empty(p) {
                out.push(p);
            }
        }
    }
    out
}

/// Points where `color` would complete a winning five now.
fn fives(b: &Board, color: Color) -> Vec<Point> {
    empties(b)
        .into_iter()
        .filter(|&p| b.is_win_move(p, color))
        .collect()
}

/// Whether `color` may play `p` (renju: black's forbidden points are not moves).
fn may_play(b: &Board, p: Point, color: Color) -> bool {
    b.is_empty(p) && !(color == Color::Black && b.rule() == Rule::Renju && b.is_forbidden(p))
}

/// Whether `color` (to move or not) has a point that makes fives the opponent cannot all stop
/// with one move: the threat a VCT move must create when it makes no four.
fn has_winning_point(b: &Board, color: Color) -> bool {
    let mut b = b.clone();
    for p in empties(&b) {
        if !may_play(&b, p, color) {
            continue;
        }
        b.place(p, color).unwrap();
        let made = fives(&b, color);
        let unstoppable = match made.len() {
            0 => false,
            1 => defender_blocks(&mut b, color).is_empty(),
            _ => !b.rule().blocked_five_fails() || defender_blocks(&mut b, color).is_empty(),
        };
        b.undo();
        if unstoppable {
            return true;
        }
    }
    false
}

/// Moves of `attacker`'s opponent after which the attacker has no five point (brute force).
fn defender_blocks(b: &mut Board, attacker: Color) -> Vec<Point> {
    let defender = attacker.opponent();
    let mut out = Vec::new();
    for q in empties(b) {
        if !may_play(b, q, defender) {
            continue;
        }
        b.place(q, defender).unwrap();
        if fives(b, attacker).is_empty() {
            out.push(q);
        }
        b.undo();
    }
    out
}

/// Replays a winning line for `attacker` (to move or not: colours alternate from the attacker)
/// and checks it: every move legal; every attacker move but the last makes a five point (VCF) or
/// a five point or a winning point (VCT) and leaves the defender no five; every defender move
/// answers a five point by stopping it (and, in VCF, is the only move that does, caro's second
/// block past the run's end aside); the line ends with the attacker's five, or with renju black's
/// forced move onto a forbidden point.
fn check_line(board: &Board, attacker: Color, line: &[Point], kind: Kind) -> Result<(), String> {
    let mut b = board.clone();
    if line.is_empty() {
        return Err("empty line".into());
    }
    for (i, &p) in line.iter().enumerate() {
        let mover = if i % 2 == 0 {
            attacker
        } else {
            attacker.opponent()
        };
        let last = i + 1 == line.len();
        if !b.is_empty(p) {
            return Err(format!("move #{i} {p} is not on an empty point"));
        }
        let attacker_fives_before = fives(&b, attacker);
        if mover != attacker && !attacker_fives_before.is_empty() {
            let blocks = defender_blocks(&mut b, attacker);
            if !blocks.is_empty() {
                if !blocks.contains(&p) {
                    return Err(format!("defender move {p} (#{i}) does not stop the five"));
                }
                // Caro fives can also be stopped past the end of the run: two blocks, either one.
                if kind == Kind::Vcf && blocks.len() != 1 && !b.rule().blocked_five_fails() {
                    return Err(format!(
                        "defender move {p} (#{i}) was not forced: {blocks:?}"
                    ));
                }
            }
        }
        let outcome = b.outcome_of(p, mover);
        b.place(p, mover).unwrap();
        match outcome {
            MoveOutcome::Win(c) if c == attacker => {
                return if last {
                    Ok(())
                } else {
                    Err(format!("attacker won at #{i} before the line ended"))
                };
            }
            MoveOutcome::ForbiddenLoss if mover != attacker => {
                return if last && attacker_fives_before.len() == 1 {
                    Ok(())
                } else {
                    Err(format!("defender's forbidden move #{i} was not forced"))
                };
            }
            MoveOutcome::Ongoing => {}
            other => return Err(format!("move #{i} {p} gave {other:?}\n{b}")),
        }
        if last {
            return Err(format!("line ends at #{i} without a win\n{b}"));
        }
        if mover == attacker {
            let threat = !fives(&b, attacker).is_empty()
                || (kind == Kind::Vct && has_winning_point(&b, attacker));
            if !threat {
                return Err(format!("attacker move #{i} {p} threatens nothing\n{b}"));
            }
            if !fives(&b, attacker.opponent()).is_empty() {
                return Err(format!(
                    "attacker move #{i} {p} leaves the defender a five\n{b}"
                ));
            }
        }
    }
    unreachable!()
}

/// Checks a claimed VCT win by letting the defender try *every* legal move at every turn, with
/// the solver choosing the attacker's moves. The attacker is to move. `plies` bounds the depth.
fn verify_by_all_defences(
    b: &mut Board,
    attacker: Color,
    solver: &mut Solver,
    kind: Kind,
    plies: u32,
) -> Result<(), String> {
    if !fives(b, attacker).is_empty() {
        return Ok(());
    }
    if plies == 0 {
        return Err(format!("win not reached within the ply limit\n{b}"));
    }
    let outcome = match kind {
        Kind::Vcf => solver.vcf(b, attacker, Budget::nodes(200_000)),
        Kind::Vct => solver.vct(b, attacker, Budget::nodes(200_000)),
    };
    let Outcome::Win { line } = outcome else {
        return Err(format!("solver lost the win: {outcome:?}\n{b}"));
    };
    let m = line[0];
    match b.play(m) {
        Ok(MoveOutcome::Win(c)) if c == attacker => {
            b.undo();
            return Ok(());
        }
        Ok(MoveOutcome::Ongoing) => {}
        other => return Err(format!("attacker move {m}: {other:?}\n{b}")),
    }
    let defender = attacker.opponent();
    let mut result = Ok(());
    for q in empties(b) {
        if !may_play(b, q, defender) {
            continue;
        }
        match b.play(q) {
            Ok(MoveOutcome::Ongoing) => {
                let r = verify_by_all_defences(b, attacker, solver, kind, plies - 1);
                b.undo();
                if let Err(e) = r {
                    result = Err(format!("after {m} {q}: {e}"));
                    break;
                }
            }
            Ok(MoveOutcome::Win(c)) if c == defender => {
                b.undo();
                result = Err(format!("defender wins with {q} after {m}\n{b}"));
                break;
            }
            other => {
                b.undo();
                result = Err(format!("defender move {q}: {other:?}"));
                break;
            }
        }
    }
    b.undo();
    result
}

/// A brute-force VCF written from the rules alone: the attacker (to move) tries every move that
/// makes a five point; the defender tries every move that stops all of them. `None`: out of nodes.
fn brute_vcf(b: &mut Board, attacker: Color, nodes: &mut u64) -> Option<bool> {
    if *nodes == 0 {
        return None;
    }
    *nodes -= 1;
    let defender = attacker.opponent();
    if !fives(b, attacker).is_empty() {
        return Some(true);
    }
    for m in empties(b) {
        if !may_play(b, m, attacker) {
            continue;
        }
        b.place(m, attacker).unwrap();
        let ok = fives(b, defender).is_empty() && !fives(b, attacker).is_empty();
        let mut won = false;
        if ok {
            won = true;
            for q in defender_blocks(b, attacker) {
                b.place(q, defender).unwrap();
                let r = brute_vcf(b, attacker, nodes);
                b.undo();
                match r {
                    None => {
                        b.undo();
                        return None;
                    }
                    Some(false) => {
                        won = false;
                        break;
                    }
                    Some(true) => {}
                }
            }
        }
        b.undo();
        if won {
            return Some(true);
        }
    }
    Some(false)
}

/// A random position: `moves` random moves near the centre that neither win nor lose at once.
fn random_position(rng: &mut StdRng, size: usize, rule: Rule, moves: usize) -> Board {
    let mut b = Board::new(size, size, rule).unwrap();
    let lo = 1u8;
    let hi = size as u8 - 1;
    while b.stone_count() < moves {
        let p = Point::new(rng.gen_range(lo..hi), rng.gen_range(lo..hi));
        if !b.is_empty(p) {
            continue;
        }
        if b.outcome_of(p, b.side_to_move()) != MoveOutcome::Ongoing {
            continue;
        }
        b.play(p).unwrap();
    }
    b
}

// ---------------------------------------------------------------------------------------------
// The reference suite
// ---------------------------------------------------------------------------------------------

fn run(solver: &mut Solver, b: &Board, attacker: Color, kind: Kind, budget: Budget) -> Outcome {
    match kind {
        Kind::Vcf => solver.vcf(b, attacker, budget),
        Kind::Vct => solver.vct(b, attacker, budget),
    }
}

#[test]
fn suite_wins_are_found_and_their_lines_hold() {
    let mut solver = Solver::new();
    let mut wins = 0;
    for case in suite::cases().iter().filter(|c| c.expect == Expect::Win) {
        let b = case.board();
        let out = run(
            &mut solver,
            &b,
            case.attacker,
            case.kind,
            Budget::nodes(2_000_000),
        );
        let Outcome::Win { line } = &out else {
            panic!("{}: expected a win, got {out:?}\n{b}", case.name);
        };
        if let Some(first) = case.first_move() {
            assert_eq!(line[0], first, "{}: first move", case.name);
        }
        check_line(&b, case.attacker, line, case.kind)
            .unwrap_or_else(|e| panic!("{}: line {line:?}: {e}", case.name));
        if b.side_to_move() == case.attacker {
            let mut bb = b.clone();
            verify_by_all_defences(&mut bb, case.attacker, &mut solver, case.kind, 24)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            assert!(bb == b, "verification must leave the board as it was");
        }
        wins += 1;
    }
    assert!(wins >= 15, "{wins}");
}

#[test]
fn suite_positions_without_a_win_are_never_claimed() {
    let mut solver = Solver::new();
    let mut cases = 0;
    for case in suite::cases().iter().filter(|c| c.expect == Expect::NoWin) {
        let mut b = case.board();
        let out = run(
            &mut solver,
            &b,
            case.attacker,
            case.kind,
            Budget::nodes(2_000_000),
        );
        assert_eq!(out, Outcome::NoWin, "{}\n{b}", case.name);
        // VCF answers can be confirmed by brute force when the attacker is to move.
        if case.kind == Kind::Vcf && b.side_to_move() == case.attacker {
            let mut nodes = 5_000;
            assert_eq!(
                brute_vcf(&mut b, case.attacker, &mut nodes),
                Some(false),
                "{}",
                case.name
            );
        }
        cases += 1;
    }
    assert!(cases >= 8, "{cases}");
}

/// The same stones under different rules: the answers differ exactly where the rule says so.
#[test]
fn rules_change_the_answer() {
    let by_name = |name: &str| {
        *suite::cases()
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no case {name}"))
    };
    let mut solver = Solver::new();
    for (win, no_win) in [
        (
            "freestyle15-overline-wins",
            "standard15-overline-is-not-five",
        ),
        ("freestyle15-double-four", "renju15-double-four-forbidden"),
        ("freestyle15-unblocked-five", "caro15-blocked-five-no-win"),
        (
            "renju15-white-four-onto-forbidden",
            "freestyle15-white-four-is-blocked",
        ),
    ] {
        let (w, n) = (by_name(win), by_name(no_win));
        assert_eq!(w.diagram, n.diagram, "{win} / {no_win} share their stones");
        assert_ne!(w.rule, n.rule);
        let bw = w.board();
        let bn = n.board();
        assert!(run(&mut solver, &bw, w.attacker, Kind::Vcf, Budget::default()).is_win());
        assert_eq!(
            run(&mut solver, &bn, n.attacker, Kind::Vcf, Budget::default()),
            Outcome::NoWin
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Renju forbidden points
// ---------------------------------------------------------------------------------------------

fn case_board(name: &str) -> Board {
    suite::cases()
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"))
        .board()
}

#[test]
fn renju_white_wins_through_black_forbidden_point() {
    let b = case_board("renju15-white-four-onto-forbidden");
    let forbidden = Point::new(7, 7);
    assert!(b.is_forbidden(forbidden));
    let mut solver = Solver::new();
    let out = solver.vcf(&b, Color::White, Budget::default());
    assert_eq!(
        out,
        Outcome::Win {
            line: vec![Point::new(11, 3), forbidden]
        }
    );
    // After white's four black is to move, with no defence at all.
    let mut after = b.clone();
    after.play(Point::new(11, 3)).unwrap();
    assert_eq!(
        solver.defences(&after, Color::White, Budget::default()),
        Some(vec![])
    );
    assert_eq!(solver.quick(&after), Some(ProvenResult::Loss));
    assert_eq!(after.play(forbidden), Ok(MoveOutcome::ForbiddenLoss));
}

#[test]
fn renju_black_never_plays_or_counts_a_forbidden_point() {
    let b = case_board("renju15-double-four-forbidden");
    let key = Point::new(7, 7);
    assert!(b.is_forbidden(key), "the double four is forbidden");
    let mut solver = Solver::new();
    assert_eq!(
        solver.vcf(&b, Color::Black, Budget::default()),
        Outcome::NoWin
    );
    // The double three detour: the win exists, but never through the forbidden point itself.
    let b = case_board("renju15-double-three-detour");
    assert!(b.is_forbidden(key));
    let Outcome::Win { line } = solver.vct(&b, Color::Black, Budget::default()) else {
        panic!("black wins by a detour")
    };
    assert_ne!(line[0], key);
    check_line(&b, Color::Black, &line, Kind::Vct).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Defences
// ---------------------------------------------------------------------------------------------

fn sorted(mut v: Vec<Point>) -> Vec<Point> {
    v.sort();
    v
}

fn pts(list: &[(u8, u8)]) -> Vec<Point> {
    sorted(list.iter().map(|&(x, y)| Point::new(x, y)).collect())
}

#[test]
fn defences_against_a_four_three() {
    let b = Board::from_diagram(Rule::Freestyle, suite::FOUR_THREE_WHITE_TO_MOVE).unwrap();
    assert_eq!(b.side_to_move(), Color::White);
    let mut solver = Solver::new();
    let found = solver
        .defences(&b, Color::Black, Budget::default())
        .expect("black threatens a VCF");
    // The key point, the four's far end, and the two ends of the column three.
    assert_eq!(
        sorted(found.clone()),
        pts(&[(8, 7), (9, 7), (8, 4), (8, 8)])
    );
    // Each one refutes by brute force; the outer points of the three do not.
    for &d in &found {
        let mut bb = b.clone();
        bb.play(d).unwrap();
        let mut nodes = 5_000;
        assert_eq!(
            brute_vcf(&mut bb, Color::Black, &mut nodes),
            Some(false),
            "{d}"
        );
    }
    for d in [Point::new(8, 3), Point::new(8, 9), Point::new(2, 2)] {
        let mut bb = b.clone();
        bb.play(d).unwrap();
        let mut nodes = 5_000;
        assert_eq!(
            brute_vcf(&mut bb, Color::Black, &mut nodes),
            Some(true),
            "{d}"
        );
    }
}

#[test]
fn defences_against_a_caro_four_include_the_run_end() {
    let b = Board::from_diagram(Rule::Caro, suite::CARO_FOUR_TWO_BLOCKS).unwrap();
    assert_eq!(b.side_to_move(), Color::Black);
    let mut solver = Solver::new();
    let found = solver
        .defences(&b, Color::White, Budget::default())
        .unwrap();
    assert_eq!(sorted(found), pts(&[(7, 7), (8, 7)]));
    // In freestyle the run's end is no block.
    let b = Board::from_diagram(Rule::Freestyle, suite::CARO_FOUR_TWO_BLOCKS).unwrap();
    let found = solver
        .defences(&b, Color::White, Budget::default())
        .unwrap();
    assert_eq!(found, pts(&[(7, 7)]));
}

#[test]
fn defences_when_lost_when_winning_and_when_quiet() {
    let mut solver = Solver::new();
    // An open four cannot be stopped.
    let b = case_board("freestyle15-open-four-lost");
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(
        solver.defences(&b, Color::Black, Budget::default()),
        Some(vec![])
    );
    assert_eq!(solver.quick(&b), Some(ProvenResult::Loss));
    // The side to move with a five of its own just plays it.
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    for (x, y) in [(3, 3), (4, 3), (5, 3), (6, 3)] {
        b.place(Point::new(x, y), Color::Black).unwrap();
    }
    for (x, y) in [(3, 9), (4, 9), (5, 9), (6, 9)] {
        b.place(Point::new(x, y), Color::White).unwrap();
    }
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(
        solver
            .defences(&b, Color::White, Budget::default())
            .map(sorted),
        Some(pts(&[(2, 3), (7, 3)]))
    );
    let Some(ProvenResult::Win { line }) = solver.quick(&b) else {
        panic!("black has a five")
    };
    assert_eq!(line.len(), 1);
    assert!(b.is_win_move(line[0], Color::Black));
    // Nothing to refute in a quiet position.
    let b = case_board("freestyle15-quiet-black");
    assert_eq!(solver.defences(&b, Color::White, Budget::default()), None);
    assert_eq!(solver.quick(&b), None);
}

#[test]
fn renju_defences_never_offer_a_forbidden_point() {
    let b = Board::from_diagram(Rule::Renju, suite::RENJU_THREE_BY_FORBIDDEN).unwrap();
    assert_eq!(b.side_to_move(), Color::Black);
    assert!(b.is_forbidden(Point::new(4, 10)));
    let mut solver = Solver::new();
    let found = solver.defences(&b, Color::White, Budget::default());
    assert_eq!(found, Some(vec![Point::new(8, 10)]));
    // The far block fails: white's four then completes on the forbidden point.
    let mut far = b.clone();
    far.play(Point::new(9, 10)).unwrap();
    let Outcome::Win { line } = solver.vcf(&far, Color::White, Budget::default()) else {
        panic!("white wins through the forbidden point")
    };
    check_line(&far, Color::White, &line, Kind::Vcf).unwrap();
    assert_eq!(line.last(), Some(&Point::new(4, 10)));
    // Without forbidden points (freestyle) black may take the near end and the far block works.
    let b = Board::from_diagram(Rule::Freestyle, suite::RENJU_THREE_BY_FORBIDDEN).unwrap();
    let found = solver.defences(&b, Color::White, Budget::default());
    assert_eq!(found.map(sorted), Some(pts(&[(4, 10), (8, 10), (9, 10)])));
}

// ---------------------------------------------------------------------------------------------
// Quick verdicts, passes, budgets, the table
// ---------------------------------------------------------------------------------------------

#[test]
fn quick_finds_a_short_vcf() {
    let mut solver = Solver::new();
    let b = case_board("freestyle15-four-three");
    let Some(ProvenResult::Win { line }) = solver.quick(&b) else {
        panic!("four-three is a quick VCF")
    };
    assert_eq!(line[0], Point::new(8, 7));
    check_line(&b, Color::Black, &line, Kind::Vcf).unwrap();
}

#[test]
fn attacker_need_not_be_the_side_to_move() {
    let mut solver = Solver::new();
    // White to move, but if white passed, black's four-three would win.
    let b = Board::from_diagram(Rule::Freestyle, suite::FOUR_THREE_WHITE_TO_MOVE).unwrap();
    assert_eq!(b.side_to_move(), Color::White);
    let Outcome::Win { line } = solver.vcf(&b, Color::Black, Budget::default()) else {
        panic!("black's VCF after a pass")
    };
    assert_eq!(line[0], Point::new(8, 7));
    check_line(&b, Color::Black, &line, Kind::Vcf).unwrap();
    // White to move faces black's open four: asked about black (as if white passed), the answer
    // is black's five.
    let b = case_board("freestyle15-open-four-after-pass");
    assert_eq!(b.side_to_move(), Color::White);
    let out = solver.vcf(&b, Color::Black, Budget::default());
    assert_eq!(
        out.first_move().map(|p| b.is_win_move(p, Color::Black)),
        Some(true)
    );
}

#[test]
fn budgets_end_in_unknown_never_in_a_false_answer() {
    let mut solver = Solver::new();
    let b = case_board("freestyle15-zigzag");
    assert_eq!(
        solver.vcf(&b, Color::Black, Budget::nodes(5)),
        Outcome::Unknown
    );
    assert!(solver.last_nodes() <= 6, "{}", solver.last_nodes());
    let stop = AtomicBool::new(true);
    let stopped = Budget::nodes(u64::MAX).with_stop(&stop);
    assert_eq!(solver.vcf(&b, Color::Black, stopped), Outcome::Unknown);
    stop.store(false, Ordering::Relaxed);
    let free = Budget::nodes(u64::MAX).with_stop(&stop);
    assert!(solver.vcf(&b, Color::Black, free).is_win());
    // A search that needs many nodes under a zero time limit stops at its first clock check.
    // (The renju detour takes a few thousand nodes.)
    let mut fresh = Solver::new();
    let detour = case_board("renju15-double-three-detour");
    let timed = Budget::nodes(u64::MAX).with_time(Duration::ZERO);
    let out = fresh.vct(&detour, Color::Black, timed);
    assert_eq!(out, Outcome::Unknown);
    assert!(fresh.last_nodes() <= 256, "{}", fresh.last_nodes());
}

#[test]
fn the_table_makes_repeated_questions_cheap() {
    let b = case_board("freestyle15-counter-four-delays");
    let mut solver = Solver::with_table_bits(16);
    assert_eq!(solver.table_entries(), 1 << 16);
    let first = solver.vct(&b, Color::White, Budget::default());
    let cold = solver.last_nodes();
    let second = solver.vct(&b, Color::White, Budget::default());
    let warm = solver.last_nodes();
    assert!(first.is_win());
    assert_eq!(first, second);
    assert!(warm < cold, "warm {warm} cold {cold}");
    solver.clear();
    assert_eq!(solver.vct(&b, Color::White, Budget::default()), first);
    assert_eq!(solver.last_nodes(), cold);
}

/// A win found in the table may have been proven with more depth than the current search has
/// left; rebuilding its line must use that depth (found by the random soak, caro, 11x11).
#[test]
fn a_win_from_the_table_still_gets_its_line() {
    let b = Board::from_diagram(
        Rule::CaroExact,
        "
        . . . . . . . . . . .
        . . x . o . x o . . .
        . . . . . . . . . . .
        . . . . . . . . o . .
        . . x . . x . o x . .
        . x o . . . . x . . .
        . . . . o . . . . o .
        . o . . . . . . . . .
        . x . . o . . x . . .
        . x o . . . . . x . .
        . . . . . . . . . . .",
    )
    .unwrap();
    assert_eq!(b.side_to_move(), Color::White);
    let deep = Budget::nodes(1_000_000).with_depth(3);
    assert_eq!(
        Solver::new().vct(&b, Color::White, deep.with_depth(2)),
        Outcome::NoWin
    );
    // With a small table the second question finds the root's win in the table while much of
    // the proof below it is gone.
    let mut small = Solver::with_table_bits(10);
    for _ in 0..2 {
        let Outcome::Win { line } = small.vct(&b, Color::White, deep) else {
            panic!("white wins in three threats")
        };
        check_line(&b, Color::White, &line, Kind::Vct).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// Cross-checks on random positions
/// Random positions per cross-check run; `HOSHI_SOLVER_SOAK=n` runs n times as many (from other
/// seeds) for a longer soak.
const VCF_ROUNDS: usize = 300;
const VCT_ROUNDS: usize = 150;

fn soak() -> (usize, u64) {
    let n = std::env::var("HOSHI_SOLVER_SOAK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1usize)
        .max(1);
    (n, if n > 1 { 1000 + n as u64 } else { 0 })
}
// ---------------------------------------------------------------------------------------------

#[test]
fn vcf_agrees_with_brute_force_on_random_positions() {
    let (factor, seed) = soak();
    let mut rng = StdRng::seed_from_u64(7 + seed);
    let mut solver = Solver::new();
    let mut stats = [0usize; 3];
    for round in 0..VCF_ROUNDS * factor {
        let rule = Rule::ALL[round % Rule::ALL.len()];
        let size = [7, 9, 8][round % 3];
        let moves = rng.gen_range(8..24);
        let mut b = random_position(&mut rng, size, rule, moves);
        let attacker = b.side_to_move();
        let mut nodes = 3_000u64;
        let Some(expected) = brute_vcf(&mut b, attacker, &mut nodes) else {
            stats[2] += 1;
            continue;
        };
        let got = solver.vcf(&b, attacker, Budget::nodes(1_000_000));
        match (&got, expected) {
            (Outcome::Win { line }, true) => {
                check_line(&b, attacker, line, Kind::Vcf)
                    .unwrap_or_else(|e| panic!("{rule} line {line:?}: {e}\n{b}"));
                stats[0] += 1;
            }
            (Outcome::NoWin, false) => stats[1] += 1,
            _ => panic!("{rule} {attacker:?}: solver {got:?}, brute force {expected}\n{b}"),
        }
    }
    eprintln!(
        "wins {} no-wins {} skipped {}",
        stats[0], stats[1], stats[2]
    );
    assert!(stats[0] >= 20 && stats[1] >= 20, "{stats:?}");
}

#[test]
fn vct_wins_on_random_positions_survive_every_defence() {
    let (factor, seed) = soak();
    let mut rng = StdRng::seed_from_u64(11 + seed);
    let mut solver = Solver::new();
    let mut checked = 0;
    for round in 0..VCT_ROUNDS * factor {
        let rule = Rule::ALL[round % Rule::ALL.len()];
        // A soak also tries bigger boards and busier positions.
        let (size, most) = if factor > 1 {
            (9 + round % 3, 22)
        } else {
            (9, 16)
        };
        let moves = rng.gen_range(6..most);
        let mut b = random_position(&mut rng, size, rule, moves);
        let attacker = b.side_to_move();
        if solver.vcf(&b, attacker, Budget::nodes(100_000)).is_win() {
            continue; // VCT wins that are more than a VCF are the interesting ones
        }
        let got = solver.vct(&b, attacker, Budget::nodes(200_000).with_depth(3));
        if let Outcome::Win { line } = &got {
            check_line(&b, attacker, line, Kind::Vct)
                .unwrap_or_else(|e| panic!("{rule} line {line:?}: {e}\n{b}"));
            verify_by_all_defences(&mut b, attacker, &mut solver, Kind::Vct, 40)
                .unwrap_or_else(|e| panic!("{rule} {attacker:?} line {line:?}: {e}\n{b}"));
            checked += 1;
        }
    }
    eprintln!("verified VCT wins: {checked}");
    assert!(checked >= 5, "{checked}");
}
