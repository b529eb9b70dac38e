//! What a backend's functions enable is what its token proves.
//!
//! A backend token exists only on a CPU that has the backend's features (`new` checks them), and
//! each `unsafe` call into a `#[target_feature]` function rests on that proof. One feature more on
//! one function would compile and be undefined behaviour on a CPU without it. So this test reads
//! every source file of the backends and of the probes and checks each place that turns features
//! on: `#[features(tier)]`, `feature_region!(Token, tier)` and any literal
//! `target_feature(enable = "…")`. Each must enable a subset of what its backend's token proves.
//! The sources are read as text, so every architecture's backends are checked on any machine.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use qbb::backend::{AVX2_FEATURES, AVX512_FEATURES, NEON_FEATURES, SSE2_FEATURES};

/// The features a tier enables.
fn tier(name: &str) -> Option<&'static [&'static str]> {
    match name {
        "sse2" => Some(SSE2_FEATURES),
        "avx2" => Some(AVX2_FEATURES),
        "avx512" => Some(AVX512_FEATURES),
        "neon" => Some(NEON_FEATURES),
        _ => None,
    }
}

/// What the token of the backend whose code is in `folder` proves. The portable backend's token
/// holds the width `new` detected, and its regions enable exactly that width's tier (checked
/// separately below), so any tier is allowed there as far as this check goes.
fn proven(folder: &str) -> BTreeSet<&'static str> {
    let features: &[&str] = match folder {
        "sse2" => SSE2_FEATURES,
        "avx2" => AVX2_FEATURES,
        "avx512" => AVX512_FEATURES,
        "portable" => AVX512_FEATURES,
        "neon" => NEON_FEATURES,
        _ => &[],
    };
    features.iter().copied().collect()
}

/// A place that turns features on.
#[derive(Debug)]
struct Enable {
    file: PathBuf,
    line: usize,
    features: Vec<String>,
}

/// Every place in `source` that turns features on; `$tier` (a macro's parameter) is left to the
/// macro's call sites, which are found as `feature_region!(Token, tier)`.
fn enables(file: &Path, source: &str) -> Vec<Enable> {
    let mut found = Vec::new();
    for (i, text) in source.lines().enumerate() {
        let code = text.split("//").next().unwrap_or("");
        let mut push = |names: Vec<String>| {
            found.push(Enable {
                file: file.to_path_buf(),
                line: i + 1,
                features: names,
            })
        };
        let stamped = after_all(code, "#[features(");
        let by_path = after_all(code, "backend::features(");
        for tier_name in stamped.into_iter().chain(by_path) {
            let name = tier_name.split(')').next().unwrap_or("").trim();
            if name.starts_with('$') {
                continue;
            }
            let features =
                tier(name).unwrap_or_else(|| panic!("{}:{}: tier `{name}`", file.display(), i + 1));
            push(features.iter().map(|f| f.to_string()).collect());
        }
        for args in after_all(code, "feature_region!(") {
            let name = args
                .split(',')
                .nth(1)
                .unwrap_or("")
                .split(')')
                .next()
                .unwrap_or("")
                .trim();
            let features =
                tier(name).unwrap_or_else(|| panic!("{}:{}: tier `{name}`", file.display(), i + 1));
            push(features.iter().map(|f| f.to_string()).collect());
        }
        for literal in after_all(code, "enable = \"") {
            let list = literal.split('"').next().unwrap_or("");
            push(list.split(',').map(|f| f.trim().to_string()).collect());
        }
    }
    found
}

/// The text after each occurrence of `needle` in `line`.
fn after_all<'a>(line: &'a str, needle: &str) -> Vec<&'a str> {
    line.match_indices(needle)
        .map(|(at, _)| &line[at + needle.len()..])
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The features that `source` enables beyond what its backend folder's token proves.
fn violations(file: &Path, folder: &str, source: &str) -> Vec<String> {
    let allowed = proven(folder);
    enables(file, source)
        .into_iter()
        .flat_map(|e| {
            let extra: Vec<&String> = e
                .features
                .iter()
                .filter(|f| !allowed.contains(f.as_str()))
                .collect();
            (!extra.is_empty()).then(|| {
                format!(
                    "{}:{}: enables {extra:?}, which the `{folder}` backend's token does not prove",
                    e.file.display(),
                    e.line
                )
            })
        })
        .collect()
}

#[test]
fn every_backend_function_enables_only_what_its_token_proves() {
    let mut files = Vec::new();
    rust_files(&src().join("backend"), &mut files);
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let relative = file.strip_prefix(src().join("backend")).unwrap();
        let folder = match relative.components().count() {
            1 => "", // backend/mod.rs: the shared macros, whose `$tier` is checked where they are called
            _ => relative
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_str()
                .unwrap(),
        };
        checked += enables(file, &source).len();
        problems.extend(violations(file, folder, &source));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The backends turn features on in well over a hundred places; far fewer means the scan broke.
    assert!(checked > 100, "only {checked} places found");
}

#[test]
fn every_probe_enables_only_what_its_backend_proves() {
    let file = src().join("probes.rs");
    let source = std::fs::read_to_string(&file).unwrap();
    let mut modules = 0;
    for (i, line) in source.lines().enumerate() {
        let Some(args) = line
            .trim()
            .strip_prefix("crate::for_each_routine!(probe_module,")
        else {
            continue;
        };
        modules += 1;
        let args: Vec<&str> = args
            .trim_end_matches(");")
            .split(',')
            .map(str::trim)
            .collect();
        let backend = args[1].rsplit("::").next().unwrap().to_lowercase();
        if let Some(name) = args.get(2) {
            let features =
                tier(name).unwrap_or_else(|| panic!("probes.rs:{}: tier `{name}`", i + 1));
            let extra: Vec<&&str> = features
                .iter()
                .filter(|f| !proven(&backend).contains(**f))
                .collect();
            assert!(
                extra.is_empty(),
                "probes.rs:{}: {backend} probes enable {extra:?}",
                i + 1
            );
        }
    }
    assert!(modules >= 5, "only {modules} probe modules found");
}

/// The portable backend's token proves the width `Width::detect` found, so each region must enable
/// the tier of the width it is the arm of, and no other.
#[test]
fn every_portable_region_enables_its_width() {
    let file = src().join("backend/portable/mod.rs");
    let source = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let mut regions = 0;
    for (i, line) in lines.iter().enumerate() {
        for name in after_all(line, "#[features(") {
            let name = name.split(')').next().unwrap();
            let arm = lines[..i]
                .iter()
                .rev()
                .find(|l| l.contains("Width::") && l.contains("=>"));
            let arm = arm.unwrap_or_else(|| {
                panic!("portable/mod.rs:{}: a region outside a width's arm", i + 1)
            });
            let width = arm
                .split("Width::")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            assert_eq!(width.to_lowercase(), name, "portable/mod.rs:{}", i + 1);
            regions += 1;
        }
    }
    assert_eq!(regions, 2, "the avx2 and avx512 regions");
}

/// The check itself: a function of the avx2 backend that enables one AVX-512 feature is found.
#[test]
fn a_wider_function_is_caught() {
    let file = Path::new("backend/avx2/square.rs");
    let narrow = "#[features(avx2)]\nfn f() {}\n";
    assert!(violations(file, "avx2", narrow).is_empty());
    let wide = "#[features(avx2)]\n#[target_feature(enable = \"avx512f\")]\nfn f() {}\n";
    let found = violations(file, "avx2", wide);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("avx512f"), "{}", found[0]);
    assert!(
        !violations(file, "sse2", narrow).is_empty(),
        "an avx2 function in the sse2 backend"
    );
    let neon = Path::new("backend/neon/counting.rs");
    assert!(violations(neon, "neon", "#[features(neon)]\nfn f() {}\n").is_empty());
    let dot = "#[features(neon)]\n#[target_feature(enable = \"neon,dotprod\")]\nfn f() {}\n";
    let found = violations(neon, "neon", dot);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("dotprod"), "{}", found[0]);
    assert!(
        !violations(neon, "neon", narrow).is_empty(),
        "an x86 function in the neon backend"
    );
}

/// The neon backend's functions are among those checked: every file of its folder (mod.rs with
/// its feature region, the routine files, `lanes`) turns NEON on, but `inherited.rs`, the
/// declaration of what it takes from swar, which holds no function and is compiled everywhere.
#[test]
fn the_neon_backend_is_scanned() {
    let folder = src().join("backend/neon");
    let mut files = Vec::new();
    rust_files(&folder, &mut files);
    assert!(files.len() >= 10, "backend/neon: {files:?}");
    for file in files.iter().filter(|f| !f.ends_with("inherited.rs")) {
        assert!(
            !enables(file, &std::fs::read_to_string(file).unwrap()).is_empty(),
            "{} enables no features",
            file.display()
        );
    }
}
