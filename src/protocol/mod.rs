//! Parsing and formatting only: protocol lines → typed `Command`s, typed answers → lines.
//! No engine logic lives here.
pub mod command;
pub mod coords;
pub mod format;
pub mod legacy;
pub mod parser;

pub use command::{Command, Field, InfoKey};
pub use coords::CoordMap;
pub use parser::{Parsed, Parser};
