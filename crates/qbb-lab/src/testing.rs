//! What the unit tests share.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::report::machine::Machine;
use crate::report::{Figure, Report, Subject, corpus_description};

/// Owned copies of string literals, as the parsers under test take them.
pub fn owned(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

/// An empty path under the temporary folder, named after the test (each test its own name, as
/// they run side by side) and this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qbb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// This machine, as a release build without the portable feature describes it, whatever the
/// build of the tests: a page made on it says to reproduce it with stable cargo.
pub fn release_machine() -> Machine {
    Machine {
        flags: "profile release, opt-level 3, no RUSTFLAGS".to_string(),
        ..Machine::current()
    }
}

/// A report of made-up `rows`, as the command `qbb test` would write it on a release build.
pub fn made_up_report<R: Figure>(unit: &str, rows: Vec<R>) -> Report<R> {
    Report::new(
        release_machine(),
        "qbb test".to_string(),
        unit.to_string(),
        corpus_description(1024),
        rows,
    )
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

/// Checks that `format` writes each number of `cases` as the case says.
pub fn assert_writes(format: fn(f64) -> String, cases: &[(f64, &str)]) {
    for &(x, text) in cases {
        assert_eq!(format(x), text, "{x}");
    }
}

/// Checks that `result` is an error whose message, causes included, contains `expected`.
pub fn assert_fails_with<T: Debug>(result: anyhow::Result<T>, expected: &str) {
    let err = format!("{:#}", result.unwrap_err());
    assert!(err.contains(expected), "{err}");
}

/// Checks that `text` contains every one of `parts`.
pub fn assert_contains_all(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "missing {part:?} in\n{text}");
    }
}

/// Checks the files every report writes into `dir`: its JSON file `<name>.json` reads back as
/// `report`, and its page `<name>.md` contains every one of `page_parts`.
pub fn assert_json_and_page<R>(report: &Report<R>, dir: &Path, name: &str, page_parts: &[&str])
where
    R: DeserializeOwned + PartialEq + Debug,
{
    let back = Report::read_json(&dir.join(format!("{name}.json")), "a report").unwrap();
    assert_eq!(&back, report);
    let page = std::fs::read_to_string(dir.join(format!("{name}.md"))).unwrap();
    assert_contains_all(&page, page_parts);
}
