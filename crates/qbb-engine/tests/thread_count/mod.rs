//! The threads of this process, for the tests that check no thread outlives its work (each such
//! test is a file of its own, so that no other test's threads run in its process).

/// The kernel's count of this process's threads (one read, quick enough to see a thread that is
/// still exiting).
#[cfg(target_os = "linux")]
pub fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("the process's status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a thread count")
}
