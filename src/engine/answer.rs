//! The engine's typed answers and reports, and the sink they go out through.
//!
//! The controller says *what* it answers (a move, an error, the search's summary…) with points in
//! its own (column, row); whoever implements [`AnswerSink`] — `protocol::AnswerWriter` for the
//! brain — decides how it reads on the wire: coordinates, spelling, which lines are shown.
use crate::game::Point;
use crate::search::{SearchInfo, ThinkResult};

/// One answer or report of the engine, in the order it must reach the manager.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A command was carried out (START, RECTSTART, RESTART, TAKEBACK).
    Ok,
    /// A command could not be carried out; the text says why.
    Error(String),
    /// A line nobody understood (or of another dialect), echoed back.
    Unknown(String),
    /// Our move, played on our board.
    Move(Point),
    /// Analysis mode: the move we suggest, not played.
    Suggest(Point),
    /// An opening duty's stones, in order (SWAP2BOARD, SWAPBOARD, BALANCE, yxbalance*).
    Stones(Vec<Point>),
    /// An opening duty's decision to take the other colour.
    Swap,
    /// The forbidden points of the side to move: of the request's own board
    /// (`on_request_board`, extended SHOWFORBID) or of the game's position (Yixin's
    /// `yxshowforbid`).
    Forbidden {
        points: Vec<Point>,
        on_request_board: bool,
    },
    /// Who we are (ABOUT).
    About,
    /// Which version of the extended protocol we speak (PROTOCOLVERSION).
    ProtocolVersion,
    /// What the machine offers (Yixin's `yxshowinfo`): threads, and the largest hash size as a
    /// power of two of KiB.
    Capacity {
        max_threads: u32,
        max_hash_exponent: u64,
    },
    /// A finished search's summary, before its move.
    SearchSummary(SearchInfo),
    /// `INFO evaluate`: what the kept tree says about a position, or nothing when it does not
    /// hold it.
    Evaluation(Option<SearchInfo>),
    /// The `count` best root moves of a search with their lines (Yixin's `yxnbest`, and the live
    /// output while searching).
    BestLines { result: ThinkResult, count: usize },
    /// Live output: the best move changed while searching.
    RealtimeBest(Point),
}

/// Where the engine's answers go. Shared with the search threads (live output), so it must be
/// callable from any thread; answers from one thread arrive in order.
pub trait AnswerSink: Send + Sync {
    fn send(&self, answer: Answer);
    /// END: nothing more may be written after this.
    fn close(&self);
}
