//! One search: the shared state of its threads and the playout loop each thread runs
//! (select with PUCT and virtual loss, expand and evaluate a leaf, back the value up, propagate
//! proofs).
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use super::movegen::Analysis;
use super::node::{edges_bytes, Edge, Expansion, MemoryBudget, Node, Proof};
use super::params::MctsParams;
use super::tactics::{KnownThreats, TacticalCheck};
use super::transpositions::Transpositions;
use super::tree::Tree;
use crate::game::Board;
use crate::search::evaluator::{Leaf, LeafEvaluator, Refinement, Wdl};
use crate::search::picker::{Picker, Stage};
use crate::search::Limits;

/// Plies credited to a loss against a VCF nothing refutes (its length is not known here; long
/// enough that a real mate in fewer plies is preferred when choosing among lost moves).
const LOST_TO_VCF: u32 = 8;

/// What the threads of one search share.
pub(crate) struct SharedSearch<'a> {
    pub tree: &'a Tree,
    pub params: &'a MctsParams,
    pub limits: &'a Limits,
    pub stop: &'a AtomicBool,
    pub tactics: Option<&'a dyn TacticalCheck>,
    /// Noise mixed into the root priors, one per root edge (empty: none).
    pub noise: Vec<f32>,
    pub started: Instant,
    /// Set when a limit is reached: every thread finishes its playout and leaves.
    pub finished: AtomicBool,
    /// Playouts completed (or reserved by a thread about to complete one).
    pub playouts: AtomicU64,
    pub collisions: AtomicU64,
    /// Deepest playout of this search, in plies from the root.
    pub max_depth: AtomicU32,
    /// When busy nodes get the evaluator's second opinion (`None`: never).
    pub refinement: Option<Refinement>,
    /// The expanded nodes by position, for positions reached again (empty: not shared).
    pub transpositions: Transpositions,
    /// Expansions that took a transposed node's moves and value.
    pub transposed: AtomicU64,
}

impl<'a> SharedSearch<'a> {
    pub fn new(
        tree: &'a Tree,
        params: &'a MctsParams,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        tactics: Option<&'a dyn TacticalCheck>,
    ) -> SharedSearch<'a> {
        SharedSearch {
            tree,
            params,
            limits,
            stop,
            tactics,
            noise: Vec::new(),
            started: Instant::now(),
            finished: AtomicBool::new(false),
            playouts: AtomicU64::new(0),
            collisions: AtomicU64::new(0),
            max_depth: AtomicU32::new(0),
            refinement: None,
            transpositions: Transpositions::none(),
            transposed: AtomicU64::new(0),
        }
    }

    pub fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    /// The cheap limits every thread checks before each playout.
    pub fn should_stop(&self) -> bool {
        if self.finished.load(Ordering::Relaxed) {
            return true;
        }
        // The target deadline is the monitor's call (it may extend it); the hard one is not.
        let done = self.stop.load(Ordering::Relaxed)
            || self.tree.root().proof().is_some()
            || self.limits.past_hard(Instant::now());
        if done {
            self.finish();
        }
        done
    }

    /// Reserves one playout under `max_nodes`; false when the limit is reached.
    fn reserve_playout(&self) -> bool {
        let n = self.playouts.fetch_add(1, Ordering::Relaxed);
        if self.limits.max_nodes.is_some_and(|max| n >= max) {
            self.playouts.fetch_sub(1, Ordering::Relaxed);
            self.finish();
            return false;
        }
        true
    }
}

/// How a playout ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Playout {
    Done,
    /// It met a node another thread is expanding and was taken back.
    Collision,
    /// No playout left under `max_nodes`.
    Refused,
}

/// One search thread.
pub(crate) struct SearchThread<'t> {
    leaf: Box<dyn LeafEvaluator>,
    board: Board,
    /// The move analysis (`picker.gen`) and, with `threat_stages`, its staging.
    picker: Picker,
    path: Vec<&'t Node>,
    priors: Vec<f32>,
    analysis: Analysis,
    /// A refined node's moves.
    moves: Vec<usize>,
    /// The threats of the position being expanded, for the tactical check.
    known: KnownThreats,
}

impl<'t> SearchThread<'t> {
    /// `reads_twos`: whether the evaluator reads the near points' twos (when it does not, the
    /// move analysis skips them: see `NearPoint::read_threats`).
    pub fn new(
        leaf: Box<dyn LeafEvaluator>,
        root_board: &Board,
        reads_twos: bool,
    ) -> SearchThread<'t> {
        let mut picker = Picker::new();
        picker.gen.set_threats_only(!reads_twos);
        SearchThread {
            leaf,
            board: root_board.clone(),
            picker,
            path: Vec::with_capacity(64),
            priors: Vec::with_capacity(64),
            analysis: Analysis::default(),
            moves: Vec::new(),
            known: KnownThreats::default(),
        }
    }

    /// Runs playouts until the search says stop. `on_tick` runs between playouts (the monitor's
    /// checks, on the thread that has them).
    pub fn run(&mut self, search: &SharedSearch<'t>, mut on_tick: impl FnMut()) {
        let mut collisions_in_a_row = 0u32;
        while !search.should_stop() {
            match self.playout(search) {
                Playout::Done => collisions_in_a_row = 0,
                Playout::Collision => {
                    collisions_in_a_row += 1;
                    // Everything worth visiting is being evaluated by others: let them work.
                    if collisions_in_a_row > 64 {
                        std::thread::sleep(std::time::Duration::from_micros(50));
                    } else if collisions_in_a_row > 4 {
                        std::thread::yield_now();
                    }
                }
                Playout::Refused => break,
            }
            on_tick();
        }
    }

    /// Expands the root if nobody has (whatever the limits: the answer needs its moves), and
    /// counts it as a playout.
    pub fn expand_root(&mut self, s: &SharedSearch<'t>) {
        let root = s.tree.root();
        if !root.try_begin_expansion() {
            return;
        }
        s.playouts.fetch_add(1, Ordering::Relaxed);
        self.path.clear();
        root.add_in_flight();
        self.path.push(root);
        let value = self.expand(root, s).expect("the root is evaluated");
        self.back_up(value);
    }

    /// One playout from the root.
    pub fn playout(&mut self, s: &SharedSearch<'t>) -> Playout {
        self.playout_from(s, None)
    }

    /// One playout that enters the root's edge `edge` (the Gumbel root's choice).
    pub fn playout_through(&mut self, s: &SharedSearch<'t>, edge: usize) -> Playout {
        self.playout_from(s, Some(edge))
    }

    /// One playout from the root, through `root_edge` when given, else by PUCT.
    fn playout_from(&mut self, s: &SharedSearch<'t>, root_edge: Option<usize>) -> Playout {
        if !s.reserve_playout() {
            return Playout::Refused;
        }
        let tree = s.tree;
        let root = tree.root();
        self.path.clear();
        root.add_in_flight();
        self.path.push(root);
        let mut node = root;
        // The leaf's value for its side to move.
        let value = loop {
            if let Some(p) = node.proof() {
                break p.wdl();
            }
            match node.expansion() {
                Expansion::Unexpanded => {
                    if tree.is_full() && node.visits() > 0 && self.path.len() > 1 {
                        // No room to grow: the node's own average stands in for an evaluation.
                        break node_value(node);
                    }
                    if node.try_begin_expansion() {
                        match self.expand(node, s) {
                            Some(value) => break value,
                            // A forced reply: its position is not evaluated, the one after is.
                            None => match self.descend(node, s, &[], None) {
                                Some(child) => node = child,
                                None => break self.evaluate_analysed(),
                            },
                        }
                    }
                    // Someone else claimed it just now; look again.
                }
                Expansion::Expanding => {
                    self.take_back();
                    s.playouts.fetch_sub(1, Ordering::Relaxed);
                    s.collisions.fetch_add(1, Ordering::Relaxed);
                    return Playout::Collision;
                }
                Expansion::Expanded => {
                    if let Some(r) = s.refinement {
                        if node.visits() >= r.after_visits && node.try_claim_refinement() {
                            self.refine(node, r);
                        }
                    }
                    let at_root = self.path.len() == 1;
                    let noise: &[f32] = if at_root { &s.noise } else { &[] };
                    let forced = root_edge.filter(|_| at_root);
                    let Some(child) = self.descend(node, s, noise, forced) else {
                        break node_value(node);
                    };
                    node = child;
                }
            }
        };
        self.back_up(value);
        let depth = self.path.len() as u32 - 1;
        s.max_depth.fetch_max(depth, Ordering::Relaxed);
        for _ in 1..self.path.len() {
            self.board.undo();
        }
        Playout::Done
    }

    /// Picks a child of the expanded `node` (edge `forced` when given and on the node), plays
    /// its move and enters it. `None` when there is nothing to enter (no moves, or the tree is
    /// full and no child exists).
    fn descend(
        &mut self,
        node: &'t Node,
        s: &SharedSearch<'t>,
        noise: &[f32],
        forced: Option<usize>,
    ) -> Option<&'t Node> {
        let edges = node.edges();
        let i = match forced.filter(|&i| i < edges.len()) {
            Some(i) => i,
            None => select(node, s.params, noise, false)?,
        };
        let (i, child) = match node.child_or_create(i, s.tree) {
            Some(c) => (i, c),
            None => {
                let j = select(node, s.params, noise, true)?;
                (j, node.child(j)?)
            }
        };
        self.board.play_unchecked(edges[i].mv());
        child.add_in_flight();
        self.path.push(child);
        Some(child)
    }

    /// Expands `node` (this thread claimed it) at the end of the path; returns its value, or
    /// `None` for a forced reply passed through unevaluated (`extend_forced`): its one move is
    /// in place and the playout goes on to the position after it.
    fn expand(&mut self, node: &Node, s: &SharedSearch<'t>) -> Option<Wdl> {
        let is_root = self.path.len() == 1;
        let hash = self.board.hash();
        if !is_root {
            if let Some(value) = Self::expand_from_transposition(node, s, hash) {
                return Some(value);
            }
        }
        let exclude: &[usize] = if is_root { s.tree.exclude() } else { &[] };
        let analysis = &mut self.analysis;
        let mut proof = None;
        if s.params.threat_stages && !is_root {
            if let Stage::Decided(p) = self.picker.pick(&mut self.board, exclude, analysis) {
                proof = Some(p);
            }
        } else {
            self.picker.gen.analyse_into(&self.board, exclude, analysis);
            if s.params.three_defence && !is_root {
                self.picker
                    .gen
                    .keep_three_defences(&mut self.board, analysis);
            }
            proof = analysis.proof;
        }
        if proof.is_none() && !is_root {
            // Not at the root: a proof there would say who wins but not with which move; the
            // root is proven through its children instead.
            let extended = s.params.tree_defence || s.params.tree_vct_nodes > 0;
            self.known
                .read(&analysis.near, self.board.side_to_move(), extended);
            proof = probe(s.tactics, &self.board, &self.known);
        }
        if proof.is_none() && !is_root && s.params.tree_defence {
            // The opponent threatens a VCF: only its refutations are worth searching.
            if let Some(only) = s
                .tactics
                .and_then(|t| t.refutations(&self.board, &self.known))
            {
                analysis.moves.retain(|m| only.contains(m));
                if analysis.moves.is_empty() {
                    proof = Some(Proof::Loss(LOST_TO_VCF));
                }
            }
        }
        let moves = &analysis.moves;
        if s.params.extend_forced && proof.is_none() && !is_root && moves.len() == 1 {
            let edge = Edge::new(moves[0], 1.0);
            if !s.tree.is_full() && s.tree.try_reserve(edges_bytes(1)) {
                node.finish_expansion(Some(Box::new([edge])));
                return None;
            }
        }
        let value = match proof {
            Some(p) if !is_root => {
                // A decided position needs no evaluation; its moves only show the way.
                self.priors.clear();
                self.priors
                    .resize(moves.len(), 1.0 / moves.len().max(1) as f32);
                p.wdl()
            }
            _ => {
                let leaf = Leaf {
                    board: &self.board,
                    moves,
                    near: &analysis.near,
                };
                let v = self.leaf.evaluate(&leaf, &mut self.priors);
                soften(&mut self.priors, s.params.policy_temperature);
                proof.map_or(v, Proof::wdl)
            }
        };
        if let Some(p) = proof {
            node.set_proof(p);
        }
        let edges = moves
            .iter()
            .zip(&self.priors)
            .map(|(&m, &p)| Edge::new(m, p));
        if install_edges(node, s, edges, is_root) && !is_root {
            s.transpositions.insert(hash, node);
        }
        Some(value)
    }

    /// Expands `node` as a copy of the node expanded earlier for the same position (reached by
    /// another order of moves): its moves with their priors, its proof, and its mean as the
    /// leaf's value, a better estimate than a fresh evaluation once it has been searched.
    /// `None` where there is no such node or it cannot stand in (not yet visited, or a forced
    /// reply that `extend_forced` plays through).
    fn expand_from_transposition(node: &Node, s: &SharedSearch<'t>, hash: u64) -> Option<Wdl> {
        let src = s.transpositions.get(hash)?;
        if std::ptr::eq(src, node) || src.expansion() != Expansion::Expanded {
            return None;
        }
        let proof = src.proof();
        let edges = src.edges();
        if proof.is_none() && (edges.is_empty() || (s.params.extend_forced && edges.len() == 1)) {
            return None;
        }
        let value = match proof {
            Some(p) => p.wdl(),
            None => src.mean()?.flip(),
        };
        if let Some(p) = proof {
            node.set_proof(p);
        }
        let copy = edges.iter().map(|e| Edge::new(e.mv(), e.prior()));
        install_edges(node, s, copy, false);
        s.transposed.fetch_add(1, Ordering::Relaxed);
        Some(value)
    }

    /// The evaluator's value of the position on the board, whose analysis `expand` left in
    /// `self.analysis` (a forced reply whose child could not be made: the tree is full).
    fn evaluate_analysed(&mut self) -> Wdl {
        let leaf = Leaf {
            board: &self.board,
            moves: &self.analysis.moves,
            near: &self.analysis.near,
        };
        self.leaf.evaluate(&leaf, &mut self.priors)
    }

    /// Asks the evaluator for its second opinion on the expanded `node` (the position on the
    /// board now): new priors for its moves, and its value as `r.value_weight` extra visits.
    fn refine(&mut self, node: &Node, r: Refinement) {
        let edges = node.edges();
        if edges.len() < 2 {
            return;
        }
        self.moves.clear();
        self.moves.extend(edges.iter().map(Edge::mv));
        self.priors.clear();
        self.priors.extend(edges.iter().map(Edge::prior));
        let leaf = Leaf {
            board: &self.board,
            moves: &self.moves,
            near: &[],
        };
        let Some(value) = self.leaf.refine(&leaf, &mut self.priors) else {
            return;
        };
        for (e, &p) in edges.iter().zip(&self.priors) {
            e.set_prior(p);
        }
        if r.value_weight > 0 {
            // Node statistics are the mover's; the evaluator speaks for the side to move.
            node.add_estimate(value.flip(), r.value_weight);
        }
    }

    /// Adds the playout's result to every node of the path, then settles proofs upwards.
    fn back_up(&mut self, leaf_value: Wdl) {
        // Node statistics belong to the player who moved into the node.
        let mut v = leaf_value.flip();
        for n in self.path.iter().rev() {
            n.record(v);
            v = v.flip();
        }
        let leaf = self.path[self.path.len() - 1];
        if leaf.proof().is_some() {
            for n in self.path.iter().rev().skip(1) {
                if !update_proof(n) {
                    break;
                }
            }
        }
    }

    /// Undoes a playout that collided: virtual losses off, moves taken back.
    fn take_back(&mut self) {
        for n in &self.path {
            n.remove_in_flight();
        }
        for _ in 1..self.path.len() {
            self.board.undo();
        }
    }
}

/// Ends the expansion of `node` with `edges` where the tree's budget has room for them (the
/// root always has), else leaves it unexpanded; true if the edges went in.
fn install_edges(
    node: &Node,
    s: &SharedSearch<'_>,
    edges: impl ExactSizeIterator<Item = Edge>,
    is_root: bool,
) -> bool {
    let bytes = edges_bytes(edges.len());
    let fits = if is_root {
        s.tree.force_reserve(bytes);
        true
    } else {
        edges.len() == 0 || s.tree.try_reserve(bytes)
    };
    node.finish_expansion(fits.then(|| edges.collect()));
    fits
}

/// The tactical check of `board`, whose move analysis (which settled the fives) found `known`.
fn probe(
    tactics: Option<&dyn TacticalCheck>,
    board: &Board,
    known: &KnownThreats,
) -> Option<Proof> {
    tactics
        .filter(|t| t.worth_asking(known))
        .and_then(|t| t.prove(board, known))
}

/// A node's value for its side to move from its own statistics (even when there are none).
fn node_value(node: &Node) -> Wdl {
    node.mean().map_or(Wdl::new(0.5, 0.0, 0.5), |m| m.flip())
}

/// The score, for the player who moved into `c`, of the opponent's best answer among those
/// with at least an eighth of `c`'s visits (1 when none has).
fn best_answer_score(c: &Node, dw: f32) -> f32 {
    let floor = (c.visits() / 8).max(1);
    let mut worst = 1.0f32;
    for g in (0..c.children_end()).filter_map(|i| c.child(i)) {
        if g.visits() >= floor && g.proof().is_none() {
            worst = worst.min(node_value(g).score(dw));
        }
    }
    worst
}

/// The PUCT choice among `node`'s edges; `existing_only` skips edges without a child node.
pub(crate) fn select(
    node: &Node,
    params: &MctsParams,
    noise: &[f32],
    existing_only: bool,
) -> Option<usize> {
    let edges = node.edges();
    let dw = params.draw_weight();
    let parent_visits = node.visits() + node.in_flight();
    let explore = params.exploration * (parent_visits.max(1) as f32).sqrt();
    let fpu = (node_value(node).score(dw) - params.fpu_reduction).max(0.0);
    let mix = params.root_noise.filter(|_| !noise.is_empty());
    let children = node.child_view();
    // Edges come in falling order of prior, and every edge from `children_end` on has no
    // child: of those, only the first can win (they all score `fpu + explore * prior`), unless
    // noise or a refinement reorders the priors.
    let scanned = if mix.is_some() || node.is_refined() {
        edges.len()
    } else {
        (node.children_end() + usize::from(!existing_only)).min(edges.len())
    };
    // The children live apart on the heap: ask for all of them before reading any, so that
    // their cache misses overlap instead of following one another.
    for i in 0..scanned.min(node.children_end()) {
        if let Some(c) = children.get(i) {
            prefetch(c);
        }
    }
    let mut best: Option<(usize, f32)> = None;
    for (i, e) in edges[..scanned].iter().enumerate() {
        let mut prior = e.prior();
        if let Some(mix) = mix {
            prior = (1.0 - mix.fraction) * prior + mix.fraction * noise[i];
        }
        let score = match children.get(i) {
            None if existing_only => continue,
            None => fpu + explore * prior,
            Some(c) => {
                let n = c.visits();
                let vl = c.in_flight();
                let q = match c.proof() {
                    None if n + vl == 0 => fpu,
                    None => {
                        let (w, d) = c.sums();
                        let q = (w + dw * d) / (n as f32 + params.virtual_loss * vl as f32);
                        if params.minimax_visits > 0 && n >= params.minimax_visits {
                            q.min(best_answer_score(c, dw))
                        } else {
                            q
                        }
                    }
                    // The opponent is lost there: nothing beats it (the node's own proof follows).
                    Some(Proof::Loss(_)) => return Some(i),
                    // Lost for us: only if nothing else is left, then the longest.
                    Some(Proof::Win(plies)) => {
                        let score = -10.0 + plies as f32 * 1e-3;
                        if best.is_none_or(|(_, b)| score > b) {
                            best = Some((i, score));
                        }
                        continue;
                    }
                    Some(Proof::Draw) => dw,
                };
                q + explore * prior / (1.0 + (n + vl) as f32)
            }
        };
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

/// Asks the CPU to bring `node`'s statistics into the cache.
#[inline]
fn prefetch(node: &Node) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = node as *const Node as *const i8;
        _mm_prefetch(p, _MM_HINT_T0);
        _mm_prefetch(p.wrapping_add(64), _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = node;
}

/// Raises `priors` to the power `1 / temperature` and normalises them again.
fn soften(priors: &mut [f32], temperature: f32) {
    if temperature == 1.0 || priors.is_empty() {
        return;
    }
    let power = temperature.recip();
    let mut sum = 0.0;
    for p in priors.iter_mut() {
        *p = p.powf(power);
        sum += *p;
    }
    if sum > 0.0 {
        priors.iter_mut().for_each(|p| *p /= sum);
    }
}

/// Settles `node`'s proof from its children's (MCTS-solver); true if it was set now.
pub(crate) fn update_proof(node: &Node) -> bool {
    if node.proof().is_some() || node.expansion() != Expansion::Expanded {
        return false;
    }
    let edges = node.edges();
    if edges.is_empty() {
        return false;
    }
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss = 0;
    let mut all_proven = true;
    let mut any_draw = false;
    for i in 0..edges.len() {
        match node.child(i).and_then(Node::proof) {
            Some(Proof::Loss(n)) => {
                fastest_win = Some(fastest_win.map_or(n + 1, |w| w.min(n + 1)));
            }
            Some(Proof::Win(n)) => slowest_loss = slowest_loss.max(n + 1),
            Some(Proof::Draw) => any_draw = true,
            None => all_proven = false,
        }
    }
    let proof = match fastest_win {
        Some(n) => Proof::Win(n),
        None if !all_proven => return false,
        None if any_draw => Proof::Draw,
        None => Proof::Loss(slowest_loss),
    };
    node.set_proof(proof)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::node::Unlimited;

    fn expanded(n: usize) -> Node {
        let node = Node::new();
        assert!(node.try_begin_expansion());
        let edges: Vec<Edge> = (0..n).map(|i| Edge::new(i, 1.0 / n as f32)).collect();
        node.finish_expansion(Some(edges.into_boxed_slice()));
        node
    }

    fn child(node: &Node, i: usize) -> &Node {
        node.child_or_create(i, &Unlimited).unwrap()
    }

    #[test]
    fn a_lost_child_proves_a_win_and_all_won_children_a_loss() {
        let node = expanded(3);
        assert!(!update_proof(&node));
        child(&node, 0).set_proof(Proof::Win(4));
        child(&node, 1).set_proof(Proof::Loss(6));
        assert!(update_proof(&node));
        assert_eq!(node.proof(), Some(Proof::Win(7)));

        let node = expanded(2);
        child(&node, 0).set_proof(Proof::Win(2));
        assert!(!update_proof(&node), "one child still open");
        child(&node, 1).set_proof(Proof::Win(8));
        assert!(update_proof(&node));
        assert_eq!(node.proof(), Some(Proof::Loss(9)), "the longest resistance");

        let node = expanded(2);
        child(&node, 0).set_proof(Proof::Win(2));
        child(&node, 1).set_proof(Proof::Draw);
        assert!(update_proof(&node));
        assert_eq!(node.proof(), Some(Proof::Draw));
    }

    /// Records `n` visits of value `win` (for the player who moved into `node`).
    fn visit(node: &Node, n: u32, win: f32) {
        for _ in 0..n {
            node.add_in_flight();
            node.record(Wdl::new(win, 0.0, 1.0 - win));
        }
    }

    #[test]
    fn a_refutation_found_late_counts_once_the_move_is_well_searched() {
        // Move 0 looks better on average (0.6 against 0.5), but below it the opponent's
        // second answer, searched a third of the time, wins 80 % for it: 0.2 for us.
        let root = expanded(2);
        let (a, b) = (child(&root, 0), child(&root, 1));
        assert!(a.try_begin_expansion());
        a.finish_expansion(Some(vec![Edge::new(0, 0.5), Edge::new(1, 0.5)].into()));
        visit(child(a, 0), 200, 0.2);
        visit(child(a, 1), 100, 0.8);
        visit(a, 300, 0.6);
        visit(b, 300, 0.5);
        visit(&root, 600, 0.5);
        let mut params = MctsParams {
            exploration: 0.1,
            ..MctsParams::default()
        };
        assert_eq!(select(&root, &params, &[], true), Some(0), "the mean alone");
        params.minimax_visits = 300;
        assert_eq!(
            select(&root, &params, &[], true),
            Some(1),
            "the answer below counts"
        );
        params.minimax_visits = 301;
        assert_eq!(
            select(&root, &params, &[], true),
            Some(0),
            "not yet searched enough"
        );
        // An answer with less than an eighth of the move's visits is not trusted.
        assert!((best_answer_score(a, 0.5) - 0.2).abs() < 1e-3);
        visit(child(a, 0), 800, 0.2);
        visit(a, 800, 0.6);
        assert!(
            (best_answer_score(a, 0.5) - 0.8).abs() < 1e-3,
            "only the first answer counts"
        );
    }

    /// The move of the edge `select` picks.
    fn picked(node: &Node, existing_only: bool) -> Option<usize> {
        let params = MctsParams::default();
        select(node, &params, &[], existing_only).map(|i| node.edges()[i].mv())
    }

    /// The child of the edge of move `mv`, created if need be.
    fn child_of(node: &Node, mv: usize) -> &Node {
        let i = node.edges().iter().position(|e| e.mv() == mv).unwrap();
        child(node, i)
    }

    #[test]
    fn selection_prefers_prior_then_value_and_skips_lost_moves() {
        let node = Node::new();
        assert!(node.try_begin_expansion());
        let edges = vec![Edge::new(0, 0.1), Edge::new(1, 0.6), Edge::new(2, 0.3)];
        node.finish_expansion(Some(edges.into_boxed_slice()));
        assert_eq!(picked(&node, false), Some(1));
        assert_eq!(picked(&node, true), None, "no child exists yet");
        // The favourite turns out lost for us: the next best prior is tried.
        child_of(&node, 1).set_proof(Proof::Win(3));
        assert_eq!(picked(&node, false), Some(2));
        // A child lost for the opponent is taken at once, even past the unvisited moves.
        child_of(&node, 0).set_proof(Proof::Loss(2));
        assert_eq!(picked(&node, false), Some(0));
    }

    #[test]
    fn reading_up_to_the_last_child_picks_what_a_full_scan_picks() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..200 {
            let node = Node::new();
            assert!(node.try_begin_expansion());
            let n = rng.gen_range(1..40);
            let edges: Vec<Edge> = (0..n).map(|m| Edge::new(m, rng.gen::<f32>())).collect();
            node.finish_expansion(Some(edges.into_boxed_slice()));
            let priors: Vec<f32> = node.edges().iter().map(Edge::prior).collect();
            assert!(priors.windows(2).all(|w| w[0] >= w[1]), "falling priors");
            // Children anywhere (not only a prefix), some of them much visited.
            for _ in 0..rng.gen_range(0..6) {
                let c = child(&node, rng.gen_range(0..n));
                for _ in 0..rng.gen_range(0..30) {
                    let win = rng.gen::<f32>();
                    node.add_in_flight();
                    node.record(Wdl::new(0.5, 0.0, 0.5));
                    c.add_in_flight();
                    c.record(Wdl::new(win, 0.0, 1.0 - win));
                }
            }
            let short = (picked(&node, false), picked(&node, true));
            // A claimed refinement makes `select` read every edge.
            assert!(node.try_claim_refinement());
            assert_eq!(short, (picked(&node, false), picked(&node, true)));
        }
    }

    #[test]
    fn a_policy_temperature_flattens_the_priors_and_keeps_their_order() {
        let mut p = vec![0.7, 0.2, 0.1];
        soften(&mut p, 1.0);
        assert_eq!(p, vec![0.7, 0.2, 0.1]);
        soften(&mut p, 2.0);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(p[0] > p[1] && p[1] > p[2]);
        assert!(p[0] < 0.7 && p[2] > 0.1, "flatter: {p:?}");
        let (a, b) = (0.7f32.sqrt(), 0.2f32.sqrt());
        assert!((p[0] / p[1] - a / b).abs() < 1e-5);
    }

    #[test]
    fn virtual_loss_steers_threads_apart() {
        let params = MctsParams::default();
        let node = Node::new();
        assert!(node.try_begin_expansion());
        let edges = vec![Edge::new(0, 0.5), Edge::new(1, 0.5)];
        node.finish_expansion(Some(edges.into_boxed_slice()));
        for i in 0..2 {
            let c = child(&node, i);
            for _ in 0..10 {
                node.add_in_flight();
                node.record(Wdl::new(0.5, 0.0, 0.5));
                c.add_in_flight();
                c.record(Wdl::new(0.5, 0.0, 0.5));
            }
        }
        let first = select(&node, &params, &[], false).unwrap();
        // A playout in flight through `first` makes the other edge the better pick.
        child(&node, first).add_in_flight();
        node.add_in_flight();
        assert_eq!(select(&node, &params, &[], false), Some(1 - first));
    }

    /// Uniform priors and an even value; the refinement puts every prior on the last move and
    /// calls the position won for the side to move.
    struct Refining {
        refined: std::sync::Arc<AtomicU32>,
    }

    impl LeafEvaluator for Refining {
        fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
            priors.clear();
            priors.resize(leaf.moves.len(), 1.0 / leaf.moves.len() as f32);
            Wdl::new(0.5, 0.0, 0.5)
        }

        fn refine(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Option<Wdl> {
            assert_eq!(priors.len(), leaf.moves.len(), "the current priors come in");
            self.refined.fetch_add(1, Ordering::Relaxed);
            priors.iter_mut().for_each(|p| *p = 0.0);
            *priors.last_mut()? = 1.0;
            Some(Wdl::WIN)
        }
    }

    #[test]
    fn busy_nodes_are_refined_once_with_new_priors_and_a_weighted_value() {
        use crate::game::{Point, Rule};
        let board = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
        let tree = Tree::new(board.clone(), Vec::new());
        let params = MctsParams::default();
        let limits = Limits::infinite(1);
        let stop = AtomicBool::new(false);
        let mut search = SharedSearch::new(&tree, &params, &limits, &stop, None);
        search.refinement = Some(Refinement {
            after_visits: 3,
            value_weight: 5,
        });
        let refined = std::sync::Arc::new(AtomicU32::new(0));
        let leaf = Box::new(Refining {
            refined: refined.clone(),
        });
        let mut worker = SearchThread::new(leaf, &board, true);
        worker.expand_root(&search);
        let root = tree.root();
        let n = root.edges().len();
        assert!(n > 2);
        assert!(
            root.edges().iter().all(|e| e.prior() < 0.5),
            "classical first"
        );
        worker.playout(&search);
        worker.playout(&search);
        assert_eq!(refined.load(Ordering::Relaxed), 0, "not busy yet");
        assert_eq!(root.visits(), 3);
        worker.playout(&search);
        assert_eq!(refined.load(Ordering::Relaxed), 1);
        assert!(root.edges()[n - 1].prior() > 0.99);
        assert!(root.edges()[..n - 1].iter().all(|e| e.prior() == 0.0));
        // 3 playouts, 5 visits' worth of the refined value, and the playout that refined it.
        assert_eq!(root.visits(), 3 + 5 + 1);
        // The side to move at the root is called won: the mover into the root has lost.
        let mean = root.mean().unwrap();
        assert!(mean.loss > 0.5, "{mean:?}");
        // The refined prior steers the next playouts; the root is never refined again.
        for _ in 0..10 {
            worker.playout(&search);
        }
        assert!(root.child(n - 1).unwrap().visits() >= 5);
        assert!(!root.try_claim_refinement(), "one refinement per node");
    }

    /// Uniform priors and an even value; counts the positions it is asked about, and those that
    /// have a single move.
    struct CountingForced {
        forced: std::sync::Arc<AtomicU32>,
        /// Every evaluation.
        evaluated: std::sync::Arc<AtomicU32>,
    }

    impl LeafEvaluator for CountingForced {
        fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
            self.evaluated.fetch_add(1, Ordering::Relaxed);
            if leaf.moves.len() == 1 {
                self.forced.fetch_add(1, Ordering::Relaxed);
            }
            priors.clear();
            priors.resize(leaf.moves.len(), 1.0 / leaf.moves.len() as f32);
            Wdl::new(0.5, 0.0, 0.5)
        }
    }

    /// Forced positions evaluated in 400 playouts from a position where black, to move, has a
    /// three closed at one end (each of its fours leaves white one block), and the tree.
    fn search_a_closed_three(extend_forced: bool) -> (u32, Tree) {
        use crate::game::{Point, Rule};
        let moves = [(7, 7), (6, 7), (8, 7), (0, 0), (9, 7), (0, 14)];
        let moves: Vec<Point> = moves.iter().map(|&(x, y)| Point::new(x, y)).collect();
        let board = Board::from_moves(15, 15, Rule::Freestyle, &moves).unwrap();
        let tree = Tree::new(board.clone(), Vec::new());
        let params = MctsParams {
            extend_forced,
            ..MctsParams::default()
        };
        let limits = Limits::infinite(1);
        let stop = AtomicBool::new(false);
        let search = SharedSearch::new(&tree, &params, &limits, &stop, None);
        let forced = std::sync::Arc::new(AtomicU32::new(0));
        let leaf = Box::new(CountingForced {
            forced: forced.clone(),
            evaluated: std::sync::Arc::new(AtomicU32::new(0)),
        });
        let mut worker = SearchThread::new(leaf, &board, true);
        worker.expand_root(&search);
        for _ in 0..400 {
            assert_eq!(worker.playout(&search), Playout::Done);
        }
        assert_eq!(worker.board, board, "every playout takes its moves back");
        let count = forced.load(Ordering::Relaxed);
        (count, tree)
    }

    #[test]
    fn forced_replies_are_played_through_without_an_evaluation() {
        let (evaluated, _) = search_a_closed_three(false);
        assert!(
            evaluated > 0,
            "the fours' blocks are evaluated without the switch"
        );
        let (evaluated, tree) = search_a_closed_three(true);
        assert_eq!(evaluated, 0);
        let root = tree.root();
        assert_eq!(root.visits(), 401);
        // Each four of black's leads to white's one block, entered in the same playout.
        let mut fours = 0;
        for (i, e) in root.edges().iter().enumerate() {
            let Some(reply) = root.child(i) else { continue };
            if reply.expansion() != Expansion::Expanded || reply.edges().len() != 1 {
                continue;
            }
            fours += 1;
            let block = reply.child(0).expect("the block is entered at once");
            assert_eq!(block.visits(), reply.visits(), "move {}", e.mv());
        }
        assert!(fours >= 2, "{fours} fours searched");
    }

    /// Priors that favour the same few points in every position (so that moves of one side
    /// commute, as good shapes do) and a value near even that each position draws from its
    /// hash; counts its evaluations.
    struct ValuedByHash {
        evaluated: std::sync::Arc<AtomicU32>,
    }

    impl LeafEvaluator for ValuedByHash {
        fn evaluate(&mut self, leaf: &Leaf<'_>, priors: &mut Vec<f32>) -> Wdl {
            self.evaluated.fetch_add(1, Ordering::Relaxed);
            priors.clear();
            priors.extend(
                leaf.moves
                    .iter()
                    .map(|&m| (-(((m as u64 * 2_654_435_761) % 97) as f32) / 10.0).exp()),
            );
            let sum: f32 = priors.iter().sum();
            priors.iter_mut().for_each(|p| *p /= sum);
            let win = 0.4 + 0.2 * (leaf.board.hash() % 1000) as f32 / 1000.0;
            Wdl::new(win, 0.0, 1.0 - win)
        }
    }

    /// Evaluations asked for in `playouts` playouts from a two-stone position, the expansions
    /// that copied a transposed node, and the search.
    fn search_with_transpositions(on: bool, playouts: usize) -> (u32, u64, Tree) {
        use crate::game::{Point, Rule};
        let moves = [Point::new(7, 7), Point::new(8, 8)];
        let board = Board::from_moves(9, 9, Rule::Freestyle, &moves).unwrap();
        let tree = Tree::new(board.clone(), Vec::new());
        let params = MctsParams {
            transpositions: on,
            ..MctsParams::default()
        };
        let limits = Limits::infinite(1);
        let stop = AtomicBool::new(false);
        let mut search = SharedSearch::new(&tree, &params, &limits, &stop, None);
        if on {
            search.transpositions = Transpositions::with_bytes(1 << 16);
        }
        let evaluated = std::sync::Arc::new(AtomicU32::new(0));
        let leaf = Box::new(ValuedByHash {
            evaluated: evaluated.clone(),
        });
        let mut worker = SearchThread::new(leaf, &board, true);
        worker.expand_root(&search);
        for _ in 0..playouts {
            assert_eq!(worker.playout(&search), Playout::Done);
        }
        assert_eq!(worker.board, board, "every playout takes its moves back");
        let transposed = search.transposed.load(Ordering::Relaxed);
        drop(search);
        (evaluated.load(Ordering::Relaxed), transposed, tree)
    }

    /// Every expanded node under `node` (the position `board`) by its position's hash: its
    /// moves, sorted.
    fn moves_by_position(
        node: &Node,
        board: &mut Board,
        out: &mut std::collections::HashMap<u64, Vec<Vec<usize>>>,
    ) {
        if node.expansion() != Expansion::Expanded {
            return;
        }
        let mut mv: Vec<usize> = node.edges().iter().map(Edge::mv).collect();
        mv.sort_unstable();
        out.entry(board.hash()).or_default().push(mv);
        for (i, child) in node.children() {
            board.play_unchecked(node.edges()[i].mv());
            moves_by_position(child, board, out);
            board.undo();
        }
    }

    #[test]
    fn a_position_reached_again_takes_the_first_nodes_moves_without_an_evaluation() {
        let (plain, none, _) = search_with_transpositions(false, 3000);
        assert_eq!(none, 0);
        let (shared, transposed, tree) = search_with_transpositions(true, 3000);
        assert!(transposed > 100, "{transposed} transpositions");
        // An expansion is either evaluated or copied: the two searches expand about as often.
        let expanded = shared + transposed as u32;
        assert!(shared < plain, "{shared} evaluations against {plain}");
        assert!(
            expanded.abs_diff(plain) < plain / 20,
            "{expanded} expansions against {plain}"
        );
        let mut board = tree.board().clone();
        let mut seen = std::collections::HashMap::new();
        moves_by_position(tree.root(), &mut board, &mut seen);
        let repeated = seen.values().filter(|v| v.len() > 1).count();
        assert!(
            repeated > 10,
            "{repeated} positions expanded more than once"
        );
        for lists in seen.values() {
            assert!(
                lists.windows(2).all(|w| w[0] == w[1]),
                "one position, one set of moves"
            );
        }
    }
}
