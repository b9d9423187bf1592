//! Coordinate mapping between a GUI and the engine.
//!
//! Gomocup points are `x,y` = column, row. Yixin-Board writes (row, column): the same numbers
//! transposed. Engines offer a switch for it; `CoordMap { transpose: true }` is that switch.
//! Apply `to_engine` (or `command`) to everything parsed and `to_protocol` to every point
//! written back, and the engine itself only ever sees (column, row).
//!
//! Board sizes are not swapped: `START w h` / `RECTSTART w,h` give width (columns) first in
//! every dialect, which is what the engine's x axis spans once points are transposed.
use super::{Command, InfoKey};
use crate::game::Point;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CoordMap {
    /// Whether the GUI writes (row, column) instead of (column, row).
    pub transpose: bool,
}

impl CoordMap {
    /// The identity mapping (Gomocup, extended Gomocup).
    pub const GOMOCUP: CoordMap = CoordMap { transpose: false };
    /// Yixin-Board's transposed mapping.
    pub const TRANSPOSED: CoordMap = CoordMap { transpose: true };

    /// A point as the GUI wrote it → the engine's (column, row).
    pub fn to_engine(self, p: Point) -> Point {
        self.flip(p)
    }

    /// The engine's (column, row) → the point as the GUI expects it.
    pub fn to_protocol(self, p: Point) -> Point {
        self.flip(p)
    }

    /// Transposing is its own inverse; both directions are kept as names so call sites say
    /// which way they go.
    fn flip(self, p: Point) -> Point {
        if self.transpose {
            Point::new(p.y, p.x)
        } else {
            p
        }
    }

    /// Every point of every protocol-coordinate list, mapped to the engine's.
    pub fn to_engine_all(self, points: &[Point]) -> Vec<Point> {
        points.iter().map(|&p| self.to_engine(p)).collect()
    }

    /// Every engine point mapped back to the GUI's coordinates.
    pub fn to_protocol_all(self, points: &[Point]) -> Vec<Point> {
        points.iter().map(|&p| self.to_protocol(p)).collect()
    }

    /// A parsed command with all its points mapped to engine coordinates.
    pub fn command(self, cmd: Command) -> Command {
        if !self.transpose {
            return cmd;
        }
        let one = |p: Point| self.to_engine(p);
        let list = |ps: Vec<Point>| ps.into_iter().map(one).collect::<Vec<_>>();
        match cmd {
            Command::Turn(p) => Command::Turn(one(p)),
            Command::Takeback(p) => Command::Takeback(one(p)),
            Command::Play(p) => Command::Play(one(p)),
            Command::Board { stones, search } => Command::Board {
                stones: stones.into_iter().map(|(p, f)| (one(p), f)).collect(),
                search,
            },
            Command::ShowForbid(stones) => Command::ShowForbid(
                stones.map(|s| s.into_iter().map(|(p, f)| (one(p), f)).collect()),
            ),
            Command::Balance { n, stones } => Command::Balance {
                n,
                stones: stones.into_iter().map(|(p, f)| (one(p), f)).collect(),
            },
            Command::Swap2Board(ps) => Command::Swap2Board(list(ps)),
            Command::SwapBoard(ps) => Command::SwapBoard(list(ps)),
            Command::YxBlock(ps) => Command::YxBlock(list(ps)),
            Command::YxBlockUndo(ps) => Command::YxBlockUndo(list(ps)),
            Command::Info(InfoKey::Evaluate(ps)) => Command::Info(InfoKey::Evaluate(list(ps))),
            // The file brain's own request: built in engine points, never parsed.
            other @ Command::Position { .. } => other,
            // Everything else carries no point. Listed in full so that a new command with a
            // point cannot slip past unmapped.
            other @ (Command::Start(_)
            | Command::RectStart(..)
            | Command::Restart
            | Command::Begin
            | Command::Info(_)
            | Command::End
            | Command::About
            | Command::Ponder(_)
            | Command::Stop
            | Command::ClearHash
            | Command::ProtocolVersion
            | Command::YxShowInfo
            | Command::YxNbest(_)
            | Command::YxBalanceOne(_)
            | Command::YxBalanceTwo(_)
            | Command::YxBlockReset
            | Command::YxSwap2Step(_)
            | Command::YxSoosorvStep(_)
            | Command::YxSearchDefend
            | Command::YxDraw
            | Command::YxResign) => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Field;

    fn p(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn identity_leaves_points_alone() {
        let m = CoordMap::GOMOCUP;
        assert_eq!(m.to_engine(p(3, 9)), p(3, 9));
        assert_eq!(m.to_protocol(p(3, 9)), p(3, 9));
        let cmd = Command::Turn(p(1, 2));
        assert_eq!(m.command(cmd.clone()), cmd);
    }

    #[test]
    fn transpose_swaps_and_round_trips() {
        let m = CoordMap::TRANSPOSED;
        assert_eq!(m.to_engine(p(3, 9)), p(9, 3));
        for x in [0u8, 5, 31] {
            for y in [0u8, 7, 19] {
                assert_eq!(m.to_protocol(m.to_engine(p(x, y))), p(x, y));
            }
        }
        assert_eq!(m.to_engine_all(&[p(1, 2), p(3, 4)]), vec![p(2, 1), p(4, 3)]);
        assert_eq!(m.to_protocol_all(&[p(2, 1)]), vec![p(1, 2)]);
    }

    #[test]
    fn transpose_maps_every_point_of_a_command() {
        let m = CoordMap::TRANSPOSED;
        assert_eq!(m.command(Command::Turn(p(1, 2))), Command::Turn(p(2, 1)));
        assert_eq!(m.command(Command::Play(p(0, 5))), Command::Play(p(5, 0)));
        assert_eq!(
            m.command(Command::Takeback(p(4, 6))),
            Command::Takeback(p(6, 4))
        );
        assert_eq!(
            m.command(Command::Board {
                stones: vec![(p(1, 2), Field::Own), (p(3, 4), Field::Opponent)],
                search: false
            }),
            Command::Board {
                stones: vec![(p(2, 1), Field::Own), (p(4, 3), Field::Opponent)],
                search: false
            }
        );
        assert_eq!(
            m.command(Command::ShowForbid(Some(vec![(p(0, 1), Field::Own)]))),
            Command::ShowForbid(Some(vec![(p(1, 0), Field::Own)]))
        );
        assert_eq!(
            m.command(Command::Balance {
                n: 2,
                stones: vec![(p(7, 8), Field::Own)]
            }),
            Command::Balance {
                n: 2,
                stones: vec![(p(8, 7), Field::Own)]
            }
        );
        assert_eq!(
            m.command(Command::Swap2Board(vec![p(1, 0), p(2, 0)])),
            Command::Swap2Board(vec![p(0, 1), p(0, 2)])
        );
        assert_eq!(
            m.command(Command::SwapBoard(vec![p(1, 0)])),
            Command::SwapBoard(vec![p(0, 1)])
        );
        assert_eq!(
            m.command(Command::YxBlock(vec![p(5, 6)])),
            Command::YxBlock(vec![p(6, 5)])
        );
        assert_eq!(
            m.command(Command::YxBlockUndo(vec![p(5, 6)])),
            Command::YxBlockUndo(vec![p(6, 5)])
        );
        assert_eq!(
            m.command(Command::Info(InfoKey::Evaluate(vec![p(1, 3)]))),
            Command::Info(InfoKey::Evaluate(vec![p(3, 1)]))
        );
        // Sizes and point-free commands pass through.
        assert_eq!(
            m.command(Command::RectStart(20, 15)),
            Command::RectStart(20, 15)
        );
        assert_eq!(
            m.command(Command::ShowForbid(None)),
            Command::ShowForbid(None)
        );
    }
}
