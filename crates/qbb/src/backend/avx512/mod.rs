//! The avx512 backend: AVX-512 F/BW/VL with VBMI/VBMI2, GFNI, VPOPCNTDQ and BITALG.
//!
//! What the wider instruction set changes, routine by routine:
//!
//! - **eight directions at once** (`rays`): a 512-bit register holds one bitboard per compass
//!   direction; `vprolvq` rotates each lane by its own direction's step and `vpternlogq` does the
//!   Kogge-Stone `fill |= pro & shifted` in one instruction;
//! - **GFNI bit-matrix transposes** (`transpose`): `gf2p8affineqb` multiplies bytes by an 8x8 bit
//!   matrix; feeding it the bytes `1, 2, 4, .. 128` transposes the matrix, which turns four planes
//!   into eight mailbox bytes (and back) in one instruction, with `vpermb` arranging the bytes;
//! - **any three-input boolean function in one instruction** (`sets`): `vpermt2q` picks each
//!   lane's operands from the planes and their complements, one `vpternlogq` combines them, so
//!   the 16 hex sets or the 12 classical bitboards come out eight at a time;
//! - **mask registers** (`squares`): `vptestmq` turns the four plane bits of a square into the
//!   nibble, and a piece code is itself the write mask that puts a square into the right planes;
//! - **`vpopcntq`, `vpcompressb` and gathers** (`counting`, `hash`): eight popcounts in one
//!   instruction, and Zobrist keys fetched only for the occupied squares.
//!
//! Every kernel is a `#[target_feature]` function of a submodule; the trait methods below only
//! call them, under the proof that the token gives.

use crate::aspects::MoveAspects;
use crate::backend::{Backend, BackendKind};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

mod counting;
mod hash;
mod rays;
mod sets;
mod squares;
mod transpose;
mod vector;

/// The avx512 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Avx512(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Avx512 {
    const KIND: BackendKind = BackendKind::Avx512;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[];

    #[inline]
    fn new() -> Option<Avx512> {
        BackendKind::Avx512.is_available().then_some(Avx512(()))
    }

    crate::backend::feature_region!(
        Avx512,
        "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni,avx512vpopcntdq,avx512bitalg,avx2,bmi1,bmi2,lzcnt,popcnt"
    );

    crate::backend::forward_to_feature_fns! {
        fn piece_at(self, quad: &Quad, sq: Square) -> u8 => squares;
        fn set_piece(self, quad: &mut Quad, sq: Square, code: u8) => squares;
        fn piece_sets(self, quad: &Quad) -> PieceSets => sets;
        fn hex_sets(self, quad: &Quad) -> HexSets => sets;
        fn to_mailbox(self, quad: &Quad) -> Mailbox => transpose;
        fn from_mailbox(self, mailbox: &Mailbox) -> Quad => transpose;
        fn move_delta(self, aspects: &MoveAspects) -> Quad => squares;
        fn flip(self, quad: &Quad) -> Quad => squares;
        fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8] => rays;
        fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64 => rays;
        fn knight_attacks(self, knights: u64) -> u64 => rays;
        fn checks_and_pins(self, position: &SliderPosition) -> [KingSafety; 2] => rays;
        fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32 => counting;
        fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard => counting;
        fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard => counting;
        fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard => counting;
        fn to_nibble_board(self, quad: &Quad) -> NibbleBoard => transpose;
        fn from_nibble_board(self, board: &NibbleBoard) -> Quad => transpose;
        fn to_classical(self, quad: &Quad) -> ClassicalBoard => sets;
        fn from_classical(self, board: &ClassicalBoard) -> Quad => sets;
        fn to_dense(self, quad: &Quad) -> DenseBoard => sets;
        fn from_dense(self, board: &DenseBoard) -> Quad => sets;
        fn hash_manino(self, quad: &Quad, state: u64) -> u64 => hash;
        fn hash_zobrist(self, quad: &Quad) -> u64 => hash;
    }
}
