//! Tree nodes: lock-free visit statistics, proven results and the lazily created children.
//!
//! A node's statistics are kept from the point of view of the player who moved *into* it (the
//! side to move at its parent), so a parent picks among its children by reading their numbers
//! as they are. Proofs are the other way round: a node's [`Proof`] is from the point of view of
//! the side to move *at* the node, which is what the MCTS-solver rules read most naturally.
use std::sync::atomic::{AtomicPtr, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

use crate::search::evaluator::Wdl;

/// Fixed-point scale of the value sums: exact, lock-free `fetch_add`s instead of float CAS loops.
const SCALE: f64 = (1u64 << 20) as f64;

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

/// The bit of `Node::refinement` that says a thread claimed the node's refinement.
const REFINE_CLAIMED: u16 = 1 << 15;
/// The most estimate weight a node records (the rest of its refinement word).
pub const MAX_ESTIMATE_WEIGHT: u32 = (REFINE_CLAIMED - 1) as u32;

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

/// Where memory for the tree comes from: the tree's byte budget.
pub trait MemoryBudget {
    /// Takes `bytes`; false (and nothing taken) when they do not fit.
    fn try_reserve(&self, bytes: u64) -> bool;
    /// Gives back `bytes` taken earlier.
    fn release(&self, bytes: u64);
}

/// A budget that never refuses: for tests of the tree's logic.
#[cfg(test)]
pub struct Unlimited;

#[cfg(test)]
impl MemoryBudget for Unlimited {
    fn try_reserve(&self, _: u64) -> bool {
        true
    }
    fn release(&self, _: u64) {}
}

/// One position of the tree.
///
/// Its moves ([`Edge`]s, 4 bytes each) come with its first evaluation; the array of child
/// pointers only when a playout first goes through it, so the many leaves visited once cost
/// little.
pub struct Node {
    /// Playouts through this node plus the weight of its second opinions (`add_estimate`):
    /// what the search's statistics count.
    visits: AtomicU32,
    /// Playouts currently passing through (virtual loss): at most one per search thread.
    in_flight: AtomicU16,
    /// One past the highest edge index that has a child: the edges beyond it have none, so
    /// the PUCT choice reads only the first of them (see `threads::select`).
    children_end: AtomicU16,
    /// Sum of the mover's win probability over the visits, fixed point.
    win: AtomicU64,
    /// Sum of the draw probability, fixed point.
    draw: AtomicU64,
    proof: AtomicU32,
    state: AtomicU8,
    /// [`REFINE_CLAIMED`] once a thread has claimed this node's refinement (see
    /// `try_claim_refinement`), plus the part of `visits` that came from `add_estimate`, not
    /// from playouts. One 16-bit word keeps a node at 80 bytes.
    refinement: AtomicU16,
    edges: OnceLock<Box<[Edge]>>,
    /// One slot per edge, null until that child is created.
    children: OnceLock<Box<[AtomicPtr<Node>]>>,
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
            in_flight: AtomicU16::new(0),
            children_end: AtomicU16::new(0),
            win: AtomicU64::new(0),
            draw: AtomicU64::new(0),
            proof: AtomicU32::new(0),
            state: AtomicU8::new(UNEXPANDED),
            refinement: AtomicU16::new(0),
            edges: OnceLock::new(),
            children: OnceLock::new(),
        }
    }

    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Ordering::Relaxed)
    }

    /// The playouts that went through this node: `visits` less the estimates' weight. What a
    /// policy target should count (an estimate says how good a move is, not how often the
    /// search chose it).
    pub fn playouts(&self) -> u32 {
        self.visits().saturating_sub(u32::from(
            self.refinement.load(Ordering::Relaxed) & !REFINE_CLAIMED,
        ))
    }

    #[inline]
    pub fn in_flight(&self) -> u32 {
        u32::from(self.in_flight.load(Ordering::Relaxed))
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
        self.add(value, 1);
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    /// Adds `weight` visits' worth of `value` (seen by the player who moved into this node)
    /// without a playout: a second opinion on the node's value, counted like visits (but not
    /// among its [`Node::playouts`]).
    pub fn add_estimate(&self, value: Wdl, weight: u32) {
        // Saturating, so the weight never reaches the claim bit (the config keeps weights
        // within MAX_ESTIMATE_WEIGHT).
        let w = weight.min(MAX_ESTIMATE_WEIGHT) as u16;
        let _ = self
            .refinement
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |r| {
                let total = (r & !REFINE_CLAIMED).saturating_add(w);
                Some((r & REFINE_CLAIMED) | total.min(MAX_ESTIMATE_WEIGHT as u16))
            });
        self.add(value, weight);
    }

    #[inline]
    fn add(&self, value: Wdl, weight: u32) {
        let w = weight as f64 * SCALE;
        self.win
            .fetch_add((value.win as f64 * w) as u64, Ordering::Relaxed);
        self.draw
            .fetch_add((value.draw as f64 * w) as u64, Ordering::Relaxed);
        self.visits.fetch_add(weight, Ordering::Relaxed);
    }

    /// Claims the one refinement of this expanded node; false if someone already has.
    pub fn try_claim_refinement(&self) -> bool {
        self.refinement.load(Ordering::Relaxed) & REFINE_CLAIMED == 0
            && self.refinement.fetch_or(REFINE_CLAIMED, Ordering::AcqRel) & REFINE_CLAIMED == 0
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
    /// `None` (no memory left) it goes back to unexpanded. The edges are kept in falling order
    /// of prior, so that the unvisited ones are tried in that order (see `threads::select`).
    pub fn finish_expansion(&self, edges: Option<Box<[Edge]>>) {
        match edges {
            Some(mut edges) => {
                // Ties in board order, as the moves come: the order a stable sort keeps,
                // without its buffer.
                // One integer per edge: the prior's complement above the move.
                edges.sort_unstable_by_key(|e| {
                    u32::from(u16::MAX - e.quantised_prior()) << 16 | e.mv() as u32
                });
                // Only the claiming thread gets here, and only once (the state was EXPANDING).
                let _ = self.edges.set(edges);
                self.state.store(EXPANDED, Ordering::Release);
            }
            None => self.state.store(UNEXPANDED, Ordering::Release),
        }
    }

    /// One past the highest edge index that has a child (0 when none has).
    #[inline]
    pub fn children_end(&self) -> usize {
        usize::from(self.children_end.load(Ordering::Acquire))
    }

    /// Whether a thread has claimed this node's refinement (which may re-price its edges, so
    /// they are no longer in falling order of prior).
    #[inline]
    pub fn is_refined(&self) -> bool {
        self.refinement.load(Ordering::Relaxed) & REFINE_CLAIMED != 0
    }

    /// The moves; empty until expanded.
    #[inline]
    pub fn edges(&self) -> &[Edge] {
        self.edges.get().map_or(&[], |e| e)
    }

    /// The child of edge `i`, if it exists.
    #[inline]
    pub fn child(&self, i: usize) -> Option<&Node> {
        self.child_view().get(i)
    }

    /// The children, read edge by edge (one lookup of the slot array for many reads).
    #[inline]
    pub fn child_view(&self) -> ChildView<'_> {
        ChildView {
            slots: self.children.get().map_or(&[], |c| c),
        }
    }

    /// The existing children with their edge indices.
    pub fn children(&self) -> impl Iterator<Item = (usize, &Node)> {
        (0..self.children.get().map_or(0, |c| c.len())).filter_map(|i| Some((i, self.child(i)?)))
    }

    /// The child of edge `i`, created now if the budget allows (`None` when it does not).
    pub fn child_or_create(&self, i: usize, budget: &impl MemoryBudget) -> Option<&Node> {
        if let Some(c) = self.child(i) {
            return Some(c);
        }
        let slots = match self.children.get() {
            Some(slots) => slots,
            None => {
                let n = self.edges().len();
                let bytes = children_bytes(n);
                if !budget.try_reserve(bytes) {
                    return None;
                }
                let fresh: Box<[AtomicPtr<Node>]> = (0..n)
                    .map(|_| AtomicPtr::new(std::ptr::null_mut()))
                    .collect();
                if self.children.set(fresh).is_err() {
                    // Another thread made the array first: ours was never used.
                    budget.release(bytes);
                }
                self.children.get()?
            }
        };
        if !budget.try_reserve(NODE_BYTES) {
            return None;
        }
        let fresh = Box::into_raw(Box::new(Node::new()));
        match slots[i].compare_exchange(
            std::ptr::null_mut(),
            fresh,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => {
                self.children_end.fetch_max(i as u16 + 1, Ordering::AcqRel);
                // SAFETY: we just published `fresh`; see `child`.
                unsafe { fresh.as_ref() }
            }
            Err(theirs) => {
                // Another thread won the race: free ours and use theirs.
                budget.release(NODE_BYTES);
                // SAFETY: `fresh` was never shared; `theirs` is owned by this node as above.
                unsafe {
                    drop(Box::from_raw(fresh));
                    theirs.as_ref()
                }
            }
        }
    }

    /// Detaches the child of edge `i` (tree reuse).
    pub(crate) fn take_child(&mut self, i: usize) -> Option<Box<Node>> {
        let slot = self.children.get_mut()?.get_mut(i)?;
        let p = std::mem::replace(slot.get_mut(), std::ptr::null_mut());
        // SAFETY: we own the pointer (see `child`) and have exclusive access.
        (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
    }

    /// Heap bytes of this node alone, as the budget counts them.
    pub fn own_bytes(&self) -> u64 {
        let edges = self.edges.get().map_or(0, |e| edges_bytes(e.len()));
        let children = self.children.get().map_or(0, |c| children_bytes(c.len()));
        NODE_BYTES + edges + children
    }
}

/// A node's child slots (see [`Node::child_view`]).
#[derive(Clone, Copy)]
pub struct ChildView<'a> {
    slots: &'a [AtomicPtr<Node>],
}

impl<'a> ChildView<'a> {
    /// The child of edge `i`, if it exists.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a Node> {
        let p = self.slots.get(i)?.load(Ordering::Acquire);
        // SAFETY: a non-null slot holds a pointer from `Box::into_raw` (see `child_or_create`)
        // that is only freed by `take_child` or `drop`, both of which need `&mut` access to the
        // node that owns the slots; so the child outlives this shared borrow of them.
        unsafe { p.as_ref() }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(slots) = self.children.get_mut() {
            for slot in slots.iter_mut() {
                let p = std::mem::replace(slot.get_mut(), std::ptr::null_mut());
                if !p.is_null() {
                    // SAFETY: owned pointer from `Box::into_raw`, freed once (the slot is now null).
                    drop(unsafe { Box::from_raw(p) });
                }
            }
        }
    }
}

/// A move out of a node: its board index and its prior (quantised to 16 bits). The prior is
/// atomic because a hybrid evaluator may re-price a node's moves while other threads read them.
#[derive(Debug)]
pub struct Edge {
    mv: u16,
    prior: AtomicU16,
}

const PRIOR_SCALE: f32 = u16::MAX as f32;

fn quantise_prior(prior: f32) -> u16 {
    (prior.clamp(0.0, 1.0) * PRIOR_SCALE).round() as u16
}

impl Edge {
    pub fn new(mv: usize, prior: f32) -> Edge {
        debug_assert!(mv <= u16::MAX as usize);
        Edge {
            mv: mv as u16,
            prior: AtomicU16::new(quantise_prior(prior)),
        }
    }

    /// The move as a board index.
    #[inline]
    pub fn mv(&self) -> usize {
        self.mv as usize
    }

    #[inline]
    pub fn prior(&self) -> f32 {
        self.quantised_prior() as f32 * (1.0 / PRIOR_SCALE)
    }

    #[inline]
    fn quantised_prior(&self) -> u16 {
        self.prior.load(Ordering::Relaxed)
    }

    /// Replaces the prior (a refinement of the node's first evaluation).
    pub fn set_prior(&self, prior: f32) {
        self.prior.store(quantise_prior(prior), Ordering::Relaxed);
    }
}

/// Bytes a node costs on the heap (the allocation plus the allocator's bookkeeping).
pub const NODE_BYTES: u64 = std::mem::size_of::<Node>() as u64 + 16;

/// Heap bytes of an edge array of `n` moves.
pub fn edges_bytes(n: usize) -> u64 {
    (std::mem::size_of::<Edge>() * n) as u64 + 16
}

/// Heap bytes of a child-pointer array of `n` slots.
pub fn children_bytes(n: usize) -> u64 {
    (std::mem::size_of::<AtomicPtr<Node>>() * n) as u64 + 16
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
        assert_eq!(n.playouts(), 4);
        assert_eq!(n.in_flight(), 0);
        let m = n.mean().unwrap();
        assert!((m.win - 1.5 / 4.0).abs() < 1e-5, "{m:?}");
        assert!((m.draw - 1.25 / 4.0).abs() < 1e-5, "{m:?}");
        assert!((m.loss - 1.25 / 4.0).abs() < 1e-5, "{m:?}");
        // A second opinion weighs in the mean and the visits, not the playouts.
        n.add_estimate(Wdl::WIN, 4);
        assert_eq!((n.visits(), n.playouts()), (8, 4));
        assert!((n.mean().unwrap().win - 5.5 / 8.0).abs() < 1e-5);
    }

    struct Nothing;
    impl MemoryBudget for Nothing {
        fn try_reserve(&self, _: u64) -> bool {
            false
        }
        fn release(&self, _: u64) {
            panic!("nothing was taken")
        }
    }

    #[test]
    fn children_are_created_once_and_detachable() {
        let mut n = Node::new();
        assert!(n.try_begin_expansion());
        n.finish_expansion(Some(vec![Edge::new(42, 0.5), Edge::new(7, 0.25)].into()));
        assert!(n.child(0).is_none());
        assert!(n.child_or_create(0, &Nothing).is_none());
        assert_eq!(
            n.own_bytes(),
            NODE_BYTES + edges_bytes(2),
            "no child slots yet"
        );
        let a = n.child_or_create(0, &Unlimited).unwrap() as *const Node;
        let b = n.child_or_create(0, &Nothing).unwrap() as *const Node;
        assert_eq!(a, b);
        assert_eq!(
            n.own_bytes(),
            NODE_BYTES + edges_bytes(2) + children_bytes(2)
        );
        assert_eq!(n.children().map(|(i, _)| i).collect::<Vec<_>>(), vec![0]);
        let taken = n.take_child(0).unwrap();
        assert_eq!(&*taken as *const Node, a);
        assert!(n.child(0).is_none());
        assert_eq!(n.edges()[0].mv(), 42);
        assert!((n.edges()[0].prior() - 0.5).abs() < 1e-4);
        assert!((n.edges()[1].prior() - 0.25).abs() < 1e-4);
        const { assert!(std::mem::size_of::<Edge>() == 4) };
        const { assert!(std::mem::size_of::<Node>() <= 80) };
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
