//! The engine: takes typed requests, owns the game, the settings and the clock, starts, stops and
//! ponders searches, runs the opening duties, and emits typed answers through a sink. It writes no
//! protocol text and does not know which dialect is spoken: `protocol` reads, filters and maps
//! the requests and turns the answers into lines (`protocol::serve` runs the two together).
//!
//! Files: `request` (what can be asked), `answer` (what comes back, and the sink), `controller`
//! (the life cycle and dispatch), `settings` (INFO → settings, checked), `turn` (one search's
//! limits and the match's time account), `clock` (the manager's time rules → a move's budget),
//! `game_state` (the game as the protocol sees it), `opening_duties` (swap, swap2, balance),
//! `worker` (a job on the search thread).
mod answer;
pub mod clock;
mod controller;
mod game_state;
mod opening_duties;
pub mod request;
mod settings;
mod turn;
mod worker;

pub use answer::{Answer, AnswerSink};
pub use controller::{Controller, Event};
pub use game_state::{GameState, PositionError};
pub use request::{Command, Field, InfoKey, Request};
