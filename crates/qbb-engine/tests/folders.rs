//! The engine's folders form layers: board at the bottom, then eval, search and perft, tools, and
//! `uci/` on top. Read from the sources' `crate::` paths, no folder may reach a folder that
//! reaches back to it, and the board reaches no other folder at all.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each folder of `src` and the folders its files name in `crate::` paths (itself left out).
type Imports = BTreeMap<String, BTreeSet<String>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn folders() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(src())
        .expect("src is readable")
        .map(|e| e.expect("a directory entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The first segment of every `crate::` path in `text`: `crate::a::b` gives `a`,
/// `crate::{a::b, c}` gives `a` and `c`.
fn crate_paths(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.push(ident(&group[item_start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push(ident(&group[item_start..i]));
                        item_start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.push(ident(rest));
        }
    }
    found.retain(|s| !s.is_empty());
    found
}

/// The imports of every folder, from its files' text; a `crate::` path in a folder that does not
/// begin with a folder (a root re-export, `uci`) is an error naming the file.
fn imports_of(files: &[(String, String, String)], folders: &[String]) -> Result<Imports, String> {
    let mut imports = Imports::new();
    for name in folders {
        imports.insert(name.clone(), BTreeSet::new());
    }
    for (folder, file, text) in files {
        for target in crate_paths(text) {
            if !folders.contains(&target) {
                return Err(format!(
                    "{folder}/{file} names crate::{target}, which is no folder: name the folder"
                ));
            }
            if &target != folder {
                imports.get_mut(folder).expect("listed").insert(target);
            }
        }
    }
    Ok(imports)
}

/// A cycle of folders, each importing the next and the last the first, if there is one.
fn find_cycle(imports: &Imports) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        imports: &Imports,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            return Some(path[start..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in imports.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, imports, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    imports
        .keys()
        .find_map(|start| visit(start, imports, &mut Vec::new(), &mut done))
}

fn sources() -> Vec<(String, String, String)> {
    let mut files = Vec::new();
    for folder in folders() {
        for entry in fs::read_dir(src().join(&folder)).expect("a folder is readable") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).expect("a source is readable");
                let file = path.file_name().expect("a file").to_string_lossy().into();
                files.push((folder.clone(), file, text));
            }
        }
    }
    files
}

#[test]
fn the_engine_is_the_folders_of_the_layout() {
    assert_eq!(
        folders(),
        ["board", "eval", "perft", "search", "tools", "uci"]
    );
}

#[test]
fn no_folder_imports_a_folder_that_imports_it_back() {
    let imports = imports_of(&sources(), &folders()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        find_cycle(&imports),
        None,
        "folders importing each other: {imports:?}"
    );
    assert!(
        imports["board"].is_empty(),
        "the board imports {:?}",
        imports["board"]
    );
    let below_uci: Vec<&String> = imports
        .keys()
        .filter(|f| imports[*f].contains("uci"))
        .collect();
    assert!(below_uci.is_empty(), "{below_uci:?} import the UCI layer");
    // The layers are used, not only absent cycles: the search stands on the board and the eval.
    let search: Vec<&str> = imports["search"].iter().map(String::as_str).collect();
    assert_eq!(search, ["board", "eval"]);
}

#[test]
fn the_reading_of_paths_finds_groups_and_cycles() {
    let file = |folder: &str, text: &str| (folder.to_string(), "x.rs".to_string(), text.into());
    assert_eq!(
        crate_paths("use crate::a::{b, c};\nuse crate::{d::E, f::{g, h}, i};"),
        ["a", "d", "f", "i"]
    );
    let folders = ["a", "b", "c"].map(String::from);
    let chain = [
        file("a", "use crate::b::X;"),
        file("b", "fn f() { crate::c::y() }"),
    ];
    let imports = imports_of(&chain, &folders).unwrap();
    assert_eq!(find_cycle(&imports), None);
    let looped = [
        file("a", "use crate::b::X;"),
        file("b", "use crate::{c::Y, b::Z};"),
        file("c", "/// See [`crate::a::X`].\nstruct Y;"),
    ];
    let imports = imports_of(&looped, &folders).unwrap();
    assert_eq!(find_cycle(&imports).unwrap(), ["a", "b", "c"]);
    let root = [file("a", "use crate::Position;")];
    let error = imports_of(&root, &folders).unwrap_err();
    assert!(error.contains("a/x.rs names crate::Position"), "{error}");
}
