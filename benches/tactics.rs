//! The tactics suite (src/train/tactics_suite.rs): draws forced-win positions from self-play, or
//! scores a thinker on them at a fixed time per move.
//!
//! ```text
//! cargo bench --bench tactics -- generate --rule renju --size 15 --games 20 --out FILE
//! cargo bench --bench tactics -- run [--suite FILE] [--movetime MS] [--config FILE] [--brain CMD]
//! cargo bench --bench tactics -- openings --rule renju --size 15 --count 50 --out FILE
//! ```
//! `openings` writes balanced random openings (2-5 stones near the centre, nobody already winning:
//! `train::openings`) in the `h8i9g9` form c-gomoku-cli and the sparring runner read, one per line.
//! `generate` appends new cases to FILE (self-play of the classical MCTS at 100 ms a move, each
//! position classified by the solver; `--nodes N` its VCT budget, `--min-plies P` the shortest
//! win kept, for a harder suite). `run` scores the engine built from the config (default:
//! the repository's) or an external brain (`--brain "/path/to/pbrain-hoshi --config X"`) on the
//! suite (default: tests/data/tactics/suite.txt) and prints the solve rate per kind and rule, and
//! for attacks the lengths of the wins seen.
use hoshi::config::Config;
use hoshi::game::Rule;
use hoshi::search::{Limits, Thinker};
use hoshi::setup::{classical_mcts, engine_thinker, mcts_params, with_solver};
use hoshi::solver::Solver;
use hoshi::train::brain_player::BrainPlayer;
use hoshi::train::tactics_suite::{classify, score, Case, Effort, Kind};
use hoshi::train::{play_game, random_opening, OpeningConfig, PlayOptions, PolicyTarget, Seats};
use rand::{rngs::StdRng, SeedableRng};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::sync::atomic::AtomicBool;

const DEFAULT_SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics/suite.txt");

fn arg(args: &[String], name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; the mode is the first other word.
    match args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(String::as_str)
    {
        Some("generate") => generate(&args),
        Some("run") => run(&args),
        Some("openings") => openings(&args),
        _ => eprintln!("tactics: `generate` or `run` (see benches/tactics.rs); nothing done"),
    }
}

fn generate(args: &[String]) {
    let rule = Rule::from_name(&arg(args, "--rule").unwrap_or("freestyle".into())).expect("rule");
    let size: usize = arg(args, "--size").map_or(15, |s| s.parse().expect("size"));
    let games: usize = arg(args, "--games").map_or(10, |s| s.parse().expect("games"));
    let seed: u64 = arg(args, "--seed").map_or(1, |s| s.parse().expect("seed"));
    let out = arg(args, "--out").unwrap_or(DEFAULT_SUITE.into());
    let mut effort = Effort::default();
    if let Some(n) = arg(args, "--nodes") {
        effort.vct_nodes = n.parse().expect("nodes");
    }
    if let Some(p) = arg(args, "--min-plies") {
        effort.min_plies = p.parse().expect("min-plies");
    }
    let existing: HashSet<String> = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .expect("open the suite file");
    let config = Config::default();
    let mut params = mcts_params(&config);
    params.root_noise = None;
    let mut rng = StdRng::seed_from_u64(seed);
    let options = PlayOptions {
        movetime_ms: 100,
        threads: 1,
        policy_target: PolicyTarget::Visits,
        temperature_moves: 4,
        ..PlayOptions::default()
    };
    let mut solver = Solver::new();
    let mut added = 0;
    for game in 0..games {
        let opening =
            random_opening(size, size, rule, &OpeningConfig::default(), &mut rng).expect("opening");
        let mut black = with_solver(classical_mcts(params.clone()));
        let mut white = with_solver(classical_mcts(params.clone()));
        let seats = Seats::Match {
            black: black.as_mut(),
            white: white.as_mut(),
        };
        let Some(record) = play_game(
            opening.clone(),
            seats,
            &options,
            &mut rng,
            &AtomicBool::new(false),
        )
        .expect("self-play game") else {
            continue;
        };
        // The record holds every move from the empty board, the opening's included.
        let mut board = hoshi::game::Board::new(size, size, rule).expect("board");
        for position in &record.positions {
            if board.stone_count() >= 6 {
                if let Some(case) = classify(&mut solver, &board, effort) {
                    let line = case.to_string();
                    if !existing.contains(&line) {
                        writeln!(file, "{line}").expect("write the suite");
                        added += 1;
                    }
                }
            }
            if board.play(position.mv).is_err() {
                break;
            }
        }
        eprintln!("tactics: game {}/{games}: {added} cases so far", game + 1);
    }
    eprintln!("tactics: {added} cases added to {out}");
}

fn openings(args: &[String]) {
    let rule = Rule::from_name(&arg(args, "--rule").unwrap_or("freestyle".into())).expect("rule");
    let size: usize = arg(args, "--size").map_or(15, |s| s.parse().expect("size"));
    let count: usize = arg(args, "--count").map_or(50, |s| s.parse().expect("count"));
    let seed: u64 = arg(args, "--seed").map_or(1, |s| s.parse().expect("seed"));
    let out = arg(args, "--out").expect("--out FILE");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut lines = Vec::new();
    while lines.len() < count {
        let board =
            random_opening(size, size, rule, &OpeningConfig::default(), &mut rng).expect("opening");
        let line: String = board
            .history()
            .iter()
            .map(|&p| hoshi::protocol::format::pv_move(p))
            .collect();
        if !line.is_empty() && seen.insert(line.clone()) {
            lines.push(line);
        }
    }
    std::fs::write(&out, lines.join("\n") + "\n").expect("write the openings");
    eprintln!("tactics: {count} openings written to {out}");
}

fn run(args: &[String]) {
    let suite = arg(args, "--suite").unwrap_or(DEFAULT_SUITE.into());
    let movetime: u64 = arg(args, "--movetime").map_or(1000, |s| s.parse().expect("movetime"));
    let cases: Vec<Case> = std::fs::read_to_string(&suite)
        .expect("read the suite")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Case::parse(l).expect("a suite line"))
        .collect();
    let mut thinker: Box<dyn Thinker> = match arg(args, "--brain") {
        Some(command) => Box::new(BrainPlayer::start(&command).expect("start the brain")),
        None => {
            let config = match arg(args, "--config") {
                Some(path) => Config::from_file(std::path::Path::new(&path)).expect("config"),
                None => Config::default(),
            };
            engine_thinker(&config)
        }
    };
    // (kind, rule and size) -> (solved, total); the lengths of the attacks seen.
    let mut tally: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut seen = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        thinker.clear();
        let limits = Limits::movetime(movetime, 1);
        let s = score(thinker.as_mut(), case, limits).expect("score a case");
        let kind = match case.kind {
            Kind::Attack => "attack",
            Kind::Defence => "defence",
        };
        let variant = format!("{} {}x{}", case.rule.name(), case.width, case.height);
        let entry = tally.entry((kind.to_string(), variant)).or_default();
        entry.1 += 1;
        if s.solved {
            entry.0 += 1;
            if let Some(p) = s.seen_plies {
                seen.push((case.plies, p));
            }
        }
        eprintln!(
            "tactics: {}/{}: {case} -> {}",
            i + 1,
            cases.len(),
            if s.solved { "solved" } else { "missed" }
        );
    }
    println!(
        "tactics suite {suite}, {movetime} ms a move, {}",
        thinker.name()
    );
    for ((kind, rule), (solved, total)) in &tally {
        println!(
            "  {kind:8} {rule:16} {solved:4} / {total:4} solved ({:.1} %)",
            100.0 * *solved as f64 / (*total).max(1) as f64
        );
    }
    if !seen.is_empty() {
        let mean = seen.iter().map(|&(_, p)| p as f64).sum::<f64>() / seen.len() as f64;
        let longest = seen.iter().map(|&(_, p)| p).max().unwrap_or(0);
        println!(
            "  attacks solved: wins seen {mean:.1} plies ahead of the five on average, {longest} at most"
        );
    }
}
