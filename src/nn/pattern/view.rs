//! Incremental evaluation of the pattern net.
//!
//! [`PatternState`] keeps, for each side to move, every cell's features, its policy logit and
//! the pooled sum of the board it last saw. Shown a new board it compares the move lists,
//! marks the cells within four steps of every stone that differs (taken back or added) and
//! recomputes those cells only: walking a search tree, consecutive leaves share most of their
//! stones, so a leaf costs a few dozen cells instead of the whole board. A cell's features are
//! a pure function of the board around it, so the result equals a full recomputation (tests
//! check it, and the value against libtorch's forward pass in `nn::pattern_model`).
use std::sync::Arc;

use super::codes::{CodeReader, EMPTY_ROW, SIDE_CELLS};
use super::threats::{threat_id, THREAT_REACH};
use super::{leaky, variant, PatternWeights, POOL_CELLS, VALUE_HIDDEN};
use crate::game::{Board, Color, Point, Rule};

/// Past this many differing stones a full recomputation is cheaper than marking cells.
const FULL_REBUILD: usize = 24;

/// The pattern net kept in step with the boards of one search thread.
pub struct PatternState {
    net: Arc<PatternWeights>,
    reader: CodeReader,
    /// Indexed by the side to move's `Color::index()`.
    views: [View; 2],
    acc: Vec<f32>,
    pooled: Vec<f32>,
    /// The forbidden points of the last board, and their features (which change with the flag)
    /// one after the other.
    forbidden_cells: Vec<usize>,
    forbidden_hidden: Vec<f32>,
    /// The policy weights tuned by the board's context (version 2 nets).
    policy_weights: Vec<f32>,
    /// Each feature's largest value over the board (`value_max` nets).
    maxed: Vec<f32>,
}

impl PatternState {
    pub fn new(net: Arc<PatternWeights>) -> PatternState {
        let dim = net.dim;
        PatternState {
            views: [View::new(Color::Black), View::new(Color::White)],
            reader: CodeReader::default(),
            acc: vec![0.0; dim],
            pooled: vec![0.0; dim],
            forbidden_cells: Vec::new(),
            forbidden_hidden: Vec::new(),
            policy_weights: vec![0.0; dim],
            maxed: vec![0.0; dim],
            net,
        }
    }

    pub fn weights(&self) -> &PatternWeights {
        &self.net
    }

    /// Evaluates `board` for its side to move: writes the policy logit of each of `moves` into
    /// `logits` and returns win, draw and loss probabilities. `forbidden` lists black's renju
    /// forbidden points (empty under other rules).
    ///
    /// Runs in 256-bit lanes where the processor has them: the same operations in the same
    /// order (no fused multiply-adds), so the same numbers as in 128-bit lanes.
    pub fn evaluate(
        &mut self,
        board: &Board,
        forbidden: &[usize],
        moves: &[usize],
        logits: &mut Vec<f32>,
    ) -> [f32; 3] {
        #[cfg(target_arch = "x86_64")]
        if wide_lanes() {
            // SAFETY: `wide_lanes` checked that this processor runs AVX2.
            return unsafe { self.evaluate_avx2(board, forbidden, moves, logits) };
        }
        self.evaluate_lanes(board, forbidden, moves, logits)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(
        &mut self,
        board: &Board,
        forbidden: &[usize],
        moves: &[usize],
        logits: &mut Vec<f32>,
    ) -> [f32; 3] {
        self.evaluate_lanes(board, forbidden, moves, logits)
    }

    /// [`PatternState::evaluate`]'s work, inlined into each of its lane widths.
    #[inline(always)]
    fn evaluate_lanes(
        &mut self,
        board: &Board,
        forbidden: &[usize],
        moves: &[usize],
        logits: &mut Vec<f32>,
    ) -> [f32; 3] {
        let net = &*self.net;
        let view = &mut self.views[board.side_to_move().index()];
        view.sync(net, &self.reader, board, &mut self.acc);
        let dim = net.dim;
        let cells = view.board_cells.len() as f64;
        for ((p, s), e) in self
            .pooled
            .iter_mut()
            .zip(&view.sum)
            .zip(&view.empty_features)
        {
            *p = (s - cells * *e as f64) as f32;
        }
        self.forbidden_cells.clear();
        self.forbidden_hidden.clear();
        for &f in forbidden {
            view.cell_sum(net, &self.reader, board, f, &mut self.acc);
            let old = &view.hidden[f * dim..(f + 1) * dim];
            let cells = self.acc.iter_mut().zip(&net.forbidden).zip(old);
            for (((a, flag), old), pooled) in cells.zip(self.pooled.iter_mut()) {
                let h = leaky(*a + flag);
                *pooled += h - old;
                *a = h;
            }
            self.forbidden_cells.push(f);
            self.forbidden_hidden.extend_from_slice(&self.acc);
        }
        self.pooled.iter_mut().for_each(|p| *p /= POOL_CELLS);
        let maxed = if net.value_max.is_empty() {
            None
        } else {
            view.board_max(
                dim,
                &self.forbidden_cells,
                &self.forbidden_hidden,
                &mut self.maxed,
            );
            Some(self.maxed.as_slice())
        };
        let (wdl, context) = value_head(net, &self.pooled, maxed);
        let tuned = !net.policy_context.is_empty();
        if tuned {
            let rows = net.policy_context.chunks_exact(VALUE_HIDDEN);
            for ((w, p), row) in self.policy_weights.iter_mut().zip(&net.policy).zip(rows) {
                *w = p + dot(row, &context);
            }
        }
        logits.clear();
        for &m in moves {
            let hidden = match self.forbidden_cells.iter().position(|&f| f == m) {
                Some(k) => &self.forbidden_hidden[k * dim..(k + 1) * dim],
                // Version 1: the cell's logit is kept with its features.
                None if !tuned => {
                    logits.push(view.logit[m]);
                    continue;
                }
                None => &view.hidden[m * dim..(m + 1) * dim],
            };
            let weights = if tuned {
                &self.policy_weights
            } else {
                &net.policy
            };
            logits.push(dot(weights, hidden) + net.policy_bias);
        }
        wdl
    }
}

/// The value MLP: pooled features (and, for `value_max` nets, the board's per-feature
/// maximum) → win, draw, loss probabilities, and its hidden layer (the board's context for the
/// policy).
#[inline(always)]
fn value_head(
    net: &PatternWeights,
    pooled: &[f32],
    maxed: Option<&[f32]>,
) -> ([f32; 3], [f32; VALUE_HIDDEN]) {
    let dim = net.dim;
    let mut hidden = [0.0f32; VALUE_HIDDEN];
    for (k, h) in hidden.iter_mut().enumerate() {
        let row = &net.value1[k * dim..(k + 1) * dim];
        let mut pre = dot(row, pooled) + net.value1_bias[k];
        if let Some(maxed) = maxed {
            pre += dot(&net.value_max[k * dim..(k + 1) * dim], maxed);
        }
        *h = pre.max(0.0);
    }
    let mut out = [0.0f32; 3];
    for (c, o) in out.iter_mut().enumerate() {
        let row = &net.value2[c * VALUE_HIDDEN..(c + 1) * VALUE_HIDDEN];
        *o = dot(row, &hidden) + net.value2_bias[c];
    }
    let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for o in out.iter_mut() {
        *o = (*o - max).exp();
        total += *o;
    }
    (out.map(|o| o / total), hidden)
}

/// A dot product in eight lanes (so that it vectorises without reordering licence).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a8.zip(b8) {
        for l in 0..8 {
            lanes[l] += x[l] * y[l];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Each feature's largest value over `cells` into `out`, eight features at a time held in a
/// register (a fold into `out` itself, or over a run of unknown length, compiles to masked
/// stores, which are slow).
#[inline(always)]
fn cells_max(
    hidden: &[f32],
    dim: usize,
    cells: impl Iterator<Item = usize> + Clone,
    out: &mut [f32],
) {
    let lanes = dim - dim % 8;
    for block in (0..lanes).step_by(8) {
        let mut acc = [f32::NEG_INFINITY; 8];
        for c in cells.clone() {
            let at = c * dim + block;
            let h: &[f32; 8] = hidden[at..at + 8].try_into().expect("eight features");
            for l in 0..8 {
                acc[l] = if h[l] > acc[l] { h[l] } else { acc[l] };
            }
        }
        out[block..block + 8].copy_from_slice(&acc);
    }
    for j in lanes..dim {
        out[j] = cells
            .clone()
            .map(|c| hidden[c * dim + j])
            .fold(f32::NEG_INFINITY, f32::max);
    }
}

/// Whether this processor has AVX2 (std caches the answer after the first question).
#[cfg(target_arch = "x86_64")]
#[inline]
fn wide_lanes() -> bool {
    is_x86_feature_detected!("avx2")
}

/// One side to move's features of the last board it saw.
struct View {
    to_move: Color,
    geometry: Option<(usize, usize, Rule)>,
    steps: [usize; 4],
    /// How far along a line a stone changes a cell's features: the codebook's four cells, or
    /// the threat rows' five.
    reach: usize,
    on_board: Vec<bool>,
    /// The indices of the board's cells (no padding), in order.
    board_cells: Vec<usize>,
    /// The stones the features describe, in order, with their colours.
    stones: Vec<(usize, Option<Color>)>,
    /// Each cell's activated features (`index_len * dim`).
    hidden: Vec<f32>,
    logit: Vec<f32>,
    /// Σ hidden over the board, in f64 so that millions of updates do not drift.
    sum: Vec<f64>,
    empty_features: Vec<f32>,
    variant_row: Vec<f32>,
    stamp: Vec<u32>,
    epoch: u32,
    dirty: Vec<usize>,
}

impl View {
    fn new(to_move: Color) -> View {
        View {
            to_move,
            geometry: None,
            steps: [0; 4],
            reach: SIDE_CELLS,
            on_board: Vec::new(),
            board_cells: Vec::new(),
            stones: Vec::new(),
            hidden: Vec::new(),
            logit: Vec::new(),
            sum: Vec::new(),
            empty_features: Vec::new(),
            variant_row: Vec::new(),
            stamp: Vec::new(),
            epoch: 0,
            dirty: Vec::new(),
        }
    }

    /// Brings the features in step with `board`.
    #[inline(always)]
    fn sync(&mut self, net: &PatternWeights, reader: &CodeReader, board: &Board, acc: &mut [f32]) {
        let geometry = (board.width(), board.height(), board.rule());
        if self.geometry != Some(geometry) {
            self.reset(net, board);
            self.rebuild(net, reader, board, acc);
            return;
        }
        let history = board.history_idx();
        let common = self
            .stones
            .iter()
            .zip(history)
            .take_while(|(&(i, c), &h)| i == h && c == board.get_idx(h))
            .count();
        let changes = self.stones.len() - common + history.len() - common;
        if changes == 0 {
            return;
        }
        if changes > FULL_REBUILD {
            self.rebuild(net, reader, board, acc);
            return;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        self.dirty.clear();
        for k in common..self.stones.len() {
            self.mark_around(self.stones[k].0);
        }
        for &idx in &history[common..] {
            self.mark_around(idx);
        }
        self.stones.truncate(common);
        self.stones
            .extend(history[common..].iter().map(|&h| (h, board.get_idx(h))));
        for k in 0..self.dirty.len() {
            let idx = self.dirty[k];
            self.update_cell(net, reader, board, idx, acc);
        }
    }

    /// Each feature's largest value over the board's cells into `out`, the forbidden cells
    /// (`forbidden`, their flagged features one after the other in `forbidden_hidden`) read with
    /// their flag.
    #[inline(always)]
    fn board_max(
        &self,
        dim: usize,
        forbidden: &[usize],
        forbidden_hidden: &[f32],
        out: &mut [f32],
    ) {
        if forbidden.is_empty() {
            cells_max(&self.hidden, dim, self.board_cells.iter().copied(), out);
        } else {
            let unflagged = self.board_cells.iter().copied();
            let cells = unflagged.filter(|c| !forbidden.contains(c));
            cells_max(&self.hidden, dim, cells, out);
        }
        for row in forbidden_hidden.chunks_exact(dim) {
            for (m, &h) in out.iter_mut().zip(row) {
                *m = m.max(h);
            }
        }
    }

    /// Sizes the tables for a new board geometry.
    fn reset(&mut self, net: &PatternWeights, board: &Board) {
        let dim = net.dim;
        let len = board.index_len();
        self.geometry = Some((board.width(), board.height(), board.rule()));
        self.steps = [0, 1, 2, 3].map(|d| board.dir_step(d));
        self.reach = if net.threat.is_empty() {
            SIDE_CELLS
        } else {
            THREAT_REACH
        };
        self.on_board = vec![false; len];
        self.board_cells.clear();
        for y in 0..board.height() {
            for x in 0..board.width() {
                let idx = board.index(Point::new(x as u8, y as u8));
                self.on_board[idx] = true;
                self.board_cells.push(idx);
            }
        }
        self.hidden = vec![0.0; len * dim];
        self.logit = vec![0.0; len];
        self.stamp = vec![0; len];
        self.epoch = 0;
        let v = variant(board.rule(), self.to_move);
        self.variant_row = net.variant_row(v).to_vec();
        let empty = net.codebook_row(EMPTY_ROW);
        let quiet = net.threat_row(0);
        self.empty_features = (0..dim)
            .map(|j| leaky(self.variant_row[j] + 4.0 * empty[j] + quiet.map_or(0.0, |t| t[j])))
            .collect();
    }

    /// Recomputes every cell.
    fn rebuild(
        &mut self,
        net: &PatternWeights,
        reader: &CodeReader,
        board: &Board,
        acc: &mut [f32],
    ) {
        self.sum.clear();
        self.sum.resize(net.dim, 0.0);
        self.hidden.fill(0.0);
        for idx in 0..self.on_board.len() {
            if self.on_board[idx] {
                self.update_cell(net, reader, board, idx, acc);
            }
        }
        self.stones.clear();
        self.stones
            .extend(board.history_idx().iter().map(|&h| (h, board.get_idx(h))));
    }

    /// Marks `idx` and the board cells within `reach` steps of it on its four lines.
    #[inline(always)]
    fn mark_around(&mut self, idx: usize) {
        self.mark(idx);
        for step in self.steps {
            for k in 1..=self.reach {
                self.mark(idx + k * step);
                self.mark(idx - k * step);
            }
        }
    }

    #[inline]
    fn mark(&mut self, idx: usize) {
        if self.on_board[idx] && self.stamp[idx] != self.epoch {
            self.stamp[idx] = self.epoch;
            self.dirty.push(idx);
        }
    }

    /// The cell's features before activation: its variant bias plus its four codebook rows (and
    /// its threat row).
    #[inline(always)]
    fn cell_sum(
        &self,
        net: &PatternWeights,
        reader: &CodeReader,
        board: &Board,
        idx: usize,
        acc: &mut [f32],
    ) {
        acc.copy_from_slice(&self.variant_row);
        let stone = board.get_idx(idx);
        for d in 0..4 {
            let row = net.codebook_row(reader.id(board.code(idx, d), stone, self.to_move));
            for (a, r) in acc.iter_mut().zip(row) {
                *a += r;
            }
        }
        // Only a version 3 net pays for the threat lookups.
        if net.threat.is_empty() {
            return;
        }
        if let Some(row) = net.threat_row(threat_id(board, idx, self.to_move)) {
            for (a, r) in acc.iter_mut().zip(row) {
                *a += r;
            }
        }
    }

    #[inline(always)]
    fn update_cell(
        &mut self,
        net: &PatternWeights,
        reader: &CodeReader,
        board: &Board,
        idx: usize,
        acc: &mut [f32],
    ) {
        self.cell_sum(net, reader, board, idx, acc);
        let dim = net.dim;
        let hidden = &mut self.hidden[idx * dim..(idx + 1) * dim];
        for ((h, a), s) in hidden.iter_mut().zip(acc.iter()).zip(self.sum.iter_mut()) {
            let new = leaky(*a);
            *s += (new - *h) as f64;
            *h = new;
        }
        if net.policy_context.is_empty() {
            self.logit[idx] = dot(&net.policy, hidden) + net.policy_bias;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn fresh_eval(
        net: &Arc<PatternWeights>,
        board: &Board,
        moves: &[usize],
    ) -> (Vec<f32>, [f32; 3]) {
        let mut state = PatternState::new(net.clone());
        let mut logits = Vec::new();
        let wdl = state.evaluate(board, &[], moves, &mut logits);
        (logits, wdl)
    }

    /// A version 2 net (no threat rows).
    fn without_threats(mut net: PatternWeights) -> PatternWeights {
        net.meta.version = 2;
        net.threat.clear();
        net
    }

    /// A version 1 net (no board context in the policy either).
    fn without_context(net: PatternWeights) -> PatternWeights {
        let mut net = without_threats(net);
        net.meta.version = 1;
        net.policy_context.clear();
        net
    }

    #[test]
    fn incremental_updates_match_a_fresh_evaluation_along_a_random_walk() {
        walk_and_compare(Arc::new(PatternWeights::random(16, 3)));
        walk_and_compare(Arc::new(without_threats(PatternWeights::random(16, 5))));
        walk_and_compare(Arc::new(without_context(PatternWeights::random(16, 4))));
    }

    #[test]
    fn the_threat_rows_change_the_value_of_a_board_with_threats() {
        let net = PatternWeights::random(8, 8);
        let plain = Arc::new(without_threats(net.clone()));
        let board = crate::nn::pattern::threats::board_with_an_open_three();
        let (_, with) = fresh_eval(&Arc::new(net), &board, &[]);
        let (_, without) = fresh_eval(&plain, &board, &[]);
        // Random weights saturate the value: compare the loss probabilities' logarithms.
        let ratio = (with[2] / without[2]).ln();
        assert!(ratio.abs() > 0.01, "{with:?} vs {without:?}");
    }

    #[test]
    fn the_board_context_changes_the_policy_but_not_the_value() {
        let net = without_threats(PatternWeights::random(8, 7));
        let plain = Arc::new(without_context(net.clone()));
        let board = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let moves: Vec<usize> = [(8, 8), (3, 3)]
            .map(|(x, y)| board.index(Point::new(x, y)))
            .to_vec();
        let (tuned_logits, tuned_wdl) = fresh_eval(&Arc::new(net), &board, &moves);
        let (plain_logits, plain_wdl) = fresh_eval(&plain, &board, &moves);
        assert_eq!(tuned_wdl, plain_wdl);
        assert!((tuned_logits[0] - plain_logits[0]).abs() > 1e-3);
    }

    #[test]
    fn leaves_of_branches_visited_in_turn_match_a_fresh_evaluation() {
        // The way a tree search walks: several branches from one position, evaluated in an
        // order that jumps between them (take-backs and new stones at once).
        let net = Arc::new(PatternWeights::random(16, 6));
        let mut state = PatternState::new(net.clone());
        let mut rng = StdRng::seed_from_u64(11);
        let mut logits = Vec::new();
        let mut root = Board::new(15, 15, Rule::Renju).unwrap();
        let random_empty = |board: &Board, rng: &mut StdRng| loop {
            let p = Point::new(rng.gen_range(0..15), rng.gen_range(0..15));
            if board.is_empty(p) {
                break p;
            }
        };
        for _ in 0..10 {
            let p = random_empty(&root, &mut rng);
            root.play(p).unwrap();
        }
        let mut branches = vec![root.clone(); 7];
        for step in 0..400 {
            let board = &mut branches[rng.gen_range(0..7)];
            if board.stone_count() > root.stone_count() + 1 && rng.gen_bool(0.3) {
                board.undo();
            } else if board.stone_count() < root.stone_count() + 14 {
                let p = random_empty(board, &mut rng);
                board.play(p).unwrap();
            }
            let moves: Vec<usize> = board
                .legal_moves()
                .iter()
                .map(|&p| board.index(p))
                .collect();
            let wdl = state.evaluate(board, &[], &moves, &mut logits);
            let (want_logits, want_wdl) = fresh_eval(&net, board, &moves);
            for (a, b) in wdl.iter().zip(want_wdl) {
                assert!((a - b).abs() < 1e-4, "step {step}: {wdl:?} vs {want_wdl:?}");
            }
            for (a, b) in logits.iter().zip(&want_logits) {
                assert!((a - b).abs() < 1e-3, "step {step}");
            }
        }
    }

    fn walk_and_compare(net: Arc<PatternWeights>) {
        // One state across every size and rule: a new geometry starts afresh.
        let mut state = PatternState::new(net.clone());
        let mut rng = StdRng::seed_from_u64(9);
        let mut logits = Vec::new();
        let boards = [
            (15, 15, Rule::Freestyle, 400),
            (5, 5, Rule::Standard, 60),
            (32, 32, Rule::Renju, 150),
            (7, 20, Rule::Caro, 150),
            (15, 15, Rule::Freestyle, 50),
        ];
        for (w, h, rule, steps) in boards {
            let mut board = Board::new(w, h, rule).unwrap();
            let cap = (w * h * 3 / 4).min(60);
            for step in 0..steps {
                // Mostly moves, sometimes a few take-backs (a new branch of the tree).
                if board.stone_count() > cap || (board.stone_count() > 4 && rng.gen_bool(0.3)) {
                    for _ in 0..rng.gen_range(1..4) {
                        board.undo();
                    }
                } else {
                    let p = loop {
                        let p = Point::new(rng.gen_range(0..w as u8), rng.gen_range(0..h as u8));
                        if board.is_empty(p) {
                            break p;
                        }
                    };
                    board.play(p).unwrap();
                }
                let moves: Vec<usize> = (0..h as u8)
                    .flat_map(|y| (0..w as u8).map(move |x| Point::new(x, y)))
                    .filter(|&p| board.is_empty(p))
                    .map(|p| board.index(p))
                    .collect();
                let wdl = state.evaluate(&board, &[], &moves, &mut logits);
                let (want_logits, want_wdl) = fresh_eval(&net, &board, &moves);
                for (a, b) in wdl.iter().zip(want_wdl) {
                    assert!(
                        (a - b).abs() < 1e-4,
                        "{w}x{h} step {step}: {wdl:?} vs {want_wdl:?}"
                    );
                }
                for (a, b) in logits.iter().zip(&want_logits) {
                    assert!((a - b).abs() < 1e-3, "{w}x{h} step {step}");
                }
            }
        }
    }

    #[test]
    fn wide_and_narrow_lanes_give_the_same_numbers() {
        let net = Arc::new(PatternWeights::random(32, 11));
        let (mut wide, mut narrow) = (PatternState::new(net.clone()), PatternState::new(net));
        let mut rng = StdRng::seed_from_u64(12);
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..60 {
            let empty: Vec<usize> = (0..15u8)
                .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
                .filter(|&p| board.is_empty(p))
                .map(|p| board.index(p))
                .collect();
            let forbidden = [empty[rng.gen_range(0..empty.len())]];
            // `evaluate` takes the wide lanes where this processor has them.
            let v1 = wide.evaluate(&board, &forbidden, &empty, &mut a);
            let v2 = narrow.evaluate_lanes(&board, &forbidden, &empty, &mut b);
            assert_eq!(v1, v2);
            assert_eq!(a, b);
            let p = board.point(empty[rng.gen_range(0..empty.len())]);
            if board.play(p) != Ok(crate::game::MoveOutcome::Ongoing) {
                break;
            }
        }
    }

    #[test]
    fn rotations_and_reflections_give_the_same_value_and_moved_priors() {
        let net = Arc::new(PatternWeights::random(8, 5));
        let stones = [(7u8, 7u8), (8, 8), (6, 8), (9, 9), (5, 9), (6, 6), (10, 10)];
        let board =
            Board::from_moves(15, 15, Rule::Renju, &stones.map(|(x, y)| Point::new(x, y))).unwrap();
        let turned = Board::from_moves(
            15,
            15,
            Rule::Renju,
            &stones.map(|(x, y)| Point::new(14 - y, x)),
        )
        .unwrap();
        let probe = Point::new(4, 10);
        let (l1, v1) = fresh_eval(&net, &board, &[board.index(probe)]);
        let (l2, v2) = fresh_eval(
            &net,
            &turned,
            &[turned.index(Point::new(14 - probe.y, probe.x))],
        );
        assert!((l1[0] - l2[0]).abs() < 1e-4);
        for (a, b) in v1.iter().zip(v2) {
            assert!((a - b).abs() < 1e-5);
        }
    }

    #[test]
    fn a_forbidden_point_changes_its_logit_and_the_value() {
        let net = Arc::new(PatternWeights::random(8, 6));
        let board = Board::from_moves(15, 15, Rule::Renju, &[Point::new(7, 7)]).unwrap();
        let probe = board.index(Point::new(8, 8));
        let mut state = PatternState::new(net.clone());
        let mut plain = Vec::new();
        let v1 = state.evaluate(&board, &[], &[probe], &mut plain);
        let mut flagged = Vec::new();
        let v2 = state.evaluate(&board, &[probe], &[probe], &mut flagged);
        assert_ne!(plain, flagged);
        assert_ne!(v1, v2);
        // And the flag does not stick.
        let v3 = state.evaluate(&board, &[], &[probe], &mut flagged);
        assert_eq!(v1, v3);
        assert_eq!(plain, flagged);
    }
}
