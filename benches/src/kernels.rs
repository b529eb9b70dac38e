//! The timed loops, one per benchmark, each generic over the backend.
//!
//! A kernel runs `rounds` passes over the corpus. It is `#[inline(always)]` and reached through
//! [`qbb::with_backend!`], so the whole loop sits inside the backend's target-feature region and
//! the routine inlines into it (a `#[target_feature]` function does not inline into a caller
//! compiled without the feature). Every result goes through
//! [`black_box`](std::hint::black_box) (by way of [`keep`]), and so do the input slices
//! once per pass, so the compiler can neither drop a call nor reuse the results of the previous
//! pass.

use std::hint::black_box;

use qbb::{Backend, Quad, Square};

use crate::corpus::Corpus;

/// Makes a throughput kernel's result observable, so that the call that made it cannot be
/// dropped, at the start of a page of its own.
///
/// `black_box` stores its argument in a stack slot, and where a slot falls in its page moves from
/// process to process with the randomised stack and the size of the environment. A wide store
/// that crosses a 4 KiB page boundary is split into two page accesses, which some cores pay for
/// dearly, so a process that drew such a slot timed a routine several times slower than the
/// next process did (`reports/stack-check.sh` shows it). A result up to a page wide, written at
/// the start of a page, crosses no boundary, and every run writes it to the same place.
#[inline(always)]
fn keep<T>(result: T) {
    #[repr(C, align(4096))]
    struct PageStart<T>(T);

    black_box(PageStart(result));
}

/// One timed loop over the corpus.
pub trait Kernel {
    fn run<B: Backend>(backend: B, corpus: &Corpus, rounds: u64);
}

/// A throughput kernel: one independent call per position, `|backend, name: field, ...| call`,
/// where each `name` is bound to the position's element of the corpus vector `field`; a leading
/// `&shared` binds the corpus's field `shared` itself (one value for every call, the network).
macro_rules! throughput {
    ($kernel:ident: |$b:ident, &$shared:ident $(, $var:ident : $field:ident)+| $call:expr) => {
        throughput!(@kernel $kernel, $b, corpus, { let $shared = &*corpus.$shared; },
            $($var: $field),+; $call);
    };
    ($kernel:ident: |$b:ident $(, $var:ident : $field:ident)+| $call:expr) => {
        throughput!(@kernel $kernel, $b, corpus, {}, $($var: $field),+; $call);
    };
    (@kernel $kernel:ident, $b:ident, $corpus:ident, { $($shared:tt)* },
     $($var:ident : $field:ident),+; $call:expr) => {
        #[doc = concat!("Throughput of `", stringify!($call), "`, one call per position.")]
        #[derive(Debug)]
        pub struct $kernel;

        impl Kernel for $kernel {
            #[inline(always)]
            fn run<B: Backend>($b: B, $corpus: &Corpus, rounds: u64) {
                let n = $corpus.len();
                $($shared)*
                for _ in 0..rounds {
                    // Re-slicing to `n` lets the compiler drop the bounds checks below.
                    $( let $field = &black_box(&$corpus.$field[..])[..n]; )+
                    for i in 0..n {
                        $( let $var = &$field[i]; )+
                        keep($call);
                    }
                }
            }
        }
    };
}

throughput!(PieceAt: |b, q: positions, sq: squares| b.piece_at(q, *sq));
throughput!(SetPiece: |b, q: positions, sq: squares, code: codes| {
    let mut q = *q;
    b.set_piece(&mut q, *sq, *code);
    q
});
throughput!(PieceSets: |b, q: positions| b.piece_sets(q));
throughput!(HexSets: |b, q: positions| b.hex_sets(q));
throughput!(ToMailbox: |b, q: positions| b.to_mailbox(q));
throughput!(FromMailbox: |b, m: mailboxes| b.from_mailbox(m));
throughput!(MoveDelta: |b, m: moves| b.move_delta(m));
throughput!(Flip: |b, q: positions| b.flip(q));
throughput!(OccludedFills: |b, q: positions, e: empties| b.occluded_fills(q, *e));
throughput!(SliderAttacks: |b, o: orth, d: diag, e: empties| b.slider_attacks(*o, *d, *e));
throughput!(KnightAttacks: |b, k: knights| b.knight_attacks(*k));
throughput!(ChecksAndPins: |b, p: sliders| b.checks_and_pins(p));
throughput!(WeightedPopcount: |b, s: weighted_sets| {
    b.weighted_popcount(s, &crate::corpus::WEIGHTS)
});
throughput!(NibbleAdd: |b, x: nibble_boards, y: nibble_partners| b.nibble_add(x, y));
throughput!(NibbleSub: |b, x: nibble_boards, y: nibble_partners| b.nibble_sub(x, y));
throughput!(NibbleAvg: |b, x: nibble_boards, y: nibble_partners| b.nibble_avg(x, y));
throughput!(ToNibbleBoard: |b, q: positions| b.to_nibble_board(q));
throughput!(FromNibbleBoard: |b, nb: nibble_boards| b.from_nibble_board(nb));
throughput!(ToClassical: |b, q: positions| b.to_classical(q));
throughput!(FromClassical: |b, c: classical| b.from_classical(c));
throughput!(ToDense: |b, q: positions| b.to_dense(q));
throughput!(FromDense: |b, d: dense| b.from_dense(d));
throughput!(HashManino: |b, q: positions, s: hash_states| b.hash_manino(q, *s));
throughput!(HashZobrist: |b, q: positions| b.hash_zobrist(q));
throughput!(NnueRefresh: |b, &network, q: positions| b.nnue_refresh(q, network));
throughput!(NnueUpdate: |b, &network, q: positions, d: nnue_deltas, a: accumulators| {
    let mut acc = *a;
    b.nnue_update(&mut acc, q, d, network);
    acc
});
throughput!(NnueEvaluate: |b, &network, a: accumulators| b.nnue_evaluate(a, network));

/// Latency of piece at square: each call's square depends on the previous call's result, so the
/// calls run one after another instead of overlapping.
#[derive(Debug)]
pub struct PieceAtLatency;

impl Kernel for PieceAtLatency {
    #[inline(always)]
    fn run<B: Backend>(b: B, corpus: &Corpus, rounds: u64) {
        let mut code = 0u8;
        for _ in 0..rounds {
            let positions = black_box(&corpus.positions[..]);
            for (i, q) in positions.iter().enumerate() {
                let sq = Square::from_index_masked(i as u32 + u32::from(code));
                code = b.piece_at(q, sq);
            }
            black_box(code);
        }
    }
}

/// Latency of the colour flip: each call flips the previous result xor-ed with the next position
/// (one xor on the chain), so the calls run one after another.
#[derive(Debug)]
pub struct FlipLatency;

impl Kernel for FlipLatency {
    #[inline(always)]
    fn run<B: Backend>(b: B, corpus: &Corpus, rounds: u64) {
        let mut chain = Quad::EMPTY;
        for _ in 0..rounds {
            let positions = black_box(&corpus.positions[..]);
            for q in positions {
                chain = b.flip(&(chain ^ *q));
            }
            black_box(chain);
        }
    }
}
