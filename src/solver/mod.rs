//! Threat-space search: proven wins and losses from continuous threats, for either side.
//!
//! - VCF (victory by continuous fours) and VCT (fours and threats that create a winning point,
//!   such as open threes) for an attacker who need not be the side to move: when it is not, the
//!   question is "what if the side to move passed?".
//! - Rule-aware through the board's patterns: in renju black's forbidden points are neither threats
//!   nor defences for black, and white wins when black's only block is forbidden; overlines are
//!   not fives under exact-five rules; a caro five blocked at both ends is not a win (and a stone
//!   past the end of a run is a caro block).
//! - In VCT the defender answers a threat with any stone that spoils all the attacker's winning
//!   points, or with a four of its own that the attacker must answer first.
//!
//! Modules: `budget` (limits), `table` (transposition table), `threats` (threat geometry),
//! `proof_search` (the AND/OR search and its winning lines). The reference positions for tests and
//! benchmarks live in `tests/support/solver_suite.rs`.
//!
//! How a tree search uses it (one `Solver` per thread; the table is reused across calls):
//! - at a new node, [`Solver::quick`]: a proven win (play the line's first move) or loss;
//! - where the opponent threatens, [`Solver::defences`] for the opponent as attacker: the moves
//!   worth searching (an empty list is a proven loss);
//! - at the root with time to spare, [`Solver::vct`] with a node or time budget and a stop flag.
//!
//! Known limits of the rule model: renju forbidden points are recomputed exactly on every move,
//! but the zones where a defender's stone is assumed to matter are the lines (and, for a white
//! four completing on a forbidden point, the 11x11 square) around the threat; a stone farther
//! away that flips a forbidden point through a chain of "real three" checks is not considered.
mod budget;
mod proof_search;
mod table;
mod threats;

pub use budget::{Budget, DEFAULT_VCT_DEPTH};

use crate::game::{Board, Color, Point};
use budget::Meter;
pub use proof_search::VcfFocus;
use proof_search::{Mode, ProofSearch, RootResult};
use table::Table;
use threats::{five_blocks, fives_near, legal, put, zone};

/// The result of a VCF or VCT search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// A proven win. `line` starts with the attacker's move and alternates attacker, defender;
    /// defender moves are forced blocks (VCF) or one of the defences (VCT). It normally ends with
    /// the attacker's five; in renju it may end with black's forced move onto a forbidden point.
    Win { line: Vec<Point> },
    /// No win exists within the search's scope (fours only for VCF; up to the depth for VCT).
    NoWin,
    /// The budget ran out first.
    Unknown,
}

impl Outcome {
    pub fn is_win(&self) -> bool {
        matches!(self, Outcome::Win { .. })
    }

    /// The attacker's first move of a win.
    pub fn first_move(&self) -> Option<Point> {
        match self {
            Outcome::Win { line } => line.first().copied(),
            _ => None,
        }
    }
}

/// What [`Solver::quick`] proves for the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ProvenResult {
    /// The side to move wins; the line as in [`Outcome::Win`].
    Win { line: Vec<Point> },
    /// The side to move loses: the opponent has fives it cannot stop.
    Loss,
}

/// The threat solver. Owns its transposition table; reuse it across calls (also across rules and
/// board sizes: entries are keyed by both).
pub struct Solver {
    table: Table,
    nodes: u64,
    quick_nodes: u64,
    /// How [`Solver::quick_vcf_from`] narrows its fours (`None`: it tries them all).
    quick_focus: Option<VcfFocus>,
    /// A working copy of the last board asked about, brought up to date by undoing and replaying
    /// stones instead of cloning a board for every call.
    scratch: Option<Board>,
}

/// The scratch board, made equal to `board` (same size, rule and stones in the same order).
fn sync_scratch<'a>(slot: &'a mut Option<Board>, board: &Board) -> &'a mut Board {
    let reusable = slot.as_ref().is_some_and(|s| {
        s.width() == board.width() && s.height() == board.height() && s.rule() == board.rule()
    });
    if !reusable {
        return slot.insert(board.clone());
    }
    let scratch = slot.as_mut().expect("checked above");
    let target = board.history();
    let common = scratch
        .history()
        .iter()
        .zip(target)
        .take_while(|(a, b)| a == b && scratch.get(**a) == board.get(**b))
        .count();
    while scratch.stone_count() > common {
        scratch.undo();
    }
    for &p in &target[common..] {
        let color = board
            .get(p)
            .expect("every stone of a board is in its history");
        scratch
            .place(p, color)
            .expect("the scratch board mirrors the board's stones");
    }
    scratch
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// Table size of [`Solver::new`]: 2^18 slots of 16 bytes (4 MiB).
    pub const DEFAULT_TABLE_BITS: u32 = 18;
    /// Node budget of [`Solver::quick`]'s VCF unless changed.
    pub const DEFAULT_QUICK_NODES: u64 = 2_000;

    pub fn new() -> Solver {
        Solver::with_table_bits(Solver::DEFAULT_TABLE_BITS)
    }

    /// A solver whose table holds `2^bits` entries of 16 bytes (bits clamped to 1..=30).
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver {
            table: Table::new(bits),
            nodes: 0,
            quick_nodes: Solver::DEFAULT_QUICK_NODES,
            quick_focus: None,
            scratch: None,
        }
    }

    /// Number of table entries.
    pub fn table_entries(&self) -> usize {
        self.table.len()
    }

    /// Forgets everything the table learnt.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Nodes visited by the last call (all of its searches).
    pub fn last_nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the VCF node budget of [`Solver::quick`].
    pub fn set_quick_nodes(&mut self, nodes: u64) {
        self.quick_nodes = nodes;
    }

    /// Focuses [`Solver::quick_vcf_from`]'s search on the fours near its attack.
    pub fn set_quick_focus(&mut self, focus: Option<VcfFocus>) {
        self.quick_focus = focus;
    }

    /// Whether `attacker`, moving now, wins by continuous fours.
    pub fn vcf(&mut self, board: &Board, attacker: Color, budget: Budget) -> Outcome {
        self.solve(board, attacker, budget, Mode::Vcf)
    }

    /// Whether `attacker`, moving now, wins by continuous fours and threes (at most
    /// `budget.max_depth` threat moves before the closing VCF).
    pub fn vct(&mut self, board: &Board, attacker: Color, budget: Budget) -> Outcome {
        self.solve(board, attacker, budget, Mode::Vct)
    }

    fn solve(&mut self, board: &Board, attacker: Color, budget: Budget, mode: Mode) -> Outcome {
        self.run(board, attacker, budget, |search| {
            search.solve(mode, budget.max_depth, true, budget.nodes)
        })
    }

    /// Runs `search` on the scratch copy of `board` within `budget`; counts its nodes.
    fn run(
        &mut self,
        board: &Board,
        attacker: Color,
        budget: Budget,
        search: impl FnOnce(&mut ProofSearch) -> RootResult,
    ) -> Outcome {
        let mut proof_search = ProofSearch::new(
            sync_scratch(&mut self.scratch, board),
            &mut self.table,
            Meter::new(&budget),
            attacker,
        );
        let result = search(&mut proof_search);
        self.nodes = proof_search.meter.nodes();
        match result {
            RootResult::Win(line) => Outcome::Win {
                line: line.into_iter().map(|i| board.point(i)).collect(),
            },
            RootResult::NoWin => Outcome::NoWin,
            RootResult::Unknown => Outcome::Unknown,
        }
    }

    /// The moves of `attacker`'s opponent (normally the side to move) that refute the attacker's
    /// four or VCF: after each of them the attacker has no VCF (or none was found within the
    /// budget: unknown counts as refuted, so nothing good is thrown away).
    ///
    /// - `None`: the attacker has no five point and no VCF was found; nothing needs refuting.
    /// - `Some(moves)`: the defender must play one of `moves`; empty means it is lost. When the
    ///   defender has a five of its own, `moves` are its five points.
    ///
    /// Candidates are the blocks of the attacker's fives, or every point near the attacker's
    /// winning line (where a stone can change it) plus the defender's own fours, each one checked.
    pub fn defences(
        &mut self,
        board: &Board,
        attacker: Color,
        budget: Budget,
    ) -> Option<Vec<Point>> {
        self.defences_in(board, attacker, budget, Mode::Vcf)
    }

    /// [`Solver::defences`] against a VCT (fours and threes, `budget.max_depth` threats): the
    /// moves after which the attacker has none found. The budget is shared by the threat search
    /// and every candidate's check; a candidate left unchecked when it runs out counts as
    /// refuting.
    pub fn vct_defences(
        &mut self,
        board: &Board,
        attacker: Color,
        budget: Budget,
    ) -> Option<Vec<Point>> {
        self.defences_in(board, attacker, budget, Mode::Vct)
    }

    fn defences_in(
        &mut self,
        board: &Board,
        attacker: Color,
        budget: Budget,
        mode: Mode,
    ) -> Option<Vec<Point>> {
        let defender = attacker.opponent();
        let own_fives = board.five_points(defender);
        if !own_fives.is_empty() {
            self.nodes = 0;
            return Some(own_fives.into_iter().map(|i| board.point(i)).collect());
        }
        let mut search = ProofSearch::new(
            sync_scratch(&mut self.scratch, board),
            &mut self.table,
            Meter::new(&budget),
            attacker,
        );
        let a_fives = search.board.five_points(attacker);
        let candidates = if !a_fives.is_empty() {
            five_blocks(search.board, &a_fives, attacker)
        } else {
            match search.solve(mode, budget.max_depth, true, budget.nodes) {
                RootResult::Win(line) => {
                    let fours = search.board.four_points(defender);
                    refutation_candidates(search.board, &line, &fours, defender)
                }
                RootResult::NoWin | RootResult::Unknown => {
                    self.nodes = search.meter.nodes();
                    return None;
                }
            }
        };
        let mut refutations = Vec::new();
        for q in candidates {
            put(search.board, q, defender);
            let result = search.solve(mode, budget.max_depth, false, 0);
            search.board.undo();
            if !matches!(result, RootResult::Win(_)) {
                refutations.push(board.point(q));
            }
        }
        self.nodes = search.meter.nodes();
        Some(refutations)
    }

    /// A cheap verdict for the side to move, for search-tree nodes: a five now, fives of the
    /// opponent that cannot all be stopped, or a VCF within the quick node budget.
    pub fn quick(&mut self, board: &Board) -> Option<ProvenResult> {
        let me = board.side_to_move();
        let opponent = me.opponent();
        if let Some(&f) = board.five_points(me).first() {
            self.nodes = 0;
            return Some(ProvenResult::Win {
                line: vec![board.point(f)],
            });
        }
        let their_fives = board.five_points(opponent);
        if !their_fives.is_empty() {
            let scratch = sync_scratch(&mut self.scratch, board);
            if five_blocks(scratch, &their_fives, opponent).is_empty() {
                self.nodes = 0;
                return Some(ProvenResult::Loss);
            }
        }
        self.quick_vcf(board)
    }

    /// The VCF part of [`Solver::quick`] alone, for a caller that has settled the fives.
    pub fn quick_vcf(&mut self, board: &Board) -> Option<ProvenResult> {
        let outcome = self.vcf(board, board.side_to_move(), Budget::nodes(self.quick_nodes));
        Solver::proven(outcome)
    }

    /// [`Solver::quick_vcf`] for a caller that knows the threats: every four point of the side
    /// to move (which has no five point) and every five point of the opponent, so the search
    /// starts without scanning the board.
    pub fn quick_vcf_from(
        &mut self,
        board: &Board,
        fours: &[usize],
        their_fives: &[usize],
    ) -> Option<ProvenResult> {
        let budget = Budget::nodes(self.quick_nodes);
        let focus = self.quick_focus;
        let outcome = self.run(board, board.side_to_move(), budget, |search| {
            if let Some(focus) = focus {
                search.focus_vcf(focus);
            }
            search.solve_vcf_from(fours, their_fives, Some(budget.nodes))
        });
        Solver::proven(outcome)
    }

    /// Where `attacker`, the side not to move, would win by fours were it to move again (within
    /// the quick budget, shared by every check): the defender's moves after which it no longer
    /// does. `None` when no such win is found. `fours` are the attacker's four points and
    /// `defender_fours` the defender's; the defender has no five point. The candidates are the
    /// points near the winning line and the defender's fours, each checked by a VCF that starts
    /// from the attacker's fours left (a defender's stone makes none of the attacker's).
    pub fn vcf_refutations(
        &mut self,
        board: &Board,
        attacker: Color,
        fours: &[usize],
        defender_fours: &[usize],
    ) -> Option<Vec<usize>> {
        let defender = attacker.opponent();
        let budget = Budget::nodes(self.quick_nodes);
        let mut search = ProofSearch::new(
            sync_scratch(&mut self.scratch, board),
            &mut self.table,
            Meter::new(&budget),
            attacker,
        );
        let RootResult::Win(line) = search.solve_vcf_from(fours, &[], Some(budget.nodes)) else {
            self.nodes = search.meter.nodes();
            return None;
        };
        let candidates = refutation_candidates(search.board, &line, defender_fours, defender);
        let mut refutations = Vec::new();
        let mut left = Vec::new();
        for q in candidates {
            put(search.board, q, defender);
            left.clear();
            left.extend(fours.iter().copied().filter(|&f| {
                search.board.is_empty_idx(f)
                    && (0..4).any(|d| search.board.pattern_idx(f, attacker, d).is_four())
            }));
            let d_fives = fives_near(search.board, q, defender);
            let wins = !left.is_empty()
                && matches!(
                    search.solve_vcf_from(&left, &d_fives, None),
                    RootResult::Win(_)
                );
            search.board.undo();
            if !wins {
                refutations.push(q);
            }
        }
        self.nodes = search.meter.nodes();
        Some(refutations)
    }

    fn proven(outcome: Outcome) -> Option<ProvenResult> {
        match outcome {
            Outcome::Win { line } => Some(ProvenResult::Win { line }),
            Outcome::NoWin | Outcome::Unknown => None,
        }
    }
}

/// The defender's moves that may refute the attacker's winning `line`: the points where a stone
/// can change it (near its moves, on their lines) and the defender's own fours, legal ones only.
fn refutation_candidates(
    board: &Board,
    line: &[usize],
    defender_fours: &[usize],
    defender: Color,
) -> Vec<usize> {
    let mut candidates = zone(board, line, 5);
    for &q in defender_fours {
        if !candidates.contains(&q) {
            candidates.push(q);
        }
    }
    candidates.retain(|&q| legal(board, q, defender));
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MoveOutcome, Rule};

    #[test]
    fn scratch_board_follows_every_board_asked_about() {
        let p = Point::new;
        let a = Board::from_moves(15, 15, Rule::Renju, &[p(7, 7), p(8, 8), p(6, 6)]).unwrap();
        let b = Board::from_moves(15, 15, Rule::Renju, &[p(7, 7), p(8, 8), p(9, 9)]).unwrap();
        let mut c = Board::new(15, 15, Rule::Renju).unwrap();
        c.place(p(7, 7), Color::White).unwrap(); // same point, other colour
        let d = Board::from_moves(9, 9, Rule::Renju, &[p(4, 4)]).unwrap();
        let e = Board::from_moves(15, 15, Rule::Caro, &[p(7, 7)]).unwrap();
        let mut slot = None;
        for board in [&a, &b, &a, &c, &b, &d, &e, &a] {
            let scratch = sync_scratch(&mut slot, board);
            assert!(*scratch == *board, "\n{scratch}\n{board}");
            assert_eq!(scratch.hash(), board.hash());
            assert_eq!(scratch.side_to_move(), board.side_to_move());
            for y in 0..board.height() as u8 {
                for x in 0..board.width() as u8 {
                    assert_eq!(scratch.get(p(x, y)), board.get(p(x, y)));
                }
            }
        }
    }

    /// Middle games of random play near the centre, stopped before anyone has five.
    fn random_boards(rule: Rule, count: usize, seed: u64) -> Vec<Board> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let mut b = Board::new(15, 15, rule).unwrap();
                let stones = rng.gen_range(8..60);
                for _ in 0..10_000 {
                    if b.stone_count() >= stones {
                        break;
                    }
                    let p = Point::new(rng.gen_range(2..13), rng.gen_range(2..13));
                    if b.is_empty(p) && b.outcome_of(p, b.side_to_move()) == MoveOutcome::Ongoing {
                        b.play(p).unwrap();
                    }
                }
                b
            })
            .collect()
    }

    /// An attacker node updates the candidate threats of the nearest node above it on the lines
    /// of the new stones; `push_candidates` checks every list against a board scan (in test
    /// builds).
    #[test]
    fn candidates_kept_along_a_search_match_a_board_scan() {
        let mut solver = Solver::with_table_bits(12);
        let (mut vcfs, mut vcts) = (0, 0);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for b in random_boards(rule, 60, 5) {
                for attacker in [Color::Black, Color::White] {
                    solver.clear();
                    vcfs += solver.vcf(&b, attacker, Budget::nodes(5_000)).is_win() as u32;
                    vcts += solver.vct(&b, attacker, Budget::nodes(2_000)).is_win() as u32;
                }
            }
        }
        assert!(
            vcfs > 10,
            "the positions hold VCFs to walk through ({vcfs})"
        );
        assert!(vcts > vcfs, "and more VCTs ({vcts})");
    }

    #[test]
    fn a_vcf_from_known_threats_is_the_vcf_from_a_board_scan() {
        let (mut scanning, mut told) = (Solver::new(), Solver::new());
        let mut compared = 0;
        for rule in [Rule::Freestyle, Rule::Renju] {
            for b in random_boards(rule, 150, 9) {
                let me = b.side_to_move();
                if !b.five_points(me).is_empty() {
                    continue;
                }
                let fours = b.four_points(me);
                let their_fives = b.five_points(me.opponent());
                let expected = scanning.quick_vcf(&b);
                assert_eq!(told.quick_vcf_from(&b, &fours, &their_fives), expected);
                assert_eq!(told.last_nodes(), scanning.last_nodes(), "\n{b}");
                compared += expected.is_some() as u32;
            }
        }
        assert!(compared > 5, "some of the positions hold VCFs ({compared})");
    }

    /// A focused VCF reads fewer nodes and claims only wins that an unbounded full VCF proves;
    /// it misses few of the full VCF's wins.
    #[test]
    fn a_focused_vcf_proves_only_real_wins_with_fewer_nodes() {
        let mut focused = Solver::new();
        focused.set_quick_focus(Some(VcfFocus { from: 2, reach: 4 }));
        focused.set_quick_nodes(1_000_000);
        let mut full = Solver::new();
        full.set_quick_nodes(1_000_000);
        let (mut wins, mut missed, mut focused_nodes, mut full_nodes) = (0, 0, 0, 0);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for b in random_boards(rule, 150, 17) {
                let me = b.side_to_move();
                if !b.five_points(me).is_empty() {
                    continue;
                }
                let fours = b.four_points(me);
                let their_fives = b.five_points(me.opponent());
                let narrow = focused.quick_vcf_from(&b, &fours, &their_fives);
                let wide = full.quick_vcf_from(&b, &fours, &their_fives);
                focused_nodes += focused.last_nodes();
                full_nodes += full.last_nodes();
                match (&narrow, &wide) {
                    (Some(ProvenResult::Win { line }), Some(ProvenResult::Win { .. })) => {
                        assert_eq!(line.len() % 2, 1, "the attacker makes the five\n{b}");
                        wins += 1;
                    }
                    (Some(ProvenResult::Win { .. }), _) => panic!("a false win\n{b}"),
                    (_, Some(ProvenResult::Win { .. })) => missed += 1,
                    _ => assert_eq!(narrow, wide, "\n{b}"),
                }
            }
        }
        assert!(wins > 10, "the positions hold VCFs ({wins})");
        assert!(missed * 10 <= wins, "few wins missed ({missed} of {wins})");
        assert!(
            focused_nodes < full_nodes,
            "{focused_nodes} nodes against {full_nodes}"
        );
    }

    #[test]
    fn after_each_vct_refutation_the_attacker_has_no_vct() {
        let mut s = Solver::new();
        let (mut threatened, mut narrowed) = (0, 0);
        for rule in [Rule::Freestyle, Rule::Renju] {
            for b in random_boards(rule, 80, 13) {
                let me = b.side_to_move();
                let them = me.opponent();
                if !b.five_points(me).is_empty() || !b.five_points(them).is_empty() {
                    continue;
                }
                let budget = Budget::nodes(300_000).with_depth(6);
                if s.defences(&b, them, budget).is_some() {
                    continue; // a VCF threat: the plain defences answer it
                }
                let Some(refutations) = s.vct_defences(&b, them, budget) else {
                    continue;
                };
                if s.last_nodes() >= budget.nodes {
                    continue; // unchecked candidates count as refutations
                }
                threatened += 1;
                narrowed += (!refutations.is_empty()) as u32;
                for &q in &refutations {
                    let mut after = b.clone();
                    after.play(q).unwrap();
                    let vct = s.vct(&after, them, budget);
                    assert!(!vct.is_win(), "{q:?} refutes nothing: {vct:?}\n{b}");
                }
            }
        }
        assert!(
            threatened >= 5 && narrowed >= 3,
            "the boards hold VCT threats ({threatened}) and defences ({narrowed})"
        );
    }

    #[test]
    fn open_three_is_a_vcf_unless_the_defender_counters() {
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . x x x . . . . .
            . . . . . . . . . . .
            . . . o . o . o . . .
            . . . . . . . . . . .",
        )
        .unwrap();
        let mut s = Solver::new();
        let Outcome::Win { line } = s.vcf(&b, Color::Black, Budget::default()) else {
            panic!("an open three is a VCF")
        };
        // Straight four, a block at one end, five at the other.
        assert_eq!(line.len(), 3);
        assert!(s.last_nodes() > 0);
        // White's broken three needs two more stones; black's open three answers any threat.
        assert_eq!(s.vct(&b, Color::White, Budget::default()), Outcome::NoWin);
        assert!(matches!(s.quick(&b), Some(ProvenResult::Win { .. })));
    }

    /// The refutations the tree finds from the known fours are the ones the root's full search
    /// finds, wherever the side not to move has a VCF (both with budget to spare).
    #[test]
    fn refutations_from_the_known_fours_match_the_full_search() {
        let mut compared = 0;
        for rule in [Rule::Freestyle, Rule::Renju] {
            for b in random_boards(rule, 300, 23) {
                let defender = b.side_to_move();
                let attacker = defender.opponent();
                if !b.five_points(attacker).is_empty() || !b.five_points(defender).is_empty() {
                    continue;
                }
                let mut full = Solver::new();
                let Some(expected) = full.defences(&b, attacker, Budget::nodes(2_000_000)) else {
                    continue;
                };
                let mut tree = Solver::new();
                tree.set_quick_nodes(2_000_000);
                let found = tree
                    .vcf_refutations(
                        &b,
                        attacker,
                        &b.four_points(attacker),
                        &b.four_points(defender),
                    )
                    .expect("the same VCF is found");
                let mut found: Vec<Point> = found.into_iter().map(|i| b.point(i)).collect();
                let mut expected = expected;
                found.sort_by_key(|p| (p.y, p.x));
                expected.sort_by_key(|p| (p.y, p.x));
                assert_eq!(found, expected, "\n{b}");
                compared += 1;
            }
        }
        assert!(compared >= 10, "positions with a VCF threat ({compared})");
    }
}
