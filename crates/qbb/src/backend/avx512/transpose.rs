//! Quad <-> mailbox and quad <-> nibble board as GFNI bit-matrix transposes.
//!
//! A quad and a mailbox hold the same 256 bits in two orders: plane `p`, rank `r`, file `f` is bit
//! `f` of byte `8p + r` in the quad and bit `p` of byte `8r + f` in the mailbox. For one rank, the
//! four plane bytes are the rows of a bit matrix (rows = planes, columns = files) and the eight
//! mailbox bytes are the rows of its transpose (rows = files, columns = planes). `vpermb` gathers
//! the matrices of all eight ranks into the eight 64-bit lanes of a register; one
//! `gf2p8affineqb` transposes them all.

use crate::backend::features;
use core::arch::x86_64::*;

use super::vector::{bytes, load_quad_512, store_quad};
use crate::quad::Quad;
use crate::repr::{Mailbox, NibbleBoard};

// ANCHOR: to_mailbox
/// Byte `j` = `1 << j`.
const COLUMN_SELECTORS: u64 = 0x8040_2010_0804_0201;

/// `gf2p8affineqb x, M` multiplies every byte `x` by the 8x8 bit matrix `M` held in the same
/// 64-bit lane: bit `i` of the product is the parity of `M.byte[7 - i] & x`. For `x = 1 << j`
/// that parity is one bit, bit `j` of row `7 - i`. So the eight products of the bytes
/// `1, 2, 4, .. 128` are the columns of `M`: byte `j` of the result holds column `j`, row `7 - i`
/// in bit `i`. A transpose, with the rows read in reverse order.
#[inline]
#[features(avx512)]
fn transpose_lanes(rows: __m512i) -> __m512i {
    _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(COLUMN_SELECTORS as i64), rows)
}

/// `vpermb` indices: in lane `r`, row `7 - p` is byte `r` of plane `p` (quad byte `8p + r`).
/// Rows 0..3 would be planes 4..7, which do not exist: the write mask `0xF0` of each lane zeroes
/// them, so the high nibble of every mailbox byte is 0.
const MAILBOX_ROWS: [u8; 64] = {
    let mut index = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (rank, row) = (i / 8, i % 8);
        if row >= 4 {
            index[i] = (8 * (7 - row) + rank) as u8;
        }
        i += 1;
    }
    index
};

/// Four plane bytes per rank, transposed into eight file bytes per rank: byte `f` of lane `r`
/// has plane `p`'s bit in bit `p`, because row `7 - p` is plane `p`.
#[inline]
#[features(avx512)]
pub(super) fn mailbox_codes(quad: &Quad) -> __m512i {
    let rows = _mm512_maskz_permutexvar_epi8(
        0xF0F0_F0F0_F0F0_F0F0,
        bytes(&MAILBOX_ROWS),
        load_quad_512(quad),
    );
    transpose_lanes(rows)
}

/// The mailbox, stored.
#[inline]
#[features(avx512)]
pub(super) fn to_mailbox(quad: &Quad) -> Mailbox {
    let mut out = Mailbox::default();
    // SAFETY: a `Mailbox` is 64 bytes aligned to 64: one aligned store.
    unsafe { _mm512_store_si512(out.0.as_mut_ptr().cast(), mailbox_codes(quad)) };
    out
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
/// `vpshufb` indices reversing the bytes of each 64-bit lane: file `f` becomes row `7 - f`.
const REVERSED_ROWS: [u8; 64] = {
    let mut index = [0; 64];
    let mut i = 0;
    while i < 64 {
        let byte = i % 16; // vpshufb indexes within its 16-byte block
        index[i] = ((byte & 8) + 7 - (byte & 7)) as u8;
        i += 1;
    }
    index
};

/// `vpermb` indices gathering the planes: quad byte `8p + r` is byte `p` of lane `r`.
const PLANE_BYTES: [u8; 64] = {
    let mut index = [0; 64];
    let mut i = 0;
    while i < 32 {
        let (plane, rank) = (i / 8, i % 8);
        index[i] = (8 * rank + plane) as u8;
        i += 1;
    }
    index
};

/// Lane `r` holds the codes of rank `r`, file `f` in byte `7 - f`: its transpose has plane `p`'s
/// byte `r` in byte `p` (bits 4..7 of the codes land in bytes 4..7, which are dropped).
#[inline]
#[features(avx512)]
fn planes_from_rows(rows: __m512i) -> Quad {
    let columns = transpose_lanes(rows);
    let planes = _mm512_permutexvar_epi8(bytes(&PLANE_BYTES), columns);
    store_quad(_mm512_castsi512_si256(planes))
}

/// The mailbox's rank lanes, bytes reversed so that the transpose reads files in order.
#[inline]
#[features(avx512)]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    // SAFETY: a `Mailbox` is 64 bytes aligned to 64: one aligned load.
    let codes = unsafe { _mm512_load_si512(mailbox.0.as_ptr().cast()) };
    planes_from_rows(_mm512_shuffle_epi8(codes, bytes(&REVERSED_ROWS)))
}
// ANCHOR_END: from_mailbox

// ANCHOR: nibble_board
/// `vpermi2b` indices over two sources, the planes and the planes shifted down one file (index
/// 64 and up): in lane `r`, row `7 - p` is byte `r` of plane `p` and row `3 - p` the same byte of
/// the shifted plane `p`, so that the transpose puts the code of file `f` in the low nibble of
/// byte `f` and the code of file `f + 1` in its high nibble.
const NIBBLE_ROWS: [u8; 64] = {
    let mut index = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (rank, bit) = (i / 8, 7 - i % 8);
        index[i] = if bit < 4 {
            8 * bit + rank
        } else {
            64 + 8 * (bit - 4) + rank
        } as u8;
        i += 1;
    }
    index
};

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
const NIBBLE_SPREAD: [u8; 64] = {
    let mut index = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (rank, file) = (i / 8, 7 - i % 8);
        index[i] = (4 * rank + file / 2) as u8;
        i += 1;
    }
    index
};

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
    use crate::backend::{Backend, Scalar};
    use crate::conformance::SplitMix64;

    // The kernels' byte movements written out from Intel's pseudo-code, so that the tables are
    // checked on any CPU, AVX-512 or not.

    /// `vpermb` / `vpermi2b`: byte `i` = `table[index[i]]` (64 or 128 bytes of table).
    fn permute(index: &[u8; 64], table: &[u8]) -> [u8; 64] {
        index.map(|i| table[usize::from(i) % table.len()])
    }

    /// `vpshufb`: each 16-byte block indexes itself.
    fn shuffle_in_blocks(table: &[u8; 64], index: &[u8; 64]) -> [u8; 64] {
        std::array::from_fn(|i| table[i / 16 * 16 + usize::from(index[i] & 15)])
    }

    /// `gf2p8affineqb x, m` on one byte: bit `i` = parity(row `7 - i` of `m` & `x`).
    fn affine_byte(x: u8, matrix: u64) -> u8 {
        (0..8).fold(0, |acc, i| {
            let row = (matrix >> (8 * (7 - i))) as u8;
            acc | (((row & x).count_ones() & 1) as u8) << i
        })
    }

    /// `transpose_lanes`: the bytes `1 << j` times the matrix in each lane of `rows`.
    fn transpose(rows: &[u8; 64]) -> [u8; 64] {
        let lane = |l: usize| u64::from_le_bytes(rows[8 * l..8 * l + 8].try_into().unwrap());
        std::array::from_fn(|i| affine_byte((COLUMN_SELECTORS >> (8 * (i % 8))) as u8, lane(i / 8)))
    }

    fn quad_bytes(quad: &Quad) -> [u8; 64] {
        let mut out = [0; 64];
        for (p, plane) in quad.bb.iter().enumerate() {
            out[8 * p..8 * p + 8].copy_from_slice(&plane.to_le_bytes());
        }
        out
    }

    fn planes(bytes: &[u8; 64]) -> Quad {
        Quad {
            bb: std::array::from_fn(|p| {
                u64::from_le_bytes(bytes[8 * p..8 * p + 8].try_into().unwrap())
            }),
        }
    }

    fn planes_from_rows_model(rows: &[u8; 64]) -> Quad {
        planes(&permute(&PLANE_BYTES, &transpose(rows)))
    }

    #[test]
    fn tables_transpose_planes_to_mailbox_and_nibbles_and_back() {
        let mut rng = SplitMix64(0x6F6E_6521);
        for _ in 0..2000 {
            let quad = rng.quad();
            let mut rows = permute(&MAILBOX_ROWS, &quad_bytes(&quad));
            for (i, row) in rows.iter_mut().enumerate() {
                if i % 8 < 4 {
                    *row = 0; // the write mask 0xF0 of each lane
                }
            }
            let mailbox = Scalar.to_mailbox(&quad);
            assert_eq!(transpose(&rows), mailbox.0, "to_mailbox of {quad:?}");

            let reversed = shuffle_in_blocks(&mailbox.0, &REVERSED_ROWS);
            assert_eq!(planes_from_rows_model(&reversed), quad, "from_mailbox");

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
