//! A Gumbel root (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022),
//! for self-play with few playouts: the root's moves are sampled without replacement by Gumbel
//! top-k over the policy, the playouts are shared out among them by sequential halving, and
//! the policy target is the prior improved by the completed values of the root's moves, which
//! stays a sound improvement with a few dozen playouts, where visit counts do not.
//!
//! Below the root the tree is searched by PUCT as usual.
use rand::Rng;

use super::node::{Node, Proof};
use super::threads::{Playout, SearchThread, SharedSearch};

/// The Gumbel root's settings (self-play only).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelRoot {
    /// Moves sampled at the root (the paper's m).
    pub considered: usize,
    /// The completed values, rescaled to [0, 1] over the root's moves, weigh
    /// `(c_visit + most visits of a root move) * c_scale` against the logits.
    pub c_visit: f32,
    pub c_scale: f32,
}

impl GumbelRoot {
    /// The paper's constants with `considered` moves.
    pub fn new(considered: usize) -> GumbelRoot {
        GumbelRoot {
            considered: considered.max(1),
            c_visit: 50.0,
            c_scale: 0.1,
        }
    }
}

/// What a Gumbel root decided.
pub(crate) struct GumbelChoice {
    /// The root edge to play.
    pub edge: usize,
    /// The improved policy, one share per root edge.
    pub policy: Vec<f32>,
}

/// Spends the search's playouts at the root by sequential halving over the sampled moves and
/// returns the choice. `policy_temperature` undoes the softening of the stored priors, so that
/// the target improves the network's own policy. `None` when the root has no moves.
pub(crate) fn search<'t, R: Rng>(
    thread: &mut SearchThread<'t>,
    s: &SharedSearch<'t>,
    root_params: &GumbelRoot,
    rng: &mut R,
) -> Option<GumbelChoice> {
    let root = s.tree.root();
    let edges = root.edges();
    if edges.is_empty() {
        return None;
    }
    let temperature = s.params.policy_temperature;
    let logits: Vec<f32> = edges
        .iter()
        .map(|e| temperature * e.prior().max(1e-12).ln())
        .collect();
    let gumbel: Vec<f32> = (0..edges.len())
        .map(|_| {
            let u: f32 = rng.gen_range(1e-9f32..1.0);
            -(-u.ln()).ln()
        })
        .collect();
    let dw = s.params.draw_weight();
    // The root's value before the halving (the network's, unless the tree was reused), for
    // the side to move: its statistics belong to the player who moved into it.
    let own = root.mean().map_or(0.5, |m| m.flip().score(dw));
    let mut remaining: Vec<usize> = (0..edges.len())
        .filter(|&i| !lost_for_us(root, i))
        .collect();
    if remaining.is_empty() {
        remaining = (0..edges.len()).collect();
    }
    remaining.sort_by(|&a, &b| (gumbel[b] + logits[b]).total_cmp(&(gumbel[a] + logits[a])));
    remaining.truncate(root_params.considered);
    let budget = s.limits.max_nodes.unwrap_or(0);
    let phases = (remaining.len() as f64).log2().ceil().max(1.0) as u64;
    let ranked = |remaining: &mut Vec<usize>| {
        let sigma = scaled_values(root, &logits, own, dw, root_params);
        let score = |i: usize| gumbel[i] + logits[i] + sigma[i];
        remaining.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    };
    'halving: while remaining.len() > 1 {
        let per_move = (budget / (phases * remaining.len() as u64)).max(1);
        for &i in remaining.iter() {
            for _ in 0..per_move {
                if s.should_stop() || root.proof().is_some() {
                    break 'halving;
                }
                match thread.playout_through(s, i) {
                    Playout::Done | Playout::Collision => {}
                    Playout::Refused => break 'halving,
                }
            }
        }
        ranked(&mut remaining);
        remaining.truncate(remaining.len().div_ceil(2));
    }
    ranked(&mut remaining);
    let edge = *remaining.first()?;
    let sigma = scaled_values(root, &logits, own, dw, root_params);
    Some(GumbelChoice {
        edge,
        policy: softmax(logits.iter().zip(&sigma).map(|(l, v)| l + v)),
    })
}

/// Each root edge's completed value (searched, or the mixed value where unsearched; `own`: the
/// root's value for the side to move), rescaled
/// to [0, 1] over the edges and scaled by `(c_visit + most visits of a root move) * c_scale`:
/// what it adds to the edge's logit.
fn scaled_values(root: &Node, logits: &[f32], own: f32, dw: f32, p: &GumbelRoot) -> Vec<f32> {
    let mixed = mixed_value(root, logits, own, dw);
    let q: Vec<f32> = (0..logits.len())
        .map(|i| searched_value(root, i, dw).unwrap_or(mixed))
        .collect();
    let lo = q.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = q.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let most = (0..logits.len())
        .map(|i| root.child(i).map_or(0, Node::visits))
        .max()
        .unwrap_or(0);
    let scale = (p.c_visit + most as f32) * p.c_scale;
    let range = (hi - lo).max(1e-8);
    q.iter().map(|&v| scale * (v - lo) / range).collect()
}

/// Whether root edge `i` is proven lost for the side to move.
fn lost_for_us(root: &Node, i: usize) -> bool {
    matches!(root.child(i).and_then(Node::proof), Some(Proof::Win(_)))
}

/// The value of root edge `i` for the side to move, in [0, 1] (`dw`: a draw's worth), when it
/// has been searched or proven.
fn searched_value(root: &Node, i: usize, dw: f32) -> Option<f32> {
    let c = root.child(i)?;
    match c.proof() {
        // The child's proof speaks for its side to move, our opponent.
        Some(Proof::Loss(_)) => Some(1.0),
        Some(Proof::Win(_)) => Some(0.0),
        Some(Proof::Draw) => Some(dw),
        None => c.mean().map(|m| m.score(dw)),
    }
}

/// The value of the root's unsearched moves: the root's own value `own` blended with the
/// prior-weighted values of the searched moves.
fn mixed_value(root: &Node, logits: &[f32], own: f32, dw: f32) -> f32 {
    let mut visits = 0.0;
    let mut prior_sum = 0.0;
    let mut weighted = 0.0;
    for (i, &logit) in logits.iter().enumerate() {
        let n = root.child(i).map_or(0, Node::visits);
        if n == 0 {
            continue;
        }
        if let Some(q) = searched_value(root, i, dw) {
            let prior = logit.exp();
            visits += n as f32;
            prior_sum += prior;
            weighted += prior * q;
        }
    }
    if visits == 0.0 || prior_sum <= 0.0 {
        return own;
    }
    (own + visits * weighted / prior_sum) / (1.0 + visits)
}

/// The softmax of `z`.
fn softmax(z: impl Iterator<Item = f32>) -> Vec<f32> {
    let z: Vec<f32> = z.collect();
    let top = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = z.iter().map(|&x| (x - top).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.into_iter().map(|x| x / sum).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::*;
    use crate::game::{Board, Point, Rule};
    use crate::search::evaluator::ClassicalEvaluator;
    use crate::search::mcts::{MctsParams, MctsThinker};
    use crate::search::{Limits, ThinkRequest, ThinkResult, Thinker};

    fn think(moves: &[Point], playouts: u64) -> (ThinkResult, u64) {
        let board = Board::from_moves(15, 15, Rule::Freestyle, moves).unwrap();
        let params = MctsParams {
            gumbel: Some(GumbelRoot::new(8)),
            ..MctsParams::default()
        };
        let evaluator = Arc::new(ClassicalEvaluator::new(params.classical_prior_sharpness));
        let mut thinker = MctsThinker::new(params, evaluator);
        let request = ThinkRequest {
            board,
            blocked: Vec::new(),
            limits: Limits {
                max_nodes: Some(playouts),
                ..Limits::infinite(1)
            },
        };
        let result = thinker.think(&request, &AtomicBool::new(false));
        let spent = thinker.last_search().unwrap().playouts;
        (result, spent)
    }

    #[test]
    fn the_playouts_are_shared_out_and_the_target_is_a_distribution() {
        let p = Point::new;
        let (result, spent) = think(&[p(7, 7), p(8, 8), p(7, 8)], 64);
        assert!(spent <= 64 && spent > 16, "{spent} playouts");
        let total: u64 = result.visits.iter().map(|v| u64::from(v.1)).sum();
        assert!((999_000..=1_001_000).contains(&total), "{total}");
        let best = result.best.unwrap();
        assert!(result.visits.iter().any(|v| v.0 == best));
    }

    #[test]
    fn an_open_three_is_blocked_and_the_target_says_so() {
        let p = Point::new;
        // White (to move second) has an open three on row 5; black, to move, must block it.
        let moves = [p(7, 9), p(5, 5), p(9, 11), p(6, 5), p(11, 9), p(7, 5)];
        let defences = [p(4, 5), p(8, 5), p(3, 5), p(9, 5)];
        for _ in 0..5 {
            let (result, _) = think(&moves, 96);
            let best = result.best.unwrap();
            assert!(defences.contains(&best), "{best:?}");
            let on_defences: u32 = result
                .visits
                .iter()
                .filter(|v| defences.contains(&v.0))
                .map(|v| v.1)
                .sum();
            assert!(on_defences > 500_000, "{:?}", result.visits);
        }
    }
}
