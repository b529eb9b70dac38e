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
//! A plain capture (not en passant, not a promotion) changes the target further: the child's own
//! piece there is gone, and the target is now the opponent's. The knights then gain the
//! target wherever one of them attacks it, the sliders' and pawns' counts change as above (the
//! target is among the squares they attack) or when the piece taken was one of theirs, and a
//! rook taken on its castling square takes a castling right with it: that child is made.
//!
//! So those three counts are made once per node, for the null child, and a quiet child or a
//! capture pays for its king, and for its sliders or pawns only when the move touched theirs. No
//! such child is made: its piece sets are the null child's with the changed squares flipped. The
//! other children are made and counted in batches (`lanes.rs`).

use qbb::{Backend, PieceType};

use crate::board::attack_source::AttackSource;
use crate::board::attacks::Tables;
use crate::board::movegen::{
    Counter, Generator, knight_moves, pawn_captures, pawn_moves, pawn_pushes,
};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::relative_sets::RelativeSets;

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
        g: Generator<'_, B, A>,
        pos: &Position,
    ) -> Siblings {
        let Generator { b, a, t } = g;
        let null = pos.passed_unkeyed(b);
        let board = RelativeSets::new(b, &null.quad);
        let (us, occupied) = (board.us, board.occupied);
        let mut sliders = Counter(0);
        g.slider_moves(&board, !0, !us, &mut sliders);
        let orth = (board.rooks | board.queens) & us;
        let diag = (board.bishops | board.queens) & us;
        // Every square a pawn could push to or through, or capture on: all of them empty, all
        // of them the opponent's.
        let (push, double) = pawn_pushes(board.pawns & us, !0);
        let (west, east) = pawn_captures(board.pawns & us, !0);
        Siblings {
            null,
            board,
            knights: count_knight_moves(t, &board),
            sliders: sliders.0,
            pawns: count_pawn_moves(&board),
            slider_squares: a.sliders(b, t, orth, diag, occupied),
            pawn_squares: push | double | west | east,
        }
    }

    // ANCHOR: count_quiet
    /// The number of legal moves of the child that `mv` (a legal move of `pos`) makes, if `mv`
    /// is quiet; `None` for the other moves (a capture's child may be counted by
    /// [`count_capture`](Self::count_capture), the others are made and counted).
    #[inline(always)]
    pub(crate) fn count_quiet<B: Backend, A: AttackSource>(
        &self,
        g: Generator<'_, B, A>,
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
        if !self.count_king(g, &board, &mut counter) {
            return Some(counter.0);
        }
        let sliders = squares & self.slider_squares != 0;
        let pawns = squares & self.pawn_squares != 0;
        Some(counter.0 + self.knights + self.others(g, &board, sliders, pawns))
    }
    // ANCHOR_END: count_quiet

    // ANCHOR: count_capture
    /// The number of legal moves of the child that `mv` makes, if `mv` is a plain capture (not
    /// en passant, not a promotion, not of a rook that may still castle); `None` for the other
    /// moves.
    #[inline(always)]
    pub(crate) fn count_capture<B: Backend, A: AttackSource>(
        &self,
        g: Generator<'_, B, A>,
        mv: Move,
    ) -> Option<u64> {
        let target = mv.to().mirrored();
        let plain = mv.is(MoveKind::Normal)
            && mv.promotion_bits().is_none()
            && target.bit() & self.null.castle_rooks == 0;
        if !plain {
            return None;
        }
        let taken = mv.captured()?;
        // The move's two squares as the child sees them, and its sets: ours taken on one.
        let squares = (mv.from().bit() | mv.to().bit()).swap_bytes();
        let board = self
            .board
            .after_their_move(mv.piece()?, squares)
            .after_our_loss(taken, target.bit());
        let mut counter = Counter(0);
        if !self.count_king(g, &board, &mut counter) {
            return Some(counter.0);
        }
        let t = g.t;
        // The target was ours: now every knight of ours that attacks it may go there.
        let knights = if taken == PieceType::Knight {
            count_knight_moves(t, &board)
        } else {
            self.knights + u64::from((t.knight[target] & board.knights & board.us).count_ones())
        };
        let slider = matches!(
            taken,
            PieceType::Bishop | PieceType::Rook | PieceType::Queen
        );
        let sliders = slider || squares & self.slider_squares != 0;
        let pawns = taken == PieceType::Pawn || squares & self.pawn_squares != 0;
        Some(counter.0 + knights + self.others(g, &board, sliders, pawns))
    }
    // ANCHOR_END: count_capture

    // ANCHOR: count_king
    /// Counts into `counter` the moves of the king of the child whose sets are `board`, and
    /// returns whether the child is free (no check, no pin). A child that is not is counted whole
    /// here, all its other moves by the generator's own code.
    #[inline(always)]
    fn count_king<B: Backend, A: AttackSource>(
        &self,
        g: Generator<'_, B, A>,
        board: &RelativeSets,
        counter: &mut Counter,
    ) -> bool {
        let node = g.king_moves::<_, false>(&self.null, board, counter);
        if !node.is_free() {
            g.other_moves::<_, false>(&self.null, board, &node, counter);
            return false;
        }
        true
    }
    // ANCHOR_END: count_king

    /// The moves of the sliders and pawns of a child with no check and no pin whose sets are
    /// `board`: the null child's counts, each made again where the move touched it.
    #[inline(always)]
    fn others<B: Backend, A: AttackSource>(
        &self,
        g: Generator<'_, B, A>,
        board: &RelativeSets,
        sliders_touched: bool,
        pawns_touched: bool,
    ) -> u64 {
        let sliders = if sliders_touched {
            let mut sliders = Counter(0);
            g.slider_moves(board, !0, !board.us, &mut sliders);
            sliders.0
        } else {
            self.sliders
        };
        let pawns = if pawns_touched {
            count_pawn_moves(board)
        } else {
            self.pawns
        };
        sliders + pawns
    }
}

/// The moves of our knights on `board` in a node with no check and no pin.
#[inline(always)]
fn count_knight_moves(t: &Tables, board: &RelativeSets) -> u64 {
    let mut knights = Counter(0);
    knight_moves(t, board.knights & board.us, !board.us, &mut knights);
    knights.0
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
    use crate::board::attack_source::{BackendAttacks, TableAttacks};
    use crate::board::moves::MoveList;

    /// How many children were counted from their siblings: after a quiet move, after a capture.
    #[derive(Default)]
    struct Counted {
        quiet: usize,
        captures: usize,
    }

    /// The moves whose count from the siblings differs from the count of the child made, in
    /// `pos` and in each of its children, and how many were counted from the siblings.
    fn mismatches<A: AttackSource>(
        a: A,
        pos: &Position,
        counted: &mut Counted,
        out: &mut Vec<String>,
    ) {
        let b = Scalar;
        let g = Generator::new(b, a);
        let mut moves = MoveList::new();
        pos.generate_moves_by(b, a, &mut moves);
        let siblings = Siblings::new(g, pos);
        for &mv in &moves {
            let Some(from_siblings) = siblings
                .count_quiet(g, pos, mv)
                .or_else(|| siblings.count_capture(g, mv))
            else {
                continue;
            };
            if mv.is_capture() {
                counted.captures += 1;
            } else {
                counted.quiet += 1;
            }
            let made = pos.make_move(b, mv).count_moves_by(b, a);
            if from_siblings != made {
                out.push(format!("{mv:?}: {from_siblings} counted, {made} made"));
            }
        }
    }

    #[test]
    fn a_child_counted_from_its_siblings_counts_as_the_child_made() {
        for suite in Suite::ALL {
            let mut counted = Counted::default();
            for entry in suite.entries().iter().step_by(3) {
                let pos = Position::from_fen(entry.fen).expect("the suites parse");
                let mut moves = MoveList::new();
                pos.generate_moves(Scalar, &mut moves);
                let children = moves.iter().map(|&mv| pos.make_move(Scalar, mv));
                let mut out = Vec::new();
                for node in std::iter::once(pos).chain(children) {
                    mismatches(TableAttacks, &node, &mut counted, &mut out);
                    mismatches(BackendAttacks, &node, &mut counted, &mut out);
                }
                assert!(out.is_empty(), "{}: {out:?}", entry.fen);
            }
            let Counted { quiet, captures } = counted;
            assert!(quiet > 1000, "{suite:?}: only {quiet} quiet moves");
            assert!(captures > 100, "{suite:?}: only {captures} captures");
        }
    }
}
