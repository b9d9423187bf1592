//! Self-play: one worker plays games against itself with any [`Thinker`] and appends them to its
//! own shards (see [`super::records`]).
//!
//! Each game picks a variant (rule and board size) from the configured list, starts from a
//! random balanced opening, samples its first moves from the search's ranked moves (temperature)
//! and then plays the search's best move. Exploration noise is the thinker's own business: the
//! factory receives [`SelfplayConfig::exploration_noise`] and passes it to the constructor.
//!
//! With playout cap randomization ([`PlayOptions::playout_cap`]) the factory builds two
//! thinkers: one as configured for the full, recorded searches, and one without exploration
//! noise for the cheap searches (each keeps its own tree).
//!
//! Resumable: `games` is the worker's total. A restarted worker counts the games its shards
//! already hold, plays the rest into a new shard, and seeds each game from its number, so a
//! restart never replays a game it already has. A worker id belongs to one process at a time
//! (two processes with the same id would race for the same new shard name; the second fails).
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::game::{Board, Rule, MAX_SIZE, MIN_SIZE};
use crate::search::{Limits, ThinkRequest, Thinker};

use super::error::TrainError;
use super::game_play::{play_game, PlayOptions, Seats};
use super::random_openings::{random_opening, OpeningConfig};
use super::records::{check_worker_id, read_shard, worker_shards, GameResult, ShardWriter};

/// A rule and a board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
}

impl Variant {
    /// One of `variants` at random, with a random balanced opening on its board.
    pub fn draw<R: Rng>(
        variants: &[Variant],
        opening: &OpeningConfig,
        rng: &mut R,
    ) -> Result<(Variant, crate::game::Board), crate::game::GameError> {
        let variant = Variant::pick(variants, rng);
        let board = random_opening(variant.width, variant.height, variant.rule, opening, rng)?;
        Ok((variant, board))
    }

    /// One of `variants`, uniformly.
    pub fn pick<R: Rng>(variants: &[Variant], rng: &mut R) -> Variant {
        variants[rng.gen_range(0..variants.len())]
    }

    pub fn new(rule: Rule, width: usize, height: usize) -> Variant {
        Variant {
            rule,
            width,
            height,
        }
    }

    /// Every combination of the given rules and sizes.
    pub fn all(rules: &[Rule], sizes: &[(usize, usize)]) -> Vec<Variant> {
        rules
            .iter()
            .flat_map(|&r| sizes.iter().map(move |&(w, h)| Variant::new(r, w, h)))
            .collect()
    }

    fn validate(&self) -> Result<(), TrainError> {
        let ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
        if ok(self.width) && ok(self.height) {
            Ok(())
        } else {
            Err(TrainError::Config(format!(
                "board {}x{}: sides must be {MIN_SIZE} to {MAX_SIZE}",
                self.width, self.height
            )))
        }
    }
}

/// Everything a self-play worker needs.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub out_dir: PathBuf,
    /// Names this worker's shards (`<worker>-<n>.hsp`).
    pub worker: String,
    /// The worker's total number of games in `out_dir`, counting those of earlier runs.
    pub games: usize,
    /// Each game picks one of these uniformly.
    pub variants: Vec<Variant>,
    pub play: PlayOptions,
    pub opening: OpeningConfig,
    /// Keep only openings the thinker's own quick look rates within this distance of an even
    /// game (score 0.5 for the side to move); `None` keeps every balanced random opening.
    pub opening_balance: Option<f32>,
    /// Passed to the thinker factory: whether the search adds exploration noise at its root.
    pub exploration_noise: bool,
    /// A new shard is opened after this many games.
    pub games_per_shard: usize,
    pub seed: u64,
}

impl Default for SelfplayConfig {
    fn default() -> SelfplayConfig {
        SelfplayConfig {
            out_dir: PathBuf::from("selfplay-data"),
            worker: "w0".into(),
            games: 100,
            variants: vec![Variant::new(Rule::Freestyle, 15, 15)],
            play: PlayOptions {
                temperature_moves: 8,
                ..PlayOptions::default()
            },
            opening: OpeningConfig::default(),
            opening_balance: None,
            exploration_noise: true,
            games_per_shard: 1000,
            seed: 1,
        }
    }
}

/// Builds the worker's thinker from the config (noise flag included) and a seed.
pub type ThinkerFactory<'a> =
    dyn Fn(&SelfplayConfig, u64) -> Result<Box<dyn Thinker>, TrainError> + 'a;

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfplayReport {
    /// Games the worker's shards already held.
    pub games_before: usize,
    pub games_played: usize,
    /// Searched positions written (the training samples).
    pub positions: usize,
    /// Moves the games' searches played, full and cheap (the openings' stones not counted).
    pub moves_searched: usize,
    /// Seconds the games took (openings included).
    pub seconds: f64,
    /// Black wins, white wins, draws among the games played.
    pub results: [usize; 3],
    pub shards: Vec<PathBuf>,
}

/// FNV-1a, to turn a worker id into seed bits.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

/// The seed of game number `game` of `worker`.
fn game_seed(seed: u64, worker: &str, game: usize) -> u64 {
    let mut x =
        seed ^ fnv1a(worker).rotate_left(17) ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // SplitMix64 finaliser: nearby inputs give unrelated seeds.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Complete games already in the worker's shards.
pub fn games_on_disk(config: &SelfplayConfig) -> Result<usize, TrainError> {
    let mut games = 0;
    for (_, path) in worker_shards(&config.out_dir, &config.worker)? {
        games += read_shard(&path)?.games.len();
    }
    Ok(games)
}

fn validate(config: &SelfplayConfig) -> Result<(), TrainError> {
    check_worker_id(&config.worker)?;
    if config.variants.is_empty() {
        return Err(TrainError::Config("no rule/size to play".into()));
    }
    for v in &config.variants {
        v.validate()?;
    }
    if config.games_per_shard == 0 {
        return Err(TrainError::Config(
            "games per shard must be at least 1".into(),
        ));
    }
    config.play.validate()
}

/// Plays the worker's missing games (see the module docs). Stops early, keeping every finished
/// game, when `stop` is raised.
pub fn run_selfplay(
    config: &SelfplayConfig,
    factory: &ThinkerFactory<'_>,
    stop: &AtomicBool,
) -> Result<SelfplayReport, TrainError> {
    validate(config)?;
    let before = games_on_disk(config)?;
    let mut report = SelfplayReport {
        games_before: before,
        ..SelfplayReport::default()
    };
    let todo = config.games.saturating_sub(before);
    if todo == 0 {
        log::info!(
            "selfplay {}: {before} games already in {}; nothing to do",
            config.worker,
            config.out_dir.display()
        );
        return Ok(report);
    }
    if before > 0 {
        log::info!(
            "selfplay {}: resuming after {before} games, {todo} to play",
            config.worker
        );
    }
    let mut thinker = factory(config, game_seed(config.seed, &config.worker, usize::MAX))?;
    let mut cheap = match config.play.playout_cap {
        Some(_) => {
            let quiet = SelfplayConfig {
                exploration_noise: false,
                ..config.clone()
            };
            Some(factory(
                &quiet,
                game_seed(config.seed, &config.worker, usize::MAX - 1),
            )?)
        }
        None => None,
    };
    let mut writer: Option<ShardWriter> = None;
    let started = Instant::now();
    for number in before..config.games {
        let mut rng = StdRng::seed_from_u64(game_seed(config.seed, &config.worker, number));
        let (variant, opening) = even_opening(config, thinker.as_mut(), &mut rng, stop)?;
        let seats = match cheap.as_mut() {
            Some(cheap) => Seats::SelfPlayCapped {
                full: thinker.as_mut(),
                cheap: cheap.as_mut(),
            },
            None => Seats::SelfPlay(thinker.as_mut()),
        };
        let Some(game) = play_game(opening, seats, &config.play, &mut rng, stop)? else {
            log::info!("selfplay {}: stopped", config.worker);
            break;
        };
        if writer
            .as_ref()
            .is_none_or(|w| w.games() >= config.games_per_shard)
        {
            let w = ShardWriter::create_next(&config.out_dir, &config.worker)?;
            report.shards.push(w.path().to_path_buf());
            writer = Some(w);
        }
        writer.as_mut().expect("opened above").append(&game)?;
        report.games_played += 1;
        report.positions += game.searched_positions();
        report.moves_searched += game.positions.iter().filter(|p| p.value.is_some()).count();
        report.results[match game.result {
            GameResult::BlackWin => 0,
            GameResult::WhiteWin => 1,
            GameResult::Draw => 2,
        }] += 1;
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let left = todo - report.games_played;
        log::info!(
            "selfplay {}: game {}/{} ({} {}x{}, {} moves, {:?}); {:.1} positions/s; ETA {:.0} s",
            config.worker,
            number + 1,
            config.games,
            variant.rule,
            variant.width,
            variant.height,
            game.positions.len(),
            game.result,
            report.positions as f64 / secs,
            secs / report.games_played as f64 * left as f64,
        );
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Playouts of the quick look that judges an opening.
const BALANCE_NODES: u64 = 200;
/// Openings drawn at most before the last one drawn is played whatever its score.
const BALANCE_ATTEMPTS: usize = 40;

/// A random balanced opening; with [`SelfplayConfig::opening_balance`], one that the thinker
/// itself calls close to even, so that fewer games are decided by the colour an opening hands
/// out (from random openings black wins about 70 % of self-play games).
fn even_opening(
    config: &SelfplayConfig,
    thinker: &mut dyn Thinker,
    rng: &mut StdRng,
    stop: &AtomicBool,
) -> Result<(Variant, Board), TrainError> {
    let mut drawn = Variant::draw(&config.variants, &config.opening, rng)?;
    let Some(margin) = config.opening_balance else {
        return Ok(drawn);
    };
    for _ in 1..BALANCE_ATTEMPTS {
        let request = ThinkRequest {
            board: drawn.1.clone(),
            blocked: Vec::new(),
            limits: Limits {
                max_nodes: Some(BALANCE_NODES),
                ..Limits::infinite(config.play.threads.max(1))
            },
        };
        let score = thinker.think(&request, stop).info.eval.score();
        if (score - 0.5).abs() <= margin {
            break;
        }
        drawn = Variant::draw(&config.variants, &config.opening, rng)?;
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::one_ply::ClassicalPlayer;
    use crate::train::records::read_dir;

    /// Calls every position with white to move even and every other one won.
    struct WhiteToMoveIsEven;

    impl Thinker for WhiteToMoveIsEven {
        fn think(
            &mut self,
            request: &ThinkRequest,
            stop: &AtomicBool,
        ) -> crate::search::ThinkResult {
            let mut result = ClassicalPlayer.think(request, stop);
            let even = request.board.side_to_move() == crate::game::Color::White;
            let win = if even { 0.5 } else { 1.0 };
            result.info.eval = crate::search::Eval::Winrate {
                win,
                draw: 0.0,
                loss: 1.0 - win,
            };
            result
        }
        fn clear(&mut self) {}
        fn name(&self) -> &str {
            "white to move is even"
        }
    }

    #[test]
    fn a_balance_margin_keeps_the_openings_the_thinker_calls_even() {
        let mut config = SelfplayConfig::default();
        let stop = AtomicBool::new(false);
        let odd_openings = |config: &SelfplayConfig| {
            (0..40)
                .filter(|&seed| {
                    let mut rng = StdRng::seed_from_u64(seed);
                    let (_, board) =
                        even_opening(config, &mut WhiteToMoveIsEven, &mut rng, &stop).unwrap();
                    board.stone_count() % 2 == 1
                })
                .count()
        };
        // Without a margin about half the openings leave white to move; with one, all do.
        let unfiltered = odd_openings(&config);
        assert!((8..=32).contains(&unfiltered), "{unfiltered}");
        config.opening_balance = Some(0.1);
        assert_eq!(odd_openings(&config), 40);
    }

    #[test]
    fn game_seeds_differ_by_worker_and_number() {
        let a = game_seed(1, "w0", 0);
        assert_ne!(a, game_seed(1, "w0", 1));
        assert_ne!(a, game_seed(1, "w1", 0));
        assert_ne!(a, game_seed(2, "w0", 0));
        assert_eq!(a, game_seed(1, "w0", 0));
    }

    #[test]
    fn a_restart_plays_only_the_missing_games_into_a_new_shard() {
        let dir =
            std::env::temp_dir().join(format!("hoshi-selfplay-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = SelfplayConfig {
            out_dir: dir.clone(),
            worker: "t".into(),
            games: 2,
            variants: Variant::all(&[Rule::Standard, Rule::Renju], &[(9, 9), (7, 10)]),
            play: PlayOptions {
                movetime_ms: 20,
                ..PlayOptions::default()
            },
            ..SelfplayConfig::default()
        };
        let factory = |_: &SelfplayConfig, _: u64| -> Result<Box<dyn Thinker>, TrainError> {
            Ok(Box::new(ClassicalPlayer))
        };
        let stop = AtomicBool::new(false);
        let first = run_selfplay(&config, &factory, &stop).unwrap();
        assert_eq!((first.games_before, first.games_played), (0, 2));
        assert_eq!(first.shards, vec![dir.join("t-1.hsp")]);
        let again = run_selfplay(&config, &factory, &stop).unwrap();
        assert_eq!((again.games_before, again.games_played), (2, 0));
        assert!(again.shards.is_empty());
        config.games = 3;
        let more = run_selfplay(&config, &factory, &stop).unwrap();
        assert_eq!((more.games_before, more.games_played), (2, 1));
        assert_eq!(more.shards, vec![dir.join("t-2.hsp")]);
        let games = read_dir(&dir).unwrap();
        assert_eq!(games.len(), 3);
        // The third game is not a replay of the first two.
        assert!(games[2] != games[0] && games[2] != games[1]);
        assert_eq!(
            games.iter().map(|g| g.searched_positions()).sum::<usize>(),
            first.positions + more.positions
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_playout_cap_builds_a_second_thinker_without_noise() {
        use crate::train::game_play::PlayoutCap;
        use std::sync::Mutex;
        let dir = std::env::temp_dir().join(format!("hoshi-selfplay-pcr-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = SelfplayConfig {
            out_dir: dir.clone(),
            worker: "c".into(),
            games: 2,
            variants: vec![Variant::new(Rule::Freestyle, 9, 9)],
            play: PlayOptions {
                movetime_ms: 0,
                max_nodes: Some(50),
                playout_cap: Some(PlayoutCap {
                    full_share: 0.25,
                    cheap_nodes: 10,
                    cheap_movetime_ms: 0,
                }),
                ..PlayOptions::default()
            },
            ..SelfplayConfig::default()
        };
        let built = Mutex::new(Vec::new());
        let factory = |c: &SelfplayConfig, _: u64| -> Result<Box<dyn Thinker>, TrainError> {
            built.lock().unwrap().push(c.exploration_noise);
            Ok(Box::new(ClassicalPlayer))
        };
        let report = run_selfplay(&config, &factory, &AtomicBool::new(false)).unwrap();
        assert_eq!(*built.lock().unwrap(), vec![true, false]);
        assert_eq!(report.games_played, 2);
        assert!(report.positions < report.moves_searched, "{report:?}");
        let games = read_dir(&dir).unwrap();
        assert_eq!(
            games.iter().map(|g| g.searched_positions()).sum::<usize>(),
            report.positions
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn bad_configs_are_refused() {
        let factory = |_: &SelfplayConfig, _: u64| -> Result<Box<dyn Thinker>, TrainError> {
            Ok(Box::new(ClassicalPlayer))
        };
        let stop = AtomicBool::new(false);
        for config in [
            SelfplayConfig {
                worker: "a-b".into(),
                ..SelfplayConfig::default()
            },
            SelfplayConfig {
                variants: vec![Variant::new(Rule::Renju, 40, 15)],
                ..SelfplayConfig::default()
            },
            SelfplayConfig {
                variants: Vec::new(),
                ..SelfplayConfig::default()
            },
        ] {
            assert!(matches!(
                run_selfplay(&config, &factory, &stop),
                Err(TrainError::Config(_))
            ));
        }
    }
}
