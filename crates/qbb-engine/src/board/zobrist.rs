//! Zobrist hashing of a position: the quad's piece keys of `qbb::hash::ZOBRIST` (absolute code and
//! square), xor the keys of the castling rights, the en-passant file and the side to move.
//!
//! The position is kept in relative orientation, but its hash must not depend on who is to move
//! more than through the side key, so piece keys are looked up by the absolute square and code.

use qbb::hash::{ZOBRIST, splitmix};
use qbb::{Color, Square};

/// Keys 0..64: a castling right, by the absolute square of its rook (only ranks 1 and 8 are
/// used); 64..72: the en-passant file a..h; 72: black to move.
const fn state_keys() -> [u64; 73] {
    let mut keys = [0; 73];
    let mut state = 0x5142_422D_7374_6174; // "QBB-stat"
    let mut i = 0;
    while i < 73 {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

const KEYS: [u64; 73] = state_keys();

/// The key of the side to move being black.
pub(crate) const SIDE: u64 = KEYS[72];

/// The keys of the castling rights of the rooks on `rooks`, a relative set when `side` is to move.
#[inline(always)]
pub(crate) fn castling_of(side: Color, rooks: u64) -> u64 {
    let absolute = match side {
        Color::White => rooks,
        Color::Black => rooks.swap_bytes(),
    };
    let mut key = 0;
    let mut rest = absolute;
    while rest != 0 {
        key ^= KEYS[rest.trailing_zeros() as usize & 63];
        rest &= rest - 1;
    }
    key
}

/// The key of an en-passant square on `file` (0..8).
#[inline(always)]
pub(crate) const fn en_passant(file: u8) -> u64 {
    KEYS[64 + (file & 7) as usize]
}

/// How a relative (code, square) pair maps to the absolute one when `side` is to move, as a mask
/// to xor into the index `code << 6 | square`: relative codes have colour bit 1 for the side to
/// move where absolute codes have 1 for black, and relative squares are mirrored when black is to
/// move.
#[inline(always)]
const fn view(side: Color) -> usize {
    match side {
        Color::White => 1 << 6,
        Color::Black => 56,
    }
}

/// The key of relative code `code` on relative square `sq` when `side` is to move.
#[inline(always)]
pub(crate) fn piece(side: Color, code: u8, sq: Square) -> u64 {
    let index = usize::from(code) << 6 | sq.index();
    ZOBRIST.as_flattened()[(index ^ view(side)) & 1023]
}
