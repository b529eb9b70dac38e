//! Counting: population counts of eight sets, weighted and summed.

// ANCHOR: weighted_popcount
#[inline]
pub(super) fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
    sets.iter()
        .zip(weights)
        .map(|(&bb, &w)| bb.count_ones() as i32 * i32::from(w))
        .sum()
}
// ANCHOR_END: weighted_popcount
