//! The arena (`match`): two thinkers play each other in-process from random balanced openings.
//! Each opening is played twice with the colours swapped, so neither side profits from a
//! lopsided opening; the result is W/D/L from A's view, the score, and the Elo difference with a
//! 95% error bar.
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use parking_lot::Mutex;

use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::game::{Board, Point};
use crate::protocol::format::pv_move;
use crate::search::Thinker;

use super::error::TrainError;
use super::game_play::{play_game, PlayOptions, Seats};
use super::random_openings::OpeningConfig;
use super::records::GameResult;
use super::selfplay::Variant;
use super::sprt::{Sprt, Verdict};

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games in all (an odd count plays the last opening once, A as black).
    pub games: usize,
    /// Each opening pair picks one of these uniformly.
    pub variants: Vec<Variant>,
    /// Usually without temperature: the openings give the variety.
    pub play: PlayOptions,
    pub opening: OpeningConfig,
    /// Openings to play in order instead of random ones (the first pair plays the first, and
    /// so on, round again when there are more pairs than openings), each on the variant its
    /// pair draws.
    pub openings: Vec<Vec<Point>>,
    pub seed: u64,
    /// Stop as soon as this test decides (the games then number fewer than `games`).
    pub sprt: Option<Sprt>,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            games: 100,
            variants: vec![Variant::new(crate::game::Rule::Freestyle, 15, 15)],
            play: PlayOptions::default(),
            opening: OpeningConfig::default(),
            openings: Vec::new(),
            seed: 1,
            sprt: None,
        }
    }
}

/// An Elo difference and the half-width of its 95% confidence interval (either may be infinite
/// when the score or an end of its interval is 0% or 100%).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub diff: f64,
    pub error95: f64,
}

/// The Elo difference that predicts `score` (0..=1): `-400 log10(1/score - 1)`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Elo difference from W/D/L, with the error bar from the score's standard error: the per-game
/// score (1, 1/2, 0) has variance `sigma^2` around the mean `s`; the mean's standard error is
/// `sigma / sqrt(n)`; the bar is half the Elo distance between `s -/+ 1.96` standard errors.
pub fn elo_estimate(wins: usize, draws: usize, losses: usize) -> EloEstimate {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return EloEstimate {
            diff: 0.0,
            error95: f64::INFINITY,
        };
    }
    let s = (wins as f64 + 0.5 * draws as f64) / n;
    let variance = (wins as f64 * (1.0 - s).powi(2)
        + draws as f64 * (0.5 - s).powi(2)
        + losses as f64 * s.powi(2))
        / n;
    let margin = 1.96 * (variance / n).sqrt();
    let upper = elo_from_score((s + margin).min(1.0));
    let lower = elo_from_score((s - margin).max(0.0));
    EloEstimate {
        // `+ 0.0` turns -0 (from rounding at s = 0.5) into 0.
        diff: elo_from_score(s) + 0.0,
        error95: if upper.is_finite() && lower.is_finite() {
            (upper - lower) / 2.0
        } else {
            f64::INFINITY
        },
    }
}

/// A match's tally from A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl MatchResult {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// A's score in [0, 1] (0.5 for no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
        }
    }

    pub fn elo(&self) -> EloEstimate {
        elo_estimate(self.wins, self.draws, self.losses)
    }

    fn add(&mut self, a_won: Option<bool>) {
        match a_won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }
}

/// `W-D-L, score, Elo ± error`, e.g. `+12 =3 -5 (games 20), score 67.5%, Elo +127 ± 150`.
impl fmt::Display for MatchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let elo = self.elo();
        write!(
            f,
            "+{} ={} -{} (games {}), score {:.1}%, Elo {:+.0} ± {:.0}",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            100.0 * self.score(),
            elo.diff,
            elo.error95
        )
    }
}

/// Plays the match (see the module docs). Stops early, keeping the finished games, when `stop`
/// is raised.
pub fn play_match(
    a: &mut dyn Thinker,
    b: &mut dyn Thinker,
    config: &MatchConfig,
    stop: &AtomicBool,
) -> Result<MatchResult, TrainError> {
    check(config)?;
    let tally = Mutex::new(MatchResult::default());
    let started = Instant::now();
    play_pairs(
        a,
        b,
        config,
        0..config.games.div_ceil(2),
        &tally,
        started,
        stop,
    )?;
    Ok(tally.into_inner())
}

/// Player A and player B of one of a parallel match's jobs.
pub type ThinkerPair = (Box<dyn Thinker>, Box<dyn Thinker>);

/// Builds a fresh [`ThinkerPair`] for each job.
pub type PairFactory<'a> = dyn Fn() -> Result<ThinkerPair, TrainError> + Sync + 'a;

/// The same match as [`play_match`] (the same openings, colours and games), with the opening
/// pairs shared out over `jobs` threads, each with its own two thinkers from `factory`. Each
/// thinker should search with one thread per job so that the jobs do not steal each other's
/// cores.
pub fn play_match_parallel(
    factory: &PairFactory<'_>,
    config: &MatchConfig,
    jobs: usize,
    stop: &AtomicBool,
) -> Result<MatchResult, TrainError> {
    check(config)?;
    let pairs = config.games.div_ceil(2);
    let jobs = jobs.clamp(1, pairs.max(1));
    let tally = Mutex::new(MatchResult::default());
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| -> Result<(), TrainError> {
                    let (mut a, mut b) = factory()?;
                    // Pairs are handed out one at a time, so a slow game does not hold others up.
                    let mine = std::iter::from_fn(|| {
                        let p = next.fetch_add(1, Ordering::Relaxed);
                        (p < pairs).then_some(p)
                    });
                    play_pairs(a.as_mut(), b.as_mut(), config, mine, &tally, started, stop)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a match job panicked"))
            .collect::<Result<Vec<()>, TrainError>>()
    })?;
    Ok(tally.into_inner())
}

fn check(config: &MatchConfig) -> Result<(), TrainError> {
    if config.variants.is_empty() {
        return Err(TrainError::Config("no rule/size to play".into()));
    }
    config.play.validate()
}

/// Plays the given opening pairs (both colours each; the last pair of an odd match once, A
/// as black), adding the results to `tally`; the progress line's ETA counts from `started`.
fn play_pairs(
    a: &mut dyn Thinker,
    b: &mut dyn Thinker,
    config: &MatchConfig,
    pairs: impl Iterator<Item = usize>,
    tally: &Mutex<MatchResult>,
    started: Instant,
    stop: &AtomicBool,
) -> Result<(), TrainError> {
    let (name_a, name_b) = (a.name().to_string(), b.name().to_string());
    for pair in pairs {
        let mut rng =
            StdRng::seed_from_u64(config.seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (variant, opening) = if config.openings.is_empty() {
            Variant::draw(&config.variants, &config.opening, &mut rng)?
        } else {
            let variant = Variant::pick(&config.variants, &mut rng);
            let moves = &config.openings[pair % config.openings.len()];
            let board = Board::from_moves(variant.width, variant.height, variant.rule, moves)?;
            (variant, board)
        };
        for a_is_black in [true, false] {
            if 2 * pair + usize::from(!a_is_black) >= config.games {
                break;
            }
            let seats = if a_is_black {
                Seats::Match {
                    black: &mut *a,
                    white: &mut *b,
                }
            } else {
                Seats::Match {
                    black: &mut *b,
                    white: &mut *a,
                }
            };
            let Some(game) = play_game(opening.clone(), seats, &config.play, &mut rng, stop)?
            else {
                log::info!("match: stopped");
                return Ok(());
            };
            let a_won = match game.result {
                GameResult::Draw => None,
                GameResult::BlackWin => Some(a_is_black),
                GameResult::WhiteWin => Some(!a_is_black),
            };
            let result = {
                let mut t = tally.lock();
                t.add(a_won);
                *t
            };
            let done = result.games();
            let eta = started.elapsed().as_secs_f64() / done as f64
                * config.games.saturating_sub(done) as f64;
            log::info!(
                "match: game {}/{} ({} {}x{}, opening {}, {} black, {} moves): {}; {name_a} vs {name_b}: {result}; ETA {eta:.0} s",
                done,
                config.games,
                variant.rule,
                variant.width,
                variant.height,
                pair + 1,
                if a_is_black { &name_a } else { &name_b },
                game.positions.len(),
                match a_won {
                    Some(true) => format!("{name_a} won"),
                    Some(false) => format!("{name_b} won"),
                    None => "draw".into(),
                },
            );
            // The moves, so that a match's losses can be replayed and studied.
            log::debug!(
                "match: game {done} moves {}",
                game.moves().map(pv_move).collect::<String>()
            );
            if let Some(test) = config.sprt {
                let verdict = test.verdict(result.wins, result.draws, result.losses);
                if verdict != Verdict::Open {
                    // Ends the other jobs' games too; unfinished games are not counted.
                    log::info!("match: SPRT {verdict} after {done} games");
                    stop.store(true, Ordering::Relaxed);
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
        assert!((elo_from_score(0.6) - 70.44).abs() < 0.01);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn error_bars_follow_the_standard_error() {
        // 60 wins, 40 losses: s = 0.6, sigma^2 = 0.24, se = 0.049.
        let e = elo_estimate(60, 0, 40);
        assert!((e.diff - 70.44).abs() < 0.01);
        assert!((e.error95 - 70.57).abs() < 0.01, "{}", e.error95);
        // Draws shrink the bar: 30/40/30 has sigma^2 = 0.15.
        let e = elo_estimate(30, 40, 30);
        assert_eq!(e.diff, 0.0);
        assert!((e.error95 - 53.16).abs() < 0.01, "{}", e.error95);
        // More games, a tighter bar.
        assert!(elo_estimate(600, 0, 400).error95 < 23.0);
        // All wins: an infinite difference and bar (not NaN).
        assert_eq!(elo_estimate(5, 0, 0).diff, f64::INFINITY);
        assert_eq!(elo_estimate(5, 0, 0).error95, f64::INFINITY);
        assert_eq!(elo_estimate(0, 1, 6).error95, f64::INFINITY);
        // An even score prints as 0, not -0.
        let even = MatchResult {
            wins: 3,
            draws: 14,
            losses: 3,
        };
        assert!(even.to_string().contains("Elo +0 ± "), "{even}");
    }

    #[test]
    fn results_display_and_score() {
        let r = MatchResult {
            wins: 3,
            draws: 0,
            losses: 1,
        };
        assert_eq!(r.score(), 0.75);
        let text = r.to_string();
        assert!(
            text.starts_with("+3 =0 -1 (games 4), score 75.0%, Elo +191 ± "),
            "{text}"
        );
        assert_eq!(MatchResult::default().score(), 0.5);
    }
}
