//! One out-of-line function per backend and routine, compiled with the backend's target features,
//! so that the machine code of each routine can be read (`cargo asm`, objdump) exactly as it looks
//! once inlined into a caller that runs under the backend's features. Built with the `asm-probes`
//! feature; nothing calls these functions.

use crate::aspects::MoveAspects;
use crate::backend::Backend;
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::square::Square;

macro_rules! probe_module {
    ($module:ident, $backend:ty, $($features:literal)?) => {
        #[doc = concat!("Probes of the `", stringify!($module), "` backend.")]
        pub mod $module {
            use super::*;

            probe_module!(@fns $backend, [$($features)?];
                piece_at(q: &Quad, sq: Square) -> u8;
                set_piece(q: &mut Quad, sq: Square, code: u8) -> ();
                piece_sets(q: &Quad) -> PieceSets;
                hex_sets(q: &Quad) -> HexSets;
                to_mailbox(q: &Quad) -> Mailbox;
                from_mailbox(m: &Mailbox) -> Quad;
                move_delta(m: &MoveAspects) -> Quad;
                flip(q: &Quad) -> Quad;
                occluded_fills(g: &Quad, empty: u64) -> [Quad; 8];
                slider_attacks(orth: u64, diag: u64, empty: u64) -> u64;
                knight_attacks(knights: u64) -> u64;
                checks_and_pins(p: &SliderPosition) -> [KingSafety; 2];
                weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32;
                nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;
                nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;
                nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;
                to_nibble_board(q: &Quad) -> NibbleBoard;
                from_nibble_board(b: &NibbleBoard) -> Quad;
                to_classical(q: &Quad) -> ClassicalBoard;
                from_classical(b: &ClassicalBoard) -> Quad;
                to_dense(q: &Quad) -> DenseBoard;
                from_dense(b: &DenseBoard) -> Quad;
                hash_manino(q: &Quad, state: u64) -> u64;
                hash_zobrist(q: &Quad) -> u64;
            );
        }
    };
    (@fns $backend:ty, $features:tt; $($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $( probe_module!(@fn $backend, $features $name($($arg: $ty),*) -> $ret); )*
    };
    // The backend token is a parameter (a zero-sized value, it costs no register): constructing it
    // inside the probe would put the CPU detection into every listing.
    (@fn $backend:ty, [] $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        #[inline(never)]
        pub fn $name(backend: $backend, $($arg: $ty),*) -> $ret {
            backend.$name($($arg),*)
        }
    };
    (@fn $backend:ty, [$features:literal] $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        /// # Safety
        ///
        /// Compiled with the backend's target features, so a caller without them needs `unsafe`;
        /// the token argument is the proof that the CPU has them.
        #[inline(never)]
        #[target_feature(enable = $features)]
        pub fn $name(backend: $backend, $($arg: $ty),*) -> $ret {
            backend.$name($($arg),*)
        }
    };
}

probe_module!(scalar, crate::Scalar,);
probe_module!(swar, crate::Swar,);
#[cfg(target_arch = "x86_64")]
probe_module!(sse2, crate::Sse2, "sse2,ssse3,sse4.1,sse4.2,popcnt");
#[cfg(target_arch = "x86_64")]
probe_module!(avx2, crate::Avx2, "avx2,bmi1,bmi2,lzcnt,popcnt");
#[cfg(target_arch = "x86_64")]
probe_module!(
    avx512,
    crate::Avx512,
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni,avx512vpopcntdq,avx512bitalg,avx2,bmi1,bmi2,lzcnt,popcnt"
);
#[cfg(feature = "portable-simd")]
probe_module!(portable, crate::Portable,);
// The portable backend runs its jobs at the CPU's width (`Portable::width`); these copies show what
// its `std::simd` code becomes inside the AVX2 and AVX-512 regions, next to the baseline copy above.
#[cfg(all(feature = "portable-simd", target_arch = "x86_64"))]
probe_module!(
    portable_avx2,
    crate::Portable,
    "avx2,bmi1,bmi2,lzcnt,popcnt"
);
#[cfg(all(feature = "portable-simd", target_arch = "x86_64"))]
probe_module!(
    portable_avx512,
    crate::Portable,
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni,avx512vpopcntdq,avx512bitalg,avx2,bmi1,bmi2,lzcnt,popcnt"
);

/// The inlining wall (DESIGN.md section 4): AVX2 routines called from functions compiled *without*
/// the AVX2 features. A `#[target_feature]` function cannot be inlined into such a caller, so these
/// listings show a call where the `avx2` probes show the routine's body.
#[cfg(target_arch = "x86_64")]
pub mod wall {
    use super::*;

    /// `piece_sets` across the feature boundary.
    #[inline(never)]
    pub fn avx2_piece_sets(backend: crate::Avx2, q: &Quad) -> PieceSets {
        backend.piece_sets(q)
    }

    /// `flip` across the feature boundary.
    #[inline(never)]
    pub fn avx2_flip(backend: crate::Avx2, q: &Quad) -> Quad {
        backend.flip(q)
    }
}
