//! The threat solver inside the search: at the root before the MCTS (a found win is played at
//! once and reported proven; when the opponent has a four or a VCF, only the moves that refute
//! it are searched), and at tree nodes through the MCTS's tactical slot (small budgets).
use super::mcts::{KnownThreats, Proof, TacticalCheck};
use super::think::{Eval, ProgressSink, SearchInfo, Style, ThinkRequest, ThinkResult, Thinker};
use crate::game::{Board, Color, Point};
use crate::solver::{Budget, Outcome, ProvenResult, Solver, VcfFocus};
use parking_lot::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Root VCF budget: fours only, cheap, and decisive when it finds something.
const ROOT_VCF_NODES: u64 = 200_000;
/// Root VCT budget: at most this share of the move's target time, and this many nodes.
const ROOT_VCT_SHARE: f64 = 0.1;
const ROOT_VCT_NODES: u64 = 300_000;
const ROOT_VCT_MAX_TIME: Duration = Duration::from_millis(500);
/// Under a playout limit without a clock (self-play, fixed-playout matches), the root VCT gets
/// this many solver nodes a playout instead of a time slice: the slice's 500 ms took about as
/// long as the playouts themselves in self-play, and made the games depend on the machine's load.
const ROOT_VCT_NODES_PER_PLAYOUT: u64 = 25;
/// Budget of the defence check (does the opponent have a VCF, and what refutes it).
const DEFENCE_NODES: u64 = 200_000;
/// Budget of the VCT defence check (does the opponent have a VCT if we pass, and which of our
/// moves leave it none): at most this share of the move's target time, and this many nodes.
const VCT_DEFENCE_SHARE: f64 = 0.15;
const VCT_DEFENCE_NODES: u64 = 600_000;
const VCT_DEFENCE_MAX_TIME: Duration = Duration::from_millis(400);
/// Our own VCT with the time an early stop leaves: at most this many nodes, this many chained
/// threats (deeper than the first look, for the long wins of 25 plies and more).
const LATE_VCT_NODES: u64 = 3_000_000;
const LATE_VCT_DEPTH: u8 = 14;
/// Less time than this left is not worth a late look.
const LATE_VCT_MIN_TIME: Duration = Duration::from_millis(20);
/// Node budget of the in-tree check (a VCF probe per expanded position).
const TREE_VCF_NODES: u64 = 300;
/// The tree's VCF tries every four for its first two, then only those near its last four.
const TREE_VCF_FOCUS: Option<VcfFocus> = Some(VcfFocus { from: 2, reach: 4 });
/// Table of the deep checks' solver: 2^20 entries of 16 bytes (16 MiB).
const DEEP_TABLE_BITS: u32 = 20;

/// A thinker that consults the threat solver before (and inside) another thinker's search.
pub struct SolvingThinker<T: Thinker> {
    inner: T,
    solver: Solver,
    /// After a search that ended before its target, look for our own VCT with the time left.
    late_vct: bool,
    /// Where the opponent would have a VCT if we passed, search only the moves that refute it.
    vct_defence: bool,
}

impl<T: Thinker> SolvingThinker<T> {
    pub fn new(inner: T) -> SolvingThinker<T> {
        SolvingThinker {
            inner,
            solver: Solver::new(),
            late_vct: false,
            vct_defence: false,
        }
    }

    /// Spends the time an early stop leaves on a deeper search for our own VCT (see
    /// [`LATE_VCT_NODES`]).
    pub fn with_late_vct(mut self, on: bool) -> SolvingThinker<T> {
        self.late_vct = on;
        self
    }

    /// Narrows the root to the refutations of the opponent's VCT (see [`VCT_DEFENCE_NODES`]).
    pub fn with_vct_defence(mut self, on: bool) -> SolvingThinker<T> {
        self.vct_defence = on;
        self
    }

    pub fn inner(&self) -> &T {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

/// The line with the colour of each stone, from `first` to move.
fn coloured(line: &[Point], first: Color) -> Vec<(Color, Point)> {
    let mut colour = first;
    line.iter()
        .map(|&p| {
            let c = colour;
            colour = colour.opponent();
            (c, p)
        })
        .collect()
}

fn proven_win(board: &Board, line: Vec<Point>, started: Instant, nodes: u64) -> ThinkResult {
    let best = line.first().copied();
    let plies = line.len() as u32;
    ThinkResult {
        best,
        info: SearchInfo {
            depth_min: plies,
            depth_max: plies,
            eval: Eval::Win(plies),
            nodes,
            elapsed: started.elapsed(),
            pv: coloured(&line, board.side_to_move()),
        },
        ranked: best.map(|p| vec![(p, 1.0)]).unwrap_or_default(),
        visits: Vec::new(),
    }
}

/// The blocked points that leave only `refutations` to the search, or `None` when none is
/// playable (the position is lost, or the GUI blocked every refutation: the plain search decides).
fn only(request: &ThinkRequest, refutations: &[Point]) -> Option<Vec<Point>> {
    if !refutations.iter().any(|p| !request.blocked.contains(p)) {
        return None;
    }
    let mut blocked = request.blocked.clone();
    for p in request.board.legal_moves() {
        if !refutations.contains(&p) && !blocked.contains(&p) {
            blocked.push(p);
        }
    }
    Some(blocked)
}

/// The root VCT's budget: under a playout limit without a clock, nodes in proportion to the
/// playouts; otherwise a slice of the move's time (`None`: too little time to be worth a look).
fn root_vct_budget(request: &ThinkRequest) -> Option<Budget<'static>> {
    match (request.limits.target, request.limits.max_nodes) {
        (None, Some(playouts)) => Some(Budget::nodes(
            ROOT_VCT_NODES.min(playouts.saturating_mul(ROOT_VCT_NODES_PER_PLAYOUT)),
        )),
        _ => {
            let slice = time_slice(request, ROOT_VCT_SHARE, ROOT_VCT_MAX_TIME);
            (slice >= Duration::from_millis(5))
                .then(|| Budget::nodes(ROOT_VCT_NODES).with_time(slice))
        }
    }
}

/// `share` of the time left to the move's target, at most `max` (`max` with no target).
fn time_slice(request: &ThinkRequest, share: f64, max: Duration) -> Duration {
    request
        .limits
        .target
        .map(|t| t.saturating_duration_since(Instant::now()).mul_f64(share))
        .unwrap_or(max)
        .min(max)
}

/// A move of a proven line must also be playable here (not blocked by the GUI).
fn allowed(request: &ThinkRequest, line: &[Point]) -> bool {
    line.first().is_some_and(|p| !request.blocked.contains(p))
}

impl<T: Thinker> Thinker for SolvingThinker<T> {
    fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult {
        let started = Instant::now();
        let board = &request.board;
        let me = board.side_to_move();
        let opponent = me.opponent();
        let hard = request.limits.hard;
        fn within(budget: Budget<'_>, hard: Option<Instant>) -> Budget<'_> {
            // Never more than a quarter of what is left before the hard deadline.
            match hard {
                Some(h) => budget.with_time(h.saturating_duration_since(Instant::now()) / 4),
                None => budget,
            }
        }
        // 1. Our own VCF: a forced win by fours.
        let vcf = self.solver.vcf(
            board,
            me,
            within(Budget::nodes(ROOT_VCF_NODES), hard).with_stop(stop),
        );
        if let Outcome::Win { line } = vcf {
            if allowed(request, &line) {
                return proven_win(board, line, started, self.solver.last_nodes());
            }
        }
        // 2. The opponent's four or VCF: search only the moves that refute it.
        let mut narrowed = None;
        if let Some(refutations) = self.solver.defences(
            board,
            opponent,
            within(Budget::nodes(DEFENCE_NODES), hard).with_stop(stop),
        ) {
            narrowed = only(request, &refutations);
        } else {
            // 3. No threat against us: look for our VCT with a slice of the time (or playouts).
            if let Some(budget) = root_vct_budget(request) {
                let budget = budget.with_stop(stop);
                if let Outcome::Win { line } = self.solver.vct(board, me, budget) {
                    if allowed(request, &line) {
                        return proven_win(board, line, started, self.solver.last_nodes());
                    }
                }
            }
            // 4. The opponent's VCT were it to move: search only the moves that refute it.
            if self.vct_defence {
                let slice = time_slice(request, VCT_DEFENCE_SHARE, VCT_DEFENCE_MAX_TIME);
                if slice >= Duration::from_millis(5) {
                    let budget = Budget::nodes(VCT_DEFENCE_NODES)
                        .with_time(slice)
                        .with_stop(stop);
                    if let Some(refutations) = self.solver.vct_defences(board, opponent, budget) {
                        narrowed = only(request, &refutations);
                        log::debug!(
                            "the opponent threatens a VCT: {} refutations",
                            refutations.len()
                        );
                    }
                }
            }
        }
        let threatened = narrowed.is_some();
        let result = match narrowed {
            Some(blocked) => {
                let narrowed_request = ThinkRequest {
                    board: request.board.clone(),
                    blocked,
                    limits: request.limits.clone(),
                };
                self.inner.think(&narrowed_request, stop)
            }
            None => self.inner.think(request, stop),
        };
        if !self.late_vct || threatened || matches!(result.info.eval, Eval::Win(_) | Eval::Loss(_))
        {
            return result;
        }
        // The search stopped early: the time left goes to a deeper look for our own VCT.
        let left = request.limits.target.map_or(Duration::ZERO, |t| {
            t.saturating_duration_since(Instant::now())
        });
        if left < LATE_VCT_MIN_TIME || stop.load(std::sync::atomic::Ordering::Relaxed) {
            return result;
        }
        let budget = Budget::nodes(LATE_VCT_NODES)
            .with_time(left)
            .with_stop(stop)
            .with_depth(LATE_VCT_DEPTH);
        match self.solver.vct(board, me, budget) {
            Outcome::Win { line } if allowed(request, &line) => {
                log::debug!("late VCT: a win in {} plies", line.len());
                proven_win(
                    board,
                    line,
                    started,
                    result.info.nodes + self.solver.last_nodes(),
                )
            }
            _ => result,
        }
    }

    fn clear(&mut self) {
        self.solver.clear();
        self.inner.clear();
    }

    fn name(&self) -> &str {
        self.inner.name()
    }

    fn set_style(&mut self, style: Style) {
        self.inner.set_style(style);
    }

    fn set_progress(&mut self, sink: Option<ProgressSink>) {
        self.inner.set_progress(sink);
    }

    fn evaluate_path(&self, board: &Board, path: &[Point]) -> Option<SearchInfo> {
        self.inner.evaluate_path(board, path)
    }
}

/// The in-tree check: a small VCF probe per expanded position. Solvers are pooled so search
/// threads do not wait on one another. The deep checks (VCT, for the verifier) have a solver of
/// their own, whose table carries what it learnt from one check and one move to the next.
pub struct SolverCheck {
    pool: Mutex<Vec<Solver>>,
    deep: Mutex<Solver>,
    /// Node budget of the VCT behind a double-three point (0: none).
    tree_vct_nodes: u64,
}

impl SolverCheck {
    pub fn new() -> SolverCheck {
        SolverCheck {
            pool: Mutex::new(Vec::new()),
            deep: Mutex::new(Solver::with_table_bits(DEEP_TABLE_BITS)),
            tree_vct_nodes: 0,
        }
    }

    /// Where the side to move has a double-three point and the opponent no four, also looks
    /// for a VCT within `nodes` (0: never).
    pub fn with_tree_vct(mut self, nodes: u64) -> SolverCheck {
        self.tree_vct_nodes = nodes;
        self
    }

    /// A double three whose threes the opponent cannot answer with a four: a VCT may win.
    fn vct_worth_trying(&self, known: &KnownThreats) -> bool {
        self.tree_vct_nodes > 0
            && !known.double_threes.is_empty()
            && known.their_fours.is_empty()
            && known.their_fives.is_empty()
    }
}

impl SolverCheck {
    /// Runs `f` with a solver of the pool (a new one if every solver is busy).
    fn pooled<R>(&self, f: impl FnOnce(&mut Solver) -> R) -> R {
        let mut solver = self.pool.lock().pop().unwrap_or_else(|| {
            // A small table: these probes are tiny.
            let mut s = Solver::with_table_bits(14);
            s.set_quick_nodes(TREE_VCF_NODES);
            s.set_quick_focus(TREE_VCF_FOCUS);
            s
        });
        let result = f(&mut solver);
        self.pool.lock().push(solver);
        result
    }
}

impl Default for SolverCheck {
    fn default() -> Self {
        SolverCheck::new()
    }
}

impl TacticalCheck for SolverCheck {
    /// A VCF starts with a four; the VCT is tried only behind a double three.
    fn worth_asking(&self, known: &KnownThreats) -> bool {
        !known.fours.is_empty() || self.vct_worth_trying(known)
    }

    /// `Solver::quick` without its five checks, which the search has done; then, behind a
    /// double three, a small VCT.
    fn prove(&self, board: &Board, known: &KnownThreats) -> Option<Proof> {
        let vcf = if known.fours.is_empty() {
            None
        } else {
            self.pooled(|solver| solver.quick_vcf_from(board, &known.fours, &known.their_fives))
        };
        match vcf {
            Some(ProvenResult::Win { line }) => return Some(Proof::Win(line.len() as u32)),
            // The opponent's fives cannot all be stopped: they win on their next move.
            Some(ProvenResult::Loss) => return Some(Proof::Loss(2)),
            None => {}
        }
        if !self.vct_worth_trying(known) {
            return None;
        }
        let budget = Budget::nodes(self.tree_vct_nodes);
        match self.pooled(|solver| solver.vct(board, board.side_to_move(), budget)) {
            Outcome::Win { line } => Some(Proof::Win(line.len() as u32)),
            Outcome::NoWin | Outcome::Unknown => None,
        }
    }

    fn refutations(&self, board: &Board, known: &KnownThreats) -> Option<Vec<usize>> {
        let attacker = board.side_to_move().opponent();
        // A VCF starts with a four; a five to block already leaves one move.
        if known.their_fours.is_empty() || !known.their_fives.is_empty() {
            return None;
        }
        self.pooled(|solver| {
            solver.vcf_refutations(board, attacker, &known.their_fours, &known.fours)
        })
    }

    fn prove_deep(
        &self,
        board: &Board,
        nodes: u64,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<Proof> {
        let mut budget = Budget::nodes(nodes).with_stop(stop);
        if let Some(d) = deadline {
            budget = budget.with_time(d.saturating_duration_since(Instant::now()));
        }
        let mut solver = self.deep.lock();
        match solver.vct(board, board.side_to_move(), budget) {
            Outcome::Win { line } => Some(Proof::Win(line.len() as u32)),
            Outcome::NoWin | Outcome::Unknown => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::MoveGen;
    use crate::search::Limits;

    /// White to move with two twos crossing on an empty point: a stone there makes two open
    /// threes, and black has no four to answer with.
    fn a_double_three_to_make() -> Board {
        let mut b = Board::new(15, 15, crate::game::Rule::Freestyle).unwrap();
        let black = [(0, 0), (14, 0), (0, 14), (14, 14), (2, 12)];
        let white = [(6, 7), (7, 7), (8, 5), (8, 6)];
        for (i, &(x, y)) in black.iter().enumerate() {
            b.place(Point::new(x, y), Color::Black).unwrap();
            if let Some(&(x, y)) = white.get(i) {
                b.place(Point::new(x, y), Color::White).unwrap();
            }
        }
        assert_eq!(b.side_to_move(), Color::White);
        b
    }

    #[test]
    fn the_root_vct_gets_nodes_by_playouts_or_a_slice_of_the_clock() {
        let request = |limits: Limits| ThinkRequest {
            board: Board::new(15, 15, crate::game::Rule::Freestyle).unwrap(),
            blocked: Vec::new(),
            limits,
        };
        let playouts = Limits {
            max_nodes: Some(800),
            ..Limits::infinite(1)
        };
        let budget = root_vct_budget(&request(playouts)).unwrap();
        assert_eq!(
            (budget.nodes, budget.time),
            (800 * ROOT_VCT_NODES_PER_PLAYOUT, None)
        );
        let many = Limits {
            max_nodes: Some(1 << 40),
            ..Limits::infinite(1)
        };
        assert_eq!(
            root_vct_budget(&request(many)).unwrap().nodes,
            ROOT_VCT_NODES
        );
        // With a clock, a slice of it, whatever the playout limit.
        let timed = Limits {
            max_nodes: Some(800),
            ..Limits::movetime(1000, 1)
        };
        let budget = root_vct_budget(&request(timed)).unwrap();
        assert_eq!(budget.nodes, ROOT_VCT_NODES);
        assert!(budget.time.unwrap() <= Duration::from_millis(100));
        assert!(root_vct_budget(&request(Limits::movetime(30, 1))).is_none());
        let budget = root_vct_budget(&request(Limits::infinite(1))).unwrap();
        assert_eq!(budget.time, Some(ROOT_VCT_MAX_TIME));
    }

    #[test]
    fn the_tree_vct_proves_a_double_three_the_vcf_cannot() {
        let board = a_double_three_to_make();
        let analysis = MoveGen::new().analyse(&board, &[]);
        let mut known = KnownThreats::default();
        known.read(&analysis.near, board.side_to_move(), true);
        assert_eq!(known.double_threes, vec![board.index(Point::new(8, 7))]);
        assert!(known.fours.is_empty() && known.their_fours.is_empty());

        let vcf_only = SolverCheck::new();
        assert!(!vcf_only.worth_asking(&known));
        assert_eq!(vcf_only.prove(&board, &known), None);
        let with_vct = SolverCheck::new().with_tree_vct(5_000);
        assert!(with_vct.worth_asking(&known));
        match with_vct.prove(&board, &known) {
            Some(Proof::Win(plies)) => assert!((5..=9).contains(&plies), "{plies}"),
            other => panic!("no win found: {other:?}"),
        }
        // A black four to answer with: the VCT is not tried.
        known.their_fours.push(board.index(Point::new(0, 1)));
        assert!(!with_vct.worth_asking(&known));
    }
}
