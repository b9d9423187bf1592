//! Throughput measurements, printed by the engine's `bench` subcommand.
use std::time::{Duration, Instant};

use tch::Tensor;

use super::features::{encode_into, encoded_len, INPUT_PLANES};
use super::file::Network;
use super::grid::GridPosition;
use super::service::{EvalService, ServiceConfig, ServiceStats};
use super::symmetry::Symmetry;
use crate::game::Rule;

/// A batch of `batch` mid-game-looking positions (about a quarter of the board filled).
fn sample_batch(batch: usize, width: usize, height: usize) -> Tensor {
    let per = encoded_len(width, height);
    let mut data = vec![0.0; batch * per];
    let mut pos = GridPosition::new(width, height, Rule::Freestyle);
    for (i, chunk) in data.chunks_mut(per).enumerate() {
        pos.clear();
        pos.scatter(width * height / 4, i as u64 + 1);
        encode_into(&pos, Symmetry::IDENTITY, width, height, chunk);
    }
    Tensor::from_slice(&data).view([
        batch as i64,
        INPUT_PLANES as i64,
        height as i64,
        width as i64,
    ])
}

/// Network evaluations per second running forward passes of `batch` positions on a
/// `width` x `height` board for about `seconds` (after one warm-up pass). Includes the softmax
/// and the copy of the results back to the CPU, as the evaluator does.
pub fn forward_throughput(
    net: &Network,
    batch: usize,
    width: usize,
    height: usize,
    seconds: f64,
) -> f64 {
    let xs = sample_batch(batch.max(1), width, height);
    let _ = net.infer(&xs);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = Instant::now();
    let mut passes = 0u64;
    while passes < 2 || started.elapsed() < budget {
        let (p, _) = net.infer(&xs);
        // Reading a value forces the (possibly asynchronous, on CUDA) pass to finish.
        let _ = p.double_value(&[0, 0]);
        passes += 1;
    }
    (passes * batch.max(1) as u64) as f64 / started.elapsed().as_secs_f64()
}

/// Evaluations per second seen by `threads` client threads hammering a service (each sends
/// distinct positions, so with a cache they all miss). Returns the rate and the service stats.
pub fn service_throughput(
    net: Network,
    config: ServiceConfig,
    threads: usize,
    width: usize,
    height: usize,
    seconds: f64,
) -> Result<(f64, ServiceStats), super::NnError> {
    let service = EvalService::start(net, config)?;
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let started = Instant::now();
    let total: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let mut client = service.client();
                scope.spawn(move || {
                    let mut pos = GridPosition::new(width, height, Rule::Freestyle);
                    let mut done = 0u64;
                    while done < 2 || started.elapsed() < budget {
                        pos.clear();
                        pos.scatter(width * height / 4, (t as u64) << 32 | done);
                        if client.evaluate(&pos).is_err() {
                            break;
                        }
                        done += 1;
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    let rate = total as f64 / started.elapsed().as_secs_f64();
    Ok((rate, service.stats()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::model::Arch;
    use tch::Device;

    #[test]
    fn throughput_figures_are_positive() {
        let net = Network::random(Arch::new(1, 8), 1, Device::Cpu).unwrap();
        let rate = forward_throughput(&net, 4, 9, 9, 0.0);
        assert!(rate.is_finite() && rate > 0.0);
        let config = ServiceConfig {
            cache_entries: 0,
            ..Default::default()
        };
        let (rate, stats) = service_throughput(net, config, 2, 9, 9, 0.0).unwrap();
        assert!(rate > 0.0);
        assert!(stats.evaluations >= 4, "{stats:?}");
    }

    /// The figures of the report:
    /// `HOSHI_NN_THREADS=2 cargo test --release --lib nn::throughput -- --ignored --nocapture`.
    /// Each figure is the best of several short windows: on a shared machine the best window is
    /// the one least disturbed by other processes.
    #[test]
    #[ignore]
    fn report_figures() {
        let threads = std::env::var("HOSHI_NN_THREADS")
            .ok()
            .and_then(|v| v.parse().ok());
        let threads: usize = threads.unwrap_or(2);
        tch::set_num_threads(threads as i32);
        let best = |f: &mut dyn FnMut() -> f64| (0..6).map(|_| f()).fold(0.0, f64::max);
        for (name, arch) in [("6x64", Arch::new(6, 64)), ("2x16", Arch::new(2, 16))] {
            let net = Network::random(arch, 1, Device::Cpu).unwrap();
            for batch in [1, 8, 32, 128] {
                let rate = best(&mut || forward_throughput(&net, batch, 15, 15, 0.3));
                eprintln!("forward {name} 15x15 batch {batch:>3}: {rate:>7.0} evals/s");
            }
            for clients in [1, 8, 32] {
                let mut batch = 0.0;
                let rate = best(&mut || {
                    let net = Network::random(arch, 1, Device::Cpu).unwrap();
                    let config = ServiceConfig {
                        cache_entries: 0,
                        max_batch: clients,
                        torch_threads: threads,
                        ..Default::default()
                    };
                    let (rate, stats) =
                        service_throughput(net, config, clients, 15, 15, 0.3).unwrap();
                    batch = stats.mean_batch_size;
                    rate
                });
                eprintln!(
                    "service {name} 15x15 {clients:>2} clients: {rate:>7.0} evals/s (mean batch {batch:.1})"
                );
            }
        }
    }
}
