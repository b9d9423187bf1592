//! Tree nodes: lock-free visit statistics, proven results and the lazily created children.
//!
//! A node's statistics are kept from the point of view of the player who moved *into* it (the
//! side to move at its parent), so a parent picks among its children by reading their numbers
//! as they are. Proofs are the other way round: a node's [`Proof`] is from the point of view of
//! the side to move *at* the node, which is what the MCTS-solver rules read most naturally.
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

/// Fixed-point scale of the value sums: exact, lock-free `fetch_add`s instead of float CAS loops.
const SCALE: f64 = (1u64 << 20) as f64;

/// Win/draw/loss probabilities for one side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wdl {
    pub win: f32,
    pub draw: f32,
    pub loss: f32,
}

impl Wdl {
    pub const WIN: Wdl = Wdl::new(1.0, 0.0, 0.0);
    pub const DRAW: Wdl = Wdl::new(0.0, 1.0, 0.0);
    pub const LOSS: Wdl = Wdl::new(0.0, 0.0, 1.0);

    pub const fn new(win: f32, draw: f32, loss: f32) -> Wdl {
        Wdl { win, draw, loss }
    }

    /// The same outcome seen by the other player.
    pub fn flip(self) -> Wdl {
        Wdl::new(self.loss, self.draw, self.win)
    }

    /// Expected score when a draw is worth `draw_weight` (see `Style::draw_weight`).
    pub fn score(self, draw_weight: f32) -> f32 {
        self.win + draw_weight * self.draw
    }
}

/// A proven game result, from the side to move's point of view, with its length in plies
/// (counting the winning move: a five on the board now is `Win(1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Win(u32),
    Loss(u32),
    Draw,
}

const PLY_MASK: u32 = (1 << 30) - 1;

impl Proof {
    fn pack(self) -> u32 {
        match self {
            Proof::Win(n) => 1 << 30 | n.min(PLY_MASK),
            Proof::Loss(n) => 2 << 30 | n.min(PLY_MASK),
            Proof::Draw => 3 << 30,
        }
    }

    fn unpack(v: u32) -> Option<Proof> {
        match v >> 30 {
            1 => Some(Proof::Win(v & PLY_MASK)),
            2 => Some(Proof::Loss(v & PLY_MASK)),
            3 => Some(Proof::Draw),
            _ => None,
        }
    }

    /// The exact value of the result for the side to move.
    pub fn wdl(self) -> Wdl {
        match self {
            Proof::Win(_) => Wdl::WIN,
            Proof::Loss(_) => Wdl::LOSS,
            Proof::Draw => Wdl::DRAW,
        }
    }
}

const UNEXPANDED: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// Where a node stands with its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Never evaluated, or evaluated while the tree was full (no children kept).
    Unexpanded,
    /// A thread is evaluating it right now.
    Expanding,
    /// Its moves and priors are in place.
    Expanded,
}

/// One position of the tree.
pub struct Node {
    visits: AtomicU32,
    /// Playouts currently passing through (virtual loss).
    in_flight: AtomicU32,
    /// Sum of the mover's win probability over the visits, fixed point.
    win: AtomicU64,
    /// Sum of the draw probability, fixed point.
    draw: AtomicU64,
    proof: AtomicU32,
    state: AtomicU8,
    edges: OnceLock<Box<[Edge]>>,
}

impl Default for Node {
    fn default() -> Node {
        Node::new()
    }
}

impl Node {
    pub fn new() -> Node {
        Node {
            visits: AtomicU32::new(0),
            in_flight: AtomicU32::new(0),
            win: AtomicU64::new(0),
            draw: AtomicU64::new(0),
            proof: AtomicU32::new(0),
            state: AtomicU8::new(UNEXPANDED),
            edges: OnceLock::new(),
        }
    }

    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn in_flight(&self) -> u32 {
        self.in_flight.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn add_in_flight(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    pub fn remove_in_flight(&self) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    /// Adds one visit with `value` seen by the player who moved into this node, and takes back
    /// the virtual loss of that playout.
    #[inline]
    pub fn record(&self, value: Wdl) {
        self.win
            .fetch_add((value.win as f64 * SCALE) as u64, Ordering::Relaxed);
        self.draw
            .fetch_add((value.draw as f64 * SCALE) as u64, Ordering::Relaxed);
        self.visits.fetch_add(1, Ordering::Relaxed);
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    /// Sums of (win, draw) over the visits, for the mover.
    #[inline]
    pub fn sums(&self) -> (f32, f32) {
        const INV: f32 = (1.0 / SCALE) as f32;
        let w = self.win.load(Ordering::Relaxed) as f32 * INV;
        let d = self.draw.load(Ordering::Relaxed) as f32 * INV;
        (w, d)
    }

    /// Mean outcome for the mover, or `None` before the first visit.
    pub fn mean(&self) -> Option<Wdl> {
        let n = self.visits();
        if n == 0 {
            return None;
        }
        let (w, d) = self.sums();
        let (w, d) = ((w / n as f32).min(1.0), (d / n as f32).min(1.0));
        Some(Wdl::new(w, d, (1.0 - w - d).max(0.0)))
    }

    #[inline]
    pub fn proof(&self) -> Option<Proof> {
        Proof::unpack(self.proof.load(Ordering::Acquire))
    }

    /// Records a proof unless one is already there; true if this call set it.
    pub fn set_proof(&self, proof: Proof) -> bool {
        self.proof
            .compare_exchange(0, proof.pack(), Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    pub fn expansion(&self) -> Expansion {
        match self.state.load(Ordering::Acquire) {
            UNEXPANDED => Expansion::Unexpanded,
            EXPANDING => Expansion::Expanding,
            _ => Expansion::Expanded,
        }
    }

    /// Claims the right to expand this node; false if it is expanded or being expanded.
    pub fn try_begin_expansion(&self) -> bool {
        self.state
            .compare_exchange(UNEXPANDED, EXPANDING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Ends an expansion this thread claimed: with `Some(edges)` the node is expanded, with
    /// `None` (no memory left) it goes back to unexpanded.
    pub fn finish_expansion(&self, edges: Option<Box<[Edge]>>) {
        match edges {
            Some(edges) => {
                // Only the claiming thread gets here, and only once (the state was EXPANDING).
                let _ = self.edges.set(edges);
                self.state.store(EXPANDED, Ordering::Release);
            }
            None => self.state.store(UNEXPANDED, Ordering::Release),
        }
    }

    /// The moves, best prior first; empty until expanded.
    #[inline]
    pub fn edges(&self) -> &[Edge] {
        self.edges.get().map_or(&[], |e| e)
    }

    pub(crate) fn edges_mut(&mut self) -> &mut [Edge] {
        self.edges.get_mut().map_or(&mut [], |e| e)
    }
}

/// A move out of a node: its board index, its prior and (once visited) the child node.
pub struct Edge {
    mv: u16,
    prior: f32,
    child: AtomicPtr<Node>,
}

impl Edge {
    pub fn new(mv: usize, prior: f32) -> Edge {
        debug_assert!(mv <= u16::MAX as usize);
        Edge {
            mv: mv as u16,
            prior,
            child: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// The move as a board index.
    #[inline]
    pub fn mv(&self) -> usize {
        self.mv as usize
    }

    #[inline]
    pub fn prior(&self) -> f32 {
        self.prior
    }

    #[inline]
    pub fn child(&self) -> Option<&Node> {
        let p = self.child.load(Ordering::Acquire);
        // SAFETY: a non-null pointer came from `Box::into_raw` in `child_or_create` and is only
        // freed by `take_child` or `drop`, which need `&mut self`; so it outlives `&self`.
        unsafe { p.as_ref() }
    }

    /// The child node, created now if `allow_create` and nobody has made it yet.
    pub fn child_or_create(&self, allow_create: impl FnOnce() -> bool) -> Option<&Node> {
        if let Some(c) = self.child() {
            return Some(c);
        }
        if !allow_create() {
            return None;
        }
        let fresh = Box::into_raw(Box::new(Node::new()));
        match self.child.compare_exchange(
            std::ptr::null_mut(),
            fresh,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            // SAFETY: we just published `fresh`; see `child`.
            Ok(_) => unsafe { fresh.as_ref() },
            Err(theirs) => {
                // Another thread won the race: free ours and use theirs.
                // SAFETY: `fresh` was never shared; `theirs` is owned by this edge as above.
                unsafe {
                    drop(Box::from_raw(fresh));
                    theirs.as_ref()
                }
            }
        }
    }

    /// Detaches the child (tree reuse), leaving the edge unvisited.
    pub(crate) fn take_child(&mut self) -> Option<Box<Node>> {
        let p = std::mem::replace(self.child.get_mut(), std::ptr::null_mut());
        // SAFETY: we own the pointer (see `child`) and have exclusive access.
        (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
    }
}

impl Drop for Edge {
    fn drop(&mut self) {
        drop(self.take_child());
    }
}

/// Bytes a node costs on the heap (the allocation plus the allocator's bookkeeping).
pub const NODE_BYTES: u64 = std::mem::size_of::<Node>() as u64 + 16;
/// Bytes one edge costs inside its node's edge array.
pub const EDGE_BYTES: u64 = std::mem::size_of::<Edge>() as u64;

/// Heap bytes of an edge array of `n` moves.
pub fn edges_bytes(n: usize) -> u64 {
    EDGE_BYTES * n as u64 + 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_pack_and_unpack() {
        for p in [Proof::Win(1), Proof::Loss(2), Proof::Draw, Proof::Win(77)] {
            assert_eq!(Proof::unpack(p.pack()), Some(p));
        }
        assert_eq!(Proof::unpack(0), None);
        let n = Node::new();
        assert!(n.set_proof(Proof::Loss(4)));
        assert!(!n.set_proof(Proof::Win(1)), "the first proof stays");
        assert_eq!(n.proof(), Some(Proof::Loss(4)));
    }

    #[test]
    fn statistics_average_the_recorded_values() {
        let n = Node::new();
        assert_eq!(n.mean(), None);
        for v in [Wdl::WIN, Wdl::DRAW, Wdl::new(0.5, 0.25, 0.25), Wdl::LOSS] {
            n.add_in_flight();
            n.record(v);
        }
        assert_eq!(n.visits(), 4);
        assert_eq!(n.in_flight(), 0);
        let m = n.mean().unwrap();
        assert!((m.win - 1.5 / 4.0).abs() < 1e-5, "{m:?}");
        assert!((m.draw - 1.25 / 4.0).abs() < 1e-5, "{m:?}");
        assert!((m.loss - 1.25 / 4.0).abs() < 1e-5, "{m:?}");
    }

    #[test]
    fn children_are_created_once_and_detachable() {
        let mut e = Edge::new(42, 0.5);
        assert!(e.child().is_none());
        assert!(e.child_or_create(|| false).is_none());
        let a = e.child_or_create(|| true).unwrap() as *const Node;
        let b = e.child_or_create(|| panic!("must not be asked")).unwrap() as *const Node;
        assert_eq!(a, b);
        let taken = e.take_child().unwrap();
        assert_eq!(&*taken as *const Node, a);
        assert!(e.child().is_none());
        assert_eq!((e.mv(), e.prior()), (42, 0.5));
        const { assert!(EDGE_BYTES <= 16, "edges should stay small") };
    }

    #[test]
    fn expansion_is_claimed_by_one_thread() {
        let n = Node::new();
        assert!(n.try_begin_expansion());
        assert!(!n.try_begin_expansion());
        assert_eq!(n.expansion(), Expansion::Expanding);
        n.finish_expansion(None);
        assert_eq!(n.expansion(), Expansion::Unexpanded);
        assert!(n.try_begin_expansion());
        n.finish_expansion(Some(vec![Edge::new(3, 1.0)].into_boxed_slice()));
        assert_eq!(n.expansion(), Expansion::Expanded);
        assert_eq!(n.edges().len(), 1);
    }
}
