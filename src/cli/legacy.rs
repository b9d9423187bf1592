//! `hoshi`: the brain for the legacy file protocol (seed 002). Gomocup managers use that
//! protocol for executables whose name does not start with `pbrain-`. Each run reads
//! PLOCHA.DAT, TAH.DAT, TIMEOUTS.DAT and INFO.DAT from the working directory, writes one move
//! to TAH.DAT (and a line to MSG.DAT), and exits; see `crate::protocol::file_brain`.
use crate::config::{Config, LogConfig};
use crate::protocol::file_brain::{self as legacy, LegacyError};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "hoshi",
    version,
    about = "Hoshi, a Gomoku/Renju brain for the legacy file protocol (PLOCHA.DAT, TAH.DAT)"
)]
struct Cli {
    /// Configuration file (default: hoshi.toml beside the executable, then the repo's config/).
    #[arg(long)]
    config: Option<PathBuf>,
}

/// `hoshi`: one move of the file protocol in the working directory.
pub fn main() -> ExitCode {
    // The manager times us from launch to exit: the clock starts at launch.
    let started = legacy::launch_instant(Instant::now());
    let dir = Path::new(".");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help, --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = e.print();
            let error = LegacyError::Config(format!("bad command line: {}", e.kind()));
            return ExitCode::from(legacy::report_failure(dir, &error));
        }
    };
    let config = match Config::discover(cli.config.as_deref()) {
        Ok((config, _)) => config,
        Err(e) => {
            return ExitCode::from(legacy::report_failure(
                dir,
                &LegacyError::Config(e.to_string()),
            ))
        }
    };
    // Logs go to stderr only: the working directory belongs to the manager.
    let log = LogConfig {
        file: String::new(),
        ..config.log.clone()
    };
    if let Err(e) = crate::logging::init(&log) {
        eprintln!("hoshi: {e}");
    }
    if !config.log.file.is_empty() {
        log::warn!("log.file is ignored by the file-protocol brain: logging to stderr only");
    }
    let thinker = crate::setup::engine_thinker(&config);
    ExitCode::from(legacy::run(dir, &config, thinker, started))
}
