//! The controller: owns the game and the clock, starts and stops searches, answers commands.
pub mod clock;
mod controller;
mod game_state;
pub mod legacy;
mod openings;
pub mod request;
mod worker;

pub use controller::{Controller, Event};
pub use game_state::{GameState, PositionError};
pub use request::{Command, Field, InfoKey};

use crate::config::Config;
use crate::protocol::{Output, Parser};
use crate::search::Thinker;
use std::io::BufRead;
use std::time::Instant;

/// Runs the brain: a reader thread parses `input` line by line while the controller answers on
/// `out`. Returns the exit code.
pub fn run(
    config: Config,
    input: Box<dyn BufRead + Send>,
    out: Output,
    thinker: Box<dyn Thinker>,
) -> i32 {
    let (sender, events) = crossbeam_channel::unbounded();
    let reader_sender = sender.clone();
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || {
            let mut parser = Parser::new();
            let mut input = input;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        // Managers may send stray non-UTF-8 bytes; they must not kill us.
                        let line = String::from_utf8_lossy(&buf);
                        log::debug!("< {}", line.trim_end());
                        if let Some(parsed) = parser.feed(&line) {
                            let event = Event::Input(parsed, at, line.trim().to_string());
                            if reader_sender.send(event).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
            let _ = reader_sender.send(Event::Eof);
        })
        .expect("spawning the reader thread");
    Controller::new(config, out, thinker, events, sender).run()
}
