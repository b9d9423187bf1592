//! The limits of one search: the turn's deadlines from the clock (`clock::TimeSettings::budget`)
//! and the time our own moves used this match, plus the INFO limits (nodes, depth, threads,
//! memory). The controller asks [`MatchClock`] for every move search and opening duty (the file
//! protocol's one move per run included), and [`ponder_limits`] when it thinks on the opponent's
//! time.
use super::settings::Settings;
use crate::search::Limits;
use std::time::{Duration, Instant};

/// Our side of the match's time account.
#[derive(Debug, Clone, Default)]
pub struct MatchClock {
    /// Time our own moves took this match (for `timeout_match` without `time_left`).
    own_time_used: Duration,
}

impl MatchClock {
    /// A new match (START, RESTART): nothing used yet.
    pub fn new_match(&mut self) {
        self.own_time_used = Duration::ZERO;
    }

    /// One of our answers took `took`.
    pub fn spent(&mut self, took: Duration) {
        self.own_time_used += took;
    }

    /// The limits of a turn whose command arrived `at`, with `stones` on the board.
    pub fn turn_limits(&self, settings: &Settings, at: Instant, stones: usize) -> Limits {
        let budget = settings.time.budget(self.own_time_used, stones);
        Limits {
            target: at.checked_add(budget.target),
            hard: at.checked_add(budget.hard),
            max_nodes: settings.max_nodes,
            max_depth: settings.max_depth,
            threads: settings.threads,
            max_memory_bytes: settings.memory_budget(),
            saved_time_banked: budget.banked,
        }
    }
}

/// Thinking on the opponent's time: `ms` milliseconds, or until stopped (`None` or negative).
pub fn ponder_limits(settings: &Settings, ms: Option<i64>) -> Limits {
    let mut limits = Limits::infinite(settings.threads);
    if let Some(ms) = ms.filter(|&ms| ms >= 0) {
        limits = Limits::movetime(ms as u64, settings.threads);
    }
    limits.max_memory_bytes = settings.memory_budget();
    limits
}
