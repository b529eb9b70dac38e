//! Nibble boards, the 64 nibbles in one register: SWAR nibble arithmetic (the Nibble article)
//! four 64-bit words wide, the article's masks keeping carries and borrows inside lanes; and the
//! quad <-> nibble board conversions, `vpmaddubsw` pairing the mailbox's bytes one way and
//! `vpmovmskb` + `pdep` the other.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::cast;
use super::mailbox::mailbox_halves;
use crate::quad::Quad;
use crate::repr::NibbleBoard;

// ANCHOR: nibble_arith
/// The most significant bit of every nibble (the article's H) and the least (L).
const H: i64 = 0x8888_8888_8888_8888_u64 as i64;
const L: i64 = 0x1111_1111_1111_1111_u64 as i64;

#[inline]
#[features(avx2)]
fn load(board: &NibbleBoard) -> __m256i {
    // SAFETY: `NibbleBoard` is 32 bytes aligned to 32: one aligned load reads exactly it.
    unsafe { _mm256_load_si256(board.0.as_ptr().cast()) }
}

#[inline]
#[features(avx2)]
fn store(v: __m256i) -> NibbleBoard {
    NibbleBoard(cast(v))
}

/// `z = ((x & ~H) + (y & ~H)) ^ ((x ^ y) & H)`: add the low three bits of each nibble, which
/// cannot carry out of it, then add the top bits modulo 2 with an xor.
#[inline]
#[features(avx2)]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (x, y, h) = (load(a), load(b), _mm256_set1_epi64x(H));
    let low_sum = _mm256_add_epi64(_mm256_andnot_si256(h, x), _mm256_andnot_si256(h, y));
    store(_mm256_xor_si256(
        low_sum,
        _mm256_and_si256(_mm256_xor_si256(x, y), h),
    ))
}

/// `z = ((x | H) - (y & ~H)) ^ ((x ^ ~y) & H)`: with the top bit of every minuend nibble set and
/// of every subtrahend nibble clear, no nibble borrows from its neighbour; the xor fixes the top
/// bits.
#[inline]
#[features(avx2)]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (x, y, h) = (load(a), load(b), _mm256_set1_epi64x(H));
    let low_diff = _mm256_sub_epi64(_mm256_or_si256(x, h), _mm256_andnot_si256(h, y));
    // (x ^ ~y) & H == ~(x ^ y) & H
    let top = _mm256_andnot_si256(_mm256_xor_si256(x, y), h);
    store(_mm256_xor_si256(low_diff, top))
}

/// `z = (x & y) + (((x ^ y) & ~L) >> 1)`, from `x + y = (x ^ y) + 2 (x & y)`: clearing the
/// lowest bit of each nibble before the shift keeps it from falling into the nibble below.
#[inline]
#[features(avx2)]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (x, y, l) = (load(a), load(b), _mm256_set1_epi64x(L));
    let half_diff = _mm256_srli_epi64::<1>(_mm256_andnot_si256(l, _mm256_xor_si256(x, y)));
    store(_mm256_add_epi64(_mm256_and_si256(x, y), half_diff))
}
// ANCHOR_END: nibble_arith

// ANCHOR: nibble_board
/// The mailbox packed two squares per byte: `vpmaddubsw` with byte weights (1, 16) adds each odd
/// square's code, times 16, to the even square before it; `vpackuswb` narrows the words back to
/// bytes (within 128-bit halves) and `vpermq` puts the halves in square order.
#[inline]
#[features(avx2)]
pub(super) fn to_nibble_board(quad: &Quad) -> NibbleBoard {
    let [low, high] = mailbox_halves(quad);
    let weights = _mm256_set1_epi16(0x1001); // bytes 1, 16
    let packed = _mm256_packus_epi16(
        _mm256_maddubs_epi16(low, weights),
        _mm256_maddubs_epi16(high, weights),
    );
    let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
    NibbleBoard(cast(ordered))
}

/// One plane from the nibble board: `vpmovmskb` collects bit `p` of the low nibbles (the even
/// squares) and of the high nibbles (the odd squares), 32 squares each, and `pdep` interleaves the
/// two halves back into square order.
#[inline]
#[features(avx2)]
fn plane_of_nibbles<const EVEN_SHIFT: i32, const ODD_SHIFT: i32>(board: __m256i) -> u64 {
    let even = _mm256_movemask_epi8(_mm256_slli_epi16::<EVEN_SHIFT>(board)) as u32;
    let odd = _mm256_movemask_epi8(_mm256_slli_epi16::<ODD_SHIFT>(board)) as u32;
    _pdep_u64(u64::from(even), 0x5555_5555_5555_5555)
        | _pdep_u64(u64::from(odd), 0xAAAA_AAAA_AAAA_AAAA)
}

#[inline]
#[features(avx2)]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    // SAFETY: `NibbleBoard` is 32 bytes aligned to 32: one aligned load reads exactly it.
    let nibbles = unsafe { _mm256_load_si256(board.0.as_ptr().cast()) };
    Quad::new(
        plane_of_nibbles::<7, 3>(nibbles),
        plane_of_nibbles::<6, 2>(nibbles),
        plane_of_nibbles::<5, 1>(nibbles),
        plane_of_nibbles::<4, 0>(nibbles),
    )
}
// ANCHOR_END: nibble_board
