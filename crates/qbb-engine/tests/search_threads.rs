//! A search on several threads leaves none behind: when `think` returns, its helper threads have
//! exited (the uci fuzz target's leak check once caught a helper's thread data still allocated
//! after the search had answered). A file of its own, so that no other test's threads run in this
//! process while it counts them.

use qbb::BackendKind;
use qbb_engine::Position;
use qbb_engine::search::{SearchJob, Searcher};
use qbb_engine::time::Limits;

/// The threads of this process named like the search's helpers.
#[cfg(target_os = "linux")]
fn helper_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("the process's threads are listed")
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "search helper")
        .count()
}

#[cfg(target_os = "linux")]
#[test]
fn no_helper_thread_outlives_its_search() {
    let mut searcher = Searcher::new(1).expect("a small table");
    searcher.set_threads(4);
    let backend = BackendKind::detect_best();
    for depth in 1..=30 {
        let limits = Limits {
            depth: Some(1 + depth % 3),
            ..Limits::default()
        };
        let job = SearchJob::new(Position::startpos(), limits);
        let result = qbb::with_backend!(backend, |b| searcher.think(b, &job, &mut |_| {}))
            .expect("the best backend is available");
        assert!(result.best_move.is_some());
        assert_eq!(helper_threads(), 0, "after search {depth}");
    }
}
