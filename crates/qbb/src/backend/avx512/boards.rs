//! The other board representations, the classical twelve bitboards and the dense eight, eight
//! sets per instruction: the classical board is `sets`' minterms permuted by `vpermt2q`, the dense
//! one the same minterms with other codes, and the way back is three-way ORs in one `vpternlogq`.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{A, B, C, qwords, splat, store_quad};
use super::sets::{hex_registers, minterm_operand, planes_and_complements, select};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

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
    use crate::backend::avx512::sets::tests::{hex_model, lanes, permute, pick, ternary};
    use crate::backend::{Backend, Scalar};
    use crate::conformance::SplitMix64;

    // The lane movements and truth tables of the kernels written out from Intel's pseudo-code
    // (the models are `sets`'), so that the operand tables are checked on any CPU, AVX-512 or not.

    #[test]
    fn operand_tables_make_the_boards_of_the_reference() {
        let mut rng = SplitMix64(0x5E75);
        for _ in 0..2000 {
            let quad = rng.quad();
            let (planes, complements) = lanes(&quad);
            let [low, high] = hex_model(&quad);

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
