//! The search summary sent as `MESSAGE` after each move, in the UCI-like form that Rapfi writes
//! and that analysis tools (pygomo-lib, GUIs' panes, tournament logs) parse:
//! `depth 9-12 ev 57 n 32382 n/ms 35 tm 905 pv h8 i9 g7`; the win and draw rates follow on a
//! line of their own (`winrate 55.8 drawrate 0.0`), where they break no parser.
use crate::protocol::format::{self, pv_string};
use crate::protocol::CoordMap;
use crate::search::{Eval, SearchInfo, ThinkResult};

/// The eval scale: an expected score s reads as `ev = EV_SCALE * ln(s / (1 - s))`, so that
/// readers that turn Rapfi's eval into a win rate (`1 / (1 + e^(-ev / 400))`) get s back.
const EV_SCALE: f64 = 400.0;
/// Scores are kept this far from 0 and 1, so `ev` stays finite (about ±3700).
const SCORE_CLAMP: f64 = 1e-4;

/// `ev`: the expected score on Rapfi's logistic scale, or the proven result in plies: `+M13`
/// (win), `-M9` (loss), `0` (draw).
pub fn eval_field(eval: &Eval) -> String {
    match *eval {
        Eval::Winrate { .. } => {
            let s = f64::from(eval.score()).clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
            format!("{}", (EV_SCALE * (s / (1.0 - s)).ln()).round() as i64)
        }
        Eval::Win(plies) => format!("+M{plies}"),
        Eval::Loss(plies) => format!("-M{plies}"),
        Eval::Draw => "0".to_string(),
    }
}

pub fn search_message(info: &SearchInfo) -> String {
    let mut text = format!(
        "depth {}-{} ev {} n {} n/ms {} tm {}",
        info.depth_min,
        info.depth_max,
        eval_field(&info.eval),
        info.nodes,
        info.nodes_per_second() / 1000,
        info.elapsed.as_millis()
    );
    if !info.pv.is_empty() {
        let moves: Vec<_> = info.pv.iter().map(|&(_, p)| p).collect();
        text.push_str(" pv ");
        text.push_str(&pv_string(&moves));
    }
    text
}

/// The win and draw rates in percent (`winrate 55.8 drawrate 0.0`), for searches that did not
/// prove their result.
pub fn rates_message(info: &SearchInfo) -> Option<String> {
    match info.eval {
        Eval::Winrate { win, draw, .. } => Some(format!(
            "winrate {:.1} drawrate {:.1}",
            win * 100.0,
            draw * 100.0
        )),
        _ => None,
    }
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

    fn info(eval: Eval) -> SearchInfo {
        SearchInfo {
            depth_min: 9,
            depth_max: 12,
            eval,
            nodes: 32382,
            elapsed: Duration::from_millis(905),
            pv: vec![
                (Color::Black, Point::new(7, 7)),
                (Color::White, Point::new(8, 8)),
                (Color::Black, Point::new(6, 6)),
            ],
        }
    }

    #[test]
    fn message_is_rapfi_uci_like_with_rows_from_one() {
        let i = info(Eval::Winrate {
            win: 0.5,
            draw: 0.2,
            loss: 0.3,
        });
        // Expected score 0.6: 400 * ln(0.6 / 0.4) = 162.2.
        assert_eq!(
            search_message(&i),
            "depth 9-12 ev 162 n 32382 n/ms 35 tm 905 pv h8 i9 g7"
        );
        assert_eq!(
            rates_message(&i).as_deref(),
            Some("winrate 50.0 drawrate 20.0")
        );
    }

    #[test]
    fn proven_results() {
        assert_eq!(eval_field(&Eval::Win(13)), "+M13");
        assert_eq!(eval_field(&Eval::Loss(9)), "-M9");
        assert_eq!(eval_field(&Eval::Draw), "0");
        assert_eq!(rates_message(&info(Eval::Win(3))), None);
        let even = Eval::Winrate {
            win: 0.4,
            draw: 0.2,
            loss: 0.4,
        };
        assert_eq!(eval_field(&even), "0");
        let sure = Eval::Winrate {
            win: 1.0,
            draw: 0.0,
            loss: 0.0,
        };
        assert_eq!(eval_field(&sure), "3684");
    }
}
