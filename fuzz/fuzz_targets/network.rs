//! The network file loader (`EvalFile`) and the evaluation of a network of any weights. Every
//! input is read as a file: refused with a one-line reason, or loaded. Then its first byte picks
//! one of three more checks, each cheap enough for millions of executions (a network is 386 KiB,
//! so nothing builds, writes or sums a whole one unless it has to):
//!
//! - header: the embedded network's header with the input written over it from an offset, the
//!   rest of the input after it: refused with a one-line reason (it cannot have a network's
//!   length);
//! - file (one input in 64, by a hash of all its bytes): the embedded network's file with the
//!   input written over a window of it, its checksum made right or not: refused with a one-line
//!   reason, or loaded and written back to the same bytes; a file whose header is intact and
//!   whose checksum is right always loads;
//! - weights: the embedded network with the input's words, repeated, as its output layer, its
//!   feature bias and sixteen rows of feature weights from one the input picks, its output bias
//!   four of the input's bytes.
//!
//! A network that loads or is made is evaluated on every backend alike in one of a few positions
//! and one of its children (both picked by input bytes), the child's incremental update equal to
//! a refresh.
#![no_main]

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use qbb::nnue::INPUTS;
use qbb_engine::nnue::{Evaluator, Network, embedded_network};
use qbb_engine::{MoveList, Position};

/// Positions whose children between them make every kind of move: quiet, capture, castling on
/// both sides, en passant, promotion.
const POSITIONS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

/// The file's header: magic, version, shape and quantisation (see `Network::from_bytes`).
const HEADER_BYTES: usize = 32;

/// One input in this many (by its hash) takes the whole-file path.
const FILE_EVERY: u64 = 64;

/// Feature rows the weights path overwrites, from the one the input picks.
const ROWS: usize = 16;

/// The embedded network's file, and its positions parsed.
struct Prepared {
    file: Vec<u8>,
    positions: Vec<Position>,
}

fn prepared() -> &'static Prepared {
    static PREPARED: OnceLock<Prepared> = OnceLock::new();
    PREPARED.get_or_init(|| Prepared {
        file: embedded_network().to_bytes(),
        positions: POSITIONS
            .iter()
            .map(|fen| Position::from_fen(fen).expect("a valid FEN"))
            .collect(),
    })
}

/// What each execution reuses: the network the weights path edits (and puts back), and two
/// evaluators (an accumulator stack each).
struct Scratch {
    network: Arc<Network>,
    updated: Evaluator,
    fresh: Evaluator,
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

fuzz_target!(|data: &[u8]| {
    if let Some(net) = loaded(data) {
        evaluate_everywhere(&Arc::from(net), 0, 0);
    }
    let [mode, a, b, rest @ ..] = data else {
        return;
    };
    // The whole-file path reads, sums and writes 386 KiB: milliseconds under the sanitizers,
    // where the others take a fraction of one. It is picked by a hash of the whole input, not by
    // a byte the mutations keep, so that the inputs it adds to the corpus do not make it the
    // common case.
    if fnv1a(data) % FILE_EVERY == 0 {
        file_with_window(u16::from_le_bytes([*a, *b]), rest);
    } else if mode % 2 == 0 {
        header_with_window(*a, &data[2..]);
    } else {
        weights(u16::from_le_bytes([*a, *b]), rest);
    }
});

/// The bytes read as a network file: the network, or None after checking the refusal's reason.
fn loaded(bytes: &[u8]) -> Option<Box<Network>> {
    match Network::from_bytes(bytes) {
        Ok(net) => Some(net),
        Err(e) => {
            let reason = e.to_string();
            assert!(!reason.is_empty() && !reason.contains('\n'), "{reason:?}");
            None
        }
    }
}

/// A valid header with `input` written over it from `offset`: too short or too long for a
/// network, so refused (by the header's fields or by the length) with a one-line reason.
fn header_with_window(offset: u8, input: &[u8]) {
    let mut bytes = prepared().file[..HEADER_BYTES].to_vec();
    let at = usize::from(offset) % HEADER_BYTES;
    let end = at + input.len();
    if end > bytes.len() {
        bytes.resize(end, 0);
    }
    bytes[at..end].copy_from_slice(input);
    if bytes.len() != prepared().file.len() {
        assert!(loaded(&bytes).is_none(), "{} bytes loaded", bytes.len());
    }
}

/// The embedded network's file with `window` written over it at `offset` (a fraction of the
/// file), its checksum recomputed when `offset` is odd.
fn file_with_window(offset: u16, window: &[u8]) {
    let mut file = prepared().file.clone();
    let at = (usize::from(offset) * file.len()) >> 16;
    let end = (at + window.len()).min(file.len());
    file[at..end].copy_from_slice(&window[..end - at]);
    let resummed = offset & 1 == 1;
    if resummed {
        let body = file.len() - 8;
        let sum = fnv1a(&file[..body]);
        file[body..].copy_from_slice(&sum.to_le_bytes());
    }
    let header_intact = file[..HEADER_BYTES] == prepared().file[..HEADER_BYTES];
    match loaded(&file) {
        Some(net) => {
            assert!(net.to_bytes() == file, "the file is written back otherwise");
            let pick = |i: usize| window.get(i).copied().unwrap_or(0);
            evaluate_everywhere(&Arc::from(net), pick(0), pick(1));
        }
        None => assert!(
            !(resummed && header_intact),
            "a well-formed file is refused"
        ),
    }
}

/// FNV-1a, 64 bits: the file format's checksum of everything before it.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The embedded network with the input's words (repeated) as its output weights, its feature
/// bias and `ROWS` feature rows from the row `pick` names, and four input bytes as its output
/// bias; evaluated, then put back.
fn weights(pick: u16, input: &[u8]) {
    if input.len() < 6 {
        return;
    }
    let (choice, words) = input.split_at(2);
    let mut values = words
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .cycle();
    let first_row = usize::from(pick) % (INPUTS - ROWS + 1);
    let output_bias = i32::from_le_bytes([words[0], words[1], words[2], words[3]]);
    with_scratch(|scratch| {
        let net = Arc::get_mut(&mut scratch.network).expect("no evaluator keeps the network");
        let kept = (net.output_weights, net.feature_bias, net.output_bias);
        let kept_rows: Vec<_> = net.feature_weights[first_row..first_row + ROWS].to_vec();
        let rows = net.output_weights.iter_mut().chain([&mut net.feature_bias]);
        for row in rows.chain(&mut net.feature_weights[first_row..first_row + ROWS]) {
            row.0 = std::array::from_fn(|_| values.next().expect("cycled"));
        }
        net.output_bias = output_bias;

        let network = Arc::clone(&scratch.network);
        evaluate_with(scratch, &network, choice[0], choice[1]);
        drop(network);

        let net = Arc::get_mut(&mut scratch.network).expect("no evaluator keeps the network");
        (net.output_weights, net.feature_bias, net.output_bias) = kept;
        net.feature_weights[first_row..first_row + ROWS].copy_from_slice(&kept_rows);
    });
}

fn with_scratch(work: impl FnOnce(&mut Scratch)) {
    SCRATCH.with_borrow_mut(|slot| {
        let scratch = slot.get_or_insert_with(|| Scratch {
            network: Arc::new((*embedded_network()).clone()),
            updated: Evaluator::default(),
            fresh: Evaluator::default(),
        });
        work(scratch);
    });
}

fn evaluate_everywhere(net: &Arc<Network>, position: u8, child: u8) {
    with_scratch(|scratch| evaluate_with(scratch, net, position, child));
}

/// Evaluates the position `position` picks and the child `child` picks on every backend: the
/// same scores everywhere, the child's by incremental update equal to its refresh.
fn evaluate_with(scratch: &mut Scratch, net: &Arc<Network>, position: u8, child: u8) {
    let positions = &prepared().positions;
    let root = &positions[usize::from(position) % positions.len()];
    let Scratch { updated, fresh, .. } = scratch;
    updated.set_network(Arc::clone(net));
    fresh.set_network(Arc::clone(net));
    let mut reference = None;
    for kind in qbb_fuzz::backends() {
        let scores = qbb::with_backend!(kind, |b| {
            let mut moves = MoveList::new();
            root.generate_moves(b, &mut moves);
            let mv = moves.as_slice()[usize::from(child) % moves.len()];
            updated.set_root(b, root);
            let next = root.make_move(b, mv);
            updated.make_move(b, 0, root, &next);
            let incremental = updated.evaluate(b, 1, &next);
            fresh.set_root(b, &next);
            let refreshed = fresh.evaluate(b, 0, &next);
            assert_eq!(
                incremental,
                refreshed,
                "{kind}: {} after {mv:?}",
                root.to_fen()
            );
            (mv, updated.evaluate(b, 0, root), incremental)
        })
        .expect("the backend is available");
        match &reference {
            None => reference = Some(scores),
            Some(expected) => assert_eq!(&scores, expected, "{kind} on {}", root.to_fen()),
        }
    }
    // The evaluators let go of the network, so that the weights path may edit it in place.
    updated.set_network(embedded_network());
    fresh.set_network(embedded_network());
}
