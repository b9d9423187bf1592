//! What the manager set with INFO (and the config's defaults for what it did not): the rule, the
//! clock, the search limits, analysis mode, style, live output. [`Settings::apply`] takes one
//! INFO key and checks it; values that cannot be honoured are kept as errors that the controller
//! reports before the next move's answer, as the protocol asks (INFO itself never answers).
use super::clock::TimeSettings;
use super::request::InfoKey;
use crate::config::Config;
use crate::game::Rule;
use crate::search::Style;

/// Less memory than this cannot hold a useful search.
const MIN_USEFUL_MEMORY: i64 = 16 << 20;

#[derive(Debug, Clone)]
pub struct Settings {
    /// The rule of the next game (and of the game in progress, which takes it when it changes).
    pub rule: Rule,
    /// The manager's time limits and our margins.
    pub time: TimeSettings,
    pub max_nodes: Option<u64>,
    pub max_depth: Option<u32>,
    pub max_memory: Option<u64>,
    /// Yixin-Board's `INFO hash_size` (KiB, as the GUI sends it), in bytes.
    pub hash_size: Option<u64>,
    pub threads: usize,
    /// `INFO analysis_mode 1`: answer SUGGEST instead of playing.
    pub analysis_mode: bool,
    /// `INFO style`, handed to the thinker before each search.
    pub style: Option<Style>,
    /// Yixin's `INFO show_detail`: live output while searching.
    pub realtime: bool,
    /// Problems with INFO values, reported at the next BEGIN/TURN/BOARD.
    pending_errors: Vec<String>,
}

impl Settings {
    /// The config's defaults, before any INFO.
    pub fn from_config(config: &Config) -> Settings {
        let time = TimeSettings {
            timeout_turn: config.time.default_timeout_turn_ms,
            timeout_match: 0,
            time_left: None,
            time_increment: 0,
            protocol_lag: config.time.protocol_lag_ms,
            safety_margin: config.time.safety_margin_ms,
            moves_to_go: config.time.moves_to_go,
        };
        let threads = match config.search.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let max_memory = match config.search.default_max_memory_mib {
            0 => None,
            mib => Some(mib << 20),
        };
        Settings {
            rule: Rule::Freestyle,
            time,
            max_nodes: None,
            max_depth: None,
            max_memory,
            hash_size: None,
            threads,
            analysis_mode: false,
            style: None,
            realtime: false,
            pending_errors: Vec::new(),
        }
    }

    /// Applies one INFO key; returns the rule when the key set one. `INFO evaluate` is a
    /// question, not a setting: the controller answers it and never passes it here.
    pub fn apply(&mut self, key: InfoKey) -> Option<Rule> {
        match key {
            InfoKey::TimeoutTurn(v) => self.time.timeout_turn = v,
            InfoKey::TimeoutMatch(v) => self.time.timeout_match = v,
            InfoKey::TimeLeft(v) => self.time.time_left = Some(v),
            InfoKey::TimeIncrement(v) => {
                if v < 0 {
                    self.refuse(format!("INFO time_increment {v}: must not be negative"));
                } else {
                    self.time.time_increment = v;
                }
            }
            InfoKey::ProtocolLag(v) => {
                if v < 0 {
                    self.refuse(format!("INFO protocol_lag {v}: must not be negative"));
                } else {
                    self.time.protocol_lag = v as u64;
                }
            }
            InfoKey::MaxMemory(v) => self.max_memory = self.memory_limit("max_memory", v, v),
            InfoKey::HashSize(kib) => {
                self.hash_size = self.memory_limit("hash_size", kib, kib.saturating_mul(1024))
            }
            InfoKey::Rule(code) => match Rule::from_protocol(code) {
                Some(rule) => {
                    self.rule = rule;
                    return Some(rule);
                }
                None => self.refuse(format!(
                    "INFO rule {code}: unsupported rule (0 freestyle, 1 standard, 2 or 4 renju, 8 caro, 9 caro exactly five); keeping {}",
                    self.rule
                )),
            },
            InfoKey::MaxNode(v) => self.max_nodes = if v <= 0 { None } else { Some(v as u64) },
            InfoKey::MaxDepth(v) => {
                self.max_depth = if v <= 0 {
                    None
                } else {
                    Some(v.min(u32::MAX as i64) as u32)
                }
            }
            InfoKey::ThreadNum(v) => {
                if v <= 0 {
                    self.refuse(format!("INFO thread_num {v}: must be greater than 0"));
                } else {
                    self.threads = (v as usize).min(1024);
                }
            }
            InfoKey::AnalysisMode(v) => self.analysis_mode = v == 1,
            InfoKey::Style(v) => match Style::from_protocol(v) {
                Some(style) => self.style = Some(style),
                None => self.refuse(format!("INFO style {v}: expected 0, 1 or 2")),
            },
            InfoKey::ShowDetail(v) => self.realtime = v > 0,
            // Accepted and ignored: they do not change how we play (or not yet).
            other => log::debug!("INFO ignored: {other:?}"),
        }
        None
    }

    /// The limit `INFO key value` sets, `bytes` (none when 0 or less); a limit too small for a
    /// search is refused, and kept, as the protocol asks.
    fn memory_limit(&mut self, key: &str, value: i64, bytes: i64) -> Option<u64> {
        if bytes > 0 && bytes < MIN_USEFUL_MEMORY {
            self.refuse(format!(
                "INFO {key} {value}: too little memory for a search, playing with what there is"
            ));
        }
        (bytes > 0).then_some(bytes as u64)
    }

    fn refuse(&mut self, error: String) {
        self.pending_errors.push(error);
    }

    /// The errors of the INFO values since the last call, in the order they came.
    pub fn take_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending_errors)
    }

    /// The search's memory budget: `INFO max_memory`, narrowed by Yixin-Board's `hash_size`.
    pub fn memory_budget(&self) -> Option<u64> {
        match (self.max_memory, self.hash_size) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_are_kept_as_errors_and_change_nothing() {
        let mut s = Settings::from_config(&Config::default());
        let threads = s.threads;
        assert_eq!(s.apply(InfoKey::ThreadNum(-1)), None);
        assert_eq!(s.apply(InfoKey::Rule(7)), None);
        assert_eq!(s.threads, threads);
        assert_eq!(s.rule, Rule::Freestyle);
        assert_eq!(s.take_errors().len(), 2);
        assert!(s.take_errors().is_empty());
        assert_eq!(s.apply(InfoKey::Rule(1)), Some(Rule::Standard));
    }

    #[test]
    fn hash_size_narrows_max_memory() {
        let mut s = Settings::from_config(&Config::default());
        s.apply(InfoKey::MaxMemory(512 << 20));
        s.apply(InfoKey::HashSize(64 << 10));
        assert_eq!(s.memory_budget(), Some(64 << 20));
        s.apply(InfoKey::MaxMemory(0));
        assert_eq!(s.memory_budget(), Some(64 << 20));
        assert!(s.take_errors().is_empty());
    }
}
