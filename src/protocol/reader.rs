//! The brain on a byte stream: [`serve`] is the one call that runs it (`pbrain-hoshi`'s engine
//! command). A reader thread parses the input line by line, filters each line through the
//! dialect and hands the engine's controller typed requests over a channel, so STOP, `yxstop`
//! and END reach it while it searches; the controller's answers come back through an
//! [`AnswerWriter`] onto the output.
use super::{AnswerWriter, Dialect, Output, Parser};
use crate::config::Config;
use crate::engine::{Controller, Event};
use crate::search::Thinker;
use crossbeam_channel::Sender;
use std::io::BufRead;
use std::sync::Arc;
use std::time::Instant;

/// Runs the brain: a reader thread parses `input` while the controller answers on `out`.
/// Returns the exit code (END leaves the process from inside, see `crate::quit`).
pub fn serve(
    config: Config,
    input: Box<dyn BufRead + Send>,
    out: Output,
    thinker: Box<dyn Thinker>,
) -> i32 {
    let dialect = Dialect::from_config(&config.protocol);
    let answers = Arc::new(AnswerWriter::new(
        out,
        dialect.coords,
        config.protocol.search_message,
    ));
    let (sender, events) = crossbeam_channel::unbounded();
    let reader_sender = sender.clone();
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || read(input, dialect, reader_sender))
        .expect("spawning the reader thread");
    Controller::new(config, answers, thinker, events, sender).run()
}

/// The reader thread: one request per line (or block) until the input ends.
fn read(mut input: Box<dyn BufRead + Send>, dialect: Dialect, events: Sender<Event>) {
    let mut parser = Parser::new();
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
                let Some(parsed) = parser.feed(&line) else {
                    continue;
                };
                let Some(request) = dialect.request(parsed, &line) else {
                    continue;
                };
                if events.send(Event::Request(request, at)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::Eof);
}
