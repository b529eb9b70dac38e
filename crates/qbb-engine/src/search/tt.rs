//! The transposition table: what the search already knows about a position, found by its hash.
//!
//! The table is an array of buckets, one cache line each, holding four entries. A position's hash
//! picks the bucket (a multiply-high, so any number of buckets works and the Hash option can be
//! any size in MiB: the bucket index comes from the hash's high bits); the entry keeps the hash's
//! low 32 bits, which the bucket index does not depend on, to tell positions apart inside the
//! bucket. When the bucket is full, the entry that is worth least is replaced: one from an older
//! search first, then the shallowest.
//!
//! All the search threads share one table and write it without locks. An entry is two 64-bit
//! words, each read and written whole (atomically): the data (move, score, depth, bound,
//! generation) and the key, the check bits xor the data. A reader takes the entry only if key xor
//! data gives back its check bits and nothing above them, so an entry half written by one thread
//! and half by another (a torn entry) reads as some other position's, and is not used.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::board::Move;
use crate::eval::score::{self, Score};

/// What a stored score says about the true value of the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the value (a principal-variation node).
    Exact,
    /// The value is at least the score (a move failed high).
    Lower,
    /// The value is at most the score (no move reached alpha).
    Upper,
}

/// One remembered position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found (or the one that failed high); may be `Move::NULL`.
    pub best_move: Move,
    /// The score, already adjusted back to the probing node's distance from the root.
    pub score: Score,
    /// The depth (in plies) of the search that produced the score.
    pub depth: u8,
    pub bound: Bound,
}

/// An entry as the table keeps it, unpacked.
#[derive(Copy, Clone, Debug)]
struct Slot {
    /// The low half of the hash (`check_of`); the high bits chose the bucket.
    check: u32,
    best_move: Move,
    score: i16,
    depth: u8,
    /// `None` = empty slot.
    bound: Option<Bound>,
    generation: u8,
}

/// Where each field of a slot sits in its data word: the move's 24 bits, then the score, the
/// depth, the bound (0 for an empty slot) and the generation.
const SCORE_SHIFT: u32 = 24;
const DEPTH_SHIFT: u32 = 40;
const BOUND_SHIFT: u32 = 48;
const GENERATION_SHIFT: u32 = 56;

impl Slot {
    /// The data word: every field but the check bits.
    fn data(&self) -> u64 {
        let bound = match self.bound {
            None => 0,
            Some(Bound::Exact) => 1,
            Some(Bound::Lower) => 2,
            Some(Bound::Upper) => 3,
        };
        u64::from(self.best_move.to_bits())
            | u64::from(self.score as u16) << SCORE_SHIFT
            | u64::from(self.depth) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | u64::from(self.generation) << GENERATION_SHIFT
    }

    /// The slot two words hold, or an empty one when they do not belong together (a torn
    /// entry: key xor data has bits above the check bits).
    fn unpack(key: u64, data: u64) -> Slot {
        let check = key ^ data;
        let bound = match (check >> 32, data >> BOUND_SHIFT & 3) {
            (0, 1) => Some(Bound::Exact),
            (0, 2) => Some(Bound::Lower),
            (0, 3) => Some(Bound::Upper),
            _ => None,
        };
        Slot {
            check: check as u32,
            best_move: Move::from_bits(data as u32 & 0xff_ffff),
            score: (data >> SCORE_SHIFT) as u16 as i16,
            depth: (data >> DEPTH_SHIFT) as u8,
            bound,
            generation: (data >> GENERATION_SHIFT) as u8,
        }
    }
}

/// A slot as two words that threads read and write whole: `key` is the check bits xor `data`.
#[derive(Debug, Default)]
struct SharedSlot {
    key: AtomicU64,
    data: AtomicU64,
}

impl SharedSlot {
    #[inline]
    fn load(&self) -> Slot {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key.load(Ordering::Relaxed);
        Slot::unpack(key, data)
    }

    #[inline]
    fn save(&self, slot: &Slot) {
        let data = slot.data();
        self.data.store(data, Ordering::Relaxed);
        self.key
            .store(u64::from(slot.check) ^ data, Ordering::Relaxed);
    }
}

const BUCKET_SLOTS: usize = 4;

#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([SharedSlot; BUCKET_SLOTS]);

/// The Hash option's range, in MiB.
pub const MIN_HASH_MB: usize = 1;
pub const MAX_HASH_MB: usize = 4096;
pub const DEFAULT_HASH_MB: usize = 16;

/// A fixed-size table of search results, sized in MiB, shared by the search threads.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Bumped at every new search, so that entries of earlier searches are replaced first.
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `megabytes` MiB (clamped to the Hash option's range), all empty.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, TryReserveError> {
        let megabytes = megabytes.clamp(MIN_HASH_MB, MAX_HASH_MB);
        let count = (megabytes << 20) / size_of::<Bucket>();
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count)?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// The table's size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * size_of::<Bucket>()) >> 20
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|b| b.0.iter()) {
            slot.key.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: what is stored from now on outranks older entries.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket_index(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The bits an entry keeps of its hash: the low 32.
    #[inline]
    fn check_of(hash: u64) -> u32 {
        hash as u32
    }

    /// The entry for the position with this hash, if stored; `ply` is the probing node's
    /// distance from the root (mate scores are stored relative to the node).
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Entry> {
        let check = Self::check_of(hash);
        let bucket = &self.buckets[self.bucket_index(hash)];
        bucket.0.iter().find_map(|shared| {
            let slot = shared.load();
            let bound = slot.bound?;
            (slot.check == check).then(|| Entry {
                best_move: slot.best_move,
                score: score::from_table(Score::from(slot.score), ply),
                depth: slot.depth,
                bound,
            })
        })
    }

    /// Asks the CPU to bring the bucket of this hash into its cache, where the probe that follows
    /// soon after will find it: the table is far larger than the caches, so a probe is otherwise
    /// a wait on memory. Only a hint; nothing else happens.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        let bucket: *const Bucket = &self.buckets[self.bucket_index(hash)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing into the program and cannot fault at any address;
        // this one names a bucket of the table. SSE is part of every x86-64 CPU.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
        }
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, PRFM is a hint that cannot fault; it touches no register but its
        // address operand, and neither the stack nor the flags.
        unsafe {
            std::arch::asm!(
                "prfm pldl1keep, [{bucket}]",
                bucket = in(reg) bucket,
                options(nostack, readonly, preserves_flags),
            );
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let _ = bucket;
    }

    /// Stores a search result for the position with this hash, found `ply` plies from the root.
    #[inline]
    pub fn store(&self, hash: u64, ply: usize, entry: Entry) {
        let check = Self::check_of(hash);
        let generation = self.generation.load(Ordering::Relaxed);
        let shared = &self.buckets[self.bucket_index(hash)].0;
        let bucket: [Slot; BUCKET_SLOTS] = std::array::from_fn(|i| shared[i].load());
        let victim = match bucket
            .iter()
            .position(|s| s.bound.is_some() && s.check == check)
        {
            Some(same) => same,
            None => (0..BUCKET_SLOTS)
                .min_by_key(|&i| replacement_worth(&bucket[i], generation))
                .unwrap_or(0),
        };
        let slot = &bucket[victim];
        // Keep a deeper result of the same position unless the new one is exact: a shallow
        // re-search must not erase what a deep one learned. Keep its move when the new result
        // has none.
        let same_position = slot.bound.is_some() && slot.check == check;
        if same_position
            && slot.generation == generation
            && entry.bound != Bound::Exact
            && usize::from(slot.depth) > usize::from(entry.depth) + 2
        {
            return;
        }
        let best_move = if entry.best_move == Move::NULL && same_position {
            slot.best_move
        } else {
            entry.best_move
        };
        shared[victim].save(&Slot {
            check,
            best_move,
            score: score::to_table(entry.score, ply) as i16,
            depth: entry.depth,
            bound: Some(entry.bound),
            generation,
        });
    }

    /// How full the table is, in permille, sampled over the first thousand slots: the UCI
    /// `hashfull` figure (entries of the current search only).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| b.0.iter())
            .take(1000)
            .map(SharedSlot::load)
            .filter(|s| s.bound.is_some() && s.generation == generation)
            .count();
        used as u32
    }
}

/// How much a slot is worth keeping: empty slots first, then entries of older searches, then
/// the shallowest.
fn replacement_worth(slot: &Slot, generation: u8) -> i32 {
    match slot.bound {
        None => i32::MIN,
        Some(_) => {
            let age = i32::from(generation.wrapping_sub(slot.generation));
            i32::from(slot.depth) - 8 * age
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: Score, depth: u8, bound: Bound) -> Entry {
        Entry {
            best_move: Move::NULL,
            score,
            depth,
            bound,
        }
    }

    #[test]
    fn stores_and_finds_by_hash() {
        let tt = TranspositionTable::new(1).unwrap();
        let hash = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(hash, 0), None);
        tt.store(hash, 0, entry(57, 6, Bound::Lower));
        assert_eq!(tt.probe(hash, 0), Some(entry(57, 6, Bound::Lower)));
        // Same bucket, other check bits: a different position.
        assert_eq!(tt.probe(hash ^ 1, 0), None);
        assert_eq!(
            TranspositionTable::check_of(hash),
            0x9abc_def0,
            "the low 32 bits"
        );
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1).unwrap();
        // Found at ply 3: mate in 5 plies from the root = mate in 2 plies from the node.
        tt.store(7, 3, entry(score::mate_in(5), 10, Bound::Exact));
        // Probed from ply 7 through another path: mate in 2 plies from the node = 9 from root.
        assert_eq!(tt.probe(7, 7).unwrap().score, score::mate_in(9));
        tt.store(8, 4, entry(score::mated_in(6), 10, Bound::Exact));
        assert_eq!(tt.probe(8, 2).unwrap().score, score::mated_in(4));
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_entry_of_an_old_search() {
        let tt = TranspositionTable::new(1).unwrap();
        // The bucket comes from the high bits, the check from the low ones.
        let hashes: Vec<u64> = (1..=5).map(|i| 0xdead_beef_0000_0000 | i).collect();
        let bucket = tt.bucket_index(hashes[0]);
        assert!(hashes.iter().all(|&h| tt.bucket_index(h) == bucket));
        for (i, &h) in hashes[..4].iter().enumerate() {
            tt.store(h, 0, entry(i as Score, 10 + i as u8, Bound::Exact));
        }
        tt.new_search();
        tt.store(hashes[4], 0, entry(99, 1, Bound::Exact));
        // The shallowest old entry (depth 10) went; the others stay.
        assert_eq!(tt.probe(hashes[0], 0), None);
        for &h in &hashes[1..] {
            assert!(tt.probe(h, 0).is_some());
        }
    }

    #[test]
    fn a_shallow_bound_does_not_erase_a_deep_result_of_the_same_search() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(42, 0, entry(100, 12, Bound::Lower));
        tt.store(42, 0, entry(-30, 2, Bound::Upper));
        assert_eq!(tt.probe(42, 0), Some(entry(100, 12, Bound::Lower)));
        tt.store(42, 0, entry(-30, 2, Bound::Exact));
        assert_eq!(tt.probe(42, 0), Some(entry(-30, 2, Bound::Exact)));
    }

    #[test]
    fn size_follows_the_hash_option() {
        assert_eq!(TranspositionTable::new(4).unwrap().megabytes(), 4);
        let tt = TranspositionTable::new(0).unwrap();
        assert_eq!(tt.megabytes(), MIN_HASH_MB);
        assert_eq!(tt.hashfull(), 0);
        tt.store(42, 0, entry(100, 12, Bound::Lower));
        tt.clear();
        assert_eq!(tt.probe(42, 0), None);
    }
    #[test]
    fn a_torn_entry_is_not_used() {
        let tt = TranspositionTable::new(1).unwrap();
        let (a, b) = (0x1111_2222_0000_0007, 0x1111_2222_0000_0009);
        tt.store(a, 0, entry(57, 6, Bound::Lower));
        tt.store(b, 0, entry(-12, 3, Bound::Upper));
        let bucket = &tt.buckets[tt.bucket_index(a)].0;
        assert_eq!(tt.bucket_index(a), tt.bucket_index(b));
        // One thread's key beside another thread's data, as a race between two stores of the
        // same slot would leave it.
        let other_data = bucket[1].data.load(Ordering::Relaxed);
        bucket[0].data.store(other_data, Ordering::Relaxed);
        assert_eq!(tt.probe(a, 0), None);
        assert_eq!(tt.probe(b, 0), Some(entry(-12, 3, Bound::Upper)));
    }

    #[test]
    fn threads_sharing_the_table_read_only_whole_entries() {
        // Every thread stores, for each of the same positions, a score and depth that say which
        // position they belong to; whatever a probe finds must be one of those.
        let tt = TranspositionTable::new(1).unwrap();
        let hashes: Vec<u64> = (0..4096u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let expected = |h: u64| {
            entry(
                (h % 2000) as Score - 1000,
                (h >> 40) as u8 % 64,
                Bound::Exact,
            )
        };
        std::thread::scope(|s| {
            for t in 0..4 {
                let (tt, hashes) = (&tt, &hashes);
                s.spawn(move || {
                    for round in 0..50 {
                        for (i, &h) in hashes.iter().enumerate() {
                            if (i + t + round) % 3 == 0 {
                                tt.store(h, 0, expected(h));
                            } else if let Some(found) = tt.probe(h, 0) {
                                assert_eq!(found, expected(h), "hash {h:#x}");
                            }
                        }
                    }
                });
            }
        });
        assert!(hashes.iter().any(|&h| tt.probe(h, 0).is_some()));
    }
}
