//! Runs a job with the thinker on a worker thread, so the controller keeps reading commands
//! meanwhile (STOP, yxstop and END act at once). A job that panics still reports back, so the
//! controller can answer for it instead of waiting forever.
use super::opening_duties::OpeningAnswer;
use crate::search::{ThinkRequest, ThinkResult, Thinker};
use crossbeam_channel::Sender;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

/// What a job produces.
pub enum JobOutput {
    /// A search's verdict on one position.
    Think(ThinkResult),
    /// An opening duty's answer (swap, swap2, balance).
    Opening(OpeningAnswer),
    /// The job panicked (a bug); the default hook has written the panic on stderr.
    Panicked,
}

/// A unit of work for the thinker: one search, or several (openings, balance).
pub type Job = Box<dyn FnOnce(&mut dyn Thinker, &AtomicBool) -> JobOutput + Send>;

/// A job in flight.
pub struct Running {
    stop: Arc<AtomicBool>,
}

impl Running {
    /// Moves `thinker` onto a new thread to run `job`; when it ends, `done` receives the output
    /// and the thinker back.
    pub fn start<E: Send + 'static>(
        mut thinker: Box<dyn Thinker>,
        job: Job,
        done: Sender<E>,
        wrap: fn(JobOutput, Box<dyn Thinker>) -> E,
    ) -> Running {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let output =
                    std::panic::catch_unwind(AssertUnwindSafe(|| job(thinker.as_mut(), &flag)))
                        .unwrap_or_else(|_| {
                            log::error!("the search panicked");
                            JobOutput::Panicked
                        });
                // The controller may be gone (END); nothing to do then.
                let _ = done.send(wrap(output, thinker));
            })
            .expect("spawning the search thread");
        Running { stop }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// The plain job: think about one position.
pub fn think_job(request: ThinkRequest) -> Job {
    Box::new(move |thinker, stop| JobOutput::Think(thinker.think(&request, stop)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::one_ply::ClassicalPlayer;
    use std::time::Duration;

    #[test]
    fn a_panicking_job_reports_back_with_the_thinker() {
        let (done, reports) = crossbeam_channel::unbounded();
        let job: Job = Box::new(|_, _| panic!("a buggy search"));
        Running::start(Box::new(ClassicalPlayer), job, done, |output, thinker| {
            (output, thinker)
        });
        let (output, thinker) = reports
            .recv_timeout(Duration::from_secs(30))
            .expect("the worker reports back");
        assert!(matches!(output, JobOutput::Panicked));
        assert_eq!(thinker.name(), ClassicalPlayer.name());
    }
}
