//! Perft against the published suites, on every backend this CPU runs: the node counts of
//! standard.epd, tricky.epd, random.epd and fischer.epd (each entry to the depth the test
//! chooses), the start position and Kiwipete to depth 5.

use qbb::{Backend, BackendKind, BackendTask};
use qbb_corpus::Suite;
use qbb_engine::{Position, perft};

/// Which entries of a suite to check, and to what depth.
#[derive(Clone, Copy)]
struct Check {
    suite: Suite,
    depth: u32,
    /// Check every `step`-th entry.
    step: usize,
    bulk: bool,
}

/// The mismatches (`fen`, depth, expected, counted) of one check on one backend.
impl BackendTask for Check {
    type Output = Vec<String>;

    fn run<B: Backend>(self, b: B) -> Vec<String> {
        let mut mismatches = Vec::new();
        for entry in self.suite.entries().iter().step_by(self.step) {
            let pos = match Position::from_fen(entry.fen) {
                Ok(pos) => pos,
                Err(e) => {
                    mismatches.push(format!("{}: {e}", entry.fen));
                    continue;
                }
            };
            for &(depth, expected) in entry.counts.iter().filter(|(d, _)| *d <= self.depth) {
                let counted = perft(b, &pos, depth, self.bulk);
                if counted != expected {
                    mismatches.push(format!(
                        "{} depth {depth}: expected {expected}, counted {counted}",
                        entry.fen
                    ));
                }
            }
        }
        mismatches
    }
}

fn available() -> Vec<BackendKind> {
    let kinds: Vec<_> = BackendKind::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect();
    assert!(kinds.contains(&BackendKind::Scalar));
    kinds
}

fn check_on_every_backend(check: Check) {
    for kind in available() {
        let mismatches = qbb::run_on(kind, check).expect("available backends run");
        assert!(
            mismatches.is_empty(),
            "{kind}: {} mismatches in {}:\n{}",
            mismatches.len(),
            check.suite,
            mismatches.join("\n")
        );
    }
}

#[test]
fn standard_suite_to_depth_4() {
    check_on_every_backend(Check {
        suite: Suite::Standard,
        depth: 4,
        step: 1,
        bulk: true,
    });
}

#[test]
fn tricky_suite_to_depth_4() {
    check_on_every_backend(Check {
        suite: Suite::Tricky,
        depth: 4,
        step: 1,
        bulk: true,
    });
}
