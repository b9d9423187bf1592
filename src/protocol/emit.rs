//! The manager's side: typed commands → the lines a manager sends. Used to drive another
//! brain (a match runner) and to check the parser by round trips: parsing `command_lines(c)`
//! gives back `c`.
use super::{Command, InfoKey};
use crate::game::Point;

fn points(ps: &[Point]) -> String {
    ps.iter()
        .map(Point::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `INFO key value` for one typed key.
pub fn info_line(key: &InfoKey) -> String {
    let (name, value) = match key {
        InfoKey::TimeoutTurn(v) => ("timeout_turn", v.to_string()),
        InfoKey::TimeoutMatch(v) => ("timeout_match", v.to_string()),
        InfoKey::TimeLeft(v) => ("time_left", v.to_string()),
        InfoKey::MaxMemory(v) => ("max_memory", v.to_string()),
        InfoKey::GameType(v) => ("game_type", v.to_string()),
        InfoKey::Rule(v) => ("rule", v.to_string()),
        InfoKey::Evaluate(ps) => ("evaluate", points(ps)),
        InfoKey::Folder(f) => ("folder", f.clone()),
        InfoKey::AnalysisMode(v) => ("analysis_mode", v.to_string()),
        InfoKey::MaxDepth(v) => ("max_depth", v.to_string()),
        InfoKey::MaxNode(v) => ("max_node", v.to_string()),
        InfoKey::TimeIncrement(v) => ("time_increment", v.to_string()),
        InfoKey::Style(v) => ("style", v.to_string()),
        InfoKey::AutoPondering(v) => ("auto_pondering", v.to_string()),
        InfoKey::ProtocolLag(v) => ("protocol_lag", v.to_string()),
        InfoKey::ThreadNum(v) => ("thread_num", v.to_string()),
        InfoKey::CautionFactor(v) => ("caution_factor", v.to_string()),
        InfoKey::HashSize(v) => ("hash_size", v.to_string()),
        InfoKey::Pondering(v) => ("pondering", v.to_string()),
        InfoKey::VcThread(v) => ("vcthread", v.to_string()),
        InfoKey::ShowDetail(v) => ("show_detail", v.to_string()),
        InfoKey::UseDatabase(v) => ("usedatabase", v.to_string()),
        InfoKey::Unknown(k, v) => (k.as_str(), v.clone()),
    };
    if value.is_empty() {
        format!("INFO {name}")
    } else {
        format!("INFO {name} {value}")
    }
}

/// The lines that send `cmd`: one line, or a block ending in `DONE`.
pub fn command_lines(cmd: &Command) -> Vec<String> {
    let one = |s: String| vec![s];
    let block = |head: String, body: Vec<String>| {
        let mut lines = vec![head];
        lines.extend(body);
        lines.push("DONE".to_string());
        lines
    };
    let stones = |s: &[(Point, super::Field)]| {
        s.iter()
            .map(|(p, f)| format!("{p},{}", f.code()))
            .collect::<Vec<_>>()
    };
    let moves = |ps: &[Point]| ps.iter().map(Point::to_string).collect::<Vec<_>>();
    match cmd {
        Command::Start(n) => one(format!("START {n}")),
        Command::RectStart(w, h) => one(format!("RECTSTART {w},{h}")),
        Command::Restart => one("RESTART".into()),
        Command::Turn(p) => one(format!("TURN {p}")),
        Command::Begin => one("BEGIN".into()),
        Command::Board { stones: s, search } => {
            let head = if *search { "BOARD" } else { "yxboard" };
            block(head.into(), stones(s))
        }
        Command::Position { .. } => unreachable!("POSITION is the file brain's own request"),
        Command::Info(key) => one(info_line(key)),
        Command::End => one("END".into()),
        Command::About => one("ABOUT".into()),
        Command::Takeback(p) => one(format!("TAKEBACK {p}")),
        Command::Play(p) => one(format!("PLAY {p}")),
        Command::Ponder(None) => one("PONDER".into()),
        Command::Ponder(Some(ms)) => one(format!("PONDER {ms}")),
        Command::Stop => one("STOP".into()),
        Command::Swap2Board(ps) => block("SWAP2BOARD".into(), moves(ps)),
        Command::SwapBoard(ps) => block("SWAPBOARD".into(), moves(ps)),
        Command::ShowForbid(Some(s)) => block("SHOWFORBID".into(), stones(s)),
        Command::ShowForbid(None) => one("yxshowforbid".into()),
        Command::Balance { n, stones: s } => block(format!("BALANCE {n}"), stones(s)),
        Command::ClearHash => one("CLEARHASH".into()),
        Command::ProtocolVersion => one("PROTOCOLVERSION".into()),
        Command::YxShowInfo => one("yxshowinfo".into()),
        Command::YxNbest(n) => one(format!("yxnbest {n}")),
        Command::YxBalanceOne(b) => one(format!("yxbalanceone {b}")),
        Command::YxBalanceTwo(b) => one(format!("yxbalancetwo {b}")),
        Command::YxBlock(ps) => block("yxblock".into(), moves(ps)),
        Command::YxBlockUndo(ps) => block("yxblockundo".into(), moves(ps)),
        Command::YxBlockReset => one("yxblockreset".into()),
        Command::YxSwap2Step(n) => one(format!("yxswap2step{n}")),
        Command::YxSoosorvStep(n) => one(format!("yxsoosorvstep{n}")),
        Command::YxSearchDefend => one("yxsearchdefend".into()),
        Command::YxDraw => one("yxdraw".into()),
        Command::YxResign => one("yxresign".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parser::{Parsed, Parser};
    use crate::protocol::Field;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn point(rng: &mut StdRng) -> Point {
        Point::new(rng.gen(), rng.gen())
    }

    fn point_list(rng: &mut StdRng) -> Vec<Point> {
        (0..rng.gen_range(0..6)).map(|_| point(rng)).collect()
    }

    fn stone_list(rng: &mut StdRng) -> Vec<(Point, Field)> {
        let fields = [Field::Own, Field::Opponent, Field::Winning];
        (0..rng.gen_range(0..6))
            .map(|_| (point(rng), fields[rng.gen_range(0..3)]))
            .collect()
    }

    fn value(rng: &mut StdRng) -> i64 {
        match rng.gen_range(0..4) {
            0 => i64::MIN,
            1 => i64::MAX,
            _ => rng.gen(),
        }
    }

    fn random_info(rng: &mut StdRng) -> InfoKey {
        let v = value(rng);
        match rng.gen_range(0..23) {
            0 => InfoKey::TimeoutTurn(v),
            1 => InfoKey::TimeoutMatch(v),
            2 => InfoKey::TimeLeft(v),
            3 => InfoKey::MaxMemory(v),
            4 => InfoKey::GameType(v),
            5 => InfoKey::Rule(v),
            6 => InfoKey::Evaluate(point_list(rng)),
            7 => InfoKey::Folder(format!("C:\\some dir\\{v}")),
            8 => InfoKey::AnalysisMode(v),
            9 => InfoKey::MaxDepth(v),
            10 => InfoKey::MaxNode(v),
            11 => InfoKey::TimeIncrement(v),
            12 => InfoKey::Style(v),
            13 => InfoKey::AutoPondering(v),
            14 => InfoKey::ProtocolLag(v),
            15 => InfoKey::ThreadNum(v),
            16 => InfoKey::CautionFactor(v),
            17 => InfoKey::HashSize(v),
            18 => InfoKey::Pondering(v),
            19 => InfoKey::VcThread(v),
            20 => InfoKey::ShowDetail(v),
            21 => InfoKey::UseDatabase(v),
            _ => InfoKey::Unknown(format!("key_{}", v.unsigned_abs()), format!("{v} x")),
        }
    }

    fn random_command(rng: &mut StdRng) -> Command {
        let size = rng.gen_range(0..10_000usize);
        match rng.gen_range(0..33) {
            0 => Command::Start(size),
            1 => Command::RectStart(size, size + 1),
            2 => Command::Restart,
            3 => Command::Turn(point(rng)),
            4 => Command::Begin,
            5 => Command::Board {
                stones: stone_list(rng),
                search: rng.gen(),
            },
            6 => Command::Info(random_info(rng)),
            7 => Command::End,
            8 => Command::About,
            9 => Command::Takeback(point(rng)),
            10 => Command::Play(point(rng)),
            11 => Command::Ponder(rng.gen_bool(0.5).then(|| value(rng))),
            12 => Command::Stop,
            13 => Command::Swap2Board(point_list(rng)),
            14 => Command::SwapBoard(point_list(rng)),
            15 => Command::ShowForbid(rng.gen_bool(0.5).then(|| stone_list(rng))),
            16 => Command::Balance {
                n: rng.gen_range(1..=u32::MAX),
                stones: stone_list(rng),
            },
            17 => Command::ClearHash,
            18 => Command::ProtocolVersion,
            19 => Command::YxShowInfo,
            20 => Command::YxNbest(rng.gen_range(1..=u32::MAX)),
            21 => Command::YxBalanceOne(value(rng)),
            22 => Command::YxBalanceTwo(value(rng)),
            23 => Command::YxBlock(point_list(rng)),
            24 => Command::YxBlockUndo(point_list(rng)),
            25 => Command::YxBlockReset,
            26 => Command::YxSwap2Step(rng.gen_range(1..=3)),
            27 => Command::YxSoosorvStep(rng.gen_range(1..=6)),
            28 => Command::YxSearchDefend,
            29 => Command::YxDraw,
            30 => Command::YxResign,
            31 => Command::Start(size),
            _ => Command::Info(InfoKey::Evaluate(vec![])),
        }
    }

    #[test]
    fn emitted_commands_parse_back() {
        let mut rng = StdRng::seed_from_u64(0x5eed_0003);
        let mut parser = Parser::new();
        for _ in 0..5000 {
            let cmd = random_command(&mut rng);
            let lines = command_lines(&cmd);
            let answers: Vec<Parsed> = lines.iter().filter_map(|l| parser.feed(l)).collect();
            assert_eq!(answers, vec![Parsed::Command(cmd.clone())], "{lines:?}");
        }
    }

    #[test]
    fn emitted_lines_look_like_the_seeds() {
        let board = Command::Board {
            stones: vec![
                (Point::new(10, 10), Field::Own),
                (Point::new(10, 11), Field::Opponent),
            ],
            search: true,
        };
        assert_eq!(
            command_lines(&board),
            ["BOARD", "10,10,1", "10,11,2", "DONE"]
        );
        assert_eq!(
            command_lines(&Command::Info(InfoKey::TimeoutMatch(300000))),
            ["INFO timeout_match 300000"]
        );
        assert_eq!(
            command_lines(&Command::Info(InfoKey::Evaluate(vec![]))),
            ["INFO evaluate"]
        );
        assert_eq!(
            command_lines(&Command::RectStart(20, 15)),
            ["RECTSTART 20,15"]
        );
        assert_eq!(command_lines(&Command::YxSwap2Step(2)), ["yxswap2step2"]);
    }
}
