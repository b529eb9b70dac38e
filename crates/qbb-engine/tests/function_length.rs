//! No function of the engine is longer than a reader can hold: 150 lines at most, from the
//! `fn` line to its closing brace, read from the rustfmt-formatted sources.

use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 150;

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Each function of `text` (rustfmt's layout: the closing brace alone on a line, indented as
/// the `fn` line) as its name, first line (from 1) and length in lines.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let Some(at) = code.find("fn ") else { continue };
        let before = &code[..at];
        let is_item = before.split_whitespace().all(|w| {
            [
                "pub",
                "pub(crate)",
                "pub(super)",
                "const",
                "unsafe",
                "async",
            ]
            .contains(&w)
        });
        if !is_item || line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let closing = format!("{indent}}}");
        let end = if line.trim_end().ends_with('}') {
            Some(start)
        } else {
            (start..lines.len()).find(|&i| lines[i] == closing)
        };
        let end = end.unwrap_or_else(|| panic!("fn {name} at line {} has no end", start + 1));
        found.push((name, start + 1, end - start + 1));
    }
    found
}

#[test]
fn no_engine_function_is_over_150_lines() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut long = Vec::new();
    let mut counted = 0;
    for file in &files {
        let text = fs::read_to_string(file).expect("a readable source");
        for (name, line, length) in functions(&text) {
            counted += 1;
            if length > MAX_LINES {
                long.push(format!(
                    "{}:{line} fn {name}: {length} lines",
                    file.display()
                ));
            }
        }
    }
    assert!(counted > 400, "only {counted} functions found");
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn functions_are_measured_from_fn_to_their_closing_brace() {
    let text = "pub fn one() {}\n\nimpl X {\n    pub(crate) fn two(\n        a: u8,\n    ) -> u8 {\n        \
                a\n    }\n    fn three();\n}\nconst fn four() -> u8 {\n    let f = |x| x;\n    f(4)\n}\n";
    assert_eq!(
        functions(text),
        [
            ("one".to_string(), 1, 1),
            ("two".to_string(), 4, 5),
            ("four".to_string(), 11, 4)
        ]
    );
}
