//! The classical evaluator: priors from the one-ply pattern score (`one_ply::point_score`)
//! through a softmax over the moves, value from the balance of threats and shapes.
use super::{softmax_in_place, Evaluator, Leaf, LeafEvaluator};
use super::{NearCursor, NearPoint, Wdl};
use crate::game::{Board, Color, Pattern, Threat};
use crate::search::one_ply::{line_value, point_score_with};

/// The network-free evaluator (the default).
#[derive(Clone, Debug)]
pub struct ClassicalEvaluator {
    sharpness: f32,
}

impl ClassicalEvaluator {
    /// `sharpness` scales the log-scores before the softmax (1 is a good default).
    pub fn new(sharpness: f32) -> ClassicalEvaluator {
        ClassicalEvaluator { sharpness }
    }

    /// One search thread's part.
    pub fn leaf(&self) -> ClassicalLeaf {
        ClassicalLeaf::new(self.sharpness)
    }
}

impl Default for ClassicalEvaluator {
    fn default() -> ClassicalEvaluator {
        ClassicalEvaluator::new(1.0)
    }
}

impl Evaluator for ClassicalEvaluator {
    fn name(&self) -> &str {
        "classical"
    }

    fn leaf_evaluator(&self) -> Box<dyn LeafEvaluator> {
        Box::new(self.leaf())
    }
}

/// The classical evaluator's per-thread part (stateless apart from its setting).
#[derive(Clone, Debug)]
pub struct ClassicalLeaf {
    sharpness: f32,
}

impl ClassicalLeaf {
    pub fn new(sharpness: f32) -> ClassicalLeaf {
        ClassicalLeaf { sharpness }
    }

    /// Priors only (also the network evaluator's fallback). `near` may hold the moves' line
    /// patterns already (in board order); missing ones are read from the board.
    pub fn priors(
        &self,
        board: &Board,
        moves: &[usize],
        near: &[NearPoint],
        priors: &mut Vec<f32>,
    ) {
        priors.clear();
        if moves.len() == 1 {
            priors.push(1.0);
            return;
        }
        let me = board.side_to_move();
        let opp = me.opponent();
        let mut cursor = NearCursor::new(near);
        priors.extend(moves.iter().map(|&m| {
            let point = match cursor.get(m) {
                Some(&n) => n,
                None => NearPoint::read(board, m),
            };
            let s = point_score_with(
                point.patterns(me),
                point.patterns(opp),
                point.threat(me),
                point.threat(opp),
            );
            // Threat values span 1e1..1e7: a log keeps the softmax from collapsing onto one move
            // while still ranking a five far above a four far above a three.
            self.sharpness * (1.0 + s).ln()
        }));
        softmax_in_place(priors);
    }
}

impl LeafEvaluator for ClassicalLeaf {
    fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
        self.priors(leaf.board, leaf.moves, leaf.near, priors);
        static_value(leaf.board, leaf.near)
    }
}

/// What one side could make on the empty points near the stones.
#[derive(Default, Debug)]
struct SideThreats {
    fives: u32,
    /// Points making an open four or a double four (a win next move).
    open_fours: u32,
    four_threes: u32,
    fours: u32,
    double_threes: u32,
    /// Sum of the line shapes over the points: a measure of latent attack.
    shape: f32,
}

fn side_threats(board: &Board, near: &[NearPoint], color: Color) -> SideThreats {
    let mut t = SideThreats::default();
    let renju_black = color == Color::Black && board.rule().has_forbidden();
    for n in near {
        t.shape += n
            .patterns(color)
            .iter()
            .map(|&p| {
                if p == Pattern::Five {
                    0.0
                } else {
                    line_value(p)
                }
            })
            .sum::<f32>();
        let threat = n.threat(color);
        if threat < Threat::DoubleThree {
            continue;
        }
        // Black's double-threes and double-fours are only assets when they are legal.
        if renju_black && threat != Threat::Five && board.is_forbidden_idx(n.idx) {
            continue;
        }
        match threat {
            Threat::Five => t.fives += 1,
            Threat::OpenFour | Threat::DoubleFour => t.open_fours += 1,
            Threat::FourThree => t.four_threes += 1,
            Threat::Four => t.fours += 1,
            Threat::DoubleThree => t.double_threes += 1,
            _ => {}
        }
    }
    t
}

/// Chance that `a`, to move, wins against `b` (neither has a five to make).
fn initiative_value(a: &SideThreats, b: &SideThreats) -> f32 {
    // `b`'s fours are counter-threats that can delay or turn `a`'s attack.
    let b_counters = b.fours + b.four_threes + b.open_fours > 0;
    let a_fours = a.fours + a.four_threes + a.open_fours > 0;
    if a.open_fours > 0 {
        return if b_counters { 0.85 } else { 0.95 };
    }
    if a.four_threes > 0 {
        return if b_counters { 0.78 } else { 0.9 };
    }
    if b.open_fours > 0 {
        // `b` has an open three: `a` must answer it (or attack with fours); two of them are
        // rarely answerable.
        let several = b.open_fours >= 4 || b.four_threes > 0;
        return match (several, a_fours || a.double_threes > 0) {
            (true, false) => 0.12,
            (true, true) => 0.25,
            (false, false) => 0.3,
            (false, true) => 0.4,
        };
    }
    if a.double_threes > 0 {
        return if b_counters { 0.7 } else { 0.82 };
    }
    let mut balance = 1.15 * a.shape - b.shape;
    if b.four_threes > 0 || b.double_threes > 0 {
        balance -= 400.0;
    }
    1.0 / (1.0 + (-balance / 800.0).exp())
}

/// The static outcome estimate for the side to move.
pub(crate) fn static_value(board: &Board, near: &[NearPoint]) -> Wdl {
    let me = board.side_to_move();
    let mine = side_threats(board, near, me);
    let theirs = side_threats(board, near, me.opponent());
    let win = if mine.fives > 0 {
        0.99
    } else if theirs.fives > 1 {
        0.01
    } else if theirs.fives == 1 {
        // We must block; then they move with the initiative.
        0.05 + 0.9 * (1.0 - initiative_value(&theirs, &mine))
    } else {
        initiative_value(&mine, &theirs)
    };
    let area = (board.width() * board.height()) as f32;
    let fill = board.stone_count() as f32 / area;
    let draw = 0.8 * fill.powi(4);
    Wdl::new(win * (1.0 - draw), draw, (1.0 - win) * (1.0 - draw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Point, Rule};
    use crate::search::mcts::MoveGen;

    fn value_of(diagram: &str) -> f32 {
        let b = Board::from_diagram(Rule::Freestyle, diagram).unwrap();
        let a = MoveGen::new().analyse(&b, &[]);
        let v = static_value(&b, &a.near);
        assert!((v.win + v.draw + v.loss - 1.0).abs() < 1e-5);
        v.win
    }

    #[test]
    fn open_three_to_move_is_good_and_facing_one_is_bad() {
        // Black to move with an open three: black makes an open four next.
        let attack = value_of(
            "
            . . . . . . . . .
            . . x x x . . . .
            . . . . . . . . .
            . . o . . o . o .
            . . . . . . . . .
            ",
        );
        assert!(attack > 0.85, "{attack}");
        // White to move facing black's open three, with nothing of its own.
        let defend = value_of(
            "
            . . . . . . . . o
            . . x x x . . . .
            . . . . . . . . .
            . o . . . o . . .
            . . . . . . . . x
            ",
        );
        assert!(defend < 0.45, "{defend}");
    }

    #[test]
    fn priors_favour_the_winning_and_blocking_points() {
        let b = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . . x x x x . . .
            . . o o o . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        )
        .unwrap();
        // White to move: must block at (1,1) or (6,1).
        let a = MoveGen::new().analyse(&b, &[]);
        let mut priors = Vec::new();
        let all: Vec<usize> = a.near.iter().map(|n| n.idx).collect();
        let leaf = Leaf {
            board: &b,
            moves: &all,
            near: &a.near,
        };
        ClassicalLeaf::new(1.0).evaluate(&leaf, &mut priors);
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        let best = all[priors
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.total_cmp(y.1))
            .unwrap()
            .0];
        let p = b.point(best);
        assert!(p == Point::new(1, 1) || p == Point::new(6, 1), "{p}");
    }
}
