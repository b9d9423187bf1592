//! The board: stones, history, incremental Zobrist hash and incremental line codes.
//!
//! Layout: a padded one-dimensional array. Row `y`, column `x` lives at index
//! `(y + PAD) * stride + x + PAD` with `stride = width + PAD`; the `PAD` (5) columns between rows and
//! the `PAD` rows above and below hold walls, so every cell within five steps of a board point in any
//! of the four directions is a valid index. Hot paths take these indices (`index`, `point`).
//!
//! For every cell and direction the board keeps the 20-bit code of its ten line neighbours (see
//! `pattern.rs`), black's point of view; a move XORs its colour into the 40 codes it touches, so a
//! pattern query is one table lookup.
use std::fmt;

use super::error::GameError;
use super::pattern::{
    self, classify_line, lookup, lookup_window, swap_colors, LineRule, Pattern, OPP, OWN,
};
use super::types::{Color, Point, Rule, MAX_SIZE, MIN_SIZE};
use super::zobrist::{stone_key, SIDE_KEY};

/// Size (log2) of the per-thread cache of whole-line classifications.
const FULL_LINE_CACHE_BITS: u32 = 14;

type FullLineKey = (u64, u16);

thread_local! {
    static FULL_LINE_CACHE: std::cell::RefCell<Vec<Option<(FullLineKey, Pattern)>>> =
        std::cell::RefCell::new(vec![None; 1 << FULL_LINE_CACHE_BITS]);
}

pub(crate) const PAD: usize = 5;
pub(crate) const EMPTY_CELL: u8 = 0;
pub(crate) const WALL_CELL: u8 = pattern::WALL;

/// The four line directions as (dx, dy): horizontal, vertical, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// What a move did (or would do).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveOutcome {
    Ongoing,
    Win(Color),
    /// The board is full and nobody won.
    Draw,
    /// Renju: black played a forbidden point and loses.
    ForbiddenLoss,
}

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    rule: Rule,
    /// Index step of each direction (all positive).
    steps: [usize; 4],
    /// 0 empty, 1 black, 2 white, 3 wall.
    cells: Vec<u8>,
    /// Black-perspective neighbour codes per cell and direction.
    codes: Vec<[u32; 4]>,
    /// Zobrist keys per cell and colour.
    keys: Vec<[u64; 2]>,
    /// Protocol point of each board index (walls hold a dummy).
    points: Vec<Point>,
    moves: Vec<usize>,
    history: Vec<Point>,
    hash: u64,
    /// Pattern table per colour for the current rule.
    tables: [&'static [u8]; 2],
    line_rules: [LineRule; 2],
}

fn color_cell(color: Color) -> u8 {
    color as u8 + 1
}

fn cell_color(v: u8) -> Option<Color> {
    match v {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

impl Board {
    /// An empty `width` x `height` board (each side 5..=32).
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, GameError> {
        let sizes = MIN_SIZE..=MAX_SIZE;
        if !sizes.contains(&width) || !sizes.contains(&height) {
            return Err(GameError::BadSize { width, height });
        }
        let stride = width + PAD;
        let total = (height + 2 * PAD) * stride + PAD;
        let mut board = Board {
            width,
            height,
            stride,
            rule,
            steps: [1, stride, stride + 1, stride - 1],
            cells: vec![WALL_CELL; total],
            codes: vec![[0; 4]; total],
            keys: vec![[0; 2]; total],
            points: vec![Point::new(u8::MAX, u8::MAX); total],
            moves: Vec::with_capacity(width * height),
            history: Vec::with_capacity(width * height),
            hash: 0,
            tables: [&[], &[]],
            line_rules: [LineRule::FiveOrMore; 2],
        };
        for y in 0..height {
            for x in 0..width {
                let i = board.idx(x, y);
                board.cells[i] = EMPTY_CELL;
                board.keys[i] = [stone_key(0, x, y), stone_key(1, x, y)];
                board.points[i] = Point::new(x as u8, y as u8);
            }
        }
        for y in 0..height {
            for x in 0..width {
                let i = board.idx(x, y);
                for d in 0..4 {
                    board.codes[i][d] = board.code_from_cells(i, d);
                }
            }
        }
        board.set_rule(rule);
        Ok(board)
    }

    /// Plays `moves` in order (black first) from an empty board.
    pub fn from_moves(
        width: usize,
        height: usize,
        rule: Rule,
        moves: &[Point],
    ) -> Result<Board, GameError> {
        let mut board = Board::new(width, height, rule)?;
        for &p in moves {
            board.play(p)?;
        }
        Ok(board)
    }

    fn idx(&self, x: usize, y: usize) -> usize {
        (y + PAD) * self.stride + x + PAD
    }

    /// The neighbour code of cell `i` in direction `d`, read from the cells (used at construction).
    fn code_from_cells(&self, i: usize, d: usize) -> u32 {
        let step = self.steps[d];
        let mut code = 0;
        for k in 1..=5usize {
            code |= (self.cells[i - k * step] as u32) << (2 * (5 - k));
            code |= (self.cells[i + k * step] as u32) << (2 * (k + 4));
        }
        code
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Changes the rule; the pattern tables follow (stones and hash are rule-independent).
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
        for color in [Color::Black, Color::White] {
            let lr = LineRule::for_rule(rule, color);
            self.line_rules[color.index()] = lr;
            self.tables[color.index()] = pattern::table(lr);
        }
    }

    /// The internal index of an on-board point.
    #[inline]
    pub fn index(&self, p: Point) -> usize {
        self.idx(p.x as usize, p.y as usize)
    }

    /// The point of an on-board index.
    #[inline]
    pub fn point(&self, idx: usize) -> Point {
        self.points[idx]
    }

    /// Index step of direction `dir` (see [`DIRECTIONS`]); `idx + k * step` walks the line,
    /// and stays a valid index (possibly a wall) for `k` up to 5 from any board point.
    #[inline]
    pub fn dir_step(&self, dir: usize) -> usize {
        self.steps[dir]
    }

    /// Number of internal indices (for per-index arrays).
    pub fn index_len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    fn check_on_board(&self, p: Point) -> Result<usize, GameError> {
        if self.is_on_board(p.x as i32, p.y as i32) {
            Ok(self.index(p))
        } else {
            Err(GameError::OffBoard {
                x: p.x as i64,
                y: p.y as i64,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// The stone on `p`; `None` for empty or off-board points.
    pub fn get(&self, p: Point) -> Option<Color> {
        if self.is_on_board(p.x as i32, p.y as i32) {
            self.get_idx(self.index(p))
        } else {
            None
        }
    }

    #[inline]
    pub fn get_idx(&self, idx: usize) -> Option<Color> {
        cell_color(self.cells[idx])
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty(&self, p: Point) -> bool {
        self.is_on_board(p.x as i32, p.y as i32) && self.is_empty_idx(self.index(p))
    }

    /// Whether index `idx` is an empty board point (walls are not).
    #[inline]
    pub fn is_empty_idx(&self, idx: usize) -> bool {
        self.cells[idx] == EMPTY_CELL
    }

    pub fn is_full(&self) -> bool {
        self.moves.len() == self.width * self.height
    }

    /// Black moves first; colours alternate, so this follows from the stone count.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn stone_count(&self) -> usize {
        self.moves.len()
    }

    pub fn history(&self) -> &[Point] {
        &self.history
    }

    /// Indices of the moves, oldest first.
    pub fn history_idx(&self) -> &[usize] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<Point> {
        self.history.last().copied()
    }

    /// Zobrist hash of stones and side to move (fixed keys: the same on every run).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plays for the side to move; errors (board unchanged) off the board or on a stone.
    /// A renju forbidden move by black is played and reported as `ForbiddenLoss`.
    pub fn play(&mut self, p: Point) -> Result<MoveOutcome, GameError> {
        let idx = self.check_on_board(p)?;
        if !self.is_empty_idx(idx) {
            return Err(GameError::Occupied(p));
        }
        let outcome = self.outcome_of_idx(idx, self.side_to_move());
        self.play_unchecked(idx);
        Ok(outcome)
    }

    /// Puts a stone of a given colour (position set-up, e.g. a GUI's board in any order). It joins
    /// the history like a move; `side_to_move` still follows the stone count.
    pub fn place(&mut self, p: Point, color: Color) -> Result<(), GameError> {
        let idx = self.check_on_board(p)?;
        if !self.is_empty_idx(idx) {
            return Err(GameError::Occupied(p));
        }
        self.put(idx, color);
        Ok(())
    }

    /// Plays the side to move on an empty board index. No checks, no outcome: the search's make.
    #[inline]
    pub fn play_unchecked(&mut self, idx: usize) {
        self.put(idx, self.side_to_move());
    }

    #[inline]
    fn put(&mut self, idx: usize, color: Color) {
        debug_assert!(self.is_empty_idx(idx));
        let v = color_cell(color);
        self.cells[idx] = v;
        self.flip_codes(idx, v as u32);
        self.hash ^= self.keys[idx][color.index()] ^ SIDE_KEY;
        self.moves.push(idx);
        self.history.push(self.points[idx]);
    }

    /// Takes back the last move; `None` on an empty board.
    #[inline]
    pub fn undo(&mut self) -> Option<Point> {
        let idx = self.moves.pop()?;
        let v = self.cells[idx];
        self.cells[idx] = EMPTY_CELL;
        self.flip_codes(idx, v as u32);
        self.hash ^= self.keys[idx][v as usize - 1] ^ SIDE_KEY;
        self.history.pop()
    }

    /// XORs a stone value into the codes of the 40 cells whose windows contain `idx`.
    #[inline]
    fn flip_codes(&mut self, idx: usize, v: u32) {
        // One bounds check for the whole reach instead of forty (the padding makes it always pass
        // for a board point).
        let steps = self.steps;
        let reach = 5 * steps[2];
        let window = &mut self.codes[idx - reach..=idx + reach];
        for (d, step) in steps.into_iter().enumerate() {
            for k in 1..=5usize {
                // The cell k steps ahead sees idx at offset -k (slot 5 - k), the one behind at +k.
                window[reach + k * step][d] ^= v << (2 * (5 - k));
                window[reach - k * step][d] ^= v << (2 * (k + 4));
            }
        }
    }

    /// Black-perspective neighbour code of `idx` in direction `dir`.
    #[inline]
    pub(crate) fn code(&self, idx: usize, dir: usize) -> u32 {
        self.codes[idx][dir]
    }

    /// The shape a stone of `color` on `p` (which must be on the board) makes in direction `dir`
    /// (0..4, see [`DIRECTIONS`]).
    /// Meant for empty points; on an occupied point it describes the line as if that stone were
    /// just being placed.
    pub fn pattern(&self, p: Point, color: Color, dir: usize) -> Pattern {
        self.pattern_idx(self.index(p), color, dir)
    }

    /// Index form of [`Board::pattern`]: one table lookup.
    #[inline]
    pub fn pattern_idx(&self, idx: usize, color: Color, dir: usize) -> Pattern {
        match lookup(
            self.tables[color.index()],
            self.code_seen_by(idx, dir, color),
        ) {
            Some(p) => p,
            None => self.pattern_full_line(idx, color, dir),
        }
    }

    /// [`Board::pattern_idx`] read from the cell's ten-cell window alone, without the exact
    /// whole-line classifier that long caro runs need: it changes only when a stone within five
    /// steps on that line does (what an incrementally updated feature needs).
    #[inline]
    pub fn window_pattern_idx(&self, idx: usize, color: Color, dir: usize) -> Pattern {
        lookup_window(
            self.tables[color.index()],
            self.code_seen_by(idx, dir, color),
        )
    }

    /// The neighbour code of `idx` in direction `dir` with `color`'s stones as the own ones.
    #[inline]
    fn code_seen_by(&self, idx: usize, dir: usize, color: Color) -> u32 {
        let code = self.codes[idx][dir];
        match color {
            Color::Black => code,
            Color::White => swap_colors(code),
        }
    }

    /// The patterns of all four directions.
    #[inline]
    pub fn patterns_idx(&self, idx: usize, color: Color) -> [Pattern; 4] {
        [0, 1, 2, 3].map(|d| self.pattern_idx(idx, color, d))
    }

    /// Both colours' patterns (indexed by `Color::index()`) on the four lines through `idx`,
    /// looked up only where a line holds at least two of that colour's stones within five
    /// steps, `Pattern::None` elsewhere: threes, fours and fives are exact, twos are not seen.
    /// One read of the point's codes serves both colours.
    #[inline]
    pub fn threat_patterns_idx(&self, idx: usize) -> [[Pattern; 4]; 2] {
        let codes = self.codes[idx];
        let mut out = [[Pattern::None; 4]; 2];
        for (d, &code) in codes.iter().enumerate() {
            let low = code & 0x5_5555;
            let high = (code >> 1) & 0x5_5555;
            if (low & !high).count_ones() >= 2 {
                out[0][d] = lookup(self.tables[0], code)
                    .unwrap_or_else(|| self.pattern_full_line(idx, Color::Black, d));
            }
            if (high & !low).count_ones() >= 2 {
                out[1][d] = lookup(self.tables[1], swap_colors(code))
                    .unwrap_or_else(|| self.pattern_full_line(idx, Color::White, d));
            }
        }
        out
    }

    /// Exact classification from the whole line (no table); slow, for long caro runs and checks.
    pub(crate) fn pattern_full_line(&self, idx: usize, color: Color, dir: usize) -> Pattern {
        let step = self.steps[dir];
        let mut start = idx;
        while self.cells[start - step] != WALL_CELL {
            start -= step;
        }
        let mut line = [0u8; MAX_SIZE];
        let mut n = 0;
        let mut centre = 0;
        let mut i = start;
        while self.cells[i] != WALL_CELL {
            line[n] = match (cell_color(self.cells[i]), color) {
                (None, _) => 0,
                (Some(c), me) if c == me => OWN,
                _ => OPP,
            };
            if i == idx {
                centre = n;
            }
            n += 1;
            i += step;
        }
        line[centre] = OWN;
        let rule = self.line_rules[color.index()];
        // Lines that need this path (caro runs reaching past the table's window) come back
        // again and again in a search: a small per-thread cache of their classifications.
        let cells = line[..n].iter().fold(0u64, |acc, &c| (acc << 2) | c as u64);
        let key = (cells, (n as u16) << 8 | (centre as u16) << 2 | rule as u16);
        FULL_LINE_CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            let slot = (cells ^ cells >> 29 ^ (key.1 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .wrapping_mul(0xBF58_476D_1CE4_E5B9)
                >> (64 - FULL_LINE_CACHE_BITS);
            if let Some((k, p)) = cache[slot as usize] {
                if k == key {
                    return p;
                }
            }
            let p = classify_line(&mut line[..n], centre, rule);
            cache[slot as usize] = Some((key, p));
            p
        })
    }

    /// Whether `color` on the empty index `idx` makes a winning five (rule-aware).
    #[inline]
    pub fn is_win_idx(&self, idx: usize, color: Color) -> bool {
        (0..4).any(|d| self.pattern_idx(idx, color, d) == Pattern::Five)
    }

    /// Whether `color` playing the empty point `p` wins at once.
    pub fn is_win_move(&self, p: Point, color: Color) -> bool {
        self.is_empty(p) && self.is_win_idx(self.index(p), color)
    }

    /// A stone that is part of a winning five under the rule, looking row by row; `None` when no
    /// five stands on the board.
    pub fn stone_in_five(&self) -> Option<Point> {
        (0..self.height).find_map(|y| {
            (0..self.width).find_map(|x| {
                let p = Point::new(x as u8, y as u8);
                let color = self.get(p)?;
                // On an occupied point a pattern reads the line as if that stone were just placed.
                (0..4)
                    .any(|d| self.pattern(p, color, d) == Pattern::Five)
                    .then_some(p)
            })
        })
    }

    /// What `color` playing `p` would lead to, without playing it. Off-board or occupied: `Ongoing`.
    pub fn outcome_of(&self, p: Point, color: Color) -> MoveOutcome {
        if !self.is_empty(p) {
            return MoveOutcome::Ongoing;
        }
        self.outcome_of_idx(self.index(p), color)
    }

    /// Index form of [`Board::outcome_of`] (`idx` must be empty).
    pub fn outcome_of_idx(&self, idx: usize, color: Color) -> MoveOutcome {
        if self.is_win_idx(idx, color) {
            MoveOutcome::Win(color)
        } else if color == Color::Black && self.rule.has_forbidden() && self.is_forbidden_idx(idx) {
            MoveOutcome::ForbiddenLoss
        } else if self.moves.len() + 1 >= self.width * self.height {
            MoveOutcome::Draw
        } else {
            MoveOutcome::Ongoing
        }
    }

    /// Calls `f` with every empty board index, row by row.
    #[inline]
    pub fn for_each_empty(&self, mut f: impl FnMut(usize)) {
        for y in 0..self.height {
            let row = self.idx(0, y);
            for idx in row..row + self.width {
                if self.cells[idx] == EMPTY_CELL {
                    f(idx);
                }
            }
        }
    }

    /// Calls `f` with every legal move of the side to move: empty points, minus black's forbidden
    /// points in renju.
    pub fn for_each_legal(&self, mut f: impl FnMut(usize)) {
        let check = self.rule.has_forbidden() && self.side_to_move() == Color::Black;
        self.for_each_empty(|idx| {
            if !check || !self.is_forbidden_idx(idx) {
                f(idx);
            }
        });
    }

    pub fn legal_moves(&self) -> Vec<Point> {
        let mut out = Vec::new();
        self.for_each_legal(|idx| out.push(self.points[idx]));
        out
    }

    /// Black's forbidden points (renju; empty for other rules).
    pub fn forbidden_points(&self) -> Vec<Point> {
        let mut out = Vec::new();
        if self.rule.has_forbidden() {
            self.for_each_empty(|idx| {
                if self.is_forbidden_idx(idx) {
                    out.push(self.points[idx]);
                }
            });
        }
        out
    }

    /// Whether the side to move may play `p`: on the board, empty, and not forbidden for black.
    pub fn is_legal(&self, p: Point) -> bool {
        (p.x as usize) < self.width
            && (p.y as usize) < self.height
            && self.is_empty(p)
            && !(self.side_to_move() == Color::Black && self.is_forbidden(p))
    }

    /// Whether black may not play `p` (renju, empty on-board point; false otherwise).
    pub fn is_forbidden(&self, p: Point) -> bool {
        self.is_empty(p) && self.is_forbidden_idx(self.index(p))
    }
}

impl PartialEq for Board {
    /// Same size, rule and stones in the same order.
    fn eq(&self, other: &Board) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.rule == other.rule
            && self.moves == other.moves
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {}x{} {}:\n{}",
            self.width, self.height, self.rule, self
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn threat_patterns_are_the_patterns_of_lines_with_two_stones() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut seen = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for _ in 0..40 {
                let mut b = Board::new(15, 15, rule).unwrap();
                for _ in 0..rng.gen_range(5..60) {
                    let q = p(rng.gen_range(0..15), rng.gen_range(0..15));
                    if b.is_empty(q) {
                        b.play(q).unwrap();
                    }
                }
                b.for_each_empty(|i| {
                    let both = b.threat_patterns_idx(i);
                    for color in [Color::Black, Color::White] {
                        for (d, &read) in both[color.index()].iter().enumerate() {
                            let full = b.pattern_idx(i, color, d);
                            let expected = if b.own_on_line(i, d, color) >= 2 {
                                full
                            } else {
                                Pattern::None
                            };
                            assert_eq!(read, expected);
                            if full >= Pattern::Three {
                                assert_eq!(read, full, "threes and up are exact");
                                seen += 1;
                            }
                        }
                    }
                });
            }
        }
        assert!(seen > 100, "the boards hold threes and fours ({seen})");
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Board::new(4, 15, Rule::Freestyle).is_err());
        assert!(Board::new(15, 33, Rule::Freestyle).is_err());
        let b = Board::new(7, 20, Rule::Freestyle).unwrap();
        assert_eq!((b.width(), b.height()), (7, 20));
        let msg = Board::new(40, 5, Rule::Renju).unwrap_err().to_string();
        assert!(msg.contains("40x5"), "{msg}");
    }

    #[test]
    fn play_and_undo_restore_everything() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        let empty_hash = b.hash();
        let codes = b.codes.clone();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Ongoing));
        assert_eq!(b.get(p(7, 7)), Some(Color::Black));
        assert_eq!(b.side_to_move(), Color::White);
        assert_ne!(b.hash(), empty_hash);
        assert_eq!(b.play(p(7, 7)), Err(GameError::Occupied(p(7, 7))));
        assert!(matches!(b.play(p(15, 0)), Err(GameError::OffBoard { .. })));
        b.play(p(8, 8)).unwrap();
        assert_eq!(b.history(), &[p(7, 7), p(8, 8)]);
        assert_eq!(b.last_move(), Some(p(8, 8)));
        assert_eq!(b.undo(), Some(p(8, 8)));
        assert_eq!(b.undo(), Some(p(7, 7)));
        assert_eq!(b.undo(), None);
        assert_eq!(b.hash(), empty_hash);
        assert!(b.codes == codes);
    }

    #[test]
    fn hash_depends_on_position_not_order() {
        let a = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &[p(1, 1), p(2, 2), p(3, 3), p(4, 4)],
        );
        let b = Board::from_moves(
            15,
            15,
            Rule::Freestyle,
            &[p(3, 3), p(4, 4), p(1, 1), p(2, 2)],
        );
        assert_eq!(a.unwrap().hash(), b.unwrap().hash());
        let c = Board::from_moves(15, 15, Rule::Freestyle, &[p(2, 2), p(1, 1)]).unwrap();
        let d = Board::from_moves(15, 15, Rule::Freestyle, &[p(1, 1), p(2, 2)]).unwrap();
        assert_ne!(c.hash(), d.hash());
        // Same stones, other side to move.
        let mut e = Board::new(15, 15, Rule::Freestyle).unwrap();
        e.place(p(1, 1), Color::Black).unwrap();
        let mut f = Board::new(15, 15, Rule::Freestyle).unwrap();
        f.place(p(1, 1), Color::Black).unwrap();
        f.place(p(9, 9), Color::White).unwrap();
        f.undo();
        assert_eq!(e.hash(), f.hash());
    }

    #[test]
    fn five_wins_at_the_edges() {
        for (w, h) in [(5, 5), (32, 5), (5, 32), (7, 20)] {
            let mut b = Board::new(w, h, Rule::Freestyle).unwrap();
            for i in 0..4u8 {
                b.play(p(0, i)).unwrap();
                b.play(p(4, i)).unwrap();
            }
            assert!(b.is_win_move(p(0, 4), Color::Black));
            assert!(b.is_win_move(p(4, 4), Color::White));
            assert_eq!(b.play(p(0, 4)), Ok(MoveOutcome::Win(Color::Black)));
        }
    }

    #[test]
    fn full_board_is_a_draw() {
        // Fill a 5x5 board column-wise in pairs so no five appears: pattern xxoo.. per row shifted.
        let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
        let mut order = Vec::new();
        for y in 0..5u8 {
            for x in 0..5u8 {
                order.push(p(x, y));
            }
        }
        // Colour of (x, y) by move parity: choose an order where no line is one colour.
        let black: Vec<Point> = order
            .iter()
            .copied()
            .filter(|q| (q.x + 2 * q.y) % 5 < 2 || ((q.x + 2 * q.y) % 5 == 4 && q.y == 0))
            .collect();
        let white: Vec<Point> = order
            .iter()
            .copied()
            .filter(|q| !black.contains(q))
            .collect();
        assert_eq!(black.len(), 11);
        assert_eq!(white.len(), 14);
        // 25 moves need 13 black / 12 white; swap two whites into black's list.
        let mut black = black;
        let mut white = white;
        black.push(white.pop().unwrap());
        black.push(white.pop().unwrap());
        let mut last = MoveOutcome::Ongoing;
        for i in 0..25 {
            let q = if i % 2 == 0 {
                black[i / 2]
            } else {
                white[i / 2]
            };
            last = b.play(q).unwrap();
            if i < 24 {
                assert_eq!(last, MoveOutcome::Ongoing, "move {i} at {q}\n{b}");
            }
        }
        assert_eq!(last, MoveOutcome::Draw, "\n{b}");
        assert!(b.is_full());
    }
}
