//! What the fuzz targets check, shared by them: a position the engine accepted must behave on
//! every backend this CPU runs (the same moves, the same counts, make-move consistent with a
//! fresh parse), and the engine's answers must come back within the limits it was given.

use qbb::BackendKind;
use qbb_engine::{Attacks, MoveList, Position, perft_on};

/// The backends this CPU runs, the scalar reference first.
pub fn backends() -> impl Iterator<Item = BackendKind> {
    BackendKind::ALL.into_iter().filter(|k| k.is_available())
}

/// The legal moves of `pos` in UCI notation, sorted, on one backend.
pub fn legal_moves(kind: BackendKind, pos: &Position) -> Vec<String> {
    let chess960 = pos.is_chess960();
    let mut moves = qbb::with_backend!(kind, |b| {
        let mut list = MoveList::new();
        pos.generate_moves(b, &mut list);
        list.iter()
            .map(|&mv| pos.move_to_uci(mv, chess960))
            .collect::<Vec<_>>()
    })
    .expect("the backend is available");
    moves.sort();
    moves
}

/// Checks a position the engine accepted: its FEN reads back to the same position, every backend
/// generates the same legal moves and counts the same perft(2) with either attack source and
/// either way of counting, and each child's FEN reads back to that child (its hash included,
/// which make-move updates incrementally and a parse computes from scratch).
pub fn check_position(pos: &Position) {
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen)
        .unwrap_or_else(|e| panic!("the engine's own FEN `{fen}` is refused: {e}"));
    assert_eq!(&again, pos, "`{fen}` reads back to another position");

    let reference = legal_moves(BackendKind::Scalar, pos);
    let reference_perft =
        perft_on(BackendKind::Scalar, Attacks::Tables, pos, 2, false).expect("scalar runs");
    for kind in backends() {
        assert_eq!(legal_moves(kind, pos), reference, "{kind} moves of `{fen}`");
        for attacks in Attacks::ALL {
            for bulk in [false, true] {
                let nodes =
                    perft_on(kind, attacks, pos, 2, bulk).expect("the backend is available");
                assert_eq!(
                    nodes, reference_perft,
                    "perft(2) of `{fen}` on {kind}, attacks {attacks}, bulk {bulk}"
                );
            }
        }
    }

    let mut list = MoveList::new();
    pos.generate_moves(qbb::Scalar, &mut list);
    for &mv in list.iter() {
        let child = pos.make_move(qbb::Scalar, mv);
        let child_fen = child.to_fen();
        let parsed = Position::from_fen(&child_fen).unwrap_or_else(|e| {
            panic!("`{fen}` after {mv:?}: the child's FEN `{child_fen}` is refused: {e}")
        });
        assert_eq!(parsed, child, "`{fen}` after {mv:?}: `{child_fen}`");
    }
}

/// The input as text: libFuzzer's bytes, invalid UTF-8 replaced (the engine reads its input the
/// same way).
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
