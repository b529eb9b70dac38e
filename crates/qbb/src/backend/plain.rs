//! Plain data: the one way the backends see the same bytes as another type (a quad as a vector
//! register, a register as a mailbox's bytes), checked where it is declared.
//!
//! A type is [`Plain`] when it is made of integers (or integer vectors) with no padding, so every
//! bit pattern is a valid value; [`cast`] then reinterprets one plain value as another of the same
//! size, which compiles to a register move, a load or a store, never to a conversion. The layout
//! each cast relies on (sizes, and the field order of [`PieceSets`]) is asserted at compile time
//! below, so a change of a type's fields that would break a cast stops the build.

use std::mem::{offset_of, size_of, transmute_copy};

use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};

/// Plain integer data: any bit pattern is a valid value, and there is no padding.
///
/// # Safety
///
/// Implement only for types made of integers (or integer vectors) with no padding bytes.
pub(crate) unsafe trait Plain: Copy {}

/// The same bytes seen as another plain type of the same size.
#[inline(always)]
pub(crate) fn cast<A: Plain, B: Plain>(a: A) -> B {
    const { assert!(size_of::<A>() == size_of::<B>()) };
    // SAFETY: both types are plain integer data of the same size (checked at compile time), so
    // every bit pattern of `a` is a valid `B`; `transmute_copy` reads without alignment needs.
    unsafe { transmute_copy(&a) }
}

// SAFETY: arrays of integers, without padding.
unsafe impl<const N: usize> Plain for [u64; N] {}
// SAFETY: as above.
unsafe impl<const N: usize> Plain for [u32; N] {}
// SAFETY: as above.
unsafe impl<const N: usize> Plain for [i16; N] {}
// SAFETY: as above.
unsafe impl<const N: usize> Plain for [u8; N] {}

#[cfg(target_arch = "x86_64")]
mod vectors {
    use std::arch::x86_64::{__m128i, __m256i, __m512i};

    use super::Plain;

    // SAFETY: integer vectors: 16, 32 and 64 bytes, every bit pattern valid; arrays of them
    // have no padding (their size is a multiple of their alignment).
    unsafe impl Plain for __m128i {}
    // SAFETY: as above.
    unsafe impl Plain for __m256i {}
    // SAFETY: as above.
    unsafe impl Plain for __m512i {}
    // SAFETY: as above.
    unsafe impl<const N: usize> Plain for [__m128i; N] {}
    // SAFETY: as above.
    unsafe impl<const N: usize> Plain for [__m256i; N] {}
    // SAFETY: as above.
    unsafe impl<const N: usize> Plain for [__m512i; N] {}
}

#[cfg(target_arch = "aarch64")]
mod vectors {
    use std::arch::aarch64::{int16x8_t, uint8x16_t, uint64x2_t};

    use super::Plain;

    // SAFETY: integer vectors of 16 bytes, every bit pattern valid; arrays of them have no
    // padding (their size is a multiple of their alignment).
    unsafe impl Plain for uint8x16_t {}
    // SAFETY: as above.
    unsafe impl Plain for uint64x2_t {}
    // SAFETY: as above.
    unsafe impl Plain for int16x8_t {}
    // SAFETY: as above.
    unsafe impl<const N: usize> Plain for [uint8x16_t; N] {}
    // SAFETY: as above.
    unsafe impl<const N: usize> Plain for [uint64x2_t; N] {}
}

/// Declares the board types plain: each is `repr(C)` with integer fields only, and its size is
/// exactly its fields' (so no padding, whatever its alignment), asserted here.
macro_rules! plain_boards {
    ($($t:ty = $fields:ty;)*) => {$(
        const _: () = assert!(size_of::<$t>() == size_of::<$fields>());
        // SAFETY: `repr(C)`, integer fields only, no padding (the size assertion above).
        unsafe impl Plain for $t {}
    )*};
}

plain_boards! {
    Quad = [u64; 4];
    Mailbox = [u8; 64];
    NibbleBoard = [u8; 32];
    HexSets = [u64; 16];
    ClassicalBoard = [u64; 12];
    DenseBoard = [u64; 8];
    PieceSets = [u64; 10];
}

/// Casts to and from `[u64; 10]` read the piece sets in declaration order.
const _: () = {
    let fields = [
        offset_of!(PieceSets, black),
        offset_of!(PieceSets, white),
        offset_of!(PieceSets, occupied),
        offset_of!(PieceSets, odd),
        offset_of!(PieceSets, pawns),
        offset_of!(PieceSets, knights),
        offset_of!(PieceSets, bishops),
        offset_of!(PieceSets, rooks),
        offset_of!(PieceSets, queens),
        offset_of!(PieceSets, kings),
    ];
    let mut i = 0;
    while i < fields.len() {
        assert!(fields[i] == 8 * i);
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cast_keeps_the_bytes() {
        let quad = Quad::new(1, 2, 3, 4);
        let planes: [u64; 4] = cast(quad);
        assert_eq!(planes, [1, 2, 3, 4]);
        let back: Quad = cast(planes);
        assert_eq!(back, quad);
        let bytes: [u8; 32] = cast(quad);
        assert_eq!(bytes[8], 2, "plane 1 starts at byte 8, little-endian");
    }

    #[test]
    fn piece_sets_are_ten_sets_in_order() {
        let sets: PieceSets = cast([0u64, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!((sets.black, sets.occupied, sets.kings), (0, 2, 9));
    }
}
