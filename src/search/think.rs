//! What the controller hands a search and what it gets back.
use crate::game::{Board, Color, Point};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Receives a running search's current view (live analysis output, Yixin-Board's REALTIME):
/// the search so far, and its best move.
pub type ProgressSink = Arc<dyn Fn(&SearchInfo, Option<Point>) + Send + Sync>;

/// How draws are valued (`INFO style`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// Maximise not losing: a draw counts nearly as a win.
    Defensive,
    /// Maximise the expected result: a draw is half a win.
    #[default]
    Classic,
    /// Maximise winning: a draw counts nearly as a loss.
    Offensive,
}

impl Style {
    /// `INFO style` values: 0 defensive, 1 classic, 2 offensive.
    pub fn from_protocol(v: i64) -> Option<Style> {
        match v {
            0 => Some(Style::Defensive),
            1 => Some(Style::Classic),
            2 => Some(Style::Offensive),
            _ => None,
        }
    }

    /// The worth of a draw between a loss (0) and a win (1). Not quite 1 or 0, so that even a
    /// defensive search still prefers a real win to a draw, and an offensive one a draw to a loss.
    pub fn draw_weight(self) -> f32 {
        match self {
            Style::Defensive => 0.9,
            Style::Classic => 0.5,
            Style::Offensive => 0.1,
        }
    }
}

/// When and how much to search.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Aim to stop here (unless the search is already sure of its move).
    pub target: Option<Instant>,
    /// Never search past this.
    pub hard: Option<Instant>,
    /// `INFO max_node`: stop after this many nodes (playouts).
    pub max_nodes: Option<u64>,
    /// `INFO max_depth`: stop once the principal variation is this deep.
    pub max_depth: Option<u32>,
    pub threads: usize,
    /// Memory the search may use for its tree and caches.
    pub max_memory_bytes: Option<u64>,
    /// Whether time left unused at the target goes to later searches (a match clock, the
    /// evaluations of an opening duty sharing one deadline). Only then does a search stop
    /// early once its choice is settled; otherwise the rest of the time still grows the tree
    /// the next move reuses.
    pub saved_time_banked: bool,
}

impl Limits {
    /// No limit but the stop flag.
    pub fn infinite(threads: usize) -> Limits {
        Limits {
            target: None,
            hard: None,
            max_nodes: None,
            max_depth: None,
            threads,
            max_memory_bytes: None,
            saved_time_banked: false,
        }
    }

    /// Stop after `ms` milliseconds from now.
    pub fn movetime(ms: u64, threads: usize) -> Limits {
        let at = Instant::now() + Duration::from_millis(ms);
        Limits {
            target: Some(at),
            hard: Some(at),
            ..Limits::infinite(threads)
        }
    }

    /// Whether the hard deadline has passed.
    pub fn past_hard(&self, now: Instant) -> bool {
        self.hard.is_some_and(|h| now >= h)
    }

    /// Whether the target deadline has passed.
    pub fn past_target(&self, now: Instant) -> bool {
        self.target.is_some_and(|t| now >= t) || self.past_hard(now)
    }
}

/// A search's verdict on the root position, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Eval {
    /// Expected outcome probabilities.
    Winrate { win: f32, draw: f32, loss: f32 },
    /// Proven win in so many plies (counting our winning move).
    Win(u32),
    /// Proven loss in so many plies.
    Loss(u32),
    /// Proven draw.
    Draw,
}

impl Eval {
    /// Probability of winning plus half a draw, in [0, 1].
    pub fn score(&self) -> f32 {
        match *self {
            Eval::Winrate { win, draw, .. } => win + 0.5 * draw,
            Eval::Win(_) => 1.0,
            Eval::Loss(_) => 0.0,
            Eval::Draw => 0.5,
        }
    }
}

/// What a search found, for the MESSAGE line and the analysis answers.
#[derive(Debug, Clone)]
pub struct SearchInfo {
    pub depth_min: u32,
    pub depth_max: u32,
    pub eval: Eval,
    /// Nodes (playouts or evaluated positions) searched this move.
    pub nodes: u64,
    pub elapsed: Duration,
    /// Principal variation from the root, the best move first, with the colour of each stone.
    pub pv: Vec<(Color, Point)>,
}

impl SearchInfo {
    pub fn nodes_per_second(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            self.nodes
        }
    }
}

/// The answer of one search.
#[derive(Debug, Clone)]
pub struct ThinkResult {
    /// The move to play; `None` only when no legal move exists.
    pub best: Option<Point>,
    pub info: SearchInfo,
    /// The root moves ranked best first, with their scores in [0, 1]: multi-PV answers use it.
    pub ranked: Vec<(Point, f32)>,
    /// Root visit counts of a tree search (the self-play policy target), in no set order;
    /// empty for thinkers that do not count visits or when a solver answered at once.
    pub visits: Vec<(Point, u32)>,
}

/// One request to think about a position.
#[derive(Debug, Clone)]
pub struct ThinkRequest {
    pub board: Board,
    /// Points the search must not play (Yixin's yxblock, continuous-game field 3).
    pub blocked: Vec<Point>,
    pub limits: Limits,
}

/// Something that picks moves. It is moved onto a worker thread for each search and handed back
/// afterwards, so it keeps its tree and caches between moves.
pub trait Thinker: Send {
    /// Searches until a limit is reached or `stop` becomes true; must return promptly after
    /// `stop` is set, and must never return an illegal move.
    fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult;

    /// Forgets everything learnt in earlier searches (CLEARHASH).
    fn clear(&mut self);

    /// A short name for logs and the MESSAGE line.
    fn name(&self) -> &str;

    /// Sets how draws are valued (`INFO style`); thinkers without draw values ignore it.
    fn set_style(&mut self, _style: Style) {}

    /// Where to report progress during later searches (`None`: nowhere). Thinkers that finish
    /// at once may ignore it.
    fn set_progress(&mut self, _sink: Option<ProgressSink>) {}

    /// What earlier searches found about the position after playing `path` from `board`
    /// (`INFO evaluate`), or `None` when that position is not in what the thinker kept.
    fn evaluate_path(&self, _board: &Board, _path: &[Point]) -> Option<SearchInfo> {
        None
    }
}
