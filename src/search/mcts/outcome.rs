//! Reading the answer out of the tree: the move to play, the principal variation, the ranked
//! root moves and the evaluation.
use super::node::{Node, Proof};
use super::params::MctsParams;
use crate::game::{Board, Color, Point};
use crate::search::evaluator::Wdl;
use crate::search::Eval;

/// The child of edge `i`'s value for the player choosing it, exact when proven.
fn edge_value(node: &Node, i: usize) -> Option<Wdl> {
    let c = node.child(i)?;
    match c.proof() {
        // The child's proof is for its side to move, the chooser's opponent.
        Some(p) => Some(p.wdl().flip()),
        None => c.mean(),
    }
}

fn visits(node: &Node, i: usize) -> u32 {
    node.child(i).map_or(0, Node::visits)
}

fn proof_of(node: &Node, i: usize) -> Option<Proof> {
    node.child(i).and_then(Node::proof)
}

/// The edge to play from `node`: a proven win (the fastest) at once; otherwise the most
/// visited move, unless a move with at least a tenth of its visits has a better lower
/// confidence bound; moves proven lost only when nothing else is left (the slowest loss).
pub fn best_edge(node: &Node, params: &MctsParams) -> Option<usize> {
    let edges = node.edges();
    if edges.is_empty() {
        return None;
    }
    let win = (0..edges.len())
        .filter_map(|i| match proof_of(node, i) {
            Some(Proof::Loss(n)) => Some((i, n)),
            _ => None,
        })
        .min_by_key(|&(_, n)| n);
    if let Some((i, _)) = win {
        return Some(i);
    }
    let open: Vec<usize> = (0..edges.len())
        .filter(|&i| !matches!(proof_of(node, i), Some(Proof::Win(_))))
        .collect();
    if open.is_empty() {
        // Every move loses: resist the longest, then the most searched.
        return (0..edges.len()).max_by_key(|&i| match proof_of(node, i) {
            Some(Proof::Win(n)) => (n, visits(node, i)),
            _ => (0, 0),
        });
    }
    let most = open.iter().copied().max_by(|&a, &b| {
        (visits(node, a).cmp(&visits(node, b))).then(edges[a].prior().total_cmp(&edges[b].prior()))
    })?;
    let max_visits = visits(node, most);
    if max_visits == 0 || params.lcb_z <= 0.0 {
        // Most visits (unsearched: the best prior).
        return Some(most);
    }
    let dw = params.draw_weight();
    let lcb = |i: usize| {
        let n = visits(node, i) as f32;
        let Some(v) = edge_value(node, i) else {
            return f32::NEG_INFINITY;
        };
        let q = v.score(dw);
        if proof_of(node, i).is_some() {
            return q;
        }
        // A Bernoulli-like spread, floored so that few visits never look certain.
        let var = (q * (1.0 - q)).max(0.05);
        q - params.lcb_z * (var / n).sqrt()
    };
    let floor = (max_visits / 10).max(1);
    let guarded = open
        .iter()
        .copied()
        .filter(|&i| visits(node, i) >= floor)
        .max_by(|&a, &b| {
            lcb(a)
                .total_cmp(&lcb(b))
                .then(visits(node, a).cmp(&visits(node, b)))
        });
    guarded.or(Some(most))
}

/// Whether the move [`best_edge`] picks is also a most visited one (or proven): more search
/// would not change it easily.
pub fn is_settled(node: &Node, params: &MctsParams) -> bool {
    let Some(best) = best_edge(node, params) else {
        return true;
    };
    let top = (0..node.edges().len())
        .map(|i| visits(node, i))
        .max()
        .unwrap_or(0);
    visits(node, best) == top || proof_of(node, best).is_some()
}

/// The edge a principal variation follows below the root: a proven win, else the most visits.
fn pv_edge(node: &Node) -> Option<usize> {
    let mut best: Option<(usize, (u8, u32))> = None;
    for (i, child) in node.children() {
        let rank = match child.proof() {
            Some(Proof::Loss(n)) => (3, u32::MAX - n),
            Some(Proof::Win(_)) => (0, child.visits()),
            _ => (1, child.visits()),
        };
        if rank.1 > 0 && best.is_none_or(|(_, r)| rank > r) {
            best = Some((i, rank));
        }
    }
    best.map(|(i, _)| i)
}

/// The principal variation from the root: the chosen move, then the main line below it, with
/// the colour of each stone. A proven five at the end is shown too.
pub fn principal_variation(
    root: &Node,
    board: &Board,
    first: Option<usize>,
) -> Vec<(Color, Point)> {
    let mut pv = Vec::new();
    let mut colour = board.side_to_move();
    let mut node = root;
    let mut choice = first;
    while let Some(i) = choice {
        pv.push((colour, board.point(node.edges()[i].mv())));
        colour = colour.opponent();
        let Some(child) = node.child(i) else { break };
        node = child;
        choice = match node.proof() {
            Some(Proof::Win(1)) => (!node.edges().is_empty()).then_some(0),
            _ => pv_edge(node),
        };
        if pv.len() > board.width() * board.height() {
            break;
        }
    }
    pv
}

/// The root moves, best first: proven wins, then by visits (unvisited by prior), proven losses
/// last; each with its expected score (win + half a draw) for the side to move.
pub fn ranked(root: &Node, board: &Board) -> Vec<(Point, f32)> {
    let fallback = root.mean().map_or(0.5, |m| m.flip().score(0.5));
    let mut rows: Vec<((u8, u32, u32), Point, f32)> = root
        .edges()
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let class = match proof_of(root, i) {
                Some(Proof::Loss(n)) => (3, u32::MAX - n),
                Some(Proof::Win(n)) => (0, n),
                _ => (1, visits(root, i)),
            };
            let score = edge_value(root, i).map_or(fallback, |v| v.score(0.5));
            // Ties (unvisited moves) go by prior.
            let prior = (e.prior() * 1e9) as u32;
            ((class.0, class.1, prior), board.point(e.mv()), score)
        })
        .collect();
    rows.sort_by_key(|row| std::cmp::Reverse(row.0));
    rows.into_iter().map(|(_, p, s)| (p, s)).collect()
}

/// The root moves that were visited, with their playout counts (a refinement's value weight
/// left out, so it does not flatten a policy target); moves proven lost are left out too (a
/// policy should not learn them however long the search took to see it).
pub fn root_visits(root: &Node, board: &Board) -> Vec<(Point, u32)> {
    root.edges()
        .iter()
        .enumerate()
        .filter(|&(i, _)| !matches!(proof_of(root, i), Some(Proof::Win(_))))
        .map(|(i, e)| (board.point(e.mv()), root.child(i).map_or(0, Node::playouts)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The verdict on the root for its side to move.
pub fn root_eval(root: &Node, best: Option<usize>) -> Eval {
    match root.proof() {
        Some(Proof::Win(n)) => return Eval::Win(n),
        Some(Proof::Loss(n)) => return Eval::Loss(n),
        Some(Proof::Draw) => return Eval::Draw,
        None => {}
    }
    let v = best
        .and_then(|i| edge_value(root, i))
        .or_else(|| root.mean().map(Wdl::flip))
        .unwrap_or(Wdl::new(0.5, 0.0, 0.5));
    Eval::Winrate {
        win: v.win,
        draw: v.draw,
        loss: v.loss,
    }
}

/// The `n` most visited moves of `node` as `x,y prior visits score`, the score for the player
/// choosing them (`-` unvisited), each followed by its own three most visited answers in
/// brackets: the debug log's account of why the search preferred its move.
pub fn root_summary(node: &Node, board: &Board, n: usize) -> String {
    let line = |node: &Node, i: usize| {
        let edge = &node.edges()[i];
        let score = edge_value(node, i).map_or("-".to_string(), |v| format!("{:.3}", v.score(0.5)));
        format!(
            "{} {:.3} {} {score}",
            board.point(edge.mv()),
            edge.prior(),
            visits(node, i)
        )
    };
    most_visited(node, n)
        .map(|i| {
            let answers: String = node.child(i).map_or(String::new(), |c| {
                most_visited(c, 3)
                    .map(|j| format!(" [{}]", line(c, j)))
                    .collect()
            });
            format!("{}{answers}", line(node, i))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn most_visited(node: &Node, n: usize) -> impl Iterator<Item = usize> {
    let mut order: Vec<usize> = (0..node.edges().len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(visits(node, i)));
    order.into_iter().take(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::node::{Edge, Unlimited};

    /// A root with one edge per `(visits, mean win, proof)`; moves are indices 100, 101, ...
    fn root_with(children: &[(u32, f32, Option<Proof>)]) -> Node {
        let root = Node::new();
        assert!(root.try_begin_expansion());
        let edges: Vec<Edge> = (0..children.len())
            .map(|i| Edge::new(100 + i, 1.0 / children.len() as f32))
            .collect();
        root.finish_expansion(Some(edges.into_boxed_slice()));
        for (i, &(n, win, proof)) in children.iter().enumerate() {
            let c = root.child_or_create(i, &Unlimited).unwrap();
            for _ in 0..n {
                c.add_in_flight();
                c.record(Wdl::new(win, 0.0, 1.0 - win));
            }
            if let Some(p) = proof {
                c.set_proof(p);
            }
        }
        root
    }

    #[test]
    fn the_summary_lists_the_most_visited_moves_first() {
        let board = Board::new(15, 15, crate::game::Rule::Freestyle).unwrap();
        let root = root_with(&[(5, 0.5, None), (40, 0.25, None), (0, 0.0, None)]);
        let summary = root_summary(&root, &board, 2);
        let (first, second) = (board.point(101), board.point(100));
        assert_eq!(
            summary,
            format!("{first} 0.333 40 0.250, {second} 0.333 5 0.500")
        );
    }

    #[test]
    fn most_visits_unless_a_better_bound_has_enough_visits() {
        let params = MctsParams::default();
        let root = root_with(&[(50, 0.5, None), (400, 0.6, None), (30, 0.9, None)]);
        assert_eq!(
            best_edge(&root, &params),
            Some(1),
            "30 visits are under a tenth"
        );
        assert!(is_settled(&root, &params));
        let root = root_with(&[(300, 0.3, None), (280, 0.7, None)]);
        assert_eq!(best_edge(&root, &params), Some(1), "the lower bound guards");
        assert!(!is_settled(&root, &params));
        let lcb_off = MctsParams {
            lcb_z: 0.0,
            ..MctsParams::default()
        };
        assert_eq!(best_edge(&root, &lcb_off), Some(0));
    }

    #[test]
    fn proofs_decide_the_choice() {
        let params = MctsParams::default();
        // A child lost for the opponent is a win for us: the fastest one is played.
        let root = root_with(&[
            (500, 0.6, None),
            (3, 0.9, Some(Proof::Loss(6))),
            (2, 0.9, Some(Proof::Loss(2))),
        ]);
        assert_eq!(best_edge(&root, &params), Some(2));
        // A child won for the opponent is avoided, however visited.
        let root = root_with(&[(500, 0.6, Some(Proof::Win(3))), (10, 0.4, None)]);
        assert_eq!(best_edge(&root, &params), Some(1));
        // All lost: resist the longest.
        let root = root_with(&[
            (5, 0.0, Some(Proof::Win(3))),
            (5, 0.0, Some(Proof::Win(9))),
            (5, 0.0, Some(Proof::Win(5))),
        ]);
        assert_eq!(best_edge(&root, &params), Some(1));
        let b = Board::new(15, 15, crate::game::Rule::Freestyle).unwrap();
        let ranked = ranked(&root, &b);
        assert_eq!(ranked.len(), 3);
        assert!(ranked.iter().all(|&(_, s)| s == 0.0));
        assert!(root_visits(&root, &b).is_empty());
    }

    #[test]
    fn root_visits_count_each_searched_move_but_not_proven_losses() {
        let root = root_with(&[
            (30, 0.6, None),
            (0, 0.5, None),
            (7, 0.4, None),
            (50, 0.1, Some(Proof::Win(4))),
        ]);
        let b = Board::new(15, 15, crate::game::Rule::Freestyle).unwrap();
        let mut v = root_visits(&root, &b);
        v.sort();
        let mut expected = vec![(b.point(100), 30), (b.point(102), 7)];
        expected.sort();
        assert_eq!(v, expected);
        // A refinement's value weight is not a playout: the target counts playouts only.
        root.child(2).unwrap().add_estimate(Wdl::WIN, 64);
        let mut v = root_visits(&root, &b);
        v.sort();
        assert_eq!(v, expected);
    }

    #[test]
    fn evaluation_and_pv_follow_the_choice() {
        let params = MctsParams::default();
        let root = root_with(&[(10, 0.2, None), (90, 0.75, None)]);
        let best = best_edge(&root, &params);
        match root_eval(&root, best) {
            Eval::Winrate { win, .. } => assert!((win - 0.75).abs() < 1e-4),
            other => panic!("{other:?}"),
        }
        let b = Board::new(15, 15, crate::game::Rule::Freestyle).unwrap();
        let pv = principal_variation(&root, &b, best);
        assert_eq!(pv, vec![(Color::Black, b.point(101))]);
        let ranked = ranked(&root, &b);
        assert_eq!(ranked[0].0, b.point(101));
        assert!((ranked[0].1 - 0.75).abs() < 1e-4);
        root.set_proof(Proof::Win(7));
        assert_eq!(root_eval(&root, best), Eval::Win(7));
    }
}
