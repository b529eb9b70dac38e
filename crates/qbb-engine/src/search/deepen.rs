//! Iterative deepening: the depths one after another, each inside an aspiration window, the
//! lines of MultiPV, the helper threads of Lazy SMP, and the clock that ends it all.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use qbb::Backend;

use super::time::{Limits, TimeBudget};
use super::{MAX_DEPTH, Report, SEARCH_STACK_BYTES, SearchJob, SearchResult, Searcher};
use crate::board::attack_source::AttackSource;
use crate::board::{Move, MoveList, Position};
use crate::eval::score::{self, DRAW, INFINITY, Score, is_mate, mated_in};

/// One line of a search's root: its score, its moves and how deep it reached.
struct Line {
    score: Score,
    moves: Vec<Move>,
    seldepth: u32,
}

/// How often (in nodes) the search looks at the clock and the stop flag: about a millisecond.
const POLL_INTERVAL: u64 = 1024;

impl Searcher {
    /// [`Searcher::think`] with the move generator's attacks, checks and pins from `attacks`:
    /// the main thread's iterative deepening, beside the helpers' when there are any.
    pub(super) fn think_by<B: Backend, A: AttackSource + Send>(
        &mut self,
        backend: B,
        attacks: A,
        job: &SearchJob,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.tt.new_search();
        let mut helpers = std::mem::take(&mut self.helpers);
        let mut result = if helpers.is_empty() {
            self.deepen(backend, attacks, job, 1, report)
        } else {
            self.deepen_with(&mut helpers, backend, attacks, job, report)
        };
        self.helpers = helpers;
        result.nodes = self.total_nodes();
        self.helper_nodes.clear();

        // `go infinite` answers only after `stop`, `go ponder` after `stop` or `ponderhit`,
        // however early the search ends.
        loop {
            self.poll_ponderhit();
            if !(job.limits.infinite || self.pondering) || job.stop.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        result
    }

    /// The main thread's [`Searcher::deepen`] while `helpers` search the same root on threads of
    /// their own, with no clock, until it is done: then they stop.
    fn deepen_with<B: Backend, A: AttackSource + Send>(
        &mut self,
        helpers: &mut [Searcher],
        backend: B,
        attacks: A,
        job: &SearchJob,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let stop = Arc::new(AtomicBool::new(false));
        let helper_job = SearchJob {
            limits: Limits {
                depth: job.limits.depth,
                ..Limits::default()
            },
            stop: Arc::clone(&stop),
            ..job.clone()
        };
        self.helper_nodes.clear();
        for helper in helpers.iter_mut() {
            helper.evaluator.follow(&self.evaluator);
            let role = helper.helper.as_ref().expect("a helper has its role");
            role.nodes.store(0, Ordering::Relaxed);
            self.helper_nodes.push(Arc::clone(&role.nodes));
        }
        std::thread::scope(|scope| {
            let mut threads = Vec::with_capacity(helpers.len());
            for helper in helpers.iter_mut() {
                let job = &helper_job;
                let search = move || {
                    let first_depth = helper.helper.as_ref().map_or(1, |r| r.first_depth);
                    helper.deepen(backend, attacks, job, first_depth, &mut |_| {});
                    helper.publish_nodes();
                };
                // A helper whose thread cannot start leaves the search to the others.
                let spawned = std::thread::Builder::new()
                    .name("search helper".into())
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, search);
                threads.extend(spawned.ok());
            }
            let result = self.deepen(backend, attacks, job, 1, report);
            stop.store(true, Ordering::Relaxed);
            // Joined one by one: the scope's own wait ends when a helper's work is done, before
            // its thread has exited and freed its thread-local data, so a search could answer
            // with threads still alive behind it.
            for thread in threads {
                let _ = thread.join();
            }
            result
        })
    }

    /// The nodes of the current search, the helpers' included.
    fn total_nodes(&self) -> u64 {
        let helpers: u64 = self
            .helper_nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum();
        self.nodes + helpers
    }

    /// A helper tells the main thread how many nodes it has searched.
    fn publish_nodes(&self) {
        if let Some(role) = &self.helper {
            role.nodes.store(self.nodes, Ordering::Relaxed);
        }
    }

    /// Iterative deepening from depth `first_depth`, calling `report` after every completed
    /// iteration.
    fn deepen<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        job: &SearchJob,
        first_depth: u32,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let root = &job.position;
        self.start(backend, job);
        let mut root_moves = MoveList::new();
        root.generate_moves_by(backend, attacks, &mut root_moves);
        self.root_moves.clear();
        self.root_moves
            .extend(job.root_moves.iter().filter(|&&m| root_moves.contains(m)));
        self.excluded.clear();
        keep_root_moves(&self.root_moves, &self.excluded, &mut root_moves);
        let chess960 = job.chess960 || root.is_chess960();
        let mut result = SearchResult {
            best_move: None,
            ponder: None,
            score: if root.in_check(backend) {
                mated_in(0)
            } else {
                DRAW
            },
            depth: 0,
            nodes: 0,
        };
        if let Some(&first) = root_moves.iter().next() {
            // Until an iteration completes, any legal move beats none.
            result.best_move = Some(root.move_to_uci(first, chess960));
        }

        let max_depth = job.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines_wanted = self.multi_pv.min(root_moves.len().max(1));
        let mut line: Vec<Move> = Vec::new();
        let mut score = 0;
        // The lines of the last depth searched, best first: where the next depth's windows
        // start.
        let mut lines: Vec<Line> = Vec::new();
        for depth in first_depth..=max_depth {
            if root_moves.is_empty() {
                break;
            }
            // Each line searches the root without the first moves of the lines before it.
            self.excluded.clear();
            let mut found: Vec<Line> = Vec::with_capacity(lines_wanted);
            for index in 0..lines_wanted {
                self.seldepth = 0;
                let previous = lines.get(index).map_or(score, |l| l.score);
                let iteration = self.aspiration(backend, attacks, root, depth as i32, previous);
                let mut pv = self.pv[0][..self.pv_len[0]].to_vec();
                if index == 0 {
                    // A stopped iteration still improves on the last one if a root move
                    // finished and beat the others searched before the stop.
                    if pv.is_empty() {
                        pv.clone_from(&line);
                    } else {
                        line.clone_from(&pv);
                    }
                }
                if self.aborted || pv.is_empty() {
                    break;
                }
                self.excluded.push(pv[0]);
                found.push(Line {
                    score: iteration,
                    moves: pv,
                    seldepth: self.seldepth as u32,
                });
            }
            if found.is_empty() {
                break;
            }
            // A later line can come out above an earlier one (its window was its own).
            found.sort_by_key(|l| std::cmp::Reverse(l.score));
            score = found[0].score;
            line = found[0].moves.clone();
            result.score = score;
            result.depth = depth;
            for (index, found_line) in found.iter().enumerate() {
                report(&Report {
                    depth,
                    seldepth: found_line.seldepth,
                    multipv: (lines_wanted > 1).then_some(index + 1),
                    score: found_line.score,
                    nodes: self.total_nodes(),
                    elapsed: job.started.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: pv_text(backend, root, &found_line.moves, chess960),
                });
            }
            lines = found;
            if self.aborted {
                break;
            }
            self.poll_ponderhit();
            let past_soft = self.soft_deadline.is_some_and(|d| Instant::now() >= d);
            let mate_settled = is_mate(score)
                && job.limits.depth.is_none()
                && depth as i32 > 2 * (score::MATE - score.abs()) + 2;
            if past_soft || (mate_settled && !job.limits.infinite) {
                break;
            }
        }
        if !line.is_empty() {
            let mut texts = pv_text(backend, root, &line[..line.len().min(2)], chess960);
            result.ponder = (texts.len() > 1).then(|| texts.remove(1));
            result.best_move = Some(texts.remove(0));
        }
        result.nodes = self.nodes;
        result
    }

    /// Sets up a search of `job`: its limits, its clock (unless pondering), its stop flag, the
    /// game's positions for repetitions, and the evaluator at the root.
    fn start<B: Backend>(&mut self, backend: B, job: &SearchJob) {
        let root = &job.position;
        self.budget = TimeBudget::new(&job.limits, root.side_to_move(), job.move_overhead);
        self.pondering = job.limits.ponder;
        self.ponderhit = Arc::clone(&job.ponderhit);
        if self.pondering {
            (self.soft_deadline, self.deadline) = (None, None);
        } else {
            self.start_clock(job.started);
        }
        self.node_limit = job.limits.nodes.unwrap_or(u64::MAX).max(1);
        self.stop = Arc::clone(&job.stop);
        self.nodes = 0;
        self.aborted = false;
        self.path.clear();
        self.path.extend_from_slice(&job.history);
        self.ordering.new_search();
        backend.with_features(|b| self.evaluator.set_root(b, root));
    }

    /// Starts the search's clock at `from` (a deadline past what an `Instant` holds is none).
    fn start_clock(&mut self, from: Instant) {
        self.soft_deadline = self.budget.soft.and_then(|d| from.checked_add(d));
        self.deadline = self.budget.hard.and_then(|d| from.checked_add(d));
    }

    /// A ponder search whose position was reached (`ponderhit`) goes on as a search on the
    /// clock, which starts now.
    fn poll_ponderhit(&mut self) {
        if self.pondering && self.ponderhit.load(Ordering::Relaxed) {
            self.pondering = false;
            self.start_clock(Instant::now());
        }
    }

    /// One iteration with a window around the previous score, widened until the score falls
    /// inside it.
    fn aspiration<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        root: &Position,
        depth: i32,
        previous: Score,
    ) -> Score {
        let mut delta = 25;
        let (mut alpha, mut beta) = if depth >= 5 && !is_mate(previous) {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search(backend, attacks, root, alpha, beta, depth, 0, false);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1_000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// Looks at the node limit, and every `POLL_INTERVAL` nodes at the clock and the stop flag;
    /// once it says stop, it keeps saying it.
    #[inline]
    pub(super) fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.publish_nodes();
            self.poll_ponderhit();
            self.aborted = self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.aborted
    }
}

/// Leaves in `moves`, the root's, those the search may play: the moves of `only` (all when it is
/// empty) but for those of `excluded` (the first moves of the lines already found at this depth).
pub(super) fn keep_root_moves(only: &[Move], excluded: &[Move], moves: &mut MoveList) {
    if !(only.is_empty() && excluded.is_empty()) {
        moves.retain(|m| (only.is_empty() || only.contains(&m)) && !excluded.contains(&m));
    }
}

/// A line of moves from `root` in UCI notation (each move's squares are relative to the position
/// it is played in, so the line is replayed to write it).
fn pv_text<B: Backend>(backend: B, root: &Position, line: &[Move], chess960: bool) -> Vec<String> {
    let mut pos = *root;
    line.iter()
        .map(|&mv| {
            let text = pos.move_to_uci(mv, chess960);
            pos = pos.make_move(backend, mv);
            text
        })
        .collect()
}
