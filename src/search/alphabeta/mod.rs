//! The alpha-beta searcher: iterative deepening with aspiration windows over the principal
//! variation search of `worker`, several threads sharing one transposition table (Lazy SMP:
//! the helpers search the same root, half of them one ply deeper, and fill the table the main
//! thread reads). The same evaluator contract as the MCTS: the pattern net (or the classical
//! evaluator) updated incrementally as the threads make and unmake moves.
//!
//! - `score`: integer scores, mate distances, the verdict shown to the user;
//! - `tt`: the shared transposition table, sized from the memory limit;
//! - `worker`: one thread's search (the move picker is `search::picker`).
mod score;
mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::evaluator::Evaluator;
use super::mcts::{excluded_indices, Proof};
use super::picker::Stage;
use super::think::{Limits, ProgressSink, SearchInfo, Style, ThinkRequest, ThinkResult, Thinker};
use crate::game::{Board, Color, Point};
use score::{is_mate, to_eval, to_unit, INFINITY, MATE, MAX_PLY};
use tt::Table;
use worker::{RootMove, Shared, Worker};

/// First aspiration window around the last iteration's score, and from which depth.
const ASPIRATION_WINDOW: i32 = 40;
const ASPIRATION_DEPTH: i32 = 5;
/// A root with one move searches this deep for its report, then answers.
const FORCED_DEPTH: i32 = 3;
/// Under a match clock an iteration starts only before this share of the target time.
const BANKED_ITERATION_SHARE: f64 = 0.5;

/// The alpha-beta's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaParams {
    pub style: Style,
    /// Share of the memory limit the transposition table may take.
    pub memory_share: f32,
    /// The table never takes more than this.
    pub hash_cap_bytes: u64,
}

/// What the last search did (for logs and the bench).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlphaBetaStats {
    /// The last iteration completed.
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub threads: usize,
    pub elapsed: Duration,
    pub table_bytes: u64,
}

/// The alpha-beta search as the controller's [`Thinker`]. Keeps its table between searches.
pub struct AlphaBetaThinker {
    params: AlphaBetaParams,
    evaluator: Arc<dyn Evaluator>,
    table: Option<Table>,
    name: String,
    progress: Option<ProgressSink>,
    last: Option<AlphaBetaStats>,
}

impl AlphaBetaThinker {
    pub fn new(params: AlphaBetaParams, evaluator: Arc<dyn Evaluator>) -> AlphaBetaThinker {
        let name = format!("alphabeta ({})", evaluator.name());
        AlphaBetaThinker {
            params,
            evaluator,
            table: None,
            name,
            progress: None,
            last: None,
        }
    }

    /// Statistics of the last search.
    pub fn last_search(&self) -> Option<&AlphaBetaStats> {
        self.last.as_ref()
    }

    fn table_bytes(&self, limits: &Limits) -> u64 {
        let cap = self.params.hash_cap_bytes;
        match limits.max_memory_bytes {
            None => cap,
            Some(total) => {
                let share = (total as f64 * self.params.memory_share as f64) as u64;
                share.saturating_sub(self.evaluator.memory_bytes()).min(cap)
            }
        }
    }

    /// The kept table, resized to `bytes` if it is another size.
    fn table(&mut self, bytes: u64) -> &mut Table {
        let wanted = Table::with_bytes(0).bytes().max(bytes);
        let fits = self.table.as_ref().is_some_and(|t| {
            let b = t.bytes();
            b <= wanted && b * 2 > wanted
        });
        if !fits {
            self.table = None;
            self.table = Some(Table::with_bytes(bytes));
        }
        self.table.as_mut().expect("set above")
    }
}

fn coloured(board: &Board, line: &[usize]) -> Vec<(Color, Point)> {
    let mut colour = board.side_to_move();
    line.iter()
        .map(|&m| {
            let c = colour;
            colour = colour.opponent();
            (c, board.point(m))
        })
        .collect()
}

/// One thread's iterative deepening; the main thread (`report`) records each iteration.
fn iterate(
    worker: &mut Worker,
    shared: &Shared<'_>,
    mut moves: Vec<RootMove>,
    first_depth: i32,
    mut report: impl FnMut(&[RootMove], i32, i32, &Worker) -> bool,
) {
    let mut score = 0;
    let mut depth = first_depth;
    while depth <= MAX_PLY && !shared.aborted() {
        let mut window = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && !is_mate(score) {
            (score - window, score + window)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let s = worker.search_root(shared, &mut moves, depth, alpha, beta);
            if shared.aborted() {
                break;
            }
            if s <= alpha {
                alpha = (s - window).max(-INFINITY);
            } else if s >= beta {
                beta = (s + window).min(INFINITY);
            } else {
                score = s;
                break;
            }
            window *= 2;
            if window > 1000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
        if shared.aborted() {
            // A move that beat the last iteration's best in this one is already first.
            report(&moves, depth - 1, score, worker);
            break;
        }
        if !report(&moves, depth, score, worker) {
            break;
        }
        depth += 1;
    }
}

impl Thinker for AlphaBetaThinker {
    fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult {
        let started = Instant::now();
        let board = &request.board;
        let limits = &request.limits;
        let exclude = excluded_indices(board, &request.blocked);
        let bytes = self.table_bytes(limits);
        let evaluator = self.evaluator.clone();
        let threads = limits.threads.max(1);
        let style = self.params.style;
        let progress = self.progress.clone();
        let table = self.table(bytes);
        table.new_search();
        let table: &Table = table;
        // Draws are worth to us what the style says, from -1 (a loss) to 1 (a win).
        let draw_value = 2.0 * style.draw_weight() - 1.0;
        let shared = Shared {
            tt: table,
            limits,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            draw_value,
        };
        let reads_twos = evaluator.reads_twos();
        let mut main = Worker::new(board.clone(), evaluator.leaf_evaluator(), reads_twos, true);
        let (root_moves, stage, static_eval) = main.root_moves(&exclude, draw_value);

        let mut best: Option<(Vec<RootMove>, i32, i32)> = None;
        let mut seldepth = 0;
        match stage {
            Stage::Decided(proof) => {
                let score = match proof {
                    Proof::Win(n) => MATE - n as i32,
                    Proof::Loss(n) => -MATE + n as i32,
                    Proof::Draw => 0,
                };
                best = Some((root_moves, 0, score));
            }
            _ if root_moves.is_empty() => {}
            _ => {
                let one_move = root_moves.len() == 1;
                let banked = limits.saved_time_banked;
                let budget = limits
                    .target
                    .map(|t| t.saturating_duration_since(started).as_secs_f64());
                std::thread::scope(|scope| {
                    let shared = &shared;
                    for t in 1..threads {
                        let moves = root_moves.clone();
                        let leaf = evaluator.leaf_evaluator();
                        let board = board.clone();
                        scope.spawn(move || {
                            let mut helper = Worker::new(board, leaf, reads_twos, false);
                            // Half of the helpers run one ply ahead of the main thread.
                            iterate(
                                &mut helper,
                                shared,
                                moves,
                                1 + (t % 2) as i32,
                                |_, _, _, _| true,
                            );
                            helper.flush_nodes(shared);
                        });
                    }
                    iterate(
                        &mut main,
                        shared,
                        root_moves,
                        1,
                        |moves, depth, score, w| {
                            if depth < 1 {
                                return false;
                            }
                            seldepth = seldepth.max(w.seldepth);
                            best = Some((moves.to_vec(), depth, score));
                            if let Some(sink) = progress.as_deref() {
                                let info = SearchInfo {
                                    depth_min: depth as u32,
                                    depth_max: seldepth as u32,
                                    eval: to_eval(score),
                                    nodes: shared.nodes.load(Ordering::Relaxed) + w.nodes,
                                    elapsed: started.elapsed(),
                                    pv: coloured(board, &moves[0].pv),
                                };
                                sink(&info, Some(board.point(moves[0].mv)));
                            }
                            let proven = is_mate(score) && depth > MATE - score.abs() + 1;
                            let settled = one_move && depth >= FORCED_DEPTH;
                            let late = banked
                                && budget.is_some_and(|b| {
                                    started.elapsed().as_secs_f64() > BANKED_ITERATION_SHARE * b
                                });
                            let deep = limits.max_depth.is_some_and(|d| depth as u32 >= d);
                            !(proven || settled || late || deep)
                        },
                    );
                    main.flush_nodes(shared);
                    shared.abort.store(true, Ordering::Relaxed);
                });
            }
        }

        let nodes = shared.nodes.load(Ordering::Relaxed).max(1);
        let elapsed = started.elapsed();
        let (moves, depth, score) = best.unwrap_or_default();
        let mut chosen = moves
            .first()
            .map(|m| board.point(m.mv))
            .filter(|&p| board.is_legal(p) && !request.blocked.contains(&p));
        if chosen.is_none() {
            chosen =
                super::one_ply::best_move(board, &request.blocked).map(|(i, _)| board.point(i));
        }
        if let Some(m) = moves
            .first()
            .filter(|m| depth >= 1 && Some(board.point(m.mv)) == chosen)
        {
            // The move played heads the table's line for `INFO evaluate` and pondering: a
            // helper's deeper iteration, cut short by the stop, may have stored another.
            table.store(
                board.hash(),
                0,
                tt::Entry {
                    mv: Some(m.mv),
                    score,
                    eval: static_eval,
                    depth,
                    bound: tt::Bound::Exact,
                },
            );
        }
        let pv = match moves.first() {
            Some(m) if Some(board.point(m.mv)) == chosen => coloured(board, &m.pv),
            _ => chosen
                .map(|p| vec![(board.side_to_move(), p)])
                .unwrap_or_default(),
        };
        let eval = if moves.is_empty() {
            to_eval(static_eval)
        } else {
            to_eval(score)
        };
        let mut ranked: Vec<(Point, f32)> = moves
            .iter()
            .map(|m| {
                let s = if m.score == -INFINITY { -MATE } else { m.score };
                (board.point(m.mv), to_unit(s))
            })
            .collect();
        if let Some(first) = ranked.first_mut() {
            first.1 = eval.score();
        }
        // The rest by score (bounds for the moves that failed low), the best kept first.
        if ranked.len() > 1 {
            ranked[1..].sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        let stats = AlphaBetaStats {
            depth: depth.max(0) as u32,
            seldepth: seldepth.max(depth).max(0) as u32,
            nodes,
            threads,
            elapsed,
            table_bytes: bytes,
        };
        log::debug!("{}: {stats:?}", self.name);
        self.last = Some(stats.clone());
        ThinkResult {
            best: chosen,
            info: SearchInfo {
                depth_min: stats.depth.max(pv.len().min(1) as u32),
                depth_max: stats.seldepth.max(pv.len() as u32),
                eval,
                nodes,
                elapsed,
                pv,
            },
            ranked,
            visits: Vec::new(),
        }
    }

    fn clear(&mut self) {
        if let Some(t) = self.table.as_mut() {
            t.clear();
        }
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn set_style(&mut self, style: Style) {
        if style != self.params.style {
            // Stored draw scores were worth something else.
            self.clear();
        }
        self.params.style = style;
    }

    fn set_progress(&mut self, sink: Option<ProgressSink>) {
        self.progress = sink;
    }

    /// What the table remembers of the position after `path`: its score and the line of
    /// stored best moves from it.
    fn evaluate_path(&self, board: &Board, path: &[Point]) -> Option<SearchInfo> {
        let table = self.table.as_ref()?;
        let mut position = board.clone();
        for &p in path {
            if !position.is_on_board(p.x as i32, p.y as i32) {
                return None;
            }
            position.play(p).ok()?;
        }
        let entry = table.probe(position.hash(), 0)?;
        let mut line = Vec::new();
        let mut walk = position.clone();
        let mut next = entry.mv;
        while let Some(m) = next {
            if line.len() >= 30 || !walk.is_empty_idx(m) {
                break;
            }
            line.push(m);
            walk.play_unchecked(m);
            next = table.probe(walk.hash(), 0).and_then(|e| e.mv);
        }
        let pv = coloured(&position, &line);
        Some(SearchInfo {
            depth_min: entry.depth.max(0) as u32,
            depth_max: (entry.depth.max(0) as u32).max(pv.len() as u32),
            eval: match entry.bound {
                tt::Bound::Exact => to_eval(entry.score),
                _ => to_eval(entry.eval),
            },
            nodes: 0,
            elapsed: Duration::ZERO,
            pv,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use crate::search::evaluator::{ClassicalEvaluator, PatternEvaluator};
    use crate::search::Eval;

    fn thinker(evaluator: Arc<dyn Evaluator>) -> AlphaBetaThinker {
        let params = AlphaBetaParams {
            style: Style::Classic,
            memory_share: 0.5,
            hash_cap_bytes: 8 << 20,
        };
        AlphaBetaThinker::new(params, evaluator)
    }

    fn classical() -> AlphaBetaThinker {
        thinker(Arc::new(ClassicalEvaluator::new(1.0)))
    }

    fn request(board: Board, blocked: Vec<Point>, limits: Limits) -> ThinkRequest {
        ThinkRequest {
            board,
            blocked,
            limits,
        }
    }

    fn depth_limited(depth: u32, threads: usize) -> Limits {
        Limits {
            max_depth: Some(depth),
            ..Limits::movetime(20_000, threads)
        }
    }

    #[test]
    fn finds_a_win_by_fours_and_reports_its_distance() {
        // Black to move: a broken three and a three crossing make a four-four in a few moves.
        let board = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . x x . x . . . . . o
            . . . . . . . . . . . . . . .
            . . . . . . . . x . . . . . .
            . . . . . . . . x . . . . . .
            . . . . . . . . . . . . . . .
            . . . o . . o . o . o . . . .
            . . . . . . . . . . . . . . .",
        )
        .unwrap();
        assert_eq!(board.side_to_move(), Color::Black);
        let mut t = classical();
        let r = t.think(
            &request(board.clone(), vec![], depth_limited(6, 1)),
            &AtomicBool::new(false),
        );
        assert!(
            matches!(r.info.eval, Eval::Win(n) if n <= 5),
            "{:?}",
            r.info
        );
        let best = r.best.unwrap();
        let mut after = board.clone();
        after.play(best).unwrap();
        assert!(
            !after.five_points(Color::Black).is_empty(),
            "{best:?} makes a four"
        );
        // The line alternates colours from black.
        assert_eq!(r.info.pv[0], (Color::Black, best));
        assert!(r.info.pv.windows(2).all(|w| w[0].0 != w[1].0));
    }

    #[test]
    fn defends_an_open_three_and_never_plays_a_blocked_point() {
        let p = Point::new;
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (black, white) in [((0, 14), (5, 7)), ((14, 0), (6, 7)), ((10, 12), (7, 7))] {
            board.place(p(black.0, black.1), Color::Black).unwrap();
            board.place(p(white.0, white.1), Color::White).unwrap();
        }
        let mut t = classical();
        let stop = AtomicBool::new(false);
        let r = t.think(&request(board.clone(), vec![], depth_limited(4, 1)), &stop);
        let best = r.best.unwrap();
        assert!([p(4, 7), p(8, 7)].contains(&best), "{best:?}");
        // With one stop blocked (a GUI's yxblock), the other one.
        let r = t.think(
            &request(board.clone(), vec![p(4, 7)], depth_limited(4, 2)),
            &stop,
        );
        assert_eq!(r.best, Some(p(8, 7)));
        // Both blocked: the open three cannot be stopped, yet a legal, unblocked move comes.
        let r = t.think(
            &request(board.clone(), vec![p(4, 7), p(8, 7)], depth_limited(4, 2)),
            &stop,
        );
        let best = r.best.unwrap();
        assert!(board.is_legal(best) && best != p(4, 7) && best != p(8, 7));
    }

    #[test]
    fn stops_on_the_flag_and_the_table_answers_evaluate() {
        let board = Board::from_moves(
            15,
            15,
            Rule::Renju,
            &[Point::new(7, 7), Point::new(8, 8), Point::new(8, 6)],
        )
        .unwrap();
        let net = crate::nn::PatternWeights::random(8, 3);
        let mut t = thinker(Arc::new(PatternEvaluator::new(net, "random".into())));
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(150));
                stop.store(true, Ordering::Relaxed);
            });
            t.think(&request(board.clone(), vec![], Limits::infinite(2)), &stop)
        });
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "stopped promptly"
        );
        let best = r.best.unwrap();
        assert!(board.is_legal(best));
        assert!(r.info.depth_min >= 2 && r.info.nodes > 100, "{:?}", r.info);
        assert!(r.ranked.len() > 1 && r.ranked[0].0 == best);
        assert!(r.ranked[1..].windows(2).all(|w| w[0].1 >= w[1].1));
        // What the table holds about the root: the move played first, whatever a helper's
        // deeper iteration, stopped by the flag, stored before.
        let kept = t
            .evaluate_path(&board, &[])
            .expect("the root is in the table");
        assert_eq!(kept.pv.first(), r.info.pv.first());
        assert_eq!(kept.pv.first().map(|&(_, p)| p), Some(best));
        assert!(t
            .evaluate_path(&board, &[Point::new(0, 0), Point::new(14, 14)])
            .is_none());
        t.clear();
        assert!(t.evaluate_path(&board, &[]).is_none());
    }

    #[test]
    fn a_lost_root_still_answers_a_legal_move() {
        // White to move against black's open four: every move loses, one is still played.
        let board = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            . x x x x . . .
            . . . . . o o .
            . . . . . . . .
            o . . . . . . .",
        )
        .unwrap();
        let mut t = classical();
        let r = t.think(
            &request(board.clone(), vec![], Limits::movetime(200, 1)),
            &AtomicBool::new(false),
        );
        assert!(board.is_legal(r.best.unwrap()));
        assert!(matches!(r.info.eval, Eval::Loss(_)), "{:?}", r.info.eval);
    }
}
