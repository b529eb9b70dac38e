//! The EPD parser (the perft suites' format): each line is refused with a reason or read, and a
//! line read writes back to a line that reads to the same position and operations.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qbb_engine::Epd;

fuzz_target!(|data: &[u8]| {
    let text = qbb_fuzz::text(data);
    for line in text.lines() {
        let Ok(epd) = Epd::parse(line) else {
            continue;
        };
        // Counts may be malformed (refused) but never panic.
        let _ = epd.perft_counts();
        let written = epd.to_epd();
        let again = Epd::parse(&written)
            .unwrap_or_else(|e| panic!("the engine's own EPD `{written}` is refused: {e}"));
        assert_eq!(again.position, epd.position, "`{written}`");
        assert_eq!(again.operations.len(), epd.operations.len(), "`{written}`");
        // How an accepted position behaves is the fen target's: here, only that it has moves.
        let _ = qbb_fuzz::legal_moves(qbb::BackendKind::Scalar, &epd.position);
    }
});
