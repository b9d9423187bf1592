//! The threat-staged move picker: which moves a position leaves worth searching, decided by the
//! threats on the board before any evaluation (the staging Rapfi's searches share):
//!
//! 1. the rules decide (a five to make, two fives to stop, a full board): the result;
//! 2. the opponent threatens a five: only the block (a forced reply);
//! 3. we have an open four or a double four to make (and the opponent no five): a win in 3;
//! 4. the opponent has a point that makes an open four, a double four or a four-three: only the
//!    moves after which no such point is left, plus our own fours (anything else loses to it);
//!    against a four-three, also our threes (the forced block of its four may then make a four
//!    of ours), and no narrowing at all where that block already makes one; nothing left against
//!    an open or double four: a loss in 4;
//! 5. otherwise every move of the candidate area.
//!
//! Renju: black's forbidden points are neither threats nor defences for black.
use crate::game::{Board, Color, Threat};
use crate::search::evaluator::NearCursor;
use crate::search::mcts::{on_a_line_within_five, Analysis, MoveGen, Proof};

/// What the picker left in an [`Analysis`]'s `moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The position is decided (the moves realise the result, if any).
    Decided(Proof),
    /// The one move that stops the opponent's five.
    Forced,
    /// The defences of an opponent's threat point and our own fours.
    Defending,
    /// Every move of the candidate area.
    Open,
}

/// Per-thread scratch of the picker.
#[derive(Default)]
pub struct Picker {
    pub gen: MoveGen,
    /// The opponent's points that make an open four or a double four, and its four-three points.
    sure: Vec<usize>,
    four_threes: Vec<usize>,
    kept: Vec<usize>,
}

/// A stone of `color` on this point would win outright unless stopped at once.
fn winning_threat(t: Threat) -> bool {
    matches!(t, Threat::OpenFour | Threat::DoubleFour)
}

impl Picker {
    pub fn new() -> Picker {
        Picker::default()
    }

    /// Analyses `board` for the side to move into `a` and narrows `a.moves` by the stages of
    /// the module docs. `exclude`: points the side to move may not play (the root's blocked
    /// points). `board` is played on and restored.
    pub fn pick(&mut self, board: &mut Board, exclude: &[usize], a: &mut Analysis) -> Stage {
        self.gen.analyse_into(board, exclude, a);
        self.stage(board, a)
    }

    /// [`Picker::pick`] (nothing excluded) of `board` one stone on from the position `parent`
    /// holds this picker's analysis of: the same stage and moves, the analysis taken from the
    /// parent's ([`MoveGen::analyse_after_into`]).
    pub fn pick_after(&mut self, board: &mut Board, parent: &Analysis, a: &mut Analysis) -> Stage {
        self.gen.analyse_after_into(board, parent, a);
        self.stage(board, a)
    }

    /// Narrows the analysed `a.moves` by the stages of the module docs.
    fn stage(&mut self, board: &mut Board, a: &mut Analysis) -> Stage {
        if let Some(proof) = a.proof {
            return Stage::Decided(proof);
        }
        let me = board.side_to_move();
        let opp = me.opponent();
        if a.near.iter().any(|n| n.threat(opp) == Threat::Five) {
            return Stage::Forced;
        }
        // `a.moves` holds only legal points (renju: no forbidden point for black).
        let mut mine = NearCursor::new(&a.near);
        let mut wins = a
            .moves
            .iter()
            .copied()
            .filter(|&m| winning_threat(mine.threat(m, me)));
        if let Some(w) = wins.next() {
            a.moves.clear();
            a.moves.push(w);
            return Stage::Decided(Proof::Win(3));
        }
        let renju_black_opp = opp == Color::Black && board.rule().has_forbidden();
        let opp_may = |board: &Board, s: usize| !(renju_black_opp && board.is_forbidden_idx(s));
        self.sure.clear();
        self.four_threes.clear();
        for n in &a.near {
            match n.threat(opp) {
                Threat::OpenFour | Threat::DoubleFour if opp_may(board, n.idx) => {
                    self.sure.push(n.idx)
                }
                Threat::FourThree if opp_may(board, n.idx) => self.four_threes.push(n.idx),
                _ => {}
            }
        }
        // A four-three is answered by the block of its four; where that block makes a four of
        // ours, the counter-attack may refute it, and no move is known to lose.
        let countered = self.four_threes.iter().any(|&s| {
            board
                .place(board.point(s), opp)
                .expect("a near point is empty");
            let blocks = board.fives_near(s, opp);
            board.undo();
            blocks
                .iter()
                .any(|&b| board.threat_idx(b, me) >= Threat::Four)
        });
        if countered {
            self.four_threes.clear();
        }
        if self.sure.is_empty() && self.four_threes.is_empty() {
            return Stage::Open;
        }
        let row = board.dir_step(1);
        let line_near = |m: usize, s: usize| on_a_line_within_five(row, m, s);
        let stops = |board: &Board, points: &[usize], m: usize, threats: &[Threat]| {
            points.iter().all(|&s| {
                s == m || !threats.contains(&board.threat_idx(s, opp)) || !opp_may(board, s)
            })
        };
        const SURE: [Threat; 3] = [Threat::OpenFour, Threat::DoubleFour, Threat::FourThree];
        const FOUR_THREE: [Threat; 3] = SURE;
        self.kept.clear();
        let mut cursor = NearCursor::new(&a.near);
        for &m in &a.moves {
            let mine = cursor.threat(m, me);
            if mine >= Threat::Four {
                self.kept.push(m);
                continue;
            }
            // A three of ours may turn the block of a four-three into a four.
            let may_counter = mine >= Threat::Three;
            let reach = |points: &[usize]| points.iter().all(|&s| line_near(m, s));
            if !reach(&self.sure) || !(may_counter || reach(&self.four_threes)) {
                continue;
            }
            board.play_unchecked(m);
            let kept = stops(board, &self.sure, m, &SURE)
                && (may_counter || stops(board, &self.four_threes, m, &FOUR_THREE));
            board.undo();
            if kept {
                self.kept.push(m);
            }
        }
        if self.kept.is_empty() {
            if !self.sure.is_empty() {
                // The open four (or double four) cannot be stopped and we have no four.
                return Stage::Decided(Proof::Loss(4));
            }
            return Stage::Open;
        }
        std::mem::swap(&mut a.moves, &mut self.kept);
        Stage::Defending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MoveOutcome, Point, Rule};
    use crate::solver::{Budget, Solver};

    fn pts(board: &Board, v: &[usize]) -> Vec<Point> {
        let mut p: Vec<Point> = v.iter().map(|&i| board.point(i)).collect();
        p.sort_by_key(|p| (p.y, p.x));
        p
    }

    #[test]
    fn the_near_cursor_finds_what_a_search_finds_in_any_order() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9), (6, 6)] {
            b.play(Point::new(x, y)).unwrap();
        }
        let mut a = Analysis::default();
        MoveGen::default().analyse_into(&b, &[], &mut a);
        assert!(a.near.len() > 20 && a.near.windows(2).all(|w| w[0].idx < w[1].idx));
        let search = |i: usize| a.near.binary_search_by_key(&i, |n| n.idx).ok();
        let all: Vec<usize> = (0..b.index_len()).collect();
        let mut shuffled = all.clone();
        shuffled.reverse();
        shuffled.rotate_left(100);
        let mut cursor = NearCursor::new(&a.near);
        for &i in all.iter().chain(&shuffled).chain(&all) {
            let want = search(i).map(|k| a.near[k].idx);
            assert_eq!(cursor.get(i).map(|n| n.idx), want, "{i}");
        }
    }

    #[test]
    fn an_open_three_leaves_its_stops_and_a_four_three_point_its_defences() {
        let p = Point::new;
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (black, white) in [((0, 14), (5, 7)), ((14, 0), (6, 7)), ((10, 12), (7, 7))] {
            b.place(p(black.0, black.1), Color::Black).unwrap();
            b.place(p(white.0, white.1), Color::White).unwrap();
        }
        let mut picker = Picker::new();
        let mut a = Analysis::default();
        assert_eq!(picker.pick(&mut b, &[], &mut a), Stage::Defending);
        assert_eq!(pts(&b, &a.moves), vec![p(4, 7), p(8, 7)]);
        assert_eq!(b.stone_count(), 6, "the board is as it was");
        // Black to move, white threatens a five: the block only.
        let mut b = Board::from_diagram(
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
        assert_eq!(picker.pick(&mut b, &[], &mut a), Stage::Forced);
        assert_eq!(pts(&b, &a.moves), vec![p(5, 1)]);
        // Black to move (white's extra stone) with an open three of its own: a win in 3.
        let mut b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . . o
            . . x x x . . . . .
            . . . . . . . . . .
            . o . o . o . . . .
            . . . . . . . o . .
            ",
        )
        .unwrap();
        assert_eq!(
            picker.pick(&mut b, &[], &mut a),
            Stage::Decided(Proof::Win(3))
        );
    }

    /// Middle games of random play, stopped before anyone has five.
    fn random_boards(rule: Rule, count: usize, seed: u64) -> Vec<Board> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let mut b = Board::new(15, 15, rule).unwrap();
                let stones = rng.gen_range(10..50);
                for _ in 0..10_000 {
                    if b.stone_count() >= stones {
                        break;
                    }
                    let q = Point::new(rng.gen_range(3..12), rng.gen_range(3..12));
                    if b.is_empty(q) && b.outcome_of(q, b.side_to_move()) == MoveOutcome::Ongoing {
                        b.play(q).unwrap();
                    }
                }
                b
            })
            .collect()
    }

    /// The solver as the judge: every move the picker drops loses to a VCF (after it, the
    /// opponent wins by fours, or by an open four it now makes), and a proven loss has no
    /// move that escapes.
    #[test]
    fn no_move_the_picker_drops_survives_the_solver() {
        let mut picker = Picker::new();
        let mut solver = Solver::new();
        let mut a = Analysis::default();
        let (mut narrowed, mut dropped_checked) = (0, 0);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for mut b in random_boards(rule, 400, 11) {
                let stage = picker.pick(&mut b, &[], &mut a);
                if stage != Stage::Defending && stage != Stage::Decided(Proof::Loss(4)) {
                    continue;
                }
                narrowed += 1;
                let kept = a.moves.clone();
                let all = picker.gen.analyse(&b, &[]).moves;
                let me = b.side_to_move();
                for m in all.into_iter().filter(|m| !kept.contains(m)) {
                    // Our four is always kept; a dropped move lets the opponent's threat stand.
                    b.play_unchecked(m);
                    let opp = me.opponent();
                    let lost = !b.five_points(opp).is_empty()
                        || solver
                            .vct(&b, opp, Budget::nodes(200_000).with_depth(2))
                            .is_win();
                    b.undo();
                    assert!(lost, "{:?} escapes\n{b}", b.point(m));
                    dropped_checked += 1;
                }
            }
        }
        assert!(
            narrowed > 10,
            "positions with threats to defend ({narrowed})"
        );
        assert!(
            dropped_checked > 100,
            "dropped moves checked ({dropped_checked})"
        );
    }
}
