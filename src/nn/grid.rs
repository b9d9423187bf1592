//! `GridPosition`: a plain [`FeatureSource`] made of a stone grid and explicitly marked
//! forbidden points and threats. It knows no rules (it detects nothing by itself); it serves
//! tests, benchmarks and tools that need positions without the engine's board.
use crate::game::{Color, Rule};

use super::features::{FeatureSource, PointThreats};

#[derive(Clone, Debug)]
pub struct GridPosition {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub side_to_move: Color,
    stones: Vec<Option<Color>>,
    forbidden: Vec<bool>,
    /// Per point, per colour index.
    threats: Vec<[PointThreats; 2]>,
}

impl GridPosition {
    /// An empty board, black to move.
    pub fn new(width: usize, height: usize, rule: Rule) -> GridPosition {
        let area = width * height;
        GridPosition {
            width,
            height,
            rule,
            side_to_move: Color::Black,
            stones: vec![None; area],
            forbidden: vec![false; area],
            threats: vec![[PointThreats::default(); 2]; area],
        }
    }

    pub fn place(&mut self, x: usize, y: usize, color: Color) {
        self.stones[y * self.width + x] = Some(color);
    }

    pub fn clear(&mut self) {
        self.stones.fill(None);
    }

    pub fn set_forbidden(&mut self, x: usize, y: usize) {
        self.forbidden[y * self.width + x] = true;
    }

    pub fn set_threats(&mut self, x: usize, y: usize, color: Color, threats: PointThreats) {
        self.threats[y * self.width + x][color.index()] = threats;
    }

    /// Places `count` stones (alternating colours, black first) on pseudo-random empty points
    /// chosen from `seed`, and sets the side to move accordingly.
    pub fn scatter(&mut self, count: usize, seed: u64) {
        let mut state = seed;
        let mut color = Color::Black;
        let mut placed = 0;
        while placed < count.min(self.stones.len()) {
            let i = (splitmix64(&mut state) % self.stones.len() as u64) as usize;
            if self.stones[i].is_none() {
                self.stones[i] = Some(color);
                color = color.opponent();
                placed += 1;
            }
        }
        self.side_to_move = color;
    }
}

/// A small, good-enough mixing generator (SplitMix64).
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl FeatureSource for GridPosition {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    fn stone(&self, x: usize, y: usize) -> Option<Color> {
        self.stones[y * self.width + x]
    }
    fn side_to_move(&self) -> Color {
        self.side_to_move
    }
    fn rule(&self) -> Rule {
        self.rule
    }
    fn is_forbidden(&self, x: usize, y: usize) -> bool {
        self.forbidden[y * self.width + x]
    }
    fn threats(&self, x: usize, y: usize, color: Color) -> PointThreats {
        self.threats[y * self.width + x][color.index()]
    }
    fn hash(&self) -> u64 {
        let mut h = 0x1234_5678_9ABC_DEF0u64
            ^ (self.side_to_move.index() as u64) << 7
            ^ (self.rule.protocol_code() as u64) << 11;
        for (i, s) in self.stones.iter().enumerate() {
            if let Some(c) = s {
                let mut k = (i as u64) << 1 | c.index() as u64;
                h ^= splitmix64(&mut k);
            }
        }
        h
    }
}
