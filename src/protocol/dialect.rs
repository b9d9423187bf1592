//! Which commands each protocol mode accepts (`[protocol] mode` in the config).
//!
//! `auto` accepts every command of every dialect; the stricter modes answer `UNKNOWN` to the
//! words of the others, as a brain that only knows that dialect would.
use crate::config::ProtocolMode;
use crate::protocol::Command;

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
}
