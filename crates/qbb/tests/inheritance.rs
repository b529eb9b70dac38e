//! What a backend says it inherits is what it does.
//!
//! Each backend declares, once, in its folder's `mod.rs` (`impl_backend!`), the routines it takes
//! from another backend, each with the reason; the declaration makes both the trait methods and
//! the `INHERITED` table that `qbb backends`, the reports and the book show. This test reads the
//! declarations as text, as a reader does, and checks them against what can be observed:
//!
//! - the support table of every backend built here ([`BackendKind::support`], which
//!   `qbb backends --json` prints) names exactly the declared routines, from the declared backend;
//! - in every backend's folder (those of the other architecture too), the module of a declared
//!   routine has no function of the routine's name, and the module of every other routine has
//!   one: the backend's own code;
//! - no backend code outside its tests calls another backend's token: a routine forwarded by hand
//!   would be reported as native.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use qbb::{BackendKind, Routine, Support};

fn backend_dir(kind: BackendKind) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/backend")
        .join(kind.name())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The code of a source file without its comments and its `#[cfg(test)]` module.
fn code(source: &str) -> String {
    let before_tests = source.split("#[cfg(test)]").next().unwrap_or("");
    before_tests
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The routines `kind`'s declaration inherits, each with the backend it names: the entries
/// `name from Backend:` of the `inherited: { ... }` block of its `mod.rs` (or `inherited.rs`).
fn declared(kind: BackendKind) -> BTreeMap<Routine, BackendKind> {
    // Neon declares its own in `inherited.rs`, compiled on every architecture.
    let own = backend_dir(kind).join("inherited.rs");
    let path = if own.exists() {
        own
    } else {
        backend_dir(kind).join("mod.rs")
    };
    let source = code(&read(&path));
    let start = source
        .find("inherited: {")
        .unwrap_or_else(|| panic!("{}: no `inherited: {{` declaration", path.display()));
    let block = &source[start + "inherited: {".len()..];
    let block = &block[..block.find('}').expect("the declaration's closing brace")];
    let mut inherited = BTreeMap::new();
    // An entry is a line that starts `name from Backend:`; its reason may go on below.
    for line in block.lines() {
        let Some((name, rest)) = line.trim().split_once(" from ") else {
            continue;
        };
        let Some((from, _reason)) = rest.split_once(':') else {
            continue;
        };
        if !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            continue; // a line of a reason
        }
        let routine = *Routine::ALL
            .iter()
            .find(|r| r.method() == name)
            .unwrap_or_else(|| panic!("{}: `{name}` is no routine", path.display()));
        let from: BackendKind = from
            .to_lowercase()
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            inherited.insert(routine, from).is_none(),
            "{}: `{name}` declared twice",
            path.display()
        );
    }
    inherited
}

#[test]
fn the_support_table_is_the_declaration() {
    let mut checked = 0;
    for kind in BackendKind::ALL {
        let declared = declared(kind);
        for &routine in Routine::ALL {
            let Some(support) = kind.support(routine) else {
                continue; // not built into this binary
            };
            let reported = match support {
                Support::Native => None,
                Support::Inherited { from, why } => {
                    assert!(
                        !why.is_empty(),
                        "{kind} {routine}: inherited without a reason"
                    );
                    Some(from)
                }
            };
            assert_eq!(
                reported,
                declared.get(&routine).copied(),
                "{kind} {routine}: the support table against the declaration"
            );
            checked += 1;
        }
    }
    // Scalar and swar are built everywhere.
    assert!(checked >= 2 * Routine::ALL.len());
}

#[test]
fn a_backends_modules_hold_exactly_its_native_routines() {
    for kind in BackendKind::ALL {
        let dir = backend_dir(kind);
        let declared = declared(kind);
        for &routine in Routine::ALL {
            let path = dir.join(format!("{}.rs", routine.module()));
            let source = if path.exists() {
                code(&read(&path))
            } else {
                String::new()
            };
            // `fn name(`, or `fn name<` for a routine generic over the network's width.
            let defines = ["(", "<"]
                .iter()
                .any(|open| source.contains(&format!("fn {}{open}", routine.method())));
            if declared.contains_key(&routine) {
                assert!(
                    !defines,
                    "{}: `{}` is declared inherited, yet defined here",
                    path.display(),
                    routine.method()
                );
            } else {
                assert!(
                    defines,
                    "{}: `{}` is native (not declared inherited), but not defined here",
                    path.display(),
                    routine.method()
                );
            }
        }
    }
}

#[test]
fn no_backend_forwards_by_hand() {
    for kind in BackendKind::ALL {
        let dir = backend_dir(kind);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let source = code(&read(&path));
            for token in ["Scalar.", "Swar::TOKEN."] {
                assert!(
                    !source.contains(token),
                    "{}: calls `{token}..`: inherit the routine in the declaration instead, with \
                     the reason",
                    path.display()
                );
            }
        }
    }
}
