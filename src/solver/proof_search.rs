//! The threat-space search: an AND/OR search over attacker threats and defender answers.
//!
//! Attacker nodes (`attack`): the attacker is to move and has no five point. If the defender has
//! five points, the attacker must stop them (the only moves tried). Otherwise the attacker tries its
//! fours (VCF) and, in VCT, moves that create a winning point (open three and the like).
//!
//! Defender nodes (`defend`): the defender is to move and has no five point. Against attacker fives
//! the defender's only moves are the blocks. Against a winning point (VCT) the defender's moves
//! are every stone that takes the win out of *all* the attacker's winning points, plus every
//! four of its own (the attacker must answer it, then the defender moves again). Any other
//! defender move loses at once, so the attacker wins the node if it wins after each of these.
//!
//! Every stone a node plays can only create fives on its own lines, so fives are tracked from the
//! last move instead of rescanning the board. A VCT attacker node first runs a full VCF, then
//! spends one unit of depth per threat move; iterative deepening bounds the tree.
use std::cmp::Reverse;

use super::budget::{Meter, OutOfBudget};
use super::table::{Stored, Table, EXACT};
use super::threats::{
    empty_on_lines_holding, five_blocks, fives_near, has_win_point_near, is_win_point, legal, put,
    win_point_region, win_points,
};
use crate::game::{Board, Color, Pattern};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Fours only.
    Vcf,
    /// Fours and threats that create a winning point.
    Vct,
}

/// A node's value: `Fail { exact: false }` means "not within the depth left".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    Win,
    Fail { exact: bool },
}

/// What a root search found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum RootResult {
    /// Proven; the line (board indices) starts with the attacker's move and alternates.
    Win(Vec<usize>),
    NoWin,
    Unknown,
}

const ATTACK: usize = 0;
const DEFEND: usize = 1;

/// An attacker node derives its candidate threats from the nearest list above it when at most
/// this many stones were played since; past that a board scan is about as cheap.
const CANDIDATES_MAX_NEW_STONES: usize = 4;

/// An attacker's candidate threats (four points; in VCT also three points), with their
/// move-ordering weights, at an attacker node of the current path. Legality is checked where
/// they are used: a renju forbidden point can change with stones far away.
struct Candidates {
    attacker: Color,
    mode: Mode,
    /// The board's stone count at that node.
    stones: usize,
    points: Vec<(usize, i32)>,
}

/// Move-ordering weight of a threat shape.
fn threat_weight(p: Pattern) -> i32 {
    match p {
        Pattern::OpenFour | Pattern::DoubleFour => 5000,
        Pattern::Four => 1000,
        Pattern::OpenThree => 30,
        Pattern::Three => 10,
        _ => 0,
    }
}

/// Which shapes make a candidate threat in `mode`, and the fewest own stones on a line that can
/// make one (a free filter before the pattern lookup).
fn threat_shapes(mode: Mode) -> (u32, fn(Pattern) -> bool) {
    match mode {
        Mode::Vcf => (3, Pattern::is_four),
        Mode::Vct => (2, |p| {
            p.is_four() || matches!(p, Pattern::Three | Pattern::OpenThree)
        }),
    }
}

/// The weight of `idx` as a candidate threat of `attacker` in `mode` (0: not one).
fn candidate_weight(board: &Board, idx: usize, attacker: Color, mode: Mode) -> i32 {
    let (min_own, keep) = threat_shapes(mode);
    let mut weight = 0;
    board.scan_point(idx, attacker, min_own, keep, |_, p| {
        weight += threat_weight(p)
    });
    weight
}

/// Whether `q` lies on one of the four lines through `stone`, at most five steps away: where a
/// stone can change the point's patterns.
fn within_line_reach(board: &Board, q: usize, stone: usize) -> bool {
    board.point(q).on_a_line_within(board.point(stone), 5)
}

fn best_first(points: &mut [(usize, i32)]) {
    points.sort_unstable_by_key(|&(i, w)| (Reverse(w), i));
}

pub(crate) struct ProofSearch<'t, 'b> {
    pub(crate) board: &'t mut Board,
    table: &'t mut Table,
    pub(crate) meter: Meter<'b>,
    pub(crate) attacker: Color,
    pub(crate) defender: Color,
    /// Mixed into the board hash, per attacker colour: (mode, node kind) x (rule, size).
    salts: [[u64; 4]; 2],
    /// The candidate threats of the attacker nodes on the current path, innermost last: a node
    /// updates the nearest list of its kind on the lines of the stones played since instead of
    /// scanning the board.
    candidates: Vec<Candidates>,
    /// Set for a focused VCF (see [`ProofSearch::focus_vcf`]).
    focus: Option<Focus>,
}

/// A focused VCF: from the `from`-th four of the attacker on, only the fours on a line through
/// its last four and at most `reach` steps from it are tried. A VCF goes on where its attack is;
/// a four far from it only delays. The search may miss such wins, never finds a false one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcfFocus {
    pub from: usize,
    pub reach: u8,
}

/// A focused VCF's settings and the stones on the board at its root.
#[derive(Clone, Copy)]
struct Focus {
    focus: VcfFocus,
    base: usize,
}

/// Mixed into the key of a focused attacker node: it has seen fewer moves than a full one, so
/// its failures must not stand for a full node's.
const FOCUSED_SALT: u64 = 0x5f0c_05ed_a77a_c4e5;

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn next_depth(depth: u8) -> u8 {
    if depth == EXACT {
        EXACT
    } else {
        depth.saturating_sub(1)
    }
}

impl<'t, 'b> ProofSearch<'t, 'b> {
    pub(crate) fn new(
        board: &'t mut Board,
        table: &'t mut Table,
        meter: Meter<'b>,
        attacker: Color,
    ) -> ProofSearch<'t, 'b> {
        let context = (board.rule().protocol_code() as u64)
            | (board.width() as u64) << 8
            | (board.height() as u64) << 16;
        let salts = [0u64, 1]
            .map(|colour| [0u64, 1, 2, 3].map(|i| splitmix(context | colour << 24 | i << 32)));
        ProofSearch {
            board,
            table,
            meter,
            attacker,
            defender: attacker.opponent(),
            salts,
            candidates: Vec::new(),
            focus: None,
        }
    }

    /// Focuses the VCFs of this search from the current board on (see [`VcfFocus`]).
    pub(crate) fn focus_vcf(&mut self, focus: VcfFocus) {
        self.focus = Some(Focus {
            focus,
            base: self.board.stone_count(),
        });
    }

    /// The attacker's last four and the reach around it where a focused VCF attacker node keeps
    /// its fours; `None` where every four is tried.
    fn focused_on(&self, mode: Mode) -> Option<(usize, u8)> {
        let f = self.focus.filter(|_| mode == Mode::Vcf)?;
        // Each four of the attacker and its block add two stones.
        let fours = self.board.stone_count().checked_sub(f.base)? / 2;
        if fours < f.focus.from {
            return None;
        }
        let history = self.board.history_idx();
        let last = history[history.len().checked_sub(2)?];
        Some((last, f.focus.reach))
    }

    fn key(&self, mode: Mode, kind: usize) -> u64 {
        self.board.hash() ^ self.salts[self.attacker.index()][mode as usize * 2 + kind]
    }

    /// Whether the defender, moving now, wins by continuous fours (the attacker's five points are
    /// `a_fives`). Runs the VCF with the roles swapped, on the same table.
    fn opponent_vcf(&mut self, a_fives: &[usize]) -> Result<bool, OutOfBudget> {
        let result = self.with_roles_swapped(|s| s.attack(a_fives, EXACT, Mode::Vcf));
        Ok(result? == Res::Win)
    }

    /// Runs `f` with the attacker and the defender swapped.
    fn with_roles_swapped<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        std::mem::swap(&mut self.attacker, &mut self.defender);
        let result = f(self);
        std::mem::swap(&mut self.attacker, &mut self.defender);
        result
    }

    /// Solves from the current board with the attacker to move. `want_line`: rebuild the winning
    /// line (with up to `line_nodes` extra nodes, free of the clock and the stop flag); without it
    /// a win comes back with an empty line.
    pub(crate) fn solve(
        &mut self,
        mode: Mode,
        max_depth: u8,
        want_line: bool,
        line_nodes: u64,
    ) -> RootResult {
        self.candidates.clear();
        let (a_fives, d_fives) = match mode {
            Mode::Vcf => self.vcf_root_scan(),
            Mode::Vct => (
                self.board.five_points(self.attacker),
                self.board.five_points(self.defender),
            ),
        };
        if let Some(&f) = a_fives.first() {
            return RootResult::Win(vec![f]);
        }
        self.solve_from(&d_fives, mode, max_depth, want_line, line_nodes)
    }

    /// A VCF from what the caller knows: every four point of the attacker (to move, with no
    /// five point) and every five point of the defender; the winning line comes with it when
    /// `line_nodes` is not `None` (the nodes its rebuild may take).
    pub(crate) fn solve_vcf_from(
        &mut self,
        fours: &[usize],
        d_fives: &[usize],
        line_nodes: Option<u64>,
    ) -> RootResult {
        let a = self.attacker;
        let points = fours
            .iter()
            .map(|&q| (q, candidate_weight(self.board, q, a, Mode::Vcf)))
            .collect();
        self.candidates.clear();
        self.push_root_fours(points);
        self.solve_from(
            d_fives,
            Mode::Vcf,
            0,
            line_nodes.is_some(),
            line_nodes.unwrap_or(0),
        )
    }

    /// Pushes the attacker's four points at a VCF's root for the attacker nodes below.
    fn push_root_fours(&mut self, mut points: Vec<(usize, i32)>) {
        best_first(&mut points);
        self.candidates.push(Candidates {
            attacker: self.attacker,
            mode: Mode::Vcf,
            stones: self.board.stone_count(),
            points,
        });
    }

    fn solve_from(
        &mut self,
        d_fives: &[usize],
        mode: Mode,
        max_depth: u8,
        want_line: bool,
        line_nodes: u64,
    ) -> RootResult {
        let base = self.board.stone_count();
        let proven = match mode {
            Mode::Vcf => self.attack(d_fives, EXACT, Mode::Vcf).map(|r| (r, EXACT)),
            Mode::Vct => self.deepen(d_fives, max_depth),
        };
        // An aborted search may have left stones behind; take them back.
        while self.board.stone_count() > base {
            self.board.undo();
        }
        let depth = match proven {
            Err(OutOfBudget) => return RootResult::Unknown,
            Ok((Res::Fail { .. }, _)) => return RootResult::NoWin,
            Ok((Res::Win, depth)) => depth,
        };
        if !want_line {
            return RootResult::Win(Vec::new());
        }
        let mut line = Vec::new();
        let saved = self.meter.allow_line(line_nodes);
        let built = self.line_attack(d_fives, depth, mode, &mut line);
        self.meter.resume(saved);
        while self.board.stone_count() > base {
            self.board.undo();
        }
        if built.is_err() {
            log::debug!(
                "solver: line rebuild ran out of nodes after {} moves",
                line.len()
            );
        }
        if line.is_empty() {
            RootResult::Unknown
        } else {
            RootResult::Win(line)
        }
    }

    /// Iterative deepening of the VCT; returns the depth that proved the win.
    fn deepen(&mut self, d_fives: &[usize], max_depth: u8) -> Result<(Res, u8), OutOfBudget> {
        let max_depth = max_depth.min(EXACT - 1);
        for depth in 0..=max_depth {
            match self.attack(d_fives, depth, Mode::Vct)? {
                Res::Win => return Ok((Res::Win, depth)),
                Res::Fail { exact: true } => return Ok((Res::Fail { exact: true }, depth)),
                Res::Fail { exact: false } => {}
            }
        }
        Ok((Res::Fail { exact: false }, max_depth))
    }

    /// Attacker to move, with no five point; `d_fives` are the defender's five points.
    fn attack(&mut self, d_fives: &[usize], depth: u8, mode: Mode) -> Result<Res, OutOfBudget> {
        self.meter.tick()?;
        if !d_fives.is_empty() {
            let blocks = five_blocks(self.board, d_fives, self.defender);
            let mut exact = true;
            for m in blocks {
                match self.after_attack(m, depth, mode, true, false)? {
                    Some((Res::Win, _, _)) => return Ok(Res::Win),
                    Some((Res::Fail { exact: e }, _, _)) => exact &= e,
                    None => {}
                }
            }
            return Ok(Res::Fail { exact });
        }
        let focused = self.focused_on(mode);
        let key = self.key(mode, ATTACK) ^ if focused.is_some() { FOCUSED_SALT } else { 0 };
        match self.table.probe(key) {
            Some(Stored::Win { .. }) => return Ok(Res::Win),
            Some(Stored::Fail { depth: d }) if d >= depth => {
                return Ok(Res::Fail { exact: d == EXACT })
            }
            _ => {}
        }
        // The candidate lists this node pushes serve the nodes below it only.
        let mark = self.candidates.len();
        let result = self.attack_threats(key, depth, mode, focused);
        self.candidates.truncate(mark);
        result
    }

    /// An attacker node past its table probe: its own VCF first (VCT), then each threat.
    fn attack_threats(
        &mut self,
        key: u64,
        depth: u8,
        mode: Mode,
        focused: Option<(usize, u8)>,
    ) -> Result<Res, OutOfBudget> {
        if mode == Mode::Vct {
            // Four points kept for this node's VCFs and those of the nodes below.
            self.push_candidates(Mode::Vcf);
            if self.attack(&[], EXACT, Mode::Vcf)? == Res::Win {
                self.remember(key, Res::Win, None, depth);
                return Ok(Res::Win);
            }
            if depth == 0 {
                return Ok(Res::Fail { exact: false });
            }
            self.with_roles_swapped(|s| s.push_candidates(Mode::Vcf));
        }
        // If the defender has a VCF of its own, a threat that is not a four only counts when it
        // also spoils that VCF.
        let threatened = mode == Mode::Vct && self.opponent_vcf(&[])?;
        let mut moves = self.push_candidates(mode);
        if let Some((last, reach)) = focused {
            let board = &*self.board;
            let last = board.point(last);
            moves.retain(|&q| board.point(q).on_a_line_within(last, reach));
        }
        let (result, best) = self.first_winning_threat(&moves, depth, mode, threatened)?;
        self.remember(key, result, best, depth);
        Ok(result)
    }

    /// Stores a node's value: a failure no depth limit cut short holds at every depth.
    fn remember(&mut self, key: u64, result: Res, best: Option<usize>, depth: u8) {
        let stored = match result {
            Res::Win => Stored::Win {
                best: best.map(|m| m as u16),
                depth,
            },
            Res::Fail { exact } => Stored::Fail {
                depth: if exact { EXACT } else { depth },
            },
        };
        self.table.store(key, stored);
    }

    /// Tries the attacker's `moves` in order; a win comes back with its move.
    fn first_winning_threat(
        &mut self,
        moves: &[usize],
        depth: u8,
        mode: Mode,
        threatened: bool,
    ) -> Result<(Res, Option<usize>), OutOfBudget> {
        let mut exact = true;
        for &m in moves {
            match self.after_attack(m, depth, mode, false, threatened)? {
                Some((Res::Win, _, _)) => return Ok((Res::Win, Some(m))),
                Some((Res::Fail { exact: e }, _, _)) => exact &= e,
                None => {}
            }
        }
        Ok((Res::Fail { exact }, None))
    }

    /// One pass over the board for a VCF's root: the attacker's and the defender's five points,
    /// and the attacker's four points (pushed for the attacker nodes below).
    fn vcf_root_scan(&mut self) -> (Vec<usize>, Vec<usize>) {
        let (a, d) = (self.attacker, self.defender);
        let board = &*self.board;
        let (mut a_fives, mut d_fives, mut points) = (Vec::new(), Vec::new(), Vec::new());
        board.for_each_empty(|idx| {
            let (mut five, mut weight) = (false, 0);
            let keep = |p: Pattern| p == Pattern::Five || p.is_four();
            board.scan_point(idx, a, 3, keep, |_, p| match p {
                Pattern::Five => five = true,
                _ => weight += threat_weight(p),
            });
            if five {
                a_fives.push(idx);
            }
            if weight > 0 {
                points.push((idx, weight));
            }
            let mut theirs = false;
            board.scan_point(idx, d, 4, |p| p == Pattern::Five, |_, _| theirs = true);
            if theirs {
                d_fives.push(idx);
            }
        });
        self.push_root_fours(points);
        (a_fives, d_fives)
    }

    /// The attacker's legal candidate threats in `mode`, best first; pushes the list onto
    /// `candidates` for the nodes below. A stone changes the patterns of the points within five
    /// steps on its lines only, so the nearest list of the same kind above is updated there;
    /// caro (whose five can depend on stones farther along a line) and long gaps scan the board.
    fn push_candidates(&mut self, mode: Mode) -> Vec<usize> {
        let a = self.attacker;
        let board = &*self.board;
        let now = board.stone_count();
        let parent = self
            .candidates
            .iter()
            .rev()
            .find(|c| c.attacker == a && c.mode == mode)
            .filter(|c| {
                now >= c.stones
                    && now - c.stones <= CANDIDATES_MAX_NEW_STONES
                    && !board.rule().blocked_five_fails()
            });
        let points = match parent {
            Some(parent) => {
                let (min_own, _) = threat_shapes(mode);
                let new_stones = &board.history_idx()[parent.stones..now];
                // A threat an attacker's stone creates holds it and min_own - 1 more of the
                // attacker's stones on that line; any other change only weakens a candidate
                // already listed (a defender's stone, an attacker's overline).
                let mut changed = Vec::with_capacity(32);
                for &stone in new_stones {
                    if board.get_idx(stone) == Some(a) {
                        empty_on_lines_holding(board, stone, a, min_own - 1, 5, |q, _| {
                            changed.push(q)
                        });
                    }
                }
                let mut points = Vec::with_capacity(parent.points.len() + changed.len());
                for &(q, w) in &parent.points {
                    if !board.is_empty_idx(q) {
                        continue;
                    }
                    if new_stones.iter().any(|&s| within_line_reach(board, q, s)) {
                        changed.push(q);
                    } else {
                        points.push((q, w));
                    }
                }
                changed.sort_unstable();
                changed.dedup();
                for q in changed {
                    let weight = candidate_weight(board, q, a, mode);
                    if weight > 0 {
                        points.push((q, weight));
                    }
                }
                best_first(&mut points);
                points
            }
            None => self.scored_attack_moves(mode),
        };
        #[cfg(test)]
        assert_eq!(points, self.scored_attack_moves(mode), "\n{}", self.board);
        let moves = points
            .iter()
            .map(|&(q, _)| q)
            .filter(|&q| legal(self.board, q, a))
            .collect();
        self.candidates.push(Candidates {
            attacker: a,
            mode,
            stones: now,
            points,
        });
        moves
    }

    /// Plays the attacker's `m` and, if it threatens something, evaluates the defender's node;
    /// returns that value with the attacker's new five points and the depth the node got.
    /// `None`: not a threat (a non-forced move that makes neither a five point nor a winning
    /// point), or, when `threatened` (the defender has a VCF), a non-four that leaves the
    /// defender's VCF standing. Forced moves (blocks) always go on: older threats may still stand.
    fn after_attack(
        &mut self,
        m: usize,
        depth: u8,
        mode: Mode,
        forced: bool,
        threatened: bool,
    ) -> Result<Option<(Res, Vec<usize>, u8)>, OutOfBudget> {
        let a = self.attacker;
        put(self.board, m, a);
        let fives = fives_near(self.board, m, a);
        let threat = forced
            || !fives.is_empty()
            || (mode == Mode::Vct && has_win_point_near(self.board, m, a));
        let spoils = if threat && threatened && fives.is_empty() {
            self.opponent_vcf(&[]).map(|wins| !wins)
        } else {
            Ok(true)
        };
        let depth = if forced { depth } else { next_depth(depth) };
        let result = match spoils {
            Ok(true) if threat => Some(self.defend(&fives, depth, mode)),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        };
        self.board.undo();
        Ok(match result {
            Some(r) => Some((r?, fives, depth)),
            None => None,
        })
    }

    /// Defender to move, with no five point; `a_fives` are the attacker's five points.
    fn defend(&mut self, a_fives: &[usize], depth: u8, mode: Mode) -> Result<Res, OutOfBudget> {
        self.meter.tick()?;
        if !a_fives.is_empty() {
            let blocks = five_blocks(self.board, a_fives, self.attacker);
            return self.every_defence_loses(&blocks, depth, mode);
        }
        if mode == Mode::Vcf {
            return Ok(Res::Fail { exact: true });
        }
        let key = self.key(mode, DEFEND);
        match self.table.probe(key) {
            Some(Stored::Win { .. }) => return Ok(Res::Win),
            Some(Stored::Fail { depth: d }) if d >= depth => {
                return Ok(Res::Fail { exact: d == EXACT })
            }
            _ => {}
        }
        let wins = win_points(self.board, self.attacker);
        if wins.is_empty() {
            return Ok(Res::Fail { exact: true });
        }
        let moves = self.defence_moves(&wins);
        let result = self.every_defence_loses(&moves, depth, mode)?;
        self.remember(key, result, None, depth);
        Ok(result)
    }

    fn every_defence_loses(
        &mut self,
        moves: &[usize],
        depth: u8,
        mode: Mode,
    ) -> Result<Res, OutOfBudget> {
        let d = self.defender;
        for &q in moves {
            put(self.board, q, d);
            let fives = fives_near(self.board, q, d);
            let result = self.attack(&fives, depth, mode);
            self.board.undo();
            if let fail @ Res::Fail { .. } = result? {
                return Ok(fail);
            }
        }
        Ok(Res::Win)
    }

    /// The attacker's legal candidate threats, best first: fours, then (VCT) moves on threes.
    fn attack_moves(&mut self, mode: Mode) -> Vec<usize> {
        let a = self.attacker;
        self.scored_attack_moves(mode)
            .into_iter()
            .map(|(i, _)| i)
            .filter(|&i| legal(self.board, i, a))
            .collect()
    }

    /// The attacker's candidate threats by a board scan, with their weights, best first (legal
    /// or not).
    fn scored_attack_moves(&self, mode: Mode) -> Vec<(usize, i32)> {
        let (min_own, keep) = threat_shapes(mode);
        let mut scored: Vec<(usize, i32)> = Vec::new();
        self.board
            .scan_patterns(self.attacker, min_own, keep, |idx, _, p| {
                match scored.last_mut() {
                    Some((i, s)) if *i == idx => *s += threat_weight(p),
                    _ => scored.push((idx, threat_weight(p))),
                }
            });
        best_first(&mut scored);
        scored
    }

    /// Defender moves against the attacker's winning points `wins`: stones that spoil all of them,
    /// then the defender's own fours.
    fn defence_moves(&mut self, wins: &[usize]) -> Vec<usize> {
        let (a, d) = (self.attacker, self.defender);
        let mut moves = win_point_region(self.board, wins[0], a);
        moves.retain(|&q| {
            if !legal(self.board, q, d) {
                return false;
            }
            put(self.board, q, d);
            let spoiled = wins
                .iter()
                .all(|&w| w == q || !is_win_point(self.board, w, a));
            self.board.undo();
            spoiled
        });
        for q in self.board.four_points(d) {
            if !moves.contains(&q) && legal(self.board, q, d) {
                moves.push(q);
            }
        }
        moves
    }

    /// The depth to rebuild a proven node's line with: a win found in the table may have been
    /// proven with more depth (by an earlier, deeper search) than this search has left.
    fn proof_depth(&self, mode: Mode, kind: usize, depth: u8) -> u8 {
        match self.table.probe(self.key(mode, kind)) {
            Some(Stored::Win { depth: proven, .. }) => depth.max(proven),
            _ => depth,
        }
    }

    /// The winning attacker move of a proven attacker node, found by trying the candidates.
    fn winning_move(
        &mut self,
        d_fives: &[usize],
        depth: u8,
        mode: Mode,
    ) -> Result<Option<(usize, Vec<usize>, u8)>, OutOfBudget> {
        let forced = !d_fives.is_empty();
        let threatened = !forced && mode == Mode::Vct && self.opponent_vcf(&[])?;
        let moves = if forced {
            five_blocks(self.board, d_fives, self.defender)
        } else {
            let hint = match self.table.probe(self.key(mode, ATTACK)) {
                Some(Stored::Win { best, .. }) => best.map(usize::from),
                _ => None,
            };
            // The table's move usually wins again: try it before scanning the board for the
            // candidates it would lead anyway; the scan then leaves it out.
            let tried = hint.filter(|&h| legal(self.board, h, self.attacker));
            if let Some(h) = tried {
                if let Some((Res::Win, fives, next)) =
                    self.after_attack(h, depth, mode, false, threatened)?
                {
                    return Ok(Some((h, fives, next)));
                }
            }
            let mut moves = self.attack_moves(mode);
            moves.retain(|&m| Some(m) != tried);
            moves
        };
        for m in moves {
            if let Some((Res::Win, fives, next)) =
                self.after_attack(m, depth, mode, forced, threatened)?
            {
                return Ok(Some((m, fives, next)));
            }
        }
        Ok(None)
    }

    /// Appends the line of a proven attacker node: its winning move, then the defender's line.
    fn line_attack(
        &mut self,
        d_fives: &[usize],
        depth: u8,
        mode: Mode,
        line: &mut Vec<usize>,
    ) -> Result<(), OutOfBudget> {
        if d_fives.is_empty()
            && mode == Mode::Vct
            && self.attack(&[], EXACT, Mode::Vcf)? == Res::Win
        {
            return self.line_attack(&[], EXACT, Mode::Vcf, line);
        }
        let depth = if d_fives.is_empty() {
            self.proof_depth(mode, ATTACK, depth)
        } else {
            depth
        };
        let Some((m, fives, next)) = self.winning_move(d_fives, depth, mode)? else {
            return Ok(());
        };
        line.push(m);
        put(self.board, m, self.attacker);
        let result = self.line_defend(&fives, next, mode, line);
        self.board.undo();
        result
    }

    /// Appends the line of a proven defender node: one defender move (all of them lose), then
    /// the attacker's line from there.
    fn line_defend(
        &mut self,
        a_fives: &[usize],
        depth: u8,
        mode: Mode,
        line: &mut Vec<usize>,
    ) -> Result<(), OutOfBudget> {
        let (a, d) = (self.attacker, self.defender);
        let depth = if a_fives.is_empty() {
            self.proof_depth(mode, DEFEND, depth)
        } else {
            depth
        };
        let reply = if !a_fives.is_empty() {
            let blocks = five_blocks(self.board, a_fives, a);
            if blocks.is_empty() {
                self.unstoppable_fives(a_fives, line);
                return Ok(());
            }
            blocks[0]
        } else {
            let wins = win_points(self.board, a);
            if wins.is_empty() {
                return Ok(());
            }
            let defences = self.defence_moves(&wins);
            match defences.first() {
                Some(&q) => q,
                // Nothing spoils every winning point: show the defender taking one of them (or
                // any legal point), after which the attacker plays another.
                None => match wins
                    .iter()
                    .copied()
                    .find(|&w| legal(self.board, w, d))
                    .or_else(|| self.any_legal(d))
                {
                    Some(q) => q,
                    None => return Ok(()),
                },
            }
        };
        line.push(reply);
        put(self.board, reply, d);
        let fives = fives_near(self.board, reply, d);
        let result = match self.attack(&fives, depth, mode) {
            Ok(Res::Win) => self.line_attack(&fives, depth, mode, line),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        self.board.undo();
        result
    }

    /// The end of a line against fives the defender cannot stop: the defender takes one five
    /// point if it may (the attacker then plays another), or is left with a forbidden point.
    fn unstoppable_fives(&mut self, a_fives: &[usize], line: &mut Vec<usize>) {
        let (a, d) = (self.attacker, self.defender);
        match a_fives.iter().copied().find(|&f| legal(self.board, f, d)) {
            Some(q) => {
                line.push(q);
                put(self.board, q, d);
                let five = a_fives
                    .iter()
                    .copied()
                    .find(|&f| f != q && self.board.is_win_idx(f, a));
                self.board.undo();
                line.extend(five);
            }
            // Renju: black's only block is forbidden; playing it loses at once.
            None => line.push(a_fives[0]),
        }
    }

    fn any_legal(&self, color: Color) -> Option<usize> {
        let mut found = None;
        self.board.for_each_empty(|q| {
            if found.is_none() && legal(self.board, q, color) {
                found = Some(q);
            }
        });
        found
    }
}
