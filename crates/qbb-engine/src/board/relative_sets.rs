//! The piece sets of a relative quad (the position's board, seen from the side to move), with
//! the colours named for that side: "us" and "them". Make-move, move generation, the evaluation,
//! SEE and perft's siblings and lanes all read the board through it.

use std::ops::Deref;

use qbb::{Backend, PieceSets, PieceType, Quad};

// ANCHOR: relative_sets
/// The backend's piece sets of a relative quad, with the colour sets named for the side the quad
/// is seen from: "us" (the side to move, for a position's quad) and "them". The type sets are
/// read through [`Deref`]; `us` and `them` are the names to use for the colours.
#[derive(Copy, Clone)]
pub(crate) struct RelativeSets {
    pub us: u64,
    pub them: u64,
    sets: PieceSets,
}

impl RelativeSets {
    #[inline(always)]
    pub fn new<B: Backend>(b: B, quad: &Quad) -> RelativeSets {
        RelativeSets::of(b.piece_sets(quad))
    }

    /// The sets of a relative quad, named.
    #[inline(always)]
    pub fn of(sets: PieceSets) -> RelativeSets {
        // In relative orientation the backend's "black" (plane 0) is the side to move.
        RelativeSets {
            us: sets.black & sets.occupied,
            them: sets.white,
            sets,
        }
    }
    // ANCHOR_END: relative_sets

    /// These sets with the occupancy of `squares` flipped, the colour and type sets left alone:
    /// all that the opponent's attacks on our king see of an en-passant capture.
    #[inline(always)]
    pub fn with_occupancy_flipped(mut self, squares: u64) -> RelativeSets {
        self.sets.occupied ^= squares;
        self
    }

    /// These sets after the opponent's piece of type `kind` moved between the two squares of
    /// `squares`, capturing nothing.
    #[inline(always)]
    pub fn after_their_move(mut self, kind: PieceType, squares: u64) -> RelativeSets {
        self.them ^= squares;
        self.sets.white ^= squares;
        self.sets.occupied ^= squares;
        toggle_type(&mut self.sets, kind, squares);
        self
    }

    /// These sets after our piece of type `kind` on `square` was taken by the opponent's piece
    /// that [`after_their_move`](Self::after_their_move) moved there.
    #[inline(always)]
    pub fn after_our_loss(mut self, kind: PieceType, square: u64) -> RelativeSets {
        // Exclusive or throughout: `after_their_move` flipped the square's occupancy as if it had
        // been empty; taking our piece off flips it back.
        self.us ^= square;
        self.sets.black ^= square;
        self.sets.occupied ^= square;
        toggle_type(&mut self.sets, kind, square);
        self
    }
}

/// Flips the squares of `bits` in the sets of type `kind`: a piece of that type put there or
/// taken away.
#[inline(always)]
fn toggle_type(sets: &mut PieceSets, kind: PieceType, bits: u64) {
    // `odd` holds the types whose codes have an odd number of type bits.
    match kind {
        PieceType::Pawn => {
            sets.pawns ^= bits;
            sets.odd ^= bits;
        }
        PieceType::Knight => {
            sets.knights ^= bits;
            sets.odd ^= bits;
        }
        PieceType::Bishop => sets.bishops ^= bits,
        PieceType::Rook => {
            sets.rooks ^= bits;
            sets.odd ^= bits;
        }
        PieceType::Queen => sets.queens ^= bits,
        PieceType::King => sets.kings ^= bits,
    }
}

impl Deref for RelativeSets {
    type Target = PieceSets;

    #[inline(always)]
    fn deref(&self) -> &PieceSets {
        &self.sets
    }
}
