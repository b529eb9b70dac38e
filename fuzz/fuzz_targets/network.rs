//! The network file loader (`EvalFile`): any bytes are refused with a one-line reason or loaded;
//! and a network of any weights (the input, repeated) writes, reads back the same and evaluates on
//! every backend alike, its incremental updates equal to a refresh, without a panic.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use qbb::nnue::Network;
use qbb_engine::nnue::Evaluator;
use qbb_engine::{MoveList, Position};

/// Positions whose children between them make every kind of move: quiet, capture, castling on
/// both sides, en passant, promotion.
const POSITIONS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    match Network::from_bytes(data) {
        Ok(net) => evaluate_everywhere(Arc::from(net)),
        Err(e) => {
            let reason = e.to_string();
            assert!(!reason.is_empty() && !reason.contains('\n'), "{reason:?}");
        }
    }
    if data.len() < 2 {
        return;
    }
    // Every weight drawn from the input, the output bias too: the extremes are reached.
    let mut words = data
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .cycle();
    let mut net = Network::random(&mut || words.next().expect("cycled"));
    net.output_bias = i32::from_le_bytes(std::array::from_fn(|i| data[i % data.len()]));
    let bytes = net.to_bytes();
    let loaded = Network::from_bytes(&bytes).expect("a network's own file loads");
    assert!(loaded == net, "the file reads back to another network");
    evaluate_everywhere(Arc::from(loaded));
});

/// Evaluates each position and each of its children on every backend, the children both by
/// incremental update and by refresh: all the same.
fn evaluate_everywhere(net: Arc<Network>) {
    for fen in POSITIONS {
        let root = Position::from_fen(fen).expect("a valid FEN");
        let mut reference = None;
        for kind in qbb_fuzz::backends() {
            let scores = qbb::with_backend!(kind, |b| {
                let mut evaluator = Evaluator::default();
                evaluator.set_network(Arc::clone(&net));
                let mut fresh = Evaluator::default();
                fresh.set_network(Arc::clone(&net));
                evaluator.set_root(b, &root);
                let mut scores = vec![evaluator.evaluate(b, 0, &root)];
                let mut moves = MoveList::new();
                root.generate_moves(b, &mut moves);
                for &mv in moves.iter() {
                    let (child, delta) = root.make_move_with_delta(b, mv);
                    evaluator.make_move(b, 0, &root, &delta);
                    let updated = evaluator.evaluate(b, 1, &child);
                    fresh.set_root(b, &child);
                    assert_eq!(updated, fresh.evaluate(b, 0, &child), "{fen} after {mv:?}");
                    scores.push(updated);
                }
                scores
            })
            .expect("the backend is available");
            match &reference {
                None => reference = Some(scores),
                Some(expected) => assert_eq!(&scores, expected, "{kind} on {fen}"),
            }
        }
    }
}
