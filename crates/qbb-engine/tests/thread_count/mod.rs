//! The threads of this process, for the tests that check no thread outlives its work (each such
//! test is a file of its own, so that no other test's threads run in its process).

/// The kernel's count of this process's threads.
#[cfg(target_os = "linux")]
pub fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("the process's status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a thread count")
}

/// The count once it has come down to `expected`, or as it stands after a second. A joined
/// thread can still be counted for a moment: `join` returns when the kernel clears the thread's
/// id, early in its exit, and leaves the count only when the exiting thread has run on to the
/// end of its exit, which on a loaded machine waits for a core. A second is ample for that.
#[cfg(target_os = "linux")]
pub fn threads_settled_at(expected: usize) -> usize {
    use std::time::{Duration, Instant};
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        let count = threads();
        if count <= expected || Instant::now() >= deadline {
            return count;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
