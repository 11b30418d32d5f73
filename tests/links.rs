//! Every relative link and anchor of the manual resolves: README.md and
//! docs/**/*.md (and CHANGELOG.md and benches/README.md, which the README
//! links to). A link to a file or folder of the repository (`tests/`,
//! `scenarios/dice-roll.toml`) must name one that exists inside it; a
//! `#anchor` must name a heading of the file it points into, by GitHub's
//! and mdBook's rules for heading ids. Links to the web are not fetched.

mod markdown;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use markdown::{anchors, links, manual_files, root};

/// The Markdown files whose links are checked.
fn checked_files() -> Vec<PathBuf> {
    let mut files = manual_files();
    for extra in ["CHANGELOG.md", "benches/README.md"] {
        if root().join(extra).exists() {
            files.push(PathBuf::from(extra));
        }
    }
    files
}

/// `%20` and the like decoded, as a browser does before it asks for a file.
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(b)) = (bytes[i], hex) {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `base/rel` with `.` and `..` resolved lexically; `None` if it climbs
/// out of the repository.
fn resolve(base: &Path, rel: &str) -> Option<PathBuf> {
    let mut parts: Vec<String> = base
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let rel = if let Some(abs) = rel.strip_prefix('/') {
        // A root-relative link: from the repository's root.
        parts.clear();
        abs
    } else {
        rel
    };
    for c in Path::new(rel).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            _ => return None,
        }
    }
    Some(parts.iter().collect())
}

/// What is wrong with `dest`, a link in `file`; `None` if it resolves.
fn problem(
    file: &Path,
    dest: &str,
    anchors_of: &mut BTreeMap<PathBuf, BTreeSet<String>>,
) -> Option<String> {
    if let Some(reference) = dest.strip_prefix('[') {
        return Some(format!("the reference [{} has no definition", reference));
    }
    if dest.is_empty() {
        return Some("an empty link".into());
    }
    // A scheme (https:, mailto:) or a protocol-relative //host: the web.
    let scheme = dest.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    if scheme || dest.starts_with("//") {
        return None;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (dest, None),
    };
    let path = path.split('?').next().unwrap_or_default();
    let target = if path.is_empty() {
        file.to_path_buf()
    } else {
        match resolve(
            file.parent().unwrap_or(Path::new("")),
            &percent_decoded(path),
        ) {
            Some(t) => t,
            None => return Some("points outside the repository".into()),
        }
    };
    let on_disk = root().join(&target);
    if !on_disk.exists() {
        return Some(format!("{} does not exist", target.display()));
    }
    if path.ends_with('/') && !on_disk.is_dir() {
        return Some(format!("{} is not a folder", target.display()));
    }
    let anchor = anchor.filter(|a| !a.is_empty())?;
    if target.extension().is_none_or(|e| e != "md") {
        return Some(format!(
            "#{anchor} points into {}, which has no headings to name",
            target.display()
        ));
    }
    let known = anchors_of
        .entry(target.clone())
        .or_insert_with(|| anchors(&std::fs::read_to_string(&on_disk).unwrap()));
    let anchor = percent_decoded(anchor);
    if known.contains(&anchor) {
        None
    } else {
        Some(format!("{} has no heading #{anchor}", target.display()))
    }
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut anchors_of = BTreeMap::new();
    let mut broken = Vec::new();
    let mut checked = 0;
    let mut web = 0;
    let files = checked_files();
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for link in links(&text) {
            match problem(file, &link.dest, &mut anchors_of) {
                Some(why) => broken.push(format!(
                    "{}:{}: ({}) {why}",
                    file.display(),
                    link.line,
                    link.dest
                )),
                None if link.dest.contains("://") || link.dest.starts_with("mailto:") => web += 1,
                None => checked += 1,
            }
        }
    }
    eprintln!(
        "links: {checked} relative links resolve in {} files ({web} to the web, not fetched)",
        files.len()
    );
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
    assert!(
        checked > 0,
        "no relative link was found: is the manual there?"
    );
}

#[test]
fn the_link_checker_catches_what_it_should() {
    let mut anchors_of = BTreeMap::new();
    let readme = Path::new("README.md");
    // Folders and files of the repository count.
    assert_eq!(problem(readme, "tests/", &mut anchors_of), None);
    assert_eq!(problem(readme, "./Cargo.toml", &mut anchors_of), None);
    assert_eq!(
        problem(
            Path::new("docs/src/x.md"),
            "../../Cargo.toml",
            &mut anchors_of
        ),
        None
    );
    assert_eq!(
        problem(readme, "Cargo.toml/", &mut anchors_of).as_deref(),
        Some("Cargo.toml is not a folder")
    );
    assert_eq!(
        problem(readme, "no-such-file.md", &mut anchors_of).as_deref(),
        Some("no-such-file.md does not exist")
    );
    assert_eq!(
        problem(readme, "../outside.md", &mut anchors_of).as_deref(),
        Some("points outside the repository")
    );
    assert_eq!(
        problem(readme, "https://example.org/x", &mut anchors_of),
        None
    );
    assert_eq!(
        problem(readme, "[undefined", &mut anchors_of).as_deref(),
        Some("the reference [undefined has no definition")
    );
    assert_eq!(
        problem(readme, "Cargo.toml#deps", &mut anchors_of).as_deref(),
        Some("#deps points into Cargo.toml, which has no headings to name")
    );
}

#[test]
fn heading_ids_follow_github_and_mdbook() {
    let text = "# Getting started\n\n## `oddsmith run`: the basics\n\n## What's p_clean?\n\n\
                ## Repeat\n\n## Repeat\n\n## Custom {#mine}\n\n<a id=\"raw\"></a>\n";
    let got = anchors(text);
    for id in [
        "getting-started",
        "oddsmith-run-the-basics",
        "whats-p_clean",
        "repeat",
        "repeat-1",
        "mine",
        "raw",
    ] {
        assert!(got.contains(id), "{id} missing from {got:?}");
    }
    assert!(!got.contains("custom"), "an explicit id replaces the slug");
}
