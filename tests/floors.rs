//! The house's floors: every module of `src/` sits on a floor, and code
//! imports only from its own floor or below, so the model stays a leaf and
//! no module can reach up into the one that drives it. Inside any folder,
//! the sibling modules import each other without circles.
//!
//! Read from the source, not the compiler: every `crate::a::…`,
//! `oddsmith::a::…` and `super::…` path outside comments and test code
//! (`#[cfg(test)]` to the end of a file, `tests.rs`, `tests_*.rs` and
//! `tests/` folders, which may drive a mechanic through the whole run to
//! check it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// From the top: the binary (`main`, the workbench, the command line),
/// then the library, down to the dice. Modules on one floor may import
/// each other (without circles, checked below).
const FLOORS: &[&[&str]] = &[
    &["main"],
    &["serve"],
    &["cli"],
    &["tune", "best"],
    &["shard", "answer"],
    &["report"],
    &["run"],
    &["scenario", "results"],
    &["systems"],
    &["sim", "exact", "expr"],
    &["stats"],
    &["model"],
    &["dice"],
    &["lib"],
];

/// Circles between siblings that predate this test. The test fails if one
/// closes, so the list only shrinks; the last two (tension's samplers,
/// questworlds' memo and sequence) were cut on 2026-11-26, so it is empty.
const KNOWN_CIRCLES: &[&str] = &[];

fn floor_of(module: &str) -> usize {
    FLOORS
        .iter()
        .position(|f| f.contains(&module))
        .unwrap_or_else(|| panic!("src/{module} is on no floor: add it to FLOORS"))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `src/a/b/mod.rs` is `[a, b]`.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() > 1 && parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn is_test_file(file: &Path) -> bool {
    let name = file.file_name().unwrap().to_string_lossy();
    name == "tests.rs"
        || name.starts_with("tests_")
        || module_of(file).iter().rev().skip(1).any(|p| p == "tests")
}

/// The code of a file that is not a comment or a test.
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn exists(module: &[String]) -> bool {
    let path = module.iter().fold(src(), |p, m| p.join(m));
    path.is_dir() || path.with_extension("rs").is_file()
}

/// Every module a file's paths name (the deepest existing module of each).
fn imports(file: &Path) -> BTreeSet<Vec<String>> {
    let here = module_of(file);
    let code = code(file);
    let bytes = code.as_bytes();
    let mut out = BTreeSet::new();
    let word = |at: usize| -> &str {
        let end = code[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(code.len(), |e| at + e);
        &code[at..end]
    };
    let mut at = 0;
    while at < code.len() {
        let boundary = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let rest = &bytes[at..];
        let (mut base, mut i) = if boundary && rest.starts_with(b"crate::") {
            (Vec::new(), at + "crate::".len())
        } else if boundary && rest.starts_with(b"oddsmith::") && here[0] != "lib" {
            (Vec::new(), at + "oddsmith::".len())
        } else if boundary && rest.starts_with(b"super::") {
            let mut base = here.clone();
            let mut i = at;
            while code[i..].starts_with("super::") {
                base.pop();
                i += "super::".len();
            }
            (base, i)
        } else {
            at += 1;
            continue;
        };
        // Follow `a::b::…` then a final `{x, y}` group or name.
        loop {
            if code[i..].starts_with('{') {
                let end = code[i..].find('}').map_or(code.len(), |e| i + e);
                for item in code[i + 1..end].split(',') {
                    let head = item.trim().split("::").next().unwrap_or("").trim();
                    if !head.is_empty() && head != "self" {
                        let mut m = base.clone();
                        m.push(head.to_string());
                        out.insert(m);
                    }
                }
                out.insert(base.clone());
                i = end;
                break;
            }
            let w = word(i);
            if w.is_empty() {
                out.insert(base.clone());
                break;
            }
            base.push(w.to_string());
            i += w.len();
            if code[i..].starts_with("::") {
                i += 2;
            } else {
                out.insert(base.clone());
                break;
            }
        }
        at = i.max(at + 1);
    }
    out.into_iter()
        .map(|mut m| {
            while !m.is_empty() && !exists(&m) {
                m.pop();
            }
            m
        })
        .filter(|m| !m.is_empty())
        .collect()
}

/// Every file outside test code, with what it imports.
fn graph() -> Vec<(PathBuf, Vec<String>, BTreeSet<Vec<String>>)> {
    let mut all = Vec::new();
    files(&src(), &mut all);
    all.sort();
    all.into_iter()
        .filter(|f| !is_test_file(f))
        .map(|f| {
            let imports = imports(&f);
            (f.clone(), module_of(&f), imports)
        })
        .collect()
}

#[test]
fn no_module_imports_from_a_higher_floor() {
    let mut wrong = Vec::new();
    for (file, here, imports) in graph() {
        let mine = floor_of(&here[0]);
        for m in imports {
            if floor_of(&m[0]) < mine {
                wrong.push(format!(
                    "{} (src/{}, floor {mine}) imports {} (floor {})",
                    file.strip_prefix(src()).unwrap().display(),
                    here[0],
                    m.join("::"),
                    floor_of(&m[0])
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports up a floor:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_model_imports_only_the_dice() {
    for (file, here, imports) in graph() {
        if here[0] == "model" {
            for m in imports {
                assert!(
                    ["model", "dice"].contains(&m[0].as_str()),
                    "{} imports {}",
                    file.display(),
                    m.join("::")
                );
            }
        }
    }
}

/// Strongly connected groups of more than one node.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Reachability is enough at these sizes: a and b are in one circle
    // when each reaches the other.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<String> = edges
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a.clone()).chain(bs.iter().cloned()))
        .collect();
    let reached: BTreeMap<String, BTreeSet<String>> =
        nodes.iter().map(|n| (n.clone(), reach(n))).collect();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        if groups.iter().any(|g| g.contains(n)) {
            continue;
        }
        let group: Vec<String> = nodes
            .iter()
            .filter(|m| *m == n || (reached[n].contains(*m) && reached[*m].contains(n)))
            .cloned()
            .collect();
        if group.len() > 1 {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn siblings_import_each_other_without_circles() {
    // For each folder, its children and who imports whom among them.
    let mut folders: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (_, here, imports) in graph() {
        for m in imports {
            let common = here.iter().zip(&m).take_while(|(a, b)| a == b).count();
            if common < here.len() && common < m.len() {
                folders
                    .entry(here[..common].to_vec())
                    .or_default()
                    .entry(here[common].clone())
                    .or_default()
                    .insert(m[common].clone());
            }
        }
    }
    let mut found = Vec::new();
    for (folder, edges) in &folders {
        for group in circles(edges) {
            let name = if folder.is_empty() {
                "src".to_string()
            } else {
                folder.join("/")
            };
            found.push(format!("{name}: {}", group.join(" ")));
        }
    }
    assert_eq!(
        found, KNOWN_CIRCLES,
        "circles between sibling modules changed (a new one, or a known one gone: then shorten KNOWN_CIRCLES)"
    );
}

#[test]
fn the_reader_sees_imports() {
    // The graph is not empty by accident: the run driver imports the
    // model, the engine and the results.
    let g = graph();
    let (_, _, imports) = g
        .iter()
        .find(|(f, _, _)| f.ends_with("run/driver.rs"))
        .expect("src/run/driver.rs");
    for m in [&["model"][..], &["sim"], &["results"]] {
        let m: Vec<String> = m.iter().map(|s| s.to_string()).collect();
        assert!(imports.contains(&m), "{imports:?}");
    }
}
