//! The classical player: one ply of threat-aware pattern scoring, no network.
//!
//! It wins at once when it can, blocks the opponent's five, prefers its own winning threats
//! (open four, double four, four-three) to defence, blocks the opponent's open-four points, and
//! otherwise plays the point with the best attack + defence pattern score. It is the engine's
//! network-free fallback, the MCTS's classical evaluator, and a baseline opponent.
use super::think::{Eval, SearchInfo, ThinkRequest, ThinkResult, Thinker};
use crate::game::{Board, Color, Pattern, Point, Threat};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Value of a point's combined threat, for the side that would play there.
pub fn threat_value(t: Threat) -> f32 {
    match t {
        Threat::Five => 1.0e7,
        Threat::OpenFour | Threat::DoubleFour => 1.0e5,
        Threat::FourThree => 9.5e4,
        Threat::DoubleThree => 1.2e4,
        Threat::Four => 2.0e3,
        Threat::OpenThree => 1.5e3,
        Threat::Three => 3.0e2,
        Threat::DoubleTwo => 2.0e2,
        Threat::OpenTwo => 1.0e2,
        Threat::Two => 2.0e1,
        Threat::None => 0.0,
    }
}

/// A finer, per-direction score that separates points of equal combined threat.
pub fn line_value(p: Pattern) -> f32 {
    match p {
        Pattern::Five => 1000.0,
        Pattern::OpenFour | Pattern::DoubleFour => 500.0,
        Pattern::Four => 120.0,
        Pattern::OpenThree => 100.0,
        Pattern::Three => 30.0,
        Pattern::OpenTwo => 12.0,
        Pattern::Two => 4.0,
        Pattern::Overline | Pattern::None => 0.0,
    }
}

/// Weight of defence against attack: a point we need is worth a bit more than one we deny.
const DEFENCE: f32 = 0.9;

/// Static score of playing `idx` for the side to move: attack plus weighted defence.
pub fn point_score(board: &Board, idx: usize, me: Color) -> f32 {
    point_score_from(
        board.patterns_idx(idx, me),
        board.patterns_idx(idx, me.opponent()),
    )
}

/// [`point_score`] from the four line patterns a stone of ours (`own`) and of the opponent's
/// (`theirs`) would make on the point, for callers that already have them.
pub fn point_score_from(own: [Pattern; 4], theirs: [Pattern; 4]) -> f32 {
    point_score_with(
        own,
        theirs,
        Threat::from_patterns(own),
        Threat::from_patterns(theirs),
    )
}

/// [`point_score_from`] when the combined threats are known too.
#[inline]
pub fn point_score_with(
    own: [Pattern; 4],
    theirs: [Pattern; 4],
    own_threat: Threat,
    their_threat: Threat,
) -> f32 {
    let lines: f32 = own
        .iter()
        .chain(theirs.iter())
        .map(|&p| line_value(p))
        .sum();
    threat_value(own_threat) + DEFENCE * threat_value(their_threat) + lines
}

/// Candidate moves for the side to move: legal, not blocked, within two points of a stone
/// (the centre on an empty board). Falls back to every legal point.
pub fn candidates(board: &Board, blocked: &[Point]) -> Vec<usize> {
    let blocked_idx: Vec<usize> = blocked
        .iter()
        .filter(|p| (p.x as usize) < board.width() && (p.y as usize) < board.height())
        .map(|&p| board.index(p))
        .collect();
    let mut near = Vec::new();
    let mut all = Vec::new();
    board.for_each_legal(|idx| {
        if blocked_idx.contains(&idx) {
            return;
        }
        all.push(idx);
        if has_neighbour(board, board.point(idx), 2) {
            near.push(idx);
        }
    });
    if board.stone_count() == 0 {
        let centre = Point::new((board.width() / 2) as u8, (board.height() / 2) as u8);
        let c = board.index(centre);
        if all.contains(&c) {
            return vec![c];
        }
    }
    if near.is_empty() {
        all
    } else {
        near
    }
}

fn has_neighbour(board: &Board, p: Point, radius: i32) -> bool {
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
            if (dx, dy) != (0, 0)
                && board.is_on_board(x, y)
                && board.get(Point::new(x as u8, y as u8)).is_some()
            {
                return true;
            }
        }
    }
    false
}

/// Picks a move by the rules in the module docs; returns it with its score, or `None` when
/// nothing is playable.
pub fn best_move(board: &Board, blocked: &[Point]) -> Option<(usize, f32)> {
    let me = board.side_to_move();
    let opp = me.opponent();
    let cands = candidates(board, blocked);
    if let Some(&win) = cands.iter().find(|&&i| board.is_win_idx(i, me)) {
        return Some((win, 1.0e9));
    }
    // The opponent's fives must be blocked (if there are two, we lose whatever we do).
    if let Some(&block) = cands.iter().find(|&&i| board.is_win_idx(i, opp)) {
        return Some((block, 1.0e8));
    }
    let centre = (board.width() as f32 / 2.0, board.height() as f32 / 2.0);
    cands
        .iter()
        .map(|&i| {
            let p = board.point(i);
            let off = (p.x as f32 - centre.0).abs() + (p.y as f32 - centre.1).abs();
            (i, point_score(board, i, me) - 0.01 * off)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// The classical player as a `Thinker`.
#[derive(Default)]
pub struct ClassicalPlayer;

impl Thinker for ClassicalPlayer {
    fn think(&mut self, request: &ThinkRequest, _stop: &AtomicBool) -> ThinkResult {
        let started = Instant::now();
        let board = &request.board;
        let me = board.side_to_move();
        let found = best_move(board, &request.blocked);
        let best = found.map(|(i, _)| board.point(i));
        let eval = match found {
            Some((i, _)) if board.is_win_idx(i, me) => Eval::Win(1),
            Some((_, score)) => {
                // A squashed score: a rough guide for the MESSAGE line, not a probability.
                let s = 1.0 / (1.0 + (-score / 3000.0).exp());
                Eval::Winrate {
                    win: s,
                    draw: 0.0,
                    loss: 1.0 - s,
                }
            }
            None => Eval::Draw,
        };
        ThinkResult {
            best,
            info: SearchInfo {
                depth_min: 1,
                depth_max: 1,
                eval,
                nodes: candidates(board, &request.blocked).len() as u64,
                elapsed: started.elapsed(),
                pv: best.map(|p| vec![(me, p)]).unwrap_or_default(),
            },
            ranked: found
                .map(|(i, s)| vec![(board.point(i), s)])
                .unwrap_or_default(),
            visits: Vec::new(),
        }
    }

    fn clear(&mut self) {}

    fn name(&self) -> &str {
        "classical"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MoveOutcome, Rule};
    use crate::search::Limits;
    use rand::{Rng, SeedableRng};

    /// The one-ply player beats a random mover every time, on every rule, with either colour.
    #[test]
    fn beats_a_random_mover_every_time() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let stop = AtomicBool::new(false);
        for rule in Rule::ALL {
            for game in 0..4 {
                let classical = if game % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let mut board = Board::new(15, 15, rule).unwrap();
                let winner = loop {
                    let p = if board.side_to_move() == classical {
                        let request = ThinkRequest {
                            board: board.clone(),
                            blocked: Vec::new(),
                            limits: Limits::infinite(1),
                        };
                        ClassicalPlayer.think(&request, &stop).best.unwrap()
                    } else {
                        let legal = board.legal_moves();
                        legal[rng.gen_range(0..legal.len())]
                    };
                    match board.play(p).unwrap() {
                        MoveOutcome::Ongoing => {}
                        MoveOutcome::Win(c) => break Some(c),
                        MoveOutcome::ForbiddenLoss => break Some(board.side_to_move()),
                        MoveOutcome::Draw => break None,
                    }
                };
                assert_eq!(winner, Some(classical), "{rule} game {game}:\n{board}");
            }
        }
    }
}
