//! The Universal Chess Interface: the engine's conversation with a GUI on standard input and
//! output.
//!
//! The reading thread answers every command at once; `go` hands the search to the search thread
//! (started at the first `go` and kept), so `stop`, `isready` and `quit` are answered while it
//! runs. No input ends the process: an unknown or malformed line is ignored with an `info string`
//! saying why, and an illegal move in `position ... moves` ends the move list there, with the
//! reason.

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use qbb::{Backend, BackendKind};

use crate::score::UciScore;
use crate::search::{MAX_THREADS, Report, SEARCH_STACK_BYTES, SearchJob, SearchResult, Searcher};
use crate::time::Limits;
use crate::tt::{DEFAULT_HASH_MB, MAX_HASH_MB, MIN_HASH_MB};
use crate::{Attacks, MAX_MOVES, Move, MoveError, MoveList, Position, divide_on, nnue};

/// Where the engine's lines go: standard output, or a buffer in tests. Called from both threads;
/// each call writes one whole line.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Whether to keep reading after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// The `EvalFile` value that names the network built into the binary.
const EMBEDDED_NETWORK: &str = "<embedded>";

/// The commands of the protocol (the first known word of a line is the command).
pub const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// The engine's side of the protocol.
pub struct Uci {
    out: Output,
    position: Position,
    /// The hashes of the positions before `position` in the game, oldest first.
    history: Vec<u64>,
    /// The backend the option (or `QBB_BACKEND`) asked for; `None` = the best this CPU runs.
    backend: BackendKind,
    move_overhead: Duration,
    chess960: bool,
    /// Where the move generator takes its attacks, checks and pins from (searches and perft).
    attacks: Attacks,
    /// Shared with the search thread, which holds the lock while it searches.
    searcher: Arc<Mutex<Searcher>>,
    /// Runs every `go`; `None` until the first.
    search_thread: Option<SearchThread>,
    running: Option<RunningSearch>,
}

impl std::fmt::Debug for Uci {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uci")
            .field("position", &self.position.to_fen())
            .field("backend", &self.backend)
            .field("searching", &self.running.is_some())
            .finish_non_exhaustive()
    }
}

struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Told by `ponderhit` that the position pondered on was reached.
    ponderhit: Arc<AtomicBool>,
    /// Set by the search thread just before it writes `bestmove`, once it has let go of the
    /// searcher: from then on the GUI may send the next `position` and `go`, and they must be
    /// served, even if the thread has not quite ended yet.
    answered: Arc<AtomicBool>,
    /// Closed by the search thread once it has written `bestmove` (or if its work panicked).
    finished: mpsc::Receiver<()>,
}

/// A piece of work for the search thread: a search or a perft, ending with its answer.
type Task = Box<dyn FnOnce() + Send>;

/// The thread every `go` runs on, kept from one `go` to the next: a new thread per search would
/// map and fault in a fresh 64 MiB stack each time.
struct SearchThread {
    tasks: mpsc::Sender<Task>,
    handle: JoinHandle<()>,
}

impl SearchThread {
    fn spawn() -> io::Result<SearchThread> {
        let (tasks, inbox) = mpsc::channel::<Task>();
        let handle = thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || inbox.into_iter().for_each(|task| task()))?;
        Ok(SearchThread { tasks, handle })
    }
}

/// Why the engine could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot allocate the transposition table: {0}")]
    Memory(#[from] std::collections::TryReserveError),
}

impl Uci {
    /// An engine writing to `out`, on the backend `QBB_BACKEND` names (or the best one; a bad
    /// value is reported and the best one used).
    pub fn new(out: Output) -> Result<Uci, StartError> {
        let backend = match BackendKind::selected() {
            Ok(kind) => kind,
            Err(e) => {
                out(&format!("info string {e}; using the best backend instead"));
                BackendKind::detect_best()
            }
        };
        Ok(Uci {
            out,
            position: Position::startpos(),
            history: Vec::new(),
            backend,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            chess960: false,
            attacks: Attacks::default(),
            searcher: Arc::new(Mutex::new(Searcher::new(DEFAULT_HASH_MB)?)),
            search_thread: None,
            running: None,
        })
    }

    /// The backend searches run on.
    pub fn backend(&self) -> BackendKind {
        self.backend
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn explain(&self, why: &str) {
        self.say(&format!("info string {why}"));
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        self.reap_finished_search();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.is_empty() {
            return Flow::Continue;
        }
        // The protocol: unknown words are skipped, and the rest of the line is read.
        let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            self.explain(&format!("unknown command `{}`, ignored", printable(line)));
            return Flow::Continue;
        };
        if start > 0 {
            self.explain(&format!(
                "skipped unknown `{}` before `{}`",
                printable(&tokens[..start].join(" ")),
                tokens[start]
            ));
        }
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => self.identify(),
            "isready" => self.say("readyok"),
            "debug" | "register" => {}
            "setoption" => self.set_option(args),
            "ucinewgame" => self.new_game(),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "ponderhit" => self.ponder_hit(),
            "quit" => {
                self.stop_search();
                return Flow::Quit;
            }
            _ => unreachable!("every command of COMMANDS is handled"),
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.say(concat!("id name qbb-engine ", env!("CARGO_PKG_VERSION")));
        self.say("id author the qbb-lab authors");
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min {MIN_HASH_MB} max {MAX_HASH_MB}"
        ));
        self.say("option name Clear Hash type button");
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        let backends = combo_vars(BackendKind::ALL.map(BackendKind::name));
        self.say(&format!(
            "option name Backend type combo default auto var auto{backends}"
        ));
        self.say(&format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MOVES}"
        ));
        self.say("option name Ponder type check default false");
        self.say("option name UCI_Chess960 type check default false");
        self.say("option name Use NNUE type check default true");
        self.say(&format!(
            "option name EvalFile type string default {EMBEDDED_NETWORK}"
        ));
        let sources = combo_vars(Attacks::ALL.map(Attacks::name));
        self.say(&format!(
            "option name Attacks type combo default {}{sources}",
            Attacks::default()
        ));
        self.explain(&format!("searching on the {} backend", self.backend));
        self.say("uciok");
    }

    /// Refuses (with a reason) a command that would change what a running search uses.
    fn busy(&self, command: &str) -> bool {
        if self.running.is_some() {
            self.explain(&format!(
                "`{command}` ignored: a search is running (send stop first)"
            ));
        }
        self.running.is_some()
    }

    fn set_option(&mut self, args: &[&str]) {
        if self.busy("setoption") {
            return;
        }
        let Some(("name", rest)) = args.split_first().map(|(a, r)| (*a, r)) else {
            self.explain("setoption ignored: expected `setoption name <name> [value <value>]`");
            return;
        };
        let split = rest.iter().position(|&t| t == "value");
        let name = rest[..split.unwrap_or(rest.len())].join(" ");
        let value = split.map(|i| rest[i + 1..].join(" "));
        let value = value.as_deref().map(str::trim);
        let lower = name.to_ascii_lowercase();
        match (lower.as_str(), value) {
            ("hash", Some(v)) => match v.parse::<usize>() {
                Ok(mb) if (MIN_HASH_MB..=MAX_HASH_MB).contains(&mb) => {
                    if let Err(e) = self.lock_searcher().set_hash(mb) {
                        self.explain(&format!("Hash {mb} refused: {e}; table unchanged"));
                    }
                }
                _ => self.explain(&format!(
                    "Hash `{}` ignored: expected a number of MiB from {MIN_HASH_MB} to {MAX_HASH_MB}",
                    printable(v)
                )),
            },
            ("clear hash", _) => self.lock_searcher().new_game(),
            ("threads", Some(v)) => match v.parse::<usize>() {
                Ok(threads) if (1..=MAX_THREADS).contains(&threads) => {
                    self.lock_searcher().set_threads(threads);
                }
                _ => self.explain(&format!(
                    "Threads `{}` ignored: expected a number of threads from 1 to {MAX_THREADS}",
                    printable(v)
                )),
            },
            ("backend", Some(v)) => self.set_backend(v),
            ("move overhead", Some(v)) => match v.parse::<u64>() {
                Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => {
                    self.move_overhead = Duration::from_millis(ms);
                }
                _ => self.explain(&format!(
                    "Move Overhead `{}` ignored: expected milliseconds from 0 to {MAX_MOVE_OVERHEAD_MS}",
                    printable(v)
                )),
            },
            ("multipv", Some(v)) => match v.parse::<usize>() {
                Ok(lines) if (1..=MAX_MOVES).contains(&lines) => {
                    self.lock_searcher().set_multi_pv(lines);
                }
                _ => self.explain(&format!(
                    "MultiPV `{}` ignored: expected a number of lines from 1 to {MAX_MOVES}",
                    printable(v)
                )),
            },
            // The GUI says whether it will send `go ponder`: nothing to prepare.
            ("ponder", Some(v)) => {
                if !matches!(v.to_ascii_lowercase().as_str(), "true" | "false") {
                    self.explain(&format!(
                        "Ponder `{}` ignored: expected true or false",
                        printable(v)
                    ));
                }
            }
            ("uci_chess960", Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => self.chess960 = true,
                "false" => self.chess960 = false,
                _ => self.explain(&format!(
                    "UCI_Chess960 `{}` ignored: expected true or false",
                    printable(v)
                )),
            },
            ("attacks", Some(v)) => match v.parse::<Attacks>() {
                Ok(attacks) => self.attacks = attacks,
                Err(e) => self.explain(&format!(
                    "Attacks ignored: {}",
                    printable(&e.to_string())
                )),
            },
            ("use nnue", Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => self.lock_searcher().evaluator_mut().set_use_nnue(true),
                "false" => self.lock_searcher().evaluator_mut().set_use_nnue(false),
                _ => self.explain(&format!(
                    "Use NNUE `{}` ignored: expected true or false",
                    printable(v)
                )),
            },
            ("evalfile", Some(v)) => self.set_eval_file(v),
            (
                "hash" | "threads" | "backend" | "move overhead" | "multipv" | "ponder"
                | "uci_chess960" | "attacks" | "use nnue" | "evalfile",
                None,
            ) => {
                self.explain(&format!("option `{name}` ignored: it needs a value"));
            }
            _ => self.explain(&format!("unknown option `{}` ignored", printable(&name))),
        }
    }

    /// Loads a network; a file that cannot be read or is not a network of this engine's shape is
    /// refused with the reason, and the network in use stays.
    fn set_eval_file(&mut self, path: &str) {
        let loaded = if path == EMBEDDED_NETWORK {
            Ok(nnue::embedded_network())
        } else {
            nnue::load_network(path)
        };
        match loaded {
            Ok(network) => {
                self.lock_searcher().evaluator_mut().set_network(network);
                self.explain(&format!("evaluating with the network {}", printable(path)));
            }
            Err(e) => self.explain(&format!(
                "EvalFile `{}` refused: {}; the network in use stays",
                printable(path),
                printable(&e.to_string())
            )),
        }
    }

    fn set_backend(&mut self, value: &str) {
        let wanted = if value.eq_ignore_ascii_case("auto") {
            BackendKind::selected().unwrap_or_else(|_| BackendKind::detect_best())
        } else {
            match value.parse::<BackendKind>() {
                Ok(kind) => kind,
                Err(e) => {
                    self.explain(&format!("{e}; backend stays {}", self.backend));
                    return;
                }
            }
        };
        match wanted.check_available() {
            Ok(()) => {
                self.backend = wanted;
                self.explain(&format!("searching on the {wanted} backend"));
            }
            Err(e) => self.explain(&format!("{e}; backend stays {}", self.backend)),
        }
    }

    fn new_game(&mut self) {
        if self.busy("ucinewgame") {
            return;
        }
        self.lock_searcher().new_game();
        self.position = Position::startpos();
        self.history.clear();
    }

    fn set_position(&mut self, args: &[&str]) {
        if self.busy("position") {
            return;
        }
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => Position::startpos(),
            Some((&"fen", fen)) if !fen.is_empty() => match Position::from_fen(&fen.join(" ")) {
                Ok(pos) => pos,
                Err(e) => {
                    self.explain(&format!("position ignored: bad FEN: {e}"));
                    return;
                }
            },
            _ => {
                self.explain(
                    "position ignored: expected `position startpos|fen <fen> [moves ...]`",
                );
                return;
            }
        };
        let played = qbb::with_backend!(self.backend, |b| play_moves(b, start, moves));
        match played {
            Ok(played) => {
                if let Some(why) = played.stopped_at {
                    self.explain(&why);
                }
                self.position = played.position;
                self.history = played.history;
            }
            Err(e) => self.explain(&format!("position ignored: {e}")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        if self.busy("go") {
            return;
        }
        if let Some((&"perft", rest)) = args.split_first() {
            match rest {
                [depth] => match depth.parse::<u32>() {
                    Ok(depth) if depth <= 20 => self.start(Work::Perft(depth)),
                    _ => self.explain(&format!(
                        "go perft ignored: `{}` is not a depth from 0 to 20",
                        printable(depth)
                    )),
                },
                _ => self.explain("go perft ignored: expected `go perft <depth>`"),
            }
            return;
        }
        match parse_go(args) {
            Ok(go) => {
                for note in &go.notes {
                    self.explain(note);
                }
                let root_moves = self.root_moves(&go.searchmoves);
                self.start(Work::Search(go.limits, root_moves));
            }
            Err(why) => self.explain(&format!("go ignored: {why}")),
        }
    }

    /// The legal moves of `searchmoves` in the current position; each other one is named and
    /// left out.
    fn root_moves(&self, searchmoves: &[String]) -> Vec<Move> {
        let position = self.position;
        let parsed = qbb::with_backend!(self.backend, |b| {
            searchmoves
                .iter()
                .map(|text| position.parse_uci_move(b, text))
                .collect::<Vec<_>>()
        });
        let Ok(parsed) = parsed else {
            self.explain("searchmoves: the backend is not available: searching every move");
            return Vec::new();
        };
        let mut moves = Vec::new();
        for (text, result) in searchmoves.iter().zip(parsed) {
            let why = match result {
                Ok(mv) => {
                    moves.push(mv);
                    continue;
                }
                Err(MoveError::Syntax(_)) => "not a move in UCI notation",
                Err(MoveError::Illegal(_)) => "not a legal move here",
            };
            self.explain(&format!(
                "searchmoves: `{}` left out: {why}",
                printable(text)
            ));
        }
        if moves.is_empty() && !searchmoves.is_empty() {
            self.explain("searchmoves: no legal move in the list: searching every move");
        }
        moves
    }

    fn start(&mut self, work: Work) {
        let stop = Arc::new(AtomicBool::new(false));
        let ponderhit = Arc::new(AtomicBool::new(false));
        let job = SearchJob {
            position: self.position,
            history: self.history.clone(),
            limits: Limits::default(),
            root_moves: Vec::new(),
            move_overhead: self.move_overhead,
            chess960: self.chess960,
            started: Instant::now(),
            stop: Arc::clone(&stop),
            ponderhit: Arc::clone(&ponderhit),
        };
        let searcher = Arc::clone(&self.searcher);
        let out = Arc::clone(&self.out);
        let backend = self.backend;
        let attacks = self.attacks;
        let answered = Arc::new(AtomicBool::new(false));
        let done = Arc::clone(&answered);
        let (finish, finished) = mpsc::channel();
        let task: Task = Box::new(move || {
            let answer = match work {
                Work::Search(limits, root_moves) => {
                    let job = SearchJob {
                        limits,
                        root_moves,
                        ..job
                    };
                    search(backend, attacks, &searcher, job, &out)
                }
                Work::Perft(depth) => perft_lines(backend, attacks, &job.position, depth, &out),
            };
            done.store(true, Ordering::Release);
            out(&answer);
            drop(finish);
        });
        match self.hand_to_search_thread(task) {
            Ok(()) => {
                self.running = Some(RunningSearch {
                    stop,
                    ponderhit,
                    answered,
                    finished,
                })
            }
            Err(e) => self.explain(&format!("cannot start the search thread: {e}")),
        }
    }

    /// Gives `task` to the search thread, starting one if there is none or if the last one
    /// ended (a panic that escaped its task).
    fn hand_to_search_thread(&mut self, task: Task) -> io::Result<()> {
        let task = match &self.search_thread {
            Some(thread) => match thread.tasks.send(task) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(task)) => task,
            },
            None => task,
        };
        let thread = SearchThread::spawn()?;
        // The thread was just made and holds its receiver: the send cannot fail.
        let _ = thread.tasks.send(task);
        self.search_thread = Some(thread);
        Ok(())
    }

    /// The move pondered on was played: a ponder search goes on, now on the clock (any other
    /// search takes no notice).
    fn ponder_hit(&self) {
        if let Some(running) = &self.running {
            running.ponderhit.store(true, Ordering::Relaxed);
        }
    }

    /// Asks the running search to stop and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.wait_for_search();
    }

    /// Waits until the running search (if any) has answered.
    pub fn wait_for_search(&mut self) {
        if let Some(running) = self.running.take() {
            // Ends when the task drops its sender: after `bestmove`, or on a panic.
            let _ = running.finished.recv();
        }
    }

    /// A search that ended by itself (a depth, a time limit) is over: forget its thread.
    fn reap_finished_search(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::Acquire))
        {
            self.wait_for_search();
        }
    }

    fn lock_searcher(&self) -> MutexGuard<'_, Searcher> {
        // A panic inside a search leaves the searcher usable: its tables are plain data.
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Uci {
    /// Stops the search and ends the search thread, so that no thread outlives its engine.
    fn drop(&mut self) {
        self.stop_search();
        if let Some(thread) = self.search_thread.take() {
            drop(thread.tasks);
            // The thread's tasks catch their own panics; a join error carries nothing new.
            let _ = thread.handle.join();
        }
    }
}

/// What the search thread does.
enum Work {
    /// A search within the limits, of the root moves given (empty: all).
    Search(Limits, Vec<Move>),
    Perft(u32),
}

/// Searches, writing `info` lines, and returns the `bestmove` line (there is one, whatever
/// happens). The searcher is released when this returns.
fn search(
    backend: BackendKind,
    attacks: Attacks,
    searcher: &Mutex<Searcher>,
    job: SearchJob,
    out: &Output,
) -> String {
    let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
    searcher.set_attacks(attacks);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        searcher.think_on(backend, &job, &mut |report| out(&info_line(report)))
    }));
    match outcome {
        Ok(Ok(result)) => bestmove_line(&result),
        Ok(Err(e)) => {
            out(&format!("info string search refused: {e}"));
            "bestmove (none)".to_string()
        }
        Err(_) => {
            out("info string internal error: the search failed; answering its first legal move");
            let pos = &job.position;
            let chess960 = job.chess960 || pos.is_chess960();
            let fallback = qbb::with_backend!(backend, |b| {
                let mut moves = MoveList::new();
                pos.generate_moves(b, &mut moves);
                moves.iter().next().map(|&mv| pos.move_to_uci(mv, chess960))
            });
            match fallback {
                Ok(Some(mv)) => format!("bestmove {mv}"),
                _ => "bestmove (none)".to_string(),
            }
        }
    }
}

fn bestmove_line(result: &SearchResult) -> String {
    match (&result.best_move, &result.ponder) {
        (Some(mv), Some(reply)) => format!("bestmove {mv} ponder {reply}"),
        (Some(mv), None) => format!("bestmove {mv}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}

/// An `info` line for one completed iteration.
pub fn info_line(report: &Report) -> String {
    let millis = report.elapsed.as_millis() as u64;
    let nps = report.nodes * 1000 / millis.max(1);
    let multipv = report
        .multipv
        .map_or(String::new(), |k| format!(" multipv {k}"));
    let mut line = format!(
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {nps} hashfull {} time {millis}",
        report.depth,
        report.seldepth,
        UciScore(report.score),
        report.nodes,
        report.hashfull,
    );
    if !report.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&report.pv.join(" "));
    }
    line
}

/// `go perft N`: writes the leaf count under each legal move and returns the total's line.
fn perft_lines(
    backend: BackendKind,
    attacks: Attacks,
    pos: &Position,
    depth: u32,
    out: &Output,
) -> String {
    let started = Instant::now();
    // The leaf count under each legal move, in generation order, on one thread.
    let divided = divide_on(backend, attacks, pos, depth, true, 1, &|_, _| {});
    match divided {
        Ok(counts) => {
            let total: u64 = if depth == 0 {
                1
            } else {
                counts.iter().map(|(_, n)| n).sum()
            };
            for (mv, nodes) in &counts {
                out(&format!(
                    "{}: {nodes}",
                    pos.move_to_uci(*mv, pos.is_chess960())
                ));
            }
            let seconds = started.elapsed().as_secs_f64();
            out(&format!(
                "info string perft {depth}: {total} nodes in {seconds:.3} s ({:.1} Mnps)",
                total as f64 / seconds.max(1e-9) / 1e6
            ));
            format!("Nodes searched: {total}")
        }
        Err(why) => format!("info string perft refused: {why}"),
    }
}

/// The ` var <name>` list of a UCI combo option.
fn combo_vars(names: impl IntoIterator<Item = &'static str>) -> String {
    names
        .into_iter()
        .map(|name| format!(" var {name}"))
        .collect()
}

/// The arguments of `go` (all but perft).
#[derive(Debug, Default)]
struct Go {
    limits: Limits,
    /// The moves after `searchmoves`, as written.
    searchmoves: Vec<String>,
    /// What was skipped, and why.
    notes: Vec<String>,
}

/// Parses the arguments of `go` (all but perft).
fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let (limits, notes) = (&mut go.limits, &mut go.notes);
    let mut tokens = args.iter().copied().peekable();
    fn number<T: std::str::FromStr>(name: &str, value: Option<&str>) -> Result<T, String> {
        let value = value.ok_or_else(|| format!("`{name}` needs a value"))?;
        value
            .parse()
            .map_err(|_| format!("`{name} {}` is not a valid number", printable(value)))
    }
    /// Clock values may be negative when a GUI is late: treat those as zero.
    fn millis(name: &str, value: Option<&str>) -> Result<u64, String> {
        number::<i64>(name, value).map(|v| v.max(0) as u64)
    }
    while let Some(token) = tokens.next() {
        match token {
            "depth" => limits.depth = Some(number("depth", tokens.next())?),
            "nodes" => limits.nodes = Some(number("nodes", tokens.next())?),
            "movetime" => limits.movetime = Some(millis("movetime", tokens.next())?),
            "wtime" => limits.time[0] = Some(millis("wtime", tokens.next())?),
            "btime" => limits.time[1] = Some(millis("btime", tokens.next())?),
            "winc" => limits.increment[0] = millis("winc", tokens.next())?,
            "binc" => limits.increment[1] = millis("binc", tokens.next())?,
            "movestogo" => limits.movestogo = Some(number("movestogo", tokens.next())?),
            "mate" => {
                // A mate in N moves lies within 2N - 1 plies: search that deep.
                let moves: u32 = number("mate", tokens.next())?;
                limits.depth = Some(moves.saturating_mul(2).saturating_sub(1).max(1));
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                // The moves run up to the next keyword.
                while let Some(mv) = tokens.next_if(|t| !is_go_keyword(t)) {
                    go.searchmoves.push(mv.to_string());
                }
            }
            other => notes.push(format!(
                "unknown go parameter `{}` skipped",
                printable(other)
            )),
        }
    }
    Ok(go)
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "depth"
            | "nodes"
            | "movetime"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "mate"
            | "infinite"
            | "ponder"
    )
}

/// A line of input as it may be quoted back: control characters replaced, length bounded.
fn printable(text: &str) -> String {
    const LIMIT: usize = 80;
    let mut out: String = text
        .chars()
        .take(LIMIT)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > LIMIT {
        out.push_str("...");
    }
    out
}

// ---- the moves of a `position` command ----------------------------------------------------------

/// A position reached by the moves of a `position` command.
struct Played {
    position: Position,
    history: Vec<u64>,
    /// Why the move list was cut short, if it was.
    stopped_at: Option<String>,
}

/// The moves of a `position` command played from `start`, up to the first that is not legal.
#[inline(always)]
fn play_moves<B: Backend>(backend: B, start: Position, moves: &[&str]) -> Played {
    let mut position = start;
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        match position.parse_uci_move(backend, text) {
            Ok(mv) => {
                history.push(position.hash());
                position = position.make_move(backend, mv);
            }
            Err(e) => {
                return Played {
                    position,
                    history,
                    stopped_at: Some(format!(
                        "move {} `{}` refused ({e}); position set after the {i} move(s) before it: {}",
                        i + 1,
                        printable(text),
                        position.to_fen()
                    )),
                };
            }
        }
    }
    Played {
        position,
        history,
        stopped_at: None,
    }
}

// ---- standard input and output ------------------------------------------------------------------

/// Runs the engine on standard input and output until `quit` or the end of input.
pub fn run_stdio() -> Result<(), StartError> {
    let out: Output = Arc::new(|line: &str| {
        let mut stdout = io::stdout().lock();
        // A closed stdout (the GUI went away) is not worth dying for: the next read ends us.
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    let mut uci = Uci::new(out)?;
    let mut stdin = io::stdin().lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match stdin.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer);
                if uci.handle(&line) == Flow::Quit {
                    return Ok(());
                }
            }
        }
    }
    // End of input: finish like `quit`.
    uci.handle("quit");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine whose output lines are collected.
    struct Session {
        uci: Uci,
        lines: Arc<Mutex<Vec<String>>>,
    }

    impl Session {
        fn new() -> Session {
            let lines = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&lines);
            let out: Output =
                Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string()));
            Session {
                uci: Uci::new(out).unwrap(),
                lines,
            }
        }

        /// Sends the lines and returns what the engine answered, searches included.
        fn talk(&mut self, input: &[&str]) -> Vec<String> {
            for line in input {
                assert_eq!(self.uci.handle(line), Flow::Continue, "{line}");
            }
            self.uci.wait_for_search();
            self.said()
        }

        /// What the engine wrote since the last look.
        fn said(&self) -> Vec<String> {
            std::mem::take(&mut *self.lines.lock().unwrap())
        }
    }

    fn bestmove(answer: &[String]) -> &str {
        let last = answer.last().expect("an answer");
        last.strip_prefix("bestmove ").expect("bestmove last")
    }

    #[test]
    fn handshake_lists_the_options() {
        let mut s = Session::new();
        let answer = s.talk(&["uci"]);
        assert!(answer[0].starts_with("id name qbb-engine"));
        for option in [
            "Hash",
            "Threads",
            "Backend",
            "Move Overhead",
            "MultiPV",
            "Ponder",
            "UCI_Chess960",
            "Attacks",
            "Use NNUE",
            "EvalFile",
        ] {
            assert!(
                answer
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} type"))),
                "{option}"
            );
        }
        assert_eq!(answer.last().unwrap(), "uciok");
        assert_eq!(s.talk(&["isready"]), ["readyok"]);
    }

    #[test]
    fn searches_the_position_after_the_moves() {
        let mut s = Session::new();
        // After 1. e4 f6 2. d4 g5, Qh5 mates.
        let answer = s.talk(&["position startpos moves e2e4 f7f6 d2d4 g7g5", "go depth 3"]);
        assert_eq!(bestmove(&answer), "d1h5");
        let info = answer
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        for field in [
            " seldepth ",
            " score mate 1 ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv d1h5",
        ] {
            assert!(info.contains(field), "{field} in {info}");
        }
    }

    #[test]
    fn an_illegal_move_ends_the_move_list() {
        let mut s = Session::new();
        let answer = s.talk(&["position startpos moves e2e4 e7e5 e1e3 d7d5"]);
        assert_eq!(answer.len(), 1);
        assert!(
            answer[0].starts_with("info string move 3 `e1e3` refused"),
            "{answer:?}"
        );
        assert_eq!(
            s.uci.position.to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(s.uci.history.len(), 2);
    }

    #[test]
    fn garbage_is_explained_and_survived() {
        let mut s = Session::new();
        let garbage = [
            "hello",
            "position",
            "position fen",
            "position fen 8/8/8 w - - 0 1",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "position startpos moves zz9",
            "go depth",
            "go depth x",
            "go movetime -",
            "go perft",
            "go perft 99",
            "setoption",
            "setoption name",
            "setoption name Hash value 0",
            "setoption name Hash value lots",
            "setoption name Threads value 0",
            "setoption name Threads value 257",
            "setoption name Backend value turbo",
            "setoption name Move Overhead value -5",
            "setoption name UCI_Chess960 value maybe",
            "setoption name Attacks value magic",
            "setoption name Use NNUE value sometimes",
            "setoption name EvalFile value /nonexistent/net.nnue",
            "setoption name EvalFile value Cargo.toml",
            "setoption name Colour value blue",
            "\u{1b}[2J\u{0}\u{7f}",
            &"x".repeat(10_000),
        ];
        let answer = s.talk(&garbage);
        assert!(
            answer.iter().all(|l| l.starts_with("info string ")),
            "{answer:?}"
        );
        assert!(answer.len() >= garbage.len() - 1, "{answer:?}");
        assert!(answer.iter().all(|l| l.len() < 300));
        assert_eq!(s.uci.position, Position::startpos());
        assert_eq!(s.talk(&["isready"]), ["readyok"]);
    }

    #[test]
    fn unknown_words_before_a_command_are_skipped() {
        let mut s = Session::new();
        let answer = s.talk(&["joho isready"]);
        assert_eq!(answer.len(), 2);
        assert!(answer[0].starts_with("info string skipped unknown `joho`"));
        assert_eq!(answer[1], "readyok");
    }

    #[test]
    fn stop_ends_an_infinite_search_with_a_legal_move() {
        let mut s = Session::new();
        s.uci.handle("position startpos moves e2e4");
        s.uci.handle("go infinite");
        assert_eq!(s.uci.handle("isready"), Flow::Continue);
        // Commands that would change the search are refused while it runs.
        s.uci.handle("position startpos");
        s.uci.handle("stop");
        let answer = s.said();
        assert!(answer.contains(&"readyok".to_string()));
        assert!(
            answer
                .iter()
                .any(|l| l.contains("`position` ignored: a search is running"))
        );
        let mv = bestmove(&answer).split(' ').next().unwrap();
        let after_e4 = Position::startpos().make_move(
            qbb::Scalar,
            Position::startpos()
                .parse_uci_move(qbb::Scalar, "e2e4")
                .unwrap(),
        );
        assert!(after_e4.parse_uci_move(qbb::Scalar, mv).is_ok(), "{mv}");
    }

    #[test]
    fn two_threads_answer_once_with_the_main_threads_line() {
        let mut s = Session::new();
        assert!(s.talk(&["setoption name Threads value 2"]).is_empty());
        assert_eq!(s.uci.lock_searcher().threads(), 2);
        let answer = s.talk(&["position startpos", "go depth 6"]);
        let (last, infos) = answer.split_last().expect("an answer");
        assert!(last.starts_with("bestmove "), "{answer:?}");
        assert_eq!(
            answer.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
        // One report per depth, in order, from the main thread alone.
        let depths: Vec<&str> = infos
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .map(|l| l.split(' ').next().expect("a depth"))
            .collect();
        assert_eq!(depths, ["1", "2", "3", "4", "5", "6"], "{answer:?}");
        let mv = bestmove(&answer).split(' ').next().expect("a move");
        assert!(
            Position::startpos().parse_uci_move(qbb::Scalar, mv).is_ok(),
            "{mv}"
        );
        assert_eq!(
            s.talk(&["setoption name Threads value 1", "isready"]),
            ["readyok"]
        );
        assert_eq!(s.uci.lock_searcher().threads(), 1);
    }

    #[test]
    fn options_change_the_engine() {
        let mut s = Session::new();
        let answer = s.talk(&[
            "setoption name Hash value 2",
            "setoption name Move Overhead value 50",
            "setoption name Backend value scalar",
            "setoption name UCI_Chess960 value true",
        ]);
        assert_eq!(answer, ["info string searching on the scalar backend"]);
        assert_eq!(s.uci.lock_searcher().hash_megabytes(), 2);
        assert_eq!(s.uci.move_overhead, Duration::from_millis(50));
        assert_eq!(s.uci.backend(), BackendKind::Scalar);
        assert_eq!(s.uci.lock_searcher().threads(), 1);
        // Chess960 castling is written king-takes-rook.
        let answer = s.talk(&[
            "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1",
            "go depth 1",
        ]);
        assert!(answer.iter().all(|l| !l.contains("refused")), "{answer:?}");
        for kind in BackendKind::ALL.into_iter().filter(|k| !k.is_available()) {
            let answer = s.talk(&[&format!("setoption name Backend value {kind}")]);
            assert!(answer[0].contains("is not available"), "{answer:?}");
            assert_eq!(s.uci.backend(), BackendKind::Scalar);
        }
    }

    #[test]
    fn a_refused_eval_file_keeps_the_network() {
        let mut s = Session::new();
        let answer = s.talk(&["setoption name EvalFile value Cargo.toml"]);
        assert_eq!(answer.len(), 1);
        assert!(answer[0].contains("not a qbb network file"), "{answer:?}");
        assert!(answer[0].contains("the network in use stays"), "{answer:?}");
        let answer = s.talk(&["setoption name EvalFile value <embedded>"]);
        assert!(
            answer[0].contains("evaluating with the network <embedded>"),
            "{answer:?}"
        );
        // Both evaluations search: the hand-written one and the network.
        for on in ["false", "true"] {
            let answer = s.talk(&[
                &format!("setoption name Use NNUE value {on}"),
                "position startpos",
                "go depth 4",
            ]);
            assert!(bestmove(&answer).len() >= 4, "{answer:?}");
        }
    }

    #[test]
    fn go_perft_divides() {
        let mut s = Session::new();
        let answer = s.talk(&["go perft 3"]);
        assert_eq!(answer.len(), 20 + 2);
        assert!(answer.contains(&"e2e4: 600".to_string()));
        assert_eq!(answer.last().unwrap(), "Nodes searched: 8902");
    }

    #[test]
    fn attacks_from_the_backend_give_the_same_answers() {
        let mut s = Session::new();
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        // Everything but the times (and perft's line about its speed).
        let untimed = |line: &String| {
            let mut words = line.split(' ');
            let mut kept = Vec::new();
            while let Some(word) = words.next() {
                kept.push(word);
                if word == "nps" || word == "time" {
                    words.next();
                }
            }
            kept.join(" ")
        };
        let mut answers = Vec::new();
        for attacks in Attacks::ALL {
            let option = format!("setoption name Attacks value {attacks}");
            let position = format!("position fen {kiwipete}");
            let setup = [option.as_str(), "ucinewgame", position.as_str()];
            assert!(s.talk(&setup).is_empty());
            assert_eq!(s.uci.attacks, attacks);
            let perft = s.talk(&["go perft 3"]);
            assert_eq!(perft.last().unwrap(), "Nodes searched: 97862");
            let search = s.talk(&["go depth 5"]);
            let answer: Vec<String> = perft
                .iter()
                .chain(&search)
                .filter(|l| !l.starts_with("info string perft"))
                .map(untimed)
                .collect();
            answers.push(answer);
        }
        assert_eq!(answers[0], answers[1]);
    }

    #[test]
    fn go_parameters_parse() {
        let go = parse_go(&[
            "wtime",
            "60000",
            "btime",
            "-20",
            "winc",
            "500",
            "binc",
            "500",
            "movestogo",
            "12",
        ])
        .unwrap();
        assert_eq!(go.limits.time, [Some(60_000), Some(0)]);
        assert_eq!(go.limits.increment, [500, 500]);
        assert_eq!(go.limits.movestogo, Some(12));
        assert!(go.notes.is_empty() && go.searchmoves.is_empty());
        let go = parse_go(&["searchmoves", "e2e4", "d2d4", "depth", "7", "whatever"]).unwrap();
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(go.limits.depth, Some(7));
        assert_eq!(go.notes.len(), 1, "{:?}", go.notes);
        assert_eq!(parse_go(&["mate", "2"]).unwrap().limits.depth, Some(3));
        assert!(parse_go(&["nodes", "1e6"]).is_err());
        assert!(parse_go(&["movetime"]).is_err());
    }

    #[test]
    fn searchmoves_limits_the_root() {
        let mut s = Session::new();
        let answer = s.talk(&["position startpos", "go depth 4 searchmoves a2a3 h2h3"]);
        let best = bestmove(&answer).split_whitespace().next().unwrap();
        assert!(["a2a3", "h2h3"].contains(&best), "{answer:?}");
        // An illegal move is named and left out; the legal ones are still the only choice.
        let answer = s.talk(&["go depth 3 searchmoves e2e5 b1a3"]);
        assert!(answer.iter().any(|l| l.contains("e2e5")), "{answer:?}");
        assert!(bestmove(&answer).starts_with("b1a3"), "{answer:?}");
        // With no legal move in the list, every move is searched.
        let answer = s.talk(&["go depth 3 searchmoves e2e5"]);
        assert!(
            answer
                .iter()
                .any(|l| l.contains("no legal move in the list")),
            "{answer:?}"
        );
        assert!(!bestmove(&answer).starts_with("(none)"), "{answer:?}");
        // The list holds for one search only: a queen left to be taken is taken by the next.
        let hanging = "position fen 4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1";
        let answer = s.talk(&[hanging, "go depth 3 searchmoves e1f1"]);
        assert!(bestmove(&answer).starts_with("e1f1"), "{answer:?}");
        let answer = s.talk(&["go depth 3"]);
        let best = bestmove(&answer).split_whitespace().next().unwrap();
        assert!(best.ends_with("d2"), "{answer:?}");
    }

    /// The `info` lines of `depth` in `answer`, each as (multipv index, score, first move).
    fn lines_at(answer: &[String], depth: u32) -> Vec<(Option<usize>, String, String)> {
        let prefix = format!("info depth {depth} ");
        answer
            .iter()
            .filter(|l| l.starts_with(&prefix))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let after = |key: &str| {
                    let at = words.iter().position(|w| *w == key).unwrap();
                    words[at + 1..].to_vec()
                };
                let multipv = words
                    .iter()
                    .position(|w| *w == "multipv")
                    .map(|at| words[at + 1].parse().unwrap());
                let score = after("score")[..2].join(" ");
                (multipv, score, after("pv")[0].to_string())
            })
            .collect()
    }

    #[test]
    fn multipv_reports_the_best_lines_each_with_its_own_first_move() {
        let mut s = Session::new();
        let answer = s.talk(&[
            "setoption name MultiPV value 3",
            "position startpos",
            "go depth 5",
        ]);
        let lines = lines_at(&answer, 5);
        assert_eq!(lines.len(), 3, "{answer:?}");
        let indices: Vec<_> = lines.iter().map(|l| l.0).collect();
        assert_eq!(indices, [Some(1), Some(2), Some(3)], "{answer:?}");
        let firsts: std::collections::HashSet<_> = lines.iter().map(|l| &l.2).collect();
        assert_eq!(firsts.len(), 3, "three different first moves: {answer:?}");
        let cp = |l: &(Option<usize>, String, String)| -> i32 {
            l.1.strip_prefix("cp ").unwrap().parse().unwrap()
        };
        assert!(cp(&lines[0]) >= cp(&lines[1]) && cp(&lines[1]) >= cp(&lines[2]));
        assert!(bestmove(&answer).starts_with(&lines[0].2), "{answer:?}");
        // A lone king on a1 has three moves: three lines, however many are asked for; and
        // searchmoves leaves fewer still.
        let king = "position fen 7k/8/8/8/8/8/8/K7 w - - 0 1";
        let answer = s.talk(&["setoption name MultiPV value 5", king, "go depth 4"]);
        assert_eq!(lines_at(&answer, 4).len(), 3, "{answer:?}");
        let answer = s.talk(&["go depth 4 searchmoves a1a2 a1b1"]);
        let firsts: Vec<_> = lines_at(&answer, 4).into_iter().map(|l| l.2).collect();
        assert_eq!(firsts.len(), 2, "{answer:?}");
        assert!(
            firsts.iter().all(|m| m == "a1a2" || m == "a1b1"),
            "{answer:?}"
        );
        // One line again: no multipv field.
        let answer = s.talk(&["setoption name MultiPV value 1", "go depth 3"]);
        let one = lines_at(&answer, 3);
        assert!(one.len() == 1 && one[0].0.is_none(), "{answer:?}");
        let answer = s.talk(&["setoption name MultiPV value 0"]);
        assert!(
            answer.iter().any(|l| l.contains("MultiPV `0` ignored")),
            "{answer:?}"
        );
    }

    /// Whether the engine has answered `bestmove` since the last look at its output.
    fn answered(s: &Session) -> bool {
        s.lines
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.starts_with("bestmove"))
    }

    #[test]
    fn a_ponder_search_answers_after_ponderhit_on_its_clock() {
        let mut s = Session::new();
        // Finished long before: the answer waits for ponderhit, then comes at once.
        s.uci.handle("position startpos moves e2e4");
        s.uci.handle("go ponder depth 2");
        thread::sleep(Duration::from_millis(300));
        assert!(!answered(&s), "no answer while pondering: {:?}", s.said());
        let answer = s.talk(&["ponderhit"]);
        assert!(!bestmove(&answer).starts_with("(none)"), "{answer:?}");
        // No depth: pondering goes on past any clock, which starts at ponderhit (a second of
        // three left for the move at most), and the search then answers by itself.
        s.uci.handle("go ponder wtime 3000 btime 3000");
        thread::sleep(Duration::from_millis(1500));
        assert!(
            !answered(&s),
            "the clock waits for ponderhit: {:?}",
            s.said()
        );
        s.uci.handle("ponderhit");
        let asked = Instant::now();
        while !answered(&s) && asked.elapsed() < Duration::from_secs(30) {
            thread::sleep(Duration::from_millis(5));
        }
        assert!(answered(&s), "no answer on the clock after ponderhit");
        s.uci.wait_for_search();
        s.said();
        // `ponderhit` is no `stop`: a search on the clock takes no notice of one.
        let answer = s.talk(&["go depth 9", "ponderhit"]);
        assert!(
            answer.iter().any(|l| l.starts_with("info depth 9")),
            "{answer:?}"
        );
    }

    #[test]
    fn the_next_go_is_served_as_soon_as_bestmove_is_out() {
        let mut s = Session::new();
        for round in 0..20 {
            s.uci.handle("position startpos");
            s.uci.handle("go depth 1");
            // Answer the moment the bestmove appears, as a GUI does (the thread may still be
            // ending).
            while !s
                .lines
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.starts_with("bestmove"))
            {
                thread::yield_now();
            }
            s.lines.lock().unwrap().clear();
            s.uci.handle("position startpos moves e2e4");
            assert_eq!(s.uci.position.fullmove_number(), 1, "round {round}");
            assert_eq!(
                s.uci.position.side_to_move(),
                qbb::Color::Black,
                "round {round}"
            );
        }
        s.uci.wait_for_search();
        assert!(s.said().iter().all(|l| !l.contains("ignored")));
    }

    #[test]
    fn quit_stops_a_running_search() {
        let mut s = Session::new();
        s.uci.handle("go infinite");
        assert_eq!(s.uci.handle("quit"), Flow::Quit);
        assert!(s.uci.running.is_none());
        assert!(s.said().last().unwrap().starts_with("bestmove "));
    }
}
