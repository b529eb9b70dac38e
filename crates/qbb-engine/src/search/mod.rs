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
//!
//! This file holds the searcher and its options; the search itself is in `deepen.rs` (the
//! iterations, their windows and lines, the helper threads and the clock), `node.rs` (a node of
//! the principal variation search), `pruning.rs` (what lets a node skip its own search: null
//! move, ProbCut, the singular test) and `quiescence.rs` (the leaves). What it keeps from node to
//! node: `tt.rs` (the transposition table), `ordering.rs` (move ordering), `correction.rs`
//! (correction history); what it asks: `see.rs` (static exchanges), `time.rs` (the budget).

pub(crate) mod correction;
mod deepen;
mod node;
pub(crate) mod ordering;
mod pruning;
mod quiescence;
pub(crate) mod see;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

use qbb::{Backend, BackendError, BackendKind};

use crate::board::attack_source::{Attacks, BackendAttacks, TableAttacks};
use crate::board::{Move, Position};
use crate::eval::nnue::Evaluator;
use crate::eval::score::{INFINITY, MAX_PLY, Score};
use correction::CorrectionHistory;
use ordering::{MovePicker, OrderingTables};
use time::{Limits, TimeBudget};
use tt::TranspositionTable;

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::{DRAW, mate_in, mated_in};
    use qbb::{BackendKind, Scalar};
    use std::sync::atomic::Ordering;

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
