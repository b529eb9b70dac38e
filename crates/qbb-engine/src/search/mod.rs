//! The search: iterative deepening over a principal variation search (alpha-beta with null
//! windows), a quiescence search at the leaves, and a transposition table.
//!
//! Generic over the backend and dispatched once: each recursive function is entered through
//! `Backend::with_features`, with the same closure type at every level, so the region function
//! calls itself and the recursion never leaves it: the whole tree, move generation, make-move
//! and evaluation included, runs inside code compiled with the backend's features, where the
//! backend's routines inline.
//!
//! Besides the textbook alpha-beta: check and singular extensions, null-move pruning, ProbCut,
//! reverse futility, futility, late move and static exchange pruning near the leaves, late move
//! reductions (deeper at cut nodes), internal iterative reduction, mate distance pruning,
//! aspiration windows, correction history (the static evaluation moved by its errors seen in
//! positions of the same pawns), and draws by repetition, the fifty-move rule and insufficient
//! material.
//!
//! With the Threads option above one the search is Lazy SMP: helper threads search the same root
//! at the same time, each with its own move ordering and its own line, and share only the
//! transposition table, so that each finds what the others stored. The main thread alone keeps
//! the clock, reports and answers; when it finishes, the helpers stop with it.

pub(crate) mod correction;
pub(crate) mod ordering;
pub(crate) mod see;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use qbb::{Backend, BackendError, BackendKind};

use crate::board::attack_source::{AttackSource, Attacks, BackendAttacks, TableAttacks};
use crate::board::{Move, MoveList, Position};
use crate::eval::insufficient_material;
use crate::eval::nnue::Evaluator;
use crate::eval::score::{self, DRAW, INFINITY, MAX_PLY, Score, is_mate, mate_in, mated_in};
use correction::CorrectionHistory;
use ordering::{MovePicker, OrderingTables, is_tactical, loses_material};
use see::{PIECE_VALUE, victim};
use time::{Limits, TimeBudget};
use tt::{Bound, Entry, TranspositionTable};

/// The shallowest node whose table move is tested for a singular extension: the test is a
/// search of its own.
const SINGULAR_DEPTH: i32 = 6;

/// How far below the test's bound a node outside the principal variation must fall for its
/// table move to be searched two plies deeper instead of one.
const DOUBLE_EXTENSION_MARGIN: Score = 20;

/// The most two-ply extensions on one line: each lengthens the line, and without a cap a
/// search of forcing lines would not end.
const MAX_DOUBLE_EXTENSIONS: u8 = 6;

/// The shallowest node that tries ProbCut.
const PROBCUT_DEPTH: i32 = 5;

/// How many plies shallower than its node ProbCut searches a capture's child.
const PROBCUT_REDUCTION: i32 = 4;

/// How far above beta a capture's shallow search must land for ProbCut to trust it.
const PROBCUT_MARGIN: Score = 200;

/// What searching a node without its table move says of that move.
enum Singularity {
    /// The move is much better than every other: it is searched a ply deeper, or two when the
    /// others fall far short.
    Singular {
        twice: bool,
    },
    /// Another move beats beta as well: the node fails high with this score.
    Cut(Score),
    /// The table's score beats beta, but other moves come close: the move is searched a ply
    /// shallower.
    Shared,
    Neither,
}

/// The deepest iteration of iterative deepening.
pub const MAX_DEPTH: u32 = 100;

/// The Threads option's maximum: the main thread and up to 255 helpers.
pub const MAX_THREADS: usize = 256;

/// The stack a search thread gets (the UCI loop's, bench's, datagen's and the helpers'): the
/// search recurses up to [`MAX_PLY`] deep with a move list per node.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// One search to run: the position, the game before it, and the limits.
#[derive(Clone, Debug)]
pub struct SearchJob {
    pub position: Position,
    /// The hashes of the game's earlier positions, oldest first (the root excluded), for
    /// repetitions.
    pub history: Vec<u64>,
    pub limits: Limits,
    /// The root moves to search (`go searchmoves`); empty: every legal move. A move that is not
    /// legal at the root is left out, and when none is, every legal move is searched.
    pub root_moves: Vec<Move>,
    pub move_overhead: Duration,
    /// Write castling as king-takes-rook.
    pub chess960: bool,
    /// When the `go` command arrived: the clock runs from here.
    pub started: Instant,
    /// Set by `stop` (or `quit`): the search returns as soon as it sees it.
    pub stop: Arc<AtomicBool>,
    /// Set by `ponderhit`: the position of a ponder search was reached, its clock starts.
    pub ponderhit: Arc<AtomicBool>,
}

impl SearchJob {
    /// A search of `position` within `limits`, from now, with no game before it, no move
    /// overhead and castling written as in standard chess (set the fields to change them).
    pub fn new(position: Position, limits: Limits) -> SearchJob {
        SearchJob {
            position,
            history: Vec::new(),
            limits,
            root_moves: Vec::new(),
            move_overhead: Duration::ZERO,
            chess960: false,
            started: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            ponderhit: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// What the search says after each completed iteration (a UCI `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    /// Which of several lines this is, best first (`None` when one line is searched).
    pub multipv: Option<usize>,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation in UCI notation.
    pub pv: Vec<String>,
}

/// One line of a search's root: its score, its moves and how deep it reached.
struct Line {
    score: Score,
    moves: Vec<Move>,
    seldepth: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` when the root has no legal move (mate or stalemate).
    pub best_move: Option<String>,
    /// The reply the search expects, when it has one.
    pub ponder: Option<String>,
    pub score: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
}

/// How often (in nodes) the search looks at the clock and the stop flag: about a millisecond.
const POLL_INTERVAL: u64 = 1024;

/// The search's state that lasts from search to search: the transposition table and the move
/// ordering's history.
#[derive(Debug)]
pub struct Searcher {
    /// Shared with the helpers.
    tt: Arc<TranspositionTable>,
    /// The other threads of a Lazy SMP search, one fewer than the Threads option: each a searcher
    /// of its own sharing `tt`.
    helpers: Vec<Searcher>,
    /// Set on a helper: what makes it one.
    helper: Option<HelperRole>,
    /// On the main thread during a search: where each helper publishes its node count.
    helper_nodes: Vec<Arc<AtomicU64>>,
    ordering: OrderingTables,
    /// What the searches of this game showed of the static evaluation's errors.
    correction: CorrectionHistory,
    lmr: Box<[[u8; 64]; 64]>,
    attacks: Attacks,
    /// The network or the hand-written evaluation, with the accumulators of the current line.
    evaluator: Evaluator,
    // ---- per search ----
    /// One move list per ply, reused by every node at that ply.
    pickers: Vec<MovePicker>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The static evaluation of the current line's node at each ply (`-INFINITY` in check),
    /// to see whether the side to move stands better than at its turn before.
    static_evals: [Score; MAX_PLY + 1],
    /// The move the node at each ply leaves out while its singularity is tested (else
    /// `Move::NULL`).
    singular_excluded: [Move; MAX_PLY + 1],
    /// How many two-ply singular extensions the line to the node at each ply holds.
    double_extensions: [u8; MAX_PLY + 1],
    /// The move the current line plays at each ply (`Move::NULL` for a pass).
    played: [Move; MAX_PLY + 1],
    /// The hashes of the game and of the path from the root to the current node.
    path: Vec<u64>,
    /// The root moves this search may play (empty: all of them).
    root_moves: Vec<Move>,
    /// How many lines to search (the MultiPV option), and the root moves that begin the lines
    /// already found at the current depth, which the next line leaves out.
    multi_pv: usize,
    excluded: Vec<Move>,
    nodes: u64,
    seldepth: usize,
    stop: Arc<AtomicBool>,
    /// The time this search may take, and when it runs out: no new iteration after the soft
    /// deadline, no node after the hard one (none while pondering).
    budget: TimeBudget,
    soft_deadline: Option<Instant>,
    deadline: Option<Instant>,
    pondering: bool,
    ponderhit: Arc<AtomicBool>,
    node_limit: u64,
    aborted: bool,
}

/// What makes a searcher a helper of another.
#[derive(Debug)]
struct HelperRole {
    /// The depth its iterations begin at: helpers alternate between 1 and 2, so that they are
    /// not all at the main thread's depth.
    first_depth: u32,
    /// Its node count, published as it polls the stop flag, which the main thread reports with
    /// its own.
    nodes: Arc<AtomicU64>,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` MiB, searching on one thread.
    pub fn new(hash_mb: usize) -> Result<Searcher, std::collections::TryReserveError> {
        Ok(Searcher::with_table(Arc::new(TranspositionTable::new(
            hash_mb,
        )?)))
    }

    /// A searcher on the table `tt`.
    fn with_table(tt: Arc<TranspositionTable>) -> Searcher {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                // The later a quiet move comes and the deeper the node, the less it is worth
                // searching at full depth.
                let reduction = 0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25;
                *r = reduction as u8;
            }
        }
        Searcher {
            tt,
            helpers: Vec::new(),
            helper: None,
            helper_nodes: Vec::new(),
            ordering: OrderingTables::default(),
            correction: CorrectionHistory::default(),
            lmr,
            attacks: Attacks::Tables,
            evaluator: Evaluator::default(),
            pickers: (0..=MAX_PLY).map(|_| MovePicker::default()).collect(),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            static_evals: [-INFINITY; MAX_PLY + 1],
            singular_excluded: [Move::NULL; MAX_PLY + 1],
            double_extensions: [0; MAX_PLY + 1],
            played: [Move::NULL; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            root_moves: Vec::new(),
            multi_pv: 1,
            excluded: Vec::new(),
            nodes: 0,
            seldepth: 0,
            stop: Arc::new(AtomicBool::new(false)),
            budget: TimeBudget::UNLIMITED,
            soft_deadline: None,
            deadline: None,
            pondering: false,
            ponderhit: Arc::new(AtomicBool::new(false)),
            node_limit: u64::MAX,
            aborted: false,
        }
    }

    /// Resizes the transposition table (the Hash option), emptied; on failure the old table
    /// stays.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), std::collections::TryReserveError> {
        let table = Arc::new(TranspositionTable::new(megabytes)?);
        for helper in &mut self.helpers {
            helper.tt = Arc::clone(&table);
        }
        self.tt = table;
        Ok(())
    }

    /// How many threads a search runs on (the Threads option, clamped to 1..=[`MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let mut helper = Searcher::with_table(Arc::clone(&self.tt));
            helper.helper = Some(HelperRole {
                first_depth: 1 + (self.helpers.len() as u32 + 1) % 2,
                nodes: Arc::new(AtomicU64::new(0)),
            });
            self.helpers.push(helper);
        }
    }

    /// How many threads a search runs on: the main thread and its helpers.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// How many lines a search finds and reports, each with its best move (the MultiPV option;
    /// at least one).
    pub fn set_multi_pv(&mut self, lines: usize) {
        self.multi_pv = lines.max(1);
    }

    /// Where the move generator takes its attacks, checks and pins from (the Attacks option).
    pub fn set_attacks(&mut self, attacks: Attacks) {
        self.attacks = attacks;
    }

    /// The evaluation: the network, and whether to use it (the `Use NNUE` and `EvalFile` options).
    pub fn evaluator_mut(&mut self) -> &mut Evaluator {
        &mut self.evaluator
    }

    /// Forgets what earlier searches learned (`ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.ordering.clear();
        self.correction.clear();
        for helper in &mut self.helpers {
            helper.ordering.clear();
            helper.correction.clear();
        }
    }

    /// [`Searcher::think`] on the backend `kind` names (an error when this CPU lacks it): the
    /// entry for programs that pick the backend at run time. Not generic, so the search for
    /// every backend of the target is compiled once, in this library.
    pub fn think_on(
        &mut self,
        kind: BackendKind,
        job: &SearchJob,
        report: &mut dyn FnMut(&Report),
    ) -> Result<SearchResult, BackendError> {
        qbb::with_backend!(kind, |b| self.think(b, job, report))
    }

    /// Runs `job` to its limits, calling `report` after every completed iteration.
    pub fn think<B: Backend>(
        &mut self,
        backend: B,
        job: &SearchJob,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        match self.attacks {
            Attacks::Tables => self.think_by(backend, TableAttacks, job, report),
            Attacks::Backend => self.think_by(backend, BackendAttacks, job, report),
        }
    }

    /// [`Searcher::think`] with the move generator's attacks, checks and pins from `attacks`:
    /// the main thread's iterative deepening, beside the helpers' when there are any.
    fn think_by<B: Backend, A: AttackSource + Send>(
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
    fn should_abort(&mut self) -> bool {
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

    /// Whether the node's position is drawn by the fifty-move rule, by repetition (one repetition
    /// is enough inside the search: what can be repeated once can be repeated twice), or for
    /// lack of mating material.
    #[inline]
    fn is_draw<B: Backend>(&self, backend: B, pos: &Position) -> bool {
        let clock = pos.halfmove_clock() as usize;
        if clock >= 100 {
            // Unless this very move mated.
            if !pos.in_check(backend) {
                return true;
            }
            let mut moves = MoveList::new();
            pos.generate_moves(backend, &mut moves);
            return !moves.is_empty();
        }
        let hash = pos.hash();
        // Same side to move: every second position back, no further than the last irreversible
        // move.
        let repeated = self
            .path
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .take(clock / 2)
            .any(|&h| h == hash);
        repeated || insufficient_material(backend, pos)
    }

    /// The entry of the recursion: runs the node inside the backend's features. `cut_node`: a
    /// node of the null window expected to fail high (the reduced search of a late move, and
    /// every other ply below it while the expectations hold).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        // The closure must inline into the feature region, or the recursive body stays out of
        // line, compiled without the backend's features (and every routine becomes a call).
        backend.with_features(
            #[inline(always)]
            |b| self.search_node(b, attacks, pos, alpha, beta, depth, ply, cut_node),
        )
    }

    /// A node of the principal variation search.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_node<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        self.pv_len[ply] = 0;
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(backend, attacks, pos, alpha, beta, ply);
        }
        // Checked before counting the node, so that a node limit is never exceeded (a re-search
        // may still start after its child was cut off by the stop).
        if self.should_abort() {
            return 0;
        }
        self.nodes += 1;
        let is_root = ply == 0;
        let is_pv = beta - alpha > 1;
        if !is_root
            && let Some(score) = self.decided_at_once(backend, pos, ply, &mut alpha, &mut beta)
        {
            return score;
        }

        // Set while the node is searched without its table move (a singular extension's test):
        // such a search neither takes nor leaves a result in the table, nor prunes the node.
        let excluded = self.singular_excluded[ply];
        let hash = pos.hash();
        let tt_entry = self.tt.probe(hash, ply);
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.best_move);
        if let Some(entry) = tt_entry
            && !is_pv
            && excluded == Move::NULL
            && settles(&entry, depth, alpha, beta)
        {
            return entry.score;
        }

        let in_check = pos.in_check(backend);
        let (raw_eval, static_eval) = self.static_evaluation(backend, pos, ply, in_check);
        let improving = self.improving(ply);

        if !is_pv
            && let Some(score) =
                self.fail_high_unsearched(backend, attacks, pos, beta, depth, ply, cut_node)
        {
            return score;
        }

        let node = (beta, depth, ply);
        let tt_extension =
            match self.singularity(backend, attacks, pos, tt_entry, node, is_pv, cut_node) {
                Singularity::Singular { twice } => 1 + i32::from(twice),
                Singularity::Cut(score) => return score,
                Singularity::Shared => -1,
                Singularity::Neither => 0,
            };
        if self.aborted {
            return 0;
        }

        // Internal iterative reduction: a node no earlier search left a move for is searched a
        // ply shallower, its moves being ordered blind; the next iteration comes back to it
        // with the move this one stores.
        let depth = depth - i32::from(depth >= 4 && tt_move == Move::NULL);

        if !self.order_moves(backend, attacks, pos, tt_move, ply) {
            return if in_check { mated_in(ply) } else { DRAW };
        }

        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        self.path.push(hash);
        for index in 0.. {
            let Some(mv) = self.pickers[ply].next_best() else {
                break;
            };
            if mv == excluded {
                continue;
            }
            let tactical = is_tactical(mv);
            if !is_root
                && !in_check
                && index > 0
                && !is_mate(alpha)
                && loses_too_much(backend, pos, mv, tactical, depth)
            {
                continue;
            }
            let child = pos.make_move(backend, mv);
            let gives_check = child.in_check(backend);
            let quiet = !tactical && !in_check && !gives_check;
            if !is_pv
                && quiet
                && index > 0
                && !is_mate(alpha)
                && prunes_quiet(depth, index, improving, static_eval, alpha)
            {
                continue;
            }

            self.enter_child(backend, ply, pos, mv, &child);
            let extension = self.extension(ply, mv == tt_move, tt_extension, gives_check);
            let new_depth = depth - 1 + extension;
            let window = (alpha, beta);
            let score = if index == 0 {
                let child_cut = !is_pv && !cut_node;
                self.child_score(backend, attacks, &child, window, new_depth, ply, child_cut)
            } else {
                // Late quiet moves are searched shallower first; any surprise is re-searched.
                let counts = (depth, index, new_depth);
                let reduction = self.reduction(quiet, counts, is_pv, improving, cut_node);
                let plies = (new_depth, reduction, ply);
                self.later_move_score(backend, attacks, &child, window, plies, cut_node)
            };
            if self.aborted {
                self.path.pop();
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !tactical {
                            let tried = self.pickers[ply].handed_out();
                            self.ordering
                                .reward_cutoff(pos.side_to_move(), mv, tried, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if excluded == Move::NULL {
            self.remember(hash, ply, depth, beta, best_move, best_score);
            self.learn_correction(pos, depth, raw_eval, beta, best_move, best_score);
        }
        best_score
    }

    /// Readies the search of `child`, which `mv` makes of the node at `ply`: the child probes
    /// the table first, so its bucket is fetched while the network's accumulators are updated.
    #[inline(always)]
    fn enter_child<B: Backend>(
        &mut self,
        backend: B,
        ply: usize,
        pos: &Position,
        mv: Move,
        child: &Position,
    ) {
        self.tt.prefetch(child.hash());
        self.played[ply] = mv;
        self.evaluator.make_move(backend, ply, pos, child);
    }

    /// The static evaluation of the node at `ply`, as the network or the hand-written
    /// evaluation gives it and as its pawn structure's correction moves it (both `-INFINITY`
    /// in check, where a position has none); the corrected one is kept for `improving`.
    #[inline(always)]
    fn static_evaluation<B: Backend>(
        &mut self,
        backend: B,
        pos: &Position,
        ply: usize,
        in_check: bool,
    ) -> (Score, Score) {
        let (raw, corrected) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = self.evaluator.evaluate(backend, ply, pos);
            (raw, self.correction.correct(pos, raw))
        };
        self.static_evals[ply] = corrected;
        (raw, corrected)
    }

    /// Blends a searched node's score into its pawn structure's correction (not in check: no
    /// evaluation to correct).
    #[inline(always)]
    fn learn_correction(
        &mut self,
        pos: &Position,
        depth: i32,
        raw_eval: Score,
        beta: Score,
        best_move: Move,
        best_score: Score,
    ) {
        if raw_eval != -INFINITY {
            let found_best = best_move != Move::NULL;
            let tactical = found_best && is_tactical(best_move);
            self.correction
                .learn(pos, depth, raw_eval, best_score, beta, found_best, tactical);
        }
    }

    /// The score a node outside the principal variation returns before trying a move when its
    /// static evaluation or a shallow search says it fails high anyway (none when it may not: in
    /// check, with a mate at beta, or while a singular extension is tested).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn fail_high_unsearched<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<Score> {
        let static_eval = self.static_evals[ply];
        let in_check = static_eval == -INFINITY;
        if in_check || is_mate(beta) || self.singular_excluded[ply] != Move::NULL {
            return None;
        }
        // Reverse futility: so far above beta that a shallow search will not come back down.
        if depth <= 6 && static_eval - 90 * depth >= beta {
            return Some(static_eval);
        }
        // Null move: if passing still fails high, a real move would too (not in pawn endings,
        // where passing can be the only bad option: zugzwang; nor right after a pass, where
        // two passes would search the node itself, shallower).
        let after_pass = ply > 0 && self.played[ply - 1] == Move::NULL;
        if !after_pass && depth >= 3 && static_eval >= beta && pos.has_non_pawn_material() {
            let score = self.null_move_score(backend, attacks, pos, (beta, depth, ply), cut_node);
            if self.aborted {
                return Some(0);
            }
            if score >= beta {
                return Some(if is_mate(score) { beta } else { score });
            }
        }
        if depth >= PROBCUT_DEPTH {
            let score = self.probcut(backend, attacks, pos, (beta, depth, ply), cut_node);
            if self.aborted {
                return Some(0);
            }
            return score;
        }
        None
    }

    /// ProbCut: a capture whose search a few plies shallower beats beta by `PROBCUT_MARGIN`
    /// would, searched to the full depth, almost surely beat beta too; the node fails high with
    /// that score, stored as a bound of the shallower depth. Only captures whose exchange alone
    /// lifts the static evaluation that far are tried, each first by the quiescence search.
    #[inline(always)]
    fn probcut<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        (beta, depth, ply): (Score, i32, usize),
        cut_node: bool,
    ) -> Option<Score> {
        let probcut_beta = beta + PROBCUT_MARGIN;
        let needed = probcut_beta - self.static_evals[ply];
        let picker = &mut self.pickers[ply];
        pos.generate_captures_by(backend, attacks, picker.list());
        let ordering = &self.ordering;
        picker.score_with(|mv| ordering.score(pos, mv, Move::NULL, MAX_PLY));
        self.path.push(pos.hash());
        let mut found = None;
        while let Some(mv) = self.pickers[ply].next_best() {
            if see::exchange(backend, pos, mv) < needed {
                continue;
            }
            let child = pos.make_move(backend, mv);
            self.enter_child(backend, ply, pos, mv, &child);
            self.double_extensions[ply + 1] = self.double_extensions[ply];
            let window = (probcut_beta - 1, probcut_beta);
            // Depth 0: the quiescence search.
            let mut score = self.child_score(backend, attacks, &child, window, 0, ply, !cut_node);
            if score >= probcut_beta {
                let shallow = depth - PROBCUT_REDUCTION;
                score = self.child_score(backend, attacks, &child, window, shallow, ply, !cut_node);
            }
            if self.aborted {
                break;
            }
            if score >= probcut_beta {
                // The node's result: its child's search and the capture, a ply more.
                let searched = depth - PROBCUT_REDUCTION + 1;
                self.remember(pos.hash(), ply, searched, probcut_beta, mv, score);
                found = Some(score);
                break;
            }
        }
        self.path.pop();
        found
    }

    /// Whether the table's move of the node at `ply` is singular: the node searched without it,
    /// half as deep, falls short of the move's score by a margin. Then the move is extended a
    /// ply, or two outside the principal variation when the node falls far short, while the line
    /// has room for them. When even without it the node beats beta, more than one move does, and
    /// the node fails high at once; when only the stored score does, the move is searched a ply
    /// shallower. Tested below the root, from `SINGULAR_DEPTH` on, when the table's entry is a
    /// search at least nearly as deep that did not fail low.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn singularity<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        entry: Option<Entry>,
        (beta, depth, ply): (Score, i32, usize),
        is_pv: bool,
        cut_node: bool,
    ) -> Singularity {
        let Some(entry) = entry else {
            return Singularity::Neither;
        };
        if ply == 0
            || depth < SINGULAR_DEPTH
            || self.singular_excluded[ply] != Move::NULL
            || entry.best_move == Move::NULL
            || entry.bound == Bound::Upper
            || i32::from(entry.depth) < depth - 3
            || is_mate(entry.score)
        {
            return Singularity::Neither;
        }
        let singular_beta = entry.score - 2 * depth;
        self.singular_excluded[ply] = entry.best_move;
        let score = self.search(
            backend,
            attacks,
            pos,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.singular_excluded[ply] = Move::NULL;
        // The test's line is no line of this node's.
        self.pv_len[ply] = 0;
        if score < singular_beta {
            let twice = !is_pv
                && score < singular_beta - DOUBLE_EXTENSION_MARGIN
                && self.double_extensions[ply] < MAX_DOUBLE_EXTENSIONS;
            Singularity::Singular { twice }
        } else if singular_beta >= beta {
            Singularity::Cut(singular_beta)
        } else if entry.score >= beta {
            Singularity::Shared
        } else {
            Singularity::Neither
        }
    }

    /// The score of a node below the root that needs no search: a draw by the rules, or a window
    /// that mate distance closes (no line from here can beat a mate already found nearer the
    /// root; the window is narrowed to what it can).
    #[inline(always)]
    fn decided_at_once<B: Backend>(
        &self,
        backend: B,
        pos: &Position,
        ply: usize,
        alpha: &mut Score,
        beta: &mut Score,
    ) -> Option<Score> {
        if self.is_draw(backend, pos) {
            return Some(DRAW);
        }
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(mate_in(ply + 1));
        (*alpha >= *beta).then_some(*alpha)
    }

    /// How many plies deeper than the others a move of the node at `ply` is searched: the table
    /// move by what its singularity says (from two plies deeper to one shallower), a check at
    /// least one. A two-ply extension is counted on the child's line.
    #[inline(always)]
    fn extension(&mut self, ply: usize, is_tt_move: bool, tt_extension: i32, check: bool) -> i32 {
        let by_table = if is_tt_move { tt_extension } else { 0 };
        let extension = if check { by_table.max(1) } else { by_table };
        self.double_extensions[ply + 1] = self.double_extensions[ply] + u8::from(extension == 2);
        extension
    }

    /// Whether the side to move at `ply` stands better than at its turn before, by their static
    /// evaluations: never in check; always near the root, or when that turn was in check and
    /// had no evaluation.
    #[inline(always)]
    fn improving(&self, ply: usize) -> bool {
        let now = self.static_evals[ply];
        now != -INFINITY
            && (ply < 2
                || self.static_evals[ply - 2] == -INFINITY
                || now > self.static_evals[ply - 2])
    }

    /// Generates the moves of the node at `ply` into its picker (at the root only those the
    /// search may play) and scores them for ordering; false when there are none.
    #[inline(always)]
    fn order_moves<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        tt_move: Move,
        ply: usize,
    ) -> bool {
        let picker = &mut self.pickers[ply];
        pos.generate_moves_by(backend, attacks, picker.list());
        if ply == 0 {
            keep_root_moves(&self.root_moves, &self.excluded, picker.list());
        }
        if picker.is_empty() {
            return false;
        }
        let ordering = &self.ordering;
        picker.score_with(|mv| ordering.score_with_exchange(backend, pos, mv, tt_move, ply));
        self.ordering.clear_killers(ply + 1);
        true
    }

    /// How many plies shallower a late move is searched first (the `index`th move of a node
    /// `depth` deep, whose children are searched `new_depth` deep): none unless it is quiet;
    /// less in the principal variation, more when the side to move is not improving, and more
    /// at a node expected to fail high, where a late move matters only if the earlier ones
    /// failed.
    #[inline(always)]
    fn reduction(
        &self,
        quiet: bool,
        (depth, index, new_depth): (i32, usize, i32),
        is_pv: bool,
        improving: bool,
        cut_node: bool,
    ) -> i32 {
        if !quiet || depth < 3 || index < 3 {
            return 0;
        }
        let r = i32::from(self.lmr[depth.min(63) as usize][index.min(63)]);
        (r - i32::from(is_pv) + i32::from(!improving) + i32::from(cut_node))
            .min(new_depth - 1)
            .max(0)
    }

    /// Stores a node's result in the transposition table: its best score (at least `beta`: a
    /// lower bound; with a best move below it: exact; else an upper bound) and best move.
    #[inline(always)]
    fn remember(
        &self,
        hash: u64,
        ply: usize,
        depth: i32,
        beta: Score,
        best_move: Move,
        score: Score,
    ) {
        let bound = if score >= beta {
            Bound::Lower
        } else if best_move != Move::NULL {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
        let entry = Entry {
            best_move,
            score,
            depth,
            bound,
        };
        self.tt.store(hash, ply, entry);
    }

    /// The score of passing at the node at `ply` (a null move), searched with a null window at
    /// `beta` and a reduced depth, for the node's side: a ply shallower for every two pawns the
    /// static evaluation stands above beta, up to three.
    #[inline(always)]
    fn null_move_score<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        (beta, depth, ply): (Score, i32, usize),
        cut_node: bool,
    ) -> Score {
        let static_eval = self.static_evals[ply];
        let reduction = 3 + depth / 6 + ((static_eval - beta) / 200).min(3);
        let child = pos.make_null_move();
        self.evaluator.make_null_move(ply);
        self.played[ply] = Move::NULL;
        self.double_extensions[ply + 1] = self.double_extensions[ply];
        self.path.push(pos.hash());
        let child_depth = depth - 1 - reduction;
        let score = -self.search(
            backend,
            attacks,
            &child,
            -beta,
            -beta + 1,
            child_depth,
            ply + 1,
            !cut_node,
        );
        self.path.pop();
        score
    }

    /// The score of a move after the first, from a node at `ply` (a cut node or not): searched
    /// with a null window at alpha, `reduction` plies shallower than `depth` first, where it is
    /// expected to fail high; a reduced search that beats alpha is searched again at full depth,
    /// and one that lands inside the window with the whole window.
    #[inline(always)]
    fn later_move_score<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        child: &Position,
        (alpha, beta): (Score, Score),
        (depth, reduction, ply): (i32, i32, usize),
        cut_node: bool,
    ) -> Score {
        let null_window = (alpha, alpha + 1);
        // A reduced search expects the fail high; an unreduced one alternates as the first move.
        let (reduced, reduced_cut) = (depth - reduction, reduction > 0 || !cut_node);
        let mut score = self.child_score(
            backend,
            attacks,
            child,
            null_window,
            reduced,
            ply,
            reduced_cut,
        );
        if score > alpha && reduction > 0 {
            score = self.child_score(backend, attacks, child, null_window, depth, ply, !cut_node);
        }
        if score > alpha && score < beta {
            score = self.child_score(backend, attacks, child, (alpha, beta), depth, ply, false);
        }
        score
    }

    /// The score of `child`, a child of the node at `ply`, for that node's side: the child
    /// searched `depth` deep with the window (`alpha`, `beta`) seen from the node (expected to
    /// fail high, or not: `cut_node`), its score negated back.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn child_score<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        child: &Position,
        (alpha, beta): (Score, Score),
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        -self.search(
            backend,
            attacks,
            child,
            -beta,
            -alpha,
            depth,
            ply + 1,
            cut_node,
        )
    }

    /// Makes `mv` followed by the child's principal variation this node's.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// The entry of the quiescence recursion, inside the backend's features.
    #[inline(always)]
    fn quiescence<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        backend.with_features(
            #[inline(always)]
            |b| self.quiescence_node(b, attacks, pos, alpha, beta, ply),
        )
    }

    /// Captures and queen promotions only, until the position is quiet; every move when in
    /// check (so mates are seen).
    #[inline(always)]
    fn quiescence_node<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if self.should_abort() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply < MAX_PLY {
            self.pv_len[ply] = 0;
        }
        let in_check = pos.in_check(backend);
        if ply >= MAX_PLY {
            return if in_check {
                DRAW
            } else {
                self.evaluator.evaluate(backend, ply, pos)
            };
        }

        let picker = &mut self.pickers[ply];
        let stand_pat;
        let mut best_score;
        if in_check {
            pos.generate_moves_by(backend, attacks, picker.list());
            if picker.is_empty() {
                return mated_in(ply);
            }
            stand_pat = -INFINITY;
            best_score = -INFINITY;
        } else {
            let raw = self.evaluator.evaluate(backend, ply, pos);
            stand_pat = self.correction.correct(pos, raw);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            pos.generate_captures_by(backend, attacks, picker.list());
        }

        let ordering = &self.ordering;
        picker.score_with(|mv| ordering.score(pos, mv, Move::NULL, MAX_PLY));
        while let Some(mv) = self.pickers[ply].next_best() {
            if !in_check && mv.promotion().is_none() {
                // Delta pruning: even winning this piece for free would not reach alpha.
                let gain = victim(pos, mv).map_or(0, |v| PIECE_VALUE[v.index()]);
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                // A capture that loses material cannot help a side that may stand pat.
                if loses_material(backend, pos, mv) {
                    continue;
                }
            }
            let child = pos.make_move(backend, mv);
            self.evaluator.make_move(backend, ply, pos, &child);
            let score = -self.quiescence(backend, attacks, &child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}

/// Whether a quiet move of a node `depth` deep, the `index`th tried, is pruned unsearched, at a
/// node of the null window that is not in check and where the move gives none.
#[inline(always)]
fn prunes_quiet(
    depth: i32,
    index: usize,
    improving: bool,
    static_eval: Score,
    alpha: Score,
) -> bool {
    // Futility: near the leaves, a quiet move cannot lift a hopeless score to alpha.
    (depth <= 3 && static_eval + 100 + 120 * depth <= alpha)
        // Late move pruning: near the leaves, the quiet moves ordered last are not searched at
        // all (fewer when the side to move is not improving).
        || (depth <= 7 && index >= late_move_limit(depth, improving))
}

/// Whether `mv`, not the first move of a node `depth` deep, is pruned unsearched because the
/// exchange on its square loses more than a shallow search could win back: near the leaves, a
/// capture that loses more than a pawn a ply, or a quiet move that hangs its piece (either may
/// give check).
#[inline(always)]
fn loses_too_much<B: Backend>(b: B, pos: &Position, mv: Move, tactical: bool, depth: i32) -> bool {
    let margin = if tactical { 100 * depth } else { 60 * depth };
    depth <= 6 && see::exchange(b, pos, mv) < -margin
}

/// How many moves of a node `depth` deep are tried before its remaining quiet moves are pruned:
/// the count grows with the square of the depth, and is halved when the side to move is not
/// improving.
#[inline(always)]
fn late_move_limit(depth: i32, improving: bool) -> usize {
    ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize
}

/// Whether a stored result settles a node searched `depth` deep with the window (`alpha`, `beta`)
/// without a search: deep enough, and its bound on the value decides the window.
#[inline(always)]
fn settles(entry: &Entry, depth: i32, alpha: Score, beta: Score) -> bool {
    i32::from(entry.depth) >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => entry.score >= beta,
            Bound::Upper => entry.score <= alpha,
        }
}

/// Leaves in `moves`, the root's, those the search may play: the moves of `only` (all when it is
/// empty) but for those of `excluded` (the first moves of the lines already found at this depth).
fn keep_root_moves(only: &[Move], excluded: &[Move], moves: &mut MoveList) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use qbb::{BackendKind, Scalar};

    fn job(fen: &str, limits: Limits) -> SearchJob {
        SearchJob::new(Position::from_fen(fen).unwrap(), limits)
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn search(fen: &str, limits: Limits) -> (SearchResult, Vec<Report>) {
        let mut reports = Vec::new();
        let result = Searcher::new(1)
            .unwrap()
            .think(Scalar, &job(fen, limits), &mut |r| reports.push(r.clone()));
        (result, reports)
    }

    #[test]
    fn finds_a_mate_in_one() {
        let (result, _) = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth(4));
        assert_eq!(result.best_move.as_deref(), Some("a1a8"));
        assert_eq!(result.score, mate_in(1));
    }

    #[test]
    fn finds_the_smothered_mate_for_either_colour() {
        // 1. Qg8+ Rxg8 2. Nf7#, and the same with colours exchanged.
        for (fen, line) in [
            (
                "5r1k/6pp/7N/8/8/1Q6/8/6K1 w - - 0 1",
                ["b3g8", "f8g8", "h6f7"],
            ),
            (
                "6k1/8/1q6/8/8/7n/6PP/5R1K b - - 0 1",
                ["b6g1", "f1g1", "h3f2"],
            ),
        ] {
            let (result, reports) = search(fen, depth(5));
            assert_eq!(result.score, mate_in(3), "{fen}");
            assert_eq!(reports.last().unwrap().pv, line, "{fen}");
        }
    }

    #[test]
    fn takes_a_hanging_queen_and_sees_the_recapture() {
        let (result, _) = search("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1", depth(4));
        assert_eq!(result.best_move.as_deref(), Some("d1d5"));
        // Defended by a pawn: taking loses the queen for a queen, a plain trade.
        let (result, _) = search("4k3/8/2p5/3q4/8/8/8/3QK3 w - - 0 1", depth(4));
        assert!(result.score.abs() < 300, "{result:?}");
    }

    #[test]
    fn mate_and_stalemate_at_the_root_have_no_move() {
        let (mated, reports) = search("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", depth(3));
        assert_eq!(mated.best_move, None);
        assert_eq!(mated.score, mated_in(0));
        assert!(reports.is_empty());
        let (stalemate, _) = search("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1", depth(3));
        assert_eq!(stalemate.best_move, None);
        assert_eq!(stalemate.score, DRAW);
    }

    #[test]
    fn a_repetition_is_a_draw() {
        let start = Position::startpos();
        let mut searcher = Searcher::new(1).unwrap();
        let mut pos = start;
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            searcher.path.push(pos.hash());
            let mv = pos.parse_uci_move(Scalar, text).unwrap();
            pos = pos.make_move(Scalar, mv);
        }
        assert_eq!(pos.hash(), start.hash());
        assert!(searcher.is_draw(Scalar, &pos));
        // The same position without the history is not drawn.
        searcher.path.clear();
        assert!(!searcher.is_draw(Scalar, &pos));
    }

    #[test]
    fn the_fifty_move_rule_draws_unless_the_last_move_mated() {
        let searcher = Searcher::new(1).unwrap();
        let quiet = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
        assert!(searcher.is_draw(Scalar, &quiet));
        let younger = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        assert!(!searcher.is_draw(Scalar, &younger));
        let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").unwrap();
        assert!(!searcher.is_draw(Scalar, &mated));
    }

    #[test]
    fn a_winning_side_avoids_the_repetition() {
        // White is a rook up; the position after Ra2-a1 has occurred twice already: a draw
        // there would throw the win away.
        let before = "4k3/8/8/8/8/8/R7/4K3 w - - 0 1";
        let mut job = job(before, depth(5));
        let mut pos = job.position;
        for text in ["a2a1", "e8d8", "a1a2", "d8e8"] {
            job.history.push(pos.hash());
            pos = pos.make_move(Scalar, pos.parse_uci_move(Scalar, text).unwrap());
        }
        job.position = pos;
        let result = Searcher::new(1).unwrap().think(Scalar, &job, &mut |_| {});
        assert_ne!(result.best_move.as_deref(), Some("a2a1"));
        assert!(result.score > 300, "{result:?}");
    }

    #[test]
    fn reports_every_iteration_with_a_legal_line() {
        let (result, reports) = search(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            depth(5),
        );
        assert_eq!(
            reports.iter().map(|r| r.depth).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        let last = reports.last().unwrap();
        assert_eq!(result.best_move.as_ref(), last.pv.first());
        assert_eq!(result.nodes, last.nodes);
        let mut pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for text in &last.pv {
            let mv = pos
                .parse_uci_move(Scalar, text)
                .expect("pv moves are legal");
            pos = pos.make_move(Scalar, mv);
        }
        assert!(last.seldepth >= 5);
    }

    #[test]
    fn the_node_limit_holds() {
        let limits = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let (result, _) = search(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            limits,
        );
        assert!(result.nodes <= 5_000, "{}", result.nodes);
        assert!(result.best_move.is_some());
    }

    #[test]
    fn a_stopped_search_still_answers_a_legal_move() {
        let job = job(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            Limits::default(),
        );
        job.stop.store(true, Ordering::Relaxed);
        let result = Searcher::new(1).unwrap().think(Scalar, &job, &mut |_| {});
        let text = result.best_move.expect("a move");
        assert!(job.position.parse_uci_move(Scalar, &text).is_ok());
    }

    #[test]
    fn helpers_search_beside_the_main_thread_and_stop_with_it() {
        let mut searcher = Searcher::new(1).unwrap();
        searcher.set_threads(3);
        assert_eq!(searcher.threads(), 3);
        let job = job(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            Limits {
                infinite: true,
                ..Limits::default()
            },
        );
        let stop = Arc::clone(&job.stop);
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        let mut reports = Vec::new();
        let result = searcher.think(Scalar, &job, &mut |r| reports.push(r.clone()));
        stopper.join().unwrap();
        // The answer came after the stop, every helper joined, and their nodes were counted
        // with the main thread's.
        let text = result.best_move.expect("a move");
        assert!(job.position.parse_uci_move(Scalar, &text).is_ok());
        assert_eq!(searcher.threads(), 3);
        assert!(
            result.nodes > searcher.nodes,
            "{} {}",
            result.nodes,
            searcher.nodes
        );
        assert!(reports.iter().all(|r| r.nodes <= result.nodes));
        // They found the mate on the shared table as well as one thread does.
        searcher.set_threads(2);
        let mate = SearchJob::new(
            Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap(),
            depth(6),
        );
        let result = searcher.think(Scalar, &mate, &mut |_| {});
        assert_eq!(result.best_move.as_deref(), Some("a1a8"));
        assert_eq!(result.score, mate_in(1));
    }

    #[test]
    fn one_thread_searches_as_before_helpers_were_added() {
        // Helpers added and taken away leave a single-threaded search's tree as it was.
        let job = job(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            depth(7),
        );
        let alone = Searcher::new(1).unwrap().think(Scalar, &job, &mut |_| {});
        let mut searcher = Searcher::new(1).unwrap();
        searcher.set_threads(4);
        searcher.set_threads(1);
        assert_eq!(searcher.think(Scalar, &job, &mut |_| {}), alone);
    }

    #[test]
    fn every_backend_searches_the_same_tree() {
        // Nodes and best move of a fixed-depth search on `kind` with the move generator's
        // attacks from `attacks`.
        let nodes = |kind: BackendKind, attacks: Attacks| {
            let job = job(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                depth(5),
            );
            let mut searcher = Searcher::new(1).unwrap();
            searcher.set_attacks(attacks);
            let result = searcher.think_on(kind, &job, &mut |_| {}).unwrap();
            (result.nodes, result.best_move)
        };
        let reference = nodes(BackendKind::Scalar, Attacks::Tables);
        for kind in BackendKind::ALL.into_iter().filter(|k| k.is_available()) {
            for attacks in Attacks::ALL {
                assert_eq!(
                    nodes(kind, attacks),
                    reference,
                    "{kind}, attacks from {attacks}"
                );
            }
        }
    }
}
