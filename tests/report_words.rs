//! Rulebook-ready charts and reports, end to end: a scenario's `[labels]`
//! and chart words reach the SVG, the report shows the at-least and
//! at-most tables and the whole configuration with probabilities as
//! percentages (the data files stay raw), and bad keys exit 2.

mod common;

use common::*;

/// 1d6 and 2d6, labelled, with an at-least chart and an assertion that
/// names the 2d6 config.
const SCENARIO: &str = r#"name = "Two dice"
mechanic = "dice.roll"
[params]
expr = "{n}d6"
[sweep]
vars.n = [1, 2]
[labels]
"vars.n" = "Dice rolled"
"result" = "Total"
"mean" = "Average total"
[[chart]]
kind = "at-least"
field = "result"
series = "vars.n"
title = "How often each total is reached"
subtitle = "Plain six-sided dice"
y_title = "Chance of this total or more"
file = "reach"
[[chart]]
kind = "line"
metric = "mean"
x = "vars.n"
x_title = "Number of dice"
file = "mean"
[[expect]]
why = "Two dice average seven"
where = { "vars.n" = 2 }
metric = "mean"
between = [6.99, 7.01]
"#;

fn run(dir: &std::path::Path) -> std::path::PathBuf {
    let path = scenario(dir, "two.toml", SCENARIO);
    let out = dir.join("out");
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// The text of every `<text>` element of an SVG.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

#[test]
fn labelled_charts_carry_the_designers_words_in_their_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path());
    let reach = std::fs::read_to_string(out.join("reach.svg")).unwrap();
    let t = svg_texts(&reach);
    for want in [
        "How often each total is reached",
        "Plain six-sided dice",
        "Chance of this total or more",
        "Total",
        "Dice rolled",
        "100%",
        "50%",
    ] {
        assert!(t.iter().any(|s| s == want), "{want} not in {t:?}");
    }
    // The subtitle names the fixed expression; no code-speak is left.
    assert!(t.iter().any(|s| s == "expr = {n}d6"), "{t:?}");
    for code in ["result", "vars.n", "[params]: expr = {n}d6", "Two dice: "] {
        assert!(
            !t.iter().any(|s| s == code || s.starts_with("Two dice:")),
            "{code} in {t:?}"
        );
    }
    let mean = svg_texts(&std::fs::read_to_string(out.join("mean.svg")).unwrap());
    for want in [
        "Number of dice",
        "Average total",
        "Average total by dice rolled",
    ] {
        assert!(mean.iter().any(|s| s == want), "{want} not in {mean:?}");
    }
    // A mean is not a probability: its axis stays plain.
    assert!(!mean.iter().any(|s| s.ends_with('%')), "{mean:?}");
}

#[test]
fn the_report_shows_the_at_least_table_and_the_configuration_in_percentages() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## At least and at most"), "{md}");
    // 2d6 (hand-worked over its 36 rolls): 7 comes up 6 ways (16.7%); 7 or
    // more 21 ways (58.3%), 7 or less 21 ways; 12 or more once (2.8%).
    let row7 = md
        .lines()
        .find(|l| l.starts_with("| 7 |"))
        .expect("a row for total 7");
    assert!(
        row7.contains("| 16.7% | 58.3% | 58.3% |"),
        "2d6 at 7: {row7}"
    );
    let row12 = md.lines().find(|l| l.starts_with("| 12 |")).unwrap();
    assert!(row12.contains("| 2.8% | 2.8% | 100% |"), "{row12}");
    // 1d6 beside it: 4 or more half the time.
    let row4 = md.lines().find(|l| l.starts_with("| 4 |")).unwrap();
    assert!(row4.contains("| 16.7% | 50.0% | 66.7% |"), "{row4}");
    assert!(md.contains("Dice rolled = 2: ≥"), "labelled columns");
    // The configuration lists every parameter and where it comes from.
    assert!(md.contains("## Configuration"), "{md}");
    assert!(md.contains("| `expr` | {n}d6 | set |"), "{md}");
    assert!(
        md.contains("| Dice rolled (`vars.n`) | 1, 2 | swept |"),
        "{md}"
    );
    // Headline probabilities read as percentages in the report, raw in
    // the data.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<h2>At least and at most</h2>"));
    assert!(html.contains("<td>58.3%</td>"), "the HTML table too");
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(!csv.contains('%'), "summary.csv stays raw: {csv}");
}

#[test]
fn bad_label_and_chart_keys_exit_2_naming_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let bad = SCENARIO
        .replace("\"result\" = \"Total\"", "\"reslt\" = \"Total\"")
        .replace(
            "file = \"mean\"",
            "file = \"mean\"\npercent = true\nlegend = \"no\"",
        );
    let path = scenario(dir.path(), "bad.toml", &bad);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    for want in [
        "bad.toml:9: `labels.reslt`",
        "(did you mean `result`?)",
        "bad.toml:25: `chart[2].percent` is true, but mean is not a probability",
        "bad.toml:26: `chart[2].legend` is not a key of [[chart]]",
    ] {
        assert!(e.contains(want), "{want} missing from\n{e}");
    }
}
