//! Sets of squares by piece code, eight sets per instruction.
//!
//! Every set here is a boolean function of the four planes. `vpermt2q` gives each lane its own
//! operands, picked from the planes and (index + 8) their complements; one `vpternlogq` then
//! applies the same function to every lane, and mask registers restrict a function to the lanes
//! that need it.
//!
//! The mask-register way to the hex sets would be the mailbox (one transpose) and then one
//! `vpcmpeqb` per code, each set a 64-bit mask: sixteen compares and sixteen mask moves. The
//! minterms take three permutes and three logic instructions for all sixteen.

use crate::backend::features;
use core::arch::x86_64::*;

use super::vector::{A, B, C, load_quad_512, qwords, splat, store_quad};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, PieceSets};

// ANCHOR: piece_sets
/// Operands of the eight sets after black and white, lane by lane:
/// `[occupied, odd, pawns, knights, bishops, rooks, queens, kings]`. Index 8 is a lane of ones.
const PIECE_SET_A: [u64; 8] = [1, 1, 1, 2, 1, 3, 1, 2];
const PIECE_SET_B: [u64; 8] = [2, 2, 2, 1, 2, 1, 3, 3];
const PIECE_SET_C: [u64; 8] = [3, 3, 3, 3, 8, 2, 8, 8];

/// The article's formulas, three functions for eight lanes: `occupied = a | b | c`,
/// `odd = a ^ b ^ c`, and for the six piece types `a & !(b ^ c)`, which is `bb1 & !(bb2 ^ bb3)`
/// for pawns (`odd & bb1`) and `bb1 & bb2` for bishops when `c` is all ones.
#[inline]
#[features(avx512)]
pub(super) fn piece_sets(quad: &Quad) -> PieceSets {
    let planes = load_quad_512(quad);
    let ones = _mm512_set1_epi64(-1);
    let a = _mm512_permutexvar_epi64(qwords(&PIECE_SET_A), planes);
    let b = _mm512_permutexvar_epi64(qwords(&PIECE_SET_B), planes);
    let c = _mm512_permutex2var_epi64(planes, qwords(&PIECE_SET_C), ones);
    let sets = _mm512_mask_ternarylogic_epi64::<{ A | B | C }>(a, 0b0000_0001, b, c);
    let sets = _mm512_mask_ternarylogic_epi64::<{ A ^ B ^ C }>(sets, 0b0000_0010, b, c);
    let sets = _mm512_mask_ternarylogic_epi64::<{ A & !(B ^ C) }>(sets, 0b1111_1100, b, c);
    // black = bb0, white = bb0 ^ occupied: lane 0 of the planes and lane 0 of the sets.
    let black = _mm512_castsi512_si128(planes);
    let white = _mm_xor_si128(black, _mm512_castsi512_si128(sets));
    let mut out = PieceSets::default();
    let fields: *mut u64 = (&raw mut out).cast();
    // SAFETY: `PieceSets` is `repr(C)` with ten `u64` fields, black and white first: the two
    // unaligned stores write fields 0..2 and 2..10, inside the value.
    unsafe {
        _mm_storeu_si128(fields.cast(), _mm_unpacklo_epi64(black, white));
        _mm512_storeu_si512(fields.add(2).cast(), sets);
    }
    out
}
// ANCHOR_END: piece_sets

// ANCHOR: hex_sets
/// `vpermt2q` indices over (planes, complements): lane `i` takes plane `plane` where bit `plane`
/// of `codes[i]` is set and its complement where it is clear. ANDing the selections of several
/// planes leaves the squares whose nibble agrees with `codes[i]` on those planes.
const fn minterm_operand(codes: [u8; 8], plane: u8) -> [u64; 8] {
    let mut index = [0; 8];
    let mut lane = 0;
    while lane < 8 {
        let complement = if codes[lane] >> plane & 1 == 1 { 0 } else { 8 };
        index[lane] = (complement + plane) as u64;
        lane += 1;
    }
    index
}

/// Each lane's operand: one plane or its complement, as `index` says.
#[inline]
#[features(avx512)]
fn select(planes: __m512i, complements: __m512i, index: &[u64; 8]) -> __m512i {
    _mm512_permutex2var_epi64(planes, qwords(index), complements)
}

/// The planes in lanes 0..3 and their complements.
#[inline]
#[features(avx512)]
fn planes_and_complements(quad: &Quad) -> (__m512i, __m512i) {
    let planes = load_quad_512(quad);
    (
        planes,
        _mm512_ternarylogic_epi64::<{ !A & 0xFF }>(planes, planes, planes),
    )
}

/// Lane `c` selects, in each of planes 0..2, the plane or its complement as bit `p` of `c` says.
const HEX_CODES: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
const HEX_OPERANDS: [[u64; 8]; 3] = [
    minterm_operand(HEX_CODES, 0),
    minterm_operand(HEX_CODES, 1),
    minterm_operand(HEX_CODES, 2),
];

/// The sixteen minterms of the four planes, eight per register: one `vpternlogq` ANDs the three
/// selections of planes 0..2 (codes 0..7 in lanes 0..7), then plane 3 splits them into codes
/// 0..7 (`andnot`) and 8..15 (`and`).
#[inline]
#[features(avx512)]
fn hex_registers(quad: &Quad) -> [__m512i; 2] {
    let (planes, complements) = planes_and_complements(quad);
    let low_three = _mm512_ternarylogic_epi64::<{ A & B & C }>(
        select(planes, complements, &HEX_OPERANDS[0]),
        select(planes, complements, &HEX_OPERANDS[1]),
        select(planes, complements, &HEX_OPERANDS[2]),
    );
    let plane3 = splat(quad.bb[3]);
    [
        _mm512_andnot_si512(plane3, low_three),
        _mm512_and_si512(plane3, low_three),
    ]
}

/// The sixteen sets, stored.
#[inline]
#[features(avx512)]
pub(super) fn hex_sets(quad: &Quad) -> HexSets {
    let [low, high] = hex_registers(quad);
    let mut out = HexSets::default();
    // SAFETY: `HexSets` is sixteen `u64` aligned to 64: two aligned stores of eight lanes each.
    unsafe {
        _mm512_store_si512(out.0.as_mut_ptr().cast(), low);
        _mm512_store_si512(out.0[8..].as_mut_ptr().cast(), high);
    }
    out
}
// ANCHOR_END: hex_sets

// ANCHOR: classical
/// The classical board is the hex sets of codes 2..13 in another order: white pieces (even codes)
/// first. As `vpermt2q` indices over the two hex registers, index `c` is simply code `c`.
const CLASSICAL_FIRST: [u64; 8] = [2, 4, 6, 8, 10, 12, 3, 5];
const CLASSICAL_REST: [u64; 8] = [7, 9, 11, 13, 0, 0, 0, 0];

/// Two permutes of the hex sets.
#[inline]
#[features(avx512)]
pub(super) fn to_classical(quad: &Quad) -> ClassicalBoard {
    let [low, high] = hex_registers(quad);
    let first = _mm512_permutex2var_epi64(low, qwords(&CLASSICAL_FIRST), high);
    let rest = _mm512_permutex2var_epi64(low, qwords(&CLASSICAL_REST), high);
    let mut out = ClassicalBoard::default();
    // SAFETY: `ClassicalBoard` is twelve `u64` aligned to 32: a 512-bit store of `bb[0..8]` and an
    // aligned 256-bit store of `bb[8..12]` (byte offset 64).
    unsafe {
        _mm512_storeu_si512(out.bb.as_mut_ptr().cast(), first);
        _mm256_store_si256(
            out.bb[8..].as_mut_ptr().cast(),
            _mm512_castsi512_si256(rest),
        );
    }
    out
}

/// For the inverse, index 8 + i is lane `i` of the black sets, below 8 the union of both colours
/// by type. Lanes 0 and 4 take three black types each (plane 0 is their union); lanes 1..3 take
/// the three types whose code has bit 1, 2 or 3.
const CLASSICAL_A: [u64; 8] = [8, 0, 1, 3, 11, 0, 0, 0];
const CLASSICAL_B: [u64; 8] = [9, 2, 2, 4, 12, 0, 0, 0];
const CLASSICAL_C: [u64; 8] = [10, 4, 5, 5, 13, 0, 0, 0];

/// Plane `p` = the union of the sets whose code has bit `p`: masked loads of the six white and
/// six black sets, their union by type, and one three-way OR for all planes (plane 0 takes a
/// second, from lane 4).
#[inline]
#[features(avx512)]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    let bb = board.bb.as_ptr();
    // SAFETY: each masked load reads lanes 0..6 only: `bb[0..6]` and `bb[6..12]`, in bounds.
    let (white, black) = unsafe {
        (
            _mm512_maskz_loadu_epi64(0b11_1111, bb.cast()),
            _mm512_maskz_loadu_epi64(0b11_1111, bb.add(6).cast()),
        )
    };
    let either = _mm512_or_si512(white, black);
    let unions = _mm512_ternarylogic_epi64::<{ A | B | C }>(
        _mm512_permutex2var_epi64(either, qwords(&CLASSICAL_A), black),
        _mm512_permutex2var_epi64(either, qwords(&CLASSICAL_B), black),
        _mm512_permutex2var_epi64(either, qwords(&CLASSICAL_C), black),
    );
    let black_rest = _mm512_alignr_epi64::<4>(unions, unions); // lane 4 to lane 0
    let planes = _mm512_mask_or_epi64(unions, 0b0001, unions, black_rest);
    store_quad(_mm512_castsi512_si256(planes))
}
// ANCHOR_END: classical

// ANCHOR: dense
/// `[white, black, pawns, .. kings]`: the colour lanes use codes 14 and 15, which select planes
/// 1..3 themselves and plane 0 complemented (white) or not (black).
const DENSE_CODES: [u8; 8] = [14, 15, 2, 4, 6, 8, 10, 12];
const DENSE_OPERANDS: [[u64; 8]; 4] = [
    minterm_operand(DENSE_CODES, 0),
    minterm_operand(DENSE_CODES, 1),
    minterm_operand(DENSE_CODES, 2),
    minterm_operand(DENSE_CODES, 3),
];

/// The six type sets are minterms of planes 1..3 (lanes 2..7); a colour set is "the type bits are
/// not all equal" (types 1..6) ANDed with plane 0 or its complement (lanes 0 and 1).
#[inline]
#[features(avx512)]
pub(super) fn to_dense(quad: &Quad) -> DenseBoard {
    let (planes, complements) = planes_and_complements(quad);
    let colour = select(planes, complements, &DENSE_OPERANDS[0]);
    let a = select(planes, complements, &DENSE_OPERANDS[1]);
    let b = select(planes, complements, &DENSE_OPERANDS[2]);
    let c = select(planes, complements, &DENSE_OPERANDS[3]);
    let typed = _mm512_mask_ternarylogic_epi64::<{ (A | B | C) & !(A & B & C) }>(a, 0b11, b, c);
    let sets = _mm512_mask_ternarylogic_epi64::<{ A & B & C }>(typed, 0b1111_1100, b, c);
    let sets = _mm512_mask_and_epi64(sets, 0b11, sets, colour);
    let mut out = DenseBoard::default();
    // SAFETY: `DenseBoard` is eight `u64` aligned to 64: one aligned store.
    unsafe { _mm512_store_si512(out.bb.as_mut_ptr().cast(), sets) };
    out
}

/// Lanes 1..3: the three type sets whose type has bit 0, 1 or 2; lane 0 and lane 3 together
/// cover all six types (plane 0 is black restricted to them).
const DENSE_A: [u64; 8] = [2, 2, 3, 5, 0, 0, 0, 0];
const DENSE_B: [u64; 8] = [3, 4, 4, 6, 0, 0, 0, 0];
const DENSE_C: [u64; 8] = [4, 6, 7, 7, 0, 0, 0, 0];

/// One three-way OR makes planes 1..3 and half of the typed squares; a masked `vpternlogq` makes
/// plane 0 = black & (lane 0 | lane 3).
#[inline]
#[features(avx512)]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    // SAFETY: `DenseBoard` is eight `u64` aligned to 64: one aligned load.
    let sets = unsafe { _mm512_load_si512(board.bb.as_ptr().cast()) };
    let unions = _mm512_ternarylogic_epi64::<{ A | B | C }>(
        _mm512_permutexvar_epi64(qwords(&DENSE_A), sets),
        _mm512_permutexvar_epi64(qwords(&DENSE_B), sets),
        _mm512_permutexvar_epi64(qwords(&DENSE_C), sets),
    );
    let rooks_queens_kings = _mm512_permutexvar_epi64(_mm512_set1_epi64(3), unions);
    let black = splat(board.bb[DenseBoard::BLACK]);
    let planes = _mm512_mask_ternarylogic_epi64::<{ (A | B) & C }>(
        unions,
        0b0001,
        rooks_queens_kings,
        black,
    );
    store_quad(_mm512_castsi512_si256(planes))
}
// ANCHOR_END: dense

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Backend, Scalar};
    use crate::conformance::SplitMix64;

    // The lane movements and truth tables of the kernels written out from Intel's pseudo-code,
    // so that the operand tables are checked on any CPU, AVX-512 or not.

    /// `vpermt2q`: lane `i` = lane `index[i] & 7` of `a`, or of `b` where `index[i] & 8`.
    fn pick(a: [u64; 8], index: &[u64; 8], b: [u64; 8]) -> [u64; 8] {
        index.map(|i| if i & 8 == 0 { a } else { b }[(i & 7) as usize])
    }

    /// `vpermq` with one table.
    fn permute(index: &[u64; 8], a: [u64; 8]) -> [u64; 8] {
        pick(a, index, a)
    }

    /// `vpternlogq` on one lane: bit `(a << 2) | (b << 1) | c` of the immediate.
    fn ternary(a: u64, b: u64, c: u64, table: i32) -> u64 {
        (0..64).fold(0, |acc, bit| {
            let row = (a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1);
            acc | ((table as u64) >> row & 1) << bit
        })
    }

    fn lanes(quad: &Quad) -> ([u64; 8], [u64; 8]) {
        let planes = std::array::from_fn(|i| if i < 4 { quad.bb[i] } else { 0 });
        (planes, planes.map(|bb| !bb))
    }

    fn hex_model(quad: &Quad) -> [[u64; 8]; 2] {
        let (planes, complements) = lanes(quad);
        let [x, y, z] = HEX_OPERANDS.map(|index| pick(planes, &index, complements));
        let low_three: [u64; 8] = std::array::from_fn(|i| ternary(x[i], y[i], z[i], A & B & C));
        [
            low_three.map(|s| s & !quad.bb[3]),
            low_three.map(|s| s & quad.bb[3]),
        ]
    }

    #[test]
    fn operand_tables_make_the_sets_of_the_reference() {
        let mut rng = SplitMix64(0x5E75);
        for _ in 0..2000 {
            let quad = rng.quad();
            let (planes, complements) = lanes(&quad);

            let (a, b) = (permute(&PIECE_SET_A, planes), permute(&PIECE_SET_B, planes));
            let c = pick(planes, &PIECE_SET_C, [!0; 8]);
            let table = |i| match i {
                0 => A | B | C,
                1 => A ^ B ^ C,
                _ => A & !(B ^ C),
            };
            let sets: [u64; 8] = std::array::from_fn(|i| ternary(a[i], b[i], c[i], table(i)));
            let s = Scalar.piece_sets(&quad);
            let want = [
                s.occupied, s.odd, s.pawns, s.knights, s.bishops, s.rooks, s.queens, s.kings,
            ];
            assert_eq!(sets, want, "piece sets of {quad:?}");

            let [low, high] = hex_model(&quad);
            assert_eq!(
                [low, high].concat(),
                Scalar.hex_sets(&quad).0,
                "hex sets of {quad:?}"
            );

            let classical = [
                pick(low, &CLASSICAL_FIRST, high),
                pick(low, &CLASSICAL_REST, high),
            ]
            .concat();
            assert_eq!(
                classical[..12],
                Scalar.to_classical(&quad).bb,
                "classical of {quad:?}"
            );

            let [colour, x, y, z] = DENSE_OPERANDS.map(|index| pick(planes, &index, complements));
            let dense: [u64; 8] = std::array::from_fn(|i| match i {
                0 | 1 => ternary(x[i], y[i], z[i], (A | B | C) & !(A & B & C)) & colour[i],
                _ => ternary(x[i], y[i], z[i], A & B & C),
            });
            assert_eq!(dense, Scalar.to_dense(&quad).bb, "dense of {quad:?}");

            let board = ClassicalBoard {
                bb: std::array::from_fn(|_| rng.sparse_any()),
            };
            let six =
                |from: usize| std::array::from_fn(|i| if i < 6 { board.bb[from + i] } else { 0 });
            let (white, black): ([u64; 8], [u64; 8]) = (six(0), six(6));
            let either: [u64; 8] = std::array::from_fn(|i| white[i] | black[i]);
            let [x, y, z] =
                [CLASSICAL_A, CLASSICAL_B, CLASSICAL_C].map(|index| pick(either, &index, black));
            let unions: [u64; 8] = std::array::from_fn(|i| x[i] | y[i] | z[i]);
            let planes = Quad::new(unions[0] | unions[4], unions[1], unions[2], unions[3]);
            assert_eq!(
                planes,
                Scalar.from_classical(&board),
                "from classical {board:?}"
            );

            let board = DenseBoard {
                bb: std::array::from_fn(|_| rng.sparse_any()),
            };
            let [x, y, z] = [DENSE_A, DENSE_B, DENSE_C].map(|index| permute(&index, board.bb));
            let unions: [u64; 8] = std::array::from_fn(|i| x[i] | y[i] | z[i]);
            let black = board.bb[DenseBoard::BLACK];
            let plane0 = ternary(unions[0], unions[3], black, (A | B) & C);
            let planes = Quad::new(plane0, unions[1], unions[2], unions[3]);
            assert_eq!(planes, Scalar.from_dense(&board), "from dense {board:?}");
        }
    }
}
