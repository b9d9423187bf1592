//! Runs one search on a worker thread so the controller keeps reading commands meanwhile.
use crate::search::{ThinkRequest, ThinkResult, Thinker};
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

/// A search in flight.
pub struct RunningSearch {
    stop: Arc<AtomicBool>,
}

impl RunningSearch {
    /// Moves `thinker` onto a new thread; when the search ends, `done` receives the result and
    /// the thinker back.
    pub fn start<E: Send + 'static>(
        mut thinker: Box<dyn Thinker>,
        request: ThinkRequest,
        done: Sender<E>,
        wrap: fn(ThinkResult, Box<dyn Thinker>) -> E,
    ) -> RunningSearch {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let result = thinker.think(&request, &flag);
                // The controller may be gone (END); nothing to do then.
                let _ = done.send(wrap(result, thinker));
            })
            .expect("spawning the search thread");
        RunningSearch { stop }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}
