//! Hashing from scratch: Manino's eight multiplications in one register, and Zobrist's keys
//! gathered for the occupied squares only.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{bytes, load_quad_512, qwords, xor_lanes};
use super::mailbox::mailbox_codes;
use crate::hash::{MANINO_A, MANINO_B, MANINO_C, ZOBRIST};
use crate::quad::Quad;

// ANCHOR: hash
/// `vpermd` indices, one per 64-bit lane in its low 32 bits (the high 32 bits index dword 0 and
/// are never read): lane `i < 4` takes the low half of plane `i` (dword `2i`), lane `i + 4` its
/// high half (dword `2i + 1`).
const HALVES: [u64; 8] = [0, 2, 4, 6, 1, 3, 5, 7];

/// The multiplier of each lane: `A[i]` for the low halves, `B[i]` for the high ones.
const MULTIPLIERS: [u64; 8] = const_table!(|i| if i < 4 { MANINO_A[i] } else { MANINO_B[i - 4] });

/// Their high 32 bits.
const MULTIPLIERS_HIGH: [u64; 8] = const_table!(|i| MULTIPLIERS[i] >> 32);

/// AVX-512F multiplies 32 by 32 bits (`vpmuludq`); a 32-bit half times a 64-bit multiplier, mod
/// 2^64, is `x * lo32(m) + (x * hi32(m) << 32)`. Eight such products, then their xor.
#[inline]
#[features(avx512)]
pub(super) fn hash_manino(quad: &Quad, state: u64) -> u64 {
    let halves = _mm512_permutexvar_epi32(qwords(&HALVES), load_quad_512(quad));
    let low = _mm512_mul_epu32(halves, qwords(&MULTIPLIERS));
    let high = _mm512_mul_epu32(halves, qwords(&MULTIPLIERS_HIGH));
    let products = _mm512_add_epi64(low, _mm512_slli_epi64::<32>(high));
    state.wrapping_mul(MANINO_C) ^ xor_lanes(products)
}

/// The number of keys of `ZOBRIST`, a power of two: 16 codes times 64 squares.
const ZOBRIST_KEYS: i64 = {
    assert!(size_of_val(&ZOBRIST) == 16 * 64 * 8);
    16 * 64
};

/// Byte `s` = `s`.
const SQUARE_NUMBERS: [u8; 64] = const_table!(|s| s as u8);

/// Empty squares add nothing (`ZOBRIST[0]` is zero), so only the occupied ones are looked up:
/// `vptestmb` marks the non-zero codes of the mailbox, `vpcompressb` packs their codes and
/// square numbers to the bottom of two registers, and each round gathers eight keys at
/// `code * 64 + square`. Lanes past the last occupied square were zero-filled by the compress:
/// code 0 on square 0, whose key is 0.
#[inline]
#[features(avx512)]
pub(super) fn hash_zobrist(quad: &Quad) -> u64 {
    let codes = mailbox_codes(quad);
    let occupied = _mm512_test_epi8_mask(codes, codes);
    let mut codes = _mm512_maskz_compress_epi8(occupied, codes);
    let mut squares = _mm512_maskz_compress_epi8(occupied, bytes(&SQUARE_NUMBERS));
    let mut keys = _mm512_setzero_si512();
    for _ in 0..occupied.count_ones().div_ceil(8) {
        let index = _mm512_or_si512(
            _mm512_slli_epi64::<6>(_mm512_cvtepu8_epi64(_mm512_castsi512_si128(codes))),
            _mm512_cvtepu8_epi64(_mm512_castsi512_si128(squares)),
        );
        // The codes are nibbles and the squares below 64, so this changes nothing; it makes the
        // gather's bound hold here, whatever the bytes: `(code & 15) * 64 + square`.
        let index = _mm512_and_si512(index, _mm512_set1_epi64(ZOBRIST_KEYS - 1));
        // SAFETY: every index is below `ZOBRIST_KEYS` (masked above), the 16 * 64 keys of
        // `ZOBRIST`.
        let gathered = unsafe { _mm512_i64gather_epi64::<8>(index, ZOBRIST.as_ptr().cast()) };
        keys = _mm512_xor_si512(keys, gathered);
        // The next eight codes and squares down to the bottom.
        codes = _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), codes);
        squares = _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), squares);
    }
    xor_lanes(keys)
}
// ANCHOR_END: hash
