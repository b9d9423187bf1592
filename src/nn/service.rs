//! The batching evaluator. One dedicated thread owns the [`Network`]; search threads hold an
//! [`EvalClient`] each and call the blocking [`EvalClient::evaluate`].
//!
//! A client looks the position up in the shared [`EvalCache`]; on a miss it encodes the features
//! (under a random symmetry, if configured) into its own reusable buffer and sends the buffer to
//! the evaluator over a bounded `crossbeam-channel`. The evaluator takes the first request, then
//! gathers more until the batch is full, every live client has a request in, or the deadline
//! passes; copies them into a preallocated batch tensor; runs one forward pass; and sends each
//! client its buffers back with the results. Buffers travel back and forth, so a leaf
//! evaluation allocates nothing on the Rust side.
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use tch::{Device, Kind, Tensor};

use super::cache::{CacheStats, EvalCache};
use super::error::NnError;
use super::features::{encode_into, encoded_len, FeatureSource, INPUT_PLANES};
use super::file::Network;
use super::grid::splitmix64;
use super::symmetry::Symmetry;
use crate::game::MAX_SIZE;

const MAX_AREA: usize = MAX_SIZE * MAX_SIZE;
/// How often a client waiting for an answer checks whether the service stopped.
const STOP_POLL: Duration = Duration::from_millis(50);

#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// Largest batch one forward pass takes.
    pub max_batch: usize,
    /// How long the evaluator waits for more requests after the first one of a batch.
    pub batch_deadline: Duration,
    /// Evaluate each position under a random symmetry (off: identity, deterministic).
    pub random_symmetry: bool,
    /// Evaluation cache entries (0: no cache).
    pub cache_entries: usize,
    /// Seeds the clients' symmetry choices.
    pub seed: u64,
    /// libtorch intra-op threads for the evaluator thread's forward passes (0: libtorch's
    /// default). On a CPU that other processes share, 1 is much more robust than more.
    pub torch_threads: usize,
}

impl Default for ServiceConfig {
    fn default() -> ServiceConfig {
        ServiceConfig {
            max_batch: 64,
            batch_deadline: Duration::from_micros(500),
            random_symmetry: true,
            cache_entries: 1 << 15,
            seed: 0x486f_7368_6921,
            torch_threads: 0,
        }
    }
}

/// A network's answer for one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Probability per point, index `y * width + x`: softmax over the empty points, 0 elsewhere.
    pub policy: Vec<f32>,
    /// Win, draw, loss probabilities for the side to move.
    pub wdl: [f32; 3],
}

impl Evaluation {
    /// Expected score for the side to move in [-1, 1]: win - loss.
    pub fn value(&self) -> f32 {
        self.wdl[0] - self.wdl[2]
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ServiceStats {
    pub batches: u64,
    /// Positions that went through the network (cache hits excluded).
    pub evaluations: u64,
    pub mean_batch_size: f64,
    /// Network evaluations per second since the service started.
    pub evals_per_second: f64,
    /// Time spent in forward passes (including the copies in and out).
    pub forward_seconds: f64,
    pub cache: CacheStats,
}

struct EvalRequest {
    features: Vec<f32>,
    policy: Vec<f32>,
    width: usize,
    height: usize,
    reply: Sender<Reply>,
}

struct Reply {
    features: Vec<f32>,
    policy: Vec<f32>,
    wdl: [f32; 3],
    error: Option<String>,
}

enum Message {
    Evaluate(EvalRequest),
    Shutdown,
}

struct Shared {
    config: ServiceConfig,
    cache: EvalCache,
    live_clients: AtomicUsize,
    stopped: AtomicBool,
    batches: AtomicU64,
    evaluations: AtomicU64,
    forward_nanos: AtomicU64,
    client_seeds: AtomicU64,
    started: Instant,
}

/// The evaluator thread. Dropping it stops the thread; clients then get `ServiceStopped`.
pub struct EvalService {
    sender: Sender<Message>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl EvalService {
    pub fn start(network: Network, config: ServiceConfig) -> Result<EvalService, NnError> {
        if config.max_batch == 0 {
            return Err(NnError::InvalidArch(
                "service max_batch must be at least 1".into(),
            ));
        }
        let (sender, receiver) = bounded(4 * config.max_batch.max(16));
        let shared = Arc::new(Shared {
            cache: EvalCache::new(config.cache_entries),
            config,
            live_clients: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            batches: AtomicU64::new(0),
            evaluations: AtomicU64::new(0),
            forward_nanos: AtomicU64::new(0),
            client_seeds: AtomicU64::new(0),
            started: Instant::now(),
        });
        let worker = BatchRunner::new(network, receiver, Arc::clone(&shared));
        let thread = std::thread::Builder::new()
            .name("nn-evaluator".into())
            .spawn(move || worker.run())
            .map_err(|e| {
                NnError::EvaluationFailed(format!("cannot start the evaluator thread: {e}"))
            })?;
        Ok(EvalService {
            sender,
            shared,
            thread: Some(thread),
        })
    }

    /// A new client for one search thread.
    pub fn client(&self) -> EvalClient {
        self.shared.live_clients.fetch_add(1, Ordering::SeqCst);
        let mut seed =
            self.shared.config.seed ^ self.shared.client_seeds.fetch_add(1, Ordering::Relaxed);
        let rng = splitmix64(&mut seed);
        let (reply_tx, reply_rx) = bounded(1);
        EvalClient {
            sender: self.sender.clone(),
            reply_tx,
            reply_rx,
            shared: Arc::clone(&self.shared),
            features: Vec::with_capacity(INPUT_PLANES * MAX_AREA),
            raw_policy: Vec::with_capacity(MAX_AREA),
            result: Evaluation {
                policy: Vec::with_capacity(MAX_AREA),
                wdl: [0.0; 3],
            },
            rng,
        }
    }

    pub fn cache(&self) -> &EvalCache {
        &self.shared.cache
    }

    pub fn stats(&self) -> ServiceStats {
        let s = &self.shared;
        let batches = s.batches.load(Ordering::Relaxed);
        let evaluations = s.evaluations.load(Ordering::Relaxed);
        let elapsed = s.started.elapsed().as_secs_f64().max(1e-9);
        ServiceStats {
            batches,
            evaluations,
            mean_batch_size: if batches == 0 {
                0.0
            } else {
                evaluations as f64 / batches as f64
            },
            evals_per_second: evaluations as f64 / elapsed,
            forward_seconds: s.forward_nanos.load(Ordering::Relaxed) as f64 * 1e-9,
            cache: s.cache.stats(),
        }
    }
}

impl Drop for EvalService {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        let _ = self.sender.send(Message::Shutdown);
        if let Some(thread) = self.thread.take() {
            if thread.join().is_err() {
                log::error!("the evaluator thread panicked");
            }
        }
    }
}

/// The state of the evaluator thread.
struct BatchRunner {
    network: Network,
    receiver: Receiver<Message>,
    shared: Arc<Shared>,
    batch: Vec<EvalRequest>,
    /// A request for another board size, kept for the next batch.
    deferred: Option<EvalRequest>,
    /// `[max_batch, 16, h, w]` f32 on the CPU, for the board size `(w, h)`.
    input: Option<(usize, usize, Tensor)>,
    policy_out: Vec<f32>,
    wdl_out: Vec<f32>,
}

impl BatchRunner {
    fn new(network: Network, receiver: Receiver<Message>, shared: Arc<Shared>) -> BatchRunner {
        let max = shared.config.max_batch;
        BatchRunner {
            network,
            receiver,
            batch: Vec::with_capacity(max),
            deferred: None,
            input: None,
            policy_out: vec![0.0; max * MAX_AREA],
            wdl_out: vec![0.0; max * 3],
            shared,
        }
    }

    fn run(mut self) {
        let max_batch = self.shared.config.max_batch;
        if self.shared.config.torch_threads > 0 {
            tch::set_num_threads(self.shared.config.torch_threads as i32);
        }
        loop {
            let first = match self.deferred.take() {
                Some(r) => r,
                None => match self.receiver.recv() {
                    Ok(Message::Evaluate(r)) => r,
                    Ok(Message::Shutdown) | Err(_) => break,
                },
            };
            let dims = (first.width, first.height);
            self.batch.push(first);
            let deadline = Instant::now() + self.shared.config.batch_deadline;
            let mut stop = false;
            while self.batch.len() < max_batch
                && self.batch.len() < self.shared.live_clients.load(Ordering::SeqCst)
            {
                match self.receiver.recv_deadline(deadline) {
                    Ok(Message::Evaluate(r)) if (r.width, r.height) == dims => self.batch.push(r),
                    Ok(Message::Evaluate(r)) => {
                        self.deferred = Some(r);
                        break;
                    }
                    Ok(Message::Shutdown) | Err(RecvTimeoutError::Disconnected) => {
                        stop = true;
                        break;
                    }
                    Err(RecvTimeoutError::Timeout) => break,
                }
            }
            self.evaluate_batch(dims.0, dims.1);
            if stop {
                break;
            }
        }
        // Answer whatever is still queued, so that no client waits for nothing.
        let pending = self
            .deferred
            .take()
            .into_iter()
            .chain(self.receiver.try_iter().filter_map(|m| match m {
                Message::Evaluate(r) => Some(r),
                Message::Shutdown => None,
            }));
        for r in pending.collect::<Vec<_>>() {
            fail(r, "the evaluation service has stopped");
        }
    }

    fn evaluate_batch(&mut self, width: usize, height: usize) {
        let started = Instant::now();
        let n = self.batch.len();
        let area = width * height;
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| self.forward(width, height)));
        match result {
            Ok(Ok(())) => {
                // Count before answering, so a client that got its answer sees it counted.
                let s = &self.shared;
                s.batches.fetch_add(1, Ordering::Relaxed);
                s.evaluations.fetch_add(n as u64, Ordering::Relaxed);
                s.forward_nanos
                    .fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
                for (i, r) in self.batch.drain(..).enumerate() {
                    let EvalRequest {
                        features,
                        mut policy,
                        reply,
                        ..
                    } = r;
                    policy.clear();
                    policy.extend_from_slice(&self.policy_out[i * area..(i + 1) * area]);
                    let w = &self.wdl_out[i * 3..i * 3 + 3];
                    let _ = reply.send(Reply {
                        features,
                        policy,
                        wdl: [w[0], w[1], w[2]],
                        error: None,
                    });
                }
            }
            Ok(Err(e)) => self.fail_batch(&e.to_string()),
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic in the forward pass".into());
                self.fail_batch(&msg);
            }
        }
    }

    fn fail_batch(&mut self, message: &str) {
        log::error!("network evaluation failed: {message}");
        for r in self.batch.drain(..) {
            fail(r, message);
        }
    }

    /// Copies the batch into the input tensor, runs the net, copies the answers out.
    fn forward(&mut self, width: usize, height: usize) -> Result<(), NnError> {
        let max = self.shared.config.max_batch;
        let n = self.batch.len();
        let per = encoded_len(width, height);
        if !matches!(&self.input, Some((w, h, _)) if (*w, *h) == (width, height)) {
            let dims = [max as i64, INPUT_PLANES as i64, height as i64, width as i64];
            self.input = Some((
                width,
                height,
                Tensor::f_zeros(dims, (Kind::Float, Device::Cpu))?,
            ));
        }
        let (_, _, input) = self.input.as_ref().expect("input tensor just made");
        // SAFETY: `input` is a contiguous f32 CPU tensor of `max * per` elements that we own, and
        // no other view of it is alive while this slice is.
        let data =
            unsafe { std::slice::from_raw_parts_mut(input.data_ptr() as *mut f32, max * per) };
        for (i, r) in self.batch.iter().enumerate() {
            data[i * per..(i + 1) * per].copy_from_slice(&r.features[..per]);
        }
        let (policy, wdl) = self.network.infer(&input.narrow(0, 0, n as i64));
        let area = width * height;
        policy.f_copy_data(&mut self.policy_out[..n * area], n * area)?;
        wdl.f_copy_data(&mut self.wdl_out[..n * 3], n * 3)?;
        Ok(())
    }
}

fn fail(r: EvalRequest, message: &str) {
    let EvalRequest {
        features,
        policy,
        reply,
        ..
    } = r;
    let _ = reply.send(Reply {
        features,
        policy,
        wdl: [0.0; 3],
        error: Some(message.to_string()),
    });
}

/// A search thread's handle on the service. Owns reusable buffers; not shared between threads.
pub struct EvalClient {
    sender: Sender<Message>,
    reply_tx: Sender<Reply>,
    reply_rx: Receiver<Reply>,
    shared: Arc<Shared>,
    features: Vec<f32>,
    /// The policy in the symmetry's frame, as the evaluator returns it.
    raw_policy: Vec<f32>,
    result: Evaluation,
    rng: u64,
}

impl EvalClient {
    /// Evaluates `src` (under a random symmetry when configured). Blocks until the answer comes.
    /// The returned evaluation lives in the client and is overwritten by the next call.
    pub fn evaluate(&mut self, src: &dyn FeatureSource) -> Result<&Evaluation, NnError> {
        let sym = if self.shared.config.random_symmetry {
            Symmetry::pick(src.width(), src.height(), splitmix64(&mut self.rng))
        } else {
            Symmetry::IDENTITY
        };
        self.evaluate_with_symmetry(src, sym)
    }

    /// Evaluates `src` seen through `sym` (the policy comes back in `src`'s own frame).
    pub fn evaluate_with_symmetry(
        &mut self,
        src: &dyn FeatureSource,
        sym: Symmetry,
    ) -> Result<&Evaluation, NnError> {
        if self.shared.stopped.load(Ordering::Relaxed) {
            return Err(NnError::ServiceStopped);
        }
        let (width, height) = (src.width(), src.height());
        let area = width * height;
        if width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE {
            return Err(NnError::EvaluationFailed(format!(
                "unsupported board size {width}x{height}"
            )));
        }
        self.result.policy.resize(area, 0.0);
        let key = cache_key(src);
        if let Some(wdl) = self.shared.cache.lookup(key, &mut self.result.policy) {
            self.result.wdl = wdl;
            return Ok(&self.result);
        }

        self.features.resize(encoded_len(width, height), 0.0);
        encode_into(src, sym, width, height, &mut self.features);
        let request = EvalRequest {
            features: std::mem::take(&mut self.features),
            policy: std::mem::take(&mut self.raw_policy),
            width,
            height,
            reply: self.reply_tx.clone(),
        };
        self.sender
            .send(Message::Evaluate(request))
            .map_err(|_| NnError::ServiceStopped)?;
        let reply = self.wait_for_reply()?;
        self.features = reply.features;
        self.raw_policy = reply.policy;
        if let Some(e) = reply.error {
            return Err(NnError::EvaluationFailed(e));
        }
        sym.untransform_points(width, height, &self.raw_policy, &mut self.result.policy);
        self.result.wdl = reply.wdl;
        self.shared
            .cache
            .insert(key, &self.result.policy, reply.wdl);
        Ok(&self.result)
    }

    fn wait_for_reply(&self) -> Result<Reply, NnError> {
        loop {
            match self.reply_rx.recv_timeout(STOP_POLL) {
                Ok(reply) => return Ok(reply),
                Err(RecvTimeoutError::Timeout) if !self.shared.stopped.load(Ordering::SeqCst) => {}
                Err(_) => return Err(NnError::ServiceStopped),
            }
        }
    }
}

impl Drop for EvalClient {
    fn drop(&mut self) {
        self.shared.live_clients.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The cache key: the position hash mixed with the board size (the hash covers stones, side to
/// move and rule).
fn cache_key(src: &dyn FeatureSource) -> u64 {
    let mut dims = ((src.width() as u64) << 8 | src.height() as u64) ^ 0xA076_1D64_78BD_642F;
    src.hash() ^ splitmix64(&mut dims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Rule};
    use crate::nn::model::Arch;
    use crate::nn::GridPosition;

    fn tiny() -> Network {
        Network::random(Arch::new(2, 16), 21, Device::Cpu).unwrap()
    }

    /// The evaluation a direct, unbatched forward pass gives under `sym`, in `pos`'s frame.
    fn direct(net: &Network, pos: &GridPosition, sym: Symmetry) -> Evaluation {
        let (w, h) = (pos.width, pos.height);
        let mut buf = vec![0.0; encoded_len(w, h)];
        encode_into(pos, sym, w, h, &mut buf);
        let xs = Tensor::from_slice(&buf).view([1, INPUT_PLANES as i64, h as i64, w as i64]);
        let (p, v) = net.infer(&xs);
        let raw = Vec::<f32>::try_from(p.view([-1])).unwrap();
        let mut policy = vec![0.0; w * h];
        sym.untransform_points(w, h, &raw, &mut policy);
        let v = Vec::<f32>::try_from(v.view([-1])).unwrap();
        Evaluation {
            policy,
            wdl: [v[0], v[1], v[2]],
        }
    }

    fn assert_close(a: &Evaluation, b: &Evaluation) {
        assert_eq!(a.policy.len(), b.policy.len());
        let worst = a
            .policy
            .iter()
            .zip(&b.policy)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "policy differs by {worst}");
        for i in 0..3 {
            assert!(
                (a.wdl[i] - b.wdl[i]).abs() < 1e-5,
                "wdl {:?} vs {:?}",
                a.wdl,
                b.wdl
            );
        }
    }

    fn positions(count: usize, sizes: &[(usize, usize)]) -> Vec<GridPosition> {
        (0..count)
            .map(|i| {
                let (w, h) = sizes[i % sizes.len()];
                let mut pos = GridPosition::new(w, h, Rule::ALL[i % 5]);
                pos.scatter(3 + i % 11, i as u64 * 7919);
                pos
            })
            .collect()
    }

    #[test]
    fn batched_answers_match_direct_forward_passes() {
        let reference = tiny();
        let config = ServiceConfig {
            max_batch: 8,
            batch_deadline: Duration::from_millis(2),
            random_symmetry: false,
            cache_entries: 0,
            ..Default::default()
        };
        let service = EvalService::start(tiny(), config).unwrap();
        let all = positions(48, &[(9, 9), (9, 9), (7, 11)]);
        let expected: Vec<Evaluation> = all
            .iter()
            .map(|p| direct(&reference, p, Symmetry::IDENTITY))
            .collect();
        std::thread::scope(|scope| {
            for t in 0..4 {
                let mut client = service.client();
                let (all, expected) = (&all, &expected);
                scope.spawn(move || {
                    for i in (t..all.len()).step_by(4) {
                        let got = client.evaluate(&all[i]).unwrap();
                        assert_close(got, &expected[i]);
                    }
                });
            }
        });
        let stats = service.stats();
        assert_eq!(stats.evaluations, 48);
        assert!(stats.batches < 48, "no batching happened: {stats:?}");
        assert!(stats.mean_batch_size > 1.0);
    }

    #[test]
    fn symmetric_evaluations_come_back_in_the_board_frame() {
        let reference = tiny();
        let config = ServiceConfig {
            cache_entries: 0,
            ..Default::default()
        };
        let service = EvalService::start(tiny(), config).unwrap();
        let mut client = service.client();
        let mut pos = GridPosition::new(8, 8, Rule::Freestyle);
        pos.place(1, 2, Color::Black);
        pos.place(5, 0, Color::White);
        pos.place(7, 6, Color::Black);
        pos.side_to_move = Color::White;
        for &sym in Symmetry::all(8, 8) {
            let got = client.evaluate_with_symmetry(&pos, sym).unwrap().clone();
            assert_close(&got, &direct(&reference, &pos, sym));
            for (x, y) in [(1, 2), (5, 0), (7, 6)] {
                assert_eq!(got.policy[y * 8 + x], 0.0);
            }
            assert!((got.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
        // Random symmetries: still a proper distribution, zero on the stones.
        for _ in 0..8 {
            let got = client.evaluate(&pos).unwrap();
            assert_eq!(got.policy[2 * 8 + 1], 0.0);
            assert!((got.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn cache_hits_skip_the_network() {
        let config = ServiceConfig {
            random_symmetry: false,
            ..Default::default()
        };
        let service = EvalService::start(tiny(), config).unwrap();
        let mut client = service.client();
        let mut pos = GridPosition::new(10, 10, Rule::Renju);
        pos.scatter(6, 99);
        let first = client.evaluate(&pos).unwrap().clone();
        let second = client.evaluate(&pos).unwrap().clone();
        assert_eq!(first, second);
        let stats = service.stats();
        assert_eq!(stats.evaluations, 1);
        assert_eq!((stats.cache.hits, stats.cache.misses), (1, 1));
        // Another side to move is another position.
        pos.side_to_move = pos.side_to_move.opponent();
        client.evaluate(&pos).unwrap();
        assert_eq!(service.stats().evaluations, 2);
        // Another client shares the cache.
        let mut other = service.client();
        pos.side_to_move = pos.side_to_move.opponent();
        assert_eq!(other.evaluate(&pos).unwrap(), &first);
        assert_eq!(service.stats().cache.hits, 2);
    }

    #[test]
    fn dropping_the_service_under_load_releases_every_client() {
        let service = EvalService::start(tiny(), ServiceConfig::default()).unwrap();
        let clients: Vec<EvalClient> = (0..4).map(|_| service.client()).collect();
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        let workers: Vec<_> = clients
            .into_iter()
            .enumerate()
            .map(|(t, mut client)| {
                let done_tx = done_tx.clone();
                std::thread::spawn(move || {
                    let mut pos = GridPosition::new(9 + t % 2, 9, Rule::Freestyle);
                    let mut count = 0u64;
                    let outcome = loop {
                        pos.clear();
                        pos.scatter(10, (t as u64) << 32 | count);
                        match client.evaluate(&pos) {
                            Ok(_) => count += 1,
                            Err(e) => break e,
                        }
                    };
                    done_tx.send((count, outcome.to_string())).unwrap();
                })
            })
            .collect();
        // Let every client get answers before pulling the plug.
        let waiting = Instant::now();
        while service.stats().evaluations < 20 && waiting.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(service);
        for _ in 0..4 {
            let (count, message) = done_rx
                .recv_timeout(Duration::from_secs(10))
                .expect("a client hung after the service stopped");
            assert!(
                message.contains("stopped"),
                "{message} after {count} evaluations"
            );
        }
        for w in workers {
            w.join().unwrap();
        }
    }

    #[test]
    fn clients_get_an_error_once_the_service_is_gone() {
        let service = EvalService::start(tiny(), ServiceConfig::default()).unwrap();
        let mut client = service.client();
        let pos = GridPosition::new(6, 6, Rule::Standard);
        assert!(client.evaluate(&pos).is_ok());
        drop(service);
        assert!(matches!(
            client.evaluate(&pos),
            Err(NnError::ServiceStopped)
        ));
        let too_big = GridPosition::new(40, 6, Rule::Standard);
        assert!(client.evaluate(&too_big).is_err());
    }
}
