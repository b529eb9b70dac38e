//! Quad <-> mailbox and quad <-> nibble board as bit transposes.
//!
//! Number the 256 bits of a quad by plane `p` (which word) and square `r f` (rank and file, the
//! six bits of the index inside the word). The mailbox numbers the same bits by rank (which 64-bit
//! word of the 64 bytes), file (which byte) and plane (which bit of the byte): converting is only a
//! permutation of the *address bits* `p1 p0 r2 r1 r0 f2 f1 f0`. Every such permutation is a few
//! exchanges of two address bits, and each exchange is one delta swap: a mask picks the bits whose
//! address has the first bit set and the second clear, a shift moves them onto their partners.
//! No bit is looked at alone: each step moves between 8 and 32 bits at once.

// ANCHOR: to_mailbox
/// Exchanges each bit selected by `mask` with the bit `shift` places above it.
#[inline(always)]
const fn delta_swap(x: u64, mask: u64, shift: u32) -> u64 {
    let t = (x ^ (x >> shift)) & mask;
    x ^ t ^ (t << shift)
}

/// The bits whose index has bit `bit` equal to `value` (0 or 1).
const fn index_bit_is(bit: u32, value: u64) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < 64 {
        if (i >> bit) & 1 == value {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// The lower partners of an exchange of index bits `a < b`: index bit `a` set, bit `b` clear.
const fn index_swap_mask(a: u32, b: u32) -> u64 {
    index_bit_is(a, 1) & index_bit_is(b, 0)
}

/// Moves the bit at index `i` to the index with bits `a` and `b` of `i` exchanged (`a < b`).
#[inline(always)]
const fn swap_index_bits<const A: u32, const B: u32>(x: u64) -> u64 {
    delta_swap(x, const { index_swap_mask(A, B) }, (1 << B) - (1 << A))
}

/// Exchanges index bit `a` inside the words with the bit of the *word* index that tells `lo` from
/// `hi`: the bits of `lo` whose index has bit `a` set trade places with the bits of `hi` whose
/// index has it clear.
#[inline(always)]
fn swap_across<const A: u32>(lo: &mut u64, hi: &mut u64) {
    let clear = const { index_bit_is(A, 0) };
    let t = ((*lo >> (1 << A)) ^ *hi) & clear;
    *hi ^= t;
    *lo ^= t << (1 << A);
}

/// The 8x8 bit-matrix transpose of one plane (rank and file of every bit exchanged: a1-h8
/// diagonal flip), three delta swaps of the index bits `r_k <-> f_k`.
#[inline(always)]
const fn transpose8(x: u64) -> u64 {
    let x = swap_index_bits::<0, 3>(x);
    let x = swap_index_bits::<1, 4>(x);
    swap_index_bits::<2, 5>(x)
}

/// The plane bits `p1 p0` of four words trade places with index bits 1 and 0 of the words.
#[inline(always)]
fn swap_planes_with_low_index(w: &mut [u64; 4]) {
    let [w0, w1, w2, w3] = w;
    swap_across::<0>(w0, w1);
    swap_across::<0>(w2, w3);
    swap_across::<1>(w0, w2);
    swap_across::<1>(w1, w3);
}

const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;

/// Address `p | r f` becomes `r | f 0 p`: rank = word, file = byte, plane = bit of the byte.
///
/// First each plane is transposed (`p | f r`), then the planes trade places with `r1 r0`
/// (`r1 r0 | f r2 p`), last `r2` moves out into the word index (four new words, each byte's high
/// nibble left zero).
#[inline]
pub fn to_mailbox(planes: &[u64; 4]) -> [u64; 8] {
    let mut w = planes.map(transpose8);
    swap_planes_with_low_index(&mut w);
    std::array::from_fn(|r| (w[r & 3] >> (4 * (r >> 2))) & LOW_NIBBLES)
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
/// The three steps of [`to_mailbox`] backwards; masking the nibbles first drops the bytes' high
/// bits, which the mailbox may hold but which are no part of the code.
#[inline]
pub fn from_mailbox(ranks: &[u64; 8]) -> [u64; 4] {
    let mut w: [u64; 4] =
        std::array::from_fn(|i| (ranks[i] & LOW_NIBBLES) | (ranks[i + 4] & LOW_NIBBLES) << 4);
    swap_planes_with_low_index(&mut w);
    w.map(transpose8)
}
// ANCHOR_END: from_mailbox

// ANCHOR: nibble_board
/// Address `p | r2 r1 r0 f` becomes `r2 r1 | r0 f p` (word = pair of ranks, nibble = square).
///
/// First each plane's index is rotated by two (`r0 f r2 r1`: four exchanges of index bits), then
/// the planes trade places with the two bits that came down (`r2 r1 | r0 f p`).
#[inline]
pub fn to_nibble_words(planes: &[u64; 4]) -> [u64; 4] {
    let mut w = planes.map(|x| {
        let x = swap_index_bits::<0, 4>(x);
        let x = swap_index_bits::<2, 4>(x); // 0 <- 4 <- 2 <- 0
        let x = swap_index_bits::<1, 5>(x);
        swap_index_bits::<3, 5>(x) // 1 <- 5 <- 3 <- 1
    });
    swap_planes_with_low_index(&mut w);
    w
}

/// [`to_nibble_words`] backwards: every exchange undoes itself, taken in reverse order.
#[inline]
pub fn from_nibble_words(words: &[u64; 4]) -> [u64; 4] {
    let mut w = *words;
    swap_planes_with_low_index(&mut w);
    w.map(|x| {
        let x = swap_index_bits::<3, 5>(x);
        let x = swap_index_bits::<1, 5>(x);
        let x = swap_index_bits::<2, 4>(x);
        swap_index_bits::<0, 4>(x)
    })
}
// ANCHOR_END: nibble_board

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_swap_masks_are_the_classic_transpose_masks() {
        assert_eq!(index_swap_mask(0, 3), 0x00AA_00AA_00AA_00AA);
        assert_eq!(index_swap_mask(1, 4), 0x0000_CCCC_0000_CCCC);
        assert_eq!(index_swap_mask(2, 5), 0x0000_0000_F0F0_F0F0);
        assert_eq!(index_bit_is(0, 0), 0x5555_5555_5555_5555);
        assert_eq!(index_bit_is(2, 0), 0x0F0F_0F0F_0F0F_0F0F);
    }

    #[test]
    fn transpose8_flips_about_the_long_diagonal() {
        for s in 0..64 {
            let (r, f) = (s / 8, s % 8);
            assert_eq!(transpose8(1 << s), 1 << (8 * f + r), "square {s}");
        }
    }
}
