//! Random balanced openings for self-play and matches: a few stones near the centre, black
//! first and colours alternating, rejected while either side is already winning or nearly so.
use rand::Rng;

use crate::game::{Board, Color, MoveOutcome, Point, Rule, Threat};

/// How openings are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningConfig {
    /// Fewest and most stones (both inclusive); the count is drawn uniformly between them.
    pub min_stones: usize,
    pub max_stones: usize,
    /// Stones go on points at most this far (Chebyshev distance) from the centre.
    pub radius: usize,
}

impl Default for OpeningConfig {
    fn default() -> OpeningConfig {
        OpeningConfig {
            min_stones: 2,
            max_stones: 5,
            radius: 3,
        }
    }
}

/// Attempts before giving up on the stone count and trying an empty board.
const ATTEMPTS: usize = 1000;

/// Whether an opening leaves the game open: nobody has a four (a point where a stone would make
/// five), and the side to move has no point making an open four, a four-three, a double four
/// or a double three.
pub fn is_balanced(board: &Board) -> bool {
    let me = board.side_to_move();
    for color in [Color::Black, Color::White] {
        if !board.five_points(color).is_empty() {
            return false;
        }
    }
    let mut strong = false;
    board.for_each_empty(|idx| {
        strong = strong || board.threat_idx(idx, me) >= Threat::DoubleThree;
    });
    !strong
}

/// A random balanced opening on an empty `width` x `height` board.
pub fn random_opening<R: Rng>(
    width: usize,
    height: usize,
    rule: Rule,
    config: &OpeningConfig,
    rng: &mut R,
) -> Result<Board, crate::game::GameError> {
    let empty = Board::new(width, height, rule)?;
    let (lo, hi) = (
        config.min_stones.min(config.max_stones),
        config.max_stones.max(config.min_stones),
    );
    'attempt: for _ in 0..ATTEMPTS {
        let stones = rng.gen_range(lo..=hi);
        let mut board = empty.clone();
        for _ in 0..stones {
            let near = near_centre(&board, config.radius);
            if near.is_empty() {
                continue 'attempt;
            }
            let p = near[rng.gen_range(0..near.len())];
            if board.play(p)? != MoveOutcome::Ongoing {
                continue 'attempt;
            }
        }
        if is_balanced(&board) {
            return Ok(board);
        }
    }
    log::warn!("no balanced opening found on {width}x{height} {rule}; starting from empty");
    Ok(empty)
}

/// Legal moves of the side to move within `radius` of the centre.
fn near_centre(board: &Board, radius: usize) -> Vec<Point> {
    let (cx, cy) = (board.width() / 2, board.height() / 2);
    board
        .legal_moves()
        .into_iter()
        .filter(|p| (p.x as usize).abs_diff(cx) <= radius && (p.y as usize).abs_diff(cy) <= radius)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn openings_are_small_central_and_balanced() {
        let mut rng = StdRng::seed_from_u64(1);
        let config = OpeningConfig {
            min_stones: 3,
            max_stones: 6,
            radius: 2,
        };
        for rule in Rule::ALL {
            for (w, h) in [(15, 15), (20, 20), (9, 12)] {
                for _ in 0..10 {
                    let b = random_opening(w, h, rule, &config, &mut rng).unwrap();
                    let n = b.stone_count();
                    assert!((3..=6).contains(&n), "{n} stones");
                    for p in b.history() {
                        assert!((p.x as usize).abs_diff(w / 2) <= 2);
                        assert!((p.y as usize).abs_diff(h / 2) <= 2);
                    }
                    assert!(is_balanced(&b), "{b}");
                    // Colours alternate from black: replaying the history gives the same board.
                    assert_eq!(Board::from_moves(w, h, rule, b.history()).unwrap(), b);
                }
            }
        }
    }

    #[test]
    fn fours_and_winning_threats_are_not_balanced() {
        // White (o) has a four: black to move must block, and that is rejected.
        let four = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . o o o o . . . .
            . . . . . . . . .
            . x . x . x . x .
            . . . . . . . . .
            ",
        )
        .unwrap();
        assert_eq!(four.side_to_move(), Color::Black);
        assert!(!is_balanced(&four));
        // Black to move with an open three (an open four next move): rejected.
        let three = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . . . x x x . . .
            . . . . . . . . .
            . o . . . . . o .
            o . . . . . . . .
            ",
        )
        .unwrap();
        assert_eq!(three.side_to_move(), Color::Black);
        assert!(!is_balanced(&three));
        // A two each and nothing stronger: balanced.
        let quiet = Board::from_diagram(
            Rule::Freestyle,
            "
            . . . . . . . . .
            . . . x x . . . .
            . . . . . . . . .
            . o . . . . . o .
            . . . . . . . . .
            ",
        )
        .unwrap();
        assert!(is_balanced(&quiet));
    }

    #[test]
    fn the_same_seed_gives_the_same_opening() {
        let config = OpeningConfig::default();
        let a = random_opening(15, 15, Rule::Renju, &config, &mut StdRng::seed_from_u64(9));
        let b = random_opening(15, 15, Rule::Renju, &config, &mut StdRng::seed_from_u64(9));
        assert_eq!(a.unwrap(), b.unwrap());
    }
}
