//! What a solver call may spend (nodes, time, a stop flag, VCT depth) and the meter that enforces it.
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Default number of attacker threat moves (threes or fours, not counting a closing VCF) a VCT
/// may chain.
pub const DEFAULT_VCT_DEPTH: u8 = 10;

/// Limits for one solver call. Whichever runs out first ends the search with `Outcome::Unknown`.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Nodes (attacker and defender positions visited).
    pub nodes: u64,
    /// Wall-clock limit, if any.
    pub time: Option<Duration>,
    /// Set from another thread to abort at once.
    pub stop: Option<&'a AtomicBool>,
    /// VCT only: how many attacker threat moves may be chained before the closing VCF.
    pub max_depth: u8,
}

impl Budget<'static> {
    /// A node budget with no time limit and the default VCT depth.
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            nodes,
            time: None,
            stop: None,
            max_depth: DEFAULT_VCT_DEPTH,
        }
    }
}

impl<'a> Budget<'a> {
    pub fn with_time(self, time: Duration) -> Budget<'a> {
        Budget {
            time: Some(time),
            ..self
        }
    }

    pub fn with_stop<'b>(self, stop: &'b AtomicBool) -> Budget<'b> {
        Budget {
            nodes: self.nodes,
            time: self.time,
            stop: Some(stop),
            max_depth: self.max_depth,
        }
    }

    pub fn with_depth(self, max_depth: u8) -> Budget<'a> {
        Budget { max_depth, ..self }
    }
}

impl Default for Budget<'static> {
    /// One million nodes, no time limit, default VCT depth.
    fn default() -> Self {
        Budget::nodes(1_000_000)
    }
}

/// The search ran out of budget (or was stopped); nothing found so far is a proof.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct OutOfBudget;

/// Counts nodes and checks the clock and the stop flag.
pub(crate) struct Meter<'a> {
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    exhausted: bool,
}

/// How often (in nodes) the clock is read: `Instant::now` costs more than a node's bookkeeping.
const CLOCK_EVERY: u64 = 256;

impl<'a> Meter<'a> {
    pub(crate) fn new(budget: &Budget<'a>) -> Meter<'a> {
        Meter {
            nodes: 0,
            limit: budget.nodes,
            deadline: budget.time.map(|t| Instant::now() + t),
            stop: budget.stop,
            exhausted: false,
        }
    }

    /// Counts one node; errs once any limit is reached (and on every call after that).
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), OutOfBudget> {
        if self.exhausted {
            return Err(OutOfBudget);
        }
        self.nodes += 1;
        let over = self.nodes > self.limit
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || (self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d));
        if over {
            self.exhausted = true;
            return Err(OutOfBudget);
        }
        Ok(())
    }

    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    #[cfg(test)]
    pub(crate) fn is_exhausted(&self) -> bool {
        self.exhausted
    }

    /// Allows `extra` more nodes, ignoring clock and stop flag, until [`Meter::resume`]: used to
    /// rebuild the line of a win that is already proven (the line's nodes are mostly table hits).
    pub(crate) fn allow_line(&mut self, extra: u64) -> SavedLimits<'a> {
        let saved = SavedLimits {
            limit: self.limit,
            deadline: self.deadline.take(),
            stop: self.stop.take(),
        };
        self.limit = self.nodes.saturating_add(extra);
        self.exhausted = false;
        saved
    }

    /// Back to the limits before [`Meter::allow_line`]; the line's nodes count against them.
    pub(crate) fn resume(&mut self, saved: SavedLimits<'a>) {
        self.limit = saved.limit;
        self.deadline = saved.deadline;
        self.stop = saved.stop;
        self.exhausted = self.nodes > self.limit;
    }
}

/// The limits [`Meter::allow_line`] set aside.
pub(crate) struct SavedLimits<'a> {
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_is_enforced() {
        let mut m = Meter::new(&Budget::nodes(3));
        assert!(m.tick().is_ok());
        assert!(m.tick().is_ok());
        assert!(m.tick().is_ok());
        assert_eq!(m.tick(), Err(OutOfBudget));
        assert!(m.is_exhausted());
        assert_eq!(m.tick(), Err(OutOfBudget));
        let saved = m.allow_line(1);
        assert!(m.tick().is_ok());
        assert_eq!(m.tick(), Err(OutOfBudget));
        m.resume(saved);
        assert!(m.is_exhausted());
    }

    #[test]
    fn stop_flag_and_clock_are_enforced() {
        let stop = AtomicBool::new(false);
        let mut m = Meter::new(&Budget::nodes(u64::MAX).with_stop(&stop));
        assert!(m.tick().is_ok());
        stop.store(true, Ordering::Relaxed);
        assert_eq!(m.tick(), Err(OutOfBudget));

        let mut m = Meter::new(&Budget::nodes(u64::MAX).with_time(Duration::ZERO));
        let ticks = (0..10 * CLOCK_EVERY)
            .take_while(|_| m.tick().is_ok())
            .count();
        assert!(ticks < CLOCK_EVERY as usize, "{ticks}");
    }
}
