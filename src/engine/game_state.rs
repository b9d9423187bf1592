//! The game as the controller sees it: the board, whose stones are ours, and the points the
//! search must avoid. Every change is checked first, so bad input leaves the state as it was.
use super::request::Field;
use crate::game::{Board, Color, GameError, MoveOutcome, Point, Rule};
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum PositionError {
    #[error("{0}")]
    Game(#[from] GameError),
    #[error("{0} is outside the {1}x{2} board")]
    OffBoard(Point, usize, usize),
    #[error("{0} is already occupied")]
    Occupied(Point),
    #[error("impossible stone counts: {own} own and {opponent} opponent stones (the side to move must be us)")]
    StoneCounts { own: usize, opponent: usize },
    #[error("the position already has a five ({0} completes it)")]
    AlreadyWon(Point),
    #[error("{0} is listed twice")]
    Duplicate(Point),
    #[error("TAKEBACK {0}: there is no stone there")]
    NothingToTakeBack(Point),
    #[error(
        "TAKEBACK {0}: not the last move, and removing it would leave impossible stone counts"
    )]
    NotLastMove(Point),
}

#[derive(Debug, Clone)]
pub struct GameState {
    board: Board,
    /// Continuous-game squares (BOARD field 3): part of the position, replaced by each BOARD.
    blocked: Vec<Point>,
    /// Yixin's `yxblock` points: the GUI's standing order, kept across BOARD/TURN until
    /// `yxblockundo`/`yxblockreset` (Yixin-Board sends them before the position).
    gui_blocked: Vec<Point>,
}

impl GameState {
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<GameState, GameError> {
        Ok(GameState {
            board: Board::new(width, height, rule)?,
            blocked: Vec::new(),
            gui_blocked: Vec::new(),
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every point the search must not play or suggest: the position's blocked squares and the
    /// GUI's `yxblock` points.
    pub fn blocked(&self) -> Vec<Point> {
        let mut all = self.blocked.clone();
        all.extend(
            self.gui_blocked
                .iter()
                .filter(|p| !self.blocked.contains(p)),
        );
        all
    }

    /// The colour that already has a five on the board, if any: the game is over.
    pub fn five_owner(&self) -> Option<Color> {
        let mut replay = Board::new(self.board.width(), self.board.height(), self.board.rule())
            .expect("the current size is valid");
        for &p in self.board.history() {
            if let Ok(MoveOutcome::Win(colour)) = replay.play(p) {
                return Some(colour);
            }
        }
        None
    }

    pub fn restart(&mut self) {
        let fresh = Board::new(self.board.width(), self.board.height(), self.board.rule())
            .expect("the current size is valid");
        self.board = fresh;
        self.blocked.clear();
        self.gui_blocked.clear();
    }

    pub fn set_rule(&mut self, rule: Rule) {
        self.board.set_rule(rule);
    }

    fn check_point(&self, p: Point) -> Result<(), PositionError> {
        let (w, h) = (self.board.width(), self.board.height());
        if (p.x as usize) >= w || (p.y as usize) >= h {
            return Err(PositionError::OffBoard(p, w, h));
        }
        if self.board.get(p).is_some() {
            return Err(PositionError::Occupied(p));
        }
        Ok(())
    }

    /// TURN: the opponent played `p`.
    pub fn opponent_move(&mut self, p: Point) -> Result<(), PositionError> {
        self.check_point(p)?;
        self.board.play(p)?;
        self.blocked.retain(|&b| b != p);
        Ok(())
    }

    /// Our own move (after a search, or PLAY).
    pub fn own_move(&mut self, p: Point) -> Result<(), PositionError> {
        self.check_point(p)?;
        self.board.play(p)?;
        self.blocked.retain(|&b| b != p);
        Ok(())
    }

    /// BOARD: a whole new position, field 1 = ours, 2 = the opponent's, 3 = blocked (continuous
    /// game). We are the side to move, so our colour follows from the counts. Stones of each
    /// colour keep the order they came in, which is the move order when the manager sends it so
    /// (renju); for the other rules the order does not matter.
    pub fn set_board(&mut self, stones: &[(Point, Field)]) -> Result<(), PositionError> {
        let (w, h) = (self.board.width(), self.board.height());
        let mut own = Vec::new();
        let mut opponent = Vec::new();
        let mut blocked = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &(p, field) in stones {
            if (p.x as usize) >= w || (p.y as usize) >= h {
                return Err(PositionError::OffBoard(p, w, h));
            }
            if !seen.insert(p) {
                return Err(PositionError::Duplicate(p));
            }
            match field {
                Field::Own => own.push(p),
                Field::Opponent => opponent.push(p),
                Field::Winning => blocked.push(p),
            }
        }
        let (blacks, whites) = if own.len() == opponent.len() {
            (&own, &opponent)
        } else if opponent.len() == own.len() + 1 {
            (&opponent, &own)
        } else {
            return Err(PositionError::StoneCounts {
                own: own.len(),
                opponent: opponent.len(),
            });
        };
        let mut board = Board::new(w, h, self.board.rule())?;
        for i in 0..blacks.len().max(whites.len()) {
            for (list, colour) in [(blacks, Color::Black), (whites, Color::White)] {
                if let Some(&p) = list.get(i) {
                    debug_assert_eq!(board.side_to_move(), colour);
                    match board.play(p)? {
                        MoveOutcome::Win(_) => return Err(PositionError::AlreadyWon(p)),
                        MoveOutcome::ForbiddenLoss => {
                            // A GUI may set up any position; the forbidden stone stays, and the
                            // game goes on from there.
                            log::warn!("BOARD: black stone {p} stands on a forbidden point");
                        }
                        MoveOutcome::Ongoing | MoveOutcome::Draw => {}
                    }
                }
            }
        }
        self.board = board;
        self.blocked = blocked;
        Ok(())
    }

    /// TAKEBACK x,y: removes that stone. The last move is simply undone; an older stone (a GUI's
    /// BOARD order need not be the move order) is removed by replaying the rest.
    pub fn take_back(&mut self, p: Point) -> Result<(), PositionError> {
        if (p.x as usize) >= self.board.width() || (p.y as usize) >= self.board.height() {
            return Err(PositionError::OffBoard(
                p,
                self.board.width(),
                self.board.height(),
            ));
        }
        if self.board.get(p).is_none() {
            return Err(PositionError::NothingToTakeBack(p));
        }
        if self.board.last_move() == Some(p) {
            self.board.undo();
            return Ok(());
        }
        // Not the last move (a BOARD's order need not be the move order): drop the stone from its
        // colour's list and re-interleave, which is valid while the counts stay possible.
        let history: Vec<Point> = self.board.history().to_vec();
        let mut blacks: Vec<Point> = history.iter().step_by(2).copied().collect();
        let mut whites: Vec<Point> = history.iter().skip(1).step_by(2).copied().collect();
        blacks.retain(|&q| q != p);
        whites.retain(|&q| q != p);
        if !(blacks.len() == whites.len() || blacks.len() == whites.len() + 1) {
            return Err(PositionError::NotLastMove(p));
        }
        let mut board = Board::new(self.board.width(), self.board.height(), self.board.rule())?;
        for i in 0..blacks.len().max(whites.len()) {
            for list in [&blacks, &whites] {
                if let Some(&q) = list.get(i) {
                    board.play(q)?;
                }
            }
        }
        self.board = board;
        Ok(())
    }

    /// `yxblock`: the search must not play these points.
    pub fn block(&mut self, points: &[Point]) {
        for &p in points {
            if !self.gui_blocked.contains(&p) {
                self.gui_blocked.push(p);
            }
        }
    }

    pub fn unblock(&mut self, points: &[Point]) {
        self.gui_blocked.retain(|b| !points.contains(b));
    }

    pub fn unblock_all(&mut self) {
        self.gui_blocked.clear();
    }

    /// The forbidden points of the side to move: black's in renju, none when white is to move
    /// (only the player to move can play a forbidden stone).
    pub fn forbidden_points(&self) -> Vec<Point> {
        if self.board.side_to_move() == Color::Black {
            self.board.forbidden_points()
        } else {
            Vec::new()
        }
    }

    /// Whether the side to move has any point it may play.
    pub fn has_legal_move(&self) -> bool {
        self.any_legal_move().is_some()
    }

    /// Some legal move for the side to move, avoiding blocked points when it can: the last
    /// resort if a search returned nothing. When black (renju) has only forbidden points left,
    /// one of them, since a move must be made.
    pub fn any_legal_move(&self) -> Option<Point> {
        let legal = self.board.legal_moves();
        let blocked = self.blocked();
        legal
            .iter()
            .copied()
            .find(|p| !blocked.contains(p))
            .or_else(|| legal.first().copied())
            .or_else(|| self.first_empty())
    }

    fn first_empty(&self) -> Option<Point> {
        (0..self.board.height()).find_map(|y| {
            (0..self.board.width())
                .map(|x| Point::new(x as u8, y as u8))
                .find(|&p| self.board.get(p).is_none())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn yxblock_outlives_a_new_board_but_field_3_does_not() {
        let mut game = GameState::new(15, 15, Rule::Freestyle).unwrap();
        game.block(&[p(7, 7)]);
        let pair = [(p(1, 1), Field::Own), (p(5, 5), Field::Opponent)];
        game.set_board(&[pair[0], pair[1], (p(2, 2), Field::Winning)])
            .unwrap();
        assert_eq!(game.blocked(), vec![p(2, 2), p(7, 7)]);
        game.set_board(&pair).unwrap();
        assert_eq!(game.blocked(), vec![p(7, 7)]);
        game.unblock(&[p(7, 7)]);
        assert!(game.blocked().is_empty());
        game.block(&[p(3, 3)]);
        game.unblock_all();
        assert!(game.blocked().is_empty());
    }

    #[test]
    fn white_to_move_has_no_forbidden_points() {
        // Black to move: the double-three at 7,7 is forbidden.
        let black_stones = [p(5, 7), p(6, 7), p(7, 5), p(7, 6)];
        let white_stones = [p(0, 0), p(14, 0), p(0, 14), p(14, 14)];
        let side = |own: &[Point], opponent: &[Point]| -> Vec<(Point, Field)> {
            own.iter()
                .map(|&q| (q, Field::Own))
                .chain(opponent.iter().map(|&q| (q, Field::Opponent)))
                .collect()
        };
        let mut game = GameState::new(15, 15, Rule::Renju).unwrap();
        game.set_board(&side(&black_stones, &white_stones)).unwrap();
        assert_eq!(game.board().side_to_move(), Color::Black);
        assert_eq!(game.forbidden_points(), vec![p(7, 7)]);
        // One more black stone: white to move, and nothing is forbidden for white.
        let blacks = [&black_stones[..], &[p(10, 10)]].concat();
        game.set_board(&side(&white_stones, &blacks)).unwrap();
        assert_eq!(game.board().side_to_move(), Color::White);
        assert!(game.board().is_forbidden(p(7, 7)));
        assert!(game.forbidden_points().is_empty());
    }

    #[test]
    fn a_five_on_the_board_ends_the_game() {
        let mut game = GameState::new(15, 15, Rule::Freestyle).unwrap();
        for x in 0..4 {
            game.own_move(p(x, 0)).unwrap();
            game.opponent_move(p(x, 5)).unwrap();
        }
        assert_eq!(game.five_owner(), None);
        game.own_move(p(10, 10)).unwrap();
        game.opponent_move(p(4, 5)).unwrap();
        assert_eq!(game.five_owner(), Some(Color::White));
        game.take_back(p(4, 5)).unwrap();
        assert_eq!(game.five_owner(), None);
    }
}
