//! Training data: the lines `qbb-engine datagen` writes, read once into compact samples.
//!
//! A line is `<fen> | <score> | <result>`: the search's score in centipawns and the game's result
//! (1.0, 0.5 or 0.0), both from White's point of view. The network evaluates for the side to
//! move, so both are turned to the side to move's view here, once.
//!
//! Reading a line (a FEN, through the engine's position checks) costs about as much as training
//! on its position once, a few microseconds, and training visits every position once an epoch,
//! twenty times by default. So every line is parsed once, into a [`Sample`] that holds the
//! position's active inputs as a list of indices, and the epochs read nothing else. A malformed line stops the run with the file and line number:
//! a training set with lines that mean something else than they say is a bug in the generator,
//! and skipping them would hide it.

use std::path::{Path, PathBuf};
use std::thread;

use qbb::Quad;
use qbb::conformance::SplitMix64;
use qbb::nnue::{INPUTS, Perspective, feature};
use qbb::square::Squares;
use qbb_engine::{FenError, Position};

/// The most pieces a legal position holds (the FEN reader refuses more than 16 a side).
pub const MAX_PIECES: usize = 32;

/// One position, parsed: its inputs and its labels, all for the side to move. 112 bytes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// The board as the engine holds it, relative to the side to move: kept so that the
    /// quantisation check can run the engine's own inference on the very same position.
    pub planes: [u64; 4],
    /// `us`'s active inputs, in square order; `them`'s are their [`mirror`]s.
    features: [u16; MAX_PIECES],
    len: u8,
    /// The search score in centipawns.
    pub score: f32,
    /// The game's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f32,
}

const _: () = assert!(size_of::<Sample>() == 112);

impl Sample {
    /// The sample of `position`, labelled with a score and a result from White's point of view.
    pub fn new(
        position: &Position,
        white_score: f32,
        white_result: f32,
    ) -> Result<Sample, LineError> {
        let quad = position.quad();
        let mut features = [0; MAX_PIECES];
        let mut len = 0;
        for sq in Squares(quad.occupied()) {
            let Some(f) = feature(quad.nibble(sq), sq, Perspective::Us) else {
                continue;
            };
            let slot = features
                .get_mut(len)
                .ok_or(LineError::TooManyPieces(quad.occupied().count_ones()))?;
            *slot = f as u16;
            len += 1;
        }
        let white_to_move = position.side_to_move() == qbb::Color::White;
        let (score, result) = if white_to_move {
            (white_score, white_result)
        } else {
            (-white_score, 1.0 - white_result)
        };
        Ok(Sample {
            planes: quad.bb,
            features,
            len: len as u8,
            score,
            result,
        })
    }

    /// The board, relative to the side to move.
    pub fn quad(&self) -> Quad {
        let [a, b, c, d] = self.planes;
        Quad::new(a, b, c, d)
    }

    /// The active inputs of `us`, the side to move.
    #[inline(always)]
    pub fn us(&self) -> impl Iterator<Item = usize> + '_ {
        self.features[..usize::from(self.len)]
            .iter()
            .map(|&f| usize::from(f))
    }

    /// The active inputs of `them`, the other side.
    #[inline(always)]
    pub fn them(&self) -> impl Iterator<Item = usize> + '_ {
        self.us().map(mirror)
    }

    /// The active inputs of one perspective.
    #[inline(always)]
    pub fn features(&self, perspective: Perspective) -> impl Iterator<Item = usize> + '_ {
        let them = perspective == Perspective::Them;
        self.us().map(move |f| if them { mirror(f) } else { f })
    }
}

/// The input a piece sets for `them`, given the one it sets for `us`: the same piece from the
/// other side of the board, so its owner flips (own ↔ opponent's, six piece blocks apart) and its
/// square mirrors top to bottom. [`qbb::nnue::feature`] numbers the inputs so; a test checks
/// every piece on every square against it.
#[inline(always)]
pub const fn mirror(us: usize) -> usize {
    let (piece, square) = (us / 64, us % 64);
    (piece + 6) % 12 * 64 + (square ^ 56)
}

const _: () = assert!(INPUTS == 12 * 64);

/// What is wrong with one line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    #[error("expected `<fen> | <score> | <result>`, found {0} field(s) separated by `|`")]
    Fields(usize),
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    #[error("score `{0}` is not a whole number of centipawns")]
    Score(String),
    #[error("result `{0}` is not 1.0, 0.5 or 0.0")]
    Result(String),
    #[error("{0} pieces on the board, at most {MAX_PIECES}")]
    TooManyPieces(u32),
}

/// Parses one line of datagen output.
pub fn parse_line(line: &str) -> Result<Sample, LineError> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(LineError::Fields(fields.len()));
    };
    let position = Position::from_fen(fen)?;
    let white_score: i32 = score
        .parse()
        .map_err(|_| LineError::Score(score.to_string()))?;
    let white_result = match result.parse::<f32>() {
        Ok(r) if [0.0, 0.5, 1.0].contains(&r) => r,
        _ => return Err(LineError::Result(result.to_string())),
    };
    Sample::new(&position, white_score as f32, white_result)
}

/// A line that could not be read, and where it is (line numbers start at 1).
#[derive(Clone, Debug, PartialEq)]
pub struct BadLine {
    pub line: usize,
    pub text: String,
    pub error: LineError,
}

/// Parses a whole file's text on `threads` threads; blank lines are skipped. The first bad line,
/// in file order, is the error whatever the thread count.
pub fn parse_text(text: &str, threads: usize) -> Result<Vec<Sample>, BadLine> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let parse_part = |part: &[(usize, &str)]| -> Result<Vec<Sample>, BadLine> {
        part.iter()
            .map(|&(i, l)| {
                parse_line(l).map_err(|error| BadLine {
                    line: i + 1,
                    text: l.to_string(),
                    error,
                })
            })
            .collect()
    };
    let part_len = lines.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Result<Vec<Sample>, BadLine>> = thread::scope(|scope| {
        let workers: Vec<_> = lines
            .chunks(part_len)
            .map(|part| scope.spawn(move || parse_part(part)))
            .collect();
        workers.into_iter().map(join).collect()
    });
    let mut samples = Vec::with_capacity(lines.len());
    for part in parts {
        samples.extend(part?);
    }
    Ok(samples)
}

/// A worker's result; a worker's panic is a bug, raised again on the calling thread.
pub(crate) fn join<T>(handle: thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Why the training data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{}: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}, line {}: {}\n    {}", path.display(), bad.line, bad.error, bad.text)]
    Line { path: PathBuf, bad: BadLine },
}

/// Reads and parses every file, in order.
pub fn read_files(paths: &[PathBuf], threads: usize) -> Result<Vec<Sample>, DataError> {
    let mut samples = Vec::new();
    for path in paths {
        samples.extend(read_file(path, threads)?);
    }
    Ok(samples)
}

fn read_file(path: &Path, threads: usize) -> Result<Vec<Sample>, DataError> {
    let text = std::fs::read_to_string(path).map_err(|error| DataError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_text(&text, threads).map_err(|bad| DataError::Line {
        path: path.to_path_buf(),
        bad,
    })
}

/// Fisher–Yates, from a seeded generator: the same seed, the same order.
pub fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// Shuffles the samples and holds out `fraction` of them for validation: `(training,
/// validation)`. Datagen writes a game's positions next to each other; the shuffle spreads every
/// game over both sets, so the validation loss measures fitting positions like the training
/// ones, not unseen games (the format does not say where a game ends).
pub fn split(
    mut samples: Vec<Sample>,
    fraction: f64,
    rng: &mut SplitMix64,
) -> (Vec<Sample>, Vec<Sample>) {
    shuffle(&mut samples, rng);
    let held_out = (samples.len() as f64 * fraction).round() as usize;
    let validation = samples.split_off(samples.len() - held_out.min(samples.len()));
    (samples, validation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata;

    #[test]
    fn labels_turn_to_the_side_to_move() {
        let white = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 812 | 1.0").unwrap();
        assert_eq!((white.score, white.result), (812.0, 1.0));
        let black = parse_line("4k3/8/8/8/8/8/8/3QK3 b - - 0 1 | 812 | 1.0").unwrap();
        assert_eq!((black.score, black.result), (-812.0, 0.0));
        let draw = parse_line("4k3/8/8/8/8/8/8/3QK3 b - - 0 1 | -5 | 0.5").unwrap();
        assert_eq!((draw.score, draw.result), (5.0, 0.5));
    }

    #[test]
    fn inputs_are_those_of_the_side_to_move() {
        // Own pawn on e2 (as the side to move sees it) is input 12, the opponent's king on e8
        // is (6 + 5) * 64 + 60; for `them`, the same pieces are the opponent's pawn on e7 and
        // their own king on e1.
        let sorted = |it: &mut dyn Iterator<Item = usize>| {
            let mut v: Vec<usize> = it.collect();
            v.sort_unstable();
            v
        };
        let white = parse_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 0 | 0.5").unwrap();
        let black = parse_line("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1 | 0 | 0.5").unwrap();
        for sample in [white, black] {
            assert_eq!(sorted(&mut sample.us()), [12, 5 * 64 + 4, 11 * 64 + 60]);
            assert_eq!(
                sorted(&mut sample.them()),
                [5 * 64 + 4, 6 * 64 + 52, 11 * 64 + 60]
            );
        }
    }

    #[test]
    fn mirror_is_the_other_perspective_of_every_piece_on_every_square() {
        let mut seen = 0;
        for code in 0..16u8 {
            for sq in Squares(!0) {
                let us = feature(code, sq, Perspective::Us);
                let them = feature(code, sq, Perspective::Them);
                assert_eq!(us.map(mirror), them, "code {code} on {sq}");
                seen += usize::from(us.is_some());
            }
        }
        assert_eq!(seen, INPUTS);
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let reason = |line: &str| parse_line(line).unwrap_err();
        assert_eq!(reason(fen), LineError::Fields(1));
        assert_eq!(reason(&format!("{fen} | 10")), LineError::Fields(2));
        assert_eq!(
            reason(&format!("{fen} | 10 | 1.0 | x")),
            LineError::Fields(4)
        );
        assert!(matches!(
            reason("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5"),
            LineError::Fen(_)
        ));
        assert!(matches!(
            reason(&format!("{fen}x | 0 | 0.5")),
            LineError::Fen(_)
        ));
        assert_eq!(
            reason(&format!("{fen} | 1.5 | 0.5")),
            LineError::Score("1.5".into())
        );
        assert_eq!(
            reason(&format!("{fen} | | 0.5")),
            LineError::Score(String::new())
        );
        assert_eq!(
            reason(&format!("{fen} | 3 | 0.7")),
            LineError::Result("0.7".into())
        );
        assert_eq!(
            reason(&format!("{fen} | 3 | win")),
            LineError::Result("win".into())
        );
        assert_eq!(
            reason(&format!("{fen} | 3 | NaN")),
            LineError::Result("NaN".into())
        );
    }

    #[test]
    fn the_first_bad_line_of_a_file_is_named_whatever_the_thread_count() {
        let mut text = testdata::lines(40);
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines.insert(30, String::new());
        lines[33] = "not a position | 1 | 1.0".into();
        lines[36] = "neither | 1 | 1.0".into();
        text = lines.join("\n");
        let path = std::env::temp_dir().join(format!("qbb-trainer-bad-{}.txt", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        for threads in [1, 2, 7] {
            let error = read_files(std::slice::from_ref(&path), threads).unwrap_err();
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("{}, line 34: bad FEN", path.display())),
                "{message}"
            );
            assert!(message.ends_with("not a position | 1 | 1.0"), "{message}");
        }
        std::fs::remove_file(&path).unwrap();
        let missing = read_files(std::slice::from_ref(&path), 1)
            .unwrap_err()
            .to_string();
        assert!(
            missing.starts_with(&path.display().to_string()),
            "{missing}"
        );
    }

    #[test]
    fn parsing_on_threads_keeps_the_file_order() {
        let text = testdata::lines(101);
        let one = parse_text(&text, 1).unwrap();
        assert_eq!(one.len(), 101);
        for threads in [2, 3, 64, 200] {
            assert_eq!(parse_text(&text, threads).unwrap(), one);
        }
    }

    #[test]
    fn the_split_is_seeded_and_holds_out_the_fraction() {
        let samples = parse_text(&testdata::lines(200), 2).unwrap();
        let (train, validation) = split(samples.clone(), 0.1, &mut SplitMix64(5));
        assert_eq!((train.len(), validation.len()), (180, 20));
        assert_eq!(
            split(samples.clone(), 0.1, &mut SplitMix64(5)),
            (train, validation)
        );
        let (all, none) = split(samples, 0.0, &mut SplitMix64(5));
        assert_eq!((all.len(), none.len()), (200, 0));
    }
}
