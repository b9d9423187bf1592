//! The options `selfplay` and `match` share (`GameArgs`: rules, sizes, time, openings, the
//! network's device) and the parsers of their rule and size lists.
use clap::Args;

use crate::config::Config;
use crate::game::{Rule, MAX_SIZE, MIN_SIZE};
use crate::setup::PlayerSetup;
use crate::train::{OpeningConfig, PlayOptions, TrainError, Variant};

/// Opening and game-length options shared by `selfplay` and `match`.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Rules, comma-separated (freestyle, standard, renju, caro, caro5, or `all`); each game
    /// (each opening pair in a match) picks one.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board sizes, comma-separated: `15`, `15x15`, `20x20`, `12x9`, ...
    #[arg(long, default_value = "15x15")]
    pub size: String,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Node limit per move (with `--movetime 0`, the only limit).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads per move.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Fewest opening stones.
    #[arg(long, default_value_t = 2)]
    pub opening_min: usize,
    /// Most opening stones.
    #[arg(long, default_value_t = 5)]
    pub opening_max: usize,
    /// Opening stones lie at most this far from the centre.
    #[arg(long, default_value_t = 3)]
    pub opening_radius: usize,
    /// Declare a draw after this many stones.
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Device for network players: cpu, cuda or cuda:N (default: the config's network.device).
    #[arg(long)]
    pub device: Option<String>,
    /// libtorch intra-op threads (0: the config's network.cpu_threads).
    #[arg(long, default_value_t = 0)]
    pub torch_threads: i32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `15`, `15x15` or `12x9`.
pub fn parse_size(text: &str) -> Result<(usize, usize), TrainError> {
    let bad = || {
        TrainError::Config(format!(
            "board size {text:?}: expected N or WxH with sides {MIN_SIZE} to {MAX_SIZE}"
        ))
    };
    let t = text.trim().to_ascii_lowercase();
    let (w, h) = match t.split_once('x') {
        Some((w, h)) => (w.trim().parse(), h.trim().parse()),
        None => (t.parse(), t.parse()),
    };
    let (w, h): (usize, usize) = (w.map_err(|_| bad())?, h.map_err(|_| bad())?);
    let ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
    if ok(w) && ok(h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

/// A rule name (`freestyle`, `standard`, `renju`, `caro`, `caro5`) or `INFO rule` code.
pub fn parse_rule(text: &str) -> Result<Rule, TrainError> {
    let t = text.trim().to_ascii_lowercase();
    Rule::from_name(&t)
        .or_else(|| t.parse().ok().and_then(Rule::from_protocol))
        .ok_or_else(|| {
            TrainError::Config(format!(
                "rule {text:?}: expected freestyle, standard, renju, caro, caro5 or an INFO rule code"
            ))
        })
}

/// The variants named by comma-separated rules (or `all`) and sizes.
pub fn parse_variants(rules: &str, sizes: &str) -> Result<Vec<Variant>, TrainError> {
    let rules: Vec<Rule> = if rules.trim() == "all" {
        Rule::ALL.to_vec()
    } else {
        rules.split(',').map(parse_rule).collect::<Result<_, _>>()?
    };
    let sizes: Vec<(usize, usize)> = sizes.split(',').map(parse_size).collect::<Result<_, _>>()?;
    Ok(Variant::all(&rules, &sizes))
}

impl GameArgs {
    pub(super) fn play_options(&self) -> PlayOptions {
        PlayOptions {
            movetime_ms: self.movetime,
            max_nodes: self.nodes,
            threads: self.threads,
            max_moves: self.max_moves,
            ..PlayOptions::default()
        }
    }

    pub(super) fn player_setup(&self, config: &Config) -> PlayerSetup {
        let mut setup = crate::setup::player_setup(config, self.device.as_deref());
        if self.torch_threads > 0 {
            setup.network.cpu_threads = self.torch_threads as usize;
        }
        setup
    }

    pub(super) fn opening(&self) -> OpeningConfig {
        OpeningConfig {
            min_stones: self.opening_min,
            max_stones: self.opening_max,
            radius: self.opening_radius,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_rules_parse() {
        assert_eq!(parse_size("15").unwrap(), (15, 15));
        assert_eq!(parse_size("20x20").unwrap(), (20, 20));
        assert_eq!(parse_size(" 12X9 ").unwrap(), (12, 9));
        for bad in ["4", "33x15", "x", "15x", "fifteen"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_rule("Renju").unwrap(), Rule::Renju);
        assert_eq!(parse_rule("caro5").unwrap(), Rule::CaroExact);
        assert_eq!(parse_rule("1").unwrap(), Rule::Standard);
        assert!(parse_rule("go").is_err());
        let v = parse_variants("all", "15,20x20").unwrap();
        assert_eq!(v.len(), 10);
        let v = parse_variants("renju,standard", "9x12").unwrap();
        assert_eq!(
            v,
            vec![
                Variant::new(Rule::Renju, 9, 12),
                Variant::new(Rule::Standard, 9, 12)
            ]
        );
    }
}
