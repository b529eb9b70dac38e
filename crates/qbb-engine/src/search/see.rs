//! Static exchange evaluation: what a capture wins once both sides have recaptured on its square,
//! each with its least valuable attacker, each free to stop when going on would lose.
//!
//! The attackers of the square come from the backend's attack routines run *from* the square
//! (a knight on the square sees exactly the knights that attack it, a rook the rooks, and so on),
//! recomputed after every capture so that sliders lined up behind one another (x-rays) join in.
//! Pins are ignored, as usual: SEE orders and prunes moves, it does not judge legality.

use qbb::{Backend, PieceType};

use crate::board::position::behind;
use crate::board::relative_sets::RelativeSets;
use crate::board::{Move, Position};

/// What a piece is worth in an exchange, pawn to king (0 for the king, which the exchange values at
/// [`KING_VALUE`]); move ordering's MVV-LVA and the quiescence search's delta pruning use the same
/// values.
pub const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The piece a capture takes (`None` for quiet moves; a pawn for en passant).
#[inline]
pub fn victim(pos: &Position, mv: Move) -> Option<PieceType> {
    if mv.is_en_passant() {
        Some(PieceType::Pawn)
    } else if mv.is_capture() {
        pos.piece_on(mv.to())
    } else {
        None
    }
}

/// A king is never traded: it captures last, and only into an undefended square.
const KING_VALUE: i32 = 20_000;

#[inline(always)]
fn value(kind: PieceType) -> i32 {
    match kind {
        PieceType::King => KING_VALUE,
        other => PIECE_VALUE[other.index()],
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Every piece of either side that attacks `target` through `occupied`.
#[inline(always)]
fn attackers<B: Backend>(b: B, sets: &RelativeSets, target: u64, occupied: u64) -> u64 {
    let empty = !occupied;
    // Pawns attack diagonally forward: our pawns (playing up) stand below the target, theirs
    // above it.
    let below = ((target >> 7) & !FILE_A) | ((target >> 9) & !FILE_H);
    let above = ((target << 7) & !FILE_H) | ((target << 9) & !FILE_A);
    let pawns = (below & sets.us | above & !sets.us) & sets.pawns;
    let knights = b.knight_attacks(target) & sets.knights;
    let kings = king_reach(target) & sets.kings;
    let straight = b.slider_attacks(target, 0, empty) & (sets.rooks | sets.queens);
    let diagonal = b.slider_attacks(0, target, empty) & (sets.bishops | sets.queens);
    (pawns | knights | kings | straight | diagonal) & occupied
}

#[inline(always)]
fn king_reach(b: u64) -> u64 {
    let sideways = ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    let row = b | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// The material the capture (or promotion) `mv` wins, in centipawns, after the best sequence of
/// recaptures on its square; 0 for a quiet move.
#[inline(always)]
pub fn exchange<B: Backend>(b: B, pos: &Position, mv: Move) -> i32 {
    let sets = RelativeSets::new(b, pos.quad());
    let (from, to) = (mv.from(), mv.to());
    let target = to.bit();
    let mut occupied = sets.occupied ^ from.bit();
    if mv.is_en_passant() {
        // The captured pawn stands beside the capturing one, on the target's file.
        occupied ^= behind(to, 8).bit();
    }

    let mut gains = [0i32; 32];
    let mover = pos.piece_on(from).map_or(0, value);
    gains[0] = victim(pos, mv).map_or(0, value);
    let mut on_target = mover;
    if let Some(promoted) = mv.promotion() {
        gains[0] += value(promoted) - value(PieceType::Pawn);
        on_target = value(promoted);
    }

    let mut side_is_ours = false; // the opponent recaptures first
    let mut depth = 0;
    loop {
        let all = attackers(b, &sets, target, occupied);
        let side = if side_is_ours { sets.us } else { !sets.us };
        let candidates = all & side;
        if candidates == 0 || depth + 1 >= gains.len() {
            break;
        }
        let Some((kind, square)) = least_valuable(&sets, candidates) else {
            break;
        };
        if kind == PieceType::King && all & !side & occupied & !square != 0 {
            // The king may not take into a defended square.
            break;
        }
        depth += 1;
        // What this side has won if the exchange ends with its capture.
        gains[depth] = on_target - gains[depth - 1];
        on_target = value(kind);
        occupied ^= square;
        side_is_ours = !side_is_ours;
    }
    // Back from the last capture: each side either stops before capturing (keeping what it had)
    // or captures and accepts the rest of the exchange, whichever is worth more.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The least valuable piece among `candidates`, with its square's bit.
#[inline(always)]
fn least_valuable(sets: &RelativeSets, candidates: u64) -> Option<(PieceType, u64)> {
    PieceType::ALL.into_iter().find_map(|kind| {
        let set = candidates & sets.of_type(kind);
        (set != 0).then(|| (kind, set & set.wrapping_neg()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qbb::BackendKind;

    /// The exchange value of the UCI move `uci` in `fen` on `kind`.
    fn exchange_on(kind: BackendKind, fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        qbb::with_backend!(kind, |b| exchange(
            b,
            &pos,
            pos.parse_uci_move(b, uci).unwrap()
        ))
        .unwrap()
    }

    /// The exchange value on every backend this CPU runs, which must agree.
    fn see(fen: &str, uci: &str) -> i32 {
        let reference = exchange_on(BackendKind::Scalar, fen, uci);
        for kind in BackendKind::ALL.into_iter().filter(|k| k.is_available()) {
            let value = exchange_on(kind, fen, uci);
            assert_eq!(value, reference, "{kind}: {fen} {uci}");
        }
        reference
    }

    #[test]
    fn undefended_pieces_are_won_whole() {
        assert_eq!(see("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        assert_eq!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 320);
        assert_eq!(see("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 900);
    }

    #[test]
    fn defended_pieces_cost_the_attacker() {
        // Pawn takes a knight defended by a pawn: knight for pawn.
        assert_eq!(
            see("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            320 - 100
        );
        // Queen takes a pawn defended by a pawn: queen for pawn.
        assert_eq!(see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
        // Rook takes a pawn defended by a pawn: rook for pawn.
        assert_eq!(see("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100 - 500);
        // Knight takes a pawn defended by the queen: knight for pawn.
        assert_eq!(
            see("4k3/8/3q4/8/3p4/5N2/8/4K3 w - - 0 1", "f3d4"),
            100 - 320
        );
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // A rook battery against one defender: RxP, RxR, RxR wins a pawn and a rook for a rook
        // (the front rook alone would lose the exchange: 100 - 500).
        assert_eq!(see("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // The same from the black side: the colour does not matter.
        assert_eq!(see("3rk3/3r4/8/8/3P4/8/8/3RK3 b - - 0 1", "d7d4"), 100);
        // A queen behind a bishop: BxP, PxB, QxP is a bishop for two pawns, not for one.
        assert_eq!(
            see("4k3/8/4p3/3p4/8/1B6/Q7/4K3 w - - 0 1", "b3d5"),
            2 * 100 - 330
        );
    }

    #[test]
    fn en_passant_clears_the_captured_pawn() {
        assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // Defended: pawn for pawn.
        assert_eq!(see("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 0);
        // The rook behind the captured pawn takes part once that pawn has gone.
        assert_eq!(see("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6"), 100);
    }

    #[test]
    fn a_king_recaptures_only_when_safe() {
        // Queen takes a pawn next to the king, protected by a rook behind: the king cannot take.
        assert_eq!(see("4k3/4p3/8/8/8/8/4Q3/4RK2 w - - 0 1", "e2e7"), 100);
        // Unprotected: the king takes the queen.
        assert_eq!(see("4k3/4p3/8/8/8/8/4Q3/5K2 w - - 0 1", "e2e7"), 100 - 900);
    }

    #[test]
    fn quiet_moves_and_promotions() {
        assert_eq!(see("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a5"), 0);
        // Promoting under the rook's eye: the new queen is taken, the pawn is lost.
        assert_eq!(see("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), -100);
        assert_eq!(see("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"), 500 + 800);
    }

    #[test]
    fn only_losing_captures_lose_material() {
        use crate::search::ordering::loses_material;
        let loses = |fen: &str, uci: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let b = qbb::Scalar;
            loses_material(b, &pos, pos.parse_uci_move(b, uci).unwrap())
        };
        assert!(loses("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"));
        assert!(!loses("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"));
        assert!(!loses("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"));
    }
}
