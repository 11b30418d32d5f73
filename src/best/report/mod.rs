//! The outputs of a best-play scenario: the tables (`best`, `dominance`,
//! `rules`, each as CSV and Parquet: [`frames`]), the dominance chart
//! ([`chart`]), `report.md`, `report.html` and `manifest.json`.
//! Everything but the manifest is deterministic, so the report can be
//! committed. Kept apart from `crate::report` (which it draws on for
//! style, tables and atomic writes), as tune's report is.

pub mod chart;
pub mod frames;
pub mod load;

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::sweep::{BestRow, BestRun, BestVerdict, gate_line};
use super::{DominanceAnswer, DuelAnswer, Opponent, RuleAnswer};
use crate::report::{
    Dest, FileEntry, Manifest, OutputError, RunMeta, STYLE, ScenarioDoc, code_spans, digests, esc,
    warnings_html, warnings_md,
};
use crate::scenario::Scenario;

/// Configs whose rules and dominance the report spells out; the rest
/// are in the tables.
pub const DETAILED: usize = 12;

/// The files `oddsmith report DIR` keeps as they are (and checks against
/// the manifest's digests): the tables and the scenario copy; the rest
/// (reports and chart) it draws anew from them.
pub const DATA_FILES: [&str; 7] = [
    "best.csv",
    "best.parquet",
    "dominance.csv",
    "dominance.parquet",
    "rules.csv",
    "rules.parquet",
    "scenario.toml",
];

/// A best-play scenario's `manifest.json`, as written and as read back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestManifest {
    pub oddsmith_version: String,
    /// Always `best`.
    pub command: String,
    pub scenario: ScenarioDoc,
    pub mechanic: String,
    pub metric: String,
    pub dominance: bool,
    /// What the other side played: absent (given) in a one-sided run.
    #[serde(default, skip_serializing_if = "is_given")]
    pub opponent: Opponent,
    pub configs: usize,
    pub threads: usize,
    pub wall_seconds: f64,
    pub files: BTreeMap<String, FileEntry>,
}

fn is_given(o: &Opponent) -> bool {
    *o == Opponent::Given
}

/// A report's table, written to Markdown and HTML alike.
struct Doc {
    md: String,
    html: String,
}

impl Doc {
    fn heading(&mut self, level: usize, text: &str) {
        let _ = writeln!(self.md, "{} {text}\n", "#".repeat(level));
        let _ = writeln!(self.html, "<h{level}>{}</h{level}>", esc(text));
    }

    fn para(&mut self, text: &str) {
        let _ = writeln!(self.md, "{text}\n");
        let _ = writeln!(self.html, "<p>{}</p>", code_spans(&esc(text)));
    }

    /// A table; the columns in `right` are numbers, set right.
    fn table(&mut self, head: &[String], rows: &[Vec<String>], right: &[usize]) {
        let _ = writeln!(self.md, "| {} |", head.join(" | "));
        let align: Vec<&str> = (0..head.len())
            .map(|i| {
                if right.contains(&i) {
                    " ---: |"
                } else {
                    " --- |"
                }
            })
            .collect();
        let _ = writeln!(self.md, "|{}", align.concat());
        for r in rows {
            let _ = writeln!(self.md, "| {} |", r.join(" | "));
        }
        let _ = writeln!(self.md);
        let _ = write!(self.html, "<table><tr>");
        for h in head {
            let _ = write!(self.html, "<th>{}</th>", esc(h));
        }
        let _ = writeln!(self.html, "</tr>");
        for r in rows {
            let _ = write!(self.html, "<tr>");
            for (i, c) in r.iter().enumerate() {
                let style = if right.contains(&i) {
                    " style=\"text-align:right\""
                } else {
                    ""
                };
                let _ = write!(self.html, "<td{style}>{}</td>", esc(c));
            }
            let _ = writeln!(self.html, "</tr>");
        }
        let _ = writeln!(self.html, "</table>");
    }
}

/// A duel's summary table: one row per config.
fn duel_summary(run: &BestRun) -> (Vec<String>, Vec<Vec<String>>) {
    let mut head = run.swept.clone();
    head.extend(
        [
            "both best (the duel)",
            "A best, B given",
            "B's best takes back",
            "both given",
            "A's decisions a trial",
            "B's decisions a trial",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let rows = run
        .rows
        .iter()
        .map(|r| {
            let mut row: Vec<String> = r.swept.iter().map(|v| v.to_string()).collect();
            let a = &r.answer;
            let (one_sided, back, b) =
                a.duel.as_ref().map_or((f64::NAN, f64::NAN, f64::NAN), |d| {
                    (d.one_sided, d.taken_back, d.decisions)
                });
            row.extend([
                run.show(a.best),
                run.show(one_sided),
                run.loss(back),
                run.show(a.given),
                format!("{:.2}", a.decisions),
                format!("{b:.2}"),
            ]);
            row
        })
        .collect();
    (head, rows)
}

/// The summary table: one row per config.
fn summary(run: &BestRun) -> (Vec<String>, Vec<Vec<String>>) {
    if run.opponent == Opponent::Best {
        return duel_summary(run);
    }
    let mut head = run.swept.clone();
    head.extend(
        ["best play", "given policy", "gap", "decisions a trial"]
            .iter()
            .map(|s| s.to_string()),
    );
    let rows = run
        .rows
        .iter()
        .map(|r| {
            let mut row: Vec<String> = r.swept.iter().map(|v| v.to_string()).collect();
            let a = &r.answer;
            row.extend([
                run.show(a.best),
                run.show(a.given),
                run.diff(a.gap),
                format!("{:.2}", a.decisions),
            ]);
            row
        })
        .collect();
    (head, rows)
}

/// Range of `f` over the configs, as text: `+1.04 to +1.26 points`.
fn span(run: &BestRun, f: impl Fn(&BestRow) -> f64, show: impl Fn(f64) -> String) -> String {
    let (lo, hi) = run
        .rows
        .iter()
        .map(f)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, x| {
            (a.0.min(x), a.1.max(x))
        });
    let (a, b) = (show(lo), show(hi));
    if a == b {
        return a;
    }
    // One unit at the end: `+1.04 to +1.26 points`.
    let unit = |s: &str| s.find(' ').map(|i| s[i..].to_string());
    match (unit(&a), unit(&b)) {
        (Some(u), Some(v)) if u == v && !a.starts_with('<') => {
            format!("{} to {b}", &a[..a.len() - u.len()])
        }
        _ => format!("{a} to {b}"),
    }
}

/// What the answers say, in words: the gap, the options best play never
/// uses, those barely worth having, and those it leans on (in a duel: the
/// duel's value beside one-sided best play, what B's best play takes
/// back, then A's options against a best B and B's choices).
pub fn findings(run: &BestRun) -> Vec<String> {
    let mut out = Vec::new();
    if run.rows.is_empty() {
        return out;
    }
    let configs = if run.rows.len() == 1 {
        "".to_string()
    } else {
        format!(" (over the {} configs)", run.rows.len())
    };
    if run.opponent == Opponent::Best {
        let duel = |f: fn(&DuelAnswer) -> f64| {
            move |r: &BestRow| r.answer.duel.as_ref().map_or(f64::NAN, f)
        };
        out.push(format!(
            "Both sides playing best (the duel), `{}` is {}; A's best play against B's given policy gets {}, so B's best play takes back {}{configs}.",
            run.metric,
            span(run, |r| r.answer.best, |x| run.show(x)),
            span(run, duel(|d| d.one_sided), |x| run.show(x)),
            span(run, duel(|d| d.taken_back), |x| run.loss(x)),
        ));
        out.push(format!(
            "Both given policies get {}: the duel is {} from that.",
            span(run, |r| r.answer.given, |x| run.show(x)),
            span(run, |r| r.answer.gap, |x| run.diff(x)),
        ));
        options_findings(run, "A's best play (against a B playing best)", &mut out);
        opposing_findings(run, &mut out);
        side_findings(
            run,
            "B's best play (against an A playing best)",
            true,
            " for B",
            &mut out,
        );
        return out;
    }
    out.push(format!(
        "Best play gets {} against the given policy's {}: a gap of {}{configs}.",
        span(run, |r| r.answer.best, |x| run.show(x)),
        span(run, |r| r.answer.given, |x| run.show(x)),
        span(run, |r| r.answer.gap, |x| run.diff(x)),
    ));
    options_findings(run, "best play", &mut out);
    out
}

/// B's choices in a duel: each with its share of B's decisions, and the
/// rare ones (under 5% in every config) with the situations B takes them
/// in.
fn opposing_findings(run: &BestRun, out: &mut Vec<String>) {
    // Each choice, in the order B's rules first name it.
    let mut choices: Vec<String> = Vec::new();
    for x in run.rows.iter().flat_map(|r| r.answer.side(true).0) {
        if !choices.contains(&x.choice) {
            choices.push(x.choice.clone());
        }
    }
    // A choice's share of B's decisions in a config.
    let b_share = |r: &BestRow, c: &str| {
        r.answer
            .side(true)
            .0
            .iter()
            .filter(|x| x.choice == c)
            .fold(0.0, |a, x| a + x.share)
    };
    let most = |c: &str| run.rows.iter().map(|r| b_share(r, c)).fold(0.0, f64::max);
    choices.sort_by(|a, b| most(b).total_cmp(&most(a)));
    if choices.is_empty() {
        return;
    }
    let listed: Vec<String> = choices
        .iter()
        .map(|c| format!("{c} ({})", span(run, |r| b_share(r, c), |x| run.usage(x))))
        .collect();
    out.push(format!(
        "B's best play, by choice (its share of B's decisions): {}.",
        listed.join("; ")
    ));
    let rare: Vec<String> = choices
        .iter()
        .filter(|c| most(c) < 0.05)
        .map(|c| {
            let mut whens: Vec<&str> = Vec::new();
            for x in run
                .rows
                .iter()
                .flat_map(|r| r.answer.side(true).0)
                .filter(|x| x.choice == *c)
            {
                if !whens.contains(&x.when.as_str()) {
                    whens.push(&x.when);
                }
            }
            format!("{c} when {}", whens.join(", or "))
        })
        .collect();
    if !rare.is_empty() {
        out.push(format!(
            "B's rare choices (under 5% of its decisions in every config), and where B takes them: {}.",
            rare.join("; ")
        ));
    }
}

/// What the dominance tables say of `who`'s options: never used, never
/// needed, barely worth having, the backbone.
fn options_findings(run: &BestRun, who: &str, out: &mut Vec<String>) {
    side_findings(run, who, false, "", out);
}

/// What side A's (or B's, `b`) dominance tables say of `who`'s options;
/// `whose` after "Barely worth having" (" for B").
fn side_findings(run: &BestRun, who: &str, b: bool, whose: &str, out: &mut Vec<String>) {
    let mut options: Vec<&str> = Vec::new();
    for r in &run.rows {
        for d in r.answer.side(b).1 {
            if !options.contains(&d.option.as_str()) {
                options.push(&d.option);
            }
        }
    }
    if options.is_empty() {
        return;
    }
    let worst = |o: &str| {
        run.rows
            .iter()
            .filter_map(|r| r.answer.side(b).1.iter().find(|d| d.option == o))
            .fold((0.0f64, 0.0f64, 1.0f64), |a, d| {
                (a.0.max(d.loss), a.1.max(d.usage), a.2.min(d.usage))
            })
    };
    let every = if run.rows.len() == 1 {
        ""
    } else {
        " in any config"
    };
    let never: Vec<&str> = options
        .iter()
        .copied()
        .filter(|o| worst(o).0 < 1e-12 && worst(o).1 == 0.0)
        .collect();
    if !never.is_empty() {
        out.push(format!(
            "Never part of {who}{every}, so forbidding it costs nothing: {}.",
            never.join(", ")
        ));
    }
    let unneeded: Vec<&str> = options
        .iter()
        .copied()
        .filter(|o| worst(o).0 < 1e-12 && worst(o).1 > 0.0)
        .collect();
    if !unneeded.is_empty() {
        out.push(format!(
            "Used by {who} but never needed (an equal choice exists): {}.",
            unneeded.join(", ")
        ));
    }
    // Worth less than a tenth of a point (or a thousandth of a mean).
    let slight: Vec<String> = options
        .iter()
        .copied()
        .filter(|o| (1e-12..1e-3).contains(&worst(o).0))
        .map(|o| {
            let (loss, usage, _) = worst(o);
            let at_most = |s: String| match s.strip_prefix("< ") {
                Some(s) => format!("under {s}"),
                None => format!("at most {s}"),
            };
            format!(
                "{o} (worth {}, taken in {} of decisions)",
                at_most(run.loss(loss)),
                at_most(run.usage(usage))
            )
        })
        .collect();
    if !slight.is_empty() {
        out.push(format!(
            "Barely worth having{whose}: {}.",
            slight.join("; ")
        ));
    }
    let backbone: Vec<String> = options
        .iter()
        .copied()
        .filter(|o| worst(o).2 > 0.5)
        .map(|o| {
            format!(
                "{o} ({})",
                span(
                    run,
                    |r| r
                        .answer
                        .side(b)
                        .1
                        .iter()
                        .find(|d| d.option == o)
                        .map_or(0.0, |d| d.usage),
                    |x| run.usage(x)
                )
            )
        })
        .collect();
    if !backbone.is_empty() {
        out.push(format!(
            "The backbone of {who}, taken in most decisions{}: {}.",
            if run.rows.len() == 1 {
                ""
            } else {
                " in every config"
            },
            backbone.join("; ")
        ));
    }
}

/// One config's rules, dominance and written policy.
/// One side's dominance table with a reading of each option: A's (the
/// deciding side's) or, in a duel, B's (`b`). An option never taken
/// yet costly to forbid is a threat only in a duel, where the other side
/// could steer play to where it would be taken.
fn dominance_table(doc: &mut Doc, run: &BestRun, list: &[DominanceAnswer], b: bool, duel: bool) {
    let (whose, other) = if b { ("B's ", "A") } else { ("", "B") };
    let me = if b { "B" } else { "A" };
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|d| {
            let reading = if d.loss < 1e-12 && d.usage == 0.0 {
                "never used: dominated or never needed".to_string()
            } else if d.loss < 1e-12 {
                "used, but an equal alternative exists".to_string()
            } else if d.usage == 0.0 && duel {
                format!("never taken, yet needed: without it {other} steers play to where {me} would take it")
            } else if d.usage > 0.5 {
                format!("the backbone of {whose}best play")
            } else {
                "needed".to_string()
            };
            vec![
                d.option.clone(),
                run.loss(d.loss),
                run.usage(d.usage),
                reading,
            ]
        })
        .collect();
    let head = if b {
        [
            "B's option",
            "B loses if forbidden",
            "used by B's best play",
            "reading",
        ]
    } else {
        [
            "option",
            "loss if forbidden",
            "used by best play",
            "reading",
        ]
    };
    doc.table(&head.map(String::from), &rows, &[1, 2]);
}

fn detail(doc: &mut Doc, run: &BestRun, r: &BestRow) {
    let a = &r.answer;
    let point = r.point(&run.swept);
    if !point.is_empty() {
        doc.heading(3, &point);
    }
    let table = |doc: &mut Doc, rules: &[RuleAnswer]| {
        let rows: Vec<Vec<String>> = rules
            .iter()
            .map(|x| {
                vec![
                    x.when.clone(),
                    x.choice.clone(),
                    format!("{:.1}%", 100.0 * x.share),
                    format!("{:.0}%", 100.0 * x.agree),
                ]
            })
            .collect();
        doc.table(
            &["situation", "best play", "share of decisions", "agrees"].map(String::from),
            &rows,
            &[2, 3],
        );
    };
    match &a.duel {
        Some(d) => {
            doc.para(&format!(
                "Both best (the duel) {}; A best against B's given policy {} (B's best play takes back {}); both given {}.",
                run.show(a.best),
                run.show(d.one_sided),
                run.loss(d.taken_back),
                run.show(a.given),
            ));
            doc.para(&format!(
                "A's best policy ({:.2} decisions a trial), against a B playing best:",
                a.decisions
            ));
            table(doc, &a.rules);
            doc.para(&format!(
                "B's best policy ({:.2} decisions a trial), in B's own view (its edge, its initiative):",
                d.decisions
            ));
            table(doc, &d.rules);
        }
        None => {
            doc.para(&format!(
                "Best play {}, the given policy {}: a gap of {}.",
                run.show(a.best),
                run.show(a.given),
                run.diff(a.gap)
            ));
            table(doc, &a.rules);
        }
    }
    if !a.dominance.is_empty() {
        dominance_table(doc, run, &a.dominance, false, a.duel.is_some());
    }
    if let Some(d) = a.duel.as_ref().filter(|d| !d.dominance.is_empty()) {
        doc.para("B's options: what B's best play loses with each forbidden (A still playing best; what A gains), and B's use of it.");
        dominance_table(doc, run, &d.dominance, true, true);
    }
    match (&a.policy, &a.unwritten) {
        (Some(p), _) => {
            let replayed = a
                .replayed
                .map_or(String::new(), |x| format!(" (replayed: {})", run.show(x)));
            let what = if a.duel.is_some() {
                "Both sides' best policies"
            } else {
                "The best policy"
            };
            let _ = writeln!(
                doc.md,
                "{what} as the mechanic's own keys{replayed}:\n\n```toml\n{p}\n```\n"
            );
            let _ = writeln!(
                doc.html,
                "<p>{what} as the mechanic's own keys{}:</p><pre>{}</pre>",
                esc(&replayed),
                esc(p)
            );
        }
        (None, Some(why)) => doc.para(&format!("No policy is written: {why}.")),
        (None, None) => {}
    }
}

/// `report.md`, `report.html` and the dominance chart (PNG and SVG).
pub fn report_files(
    scenario: &Scenario,
    run: &BestRun,
    verdicts: &[BestVerdict],
) -> Result<Vec<(String, Vec<u8>)>, OutputError> {
    let mut files = Vec::new();
    let warnings: Vec<String> = scenario.warnings.iter().map(|w| w.to_string()).collect();
    let file_name = scenario
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut doc = Doc {
        md: String::new(),
        html: format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head><body>\n",
            esc(&run.name)
        ),
    };
    doc.heading(1, &run.name);
    if let Some(d) = &scenario.description {
        doc.para(d);
    }
    if run.opponent == Opponent::Best {
        doc.para(&format!(
            "Mechanic `{}`, both sides' best play for `{}`: a zero-sum duel (`opponent = \"best\"`). A decides {}, to maximise `{}` in expectation; B decides {}, to minimise it. The sides act in turn, each seeing what the other did, so the duel is solved exactly by backward induction (best at A's turns, worst for A at B's). Beside it: A's one-sided best play against B's given policy, and both given policies, as the scenario's values describe them.",
            run.mechanic, run.metric, run.decision, run.metric, run.opposing
        ));
    } else {
        doc.para(&format!(
            "Mechanic `{}`, best play for `{}`. The decision: {}. Best play takes it at every turn to maximise `{}` in expectation, and is solved exactly by backward induction; the given policy is the one the scenario's values describe.",
            run.mechanic, run.metric, run.decision, run.metric
        ));
    }
    doc.md.push_str(&warnings_md(&warnings));
    doc.html.push_str(&warnings_html(&warnings));
    doc.heading(2, "Findings");
    let found = findings(run);
    let _ = writeln!(
        doc.md,
        "{}\n",
        found
            .iter()
            .map(|f| format!("- {f}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let _ = writeln!(
        doc.html,
        "<ul>{}</ul>",
        found
            .iter()
            .map(|f| format!("<li>{}</li>", esc(f)))
            .collect::<String>()
    );
    doc.heading(
        2,
        if run.opponent == Opponent::Best {
            "Both sides' best play"
        } else {
            "Best play against the given policy"
        },
    );
    let (head, rows) = summary(run);
    let n = run.swept.len();
    let right: Vec<usize> = (n..head.len()).collect();
    doc.table(&head, &rows, &right);

    if let Some(c) = chart::chart(run)? {
        let alt = "what forbidding each option costs best play, and how often best play uses it";
        let _ = writeln!(doc.md, "## Dominance\n\n![{alt}]({}.png)\n", c.file);
        let svg = c.svg.find("<svg").map(|i| &c.svg[i..]).unwrap_or(&c.svg);
        let _ = writeln!(
            doc.html,
            "<h2>Dominance</h2>\n<figure aria-label=\"{}\">{svg}</figure>",
            esc(alt)
        );
        files.push((format!("{}.png", c.file), c.png));
        files.push((format!("{}.svg", c.file), c.svg.into_bytes()));
    }
    doc.heading(
        2,
        if run.opponent == Opponent::Best {
            "Both sides' best policies"
        } else {
            "The best policy"
        },
    );
    if run.opponent == Opponent::Best {
        doc.para("Each rule is a situation as the deciding side sees it (A's rules in A's view, B's in B's), that side's best choice there, its share of the side's decisions, and how often that choice is best play's in the states the situation covers. Dominance is of A's options: what A's best play loses if the option is forbidden while B still plays best (0: the rules could drop it and a good player would not notice), and its share of A's decisions.");
    } else {
        doc.para("Each rule is a situation as the deciding side sees it, best play's choice there, its share of best play's decisions, and how often that choice is best play's in the states the situation covers. Dominance: what best play loses if the option is forbidden (0: the rules could drop it and a good player would not notice), and its share of best play's decisions.");
    }
    for r in run.rows.iter().take(DETAILED) {
        detail(&mut doc, run, r);
    }
    if run.rows.len() > DETAILED {
        doc.para(&format!(
            "The other {} configs' rules and dominance are in rules.csv and dominance.csv (`--out`).",
            run.rows.len() - DETAILED
        ));
    }
    if !verdicts.is_empty() {
        let _ = writeln!(doc.md, "## Assertions\n");
        let _ = writeln!(doc.html, "<h2>Assertions</h2><ul>");
        for v in verdicts {
            let (mark, class) = if v.failed() {
                ("✗", "fail")
            } else {
                ("✓", "ok")
            };
            let line = gate_line(v);
            let _ = writeln!(doc.md, "- {mark} {line}");
            let _ = writeln!(doc.html, "<li class=\"{class}\">{mark} {}</li>", esc(&line));
        }
        let _ = writeln!(doc.md);
        let _ = writeln!(doc.html, "</ul>");
    }
    let _ = writeln!(
        doc.md,
        "## Scenario\n\n`{file_name}`:\n\n```toml\n{}\n```",
        scenario.text.trim_end()
    );
    let _ = writeln!(
        doc.html,
        "<h2>Scenario</h2><p><code>{}</code></p><pre>{}</pre>\n</body></html>",
        esc(&file_name),
        esc(scenario.text.trim_end())
    );
    files.push(("report.md".into(), doc.md.into_bytes()));
    files.push(("report.html".into(), doc.html.into_bytes()));
    Ok(files)
}

/// Write every output of a best-play scenario into `dir`: the tables, the
/// scenario copy, the reports and chart, then the manifest with their
/// digests. Returns the names written, manifest included.
pub fn write_all(
    dir: &Dest,
    scenario: &Scenario,
    run: &BestRun,
    verdicts: &[BestVerdict],
    meta: &RunMeta,
) -> Result<Vec<String>, OutputError> {
    let mut names = Vec::new();
    let files = frames::data_files(run)?
        .into_iter()
        .chain([(
            "scenario.toml".to_string(),
            scenario.text.clone().into_bytes(),
        )])
        .chain(report_files(scenario, run, verdicts)?);
    for (name, bytes) in files {
        dir.write(&name, &bytes)?;
        names.push(name);
    }
    let manifest = BestManifest {
        oddsmith_version: env!("CARGO_PKG_VERSION").into(),
        command: "best".into(),
        scenario: ScenarioDoc {
            name: run.name.clone(),
            path: meta.scenario_path.clone(),
            sha256: meta.scenario_sha256.clone(),
            swept: run.swept.clone(),
        },
        mechanic: run.mechanic.clone(),
        metric: run.metric.clone(),
        dominance: scenario.best.as_ref().is_some_and(|b| b.dominance),
        opponent: run.opponent,
        configs: run.rows.len(),
        threads: meta.threads,
        wall_seconds: meta.wall_seconds,
        files: digests(dir, &names)?
            .into_iter()
            .map(|(name, sha256)| (name, FileEntry { sha256 }))
            .collect(),
    };
    let mut json = serde_json::to_vec_pretty(&manifest).map_err(|e| OutputError::Encode {
        what: "manifest".into(),
        message: e.to_string(),
    })?;
    json.push(b'\n');
    dir.write(Manifest::FILE, &json)?;
    names.push(Manifest::FILE.to_string());
    Ok(names)
}
