//! What a position offers the search: the rule-decided results (five, forced block, full board)
//! and the moves worth a child.
//!
//! The moves are the legal empty points within two points of a stone. Every five, four and
//! blocking point of a four lies within that distance, so the forced results below hold; the
//! solver treats this move set as complete, the usual approximation of Gomoku searches.
//!
//! The line patterns of every such point are read once here, for both colours, and handed to
//! the evaluator with the moves ([`NearPoint`]), so a leaf costs one pass over its neighbourhood.
use super::node::Proof;
use crate::game::{Board, Color, Pattern, Point, Rule, Threat};
use crate::search::evaluator::NearPoint;

/// Renju games are drawn once this many stones are on the board (Gomocup's rule).
pub const RENJU_DRAW_STONES: usize = 200;

/// The analysis of one position.
#[derive(Debug, Default, Clone)]
pub struct Analysis {
    /// Set when the rules already decide the position.
    pub proof: Option<Proof>,
    /// The moves to search, in board order (legal, not excluded). For a proven position they are
    /// the moves that realise the result (the winning fives, the hopeless blocks).
    pub moves: Vec<usize>,
    /// Empty points near the stones (legal or not), in board order: the evaluator's view.
    pub near: Vec<NearPoint>,
}

impl Analysis {
    fn clear(&mut self) {
        self.proof = None;
        self.moves.clear();
        self.near.clear();
    }
}

/// Per-thread scratch for move generation.
pub struct MoveGen {
    marks: Vec<u32>,
    stamp: u32,
    /// Scratch of [`MoveGen::keep_three_defences`].
    open_fours: Vec<usize>,
    kept: Vec<usize>,
    /// The empty points around the last stone ([`MoveGen::analyse_after_into`]).
    around_last: Vec<usize>,
    /// Read only threes and more at the near points ([`NearPoint::read_threats`]).
    threats_only: bool,
}

impl Default for MoveGen {
    fn default() -> MoveGen {
        MoveGen::new()
    }
}

impl MoveGen {
    pub fn new() -> MoveGen {
        MoveGen {
            marks: Vec::new(),
            stamp: 0,
            open_fours: Vec::new(),
            kept: Vec::new(),
            around_last: Vec::new(),
            threats_only: false,
        }
    }

    /// Whether the near points' twos may go unread (for evaluators that do not read them).
    pub fn set_threats_only(&mut self, on: bool) {
        self.threats_only = on;
    }

    /// Empty points within Chebyshev distance 2 of a stone, in board order, into `out`.
    pub fn near_points(&mut self, board: &Board, out: &mut Vec<usize>) {
        out.clear();
        if self.marks.len() != board.index_len() {
            self.marks = vec![0; board.index_len()];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        let history = board.history();
        if history.is_empty() {
            return;
        }
        let stride = board.dir_step(1) as isize;
        let (mut x0, mut y0, mut x1, mut y1) = (u8::MAX, u8::MAX, 0, 0);
        for (&s, p) in board.history_idx().iter().zip(history) {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
            for dy in -2..=2isize {
                // The board's padding keeps every index within 5 steps of a point valid.
                let row = (s as isize + dy * stride) as usize;
                self.marks[row - 2..=row + 2].fill(self.stamp);
            }
        }
        // Walk the marked box row by row: board order without sorting.
        let x_end = (x1 as usize + 2).min(board.width() - 1);
        for y in y0.saturating_sub(2) as usize..=(y1 as usize + 2).min(board.height() - 1) {
            let row = board.index(Point::new(0, y as u8));
            for i in row + x0.saturating_sub(2) as usize..=row + x_end {
                if self.marks[i] == self.stamp && board.is_empty_idx(i) {
                    out.push(i);
                }
            }
        }
    }

    /// Analyses `board` for the side to move into `a`; `exclude` lists indices the side to move
    /// may not play (the root's blocked points; empty inside the tree).
    pub fn analyse_into(&mut self, board: &Board, exclude: &[usize], a: &mut Analysis) {
        a.clear();
        if settled_before_reading(board, exclude, a) {
            return;
        }
        let mut near = std::mem::take(&mut a.moves);
        self.near_points(board, &mut near);
        let read = self.reader();
        a.near.extend(near.iter().map(|&i| read(board, i)));
        near.clear();
        a.moves = near;
        settle(board, exclude, a);
    }

    /// [`MoveGen::analyse_into`] (nothing excluded) of `board`, whose last stone was played on
    /// the position `parent` holds the analysis of (by this generator): the same result, with
    /// only the near points on the new stone's four lines, within five steps, read again. A
    /// stone changes the patterns of those points and of no others (under caro, of the whole
    /// lines); its 5x5 square adds near points.
    pub fn analyse_after_into(&mut self, board: &Board, parent: &Analysis, a: &mut Analysis) {
        let Some(&last) = board.history_idx().last() else {
            return self.analyse_into(board, &[], a);
        };
        if parent.near.is_empty() {
            // The parent was decided before its points were read (an empty or full board).
            return self.analyse_into(board, &[], a);
        }
        a.clear();
        if settled_before_reading(board, &[], a) {
            return;
        }
        let stride = board.dir_step(1) as isize;
        self.around_last.clear();
        for dy in -2..=2isize {
            // The board's padding keeps every index within 5 steps of a point valid, and its
            // cells are never empty.
            let row = (last as isize + dy * stride) as usize;
            let empty = (row - 2..=row + 2).filter(|&i| board.is_empty_idx(i));
            self.around_last.extend(empty);
        }
        let from = board.point(last);
        // A pattern is read from five cells each side; caro's, whose fives may be blocked at
        // both ends, from the whole run.
        let reach = if board.rule().blocked_five_fails() {
            u8::MAX
        } else {
            5
        };
        let on_its_lines = |i: usize| from.on_a_line_within(board.point(i), reach);
        let read = self.reader();
        let (kept, around) = (&parent.near, &self.around_last);
        let (mut k, mut r) = (0, 0);
        // Both lists are in board order: merge them.
        while k < kept.len() || r < around.len() {
            let old = kept
                .get(k)
                .filter(|n| around.get(r).is_none_or(|&i| n.idx <= i));
            let idx = match old {
                Some(n) => {
                    k += 1;
                    if around.get(r) == Some(&n.idx) {
                        r += 1;
                    }
                    n.idx
                }
                None => {
                    r += 1;
                    around[r - 1]
                }
            };
            if idx == last {
                continue;
            }
            a.near.push(match old {
                Some(n) if !on_its_lines(idx) => *n,
                _ => read(board, idx),
            });
        }
        settle(board, &[], a);
    }

    /// How the near points are read.
    fn reader(&self) -> fn(&Board, usize) -> NearPoint {
        if self.threats_only {
            NearPoint::read_threats
        } else {
            NearPoint::read
        }
    }
    /// [`MoveGen::analyse_into`] into a new [`Analysis`].
    pub fn analyse(&mut self, board: &Board, exclude: &[usize]) -> Analysis {
        let mut a = Analysis::default();
        self.analyse_into(board, exclude, &mut a);
        a
    }
}

/// The positions the rules or an empty board settle before any point is read: a draw, or the
/// first stone in the centre. True when `a` holds the result.
fn settled_before_reading(board: &Board, exclude: &[usize], a: &mut Analysis) -> bool {
    if board.is_full() || (board.rule() == Rule::Renju && board.stone_count() >= RENJU_DRAW_STONES)
    {
        a.proof = Some(Proof::Draw);
        return true;
    }
    if board.stone_count() == 0 {
        let centre = board.index(Point::new(
            (board.width() / 2) as u8,
            (board.height() / 2) as u8,
        ));
        if !exclude.contains(&centre) {
            a.moves.push(centre);
        } else {
            legal_everywhere(board, exclude, &mut a.moves);
        }
        return true;
    }
    false
}

/// The rest of the analysis once the near points are read: the fives to make or stop, then the
/// moves.
fn settle(board: &Board, exclude: &[usize], a: &mut Analysis) {
    let me = board.side_to_move();
    let opp = me.opponent();
    let allowed = |i: usize| !exclude.contains(&i);
    let mut wins = a
        .near
        .iter()
        .filter(|n| n.threat(me) == Threat::Five && allowed(n.idx))
        .peekable();
    if wins.peek().is_some() {
        a.moves.extend(wins.map(|n| n.idx));
        a.proof = Some(Proof::Win(1));
        return;
    }
    let legal = |i: usize| allowed(i) && !(me == Color::Black && board.is_forbidden_idx(i));
    let mut threats = a.near.iter().filter(|n| n.threat(opp) == Threat::Five);
    if let Some(first) = threats.next() {
        if threats.next().is_none() && legal(first.idx) {
            a.moves.push(first.idx);
            return;
        }
        // Two fives to stop, or one we may not stop: the opponent wins next move.
        a.proof = Some(Proof::Loss(2));
        a.moves.extend(
            a.near
                .iter()
                .filter(|n| n.threat(opp) == Threat::Five && legal(n.idx))
                .map(|n| n.idx),
        );
        if !a.moves.is_empty() {
            return;
        }
    }
    a.moves
        .extend(a.near.iter().map(|n| n.idx).filter(|&i| legal(i)));
    if a.moves.is_empty() {
        legal_everywhere(board, exclude, &mut a.moves);
    }
    if a.moves.is_empty() && a.proof.is_none() {
        // Empty points left, but every one forbidden (or excluded): whatever is played loses.
        a.proof = Some(Proof::Loss(1));
    }
}

impl MoveGen {
    /// Where the player who just moved has a live three (a point where its stone makes an open
    /// four), a move that neither stops every such point nor makes a four of our own loses to
    /// the open four: `a.moves` keeps only those moves. Each candidate is tried on `board` (played
    /// and taken back). Nothing changes when no move defends (two threes: the position is lost
    /// unless our fours win, which the VCF probe sees) or when `a` is already decided.
    pub fn keep_three_defences(&mut self, board: &mut Board, a: &mut Analysis) {
        if a.proof.is_some() || a.moves.len() <= 1 {
            return;
        }
        let me = board.side_to_move();
        let opp = me.opponent();
        let renju_black = opp == Color::Black && board.rule() == Rule::Renju;
        self.open_fours.clear();
        self.open_fours.extend(
            a.near
                .iter()
                .filter(|n| n.patterns(opp).contains(&Pattern::OpenFour))
                .filter(|n| !(renju_black && board.is_forbidden_idx(n.idx)))
                .map(|n| n.idx),
        );
        if self.open_fours.is_empty() {
            return;
        }
        let row = board.dir_step(1);
        let on_a_line_near = |d: usize, s: usize| on_a_line_within_five(row, d, s);
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        for &m in &a.moves {
            if board.threat_idx(m, me) >= Threat::Four {
                kept.push(m);
                continue;
            }
            if !self.open_fours.iter().all(|&s| on_a_line_near(m, s)) {
                continue;
            }
            board.play_unchecked(m);
            let stopped = self.open_fours.iter().all(|&s| {
                s == m || !(0..4).any(|d| board.pattern_idx(s, opp, d) == Pattern::OpenFour)
            });
            board.undo();
            if stopped {
                kept.push(m);
            }
        }
        if !kept.is_empty() {
            std::mem::swap(&mut a.moves, &mut kept);
        }
        self.kept = kept;
    }
}

/// Whether the board indices `a` and `b` lie on one line at most five steps apart: only then
/// can a stone on one change a pattern on the other. `row` is the board's row step
/// (`Board::dir_step(1)`).
pub fn on_a_line_within_five(row: usize, a: usize, b: usize) -> bool {
    let width = row as isize;
    let (dx, dy) = (
        (a as isize % width) - (b as isize % width),
        (a as isize / width) - (b as isize / width),
    );
    (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && dx.abs().max(dy.abs()) <= 5
}

/// Every legal, non-excluded point of the board, into `out`.
fn legal_everywhere(board: &Board, exclude: &[usize], out: &mut Vec<usize>) {
    board.for_each_legal(|i| {
        if !exclude.contains(&i) {
            out.push(i);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Point, Rule};
    use crate::search::evaluator::threat_of;

    fn pts(board: &Board, v: &[usize]) -> Vec<Point> {
        v.iter().map(|&i| board.point(i)).collect()
    }

    #[test]
    fn fast_threats_agree_with_the_game() {
        use crate::game::Pattern as P;
        let all = [
            P::None,
            P::Overline,
            P::Two,
            P::OpenTwo,
            P::Three,
            P::OpenThree,
            P::Four,
            P::OpenFour,
            P::DoubleFour,
            P::Five,
        ];
        for a in all {
            for b in all {
                for c in all {
                    for d in all {
                        let p = [a, b, c, d];
                        assert_eq!(threat_of(p), Threat::from_patterns(p), "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn near_points_come_in_board_order() {
        let b = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &[Point::new(14, 14), Point::new(0, 0), Point::new(7, 3)],
        )
        .unwrap();
        let mut near = Vec::new();
        MoveGen::new().near_points(&b, &mut near);
        let mut sorted = near.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(near, sorted);
        assert_eq!(near.len(), 8 + 8 + 24);
        // The same set as a brute-force scan.
        let brute: Vec<usize> = (0..15u8)
            .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
            .filter(|&q| b.is_empty(q))
            .filter(|&q| {
                b.history().iter().any(|s| {
                    (s.x as i32 - q.x as i32).abs() <= 2 && (s.y as i32 - q.y as i32).abs() <= 2
                })
            })
            .map(|q| b.index(q))
            .collect();
        assert_eq!(near, brute);
    }

    /// The analysis after one more stone, taken from the parent's, is the analysis of the
    /// board read afresh: every rule (caro's long lines and renju's forbidden points too), both
    /// readers, games played to their end or to a full small board.
    #[test]
    fn the_analysis_after_a_stone_equals_a_fresh_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut compared = 0;
        for (rule, size) in [
            (Rule::Freestyle, 15),
            (Rule::Standard, 15),
            (Rule::Renju, 15),
            (Rule::Caro, 9),
            (Rule::CaroExact, 11),
            (Rule::Freestyle, 5),
        ] {
            for threats_only in [false, true] {
                let (mut incremental, mut fresh) = (MoveGen::new(), MoveGen::new());
                incremental.set_threats_only(threats_only);
                fresh.set_threats_only(threats_only);
                for _ in 0..6 {
                    let mut board = Board::new(size, size, rule).unwrap();
                    let mut parent = incremental.analyse(&board, &[]);
                    while parent.proof.is_none() {
                        // Mostly the analysis' own moves, so that threats build up.
                        let m = parent.moves[rng.gen_range(0..parent.moves.len())];
                        board.play_unchecked(m);
                        let mut after = Analysis::default();
                        incremental.analyse_after_into(&board, &parent, &mut after);
                        let want = fresh.analyse(&board, &[]);
                        assert_eq!(after.near, want.near, "{rule:?} {threats_only}\n{board}");
                        assert_eq!(after.moves, want.moves);
                        assert_eq!(after.proof, want.proof);
                        parent = after;
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 1000, "{compared} positions compared");
    }

    #[test]
    fn empty_board_offers_the_centre() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(pts(&b, &a.moves), vec![Point::new(7, 7)]);
        assert_eq!(a.proof, None);
    }

    #[test]
    fn near_points_cover_two_steps_around_the_stones() {
        let b = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(0, 0)]).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.moves.len(), 8, "3x3 corner minus the stone");
        let b = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.moves.len(), 24);
    }

    #[test]
    fn five_to_make_is_a_win_in_one() {
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            . x x x x . . .
            . o o o . . . .
            . . . . . . . o
            . . . . . . . .
            ",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Win(1)));
        assert_eq!(pts(&b, &a.moves), vec![Point::new(0, 1), Point::new(5, 1)]);
        // With one of them excluded (the root's blocked points), the other one still wins.
        let a = MoveGen::new().analyse(&b, &[b.index(Point::new(0, 1))]);
        assert_eq!(pts(&b, &a.moves), vec![Point::new(5, 1)]);
    }

    #[test]
    fn a_four_must_be_blocked_and_two_fives_lose() {
        // White to move; black has a four on row 1 with one open end.
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            o x x x x . . .
            . . . . . . o .
            . . . . . . . .
            . . . . . . . o
            ",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, None);
        assert_eq!(pts(&b, &a.moves), vec![Point::new(5, 1)]);
        // An open four: two fives to stop.
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . .
            . x x x x . . .
            . . . . . o o .
            . . . . . . . .
            o . . . . . . .
            ",
        )
        .unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Loss(2)));
        assert_eq!(pts(&b, &a.moves), vec![Point::new(0, 1), Point::new(5, 1)]);
    }

    #[test]
    fn renju_black_cannot_block_on_a_forbidden_point() {
        // White threatens a five at (4,4); for black that point is a double-three (forbidden).
        let b = Board::from_diagram(
            Rule::Renju,
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . x . . . . . .
            . . . . x . . . . . .
            o o o o . . . . . . .
            . . . . . x . . . . .
            . . . . . . x . . . .
            . . . . . . . . . . o
            . . . . . . . . . . o
            ",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let four = b.index(Point::new(4, 4));
        assert!(b.is_win_idx(four, Color::White));
        assert!(b.is_forbidden_idx(four), "double three for black\n{b}");
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Loss(2)));
        assert!(!a.moves.is_empty(), "black still needs some move to play");
        assert!(a.moves.iter().all(|&i| !b.is_forbidden_idx(i)));
    }

    #[test]
    fn renju_is_drawn_at_two_hundred_stones() {
        // Fill a 20x20 board row by row in pairs (xxoo...) so nothing lines up to five.
        let mut b = Board::new(20, 20, Rule::Renju).unwrap();
        let mut order = Vec::new();
        for y in 0..10u8 {
            for x in 0..20u8 {
                let black = ((x / 2) + y) % 2 == 0;
                order.push((Point::new(x, y * 2), black));
            }
        }
        let (blacks, whites): (Vec<_>, Vec<_>) = order.into_iter().partition(|&(_, k)| k);
        for (bp, wp) in blacks.iter().zip(&whites).take(100) {
            b.place(bp.0, Color::Black).unwrap();
            b.place(wp.0, Color::White).unwrap();
        }
        assert_eq!(b.stone_count(), 200);
        assert_eq!(MoveGen::new().analyse(&b, &[]).proof, Some(Proof::Draw));
        b.set_rule(Rule::Freestyle);
        assert_ne!(MoveGen::new().analyse(&b, &[]).proof, Some(Proof::Draw));
    }

    #[test]
    fn full_board_is_a_draw() {
        let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
        // Rows alternate xxoox / ooxxo patterns shifted so no line has five.
        let rows = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"];
        let mut blacks = Vec::new();
        let mut whites = Vec::new();
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                let p = Point::new(x as u8, y as u8);
                if c == 'x' {
                    blacks.push(p)
                } else {
                    whites.push(p)
                }
            }
        }
        for p in blacks {
            b.place(p, Color::Black).unwrap();
        }
        for p in whites {
            b.place(p, Color::White).unwrap();
        }
        assert!(b.is_full());
        let a = MoveGen::new().analyse(&b, &[]);
        assert_eq!(a.proof, Some(Proof::Draw));
        assert!(a.moves.is_empty());
    }

    #[test]
    fn a_live_three_leaves_only_its_stops_and_our_fours() {
        let p = Point::new;
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        // White's open three on row 7; black to move.
        for (black, white) in [((0, 14), (5, 7)), ((14, 0), (6, 7)), ((10, 12), (7, 7))] {
            b.place(p(black.0, black.1), Color::Black).unwrap();
            b.place(p(white.0, white.1), Color::White).unwrap();
        }
        assert_eq!(b.side_to_move(), Color::Black);
        let mut gen = MoveGen::new();
        let mut a = gen.analyse(&b, &[]);
        assert!(a.moves.len() > 10);
        gen.keep_three_defences(&mut b, &mut a);
        // Only the two points next to the three stop both open fours.
        assert_eq!(pts(&b, &a.moves), vec![p(4, 7), p(8, 7)]);
        assert_eq!(b.stone_count(), 6, "the board is as it was");

        // With a black three of its own elsewhere, black's fours are kept too.
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (black, white) in [((1, 1), (5, 7)), ((1, 2), (6, 7)), ((1, 3), (7, 7))] {
            b.place(p(black.0, black.1), Color::Black).unwrap();
            b.place(p(white.0, white.1), Color::White).unwrap();
        }
        let mut a = gen.analyse(&b, &[]);
        gen.keep_three_defences(&mut b, &mut a);
        let kept = pts(&b, &a.moves);
        assert!(
            kept.contains(&p(4, 7)) && kept.contains(&p(8, 7)),
            "{kept:?}"
        );
        assert!(
            kept.contains(&p(1, 0)) && kept.contains(&p(1, 4)),
            "{kept:?}"
        );
        assert!(!kept.contains(&p(3, 7)), "{kept:?}");
    }
}
