//! Quad <-> mailbox as GFNI bit-matrix transposes.
//!
//! A quad and a mailbox hold the same 256 bits in two orders: plane `p`, rank `r`, file `f` is bit
//! `f` of byte `8p + r` in the quad and bit `p` of byte `8r + f` in the mailbox. For one rank, the
//! four plane bytes are the rows of a bit matrix (rows = planes, columns = files) and the eight
//! mailbox bytes are the rows of its transpose (rows = files, columns = planes). `vpermb` gathers
//! the matrices of all eight ranks into the eight 64-bit lanes of a register; one
//! `gf2p8affineqb` transposes them all. The same transposes serve `nibbles` (the nibble board) and
//! `hash` (Zobrist's codes).

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{bytes, load_quad_512, store_quad};
use crate::quad::Quad;
use crate::repr::Mailbox;

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
pub(super) fn transpose_lanes(rows: __m512i) -> __m512i {
    _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_set1_epi64(COLUMN_SELECTORS as i64), rows)
}

/// `vpermb` indices: in lane `r`, row `7 - p` is byte `r` of plane `p` (quad byte `8p + r`).
/// Rows 0..3 would be planes 4..7, which do not exist: the write mask `0xF0` of each lane zeroes
/// them, so the high nibble of every mailbox byte is 0.
const MAILBOX_ROWS: [u8; 64] = const_table!(|i| {
    let (rank, row) = (i / 8, i % 8);
    if row >= 4 {
        (8 * (7 - row) + rank) as u8
    } else {
        0
    }
});

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
const REVERSED_ROWS: [u8; 64] = const_table!(|i| {
    let byte = i % 16; // vpshufb indexes within its 16-byte block
    ((byte & 8) + 7 - (byte & 7)) as u8
});

/// `vpermb` indices gathering the planes: quad byte `8p + r` is byte `p` of lane `r`.
const PLANE_BYTES: [u8; 64] = const_table!(|i| {
    let (plane, rank) = (i / 8, i % 8);
    if i < 32 { (8 * rank + plane) as u8 } else { 0 }
});

/// Lane `r` holds the codes of rank `r`, file `f` in byte `7 - f`: its transpose has plane `p`'s
/// byte `r` in byte `p` (bits 4..7 of the codes land in bytes 4..7, which are dropped).
#[inline]
#[features(avx512)]
pub(super) fn planes_from_rows(rows: __m512i) -> Quad {
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::backend::{Backend, Scalar};
    use crate::conformance::SplitMix64;

    // The kernels' byte movements written out from Intel's pseudo-code, so that the tables are
    // checked on any CPU, AVX-512 or not.

    /// `vpermb` / `vpermi2b`: byte `i` = `table[index[i]]` (64 or 128 bytes of table).
    pub(in crate::backend::avx512) fn permute(index: &[u8; 64], table: &[u8]) -> [u8; 64] {
        index.map(|i| table[usize::from(i) % table.len()])
    }

    /// `vpshufb`: each 16-byte block indexes itself.
    fn shuffle_in_blocks(table: &[u8; 64], index: &[u8; 64]) -> [u8; 64] {
        std::array::from_fn(|i| table[i / 16 * 16 + usize::from(index[i] & 15)])
    }

    /// `gf2p8affineqb x, m` on one byte: bit `i` = parity(row `7 - i` of `m` & `x`).
    pub(in crate::backend::avx512) fn affine_byte(x: u8, matrix: u64) -> u8 {
        (0..8).fold(0, |acc, i| {
            let row = (matrix >> (8 * (7 - i))) as u8;
            acc | (((row & x).count_ones() & 1) as u8) << i
        })
    }

    /// `transpose_lanes`: the bytes `1 << j` times the matrix in each lane of `rows`.
    pub(in crate::backend::avx512) fn transpose(rows: &[u8; 64]) -> [u8; 64] {
        let lane = |l: usize| u64::from_le_bytes(rows[8 * l..8 * l + 8].try_into().unwrap());
        std::array::from_fn(|i| affine_byte((COLUMN_SELECTORS >> (8 * (i % 8))) as u8, lane(i / 8)))
    }

    pub(in crate::backend::avx512) fn quad_bytes(quad: &Quad) -> [u8; 64] {
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

    pub(in crate::backend::avx512) fn planes_from_rows_model(rows: &[u8; 64]) -> Quad {
        planes(&permute(&PLANE_BYTES, &transpose(rows)))
    }

    #[test]
    fn tables_transpose_planes_to_mailbox_and_back() {
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
        }
    }
}
