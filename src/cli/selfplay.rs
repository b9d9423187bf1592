//! `selfplay`: one worker's games with one player, appended to shard files (training data).
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::games::{parse_variants, GameArgs};
use super::players::PlayerSpec;
use crate::config::Config;
use crate::search::mcts::GumbelRoot;
use crate::train::game_play::PlayoutCap;
use crate::train::{run_selfplay, PlayOptions, SelfplayConfig, TrainError};

/// `selfplay`: one worker's games, appended to `<out>/<worker>-<n>.hsp`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    #[arg(long)]
    pub out: PathBuf,
    /// The worker's total games in OUT (a restart plays only the missing ones).
    #[arg(long)]
    pub games: usize,
    /// Worker id (letters, digits, '_', '.'): names its shards and seeds its games.
    #[arg(long, default_value = "w0")]
    pub worker: String,
    /// The player: classical, mcts, policy:FILE or a network FILE (the MCTS over it).
    #[arg(long, default_value = "mcts", conflicts_with = "network")]
    pub player: String,
    /// Play with the MCTS over this network (same as `--player FILE`).
    #[arg(long)]
    pub network: Option<PathBuf>,
    /// Searched moves sampled from the ranked moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub temperature_moves: usize,
    /// Sampling weight of a ranked move: score^(1/T).
    #[arg(long, default_value_t = 1.0)]
    pub temperature: f32,
    /// Sampling draws from this many of the best-ranked moves.
    #[arg(long, default_value_t = 5)]
    pub temperature_top: usize,
    /// Turn the thinker's exploration noise off.
    #[arg(long)]
    pub no_noise: bool,
    /// Keep only openings the player's own quick look (200 playouts) scores within this of an
    /// even game for the side to move (0.2: between 30 % and 70 %); default: every random
    /// balanced opening.
    #[arg(long)]
    pub opening_balance: Option<f32>,
    /// Playout cap randomization: the share of moves searched in full (with root noise) and
    /// recorded as training samples; the others get a cheap search of --cheap-nodes playouts
    /// without noise and are not recorded. Default 1: every move is a full search.
    #[arg(long, default_value_t = 1.0)]
    pub full_share: f64,
    /// Playouts of a cheap search (with --full-share below 1; default: a quarter of --nodes).
    #[arg(long)]
    pub cheap_nodes: Option<u64>,
    /// A cheap search's time limit in ms (0: --movetime's). The deadline also bounds the root
    /// solver's VCT (a tenth of it; none under 5 ms; without one, 25 solver nodes a playout).
    #[arg(long, default_value_t = 40)]
    pub cheap_movetime: u64,
    /// Policy target pruning: root moves with at most this many visits (noise-driven
    /// exploration) leave a tree search's policy target; the most visited move stays. Default
    /// 0: the visit distribution as it is.
    #[arg(long, default_value_t = 0)]
    pub prune_visits: u32,
    /// A Gumbel root over this many sampled moves (with a playout limit, --nodes): the playouts
    /// are shared out among them by sequential halving and the policy target is the policy
    /// improved by their values, sound with a few dozen playouts. It replaces the root noise.
    /// Default 0: the MCTS's own root and its visits as the target.
    #[arg(long, default_value_t = 0)]
    pub gumbel: usize,
    /// The first this many searched moves of each game (out of its opening) are searched to
    /// --deep-nodes playouts instead of --nodes: the moves right after the opening decide most
    /// games, so their targets get a deeper search (a --movetime still bounds them; a cheap
    /// search of --full-share stays cheap). Default 0: none.
    #[arg(long, default_value_t = 0)]
    pub deep_moves: usize,
    /// Playouts of those deep searches.
    #[arg(long)]
    pub deep_nodes: Option<u64>,
    /// White's full searches (out of the deep moves) take this many playouts instead of
    /// --nodes: a stronger white, so that black's value learns the defences a white of black's
    /// strength misses (renju). Default: as black's.
    #[arg(long)]
    pub white_nodes: Option<u64>,
    /// Games per shard file before a new one is opened.
    #[arg(long, default_value_t = 1000)]
    pub games_per_shard: usize,
    #[command(flatten)]
    pub game: GameArgs,
}

/// Plays the games; the summary line goes to `out`.
pub fn run(args: &SelfplayArgs, config: &Config, out: &mut dyn Write) -> Result<(), TrainError> {
    let spec = match &args.network {
        Some(path) => PlayerSpec::Network(path.clone()),
        None => PlayerSpec::parse(&args.player),
    };
    let playout_cap = if args.full_share != 1.0 {
        let cheap_nodes = args
            .cheap_nodes
            .or(args.game.nodes.map(|n| (n / 4).max(1)))
            .ok_or_else(|| {
                TrainError::Config("--full-share below 1 needs --cheap-nodes or --nodes".into())
            })?;
        Some(PlayoutCap {
            full_share: args.full_share,
            cheap_nodes,
            cheap_movetime_ms: args.cheap_movetime,
        })
    } else {
        None
    };
    let config_sp = SelfplayConfig {
        out_dir: args.out.clone(),
        worker: args.worker.clone(),
        games: args.games,
        variants: parse_variants(&args.game.rule, &args.game.size)?,
        play: PlayOptions {
            temperature_moves: args.temperature_moves,
            temperature: args.temperature,
            temperature_top: args.temperature_top,
            policy_target: spec.policy_target(),
            playout_cap,
            prune_visits: args.prune_visits,
            deep_moves: args.deep_moves,
            deep_nodes: args.deep_nodes,
            white_nodes: args.white_nodes,
            ..args.game.play_options()
        },
        opening: args.game.opening(),
        opening_balance: args.opening_balance,
        exploration_noise: !args.no_noise && args.gumbel == 0,
        games_per_shard: args.games_per_shard,
        seed: args.game.seed,
    };
    if args.gumbel > 0 && args.game.nodes.is_none() {
        return Err(TrainError::Config(
            "--gumbel needs a playout limit (--nodes)".into(),
        ));
    }
    let mut setup = args.game.player_setup(config);
    setup.params.gumbel = (args.gumbel > 0).then(|| GumbelRoot::new(args.gumbel));
    let factory = |c: &SelfplayConfig, seed: u64| spec.build(&setup, c.exploration_noise, seed);
    let report = run_selfplay(&config_sp, &factory, &AtomicBool::new(false))?;
    let [black, white, draws] = report.results;
    let per_hour = |n: usize| n as f64 * 3600.0 / report.seconds.max(1e-9);
    writeln!(
        out,
        "selfplay {}: {} games played ({} already there), {} positions; black won {black}, \
         white won {white}, drawn {draws}; {:.0} s: {:.0} games, {:.0} positions, {:.0} searched \
         moves per hour",
        config_sp.worker,
        report.games_played,
        report.games_before,
        report.positions,
        report.seconds,
        per_hour(report.games_played),
        per_hour(report.positions),
        per_hour(report.moves_searched),
    )
    .map_err(TrainError::io("stdout"))
}
