//! The quad as bytes: the mailbox, one byte per square. Spreading bits into bytes is `vpshufb` +
//! `vpcmpeqb`; gathering them back is `vpmovmskb`, which reads the sign bit of each of 32 bytes at
//! once.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, from_bytes, load, splat8};
use crate::quad::Quad;
use crate::repr::Mailbox;

/// A `vpshufb` control that is the same in both 128-bit halves.
const fn both_halves(half: [u8; 16]) -> [u8; 32] {
    const_table!(|i| half[i % 16])
}

/// In each 128-bit half (two planes), plane bytes {0, 1, 4, 5} to the first 8 bytes and {2, 3, 6,
/// 7} to the last 8.
const GROUP_BYTES: [u8; 32] = both_halves([0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15]);

/// The bit of each byte's square within its plane byte: `1 << (square % 8)`.
const FILE_BITS: [u8; 32] = both_halves([1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128]);

/// Replicates byte `i` eight times and byte `i + 1` eight times, in both halves.
const fn spread(i: u8) -> [u8; 32] {
    let i1 = i + 1;
    both_halves([i, i, i, i, i, i, i, i, i1, i1, i1, i1, i1, i1, i1, i1])
}

// ANCHOR: to_mailbox
/// The mailbox as two registers, squares 0..31 and 32..63.
///
/// Square `s` needs bit `s % 8` of byte `s / 8` of every plane. `vpshufb` moves bytes only inside
/// a 128-bit half, so one shuffle and one `vpermq` first arrange the quad so that the low half
/// holds plane bytes {0, 1, 4, 5} of all four planes and the high half bytes {2, 3, 6, 7}: exactly
/// what the low halves (squares 0..15, 32..47) and the high halves (16..31, 48..63) of the two
/// outputs need. Then, per output and plane, `vpshufb` copies each plane byte to its eight squares,
/// `vpand` + `vpcmpeqb` against the file bits turn each square's bit into a 0x00 / 0xFF byte, and
/// the plane's bit value is kept from it.
///
/// The BMI2 alternative, `pdep` of each plane's 16-bit slices into nibble lanes (16 `pdep`) and
/// then nibbles to bytes, took 6.0 ns against 4.3 ns for this (AMD EPYC, Zen 3; a quick timing
/// loop over 256 suite positions).
#[inline]
#[features(avx2)]
pub(super) fn mailbox_halves(quad: &Quad) -> [__m256i; 2] {
    let grouped = _mm256_shuffle_epi8(load(quad), from_bytes(GROUP_BYTES));
    let arranged = _mm256_permute4x64_epi64::<0b11_01_10_00>(grouped);
    let file_bits = from_bytes(FILE_BITS);
    let half = |h: u8| {
        let mut squares = _mm256_setzero_si256();
        for p in 0..4u8 {
            // The arranged half holds plane p's two bytes for this output at 4p + 2h, 4p + 2h + 1.
            let plane_bytes = _mm256_shuffle_epi8(arranged, from_bytes(spread(4 * p + 2 * h)));
            let on = _mm256_cmpeq_epi8(_mm256_and_si256(plane_bytes, file_bits), file_bits);
            squares = _mm256_or_si256(squares, _mm256_and_si256(on, splat8(1 << p)));
        }
        squares
    };
    [half(0), half(1)]
}

#[inline]
#[features(avx2)]
pub(super) fn to_mailbox(quad: &Quad) -> Mailbox {
    Mailbox(cast(mailbox_halves(quad)))
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
/// One plane of 64 bytes: shift bit `7 - SHIFT` of every byte into its sign bit and let
/// `vpmovmskb` collect 32 signs per register. (`vpsllw` shifts 16-bit words, but the bits that
/// cross from a low byte into its high byte never reach the high byte's sign bit.)
#[inline]
#[features(avx2)]
fn plane_of_bytes<const SHIFT: i32>(low: __m256i, high: __m256i) -> u64 {
    let signs = |v: __m256i| _mm256_movemask_epi8(_mm256_slli_epi16::<SHIFT>(v)) as u32;
    u64::from(signs(low)) | u64::from(signs(high)) << 32
}

/// The inverse of `to_mailbox` by `vpmovmskb`: four shifts and two movemasks per plane; only the
/// low nibble of each byte is read.
#[inline]
#[features(avx2)]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    // SAFETY: `Mailbox` is 64 bytes aligned to 64: two aligned 256-bit loads read exactly it.
    let (low, high) = unsafe {
        let p = mailbox.0.as_ptr().cast::<__m256i>();
        (_mm256_load_si256(p), _mm256_load_si256(p.add(1)))
    };
    Quad::new(
        plane_of_bytes::<7>(low, high),
        plane_of_bytes::<6>(low, high),
        plane_of_bytes::<5>(low, high),
        plane_of_bytes::<4>(low, high),
    )
}
// ANCHOR_END: from_mailbox
