//! The move list, differentially: for a position both the engine and shakmaty accept, the same
//! legal moves and the same perft(2), on every backend this CPU runs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qbb_engine::Position;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

fuzz_target!(|data: &[u8]| {
    let text = qbb_fuzz::text(data);
    let Ok(ours) = Position::from_fen(&text) else {
        return;
    };
    let mode = if ours.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let Ok(fen) = text.trim().parse::<Fen>() else {
        return;
    };
    let Ok(theirs) = fen.into_position::<Chess>(mode) else {
        return;
    };
    let mut expected: Vec<String> = theirs
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    expected.sort();
    let expected_perft = shakmaty::perft(&theirs, 2);
    for kind in qbb_fuzz::backends() {
        assert_eq!(
            qbb_fuzz::legal_moves(kind, &ours),
            expected,
            "{kind}: `{text}`"
        );
        let nodes = qbb_engine::perft_on(kind, qbb_engine::Attacks::Tables, &ours, 2, true)
            .expect("the backend is available");
        assert_eq!(nodes, expected_perft, "{kind} perft(2): `{text}`");
    }
});
