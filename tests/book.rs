//! The manual covers what the binary knows, and the README stays a landing
//! page: every mechanic of the registry (`oddsmith systems`), each of its
//! parameters, outcome fields and headline metrics is documented in a
//! chapter of the book in docs/src/,
//! SUMMARY.md lists every chapter, and the change log lives in
//! CHANGELOG.md, not in the README.

mod markdown;

use std::collections::BTreeSet;
use std::path::PathBuf;

use markdown::{links, manual_files, root};
use oddsmith::systems::registry;

/// The book's chapters (docs/src/*.md but SUMMARY.md), with their text.
fn chapters() -> Vec<(PathBuf, String)> {
    manual_files()
        .into_iter()
        .filter(|p| p.starts_with("docs/src") && !p.ends_with("SUMMARY.md"))
        .map(|p| {
            let text = std::fs::read_to_string(root().join(&p)).unwrap();
            (p, text)
        })
        .collect()
}

/// Whether `word` occurs in `text` as a whole name: not inside a longer
/// one (`pool` is not found in `spool` or `pool_size`, nor `actor.pool` in
/// `actor.pools`).
fn mentions(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let mut after = text[i + word.len()..].chars();
        let ends = match after.next() {
            None => true,
            Some(c) if part(c) => false,
            // A full stop ends a sentence; `.x` goes on with a longer name.
            Some('.') => !after.next().is_some_and(part),
            Some(_) => true,
        };
        ends && !before.is_some_and(|c| part(c) || c == '.')
    })
}

#[test]
fn every_mechanic_parameter_field_and_metric_is_in_the_book() {
    let chapters = chapters();
    assert!(!chapters.is_empty(), "no chapters in docs/src");
    let mut missing = Vec::new();
    let mut checked = 0;
    for m in registry() {
        // The chapters that name the mechanic document it: its parameters,
        // outcome fields and headline metrics must be there, not in some
        // other system's chapter.
        let homes: Vec<&(PathBuf, String)> = chapters
            .iter()
            .filter(|(_, text)| mentions(text, m.name()))
            .collect();
        if homes.is_empty() {
            missing.push(format!("{}: no chapter names it", m.name()));
            continue;
        }
        let schema = m.schema();
        let names = m
            .params()
            .iter()
            .map(|p| ("parameter", p.path.to_string()))
            .chain(schema.fields.iter().map(|f| ("field", f.name.clone())))
            .chain(schema.metrics.iter().map(|x| ("metric", x.name.clone())));
        for (what, name) in names {
            checked += 1;
            if !homes.iter().any(|(_, text)| mentions(text, &name)) {
                let chapters: Vec<String> = homes
                    .iter()
                    .map(|(path, _)| path.display().to_string())
                    .collect();
                missing.push(format!(
                    "{}: {what} `{name}` is not in {}",
                    m.name(),
                    chapters.join(" or ")
                ));
            }
        }
    }
    eprintln!(
        "book: {} mechanics and their {checked} parameters, fields and metrics \
         looked up in {} chapters",
        registry().len(),
        chapters.len()
    );
    assert!(
        missing.is_empty(),
        "{} gaps in the book:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn whole_names_are_told_from_parts_of_longer_ones() {
    assert!(mentions("set `actor.pool` to", "actor.pool"));
    assert!(mentions("actor.pool=\"d8\"", "actor.pool"));
    assert!(mentions("ends with cortex.basic.", "cortex.basic"));
    assert!(!mentions("the spool", "pool"));
    assert!(!mentions("pool_size", "pool"));
    assert!(!mentions("actor.pools", "actor.pool"));
    assert!(!mentions("cortex.basic.extra", "cortex.basic"));
}

#[test]
fn summary_lists_every_chapter_and_at_least_twelve() {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md"))
        .expect("docs/src/SUMMARY.md exists");
    let listed: BTreeSet<PathBuf> = links(&summary)
        .into_iter()
        .filter(|l| !l.dest.contains("://"))
        .map(|l| PathBuf::from("docs/src").join(l.dest.split('#').next().unwrap()))
        .collect();
    assert!(
        listed.len() >= 12,
        "SUMMARY.md lists {} chapters",
        listed.len()
    );
    let unlisted: Vec<String> = chapters()
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| !listed.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        unlisted.is_empty(),
        "chapters mdBook would not build (not in SUMMARY.md): {unlisted:?}"
    );
    eprintln!("book: SUMMARY.md lists {} chapters", listed.len());
}

#[test]
fn the_readme_is_a_landing_page_and_the_changes_are_in_the_changelog() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines, more than 250");
    for heading in readme.lines().filter(|l| l.starts_with('#')) {
        let title = heading.trim_start_matches('#').trim().to_lowercase();
        assert!(
            !title.starts_with("changes") && !title.starts_with("changelog"),
            "README.md has a change log section ({heading}); it belongs in CHANGELOG.md"
        );
    }
    let changelog =
        std::fs::read_to_string(root().join("CHANGELOG.md")).expect("CHANGELOG.md exists");
    assert!(changelog.starts_with("# Changelog"), "{changelog:.80}");
    assert!(
        changelog.contains("### Added") || changelog.contains("### Changed"),
        "CHANGELOG.md has no Keep a Changelog sections"
    );
    assert!(
        readme.contains("CHANGELOG.md"),
        "README.md does not link to CHANGELOG.md"
    );
}
