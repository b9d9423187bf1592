//! A tactics suite drawn from self-play: positions where a forced win decides the game, to measure
//! how much of it a thinker sees at a given time per move, apart from match noise.
//!
//! - **attack**: the side to move has a forced win (the solver's VCT) of 9 to 31 plies. Solved
//!   when the thinker reports the win proven (`Eval::Win`) and plays a move of it; the reported
//!   length is how far ahead of the five the win was seen.
//! - **defence**: the side not to move threatens a forced win, the side to move has none, and only
//!   some replies stop it (each checked by the solver: after it the attacker's VCT is gone).
//!   Solved when the thinker plays one of those safe replies.
//!
//! One case per line: `attack freestyle 15x15 17 h8 i9 j8 …` (kind, rule, size, the solver's
//! plies, the moves from the empty board as the board is labelled), and for a defence case the
//! safe replies after a bar: `… | g7 k9`.
use crate::game::{Board, Color, Point, Rule};
use crate::protocol::format::{parse_pv_move, pv_move};
use crate::search::{Eval, Limits, ThinkRequest, Thinker};
use crate::solver::{Budget, Outcome, Solver};
use std::fmt;
use std::sync::atomic::AtomicBool;

/// Shortest and longest forced wins kept (plies, the five included).
pub const MIN_PLIES: usize = 9;
pub const MAX_PLIES: usize = 31;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Attack,
    Defence,
}

/// One position of the suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub kind: Kind,
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// Length of the forced win the solver found (attack: ours; defence: the threat's).
    pub plies: usize,
    pub moves: Vec<Point>,
    /// Defence: the replies that stop the threat.
    pub safe: Vec<Point>,
}

impl Case {
    pub fn board(&self) -> Result<Board, String> {
        Board::from_moves(self.width, self.height, self.rule, &self.moves)
            .map_err(|e| e.to_string())
    }

    pub fn parse(line: &str) -> Result<Case, String> {
        let (main, safe) = match line.split_once('|') {
            Some((m, s)) => (m, Some(s)),
            None => (line, None),
        };
        let mut words = main.split_whitespace();
        let mut next = |what: &str| words.next().ok_or(format!("{line:?}: no {what}"));
        let kind = match next("kind")? {
            "attack" => Kind::Attack,
            "defence" => Kind::Defence,
            k => return Err(format!("{line:?}: unknown kind {k}")),
        };
        let rule = Rule::from_name(next("rule")?).ok_or(format!("{line:?}: unknown rule"))?;
        let (w, h) = next("size")?
            .split_once('x')
            .ok_or(format!("{line:?}: size is WxH"))?;
        let parse_n = |v: &str| v.parse::<usize>().map_err(|_| format!("{line:?}: {v}"));
        let (width, height) = (parse_n(w)?, parse_n(h)?);
        let plies = parse_n(next("plies")?)?;
        let points = |text: &str| -> Result<Vec<Point>, String> {
            text.split_whitespace().map(parse_point).collect()
        };
        let moves = points(&words.collect::<Vec<_>>().join(" "))?;
        let safe = safe.map(points).transpose()?.unwrap_or_default();
        Ok(Case {
            kind,
            rule,
            width,
            height,
            plies,
            moves,
            safe,
        })
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Attack => "attack",
            Kind::Defence => "defence",
        };
        write!(
            f,
            "{kind} {} {}x{} {}",
            self.rule.name(),
            self.width,
            self.height,
            self.plies
        )?;
        for &m in &self.moves {
            write!(f, " {}", pv_move(m))?;
        }
        if self.kind == Kind::Defence {
            f.write_str(" |")?;
            for &m in &self.safe {
                write!(f, " {}", pv_move(m))?;
            }
        }
        Ok(())
    }
}

/// `h8` → x 7, y 7.
fn parse_point(text: &str) -> Result<Point, String> {
    parse_pv_move(text).ok_or(format!("{text:?} is not a point"))
}

/// What the solver may spend classifying one position while the suite is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    pub vct_nodes: u64,
    pub vct_depth: u8,
    /// Shortest win kept (at least [`MIN_PLIES`]): a harder suite asks for longer ones.
    pub min_plies: usize,
}

impl Default for Effort {
    fn default() -> Effort {
        Effort {
            vct_nodes: 300_000,
            vct_depth: 14,
            min_plies: MIN_PLIES,
        }
    }
}

fn vct(solver: &mut Solver, board: &Board, attacker: Color, effort: Effort) -> Outcome {
    let budget = Budget::nodes(effort.vct_nodes).with_depth(effort.vct_depth);
    solver.vct(board, attacker, budget)
}

/// The case `board` (reached by `moves`) makes, if any.
pub fn classify(solver: &mut Solver, board: &Board, effort: Effort) -> Option<Case> {
    let me = board.side_to_move();
    let case = |kind, plies, safe| Case {
        kind,
        rule: board.rule(),
        width: board.width(),
        height: board.height(),
        plies,
        moves: board.history().to_vec(),
        safe,
    };
    match vct(solver, board, me, effort) {
        Outcome::Win { line } => {
            let plies = line.len();
            return (effort.min_plies.max(MIN_PLIES)..=MAX_PLIES)
                .contains(&plies)
                .then(|| case(Kind::Attack, plies, Vec::new()));
        }
        Outcome::Unknown => return None,
        Outcome::NoWin => {}
    }
    let Outcome::Win { line } = vct(solver, board, me.opponent(), effort) else {
        return None;
    };
    let plies = line.len();
    if !(effort.min_plies.max(MIN_PLIES)..=MAX_PLIES).contains(&plies) {
        return None;
    }
    // Only replies near the stones can matter for a threat sequence.
    let replies: Vec<Point> = board
        .legal_moves()
        .into_iter()
        .filter(|r| {
            board
                .history()
                .iter()
                .any(|s| s.x.abs_diff(r.x) <= 3 && s.y.abs_diff(r.y) <= 3)
        })
        .collect();
    let mut safe = Vec::new();
    let mut scratch = board.clone();
    for &r in &replies {
        scratch.play(r).ok()?;
        let after = vct(solver, &scratch, me.opponent(), effort);
        scratch.undo();
        match after {
            Outcome::NoWin => safe.push(r),
            Outcome::Unknown => return None,
            Outcome::Win { .. } => {}
        }
    }
    // A defence worth asking for: some replies stop it, most do not.
    let near = replies.len();
    (!safe.is_empty() && safe.len() * 4 <= near).then(|| case(Kind::Defence, plies, safe))
}

/// How a thinker did on one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub solved: bool,
    /// Attack: the length of the win the thinker reported proven, if any.
    pub seen_plies: Option<u32>,
}

/// Runs `thinker` on `case` with `limits`.
pub fn score(thinker: &mut dyn Thinker, case: &Case, limits: Limits) -> Result<Score, String> {
    let board = case.board()?;
    let request = ThinkRequest {
        board,
        blocked: Vec::new(),
        limits,
    };
    let result = thinker.think(&request, &AtomicBool::new(false));
    let seen_plies = match result.info.eval {
        Eval::Win(plies) => Some(plies),
        _ => None,
    };
    let solved = match case.kind {
        Kind::Attack => seen_plies.is_some() && result.best.is_some(),
        Kind::Defence => result.best.is_some_and(|m| case.safe.contains(&m)),
    };
    Ok(Score { solved, seen_plies })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_read_back_what_they_write() {
        let p = Point::new;
        let case = Case {
            kind: Kind::Defence,
            rule: Rule::Renju,
            width: 15,
            height: 15,
            plies: 11,
            moves: vec![p(7, 7), p(8, 8), p(26, 19)],
            safe: vec![p(6, 6), p(0, 0)],
        };
        let line = case.to_string();
        assert_eq!(line, "defence renju 15x15 11 h8 i9 aa20 | g7 a1");
        assert_eq!(Case::parse(&line).unwrap(), case);
        let attack = Case::parse("attack freestyle 20x20 9 h8 i9").unwrap();
        assert_eq!(attack.kind, Kind::Attack);
        assert!(attack.safe.is_empty());
        assert!(Case::parse("attack nonsense 15x15 9 h8").is_err());
        assert!(Case::parse("attack freestyle 15x15 9 h0").is_err());
    }
}
