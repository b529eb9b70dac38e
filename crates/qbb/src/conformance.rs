//! The conformance kit: one generic checker that runs every routine of a backend against the scalar
//! reference, on real positions and on random quads (including the codes 1, 14 and 15 that chess
//! never uses, the empty board and the full one).
//!
//! A new backend gets full coverage from one line in `tests/conformance.rs`.

use std::fmt::Debug;

use crate::aspects::Special;
use crate::backend::{Backend, Scalar};
use crate::nnue::Lanes;
use crate::routine::Routine;
use crate::routine::types::*;

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

    /// Runs `routine` over the positions, then the random quads. The NNUE routines run at the
    /// lab's width and at twice it, where every vector backend edits an accumulator in parts.
    fn check_routine(&self, routine: Routine) -> Result<usize, Box<Mismatch>> {
        let mut rng = SplitMix64(self.config.seed ^ (routine as u64) << 32);
        let mut cases = 0;
        let total = self.positions.len() + self.config.random_cases;
        for i in 0..total {
            let quad = match self.positions.get(i) {
                Some(&q) => q,
                None => rng.quad(),
            };
            self.check_one::<HIDDEN>(routine, &quad, &mut rng)?;
            cases += 1;
            if routine.module() == "nnue" {
                self.check_one::<{ 2 * HIDDEN }>(routine, &quad, &mut rng)?;
                cases += 1;
            }
        }
        Ok(cases)
    }
}

// ANCHOR: check_one
/// `Checker::check_one`, from the catalogue's table: for each routine, draw its arguments from
/// the quad (each by its type and name, see [`Sample`]), call scalar and the backend on copies of
/// them, and compare the results and the arguments afterwards (a `&mut` argument is an output).
/// The NNUE routines' networks and accumulators are `HIDDEN` lanes wide, the parameter.
macro_rules! check_one {
    ([] $( $(#[$doc:meta])* row $row:literal, $module:ident, $variant:ident = $id:literal,
           $title:literal: fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*)
           $(-> $ret:ty)?; )*) => {
        impl<B: Backend> Checker<'_, B> {
            fn check_one<const HIDDEN: usize>(
                &self,
                routine: Routine,
                q: &Quad,
                rng: &mut SplitMix64,
            ) -> Result<(), Box<Mismatch>> {
                match routine {
                    $(
                        Routine::$variant => {
                            $( let $arg = <<$ty as Param>::Owned as Sample>::sample(
                                rng, q, stringify!($arg),
                            ); )*
                            let expected = reference(move || {
                                $( let mut $arg = $arg; )*
                                let out = Scalar.$name($( <$ty as Param>::pass(&mut $arg) ),*);
                                (out, $($arg),*)
                            });
                            let got = {
                                $( let mut $arg = $arg; )*
                                let out = self.backend.$name($( <$ty as Param>::pass(&mut $arg) ),*);
                                (out, $($arg),*)
                            };
                            compare(routine, B::KIND.name(), ($($arg,)*), expected, got)
                        }
                    )*
                }
            }
        }
    };
}
// ANCHOR_END: check_one

/// Runs the scalar reference in a function of its own, compiled for baseline x86-64. The checker
/// runs inside the tested backend's feature region; inlined there, the reference would be built
/// with the backend's instructions, and an oracle built like the code it judges can share its
/// faults: under the AVX-512 emulator, the reference's `from_nibble_board` so built came out wrong
/// while the avx512 backend was right.
#[inline(never)]
fn reference<R>(call: impl FnOnce() -> R) -> R {
    call()
}

crate::for_each_routine!(check_one);

/// How a routine takes an argument of this type: the value the checker owns, and how it is
/// passed (by value, by reference, or by mutable reference).
trait Param {
    type Owned: Sample + Copy + PartialEq + Debug + 'static;
    type Passed<'a>;
    fn pass(owned: &mut Self::Owned) -> Self::Passed<'_>;
}

impl<T: Sample + Copy + PartialEq + Debug + 'static> Param for &T {
    type Owned = T;
    type Passed<'a> = &'a T;
    fn pass(owned: &mut T) -> &T {
        owned
    }
}

impl<T: Sample + Copy + PartialEq + Debug + 'static> Param for &mut T {
    type Owned = T;
    type Passed<'a> = &'a mut T;
    fn pass(owned: &mut T) -> &mut T {
        owned
    }
}

macro_rules! by_value {
    ($($t:ty),*) => {$(
        impl Param for $t {
            type Owned = $t;
            type Passed<'a> = $t;
            fn pass(owned: &mut $t) -> $t {
                *owned
            }
        }
    )*};
}
by_value!(u8, u64, Square);

/// An argument drawn for one case, from the case's quad (a real position or a random quad) and
/// the generator; `name` is the parameter's name in the table, for types whose meaning depends
/// on it (a `u64` is a set of empty squares, of sliders, of knights, or a hash state).
trait Sample: Sized {
    fn sample(rng: &mut SplitMix64, q: &Quad, name: &str) -> Self;
}

impl Sample for Quad {
    /// The case's quad; a `delta` is a move's delta quad (its aspects random, so any codes)
    /// two times in three, else a random sparse quad that changes many squares at once.
    fn sample(rng: &mut SplitMix64, q: &Quad, name: &str) -> Quad {
        match name {
            "delta" if rng.below(3) == 0 => Quad {
                bb: std::array::from_fn(|_| rng.sparse_any()),
            },
            "delta" => Scalar.move_delta(&random_aspects(rng)),
            _ => *q,
        }
    }
}

/// A network is passed by reference and sampled as one of a few built once per width: weights
/// within the range training keeps them in, and weights anywhere in `i16`, where the sums wrap.
impl<const N: usize> Param for &Network<N> {
    type Owned = &'static Network<N>;
    type Passed<'a> = &'a Network<N>;
    fn pass(owned: &mut &'static Network<N>) -> &'static Network<N> {
        owned
    }
}

impl<const N: usize> Sample for &'static Network<N> {
    fn sample(rng: &mut SplitMix64, _: &Quad, _: &str) -> &'static Network<N> {
        // One static serves every width (a generic function's statics are shared): the pair of
        // each width is made once, leaked, and found by its width.
        type Pairs = std::sync::Mutex<Vec<(usize, &'static (dyn std::any::Any + Send + Sync))>>;
        static NETWORKS: Pairs = std::sync::Mutex::new(Vec::new());
        let mut made = NETWORKS.lock().unwrap_or_else(|e| e.into_inner());
        let pair = match made.iter().find(|(width, _)| *width == N) {
            Some(&(_, pair)) => pair,
            None => {
                let mut rng = SplitMix64(0x4E4E_5545);
                let mut tame = || rng.below(256) as i16 - 128;
                let tame = Network::<N>::random(&mut tame);
                let mut rng = SplitMix64(0x5749_4C44);
                let wild = Network::<N>::random(&mut || rng.next_u64() as i16);
                let pair: &'static (dyn std::any::Any + Send + Sync) =
                    Box::leak(Box::new([tame, wild]));
                made.push((N, pair));
                pair
            }
        };
        let networks: &'static [Box<Network<N>>; 2] = pair.downcast_ref().expect("stored by width");
        &networks[rng.below(2) as usize]
    }
}

impl<const N: usize> Sample for Accumulators<N> {
    /// The accumulators of a refresh of the case's quad, or random lanes: around the activation's
    /// clipping range, or anywhere in `i16`.
    fn sample(rng: &mut SplitMix64, q: &Quad, name: &str) -> Accumulators<N> {
        match rng.below(3) {
            0 => Scalar.nnue_refresh(q, <&Network<N>>::sample(rng, q, name)),
            1 => Accumulators {
                us: Lanes(std::array::from_fn(|_| rng.below(400) as i16 - 100)),
                them: Lanes(std::array::from_fn(|_| rng.below(400) as i16 - 100)),
            },
            _ => Accumulators {
                us: Lanes(std::array::from_fn(|_| rng.next_u64() as i16)),
                them: Lanes(std::array::from_fn(|_| rng.next_u64() as i16)),
            },
        }
    }
}

impl Sample for Square {
    fn sample(rng: &mut SplitMix64, _: &Quad, _: &str) -> Square {
        rng.square()
    }
}

impl Sample for u8 {
    /// A piece code with random high bits, which must be ignored.
    fn sample(rng: &mut SplitMix64, _: &Quad, _: &str) -> u8 {
        rng.next_u64() as u8
    }
}

impl Sample for u64 {
    fn sample(rng: &mut SplitMix64, q: &Quad, name: &str) -> u64 {
        let sets = Scalar.piece_sets(q);
        let from_position = rng.below(4) != 0;
        match name {
            "empty" => empty_for(q, rng),
            "orth" if from_position => sets.rooks | sets.queens,
            "diag" if from_position => sets.bishops | sets.queens,
            "knights" if from_position => sets.knights,
            "knights" => q.bb[rng.below(4) as usize],
            "orth" | "diag" => rng.sparse_any(),
            _ => rng.next_u64(),
        }
    }
}

impl Sample for Mailbox {
    /// The quad's mailbox, half the time with random high nibbles (only the low nibble counts).
    fn sample(rng: &mut SplitMix64, q: &Quad, _: &str) -> Mailbox {
        let mut m = Scalar.to_mailbox(q);
        if rng.below(2) == 0 {
            for byte in m.0.iter_mut() {
                *byte |= (rng.next_u64() as u8) & 0xF0;
            }
        }
        m
    }
}

impl Sample for MoveAspects {
    fn sample(rng: &mut SplitMix64, _: &Quad, _: &str) -> MoveAspects {
        random_aspects(rng)
    }
}

impl Sample for SliderPosition {
    fn sample(rng: &mut SplitMix64, q: &Quad, _: &str) -> SliderPosition {
        slider_position(q, rng)
    }
}

impl Sample for [u64; 8] {
    /// The quad's planes and four random sets of falling density.
    fn sample(rng: &mut SplitMix64, q: &Quad, _: &str) -> [u64; 8] {
        std::array::from_fn(|i| {
            if i < 4 {
                q.bb[i]
            } else {
                rng.sparse(i as u32 - 4)
            }
        })
    }
}

impl Sample for [i16; 8] {
    /// Weights over the full range, the extremes, and the range evaluation uses.
    fn sample(rng: &mut SplitMix64, _: &Quad, _: &str) -> [i16; 8] {
        std::array::from_fn(|_| match rng.below(3) {
            0 => rng.next_u64() as i16,
            1 => [i16::MIN, i16::MAX, -1, 0][rng.below(4) as usize],
            _ => (rng.below(2001) as i16) - 1000,
        })
    }
}

impl Sample for NibbleBoard {
    /// A transposed quad or a quad's raw bytes; the second operand `b` of the nibble arithmetic
    /// comes from a fresh random quad.
    fn sample(rng: &mut SplitMix64, q: &Quad, name: &str) -> NibbleBoard {
        let source = if name == "b" { rng.quad() } else { *q };
        if rng.below(2) == 0 {
            Scalar.to_nibble_board(&source)
        } else {
            NibbleBoard(std::array::from_fn(|i| {
                (source.bb[i / 8] >> (8 * (i % 8))) as u8
            }))
        }
    }
}

/// The quad's own sets `own` half the time, else as many unrelated random sets: a conversion
/// from a board of sets must take any sets, not only those a quad gives.
fn own_or_random<const N: usize>(rng: &mut SplitMix64, own: [u64; N]) -> [u64; N] {
    if rng.below(2) == 0 {
        own
    } else {
        std::array::from_fn(|_| rng.sparse_any())
    }
}

impl Sample for ClassicalBoard {
    /// The quad's twelve sets, or twelve unrelated random sets.
    fn sample(rng: &mut SplitMix64, q: &Quad, _: &str) -> ClassicalBoard {
        ClassicalBoard {
            bb: own_or_random(rng, Scalar.to_classical(q).bb),
        }
    }
}

impl Sample for DenseBoard {
    /// The quad's eight sets, or eight unrelated random sets.
    fn sample(rng: &mut SplitMix64, q: &Quad, _: &str) -> DenseBoard {
        DenseBoard {
            bb: own_or_random(rng, Scalar.to_dense(q).bb),
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
        SliderPosition::by_colour(&Scalar.piece_sets(q))
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
