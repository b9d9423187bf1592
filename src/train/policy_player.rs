//! `PolicyPlayer`: a one-ply "policy argmax" thinker over a network, so that a trained network
//! can play matches and self-play before (and independently of) the MCTS. It runs the net once
//! on the position and plays the legal move with the highest policy probability.
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tch::Tensor;

use crate::game::{Board, Point};
use crate::nn::features::encoded_len;
use crate::nn::{encode_into, Network, Symmetry, INPUT_PLANES};
use crate::search::{Eval, SearchInfo, ThinkRequest, ThinkResult, Thinker};

/// Root moves reported in `ranked` (the policy's favourites, best first).
pub const RANKED_MOVES: usize = 32;
/// Share of random weight mixed into the policy when exploration is on.
const NOISE_FRACTION: f32 = 0.25;

/// The network's policy (probability per point, `y * width + x`) and W/D/L for the side to move.
pub fn evaluate(network: &Network, board: &Board) -> (Vec<f32>, [f32; 3]) {
    let (w, h) = (board.width(), board.height());
    let mut buf = vec![0.0; encoded_len(w, h)];
    encode_into(board, Symmetry::IDENTITY, w, h, &mut buf);
    let xs = Tensor::from_slice(&buf).view([1, INPUT_PLANES as i64, h as i64, w as i64]);
    let (policy, wdl) = network.infer(&xs);
    let policy = Vec::<f32>::try_from(policy.view([-1])).unwrap_or_default();
    let wdl = Vec::<f32>::try_from(wdl.view([-1])).unwrap_or_default();
    let wdl = [0, 1, 2].map(|i| wdl.get(i).copied().unwrap_or(0.0));
    (policy, wdl)
}

/// See the module docs.
pub struct PolicyPlayer {
    network: Network,
    name: String,
    /// Exploration for self-play: mixes random weights into the policy before choosing.
    noise: Option<StdRng>,
}

impl PolicyPlayer {
    /// A deterministic player.
    pub fn new(network: Network, name: &str) -> PolicyPlayer {
        PolicyPlayer {
            network,
            name: name.to_string(),
            noise: None,
        }
    }

    /// With `exploration`, a quarter of the policy is replaced by random weights drawn from
    /// `seed` (self-play's exploration noise).
    pub fn with_exploration(mut self, exploration: bool, seed: u64) -> PolicyPlayer {
        self.noise = exploration.then(|| StdRng::seed_from_u64(seed));
        self
    }

    pub fn network(&self) -> &Network {
        &self.network
    }
}

impl Thinker for PolicyPlayer {
    fn think(&mut self, request: &ThinkRequest, _stop: &AtomicBool) -> ThinkResult {
        let started = Instant::now();
        let board = &request.board;
        let me = board.side_to_move();
        let (policy, wdl) = evaluate(&self.network, board);
        let mut moves: Vec<(Point, f32)> = board
            .legal_moves()
            .into_iter()
            .filter(|p| !request.blocked.contains(p))
            .map(|p| {
                let i = p.y as usize * board.width() + p.x as usize;
                (p, policy.get(i).copied().unwrap_or(0.0))
            })
            .collect();
        let total: f32 = moves.iter().map(|m| m.1).sum();
        let uniform = 1.0 / moves.len().max(1) as f32;
        for m in &mut moves {
            m.1 = if total > 0.0 { m.1 / total } else { uniform };
        }
        if let Some(rng) = &mut self.noise {
            let weights: Vec<f32> = moves.iter().map(|_| rng.gen::<f32>()).collect();
            let sum: f32 = weights.iter().sum::<f32>().max(f32::MIN_POSITIVE);
            for (m, w) in moves.iter_mut().zip(weights) {
                m.1 = (1.0 - NOISE_FRACTION) * m.1 + NOISE_FRACTION * w / sum;
            }
        }
        // Best first; ties go to the lower point so the choice is reproducible.
        moves.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        moves.truncate(RANKED_MOVES);
        let best = moves.first().map(|m| m.0);
        ThinkResult {
            best,
            info: SearchInfo {
                depth_min: 1,
                depth_max: 1,
                eval: Eval::Winrate {
                    win: wdl[0],
                    draw: wdl[1],
                    loss: wdl[2],
                },
                nodes: 1,
                elapsed: started.elapsed(),
                pv: best.map(|p| vec![(me, p)]).unwrap_or_default(),
            },
            ranked: moves,
            visits: Vec::new(),
        }
    }

    fn clear(&mut self) {}

    fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use crate::nn::Arch;
    use crate::search::Limits;
    use tch::Device;

    fn request(board: Board) -> ThinkRequest {
        ThinkRequest {
            board,
            blocked: Vec::new(),
            limits: Limits::infinite(1),
        }
    }

    #[test]
    fn plays_the_legal_move_with_the_highest_policy() {
        let net = Network::random(Arch::new(1, 8), 3, Device::Cpu).unwrap();
        let board = Board::from_moves(
            9,
            9,
            Rule::Renju,
            &[Point::new(4, 4), Point::new(5, 5), Point::new(3, 4)],
        )
        .unwrap();
        let (policy, _) = evaluate(&net, &board);
        let mut player = PolicyPlayer::new(net, "policy");
        let stop = AtomicBool::new(false);
        let result = player.think(&request(board.clone()), &stop);
        let best = result.best.unwrap();
        assert!(board.is_empty(best));
        let prob = |p: Point| policy[p.y as usize * 9 + p.x as usize];
        for p in board.legal_moves() {
            assert!(prob(p) <= prob(best), "{p} beats {best}");
        }
        assert_eq!(result.ranked.len(), RANKED_MOVES);
        assert_eq!(result.ranked[0].0, best);
        assert!(result.ranked.windows(2).all(|w| w[0].1 >= w[1].1));
        assert!(result.info.eval.score() > 0.0 && result.info.eval.score() < 1.0);

        // A blocked favourite is never played.
        let mut req = request(board);
        req.blocked = vec![best];
        let again = player.think(&req, &stop);
        assert_ne!(again.best, Some(best));
        assert_eq!(again.best, Some(result.ranked[1].0));
    }

    #[test]
    fn exploration_changes_choices_but_stays_legal() {
        let board = Board::new(9, 9, Rule::Standard).unwrap();
        let plain = PolicyPlayer::new(
            Network::random(Arch::new(1, 8), 3, Device::Cpu).unwrap(),
            "p",
        );
        let mut noisy = PolicyPlayer::new(
            Network::random(Arch::new(1, 8), 3, Device::Cpu).unwrap(),
            "p",
        )
        .with_exploration(true, 5);
        let mut plain = plain;
        let stop = AtomicBool::new(false);
        let first = plain.think(&request(board.clone()), &stop).best;
        let picks: std::collections::HashSet<Option<Point>> = (0..10)
            .map(|_| noisy.think(&request(board.clone()), &stop).best)
            .collect();
        assert!(picks.iter().all(|p| p.is_some()));
        assert!(
            picks.len() > 1 || !picks.contains(&first),
            "noise never changed the move"
        );
    }
}
