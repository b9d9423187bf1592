//! Parsing and formatting only: protocol lines → typed `Command`s, typed answers → lines.
//! No engine logic lives here, and nothing here prints: the caller writes the lines.
//!
//! Files: `command` (the types), `parser` (the stateful line parser), `format` (answers),
//! `coords` (Yixin-Board's transposed points), `emit` (the manager side: commands → lines),
//! `legacy` (the old file protocol's contents).
//!
//! Typical use by the controller's reader:
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
//! where they do, it keeps the raw value and the engine (which knows the dialect in use)
//! decides.
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
//!   word, two spellings: `ShowForbid(Some(..))` vs `ShowForbid(None)` tells the engine which
//!   (`format::forbid_gomocup` / `format::forbid_yixin`).
//! - `INFO evaluate`: Gomocup's single point (mouse position) vs the extended path of 0..n
//!   points; both become `InfoKey::Evaluate(Vec<Point>)`.
//! - Pondering: extended `PONDER [ms]` / `STOP` / `INFO auto_pondering`, Yixin
//!   `INFO pondering 0|1`. Different words, no clash.
//! - Coordinates: Gomocup `x,y` = (column, row); Yixin-Board (row, column). The parser does
//!   not guess: `CoordMap { transpose: true }` maps points in (`command`) and out
//!   (`to_protocol`).
//! - Time values: AlphaGomoku treats `timeout_turn < 0` as unlimited and `timeout_match <= 0`
//!   as no limit; Gomocup says 0 = as fast as possible for the turn. Values stay raw i64.
//! - Answers: Yixin-Board reads `MESSAGE REALTIME …` and `MESSAGE INFO …` as data, so free
//!   `MESSAGE` text should not start with those words. Yixin's `INFO PV …` lines are written
//!   by the brain (answers) and never confused with the manager's `INFO key value` (input).
//! - `SUGGEST x,y` is only ever an answer; a `SUGGEST` line coming in is `Unknown`.
pub mod coords;
pub mod dialect;
pub mod emit;
pub mod format;
pub mod legacy;
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
