//! One out-of-line function per backend and routine, compiled with the backend's target features,
//! so that the machine code of each routine can be read (`cargo asm`, objdump) exactly as it looks
//! once inlined into a caller that runs under the backend's features. Built with the `asm-probes`
//! feature; nothing calls these functions.

use crate::backend::Backend;
use crate::routine::types::*;

/// One module of probes: `for_each_routine!(probe_module, name, Backend)` for a backend without
/// target features, `for_each_routine!(probe_module, name, Backend, tier)` for one compiled with
/// the tier's features.
macro_rules! probe_module {
    ([$module:ident, $backend:ty] $($rows:tt)*) => {
        probe_module!(@module $module, $backend, [], $($rows)*);
    };
    ([$module:ident, $backend:ty, $tier:ident] $($rows:tt)*) => {
        probe_module!(@module $module, $backend, [
            ///
            /// # Safety
            ///
            /// Compiled with the backend's target features, so a caller without them needs
            /// `unsafe`; the token argument is the proof that the CPU has them.
            #[crate::backend::features($tier)]
        ], $($rows)*);
    };
    (@module $module:ident, $backend:ty, $attributes:tt,
     $( $(#[$doc:meta])* row $row:literal, $group:ident, $variant:ident = $id:literal,
        $title:literal: fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*)
        $(-> $ret:ty)?; )*) => {
        #[doc = concat!("Probes of the `", stringify!($module), "` backend.")]
        pub mod $module {
            use super::*;

            $( probe_module!(@fn $attributes $backend, $name($($arg: $ty),*) $(-> $ret)?); )*
        }
    };
    (@fn [$($attribute:tt)*] $backend:ty, $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {
        #[doc = concat!("`", stringify!($name), "` on its own, out of line.")]
        $($attribute)*
        // The backend token is a parameter (a zero-sized value, it costs no register):
        // constructing it inside the probe would put the CPU detection into every listing.
        #[inline(never)]
        pub fn $name(backend: $backend $(, $arg: $ty)*) $(-> $ret)? {
            backend.$name($($arg),*)
        }
    };
}

crate::for_each_routine!(probe_module, scalar, crate::Scalar);
crate::for_each_routine!(probe_module, swar, crate::Swar);
#[cfg(target_arch = "x86_64")]
crate::for_each_routine!(probe_module, sse2, crate::Sse2, sse2);
#[cfg(target_arch = "x86_64")]
crate::for_each_routine!(probe_module, avx2, crate::Avx2, avx2);
#[cfg(target_arch = "x86_64")]
crate::for_each_routine!(probe_module, avx512, crate::Avx512, avx512);
// ANCHOR: neon_probes
#[cfg(target_arch = "aarch64")]
crate::for_each_routine!(probe_module, neon, crate::Neon, neon);
// ANCHOR_END: neon_probes
#[cfg(feature = "portable-simd")]
crate::for_each_routine!(probe_module, portable, crate::Portable);
// The portable backend runs its jobs at the CPU's width (`Portable::width`); these copies show what
// its `std::simd` code becomes inside the AVX2 and AVX-512 regions, next to the baseline copy above.
#[cfg(all(feature = "portable-simd", target_arch = "x86_64"))]
crate::for_each_routine!(probe_module, portable_avx2, crate::Portable, avx2);
#[cfg(all(feature = "portable-simd", target_arch = "x86_64"))]
crate::for_each_routine!(probe_module, portable_avx512, crate::Portable, avx512);

/// The inlining wall: AVX2 routines called from functions compiled *without*
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
