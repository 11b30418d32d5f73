//! A tune's output directory is a run's in kind: `report.md` and
//! `report.html`, warnings in both, a manifest with every file's digest,
//! and `oddsmith report DIR` rebuilds its chart and reports from the
//! checked data (and refuses data changed since).

use super::GATEWAY;
use super::common::*;

fn read(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn report_rebuilds_a_tune_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = scenario(dir.path(), "even.toml", GATEWAY);
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "tune",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = String::from_utf8(read(&out.join("report.html"))).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(
        html.contains("<h2>Answer</h2>") && html.contains("<svg"),
        "{html}"
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&read(&out.join("manifest.json"))).unwrap();
    assert_eq!(manifest["command"], "tune");
    for name in [
        "scenario.toml",
        "tune.csv",
        "tune.parquet",
        "report.md",
        "report.html",
    ] {
        assert!(
            manifest["files"][name]["sha256"].is_string(),
            "{name} not recorded: {manifest}"
        );
    }
    let before: Vec<Vec<u8>> = ["report.md", "report.html", "knob-ladder.svg"]
        .iter()
        .map(|n| read(&out.join(n)))
        .collect();
    // Reports gone: `report` draws them again, the same bytes.
    for n in [
        "report.md",
        "report.html",
        "knob-ladder.svg",
        "knob-ladder.png",
    ] {
        std::fs::remove_file(out.join(n)).unwrap();
    }
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after: Vec<Vec<u8>> = ["report.md", "report.html", "knob-ladder.svg"]
        .iter()
        .map(|n| read(&out.join(n)))
        .collect();
    assert!(before == after, "the rebuilt reports differ");
    assert!(out.join("knob-ladder.png").is_file());
    // And again, from the directory it rebuilt (its manifest renewed).
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // Data changed after the tune is refused, naming the file.
    let parquet = out.join("tune.parquet");
    let mut bytes = read(&parquet);
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&parquet, bytes).unwrap();
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("tune.parquet: was changed after the tune"),
        "{}",
        stderr(&o)
    );
}

/// The one-line form's directory rebuilds too (its scenario is the
/// question written out).
#[test]
fn report_rebuilds_a_one_line_tune() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "tune",
        "questworlds.contest",
        "--knob",
        "resistance.level",
        "--metric",
        "p_victory",
        "--at-least",
        "0.5",
        "pc.rating=10..12",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = read(&out.join("report.md"));
    std::fs::remove_file(out.join("report.md")).unwrap();
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(read(&out.join("report.md")) == md);
}

/// A scenario's warnings reach both reports, a run's and a tune's.
#[test]
fn warnings_reach_report_html() {
    let dir = tempfile::tempdir().unwrap();
    let run = scenario(
        dir.path(),
        "r.toml",
        "name = \"r\"\nmechanic = \"dice.roll\"\n[params]\nexpr = \"{n}d10>=12\"\n[sweep]\n\"vars.n\" = [1, 2]\n",
    );
    let out = dir.path().join("run");
    let o = oddsmith(&["run", run.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = String::from_utf8(read(&out.join("report.md"))).unwrap();
    let html = String::from_utf8(read(&out.join("report.html"))).unwrap();
    assert!(md.contains("## Warnings"), "{md}");
    assert!(html.contains("<h2>Warnings</h2>"), "{html}");
    assert!(
        html.contains("the total of 2d10 compared with 12"),
        "{html}"
    );

    // Only dice expressions warn, and their `{name}`s cannot be knobs,
    // so the tune's scenario is given the run's warnings by hand.
    let warned = oddsmith::scenario::Scenario::load(&run).unwrap().warnings;
    assert!(!warned.is_empty());
    let file = scenario(dir.path(), "even.toml", GATEWAY);
    let mut s = oddsmith::scenario::Scenario::load(&file).unwrap();
    s.warnings = warned;
    let t = oddsmith::tune::tune(&s, &Default::default(), &()).unwrap();
    let files = oddsmith::tune::report::report_files(&s, &t, &[]).unwrap();
    let text = |name: &str| {
        let (_, bytes) = files.iter().find(|(n, _)| n == name).unwrap();
        String::from_utf8(bytes.clone()).unwrap()
    };
    assert!(
        text("report.md").contains("## Warnings\n\n- config"),
        "{}",
        text("report.md")
    );
    assert!(
        text("report.html").contains("<h2>Warnings</h2>")
            && text("report.html").contains("the total of 2d10 compared with 12"),
        "{}",
        text("report.html")
    );
}
