//! The avx2 backend (x86-64-v3: AVX2, BMI1/2, LZCNT, POPCNT): the whole quad in one 256-bit
//! register, one plane per 64-bit lane.
//!
//! What the instruction set brings to the quad-bitboard, module by module:
//!
//! - `square`: the vertical nibble of one square with `vpsllq` + `vpmovmskb` + one multiply, and
//!   its inverse with `pdep` + `vpmovsxbq`;
//! - `sets`: disjoint sets and the 16 hex sets, four sets per instruction, `vpermq` moving planes
//!   between lanes;
//! - `mailbox`: quad <-> mailbox with `vpshufb` byte spreading and `vpmovmskb` bit gathering;
//! - `moves`: the make/unmake delta and the colour flip;
//! - `fills`: Kogge-Stone fills of the four planes at once;
//! - `attacks`: slider attacks, knight attacks and checks and pins in four directions at once
//!   with the per-lane shifts `vpsllvq` / `vpsrlvq`;
//! - `counting`: `vpshufb` nibble lookups and `vpsadbw` for the weighted popcount;
//! - `nibbles`: SWAR nibble arithmetic four words wide, and the nibble board by `vpmaddubsw`
//!   pairing and `pdep`;
//! - `boards`: the classical and dense boards, four sets per instruction;
//! - `hash`: 64-bit products from `vpmuludq`, and a `tzcnt` / `blsr` walk for Zobrist.
//!
//! Helpers: `lanes` moves the quad in and out of a register and holds the lane reductions. A
//! helper shared by two routine files lives with the idea it belongs to: `square`'s plane masks
//! serve `moves`, `sets`' broadcast planes and `matching` serve `boards`, and `mailbox`'s byte
//! spreading serves `nibbles`.
//!
//! Every routine is native. The intrinsic code lives in `#[target_feature]` functions of the
//! submodules; the trait methods below only forward to them, which is sound because an [`Avx2`]
//! value exists only on a CPU that has the features.

use crate::backend::{BackendKind, impl_backend};
use crate::routine::types::*;

mod attacks;
mod boards;
mod counting;
mod fills;
mod hash;
mod lanes;
mod mailbox;
mod moves;
mod nibbles;
mod nnue;
mod sets;
mod square;

pub(in crate::backend) use square::plane_masks;

// ANCHOR: token
/// The avx2 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Avx2(());

impl_backend! {
    // SAFETY: `new` checks the CPU before making a value; no other constructor exists.
    unsafe impl Backend for Avx2 {
        const KIND: BackendKind = BackendKind::Avx2;

        #[inline]
        fn new() -> Option<Avx2> {
            BackendKind::Avx2.is_available().then_some(Avx2(()))
        }

        crate::backend::feature_region!(Avx2, avx2);
    }

    own: feature_fns;
    inherited: {}
}
// ANCHOR_END: token
