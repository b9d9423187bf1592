//! The Monte Carlo tree search: PUCT over one tree shared by all search threads, with
//! win/draw/loss values, virtual loss, proven results (MCTS-solver), a memory-bounded tree that
//! is reused across moves, and a pluggable leaf evaluator (`search::evaluator`).
//!
//! - `node`: nodes and edges (atomic statistics, proofs, lazily created children);
//! - `tree`: the root position, the memory budget, re-rooting after moves;
//! - `movegen`: rule-decided results and the moves worth searching;
//! - `threads`: the shared state of one search and each thread's loop (select, expand, evaluate, back up);
//! - `outcome`: the final move (visits guarded by a lower confidence bound), PV, ranking;
//! - `tactics`: the slot for a tactical solver;
//! - `noise`: Dirichlet noise for self-play;
//! - `gumbel`: the Gumbel root for self-play with few playouts;
//! - `verify`: the chosen move checked for the opponent's forced win with the time an early stop saves.
mod gumbel;
mod movegen;
mod node;
mod noise;
mod outcome;
mod params;
mod tactics;
mod threads;
mod transpositions;
mod tree;
mod verify;

pub use gumbel::GumbelRoot;
pub use movegen::{on_a_line_within_five, Analysis, MoveGen};
pub use node::{Proof, MAX_ESTIMATE_WEIGHT};
pub use params::{MctsParams, RootNoise};
pub use tactics::{KnownThreats, TacticalCheck};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::evaluator::Evaluator;
use super::think::{ProgressSink, SearchInfo, Style, ThinkRequest, ThinkResult, Thinker};
use crate::game::{Board, Point};
use node::Expansion;
use threads::{SearchThread, SharedSearch};
use transpositions::Transpositions;
use tree::Tree;

/// How often the thread that runs the limits checks the expensive ones.
const MONITOR_EVERY: Duration = Duration::from_millis(2);
/// Under a match clock, the smart stop ends a search no sooner than this share of its target:
/// the share of the clock is planned to be spent, and the saved time was seldom used later.
const SETTLE_NO_SOONER: f64 = 0.8;
/// The table of transpositions takes this fraction of the tree's budget (a slot of 16 bytes for
/// about every 16 bytes of nodes and edges; a node with its moves takes 200 or more)...
const TRANSPOSITION_SHARE: u64 = 16;
/// ... and never more than this (2^20 slots).
const TRANSPOSITION_CAP_BYTES: u64 = 16 << 20;
/// How often a running search reports its progress (when someone listens).
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// What the last search did (for logs, tests and the bench).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Root visits carried over from earlier searches.
    pub reused_visits: u32,
    /// Playouts of this search.
    pub playouts: u64,
    /// Playouts taken back because another thread was expanding their leaf.
    pub collisions: u64,
    /// Expansions that took the moves and value of a node reached by another move order.
    pub transposed: u64,
    /// Deepest playout, in plies from the root.
    pub max_depth: u32,
    pub threads: usize,
    pub elapsed: Duration,
    /// Heap bytes of the tree when the search ended, and its budget.
    pub tree_bytes: u64,
    pub tree_limit: u64,
}

/// The MCTS as the controller's [`Thinker`]. Keeps its tree between searches.
pub struct MctsThinker {
    params: MctsParams,
    evaluator: Arc<dyn Evaluator>,
    tactics: Option<Arc<dyn TacticalCheck>>,
    tree: Option<Tree>,
    last: Option<SearchStats>,
    name: String,
    progress: Option<ProgressSink>,
}

impl MctsThinker {
    pub fn new(params: MctsParams, evaluator: Arc<dyn Evaluator>) -> MctsThinker {
        let name = format!("mcts ({})", evaluator.name());
        MctsThinker {
            params,
            evaluator,
            tactics: None,
            tree: None,
            last: None,
            name,
            progress: None,
        }
    }

    pub fn params(&self) -> &MctsParams {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut MctsParams {
        &mut self.params
    }

    pub fn evaluator(&self) -> &Arc<dyn Evaluator> {
        &self.evaluator
    }

    /// Plugs in a tactical check (the threat solver), run on every position expanded.
    pub fn set_tactical_check(&mut self, check: Option<Arc<dyn TacticalCheck>>) {
        self.tactics = check;
        // Proofs found without it (or with another) would not mix well with its own.
        self.tree = None;
    }

    /// Statistics of the last search.
    pub fn last_search(&self) -> Option<&SearchStats> {
        self.last.as_ref()
    }

    /// Nodes in the kept tree (walks it) and the root's visits.
    pub fn tree_size(&self) -> Option<(u64, u32)> {
        self.tree
            .as_ref()
            .map(|t| (t.node_count(), t.root().visits()))
    }

    /// The tree's byte budget for these limits.
    fn tree_limit(&self, limits: &super::Limits) -> u64 {
        let cap = self.params.tree_cap_bytes;
        match limits.max_memory_bytes {
            None => cap,
            Some(total) => {
                let share = (total as f64 * self.params.tree_memory_share as f64) as u64;
                share.saturating_sub(self.evaluator.memory_bytes()).min(cap)
            }
        }
    }
}

/// The blocked points that are on the board, as sorted board indices.
pub(crate) fn excluded_indices(board: &Board, blocked: &[Point]) -> Vec<usize> {
    let mut out: Vec<usize> = blocked
        .iter()
        .filter(|p| board.is_on_board(p.x as i32, p.y as i32))
        .map(|&p| board.index(p))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// What the monitor decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Continue,
    /// A limit is reached (depth, the target with a settled choice) or the move is forced.
    Finish,
    /// Smart stop: the most visited move can no longer be overtaken before the target.
    Settled,
}

/// The stop checks beyond the cheap ones, run every few milliseconds by one thread: the target
/// deadline (extended while the choice is unsettled), the depth limit and smart stopping.
fn monitor(s: &SharedSearch<'_>, params: &MctsParams, board: &Board) -> Verdict {
    let root = s.tree.root();
    let now = Instant::now();
    if let Some(depth) = s.limits.max_depth {
        let first = outcome::best_edge(root, params);
        if outcome::principal_variation(root, board, first).len() as u32 >= depth {
            return Verdict::Finish;
        }
    }
    let Some(target) = s.limits.target else {
        return Verdict::Continue;
    };
    if now >= target {
        // Past the target with the most visited move not the one we would play: allow up to
        // as much time again (never past the hard deadline) for the choice to settle.
        let extended = target + target.saturating_duration_since(s.started);
        if outcome::is_settled(root, params) || now >= extended {
            return Verdict::Finish;
        }
        return Verdict::Continue;
    }
    if !params.smart_stop {
        return Verdict::Continue;
    }
    let edges = root.edges();
    if edges.len() == 1 {
        // A forced move: nothing to think about.
        return Verdict::Finish;
    }
    if !s.limits.saved_time_banked {
        // No later move gets the time back, and the rest of it still grows the subtree the
        // next search reuses.
        return Verdict::Continue;
    }
    // A settled choice still gets a share of its time: the clock gave it for this move, and a
    // choice settled on a few hundred playouts is often overturned by a few thousand.
    let planned = target.saturating_duration_since(s.started);
    if now.duration_since(s.started) < planned.mul_f64(SETTLE_NO_SOONER) {
        return Verdict::Continue;
    }
    let done = s.playouts.load(Ordering::Relaxed);
    let elapsed = now.duration_since(s.started).as_secs_f64();
    if done < 200 || elapsed <= 0.0 {
        return Verdict::Continue;
    }
    let left = target.saturating_duration_since(now).as_secs_f64();
    let still_to_come = done as f64 / elapsed * left;
    let mut top = [0u32; 2];
    for (_, child) in root.children() {
        let n = child.visits();
        if n > top[0] {
            top = [n, top[0]];
        } else if n > top[1] {
            top[1] = n;
        }
    }
    if (top[0] - top[1]) as f64 > still_to_come {
        return Verdict::Settled;
    }
    Verdict::Continue
}

/// When the late check of the choice begins (`verify_late`): that share of the way to the
/// target; `None` without a target or with the check off.
fn late_check_from(s: &SharedSearch<'_>, params: &MctsParams) -> Option<Instant> {
    let share = params.verify_late;
    let target = s.limits.target?;
    (share > 0.0).then(|| s.started + target.saturating_duration_since(s.started).mul_f32(share))
}

impl MctsThinker {
    /// The search proper: `threads` threads playing out from the root until a limit, a stop or
    /// the monitor ends it; the calling thread runs `main`, checks the stop conditions and
    /// reports progress.
    fn run_threads<'t>(
        &self,
        main: &mut SearchThread<'t>,
        search: &SharedSearch<'t>,
        board: &'t Board,
        threads: usize,
        started: Instant,
        verifier: &mut verify::Verifier,
    ) {
        let params = &self.params;
        let reads_twos = self.evaluator.reads_twos();
        std::thread::scope(|scope| {
            for _ in 1..threads {
                let leaf = self.evaluator.leaf_evaluator();
                scope.spawn(move || SearchThread::new(leaf, board, reads_twos).run(search, || {}));
            }
            let mut checked = Instant::now();
            let mut reported = Instant::now();
            let progress = self.progress.as_deref();
            let tactics = self.tactics.as_deref();
            let late = late_check_from(search, params);
            main.run(search, || {
                if checked.elapsed() >= MONITOR_EVERY {
                    checked = Instant::now();
                    if late.is_some_and(|t| checked >= t) {
                        if let Some(check) = tactics {
                            verifier.refutes_choice(search, params, check, board);
                        }
                    }
                    match monitor(search, params, board) {
                        Verdict::Continue => {}
                        Verdict::Finish => search.finish(),
                        Verdict::Settled => {
                            // The time the early stop saves checks the choice for a forced
                            // loss first; a refuted move sends the search on.
                            let refuted = tactics.filter(|_| params.verify).is_some_and(|check| {
                                verifier.refutes_choice(search, params, check, board)
                            });
                            if !refuted {
                                search.finish();
                            }
                        }
                    }
                }
                if let Some(sink) = progress {
                    if reported.elapsed() >= PROGRESS_EVERY {
                        reported = Instant::now();
                        let (info, best) = snapshot(search, params, board, started);
                        sink(&info, best);
                    }
                }
            });
            search.finish();
        });
    }
}

impl Thinker for MctsThinker {
    fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult {
        let started = Instant::now();
        let board = &request.board;
        let exclude = excluded_indices(board, &request.blocked);
        let mut limit = self.tree_limit(&request.limits);
        // The table of transpositions takes its bytes from the tree's budget.
        let table_bytes = if self.params.transpositions {
            (limit / TRANSPOSITION_SHARE).min(TRANSPOSITION_CAP_BYTES)
        } else {
            0
        };
        limit -= table_bytes;
        let tree = match self.tree.take() {
            Some(mut t) => {
                t.advance(board, exclude);
                t
            }
            None => Tree::new(board.clone(), exclude),
        };
        let mut tree = tree;
        tree.set_limit(limit);
        let reused_visits = tree.root().visits();
        let threads = self.evaluator.search_threads(request.limits.threads);
        let params = &self.params;

        let mut search = SharedSearch::new(
            &tree,
            params,
            &request.limits,
            stop,
            self.tactics.as_deref(),
        );
        search.refinement = self.evaluator.refinement();
        if table_bytes > 0 {
            search.transpositions = Transpositions::with_bytes(table_bytes);
        }
        let reads_twos = self.evaluator.reads_twos();
        let mut main = SearchThread::new(self.evaluator.leaf_evaluator(), board, reads_twos);
        if tree.root().expansion() != Expansion::Expanded {
            main.expand_root(&search);
        }
        let mut verifier = verify::Verifier::default();
        if let Some(noise) = params.root_noise {
            search.noise = noise::dirichlet(noise.alpha, tree.root().edges().len());
        }
        let gumbel = params.gumbel.filter(|_| request.limits.max_nodes.is_some());
        let mut choice = None;
        if let Some(g) = gumbel {
            // One thread shares out the playouts at the root.
            choice = gumbel::search(&mut main, &search, &g, &mut rand::thread_rng());
            search.finish();
        } else {
            self.run_threads(&mut main, &search, board, threads, started, &mut verifier);
        }
        drop(main);

        let root = tree.root();
        let best_edge = match &choice {
            // A proven root is played as proven.
            Some(c) if root.proof().is_none() => Some(c.edge),
            _ => outcome::best_edge(root, params),
        };
        let mut best = best_edge.map(|i| board.point(root.edges()[i].mv()));
        if best.is_some_and(|p| !is_playable(board, p, &request.blocked)) {
            log::error!("mcts chose an unplayable move {best:?}; falling back");
            best = None;
        }
        if best.is_none() {
            best = super::one_ply::best_move(board, &request.blocked).map(|(i, _)| board.point(i));
        }
        let pv = match best_edge {
            Some(_) if best.is_some() => outcome::principal_variation(root, board, best_edge),
            _ => best
                .map(|p| vec![(board.side_to_move(), p)])
                .unwrap_or_default(),
        };
        let playouts = search.playouts.load(Ordering::Relaxed);
        let max_depth = search.max_depth.load(Ordering::Relaxed);
        let elapsed = started.elapsed();
        let info = search_info(root, best_edge, pv, playouts, max_depth, elapsed);
        let ranked = outcome::ranked(root, board);
        let visits = match &choice {
            Some(c) => improved_policy_counts(root, board, &c.policy),
            None => outcome::root_visits(root, board),
        };
        let stats = SearchStats {
            reused_visits,
            playouts,
            collisions: search.collisions.load(Ordering::Relaxed),
            transposed: search.transposed.load(Ordering::Relaxed),
            max_depth,
            threads,
            elapsed,
            tree_bytes: tree.bytes(),
            tree_limit: limit,
        };
        drop(search);
        // The macro builds the summary only when debug lines are logged.
        log::debug!(
            "{}: root moves {}",
            self.name,
            outcome::root_summary(root, board, 8)
        );
        log::debug!(
            "{}: {stats:?}; verification: {} checks, {} proofs, {:?}",
            self.name,
            verifier.checks,
            verifier.proofs,
            verifier.spent
        );
        self.last = Some(stats);
        self.tree = Some(tree);
        ThinkResult {
            best,
            info,
            ranked,
            visits,
        }
    }

    fn clear(&mut self) {
        self.tree = None;
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn set_style(&mut self, style: Style) {
        // The tree keeps wins and draws apart, so it stays valid under the new weights.
        self.params.style = style;
    }

    fn set_progress(&mut self, sink: Option<ProgressSink>) {
        self.progress = sink;
    }

    fn evaluate_path(&self, board: &Board, path: &[Point]) -> Option<SearchInfo> {
        let tree = self.tree.as_ref()?;
        // The kept tree is rooted at an earlier position of this game: walk the moves played
        // since, then the path.
        let played = board.history();
        let root_moves = tree.board().history();
        if !played.starts_with(root_moves) {
            return None;
        }
        let mut position = tree.board().clone();
        let mut node = tree.root();
        for &p in played[root_moves.len()..].iter().chain(path) {
            if (p.x as usize) >= position.width() || (p.y as usize) >= position.height() {
                return None;
            }
            let idx = position.index(p);
            let i = node.edges().iter().position(|e| e.mv() == idx)?;
            node = node.child(i)?;
            position.play(p).ok()?;
        }
        if node.visits() == 0 {
            return None;
        }
        let best = outcome::best_edge(node, &self.params);
        let pv = outcome::principal_variation(node, &position, best);
        let depth = pv.len() as u32;
        Some(search_info(
            node,
            best,
            pv,
            u64::from(node.visits()),
            depth,
            Duration::ZERO,
        ))
    }
}

/// The summary of a node's search, as the MESSAGE line and the analysis answers show it.
fn search_info(
    node: &node::Node,
    best: Option<usize>,
    pv: Vec<(crate::game::Color, Point)>,
    nodes: u64,
    max_depth: u32,
    elapsed: Duration,
) -> SearchInfo {
    SearchInfo {
        depth_min: pv.len() as u32,
        depth_max: max_depth.max(pv.len() as u32),
        eval: outcome::root_eval(node, best),
        nodes,
        elapsed,
        pv,
    }
}

/// The search so far, for progress reports, and its current best move.
fn snapshot(
    s: &SharedSearch<'_>,
    params: &MctsParams,
    board: &Board,
    started: Instant,
) -> (SearchInfo, Option<Point>) {
    let root = s.tree.root();
    let best = outcome::best_edge(root, params);
    let pv = outcome::principal_variation(root, board, best);
    let info = search_info(
        root,
        best,
        pv,
        s.playouts.load(Ordering::Relaxed),
        s.max_depth.load(Ordering::Relaxed),
        started.elapsed(),
    );
    (info, best.map(|i| board.point(root.edges()[i].mv())))
}

/// The Gumbel root's improved policy in millionths, in place of the visits: the self-play
/// policy target.
fn improved_policy_counts(root: &node::Node, board: &Board, policy: &[f32]) -> Vec<(Point, u32)> {
    root.edges()
        .iter()
        .zip(policy)
        .map(|(e, &p)| (board.point(e.mv()), (p * 1e6).round() as u32))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// Whether the side to move may play `p` (on the board, empty, not forbidden, not blocked).
fn is_playable(board: &Board, p: Point, blocked: &[Point]) -> bool {
    board.is_legal(p) && !blocked.contains(&p)
}
