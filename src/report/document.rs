//! The human report of a run: `report.md` (charts as PNG files beside it)
//! and a self-contained `report.html` (charts inline as SVG, no scripts,
//! nothing fetched). Deterministic: no clocks, no absolute paths, so a
//! regenerated report is byte-identical.

use std::fmt::Write;

use super::balance::{Status, Verdict};
use super::charts::Rendered;
use super::config::Setting;
use super::headline;
use super::tails::Tail;
use super::totals::Totals;
use crate::results::Results;
use crate::scenario::Labels;

/// What a report shows besides the results.
pub struct Document<'a> {
    pub results: &'a Results,
    /// The whole run's totals (`results` may hold only the configs shown).
    pub totals: &'a Totals,
    pub description: Option<&'a str>,
    pub scenario_file: &'a str,
    pub scenario_text: &'a str,
    pub charts: &'a [(String, &'a Rendered)],
    pub verdicts: &'a [Verdict],
    /// The scenario's `[labels]`, for the tables' headings.
    pub labels: &'a Labels,
    /// Every parameter and its value.
    pub settings: &'a [Setting],
    /// The at-least and at-most tables.
    pub tails: &'a [Tail],
    /// The scenario's warnings (settings almost surely not meant).
    pub warnings: &'a [String],
}

/// A parameter's name as the configuration table shows it: its label with
/// the code name beside it, so the two can be matched up.
fn setting_name(labels: &Labels, s: &Setting) -> String {
    match labels.get(&s.path) {
        Some(l) => format!("{l} (`{}`)", s.path),
        None => format!("`{}`", s.path),
    }
}

/// The configuration table's rows: parameter, value, where it comes from,
/// what it is.
fn setting_rows(d: &Document) -> Vec<[String; 4]> {
    d.settings
        .iter()
        .map(|s| {
            [
                setting_name(d.labels, s),
                s.value(),
                s.how().to_string(),
                s.doc.to_string(),
            ]
        })
        .collect()
}

const CONFIG_NOTE: &str = "Every parameter the numbers rest on: set in `[params]`, swept in `[sweep]`, or left at the mechanic's default.";

fn method_line(r: &Results, t: &Totals) -> String {
    let mut parts = Vec::new();
    if t.exact_runs > 0 {
        parts.push(format!("exact for {} configs", t.exact_runs));
    }
    if let Some((lo, hi)) = t.mc_trials {
        let trials = if lo == hi {
            format!("{lo} trials")
        } else {
            format!("{lo}–{hi} trials")
        };
        parts.push(format!(
            "Monte Carlo for {} configs ({trials} each, seed {}, 95% intervals)",
            t.mc_runs, r.seed
        ));
    }
    parts.join("; ")
}

fn verdict_lines(v: &Verdict) -> (String, String) {
    let e = &v.expectation;
    let what = match &e.why {
        Some(why) => format!("{why}: {}", e.describe()),
        None => e.describe(),
    };
    let where_ = crate::scenario::where_clause(&e.filter);
    let (failures, within) = (v.fails, v.within);
    let result = if failures > 0 {
        format!("FAILS in {failures} of {}", v.checked)
    } else if within > 0 {
        format!(
            "holds ({within} of {} only within the Monte Carlo interval)",
            v.checked
        )
    } else if v.checked == 0 {
        "nothing to check (no config matches)".into()
    } else {
        format!("holds ({} checked)", v.checked)
    };
    (format!("{what}{where_} (line {})", e.line), result)
}

/// `report.md`.
pub fn markdown(d: &Document) -> String {
    let r = d.results;
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", r.name);
    if let Some(desc) = d.description {
        let _ = writeln!(s, "{desc}\n");
    }
    let _ = writeln!(
        s,
        "- scenario: `{}` (mechanic `{}`)",
        d.scenario_file, r.mechanic
    );
    let _ = writeln!(s, "- method: {}", method_line(r, d.totals));
    let _ = writeln!(
        s,
        "- configs: {}; oddsmith {}\n",
        d.totals.configs,
        env!("CARGO_PKG_VERSION")
    );
    s.push_str(&warnings_md(d.warnings));
    if !d.verdicts.is_empty() {
        let _ = writeln!(s, "## Balance\n\n| assertion | result |\n|---|---|");
        for v in d.verdicts {
            let (what, result) = verdict_lines(v);
            let _ = writeln!(s, "| {} | {} |", what.replace('|', "\\|"), result);
        }
        for v in d.verdicts {
            for f in &v.findings {
                let tag = if f.status == Status::Fails {
                    "fails"
                } else {
                    "within interval"
                };
                let _ = writeln!(s, "\n- {tag}: {}: {} ({})", f.config, f.value, f.bound);
            }
            if v.more() > 0 {
                let _ = writeln!(s, "\n- and {} more", grouped(v.more()));
            }
        }
        let _ = writeln!(s);
    }
    if !d.charts.is_empty() {
        let _ = writeln!(s, "## Charts\n");
        for (title, c) in d.charts {
            let _ = writeln!(s, "![{title}]({}.png)\n", c.file);
        }
    }
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|c| c.replace('\n', " ").replace('|', "\\|"))
            .collect();
        format!("| {} |", cells.join(" | "))
    };
    let rule = |n: usize| format!("|{}|", vec!["---"; n].join("|"));
    if !d.tails.is_empty() {
        let _ = writeln!(s, "## At least and at most\n");
        for t in d.tails {
            let _ = writeln!(s, "### {}\n\n{}\n", t.heading, t.note);
            let _ = writeln!(s, "{}\n{}", line(&t.header), rule(t.header.len()));
            for row in &t.rows {
                let _ = writeln!(s, "{}", line(row));
            }
            let _ = writeln!(s);
        }
    }
    let _ = writeln!(s, "## Configuration\n\n{CONFIG_NOTE}\n");
    let _ = writeln!(
        s,
        "| parameter | value | from | what it is |\n|---|---|---|---|"
    );
    for row in setting_rows(d) {
        let _ = writeln!(s, "{}", line(&row));
    }
    let _ = writeln!(s);
    let table = headline::table(r, d.totals, d.verdicts);
    let header: Vec<String> = table
        .header
        .iter()
        .map(|h| d.labels.of(h).to_string())
        .collect();
    let _ = writeln!(s, "## Headline metrics\n");
    for section in &table.sections {
        if let Some(h) = &section.heading {
            let _ = writeln!(s, "### {h}\n");
        }
        if let Some(n) = &section.note {
            let _ = writeln!(s, "{n}\n");
        }
        let _ = writeln!(s, "{}\n{}", line(&header), rule(header.len()));
        for row in &section.rows {
            let _ = writeln!(s, "{}", line(row));
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "## Scenario\n\n```toml\n{}\n```",
        d.scenario_text.trim_end()
    );
    s
}

pub(crate) fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Markdown's `code` spans as HTML (in already escaped text).
pub(crate) fn code_spans(t: &str) -> String {
    let mut out = String::new();
    for (i, part) in t.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The style sheet of every `report.html` (runs' and tunes').
pub(crate) const STYLE: &str = "\
body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:2em auto;max-width:1300px;color:#222;padding:0 1em}\
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}\
th{background:#f2f2f2}.fail{color:#b00020;font-weight:bold}.ok{color:#1b7a3a}.warn{color:#8a6d00}\
figure{margin:1em 0}svg{max-width:100%;height:auto}pre{background:#f6f6f6;padding:1em;overflow:auto}";

/// `report.html`: one file, inline SVG, no network.
pub fn html(d: &Document) -> String {
    let r = d.results;
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head><body>\n",
        esc(&r.name)
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&r.name));
    if let Some(desc) = d.description {
        let _ = writeln!(s, "<p>{}</p>", esc(desc));
    }
    let _ = writeln!(
        s,
        "<ul><li>scenario: <code>{}</code> (mechanic <code>{}</code>)</li><li>method: {}</li><li>configs: {}; oddsmith {}</li></ul>",
        esc(d.scenario_file),
        esc(&r.mechanic),
        esc(&method_line(r, d.totals)),
        d.totals.configs,
        env!("CARGO_PKG_VERSION")
    );
    s.push_str(&warnings_html(d.warnings));
    if !d.verdicts.is_empty() {
        let _ = writeln!(
            s,
            "<h2>Balance</h2><table><tr><th>assertion</th><th>result</th></tr>"
        );
        for v in d.verdicts {
            let (what, result) = verdict_lines(v);
            let class = if v.failed() {
                "fail"
            } else if v.within > 0 {
                "warn"
            } else {
                "ok"
            };
            let _ = writeln!(
                s,
                "<tr><td style=\"text-align:left\">{}</td><td class=\"{class}\">{}</td></tr>",
                esc(&what),
                esc(&result)
            );
        }
        let _ = writeln!(s, "</table><ul>");
        for v in d.verdicts {
            for f in &v.findings {
                let (class, tag) = if f.status == Status::Fails {
                    ("fail", "fails")
                } else {
                    ("warn", "within interval")
                };
                let _ = writeln!(
                    s,
                    "<li><span class=\"{class}\">{tag}</span>: {}: {} ({})</li>",
                    esc(&f.config),
                    esc(&f.value),
                    esc(&f.bound)
                );
            }
            if v.more() > 0 {
                let _ = writeln!(s, "<li>and {} more</li>", grouped(v.more()));
            }
        }
        let _ = writeln!(s, "</ul>");
    }
    if !d.charts.is_empty() {
        let _ = writeln!(s, "<h2>Charts</h2>");
        for (title, c) in d.charts {
            // Inline the SVG without its XML prolog.
            let svg = c.svg.find("<svg").map(|i| &c.svg[i..]).unwrap_or(&c.svg);
            let _ = writeln!(s, "<figure aria-label=\"{}\">{svg}</figure>", esc(title));
        }
    }
    let html_table = |s: &mut String, header: &[String], rows: &[Vec<String>]| {
        let _ = write!(s, "<table><tr>");
        for h in header {
            let _ = write!(s, "<th>{}</th>", code_spans(&esc(h)));
        }
        let _ = writeln!(s, "</tr>");
        for row in rows {
            let _ = write!(s, "<tr>");
            for cell in row {
                let _ = write!(s, "<td>{}</td>", code_spans(&esc(cell)));
            }
            let _ = writeln!(s, "</tr>");
        }
        let _ = writeln!(s, "</table>");
    };
    if !d.tails.is_empty() {
        let _ = writeln!(s, "<h2>At least and at most</h2>");
        for t in d.tails {
            let _ = writeln!(
                s,
                "<h3>{}</h3><p>{}</p>",
                esc(&t.heading),
                code_spans(&esc(&t.note))
            );
            html_table(&mut s, &t.header, &t.rows);
        }
    }
    let _ = writeln!(
        s,
        "<h2>Configuration</h2><p>{}</p>",
        code_spans(&esc(CONFIG_NOTE))
    );
    let rows: Vec<Vec<String>> = setting_rows(d).into_iter().map(Vec::from).collect();
    html_table(
        &mut s,
        &["parameter", "value", "from", "what it is"].map(String::from),
        &rows,
    );
    let table = headline::table(r, d.totals, d.verdicts);
    let header: Vec<String> = table
        .header
        .iter()
        .map(|h| d.labels.of(h).to_string())
        .collect();
    let _ = writeln!(s, "<h2>Headline metrics</h2>");
    for section in &table.sections {
        if let Some(h) = &section.heading {
            let _ = writeln!(s, "<h3>{}</h3>", esc(h));
        }
        if let Some(n) = &section.note {
            let _ = writeln!(s, "<p>{}</p>", code_spans(&esc(n)));
        }
        html_table(&mut s, &header, &section.rows);
    }
    let _ = writeln!(
        s,
        "<h2>Scenario</h2><pre>{}</pre>\n</body></html>",
        esc(d.scenario_text.trim_end())
    );
    s
}

/// `## Warnings`: one item per warning (none: nothing), at most 20.
pub(crate) fn warnings_md(warnings: &[String]) -> String {
    let mut s = String::new();
    if warnings.is_empty() {
        return s;
    }
    let _ = writeln!(s, "## Warnings\n");
    for w in warnings.iter().take(20) {
        let _ = writeln!(s, "- {w}");
    }
    if warnings.len() > 20 {
        let _ = writeln!(s, "- … and {} more", warnings.len() - 20);
    }
    let _ = writeln!(s);
    s
}

/// The `<h2>Warnings</h2>` list of `report.html`, as [`warnings_md`].
pub(crate) fn warnings_html(warnings: &[String]) -> String {
    let mut s = String::new();
    if warnings.is_empty() {
        return s;
    }
    let _ = writeln!(s, "<h2>Warnings</h2><ul>");
    for w in warnings.iter().take(20) {
        let _ = writeln!(s, "<li class=\"warn\">{}</li>", code_spans(&esc(w)));
    }
    if warnings.len() > 20 {
        let _ = writeln!(s, "<li>… and {} more</li>", warnings.len() - 20);
    }
    let _ = writeln!(s, "</ul>");
    s
}

/// `n` with a comma between thousands: 1,234.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
