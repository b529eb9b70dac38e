//! Zobrist hashing of a position: the quad's piece keys of `qbb::hash::ZOBRIST` (absolute code and
//! square), xor the keys of the castling rights, the en-passant file and the side to move.
//!
//! The position is kept in relative orientation, but its hash must not depend on who is to move
//! more than through the side key, so piece keys are looked up by the absolute square and code.

use qbb::Color;
use qbb::hash::ZOBRIST;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys 0..4: castling rights (white short, white long, black short, black long); 4..12: the
/// en-passant file a..h; 12: black to move.
const fn state_keys() -> [u64; 13] {
    let mut keys = [0; 13];
    let mut state = 0x5142_422D_7374_6174; // "QBB-stat"
    let mut i = 0;
    while i < 13 {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

const KEYS: [u64; 13] = state_keys();

/// The key of the side to move being black.
pub(crate) const SIDE: u64 = KEYS[12];

/// The key of a castling right; `right` is absolute: 0 white short, 1 white long, 2 black short,
/// 3 black long.
#[inline(always)]
pub(crate) const fn castling(right: usize) -> u64 {
    KEYS[right & 3]
}

/// The key of an en-passant square on `file` (0..8).
#[inline(always)]
pub(crate) const fn en_passant(file: usize) -> u64 {
    KEYS[4 + (file & 7)]
}

/// The key of relative code `code` on relative square `sq` when `side` is to move: relative codes
/// have colour bit 1 for the side to move, absolute codes 1 for black; relative squares are
/// mirrored when black is to move.
#[inline(always)]
pub(crate) fn piece(side: Color, code: usize, sq: usize) -> u64 {
    let white = (side == Color::White) as usize;
    let mirror = (side == Color::Black) as usize * 56;
    ZOBRIST[(code ^ white) & 15][(sq ^ mirror) & 63]
}
