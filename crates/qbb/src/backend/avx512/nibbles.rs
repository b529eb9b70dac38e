//! Nibble boards: `vpternlogq` merges the masking steps of the SWAR nibble formulas, and the GFNI
//! transposes of `mailbox` turn the quad into a nibble board and back.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{A, B, C, bytes, load_quad_512};
use super::mailbox::{planes_from_rows, transpose_lanes};
use crate::quad::Quad;
use crate::repr::NibbleBoard;

// ANCHOR: nibble_arith
/// The high bit of every nibble.
const HIGH: i8 = 0x88u8 as i8;

/// A nibble board in one 256-bit register.
#[inline]
#[features(avx512)]
fn load(board: &NibbleBoard) -> __m256i {
    // SAFETY: a `NibbleBoard` is 32 bytes aligned to 32: one aligned load.
    unsafe { _mm256_load_si256(board.0.as_ptr().cast()) }
}

#[inline]
#[features(avx512)]
fn store(nibbles: __m256i) -> NibbleBoard {
    let mut out = NibbleBoard::default();
    // SAFETY: a `NibbleBoard` is 32 bytes aligned to 32: one aligned store.
    unsafe { _mm256_store_si256(out.0.as_mut_ptr().cast(), nibbles) };
    out
}

/// The Nibble article's SWAR add: add the low three bits of every nibble (no carry can leave a
/// nibble), then put the high bits back by xor, `sum ^ ((a ^ b) & H)` in one `vpternlogq`.
#[inline]
#[features(avx512)]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b, high) = (load(a), load(b), _mm256_set1_epi8(HIGH));
    let low_sum = _mm256_add_epi64(_mm256_andnot_si256(high, a), _mm256_andnot_si256(high, b));
    let high_bits = _mm256_ternarylogic_epi64::<{ (A ^ B) & C }>(a, b, high);
    store(_mm256_xor_si256(low_sum, high_bits))
}

/// The SWAR subtraction: set every minuend's high bit so that no borrow leaves a nibble, subtract
/// the low three bits, then fix the high bit by xor with `!(a ^ b) & H`.
#[inline]
#[features(avx512)]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b, high) = (load(a), load(b), _mm256_set1_epi8(HIGH));
    let difference = _mm256_sub_epi64(_mm256_or_si256(a, high), _mm256_andnot_si256(high, b));
    let high_bits = _mm256_ternarylogic_epi64::<{ !(A ^ B) & C }>(a, b, high);
    store(_mm256_xor_si256(difference, high_bits))
}

/// The average rounded down, `(a & b) + ((a ^ b) >> 1)`: the shift lets each nibble's low bit
/// fall into its neighbour's high bit, which the mask `0x77` clears; the sum is at most 15, so
/// no carry leaves a nibble.
#[inline]
#[features(avx512)]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b) = (load(a), load(b));
    let half_difference = _mm256_srli_epi64::<1>(_mm256_xor_si256(a, b));
    let halves = _mm256_and_si256(half_difference, _mm256_set1_epi8(0x77));
    store(_mm256_add_epi64(_mm256_and_si256(a, b), halves))
}
// ANCHOR_END: nibble_arith

// ANCHOR: nibble_board
/// `vpermi2b` indices over two sources, the planes and the planes shifted down one file (index
/// 64 and up): in lane `r`, row `7 - p` is byte `r` of plane `p` and row `3 - p` the same byte of
/// the shifted plane `p`, so that the transpose puts the code of file `f` in the low nibble of
/// byte `f` and the code of file `f + 1` in its high nibble.
const NIBBLE_ROWS: [u8; 64] = const_table!(|i| {
    let (rank, bit) = (i / 8, 7 - i % 8);
    let plane_byte = if bit < 4 { 8 * bit } else { 64 + 8 * (bit - 4) };
    (plane_byte + rank) as u8
});

/// The transpose makes 16-bit pairs of codes `(f, f + 1)` at every file; the even files' pairs
/// are the board's bytes, and `vpmovwb` keeps exactly the low (even) byte of every 16-bit word.
#[inline]
#[features(avx512)]
pub(super) fn to_nibble_board(quad: &Quad) -> NibbleBoard {
    let planes = load_quad_512(quad);
    let next_file = _mm512_srli_epi64::<1>(planes);
    let rows = _mm512_permutex2var_epi8(planes, bytes(&NIBBLE_ROWS), next_file);
    let pairs = transpose_lanes(rows);
    let mut out = NibbleBoard::default();
    // SAFETY: a `NibbleBoard` is 32 bytes aligned to 32: one aligned store.
    unsafe { _mm256_store_si256(out.0.as_mut_ptr().cast(), _mm512_cvtepi16_epi8(pairs)) };
    out
}

/// `vpermb` indices: lane `r`, row `7 - f` = the board byte of square `(r, f)`, byte `4r + f / 2`.
const NIBBLE_SPREAD: [u8; 64] = const_table!(|i| {
    let (rank, file) = (i / 8, 7 - i % 8);
    (4 * rank + file / 2) as u8
});

/// The rows of the odd files (rows 6, 4, 2, 0 of every lane), which hold their code in the high
/// nibble.
const ODD_FILE_ROWS: u64 = 0x5555_5555_5555_5555;

/// The bit matrix whose product moves bit `source[i]` of a byte to bit `i` (row `7 - i` selects it).
const fn bit_permutation(source: [u32; 8]) -> u64 {
    let mut matrix = 0;
    let mut i = 0;
    while i < 8 {
        matrix |= (1u64 << source[i]) << (8 * (7 - i));
        i += 1;
    }
    matrix
}

/// Swaps the nibbles of a byte.
const SWAP_NIBBLES: u64 = bit_permutation([4, 5, 6, 7, 0, 1, 2, 3]);

/// Spread the board's bytes to one row per square, swap the nibbles of the odd files' rows with
/// a masked `gf2p8affineqb` (a constant matrix this time: a bit permutation), and the rows are
/// the mailbox's: the same transpose then makes the planes.
#[inline]
#[features(avx512)]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    // SAFETY: a `NibbleBoard` is 32 bytes aligned to 32: one aligned load.
    let nibbles = unsafe { _mm256_load_si256(board.0.as_ptr().cast()) };
    let spread = _mm512_permutexvar_epi8(bytes(&NIBBLE_SPREAD), _mm512_zextsi256_si512(nibbles));
    let rows = _mm512_mask_gf2p8affine_epi64_epi8::<0>(
        spread,
        ODD_FILE_ROWS,
        spread,
        _mm512_set1_epi64(SWAP_NIBBLES as i64),
    );
    planes_from_rows(rows)
}
// ANCHOR_END: nibble_board

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::avx512::mailbox::tests::{
        affine_byte, permute, planes_from_rows_model, quad_bytes, transpose,
    };
    use crate::backend::{Backend, Scalar};
    use crate::conformance::SplitMix64;

    // The kernels' byte movements written out from Intel's pseudo-code (the models are
    // `mailbox`'s), so that the tables are checked on any CPU, AVX-512 or not.

    #[test]
    fn tables_transpose_planes_to_nibbles_and_back() {
        let mut rng = SplitMix64(0x6F6E_6521);
        for _ in 0..2000 {
            let quad = rng.quad();
            let shifted = Quad {
                bb: quad.bb.map(|bb| bb >> 1),
            };
            let both = [quad_bytes(&quad), quad_bytes(&shifted)].concat();
            let pairs = transpose(&permute(&NIBBLE_ROWS, &both));
            let even: Vec<u8> = pairs.iter().step_by(2).copied().collect();
            let board = Scalar.to_nibble_board(&quad);
            assert_eq!(even, board.0, "to_nibble_board of {quad:?}");

            let mut spread = permute(&NIBBLE_SPREAD, &[board.0, [0; 32]].concat());
            for (i, row) in spread.iter_mut().enumerate() {
                if ODD_FILE_ROWS >> i & 1 == 1 {
                    *row = affine_byte(*row, SWAP_NIBBLES);
                }
            }
            assert_eq!(planes_from_rows_model(&spread), quad, "from_nibble_board");
        }
    }

    #[test]
    fn swap_nibbles_matrix_swaps_nibbles() {
        for x in 0..=255u8 {
            assert_eq!(affine_byte(x, SWAP_NIBBLES), x.rotate_left(4), "{x:#04x}");
        }
    }
}
