//! [`Wdl`]: the outcome estimate an evaluator gives a position and the tree search backs up.

/// Win/draw/loss probabilities for one side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wdl {
    pub win: f32,
    pub draw: f32,
    pub loss: f32,
}

impl Wdl {
    pub const WIN: Wdl = Wdl::new(1.0, 0.0, 0.0);
    pub const DRAW: Wdl = Wdl::new(0.0, 1.0, 0.0);
    pub const LOSS: Wdl = Wdl::new(0.0, 0.0, 1.0);

    pub const fn new(win: f32, draw: f32, loss: f32) -> Wdl {
        Wdl { win, draw, loss }
    }

    /// The same outcome seen by the other player.
    pub fn flip(self) -> Wdl {
        Wdl::new(self.loss, self.draw, self.win)
    }

    /// Expected score when a draw is worth `draw_weight` (see `Style::draw_weight`).
    pub fn score(self, draw_weight: f32) -> f32 {
        self.win + draw_weight * self.draw
    }
}
