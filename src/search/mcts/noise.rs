//! Dirichlet noise for the root priors in self-play (rand 0.8 has no gamma distribution, so
//! the samplers are here: Marsaglia-Tsang for the gamma, Box-Muller for its normal).
use rand::Rng;

/// A sample of Dir(alpha, ..., alpha) with `n` components (empty for `n` = 0).
pub fn dirichlet(alpha: f32, n: usize) -> Vec<f32> {
    let mut rng = rand::thread_rng();
    let mut v: Vec<f32> = (0..n)
        .map(|_| gamma(&mut rng, alpha.max(1e-3) as f64) as f32)
        .collect();
    let sum: f32 = v.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        v.iter_mut().for_each(|x| *x /= sum);
    } else {
        v.iter_mut().for_each(|x| *x = 1.0 / n as f32);
    }
    v
}

fn gamma(rng: &mut impl Rng, alpha: f64) -> f64 {
    if alpha < 1.0 {
        // Gamma(a) = Gamma(a + 1) * U^(1/a).
        let u: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.gen();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

fn normal(rng: &mut impl Rng) -> f64 {
    let u1: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distributions_with_the_right_spread() {
        let v = dirichlet(0.3, 50);
        assert_eq!(v.len(), 50);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(v.iter().all(|&x| (0.0..=1.0).contains(&x)));
        assert!(dirichlet(0.3, 0).is_empty());
        // Mean of Gamma(a) is a: check a large-ish sample for both branches.
        let mut rng = rand::thread_rng();
        for a in [0.3, 2.5] {
            let mean = (0..20000).map(|_| gamma(&mut rng, a)).sum::<f64>() / 20000.0;
            assert!(
                (mean - a).abs() < 0.1 * a.max(1.0),
                "gamma({a}) mean {mean}"
            );
        }
    }
}
