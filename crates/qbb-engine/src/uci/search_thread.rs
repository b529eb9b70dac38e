//! The search thread: every `go` runs on it while the reading thread goes on answering, and it
//! writes the search's `info` lines and its `bestmove`.

use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use qbb::BackendKind;

use super::{Output, Uci};
use crate::board::{Attacks, Move, MoveList, Position};
use crate::eval::score::UciScore;
use crate::perft::divide_on;
use crate::search::time::Limits;
use crate::search::{Report, SEARCH_STACK_BYTES, SearchJob, SearchResult, Searcher};

/// The `go` being served: the flags the reading thread raises, and how it learns that the
/// answer is out.
pub(super) struct RunningSearch {
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
pub(super) struct SearchThread {
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

impl Uci {
    pub(super) fn start(&mut self, work: Work) {
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
    pub(super) fn ponder_hit(&self) {
        if let Some(running) = &self.running {
            running.ponderhit.store(true, Ordering::Relaxed);
        }
    }

    /// Asks the running search to stop and waits for its `bestmove`.
    pub(super) fn stop_search(&mut self) {
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
    pub(super) fn reap_finished_search(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::Acquire))
        {
            self.wait_for_search();
        }
    }

    pub(super) fn lock_searcher(&self) -> MutexGuard<'_, Searcher> {
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
pub(super) enum Work {
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
fn info_line(report: &Report) -> String {
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
