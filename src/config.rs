//! Configuration: `config/hoshi.toml`, read with serde + toml.
//!
//! The shipped file is compiled in as the defaults, so a user's file only needs the keys it
//! changes. Unknown keys and bad values are errors that name the key. Plain data: `setup`
//! turns the sections into search parameters and thinkers.
use serde::Deserialize;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The largest `network.refine_value_weight` (the search's largest estimate weight).
pub const MAX_REFINE_VALUE_WEIGHT: u32 = 32767;

/// The default configuration, exactly as shipped in `config/hoshi.toml`.
pub const DEFAULT_TOML: &str = include_str!("../config/hoshi.toml");

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("config {origin}: {message}")]
    Parse { origin: String, message: String },
    #[error("config {origin}: key `{key}`: {message}")]
    Invalid {
        origin: String,
        key: String,
        message: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtocolMode {
    Auto,
    Gomocup,
    ExtendedGomocup,
    Yixin,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProtocolConfig {
    pub mode: ProtocolMode,
    pub search_message: bool,
    pub yixin_transpose: bool,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TimeConfig {
    pub default_timeout_turn_ms: i64,
    pub safety_margin_ms: u64,
    pub protocol_lag_ms: u64,
    pub moves_to_go: u32,
}

/// `[search] searcher`: which search picks the moves.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Searcher {
    /// The alpha-beta over a pattern net or the classical evaluator, the MCTS over a residual
    /// network (batched onto its device).
    Auto,
    /// Alpha-beta over the evaluator at every node.
    AlphaBeta,
    /// The Monte Carlo tree search.
    Mcts,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SearchConfig {
    pub searcher: Searcher,
    pub threads: usize,
    pub default_max_memory_mib: u64,
    pub network: String,
    pub style: i64,
    pub exploration: f64,
    pub policy_temperature: f64,
    pub fpu_reduction: f64,
    pub virtual_loss: f64,
    pub lcb_z: f64,
    pub tree_memory_share: f64,
    pub tree_cap_mib: u64,
    pub hash_cap_mib: u64,
    pub smart_stop: bool,
    pub verify_threats: bool,
    pub verify_late: f64,
    pub tree_defence: bool,
    pub three_defence: bool,
    pub vct_defence: bool,
    pub threat_stages: bool,
    pub tree_vct_nodes: u64,
    pub extend_forced: bool,
    pub transpositions: bool,
    pub minimax_visits: u32,
    pub selfplay_noise: bool,
    pub dirichlet_alpha: f64,
    pub noise_fraction: f64,
    pub classical_prior_sharpness: f64,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    pub device: String,
    pub max_batch: usize,
    pub batch_deadline_us: u64,
    pub cache_entries: usize,
    pub random_symmetry: bool,
    pub search_threads: usize,
    pub cpu_threads: usize,
    pub refine_after_visits: u32,
    pub refine_policy_mix: f64,
    pub refine_value_weight: u32,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LogConfig {
    pub level: String,
    pub file: String,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub protocol: ProtocolConfig,
    pub time: TimeConfig,
    pub search: SearchConfig,
    pub network: NetworkConfig,
    pub log: LogConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config::from_toml_str(DEFAULT_TOML, "built-in defaults").expect("shipped config is valid")
    }
}

impl Config {
    /// Parses a config text, filling keys it lacks from the shipped defaults.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let parse = |t: &str, o: &str| {
            t.parse::<toml::Table>().map_err(|e| ConfigError::Parse {
                origin: o.to_string(),
                message: e.message().to_string(),
            })
        };
        let mut merged = parse(DEFAULT_TOML, "built-in defaults")?;
        let user = parse(text, origin)?;
        merge_tables(&mut merged, user, "", origin)?;
        // Round-trip through text so a type error carries a span we can turn into the key's name.
        let text = toml::to_string(&merged).expect("a toml table serialises");
        let config: Config = toml::from_str(&text).map_err(|e| {
            let key = e.span().map(|span| key_at(&text, span.start));
            match key {
                Some(key) => ConfigError::Invalid {
                    origin: origin.to_string(),
                    key,
                    message: e.message().to_string(),
                },
                None => ConfigError::Parse {
                    origin: origin.to_string(),
                    message: e.message().to_string(),
                },
            }
        })?;
        config.validate(origin)?;
        Ok(config)
    }

    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::from_toml_str(&text, &path.display().to_string())
    }

    /// Loads `explicit` if given, else the first config found beside the executable or in the
    /// repository's `config/`, else the built-in defaults. Returns the path used, if any.
    pub fn discover(explicit: Option<&Path>) -> Result<(Config, Option<PathBuf>), ConfigError> {
        if let Some(path) = explicit {
            return Ok((Config::from_file(path)?, Some(path.to_path_buf())));
        }
        for path in candidate_paths() {
            if path.is_file() {
                return Ok((Config::from_file(&path)?, Some(path)));
            }
        }
        Ok((Config::default(), None))
    }

    fn validate(&self, origin: &str) -> Result<(), ConfigError> {
        let invalid = |key: &str, message: &str| ConfigError::Invalid {
            origin: origin.to_string(),
            key: key.to_string(),
            message: message.to_string(),
        };
        if !matches!(
            self.log.level.as_str(),
            "off" | "error" | "warn" | "info" | "debug" | "trace"
        ) {
            return Err(invalid(
                "log.level",
                "expected one of off, error, warn, info, debug, trace",
            ));
        }
        if self.time.moves_to_go == 0 {
            return Err(invalid("time.moves_to_go", "must be at least 1"));
        }
        if self.search.threads > 1024 {
            return Err(invalid("search.threads", "at most 1024"));
        }
        let s = &self.search;
        if !(0..=2).contains(&s.style) {
            return Err(invalid(
                "search.style",
                "expected 0 (defensive), 1 (classic) or 2 (offensive)",
            ));
        }
        let positive = [
            ("search.exploration", s.exploration),
            ("search.policy_temperature", s.policy_temperature),
            ("search.dirichlet_alpha", s.dirichlet_alpha),
            (
                "search.classical_prior_sharpness",
                s.classical_prior_sharpness,
            ),
        ];
        for (key, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(invalid(key, "must be a positive number"));
            }
        }
        let non_negative = [
            ("search.fpu_reduction", s.fpu_reduction),
            ("search.virtual_loss", s.virtual_loss),
            ("search.lcb_z", s.lcb_z),
        ];
        for (key, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(invalid(key, "must not be negative"));
            }
        }
        if !(0.0..1.0).contains(&s.verify_late) {
            return Err(invalid("search.verify_late", "must be in [0, 1)"));
        }
        if !(s.tree_memory_share > 0.0 && s.tree_memory_share <= 1.0) {
            return Err(invalid("search.tree_memory_share", "must be in (0, 1]"));
        }
        if !(0.0..=1.0).contains(&s.noise_fraction) {
            return Err(invalid("search.noise_fraction", "must be in [0, 1]"));
        }
        if s.tree_cap_mib == 0 {
            return Err(invalid("search.tree_cap_mib", "must be at least 1"));
        }
        let n = &self.network;
        if n.device.parse::<crate::nn::DeviceSpec>().is_err() {
            return Err(invalid("network.device", "expected cpu, cuda or cuda:N"));
        }
        if !(1..=4096).contains(&n.max_batch) {
            return Err(invalid("network.max_batch", "must be in 1..=4096"));
        }
        if n.search_threads > 1024 {
            return Err(invalid("network.search_threads", "at most 1024"));
        }
        if n.cpu_threads > 1024 {
            return Err(invalid("network.cpu_threads", "at most 1024"));
        }
        if !(0.0..=1.0).contains(&n.refine_policy_mix) {
            return Err(invalid("network.refine_policy_mix", "must be in [0, 1]"));
        }
        if n.refine_value_weight > MAX_REFINE_VALUE_WEIGHT {
            return Err(invalid("network.refine_value_weight", "at most 32767"));
        }
        Ok(())
    }
}

/// Overlays `user` onto `base`, refusing keys the defaults do not have, so a typo is an error
/// that names the key instead of a silently ignored setting.
fn merge_tables(
    base: &mut toml::Table,
    user: toml::Table,
    prefix: &str,
    origin: &str,
) -> Result<(), ConfigError> {
    for (key, value) in user {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match (base.get_mut(&key), value) {
            (None, _) => {
                return Err(ConfigError::Invalid {
                    origin: origin.to_string(),
                    key: path,
                    message: "unknown key".to_string(),
                })
            }
            (Some(toml::Value::Table(b)), toml::Value::Table(u)) => {
                merge_tables(b, u, &path, origin)?
            }
            (Some(toml::Value::Table(_)), _) => {
                return Err(ConfigError::Invalid {
                    origin: origin.to_string(),
                    key: path,
                    message: "expected a table".to_string(),
                })
            }
            (Some(slot), value) => {
                if std::mem::discriminant(slot) != std::mem::discriminant(&value) {
                    return Err(ConfigError::Invalid {
                        origin: origin.to_string(),
                        key: path,
                        message: format!(
                            "expected a {}, found a {}",
                            slot.type_str(),
                            value.type_str()
                        ),
                    });
                }
                *slot = value;
            }
        }
    }
    Ok(())
}

/// The dotted name (`section.key`) of the key on the line holding byte `offset` of `text`.
fn key_at(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let key = line.split('=').next().unwrap_or("").trim();
    let section = before[..line_start]
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')));
    match section {
        Some(section) if !key.is_empty() => format!("{section}.{key}"),
        Some(section) => section.to_string(),
        None => key.to_string(),
    }
}

fn candidate_paths() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
    {
        paths.push(dir.join("hoshi.toml"));
        paths.push(dir.join("config").join("hoshi.toml"));
    }
    paths.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("config")
            .join("hoshi.toml"),
    );
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_defaults_parse() {
        let c = Config::default();
        assert_eq!(c.protocol.mode, ProtocolMode::Auto);
        assert!(c.protocol.search_message);
    }

    #[test]
    fn partial_file_keeps_defaults() {
        let c = Config::from_toml_str("[time]\nsafety_margin_ms = 7\n", "test").unwrap();
        assert_eq!(c.time.safety_margin_ms, 7);
        assert_eq!(c.time.moves_to_go, Config::default().time.moves_to_go);
    }

    #[test]
    fn unknown_key_is_named() {
        let e = Config::from_toml_str("[time]\nsafety_margn_ms = 7\n", "test").unwrap_err();
        assert!(e.to_string().contains("time.safety_margn_ms"), "{e}");
        let e = Config::from_toml_str("[nonsense]\n", "test").unwrap_err();
        assert!(e.to_string().contains("nonsense"), "{e}");
    }

    #[test]
    fn bad_values_are_named() {
        let e = Config::from_toml_str("[time]\nsafety_margin_ms = \"x\"\n", "test").unwrap_err();
        assert!(e.to_string().contains("time.safety_margin_ms"), "{e}");
        let e = Config::from_toml_str("[log]\nlevel = \"loud\"\n", "test").unwrap_err();
        assert!(e.to_string().contains("log.level"), "{e}");
        let e = Config::from_toml_str("[protocol]\nmode = \"smoke\"\n", "test").unwrap_err();
        assert!(e.to_string().contains("protocol.mode"), "{e}");
        let e = Config::from_toml_str("[time]\nsafety_margin_ms = -5\n", "test").unwrap_err();
        assert!(e.to_string().contains("time.safety_margin_ms"), "{e}");
    }

    #[test]
    fn bad_search_values_are_named() {
        for (text, key) in [
            ("[search]\nstyle = 3\n", "search.style"),
            ("[search]\nexploration = 0.0\n", "search.exploration"),
            (
                "[search]\npolicy_temperature = -1.0\n",
                "search.policy_temperature",
            ),
            (
                "[search]\ntree_memory_share = 1.5\n",
                "search.tree_memory_share",
            ),
            ("[search]\nverify_late = 1.0\n", "search.verify_late"),
            ("[network]\ndevice = \"tpu\"\n", "network.device"),
            ("[network]\nmax_batch = 0\n", "network.max_batch"),
            ("[network]\nbatch_size = 3\n", "network.batch_size"),
            (
                "[network]\nrefine_policy_mix = 1.5\n",
                "network.refine_policy_mix",
            ),
            (
                "[network]\nrefine_value_weight = 40000\n",
                "network.refine_value_weight",
            ),
        ] {
            let e = Config::from_toml_str(text, "test").unwrap_err();
            assert!(e.to_string().contains(key), "{text}: {e}");
        }
    }

    #[test]
    fn broken_toml_is_an_error() {
        assert!(Config::from_toml_str("[time\n", "test").is_err());
    }
}
