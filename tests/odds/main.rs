//! `oddsmith odds` for dice expressions and for any mechanic: readings
//! and warnings, every assumption listed, ranges, lists and comparisons,
//! and the one answer type behind text, JSON and CSV.

#[path = "../common/mod.rs"]
mod common;
mod compare;
mod expressions;
mod mechanics;
mod refusals;

use common::*;
use oddsmith::answer::{self, Question};
use oddsmith::systems::{self, FieldKind, ParamMap};

/// Run `odds` with `args`; it must succeed; its output.
fn answers(args: &[&str]) -> String {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Run `odds` with `args`; it must succeed; stdout and stderr.
fn answers_and_warnings(args: &[&str]) -> (String, String) {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Run `odds` with `args`; it must exit 2 naming the problem.
fn refuses(args: &[&str], words: &[&str]) {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

/// `odds … --format json`, parsed.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    serde_json::from_str(&answers(&all)).expect("odds --format json prints JSON")
}

/// A probability as the text output prints it.
fn pct(p: f64) -> String {
    format!("{:.4}%", p * 100.0)
}

/// The line of `text` starting with `start` (after spaces).
fn line<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}:\n{text}"))
}
