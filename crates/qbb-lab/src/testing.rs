//! What the unit tests share.

use std::path::PathBuf;

use crate::report::Subject;

/// An empty path under the temporary folder, named after the test (each test its own name, as
/// they run side by side) and this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qbb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Marks swar as inheriting scalar's code and every other backend as native, whatever the
/// backends of this build say: the samples of the tests then read the same everywhere.
pub fn swar_inherits(subject: &mut Subject) {
    subject.support = if subject.backend == "swar" {
        "inherited: from scalar (test)".to_string()
    } else {
        "native".to_string()
    };
}
