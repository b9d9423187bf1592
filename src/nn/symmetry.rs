//! Board symmetries: 8 on a square board, 4 on a rectangle (no transposition, since it would
//! swap width and height). Used on the features going into the net and on the policy coming out.

/// One symmetry, as three bits applied in this order: transpose (bit 2, square boards only),
/// then flip x (bit 0), then flip y (bit 1). `Symmetry(0)` is the identity and `Symmetry(3)`
/// is the half turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

const ALL: [Symmetry; 8] = [
    Symmetry(0),
    Symmetry(1),
    Symmetry(2),
    Symmetry(3),
    Symmetry(4),
    Symmetry(5),
    Symmetry(6),
    Symmetry(7),
];

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);
    pub const FLIP_X: Symmetry = Symmetry(1);
    pub const FLIP_Y: Symmetry = Symmetry(2);
    pub const ROTATE_180: Symmetry = Symmetry(3);
    pub const TRANSPOSE: Symmetry = Symmetry(4);

    /// The symmetries valid on a `width` x `height` board.
    pub fn all(width: usize, height: usize) -> &'static [Symmetry] {
        if width == height {
            &ALL
        } else {
            &ALL[..4]
        }
    }

    /// The `n`-th symmetry (0..8); `None` when out of range.
    pub fn from_index(n: usize) -> Option<Symmetry> {
        ALL.get(n).copied()
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Picks one of the valid symmetries from a random number.
    pub fn pick(width: usize, height: usize, random: u64) -> Symmetry {
        let all = Symmetry::all(width, height);
        all[(random % all.len() as u64) as usize]
    }

    /// Whether this symmetry maps a `width` x `height` board onto itself.
    pub fn fits(self, width: usize, height: usize) -> bool {
        !self.transposes() || width == height
    }

    fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// Where the point `(x, y)` of a `width` x `height` board goes.
    /// Panics (debug) when a transposing symmetry is used on a rectangle.
    #[inline]
    pub fn apply(self, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
        debug_assert!(
            !self.transposes() || width == height,
            "transpose on a rectangle"
        );
        let (mut x, mut y) = if self.transposes() { (y, x) } else { (x, y) };
        if self.0 & 1 != 0 {
            x = width - 1 - x;
        }
        if self.0 & 2 != 0 {
            y = height - 1 - y;
        }
        (x, y)
    }

    /// The point that `apply` sends to `(x, y)`.
    #[inline]
    pub fn invert(self, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
        let (mut x, mut y) = (x, y);
        if self.0 & 1 != 0 {
            x = width - 1 - x;
        }
        if self.0 & 2 != 0 {
            y = height - 1 - y;
        }
        if self.transposes() {
            (y, x)
        } else {
            (x, y)
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        // Flips are their own inverses and commute. The inverse of "transpose, then flips" is
        // "the same flips, then transpose", and a flip of x before a transpose is a flip of y
        // after it: so the inverse transposes first and swaps the two flip bits.
        if self.transposes() {
            let fx = self.0 & 1;
            let fy = (self.0 >> 1) & 1;
            Symmetry(4 | fy | (fx << 1))
        } else {
            self
        }
    }

    /// Maps a per-point array computed in the transformed frame back to the original board:
    /// `original[y * width + x] = transformed[apply(x, y)]`.
    pub fn untransform_points(
        self,
        width: usize,
        height: usize,
        transformed: &[f32],
        original: &mut [f32],
    ) {
        assert!(transformed.len() >= width * height && original.len() >= width * height);
        assert!(
            self.fits(width, height),
            "{self:?} does not fit a {width}x{height} board"
        );
        for y in 0..height {
            for x in 0..width {
                let (tx, ty) = self.apply(x, y, width, height);
                original[y * width + x] = transformed[ty * width + tx];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_boards_have_eight_distinct_symmetries() {
        let (w, h) = (7, 7);
        let mut images = std::collections::HashSet::new();
        for &s in Symmetry::all(w, h) {
            // The image of two asymmetric points identifies the symmetry.
            images.insert((s.apply(1, 0, w, h), s.apply(2, 5, w, h)));
        }
        assert_eq!(images.len(), 8);
        assert_eq!(Symmetry::all(9, 6).len(), 4);
        assert!(Symmetry::all(9, 6).iter().all(|s| s.fits(9, 6)));
        assert!(!Symmetry::TRANSPOSE.fits(9, 6) && Symmetry::TRANSPOSE.fits(6, 6));
        for r in 0..100 {
            assert!(Symmetry::pick(9, 6, r).fits(9, 6));
        }
    }

    #[test]
    fn apply_and_invert_round_trip() {
        for (w, h) in [(15, 15), (6, 6), (9, 5), (5, 12)] {
            for &s in Symmetry::all(w, h) {
                let mut seen = vec![false; w * h];
                for y in 0..h {
                    for x in 0..w {
                        let (tx, ty) = s.apply(x, y, w, h);
                        assert!(tx < w && ty < h);
                        assert!(!seen[ty * w + tx], "not a bijection");
                        seen[ty * w + tx] = true;
                        assert_eq!(s.invert(tx, ty, w, h), (x, y));
                        assert_eq!(s.inverse().apply(tx, ty, w, h), (x, y));
                    }
                }
            }
        }
    }

    #[test]
    fn named_symmetries_do_what_they_say() {
        let (w, h) = (5, 4);
        assert_eq!(Symmetry::IDENTITY.apply(1, 2, w, h), (1, 2));
        assert_eq!(Symmetry::FLIP_X.apply(1, 2, w, h), (3, 2));
        assert_eq!(Symmetry::FLIP_Y.apply(1, 2, w, h), (1, 1));
        assert_eq!(Symmetry::ROTATE_180.apply(1, 2, w, h), (3, 1));
        assert_eq!(Symmetry::TRANSPOSE.apply(1, 3, 5, 5), (3, 1));
    }

    #[test]
    fn untransform_points_reverses_the_mapping() {
        let (w, h) = (4, 4);
        let original: Vec<f32> = (0..16).map(|v| v as f32).collect();
        for &s in Symmetry::all(w, h) {
            let mut transformed = vec![0.0; 16];
            for y in 0..h {
                for x in 0..w {
                    let (tx, ty) = s.apply(x, y, w, h);
                    transformed[ty * w + tx] = original[y * w + x];
                }
            }
            let mut back = vec![-1.0; 16];
            s.untransform_points(w, h, &transformed, &mut back);
            assert_eq!(back, original);
        }
    }
}
