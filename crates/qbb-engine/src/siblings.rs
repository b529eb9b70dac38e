//! Perft's bulk count one ply above the leaves, from what the children of a node share.
//!
//! The children of a node differ by one move. When the move is quiet (no capture, no promotion,
//! no castling, and no en-passant capture for the opponent after it), the child is the node with
//! the move passed to the opponent, "the null child", and one piece of the mover moved: two
//! squares change, both of the opponent's side as the child sees it. The child's king moves,
//! castling, checks and pins are found as always, from the child's own sets. But in a child with
//! no check and no pin the moves of the other pieces are the null child's, unless one of the
//! two squares is a square they depend on:
//!
//! - the knights' never: they may go to every square their side does not hold, and a quiet move
//!   of the other side leaves those alone;
//! - the sliders' when a square is one they attack: along a ray, only the squares up to the
//!   first blocker, that blocker included, decide where the ray ends;
//! - the pawns' when a square is one a pawn pushes to or through, or captures on.
//!
//! So those three counts are made once per node, for the null child, and a quiet child pays for
//! its king, and for its sliders or pawns only when the move touched theirs. No quiet child is
//! made: its piece sets are the null child's with the moved piece's two squares flipped. The
//! other children are made and counted in batches (`lanes.rs`).

use qbb::Backend;

use crate::attack_source::AttackSource;
use crate::attacks::Tables;
use crate::movegen::{
    Counter, RelativeSets, king_moves, knight_moves, other_moves, pawn_captures, pawn_moves,
    pawn_pushes, slider_moves,
};
use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// The null child of a node one ply above the leaves, and its counts.
pub(crate) struct Siblings {
    /// The node with the move passed: every quiet child's castling rights, and no en-passant
    /// square.
    null: Position,
    /// The null child's piece sets, named from its side.
    board: RelativeSets,
    /// The moves of the null child's knights, sliders and pawns, with no check and no pin.
    knights: u64,
    sliders: u64,
    pawns: u64,
    /// The squares the null child's sliders attack: their count changes only there.
    slider_squares: u64,
    /// The squares its pawns push to or through or capture on: their count changes only there.
    pawn_squares: u64,
}

impl Siblings {
    /// The null child of `pos` and its counts, with attacks from `a`.
    #[inline(always)]
    pub(crate) fn new<B: Backend, A: AttackSource>(
        b: B,
        a: A,
        t: &Tables,
        pos: &Position,
    ) -> Siblings {
        let null = pos.passed_unkeyed(b);
        let board = RelativeSets::new(b, &null.quad);
        let (us, occupied) = (board.us, board.occupied);
        let (mut knights, mut sliders) = (Counter(0), Counter(0));
        knight_moves(t, board.knights & us, !us, &mut knights);
        slider_moves(b, a, t, &board, !0, !us, &mut sliders);
        let orth = (board.rooks | board.queens) & us;
        let diag = (board.bishops | board.queens) & us;
        // Every square a pawn could push to or through, or capture on: all of them empty, all
        // of them the opponent's.
        let (push, double) = pawn_pushes(board.pawns & us, !0);
        let (west, east) = pawn_captures(board.pawns & us, !0);
        Siblings {
            null,
            board,
            knights: knights.0,
            sliders: sliders.0,
            pawns: count_pawn_moves(&board),
            slider_squares: a.sliders(b, t, orth, diag, occupied),
            pawn_squares: push | double | west | east,
        }
    }

    // ANCHOR: count_quiet
    /// The number of legal moves of the child that `mv` (a legal move of `pos`) makes, if `mv`
    /// is quiet; `None` for the other moves, whose children are made and counted.
    #[inline(always)]
    pub(crate) fn count_quiet<B: Backend, A: AttackSource>(
        &self,
        b: B,
        a: A,
        t: &Tables,
        pos: &Position,
        mv: Move,
    ) -> Option<u64> {
        let quiet = mv.captured_bits().is_none()
            && mv.promotion_bits().is_none()
            && (mv.is(MoveKind::Normal)
                || mv.is(MoveKind::DoublePush) && !pos.double_push_gives_en_passant(mv.to()));
        if !quiet {
            return None;
        }
        // The two squares as the child sees them (ranks mirrored), and its sets.
        let squares = (mv.from().bit() | mv.to().bit()).swap_bytes();
        let board = self.board.after_their_move(mv.piece()?, squares);

        let mut counter = Counter(0);
        let node = king_moves::<B, A, _, false>(b, a, t, &self.null, &board, &mut counter);
        if !node.is_free() {
            other_moves::<B, A, _, false>(b, a, t, &self.null, &board, &node, &mut counter);
            return Some(counter.0);
        }
        let sliders = if squares & self.slider_squares == 0 {
            self.sliders
        } else {
            let mut sliders = Counter(0);
            slider_moves(b, a, t, &board, !0, !board.us, &mut sliders);
            sliders.0
        };
        let pawns = if squares & self.pawn_squares == 0 {
            self.pawns
        } else {
            count_pawn_moves(&board)
        };
        Some(counter.0 + self.knights + sliders + pawns)
    }
    // ANCHOR_END: count_quiet
}

/// The moves of our pawns on `board` in a node with no check and no pin.
#[inline(always)]
fn count_pawn_moves(board: &RelativeSets) -> u64 {
    let mut pawns = Counter(0);
    pawn_moves::<_, false>(
        &mut pawns,
        board.pawns & board.us,
        board.them,
        !board.occupied,
        !0,
    );
    pawns.0
}

#[cfg(test)]
mod tests {
    use qbb::Scalar;
    use qbb_corpus::Suite;

    use super::*;
    use crate::attack_source::{BackendAttacks, TableAttacks};
    use crate::attacks::tables;
    use crate::moves::MoveList;

    /// The quiet moves whose count from the siblings differs from the count of the child made,
    /// in `pos` and in each of its children, and how many quiet moves were counted.
    fn mismatches<A: AttackSource>(a: A, pos: &Position, out: &mut Vec<String>) -> usize {
        let (b, t) = (Scalar, tables());
        let mut quiet = 0;
        let mut moves = MoveList::new();
        pos.generate_moves_by(b, a, &mut moves);
        let siblings = Siblings::new(b, a, t, pos);
        for &mv in &moves {
            let Some(counted) = siblings.count_quiet(b, a, t, pos, mv) else {
                continue;
            };
            quiet += 1;
            let made = pos.make_move(b, mv).count_moves_by(b, a);
            if counted != made {
                out.push(format!("{mv:?}: {counted} counted, {made} made"));
            }
        }
        quiet
    }

    #[test]
    fn a_quiet_child_counts_as_the_child_made() {
        for suite in Suite::ALL {
            let mut quiet = 0;
            for entry in suite.entries().iter().step_by(3) {
                let pos = Position::from_fen(entry.fen).expect("the suites parse");
                let mut moves = MoveList::new();
                pos.generate_moves(Scalar, &mut moves);
                let children = moves.iter().map(|&mv| pos.make_move(Scalar, mv));
                let mut out = Vec::new();
                for node in std::iter::once(pos).chain(children) {
                    quiet += mismatches(TableAttacks, &node, &mut out);
                    quiet += mismatches(BackendAttacks, &node, &mut out);
                }
                assert!(out.is_empty(), "{}: {out:?}", entry.fen);
            }
            assert!(quiet > 1000, "{suite:?}: only {quiet} quiet moves");
        }
    }
}
