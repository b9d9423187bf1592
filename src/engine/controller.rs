//! The search controller: owns the game, the clock and the thinker; turns commands into answers.
//!
//! One thread reads stdin and feeds the parser; this controller receives its commands and the
//! results of searches over one channel, so STOP, yxstop and END act while a search runs.
use super::clock::TimeSettings;
use super::game_state::{GameState, PositionError};
use super::openings::{self, OpeningAnswer, Step};
use super::worker::{think_job, Job, JobOutput, Running};
use crate::config::{Config, ProtocolMode};
use crate::game::{Board, Point, Rule};
use crate::protocol::dialect;
use crate::protocol::{format, Command, CoordMap, Field, InfoKey, Output, Parsed};
use crate::search::{
    Eval, Limits, ProgressSink, SearchInfo, Style, ThinkRequest, ThinkResult, Thinker,
};
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Everything that reaches the controller.
pub enum Event {
    /// A parsed input line, when it arrived, and the line itself (for UNKNOWN answers).
    Input(Parsed, Instant, String),
    /// stdin closed.
    Eof,
    /// A job finished; the thinker comes back with its output.
    SearchDone(JobOutput, Box<dyn Thinker>),
}

fn search_done(output: JobOutput, thinker: Box<dyn Thinker>) -> Event {
    Event::SearchDone(output, thinker)
}

/// Why a search runs: decides what happens with its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Answer with the move and play it.
    Play,
    /// Answer `SUGGEST x,y` and leave the position alone (analysis mode).
    Suggest,
    /// Think on the opponent's time; print nothing.
    Ponder,
    /// Yixin's multi-PV: report the n best moves, then the best as a bare move (not played).
    Nbest(u32),
    /// An opening duty: answer SWAP or the stones.
    Opening,
}

struct Active {
    search: Running,
    purpose: Purpose,
    started: Instant,
}

/// Settings the manager sends with INFO, beyond the clock.
#[derive(Debug, Clone)]
struct Settings {
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
    max_memory: Option<u64>,
    /// Yixin-Board's `INFO hash_size` (KiB, as the GUI sends it), in bytes.
    hash_size: Option<u64>,
    threads: usize,
    analysis_mode: bool,
    /// `INFO style`, handed to the thinker before each search.
    style: Option<Style>,
    /// Yixin's `INFO show_detail`: live `MESSAGE REALTIME` output while searching.
    realtime: bool,
}

pub struct Controller {
    config: Config,
    out: Output,
    events: Receiver<Event>,
    sender: Sender<Event>,
    game: Option<GameState>,
    rule: Rule,
    time: TimeSettings,
    /// Time our own moves took this match (for timeout_match without time_left).
    own_time_used: Duration,
    settings: Settings,
    thinker: Option<Box<dyn Thinker>>,
    active: Option<Active>,
    /// Commands that need a quiet engine, held while a move search finishes.
    deferred: VecDeque<(Parsed, Instant)>,
    /// Problems with INFO values, reported at the next BEGIN/TURN/BOARD as the protocol asks.
    pending_errors: Vec<String>,
    /// Yixin-Board's (row, column) mapping when configured; the identity otherwise.
    coords: CoordMap,
}

impl Controller {
    pub fn new(
        config: Config,
        out: Output,
        thinker: Box<dyn Thinker>,
        events: Receiver<Event>,
        sender: Sender<Event>,
    ) -> Controller {
        let time = TimeSettings {
            timeout_turn: config.time.default_timeout_turn_ms,
            timeout_match: 0,
            time_left: None,
            time_increment: 0,
            protocol_lag: config.time.protocol_lag_ms,
            safety_margin: config.time.safety_margin_ms,
            moves_to_go: config.time.moves_to_go,
        };
        let threads = match config.search.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let max_memory = match config.search.default_max_memory_mib {
            0 => None,
            mib => Some(mib << 20),
        };
        let config_transpose =
            config.protocol.mode == ProtocolMode::Yixin && config.protocol.yixin_transpose;
        Controller {
            config,
            out,
            events,
            sender,
            game: None,
            rule: Rule::Freestyle,
            time,
            own_time_used: Duration::ZERO,
            settings: Settings {
                max_nodes: None,
                max_depth: None,
                max_memory,
                hash_size: None,
                threads,
                analysis_mode: false,
                style: None,
                realtime: false,
            },
            thinker: Some(thinker),
            active: None,
            deferred: VecDeque::new(),
            pending_errors: Vec::new(),
            coords: CoordMap {
                transpose: config_transpose,
            },
        }
    }

    /// Runs until END or the end of input. Returns the process exit code.
    pub fn run(mut self) -> i32 {
        while let Ok(event) = self.events.recv() {
            match event {
                Event::Input(parsed, at, line) => {
                    if self.is_end(&parsed) {
                        self.leave();
                    }
                    let parsed = self.translate(parsed, line);
                    self.dispatch(parsed, at);
                }
                Event::Eof => {
                    // The manager closed our input: finish a move we owe, then leave.
                    if let Some(active) = &self.active {
                        active.search.stop();
                        self.wait_for_search();
                    }
                    return 0;
                }
                Event::SearchDone(result, thinker) => {
                    self.thinker = Some(thinker);
                    self.finish_search(result);
                    self.run_deferred();
                }
            }
        }
        0
    }

    /// Applies the protocol mode: commands of another dialect become UNKNOWN, and Yixin's
    /// transposed coordinates are mapped to ours.
    fn translate(&self, parsed: Parsed, line: String) -> Parsed {
        match parsed {
            Parsed::Command(cmd) if !dialect::accepts(self.config.protocol.mode, &cmd) => {
                Parsed::Unknown {
                    line: line.trim().to_string(),
                }
            }
            Parsed::Command(cmd) => Parsed::Command(self.coords.command(cmd)),
            other => other,
        }
    }

    /// END: leave at once, searches and all. Tearing down a big tree, the search threads and the
    /// network takes time a manager may not give, and libtorch's exit-time teardown crashes a
    /// thread still in a forward pass: [`crate::quit::now`] skips it.
    fn leave(&mut self) -> ! {
        self.out.close();
        crate::quit::now(0)
    }

    fn is_end(&self, parsed: &Parsed) -> bool {
        matches!(parsed, Parsed::Command(Command::End))
    }

    /// Handles a command now, or holds it until the running search ends.
    fn dispatch(&mut self, parsed: Parsed, at: Instant) {
        if let Some(active) = &self.active {
            if let Parsed::Command(cmd) = &parsed {
                if !needs_quiet(cmd) && !matches!(cmd, Command::Info(InfoKey::Evaluate(_))) {
                    self.handle(parsed, at);
                    return;
                }
            } else {
                self.handle(parsed, at);
                return;
            }
            // A new position ends pondering at once; a move search owes its answer first.
            if active.purpose == Purpose::Ponder {
                active.search.stop();
            }
            self.deferred.push_back((parsed, at));
            return;
        }
        self.handle(parsed, at);
    }

    fn run_deferred(&mut self) {
        while self.active.is_none() {
            let Some((parsed, at)) = self.deferred.pop_front() else {
                break;
            };
            if self.is_end(&parsed) {
                self.leave();
            }
            self.handle(parsed, at);
        }
    }

    /// Blocks until the running search reports back (used when input ends).
    fn wait_for_search(&mut self) {
        while self.active.is_some() {
            match self.events.recv() {
                Ok(Event::SearchDone(result, thinker)) => {
                    self.thinker = Some(thinker);
                    self.finish_search(result);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }

    fn handle(&mut self, parsed: Parsed, at: Instant) {
        match parsed {
            Parsed::Empty => {}
            Parsed::Unknown { line } => self.out.line(&format::unknown(&line)),
            Parsed::Error { message } => self.out.line(&format::error(&message)),
            Parsed::Command(cmd) => self.command(cmd, at),
        }
    }

    fn command(&mut self, cmd: Command, at: Instant) {
        match cmd {
            Command::Start(n) => self.start(n, n),
            Command::RectStart(w, h) => self.start(w, h),
            Command::Restart => match &mut self.game {
                Some(game) => {
                    game.restart();
                    self.own_time_used = Duration::ZERO;
                    self.out.line(&format::ok());
                }
                None => self.out.line(&format::error("RESTART before START")),
            },
            Command::Begin => self.position_then_move(at, |game| {
                if game.board().stone_count() > 0 {
                    log::warn!("BEGIN on a board with stones: playing for the side to move");
                }
                Ok(())
            }),
            Command::Turn(p) => self.position_then_move(at, |game| game.opponent_move(p)),
            Command::Board { stones, search } => {
                if search {
                    self.position_then_move(at, |game| game.set_board(&stones));
                } else {
                    match self.game_mut() {
                        Ok(game) => {
                            if let Err(e) = game.set_board(&stones) {
                                self.out.line(&format::error(&e.to_string()));
                            }
                        }
                        Err(e) => self.out.line(&format::error(&e)),
                    }
                }
            }
            Command::Play(p) => match self.game_mut() {
                Ok(game) => match game.own_move(p) {
                    Ok(()) => self
                        .out
                        .line(&format::move_answer(self.coords.to_protocol(p))),
                    Err(e) => self.out.line(&format::error(&e.to_string())),
                },
                Err(e) => self.out.line(&format::error(&e)),
            },
            Command::Takeback(p) => match self.game_mut() {
                Ok(game) => match game.take_back(p) {
                    Ok(()) => self.out.line(&format::ok()),
                    Err(e) => self.out.line(&format::error(&e.to_string())),
                },
                Err(e) => self.out.line(&format::error(&e)),
            },
            Command::Info(key) => self.info(key),
            Command::About => self.out.line(&format::about(&format::About::hoshi())),
            Command::End => {}
            Command::Stop => {
                if let Some(active) = &self.active {
                    active.search.stop();
                }
            }
            Command::Ponder(ms) => self.ponder(ms),
            Command::ClearHash => {
                if let Some(thinker) = &mut self.thinker {
                    thinker.clear();
                }
            }
            Command::ProtocolVersion => self.out.line(&format::protocol_version(1, 0)),
            Command::ShowForbid(stones) => self.show_forbid(stones),
            Command::YxShowInfo => {
                self.out
                    .line(&format::max_thread_num(self.max_threads() as u32));
                self.out
                    .line(&format::max_hash_size(self.max_hash_exponent()));
            }
            Command::YxBlock(points) => match self.game_mut() {
                Ok(game) => game.block(&points),
                Err(e) => self.out.line(&format::error(&e)),
            },
            Command::YxBlockUndo(points) => match self.game_mut() {
                Ok(game) => game.unblock(&points),
                Err(e) => self.out.line(&format::error(&e)),
            },
            Command::YxBlockReset => {
                if let Some(game) = &mut self.game {
                    game.unblock_all();
                }
            }
            Command::Swap2Board(stones) => {
                let board = self.opening_board(&stones);
                self.opening(at, board, openings::swap2);
            }
            Command::SwapBoard(stones) => {
                let board = self.opening_board(&stones);
                self.opening(at, board, openings::swap);
            }
            Command::YxSwap2Step(_) => {
                // The position comes from the yxboard before it: 0, 3 or 5 stones.
                let board = self.current_board();
                self.opening(at, board, openings::swap2);
            }
            Command::Balance { n, stones } => {
                let board = self.balance_board(&stones);
                let n = n as usize;
                self.opening(at, board, move |step, b| {
                    OpeningAnswer::Moves(step.balance(b, n))
                });
            }
            Command::YxBalanceOne(_) | Command::YxBalanceTwo(_) => {
                let n = if matches!(cmd, Command::YxBalanceOne(_)) {
                    1
                } else {
                    2
                };
                let board = self.current_board();
                self.opening(at, board, move |step, b| {
                    OpeningAnswer::Moves(step.balance(b, n))
                });
            }
            Command::YxNbest(n) => self.nbest(n, at),
            // The GUI tells us the game ended by agreement or resignation: nothing to answer.
            Command::YxDraw | Command::YxResign => {
                if let Some(active) = &self.active {
                    active.search.stop();
                }
            }
            other => self.out.line(&format::error(&format!(
                "{} is not supported by this version of hoshi",
                other.name()
            ))),
        }
    }

    /// `MAX_HASH_SIZE` for Yixin-Board: the largest `hash_size`, as a power of two of KiB, that
    /// the search can use (its tree is capped at `[search] tree_cap_mib`).
    fn max_hash_exponent(&self) -> u64 {
        let kib = self.config.search.tree_cap_mib.max(1) * 1024;
        u64::from(kib.ilog2())
    }

    /// The search's memory budget: `INFO max_memory`, narrowed by Yixin-Board's `hash_size`.
    fn memory_budget(&self) -> Option<u64> {
        match (self.settings.max_memory, self.settings.hash_size) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn max_threads(&self) -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    fn game_mut(&mut self) -> Result<&mut GameState, String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: send START first".to_string())
    }

    fn start(&mut self, width: usize, height: usize) {
        match GameState::new(width, height, self.rule) {
            Ok(game) => {
                self.game = Some(game);
                self.own_time_used = Duration::ZERO;
                self.time.time_left = None;
                self.out.line(&format::ok());
            }
            Err(e) => self.out.line(&format::error(&e.to_string())),
        }
    }

    fn info(&mut self, key: InfoKey) {
        if self.config.protocol.mode == ProtocolMode::Gomocup && !is_gomocup_info(&key) {
            log::debug!("INFO ignored in gomocup mode: {key:?}");
            return;
        }
        match key {
            InfoKey::TimeoutTurn(v) => self.time.timeout_turn = v,
            InfoKey::TimeoutMatch(v) => self.time.timeout_match = v,
            InfoKey::TimeLeft(v) => self.time.time_left = Some(v),
            InfoKey::TimeIncrement(v) => {
                if v < 0 {
                    self.pending_errors
                        .push(format!("INFO time_increment {v}: must not be negative"));
                } else {
                    self.time.time_increment = v;
                }
            }
            InfoKey::ProtocolLag(v) => {
                if v < 0 {
                    self.pending_errors
                        .push(format!("INFO protocol_lag {v}: must not be negative"));
                } else {
                    self.time.protocol_lag = v as u64;
                }
            }
            InfoKey::MaxMemory(v) => {
                self.settings.max_memory = if v <= 0 { None } else { Some(v as u64) };
                const MIN_USEFUL: i64 = 16 << 20;
                if v > 0 && v < MIN_USEFUL {
                    self.pending_errors.push(format!(
                        "INFO max_memory {v}: too little memory for a search, playing with what there is"
                    ));
                }
            }
            InfoKey::HashSize(kib) => {
                self.settings.hash_size = if kib <= 0 {
                    None
                } else {
                    Some((kib as u64).saturating_mul(1024))
                };
                const MIN_USEFUL_KIB: i64 = 16 << 10;
                if kib > 0 && kib < MIN_USEFUL_KIB {
                    self.pending_errors.push(format!(
                        "INFO hash_size {kib}: too little memory for a search, playing with what there is"
                    ));
                }
            }
            InfoKey::Rule(code) => match Rule::from_protocol(code) {
                Some(rule) => {
                    self.rule = rule;
                    if let Some(game) = &mut self.game {
                        game.set_rule(rule);
                    }
                }
                None => self.pending_errors.push(format!(
                    "INFO rule {code}: unsupported rule (0 freestyle, 1 standard, 2 or 4 renju, 8 caro, 9 caro exactly five); keeping {}",
                    self.rule
                )),
            },
            InfoKey::MaxNode(v) => {
                self.settings.max_nodes = if v <= 0 { None } else { Some(v as u64) }
            }
            InfoKey::MaxDepth(v) => {
                self.settings.max_depth = if v <= 0 { None } else { Some(v.min(u32::MAX as i64) as u32) }
            }
            InfoKey::ThreadNum(v) => {
                if v <= 0 {
                    self.pending_errors
                        .push(format!("INFO thread_num {v}: must be greater than 0"));
                } else {
                    self.settings.threads = (v as usize).min(1024);
                }
            }
            InfoKey::AnalysisMode(v) => self.settings.analysis_mode = v == 1,
            InfoKey::Style(v) => match Style::from_protocol(v) {
                Some(style) => self.settings.style = Some(style),
                None => self
                    .pending_errors
                    .push(format!("INFO style {v}: expected 0, 1 or 2")),
            },
            InfoKey::ShowDetail(v) => self.settings.realtime = v > 0,
            InfoKey::Evaluate(path) => self.evaluate(path),
            // Accepted and ignored: they do not change how we play (or not yet).
            other => log::debug!("INFO ignored: {other:?}"),
        }
    }

    /// Sets up the position with `setup`, then searches and answers with a move.
    fn position_then_move(
        &mut self,
        at: Instant,
        setup: impl FnOnce(&mut GameState) -> Result<(), PositionError>,
    ) {
        for e in std::mem::take(&mut self.pending_errors) {
            self.out.line(&format::error(&e));
        }
        let game = match self.game_mut() {
            Ok(g) => g,
            Err(e) => {
                self.out.line(&format::error(&e));
                return;
            }
        };
        if let Err(e) = setup(game) {
            self.out.line(&format::error(&e.to_string()));
            return;
        }
        if !game.has_legal_move() {
            self.out
                .line(&format::error("no legal move: the board is full"));
            return;
        }
        let purpose = if self.settings.analysis_mode {
            Purpose::Suggest
        } else {
            Purpose::Play
        };
        if self.answer_if_finished(purpose) {
            return;
        }
        let request = self.think_request(self.turn_limits(at));
        self.start_job(think_job(request), purpose, at);
    }

    /// The limits of one turn, from the clock and the INFO settings.
    fn turn_limits(&self, at: Instant) -> Limits {
        let budget = self.time.budget(self.own_time_used);
        Limits {
            target: at.checked_add(budget.target),
            hard: at.checked_add(budget.hard),
            max_nodes: self.settings.max_nodes,
            max_depth: self.settings.max_depth,
            threads: self.settings.threads,
            max_memory_bytes: self.memory_budget(),
        }
    }

    fn think_request(&self, limits: Limits) -> ThinkRequest {
        let game = self.game.as_ref().expect("a game exists when searching");
        ThinkRequest {
            board: game.board().clone(),
            blocked: game.blocked(),
            limits,
        }
    }

    fn ponder(&mut self, ms: Option<i64>) {
        let Some(game) = &self.game else {
            self.out.line(&format::error("no game: send START first"));
            return;
        };
        if !game.has_legal_move() || game.five_owner().is_some() {
            return;
        }
        let mut limits = Limits::infinite(self.settings.threads);
        if let Some(ms) = ms.filter(|&ms| ms >= 0) {
            limits = Limits::movetime(ms as u64, self.settings.threads);
        }
        limits.max_memory_bytes = self.memory_budget();
        let request = self.think_request(limits);
        self.start_job(think_job(request), Purpose::Ponder, Instant::now());
    }

    /// yxnbest n: search the current position, report the n best moves.
    fn nbest(&mut self, n: u32, at: Instant) {
        match &self.game {
            Some(game) if game.has_legal_move() => {}
            Some(_) => return self.out.line(&format::error("no legal move")),
            None => return self.out.line(&format::error("no game: send START first")),
        }
        if self.answer_if_finished(Purpose::Nbest(n)) {
            return;
        }
        let request = self.think_request(self.turn_limits(at));
        self.start_job(think_job(request), Purpose::Nbest(n), at);
    }

    /// A five already on the board ends the game (qpiskvork sends the losing side the move that
    /// completes the opponent's five before END): nothing to search. Answers at once with a
    /// legal move and the decided result, and says whether it did.
    fn answer_if_finished(&mut self, purpose: Purpose) -> bool {
        let Some(game) = &self.game else {
            return false;
        };
        let Some(winner) = game.five_owner() else {
            return false;
        };
        let me = game.board().side_to_move();
        let best = game.any_legal_move();
        let eval = if winner == me {
            Eval::Win(0)
        } else {
            Eval::Loss(0)
        };
        let result = ThinkResult {
            best,
            info: SearchInfo {
                depth_min: 0,
                depth_max: 0,
                eval,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: best.map(|p| vec![(me, p)]).unwrap_or_default(),
            },
            ranked: best.map(|p| vec![(p, eval.score())]).unwrap_or_default(),
            visits: Vec::new(),
        };
        log::info!("the game is over ({winner:?} has five): answering without a search");
        self.answer_search(purpose, result);
        true
    }

    /// Runs an opening duty on `board` under this turn's clock.
    fn opening(
        &mut self,
        at: Instant,
        board: Result<Board, String>,
        duty: impl FnOnce(&mut Step, &Board) -> OpeningAnswer + Send + 'static,
    ) {
        if self.game.is_none() {
            return self.out.line(&format::error("no game: send START first"));
        }
        let board = match board {
            Ok(b) => b,
            Err(e) => return self.out.line(&format::error(&e)),
        };
        let limits = self.turn_limits(at);
        let blocked = self.game.as_ref().map(|g| g.blocked()).unwrap_or_default();
        let job: Job = Box::new(move |thinker, stop| {
            let mut step = Step {
                thinker,
                stop,
                deadline: limits.target,
                threads: limits.threads,
                max_memory: limits.max_memory_bytes,
                blocked,
            };
            JobOutput::Opening(duty(&mut step, &board))
        });
        self.start_job(job, Purpose::Opening, at);
    }

    /// The current board with `stones` played in order (SWAP2BOARD, SWAPBOARD).
    fn opening_board(&self, stones: &[Point]) -> Result<Board, String> {
        let game = self.game.as_ref().ok_or("no game: send START first")?;
        openings::opening_board(game.board(), stones)
    }

    /// BALANCE n: the block's position (our game stays as it was).
    fn balance_board(&self, stones: &[(Point, Field)]) -> Result<Board, String> {
        let game = self.game.as_ref().ok_or("no game: send START first")?;
        let mut scratch = game.clone();
        scratch.set_board(stones).map_err(|e| e.to_string())?;
        Ok(scratch.board().clone())
    }

    fn current_board(&self) -> Result<Board, String> {
        self.game
            .as_ref()
            .map(|g| g.board().clone())
            .ok_or_else(|| "no game: send START first".to_string())
    }

    /// `INFO evaluate [path]` (extended 3.3.1): what the kept tree says about the position after
    /// the path, as a MESSAGE; an empty MESSAGE when the path is not in it. Gomocup's debug-only
    /// mouse position (gomocup mode) is ignored, as the base protocol asks of release brains.
    fn evaluate(&mut self, path: Vec<Point>) {
        if self.config.protocol.mode == ProtocolMode::Gomocup {
            return;
        }
        let (Some(game), Some(thinker)) = (&self.game, &self.thinker) else {
            self.out.line(&format::message(""));
            return;
        };
        let text = thinker
            .evaluate_path(game.board(), &path)
            .map(|info| crate::protocol::report::search_message(&info))
            .unwrap_or_default();
        self.out.line(&format::message(&text));
    }

    /// The live-output sink for Yixin-Board: the best move each time it changes, and the
    /// current principal variation as an `INFO PV` block at every report.
    fn progress_sink(&self) -> ProgressSink {
        let out = self.out.clone();
        let coords = self.coords;
        let last: Mutex<Option<Point>> = Mutex::new(None);
        Arc::new(move |info, best| {
            let Some(best) = best else { return };
            {
                let mut last = last.lock();
                if *last != Some(best) {
                    *last = Some(best);
                    out.line(&format::realtime_best(coords.to_protocol(best)));
                }
            }
            let live = ThinkResult {
                best: Some(best),
                info: info.clone(),
                ranked: vec![(best, info.eval.score())],
                visits: Vec::new(),
            };
            for line in crate::protocol::report::multipv_lines(&live, 1, coords) {
                out.line(&line);
            }
        })
    }

    fn start_job(&mut self, job: Job, purpose: Purpose, at: Instant) {
        let mut thinker = self.thinker.take().expect("the thinker is home when idle");
        if let Some(style) = self.settings.style {
            thinker.set_style(style);
        }
        // Live output is about the game's position: not for opening duties' side searches.
        let live = self.settings.realtime && purpose != Purpose::Opening;
        thinker.set_progress(live.then(|| self.progress_sink()));
        let search = Running::start(thinker, job, self.sender.clone(), search_done);
        self.active = Some(Active {
            search,
            purpose,
            started: at,
        });
    }

    fn finish_search(&mut self, output: JobOutput) {
        let Some(active) = self.active.take() else {
            return;
        };
        if active.purpose == Purpose::Ponder {
            return;
        }
        self.own_time_used += active.started.elapsed();
        match output {
            JobOutput::Opening(answer) => self.answer_opening(answer),
            JobOutput::Think(result) => self.answer_search(active.purpose, result),
        }
    }

    fn answer_opening(&mut self, answer: OpeningAnswer) {
        let line = match answer {
            OpeningAnswer::Swap => format::swap(),
            OpeningAnswer::Moves(points) => format::moves(&self.coords.to_protocol_all(&points)),
            OpeningAnswer::Error(e) => format::error(&e),
        };
        self.out.line(&line);
    }

    fn answer_search(&mut self, purpose: Purpose, result: ThinkResult) {
        let game = self.game.as_mut().expect("a game exists after a search");
        let Some(best) = result.best.or_else(|| game.any_legal_move()) else {
            self.out.line(&format::error("no legal move"));
            return;
        };
        if self.config.protocol.search_message {
            let info = &result.info;
            self.out
                .line(&format::message(&crate::protocol::report::search_message(
                    info,
                )));
            if let Some(rates) = crate::protocol::report::rates_message(info) {
                self.out.line(&format::message(&rates));
            }
        }
        let shown = self.coords.to_protocol(best);
        match purpose {
            Purpose::Play => {
                if let Err(e) = game.own_move(best) {
                    // Never happens with a correct thinker; say so rather than play it.
                    log::error!("search returned an unplayable move {best}: {e}");
                    self.out
                        .line(&format::error(&format!("internal error: {e}")));
                    return;
                }
                self.out.line(&format::move_answer(shown));
            }
            Purpose::Suggest => self.out.line(&format::suggest(shown)),
            Purpose::Nbest(n) => {
                for line in crate::protocol::report::multipv_lines(&result, n as usize, self.coords)
                {
                    self.out.line(&line);
                }
                self.out.line(&format::move_answer(shown));
            }
            Purpose::Ponder | Purpose::Opening => {}
        }
    }

    fn show_forbid(&mut self, stones: Option<Vec<(Point, Field)>>) {
        match stones {
            Some(stones) => {
                // Extended SHOWFORBID: a board of its own; our game stays as it was.
                let Some(game) = &self.game else {
                    self.out.line(&format::error("no game: send START first"));
                    return;
                };
                let mut scratch = game.clone();
                match scratch.set_board(&stones) {
                    Ok(()) => self.out.line(&format::forbid_gomocup(
                        &self.coords.to_protocol_all(&scratch.forbidden_points()),
                    )),
                    Err(e) => self.out.line(&format::error(&e.to_string())),
                }
            }
            None => {
                let points = self
                    .game
                    .as_ref()
                    .map(|g| g.forbidden_points())
                    .unwrap_or_default();
                self.out
                    .line(&format::forbid_yixin(&self.coords.to_protocol_all(&points)));
            }
        }
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

/// Commands that change the position or need the thinker, so they wait for a search to end.
fn needs_quiet(cmd: &Command) -> bool {
    !matches!(
        cmd,
        Command::Info(_)
            | Command::Stop
            | Command::End
            | Command::About
            | Command::ProtocolVersion
            | Command::YxShowInfo
    )
}
