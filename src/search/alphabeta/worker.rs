//! One alpha-beta thread: principal variation search over the threat-staged picker, the
//! evaluator at every node (its policy orders and prunes the moves, its value is the static
//! evaluation), a VCF quiescence at the horizon, forced replies extended, the shared
//! transposition table, and the pruning that pays most in Gomoku engines (reverse futility,
//! razoring into the quiescence, move-count and policy pruning, late-move reductions).
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::score::{from_wdl, is_mate, loss_in, win_in, EVAL_SCALE, INFINITY, MATE, MAX_PLY};
use super::tt::{Bound, Entry, Table};
use crate::game::{Board, Color, Threat};
use crate::search::evaluator::{Leaf, LeafEvaluator, Wdl};
use crate::search::mcts::{Analysis, Proof};
use crate::search::picker::{Picker, Stage};
use crate::search::Limits;

/// Reverse futility: a static evaluation this far above beta per ply of depth stands.
const FUTILITY_MARGIN: i32 = 60;
const FUTILITY_DEPTH: i32 = 4;
/// Razoring: below alpha by this much at depth 1-2, ask the quiescence only.
const RAZOR_MARGIN: i32 = 250;
/// Move-count pruning: quiet moves after this many (by depth) are not searched.
const MOVE_COUNT: [usize; 8] = [0, 5, 7, 10, 14, 19, 25, 32];
/// Policy pruning: quiet moves whose prior is below this share of the best prior, at depth <= 3.
const POLICY_FLOOR: f32 = 0.01;
/// Fours in a row the quiescence reads (each followed by the forced block).
const QUIESCENCE_FOURS: i32 = 8;
/// From this many fours deep, the quiescence reads only the fours on a line through our last
/// four and within `ATTACK_REACH` of it: a VCF goes on where its attack is.
const NEAR_ATTACK_FROM: i32 = 2;
const ATTACK_REACH: u8 = 4;
/// Nodes between two looks at the clock and the stop flags.
const CHECK_EVERY: u64 = 1024;

/// What the threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a Table,
    pub limits: &'a Limits,
    /// The controller's stop (STOP, yxstop, END).
    pub stop: &'a AtomicBool,
    /// Set once the search must end; every thread unwinds.
    pub abort: AtomicBool,
    /// Nodes of every thread, added in chunks.
    pub nodes: AtomicU64,
    /// What a draw is worth to the side to move at the root (-1 to 1).
    pub draw_value: f32,
}

impl Shared<'_> {
    #[inline]
    pub fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// The stop checks of the thread that keeps the time.
    fn check(&self) {
        let now = Instant::now();
        let past_nodes = self
            .limits
            .max_nodes
            .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n);
        if self.stop.load(Ordering::Relaxed) || self.limits.past_target(now) || past_nodes {
            self.abort.store(true, Ordering::Relaxed);
        }
    }
}

/// One root move and what the last iterations said about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: usize,
    pub prior: f32,
    /// The score of the last iteration that searched it (a bound for moves that failed low).
    pub score: i32,
    /// Whether `score` is exact.
    pub exact: bool,
    pub pv: Vec<usize>,
}

/// Per-ply scratch.
#[derive(Default)]
struct Frame {
    a: Analysis,
    priors: Vec<f32>,
    /// (ordering key, move, prior), searched in falling key order.
    order: Vec<(i32, usize, f32)>,
}

pub struct Worker {
    pub board: Board,
    leaf: Box<dyn LeafEvaluator>,
    picker: Picker,
    frames: Vec<Frame>,
    /// Cut-off history per colour and board index.
    history: [Vec<i32>; 2],
    /// Triangular principal variation table.
    pv: Vec<Vec<usize>>,
    pub nodes: u64,
    unreported: u64,
    pub seldepth: i32,
    /// Whether this thread keeps the time.
    keeps_time: bool,
    root_color: Color,
}

impl Worker {
    /// `reads_twos`: whether the evaluator reads the near points' twos.
    pub fn new(
        board: Board,
        leaf: Box<dyn LeafEvaluator>,
        reads_twos: bool,
        keeps_time: bool,
    ) -> Worker {
        let n = board.index_len();
        let root_color = board.side_to_move();
        let mut picker = Picker::new();
        picker.gen.set_threats_only(!reads_twos);
        Worker {
            board,
            leaf,
            picker,
            frames: (0..=MAX_PLY as usize + 1)
                .map(|_| Frame::default())
                .collect(),
            history: [vec![0; n], vec![0; n]],
            pv: vec![Vec::new(); MAX_PLY as usize + 2],
            nodes: 0,
            unreported: 0,
            seldepth: 0,
            keeps_time,
            root_color,
        }
    }

    /// The root's moves, by the picker (with the root's excluded points) and ordered by the
    /// evaluator's policy, the picker's stage and the static evaluation.
    pub fn root_moves(
        &mut self,
        exclude: &[usize],
        draw_value: f32,
    ) -> (Vec<RootMove>, Stage, i32) {
        let mut frame = std::mem::take(&mut self.frames[0]);
        let stage = self.picker.pick(&mut self.board, exclude, &mut frame.a);
        let wdl = evaluate_moves(&mut *self.leaf, &self.board, &mut frame);
        let eval = from_wdl(wdl, draw_value);
        let mut moves: Vec<RootMove> = frame
            .a
            .moves
            .iter()
            .zip(&frame.priors)
            .map(|(&mv, &prior)| RootMove {
                mv,
                prior,
                score: -INFINITY,
                exact: false,
                pv: vec![mv],
            })
            .collect();
        moves.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        self.frames[0] = frame;
        (moves, stage, eval)
    }

    fn draw_score(&self, shared: &Shared<'_>) -> i32 {
        let v = if self.board.side_to_move() == self.root_color {
            shared.draw_value
        } else {
            -shared.draw_value
        };
        (v * EVAL_SCALE) as i32
    }

    fn proof_score(&self, shared: &Shared<'_>, proof: Proof, ply: i32) -> i32 {
        match proof {
            Proof::Win(n) => win_in(ply + n as i32),
            Proof::Loss(n) => loss_in(ply + n as i32),
            Proof::Draw => self.draw_score(shared),
        }
    }

    #[inline]
    fn count_node(&mut self, shared: &Shared<'_>) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= CHECK_EVERY {
            shared.nodes.fetch_add(self.unreported, Ordering::Relaxed);
            self.unreported = 0;
            if self.keeps_time {
                shared.check();
            }
        }
    }

    /// Adds the nodes not yet counted in `shared`.
    pub fn flush_nodes(&mut self, shared: &Shared<'_>) {
        shared.nodes.fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    /// Searches the root's moves to `depth` within (alpha, beta); returns the best score (or
    /// what was found before an abort). `moves[0]` ends up the best move with its PV.
    pub fn search_root(
        &mut self,
        shared: &Shared<'_>,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let forced = moves.len() == 1;
        let mut best = -INFINITY;
        for i in 0..moves.len() {
            let m = moves[i].mv;
            self.board.play_unchecked(m);
            let child = if forced { depth } else { depth - 1 };
            let mut score;
            if i == 0 {
                score = -self.search(shared, child, -beta, -alpha, 1, true, None);
            } else {
                score = -self.search(shared, child, -alpha - 1, -alpha, 1, false, None);
                if score > alpha && score < beta && !shared.aborted() {
                    score = -self.search(shared, child, -beta, -alpha, 1, true, None);
                }
            }
            self.board.undo();
            if shared.aborted() {
                break;
            }
            let rm = &mut moves[i];
            rm.score = score;
            rm.exact = score > alpha && score < beta;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&self.pv[1]);
                    // The new best goes first; the others keep their order.
                    moves[..=i].rotate_right(1);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // The root's table entry is written once the search ends (`AlphaBetaThinker::think`),
        // with the move played.
        best
    }

    /// `parent`: the analysis of the position before the last move, when the caller has it.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        shared: &Shared<'_>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        pv_node: bool,
        parent: Option<&Analysis>,
    ) -> i32 {
        if depth <= 0 {
            return self.quiescence(shared, alpha, beta, ply, 0, parent);
        }
        if let Some(score) = self.enter(shared, ply) {
            return score;
        }
        // Mate distance: nothing here beats a shorter win found above.
        alpha = alpha.max(loss_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let key = self.board.hash();
        let entry = shared.tt.probe(key, ply);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth && cuts(e, alpha, beta) {
                return e.score;
            }
        }
        let mut frame = std::mem::take(&mut self.frames[ply as usize]);
        let score = self.search_node(
            shared, &mut frame, entry, depth, alpha, beta, ply, pv_node, parent,
        );
        self.frames[ply as usize] = frame;
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        shared: &Shared<'_>,
        frame: &mut Frame,
        entry: Option<Entry>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        pv_node: bool,
        parent: Option<&Analysis>,
    ) -> i32 {
        let stage = self.pick(parent, &mut frame.a);
        let forced = match stage {
            Stage::Decided(proof) => return self.proof_score(shared, proof, ply),
            Stage::Forced => true,
            Stage::Defending | Stage::Open => false,
        };
        let me = self.board.side_to_move();
        let open = stage == Stage::Open;
        let eval = if forced {
            frame.priors.clear();
            frame.priors.push(1.0);
            0
        } else {
            let wdl = evaluate_moves(&mut *self.leaf, &self.board, frame);
            from_wdl(wdl, self.side_draw_value(shared))
        };
        if open && !pv_node && !is_mate(beta) && !is_mate(alpha) {
            if depth <= FUTILITY_DEPTH && eval - FUTILITY_MARGIN * depth >= beta {
                return eval;
            }
            if depth <= 2 && eval + RAZOR_MARGIN * depth < alpha {
                let q = self.quiescence(shared, alpha, alpha + 1, ply, 0, parent);
                if q <= alpha {
                    return q;
                }
            }
        }
        // Order: the table's move, then the policy, our fours and cut-off history.
        let tt_move = entry.and_then(|e| e.mv);
        let history = &self.history[me.index()];
        frame.order.clear();
        let mut max_prior = 0.0f32;
        for (&m, &p) in frame.a.moves.iter().zip(&frame.priors) {
            max_prior = max_prior.max(p);
            let key = if Some(m) == tt_move {
                i32::MAX
            } else {
                (p * 100_000.0) as i32 + history[m].min(50_000)
            };
            frame.order.push((key, m, p));
        }
        frame.order.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let child_depth = if forced { depth } else { depth - 1 };
        let prune = open && !pv_node && depth < MOVE_COUNT.len() as i32;
        for i in 0..frame.order.len() {
            let (_, m, prior) = frame.order[i];
            let quiet = open && self.quiet(&frame.a, m, me);
            let late = i
                >= MOVE_COUNT
                    .get(depth as usize)
                    .copied()
                    .unwrap_or(usize::MAX)
                || (depth <= 3 && prior < POLICY_FLOOR * max_prior);
            if prune && quiet && i > 0 && best > -MATE + 2 * MAX_PLY && late {
                continue;
            }
            self.board.play_unchecked(m);
            let mut score;
            if i == 0 {
                score = -self.search(
                    shared,
                    child_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    Some(&frame.a),
                );
            } else {
                let mut r = 0;
                if quiet && depth >= 3 && i >= 3 {
                    r = reduction(depth, i);
                    if pv_node {
                        r -= 1;
                    }
                    if prior >= 0.2 * max_prior {
                        r -= 1;
                    }
                    r = r.clamp(0, child_depth - 1);
                }
                score = -self.search(
                    shared,
                    child_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    Some(&frame.a),
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        shared,
                        child_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        Some(&frame.a),
                    );
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(
                        shared,
                        child_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                        Some(&frame.a),
                    );
                }
            }
            self.board.undo();
            if shared.aborted() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.history[me.index()][m] += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        shared.tt.store(
            self.board.hash(),
            ply,
            Entry {
                mv: best_move,
                score: best,
                eval,
                depth,
                bound: bound(best, original_alpha, beta),
            },
        );
        best
    }

    /// Counts a node at `ply`; `Some(score)` when the search must not go on here (aborted,
    /// or too deep: the static evaluation).
    fn enter(&mut self, shared: &Shared<'_>, ply: i32) -> Option<i32> {
        self.count_node(shared);
        self.pv[ply as usize].clear();
        self.seldepth = self.seldepth.max(ply);
        if shared.aborted() {
            return Some(0);
        }
        (ply >= MAX_PLY).then(|| self.static_eval(shared))
    }

    /// A move that neither makes a three or more of ours nor stops one of theirs.
    fn quiet(&self, a: &Analysis, m: usize, me: Color) -> bool {
        match a.near.binary_search_by_key(&m, |n| n.idx) {
            Ok(k) => {
                let n = &a.near[k];
                n.threat(me) < Threat::OpenThree && n.threat(me.opponent()) < Threat::OpenThree
            }
            Err(_) => true,
        }
    }

    /// The draw's worth for the side to move here.
    fn side_draw_value(&self, shared: &Shared<'_>) -> f32 {
        if self.board.side_to_move() == self.root_color {
            shared.draw_value
        } else {
            -shared.draw_value
        }
    }

    /// The evaluator's value alone (no moves priced).
    fn static_eval(&mut self, shared: &Shared<'_>) -> i32 {
        let mut frame = std::mem::take(&mut self.frames[MAX_PLY as usize + 1]);
        self.picker.gen.near_points(&self.board, &mut frame.a.moves);
        frame.a.near.clear();
        let board = &self.board;
        frame.a.near.extend(
            frame
                .a
                .moves
                .iter()
                .map(|&i| crate::search::evaluator::NearPoint::read_threats(board, i)),
        );
        let wdl = self.leaf.evaluate(
            &Leaf {
                board: &self.board,
                moves: &[],
                near: &frame.a.near,
            },
            &mut frame.priors,
        );
        self.frames[MAX_PLY as usize + 1] = frame;
        from_wdl(wdl, self.side_draw_value(shared))
    }

    /// The horizon: the static evaluation stands unless our fours (each answered by its forced
    /// block) do better; a threatened five is always answered first.
    fn quiescence(
        &mut self,
        shared: &Shared<'_>,
        alpha: i32,
        beta: i32,
        ply: i32,
        fours: i32,
        parent: Option<&Analysis>,
    ) -> i32 {
        if let Some(score) = self.enter(shared, ply) {
            return score;
        }
        let key = self.board.hash();
        if let Some(e) = shared.tt.probe(key, ply) {
            if cuts(e, alpha, beta) {
                return e.score;
            }
        }
        let mut frame = std::mem::take(&mut self.frames[ply as usize]);
        let score = self.quiescence_node(shared, &mut frame, alpha, beta, ply, fours, parent);
        self.frames[ply as usize] = frame;
        if !shared.aborted() {
            shared.tt.store(
                key,
                ply,
                Entry {
                    mv: None,
                    score,
                    eval: score,
                    depth: -1,
                    bound: bound(score, alpha, beta),
                },
            );
        }
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn quiescence_node(
        &mut self,
        shared: &Shared<'_>,
        frame: &mut Frame,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        fours: i32,
        parent: Option<&Analysis>,
    ) -> i32 {
        let stage = self.pick(parent, &mut frame.a);
        match stage {
            Stage::Decided(proof) => return self.proof_score(shared, proof, ply),
            Stage::Forced => {
                let m = frame.a.moves[0];
                self.board.play_unchecked(m);
                let score = -self.quiescence(shared, -beta, -alpha, ply + 1, fours, Some(&frame.a));
                self.board.undo();
                self.set_pv(ply, m);
                return score;
            }
            Stage::Defending | Stage::Open => {}
        }
        let wdl = self.leaf.evaluate(
            &Leaf {
                board: &self.board,
                moves: &[],
                near: &frame.a.near,
            },
            &mut frame.priors,
        );
        let mut best = from_wdl(wdl, self.side_draw_value(shared));
        if best >= beta || fours >= QUIESCENCE_FOURS {
            return best;
        }
        alpha = alpha.max(best);
        let me = self.board.side_to_move();
        let history = self.board.history();
        let attack =
            (fours >= NEAR_ATTACK_FROM && history.len() >= 2).then(|| history[history.len() - 2]);
        frame.order.clear();
        for n in &frame.a.near {
            let near_attack =
                || attack.is_none_or(|a| a.on_a_line_within(self.board.point(n.idx), ATTACK_REACH));
            if n.threat(me) >= Threat::Four && frame.a.moves.contains(&n.idx) && near_attack() {
                frame.order.push((n.threat(me) as i32, n.idx, 0.0));
            }
        }
        frame.order.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
        for i in 0..frame.order.len() {
            let m = frame.order[i].1;
            self.board.play_unchecked(m);
            let score = -self.quiescence(shared, -beta, -alpha, ply + 1, fours + 1, Some(&frame.a));
            self.board.undo();
            if shared.aborted() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The picker's stage of the position on the board, its analysis taken from `parent`'s
    /// (the position before the last move) where the caller has it.
    fn pick(&mut self, parent: Option<&Analysis>, a: &mut Analysis) -> Stage {
        match parent {
            Some(parent) => self.picker.pick_after(&mut self.board, parent, a),
            None => self.picker.pick(&mut self.board, &[], a),
        }
    }

    fn set_pv(&mut self, ply: i32, m: usize) {
        let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
        let line = &mut head[ply as usize];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }
}

/// The evaluator's value of `board` and a prior for each of the frame's moves.
fn evaluate_moves(leaf: &mut dyn LeafEvaluator, board: &Board, frame: &mut Frame) -> Wdl {
    let position = Leaf {
        board,
        moves: &frame.a.moves,
        near: &frame.a.near,
    };
    leaf.evaluate(&position, &mut frame.priors)
}

/// What a result found in the window (alpha, beta) says about the true value.
fn bound(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether a stored result settles the window.
fn cuts(e: Entry, alpha: i32, beta: i32) -> bool {
    match e.bound {
        Bound::Exact => true,
        Bound::Lower => e.score >= beta,
        Bound::Upper => e.score <= alpha,
    }
}

/// Late-move reduction in plies for the `index`-th move at `depth`.
fn reduction(depth: i32, index: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (index as f32).ln() / 2.0;
    r as i32
}
