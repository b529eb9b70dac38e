//! A search on several threads leaves none behind: when `think` returns, its helper threads have
//! exited (the uci fuzz target's leak check once caught a helper's thread data still allocated
//! after the search had answered). A file of its own, so that no other test's threads run in this
//! process while it counts them.

use qbb::BackendKind;
use qbb_engine::Position;
use qbb_engine::search::{SearchJob, Searcher};
use qbb_engine::time::Limits;

mod thread_count;

#[cfg(target_os = "linux")]
use thread_count::{threads, threads_settled_at};

#[cfg(target_os = "linux")]
#[test]
fn no_helper_thread_outlives_its_search() {
    let mut searcher = Searcher::new(1).expect("a small table");
    searcher.set_threads(8);
    let backend = BackendKind::detect_best();
    let before = threads();
    for search in 0..200 {
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let job = SearchJob::new(Position::startpos(), limits);
        let result = searcher
            .think_on(backend, &job, &mut |_| {})
            .expect("the best backend is available");
        assert_eq!(
            threads_settled_at(before),
            before,
            "threads left after search {search}"
        );
        assert!(result.best_move.is_some());
    }
}
