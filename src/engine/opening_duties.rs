//! Opening duties decided by the search: balancing stones (BALANCE, yxbalanceone/two), the swap
//! and swap2 openings (SWAPBOARD, SWAP2BOARD, yxswap2step1..3).
//!
//! Every decision is a handful of short searches through the [`Thinker`], sharing one deadline,
//! so each step obeys the clock and gets better as the search does.
use crate::game::{Board, MoveOutcome, Point};
use crate::search::{Limits, ThinkRequest, Thinker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Candidate stones examined for each balancing stone.
const BALANCE_CANDIDATES: usize = 6;
/// A position whose expected score is this close to 0.5 counts as balanced for swap decisions.
const SWAP_MARGIN: f32 = 0.1;
/// Least time given to one evaluation, even when the deadline is near.
const MIN_EVAL: Duration = Duration::from_millis(5);

/// What an opening step answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningAnswer {
    /// Take the other colour.
    Swap,
    /// Stones to place (or the move to play), in order.
    Moves(Vec<Point>),
    /// The position or the request is not valid.
    Error(String),
}

/// The shared resources of one opening step.
pub struct Step<'a> {
    pub thinker: &'a mut dyn Thinker,
    pub stop: &'a AtomicBool,
    /// When the whole step must be answered.
    pub deadline: Option<Instant>,
    pub threads: usize,
    pub max_memory: Option<u64>,
    /// Points the GUI forbade (`yxblock`): never proposed as a stone or a move.
    pub blocked: Vec<Point>,
}

impl Step<'_> {
    /// Limits for one of `remaining` evaluations still to run before the deadline.
    fn limits(&self, remaining: usize) -> Limits {
        let mut limits = Limits::infinite(self.threads);
        limits.max_memory_bytes = self.max_memory;
        // What one evaluation saves goes to the ones after it.
        limits.saved_time_banked = true;
        let now = Instant::now();
        let share = match self.deadline {
            Some(d) => d.saturating_duration_since(now) / remaining.max(1) as u32,
            // No clock: a fixed, modest effort per evaluation.
            None => Duration::from_millis(300),
        };
        let at = now + share.max(MIN_EVAL);
        limits.target = Some(at);
        limits.hard = Some(match self.deadline {
            Some(d) => at.min(d.max(now + MIN_EVAL)),
            None => at,
        });
        limits
    }

    /// Expected score for the side to move in `board` (0 = lost, 1 = won), with the search's
    /// ranked moves.
    fn evaluate(&mut self, board: &Board, remaining: usize) -> (f32, Vec<Point>) {
        let request = ThinkRequest {
            board: board.clone(),
            blocked: self.blocked.clone(),
            limits: self.limits(remaining),
        };
        let result = self.thinker.think(&request, self.stop);
        let mut ranked: Vec<Point> = result.ranked.iter().map(|&(p, _)| p).collect();
        if let Some(best) = result.best {
            if !ranked.contains(&best) {
                ranked.insert(0, best);
            }
        }
        (result.info.eval.score(), ranked)
    }

    /// `n` stones, alternating colours from the side to move, after which the position is as
    /// balanced as the search can tell.
    pub fn balance(&mut self, board: &Board, n: usize) -> Vec<Point> {
        let mut board = board.clone();
        let mut placed = Vec::with_capacity(n);
        for k in 0..n {
            let remaining = (n - k) * (BALANCE_CANDIDATES + 1);
            let centre = Point::new((board.width() / 2) as u8, (board.height() / 2) as u8);
            let p = if board.stone_count() == 0 && !self.blocked.contains(&centre) {
                centre
            } else {
                self.most_balancing(&board, remaining)
            };
            if board.play(p).is_err() {
                break;
            }
            placed.push(p);
        }
        placed
    }

    /// The candidate stone whose resulting position scores closest to 0.5.
    fn most_balancing(&mut self, board: &Board, remaining: usize) -> Point {
        let (_, ranked) = self.evaluate(board, remaining);
        let usable = |p: &Point| quiet_move(board, *p) && !self.blocked.contains(p);
        let mut candidates: Vec<Point> = ranked
            .into_iter()
            .filter(usable)
            .take(BALANCE_CANDIDATES)
            .collect();
        if candidates.is_empty() {
            candidates = board
                .legal_moves()
                .into_iter()
                .filter(usable)
                .take(BALANCE_CANDIDATES)
                .collect();
        }
        let fallback = candidates
            .first()
            .copied()
            .or_else(|| {
                let legal = board.legal_moves();
                let open = legal.iter().find(|p| !self.blocked.contains(p));
                open.or(legal.first()).copied()
            })
            .unwrap_or(Point::new(0, 0));
        let mut best = (f32::INFINITY, fallback);
        for (i, &c) in candidates.iter().enumerate() {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let mut next = board.clone();
            if next.play(c).is_err() {
                continue;
            }
            let (score, _) = self.evaluate(&next, remaining.saturating_sub(i + 1).max(1));
            let imbalance = (score - 0.5).abs();
            if imbalance < best.0 {
                best = (imbalance, c);
            }
        }
        best.1
    }
}

/// A legal move that does not end the game (balancing stones must leave a game to play).
fn quiet_move(board: &Board, p: Point) -> bool {
    board.get(p).is_none()
        && !board.is_forbidden(p)
        && board.outcome_of(p, board.side_to_move()) == MoveOutcome::Ongoing
}

/// Builds the position of an opening: stones alternate black, white, black… in the order given.
pub fn opening_board(template: &Board, stones: &[Point]) -> Result<Board, String> {
    let mut board = Board::new(template.width(), template.height(), template.rule())
        .map_err(|e| e.to_string())?;
    for &p in stones {
        if (p.x as usize) >= board.width() || (p.y as usize) >= board.height() {
            return Err(format!("{p} is off the board"));
        }
        match board.play(p) {
            Ok(MoveOutcome::Ongoing) => {}
            Ok(_) => return Err(format!("{p} ends the game: not an opening")),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(board)
}

/// SWAP2BOARD (003 3.6): 0 stones → propose three; 3 → swap, play the 4th, or add the 4th and
/// 5th; 5 → swap or play the 6th.
pub fn swap2(step: &mut Step, board: &Board) -> OpeningAnswer {
    match board.stone_count() {
        0 => OpeningAnswer::Moves(step.balance(board, 3)),
        3 => {
            let (score, ranked) = step.evaluate(board, 4);
            if score < 0.5 - SWAP_MARGIN {
                OpeningAnswer::Swap
            } else if score > 0.5 + SWAP_MARGIN {
                first_quiet(board, ranked, &step.blocked)
            } else {
                OpeningAnswer::Moves(step.balance(board, 2))
            }
        }
        5 => swap_or_play(step, board),
        n => OpeningAnswer::Error(format!("SWAP2BOARD with {n} stones: expected 0, 3 or 5")),
    }
}

/// SWAPBOARD (003 3.7): 0 stones → propose three; 3 → swap or play the 4th.
pub fn swap(step: &mut Step, board: &Board) -> OpeningAnswer {
    match board.stone_count() {
        0 => OpeningAnswer::Moves(step.balance(board, 3)),
        3 => swap_or_play(step, board),
        n => OpeningAnswer::Error(format!("SWAPBOARD with {n} stones: expected 0 or 3")),
    }
}

/// Keep the side to move and play, or swap when the other side stands better.
fn swap_or_play(step: &mut Step, board: &Board) -> OpeningAnswer {
    let (score, ranked) = step.evaluate(board, 1);
    if score < 0.5 {
        OpeningAnswer::Swap
    } else {
        first_quiet(board, ranked, &step.blocked)
    }
}

fn first_quiet(board: &Board, ranked: Vec<Point>, blocked: &[Point]) -> OpeningAnswer {
    let open = |p: &Point| !blocked.contains(p);
    let any = board.legal_moves();
    match ranked
        .into_iter()
        .filter(open)
        .find(|&p| board.get(p).is_none() && !board.is_forbidden(p))
        .or_else(|| any.iter().copied().find(open))
        .or_else(|| any.first().copied())
    {
        Some(p) => OpeningAnswer::Moves(vec![p]),
        None => OpeningAnswer::Error("no legal move".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use crate::search::one_ply::ClassicalPlayer;

    fn step<'a>(thinker: &'a mut dyn Thinker, stop: &'a AtomicBool) -> Step<'a> {
        Step {
            thinker,
            stop,
            deadline: Some(Instant::now() + Duration::from_millis(500)),
            threads: 1,
            max_memory: None,
            blocked: Vec::new(),
        }
    }

    #[test]
    fn balance_places_n_distinct_legal_quiet_stones() {
        let mut thinker = ClassicalPlayer;
        let stop = AtomicBool::new(false);
        let board = Board::new(15, 15, Rule::Renju).unwrap();
        for n in [1, 2, 3, 5] {
            let stones = step(&mut thinker, &stop).balance(&board, n);
            assert_eq!(stones.len(), n);
            let built = opening_board(&board, &stones).expect("a valid opening");
            assert_eq!(built.stone_count(), n);
        }
    }

    #[test]
    fn balance_never_proposes_a_blocked_point() {
        let mut thinker = ClassicalPlayer;
        let stop = AtomicBool::new(false);
        let board = Board::new(15, 15, Rule::Freestyle).unwrap();
        // The whole middle of the board is blocked, centre included.
        let blocked: Vec<Point> = (4..11)
            .flat_map(|y| (4..11).map(move |x| Point::new(x, y)))
            .collect();
        let mut s = step(&mut thinker, &stop);
        s.blocked = blocked.clone();
        let stones = s.balance(&board, 3);
        assert_eq!(stones.len(), 3);
        assert!(stones.iter().all(|p| !blocked.contains(p)), "{stones:?}");
        let three = opening_board(&board, &stones).unwrap();
        let mut s = step(&mut thinker, &stop);
        s.blocked = blocked.clone();
        if let OpeningAnswer::Moves(m) = swap(&mut s, &three) {
            assert!(m.iter().all(|p| !blocked.contains(p)), "{m:?}");
        }
    }

    #[test]
    fn swap2_answers_every_case() {
        let mut thinker = ClassicalPlayer;
        let stop = AtomicBool::new(false);
        let empty = Board::new(15, 15, Rule::Freestyle).unwrap();
        let OpeningAnswer::Moves(three) = swap2(&mut step(&mut thinker, &stop), &empty) else {
            panic!("case 1 must propose stones");
        };
        assert_eq!(three.len(), 3);
        let b3 = opening_board(&empty, &three).unwrap();
        match swap2(&mut step(&mut thinker, &stop), &b3) {
            OpeningAnswer::Swap => {}
            OpeningAnswer::Moves(m) => {
                assert!(m.len() == 1 || m.len() == 2);
                let mut all = three.clone();
                all.extend(m);
                opening_board(&empty, &all).unwrap();
            }
            OpeningAnswer::Error(e) => panic!("{e}"),
        }
        let five = [(7, 7), (8, 8), (6, 8), (9, 6), (7, 9)].map(|(x, y)| Point::new(x, y));
        let b5 = opening_board(&empty, &five).unwrap();
        match swap2(&mut step(&mut thinker, &stop), &b5) {
            OpeningAnswer::Swap => {}
            OpeningAnswer::Moves(m) => assert_eq!(m.len(), 1),
            OpeningAnswer::Error(e) => panic!("{e}"),
        }
        let b1 = opening_board(&empty, &five[..1]).unwrap();
        assert!(matches!(
            swap2(&mut step(&mut thinker, &stop), &b1),
            OpeningAnswer::Error(_)
        ));
    }

    #[test]
    fn opening_board_rejects_bad_stones() {
        let empty = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert!(opening_board(&empty, &[Point::new(1, 1), Point::new(1, 1)]).is_err());
        assert!(opening_board(&empty, &[Point::new(15, 1)]).is_err());
    }
}
