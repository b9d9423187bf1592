//! The controller: owns the game, the settings, the match clock and the thinker, and runs the
//! life cycle idle → search (or ponder) → idle, holding the commands that need a quiet engine
//! until the search ends.
//!
//! `protocol`'s reader thread sends typed [`Request`]s (`protocol::file_brain` sends its one
//! turn's), and the search threads their results, over one channel, so STOP, yxstop and END act
//! while a search runs. Answers and live reports go
//! out as typed [`Answer`]s through an [`AnswerSink`]; which dialect is spoken is not known here.
use super::answer::{Answer, AnswerSink};
use super::game_state::{GameState, PositionError};
use super::opening_duties::{self, OpeningAnswer, Step};
use super::request::{Command, Field, InfoKey, Request};
use super::settings::Settings;
use super::turn::{ponder_limits, MatchClock};
use super::worker::{think_job, Job, JobOutput, Running};
use crate::config::Config;
use crate::game::{Board, Point};
use crate::search::{Eval, Limits, ProgressSink, SearchInfo, ThinkRequest, ThinkResult, Thinker};
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The one error of every request that needs a game before START.
const NO_GAME: &str = "no game: send START first";

/// Everything that reaches the controller.
pub enum Event {
    /// A request, and when its line arrived.
    Request(Request, Instant),
    /// The input ended: a running search is stopped and answered.
    Eof,
    /// No more requests will come, and the running search should end by its own limits (the
    /// file protocol's one turn): answer it, then return.
    AwaitSearch,
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

pub struct Controller {
    answers: Arc<dyn AnswerSink>,
    events: Receiver<Event>,
    sender: Sender<Event>,
    game: Option<GameState>,
    settings: Settings,
    clock: MatchClock,
    /// `MAX_HASH_SIZE` for Yixin-Board: the largest `hash_size`, as a power of two of KiB, that
    /// the search can use (its tree is capped at `[search] tree_cap_mib`).
    max_hash_exponent: u64,
    thinker: Option<Box<dyn Thinker>>,
    active: Option<Active>,
    /// Commands that need a quiet engine, held while a move search finishes.
    deferred: VecDeque<(Command, Instant)>,
}

impl Controller {
    pub fn new(
        config: Config,
        answers: Arc<dyn AnswerSink>,
        thinker: Box<dyn Thinker>,
        events: Receiver<Event>,
        sender: Sender<Event>,
    ) -> Controller {
        let kib = config.search.tree_cap_mib.max(1) * 1024;
        Controller {
            answers,
            events,
            sender,
            game: None,
            settings: Settings::from_config(&config),
            clock: MatchClock::default(),
            max_hash_exponent: u64::from(kib.ilog2()),
            thinker: Some(thinker),
            active: None,
            deferred: VecDeque::new(),
        }
    }

    /// Runs until END or the end of input. Returns the process exit code.
    pub fn run(mut self) -> i32 {
        while let Ok(event) = self.events.recv() {
            match event {
                Event::Request(request, at) => self.dispatch(request, at),
                Event::Eof => {
                    // The manager closed our input: finish a move we owe, then leave.
                    if let Some(active) = &self.active {
                        active.search.stop();
                        self.wait_for_search();
                    }
                    return 0;
                }
                Event::AwaitSearch => {
                    self.wait_for_search();
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

    /// END: leave at once, searches and all. Tearing down a big tree, the search threads and the
    /// network takes time a manager may not give, and libtorch's exit-time teardown crashes a
    /// thread still in a forward pass: [`crate::quit::now`] skips it.
    fn leave(&mut self) -> ! {
        self.answers.close();
        crate::quit::now(0)
    }

    fn send(&self, answer: Answer) {
        self.answers.send(answer);
    }

    /// Answers a request now, or holds a command until the running search ends.
    fn dispatch(&mut self, request: Request, at: Instant) {
        let cmd = match request {
            Request::Command(cmd) => cmd,
            Request::Unknown(line) => return self.send(Answer::Unknown(line)),
            Request::Malformed(message) => return self.send(Answer::Error(message)),
        };
        if let Some(active) = &self.active {
            if needs_quiet(&cmd) {
                // A new position ends pondering at once; a move search owes its answer first.
                if active.purpose == Purpose::Ponder {
                    active.search.stop();
                }
                self.deferred.push_back((cmd, at));
                return;
            }
        }
        self.command(cmd, at);
    }

    fn run_deferred(&mut self) {
        while self.active.is_none() {
            let Some((cmd, at)) = self.deferred.pop_front() else {
                break;
            };
            self.command(cmd, at);
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

    fn command(&mut self, cmd: Command, at: Instant) {
        if let Err(e) = self.try_command(cmd, at) {
            self.send(Answer::Error(e));
        }
    }

    /// Carries out one command; an error is answered `ERROR` by the caller.
    fn try_command(&mut self, cmd: Command, at: Instant) -> Result<(), String> {
        match cmd {
            Command::Start(n) => self.start(n, n)?,
            Command::RectStart(w, h) => self.start(w, h)?,
            Command::Restart => {
                let game = self.game.as_mut().ok_or("RESTART before START")?;
                game.restart();
                self.clock.new_match();
                self.send(Answer::Ok);
            }
            Command::Begin => self.position_then_move(at, |game| {
                if game.board().stone_count() > 0 {
                    log::warn!("BEGIN on a board with stones: playing for the side to move");
                }
                Ok(())
            })?,
            Command::Turn(p) => self.position_then_move(at, |game| game.opponent_move(p))?,
            Command::Board {
                stones,
                search: true,
            } => self.position_then_move(at, |game| game.set_board(&stones))?,
            Command::Board {
                stones,
                search: false,
            } => self.game_mut()?.set_board(&stones).map_err(text)?,
            Command::Position { board, blocked } => {
                self.position_then_move(at, |game| game.set_position(*board, blocked))?
            }
            Command::Play(p) => {
                self.game_mut()?.own_move(p).map_err(text)?;
                self.send(Answer::Move(p));
            }
            Command::Takeback(p) => {
                self.game_mut()?.take_back(p).map_err(text)?;
                self.send(Answer::Ok);
            }
            Command::Info(InfoKey::Evaluate(path)) => self.evaluate(path),
            Command::Info(key) => {
                if let Some(rule) = self.settings.apply(key) {
                    if let Some(game) = &mut self.game {
                        game.set_rule(rule);
                    }
                }
            }
            Command::About => self.send(Answer::About),
            Command::End => self.leave(),
            Command::Stop | Command::YxDraw | Command::YxResign => {
                // YxDraw / YxResign: the GUI says the game ended by agreement or resignation;
                // nothing to answer.
                if let Some(active) = &self.active {
                    active.search.stop();
                }
            }
            Command::Ponder(ms) => self.ponder(ms)?,
            Command::ClearHash => {
                if let Some(thinker) = &mut self.thinker {
                    thinker.clear();
                }
            }
            Command::ProtocolVersion => self.send(Answer::ProtocolVersion),
            Command::ShowForbid(stones) => self.show_forbid(stones)?,
            Command::YxShowInfo => self.send(Answer::Capacity {
                max_threads: std::thread::available_parallelism().map_or(1, |n| n.get()) as u32,
                max_hash_exponent: self.max_hash_exponent,
            }),
            Command::YxBlock(points) => self.game_mut()?.block(&points),
            Command::YxBlockUndo(points) => self.game_mut()?.unblock(&points),
            Command::YxBlockReset => {
                if let Some(game) = &mut self.game {
                    game.unblock_all();
                }
            }
            Command::Swap2Board(stones) => {
                let board = self.opening_board(&stones);
                self.opening(at, board, opening_duties::swap2)?;
            }
            Command::SwapBoard(stones) => {
                let board = self.opening_board(&stones);
                self.opening(at, board, opening_duties::swap)?;
            }
            Command::YxSwap2Step(_) => {
                // The position comes from the yxboard before it: 0, 3 or 5 stones.
                let board = self.current_board();
                self.opening(at, board, opening_duties::swap2)?;
            }
            Command::Balance { n, stones } => {
                let board = self.balance_board(&stones);
                let n = n as usize;
                self.opening(at, board, move |step, b| {
                    OpeningAnswer::Moves(step.balance(b, n))
                })?;
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
                })?;
            }
            Command::YxNbest(n) => self.nbest(n, at)?,
            other => {
                return Err(format!(
                    "{} is not supported by this version of hoshi",
                    other.name()
                ))
            }
        }
        Ok(())
    }

    fn game(&self) -> Result<&GameState, String> {
        self.game.as_ref().ok_or_else(|| NO_GAME.to_string())
    }

    fn game_mut(&mut self) -> Result<&mut GameState, String> {
        self.game.as_mut().ok_or_else(|| NO_GAME.to_string())
    }

    fn start(&mut self, width: usize, height: usize) -> Result<(), String> {
        self.game = Some(GameState::new(width, height, self.settings.rule).map_err(text)?);
        self.clock.new_match();
        self.settings.time.time_left = None;
        self.send(Answer::Ok);
        Ok(())
    }

    /// Sets up the position with `setup`, then searches and answers with a move. The INFO
    /// errors since the last move come first.
    fn position_then_move(
        &mut self,
        at: Instant,
        setup: impl FnOnce(&mut GameState) -> Result<(), PositionError>,
    ) -> Result<(), String> {
        for e in self.settings.take_errors() {
            self.send(Answer::Error(e));
        }
        let game = self.game_mut()?;
        setup(game).map_err(text)?;
        if !game.has_legal_move() {
            return Err("no legal move: the board is full".to_string());
        }
        let purpose = if self.settings.analysis_mode {
            Purpose::Suggest
        } else {
            Purpose::Play
        };
        if self.answer_if_finished(purpose) {
            return Ok(());
        }
        let request = self.think_request(self.turn_limits(at));
        self.start_job(think_job(request), purpose, at);
        Ok(())
    }

    /// The limits of a turn on the game's board whose command arrived `at`.
    fn turn_limits(&self, at: Instant) -> Limits {
        let stones = self.game.as_ref().map_or(0, |g| g.board().stone_count());
        self.clock.turn_limits(&self.settings, at, stones)
    }

    fn think_request(&self, limits: Limits) -> ThinkRequest {
        let game = self.game.as_ref().expect("a game exists when searching");
        ThinkRequest {
            board: game.board().clone(),
            blocked: game.blocked(),
            limits,
        }
    }

    fn ponder(&mut self, ms: Option<i64>) -> Result<(), String> {
        let game = self.game()?;
        if !game.has_legal_move() || game.five_owner().is_some() {
            return Ok(());
        }
        let request = self.think_request(ponder_limits(&self.settings, ms));
        self.start_job(think_job(request), Purpose::Ponder, Instant::now());
        Ok(())
    }

    /// yxnbest n: search the current position, report the n best moves.
    fn nbest(&mut self, n: u32, at: Instant) -> Result<(), String> {
        if !self.game()?.has_legal_move() {
            return Err("no legal move".to_string());
        }
        if self.answer_if_finished(Purpose::Nbest(n)) {
            return Ok(());
        }
        let request = self.think_request(self.turn_limits(at));
        self.start_job(think_job(request), Purpose::Nbest(n), at);
        Ok(())
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
    ) -> Result<(), String> {
        let blocked = self.game()?.blocked();
        let board = board?;
        let limits = self
            .clock
            .turn_limits(&self.settings, at, board.stone_count());
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
        Ok(())
    }

    /// The current board with `stones` played in order (SWAP2BOARD, SWAPBOARD).
    fn opening_board(&self, stones: &[Point]) -> Result<Board, String> {
        opening_duties::opening_board(self.game()?.board(), stones)
    }

    /// BALANCE n: the block's position (our game stays as it was).
    fn balance_board(&self, stones: &[(Point, Field)]) -> Result<Board, String> {
        let mut scratch = self.game()?.clone();
        scratch.set_board(stones).map_err(text)?;
        Ok(scratch.board().clone())
    }

    fn current_board(&self) -> Result<Board, String> {
        Ok(self.game()?.board().clone())
    }

    /// `INFO evaluate [path]` (extended 3.3.1): what the kept tree says about the position after
    /// the path; nothing when the path is not in it.
    fn evaluate(&mut self, path: Vec<Point>) {
        let (Some(game), Some(thinker)) = (&self.game, &self.thinker) else {
            return self.send(Answer::Evaluation(None));
        };
        self.send(Answer::Evaluation(
            thinker.evaluate_path(game.board(), &path),
        ));
    }

    /// The live-output sink: the best move each time it changes, and the current principal
    /// variation at every report.
    fn progress_sink(&self) -> ProgressSink {
        let answers = Arc::clone(&self.answers);
        let last: Mutex<Option<Point>> = Mutex::new(None);
        Arc::new(move |info, best| {
            let Some(best) = best else { return };
            {
                let mut last = last.lock();
                if *last != Some(best) {
                    *last = Some(best);
                    answers.send(Answer::RealtimeBest(best));
                }
            }
            let live = ThinkResult {
                best: Some(best),
                info: info.clone(),
                ranked: vec![(best, info.eval.score())],
                visits: Vec::new(),
            };
            answers.send(Answer::BestLines {
                result: live,
                count: 1,
            });
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
        self.clock.spent(active.started.elapsed());
        match output {
            JobOutput::Opening(OpeningAnswer::Swap) => self.send(Answer::Swap),
            JobOutput::Opening(OpeningAnswer::Moves(points)) => self.send(Answer::Stones(points)),
            JobOutput::Opening(OpeningAnswer::Error(e)) => self.send(Answer::Error(e)),
            JobOutput::Think(result) => self.answer_search(active.purpose, result),
            // As for an unplayable move: say so rather than make one up.
            JobOutput::Panicked => self.send(Answer::Error(
                "internal error: the search panicked".to_string(),
            )),
        }
    }

    fn answer_search(&mut self, purpose: Purpose, result: ThinkResult) {
        let game = self.game.as_mut().expect("a game exists after a search");
        let Some(best) = result.best.or_else(|| game.any_legal_move()) else {
            return self.send(Answer::Error("no legal move".to_string()));
        };
        self.answers
            .send(Answer::SearchSummary(result.info.clone()));
        match purpose {
            Purpose::Play => {
                if let Err(e) = game.own_move(best) {
                    // Never happens with a correct thinker; say so rather than play it.
                    log::error!("search returned an unplayable move {best}: {e}");
                    return self.send(Answer::Error(format!("internal error: {e}")));
                }
                self.send(Answer::Move(best));
            }
            Purpose::Suggest => self.send(Answer::Suggest(best)),
            Purpose::Nbest(n) => {
                self.send(Answer::BestLines {
                    result,
                    count: n as usize,
                });
                self.send(Answer::Move(best));
            }
            Purpose::Ponder | Purpose::Opening => {}
        }
    }

    /// Extended SHOWFORBID (`Some`: a board of its own; our game stays as it was) or Yixin's
    /// yxshowforbid (`None`: the game's position, empty before START).
    fn show_forbid(&mut self, stones: Option<Vec<(Point, Field)>>) -> Result<(), String> {
        let answer = match stones {
            Some(stones) => {
                let mut scratch = self.game()?.clone();
                scratch.set_board(&stones).map_err(text)?;
                Answer::Forbidden {
                    points: scratch.forbidden_points(),
                    on_request_board: true,
                }
            }
            None => Answer::Forbidden {
                points: self
                    .game
                    .as_ref()
                    .map(|g| g.forbidden_points())
                    .unwrap_or_default(),
                on_request_board: false,
            },
        };
        self.send(answer);
        Ok(())
    }
}

/// An error's text for the `ERROR` answer.
fn text(e: impl ToString) -> String {
    e.to_string()
}

/// Commands that change the position or need the thinker, so they wait for a search to end.
/// `INFO evaluate` reads the thinker's tree, so it waits too.
fn needs_quiet(cmd: &Command) -> bool {
    match cmd {
        Command::Info(key) => matches!(key, InfoKey::Evaluate(_)),
        other => !matches!(
            other,
            Command::Stop
                | Command::End
                | Command::About
                | Command::ProtocolVersion
                | Command::YxShowInfo
        ),
    }
}
