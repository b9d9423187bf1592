//! The search tree between moves: its root position, its memory budget, and re-rooting after
//! moves are played (tree reuse).
use std::sync::atomic::{AtomicU64, Ordering};

use super::node::{MemoryBudget, Node, NODE_BYTES};
use crate::game::Board;

pub struct Tree {
    root: Box<Node>,
    /// The root position.
    board: Board,
    /// Board indices the root may not play (its edges leave them out).
    exclude: Vec<usize>,
    /// Heap bytes held by nodes and edge arrays.
    bytes: AtomicU64,
    limit: u64,
}

impl Tree {
    pub fn new(board: Board, exclude: Vec<usize>) -> Tree {
        Tree {
            root: Box::new(Node::new()),
            board,
            exclude,
            bytes: AtomicU64::new(NODE_BYTES),
            limit: u64::MAX,
        }
    }

    #[inline]
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The root position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn exclude(&self) -> &[usize] {
        &self.exclude
    }

    /// Sets how many bytes the tree may hold; past it the tree stops growing.
    pub fn set_limit(&mut self, bytes: u64) {
        self.limit = bytes;
    }

    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Takes `bytes` whatever the budget (the root must always have its moves).
    pub fn force_reserve(&self, bytes: u64) {
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Whether new nodes are refused.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.bytes().saturating_add(NODE_BYTES) > self.limit
    }

    /// Moves the root to `board`, keeping the subtree of the moves played since (or the whole
    /// tree for the same position). Returns whether anything was kept.
    pub fn advance(&mut self, board: &Board, exclude: Vec<usize>) -> bool {
        let kept = self.try_advance(board, &exclude);
        if !kept {
            *self.root = Node::new();
        }
        self.board = board.clone();
        self.exclude = exclude;
        self.bytes
            .store(subtree_bytes(&self.root), Ordering::Relaxed);
        kept
    }

    fn try_advance(&mut self, board: &Board, exclude: &[usize]) -> bool {
        let old = &self.board;
        if (old.width(), old.height(), old.rule()) != (board.width(), board.height(), board.rule())
        {
            return false;
        }
        let (before, now) = (old.history_idx(), board.history_idx());
        let path: Vec<usize> = if now.starts_with(before) {
            now[before.len()..].to_vec()
        } else if old.hash() == board.hash() && before.len() == now.len() {
            // The same stones, set up in another order (a BOARD command).
            Vec::new()
        } else {
            return false;
        };
        // The root's own edges leave out its excluded points; only a root that keeps the same
        // exclusions, or a child root with none, can be reused.
        if path.is_empty() && exclude != self.exclude.as_slice() {
            return false;
        }
        if !path.is_empty() && !exclude.is_empty() {
            return false;
        }
        let mut node = std::mem::take(&mut self.root);
        for mv in path {
            let child = node
                .edges()
                .iter()
                .position(|e| e.mv() == mv)
                .and_then(|i| node.take_child(i));
            match child {
                Some(c) => node = c,
                None => return false,
            }
        }
        self.root = node;
        true
    }

    /// Number of nodes in the tree (walks it).
    pub fn node_count(&self) -> u64 {
        let mut count = 0;
        let mut stack: Vec<&Node> = vec![&self.root];
        while let Some(n) = stack.pop() {
            count += 1;
            stack.extend(n.children().map(|(_, c)| c));
        }
        count
    }
}

impl MemoryBudget for Tree {
    #[inline]
    fn try_reserve(&self, bytes: u64) -> bool {
        let before = self.bytes.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.bytes.fetch_sub(bytes, Ordering::Relaxed);
            return false;
        }
        true
    }

    #[inline]
    fn release(&self, bytes: u64) {
        self.bytes.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// Heap bytes of a subtree, as the budget counts them.
fn subtree_bytes(root: &Node) -> u64 {
    let mut bytes = 0;
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        bytes += n.own_bytes();
        stack.extend(n.children().map(|(_, c)| c));
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Point, Rule};
    use crate::search::mcts::node::Edge;

    fn expand(node: &Node, board: &Board, moves: &[Point]) {
        assert!(node.try_begin_expansion());
        let edges: Vec<Edge> = moves
            .iter()
            .map(|&p| Edge::new(board.index(p), 1.0 / moves.len() as f32))
            .collect();
        node.finish_expansion(Some(edges.into_boxed_slice()));
    }

    #[test]
    fn advancing_keeps_the_played_subtree() {
        let b0 = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let mut tree = Tree::new(b0.clone(), Vec::new());
        let (a, c) = (Point::new(8, 8), Point::new(6, 6));
        expand(tree.root(), &b0, &[a, c]);
        // Equal priors: the edges come in board order.
        let edge_of = |p: Point| {
            let edges = tree.root().edges();
            edges.iter().position(|e| e.mv() == b0.index(p)).unwrap()
        };
        let child = tree.root().child_or_create(edge_of(a), &tree).unwrap();
        let mut b1 = b0.clone();
        b1.play(a).unwrap();
        expand(child, &b1, &[Point::new(9, 9)]);
        let grandchild = child.child_or_create(0, &tree).unwrap();
        grandchild.add_in_flight();
        grandchild.record(crate::search::evaluator::Wdl::WIN);
        tree.root().child_or_create(edge_of(c), &tree).unwrap();
        assert_eq!(tree.node_count(), 4);

        // Same position: everything stays.
        assert!(tree.advance(&b0, Vec::new()));
        assert_eq!(tree.node_count(), 4);
        // Two plies later: the grandchild is the new root, with its visit.
        let mut b2 = b1.clone();
        b2.play(Point::new(9, 9)).unwrap();
        assert!(tree.advance(&b2, Vec::new()));
        assert_eq!(tree.root().visits(), 1);
        assert_eq!(tree.node_count(), 1);
        assert_eq!(tree.bytes(), NODE_BYTES);
        // An unrelated position: a fresh tree.
        let other = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(1, 1)]).unwrap();
        assert!(!tree.advance(&other, Vec::new()));
        assert_eq!(tree.root().visits(), 0);
        // Another rule: fresh too.
        let mut renju = other.clone();
        renju.set_rule(Rule::Renju);
        assert!(!tree.advance(&renju, Vec::new()));
    }

    #[test]
    fn budget_refuses_what_does_not_fit() {
        let b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut tree = Tree::new(b, Vec::new());
        tree.set_limit(NODE_BYTES + 100);
        assert!(tree.try_reserve(100));
        assert!(!tree.try_reserve(1));
        assert_eq!(tree.bytes(), NODE_BYTES + 100);
        assert!(tree.is_full());
    }
}
