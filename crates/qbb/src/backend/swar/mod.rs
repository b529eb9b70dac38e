//! The swar backend: SIMD within a register, with nothing but `u64` arithmetic.
//!
//! A 64-bit word is read as lanes (64 one-bit squares, eight byte ranks, sixteen nibbles) and one
//! operation works on all lanes at once: masks keep carries and borrows inside their lane (the H
//! and L masks of the Nibble article), multiplies gather bits or add lanes, delta swaps transpose
//! bit matrices. It runs on any CPU; the routines live in the submodules, grouped by theme, and
//! the trait methods below only convert between the crate's types and plain words.

mod attacks;
mod hash;
mod nibble_arith;
mod nibbles;
mod sets;
mod transpose;

use crate::aspects::MoveAspects;
use crate::backend::{Backend, BackendKind, Scalar};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

/// The swar backend token; it needs no CPU feature, so a value always exists.
#[derive(Copy, Clone, Debug)]
pub struct Swar(());

impl Swar {
    /// The token, for the backends above that take a routine from this one.
    pub(crate) const TOKEN: Swar = Swar(());
}

// SAFETY: the swar backend uses no instruction beyond the base architecture.
unsafe impl Backend for Swar {
    const KIND: BackendKind = BackendKind::Swar;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[
        (
            Routine::PieceSets,
            BackendKind::Scalar,
            "the article's formulas are whole-word ANDs, ORs and XORs already",
        ),
        (
            Routine::Flip,
            BackendKind::Scalar,
            "a byte swap per plane is one base instruction (bswap): no SWAR mirror can beat it",
        ),
        (
            Routine::WeightedPopcount,
            BackendKind::Scalar,
            "LLVM compiles count_ones to the SWAR popcount itself: a copy gave the same code",
        ),
        (
            Routine::HashManino,
            BackendKind::Scalar,
            "eight 64-bit multiplies of 32-bit halves: no lanes to pack in a word",
        ),
    ];

    #[inline(always)]
    fn new() -> Option<Swar> {
        Some(Swar::TOKEN)
    }

    #[inline(always)]
    fn with_features<R>(self, job: impl FnOnce(Swar) -> R) -> R {
        job(self)
    }

    #[inline(always)]
    fn piece_at(self, quad: &Quad, sq: Square) -> u8 {
        nibbles::piece_at(&quad.bb, sq)
    }

    #[inline(always)]
    fn set_piece(self, quad: &mut Quad, sq: Square, code: u8) {
        nibbles::set_piece(&mut quad.bb, sq, code)
    }

    #[inline(always)]
    fn piece_sets(self, quad: &Quad) -> PieceSets {
        Scalar.piece_sets(quad)
    }

    #[inline(always)]
    fn hex_sets(self, quad: &Quad) -> HexSets {
        sets::hex_sets(&quad.bb)
    }

    #[inline(always)]
    fn to_mailbox(self, quad: &Quad) -> Mailbox {
        let ranks = transpose::to_mailbox(&quad.bb);
        let mut out = Mailbox::default();
        for (bytes, rank) in out.0.chunks_exact_mut(8).zip(ranks) {
            bytes.copy_from_slice(&rank.to_le_bytes());
        }
        out
    }

    #[inline(always)]
    fn from_mailbox(self, mailbox: &Mailbox) -> Quad {
        let ranks = std::array::from_fn(|r| {
            u64::from_le_bytes(std::array::from_fn(|f| mailbox.0[8 * r + f]))
        });
        Quad {
            bb: transpose::from_mailbox(&ranks),
        }
    }

    #[inline(always)]
    fn move_delta(self, aspects: &MoveAspects) -> Quad {
        Quad {
            bb: nibbles::move_delta(aspects),
        }
    }

    #[inline(always)]
    fn flip(self, quad: &Quad) -> Quad {
        Scalar.flip(quad)
    }

    #[inline(always)]
    fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8] {
        attacks::occluded_fills(&generators.bb, empty).map(|bb| Quad { bb })
    }

    #[inline(always)]
    fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64 {
        attacks::slider_attacks(orth, diag, empty)
    }

    #[inline(always)]
    fn knight_attacks(self, knights: u64) -> u64 {
        attacks::knight_attacks(knights)
    }

    #[inline(always)]
    fn checks_and_pins(self, position: &SliderPosition) -> [KingSafety; 2] {
        attacks::checks_and_pins(position)
    }

    #[inline(always)]
    fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
        Scalar.weighted_popcount(sets, weights)
    }

    #[inline(always)]
    fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        NibbleBoard::from_words(nibble_arith::nibble_add(a.to_words(), b.to_words()))
    }

    #[inline(always)]
    fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        NibbleBoard::from_words(nibble_arith::nibble_sub(a.to_words(), b.to_words()))
    }

    #[inline(always)]
    fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        NibbleBoard::from_words(nibble_arith::nibble_avg(a.to_words(), b.to_words()))
    }

    #[inline(always)]
    fn to_nibble_board(self, quad: &Quad) -> NibbleBoard {
        NibbleBoard::from_words(transpose::to_nibble_words(&quad.bb))
    }

    #[inline(always)]
    fn from_nibble_board(self, board: &NibbleBoard) -> Quad {
        Quad {
            bb: transpose::from_nibble_words(&board.to_words()),
        }
    }

    #[inline(always)]
    fn to_classical(self, quad: &Quad) -> ClassicalBoard {
        sets::to_classical(&quad.bb)
    }

    #[inline(always)]
    fn from_classical(self, board: &ClassicalBoard) -> Quad {
        Quad {
            bb: sets::from_classical(board),
        }
    }

    #[inline(always)]
    fn to_dense(self, quad: &Quad) -> DenseBoard {
        sets::to_dense(&quad.bb)
    }

    #[inline(always)]
    fn from_dense(self, board: &DenseBoard) -> Quad {
        Quad {
            bb: sets::from_dense(board),
        }
    }

    #[inline(always)]
    fn hash_manino(self, quad: &Quad, state: u64) -> u64 {
        Scalar.hash_manino(quad, state)
    }

    #[inline(always)]
    fn hash_zobrist(self, quad: &Quad) -> u64 {
        hash::hash_zobrist(&quad.bb)
    }
}
