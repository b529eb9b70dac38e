//! The UCI loop runs every `go` on one search thread, started at the first and kept, and ends it
//! with the engine. A file of its own, so that no other test's threads run in this process while
//! it counts them.

use std::sync::Arc;

use qbb_engine::uci::{Output, Uci};

mod thread_count;

#[cfg(target_os = "linux")]
use thread_count::{threads, threads_settled_at};

#[cfg(target_os = "linux")]
#[test]
fn one_search_thread_serves_every_go_and_ends_with_the_engine() {
    let out: Output = Arc::new(|_| {});
    let before = threads();
    let mut uci = Uci::new(out).expect("the engine starts");
    uci.handle("setoption name Hash value 1");
    assert_eq!(threads(), before, "a thread before the first go");
    for go in 0..50 {
        uci.handle(if go % 2 == 0 {
            "go depth 1"
        } else {
            "go perft 1"
        });
        uci.wait_for_search();
        assert_eq!(
            threads_settled_at(before + 1),
            before + 1,
            "threads after go {go}"
        );
    }
    drop(uci);
    assert_eq!(
        threads_settled_at(before),
        before,
        "the search thread outlived its engine"
    );
}
