//! Quad <-> mailbox (the article's `quadBB2Board`, and `pmovmskb` back) and quad <-> nibble board.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, load, pair};
use crate::quad::Quad;
use crate::repr::{Mailbox, NibbleBoard};

// ANCHOR: to_mailbox
/// The article's `quadBB2Board`, returning the four registers of the board (ranks 1-2, 3-4, 5-6,
/// 7-8).
///
/// Register `b[k]` collects files `2k` (lane 0) and `2k + 1` (lane 1) of every rank, one byte per
/// rank: each plane, broadcast to both lanes, is masked to those files and shifted so that plane
/// `p` lands on bit `p` of the byte (bit `p + 1` in lane 1). Then the "rotation" interleaves the
/// bytes (`punpcklbw`, `punpcklwd`, `punpckldq`) into board order, one byte per square.
#[inline]
#[features(sse2)]
pub(super) fn quad_to_board(quad: &Quad) -> [__m128i; 4] {
    let m0 = pair(0x0101_0101_0101_0101, 0x0202_0202_0202_0202); // files a, b
    let m1 = pair(0x0404_0404_0404_0404, 0x0808_0808_0808_0808); // files c, d
    let m2 = pair(0x1010_1010_1010_1010, 0x2020_2020_2020_2020); // files e, f
    let m3 = pair(0x4040_4040_4040_4040, 0x8080_8080_8080_8080); // files g, h
    let and = _mm_and_si128;
    let or = _mm_or_si128;
    let [q01, q23] = load(quad);
    // 1. plane 0 -> bit 0
    let t = _mm_unpacklo_epi64(q01, q01);
    let mut b0 = and(t, m0);
    let mut b1 = _mm_srli_epi64::<2>(and(t, m1));
    let mut b2 = _mm_srli_epi64::<4>(and(t, m2));
    let mut b3 = _mm_srli_epi64::<6>(and(t, m3));
    // 2. plane 1 -> bit 1
    let t = _mm_unpackhi_epi64(q01, q01);
    b0 = or(b0, _mm_slli_epi64::<1>(and(t, m0)));
    b1 = or(b1, _mm_srli_epi64::<1>(and(t, m1)));
    b2 = or(b2, _mm_srli_epi64::<3>(and(t, m2)));
    b3 = or(b3, _mm_srli_epi64::<5>(and(t, m3)));
    // 3. plane 2 -> bit 2
    let t = _mm_unpacklo_epi64(q23, q23);
    b0 = or(b0, _mm_slli_epi64::<2>(and(t, m0)));
    b1 = or(b1, and(t, m1));
    b2 = or(b2, _mm_srli_epi64::<2>(and(t, m2)));
    b3 = or(b3, _mm_srli_epi64::<4>(and(t, m3)));
    // 4. plane 3 -> bit 3
    let t = _mm_unpackhi_epi64(q23, q23);
    b0 = or(b0, _mm_slli_epi64::<3>(and(t, m0)));
    b1 = or(b1, _mm_slli_epi64::<1>(and(t, m1)));
    b2 = or(b2, _mm_srli_epi64::<1>(and(t, m2)));
    b3 = or(b3, _mm_srli_epi64::<3>(and(t, m3)));
    // rotate 8*8 bytes: lane 1 down by one bit, then interleave files, pairs and quads of files
    let files = |b: __m128i| _mm_unpacklo_epi8(b, _mm_srli_epi64::<1>(_mm_unpackhi_epi64(b, b)));
    let (b0, b1, b2, b3) = (files(b0), files(b1), files(b2), files(b3));
    let t0 = _mm_unpacklo_epi16(b0, b1);
    let t1 = _mm_unpackhi_epi16(b0, b1);
    let t2 = _mm_unpacklo_epi16(b2, b3);
    let t3 = _mm_unpackhi_epi16(b2, b3);
    [
        _mm_unpacklo_epi32(t0, t2),
        _mm_unpackhi_epi32(t0, t2),
        _mm_unpacklo_epi32(t1, t3),
        _mm_unpackhi_epi32(t1, t3),
    ]
}

#[inline]
#[features(sse2)]
pub(super) fn to_mailbox(quad: &Quad) -> Mailbox {
    Mailbox(cast(quad_to_board(quad)))
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
/// One plane from the board: a shift left by `7 - p` puts bit `p` of every byte on the byte's top
/// bit (what moves in from the byte below stays under it), and `pmovmskb` gathers the sixteen top
/// bits of a register, two ranks at a time.
#[inline]
#[features(sse2)]
fn plane<const SHIFT: i32>(board: &[__m128i; 4]) -> u64 {
    let ranks = |x: __m128i| _mm_movemask_epi8(_mm_slli_epi64::<SHIFT>(x)) as u16 as u64;
    ranks(board[0]) | ranks(board[1]) << 16 | ranks(board[2]) << 32 | ranks(board[3]) << 48
}

/// Only bits 0..=3 of each byte are read, so the high nibble may hold anything.
#[inline]
#[features(sse2)]
pub(super) fn board_to_quad(board: &[__m128i; 4]) -> Quad {
    Quad::new(
        plane::<7>(board),
        plane::<6>(board),
        plane::<5>(board),
        plane::<4>(board),
    )
}

#[inline]
#[features(sse2)]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    board_to_quad(&cast(mailbox.0))
}
// ANCHOR_END: from_mailbox

// ANCHOR: nibble_board
/// The board's bytes merged in pairs: `pmaddubsw` (SSSE3) multiplies the bytes by `[1, 16]` and
/// adds each pair, `low + 16 * high`, which is the nibble pair itself (at most 255), and
/// `packuswb` packs the 16-bit results back into bytes.
#[inline]
#[features(sse2)]
pub(super) fn to_nibble_board(quad: &Quad) -> NibbleBoard {
    let board = quad_to_board(quad);
    let weights = _mm_set1_epi16(0x1001); // bytes [1, 16]
    let pairs = board.map(|x| _mm_maddubs_epi16(x, weights));
    NibbleBoard(cast([
        _mm_packus_epi16(pairs[0], pairs[1]),
        _mm_packus_epi16(pairs[2], pairs[3]),
    ]))
}

/// Low nibbles as they are (their high nibble is never read), high nibbles shifted down within
/// 16-bit lanes, and the two interleaved into one byte per square (`punpcklbw`/`punpckhbw`).
#[inline]
#[features(sse2)]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    let [lo, hi]: [__m128i; 2] = cast(board.0);
    let (lo_high, hi_high) = (_mm_srli_epi16::<4>(lo), _mm_srli_epi16::<4>(hi));
    board_to_quad(&[
        _mm_unpacklo_epi8(lo, lo_high),
        _mm_unpackhi_epi8(lo, lo_high),
        _mm_unpacklo_epi8(hi, hi_high),
        _mm_unpackhi_epi8(hi, hi_high),
    ])
}
// ANCHOR_END: nibble_board
