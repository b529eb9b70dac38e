//! `qbb-engine datagen`: self-play games that label positions for training an NNUE evaluation.
//!
//! Each game starts with a few uniformly random moves (so that games differ), then both sides
//! play the best move of a node-limited search. A node limit, unlike a time limit, makes a search
//! depend on nothing but its position and its tables, and the tables are cleared before every
//! game, so a game is a function of the seed, its index and the node limit: the same command
//! writes the same file, whatever the number of threads.
//!
//! Every searched position is a candidate sample, labelled with the search's score (the
//! evaluation a network learns to predict) and the game's result (what that evaluation should
//! mean). Samples are kept only where the score describes a *quiet* position, which is what the
//! evaluation sees in the search (the quiescence search settles the rest): not in check, no
//! capture or promotion as the best move, and no mate score (a distance to mate, not an
//! evaluation).
//!
//! Output, one line per kept position, scores and results from White's point of view:
//! `<fen> | <centipawns> | <1.0, 0.5 or 0.0>`.

use std::collections::{BTreeMap, TryReserveError};
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use qbb::conformance::SplitMix64;
use qbb::{Backend, BackendError, BackendKind, Color};

use crate::board::{Move, MoveList, Position};
use crate::eval::insufficient_material;
use crate::eval::score::{Score, is_mate};
use crate::search::ordering::is_tactical;
use crate::search::time::Limits;
use crate::search::{SEARCH_STACK_BYTES, SearchJob, Searcher};

pub const DEFAULT_NODES: u64 = 5_000;
pub const DEFAULT_RANDOM_PLIES: u32 = 8;
/// The accepted values of each setting.
pub const GAMES: RangeInclusive<u64> = 1..=1_000_000_000;
pub const NODES: RangeInclusive<u64> = 1..=1_000_000_000;
pub const THREADS: RangeInclusive<u64> = 1..=256;
/// Beyond a few dozen random moves a game is decided by blunders before the search plays.
pub const RANDOM_PLIES: RangeInclusive<u64> = 0..=64;

/// Each worker's transposition table, in MiB: ample for searches of a few thousand nodes.
const HASH_MB: usize = 16;
/// A score this large, for the same side on this many plies in a row, ends the game as a win:
/// the rest would teach nothing new and cost the most time.
const ADJUDICATION_SCORE: Score = 2_000;
const ADJUDICATION_PLIES: u32 = 4;
/// A game this long is adjudicated a draw.
const MAX_PLIES: u32 = 400;
/// Progress is reported after every this many games.
const PROGRESS_EVERY: u64 = 100;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub games: u64,
    /// The node limit of every search.
    pub nodes: u64,
    pub seed: u64,
    pub threads: usize,
    pub random_plies: u32,
    pub backend: BackendKind,
    /// Search with the network (true) or the hand-written evaluation.
    pub use_nnue: bool,
}

/// A game's result from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// The result when `winner` wins.
    fn win_for(winner: Color) -> GameResult {
        match winner {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    /// White's share of the point: `1.0`, `0.5` or `0.0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        })
    }
}

/// A kept position and its search score (centipawns, White's point of view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub fen: String,
    pub score: Score,
}

/// One played game: its kept samples and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub samples: Vec<Sample>,
    pub result: GameResult,
}

impl Game {
    /// The game's output lines.
    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        for sample in &self.samples {
            writeln!(out, "{} | {} | {}", sample.fen, sample.score, self.result)?;
        }
        Ok(())
    }
}

/// How far a run has come.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    pub elapsed: Duration,
}

impl Progress {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    #[error("{what} must be from {} to {}, not {value}", range.start(), range.end())]
    OutOfRange {
        what: &'static str,
        value: u64,
        range: RangeInclusive<u64>,
    },
    #[error("cannot create {}: {source}", path.display())]
    Create { path: PathBuf, source: io::Error },
    #[error("cannot write the output: {0}")]
    Write(io::Error),
    #[error("cannot start a worker thread: {0}")]
    Thread(io::Error),
    #[error("cannot allocate the transposition table: {0}")]
    Memory(#[from] TryReserveError),
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("internal error: the search answered `{0}`, which is not a legal move")]
    IllegalBestMove(String),
}

impl Config {
    /// Each setting within its range.
    pub fn check(&self) -> Result<(), DatagenError> {
        let settings = [
            ("--games", self.games, GAMES),
            ("--nodes", self.nodes, NODES),
            ("--threads", self.threads as u64, THREADS),
            ("--random-plies", u64::from(self.random_plies), RANDOM_PLIES),
        ];
        for (what, value, range) in settings {
            if !range.contains(&value) {
                return Err(DatagenError::OutOfRange { what, value, range });
            }
        }
        Ok(self.backend.check_available()?)
    }
}

/// Plays `config.games` games and writes their samples to a new file at `path`.
pub fn run_to_file(
    config: &Config,
    path: &Path,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Progress, DatagenError> {
    config.check()?;
    let create = |source| DatagenError::Create {
        path: path.to_path_buf(),
        source,
    };
    let mut out = BufWriter::new(File::create(path).map_err(create)?);
    run(config, &mut out, progress)
}

/// Plays `config.games` games on `config.threads` threads and writes their samples to `out`, in
/// the order of the games (a finished game waits for those before it), calling `progress` every
/// hundred games and at the end.
pub fn run(
    config: &Config,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Progress, DatagenError> {
    config.check()?;
    let shared = Shared {
        next_game: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        started: Instant::now(),
        sink: Mutex::new(Sink {
            out,
            next: 0,
            waiting: BTreeMap::new(),
            games: 0,
            positions: 0,
        }),
    };
    let outcomes: Vec<Result<(), DatagenError>> = thread::scope(|scope| {
        let workers: Vec<_> = (0..config.threads)
            .map(|i| {
                thread::Builder::new()
                    .name(format!("datagen-{i}"))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, || shared.work(config, progress))
            })
            .collect();
        workers
            .into_iter()
            .map(|spawned| match spawned {
                // A panic in a game is a bug: let it surface as one.
                Ok(worker) => worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(e) => {
                    shared.failed.store(true, Ordering::Relaxed);
                    Err(DatagenError::Thread(e))
                }
            })
            .collect()
    });
    outcomes.into_iter().collect::<Result<(), _>>()?;
    let sink = shared.sink.into_inner().unwrap_or_else(|e| e.into_inner());
    sink.out.flush().map_err(DatagenError::Write)?;
    Ok(Progress {
        games: sink.games,
        positions: sink.positions,
        elapsed: shared.started.elapsed(),
    })
}

/// What the workers share: the next game to play and the output.
struct Shared<'a> {
    next_game: AtomicU64,
    /// Set by a worker that failed, so that the others stop too.
    failed: AtomicBool,
    started: Instant,
    sink: Mutex<Sink<'a>>,
}

/// The output, and the games finished before their turn to be written.
struct Sink<'a> {
    out: &'a mut (dyn Write + Send),
    /// The index of the next game to write.
    next: u64,
    waiting: BTreeMap<u64, Game>,
    games: u64,
    positions: u64,
}

impl Shared<'_> {
    /// One worker: plays games until there are none left, telling the others if it fails.
    fn work(
        &self,
        config: &Config,
        progress: &(dyn Fn(&Progress) + Sync),
    ) -> Result<(), DatagenError> {
        let outcome = self.play_games(config, progress);
        if outcome.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        outcome
    }

    /// Takes the next game until there are none (or another worker failed).
    fn play_games(
        &self,
        config: &Config,
        progress: &(dyn Fn(&Progress) + Sync),
    ) -> Result<(), DatagenError> {
        let mut searcher = Searcher::new(HASH_MB)?;
        searcher.evaluator_mut().set_use_nnue(config.use_nnue);
        loop {
            let index = self.next_game.fetch_add(1, Ordering::Relaxed);
            if index >= config.games || self.failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            let game = qbb::with_backend!(config.backend, |b| {
                play_game(b, &mut searcher, config, index)
            })??;
            self.deliver(index, game, config.games, progress)?;
        }
    }

    /// Writes game `index` and every waiting game after it that can now follow.
    fn deliver(
        &self,
        index: u64,
        game: Game,
        total: u64,
        progress: &(dyn Fn(&Progress) + Sync),
    ) -> Result<(), DatagenError> {
        let mut guard = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let sink = &mut *guard;
        sink.waiting.insert(index, game);
        while let Some(game) = sink.waiting.remove(&sink.next) {
            game.write_to(sink.out).map_err(DatagenError::Write)?;
            sink.next += 1;
            sink.games += 1;
            sink.positions += game.samples.len() as u64;
            if sink.games.is_multiple_of(PROGRESS_EVERY) || sink.games == total {
                progress(&Progress {
                    games: sink.games,
                    positions: sink.positions,
                    elapsed: self.started.elapsed(),
                });
            }
        }
        Ok(())
    }
}

/// Game `index` of the run with `config`'s seed and node limit, played on `backend`.
pub fn play_game<B: Backend>(
    backend: B,
    searcher: &mut Searcher,
    config: &Config,
    index: u64,
) -> Result<Game, DatagenError> {
    let mut rng = game_rng(config.seed, index);
    let (mut pos, mut history) = random_opening(backend, &mut rng, config.random_plies);
    searcher.new_game();
    let mut samples = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let mut plies = config.random_plies;
    let result = loop {
        if let Some(result) = game_over(backend, &pos, &history) {
            break result;
        }
        if plies >= MAX_PLIES {
            break GameResult::Draw;
        }
        let limits = Limits {
            nodes: Some(config.nodes),
            ..Limits::default()
        };
        let job = SearchJob {
            history: history.clone(),
            ..SearchJob::new(pos, limits)
        };
        let found = searcher.think(backend, &job, &mut |_| {});
        let text = found.best_move.unwrap_or_default();
        let mv = pos
            .parse_uci_move(backend, &text)
            .map_err(|_| DatagenError::IllegalBestMove(text))?;
        let us = pos.side_to_move();
        let white_score = if us == Color::White {
            found.score
        } else {
            -found.score
        };
        if is_quiet_sample(backend, &pos, mv, found.score) {
            let fen = pos.to_fen();
            samples.push(Sample {
                fen,
                score: white_score,
            });
        }
        if let Some(result) = adjudicator.after_search(us, found.score) {
            break result;
        }
        history.push(pos.hash());
        pos = pos.make_move(backend, mv);
        plies += 1;
    };
    Ok(Game { samples, result })
}

/// Ends a game the search has seen won for long enough.
#[derive(Debug, Default)]
struct Adjudicator {
    /// The side the search has seen winning big, and for how many plies in a row.
    leader: Option<Color>,
    plies: u32,
}

impl Adjudicator {
    /// The result, if the search's `score` for `us` (the side to move) ends the game.
    fn after_search(&mut self, us: Color, score: Score) -> Option<GameResult> {
        let leader =
            (score.abs() >= ADJUDICATION_SCORE).then(|| if score > 0 { us } else { us.other() });
        self.plies = match leader {
            Some(side) if self.leader == Some(side) => self.plies + 1,
            Some(_) => 1,
            None => 0,
        };
        self.leader = leader;
        leader
            .filter(|_| self.plies >= ADJUDICATION_PLIES)
            .map(GameResult::win_for)
    }
}

/// The random generator of game `index`: its state is a SplitMix64 output of the seed and the
/// index, rather than the seed's stream at an offset, whose neighbouring games would share
/// draws.
fn game_rng(seed: u64, index: u64) -> SplitMix64 {
    SplitMix64(SplitMix64(seed ^ index.wrapping_mul(0xd605_bbb5_8c8a_bbb5)).next_u64())
}

/// The position after `plies` uniformly random legal moves from the start, and the hashes of the
/// positions before it; an opening that ends the game is thrown away and drawn again.
fn random_opening<B: Backend>(
    backend: B,
    rng: &mut SplitMix64,
    plies: u32,
) -> (Position, Vec<u64>) {
    'again: loop {
        let mut pos = Position::startpos();
        let mut history = Vec::new();
        for _ in 0..plies {
            // Never empty: the position before was not over.
            let mut moves = MoveList::new();
            pos.generate_moves(backend, &mut moves);
            let mv = moves.as_slice()[rng.below(moves.len() as u64) as usize];
            history.push(pos.hash());
            pos = pos.make_move(backend, mv);
            if game_over(backend, &pos, &history).is_some() {
                continue 'again;
            }
        }
        return (pos, history);
    }
}

/// The result if the game is over at `pos` (after the positions whose hashes are `history`):
/// mate, stalemate, the fifty-move rule, threefold repetition or insufficient material.
fn game_over<B: Backend>(backend: B, pos: &Position, history: &[u64]) -> Option<GameResult> {
    let mut moves = MoveList::new();
    pos.generate_moves(backend, &mut moves);
    if moves.is_empty() {
        return Some(if pos.in_check(backend) {
            GameResult::win_for(pos.side_to_move().other())
        } else {
            GameResult::Draw
        });
    }
    let clock = pos.halfmove_clock() as usize;
    // The same side to move: every second position back, no further than the last capture or
    // pawn move.
    let repetitions = history
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .take(clock / 2)
        .filter(|&&h| h == pos.hash())
        .count();
    let drawn = clock >= 100 || repetitions >= 2 || insufficient_material(backend, pos);
    drawn.then_some(GameResult::Draw)
}

/// Whether the search's `score` for `pos`, where it plays `best`, is worth learning from.
fn is_quiet_sample<B: Backend>(backend: B, pos: &Position, best: Move, score: Score) -> bool {
    !pos.in_check(backend) && !is_tactical(best) && !is_mate(score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(games: u64, nodes: u64, threads: usize) -> Config {
        Config {
            games,
            nodes,
            seed: 7,
            threads,
            random_plies: DEFAULT_RANDOM_PLIES,
            backend: BackendKind::detect_best(),
            use_nnue: false,
        }
    }

    fn generate(config: &Config) -> String {
        let mut out = Vec::new();
        run(config, &mut out, &|_| {}).expect("datagen runs");
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn the_same_seed_gives_the_same_games() {
        let config = config(2, 500, 1);
        let first = generate(&config);
        assert!(!first.is_empty());
        assert_eq!(generate(&config), first);
        let other_seed = Config { seed: 8, ..config };
        assert_ne!(generate(&other_seed), first);
    }

    #[test]
    fn the_thread_count_does_not_change_the_file() {
        assert_eq!(generate(&config(4, 300, 2)), generate(&config(4, 300, 1)));
    }

    #[test]
    fn every_line_is_a_quiet_position_with_a_score_and_a_result() {
        let text = generate(&config(2, 500, 1));
        for line in text.lines() {
            let fields: Vec<&str> = line.split(" | ").collect();
            let [fen, score, result] = fields[..] else {
                panic!("three fields in {line}");
            };
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(!pos.in_check(qbb::Scalar), "{line}");
            let score: Score = score.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(!is_mate(score), "{line}");
            assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        }
    }

    #[test]
    fn game_ends_are_recognised() {
        let over = |fen: &str, history: &[u64]| {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            game_over(qbb::Scalar, &pos, history)
        };
        let mated = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
        assert_eq!(over(mated, &[]), Some(GameResult::WhiteWins));
        assert_eq!(
            over("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1", &[]),
            Some(GameResult::Draw)
        );
        assert_eq!(
            over("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", &[]),
            Some(GameResult::Draw)
        );
        assert_eq!(
            over("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", &[]),
            Some(GameResult::Draw)
        );
        let rook = "4k3/8/8/8/8/8/8/R3K3 w - - 8 10";
        let hash = Position::from_fen(rook).map(|p| p.hash()).unwrap_or(0);
        // Two earlier occurrences make three; one makes two.
        let twice = [hash, 1, 2, 3, hash, 4, 5, 6];
        assert_eq!(over(rook, &twice), Some(GameResult::Draw));
        assert_eq!(over(rook, &twice[4..]), None);
    }

    #[test]
    fn four_plies_of_a_big_score_for_one_side_win() {
        let mut adjudicator = Adjudicator::default();
        // White to move sees +2500; Black then sees -2500 (White still winning), and so on.
        let plies = [(Color::White, 2_500), (Color::Black, -2_500)];
        for &(us, score) in plies.iter().cycle().take(3) {
            assert_eq!(adjudicator.after_search(us, score), None);
        }
        assert_eq!(
            adjudicator.after_search(Color::Black, -2_100),
            Some(GameResult::WhiteWins)
        );
        // A quieter ply, or the other side on top, starts the count again.
        let mut adjudicator = Adjudicator::default();
        for (us, score) in [
            (Color::White, 3_000),
            (Color::Black, 3_000),
            (Color::White, -3_000),
            (Color::Black, 1_999),
            (Color::White, -2_000),
            (Color::Black, 2_000),
            (Color::White, -2_000),
        ] {
            assert_eq!(adjudicator.after_search(us, score), None, "{us:?} {score}");
        }
        assert_eq!(
            adjudicator.after_search(Color::Black, 2_000),
            Some(GameResult::BlackWins)
        );
    }

    #[test]
    fn only_quiet_positions_are_samples() {
        let pos = |fen: &str| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let queens = pos("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1");
        let mv = |p: &Position, text: &str| {
            p.parse_uci_move(qbb::Scalar, text)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
        };
        assert!(is_quiet_sample(
            qbb::Scalar,
            &queens,
            mv(&queens, "e1e2"),
            50
        ));
        assert!(!is_quiet_sample(
            qbb::Scalar,
            &queens,
            mv(&queens, "d1d5"),
            50
        ));
        let mate = crate::eval::score::mate_in(3);
        assert!(!is_quiet_sample(
            qbb::Scalar,
            &queens,
            mv(&queens, "e1e2"),
            mate
        ));
        let promotion = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let queen = mv(&promotion, "b7b8q");
        assert!(!is_quiet_sample(qbb::Scalar, &promotion, queen, 900));
        let checked = pos("4k3/8/8/8/8/8/8/q3K3 w - - 0 1");
        let step = mv(&checked, "e1e2");
        assert!(!is_quiet_sample(qbb::Scalar, &checked, step, -900));
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in [
            config(0, 500, 1),
            config(1, 0, 1),
            config(1, 500, 0),
            Config {
                random_plies: 65,
                ..config(1, 500, 1)
            },
        ] {
            assert!(
                matches!(bad.check(), Err(DatagenError::OutOfRange { .. })),
                "{bad:?}"
            );
        }
    }
}
