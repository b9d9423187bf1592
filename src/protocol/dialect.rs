//! The dialect in use (`[protocol] mode` and `yixin_transpose` in the config): which words and
//! INFO keys the brain takes, and how points are written. The reader filters every parsed line
//! through [`Dialect::request`] before the engine sees it, so the engine never knows which
//! dialect is spoken.
//!
//! `auto` accepts every command of every dialect; the stricter modes answer `UNKNOWN` to the
//! words of the others, as a brain that only knows that dialect would. `gomocup` mode also drops
//! the INFO keys of the extensions and Gomocup's debug-only `INFO evaluate` (the mouse position),
//! as the base protocol asks of release brains.
use super::{CoordMap, Parsed};
use crate::config::{ProtocolConfig, ProtocolMode};
use crate::engine::{Command, InfoKey, Request};

/// The dialect one session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    pub mode: ProtocolMode,
    /// Yixin-Board's (row, column) mapping when configured; the identity otherwise.
    pub coords: CoordMap,
}

impl Dialect {
    pub fn from_config(config: &ProtocolConfig) -> Dialect {
        let transpose = config.mode == ProtocolMode::Yixin && config.yixin_transpose;
        Dialect {
            mode: config.mode,
            coords: CoordMap { transpose },
        }
    }

    /// What the engine is asked for a parsed `line`: commands of another dialect become
    /// `Unknown`, points are mapped to the engine's; `None` when the line asks nothing (a blank
    /// line, an INFO this dialect ignores).
    pub fn request(&self, parsed: Parsed, line: &str) -> Option<Request> {
        match parsed {
            Parsed::Command(cmd) if !accepts(self.mode, &cmd) => {
                Some(Request::Unknown(line.trim().to_string()))
            }
            Parsed::Command(Command::Info(key)) if !self.takes_info(&key) => {
                log::debug!("INFO ignored in gomocup mode: {key:?}");
                None
            }
            Parsed::Command(cmd) => Some(Request::Command(self.coords.command(cmd))),
            Parsed::Unknown { line } => Some(Request::Unknown(line)),
            Parsed::Error { message } => Some(Request::Malformed(message)),
            Parsed::Empty => None,
        }
    }

    /// Gomocup mode ignores the extensions' INFO keys and the debug-only `INFO evaluate`.
    fn takes_info(&self, key: &InfoKey) -> bool {
        self.mode != ProtocolMode::Gomocup
            || (is_gomocup_info(key) && !matches!(key, InfoKey::Evaluate(_)))
    }
}

/// The INFO keys of the base Gomocup protocol (seed 001).
fn is_gomocup_info(key: &InfoKey) -> bool {
    matches!(
        key,
        InfoKey::TimeoutTurn(_)
            | InfoKey::TimeoutMatch(_)
            | InfoKey::TimeLeft(_)
            | InfoKey::MaxMemory(_)
            | InfoKey::GameType(_)
            | InfoKey::Rule(_)
            | InfoKey::Evaluate(_)
            | InfoKey::Folder(_)
            | InfoKey::Unknown(..)
    )
}

/// Base Gomocup (seed 001).
fn is_gomocup(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Start(_)
            | Command::RectStart(..)
            | Command::Restart
            | Command::Turn(_)
            | Command::Begin
            | Command::Board { search: true, .. }
            | Command::Info(_)
            | Command::End
            | Command::About
            | Command::Takeback(_)
    )
}

/// AlphaGomoku's extensions (003 section 3).
fn is_extended(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Play(_)
            | Command::Ponder(_)
            | Command::Stop
            | Command::Swap2Board(_)
            | Command::SwapBoard(_)
            | Command::ShowForbid(Some(_))
            | Command::Balance { .. }
            | Command::ClearHash
            | Command::ProtocolVersion
    )
}

/// Whether `mode` accepts `cmd`. Yixin mode takes every Yixin word (`yxboard`, `yxstop` = STOP,
/// `yxhashclear` = CLEARHASH, `yxshowforbid`, ...).
pub fn accepts(mode: ProtocolMode, cmd: &Command) -> bool {
    match mode {
        ProtocolMode::Auto => true,
        ProtocolMode::Gomocup => is_gomocup(cmd),
        ProtocolMode::ExtendedGomocup => is_gomocup(cmd) || is_extended(cmd),
        ProtocolMode::Yixin => {
            is_gomocup(cmd)
                || !is_extended(cmd)
                || matches!(cmd, Command::Stop | Command::ClearHash)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Point;

    #[test]
    fn modes_split_the_dialects() {
        let turn = Command::Turn(Point::new(1, 1));
        let swap2 = Command::Swap2Board(vec![]);
        let nbest = Command::YxNbest(2);
        let yxboard = Command::Board {
            stones: vec![],
            search: false,
        };
        for mode in [
            ProtocolMode::Auto,
            ProtocolMode::Gomocup,
            ProtocolMode::ExtendedGomocup,
            ProtocolMode::Yixin,
        ] {
            assert!(accepts(mode, &turn));
        }
        assert!(accepts(ProtocolMode::Auto, &swap2) && accepts(ProtocolMode::Auto, &nbest));
        assert!(!accepts(ProtocolMode::Gomocup, &swap2) && !accepts(ProtocolMode::Gomocup, &nbest));
        assert!(accepts(ProtocolMode::ExtendedGomocup, &swap2));
        assert!(!accepts(ProtocolMode::ExtendedGomocup, &nbest));
        assert!(!accepts(ProtocolMode::ExtendedGomocup, &yxboard));
        assert!(accepts(ProtocolMode::Yixin, &nbest) && accepts(ProtocolMode::Yixin, &yxboard));
        assert!(!accepts(ProtocolMode::Yixin, &swap2));
        assert!(accepts(ProtocolMode::Yixin, &Command::Stop));
        assert!(accepts(ProtocolMode::Yixin, &Command::ShowForbid(None)));
        assert!(!accepts(
            ProtocolMode::Yixin,
            &Command::ShowForbid(Some(vec![]))
        ));
    }

    fn dialect(mode: ProtocolMode, transpose: bool) -> Dialect {
        Dialect {
            mode,
            coords: CoordMap { transpose },
        }
    }

    #[test]
    fn requests_are_filtered_and_mapped() {
        let info = |key| Parsed::Command(Command::Info(key));
        let gomocup = dialect(ProtocolMode::Gomocup, false);
        assert_eq!(
            gomocup.request(info(InfoKey::MaxNode(5)), "INFO max_node 5"),
            None
        );
        assert_eq!(
            gomocup.request(
                info(InfoKey::Evaluate(vec![Point::new(1, 1)])),
                "INFO evaluate 1,1"
            ),
            None
        );
        assert_eq!(
            gomocup.request(info(InfoKey::TimeoutTurn(5)), "INFO timeout_turn 5"),
            Some(Request::Command(Command::Info(InfoKey::TimeoutTurn(5))))
        );
        assert_eq!(
            gomocup.request(Parsed::Command(Command::Stop), " STOP \r\n"),
            Some(Request::Unknown("STOP".to_string()))
        );
        assert_eq!(gomocup.request(Parsed::Empty, ""), None);
        let yixin = dialect(ProtocolMode::Yixin, true);
        assert_eq!(
            yixin.request(Parsed::Command(Command::Turn(Point::new(1, 2))), "TURN 1,2"),
            Some(Request::Command(Command::Turn(Point::new(2, 1))))
        );
        assert_eq!(
            yixin.request(info(InfoKey::MaxNode(5)), "INFO max_node 5"),
            Some(Request::Command(Command::Info(InfoKey::MaxNode(5))))
        );
    }
}
