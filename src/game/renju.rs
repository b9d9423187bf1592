//! Renju forbidden points for black (RIF 9.1-9.3).
//!
//! A black stone is forbidden when it makes an overline, two or more fours (also on one line), or two
//! or more threes, unless it makes an exact five. A three only counts if some completion point that
//! turns it into a straight four is itself legal for black, which needs the same test one level
//! deeper with the stone in place. Those hypothetical stones are kept in a small overlay instead of
//! being played, so the check works on a shared `&Board`. A completion point that makes a five on
//! another line counts as a five, not a straight four.
use super::board::Board;
use super::pattern::{lookup, table, LineRule, Pattern};

/// Hypothetical black stones the recursion may stack up. Past this depth a completion point is taken
/// as legal (a three counts); real positions come nowhere near it.
const MAX_OVERLAY: usize = 8;

impl Board {
    /// Whether black may not play the empty index `idx` (always false outside renju).
    pub fn is_forbidden_idx(&self, idx: usize) -> bool {
        self.rule().has_forbidden() && self.is_empty_idx(idx) && self.forbidden_with(idx, &[])
    }

    /// Black-perspective code of `idx` in `dir` with the overlay stones added.
    fn code_with(&self, idx: usize, dir: usize, overlay: &[usize]) -> u32 {
        let mut code = self.code(idx, dir);
        let step = self.dir_step(dir) as isize;
        for &e in overlay {
            let diff = e as isize - idx as isize;
            // Padding (>= 5 cells) guarantees a multiple of the step within 5 steps is on this line.
            if diff != 0 && diff % step == 0 {
                let k = diff / step;
                if (-5..=5).contains(&k) {
                    let slot = if k < 0 { 5 + k } else { k + 4 };
                    code |= 1 << (2 * slot);
                }
            }
        }
        code
    }

    fn forbidden_with(&self, idx: usize, overlay: &[usize]) -> bool {
        let exact = table(LineRule::ExactFive);
        let mut codes = [0u32; 4];
        let mut shapes = [Pattern::None; 4];
        for d in 0..4 {
            codes[d] = self.code_with(idx, d, overlay);
            shapes[d] = lookup(exact, codes[d]).expect("exact-five table has no fallback entries");
        }
        if shapes.contains(&Pattern::Five) {
            return false;
        }
        if shapes.contains(&Pattern::Overline) {
            return true;
        }
        if shapes.iter().map(|p| p.four_count()).sum::<u32>() >= 2 {
            return true;
        }
        if shapes.iter().filter(|&&p| p == Pattern::OpenThree).count() < 2 {
            return false;
        }

        let mut deeper = [0usize; MAX_OVERLAY + 1];
        deeper[..overlay.len()].copy_from_slice(overlay);
        deeper[overlay.len()] = idx;
        let deeper = &deeper[..overlay.len() + 1];

        let mut real_threes = 0;
        for d in 0..4 {
            if shapes[d] != Pattern::OpenThree {
                continue;
            }
            if self.three_is_real(idx, d, codes[d], deeper) {
                real_threes += 1;
                if real_threes >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the geometric open three of `idx` in `dir` has a legal point making a straight four.
    /// `overlay` already holds `idx`.
    fn three_is_real(&self, idx: usize, dir: usize, code: u32, overlay: &[usize]) -> bool {
        let exact = table(LineRule::ExactFive);
        let step = self.dir_step(dir) as isize;
        for k in -4isize..=4 {
            if k == 0 {
                continue;
            }
            let q = (idx as isize + k * step) as usize;
            if !self.is_empty_idx(q) || overlay.contains(&q) {
                continue;
            }
            let slot = if k < 0 { 5 + k } else { k + 4 };
            if lookup(exact, code | 1 << (2 * slot)) != Some(Pattern::OpenFour) {
                continue;
            }
            // A point that also makes a five on another line makes a five, not a straight four
            // (the Gomocup referee, Rapfi and quintet agree): it does not make this line a three.
            let five_elsewhere = (0..4).any(|d| {
                d != dir && lookup(exact, self.code_with(q, d, overlay)) == Some(Pattern::Five)
            });
            if five_elsewhere {
                continue;
            }
            if overlay.len() >= MAX_OVERLAY || !self.forbidden_with(q, overlay) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Board, Color, Point, Rule};

    /// Black to move at 7,7 with two threes through it: a horizontal one whose only straight-four
    /// point is 9,7 (white blocks 4,7), and a vertical one. `with_column` adds black's four on
    /// column 9, so that 9,7 also makes a five.
    fn position(with_column: bool) -> Board {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        let mut black = vec![(6, 7), (8, 7), (7, 5), (7, 6)];
        let mut white = vec![(4, 7), (0, 0), (14, 0), (0, 14)];
        if with_column {
            black.extend([(9, 3), (9, 4), (9, 5), (9, 6)]);
            white.extend([(14, 14), (1, 12), (12, 1), (13, 13)]);
        }
        for (x, y) in black {
            b.place(Point::new(x, y), Color::Black).unwrap();
        }
        for (x, y) in white {
            b.place(Point::new(x, y), Color::White).unwrap();
        }
        b
    }

    #[test]
    fn a_straight_four_point_that_makes_a_five_does_not_make_a_three() {
        let x = Point::new(7, 7);
        // Without the column, 9,7 makes a straight four: two real threes, forbidden.
        assert!(position(false).is_forbidden(x));
        // With it, 9,7 makes a five instead: one three only, so 7,7 is legal.
        let b = position(true);
        assert!(!b.is_forbidden(x));
        assert!(!b.forbidden_points().contains(&x));
    }
}
