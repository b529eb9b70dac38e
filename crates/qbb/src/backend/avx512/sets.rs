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

use super::lanes::{A, B, C, cast, load_quad_512, qwords, splat};
use crate::quad::Quad;
use crate::repr::{HexSets, PieceSets};

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
    let mut fields = [0u64; 10];
    // SAFETY: `fields` is ten `u64`: the two unaligned stores write `fields[0..2]` and
    // `fields[2..10]`, inside the array.
    unsafe {
        _mm_storeu_si128(fields.as_mut_ptr().cast(), _mm_unpacklo_epi64(black, white));
        _mm512_storeu_si512(fields[2..].as_mut_ptr().cast(), sets);
    }
    // The fields in `PieceSets`' declaration order (asserted where `PieceSets` is made `Plain`).
    cast(fields)
}
// ANCHOR_END: piece_sets

// ANCHOR: hex_sets
/// `vpermt2q` indices over (planes, complements): lane `i` takes plane `plane` where bit `plane`
/// of `codes[i]` is set and its complement where it is clear. ANDing the selections of several
/// planes leaves the squares whose nibble agrees with `codes[i]` on those planes.
pub(super) const fn minterm_operand(codes: [u8; 8], plane: u8) -> [u64; 8] {
    const_table!(|lane| {
        let complement = if codes[lane] >> plane & 1 == 1 { 0 } else { 8 };
        (complement + plane) as u64
    })
}

/// Each lane's operand: one plane or its complement, as `index` says.
#[inline]
#[features(avx512)]
pub(super) fn select(planes: __m512i, complements: __m512i, index: &[u64; 8]) -> __m512i {
    _mm512_permutex2var_epi64(planes, qwords(index), complements)
}

/// The planes in lanes 0..3 and their complements.
#[inline]
#[features(avx512)]
pub(super) fn planes_and_complements(quad: &Quad) -> (__m512i, __m512i) {
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
pub(super) fn hex_registers(quad: &Quad) -> [__m512i; 2] {
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::backend::{Backend, Scalar};
    use crate::conformance::SplitMix64;

    // The lane movements and truth tables of the kernels written out from Intel's pseudo-code,
    // so that the operand tables are checked on any CPU, AVX-512 or not.

    /// `vpermt2q`: lane `i` = lane `index[i] & 7` of `a`, or of `b` where `index[i] & 8`.
    pub(in crate::backend::avx512) fn pick(a: [u64; 8], index: &[u64; 8], b: [u64; 8]) -> [u64; 8] {
        index.map(|i| if i & 8 == 0 { a } else { b }[(i & 7) as usize])
    }

    /// `vpermq` with one table.
    pub(in crate::backend::avx512) fn permute(index: &[u64; 8], a: [u64; 8]) -> [u64; 8] {
        pick(a, index, a)
    }

    /// `vpternlogq` on one lane: bit `(a << 2) | (b << 1) | c` of the immediate.
    pub(in crate::backend::avx512) fn ternary(a: u64, b: u64, c: u64, table: i32) -> u64 {
        (0..64).fold(0, |acc, bit| {
            let row = (a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1);
            acc | ((table as u64) >> row & 1) << bit
        })
    }

    pub(in crate::backend::avx512) fn lanes(quad: &Quad) -> ([u64; 8], [u64; 8]) {
        let planes = std::array::from_fn(|i| if i < 4 { quad.bb[i] } else { 0 });
        (planes, planes.map(|bb| !bb))
    }

    pub(in crate::backend::avx512) fn hex_model(quad: &Quad) -> [[u64; 8]; 2] {
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
            let (planes, _) = lanes(&quad);

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
        }
    }
}
