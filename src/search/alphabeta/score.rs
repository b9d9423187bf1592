//! The alpha-beta's scores: the evaluator's win/draw/loss as an integer from -1000 to 1000 for
//! the side to move, and mate scores above everything else that keep their distance.
use crate::search::evaluator::Wdl;
use crate::search::Eval;

/// A win on the board now (never a score itself: a win in `n` plies is `MATE - n`).
pub const MATE: i32 = 30_000;
/// Wider than every score.
pub const INFINITY: i32 = 31_000;
/// The deepest line the search follows.
pub const MAX_PLY: i32 = 120;
/// The range of evaluations (a certain win by the evaluator's judgement).
pub const EVAL_SCALE: f32 = 1000.0;

/// Whether `score` is a proven result.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE - 2 * MAX_PLY
}

/// The win in `plies` plies from here.
pub fn win_in(plies: i32) -> i32 {
    MATE - plies
}

/// The loss in `plies` plies from here.
pub fn loss_in(plies: i32) -> i32 {
    -MATE + plies
}

/// The evaluator's estimate for the side to move, a draw counted at `draw_value` (-1 to 1).
pub fn from_wdl(wdl: Wdl, draw_value: f32) -> i32 {
    let v = wdl.win - wdl.loss + draw_value * wdl.draw;
    (v.clamp(-1.0, 1.0) * EVAL_SCALE).round() as i32
}

/// A score as the search's verdict on the root (what MESSAGE and the analysis answers show).
pub fn to_eval(score: i32) -> Eval {
    if is_mate(score) {
        let plies = (MATE - score.abs()).max(1) as u32;
        return if score > 0 {
            Eval::Win(plies)
        } else {
            Eval::Loss(plies)
        };
    }
    let v = score as f32 / EVAL_SCALE;
    let win = ((1.0 + v) / 2.0).clamp(0.0, 1.0);
    Eval::Winrate {
        win,
        draw: 0.0,
        loss: 1.0 - win,
    }
}

/// A score in [0, 1] (the ranked moves of a multi-PV answer).
pub fn to_unit(score: i32) -> f32 {
    to_eval(score).score()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_and_evaluations_read_back() {
        assert_eq!(to_eval(win_in(5)), Eval::Win(5));
        assert_eq!(to_eval(loss_in(2)), Eval::Loss(2));
        assert!(is_mate(win_in(MAX_PLY)) && !is_mate(999));
        assert_eq!(from_wdl(Wdl::new(0.75, 0.0, 0.25), 0.0), 500);
        assert_eq!(from_wdl(Wdl::DRAW, -0.8), -800);
        assert!((to_unit(500) - 0.75).abs() < 1e-6);
        assert_eq!(to_unit(win_in(3)), 1.0);
    }
}
