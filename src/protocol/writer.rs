//! The engine's answers as protocol lines: [`AnswerWriter`] is the brain's
//! [`engine::AnswerSink`](crate::engine::AnswerSink). It maps the engine's points back to the
//! GUI's coordinates, picks each answer's spelling (`format`, `report`) and writes whole lines
//! on the one [`Output`].
use super::report::{multipv_lines, rates_message, search_message};
use super::{format, CoordMap, Output};
use crate::engine::{Answer, AnswerSink};

pub struct AnswerWriter {
    out: Output,
    coords: CoordMap,
    /// `[protocol] search_message`: whether a finished search's summary is written.
    search_message: bool,
}

impl AnswerWriter {
    pub fn new(out: Output, coords: CoordMap, search_message: bool) -> AnswerWriter {
        AnswerWriter {
            out,
            coords,
            search_message,
        }
    }

    /// The protocol lines of one answer (none for a summary the config silences).
    pub fn lines(&self, answer: &Answer) -> Vec<String> {
        let c = self.coords;
        match answer {
            Answer::Ok => vec![format::ok()],
            Answer::Error(text) => vec![format::error(text)],
            Answer::Unknown(line) => vec![format::unknown(line)],
            Answer::Move(p) => vec![format::move_answer(c.to_protocol(*p))],
            Answer::Suggest(p) => vec![format::suggest(c.to_protocol(*p))],
            Answer::Stones(points) => vec![format::moves(&c.to_protocol_all(points))],
            Answer::Swap => vec![format::swap()],
            Answer::Forbidden {
                points,
                on_request_board: true,
            } => vec![format::forbid_gomocup(&c.to_protocol_all(points))],
            Answer::Forbidden {
                points,
                on_request_board: false,
            } => vec![format::forbid_yixin(&c.to_protocol_all(points))],
            Answer::About => vec![format::about(&format::About::hoshi())],
            Answer::ProtocolVersion => vec![format::protocol_version(1, 0)],
            Answer::Capacity {
                max_threads,
                max_hash_exponent,
            } => vec![
                format::max_thread_num(*max_threads),
                format::max_hash_size(*max_hash_exponent),
            ],
            Answer::SearchSummary(info) => {
                if !self.search_message {
                    return Vec::new();
                }
                let mut lines = vec![format::message(&search_message(info))];
                lines.extend(rates_message(info).map(|rates| format::message(&rates)));
                lines
            }
            Answer::Evaluation(info) => vec![format::message(
                &info.as_ref().map(search_message).unwrap_or_default(),
            )],
            Answer::BestLines { result, count } => multipv_lines(result, *count, c),
            Answer::RealtimeBest(p) => vec![format::realtime_best(c.to_protocol(*p))],
        }
    }
}

impl AnswerSink for AnswerWriter {
    fn send(&self, answer: Answer) {
        for line in self.lines(&answer) {
            self.out.line(&line);
        }
    }

    fn close(&self) {
        self.out.close();
    }
}
