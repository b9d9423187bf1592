//! The one-line search summary sent as `MESSAGE` after each move (AlphaGomoku's format, 2.13):
//! `depth 1-14 ev 56.2 n 3381 n/s 932 tm 3627 pv Oe4 Xe3 ...`, extended with winrate and drawrate.
use crate::protocol::format::{self, pv_string};
use crate::protocol::CoordMap;
use crate::search::{Eval, SearchInfo, ThinkResult};

/// `ev` is the expected outcome in percent, or the proven result: `W13` (win in 13 plies),
/// `L9`, `D`.
pub fn eval_field(eval: &Eval) -> String {
    match *eval {
        Eval::Winrate { .. } => format!("{:.1}", eval.score() * 100.0),
        Eval::Win(plies) => format!("W{plies}"),
        Eval::Loss(plies) => format!("L{plies}"),
        Eval::Draw => "D".to_string(),
    }
}

pub fn search_message(info: &SearchInfo) -> String {
    let mut text = format!(
        "depth {}-{} ev {}",
        info.depth_min,
        info.depth_max,
        eval_field(&info.eval)
    );
    if let Eval::Winrate { win, draw, .. } = info.eval {
        text.push_str(&format!(
            " winrate {:.1} drawrate {:.1}",
            win * 100.0,
            draw * 100.0
        ));
    }
    text.push_str(&format!(
        " n {} n/s {} tm {}",
        info.nodes,
        info.nodes_per_second(),
        info.elapsed.as_millis()
    ));
    if !info.pv.is_empty() {
        text.push_str(" pv ");
        text.push_str(&pv_string(&info.pv));
    }
    text
}

/// Yixin-Board's multi-PV blocks for the `n` best root moves (`INFO PV i` … `INFO PV DONE`).
pub fn multipv_lines(result: &ThinkResult, n: usize, coords: CoordMap) -> Vec<String> {
    let mut ranked: Vec<_> = result.ranked.iter().take(n.max(1)).collect();
    if ranked.is_empty() {
        return Vec::new();
    }
    // The best move leads even if the ranking disagrees (a proven win, say).
    if let Some(best) = result.best {
        if let Some(pos) = ranked.iter().position(|(p, _)| *p == best) {
            let b = ranked.remove(pos);
            ranked.insert(0, b);
        }
    }
    let info = &result.info;
    let mut lines = Vec::new();
    for (i, (point, score)) in ranked.iter().enumerate() {
        let line: Vec<_> = if i == 0 && !info.pv.is_empty() {
            info.pv
                .iter()
                .map(|&(_, p)| coords.to_protocol(p))
                .collect()
        } else {
            vec![coords.to_protocol(*point)]
        };
        lines.push(format::info_pv(i as u32));
        lines.push(format::info_numpv(ranked.len() as u32));
        lines.push(format::info_depth(info.depth_max));
        lines.push(format::info_nodes(info.nodes));
        lines.push(format::info_totaltime(info.elapsed.as_millis() as u64));
        lines.push(format::info_speed(info.nodes_per_second()));
        lines.push(format::info_winrate(f64::from(*score)));
        lines.push(format::info_bestline(&line));
        lines.push(format::info_pv_done());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Point};
    use std::time::Duration;

    #[test]
    fn message_has_every_field() {
        let info = SearchInfo {
            depth_min: 1,
            depth_max: 3,
            eval: Eval::Winrate {
                win: 0.5,
                draw: 0.2,
                loss: 0.3,
            },
            nodes: 2000,
            elapsed: Duration::from_millis(500),
            pv: vec![
                (Color::White, Point::new(4, 4)),
                (Color::Black, Point::new(4, 3)),
            ],
        };
        let m = search_message(&info);
        assert_eq!(
            m,
            "depth 1-3 ev 60.0 winrate 50.0 drawrate 20.0 n 2000 n/s 4000 tm 500 pv Oe4 Xe3"
        );
    }

    #[test]
    fn seed_example_fields_and_pv() {
        // 003 section 2.13's example, with a proven result instead of a percentage.
        let pv = "Oe4 Xe3 Of4 Xg4 Oh5 Xc3 Od3 Xf2 Oc5 Xg3 Og2 Xe1 Oh4 Xb2";
        let moves = pv
            .split(' ')
            .map(|m| {
                let colour = if m.starts_with('X') {
                    Color::Black
                } else {
                    Color::White
                };
                let x = m.as_bytes()[1] - b'a';
                let y: u8 = m[2..].parse().unwrap();
                (colour, Point::new(x, y))
            })
            .collect();
        let info = SearchInfo {
            depth_min: 1,
            depth_max: 14,
            eval: Eval::Win(13),
            nodes: 3381,
            elapsed: Duration::from_millis(3627),
            pv: moves,
        };
        assert_eq!(
            search_message(&info),
            format!("depth 1-14 ev W13 n 3381 n/s 932 tm 3627 pv {pv}")
        );
    }

    #[test]
    fn proven_results() {
        assert_eq!(eval_field(&Eval::Win(13)), "W13");
        assert_eq!(eval_field(&Eval::Loss(9)), "L9");
        assert_eq!(eval_field(&Eval::Draw), "D");
    }
}
