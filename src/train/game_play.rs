//! One game between thinkers (or one thinker against itself) from a given opening, recorded
//! move by move with the search's move distribution as the policy target and the search's
//! value next to it.
//!
//! Playout cap randomization (KataGo; [`PlayoutCap`]): in self-play only a random share of the
//! moves gets the full search, by the thinker with exploration noise, and becomes a training
//! sample; the others get a cheap search by a thinker without noise and only advance the game.
use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;

use crate::game::{Board, Color, MoveOutcome, Point};
use crate::search::{Eval, Limits, ThinkRequest, ThinkResult, Thinker};

use super::error::TrainError;
use super::records::{GameRecord, GameResult, PositionRecord};

/// Who plays.
pub enum Seats<'a> {
    /// One thinker plays both colours (self-play).
    SelfPlay(&'a mut dyn Thinker),
    /// Self-play with playout cap randomization: `full` (with exploration noise) searches the
    /// recorded moves, `cheap` (without) the others.
    SelfPlayCapped {
        full: &'a mut dyn Thinker,
        cheap: &'a mut dyn Thinker,
    },
    Match {
        black: &'a mut dyn Thinker,
        white: &'a mut dyn Thinker,
    },
}

impl Seats<'_> {
    /// Who searches `color`'s move; `full`: whether it is a full (recorded) search.
    fn for_color(&mut self, color: Color, full: bool) -> &mut dyn Thinker {
        match self {
            Seats::SelfPlay(t) => &mut **t,
            Seats::SelfPlayCapped { full: t, .. } if full => &mut **t,
            Seats::SelfPlayCapped { cheap, .. } => &mut **cheap,
            Seats::Match { black, .. } if color == Color::Black => &mut **black,
            Seats::Match { white, .. } => &mut **white,
        }
    }

    fn clear(&mut self) {
        match self {
            Seats::SelfPlay(t) => t.clear(),
            Seats::SelfPlayCapped { full, cheap } => {
                full.clear();
                cheap.clear();
            }
            Seats::Match { black, white } => {
                black.clear();
                white.clear();
            }
        }
    }
}

/// How each move is searched and chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayOptions {
    /// Time per move in milliseconds (0: no time limit; then `max_nodes` must be set).
    pub movetime_ms: u64,
    /// Node (playout) limit per move.
    pub max_nodes: Option<u64>,
    /// Search threads per move.
    pub threads: usize,
    /// The first this many searched moves are sampled from the ranked moves; later ones are the
    /// search's best move.
    pub temperature_moves: usize,
    /// Sampling weight of a ranked move is `score^(1 / temperature)` (0 = always the best).
    pub temperature: f32,
    /// Sampling draws from the first this many ranked moves only (the MCTS ranks by visits and
    /// scores by expected result, so its unvisited tail must stay out of the draw).
    pub temperature_top: usize,
    /// What a searched position records as its policy target.
    pub policy_target: PolicyTarget,
    /// Declare a draw after this many stones (None: play until the board is full).
    pub max_moves: Option<usize>,
    /// Playout cap randomization (None: every move is a full, recorded search).
    pub playout_cap: Option<PlayoutCap>,
    /// Policy target pruning for [`PolicyTarget::Visits`]: root moves with at most this many
    /// visits leave the target (the most visited move always stays), so that the visits that
    /// root noise forced onto weak moves are not learnt as policy. 0: the visits as they are.
    pub prune_visits: u32,
    /// The first this many searched moves of a game (out of its opening) are searched to
    /// `deep_nodes` playouts instead of `max_nodes`: the moves right after the opening decide
    /// most games, so their targets get the deeper search (0: none).
    pub deep_moves: usize,
    /// Playout limit of those deep searches.
    pub deep_nodes: Option<u64>,
    /// White's full searches out of the deep moves take this many playouts instead of
    /// `max_nodes` (None: as black's). A stronger white in renju self-play teaches black's
    /// value the defences its own white misses at black's playouts.
    pub white_nodes: Option<u64>,
}

/// Playout cap randomization: each move is a full search with probability `full_share`
/// (recorded as a training sample), otherwise a cheap one of `cheap_nodes` playouts, not
/// recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutCap {
    pub full_share: f64,
    pub cheap_nodes: u64,
    /// A cheap search's time limit in milliseconds (0: the full searches' own). A deadline also
    /// bounds the engine's root solver: its VCT gets a tenth of the time and none under 5 ms
    /// (`search::solving`), where without one it gets 25 solver nodes a playout.
    pub cheap_movetime_ms: u64,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            movetime_ms: 100,
            max_nodes: None,
            threads: 1,
            temperature_moves: 0,
            temperature: 1.0,
            temperature_top: 5,
            policy_target: PolicyTarget::RankedShares,
            max_moves: None,
            playout_cap: None,
            prune_visits: 0,
            deep_moves: 0,
            deep_nodes: None,
            white_nodes: None,
        }
    }
}

impl PlayOptions {
    pub fn validate(&self) -> Result<(), TrainError> {
        if self.movetime_ms == 0 && self.max_nodes.is_none() {
            return Err(TrainError::Config(
                "each move needs a limit: a movetime above 0 or a node count".into(),
            ));
        }
        if self.temperature_top == 0 {
            return Err(TrainError::Config(
                "temperature sampling needs at least 1 move to draw from".into(),
            ));
        }
        if self.temperature.is_nan() || self.temperature < 0.0 {
            return Err(TrainError::Config(format!(
                "temperature {} (expected 0 or more)",
                self.temperature
            )));
        }
        if self.deep_moves > 0 && self.deep_nodes.is_none_or(|n| n == 0) {
            return Err(TrainError::Config(
                "deep opening searches need a playout count above 0".into(),
            ));
        }
        if self.white_nodes == Some(0) {
            return Err(TrainError::Config(
                "white's searches need a playout count above 0".into(),
            ));
        }
        if let Some(cap) = self.playout_cap {
            if !(cap.full_share > 0.0 && cap.full_share <= 1.0) {
                return Err(TrainError::Config(format!(
                    "full-search share {} (expected above 0, at most 1)",
                    cap.full_share
                )));
            }
            if cap.cheap_nodes == 0 {
                return Err(TrainError::Config(
                    "a cheap search needs at least 1 playout".into(),
                ));
            }
        }
        Ok(())
    }

    /// The limits of a full search, or of a cheap one, as the game's `searched`-th searched
    /// move (from 0), played by `mover`.
    fn limits(&self, full: bool, searched: usize, mover: Color) -> Limits {
        let movetime = match self.playout_cap {
            Some(cap) if !full && cap.cheap_movetime_ms > 0 => cap.cheap_movetime_ms,
            _ => self.movetime_ms,
        };
        let mut limits = if movetime > 0 {
            Limits::movetime(movetime, self.threads.max(1))
        } else {
            Limits::infinite(self.threads.max(1))
        };
        limits.max_nodes = match self.playout_cap {
            Some(cap) if !full => Some(cap.cheap_nodes),
            _ if searched < self.deep_moves => self.deep_nodes,
            _ if mover == Color::White => self.white_nodes.or(self.max_nodes),
            _ => self.max_nodes,
        };
        limits
    }

    /// Whether the next move gets a full search (draws from `rng` only under a playout cap).
    fn draw_full<R: Rng>(&self, rng: &mut R) -> bool {
        self.playout_cap
            .is_none_or(|cap| cap.full_share >= 1.0 || rng.gen::<f64>() < cap.full_share)
    }
}

/// Where a searched position's policy target comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyTarget {
    /// The ranked moves' scores, normalised: for thinkers whose ranked scores are shares of
    /// their attention (the policy player reports its policy there, the classical player its
    /// one move, a search that reports visit shares its visit distribution).
    RankedShares,
    /// The search's best move alone: for searches whose ranked scores are values rather than
    /// visit shares.
    BestMove,
    /// The root visit distribution of a tree search (AlphaZero's target); the best move alone
    /// when the answer has no visits (a solver's proven win, a search that ended at once) or
    /// the root is proven won (the visits then also count slower wins).
    Visits,
}

/// The policy target of a search (see [`PolicyTarget`]). Either kind falls back to the best
/// move alone when the ranked scores are all 0 or missing.
pub fn policy_target(result: &ThinkResult, kind: PolicyTarget) -> Vec<(Point, f32)> {
    let best_alone = || result.best.map(|p| vec![(p, 1.0)]).unwrap_or_default();
    let weights: Vec<(Point, f32)> = match kind {
        PolicyTarget::BestMove => return best_alone(),
        PolicyTarget::Visits if matches!(result.info.eval, crate::search::Eval::Win(_)) => {
            return best_alone()
        }
        PolicyTarget::Visits => result.visits.iter().map(|&(p, n)| (p, n as f32)).collect(),
        PolicyTarget::RankedShares => result.ranked.clone(),
    };
    // Either kind: the positive weights as shares of their sum.
    let total: f32 = weights.iter().map(|m| m.1.max(0.0)).sum();
    if total > 0.0 && total.is_finite() {
        weights
            .into_iter()
            .filter(|m| m.1 > 0.0)
            .map(|(p, w)| (p, w / total))
            .collect()
    } else {
        best_alone()
    }
}

/// The root visits without the moves of at most `at_most` visits, the most visited move kept
/// whatever its count (see [`PlayOptions::prune_visits`]).
pub fn pruned_visits(visits: &[(Point, u32)], at_most: u32) -> Vec<(Point, u32)> {
    let top = visits.iter().map(|v| v.1).max().unwrap_or(0);
    visits
        .iter()
        .copied()
        .filter(|&(_, n)| n > at_most || n == top)
        .collect()
}

/// The search's verdict as win/draw/loss probabilities for the side to move (a proven result
/// is certain).
pub fn search_wdl(eval: &Eval) -> [f32; 3] {
    match *eval {
        Eval::Winrate { win, draw, loss } => [win, draw, loss],
        Eval::Win(_) => [1.0, 0.0, 0.0],
        Eval::Draw => [0.0, 1.0, 0.0],
        Eval::Loss(_) => [0.0, 0.0, 1.0],
    }
}

/// The move to play: while sampling, one of the `top` most visited legal moves drawn with
/// weight `visits^(1/T)` (AlphaZero's temperature) or, for answers without visit counts, one
/// of the first `top` legal ranked moves with weight `score^(1/T)`; otherwise (or when
/// sampling has nothing to draw from) the search's best move.
pub fn choose_move<R: Rng>(
    board: &Board,
    result: &ThinkResult,
    temperature: Option<f32>,
    top: usize,
    rng: &mut R,
) -> Option<Point> {
    if let Some(t) = temperature.filter(|&t| t > 0.0) {
        let mut by_visits: Vec<(Point, f32)> =
            result.visits.iter().map(|&(p, n)| (p, n as f32)).collect();
        by_visits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let candidates = if by_visits.is_empty() {
            &result.ranked
        } else {
            &by_visits
        };
        let weights: Vec<(Point, f64)> = candidates
            .iter()
            .filter(|m| board.is_legal(m.0))
            .take(top)
            .filter(|m| m.1 > 0.0)
            .map(|&(p, s)| (p, (s as f64).powf(1.0 / t as f64)))
            .filter(|w| w.1.is_finite() && w.1 > 0.0)
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        if total > 0.0 {
            let mut x = rng.gen::<f64>() * total;
            for &(p, w) in &weights {
                if x < w {
                    return Some(p);
                }
                x -= w;
            }
            return weights.last().map(|w| w.0);
        }
    }
    result.best
}

/// Plays from `start` (its history is the opening, recorded without policy targets) to the end.
/// A full search's position records its policy target and the search's value; a cheap one's
/// (playout cap randomization) only its value. Returns `None` when `stop` was raised before the
/// game ended (the game is abandoned).
pub fn play_game<R: Rng>(
    start: Board,
    mut seats: Seats<'_>,
    options: &PlayOptions,
    rng: &mut R,
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, TrainError> {
    options.validate()?;
    seats.clear();
    let mut positions: Vec<PositionRecord> = start
        .history()
        .iter()
        .map(|&mv| PositionRecord::unsearched(mv))
        .collect();
    let mut board = start;
    let mut searched = 0;
    let result = loop {
        if board.is_full() || options.max_moves.is_some_and(|m| board.stone_count() >= m) {
            break GameResult::Draw;
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let me = board.side_to_move();
        let full = options.draw_full(rng);
        let thinker = seats.for_color(me, full);
        let request = ThinkRequest {
            board: board.clone(),
            blocked: Vec::new(),
            limits: options.limits(full, searched, me),
        };
        let answer = thinker.think(&request, stop);
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let temperature = (searched < options.temperature_moves).then_some(options.temperature);
        let Some(mv) = choose_move(&board, &answer, temperature, options.temperature_top, rng)
        else {
            // No legal move left (renju: every empty point forbidden for black).
            break GameResult::Draw;
        };
        if (mv.x as usize) >= board.width() || (mv.y as usize) >= board.height() {
            return Err(TrainError::BadMove {
                thinker: thinker.name().to_string(),
                what: format!("{mv}, off the board"),
            });
        }
        if !board.is_empty(mv) {
            return Err(TrainError::BadMove {
                thinker: thinker.name().to_string(),
                what: format!("{mv}, an occupied point"),
            });
        }
        let policy = match full {
            false => Vec::new(),
            true if options.prune_visits > 0 => {
                let mut pruned = answer.clone();
                pruned.visits = pruned_visits(&answer.visits, options.prune_visits);
                policy_target(&pruned, options.policy_target)
            }
            true => policy_target(&answer, options.policy_target),
        };
        positions.push(PositionRecord {
            mv,
            policy,
            value: Some(search_wdl(&answer.info.eval)),
        });
        searched += 1;
        match board.play(mv)? {
            MoveOutcome::Ongoing => {}
            MoveOutcome::Win(color) => break GameResult::winner(color),
            MoveOutcome::ForbiddenLoss => break GameResult::WhiteWin,
            MoveOutcome::Draw => break GameResult::Draw,
        }
    };
    Ok(Some(GameRecord {
        rule: board.rule(),
        width: board.width(),
        height: board.height(),
        result,
        positions,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use crate::search::one_ply::ClassicalPlayer;
    use crate::search::{Eval, SearchInfo};
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use std::time::Duration;

    fn result_with(ranked: Vec<(Point, f32)>) -> ThinkResult {
        ThinkResult {
            best: ranked.first().map(|m| m.0),
            info: SearchInfo {
                depth_min: 1,
                depth_max: 1,
                eval: Eval::Draw,
                nodes: 1,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            },
            ranked,
            visits: Vec::new(),
        }
    }

    #[test]
    fn policy_target_normalises_the_ranked_scores() {
        let r = result_with(vec![(Point::new(1, 1), 0.6), (Point::new(2, 2), 0.2)]);
        let t = policy_target(&r, PolicyTarget::RankedShares);
        assert_eq!(t.len(), 2);
        assert!((t[0].1 - 0.75).abs() < 1e-6 && (t[1].1 - 0.25).abs() < 1e-6);
        assert_eq!(
            policy_target(&r, PolicyTarget::BestMove),
            vec![(Point::new(1, 1), 1.0)]
        );
        let r = result_with(vec![(Point::new(3, 3), 0.0)]);
        assert_eq!(
            policy_target(&r, PolicyTarget::RankedShares),
            vec![(Point::new(3, 3), 1.0)]
        );
        // Visits: their shares; no visits or a proven win: the best move alone.
        assert_eq!(
            policy_target(&r, PolicyTarget::Visits),
            vec![(Point::new(3, 3), 1.0)]
        );
        let mut r = result_with(vec![(Point::new(1, 1), 0.9)]);
        r.visits = vec![(Point::new(2, 2), 10), (Point::new(1, 1), 30)];
        assert_eq!(
            policy_target(&r, PolicyTarget::Visits),
            vec![(Point::new(2, 2), 0.25), (Point::new(1, 1), 0.75)]
        );
        r.info.eval = Eval::Win(3);
        assert_eq!(
            policy_target(&r, PolicyTarget::Visits),
            vec![(Point::new(1, 1), 1.0)]
        );
    }

    #[test]
    fn sampling_follows_the_weights_and_skips_illegal_moves() {
        let board = Board::from_moves(9, 9, Rule::Freestyle, &[Point::new(0, 0)]).unwrap();
        let r = result_with(vec![
            (Point::new(1, 1), 0.75),
            (Point::new(2, 2), 0.25),
            (Point::new(0, 0), 0.9), // occupied: never sampled
        ]);
        let mut rng = StdRng::seed_from_u64(4);
        let mut counts = [0usize; 2];
        for _ in 0..4000 {
            match choose_move(&board, &r, Some(1.0), 5, &mut rng) {
                Some(p) if p == Point::new(1, 1) => counts[0] += 1,
                Some(p) if p == Point::new(2, 2) => counts[1] += 1,
                other => panic!("sampled {other:?}"),
            }
        }
        let share = counts[0] as f64 / 4000.0;
        assert!((share - 0.75).abs() < 0.03, "share {share}");
        // A low temperature sharpens towards the best; none means the best.
        let mut sharp = 0;
        for _ in 0..1000 {
            if choose_move(&board, &r, Some(0.25), 5, &mut rng) == Some(Point::new(1, 1)) {
                sharp += 1;
            }
        }
        assert!(sharp > 970, "{sharp}"); // 0.75^4 / (0.75^4 + 0.25^4) = 0.988
        assert_eq!(choose_move(&board, &r, None, 5, &mut rng), r.best);
        // Visit counts, when present, are what is drawn from.
        let mut r = result_with(vec![(Point::new(1, 1), 0.9)]);
        r.visits = vec![
            (Point::new(2, 2), 90),
            (Point::new(3, 3), 10),
            (Point::new(0, 0), 500),
        ];
        let mut twos = 0;
        for _ in 0..2000 {
            match choose_move(&board, &r, Some(1.0), 5, &mut rng) {
                Some(p) if p == Point::new(2, 2) => twos += 1,
                Some(p) => assert_eq!(p, Point::new(3, 3)),
                None => panic!("nothing drawn"),
            }
        }
        assert!((twos as f64 / 2000.0 - 0.9).abs() < 0.03, "{twos}");
        // Only the first `top` legal ranked moves are drawn (the occupied one does not count).
        let r = result_with(vec![
            (Point::new(0, 0), 0.9),
            (Point::new(1, 1), 0.2),
            (Point::new(2, 2), 0.2),
            (Point::new(3, 3), 0.9),
        ]);
        for _ in 0..200 {
            let p = choose_move(&board, &r, Some(1.0), 2, &mut rng).unwrap();
            assert!(p == Point::new(1, 1) || p == Point::new(2, 2), "{p}");
        }
    }

    #[test]
    fn a_classical_self_play_game_ends_with_a_correct_result() {
        let start =
            Board::from_moves(9, 9, Rule::Standard, &[Point::new(4, 4), Point::new(4, 5)]).unwrap();
        let mut player = ClassicalPlayer;
        let options = PlayOptions {
            movetime_ms: 50,
            ..PlayOptions::default()
        };
        let stop = AtomicBool::new(false);
        let mut rng = StdRng::seed_from_u64(1);
        let record = play_game(
            start,
            Seats::SelfPlay(&mut player),
            &options,
            &mut rng,
            &stop,
        )
        .unwrap()
        .unwrap();
        assert!(record.positions[..2].iter().all(|p| p.policy.is_empty()));
        assert!(record.positions[2..].iter().all(|p| !p.policy.is_empty()));
        // Replaying the moves reproduces the result.
        let moves: Vec<Point> = record.moves().collect();
        let last = *moves.last().unwrap();
        let before = Board::from_moves(9, 9, Rule::Standard, &moves[..moves.len() - 1]).unwrap();
        let outcome = before.outcome_of(last, before.side_to_move());
        match record.result {
            GameResult::Draw => assert!(matches!(outcome, MoveOutcome::Draw)),
            r => assert_eq!(
                outcome,
                MoveOutcome::Win(if r == GameResult::BlackWin {
                    Color::Black
                } else {
                    Color::White
                })
            ),
        }

        // A raised stop abandons the game.
        stop.store(true, Ordering::Relaxed);
        let start = Board::new(9, 9, Rule::Standard).unwrap();
        let abandoned = play_game(
            start,
            Seats::SelfPlay(&mut player),
            &options,
            &mut rng,
            &stop,
        )
        .unwrap();
        assert!(abandoned.is_none());
    }

    /// The classical player, counting its searches and the node limits they were given.
    struct Counting {
        limits: Vec<Option<u64>>,
    }

    impl Thinker for Counting {
        fn think(&mut self, request: &ThinkRequest, stop: &AtomicBool) -> ThinkResult {
            self.limits.push(request.limits.max_nodes);
            let mut result = ClassicalPlayer.think(request, stop);
            result.info.eval = Eval::Winrate {
                win: 0.6,
                draw: 0.1,
                loss: 0.3,
            };
            result
        }
        fn clear(&mut self) {}
        fn name(&self) -> &str {
            "counting"
        }
    }

    #[test]
    fn a_playout_cap_records_only_the_full_searches() {
        let options = PlayOptions {
            movetime_ms: 0,
            max_nodes: Some(800),
            playout_cap: Some(PlayoutCap {
                full_share: 0.25,
                cheap_nodes: 100,
                cheap_movetime_ms: 0,
            }),
            ..PlayOptions::default()
        };
        let mut full = Counting { limits: Vec::new() };
        let mut cheap = Counting { limits: Vec::new() };
        let stop = AtomicBool::new(false);
        let mut rng = StdRng::seed_from_u64(7);
        let (mut samples, mut searched) = (0, 0);
        for _ in 0..6 {
            let start = Board::from_moves(15, 15, Rule::Freestyle, &[Point::new(7, 7)]).unwrap();
            let record = play_game(
                start,
                Seats::SelfPlayCapped {
                    full: &mut full,
                    cheap: &mut cheap,
                },
                &options,
                &mut rng,
                &stop,
            )
            .unwrap()
            .unwrap();
            assert_eq!(
                record.positions[0],
                PositionRecord::unsearched(Point::new(7, 7))
            );
            samples += record.searched_positions();
            searched += record.positions.len() - 1;
            // Every searched move carries the search's value; only full ones a policy.
            assert!(record.positions[1..].iter().all(|p| p.value.is_some()));
        }
        assert_eq!(samples, full.limits.len());
        assert_eq!(searched, full.limits.len() + cheap.limits.len());
        assert!(full.limits.iter().all(|&l| l == Some(800)));
        assert!(cheap.limits.iter().all(|&l| l == Some(100)));
        // A cheap search's own deadline; the full ones keep theirs (none here).
        let timed = PlayOptions {
            playout_cap: Some(PlayoutCap {
                cheap_movetime_ms: 40,
                ..options.playout_cap.unwrap()
            }),
            ..options.clone()
        };
        assert!(
            timed.limits(false, 0, Color::Black).hard.is_some()
                && timed.limits(true, 0, Color::Black).hard.is_none()
        );
        assert!(options.limits(false, 0, Color::Black).hard.is_none());
        let share = samples as f64 / searched as f64;
        assert!((0.1..0.45).contains(&share), "{samples} of {searched}");

        // Without a cap every move is a full search, and no random number is drawn for it.
        let plain = PlayOptions {
            playout_cap: None,
            ..options.clone()
        };
        let mut a = StdRng::seed_from_u64(3);
        let b = a.clone();
        assert!(plain.draw_full(&mut a));
        assert_eq!(a.gen::<u64>(), b.clone().gen::<u64>());
        assert_eq!(plain.limits(true, 0, Color::Black).max_nodes, Some(800));
        // A cap of share 1 searches everything in full.
        let all = PlayOptions {
            playout_cap: Some(PlayoutCap {
                full_share: 1.0,
                cheap_nodes: 100,
                cheap_movetime_ms: 0,
            }),
            ..options.clone()
        };
        assert!((0..100).all(|_| all.draw_full(&mut a)));
        for bad in [0.0, 1.5, f64::NAN] {
            let o = PlayOptions {
                playout_cap: Some(PlayoutCap {
                    full_share: bad,
                    cheap_nodes: 100,
                    cheap_movetime_ms: 0,
                }),
                ..options.clone()
            };
            assert!(o.validate().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_first_moves_out_of_the_opening_get_the_deep_searches() {
        let options = PlayOptions {
            movetime_ms: 0,
            max_nodes: Some(800),
            deep_moves: 3,
            deep_nodes: Some(8000),
            ..PlayOptions::default()
        };
        assert!(options.validate().is_ok());
        let nodes: Vec<Option<u64>> = (0..5)
            .map(|i| options.limits(true, i, Color::Black).max_nodes)
            .collect();
        assert_eq!(
            nodes,
            [Some(8000), Some(8000), Some(8000), Some(800), Some(800)]
        );
        // A cheap search stays cheap, deep or not.
        let capped = PlayOptions {
            playout_cap: Some(PlayoutCap {
                full_share: 0.5,
                cheap_nodes: 100,
                cheap_movetime_ms: 0,
            }),
            ..options.clone()
        };
        assert_eq!(capped.limits(false, 0, Color::Black).max_nodes, Some(100));
        assert_eq!(capped.limits(true, 0, Color::Black).max_nodes, Some(8000));
        let without = PlayOptions {
            deep_nodes: None,
            ..options
        };
        assert!(without.validate().is_err());
    }

    #[test]
    fn a_stronger_white_searches_more_out_of_the_deep_moves() {
        let options = PlayOptions {
            movetime_ms: 0,
            max_nodes: Some(800),
            deep_moves: 2,
            deep_nodes: Some(8000),
            white_nodes: Some(3200),
            playout_cap: Some(PlayoutCap {
                full_share: 0.5,
                cheap_nodes: 100,
                cheap_movetime_ms: 0,
            }),
            ..PlayOptions::default()
        };
        assert!(options.validate().is_ok());
        let nodes = |full, searched, mover| options.limits(full, searched, mover).max_nodes;
        assert_eq!(nodes(true, 5, Color::White), Some(3200));
        assert_eq!(nodes(true, 5, Color::Black), Some(800));
        assert_eq!(nodes(true, 1, Color::White), Some(8000));
        assert_eq!(nodes(false, 5, Color::White), Some(100));
        let none = PlayOptions {
            white_nodes: Some(0),
            ..options
        };
        assert!(none.validate().is_err());
    }

    #[test]
    fn pruning_drops_the_rarely_visited_moves_but_never_the_best() {
        let v = vec![
            (Point::new(1, 1), 1),
            (Point::new(2, 2), 700),
            (Point::new(3, 3), 3),
            (Point::new(4, 4), 96),
        ];
        assert_eq!(
            pruned_visits(&v, 3),
            vec![(Point::new(2, 2), 700), (Point::new(4, 4), 96)]
        );
        assert_eq!(pruned_visits(&v, 0), v);
        assert_eq!(pruned_visits(&v, 1000), vec![(Point::new(2, 2), 700)]);
        assert_eq!(search_wdl(&Eval::Loss(4)), [0.0, 0.0, 1.0]);
    }

    #[test]
    fn move_limit_declares_a_draw_and_options_need_a_limit() {
        let mut a = ClassicalPlayer;
        let mut b = ClassicalPlayer;
        let options = PlayOptions {
            movetime_ms: 20,
            max_moves: Some(6),
            ..PlayOptions::default()
        };
        let stop = AtomicBool::new(false);
        let record = play_game(
            Board::new(15, 15, Rule::Renju).unwrap(),
            Seats::Match {
                black: &mut a,
                white: &mut b,
            },
            &options,
            &mut StdRng::seed_from_u64(2),
            &stop,
        )
        .unwrap()
        .unwrap();
        assert_eq!(record.positions.len(), 6);
        assert_eq!(record.result, GameResult::Draw);
        let no_limit = PlayOptions {
            movetime_ms: 0,
            ..PlayOptions::default()
        };
        assert!(no_limit.validate().is_err());
    }
}
