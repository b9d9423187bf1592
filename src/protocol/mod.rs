//! Everything about the wire: reading lines, the dialects, coordinates, parsing requests and
//! writing every answer's text. The engine gets typed requests (`engine::Request`, with points
//! already in its (column, row)) and gives back typed `engine::Answer`s; nothing here decides a
//! move, and the engine writes no text.
//!
//! Files: `reader` ([`serve`]: the reader thread and the one call that runs the brain),
//! `parser` (the stateful line parser → `Command`s), `dialect` (which words and INFO keys each
//! mode takes, and its coordinates), `coords` (Yixin-Board's transposed points), `writer`
//! (`engine::Answer` → lines on the `Output`), `format` (the answer lines), `report` (the search
//! summary MESSAGE and the INFO PV blocks), `output` (the one writer of stdout), `emit` (tests
//! only: the manager side: commands → lines), `dat_files` (the old file protocol's contents),
//! `file_brain` (its one-move run, the `hoshi` binary: the files as requests to the engine's
//! controller). The request types themselves (`Command`, `InfoKey`, `Field`) are the engine's,
//! re-exported here.
//!
//! Typical use, as the reader does it:
//! ```
//! use hoshi::protocol::{CoordMap, Command, Parsed, Parser};
//! let mut parser = Parser::new();
//! let map = CoordMap::GOMOCUP;
//! for line in ["START 15", "BOARD", "7,7,1", "DONE", "NONSENSE"] {
//!     match parser.feed(line) {
//!         Some(Parsed::Command(cmd)) => {
//!             let _cmd: Command = map.command(cmd); // hand to the engine
//!         }
//!         Some(other) => {
//!             // Error / Unknown have an answer line; Empty has none.
//!             let _reply: Option<String> = other.answer();
//!         }
//!         None => {} // inside a block
//!     }
//! }
//! ```
//!
//! # Dialects and where they conflict
//! The parser accepts every spelling of every dialect at once where they do not conflict;
//! where they do, it keeps the raw value; `dialect` filters what the configured mode does not
//! speak, and the engine gives the raw values their one meaning.
//!
//! - `START n` (Gomocup) vs `START w h` (Yixin-Board, a space, no comma): both accepted;
//!   `START n n` is `Start(n)`, `START w h` with w ≠ h is `RectStart(w, h)`. `RECTSTART w,h`
//!   (Piskvork) is always `RectStart`, and also accepts `w h`.
//! - `INFO rule 2`: Gomocup's bitmask says *continuous game*; Yixin says *renju* (0 freestyle,
//!   1 standard, 2 renju); the legacy INFO.DAT says 2 continuous, 3 continuous + exactly
//!   five. The parser keeps the raw code (`InfoKey::Rule`); `Rule::from_protocol` maps 2 to
//!   renju because Yixin-Board is what sends 2 in practice (REFERENCE.md).
//! - BOARD field 3: Gomocup continuous games only ("winning line / forbidden"); Yixin sends
//!   only 1 and 2. Parsed as `Field::Winning`; the engine may refuse it.
//! - `BOARD` (answer with a move) vs Yixin `yxboard` (set only): `Board { search }`.
//! - `STOP` = Yixin `yxstop`; `CLEARHASH` = Yixin `yxhashclear`: one command each.
//! - `SHOWFORBID` (extended) carries a board block and is answered `FORBID 5,4 8,7`;
//!   Yixin `yxshowforbid` has no block and is answered `FORBID 05040807.`. The same answer
//!   word, two spellings: `ShowForbid(Some(..))` vs `ShowForbid(None)` gives an
//!   `Answer::Forbidden` with `on_request_board` true or false, which `writer` spells
//!   `format::forbid_gomocup` / `format::forbid_yixin`.
//! - `INFO evaluate`: Gomocup's single point (mouse position) vs the extended path of 0..n
//!   points; both become `InfoKey::Evaluate(Vec<Point>)`.
//! - Pondering: extended `PONDER [ms]` / `STOP` / `INFO auto_pondering`, Yixin
//!   `INFO pondering 0|1`. Different words, no clash.
//! - Coordinates: Gomocup `x,y` = (column, row); Yixin-Board (row, column). The parser does
//!   not guess: `Dialect` carries a `CoordMap`, which maps points in (`command`, in the reader)
//!   and out (`to_protocol`, in the writer).
//! - Time values: AlphaGomoku treats `timeout_turn < 0` as unlimited and `timeout_match <= 0`
//!   as no limit; Gomocup says 0 = as fast as possible for the turn. Values stay raw i64.
//! - Answers: Yixin-Board reads `MESSAGE REALTIME …` and `MESSAGE INFO …` as data, so free
//!   `MESSAGE` text should not start with those words. Yixin's `INFO PV …` lines are written
//!   by the brain (answers) and never confused with the manager's `INFO key value` (input).
//! - `SUGGEST x,y` is only ever an answer; a `SUGGEST` line coming in is `Unknown`.
pub mod coords;
pub mod dat_files;
pub mod dialect;
#[cfg(test)]
mod emit;
pub mod file_brain;
pub mod format;
pub mod parser;
mod reader;
pub mod report;
mod writer;

pub use crate::engine::{Command, Field, InfoKey};
pub use coords::CoordMap;
pub use dialect::Dialect;
pub use parser::{Parsed, Parser};
pub use reader::serve;
pub use writer::AnswerWriter;
mod output;
pub use output::Output;
