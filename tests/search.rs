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
    hoshi::setup::classical_mcts(MctsParams::default())
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

/// Black to move: `(6,7)` makes a four on row 7 and an open three on column 6.
const FOUR_THREE: &str = "
    o . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . x . . . . . . . .
    . . . . . . x . . . . . . . .
    . . o x x x . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . o . .
    . . . . . . . . . . . . . . .
    o . . . . . . . . . . . . . o
";

#[test]
fn finds_a_four_three_and_proves_it() {
    for rule in Rule::ALL {
        let b = diagram(rule, FOUR_THREE);
        assert_eq!(b.side_to_move(), Color::Black);
        for threads in [1, 2] {
            let mut t = thinker();
            let r = think_on(&mut t, &b, &[], nodes(5_000, threads));
            assert_eq!(r.best, Some(p(6, 7)), "{rule}");
            assert_eq!(r.info.eval, Eval::Win(5), "{rule}");
            // A proven win is played at once, long before the node limit.
            assert!(r.info.nodes < 5_000, "{rule}: {} playouts", r.info.nodes);
            assert_eq!(r.info.pv.first(), Some(&(Color::Black, p(6, 7))));
            assert!(r.info.pv.len() >= 3, "{:?}", r.info.pv);
        }
    }
}

#[test]
fn makes_the_open_four_from_an_open_three() {
    // White to move with an open three on column 9; black has nothing forcing.
    let text = "
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . o . . .
        . . . . . . . . . o . . .
        . . . . . . . . . o . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . x . . x . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . x . .
        . . . . . . . . . . . . .
        x . . . . . . . . . . . .
    ";
    for rule in [Rule::Freestyle, Rule::Renju, Rule::Standard] {
        let b = diagram(rule, text);
        assert_eq!(b.side_to_move(), Color::White);
        let mut t = thinker();
        let r = think_on(&mut t, &b, &[], nodes(3_000, 2));
        let m = r.best.unwrap();
        assert!(m == p(9, 2) || m == p(9, 6), "{rule}: {m}");
        assert_eq!(r.info.eval, Eval::Win(3), "{rule}");
    }
}

#[test]
fn keeps_the_tree_across_moves() {
    let mut b = Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    let mut t = thinker();
    let first = think_on(&mut t, &b, &[], nodes(4_000, 2));
    assert_eq!(t.last_search().unwrap().reused_visits, 0);
    // The same position again: the whole tree stays.
    let (_, visits) = t.tree_size().unwrap();
    think_on(&mut t, &b, &[], nodes(10, 1));
    assert_eq!(t.last_search().unwrap().reused_visits, visits);
    // Our move and the reply the search expected: that subtree becomes the root.
    assert!(first.info.pv.len() >= 2, "{:?}", first.info.pv);
    let (ours, reply) = (first.info.pv[0].1, first.info.pv[1].1);
    b.play(ours).unwrap();
    b.play(reply).unwrap();
    let r = think_on(&mut t, &b, &[], nodes(1_000, 2));
    let stats = t.last_search().unwrap().clone();
    assert!(stats.reused_visits > 10, "{stats:?}");
    assert_eq!(stats.playouts, 1_000);
    assert_eq!(r.info.nodes, 1_000);
    let (_, root_visits) = t.tree_size().unwrap();
    assert_eq!(root_visits, stats.reused_visits + 1_000);
    // An unrelated position starts afresh; clear() forgets everything.
    let other = Board::from_moves(15, 15, Rule::Freestyle, &[p(1, 1)]).unwrap();
    think_on(&mut t, &other, &[], nodes(100, 1));
    assert_eq!(t.last_search().unwrap().reused_visits, 0);
    t.clear();
    assert!(t.tree_size().is_none());
}

#[test]
fn respects_the_memory_limit_and_keeps_searching() {
    let b = Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    for (limit, threads) in [(200_000u64, 2), (1, 1)] {
        let mut t = thinker();
        let limits = Limits {
            max_memory_bytes: Some(limit),
            ..nodes(20_000, threads)
        };
        let r = think_on(&mut t, &b, &[], limits);
        let stats = t.last_search().unwrap().clone();
        // The tree stays within its share of the limit, save the root's own moves (always kept).
        assert!(
            stats.tree_bytes <= stats.tree_limit + 4_096,
            "{limit}: {stats:?}"
        );
        assert!(stats.tree_limit <= limit);
        let (count, _) = t.tree_size().unwrap();
        assert!(count * 32 <= limit.max(4_096), "{limit}: {count} nodes");
        // Still searching: every playout was run.
        assert_eq!(r.info.nodes, 20_000, "{limit}");
    }
}

#[test]
fn answers_a_stop_at_once_with_a_legal_move() {
    let b = Board::from_moves(15, 15, Rule::Renju, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    let mut t = thinker();
    // Already stopped: answer straight away.
    let stop = AtomicBool::new(true);
    let request = ThinkRequest {
        board: b.clone(),
        blocked: Vec::new(),
        limits: Limits::infinite(2),
    };
    let started = Instant::now();
    let r = t.think(&request, &stop);
    assert!(started.elapsed() < Duration::from_millis(200));
    assert_playable(&b, &[], r.best.unwrap());
    // Stopped while searching with no other limit.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        flag.store(true, Ordering::SeqCst);
        Instant::now()
    });
    let r = t.think(&request, &stop);
    let answered = Instant::now();
    let stopped = stopper.join().unwrap();
    assert!(
        answered.duration_since(stopped) < Duration::from_millis(100),
        "took {:?} after the stop",
        answered.duration_since(stopped)
    );
    assert_playable(&b, &[], r.best.unwrap());
    assert!(r.info.nodes > 0);
}

#[test]
fn honours_the_deadline_and_the_depth_limit() {
    let b = Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    let mut t = thinker();
    t.params_mut().smart_stop = false;
    let started = Instant::now();
    let r = think_on(&mut t, &b, &[], Limits::movetime(300, 2));
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(290), "{took:?}");
    assert!(took < Duration::from_millis(600), "{took:?}");
    assert!(r.info.nodes > 100);
    let limits = Limits {
        max_depth: Some(3),
        ..Limits::infinite(2)
    };
    t.clear();
    let started = Instant::now();
    let r = think_on(&mut t, &b, &[], limits);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(r.info.depth_min >= 3, "{:?}", r.info);
    assert!(r.info.depth_max >= r.info.depth_min);
}

#[test]
fn never_plays_a_blocked_point() {
    // Black has an open four: both fives blocked by the caller, so it must play elsewhere.
    let text = "
        . . . . . . . . . .
        . . . . . . . . . .
        . . x x x x . . . .
        . . . . . . . . . .
        . . o o o . . . . .
        . . . . . . . . . o
        . . . . . . . . . .
    ";
    let b = diagram(Rule::Freestyle, text);
    assert_eq!(b.side_to_move(), Color::Black);
    let mut t = thinker();
    let r = think_on(&mut t, &b, &[p(1, 2)], nodes(500, 2));
    assert_eq!(r.best, Some(p(6, 2)));
    let blocked = [p(1, 2), p(6, 2)];
    let r = think_on(&mut t, &b, &blocked, nodes(500, 2));
    assert_ne!(r.info.eval, Eval::Win(1));
    assert!(r.ranked.iter().all(|(q, _)| !blocked.contains(q)));
    // Unblocked again (tree reused or not), the win comes back.
    let r = think_on(&mut t, &b, &[], nodes(500, 2));
    assert_eq!(r.info.eval, Eval::Win(1));
}

/// A tiny deterministic generator for the fuzz test.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn never_plays_a_forbidden_or_occupied_point_in_random_renju_positions() {
    let mut seed = 0x5EED_1234_u64;
    let mut t = thinker();
    for game in 0..12 {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        let plies = 8 + (xorshift(&mut seed) % 30) as usize;
        while b.stone_count() < plies {
            let x = 3 + (xorshift(&mut seed) % 9) as u8;
            let y = 3 + (xorshift(&mut seed) % 9) as u8;
            let q = p(x, y);
            if b.is_empty(q) && b.outcome_of(q, b.side_to_move()) == MoveOutcome::Ongoing {
                b.play(q).unwrap();
            }
        }
        let r = think_on(&mut t, &b, &[], nodes(400, 1 + game % 2));
        // Playing it must not hand the game away by a foul.
        assert_ne!(
            b.clone().play(r.best.unwrap()),
            Ok(MoveOutcome::ForbiddenLoss)
        );
    }
}

#[test]
fn proofs_from_the_tactical_hook_propagate_to_the_root() {
    let b = Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    let root_stones = b.stone_count();
    // A check that knows the reply to (6, 6) loses in 7 plies: the root wins in 8 through it.
    let mut t = thinker();
    t.set_tactical_check(Some(Arc::new(move |pos: &Board| {
        (pos.stone_count() == root_stones + 1 && pos.last_move() == Some(p(6, 6)))
            .then_some(Proof::Loss(7))
    })));
    let r = think_on(&mut t, &b, &[], nodes(50_000, 2));
    assert_eq!(r.best, Some(p(6, 6)));
    assert_eq!(r.info.eval, Eval::Win(8));
    assert!(r.info.nodes < 50_000, "a proven win ends the search");
    // A check that finds every reply winning for the opponent: the root is lost, and the
    // search still answers with a legal move, resisting the longest.
    let mut t = thinker();
    t.set_tactical_check(Some(Arc::new(move |pos: &Board| {
        let plies = if pos.last_move() == Some(p(9, 9)) {
            9
        } else {
            3
        };
        (pos.stone_count() == root_stones + 1).then_some(Proof::Win(plies))
    })));
    let r = think_on(&mut t, &b, &[], nodes(50_000, 2));
    assert_eq!(r.info.eval, Eval::Loss(10));
    assert_eq!(r.best, Some(p(9, 9)));
}

#[test]
fn ranked_moves_cover_the_root() {
    let b = Board::from_moves(15, 15, Rule::Standard, &[p(7, 7), p(8, 8)]).unwrap();
    let mut t = thinker();
    let r = think_on(&mut t, &b, &[], nodes(2_000, 2));
    assert!(r.ranked.len() > 5);
    assert!(r.ranked.iter().any(|(q, _)| Some(*q) == r.best));
    assert!(r
        .ranked
        .iter()
        .all(|&(q, s)| b.is_empty(q) && (0.0..=1.0).contains(&s)));
    match r.info.eval {
        Eval::Winrate { win, draw, loss } => {
            assert!((win + draw + loss - 1.0).abs() < 1e-3, "{:?}", r.info.eval)
        }
        other => panic!("an opening is not proven: {other:?}"),
    }
}

#[cfg(feature = "torch")]
#[test]
fn searches_with_a_network_evaluator() {
    use hoshi::nn::{Arch, Network, ServiceConfig};
    use hoshi::search::evaluator::{set_cpu_threads, NetworkEvaluator};
    set_cpu_threads(1);
    let net = Network::random(Arch::new(1, 8), 7, tch::Device::Cpu).unwrap();
    let config = ServiceConfig {
        max_batch: 4,
        ..ServiceConfig::default()
    };
    let evaluator = Arc::new(NetworkEvaluator::new(net, config, 3).unwrap());
    let mut t = MctsThinker::new(MctsParams::default(), evaluator.clone());
    assert!(t.name().contains("network"), "{}", t.name());
    // The rules decide fives and forced blocks whatever the (untrained) network thinks.
    let b = diagram(
        Rule::Renju,
        "
        . . . . . . . . . .
        . . . . . . . . . .
        . o x x x x . . . .
        . . . . . . . . . .
        . . o o o . . . . .
        . . . . . . . . . o
        . . . . . . . . . .
        ",
    );
    assert_eq!(b.side_to_move(), Color::White);
    let r = think_on(&mut t, &b, &[], nodes(100, 2));
    assert_eq!(r.best, Some(p(6, 2)), "white must block");
    let mut b = b;
    b.play(p(0, 0)).unwrap();
    let r = think_on(&mut t, &b, &[], nodes(100, 2));
    assert_eq!((r.best, r.info.eval), (Some(p(6, 2)), Eval::Win(1)));
    // An ordinary search: legal answers, evaluations went through the batching service.
    let b = Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    let r = think_on(&mut t, &b, &[], nodes(300, 2));
    assert_eq!(r.info.nodes, 300);
    let stats = evaluator.service().stats();
    assert!(stats.evaluations > 50, "{stats:?}");
    assert_eq!(
        t.last_search().unwrap().threads,
        3,
        "network.search_threads wins"
    );
}

#[cfg(feature = "torch")]
#[test]
fn searches_with_the_hybrid_evaluator() {
    use hoshi::nn::{Arch, Network, ServiceConfig};
    use hoshi::search::evaluator::{
        set_cpu_threads, ClassicalEvaluator, HybridEvaluator, NetworkEvaluator, RefineSettings,
    };
    set_cpu_threads(1);
    let net = Network::random(Arch::new(1, 8), 9, tch::Device::Cpu).unwrap();
    let network = NetworkEvaluator::new(net, ServiceConfig::default(), 0).unwrap();
    let refine = RefineSettings {
        after_visits: 8,
        policy_mix: 1.0,
        value_weight: 8,
    };
    let hybrid = Arc::new(HybridEvaluator::new(
        ClassicalEvaluator::default(),
        network,
        refine,
    ));
    let mut t = MctsThinker::new(MctsParams::default(), hybrid.clone());
    assert!(t.name().contains("hybrid"), "{}", t.name());
    let b = Board::from_moves(15, 15, Rule::Freestyle, &[p(7, 7), p(8, 8), p(8, 6)]).unwrap();
    let r = think_on(&mut t, &b, &[], nodes(2000, 2));
    assert_playable(&b, &[], r.best.unwrap());
    assert_eq!(
        t.last_search().unwrap().threads,
        2,
        "a classical search's threads"
    );
    // The net saw only the nodes the search came back to at least 8 times: far fewer than
    // the nodes searched, but more than the root alone.
    let evals = hybrid.network().service().stats().evaluations;
    assert!(evals > 1 && evals < 400, "{evals} network evaluations");
    // The rules still decide forced blocks whatever the (untrained) network thinks.
    let b = diagram(
        Rule::Renju,
        "
        . . . . . . . . . .
        . . . . . . . . . .
        . o x x x x . . . .
        . . . . . . . . . .
        . . o o o . . . . .
        . . . . . . . . . o
        . . . . . . . . . .
        ",
    );
    let r = think_on(&mut t, &b, &[], nodes(500, 1));
    assert_eq!(r.best, Some(p(6, 2)), "white must block");
}
