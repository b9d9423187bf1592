//! Parsing and formatting only: protocol lines → typed `Command`s, typed answers → lines.
//! No engine logic lives here.
pub mod command;
pub mod parser;

pub use command::{Command, Field, InfoKey};
pub use parser::{Parsed, Parser};
