//! The conformance kit: one generic checker that runs every routine of a backend against the scalar
//! reference, on real positions and on random quads (including the codes 1, 14 and 15 that chess
//! never uses, the empty board and the full one).
//!
//! A new backend gets full coverage from one line in `tests/conformance.rs`.

use std::fmt::Debug;

use crate::aspects::{MoveAspects, Special};
use crate::backend::{Backend, Scalar};
use crate::king_safety::SliderPosition;
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, NibbleBoard};
use crate::routine::Routine;
use crate::square::Square;

/// SplitMix64: a small, fast, reproducible generator for test inputs and benchmark corpora.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = crate::hash::splitmix(self.0);
        self.0 = state;
        out
    }

    /// A value in `0..n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A bitboard whose bits are set with probability about `1 / 2^k`, for k in 0..=3.
    pub fn sparse(&mut self, k: u32) -> u64 {
        (0..k).fold(self.next_u64(), |acc, _| acc & self.next_u64())
    }

    /// A bitboard of random density (about 1/1, 1/2, 1/4 or 1/8 of the bits set).
    pub fn sparse_any(&mut self) -> u64 {
        let k = self.below(4) as u32;
        self.sparse(k)
    }

    /// A random quad of one of several shapes: uniform planes (every code equally likely), sparse
    /// planes, a board of random codes on a few squares, or one of the extreme boards.
    pub fn quad(&mut self) -> Quad {
        match self.below(8) {
            0..=2 => Quad::new(
                self.next_u64(),
                self.next_u64(),
                self.next_u64(),
                self.next_u64(),
            ),
            3 | 4 => {
                let k = self.below(4) as u32;
                Quad::new(
                    self.sparse(k),
                    self.sparse(k),
                    self.sparse(k),
                    self.sparse(k),
                )
            }
            5 | 6 => {
                let mut q = Quad::EMPTY;
                for _ in 0..self.below(33) {
                    let sq = self.square();
                    let code = self.below(16) as u8;
                    Scalar.set_piece(&mut q, sq, code);
                }
                q
            }
            _ => match self.below(4) {
                0 => Quad::EMPTY,
                1 => Quad::splat(!0),
                2 => Quad::splat(self.next_u64()),
                _ => Quad::new(!0, 0, !0, 0),
            },
        }
    }

    pub fn square(&mut self) -> Square {
        Square::from_index_masked(self.below(64) as u32)
    }
}

/// A routine whose output differs from the scalar reference, with the input that shows it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{backend}: `{routine}` differs from scalar\n  input:    {input}\n  expected: {expected}\n  got:      {got}"
)]
pub struct Mismatch {
    pub backend: &'static str,
    pub routine: Routine,
    pub input: String,
    pub expected: String,
    pub got: String,
}

/// How much to test.
#[derive(Debug, Clone)]
pub struct Config {
    /// Random inputs per routine, on top of the given positions.
    pub random_cases: usize,
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            random_cases: 100_000,
            seed: 0x0051_4242,
        }
    }
}

/// What a successful run covered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Per routine, the number of inputs compared.
    pub cases: Vec<(Routine, usize)>,
}

/// Checks every routine of `backend` against [`Scalar`] on each of `positions` and on
/// `config.random_cases` random inputs; the first difference is returned as an error.
pub fn check_backend<B: Backend>(
    backend: B,
    positions: &[Quad],
    config: &Config,
) -> Result<Coverage, Box<Mismatch>> {
    backend.with_features(|b| {
        Checker {
            backend: b,
            positions,
            config,
        }
        .run()
    })
}

struct Checker<'a, B> {
    backend: B,
    positions: &'a [Quad],
    config: &'a Config,
}

impl<B: Backend> Checker<'_, B> {
    fn run(&self) -> Result<Coverage, Box<Mismatch>> {
        let mut coverage = Coverage::default();
        for &routine in Routine::ALL {
            let cases = self.check_routine(routine)?;
            coverage.cases.push((routine, cases));
        }
        Ok(coverage)
    }

    /// Runs `routine` over the positions, then the random quads, each input made by `make`.
    fn check_routine(&self, routine: Routine) -> Result<usize, Box<Mismatch>> {
        let mut rng = SplitMix64(self.config.seed ^ (routine as u64) << 32);
        let mut cases = 0;
        let total = self.positions.len() + self.config.random_cases;
        for i in 0..total {
            let quad = match self.positions.get(i) {
                Some(&q) => q,
                None => rng.quad(),
            };
            self.check_one(routine, &quad, &mut rng)?;
            cases += 1;
        }
        Ok(cases)
    }

    fn check_one(
        &self,
        routine: Routine,
        q: &Quad,
        rng: &mut SplitMix64,
    ) -> Result<(), Box<Mismatch>> {
        let b = self.backend;
        let s = Scalar;
        match routine {
            Routine::PieceAt => {
                let sq = rng.square();
                compare(
                    routine,
                    B::KIND.name(),
                    (q, sq),
                    s.piece_at(q, sq),
                    b.piece_at(q, sq),
                )
            }
            Routine::SetPiece => {
                let sq = rng.square();
                let code = rng.next_u64() as u8; // high bits must be ignored
                let (mut want, mut got) = (*q, *q);
                s.set_piece(&mut want, sq, code);
                b.set_piece(&mut got, sq, code);
                compare(routine, B::KIND.name(), (q, sq, code), want, got)
            }
            Routine::PieceSets => {
                compare(routine, B::KIND.name(), q, s.piece_sets(q), b.piece_sets(q))
            }
            Routine::HexSets => compare(routine, B::KIND.name(), q, s.hex_sets(q), b.hex_sets(q)),
            Routine::ToMailbox => {
                compare(routine, B::KIND.name(), q, s.to_mailbox(q), b.to_mailbox(q))
            }
            Routine::FromMailbox => {
                let mut m = s.to_mailbox(q);
                if rng.below(2) == 0 {
                    // Bytes above 15: only the low nibble counts.
                    for byte in m.0.iter_mut() {
                        *byte |= (rng.next_u64() as u8) & 0xF0;
                    }
                }
                compare(
                    routine,
                    B::KIND.name(),
                    m,
                    s.from_mailbox(&m),
                    b.from_mailbox(&m),
                )
            }
            Routine::MoveDelta => {
                let m = random_aspects(rng);
                compare(
                    routine,
                    B::KIND.name(),
                    m,
                    s.move_delta(&m),
                    b.move_delta(&m),
                )
            }
            Routine::Flip => compare(routine, B::KIND.name(), q, s.flip(q), b.flip(q)),
            Routine::OccludedFills => {
                let empty = empty_for(q, rng);
                compare(
                    routine,
                    B::KIND.name(),
                    (q, empty),
                    s.occluded_fills(q, empty),
                    b.occluded_fills(q, empty),
                )
            }
            Routine::SliderAttacks => {
                let sets = s.piece_sets(q);
                let (orth, diag) = (sets.rooks | sets.queens, sets.bishops | sets.queens);
                let empty = empty_for(q, rng);
                compare(
                    routine,
                    B::KIND.name(),
                    (orth, diag, empty),
                    s.slider_attacks(orth, diag, empty),
                    b.slider_attacks(orth, diag, empty),
                )
            }
            Routine::KnightAttacks => {
                let knights = if rng.below(2) == 0 {
                    s.piece_sets(q).knights
                } else {
                    q.bb[rng.below(4) as usize]
                };
                compare(
                    routine,
                    B::KIND.name(),
                    knights,
                    s.knight_attacks(knights),
                    b.knight_attacks(knights),
                )
            }
            Routine::ChecksAndPins => {
                let p = slider_position(q, rng);
                compare(
                    routine,
                    B::KIND.name(),
                    p,
                    s.checks_and_pins(&p),
                    b.checks_and_pins(&p),
                )
            }
            Routine::WeightedPopcount => {
                let sets: [u64; 8] = std::array::from_fn(|i| {
                    if i < 4 {
                        q.bb[i]
                    } else {
                        rng.sparse(i as u32 - 4)
                    }
                });
                let weights: [i16; 8] = std::array::from_fn(|_| match rng.below(3) {
                    0 => rng.next_u64() as i16, // the full range, extremes included
                    1 => [i16::MIN, i16::MAX, -1, 0][rng.below(4) as usize],
                    _ => (rng.below(2001) as i16) - 1000,
                });
                compare(
                    routine,
                    B::KIND.name(),
                    (sets, weights),
                    s.weighted_popcount(&sets, &weights),
                    b.weighted_popcount(&sets, &weights),
                )
            }
            Routine::NibbleAdd | Routine::NibbleSub | Routine::NibbleAvg => {
                let x = s.to_nibble_board(q);
                let y = s.to_nibble_board(&rng.quad());
                let (want, got) = match routine {
                    Routine::NibbleAdd => (s.nibble_add(&x, &y), b.nibble_add(&x, &y)),
                    Routine::NibbleSub => (s.nibble_sub(&x, &y), b.nibble_sub(&x, &y)),
                    _ => (s.nibble_avg(&x, &y), b.nibble_avg(&x, &y)),
                };
                compare(routine, B::KIND.name(), (x, y), want, got)
            }
            Routine::ToNibbleBoard => compare(
                routine,
                B::KIND.name(),
                q,
                s.to_nibble_board(q),
                b.to_nibble_board(q),
            ),
            Routine::FromNibbleBoard => {
                let nb = NibbleBoard(std::array::from_fn(|i| {
                    (q.bb[i / 8] >> (8 * (i % 8))) as u8
                }));
                compare(
                    routine,
                    B::KIND.name(),
                    nb,
                    s.from_nibble_board(&nb),
                    b.from_nibble_board(&nb),
                )
            }
            Routine::ToClassical => compare(
                routine,
                B::KIND.name(),
                q,
                s.to_classical(q),
                b.to_classical(q),
            ),
            Routine::FromClassical => {
                let board = if rng.below(2) == 0 {
                    s.to_classical(q)
                } else {
                    ClassicalBoard {
                        bb: std::array::from_fn(|_| rng.sparse_any()),
                    }
                };
                compare(
                    routine,
                    B::KIND.name(),
                    board,
                    s.from_classical(&board),
                    b.from_classical(&board),
                )
            }
            Routine::ToDense => compare(routine, B::KIND.name(), q, s.to_dense(q), b.to_dense(q)),
            Routine::FromDense => {
                let board = if rng.below(2) == 0 {
                    s.to_dense(q)
                } else {
                    DenseBoard {
                        bb: std::array::from_fn(|_| rng.sparse_any()),
                    }
                };
                compare(
                    routine,
                    B::KIND.name(),
                    board,
                    s.from_dense(&board),
                    b.from_dense(&board),
                )
            }
            Routine::HashManino => {
                let state = rng.next_u64();
                compare(
                    routine,
                    B::KIND.name(),
                    (q, state),
                    s.hash_manino(q, state),
                    b.hash_manino(q, state),
                )
            }
            Routine::HashZobrist => compare(
                routine,
                B::KIND.name(),
                q,
                s.hash_zobrist(q),
                b.hash_zobrist(q),
            ),
        }
    }
}

fn compare<I: Debug, T: PartialEq + Debug>(
    routine: Routine,
    backend: &'static str,
    input: I,
    expected: T,
    got: T,
) -> Result<(), Box<Mismatch>> {
    if expected == got {
        Ok(())
    } else {
        Err(Box::new(Mismatch {
            backend,
            routine,
            input: format!("{input:?}"),
            expected: format!("{expected:?}"),
            got: format!("{got:?}"),
        }))
    }
}

/// The empty squares of the quad most of the time, an unrelated random set otherwise.
fn empty_for(q: &Quad, rng: &mut SplitMix64) -> u64 {
    match rng.below(4) {
        0 => !rng.sparse_any(),
        1 => rng.next_u64(),
        _ => !q.occupied(),
    }
}

/// Isenberg's inputs: from the quad's piece sets (like a position) or from independent random sets.
fn slider_position(q: &Quad, rng: &mut SplitMix64) -> SliderPosition {
    if rng.below(2) == 0 {
        let s = Scalar.piece_sets(q);
        let by_color = |set: u64| [set & s.white, set & s.black];
        SliderPosition {
            kings: by_color(s.kings),
            orth: by_color(s.rooks | s.queens),
            diag: by_color(s.bishops | s.queens),
            pieces: [s.white, s.black],
        }
    } else {
        let mut set = || rng.sparse_any() & rng.next_u64();
        SliderPosition {
            kings: [set(), set()],
            orth: [set(), set()],
            diag: [set(), set()],
            pieces: [set(), set()],
        }
    }
}

fn random_aspects(rng: &mut SplitMix64) -> MoveAspects {
    let code = |rng: &mut SplitMix64| rng.below(16) as u8;
    let special = match rng.below(4) {
        0 => Special::EnPassant {
            captured_on: rng.square(),
        },
        1 => Special::Castle {
            rook_from: rng.square(),
            rook_to: rng.square(),
            rook: code(rng),
        },
        _ => Special::None,
    };
    MoveAspects {
        from: rng.square(),
        to: rng.square(),
        piece: code(rng),
        captured: if rng.below(2) == 0 { 0 } else { code(rng) },
        promotion: if rng.below(3) == 0 { code(rng) } else { 0 },
        special,
    }
}
