//! Training samples from game records, and batches of them as tensors.
//!
//! A sample is one searched position of a game (one with a policy target). A batch draws
//! samples uniformly, shows each under a random board symmetry (8 on a square board, 4 on a
//! rectangle), and pads every board to the largest width and height in the batch: the padding
//! is 0 in every plane, the on-board mask plane included, so the net ignores it (see
//! [`crate::nn::features`]), and the policy target is 0 there.
//!
//! The value target is a W/D/L distribution for the side to move: the game's result, or with a
//! value mix `w` (see [`TrainingSet::with_value_mix`]) `(1 - w) x result + w x the root search's
//! W/D/L` for positions whose record holds a search value (shards of version 1 hold none: their
//! target stays the result). With a value horizon `h` (see [`TrainingSet::with_value_horizon`])
//! the search's part is the mean of the search values of the position and the `h` after it, each
//! seen from the side to move at the position: a short-term average, less noisy than one search
//! and nearer than the game's end.
//!
//! The policy target is the search's visit distribution; with a policy floor `f` (see
//! [`TrainingSet::with_policy_floor`]) the entries below `f` of the visits are left out (the
//! most visited move stays): the visits that root noise alone sent to weak moves are not learnt.
use rand::Rng;
use tch::Tensor;

use crate::game::{Board, Point};
use crate::nn::features::encoded_len;
use crate::nn::pattern::{self, inputs::encode_board};
use crate::nn::ModelKind;
use crate::nn::{encode_into, Symmetry, INPUT_PLANES};

use super::records::GameRecord;

/// One batch, on the CPU.
#[derive(Debug)]
pub struct Batch {
    /// `[B, INPUT_PLANES, H, W]` f32 for the residual net; `[B, pattern::INPUT_PLANES, H, W]`
    /// int64 for the pattern net.
    pub inputs: Tensor,
    /// `[B, H * W]` f32; each row sums to 1.
    pub policy: Tensor,
    /// `[B, 3]` f32: the value target, win/draw/loss probabilities for the side to move (each
    /// row sums to 1; without a value mix, the game's result as a one-hot row).
    pub wdl: Tensor,
    /// The padded width and height.
    pub width: usize,
    pub height: usize,
}

/// The searched positions of a set of games.
pub struct TrainingSet {
    games: Vec<GameRecord>,
    /// `(game, ply)` of every sample.
    samples: Vec<(u32, u32)>,
    /// Share of the search value in the value target (0: the result alone).
    value_mix: f32,
    /// Later positions whose search values are averaged into the search's part (0: its own).
    value_horizon: usize,
    /// Policy entries with a smaller share of the visits are left out (0: none).
    policy_floor: f32,
}

impl TrainingSet {
    /// Indexes the games' samples. Games whose moves cannot be replayed (off the board, on a
    /// stone) are dropped with a warning, as are policy entries on points that are not empty.
    pub fn new(games: Vec<GameRecord>) -> TrainingSet {
        TrainingSet::weighted(vec![(games, 1)])
    }

    /// Like [`TrainingSet::new`] over several sets of games, each sample of a set counted
    /// `weight` times (so drawn `weight` times as often as one of weight 1).
    pub fn weighted(parts: Vec<(Vec<GameRecord>, u32)>) -> TrainingSet {
        let mut kept = Vec::with_capacity(parts.iter().map(|(g, _)| g.len()).sum());
        let mut samples = Vec::new();
        let mut dropped = 0;
        for (games, weight) in parts {
            for mut game in games {
                if !clean_game(&mut game) {
                    dropped += 1;
                    continue;
                }
                let g = kept.len() as u32;
                for (ply, pos) in game.positions.iter().enumerate() {
                    if !pos.policy.is_empty() {
                        for _ in 0..weight {
                            samples.push((g, ply as u32));
                        }
                    }
                }
                kept.push(game);
            }
        }
        if dropped > 0 {
            log::warn!("dropped {dropped} games whose moves do not replay");
        }
        TrainingSet {
            games: kept,
            samples,
            value_mix: 0.0,
            value_horizon: 0,
            policy_floor: 0.0,
        }
    }

    /// Value targets `(1 - mix) x result + mix x search value` where a position has a search
    /// value (clamped to 0..=1; 0, the default, learns the result alone).
    pub fn with_value_mix(mut self, mix: f64) -> TrainingSet {
        self.value_mix = mix.clamp(0.0, 1.0) as f32;
        self
    }

    /// The search's part of the value target averaged over the position and the `horizon`
    /// positions after it that recorded a search value (0, the default: its own value alone).
    pub fn with_value_horizon(mut self, horizon: usize) -> TrainingSet {
        self.value_horizon = horizon;
        self
    }

    /// Policy targets without the moves that got less than `floor` of the visits (the most
    /// visited stays; 0, the default, keeps them all).
    pub fn with_policy_floor(mut self, floor: f64) -> TrainingSet {
        self.policy_floor = floor.clamp(0.0, 1.0) as f32;
        self
    }

    /// Samples whose record holds a search value.
    pub fn samples_with_value(&self) -> usize {
        self.samples
            .iter()
            .filter(|&&(g, ply)| {
                self.games[g as usize].positions[ply as usize]
                    .value
                    .is_some()
            })
            .count()
    }

    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Number of samples (searched positions, each counted its set's weight times).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// A batch for a net of `kind`: [`TrainingSet::batch`] or [`TrainingSet::pattern_batch`].
    pub fn batch_for<R: Rng>(
        &self,
        kind: ModelKind,
        size: usize,
        augment: bool,
        rng: &mut R,
    ) -> Batch {
        match kind {
            ModelKind::Resnet => self.batch(size, augment, rng),
            ModelKind::Pattern => self.pattern_batch(size, rng),
        }
    }

    /// `size` samples for the pattern net, drawn uniformly (with replacement). No symmetries:
    /// the pattern net gives the same answer under all of them. Panics on an empty set.
    pub fn pattern_batch<R: Rng>(&self, size: usize, rng: &mut R) -> Batch {
        assert!(!self.is_empty(), "no samples to draw from");
        let picks: Vec<(u32, u32)> = (0..size)
            .map(|_| self.samples[rng.gen_range(0..self.samples.len())])
            .collect();
        self.pattern_batch_of(&picks)
    }

    /// The samples `range` in their order (no symmetries), e.g. to go once through held-out
    /// games. Panics on a range past the end or an empty one.
    pub fn batch_in_order(&self, kind: ModelKind, range: std::ops::Range<usize>) -> Batch {
        let picks = &self.samples[range];
        assert!(!picks.is_empty(), "an empty range of samples");
        match kind {
            ModelKind::Resnet => {
                self.batch_of(picks, false, &mut rand::rngs::mock::StepRng::new(0, 1))
            }
            ModelKind::Pattern => self.pattern_batch_of(picks),
        }
    }

    fn pattern_batch_of(&self, picks: &[(u32, u32)]) -> Batch {
        let size = picks.len();
        let (width, height) = self.padded_size(picks);
        let area = width * height;
        let plane_len = pattern::INPUT_PLANES * area;
        let mut inputs = vec![0i64; size * plane_len];
        let mut policy = vec![0.0f32; size * area];
        let mut wdl = Vec::with_capacity(size * 3);
        for (i, &(g, ply)) in picks.iter().enumerate() {
            let game = &self.games[g as usize];
            let board = position(game, ply as usize);
            encode_board(
                &board,
                width,
                height,
                &mut inputs[i * plane_len..(i + 1) * plane_len],
            );
            let row = &mut policy[i * area..(i + 1) * area];
            wdl.extend(self.targets(game, ply, &board, Symmetry::IDENTITY, width, row));
        }
        let (b, w, h) = (size as i64, width as i64, height as i64);
        Batch {
            inputs: Tensor::from_slice(&inputs).view([b, pattern::INPUT_PLANES as i64, h, w]),
            policy: Tensor::from_slice(&policy).view([b, h * w]),
            wdl: Tensor::from_slice(&wdl).view([b, 3]),
            width,
            height,
        }
    }

    /// The largest width and height among the picked samples' boards.
    fn padded_size(&self, picks: &[(u32, u32)]) -> (usize, usize) {
        let games = picks.iter().map(|&(g, _)| &self.games[g as usize]);
        let width = games.clone().map(|g| g.width).max().unwrap_or(1);
        let height = games.map(|g| g.height).max().unwrap_or(1);
        (width, height)
    }

    /// `size` samples drawn uniformly (with replacement), each under a random symmetry when
    /// `augment` is set. Panics on an empty set.
    pub fn batch<R: Rng>(&self, size: usize, augment: bool, rng: &mut R) -> Batch {
        assert!(!self.is_empty(), "no samples to draw from");
        let picks: Vec<(u32, u32)> = (0..size)
            .map(|_| self.samples[rng.gen_range(0..self.samples.len())])
            .collect();
        self.batch_of(&picks, augment, rng)
    }

    fn batch_of<R: Rng>(&self, picks: &[(u32, u32)], augment: bool, rng: &mut R) -> Batch {
        let size = picks.len();
        let (width, height) = self.padded_size(picks);
        let plane_len = encoded_len(width, height);
        let area = width * height;
        let mut inputs = vec![0.0f32; size * plane_len];
        let mut policy = vec![0.0f32; size * area];
        let mut wdl = Vec::with_capacity(size * 3);
        for (i, &(g, ply)) in picks.iter().enumerate() {
            let game = &self.games[g as usize];
            let (w, h) = (game.width, game.height);
            let sym = if augment {
                Symmetry::pick(w, h, rng.gen())
            } else {
                Symmetry::IDENTITY
            };
            let board = position(game, ply as usize);
            encode_into(
                &board,
                sym,
                width,
                height,
                &mut inputs[i * plane_len..(i + 1) * plane_len],
            );
            let row = &mut policy[i * area..(i + 1) * area];
            wdl.extend(self.targets(game, ply, &board, sym, width, row));
        }
        let (b, w, h) = (size as i64, width as i64, height as i64);
        Batch {
            inputs: Tensor::from_slice(&inputs).view([b, INPUT_PLANES as i64, h, w]),
            policy: Tensor::from_slice(&policy).view([b, h * w]),
            wdl: Tensor::from_slice(&wdl).view([b, 3]),
            width,
            height,
        }
    }
}

impl TrainingSet {
    /// Writes the policy target of `game`'s position `ply` (shown under `sym`) into `row`, a
    /// padded board `width` wide, and returns the value target (see the module docs).
    fn targets(
        &self,
        game: &GameRecord,
        ply: u32,
        board: &Board,
        sym: Symmetry,
        width: usize,
        row: &mut [f32],
    ) -> [f32; 3] {
        let pos = &game.positions[ply as usize];
        let top = pos.policy.iter().fold(0.0f32, |m, &(_, f)| m.max(f));
        let floor = self.policy_floor.min(top);
        for &(p, f) in pos.policy.iter().filter(|&&(_, f)| f >= floor) {
            let (x, y) = sym.apply(p.x as usize, p.y as usize, game.width, game.height);
            row[y * width + x] += f;
        }
        let total: f32 = row.iter().sum();
        row.iter_mut().for_each(|v| *v /= total);
        let search = if self.value_horizon == 0 {
            pos.value
        } else {
            short_term_value(game, ply as usize, self.value_horizon)
        };
        value_target(
            game.result.wdl_index(board.side_to_move()),
            search,
            self.value_mix,
        )
    }
}

/// The mean W/D/L of the search values recorded at `game`'s positions `ply..=ply + horizon`,
/// each seen from the side to move at `ply` (`None` when none of them recorded one).
pub fn short_term_value(game: &GameRecord, ply: usize, horizon: usize) -> Option<[f32; 3]> {
    let end = (ply + horizon + 1).min(game.positions.len());
    let mut sum = [0.0f32; 3];
    let mut count = 0;
    for (i, pos) in game.positions[ply..end].iter().enumerate() {
        let Some(v) = pos.value else { continue };
        let total: f32 = v.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            continue;
        }
        // Every other position belongs to the opponent: its win is our loss.
        let (win, loss) = if i % 2 == 0 {
            (v[0], v[2])
        } else {
            (v[2], v[0])
        };
        sum[0] += win / total;
        sum[1] += v[1] / total;
        sum[2] += loss / total;
        count += 1;
    }
    (count > 0).then(|| sum.map(|s| s / count as f32))
}

/// `(1 - mix) x` the one-hot result (`result`: 0 win, 1 draw, 2 loss) `+ mix x search`, or the
/// result alone without a search value.
pub fn value_target(result: usize, search: Option<[f32; 3]>, mix: f32) -> [f32; 3] {
    let mut target = [0.0f32; 3];
    target[result] = 1.0;
    if let Some(search) = search.filter(|_| mix > 0.0) {
        let total: f32 = search.iter().sum();
        if total > 0.0 && total.is_finite() {
            for (t, v) in target.iter_mut().zip(search) {
                *t = (1.0 - mix) * *t + mix * v / total;
            }
        }
    }
    target
}

/// The board before move `ply` of `game` (the game was checked by [`clean_game`]).
fn position(game: &GameRecord, ply: usize) -> Board {
    let mut board =
        Board::new(game.width, game.height, game.rule).expect("sizes checked on reading");
    for pos in &game.positions[..ply] {
        board.play_unchecked(board.index(pos.mv));
    }
    board
}

/// Checks that every move lands on an empty point and removes policy entries that do not; a
/// position left without entries stops being a sample. False when the game cannot be replayed.
fn clean_game(game: &mut GameRecord) -> bool {
    let Ok(mut board) = Board::new(game.width, game.height, game.rule) else {
        return false;
    };
    let on_board = |p: Point| (p.x as usize) < game.width && (p.y as usize) < game.height;
    for pos in &mut game.positions {
        if !on_board(pos.mv) || !board.is_empty(pos.mv) {
            return false;
        }
        pos.policy
            .retain(|&(p, f)| on_board(p) && board.is_empty(p) && f > 0.0 && f.is_finite());
        board.play_unchecked(board.index(pos.mv));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;
    use crate::nn::features::plane;
    use crate::train::records::{GameResult, PositionRecord};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn game(w: usize, h: usize, result: GameResult) -> GameRecord {
        let mv = |x, y| Point::new(x, y);
        let searched = |m: Point, target: Point| PositionRecord {
            mv: m,
            policy: vec![(target, 1.0)],
            value: Some([0.2, 0.2, 0.6]),
        };
        GameRecord {
            rule: Rule::Standard,
            width: w,
            height: h,
            result,
            positions: vec![
                PositionRecord::unsearched(mv(2, 2)),
                // White to move; the search liked (1, 0).
                searched(mv(3, 3), mv(1, 0)),
                // Black to move; liked (4, 1).
                searched(mv(4, 1), mv(4, 1)),
            ],
        }
    }

    #[test]
    fn samples_are_the_searched_positions() {
        let set = TrainingSet::new(vec![game(7, 7, GameResult::BlackWin); 3]);
        assert_eq!((set.games(), set.len()), (3, 6));
        let mut bad = game(7, 7, GameResult::Draw);
        bad.positions[2].mv = Point::new(2, 2); // on a stone
        let mut stale = game(7, 7, GameResult::Draw);
        stale.positions[2].policy = vec![(Point::new(3, 3), 1.0)]; // target on a stone
        let set = TrainingSet::new(vec![bad, stale]);
        assert_eq!((set.games(), set.len()), (1, 1));
    }

    #[test]
    fn a_weighted_set_counts_its_samples_weight_times() {
        let set = TrainingSet::weighted(vec![
            (vec![game(7, 7, GameResult::BlackWin)], 1),
            (vec![game(9, 9, GameResult::WhiteWin); 2], 3),
        ]);
        assert_eq!((set.games(), set.len()), (3, 2 + 2 * 2 * 3));
        // Drawn in proportion: the 9x9 games give 12 of the 14 samples.
        let mut rng = StdRng::seed_from_u64(5);
        let nine = (0..400)
            .filter(|_| set.batch(1, false, &mut rng).width == 9)
            .count();
        assert!((300..390).contains(&nine), "{nine} of 400");
    }

    #[test]
    fn targets_follow_the_side_to_move_and_the_symmetry() {
        let set = TrainingSet::new(vec![game(7, 7, GameResult::BlackWin)]);
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..20 {
            let b = set.batch(4, true, &mut rng);
            assert_eq!(b.inputs.size(), vec![4, INPUT_PLANES as i64, 7, 7]);
            let inputs = Vec::<f32>::try_from(b.inputs.view([-1])).unwrap();
            let policy = Vec::<f32>::try_from(b.policy.view([-1])).unwrap();
            let wdl = Vec::<f32>::try_from(b.wdl.view([-1])).unwrap();
            for i in 0..4 {
                let planes = &inputs[i * 16 * 49..(i + 1) * 16 * 49];
                let black_to_move = planes[plane::BLACK_TO_MOVE * 49] == 1.0;
                // Black won: a win for black to move, a loss for white to move.
                let hot = if black_to_move { 0 } else { 2 };
                for k in 0..3 {
                    assert_eq!(wdl[i * 3 + k], if k == hot { 1.0 } else { 0.0 });
                }
                let row = &policy[i * 49..(i + 1) * 49];
                assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
                let target = row.iter().position(|&v| v == 1.0).unwrap();
                // The target sits on an empty point of the transformed board.
                assert_eq!(planes[plane::OWN_STONES * 49 + target], 0.0);
                assert_eq!(planes[plane::OPPONENT_STONES * 49 + target], 0.0);
                assert_eq!(planes[plane::ON_BOARD * 49 + target], 1.0);
                let stones: f32 = planes[..2 * 49].iter().sum();
                assert_eq!(stones, if black_to_move { 2.0 } else { 1.0 });
            }
        }
        // Without augmentation the target is where the record says.
        let b = set.batch(8, false, &mut rng);
        let policy = Vec::<f32>::try_from(b.policy.view([-1])).unwrap();
        for i in 0..8 {
            let target = policy[i * 49..(i + 1) * 49]
                .iter()
                .position(|&v| v == 1.0)
                .unwrap();
            assert!(target == 7 + 4 || target == 1, "{target}");
        }
    }

    #[test]
    fn a_value_mix_blends_the_search_value_into_the_result() {
        assert_eq!(value_target(0, Some([0.2, 0.2, 0.6]), 0.0), [1.0, 0.0, 0.0]);
        assert_eq!(value_target(2, None, 0.5), [0.0, 0.0, 1.0]);
        let t = value_target(0, Some([0.2, 0.2, 0.6]), 0.5);
        for (a, b) in t.iter().zip([0.6, 0.1, 0.3]) {
            assert!((a - b).abs() < 1e-6, "{t:?}");
        }
        // In batches: black won; the search said 0.2/0.2/0.6 for the side to move.
        let set = TrainingSet::new(vec![game(7, 7, GameResult::BlackWin)]).with_value_mix(0.5);
        assert_eq!(set.samples_with_value(), 2);
        let b = set.batch(16, true, &mut StdRng::seed_from_u64(2));
        let inputs = Vec::<f32>::try_from(b.inputs.view([-1])).unwrap();
        let wdl = Vec::<f32>::try_from(b.wdl.view([-1])).unwrap();
        for i in 0..16 {
            let black_to_move = inputs[i * 16 * 49 + plane::BLACK_TO_MOVE * 49] == 1.0;
            let want = if black_to_move {
                [0.6, 0.1, 0.3]
            } else {
                [0.1, 0.1, 0.8]
            };
            for k in 0..3 {
                assert!(
                    (wdl[i * 3 + k] - want[k]).abs() < 1e-6,
                    "{:?}",
                    &wdl[i * 3..]
                );
            }
        }
        // The pattern net's batches carry the same targets; a version 1 record's (no search
        // value) stay the result.
        let mut old = game(7, 7, GameResult::BlackWin);
        old.positions.iter_mut().for_each(|p| p.value = None);
        let set = TrainingSet::new(vec![old]).with_value_mix(0.5);
        assert_eq!(set.samples_with_value(), 0);
        let b = set.pattern_batch(8, &mut StdRng::seed_from_u64(2));
        let wdl = Vec::<f32>::try_from(b.wdl.view([-1])).unwrap();
        assert!(wdl.iter().all(|&v| v == 0.0 || v == 1.0));
        assert_eq!(wdl.iter().sum::<f32>(), 8.0);
    }

    #[test]
    fn a_value_horizon_averages_the_next_searches_from_the_side_to_move() {
        let mut g = game(7, 7, GameResult::BlackWin);
        g.positions[1].value = Some([0.2, 0.2, 0.6]);
        g.positions[2].value = Some([0.1, 0.3, 0.6]);
        // From white's move at ply 1: its own 0.2/0.2/0.6 and black's 0.1/0.3/0.6 turned round.
        let v = short_term_value(&g, 1, 4).unwrap();
        for (a, b) in v.iter().zip([0.4, 0.25, 0.35]) {
            assert!((a - b).abs() < 1e-6, "{v:?}");
        }
        assert_eq!(short_term_value(&g, 1, 0), Some([0.2, 0.2, 0.6]));
        assert_eq!(
            short_term_value(&g, 0, 0),
            None,
            "an opening stone has no value"
        );
        // In batches, mixed half and half with black's win: white to move gets
        // 0.5 x loss + 0.5 x (0.4, 0.25, 0.35).
        let set = TrainingSet::new(vec![g])
            .with_value_mix(0.5)
            .with_value_horizon(4);
        let b = set.pattern_batch(32, &mut StdRng::seed_from_u64(4));
        let wdl = Vec::<f32>::try_from(b.wdl.view([-1])).unwrap();
        let white = [0.2, 0.125, 0.675];
        let black = [0.55, 0.15, 0.3];
        for row in wdl.chunks(3) {
            let near = |want: [f32; 3]| row.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6);
            assert!(near(white) || near(black), "{row:?}");
        }
    }

    #[test]
    fn a_policy_floor_drops_the_rarely_visited_moves() {
        let mut g = game(7, 7, GameResult::Draw);
        g.positions[2].policy = vec![
            (Point::new(4, 1), 0.6),
            (Point::new(5, 5), 0.38),
            (Point::new(6, 6), 0.02),
        ];
        g.positions[1].policy = vec![(Point::new(1, 0), 0.01), (Point::new(1, 1), 0.01)];
        let set = TrainingSet::new(vec![g]).with_policy_floor(0.05);
        let b = set.batch_in_order(ModelKind::Pattern, 0..2);
        let policy = Vec::<f32>::try_from(b.policy.view([-1])).unwrap();
        // White's two moves are both below the floor, and both its most visited: both stay.
        assert!((policy[1] - 0.5).abs() < 1e-6 && (policy[7 + 1] - 0.5).abs() < 1e-6);
        let black = &policy[49..];
        assert!((black[7 + 4] - 0.6 / 0.98).abs() < 1e-6, "{black:?}");
        assert!((black[5 * 7 + 5] - 0.38 / 0.98).abs() < 1e-6);
        assert_eq!(black[6 * 7 + 6], 0.0);
    }

    #[test]
    fn mixed_sizes_are_padded_to_the_largest() {
        let set = TrainingSet::new(vec![
            game(7, 9, GameResult::Draw),
            game(12, 6, GameResult::WhiteWin),
        ]);
        let mut rng = StdRng::seed_from_u64(5);
        let mut saw_both = false;
        for _ in 0..10 {
            let b = set.batch(8, true, &mut rng);
            let inputs = Vec::<f32>::try_from(b.inputs.view([-1])).unwrap();
            let policy = Vec::<f32>::try_from(b.policy.view([-1])).unwrap();
            let (w, h) = (b.width, b.height);
            let area = w * h;
            let mut sizes = std::collections::HashSet::new();
            for i in 0..8 {
                let mask = &inputs[i * 16 * area + plane::ON_BOARD * area..][..area];
                let on: usize = mask.iter().filter(|&&v| v == 1.0).count();
                sizes.insert(on);
                for (at, &p) in policy[i * area..(i + 1) * area].iter().enumerate() {
                    assert!(p == 0.0 || mask[at] == 1.0, "policy mass in the padding");
                }
                // The board sits in the top-left corner.
                assert_eq!(mask[0], 1.0);
            }
            assert!(sizes.iter().all(|&s| s == 63 || s == 72));
            if sizes.len() == 2 {
                assert_eq!((w, h), (12, 9));
                saw_both = true;
            }
        }
        assert!(saw_both);
    }
}
