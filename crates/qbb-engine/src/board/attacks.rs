//! Attack sets of single pieces, as move generation needs them: one target set per piece.
//!
//! The backend's set-wise routines (Kogge-Stone fills, `slider_attacks`) answer "what does this
//! whole set of sliders attack"; a move generator asks "where can *this* rook go", once per piece,
//! millions of times a second. That question is answered here by tables built once at first use:
//!
//! - leapers (knight, king, pawn captures) and the `between`/`line` sets of two squares: plain
//!   lookups;
//! - sliders on backends whose token proves BMI2 (avx2, avx512): `PEXT` gathers the relevant
//!   blockers of a ray mask into a dense index of a precomputed attack table;
//! - sliders elsewhere: the *obstruction difference* of QBBEngine, which needs no big table: on
//!   each line through the square, the nearest blocker below (the most significant bit of the
//!   blockers under the square) and the blockers above give the attacked segment as
//!   `upper ^ (upper - lower_blocker)`.
//!
//! Which of the two slider techniques runs is decided by the backend's type, at compile time: the
//! `PEXT` lookups take a [`Bmi2`] value, which only a token of a BMI2 backend can give.

use std::ops::{Index, IndexMut};
use std::sync::LazyLock;

use qbb::{Backend, BackendKind, Square, Squares};

/// Backends whose token proves that the CPU has BMI2: their feature list includes it, and their
/// `new` returns a token only where every feature of the list is present.
///
/// # Safety
///
/// A value of the implementing type may exist only on a CPU with BMI2.
#[cfg(target_arch = "x86_64")]
pub(crate) unsafe trait ProvesBmi2: Backend {}

// SAFETY: `Avx2::new` returns a token only when every feature of
// `BackendKind::Avx2.required_features()` is present, and that list includes bmi2 (asserted below).
#[cfg(target_arch = "x86_64")]
unsafe impl ProvesBmi2 for qbb::Avx2 {}

// SAFETY: as for avx2: `Avx512::new` checks `BackendKind::Avx512.required_features()`, which
// include bmi2 (asserted below).
#[cfg(target_arch = "x86_64")]
unsafe impl ProvesBmi2 for qbb::Avx512 {}

/// Whether a feature list names bmi2 (a `const fn`, so that the proofs above are checked when the
/// engine compiles).
const fn lists_bmi2(features: &[&str]) -> bool {
    let mut i = 0;
    while i < features.len() {
        if let [b'b', b'm', b'i', b'2'] = features[i].as_bytes() {
            return true;
        }
        i += 1;
    }
    false
}

const _: () = assert!(
    lists_bmi2(BackendKind::Avx2.required_features())
        && lists_bmi2(BackendKind::Avx512.required_features()),
    "the ProvesBmi2 backends must check bmi2"
);

/// Proof that this CPU has BMI2: a value exists only where a token of a [`ProvesBmi2`] backend
/// was made.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Bmi2(());

impl Bmi2 {
    /// The proof a BMI2 backend's token gives.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) const fn from_token<P: ProvesBmi2>(_token: P) -> Bmi2 {
        Bmi2(())
    }

    /// The proof, if `backend` is a token of a [`ProvesBmi2`] backend; `None` for every other
    /// backend. The type test is resolved at compile time: for each backend the answer is a
    /// constant, so the choice between the `PEXT` tables and the obstruction difference costs
    /// nothing at run time, and inside a BMI2 backend's feature region `PEXT` inlines.
    #[inline(always)]
    pub(crate) fn of<B: Backend>(backend: B) -> Option<Bmi2> {
        #[cfg(target_arch = "x86_64")]
        {
            let token: &dyn std::any::Any = &backend;
            if let Some(&avx2) = token.downcast_ref::<qbb::Avx2>() {
                return Some(Bmi2::from_token(avx2));
            }
            if let Some(&avx512) = token.downcast_ref::<qbb::Avx512>() {
                return Some(Bmi2::from_token(avx512));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = backend;
        None
    }
}

/// One value per square, indexed by [`Square`].
#[derive(Copy, Clone)]
#[repr(transparent)]
pub(crate) struct BySquare<T>([T; 64]);

impl<T> Index<Square> for BySquare<T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, sq: Square) -> &T {
        // A square's index is below 64; the mask tells the compiler so (no bounds check).
        &self.0[sq.index() & 63]
    }
}

impl<T> IndexMut<Square> for BySquare<T> {
    #[inline(always)]
    fn index_mut(&mut self, sq: Square) -> &mut T {
        &mut self.0[sq.index() & 63]
    }
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
    pub knight: BySquare<u64>,
    pub king: BySquare<u64>,
    /// The two squares a pawn of the side to move on a square attacks (north-east, north-west).
    pub pawn: BySquare<u64>,
    /// The squares strictly between two squares on a common line, else empty.
    pub between: BySquare<BySquare<u64>>,
    /// The whole line through two squares (edge to edge), else empty.
    pub line: BySquare<BySquare<u64>>,
    /// Empty-board rook and bishop rays (without the square itself).
    pub rook_rays: BySquare<u64>,
    pub bishop_rays: BySquare<u64>,
    /// Per king square: the lines through the squares around it.
    pub king_reach: BySquare<Reach>,
    /// Per square: rank, file, diagonal, anti-diagonal (obstruction difference).
    lines: BySquare<[LineMasks; 4]>,
    /// PEXT tables: per square the relevant-blocker mask and the offset of its block.
    rook_pext: PextTable<ROOK_TABLE>,
    bishop_pext: PextTable<BISHOP_TABLE>,
    /// Castling on rank 1 by king file and rook file (the side follows from the two files).
    castle_paths: [[CastlePath; 8]; 8],
    /// By king file and the occupancy of rank 1: the pieces of rank 1 that, were they castling
    /// rooks, would find their castling paths empty (but for king and rook), as a rank-1 set.
    castle_clear: [[u8; 256]; 8],
    /// By king file: the lines through the squares around the king and through both castling
    /// paths the king may take.
    castle_reach: [Reach; 8],
}

/// The lines through a set of squares, rook-like and bishop-like: only a slider on one of them
/// (a slider of the matching kind) can attack a square of the set.
#[derive(Copy, Clone, Default)]
pub(crate) struct Reach {
    pub orth: u64,
    pub diag: u64,
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
    masks: BySquare<u64>,
    offsets: BySquare<u32>,
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
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The squares from `sq` stepping by (`df`, `dr`), in order, until the edge of the board.
fn walk(sq: Square, df: i32, dr: i32) -> impl Iterator<Item = Square> {
    let (mut f, mut r) = (i32::from(sq.file()), i32::from(sq.rank()));
    std::iter::from_fn(move || {
        f += df;
        r += dr;
        Square::from_file_rank(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
    })
}

/// The squares reached from `sq` stepping by (`df`, `dr`) until the edge or the first square of
/// `occupied` (included).
fn ray(sq: Square, occupied: u64, df: i32, dr: i32) -> u64 {
    let mut out = 0;
    for to in walk(sq, df, dr) {
        out |= to.bit();
        if occupied & to.bit() != 0 {
            break;
        }
    }
    out
}

fn slow_slider(sq: Square, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    dirs.iter()
        .fold(0, |acc, &(df, dr)| acc | ray(sq, occupied, df, dr))
}

/// The squares whose occupancy matters for a slider on `sq`: its rays without their last square.
fn relevant_mask(sq: Square, dirs: &[(i32, i32); 4]) -> u64 {
    dirs.iter().fold(0, |acc, &(df, dr)| {
        let last = walk(sq, df, dr).last().map_or(0, Square::bit);
        acc | (ray(sq, 0, df, dr) & !last)
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
        let mut masks = BySquare([0; 64]);
        let mut offsets = BySquare([0; 64]);
        let mut attacks: Box<[u64; N]> = vec![0; N]
            .into_boxed_slice()
            .try_into()
            .expect("a slice of N entries");
        let mut base = 0;
        for sq in Square::all() {
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

    /// The attacks of the slider on `sq`: the `PEXT` index of the blockers under the square's
    /// mask picks the entry. Only a [`Bmi2`] proof lets this run.
    #[inline(always)]
    fn lookup(&self, bmi2: Bmi2, sq: Square, occupied: u64) -> u64 {
        self.entry(sq, pext(bmi2, occupied, self.masks[sq]))
    }

    /// The entry of `sq`'s block at `index` (the gathered blockers).
    #[inline(always)]
    fn entry(&self, sq: Square, index: u64) -> u64 {
        self.attacks[(self.offsets[sq] as usize + index as usize) & (N - 1)]
    }
}

impl Tables {
    fn build() -> Box<Tables> {
        let empty = BySquare([0; 64]);
        let mut t = Box::new(Tables {
            knight: empty,
            king: empty,
            pawn: empty,
            between: BySquare([empty; 64]),
            line: BySquare([empty; 64]),
            rook_rays: empty,
            bishop_rays: empty,
            lines: BySquare([[LineMasks::default(); 4]; 64]),
            rook_pext: PextTable::build(&ROOK_DIRS),
            bishop_pext: PextTable::build(&BISHOP_DIRS),
            castle_paths: [[CastlePath::default(); 8]; 8],
            castle_clear: [[0; 256]; 8],
            king_reach: BySquare([Reach::default(); 64]),
            castle_reach: [Reach::default(); 8],
        });
        let span = |a: usize, z: usize| (a.min(z)..=a.max(z)).fold(0u64, |acc, sq| acc | 1 << sq);
        for king in 0..8 {
            for rook in (0..8).filter(|&r| r != king) {
                let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
                let movers = 1u64 << king | 1u64 << rook;
                t.castle_paths[king][rook] = CastlePath {
                    must_be_empty: (span(king, king_to) | span(rook, rook_to)) & !movers,
                    king_path: span(king, king_to),
                };
            }
            for rank in 0..256 {
                t.castle_clear[king][rank] = (0..8)
                    .filter(|&rook| rook != king && rank & 1 << rook != 0)
                    .filter(|&rook| t.castle_paths[king][rook].must_be_empty & rank as u64 == 0)
                    .fold(0, |clear, rook| clear | 1 << rook);
            }
        }
        let step =
            |sq: Square, (df, dr): (i32, i32)| walk(sq, df, dr).next().map_or(0, Square::bit);
        for sq in Square::all() {
            t.knight[sq] = KNIGHT_STEPS.iter().fold(0, |acc, &d| acc | step(sq, d));
            t.king[sq] = ROOK_DIRS
                .iter()
                .chain(&BISHOP_DIRS)
                .fold(0, |acc, &d| acc | step(sq, d));
            t.pawn[sq] = step(sq, (1, 1)) | step(sq, (-1, 1));
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
                let full = ray(sq, 0, df, dr) | ray(sq, 0, -df, -dr) | sq.bit();
                let mut walked = 0u64;
                for to in walk(sq, df, dr) {
                    t.between[sq][to] = walked;
                    t.line[sq][to] = full;
                    walked |= to.bit();
                }
            }
        }
        let reach = |t: &Tables, squares: u64| {
            Squares(squares).fold(Reach::default(), |reach, sq| Reach {
                orth: reach.orth | t.rook_rays[sq],
                diag: reach.diag | t.bishop_rays[sq],
            })
        };
        for sq in Square::all() {
            t.king_reach[sq] = reach(&t, t.king[sq]);
        }
        for king in 0..8 {
            let square = Square::from_index_masked(king as u32);
            let paths = span(king, 2) | span(king, 6);
            t.castle_reach[king] = reach(&t, t.king[square] | paths);
        }
        t
    }

    /// What castling needs with our king and a rook of ours on rank 1.
    #[inline(always)]
    pub fn castling(&self, king: Square, rook: Square) -> CastlePath {
        self.castle_paths[usize::from(king.file())][usize::from(rook.file())]
    }

    /// The pieces on rank 1 whose castling path with our king on `king` is empty, `occupied` on
    /// the board: one lookup by the king's file and the rank's eight bits. Only the castling
    /// rooks of the answer may castle.
    #[inline(always)]
    pub fn castling_clear(&self, king: Square, occupied: u64) -> u64 {
        u64::from(self.castle_clear[usize::from(king.file())][(occupied & 0xFF) as usize])
    }

    /// The lines through the squares around our king on rank 1 and through both castling paths
    /// it may take.
    #[inline(always)]
    pub fn castle_reach(&self, king: Square) -> Reach {
        self.castle_reach[usize::from(king.file())]
    }

    /// The squares a rook on `sq` attacks with `occupied` blocking.
    #[inline(always)]
    pub fn rook<B: Backend>(&self, backend: B, sq: Square, occupied: u64) -> u64 {
        match Bmi2::of(backend) {
            Some(bmi2) => self.rook_pext.lookup(bmi2, sq, occupied),
            None => self.line_attacks(sq, occupied, 0) | self.line_attacks(sq, occupied, 1),
        }
    }

    /// The squares a bishop on `sq` attacks with `occupied` blocking.
    #[inline(always)]
    pub fn bishop<B: Backend>(&self, backend: B, sq: Square, occupied: u64) -> u64 {
        match Bmi2::of(backend) {
            Some(bmi2) => self.bishop_pext.lookup(bmi2, sq, occupied),
            None => self.line_attacks(sq, occupied, 2) | self.line_attacks(sq, occupied, 3),
        }
    }

    /// Obstruction difference on one line through `sq`: the nearest blocker below is the most
    /// significant bit of the blockers under the square (or bit 0 as a sentinel when there are
    /// none); subtracting it from the blockers above borrows through exactly the squares between
    /// the two nearest blockers.
    #[inline(always)]
    fn line_attacks(&self, sq: Square, occupied: u64, line: usize) -> u64 {
        let LineMasks { lower, upper } = self.lines[sq][line & 3];
        let below = occupied & lower;
        let above = occupied & upper;
        let nearest_below = 0x8000_0000_0000_0000u64 >> (below | 1).leading_zeros();
        (above ^ above.wrapping_sub(nearest_below)) & (lower | upper)
    }
}

/// `PEXT`, which the [`Bmi2`] proof allows.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(_bmi2: Bmi2, value: u64, mask: u64) -> u64 {
    // SAFETY: a `Bmi2` value exists, so a token of a `ProvesBmi2` backend was made, which happens
    // only on a CPU with BMI2. Inside that backend's feature region the instruction inlines.
    unsafe { std::arch::x86_64::_pext_u64(value, mask) }
}

/// No backend proves BMI2 off x86-64, so no `Bmi2` value exists there; the software version
/// keeps the lookup total.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext(_bmi2: Bmi2, value: u64, mask: u64) -> u64 {
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
            let sq = Square::from_index_masked(pseudo_random(&mut state) as u32);
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
            let rook_pext = &t.rook_pext;
            let rook_index = pext_soft(occupied, rook_pext.masks[sq]);
            assert_eq!(rook_pext.entry(sq, rook_index), rook);
            let bishop_pext = &t.bishop_pext;
            let bishop_index = pext_soft(occupied, bishop_pext.masks[sq]);
            assert_eq!(bishop_pext.entry(sq, bishop_index), bishop);
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
        let sq = |name: &str| name.parse::<Square>().unwrap();
        assert_eq!(t.knight[Square::A1], 1 << 10 | 1 << 17);
        assert_eq!(t.king[Square::A1], 1 << 1 | 1 << 8 | 1 << 9);
        assert_eq!(t.pawn[sq("a2")], 1 << 17);
        assert_eq!(t.between[Square::A1][Square::H8].count_ones(), 6);
        assert_eq!(t.between[Square::A1][Square::H1], 0x7E);
        assert_eq!(
            t.between[Square::A1][sq("c2")],
            0,
            "a1 and c2 share no line"
        );
        assert_eq!(t.line[Square::A1][sq("b2")], 0x8040_2010_0804_0201);
        assert_eq!(t.line[Square::A1][sq("c2")], 0);
        let used = |masks: &BySquare<u64>| {
            Square::all()
                .map(|s| 1usize << masks[s].count_ones())
                .sum::<usize>()
        };
        assert_eq!(used(&t.rook_pext.masks), 102_400);
        assert_eq!(used(&t.bishop_pext.masks), 5_248);
        let e1_h1 = t.castling(Square::E1, Square::H1);
        assert_eq!((e1_h1.must_be_empty, e1_h1.king_path), (0x60, 0x70));
        let e1_a1 = t.castling(Square::E1, Square::A1);
        assert_eq!((e1_a1.must_be_empty, e1_a1.king_path), (0x0E, 0x1C));
        let b1_a1 = t.castling(sq("b1"), Square::A1);
        assert_eq!(
            (b1_a1.must_be_empty, b1_a1.king_path),
            (0x0C, 0x06),
            "Chess960: king b1 to c1"
        );
        // King e1, rooks a1 and h1: both paths empty, then b1 blocks the queen side and g1
        // the king side (the answer names any piece whose path is clear, b1's and g1's too:
        // the generator keeps only its castling rooks).
        let rooks = 0x81;
        assert_eq!(t.castling_clear(Square::E1, 0x91), rooks);
        assert_eq!(t.castling_clear(Square::E1, 0x93) & rooks, 0x80);
        assert_eq!(t.castling_clear(Square::E1, 0xD1) & rooks, 0x01);
        assert_eq!(t.castling_clear(Square::E1, 0x10), 0);
        // Chess960: king b1 and rook a1 castle to c1 and d1, which must be empty.
        assert_eq!(t.castling_clear(sq("b1"), 0x03), 0x01);
        assert_eq!(
            t.castling_clear(sq("b1"), 0x0B) & 0x01,
            0,
            "d1 stands in the way"
        );
        // Only the rank's bits are read.
        assert_eq!(t.castling_clear(Square::E1, 0x91 | 0xFF00), 0x81);
    }

    /// A slider is in a reach exactly when, on an empty board, it attacks a square of the set.
    #[test]
    fn reach_tables() {
        let t = tables();
        let sq = |name: &str| name.parse::<Square>().unwrap();
        let covers = |reach: Reach, squares: u64| {
            Square::all().all(|s| {
                (reach.orth & s.bit() != 0) == (t.rook_rays[s] & squares != 0)
                    && (reach.diag & s.bit() != 0) == (t.bishop_rays[s] & squares != 0)
            })
        };
        for king in Square::all() {
            assert!(covers(t.king_reach[king], t.king[king]), "king on {king}");
        }
        // King e1: c1 to g1 and the squares around the king. A rook on d8 or a bishop on a6
        // reaches them, a rook on a8 or a bishop on c8 does not.
        let reach = t.castle_reach(Square::E1);
        assert!(covers(reach, 0x7C | t.king[Square::E1]));
        assert_ne!(reach.orth & sq("d8").bit(), 0);
        assert_ne!(reach.diag & sq("a6").bit(), 0);
        assert_eq!(reach.orth & Square::A8.bit(), 0);
        assert_eq!(reach.diag & sq("c8").bit(), 0);
    }

    /// Exactly the backends whose feature list includes bmi2 give the proof.
    #[test]
    fn only_bmi2_backends_prove_bmi2() {
        for kind in BackendKind::ALL.into_iter().filter(|k| k.is_available()) {
            let proven = qbb::with_backend!(kind, |b| Bmi2::of(b).is_some()).unwrap();
            assert_eq!(proven, kind.required_features().contains(&"bmi2"), "{kind}");
        }
    }
}
