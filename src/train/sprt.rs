//! A sequential probability ratio test over a match's W/D/L: does A gain at least `elo1` over B
//! (H1) or at most `elo0` (H0)? After each game the log-likelihood ratio of the two is compared
//! with Wald's bounds, so a clear result ends the match early and a small gain is resolved with
//! as many games as it needs, not a fixed number. The ratio is the normal approximation of the
//! generalised SPRT on the per-game score (the form chess engine testing uses):
//! `LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)`, with `m` and `v` the sample mean and variance of
//! the score and `s0`, `s1` the scores the two Elo differences predict.
use std::fmt;
use std::str::FromStr;

/// The hypotheses and error rates of one test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the games so far say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A gains at least `elo1`.
    H1,
    /// A gains at most `elo0`.
    H0,
    /// Play on.
    Open,
}

/// The score an Elo difference predicts.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after `wins`, `draws` and `losses` of A.
    pub fn llr(&self, wins: usize, draws: usize, losses: usize) -> f64 {
        if wins + losses == 0 {
            return 0.0; // draws only (or no games): nothing to judge by
        }
        if wins + draws == 0 || draws + losses == 0 {
            // Wins only or losses only have no variance: count one draw more, so that a run
            // of them weighs as much as it should and no more.
            return self.llr(wins, draws + 1, losses);
        }
        let n = (wins + draws + losses) as f64;
        let mean = (wins as f64 + 0.5 * draws as f64) / n;
        let square = (wins as f64 + 0.25 * draws as f64) / n;
        let variance = square - mean * mean;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Wald's bounds: H0 is accepted below the first, H1 above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, wins: usize, draws: usize, losses: usize) -> Verdict {
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Open
        }
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (alpha and beta 0.05 when left out).
    fn from_str(s: &str) -> Result<Sprt, String> {
        let numbers: Vec<f64> = s
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{s:?}: {e}"))?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [elo0, elo1] => (elo0, elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => (elo0, elo1, alpha, beta),
            _ => return Err(format!("{s:?}: want ELO0,ELO1[,ALPHA,BETA]")),
        };
        if elo1 <= elo0 {
            return Err(format!("{s:?}: ELO1 must exceed ELO0"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(format!("{s:?}: ALPHA and BETA lie between 0 and 0.5"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Open => "inconclusive",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn bounds_follow_the_error_rates() {
        let (lower, upper) = test(0.0, 10.0).bounds();
        assert!((lower + 2.944).abs() < 0.001 && (upper - 2.944).abs() < 0.001);
    }

    #[test]
    fn a_clear_gain_accepts_h1_and_a_loss_h0() {
        let t = test(0.0, 50.0);
        assert_eq!(t.verdict(70, 10, 20), Verdict::H1);
        assert_eq!(t.verdict(20, 10, 70), Verdict::H0);
        assert_eq!(
            t.verdict(6, 2, 5),
            Verdict::Open,
            "a few games decide nothing"
        );
        // A score between the hypotheses leans to the nearer one, slowly.
        let halfway = expected_score(25.0);
        assert!((halfway - 0.536).abs() < 0.001);
        assert!(t.llr(540, 0, 460) > 0.0 && t.llr(530, 0, 470) < 0.0);
    }

    #[test]
    fn the_ratio_matches_a_hand_computed_value() {
        // 60-40 with no draws: mean 0.6, variance 0.24; s0 = 0.5, s1 = 0.5717.
        let llr = test(0.0, 50.0).llr(60, 0, 40);
        let (s0, s1) = (0.5, expected_score(50.0));
        let expected = 100.0 * (s1 - s0) * (1.2 - s0 - s1) / (2.0 * 0.24);
        assert!((llr - expected).abs() < 1e-9 && llr > 0.0);
        assert_eq!(test(0.0, 50.0).llr(0, 7, 0), 0.0, "draws only say nothing");
        // Wins only count one draw more: ten of them accept a gain, two do not yet.
        assert_eq!(test(0.0, 50.0).llr(10, 0, 0), test(0.0, 50.0).llr(10, 1, 0));
        assert_eq!(test(0.0, 50.0).verdict(10, 0, 0), Verdict::H1);
        assert_eq!(test(0.0, 50.0).verdict(2, 0, 0), Verdict::Open);
        assert_eq!(test(0.0, 50.0).verdict(0, 0, 10), Verdict::H0);
    }

    #[test]
    fn parses_two_or_four_numbers() {
        assert_eq!("0,10".parse::<Sprt>().unwrap(), test(0.0, 10.0));
        let t: Sprt = "-5, 5, 0.1, 0.2".parse().unwrap();
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (-5.0, 5.0, 0.1, 0.2));
        assert!("10,0".parse::<Sprt>().is_err());
        assert!("0,10,0.5,0.05".parse::<Sprt>().is_err());
        assert!("0".parse::<Sprt>().is_err());
        assert!("a,b".parse::<Sprt>().is_err());
    }
}
