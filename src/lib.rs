//! Hoshi: a Gomoku/Renju brain.
//!
//! Rooms (see ARCHITECTURE.md): `game` (board, rules, patterns), `solver` (threat-space search),
//! `nn` (policy-value network), `search` (MCTS), `engine` (controller, clock),
//! `protocol` (parsing/formatting of every dialect), `train` (self-play, training, matches),
//! `setup` (config → parameters and thinkers), `cli` (one file per command).
pub mod cli;
pub mod config;
pub mod engine;
pub mod game;
pub mod logging;
pub mod nn;
pub mod protocol;
pub mod quit;
pub mod search;
pub mod setup;
pub mod solver;
pub mod train;
