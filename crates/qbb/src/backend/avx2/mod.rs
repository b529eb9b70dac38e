//! The avx2 backend (x86-64-v3: AVX2, BMI1/2, LZCNT, POPCNT): the whole quad in one 256-bit
//! register, one plane per 64-bit lane.
//!
//! What the instruction set brings to the quad-bitboard, module by module:
//!
//! - `square`: the vertical nibble of one square with `vpsllq` + `vpmovmskb` + one multiply, and
//!   its inverse with `pdep` + `vpmovsxbq`;
//! - `sets`: disjoint sets, the 16 hex sets and the other board representations, four sets per
//!   instruction, `vpermq` moving planes between lanes;
//! - `mailbox`: quad <-> mailbox and nibble board with `vpshufb` byte spreading, `vpmovmskb`
//!   bit gathering and `pdep`;
//! - `moves`: the make/unmake delta and the colour flip;
//! - `fills`: Kogge-Stone fills and knight attacks in four directions at once with the
//!   per-lane shifts `vpsllvq` / `vpsrlvq`;
//! - `popcount`, `nibbles`, `hash`: `vpshufb` nibble lookups, SWAR nibble arithmetic four
//!   words wide, 64-bit products from `vpmuludq`, and a `tzcnt` / `blsr` walk for Zobrist.
//!
//! Every routine is native. The intrinsic code lives in `#[target_feature]` functions of the
//! submodules; the trait methods below only forward to them, which is sound because an [`Avx2`]
//! value exists only on a CPU that has the features.

use crate::aspects::MoveAspects;
use crate::backend::{Backend, BackendKind};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

mod fills;
mod hash;
mod lanes;
mod mailbox;
mod moves;
mod nibbles;
mod popcount;
mod sets;
mod square;

// ANCHOR: token
/// The avx2 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Avx2(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Avx2 {
    const KIND: BackendKind = BackendKind::Avx2;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[];

    #[inline]
    fn new() -> Option<Avx2> {
        BackendKind::Avx2.is_available().then_some(Avx2(()))
    }

    crate::backend::feature_region!(Avx2, "avx2,bmi1,bmi2,lzcnt,popcnt");

    crate::backend::forward_to_feature_fns! {
        fn piece_at(self, quad: &Quad, sq: Square) -> u8 => square;
        fn set_piece(self, quad: &mut Quad, sq: Square, code: u8) => square;
        fn piece_sets(self, quad: &Quad) -> PieceSets => sets;
        fn hex_sets(self, quad: &Quad) -> HexSets => sets;
        fn to_mailbox(self, quad: &Quad) -> Mailbox => mailbox;
        fn from_mailbox(self, mailbox: &Mailbox) -> Quad => mailbox;
        fn move_delta(self, aspects: &MoveAspects) -> Quad => moves;
        fn flip(self, quad: &Quad) -> Quad => moves;
        fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8] => fills;
        fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64 => fills;
        fn knight_attacks(self, knights: u64) -> u64 => fills;
        fn checks_and_pins(self, position: &SliderPosition) -> [KingSafety; 2] => fills;
        fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32 => popcount;
        fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard => nibbles;
        fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard => nibbles;
        fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard => nibbles;
        fn to_nibble_board(self, quad: &Quad) -> NibbleBoard => mailbox;
        fn from_nibble_board(self, board: &NibbleBoard) -> Quad => mailbox;
        fn to_classical(self, quad: &Quad) -> ClassicalBoard => sets;
        fn from_classical(self, board: &ClassicalBoard) -> Quad => sets;
        fn to_dense(self, quad: &Quad) -> DenseBoard => sets;
        fn from_dense(self, board: &DenseBoard) -> Quad => sets;
        fn hash_manino(self, quad: &Quad, state: u64) -> u64 => hash;
        fn hash_zobrist(self, quad: &Quad) -> u64 => hash;
    }
    // ANCHOR_END: token
}
