//! The expanded nodes of one search by their position's hash, so that a position reached again
//! by another order of the same moves takes its moves, priors and value from the node that was
//! expanded first instead of analysing and evaluating it afresh.
//!
//! Lock-free: a slot holds a node pointer and the hash xor that pointer, written one after the
//! other; a reader accepts the pair only where they agree with the hash it looks for, so a
//! pair torn by two writers is rejected (Hyatt's lockless hashing). The last writer wins a
//! slot. Nodes are never freed while a search runs (the tree is only borrowed), so every
//! pointer a search finds here is one of its tree's nodes.
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use super::node::Node;

struct Slot {
    check: AtomicU64,
    node: AtomicPtr<Node>,
}

pub(crate) struct Transpositions {
    slots: Box<[Slot]>,
    mask: u64,
}

/// Bytes of one slot, for sizing the table from a memory budget.
pub(crate) const SLOT_BYTES: u64 = std::mem::size_of::<Slot>() as u64;

impl Transpositions {
    /// A table of about `bytes` (a power of two of slots, at least one).
    pub fn with_bytes(bytes: u64) -> Transpositions {
        let wanted = (bytes / SLOT_BYTES).max(1);
        // The largest power of two not above `wanted`.
        let len = 1u64 << (63 - wanted.leading_zeros());
        let slots = (0..len)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                node: AtomicPtr::new(std::ptr::null_mut()),
            })
            .collect();
        Transpositions {
            slots,
            mask: len - 1,
        }
    }

    /// An empty table (nothing is ever found in it).
    pub fn none() -> Transpositions {
        Transpositions {
            slots: Box::new([]),
            mask: 0,
        }
    }

    fn slot(&self, hash: u64) -> Option<&Slot> {
        self.slots.get((hash & self.mask) as usize)
    }

    /// Records `node` as the expanded node of the position `hash`.
    pub fn insert(&self, hash: u64, node: &Node) {
        if let Some(s) = self.slot(hash) {
            let p = node as *const Node as *mut Node;
            s.node.store(p, Ordering::Relaxed);
            s.check.store(hash ^ p as u64, Ordering::Release);
        }
    }

    /// The node recorded for `hash`, if its slot still holds it.
    pub fn get<'t>(&self, hash: u64) -> Option<&'t Node> {
        let s = self.slot(hash)?;
        let check = s.check.load(Ordering::Acquire);
        let p = s.node.load(Ordering::Relaxed);
        if p.is_null() || check ^ p as u64 != hash {
            return None;
        }
        // SAFETY: `p` was stored by `insert` from a node of the tree this table serves, and
        // that tree frees no node while its search (and so this table) lives.
        Some(unsafe { &*p })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_was_inserted_and_nothing_else() {
        let t = Transpositions::with_bytes(64 * SLOT_BYTES);
        let a = Node::new();
        let b = Node::new();
        t.insert(5, &a);
        t.insert(6, &b);
        assert!(std::ptr::eq(t.get(5).unwrap(), &a));
        assert!(std::ptr::eq(t.get(6).unwrap(), &b));
        assert!(t.get(7).is_none());
        // Same slot, other hash: the later insert replaces the earlier one.
        t.insert(5 + 64, &b);
        assert!(t.get(5).is_none());
        assert!(std::ptr::eq(t.get(5 + 64).unwrap(), &b));
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        let t = Transpositions::none();
        let a = Node::new();
        t.insert(1, &a);
        assert!(t.get(1).is_none());
    }
}
