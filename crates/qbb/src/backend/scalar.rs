//! The scalar reference: plain Rust that reads like the articles, one bitboard at a time.
//! Every other backend must agree with it bit for bit, on any input.

use crate::aspects::{MoveAspects, Special};
use crate::backend::{Backend, BackendKind};
use crate::direction::{Direction, NOT_A, NOT_AB, NOT_GH, NOT_H};
use crate::hash::{MANINO_A, MANINO_B, MANINO_C, ZOBRIST};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::piece::{Color, Piece, PieceType};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

/// The reference backend; runs everywhere.
#[derive(Copy, Clone, Debug, Default)]
pub struct Scalar;

// SAFETY: the scalar backend uses no instruction beyond the base architecture.
unsafe impl Backend for Scalar {
    const KIND: BackendKind = BackendKind::Scalar;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[];

    #[inline(always)]
    fn new() -> Option<Scalar> {
        Some(Scalar)
    }

    #[inline(always)]
    fn with_features<R>(self, job: impl FnOnce(Scalar) -> R) -> R {
        job(self)
    }

    // ANCHOR: piece_at
    #[inline]
    fn piece_at(self, quad: &Quad, sq: Square) -> u8 {
        let s = sq.index();
        let bit = |plane: usize| ((quad.bb[plane] >> s) & 1) as u8;
        bit(0) | bit(1) << 1 | bit(2) << 2 | bit(3) << 3
    }
    // ANCHOR_END: piece_at

    // ANCHOR: set_piece
    #[inline]
    fn set_piece(self, quad: &mut Quad, sq: Square, code: u8) {
        for (plane, bb) in quad.bb.iter_mut().enumerate() {
            let bit = u64::from(code >> plane & 1);
            *bb = (*bb & !sq.bit()) | bit << sq.index();
        }
    }
    // ANCHOR_END: set_piece

    // ANCHOR: piece_sets
    #[inline]
    fn piece_sets(self, quad: &Quad) -> PieceSets {
        let [bb0, bb1, bb2, bb3] = quad.bb;
        let occupied = bb1 | bb2 | bb3;
        let odd = bb1 ^ bb2 ^ bb3; // pawn or knight or rook
        PieceSets {
            black: bb0,
            white: bb0 ^ occupied,
            occupied,
            odd,
            pawns: odd & bb1,
            knights: odd & bb2,
            bishops: bb1 & bb2,
            rooks: odd & bb3,
            queens: bb1 & bb3,
            kings: bb2 & bb3,
        }
    }
    // ANCHOR_END: piece_sets

    // ANCHOR: hex_sets
    #[inline]
    fn hex_sets(self, quad: &Quad) -> HexSets {
        let mut out = HexSets::default();
        for (code, set) in out.0.iter_mut().enumerate() {
            // A square is in set `code` when every plane agrees with the corresponding bit.
            *set = (0..4).fold(!0u64, |acc, plane| {
                let bb = quad.bb[plane];
                acc & if code >> plane & 1 != 0 { bb } else { !bb }
            });
        }
        out
    }
    // ANCHOR_END: hex_sets

    // ANCHOR: to_mailbox
    #[inline]
    fn to_mailbox(self, quad: &Quad) -> Mailbox {
        let mut out = Mailbox::default();
        for sq in Square::all() {
            out.0[sq.index()] = self.piece_at(quad, sq);
        }
        out
    }
    // ANCHOR_END: to_mailbox

    // ANCHOR: from_mailbox
    #[inline]
    fn from_mailbox(self, mailbox: &Mailbox) -> Quad {
        let mut quad = Quad::EMPTY;
        for (s, &code) in mailbox.0.iter().enumerate() {
            for (plane, bb) in quad.bb.iter_mut().enumerate() {
                *bb |= u64::from(code >> plane & 1) << s;
            }
        }
        quad
    }
    // ANCHOR_END: from_mailbox

    // ANCHOR: move_delta
    #[inline]
    fn move_delta(self, m: &MoveAspects) -> Quad {
        let mut delta = Quad::nibble_at(m.from, m.piece) ^ Quad::nibble_at(m.to, m.landing_code());
        if m.captured != 0 {
            delta ^= Quad::nibble_at(m.capture_square(), m.captured);
        }
        if let Special::Castle {
            rook_from,
            rook_to,
            rook,
        } = m.special
        {
            delta ^= Quad::nibble_at(rook_from, rook) ^ Quad::nibble_at(rook_to, rook);
        }
        delta
    }
    // ANCHOR_END: move_delta

    // ANCHOR: flip
    #[inline]
    fn flip(self, quad: &Quad) -> Quad {
        // Mirror the board: rank r becomes rank 7 - r, one byte swap per plane ...
        let m = quad.mirrored();
        // ... and every piece changes colour: empty squares keep their colour bit.
        Quad::new(m.bb[0] ^ m.occupied(), m.bb[1], m.bb[2], m.bb[3])
    }
    // ANCHOR_END: flip

    // ANCHOR: occluded_fills
    #[inline]
    fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8] {
        Direction::ALL.map(|dir| Quad {
            bb: generators.bb.map(|g| occluded_fill(g, empty, dir)),
        })
    }
    // ANCHOR_END: occluded_fills

    // ANCHOR: slider_attacks
    #[inline]
    fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64 {
        let orth_attacks = Direction::ORTHOGONAL
            .iter()
            .fold(0, |acc, &d| acc | ray_attacks(orth, empty, d));
        let diag_attacks = Direction::DIAGONAL
            .iter()
            .fold(0, |acc, &d| acc | ray_attacks(diag, empty, d));
        orth_attacks | diag_attacks
    }
    // ANCHOR_END: slider_attacks

    // ANCHOR: knight_attacks
    #[inline]
    fn knight_attacks(self, knights: u64) -> u64 {
        let n = knights;
        ((n << 17) & NOT_A)   // noNoEa
            | ((n << 10) & NOT_AB)  // noEaEa
            | ((n >> 6) & NOT_AB)   // soEaEa
            | ((n >> 15) & NOT_A)   // soSoEa
            | ((n << 15) & NOT_H)   // noNoWe
            | ((n << 6) & NOT_GH)   // noWeWe
            | ((n >> 10) & NOT_GH)  // soWeWe
            | ((n >> 17) & NOT_H) // soSoWe
    }
    // ANCHOR_END: knight_attacks

    // ANCHOR: checks_and_pins
    #[inline]
    fn checks_and_pins(self, p: &SliderPosition) -> [KingSafety; 2] {
        let empty = !p.occupied();
        [Color::White, Color::Black].map(|us| {
            let (c, e) = (us.index(), us.other().index());
            let mut out = KingSafety::default();
            for dir in Direction::ALL {
                let sliders = if dir.is_diagonal() {
                    p.diag[e]
                } else {
                    p.orth[e]
                };
                // The king looks along `dir`; the sliders look back along the opposite ray.
                let from_king = ray_attacks(p.kings[c], empty, dir);
                let from_sliders = ray_attacks(sliders, empty, dir.opposite());
                let between = from_king & from_sliders;
                out.checkers |= from_king & sliders;
                out.check_mask |= between & empty;
                out.pinned |= between & p.pieces[c];
                out.discoverers |= between & p.pieces[e];
            }
            out.check_mask |= out.checkers;
            out
        })
    }
    // ANCHOR_END: checks_and_pins

    // ANCHOR: weighted_popcount
    #[inline]
    fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
        sets.iter()
            .zip(weights)
            .map(|(&bb, &w)| bb.count_ones() as i32 * i32::from(w))
            .sum()
    }
    // ANCHOR_END: weighted_popcount

    // ANCHOR: nibble_arith
    #[inline]
    fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        nibble_lanes(a, b, |x, y| x.wrapping_add(y))
    }

    #[inline]
    fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        nibble_lanes(a, b, |x, y| x.wrapping_sub(y))
    }

    #[inline]
    fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        nibble_lanes(a, b, |x, y| (x + y) / 2)
    }
    // ANCHOR_END: nibble_arith

    // ANCHOR: nibble_board
    #[inline]
    fn to_nibble_board(self, quad: &Quad) -> NibbleBoard {
        let mut out = NibbleBoard::default();
        for sq in Square::all() {
            out.set(sq, self.piece_at(quad, sq));
        }
        out
    }

    #[inline]
    fn from_nibble_board(self, board: &NibbleBoard) -> Quad {
        let mut quad = Quad::EMPTY;
        for sq in Square::all() {
            let code = board.get(sq);
            for (plane, bb) in quad.bb.iter_mut().enumerate() {
                *bb |= u64::from(code >> plane & 1) << sq.index();
            }
        }
        quad
    }
    // ANCHOR_END: nibble_board

    // ANCHOR: classical
    #[inline]
    fn to_classical(self, quad: &Quad) -> ClassicalBoard {
        let hex = self.hex_sets(quad);
        let mut out = ClassicalBoard::default();
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let piece = Piece::new(color, kind);
                out.bb[ClassicalBoard::index(piece)] = hex.0[piece.code() as usize];
            }
        }
        out
    }

    #[inline]
    fn from_classical(self, board: &ClassicalBoard) -> Quad {
        let mut quad = Quad::EMPTY;
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let piece = Piece::new(color, kind);
                let set = board.pieces(piece);
                for (plane, bb) in quad.bb.iter_mut().enumerate() {
                    if piece.code() >> plane & 1 != 0 {
                        *bb |= set;
                    }
                }
            }
        }
        quad
    }
    // ANCHOR_END: classical

    // ANCHOR: dense
    #[inline]
    fn to_dense(self, quad: &Quad) -> DenseBoard {
        let hex = self.hex_sets(quad);
        let mut out = DenseBoard::default();
        for kind in PieceType::ALL {
            let white = hex.0[Piece::new(Color::White, kind).code() as usize];
            let black = hex.0[Piece::new(Color::Black, kind).code() as usize];
            out.bb[2 + kind.index()] = white | black;
            out.bb[DenseBoard::WHITE] |= white;
            out.bb[DenseBoard::BLACK] |= black;
        }
        out
    }

    #[inline]
    fn from_dense(self, board: &DenseBoard) -> Quad {
        let mut quad = Quad::EMPTY;
        let mut typed = 0;
        for kind in PieceType::ALL {
            let set = board.of_type(kind);
            typed |= set;
            for bit in 0..3 {
                if (kind as u8) >> bit & 1 != 0 {
                    quad.bb[1 + bit] |= set;
                }
            }
        }
        quad.bb[0] = board.bb[DenseBoard::BLACK] & typed;
        quad
    }
    // ANCHOR_END: dense

    // ANCHOR: hash
    #[inline]
    fn hash_manino(self, quad: &Quad, state: u64) -> u64 {
        let mut key = state.wrapping_mul(MANINO_C);
        for i in 0..4 {
            key ^= (quad.bb[i] & 0xFFFF_FFFF).wrapping_mul(MANINO_A[i]);
            key ^= (quad.bb[i] >> 32).wrapping_mul(MANINO_B[i]);
        }
        key
    }

    #[inline]
    fn hash_zobrist(self, quad: &Quad) -> u64 {
        Square::all().fold(0, |key, sq| {
            key ^ ZOBRIST[self.piece_at(quad, sq) as usize][sq.index()]
        })
    }
    // ANCHOR_END: hash
}

// ANCHOR: occluded_fill
/// Kogge-Stone occluded fill of one generator set in one direction: three doubling steps, the
/// propagator shifted along so that each step covers twice the distance of the one before.
#[inline]
pub fn occluded_fill(mut fill: u64, empty: u64, dir: Direction) -> u64 {
    let mut pro = empty & dir.wrap_mask();
    let step = dir.delta();
    let shift = |bb: u64, n: i32| if n > 0 { bb << n } else { bb >> -n };
    fill |= pro & shift(fill, step);
    pro &= shift(pro, step);
    fill |= pro & shift(fill, 2 * step);
    pro &= shift(pro, 2 * step);
    fill |= pro & shift(fill, 4 * step);
    fill
}
// ANCHOR_END: occluded_fill

// ANCHOR: ray_attacks
/// Ray attacks: the occluded fill shifted one step further (it then includes the blocker).
#[inline]
pub fn ray_attacks(sliders: u64, empty: u64, dir: Direction) -> u64 {
    dir.shift(occluded_fill(sliders, empty, dir))
}
// ANCHOR_END: ray_attacks

/// Applies `op` to each pair of nibble lanes (mod 16).
#[inline]
fn nibble_lanes(a: &NibbleBoard, b: &NibbleBoard, op: impl Fn(u8, u8) -> u8) -> NibbleBoard {
    let mut out = NibbleBoard::default();
    for sq in Square::all() {
        out.set(sq, op(a.get(sq), b.get(sq)) & 15);
    }
    out
}
