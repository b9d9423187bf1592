//! The pattern-codebook network: a policy-value net fast enough for every leaf of a CPU search.
//!
//! Each cell looks at its four lines: its own state and four cells on each side make a key
//! ([`codes`]) that picks a learned row of `dim` numbers from one codebook shared by the four
//! directions. A cell's features are
//!
//! ```text
//! a = variant[rule, side to move] + Σ_dir codebook[key_dir] (+ forbidden, on black's renju forbidden points)
//! h = max(a, LEAK · a)
//! ```
//!
//! The value pools the board, `pooled = (Σ_cells h − cells · h_empty) / POOL_CELLS` (`h_empty`:
//! the features of a cell with nothing around it, so extra empty board changes nothing), then a
//! small MLP gives win, draw and loss logits: `g = relu(value1 · pooled + b1)`,
//! `wdl = value2 · g + b2`. A net whose sidecar says `value_max = true` also reads each
//! feature's largest value over the board's cells, its strongest point, which a mean dilutes:
//! `g = relu(value1 · pooled + value_max · max_cells h + b1)`. The policy logit of a cell is
//! `(policy + context · g) · h + b` (version 2): the MLP's hidden layer, a summary of the whole board, tunes which cell features
//! matter, so one line pattern can weigh more when the board calls for defence than when it
//! calls for attack. Version 1 files have no `context` (the policy is `policy · h + b`).
//! Version 3 adds to `a` a learned row per empty cell for the pair of combined threats a stone
//! there would make for each side (a four-three, a double three: [`threats`]), which a sum of
//! lines cannot tell apart from its parts. The net is invariant to the board's rotations and
//! reflections by construction (shared codebook, lines read both ways), so training needs no
//! augmentation.
//!
//! A stone changes the keys of the cells within four steps on its four lines only, so
//! [`PatternState`] keeps each cell's features and the pooled sum and updates the cells a move
//! touched ([`view`]). Training runs the same formula in libtorch (`nn::pattern_model`) on
//! inputs from [`inputs`]; weights are a network file of kind `pattern` ([`weights`]).
pub mod codes;
pub mod inputs;
pub mod threats;
pub mod view;
pub mod weights;

pub use view::PatternState;
pub use weights::PatternWeights;

use crate::game::{Color, Rule};

/// Version of the formula above, stored in the sidecar as `version`: 1 without the policy's
/// board context, 2 with it, 3 with the threat rows too. The engine reads all three; new nets
/// are version 3.
pub const PATTERN_VERSION: u32 = 3;
/// Version of the codebook keys and the training inputs, stored as `feature_version`.
pub const PATTERN_FEATURE_VERSION: u32 = 1;

/// Whether a net of formula `version` has the policy's board context.
pub fn has_policy_context(version: u32) -> bool {
    version >= 2
}
/// Whether a net of formula `version` has the threat rows.
pub fn has_threat_rows(version: u32) -> bool {
    version >= 3
}
/// Input planes of a training batch (see [`inputs`]): the threat plane is always written.
pub const INPUT_PLANES: usize = 8;

/// The planes a net of formula `version` reads, stored in its sidecar as `input_planes`
/// (versions 1 and 2 leave the threat plane out).
pub fn input_planes(version: u32) -> usize {
    if has_threat_rows(version) {
        INPUT_PLANES
    } else {
        INPUT_PLANES - 1
    }
}
/// Widest feature vector a sidecar may ask for.
pub const MAX_DIM: usize = 256;
/// Hidden units of the value MLP.
pub const VALUE_HIDDEN: usize = 32;
/// Slope of the activation below zero.
pub const LEAK: f32 = 0.125;
/// The pooled sum is divided by this (a 15x15 board's cells), whatever the board's size.
pub const POOL_CELLS: f32 = 225.0;
/// Rule and side-to-move combinations, each with its own learned bias.
pub const VARIANT_COUNT: usize = 6;

/// The bias row of a position: the rule, and for renju also who is to move (black has
/// forbidden points, white has not).
pub fn variant(rule: Rule, to_move: Color) -> usize {
    match (rule, to_move) {
        (Rule::Freestyle, _) => 0,
        (Rule::Standard, _) => 1,
        (Rule::Caro, _) => 2,
        (Rule::CaroExact, _) => 3,
        (Rule::Renju, Color::Black) => 4,
        (Rule::Renju, Color::White) => 5,
    }
}

/// The activation.
#[inline(always)]
pub fn leaky(x: f32) -> f32 {
    x.max(LEAK * x)
}
