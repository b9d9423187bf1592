//! The one writer of stdout: whole lines, flushed at once, never interleaved.
use parking_lot::Mutex;
use std::io::Write;
use std::sync::Arc;

/// A cloneable handle on the protocol output.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
}

struct Sink {
    writer: Box<dyn Write + Send>,
    closed: bool,
}

impl Output {
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Sink {
                writer,
                closed: false,
            })),
        }
    }

    /// Writes one line. A broken pipe is logged, not fatal: the manager may be gone.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock();
        if sink.closed {
            return;
        }
        log::debug!("> {text}");
        let result = writeln!(sink.writer, "{text}").and_then(|_| sink.writer.flush());
        if let Err(e) = result {
            log::warn!("cannot write to the manager: {e}");
        }
    }

    /// After END nothing more may be written.
    pub fn close(&self) {
        self.sink.lock().closed = true;
    }
}
