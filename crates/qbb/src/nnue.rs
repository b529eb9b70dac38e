//! NNUE, the efficiently updatable neural network: the evaluation modern chess engines spend their
//! SIMD on, in its smallest useful shape.
//!
//! The network sees a position twice, once from each side (its *perspectives*). For each, 768
//! inputs say which of the 12 pieces (own or opponent's, six types) stands on which of the 64
//! squares, the board turned so that this side plays up. A first layer, the *feature transformer*,
//! maps each perspective's inputs to `N` numbers (its width); as at most 32 of the 768 inputs are
//! 1, that layer is a sum of weight rows, one per piece on the board: the *accumulator*. A move
//! changes two to four squares, so the accumulator is updated by adding and subtracting a few rows
//! instead of summing 32 (the "efficiently updatable" of the name). The output is one number: both
//! accumulators through a squared clipped ReLU, multiplied by the output weights and summed.
//!
//! Everything is integer, so that every backend's inference is exact and equal to the scalar
//! reference's bit for bit: the accumulator and the weights are `i16`, with wrapping arithmetic
//! (addition mod 2^16 is associative, so a refresh and any sequence of updates agree even where a
//! sum overflows), the output layer sums `i32` products, again wrapping.
//!
//! In a [`Quad`] the two perspectives are the two colours. `us` is the side whose pieces carry the
//! colour bit (in the engine, which keeps the board relative, the side to move), playing up the
//! board as the quad lies; `them` is the other side, on the board mirrored top to bottom. After a
//! move the engine flips the board, and the two accumulators swap roles: a swap, not a recount.

use std::fmt;

use crate::quad::Quad;
use crate::square::{Square, Squares};

/// Inputs per perspective: 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;

/// The width the lab measures (the feature transformer's lanes per perspective), and what
/// [`Lanes`], [`Accumulators`] and [`Network`] mean without one: 128 lanes of `i16` are eight YMM
/// registers, four ZMM, so a vector backend keeps a whole accumulator in registers while it edits
/// it. Every type and routine here takes any multiple of 128 lanes; at a greater width the
/// vector backends edit an accumulator in parts (the engine's networks are 256 wide).
pub const HIDDEN: usize = 128;

/// The activation's ceiling, and the scale of the feature transformer's weights: 1.0 is `QA`.
pub const QA: i32 = 255;

/// The scale of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;

/// Network output 1.0 is `SCALE` centipawns.
pub const SCALE: i32 = 400;

/// One perspective's accumulator, or one row of the feature transformer: `N` lanes of `i16`,
/// aligned to a cache line so that every backend loads it with aligned loads.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
pub struct Lanes<const N: usize = HIDDEN>(pub [i16; N]);

impl<const N: usize> Default for Lanes<N> {
    fn default() -> Lanes<N> {
        Lanes([0; N])
    }
}

impl<const N: usize> fmt::Debug for Lanes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &self.0[..])
    }
}

/// Both perspectives' accumulators of a position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Accumulators<const N: usize = HIDDEN> {
    /// The side whose pieces carry the colour bit (the side to move, in the engine).
    pub us: Lanes<N>,
    /// The other side, on the mirrored board.
    pub them: Lanes<N>,
}

impl<const N: usize> Accumulators<N> {
    /// Each accumulator with the perspective it is of, `us` first.
    #[inline(always)]
    pub fn perspectives_mut(&mut self) -> [(&mut Lanes<N>, Perspective); 2] {
        [
            (&mut self.us, Perspective::Us),
            (&mut self.them, Perspective::Them),
        ]
    }

    /// The accumulators after the board is flipped (the colour flip of routine 8): the two
    /// perspectives trade places.
    #[inline(always)]
    pub fn flipped(&self) -> Accumulators<N> {
        Accumulators {
            us: self.them,
            them: self.us,
        }
    }
}

/// Which of the two perspectives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Perspective {
    Us,
    Them,
}

/// The input a piece code on a square sets for `perspective`, or `None` for an empty square (and
/// for the two codes that name no piece, type bits 0 and 7, which any quad may hold).
///
/// Inputs are numbered `(side * 6 + type - 1) * 64 + square`, with `side` 0 for the
/// perspective's own pieces and `square` as the perspective sees it (mirrored for `them`).
#[inline(always)]
pub const fn feature(code: u8, sq: Square, perspective: Perspective) -> Option<usize> {
    let kind = (code >> 1 & 7) as usize;
    if kind == 0 || kind == 7 {
        return None;
    }
    let colour_bit = (code & 1) as usize;
    let (side, square) = match perspective {
        Perspective::Us => (1 - colour_bit, sq.index()),
        Perspective::Them => (colour_bit, sq.index() ^ 56),
    };
    Some((side * 6 + kind - 1) * 64 + square)
}

/// One square a move changes: the code before and after (0 = empty).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub sq: Square,
    pub before: u8,
    pub after: u8,
}

/// The squares `delta` changes on `before`, in square order: two to four for a legal move, up to
/// 64 for an arbitrary delta.
#[inline(always)]
pub fn changes(before: &Quad, delta: &Quad) -> impl Iterator<Item = Change> + use<> {
    let (before, delta) = (*before, *delta);
    // Every plane: a capture by a piece of the same type changes only the colour bit.
    let changed = delta.bb[0] | delta.bb[1] | delta.bb[2] | delta.bb[3];
    Squares(changed).map(move |sq| {
        let code = before.nibble(sq);
        Change {
            sq,
            before: code,
            after: code ^ delta.nibble(sq),
        }
    })
}

// ANCHOR: accumulator_loops
/// A vector register of `i16` lanes, as the NNUE routines use it. Each vector backend implements
/// it for its register type, and the refresh, the update and the forward pass below are written
/// once over it.
///
/// The methods use the backend's instructions, so they are `unsafe`: a caller promises that the
/// CPU has them, as it does inside the backend's `#[features(tier)]` routines (reached through its
/// token). The loops below are `#[inline(always)]`, so each of those routines compiles its own
/// copy of them, with its features, and the methods (compiled with the same features) inline
/// into that copy.
pub(crate) trait Vector: Copy {
    /// `i16` lanes per register.
    const LANES: usize;

    /// The forward pass's running sums (`i32` lanes).
    type Sums: Copy;

    /// The `LANES` lanes at `from`, which is aligned to the register's size.
    unsafe fn load(from: *const i16) -> Self;

    /// The lanes to `to`, aligned as for `load`.
    unsafe fn store(self, to: *mut i16);

    /// Lane-wise `self + row`, wrapping.
    unsafe fn add(self, row: Self) -> Self;

    /// Lane-wise `self - row`, wrapping.
    unsafe fn sub(self, row: Self) -> Self;

    /// Sums of zero.
    unsafe fn zero_sums() -> Self::Sums;

    /// `sums` plus, lane by lane, `v * (v * w)` for the clipped `v = clamp(x, 0, QA)`: the inner
    /// product kept to 16 bits, the outer one and the sum in `i32`, wrapping (as the reference).
    unsafe fn add_activated(sums: Self::Sums, x: Self, w: Self) -> Self::Sums;

    /// The total of all sums, wrapping.
    unsafe fn total(sums: Self::Sums) -> i32;
}

/// The accumulator loops: the refresh and the update of a vector backend, generic over its
/// register `V`, with `REGS` registers per part of an accumulator of `N` lanes (the whole of one
/// of 128 lanes, unless it would not leave the register file room for a row: then in parts; a
/// wider one in more parts). Each part of each perspective's accumulator is loaded once, edited
/// by every row, and stored once.
///
/// Plain loops, no iterator adapters: a closure compiled with the backend's features cannot be
/// inlined into core's adapters, compiled without them, so it would stay a call, and no vector
/// register survives a call: the accumulator would go to the stack around every row.
///
/// # Safety
///
/// The CPU has `V`'s instructions (see [`Vector`]).
#[inline(always)]
pub(crate) unsafe fn refresh<V: Vector, const REGS: usize, const N: usize>(
    quad: &Quad,
    net: &Network<N>,
) -> Accumulators<N> {
    let mut acc = Accumulators::default();
    for (lanes, perspective) in acc.perspectives_mut() {
        for part in 0..parts::<V, REGS, N>() {
            // SAFETY: the caller's promise.
            unsafe {
                let mut regs = load::<V, REGS, N>(&net.feature_bias, part);
                for sq in Squares(quad.occupied()) {
                    if let Some(f) = feature(quad.nibble(sq), sq, perspective) {
                        regs = edit(regs, net.row(f), part, false);
                    }
                }
                store(regs, lanes, part);
            }
        }
    }
    acc
}

/// # Safety
///
/// The CPU has `V`'s instructions (see [`Vector`]).
#[inline(always)]
pub(crate) unsafe fn update<V: Vector, const REGS: usize, const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    for (lanes, perspective) in acc.perspectives_mut() {
        for part in 0..parts::<V, REGS, N>() {
            // SAFETY: the caller's promise.
            unsafe {
                let mut regs = load::<V, REGS, N>(lanes, part);
                for change in changes(before, delta) {
                    if let Some(f) = feature(change.before, change.sq, perspective) {
                        regs = edit(regs, net.row(f), part, true);
                    }
                    if let Some(f) = feature(change.after, change.sq, perspective) {
                        regs = edit(regs, net.row(f), part, false);
                    }
                }
                store(regs, lanes, part);
            }
        }
    }
}

/// The forward pass: both accumulators through [`Vector::add_activated`] with their output
/// weights, part by part as the accumulator loops go.
///
/// # Safety
///
/// The CPU has `V`'s instructions (see [`Vector`]).
#[inline(always)]
pub(crate) unsafe fn evaluate<V: Vector, const REGS: usize, const N: usize>(
    acc: &Accumulators<N>,
    net: &Network<N>,
) -> i32 {
    // SAFETY: the caller's promise.
    unsafe {
        let mut sums = V::zero_sums();
        for (lanes, weights) in net.output_halves(acc) {
            for part in 0..parts::<V, REGS, N>() {
                let (x, w) = (
                    load::<V, REGS, N>(lanes, part),
                    load::<V, REGS, N>(weights, part),
                );
                for i in 0..REGS {
                    sums = V::add_activated(sums, x[i], w[i]);
                }
            }
        }
        net.finish(V::total(sums))
    }
}

/// How many parts of `REGS` registers an accumulator of `N` lanes is edited in.
const fn parts<V: Vector, const REGS: usize, const N: usize>() -> usize {
    const {
        assert!(
            N.is_multiple_of(REGS * V::LANES),
            "parts must tile an accumulator"
        )
    };
    N / (REGS * V::LANES)
}

/// Register `reg` of `lanes` (lanes `reg * V::LANES` on).
///
/// # Safety
///
/// The CPU has `V`'s instructions, and `reg < N / V::LANES`.
#[inline(always)]
unsafe fn register<V: Vector, const N: usize>(lanes: &Lanes<N>, reg: usize) -> V {
    // SAFETY: `Lanes` is `N` lanes aligned to 64, so with `reg` in range the register's lanes
    // lie within it, aligned to the register's size; the rest is the caller's promise.
    unsafe { V::load(lanes.0.as_ptr().add(reg * V::LANES)) }
}

/// Part `part` of `lanes` in registers.
///
/// # Safety
///
/// The CPU has `V`'s instructions, and `part < parts::<V, REGS, N>()`.
#[inline(always)]
unsafe fn load<V: Vector, const REGS: usize, const N: usize>(
    lanes: &Lanes<N>,
    part: usize,
) -> [V; REGS] {
    // SAFETY: the caller's promise.
    std::array::from_fn(|i| unsafe { register(lanes, part * REGS + i) })
}

/// `regs` into part `part` of `lanes`.
///
/// # Safety
///
/// The CPU has `V`'s instructions.
#[inline(always)]
unsafe fn store<V: Vector, const REGS: usize, const N: usize>(
    regs: [V; REGS],
    lanes: &mut Lanes<N>,
    part: usize,
) {
    let base = lanes.0.as_mut_ptr();
    for (i, reg) in regs.into_iter().enumerate() {
        // SAFETY: as in `load`, and `lanes` is borrowed mutably.
        unsafe { reg.store(base.add((part * REGS + i) * V::LANES)) };
    }
}

/// `regs` with part `part` of `row` subtracted (`out`) or added, lane by lane.
///
/// # Safety
///
/// The CPU has `V`'s instructions.
#[inline(always)]
unsafe fn edit<V: Vector, const REGS: usize, const N: usize>(
    regs: [V; REGS],
    row: &Lanes<N>,
    part: usize,
    out: bool,
) -> [V; REGS] {
    // SAFETY: the caller's promise.
    unsafe {
        let row = load::<V, REGS, N>(row, part);
        if out {
            std::array::from_fn(|i| regs[i].sub(row[i]))
        } else {
            std::array::from_fn(|i| regs[i].add(row[i]))
        }
    }
}
// ANCHOR_END: accumulator_loops

/// The quantised network of width `N`: a feature transformer shared by both perspectives and an
/// output layer that sees `us` then `them`. About 1.5 KiB a lane (197 KiB at 128), so it lives in
/// a `Box`.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Network<const N: usize = HIDDEN> {
    /// Row `i` is added to a perspective's accumulator when its input `i` is set (scale `QA`).
    pub feature_weights: [Lanes<N>; INPUTS],
    /// Every accumulator starts from the bias (scale `QA`).
    pub feature_bias: Lanes<N>,
    /// The output weights of `us` (row 0) and `them` (row 1) (scale `QB`).
    pub output_weights: [Lanes<N>; 2],
    /// Scale `QA * QB`.
    pub output_bias: i32,
}

impl<const N: usize> fmt::Debug for Network<N> {
    /// A network is hundreds of KiB: a failing test names it by its checksum.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network(checksum {:#018x})", checksum(&self.payload()))
    }
}

impl<const N: usize> Network<N> {
    /// A network of zeros, to fill in.
    pub fn zeroed() -> Box<Network<N>> {
        Box::new(Network {
            feature_weights: [Lanes::default(); INPUTS],
            feature_bias: Lanes::default(),
            output_weights: [Lanes::default(); 2],
            output_bias: 0,
        })
    }

    /// A network whose every weight and bias is drawn from `weight` (tests and benchmarks).
    pub fn random(weight: &mut impl FnMut() -> i16) -> Box<Network<N>> {
        let mut net = Network::zeroed();
        for row in net.rows_mut() {
            row.0 = std::array::from_fn(|_| weight());
        }
        net.output_bias = i32::from(weight()) * QB;
        net
    }

    /// The row of input `feature`.
    #[inline(always)]
    pub fn row(&self, feature: usize) -> &Lanes<N> {
        &self.feature_weights[feature]
    }

    /// The output layer's two halves, in the order of the sum: each perspective's accumulator
    /// with the weights it meets, `us` with row 0 and `them` with row 1.
    #[inline(always)]
    pub fn output_halves<'a>(
        &'a self,
        acc: &'a Accumulators<N>,
    ) -> [(&'a Lanes<N>, &'a Lanes<N>); 2] {
        [
            (&acc.us, &self.output_weights[0]),
            (&acc.them, &self.output_weights[1]),
        ]
    }

    /// The evaluation, in centipawns for `us`, from the output layer's raw sum (scale
    /// `QA * QA * QB`): the last step of every backend's forward pass, done once in scalar code.
    #[inline(always)]
    pub fn finish(&self, sum: i32) -> i32 {
        let value = (i64::from(sum) / i64::from(QA) + i64::from(self.output_bias))
            * i64::from(SCALE)
            / i64::from(QA * QB);
        value as i32
    }

    /// Every row of lanes in file order: the feature weights, the feature bias, the output
    /// weights.
    fn rows(&self) -> impl Iterator<Item = &Lanes<N>> {
        self.feature_weights
            .iter()
            .chain([&self.feature_bias])
            .chain(&self.output_weights)
    }

    fn rows_mut(&mut self) -> impl Iterator<Item = &mut Lanes<N>> {
        self.feature_weights
            .iter_mut()
            .chain([&mut self.feature_bias])
            .chain(&mut self.output_weights)
    }

    /// The weights and biases in file order, little-endian.
    fn payload(&self) -> Vec<u8> {
        let lanes = self.rows();
        let mut bytes = Vec::with_capacity(payload_bytes(N));
        for row in lanes {
            for v in row.0 {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        bytes
    }

    /// The network file: header, payload, checksum (see [`Network::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = header(N);
        bytes.extend_from_slice(&self.payload());
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads a network file: the magic `QBBNNUE\0`, the format version, the shape (inputs,
    /// hidden width) and the quantisation (`QA`, `QB`, `SCALE`) as little-endian `u32`s, the
    /// payload (feature weights row by row, feature bias, output weights, all `i16`; output bias
    /// `i32`), and an FNV-1a 64 checksum of everything before it. Anything else is refused with
    /// the reason (a network of another width too).
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Network<N>>, NetworkError> {
        let expected = header(N);
        let total = expected.len() + payload_bytes(N) + 8;
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        if bytes.len() < expected.len() {
            return Err(NetworkError::Truncated {
                len: bytes.len(),
                expected: total,
            });
        }
        let word = |i: usize| {
            let at = MAGIC.len() + 4 * i;
            u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
        };
        if word(0) != VERSION {
            return Err(NetworkError::Version(word(0)));
        }
        let found = [word(1), word(2), word(3), word(4), word(5)];
        let ours = [INPUTS as u32, N as u32, QA as u32, QB as u32, SCALE as u32];
        if found != ours {
            return Err(NetworkError::Shape {
                found,
                expected: ours,
            });
        }
        if bytes.len() != total {
            return Err(if bytes.len() < total {
                NetworkError::Truncated {
                    len: bytes.len(),
                    expected: total,
                }
            } else {
                NetworkError::TrailingBytes {
                    len: bytes.len(),
                    expected: total,
                }
            });
        }
        let (body, stored) = bytes.split_at(total - 8);
        let stored = u64::from_le_bytes(stored.try_into().expect("eight bytes"));
        let computed = checksum(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut net = Network::zeroed();
        let mut values = body[expected.len()..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        for row in net.rows_mut() {
            for v in &mut row.0 {
                *v = values.next().expect("the length was checked");
            }
        }
        let bias = &body[body.len() - 4..];
        net.output_bias = i32::from_le_bytes(bias.try_into().expect("four bytes"));
        Ok(net)
    }
}

/// The file's first eight bytes.
const MAGIC: [u8; 8] = *b"QBBNNUE\0";

/// The file format's version.
const VERSION: u32 = 1;

/// The payload's size in bytes at width `hidden`.
const fn payload_bytes(hidden: usize) -> usize {
    2 * hidden * (INPUTS + 3) + 4
}

fn header(hidden: usize) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    for word in [
        VERSION,
        INPUTS as u32,
        hidden as u32,
        QA as u32,
        QB as u32,
        SCALE as u32,
    ] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// FNV-1a, 64 bits: enough to tell a damaged file from a good one (not an adversary).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    NotANetwork,
    Truncated { len: usize, expected: usize },
    TrailingBytes { len: usize, expected: usize },
    Version(u32),
    Shape { found: [u32; 5], expected: [u32; 5] },
    Checksum { stored: u64, computed: u64 },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotANetwork => {
                write!(f, "not a qbb network file (it does not start with QBBNNUE)")
            }
            NetworkError::Truncated { len, expected } => {
                write!(f, "truncated: {len} bytes, a network file has {expected}")
            }
            NetworkError::TrailingBytes { len, expected } => {
                write!(
                    f,
                    "{len} bytes, a network file has {expected}: extra bytes at the end"
                )
            }
            NetworkError::Version(v) => {
                write!(f, "format version {v}, this engine reads version {VERSION}")
            }
            NetworkError::Shape { found, expected } => write!(
                f,
                "a network of another shape: inputs, hidden, QA, QB, scale = {found:?}, \
                 this engine's are {expected:?}"
            ),
            NetworkError::Checksum { stored, computed } => write!(
                f,
                "damaged: checksum {computed:#018x}, the file says {stored:#018x}"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::SplitMix64;

    fn random_network(seed: u64) -> Box<Network> {
        let mut rng = SplitMix64(seed);
        Network::random(&mut || rng.next_u64() as i16)
    }

    #[test]
    fn a_network_file_reads_back_as_written() {
        let net = random_network(1);
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    }

    #[test]
    fn a_network_of_another_width_is_refused_by_its_shape() {
        let mut rng = SplitMix64(3);
        let wide: Box<Network<256>> = Network::random(&mut || rng.next_u64() as i16);
        let bytes = wide.to_bytes();
        assert_eq!(Network::<256>::from_bytes(&bytes).unwrap(), wide);
        let reason = Network::<128>::from_bytes(&bytes).unwrap_err().to_string();
        assert!(reason.contains("another shape"), "{reason}");
        assert!(reason.contains("768, 256"), "{reason}");
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let good = random_network(2).to_bytes();
        let reason = |bytes: &[u8]| {
            Network::<HIDDEN>::from_bytes(bytes)
                .unwrap_err()
                .to_string()
        };
        assert!(reason(b"").contains("not a qbb network"));
        assert!(reason(b"#!/bin/sh\necho hello\n").contains("not a qbb network"));
        assert!(reason(&good[..1000]).contains("truncated"));
        assert!(reason(&good[..20]).contains("truncated"));
        assert!(reason(&[&good[..], &[0]].concat()).contains("extra bytes"));
        let mut flipped = good.clone();
        flipped[5000] ^= 1;
        assert!(reason(&flipped).contains("checksum"));
        let mut version = good.clone();
        version[8] = 9;
        assert!(reason(&version).contains("version 9"));
        let mut shape = good;
        shape[16] ^= 1;
        assert!(reason(&shape).contains("another shape"));
    }

    #[test]
    fn features_mirror_between_perspectives() {
        // A white (colour bit set) knight on b1 is our knight on b1 for `us`, and the opponent's
        // knight on b8 for `them`.
        let (knight, b1) = (2 << 1 | 1, "b1".parse().unwrap());
        assert_eq!(feature(knight, b1, Perspective::Us), Some(64 + 1));
        assert_eq!(
            feature(knight, b1, Perspective::Them),
            Some((6 + 1) * 64 + 57)
        );
        for code in [0, 1, 14, 15] {
            assert_eq!(feature(code, b1, Perspective::Us), None);
        }
    }
}
