//! The FEN parser: any text is refused with a reason or read into a position that behaves
//! (see `check_position`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qbb_engine::Position;

fuzz_target!(|data: &[u8]| {
    let text = qbb_fuzz::text(data);
    if let Ok(pos) = Position::from_fen(&text) {
        qbb_fuzz::check_position(&pos);
    }
});
