//! The sse2 backend (x86-64-v2: SSE2 as in the Quad-Bitboards article, plus SSSE3, SSE4.1/4.2 and
//! POPCNT where a routine says why): two planes per 128-bit register, a quad in two registers.
//!
//! What the instruction set brings, module by module:
//!
//! - `square`: the vertical nibble of one square by `psllq` + `shufps` + `movmskps`; writing a
//!   nibble, and the make/unmake delta, by shifting a code's one-square quad onto the square;
//!   the colour flip with `pshufb`;
//! - `sets`: the disjoint piece sets two per instruction, the article's `quad2hexBB`, and the
//!   classical and dense boards from the six piece types made two per instruction;
//! - `mailbox`: the article's `quadBB2Board`, `pmovmskb` back, and the nibble board by
//!   `pmaddubsw` pairing;
//! - `fills`: Kogge-Stone on two planes at once, for the quad's fills and Isenberg's checks and
//!   pins;
//! - `popcount`, `nibbles`, `hash`: `popCountWeight8` with `pshufb` byte counts, the
//!   Nibble article's SWAR formulas 128 bits wide, `pmuludq` for Manino's hash.
//!
//! Three routines come from the swar backend, each with its reason in [`Sse2::INHERITED`]: a
//! single bitboard (slider and knight attacks) does not fill two lanes, and Zobrist hashing is
//! table loads, for which SSE2 has no gather.
//!
//! The intrinsic code lives in `#[target_feature]` functions of the submodules; the trait methods
//! below only forward to them, which is sound because an [`Sse2`] value exists only on a CPU that
//! has the features.

use crate::aspects::MoveAspects;
use crate::backend::{Backend, BackendKind, Swar};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

mod fills;
mod hash;
mod lanes;
mod mailbox;
mod nibbles;
mod popcount;
mod sets;
mod square;

/// The sse2 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Sse2(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Sse2 {
    const KIND: BackendKind = BackendKind::Sse2;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[
        (
            Routine::SliderAttacks,
            BackendKind::Swar,
            "one set per direction: pairing directions in two lanes needs a mirrored copy and \
             blended shifts, which measured slower than swar's rays",
        ),
        (
            Routine::KnightAttacks,
            BackendKind::Swar,
            "one set: moving it into a register and back costs more than the second lane saves",
        ),
        (
            Routine::HashZobrist,
            BackendKind::Swar,
            "64 table loads and no gather before AVX2: swar's mailbox in integer registers \
             measured faster",
        ),
    ];

    #[inline]
    fn new() -> Option<Sse2> {
        BackendKind::Sse2.is_available().then_some(Sse2(()))
    }

    crate::backend::feature_region!(Sse2, "sse2,ssse3,sse4.1,sse4.2,popcnt");

    #[inline(always)]
    fn piece_at(self, quad: &Quad, sq: Square) -> u8 {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { square::piece_at(quad, sq) }
    }

    #[inline(always)]
    fn set_piece(self, quad: &mut Quad, sq: Square, code: u8) {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { square::set_piece(quad, sq, code) }
    }

    #[inline(always)]
    fn piece_sets(self, quad: &Quad) -> PieceSets {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { sets::piece_sets(quad) }
    }

    #[inline(always)]
    fn hex_sets(self, quad: &Quad) -> HexSets {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { sets::hex_sets(quad) }
    }

    #[inline(always)]
    fn to_mailbox(self, quad: &Quad) -> Mailbox {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { mailbox::to_mailbox(quad) }
    }

    #[inline(always)]
    fn from_mailbox(self, mailbox: &Mailbox) -> Quad {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { mailbox::from_mailbox(mailbox) }
    }

    #[inline(always)]
    fn move_delta(self, aspects: &MoveAspects) -> Quad {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { square::move_delta(aspects) }
    }

    #[inline(always)]
    fn flip(self, quad: &Quad) -> Quad {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { square::flip(quad) }
    }

    #[inline(always)]
    fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8] {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { fills::occluded_fills(generators, empty) }
    }

    #[inline(always)]
    fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64 {
        Swar::TOKEN.slider_attacks(orth, diag, empty)
    }

    #[inline(always)]
    fn knight_attacks(self, knights: u64) -> u64 {
        Swar::TOKEN.knight_attacks(knights)
    }

    #[inline(always)]
    fn checks_and_pins(self, position: &SliderPosition) -> [KingSafety; 2] {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { fills::checks_and_pins(position) }
    }

    #[inline(always)]
    fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { popcount::weighted_popcount(sets, weights) }
    }

    #[inline(always)]
    fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { nibbles::nibble_add(a, b) }
    }

    #[inline(always)]
    fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { nibbles::nibble_sub(a, b) }
    }

    #[inline(always)]
    fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { nibbles::nibble_avg(a, b) }
    }

    #[inline(always)]
    fn to_nibble_board(self, quad: &Quad) -> NibbleBoard {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { mailbox::to_nibble_board(quad) }
    }

    #[inline(always)]
    fn from_nibble_board(self, board: &NibbleBoard) -> Quad {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { mailbox::from_nibble_board(board) }
    }

    #[inline(always)]
    fn to_classical(self, quad: &Quad) -> ClassicalBoard {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { sets::to_classical(quad) }
    }

    #[inline(always)]
    fn from_classical(self, board: &ClassicalBoard) -> Quad {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { sets::from_classical(board) }
    }

    #[inline(always)]
    fn to_dense(self, quad: &Quad) -> DenseBoard {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { sets::to_dense(quad) }
    }

    #[inline(always)]
    fn from_dense(self, board: &DenseBoard) -> Quad {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { sets::from_dense(board) }
    }

    #[inline(always)]
    fn hash_manino(self, quad: &Quad, state: u64) -> u64 {
        // SAFETY: `self` exists, so the CPU has SSE2, SSSE3, SSE4.1, SSE4.2 and POPCNT.
        unsafe { hash::hash_manino(quad, state) }
    }

    #[inline(always)]
    fn hash_zobrist(self, quad: &Quad) -> u64 {
        Swar::TOKEN.hash_zobrist(quad)
    }
}
