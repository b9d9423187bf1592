//! `pbrain-hoshi`: the Hoshi brain. With no subcommand it speaks the Gomocup protocol (and its
//! extensions) on stdin/stdout; subcommands run benchmarks and the training pipeline.
use clap::{Parser, Subcommand};
use hoshi::config::Config;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "pbrain-hoshi", version, about = "Hoshi, a Gomoku/Renju brain")]
struct Cli {
    /// Configuration file (default: hoshi.toml beside the executable, then the repo's config/).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak the protocol on stdin/stdout (the default).
    Engine,
    /// Measure the network's forward throughput and the search's playout rate on this machine.
    Bench {
        /// Seconds per measurement.
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
        /// Board size (square) of the forward-pass measurements.
        #[arg(long, default_value_t = 15)]
        size: usize,
    },
    /// Self-play games into shard files (training data).
    Selfplay(hoshi::train::cli::SelfplayArgs),
    /// Train a network from self-play shards.
    Train(hoshi::train::cli::TrainArgs),
    /// Play two players against each other; prints W/D/L and the Elo difference.
    Match(hoshi::train::cli::MatchArgs),
    /// Copy a training checkpoint's network into networks/.
    Promote(hoshi::train::cli::PromoteArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (config, path) = match Config::discover(cli.config.as_deref()) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("pbrain-hoshi: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = hoshi::logging::init(&config.log) {
        eprintln!("pbrain-hoshi: {e}");
        return ExitCode::from(2);
    }
    match &path {
        Some(p) => log::info!("config: {}", p.display()),
        None => log::info!("config: built-in defaults"),
    }
    match cli.command.unwrap_or(Cmd::Engine) {
        Cmd::Engine => {
            let thinker = hoshi::search::default_thinker(&config);
            let input = Box::new(std::io::BufReader::new(std::io::stdin()));
            let code =
                hoshi::protocol::serve(config, input, hoshi::protocol::Output::stdout(), thinker);
            // Skip the exit-time teardown (see hoshi::quit), as END does.
            hoshi::quit::now(code)
        }
        Cmd::Bench { seconds, size } => match hoshi::search::bench::run(&config, seconds, size) {
            Ok(report) => {
                print!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("pbrain-hoshi bench: {e}");
                ExitCode::from(1)
            }
        },
        Cmd::Selfplay(args) => hoshi::train::cli::selfplay(args, &config, &mut std::io::stdout()),
        Cmd::Train(args) => hoshi::train::cli::train(args, &config, &mut std::io::stdout()),
        Cmd::Match(args) => hoshi::train::cli::match_players(args, &config, &mut std::io::stdout()),
        Cmd::Promote(args) => hoshi::train::cli::promote(args, &config, &mut std::io::stdout()),
    }
}
