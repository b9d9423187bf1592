//! Logging through `log` + `env_logger`: to stderr, and to a file when the config names one.
//! Never to stdout, which belongs to the protocol.
use crate::config::LogConfig;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};

/// Writes every log record to stderr and, if open, to the log file.
struct Tee {
    file: Option<File>,
}

impl Write for Tee {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        io::stderr().write_all(buf)?;
        if let Some(f) = &mut self.file {
            // A full disk must not take the brain down with it.
            let _ = f.write_all(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()?;
        if let Some(f) = &mut self.file {
            let _ = f.flush();
        }
        Ok(())
    }
}

/// Installs the global logger. `RUST_LOG` overrides the configured level. Calling it twice is
/// harmless (the second call is ignored), which keeps tests simple.
pub fn init(config: &LogConfig) -> Result<(), String> {
    let file = if config.file.is_empty() {
        None
    } else {
        Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&config.file)
                .map_err(|e| format!("cannot open log file {}: {e}", config.file))?,
        )
    };
    let mut builder = env_logger::Builder::new();
    builder.parse_filters(&config.level);
    if let Ok(spec) = std::env::var("RUST_LOG") {
        builder.parse_filters(&spec);
    }
    builder.target(env_logger::Target::Pipe(Box::new(Tee { file })));
    let _ = builder.try_init();
    Ok(())
}
