//! `pbrain-hoshi bench`: raw forward throughput of the network in use (or of a random 6x64
//! network when none is configured) and the search's playouts per second with that network on
//! every leaf, in the hybrid search (when the config refines) and with the classical evaluator,
//! at 1 and 2 threads. [`measure`] measures, [`run`] prints the [`BenchReport`]. A build without
//! the `torch` feature measures the classical search only.
use std::fmt;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::config::Config;
use crate::game::{Board, MoveOutcome, Point, Rule};
use crate::nn::{NnError, PatternWeights};
use crate::search::evaluator::{
    resolve_network, ClassicalEvaluator, Leaf, LeafEvaluator, NearPoint, PatternEvaluator,
    RefineSettings,
};
use crate::search::mcts::{MctsThinker, MoveGen};
use crate::search::one_ply::best_move;
use crate::search::solving::SolverCheck;
use crate::search::{AlphaBetaThinker, Limits, ThinkRequest, Thinker};
use crate::setup::{alphabeta_params, classical_mcts, mcts_params};
use std::sync::Arc;
use std::time::Instant;
#[cfg(feature = "torch")]
use {
    crate::nn::throughput::forward_throughput,
    crate::nn::{parse_device, Arch, Network, ServiceConfig},
    crate::search::evaluator::{
        service_config, set_cpu_threads, HybridEvaluator, NetworkEvaluator,
    },
    crate::setup::network_settings,
    std::path::PathBuf,
    std::time::Duration,
    tch::Device,
};

#[cfg(feature = "torch")]
const FORWARD_BATCHES: [usize; 4] = [1, 8, 32, 128];
const SEARCH_THREADS: [usize; 2] = [1, 2];

/// `bench`'s options.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Seconds per measurement.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Board size (square) of the forward-pass measurements.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
}

/// Measures and prints the report to stdout.
pub fn run(args: &BenchArgs, config: &Config) -> ExitCode {
    match measure(config, args.seconds, args.size) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pbrain-hoshi bench: {e}");
            ExitCode::from(1)
        }
    }
}

/// One search measurement with the network.
#[derive(Clone, Debug)]
pub struct NetworkSearchRate {
    /// Threads asked for, and search threads the network evaluator ran.
    pub threads: usize,
    pub search_threads: usize,
    pub playouts_per_second: f64,
    /// Positions through the network per second during the search, and their mean batch.
    pub evals_per_second: f64,
    pub mean_batch: f64,
    /// Raw forward throughput at that batch size (rounded), measured right after.
    pub raw_at_batch: Option<(usize, f64)>,
}

/// One measurement of the hybrid search (classical leaves, the net refining busy nodes).
#[derive(Clone, Debug)]
pub struct HybridSearchRate {
    pub threads: usize,
    pub playouts_per_second: f64,
    /// Refinements (network evaluations) per second.
    pub evals_per_second: f64,
}

/// Everything `bench` measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Remarks on what was measured (no network configured, device fallbacks).
    pub notes: Vec<String>,
    pub network: String,
    pub board_size: usize,
    pub forward: Vec<(usize, f64)>,
    pub network_search: Vec<NetworkSearchRate>,
    /// The hybrid's settings and rates; `None` when the config does not refine (or measures a
    /// random network).
    pub hybrid_search: Option<(RefineSettings, Vec<HybridSearchRate>)>,
    /// (threads, playouts per second) with the classical evaluator.
    pub classical_search: Vec<(usize, f64)>,
    pub pattern: PatternRates,
}

/// The pattern net's figures (the configured one, else random weights), beside the classical
/// evaluator's on the same walk.
#[derive(Clone, Debug)]
pub struct PatternRates {
    pub network: String,
    /// Evaluations per second along a walk: a move, an evaluation, the take-back, an evaluation.
    pub walk_evals_per_second: f64,
    /// The classical evaluator on the same walk.
    pub classical_walk_evals_per_second: f64,
    /// Evaluations per second of a fresh state (every cell computed).
    pub fresh_evals_per_second: f64,
    /// (threads, playouts per second) of the MCTS with the pattern net at every leaf.
    pub search: Vec<(usize, f64)>,
    /// The same with the threat solver's probe at every expanded node, as the engine plays.
    pub search_with_probe: Vec<(usize, f64)>,
    /// The alpha-beta with the pattern net at every node, at each of [`SEARCH_THREADS`].
    pub alphabeta: Vec<AlphaBetaRate>,
}

/// The alpha-beta's speed and depth: each middle game searched for the bench's seconds.
#[derive(Clone, Debug)]
pub struct AlphaBetaRate {
    pub threads: usize,
    /// Nodes per second of all threads, divided by the threads.
    pub nodes_per_second_per_thread: f64,
    /// The iterations completed on each position.
    pub depths: Vec<u32>,
}

/// How to (re)build the measured network: the configured one, else a random 6x64.
#[cfg(feature = "torch")]
struct NetSource {
    description: String,
    device: Device,
    path: Option<PathBuf>,
}

#[cfg(feature = "torch")]
impl NetSource {
    fn pick(config: &Config, notes: &mut Vec<String>) -> NetSource {
        let device = match parse_device(&config.network.device) {
            Ok(d) => d,
            Err(e) => {
                notes.push(format!(
                    "device {:?} unusable ({e}): measuring on the CPU",
                    config.network.device
                ));
                Device::Cpu
            }
        };
        let random = NetSource {
            description: "random 6x64 network".into(),
            device,
            path: None,
        };
        let Some(settings) = network_settings(config) else {
            notes.push(
                "no network configured (search.network = \"\"): measuring a random 6x64 network"
                    .into(),
            );
            return random;
        };
        let path = crate::search::evaluator::resolve_network(&settings.path);
        if crate::nn::NetworkMeta::read(&path).map(|m| m.kind).ok()
            == Some(crate::nn::ModelKind::Pattern)
        {
            notes.push(format!(
                "{} is a pattern net (measured below): the residual figures use a random 6x64 network",
                settings.path.display()
            ));
            return random;
        }
        let configured = NetSource {
            description: format!("network {}", settings.path.display()),
            device,
            path: Some(settings.path.clone()),
        };
        match configured.build() {
            Ok(_) => configured,
            Err(e) => {
                notes.push(format!(
                    "cannot load {} ({e}): measuring a random 6x64 network instead",
                    settings.path.display()
                ));
                random
            }
        }
    }

    fn build(&self) -> Result<Network, NnError> {
        match &self.path {
            Some(p) => Network::load(p, self.device),
            None => Network::random(Arch::new(6, 64), 1, self.device),
        }
    }
}

/// Runs every measurement, about `seconds` each; forward passes on a `size` x `size` board,
/// searches on 15x15 middle games.
pub fn measure(config: &Config, seconds: f64, size: usize) -> Result<BenchReport, NnError> {
    let seconds = seconds.clamp(0.05, 60.0);
    let size = size.clamp(crate::game::MIN_SIZE, crate::game::MAX_SIZE);
    let mut report = BenchReport {
        notes: Vec::new(),
        network: String::new(),
        board_size: size,
        forward: Vec::new(),
        network_search: Vec::new(),
        hybrid_search: None,
        classical_search: Vec::new(),
        pattern: PatternRates {
            network: String::new(),
            walk_evals_per_second: 0.0,
            classical_walk_evals_per_second: 0.0,
            fresh_evals_per_second: 0.0,
            search: Vec::new(),
            search_with_probe: Vec::new(),
            alphabeta: Vec::new(),
        },
    };
    let positions = bench_positions();
    let per_position = seconds / positions.len() as f64;
    measure_network(config, seconds, &positions, &mut report)?;

    // Interleaved rounds, best round per thread count: a burst of load from another process
    // then lowers one round of each, not one side of the ratio.
    let mut classical = classical_mcts(mcts_params(config));
    let mut classical_search: Vec<(usize, f64)> =
        SEARCH_THREADS.iter().map(|&t| (t, 0.0)).collect();
    for _ in 0..CLASSICAL_ROUNDS {
        for (t, best) in classical_search.iter_mut() {
            let rate = playouts_per_second(
                &mut classical,
                &positions,
                *t,
                per_position / CLASSICAL_ROUNDS as f64,
            );
            *best = best.max(rate);
        }
    }
    report.classical_search = classical_search;
    report.pattern = measure_pattern(config, seconds, &positions);
    Ok(report)
}

/// The configured pattern net (`search.network` of kind pattern), else random 32-wide weights.
fn pattern_weights(config: &Config) -> (PatternWeights, String) {
    let path = resolve_network(std::path::Path::new(&config.search.network));
    if !config.search.network.is_empty() {
        if let Ok(net) = PatternWeights::load(&path) {
            let name = format!("pattern network {} ({} features)", path.display(), net.dim);
            return (net, name);
        }
    }
    let name = "random pattern network (32 features; the configured network is not a pattern net)";
    (PatternWeights::random(32, 1), name.to_string())
}

fn measure_pattern(config: &Config, seconds: f64, positions: &[Board]) -> PatternRates {
    let (weights, network) = pattern_weights(config);
    let evaluator = PatternEvaluator::new(weights, network.clone());
    let per_position = seconds / positions.len() as f64;
    let mut pattern = evaluator.leaf();
    let mut classical = ClassicalEvaluator::new(1.0).leaf();
    let mut walk = 0.0f64;
    let mut classical_walk = 0.0f64;
    let mut fresh = 0.0f64;
    let mut priors = Vec::new();
    for board in positions {
        let mut board = board.clone();
        let mut points = Vec::new();
        MoveGen::new().near_points(&board, &mut points);
        let near: Vec<NearPoint> = points.iter().map(|&i| NearPoint::read(&board, i)).collect();
        let moves: Vec<usize> = near.iter().map(|p| p.idx).collect();
        let mut timed = |eval: &mut dyn FnMut(&Board, &mut Vec<f32>)| {
            let started = Instant::now();
            let mut count = 0u64;
            while started.elapsed().as_secs_f64() < per_position / 3.0 {
                for &m in &moves {
                    board.play_unchecked(m);
                    eval(&board, &mut priors);
                    board.undo();
                    eval(&board, &mut priors);
                    count += 2;
                }
            }
            count as f64 / started.elapsed().as_secs_f64()
        };
        walk += timed(&mut |b, p| {
            pattern.evaluate_board(b, &moves, &near, p);
        });
        classical_walk += timed(&mut |b, p| {
            let leaf = Leaf {
                board: b,
                moves: &moves,
                near: &near,
            };
            classical.evaluate(&leaf, p);
        });
        fresh += timed(&mut |b, p| {
            evaluator.leaf().evaluate_board(b, &moves, &near, p);
        });
    }
    let n = positions.len() as f64;
    let evaluator = Arc::new(evaluator);
    let mut alphabeta = AlphaBetaThinker::new(alphabeta_params(config), evaluator.clone());
    let alphabeta = SEARCH_THREADS
        .iter()
        .map(|&threads| alphabeta_rate(&mut alphabeta, positions, threads, seconds))
        .collect();
    let mut thinker = MctsThinker::new(mcts_params(config), evaluator);
    let rates = |thinker: &mut MctsThinker| {
        SEARCH_THREADS
            .iter()
            .map(|&t| (t, playouts_per_second(thinker, positions, t, per_position)))
            .collect()
    };
    let search = rates(&mut thinker);
    let check = SolverCheck::new().with_tree_vct(thinker.params().tree_vct_nodes);
    thinker.set_tactical_check(Some(Arc::new(check)));
    let search_with_probe = rates(&mut thinker);
    PatternRates {
        network,
        walk_evals_per_second: walk / n,
        classical_walk_evals_per_second: classical_walk / n,
        fresh_evals_per_second: fresh / n,
        search,
        search_with_probe,
        alphabeta,
    }
}

/// Searches each position for `seconds` from a cleared table.
fn alphabeta_rate(
    thinker: &mut AlphaBetaThinker,
    positions: &[Board],
    threads: usize,
    seconds: f64,
) -> AlphaBetaRate {
    let stop = AtomicBool::new(false);
    let (mut nodes, mut elapsed, mut depths) = (0u64, 0.0f64, Vec::new());
    for board in positions {
        thinker.clear();
        let request = ThinkRequest {
            board: board.clone(),
            blocked: Vec::new(),
            limits: Limits::movetime((seconds * 1000.0) as u64, threads),
        };
        thinker.think(&request, &stop);
        let stats = thinker.last_search().expect("a search ran");
        nodes += stats.nodes;
        elapsed += stats.elapsed.as_secs_f64();
        depths.push(stats.depth);
    }
    AlphaBetaRate {
        threads,
        nodes_per_second_per_thread: nodes as f64 / elapsed.max(1e-9) / threads as f64,
        depths,
    }
}

/// Without libtorch there is no network to measure: a note says so.
#[cfg(not(feature = "torch"))]
fn measure_network(
    _config: &Config,
    _seconds: f64,
    _positions: &[Board],
    report: &mut BenchReport,
) -> Result<(), NnError> {
    report
        .notes
        .push(NnError::NoTorch("measure a network").to_string());
    report.network = "no network: the classical evaluator only".into();
    Ok(())
}

/// The network's forward throughput and the searches with it (on every leaf, hybrid).
#[cfg(feature = "torch")]
fn measure_network(
    config: &Config,
    seconds: f64,
    positions: &[Board],
    report: &mut BenchReport,
) -> Result<(), NnError> {
    let size = report.board_size;
    let notes = &mut report.notes;
    let source = NetSource::pick(config, notes);
    if source.device == Device::Cpu {
        set_cpu_threads(config.network.cpu_threads);
    }
    let net = source.build()?;
    // The first passes of a fresh network pay for libtorch's lazy set-up: not part of the rate.
    forward_throughput(&net, 1, size, size, 0.0);
    let arch = net.arch();
    let network = format!(
        "{} ({} blocks x {} channels) on {:?} in {}, {} libtorch thread(s)",
        source.description,
        arch.blocks,
        arch.channels,
        source.device,
        if net.is_half() { "f16" } else { "f32" },
        tch::get_num_threads()
    );
    let forward = FORWARD_BATCHES
        .iter()
        .map(|&b| (b, forward_throughput(&net, b, size, size, seconds)))
        .collect();

    let params = mcts_params(config);
    let per_position = seconds / positions.len() as f64;
    let service = match network_settings(config) {
        Some(s) => service_config(&s),
        None => ServiceConfig {
            max_batch: config.network.max_batch,
            batch_deadline: Duration::from_micros(config.network.batch_deadline_us),
            random_symmetry: config.network.random_symmetry,
            cache_entries: config.network.cache_entries,
            ..ServiceConfig::default()
        },
    };
    let evaluator = Arc::new(NetworkEvaluator::new(
        net,
        service.clone(),
        config.network.search_threads,
    )?);
    let mut thinker = MctsThinker::new(params.clone(), evaluator.clone());
    let mut network_search = Vec::new();
    for threads in SEARCH_THREADS {
        let before = evaluator.service().stats();
        let started = Instant::now();
        let rate = playouts_per_second(&mut thinker, positions, threads, per_position);
        let wall = started.elapsed().as_secs_f64();
        let after = evaluator.service().stats();
        let evals = after.evaluations - before.evaluations;
        let mean_batch = evals as f64 / (after.batches - before.batches).max(1) as f64;
        let batch = mean_batch.round().max(1.0) as usize;
        let raw = source
            .build()
            .ok()
            .map(|net| (batch, forward_throughput(&net, batch, 15, 15, seconds)));
        network_search.push(NetworkSearchRate {
            threads,
            search_threads: thinker.evaluator().search_threads(threads),
            playouts_per_second: rate,
            evals_per_second: evals as f64 / wall,
            mean_batch,
            raw_at_batch: raw,
        });
    }
    drop(thinker);
    drop(evaluator);
    let hybrid_search = match network_settings(config).and_then(|s| s.refine) {
        Some(refine) if source.path.is_some() => {
            let rates = hybrid_rates(&source, service, &params, refine, positions, per_position)?;
            Some((refine, rates))
        }
        _ => None,
    };
    report.network = network;
    report.forward = forward;
    report.network_search = network_search;
    report.hybrid_search = hybrid_search;
    Ok(())
}

/// The hybrid search's rates at each of [`SEARCH_THREADS`].
#[cfg(feature = "torch")]
fn hybrid_rates(
    source: &NetSource,
    service: ServiceConfig,
    params: &crate::search::MctsParams,
    refine: RefineSettings,
    positions: &[Board],
    seconds_each: f64,
) -> Result<Vec<HybridSearchRate>, NnError> {
    let hybrid = Arc::new(HybridEvaluator::start(
        source.build()?,
        service,
        refine,
        params.classical_prior_sharpness,
    )?);
    let mut thinker = MctsThinker::new(params.clone(), hybrid.clone());
    let mut rates = Vec::new();
    for threads in SEARCH_THREADS {
        let before = hybrid.network().service().stats().evaluations;
        let started = Instant::now();
        let rate = playouts_per_second(&mut thinker, positions, threads, seconds_each);
        let evals = hybrid.network().service().stats().evaluations - before;
        rates.push(HybridSearchRate {
            threads,
            playouts_per_second: rate,
            evals_per_second: evals as f64 / started.elapsed().as_secs_f64(),
        });
    }
    Ok(rates)
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        writeln!(f, "{}", self.network)?;
        let size = self.board_size;
        if !self.forward.is_empty() {
            writeln!(f, "\nforward pass, {size}x{size} board (evals/s):")?;
        }
        for (batch, rate) in &self.forward {
            writeln!(f, "  batch {batch:>4}: {rate:>10.0}")?;
        }
        if !self.network_search.is_empty() {
            writeln!(f, "\nsearch with the network, 15x15 middle games:")?;
        }
        for r in &self.network_search {
            writeln!(
                f,
                "  {} thread(s) ({} search threads): {:>8.0} playouts/s; network {:.0} evals/s, mean batch {:.2}",
                r.threads, r.search_threads, r.playouts_per_second, r.evals_per_second, r.mean_batch
            )?;
            if let Some((batch, raw)) = r.raw_at_batch {
                writeln!(
                    f,
                    "      raw forward at batch {batch}: {raw:.0} evals/s; the search's network rate is {:.0}% of it",
                    100.0 * r.evals_per_second / raw.max(1e-9)
                )?;
            }
        }
        if let Some((refine, rates)) = &self.hybrid_search {
            writeln!(
                f,
                "\nhybrid search (the net refines after {} visits, value weight {}), 15x15 middle games:",
                refine.after_visits, refine.value_weight
            )?;
            for r in rates {
                writeln!(
                    f,
                    "  {} thread(s): {:>10.0} playouts/s; network {:.0} evals/s",
                    r.threads, r.playouts_per_second, r.evals_per_second
                )?;
            }
        }
        writeln!(
            f,
            "\nsearch with the classical evaluator, 15x15 middle games:"
        )?;
        for (threads, rate) in &self.classical_search {
            writeln!(f, "  {threads} thread(s): {rate:>10.0} playouts/s")?;
        }
        if let [(_, one), (_, two)] = self.classical_search[..] {
            if one > 0.0 {
                writeln!(f, "  2 threads / 1 thread: {:.2}x", two / one)?;
            }
        }
        let p = &self.pattern;
        writeln!(f, "\n{}, 15x15 middle games, one thread:", p.network)?;
        writeln!(
            f,
            "  evaluations along a walk (move, evaluation, take-back, evaluation): {:>10.0} /s",
            p.walk_evals_per_second
        )?;
        writeln!(
            f,
            "  the classical evaluator on the same walk:                          {:>10.0} /s",
            p.classical_walk_evals_per_second
        )?;
        writeln!(
            f,
            "  evaluations from a fresh state (every cell computed):              {:>10.0} /s",
            p.fresh_evals_per_second
        )?;
        writeln!(f, "search with the pattern net at every leaf:")?;
        for (threads, rate) in &p.search {
            writeln!(f, "  {threads} thread(s): {rate:>10.0} playouts/s")?;
        }
        writeln!(
            f,
            "the same with the solver's VCF probe at every expanded node (as the engine plays):"
        )?;
        for (threads, rate) in &p.search_with_probe {
            writeln!(f, "  {threads} thread(s): {rate:>10.0} playouts/s")?;
        }
        writeln!(
            f,
            "the alpha-beta with the pattern net at every node (each middle game searched the bench's seconds):"
        )?;
        for r in &p.alphabeta {
            writeln!(
                f,
                "  {} thread(s): {:>10.0} nodes/s per thread; depth reached {:?}",
                r.threads, r.nodes_per_second_per_thread, r.depths
            )?;
        }
        Ok(())
    }
}

/// Middle-game positions on 15x15 (freestyle and renju): short openings continued by the
/// classical player, so they look like positions a search meets.
pub fn bench_positions() -> Vec<Board> {
    let openings: [&[(u8, u8)]; 3] = [
        &[(7, 7), (8, 8), (8, 6)],
        &[(7, 7), (7, 8), (9, 7)],
        &[(7, 7), (6, 8), (6, 6), (8, 8)],
    ];
    let mut out = Vec::new();
    for (k, opening) in openings.iter().enumerate() {
        let rule = if k == 1 { Rule::Renju } else { Rule::Freestyle };
        let mut board = Board::new(15, 15, rule).expect("15x15 is a valid size");
        for &(x, y) in opening.iter() {
            board
                .play(Point::new(x, y))
                .expect("opening moves are legal");
        }
        for _ in 0..14 {
            let Some((i, _)) = best_move(&board, &[]) else {
                break;
            };
            let p = board.point(i);
            let mut next = board.clone();
            if next.play(p) != Ok(MoveOutcome::Ongoing) {
                break;
            }
            board = next;
        }
        out.push(board);
    }
    out
}

/// Interleaved rounds of the classical-evaluator measurement (best round kept per thread count).
const CLASSICAL_ROUNDS: usize = 4;

/// Playouts per second of `thinker` with `threads` threads, searching each position afresh for
/// `seconds_each` (smart stopping off, so every search runs its full time).
pub fn playouts_per_second(
    thinker: &mut MctsThinker,
    positions: &[Board],
    threads: usize,
    seconds_each: f64,
) -> f64 {
    let smart = thinker.params().smart_stop;
    thinker.params_mut().smart_stop = false;
    let stop = AtomicBool::new(false);
    let mut playouts = 0u64;
    let mut seconds = 0.0;
    for board in positions {
        thinker.clear();
        let request = ThinkRequest {
            board: board.clone(),
            blocked: Vec::new(),
            limits: Limits::movetime((seconds_each * 1000.0) as u64, threads),
        };
        let result = thinker.think(&request, &stop);
        playouts += result.info.nodes;
        seconds += result.info.elapsed.as_secs_f64();
    }
    thinker.params_mut().smart_stop = smart;
    thinker.clear();
    playouts as f64 / seconds.max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_ongoing_middle_games() {
        let positions = bench_positions();
        assert_eq!(positions.len(), 3);
        for b in &positions {
            assert!(b.stone_count() >= 10, "{b}");
            assert!(!b.legal_moves().is_empty());
        }
    }
}
