//! The commands of the two executables, one small file each. `pbrain-hoshi` parses its command
//! line here ([`pbrain_main`]) and hands each subcommand its arguments and the config:
//! [`engine`] (the protocol on stdin/stdout, the default), [`bench`], [`selfplay`], [`train`],
//! [`r#match`] and [`promote`]; `hoshi`, the legacy file brain, is [`legacy`]. The thinkers come
//! from [`crate::setup`], player SPECs from [`players`], the options `selfplay` and `match` share
//! from [`games`].
//!
//! The training commands write progress to the log (stderr, shown with `RUST_LOG=info`) and only
//! final answers (a match result, promote's README lines) to stdout.
pub mod bench;
pub mod engine;
pub mod games;
pub mod legacy;
pub mod r#match;
pub mod players;
pub mod promote;
pub mod selfplay;
pub mod train;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::Config;
use crate::train::TrainError;

/// `pbrain-hoshi --version`: the version and the evaluators this build has (the `torch` feature
/// decides whether the residual net, training and CUDA are in it).
#[cfg(feature = "torch")]
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (evaluators: pattern net, residual net (libtorch, CPU or CUDA), classical)"
);
/// `pbrain-hoshi --version`: the version and the evaluators this build has (the `torch` feature
/// decides whether the residual net, training and CUDA are in it).
#[cfg(not(feature = "torch"))]
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (evaluators: pattern net, classical; built without libtorch: no residual net, training or CUDA)"
);

#[derive(Parser)]
#[command(name = "pbrain-hoshi", version = VERSION, about = "Hoshi, a Gomoku/Renju brain")]
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
    Bench(bench::BenchArgs),
    /// Self-play games into shard files (training data).
    Selfplay(selfplay::SelfplayArgs),
    /// Train a network from self-play shards.
    Train(train::TrainArgs),
    /// Play two players against each other; prints W/D/L and the Elo difference.
    Match(r#match::MatchArgs),
    /// Copy a training checkpoint's network into networks/.
    Promote(promote::PromoteArgs),
}

/// `pbrain-hoshi`: reads the command line and the config, starts logging, runs the command.
pub fn pbrain_main() -> ExitCode {
    let cli = Cli::parse();
    let (config, path) = match Config::discover(cli.config.as_deref()) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("pbrain-hoshi: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = crate::logging::init(&config.log) {
        eprintln!("pbrain-hoshi: {e}");
        return ExitCode::from(2);
    }
    log::info!("pbrain-hoshi {VERSION}");
    match &path {
        Some(p) => log::info!("config: {}", p.display()),
        None => log::info!("config: built-in defaults"),
    }
    let out = &mut std::io::stdout();
    match cli.command.unwrap_or(Cmd::Engine) {
        Cmd::Engine => engine::run(config),
        Cmd::Bench(args) => bench::run(&args, &config),
        Cmd::Selfplay(args) => finish("selfplay", selfplay::run(&args, &config, out)),
        Cmd::Train(args) => finish("train", train::run(&args, out)),
        Cmd::Match(args) => finish("match", r#match::run(&args, &config, out)),
        Cmd::Promote(args) => finish("promote", promote::run(&args, out)),
    }
}

/// A training command's exit: its error goes to the log.
fn finish(what: &str, result: Result<(), TrainError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("{what}: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_lines_parse_as_documented() {
        Cli::command().debug_assert();
        let parse = |line: &str| {
            Cli::try_parse_from(line.split_whitespace())
                .unwrap()
                .command
                .expect("a subcommand")
        };
        match parse(
            "x selfplay --out d --games 7 --rule renju,standard --size 15x15,20 --worker w3 \
             --movetime 250 --network n.safetensors --no-noise",
        ) {
            Cmd::Selfplay(a) => {
                assert_eq!(
                    (a.out, a.games, a.worker),
                    (PathBuf::from("d"), 7, "w3".into())
                );
                assert_eq!(
                    (a.game.rule, a.game.size),
                    ("renju,standard".into(), "15x15,20".into())
                );
                assert_eq!((a.game.movetime, a.no_noise), (250, true));
                assert_eq!(a.network, Some(PathBuf::from("n.safetensors")));
            }
            _ => panic!("not selfplay"),
        }
        match parse(
            "x train --data d --out o --steps 9 --batch 32 --blocks 2 --channels 16 --seed 4 --resume",
        ) {
            Cmd::Train(a) => {
                assert_eq!((a.steps, a.batch, a.blocks, a.channels), (9, 32, Some(2), Some(16)));
                assert_eq!((a.seed, a.resume, a.optimizer.as_str()), (Some(4), true, "adam"));
                assert_eq!((a.data, a.init), (vec!["d".to_string()], None));
            }
            _ => panic!("not train"),
        }
        match parse("x train --data g0 --data g1:3 --init networks/n --out o --steps 9") {
            Cmd::Train(a) => {
                assert_eq!(a.data, vec!["g0".to_string(), "g1:3".to_string()]);
                assert_eq!(a.init, Some(PathBuf::from("networks/n")));
            }
            _ => panic!("not train"),
        }
        match parse(
            "x match --a classical --b nets/x --games 10 --movetime 50 --rule caro --size 20",
        ) {
            Cmd::Match(a) => {
                assert_eq!(
                    (a.a.as_str(), a.b.as_str(), a.games),
                    ("classical", "nets/x", 10)
                );
                assert_eq!((a.game.movetime, a.game.size.as_str()), (50, "20"));
            }
            _ => panic!("not match"),
        }
        match parse("x promote ck/ckpt-00000100 hoshi-v1") {
            Cmd::Promote(a) => {
                assert_eq!(a.checkpoint, PathBuf::from("ck/ckpt-00000100"));
                assert_eq!(
                    (a.name.as_str(), a.networks),
                    ("hoshi-v1", PathBuf::from("networks"))
                );
            }
            _ => panic!("not promote"),
        }
        match parse("x bench --seconds 0.5 --size 9") {
            Cmd::Bench(a) => assert_eq!((a.seconds, a.size), (0.5, 9)),
            _ => panic!("not bench"),
        }
        assert!(
            Cli::try_parse_from(["x", "selfplay", "--games", "3"]).is_err(),
            "--out is required"
        );
    }
}
