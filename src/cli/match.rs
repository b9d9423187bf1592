//! `match`: player A against player B, each opening twice with colours swapped; prints W/D/L
//! and the Elo difference.
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::games::{parse_variants, GameArgs};
use super::players::PlayerSpec;
use crate::config::Config;
use crate::game::Point;
use crate::protocol::format::parse_pv_moves;
use crate::train::{
    play_match_parallel, MatchConfig, PlayOptions, PolicyTarget, Sprt, ThinkerPair, TrainError,
};

/// `match`: A against B, each opening twice with colours swapped; prints W/D/L and Elo.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// classical, mcts, policy:FILE or a network FILE (the MCTS over it).
    #[arg(long)]
    pub a: String,
    /// classical, mcts, policy:FILE or a network FILE (the MCTS over it).
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at once, each job with its own two players (give each player
    /// `--threads` x jobs <= cores).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Player B's configuration (search constants, network settings), so that two settings of
    /// one engine can be matched; default: the configuration both players share.
    #[arg(long)]
    pub config_b: Option<PathBuf>,
    /// Openings to play in order, one per line in the `h8i9g9` form (as
    /// `scripts/even-openings.py` keeps them), each with colours swapped, instead of random
    /// ones; lines starting with `#` and blank lines are skipped.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// `ELO0,ELO1[,ALPHA,BETA]`: a sequential test of H1 (A gains at least ELO1) against H0 (at
    /// most ELO0), alpha and beta 0.05 by default; the match ends once it decides, `--games`
    /// at most.
    #[arg(long)]
    pub sprt: Option<Sprt>,
    #[command(flatten)]
    pub game: GameArgs,
}

/// Plays the match; the result line goes to `out`.
pub fn run(args: &MatchArgs, config: &Config, out: &mut dyn Write) -> Result<(), TrainError> {
    let setup = args.game.player_setup(config);
    let setup_b = match &args.config_b {
        Some(path) => args
            .game
            .player_setup(&Config::from_file(path).map_err(|e| TrainError::Config(e.to_string()))?),
        None => setup.clone(),
    };
    let (spec_a, spec_b) = (PlayerSpec::parse(&args.a), PlayerSpec::parse(&args.b));
    let factory = || -> Result<ThinkerPair, TrainError> {
        Ok((
            spec_a.build(&setup, false, 0)?,
            spec_b.build(&setup_b, false, 0)?,
        ))
    };
    let match_config = MatchConfig {
        games: args.games,
        variants: parse_variants(&args.game.rule, &args.game.size)?,
        play: PlayOptions {
            policy_target: PolicyTarget::BestMove,
            ..args.game.play_options()
        },
        opening: args.game.opening(),
        openings: match &args.openings {
            Some(path) => read_openings(path)?,
            None => Vec::new(),
        },
        seed: args.game.seed,
        sprt: args.sprt,
    };
    let result = play_match_parallel(&factory, &match_config, args.jobs, &AtomicBool::new(false))?;
    let b = match &args.config_b {
        Some(path) => format!("{} with {}", args.b, path.display()),
        None => args.b.clone(),
    };
    let openings = match &args.openings {
        Some(path) => format!("openings {}", path.display()),
        None => format!("seed {}", args.game.seed),
    };
    let sprt = match args.sprt {
        Some(t) => format!(
            "; SPRT [{}, {}]: {}, LLR {:.2} (bounds {:.2}, {:.2})",
            t.elo0,
            t.elo1,
            t.verdict(result.wins, result.draws, result.losses),
            t.llr(result.wins, result.draws, result.losses),
            t.bounds().0,
            t.bounds().1
        ),
        None => String::new(),
    };
    writeln!(
        out,
        "{} vs {b} ({} {}, {} ms/move, {openings}): {result}{sprt}",
        args.a, args.game.rule, args.game.size, args.game.movetime
    )
    .map_err(TrainError::io("stdout"))
}

/// The openings of a file, one per line (`h8i9g9`).
fn read_openings(path: &Path) -> Result<Vec<Vec<Point>>, TrainError> {
    let text = std::fs::read_to_string(path).map_err(TrainError::io(path))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves = parse_pv_moves(line).ok_or_else(|| {
            TrainError::Config(format!(
                "{} line {}: not an opening: {line:?}",
                path.display(),
                n + 1
            ))
        })?;
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(TrainError::Config(format!(
            "{}: no openings",
            path.display()
        )));
    }
    Ok(openings)
}
