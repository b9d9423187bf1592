//! Playout throughput of the tree search, for `pbrain-hoshi bench`.
use std::sync::atomic::AtomicBool;

use super::classical::best_move;
use super::mcts::MctsThinker;
use super::think::{Limits, ThinkRequest, Thinker};
use crate::game::{Board, MoveOutcome, Point, Rule};

/// Middle-game positions on 15x15 (freestyle and renju): short openings continued by the
/// classical player, so they look like positions a search meets.
pub fn bench_positions() -> Vec<Board> {
    let openings: [&[(u8, u8)]; 3] = [
        &[(7, 7), (8, 8), (8, 6)],
        &[(7, 7), (7, 8), (9, 7)],
        &[(7, 7), (6, 8), (6, 6), (8, 8)],
    ];
    let mut out = Vec::new();
    for (k, opening) in openings.iter().enumerate() {
        let rule = if k == 1 { Rule::Renju } else { Rule::Freestyle };
        let mut board = Board::new(15, 15, rule).expect("15x15 is a valid size");
        for &(x, y) in opening.iter() {
            board
                .play(Point::new(x, y))
                .expect("opening moves are legal");
        }
        for _ in 0..14 {
            let Some((i, _)) = best_move(&board, &[]) else {
                break;
            };
            let p = board.point(i);
            let mut next = board.clone();
            if next.play(p) != Ok(MoveOutcome::Ongoing) {
                break;
            }
            board = next;
        }
        out.push(board);
    }
    out
}

/// Playouts per second of `thinker` with `threads` threads, searching each position afresh for
/// `seconds_each` (smart stopping off, so every search runs its full time).
pub fn playouts_per_second(
    thinker: &mut MctsThinker,
    positions: &[Board],
    threads: usize,
    seconds_each: f64,
) -> f64 {
    let smart = thinker.params().smart_stop;
    thinker.params_mut().smart_stop = false;
    let stop = AtomicBool::new(false);
    let mut playouts = 0u64;
    let mut seconds = 0.0;
    for board in positions {
        thinker.clear();
        let request = ThinkRequest {
            board: board.clone(),
            blocked: Vec::new(),
            limits: Limits::movetime((seconds_each * 1000.0) as u64, threads),
        };
        let result = thinker.think(&request, &stop);
        playouts += result.info.nodes;
        seconds += result.info.elapsed.as_secs_f64();
    }
    thinker.params_mut().smart_stop = smart;
    thinker.clear();
    playouts as f64 / seconds.max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_ongoing_middle_games() {
        let positions = bench_positions();
        assert_eq!(positions.len(), 3);
        for b in &positions {
            assert!(b.stone_count() >= 10, "{b}");
            assert!(!b.legal_moves().is_empty());
        }
    }
}
