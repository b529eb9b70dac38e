//! The Universal Chess Interface: the engine's conversation with a GUI on standard input and
//! output.
//!
//! The reading thread answers every command at once; `go` hands the search to the search thread
//! (started at the first `go` and kept), so `stop`, `isready` and `quit` are answered while it
//! runs. No input ends the process: an unknown or malformed line is ignored with an `info string`
//! saying why, and an illegal move in `position ... moves` ends the move list there, with the
//! reason.
//!
//! This file reads the lines and hands each command to its own: `options.rs` (the handshake's
//! option list and `setoption`), `position.rs`, `go.rs` (its parameters), and `search_thread.rs`
//! (where every `go` runs, and what it writes).

mod go;
mod options;
mod position;
mod search_thread;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qbb::BackendKind;

use crate::board::{Attacks, Position};
use crate::search::Searcher;
use crate::search::tt::DEFAULT_HASH_MB;

use options::DEFAULT_MOVE_OVERHEAD_MS;
use search_thread::{RunningSearch, SearchThread};

/// Where the engine's lines go: standard output, or a buffer in tests. Called from both threads;
/// each call writes one whole line.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Whether to keep reading after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

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

    /// Refuses (with a reason) a command that would change what a running search uses.
    fn busy(&self, command: &str) -> bool {
        if self.running.is_some() {
            self.explain(&format!(
                "`{command}` ignored: a search is running (send stop first)"
            ));
        }
        self.running.is_some()
    }

    fn new_game(&mut self) {
        if self.busy("ucinewgame") {
            return;
        }
        self.lock_searcher().new_game();
        self.position = Position::startpos();
        self.history.clear();
    }
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

/// The line as sent, without the `\n` or `\r\n` that ended it, so that explanations quote it as sent.
fn without_line_ending(line: &str) -> &str {
    line.strip_suffix('\n')
        .map_or(line, |l| l.strip_suffix('\r').unwrap_or(l))
}

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
                if uci.handle(without_line_ending(&line)) == Flow::Quit {
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
mod tests;
