//! Nibble arithmetic: sixteen 4-bit lanes per 64-bit word.

// ANCHOR: nibble_arith
/// The top bit of every nibble (the Nibble article's `H`) and the bottom bit (`L`).
const H: u64 = 0x8888_8888_8888_8888;
const L: u64 = 0x1111_1111_1111_1111;

/// Adds the low three bits of the lanes, where a carry stops at the lane's top bit, then sets the
/// top bit by xor (addition mod 2), so no carry crosses into the next lane.
#[inline(always)]
const fn add(x: u64, y: u64) -> u64 {
    ((x & !H).wrapping_add(y & !H)) ^ ((x ^ y) & H)
}

/// With the top bits of `x` set and those of `y` clear, no lane borrows from its neighbour; the
/// xor then puts the true top bit back.
#[inline(always)]
const fn sub(x: u64, y: u64) -> u64 {
    ((x | H).wrapping_sub(y & !H)) ^ ((x ^ !y) & H)
}

/// `x + y = 2 * (x & y) + (x ^ y)`, so the average is `(x & y) + (x ^ y) / 2`; clearing each
/// lane's bottom bit first keeps the halving inside the lane.
#[inline(always)]
const fn avg(x: u64, y: u64) -> u64 {
    (x & y) + (((x ^ y) & !L) >> 1)
}

/// Applies a lane-wise operation to the four words of two nibble boards.
#[inline(always)]
fn words(a: [u64; 4], b: [u64; 4], op: impl Fn(u64, u64) -> u64) -> [u64; 4] {
    std::array::from_fn(|i| op(a[i], b[i]))
}

#[inline]
pub fn nibble_add(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    words(a, b, add)
}

#[inline]
pub fn nibble_sub(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    words(a, b, sub)
}

#[inline]
pub fn nibble_avg(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    words(a, b, avg)
}
// ANCHOR_END: nibble_arith
