//! Attack sets of single pieces, as move generation needs them: one target set per piece.
//!
//! The backend's set-wise routines (Kogge-Stone fills, `slider_attacks`) answer "what does this
//! whole set of sliders attack"; a move generator asks "where can *this* rook go", once per piece,
//! millions of times a second. That question is answered here by tables built once at first use:
//!
//! - leapers (knight, king, pawn captures) and the `between`/`line` sets of two squares: plain
//!   lookups;
//! - sliders on backends with BMI2 (avx2, avx512): `PEXT` gathers the relevant blockers of a ray
//!   mask into a dense index of a precomputed attack table;
//! - sliders elsewhere: the *obstruction difference* of QBBEngine, which needs no big table: on
//!   each line through the square, the nearest blocker below (the most significant bit of the
//!   blockers under the square) and the blockers above give the attacked segment as
//!   `upper ^ (upper - lower_blocker)`.

use std::sync::LazyLock;

use qbb::{Backend, BackendKind};

/// Squares are plain indices here: these functions sit on the hottest path of the engine.
pub(crate) type Sq = usize;

/// True for the backends whose target features include BMI2, so `PEXT` may be used inside their
/// feature region.
#[inline(always)]
pub(crate) const fn has_bmi2(kind: BackendKind) -> bool {
    matches!(kind, BackendKind::Avx2 | BackendKind::Avx512)
}

/// The four lines through a square (rank, file, diagonal, anti-diagonal), split at the square into
/// the part below it (lower indices) and the part above it.
#[derive(Copy, Clone, Default)]
struct LineMasks {
    lower: u64,
    upper: u64,
}

/// Everything move generation looks up.
pub(crate) struct Tables {
    pub knight: [u64; 64],
    pub king: [u64; 64],
    /// The two squares a pawn of the side to move on `sq` attacks (north-east, north-west).
    pub pawn: [u64; 64],
    /// The squares strictly between two squares on a common line, else empty.
    pub between: [[u64; 64]; 64],
    /// The whole line through two squares (edge to edge), else empty.
    pub line: [[u64; 64]; 64],
    /// Empty-board rook and bishop rays (without the square itself).
    pub rook_rays: [u64; 64],
    pub bishop_rays: [u64; 64],
    /// Per square: rank, file, diagonal, anti-diagonal (obstruction difference).
    lines: [[LineMasks; 4]; 64],
    /// PEXT tables: per square the relevant-blocker mask and the offset of its block.
    rook_pext: PextTable<ROOK_TABLE>,
    bishop_pext: PextTable<BISHOP_TABLE>,
    /// Castling on rank 1 by king file and rook file (the side follows from the two files).
    pub castling: [[CastlePath; 8]; 8],
}

/// What castling with a king and a rook on rank 1 needs.
#[derive(Copy, Clone, Default)]
pub(crate) struct CastlePath {
    /// Squares that must be empty: all that king and rook cross or reach, but for themselves.
    pub must_be_empty: u64,
    /// Squares the king stands on, crosses or reaches, none of which may be attacked.
    pub king_path: u64,
}

/// Table sizes, rounded up to powers of two so that a masked index needs no bounds check
/// (102 400 rook and 5 248 bishop entries are used).
const ROOK_TABLE: usize = 1 << 17;
const BISHOP_TABLE: usize = 1 << 13;

struct PextTable<const N: usize> {
    masks: [u64; 64],
    offsets: [u32; 64],
    attacks: Box<[u64; N]>,
}

static TABLES: LazyLock<Box<Tables>> = LazyLock::new(Tables::build);

/// The tables (built on first use, a few milliseconds).
#[inline(always)]
pub(crate) fn tables() -> &'static Tables {
    &TABLES
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares reached from `sq` stepping by (`df`, `dr`) until the edge or the first square of
/// `occupied` (included).
fn ray(sq: Sq, occupied: u64, df: i32, dr: i32) -> u64 {
    let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
    let mut out = 0;
    while (0..8).contains(&f) && (0..8).contains(&r) {
        let bit = 1u64 << (r * 8 + f);
        out |= bit;
        if occupied & bit != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    out
}

fn slow_slider(sq: Sq, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    dirs.iter()
        .fold(0, |acc, &(df, dr)| acc | ray(sq, occupied, df, dr))
}

/// The squares whose occupancy matters for a slider on `sq`: its rays without their last square.
fn relevant_mask(sq: Sq, dirs: &[(i32, i32); 4]) -> u64 {
    dirs.iter().fold(0, |acc, &(df, dr)| {
        let full = ray(sq, 0, df, dr);
        let edge = if full == 0 {
            0
        } else {
            1u64 << (63 - full.leading_zeros())
        };
        // The last square of a ray pointing down is its lowest bit.
        let last = if df + 8 * dr > 0 {
            edge
        } else {
            full & full.wrapping_neg()
        };
        acc | (full & !last)
    })
}

/// Software `PEXT`: the bits of `value` selected by `mask`, packed to the bottom.
fn pext_soft(value: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

impl<const N: usize> PextTable<N> {
    fn build(dirs: &[(i32, i32); 4]) -> PextTable<N> {
        let mut masks = [0; 64];
        let mut offsets = [0; 64];
        let mut attacks: Box<[u64; N]> = vec![0; N]
            .into_boxed_slice()
            .try_into()
            .expect("a slice of N entries");
        let mut base = 0;
        for sq in 0..64 {
            let mask = relevant_mask(sq, dirs);
            masks[sq] = mask;
            offsets[sq] = base as u32;
            // Every subset of the mask (carry-rippler), stored at its PEXT index.
            let mut subset = 0u64;
            loop {
                attacks[base + pext_soft(subset, mask) as usize] = slow_slider(sq, subset, dirs);
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            base += 1usize << mask.count_ones();
        }
        assert!(base <= N, "the table holds every block");
        PextTable {
            masks,
            offsets,
            attacks,
        }
    }
}

impl Tables {
    fn build() -> Box<Tables> {
        let mut t = Box::new(Tables {
            knight: [0; 64],
            king: [0; 64],
            pawn: [0; 64],
            between: [[0; 64]; 64],
            line: [[0; 64]; 64],
            rook_rays: [0; 64],
            bishop_rays: [0; 64],
            lines: [[LineMasks::default(); 4]; 64],
            rook_pext: PextTable::build(&ROOK_DIRS),
            bishop_pext: PextTable::build(&BISHOP_DIRS),
            castling: [[CastlePath::default(); 8]; 8],
        });
        let span = |a: usize, z: usize| (a.min(z)..=a.max(z)).fold(0u64, |acc, sq| acc | 1 << sq);
        for king in 0..8 {
            for rook in (0..8).filter(|&r| r != king) {
                let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
                let movers = 1u64 << king | 1u64 << rook;
                t.castling[king][rook] = CastlePath {
                    must_be_empty: (span(king, king_to) | span(rook, rook_to)) & !movers,
                    king_path: span(king, king_to),
                };
            }
        }
        let step = |sq: Sq, df: i32, dr: i32| -> u64 {
            let (f, r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            if (0..8).contains(&f) && (0..8).contains(&r) {
                1u64 << (r * 8 + f)
            } else {
                0
            }
        };
        for sq in 0..64 {
            t.knight[sq] = [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ]
            .iter()
            .fold(0, |acc, &(df, dr)| acc | step(sq, df, dr));
            t.king[sq] = ROOK_DIRS
                .iter()
                .chain(&BISHOP_DIRS)
                .fold(0, |acc, &(df, dr)| acc | step(sq, df, dr));
            t.pawn[sq] = step(sq, 1, 1) | step(sq, -1, 1);
            t.rook_rays[sq] = slow_slider(sq, 0, &ROOK_DIRS);
            t.bishop_rays[sq] = slow_slider(sq, 0, &BISHOP_DIRS);
            // Rank, file, diagonal, anti-diagonal: the positive direction of each line.
            for (i, &(df, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].iter().enumerate() {
                t.lines[sq][i] = LineMasks {
                    lower: ray(sq, 0, -df, -dr),
                    upper: ray(sq, 0, df, dr),
                };
            }
            for &(df, dr) in ROOK_DIRS.iter().chain(&BISHOP_DIRS) {
                let full = ray(sq, 0, df, dr) | ray(sq, 0, -df, -dr) | 1u64 << sq;
                let mut walked = 0u64;
                let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
                while (0..8).contains(&f) && (0..8).contains(&r) {
                    let to = (r * 8 + f) as usize;
                    t.between[sq][to] = walked;
                    t.line[sq][to] = full;
                    walked |= 1u64 << to;
                    f += df;
                    r += dr;
                }
            }
        }
        t
    }

    /// The squares a rook on `sq` attacks with `occupied` blocking.
    #[inline(always)]
    pub fn rook<B: Backend>(&self, backend: B, sq: Sq, occupied: u64) -> u64 {
        if has_bmi2(B::KIND) {
            self.rook_pext.lookup(backend, sq, occupied)
        } else {
            self.line_attacks(sq, occupied, 0) | self.line_attacks(sq, occupied, 1)
        }
    }

    /// The squares a bishop on `sq` attacks with `occupied` blocking.
    #[inline(always)]
    pub fn bishop<B: Backend>(&self, backend: B, sq: Sq, occupied: u64) -> u64 {
        if has_bmi2(B::KIND) {
            self.bishop_pext.lookup(backend, sq, occupied)
        } else {
            self.line_attacks(sq, occupied, 2) | self.line_attacks(sq, occupied, 3)
        }
    }

    /// Obstruction difference on one line through `sq`: the nearest blocker below is the most
    /// significant bit of the blockers under the square (or bit 0 as a sentinel when there are
    /// none); subtracting it from the blockers above borrows through exactly the squares between
    /// the two nearest blockers.
    #[inline(always)]
    fn line_attacks(&self, sq: Sq, occupied: u64, line: usize) -> u64 {
        let LineMasks { lower, upper } = self.lines[sq & 63][line & 3];
        let below = occupied & lower;
        let above = occupied & upper;
        let nearest_below = 0x8000_0000_0000_0000u64 >> (below | 1).leading_zeros();
        (above ^ above.wrapping_sub(nearest_below)) & (lower | upper)
    }
}

impl<const N: usize> PextTable<N> {
    #[inline(always)]
    fn lookup<B: Backend>(&self, proof: B, sq: Sq, occupied: u64) -> u64 {
        let index = pext(proof, occupied, self.masks[sq & 63]);
        self.attacks[(self.offsets[sq & 63] as usize + index as usize) & (N - 1)]
    }
}

/// `PEXT` for a backend with BMI2 (`has_bmi2(B::KIND)`), the value of `B` being the proof.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext<B: Backend>(_proof: B, value: u64, mask: u64) -> u64 {
    debug_assert!(has_bmi2(B::KIND));
    // SAFETY: only called when `has_bmi2(B::KIND)`; a value of `B` exists, so the CPU has every
    // feature of the backend, BMI2 among them (AVX2_FEATURES and AVX512_FEATURES list it).
    unsafe { std::arch::x86_64::_pext_u64(value, mask) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext<B: Backend>(_proof: B, value: u64, mask: u64) -> u64 {
    pext_soft(value, mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use qbb::Scalar;

    fn pseudo_random(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Every technique agrees with walking the rays, on sparse and dense random occupancies.
    #[test]
    fn slider_techniques_agree_with_ray_walking() {
        let t = tables();
        let mut state = 7;
        for i in 0..20_000 {
            let r = pseudo_random(&mut state);
            let occupied = match i % 3 {
                0 => r & pseudo_random(&mut state),
                1 => r,
                _ => r | pseudo_random(&mut state),
            };
            let sq = (pseudo_random(&mut state) % 64) as usize;
            let rook = slow_slider(sq, occupied, &ROOK_DIRS);
            let bishop = slow_slider(sq, occupied, &BISHOP_DIRS);
            assert_eq!(
                t.rook(Scalar, sq, occupied),
                rook,
                "rook {sq} {occupied:#x}"
            );
            assert_eq!(
                t.bishop(Scalar, sq, occupied),
                bishop,
                "bishop {sq} {occupied:#x}"
            );
            assert_eq!(
                t.rook_pext.attacks[t.rook_pext.offsets[sq] as usize
                    + pext_soft(occupied, t.rook_pext.masks[sq]) as usize],
                rook
            );
            assert_eq!(
                t.bishop_pext.attacks[t.bishop_pext.offsets[sq] as usize
                    + pext_soft(occupied, t.bishop_pext.masks[sq]) as usize],
                bishop
            );
            #[cfg(target_arch = "x86_64")]
            if let Some(b) = qbb::Avx2::new() {
                assert_eq!(t.rook(b, sq, occupied), rook);
                assert_eq!(t.bishop(b, sq, occupied), bishop);
            }
        }
    }

    #[test]
    fn leaper_and_line_tables() {
        let t = tables();
        assert_eq!(t.knight[0], 1 << 10 | 1 << 17);
        assert_eq!(t.king[0], 1 << 1 | 1 << 8 | 1 << 9);
        assert_eq!(t.pawn[8], 1 << 17);
        assert_eq!(t.between[0][63].count_ones(), 6);
        assert_eq!(t.between[0][7], 0x7E);
        assert_eq!(t.between[0][10], 0, "a1 and c2 share no line");
        assert_eq!(t.line[0][9], 0x8040_2010_0804_0201);
        assert_eq!(t.line[0][10], 0);
        let used = |masks: &[u64; 64]| {
            masks
                .iter()
                .map(|m| 1usize << m.count_ones())
                .sum::<usize>()
        };
        assert_eq!(used(&t.rook_pext.masks), 102_400);
        assert_eq!(used(&t.bishop_pext.masks), 5_248);
        let e1_h1 = t.castling[4][7];
        assert_eq!((e1_h1.must_be_empty, e1_h1.king_path), (0x60, 0x70));
        let e1_a1 = t.castling[4][0];
        assert_eq!((e1_a1.must_be_empty, e1_a1.king_path), (0x0E, 0x1C));
        let b1_a1 = t.castling[1][0];
        assert_eq!(
            (b1_a1.must_be_empty, b1_a1.king_path),
            (0x0C, 0x06),
            "Chess960: king b1 to c1"
        );
        assert!(has_bmi2(BackendKind::Avx2) && !has_bmi2(BackendKind::Sse2));
        for kind in BackendKind::ALL {
            assert_eq!(
                has_bmi2(kind),
                kind.required_features().contains(&"bmi2"),
                "{kind}"
            );
        }
    }
}
