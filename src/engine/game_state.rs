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
    #[error("TAKEBACK {0}: not the last stone of a position set up without a move order")]
    NotLastStone(Point),
    #[error("the position is {0}x{1}, the game's board {2}x{3}")]
    SizeMismatch(usize, usize, usize, usize),
}

#[derive(Debug, Clone)]
pub struct GameState {
    board: Board,
    /// Continuous-game squares (BOARD field 3): part of the position, replaced by each BOARD.
    blocked: Vec<Point>,
    /// Yixin's `yxblock` points: the GUI's standing order, kept across BOARD/TURN until
    /// `yxblockundo`/`yxblockreset` (Yixin-Board sends them before the position).
    gui_blocked: Vec<Point>,
    /// Whether the board's history alternates colours as moves do (START, BOARD, TURN, our
    /// moves), or holds stones set up in no move order ([`GameState::set_position`]).
    history_is_move_order: bool,
}

impl GameState {
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<GameState, GameError> {
        Ok(GameState {
            board: Board::new(width, height, rule)?,
            blocked: Vec::new(),
            gui_blocked: Vec::new(),
            history_is_move_order: true,
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

    /// The colour that already has a five on the board, if any: the game is over. Moves are
    /// replayed, so a five made earlier counts; a set-up position has only its stones to show.
    pub fn five_owner(&self) -> Option<Color> {
        if !self.history_is_move_order {
            return self.board.stone_in_five().and_then(|p| self.board.get(p));
        }
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
        self.history_is_move_order = true;
    }

    pub fn set_rule(&mut self, rule: Rule) {
        self.board.set_rule(rule);
    }

    fn check_point(&self, p: Point) -> Result<(), PositionError> {
        check_empty(&self.board, p)
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
        self.history_is_move_order = true;
        Ok(())
    }

    /// The file protocol's position: `board` as the sender set it up (stones in its order and
    /// colours; the side to move follows the stone count) and the squares the search must not
    /// play. PLOCHA.DAT has no move order and its '#' squares hide stones, so neither the order
    /// nor the counts are checked; whether a five stands is the sender's to check.
    pub fn set_position(
        &mut self,
        mut board: Board,
        blocked: Vec<Point>,
    ) -> Result<(), PositionError> {
        let (w, h) = (self.board.width(), self.board.height());
        if (board.width(), board.height()) != (w, h) {
            return Err(PositionError::SizeMismatch(
                board.width(),
                board.height(),
                w,
                h,
            ));
        }
        for &p in &blocked {
            check_empty(&board, p)?;
        }
        // The game's rule (INFO) governs every position.
        board.set_rule(self.board.rule());
        self.board = board;
        self.blocked = blocked;
        self.history_is_move_order = false;
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
        if !self.history_is_move_order {
            // No move order to restore the colours from.
            return Err(PositionError::NotLastStone(p));
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

/// Whether `p` is an empty point of `board`.
fn check_empty(board: &Board, p: Point) -> Result<(), PositionError> {
    let (w, h) = (board.width(), board.height());
    if (p.x as usize) >= w || (p.y as usize) >= h {
        return Err(PositionError::OffBoard(p, w, h));
    }
    if board.get(p).is_some() {
        return Err(PositionError::Occupied(p));
    }
    Ok(())
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

    #[test]
    fn a_set_up_position_keeps_its_order_colours_and_counts() {
        // Three black stones against none (a continuous game's '#' squares hide the rest), set
        // up column by column: kept as they are, in that order.
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for q in [p(3, 0), p(3, 1), p(3, 2)] {
            board.place(q, Color::Black).unwrap();
        }
        let mut game = GameState::new(15, 15, Rule::Standard).unwrap();
        game.set_position(board.clone(), vec![p(0, 0)]).unwrap();
        assert_eq!(game.board().history(), board.history());
        assert_eq!(game.board().get(p(3, 2)), Some(Color::Black));
        assert_eq!(game.board().side_to_move(), Color::White);
        assert_eq!(game.board().rule(), Rule::Standard);
        assert_eq!(game.blocked(), vec![p(0, 0)]);
        // Only the stones on the board can show a five: a replay by alternating colours would
        // see one in column 0 here, where the colours alternate down the column.
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for y in 0..5 {
            let (a, b) = if y % 2 == 0 {
                (Color::Black, Color::White)
            } else {
                (Color::White, Color::Black)
            };
            board.place(p(0, y), a).unwrap();
            board.place(p(1, y), b).unwrap();
        }
        game.set_position(board.clone(), Vec::new()).unwrap();
        assert_eq!(game.five_owner(), None);
        game.own_move(p(5, 5)).unwrap();
        assert_eq!(
            game.take_back(p(0, 0)),
            Err(PositionError::NotLastStone(p(0, 0)))
        );
        for x in 5..10 {
            board.place(p(x, 10), Color::Black).unwrap();
        }
        game.set_position(board, Vec::new()).unwrap();
        assert_eq!(game.five_owner(), Some(Color::Black));
        // A BOARD afterwards is a move order again.
        game.set_board(&[(p(7, 7), Field::Opponent)]).unwrap();
        assert_eq!(game.five_owner(), None);
    }

    #[test]
    fn a_set_up_position_must_fit_the_game() {
        let mut game = GameState::new(15, 15, Rule::Freestyle).unwrap();
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        board.place(p(1, 1), Color::White).unwrap();
        let small = Board::new(10, 10, Rule::Freestyle).unwrap();
        assert_eq!(
            game.set_position(small, Vec::new()),
            Err(PositionError::SizeMismatch(10, 10, 15, 15))
        );
        assert_eq!(
            game.set_position(board.clone(), vec![p(1, 1)]),
            Err(PositionError::Occupied(p(1, 1)))
        );
        assert_eq!(
            game.set_position(board, vec![p(15, 1)]),
            Err(PositionError::OffBoard(p(15, 1), 15, 15))
        );
        assert_eq!(game.board().stone_count(), 0);
    }
}
