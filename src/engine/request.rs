//! The engine's typed requests: what a manager or GUI can ask of the brain, in every dialect we
//! speak (Gomocup, AlphaGomoku's extended Gomocup, Yixin-Board), and the legacy file protocol's
//! position. `protocol`'s parser produces them (re-exported there as `protocol::Command`...), as
//! does `protocol::file_brain`; the controller consumes them. Points are the engine's (column,
//! row) once `protocol::CoordMap` has mapped them; the engine checks them against the board.
use crate::game::{Board, Point};

/// The third number of a `BOARD` line (Gomocup: 1 own stone, 2 opponent's, 3 winning line /
/// forbidden point in a continuous game).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Field {
    Own,
    Opponent,
    Winning,
}

impl Field {
    /// 1 → own, 2 → opponent, 3 → winning; anything else is `None`.
    pub fn from_code(code: i64) -> Option<Field> {
        match code {
            1 => Some(Field::Own),
            2 => Some(Field::Opponent),
            3 => Some(Field::Winning),
            _ => None,
        }
    }

    pub fn code(self) -> u8 {
        match self {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Winning => 3,
        }
    }
}

/// One `INFO key value` line, typed. Numeric values are 64-bit and kept raw: the engine decides
/// what a negative or zero limit means (the dialects differ, see the module docs).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum InfoKey {
    /// `timeout_turn`: ms per move, 0 = as fast as possible.
    TimeoutTurn(i64),
    /// `timeout_match`: ms per match, 0 = no limit.
    TimeoutMatch(i64),
    /// `time_left`: ms left in the match; may be negative.
    TimeLeft(i64),
    /// `max_memory`: bytes, 0 = no limit.
    MaxMemory(i64),
    /// `game_type`: 0 human, 1 brain, 2 tournament, 3 network tournament.
    GameType(i64),
    /// `rule`: the raw code; map it with `Rule::from_protocol` (2 is renju for Yixin).
    Rule(i64),
    /// `evaluate`: Gomocup's mouse position (one point) or extended 3.3.1's path (0..n points).
    Evaluate(Vec<Point>),
    /// `folder`: the rest of the line, inner spaces kept.
    Folder(String),
    /// `analysis_mode`: 1 = answer with SUGGEST instead of playing.
    AnalysisMode(i64),
    /// `max_depth` (extended and Yixin).
    MaxDepth(i64),
    /// `max_node` (extended and Yixin).
    MaxNode(i64),
    /// `time_increment`: Fischer increment in ms.
    TimeIncrement(i64),
    /// `style`: 0 defensive, 1 classic, 2 offensive.
    Style(i64),
    /// `auto_pondering`: 0/1.
    AutoPondering(i64),
    /// `protocol_lag`: ms of expected I/O overhead.
    ProtocolLag(i64),
    /// `thread_num` (extended and Yixin).
    ThreadNum(i64),
    /// Yixin `caution_factor`.
    CautionFactor(i64),
    /// Yixin `hash_size`.
    HashSize(i64),
    /// Yixin `pondering`: 0/1.
    Pondering(i64),
    /// Yixin `vcthread`.
    VcThread(i64),
    /// Yixin `show_detail`: how much analysis output the GUI wants.
    ShowDetail(i64),
    /// Yixin `usedatabase`.
    UseDatabase(i64),
    /// Any other key, lower-cased, with the rest of the line (trimmed). Gomocup says: ignore.
    Unknown(String, String),
}

/// Every command of every dialect. Board blocks (`BOARD`, `yxboard`, `SWAP2BOARD`, ...) arrive
/// whole: the parser collects their lines up to `DONE`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `START n`, or Yixin's `START n n` (a square `START w h`).
    Start(usize),
    /// `RECTSTART w,h`, or Yixin's `START w h` with w ≠ h.
    RectStart(usize, usize),
    Restart,
    /// `TURN x,y`: the opponent played here; answer with a move.
    Turn(Point),
    /// `BEGIN`: play the first move.
    Begin,
    /// `BOARD` (search = true, answer with a move) or Yixin `yxboard` (search = false: set only).
    /// Stones in the order the manager sent them.
    Board {
        stones: Vec<(Point, Field)>,
        search: bool,
    },
    /// The legacy file protocol's position (`protocol::file_brain`; no line produces it): the
    /// board as set up from PLOCHA.DAT, stones in the file's order with the colours the file
    /// brain gave them, and its '#' squares. BOARD cannot say this: the file has no move order,
    /// and '#' squares hide stones, so the counts may differ by more than one. Answered with a
    /// move, as BOARD.
    Position {
        board: Box<Board>,
        blocked: Vec<Point>,
    },
    Info(InfoKey),
    End,
    About,
    Takeback(Point),
    /// Extended: the GUI imposes this move after a SUGGEST.
    Play(Point),
    /// Extended: ponder for so many ms; `None` (or a negative value) = until STOP.
    Ponder(Option<i64>),
    /// `STOP` or Yixin `yxstop`.
    Stop,
    /// `SWAP2BOARD` with 0, 3 or 5 stones (the engine checks the count).
    Swap2Board(Vec<Point>),
    /// `SWAPBOARD` with 0 or 3 stones.
    SwapBoard(Vec<Point>),
    /// Extended `SHOWFORBID` carries a board (`Some`); Yixin `yxshowforbid` uses the current
    /// position (`None`). The answer format differs too (see `format`).
    ShowForbid(Option<Vec<(Point, Field)>>),
    /// Extended `BALANCE n` + board block: find n moves that balance the position.
    Balance {
        n: u32,
        stones: Vec<(Point, Field)>,
    },
    /// `CLEARHASH` or Yixin `yxhashclear`.
    ClearHash,
    ProtocolVersion,
    /// Yixin `yxshowinfo`: answer with MAX_THREAD_NUM / MAX_HASH_SIZE messages.
    YxShowInfo,
    /// Yixin `yxnbest n`: search and report the n best moves.
    YxNbest(u32),
    /// Yixin `yxbalanceone b`: one balancing move; b is a bias (may be 0 or negative).
    YxBalanceOne(i64),
    /// Yixin `yxbalancetwo b`: two balancing moves; b is a bias.
    YxBalanceTwo(i64),
    /// Yixin `yxblock` + `x,y` lines + `done`: moves the search must not play (added).
    YxBlock(Vec<Point>),
    /// Yixin `yxblockundo` + lines: remove these from the blocked set.
    YxBlockUndo(Vec<Point>),
    /// Yixin `yxblockreset`: clear the blocked set.
    YxBlockReset,
    /// Yixin `yxswap2step1` .. `yxswap2step3`.
    YxSwap2Step(u8),
    /// Yixin `yxsoosorvstep1` .. `yxsoosorvstep6`.
    YxSoosorvStep(u8),
    /// Yixin `yxsearchdefend`: search the best defence.
    YxSearchDefend,
    /// Yixin `yxdraw`: the GUI offers a draw.
    YxDraw,
    /// Yixin `yxresign`: ask whether the engine resigns.
    YxResign,
}

/// One input line as the controller takes it, in the order the lines arrived.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Request {
    Command(Command),
    /// A line the brain does not take (an unknown word, or a word of a dialect it is not
    /// speaking): answered `UNKNOWN`, echoing the line.
    Unknown(String),
    /// A line it cannot take as written: answered `ERROR` with the reason.
    Malformed(String),
}

impl Command {
    /// The protocol word that introduced this command, in upper case (for log lines and errors).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Start(_) => "START",
            Command::RectStart(..) => "RECTSTART",
            Command::Restart => "RESTART",
            Command::Turn(_) => "TURN",
            Command::Begin => "BEGIN",
            Command::Board { search: true, .. } => "BOARD",
            Command::Board { search: false, .. } => "YXBOARD",
            Command::Position { .. } => "POSITION",
            Command::Info(_) => "INFO",
            Command::End => "END",
            Command::About => "ABOUT",
            Command::Takeback(_) => "TAKEBACK",
            Command::Play(_) => "PLAY",
            Command::Ponder(_) => "PONDER",
            Command::Stop => "STOP",
            Command::Swap2Board(_) => "SWAP2BOARD",
            Command::SwapBoard(_) => "SWAPBOARD",
            Command::ShowForbid(Some(_)) => "SHOWFORBID",
            Command::ShowForbid(None) => "YXSHOWFORBID",
            Command::Balance { .. } => "BALANCE",
            Command::ClearHash => "CLEARHASH",
            Command::ProtocolVersion => "PROTOCOLVERSION",
            Command::YxShowInfo => "YXSHOWINFO",
            Command::YxNbest(_) => "YXNBEST",
            Command::YxBalanceOne(_) => "YXBALANCEONE",
            Command::YxBalanceTwo(_) => "YXBALANCETWO",
            Command::YxBlock(_) => "YXBLOCK",
            Command::YxBlockUndo(_) => "YXBLOCKUNDO",
            Command::YxBlockReset => "YXBLOCKRESET",
            Command::YxSwap2Step(_) => "YXSWAP2STEP",
            Command::YxSoosorvStep(_) => "YXSOOSORVSTEP",
            Command::YxSearchDefend => "YXSEARCHDEFEND",
            Command::YxDraw => "YXDRAW",
            Command::YxResign => "YXRESIGN",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_codes_round_trip() {
        for f in [Field::Own, Field::Opponent, Field::Winning] {
            assert_eq!(Field::from_code(f.code() as i64), Some(f));
        }
        assert_eq!(Field::from_code(0), None);
        assert_eq!(Field::from_code(4), None);
        assert_eq!(Field::from_code(-1), None);
    }

    #[test]
    fn names_follow_the_dialect_word() {
        let board = Command::Board {
            stones: vec![],
            search: false,
        };
        assert_eq!(board.name(), "YXBOARD");
        assert_eq!(Command::ShowForbid(Some(vec![])).name(), "SHOWFORBID");
        assert_eq!(Command::ShowForbid(None).name(), "YXSHOWFORBID");
    }
}
