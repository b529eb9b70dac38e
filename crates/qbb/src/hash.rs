//! Keys for hashing a quad from scratch (catalogue row 17): Zobrist's table of random keys, one per
//! nibble code and square, and the nine multipliers of Edoardo Manino's quadboard hash.

/// One step of SplitMix64: the next state and its well-mixed output. A `const fn`, so key tables
/// are computed at compile time.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn zobrist_keys() -> [[u64; 64]; 16] {
    let mut keys = [[0u64; 64]; 16];
    let mut state = 0x5142_4242_2D6C_6162; // "QBBB-lab"
    let mut code = 1; // code 0, the empty square, contributes nothing
    while code < 16 {
        let mut sq = 0;
        while sq < 64 {
            let (next, key) = splitmix(state);
            state = next;
            keys[code][sq] = key;
            sq += 1;
        }
        code += 1;
    }
    keys
}

/// `ZOBRIST[code][square]`; `ZOBRIST[0]` is all zero so that empty squares cost nothing.
pub static ZOBRIST: [[u64; 64]; 16] = zobrist_keys();

const fn manino_constants() -> [u64; 9] {
    let mut out = [0u64; 9];
    let mut state = 0x4D61_6E69_6E6F_2016; // "Manino", 2016
    let mut i = 0;
    while i < 9 {
        let (next, key) = splitmix(state);
        state = next;
        out[i] = key | 1; // odd multipliers lose no low bits
        i += 1;
    }
    out
}

const MANINO: [u64; 9] = manino_constants();
/// The multiplier of the state word (castling, en passant, side to move).
pub const MANINO_C: u64 = MANINO[0];
/// Multipliers of the low halves of the four planes.
pub const MANINO_A: [u64; 4] = [MANINO[1], MANINO[2], MANINO[3], MANINO[4]];
/// Multipliers of the high halves of the four planes.
pub const MANINO_B: [u64; 4] = [MANINO[5], MANINO[6], MANINO[7], MANINO[8]];
