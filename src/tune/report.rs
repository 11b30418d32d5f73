//! The outputs of a tune: `tune.csv` and `tune.parquet` (one row per
//! combination of the sweep, with the knob value found), the chart of the
//! knob found against the first swept parameter ("the difficulty
//! ladder"), `report.md`, `report.html` and `manifest.json` (with every
//! other file's digest, so `oddsmith report DIR` can rebuild the charts
//! and reports from checked data: [`super::load`]). Everything but the
//! manifest is deterministic, so a tune's report can be committed.

use std::collections::BTreeMap;
use std::fmt::Write;

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Estimate, GateVerdict, TuneRow, Tuned};
use crate::report::charts;
use crate::report::frames::{self, encode_err, param_column};
use crate::report::{
    Dest, FileEntry, Manifest, OutputError, RunMeta, STYLE, ScenarioDoc, code_spans, digests, esc,
    warnings_html, warnings_md,
};
use crate::results::{ConfigResult, Method, MetricRow, Mode, Results, Run};
use crate::scenario::{ChartKind, ChartSpec, KnobKind, Scenario, Target};
use crate::systems::ParamValue;

/// The base name of the tune's chart.
pub const CHART_FILE: &str = "knob-ladder";

/// The knob column: integers stay integers, names and ratings are text.
fn knob_column(t: &Tuned, name: &str, cells: Vec<Option<usize>>) -> Column {
    match t.knob.kind {
        KnobKind::Int => Column::new(
            name.into(),
            cells
                .into_iter()
                .map(|k| k.map(|k| t.knob.numbers[k]))
                .collect::<Vec<_>>(),
        ),
        _ => Column::new(
            name.into(),
            cells
                .into_iter()
                .map(|k| k.map(|k| t.label(k)))
                .collect::<Vec<_>>(),
        ),
    }
}

/// The table of `tune.csv` and `tune.parquet`.
pub fn frame(t: &Tuned) -> Result<DataFrame, OutputError> {
    let rows = &t.rows;
    let mut columns = Vec::new();
    for (i, path) in t.swept.iter().enumerate() {
        let values: Vec<&ParamValue> = rows.iter().map(|r| &r.swept[i]).collect();
        columns.push(param_column(path, &values));
    }
    let value = |f: &dyn Fn(&TuneRow) -> Option<f64>| rows.iter().map(f).collect::<Vec<_>>();
    columns.extend([
        knob_column(t, "knob", rows.iter().map(|r| r.knob).collect()),
        Column::new(
            "metric".into(),
            rows.iter().map(|_| t.metric.as_str()).collect::<Vec<_>>(),
        ),
        Column::new("metric_value".into(), value(&|r| r.value.map(|e| e.value))),
        Column::new(
            "metric_lo".into(),
            value(&|r| r.value.and_then(|e| e.interval).map(|i| i.0)),
        ),
        Column::new(
            "metric_hi".into(),
            value(&|r| r.value.and_then(|e| e.interval).map(|i| i.1)),
        ),
        knob_column(
            t,
            "below",
            rows.iter().map(|r| r.below.map(|b| b.0)).collect(),
        ),
        Column::new("below_value".into(), value(&|r| r.below.map(|b| b.1.value))),
        knob_column(
            t,
            "above",
            rows.iter().map(|r| r.above.map(|b| b.0)).collect(),
        ),
        Column::new("above_value".into(), value(&|r| r.above.map(|b| b.1.value))),
        Column::new(
            "reachable".into(),
            rows.iter().map(|r| r.reachable).collect::<Vec<_>>(),
        ),
        Column::new(
            "method".into(),
            rows.iter().map(|r| r.method.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "ambiguous".into(),
            rows.iter().map(|r| r.ambiguous).collect::<Vec<_>>(),
        ),
        Column::new(
            "monotone".into(),
            rows.iter().map(|r| r.monotone).collect::<Vec<_>>(),
        ),
    ]);
    DataFrame::new(rows.len(), columns).map_err(|e| encode_err("tune", e))
}

/// The data files of a tune: what `oddsmith report` reads back and checks
/// against the manifest before it draws anything.
pub const DATA_FILES: [&str; 3] = ["scenario.toml", "tune.csv", "tune.parquet"];

/// A tune's `manifest.json`, as written and as read back (`oddsmith
/// report DIR` tells a tune from a run by its `command`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneManifest {
    pub oddsmith_version: String,
    /// Always `tune`.
    pub command: String,
    pub scenario: ScenarioDoc,
    pub mechanic: String,
    pub knob: String,
    /// The knob's first and last values.
    pub range: [String; 2],
    pub metric: String,
    /// `nearest 0.5`, `at least 0.75`, `at most 8`.
    pub target: String,
    pub within: Option<f64>,
    pub mode: Mode,
    pub seed: u64,
    pub trials: u64,
    pub precision: f64,
    pub rows: usize,
    pub configs_evaluated: usize,
    pub threads: usize,
    pub wall_seconds: f64,
    /// Every other file of the tune by name, with its digest; absent in a
    /// tune written before oddsmith recorded them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, FileEntry>>,
}

impl TuneManifest {
    /// The manifest of `t`, recording `files` (name → SHA-256).
    pub fn of(t: &Tuned, mode: Mode, meta: &RunMeta, files: BTreeMap<String, String>) -> Self {
        TuneManifest {
            oddsmith_version: env!("CARGO_PKG_VERSION").into(),
            command: "tune".into(),
            scenario: ScenarioDoc {
                name: t.name.clone(),
                path: meta.scenario_path.clone(),
                sha256: meta.scenario_sha256.clone(),
                swept: t.swept.clone(),
            },
            mechanic: t.mechanic.clone(),
            knob: t.knob.path.clone(),
            range: [t.label(0), t.label(t.knob.values.len() - 1)],
            metric: t.metric.clone(),
            target: t.target.describe(),
            within: t.within,
            mode,
            seed: t.seed,
            trials: t.trials,
            precision: t.precision,
            rows: t.rows.len(),
            configs_evaluated: t.evaluations,
            threads: meta.threads,
            wall_seconds: meta.wall_seconds,
            files: Some(
                files
                    .into_iter()
                    .map(|(name, sha256)| (name, FileEntry { sha256 }))
                    .collect(),
            ),
        }
    }

    /// The bytes of `manifest.json`.
    pub fn to_json(&self) -> Result<Vec<u8>, OutputError> {
        let mut out = serde_json::to_vec_pretty(self).map_err(|e| OutputError::Encode {
            what: "manifest".into(),
            message: e.to_string(),
        })?;
        out.push(b'\n');
        Ok(out)
    }
}

/// `tune.csv` and `tune.parquet` (the manifest comes last, once every
/// file it records is written: [`TuneManifest`]).
pub fn data_files(t: &Tuned) -> Result<Vec<(String, Vec<u8>)>, OutputError> {
    Ok(vec![
        ("tune.csv".into(), frames::csv(frame(t)?)?),
        ("tune.parquet".into(), frames::parquet(frame(t)?)?),
    ])
}

/// The chart: the knob found (as the knob counts it) against the first
/// swept parameter, one line per value of the second, one panel per value
/// of the third; further axes are held at their first value. `None` when
/// nothing is swept.
pub fn chart(scenario: &Scenario, t: &Tuned) -> Result<Option<charts::Rendered>, OutputError> {
    let Some(x) = t.swept.first() else {
        return Ok(None);
    };
    let mut configs: Vec<ConfigResult> = Vec::new();
    for r in &t.rows {
        // One point per combination: the first candidate of an ambiguous
        // row, and nothing where no value was found.
        if configs.last().is_some_and(|c| c.index == r.row) {
            continue;
        }
        let Some(k) = r.knob else { continue };
        configs.push(ConfigResult {
            index: r.row,
            swept: r.swept.clone(),
            runs: vec![Run {
                method: Method::Exact,
                trials: 0,
                metrics: vec![MetricRow {
                    name: t.knob.path.clone(),
                    value: t.knob.numbers[k] as f64,
                    interval: None,
                    se: None,
                }],
                dist: Vec::new(),
            }],
            agreement: Vec::new(),
        });
    }
    let results = Results {
        name: t.name.clone(),
        description: None,
        mechanic: t.mechanic.clone(),
        swept: t.swept.clone(),
        seed: t.seed,
        trials: t.trials,
        mode: Mode::Auto,
        precision: None,
        configs,
        exact_seconds: 0.0,
        mc_seconds: 0.0,
    };
    let filter: Vec<(String, ParamValue)> = scenario
        .sweep
        .iter()
        .skip(3)
        .map(|a| (a.path.clone(), a.values[0].clone()))
        .collect();
    let counted = match t.knob.kind {
        KnobKind::Int => "",
        KnobKind::Ordered => " (counted from 0 along its order)",
        KnobKind::Rating => " (a mastery counts +20: 21 is 1M)",
    };
    let spec = ChartSpec {
        kind: ChartKind::Line,
        metric: Some(t.knob.path.clone()),
        field: None,
        x: Some(x.clone()),
        series: t.swept.get(1).cloned(),
        facet: t.swept.get(2).cloned(),
        filter,
        title: Some(format!(
            "{}{counted} for {} {}, by {x}",
            t.knob.path,
            t.metric,
            t.target.describe()
        )),
        labels: scenario.labels.clone(),
        ..ChartSpec::new(ChartKind::Line, CHART_FILE)
    };
    charts::render(&results, &spec, &crate::report::config::fixed(scenario)).map(Some)
}

/// A metric value, with its interval when it has one.
fn estimate(e: &Estimate) -> String {
    match e.interval {
        Some((lo, hi)) => format!("{:.4} [{lo:.4}, {hi:.4}]", e.value),
        None => format!("{:.4}", e.value),
    }
}

/// The cells of one row, for the text table and the report.
fn cells(t: &Tuned, r: &TuneRow) -> Vec<String> {
    let mut out: Vec<String> = r.swept.iter().map(|v| v.to_string()).collect();
    let neighbour = |n: Option<(usize, Estimate)>| {
        n.map_or("-".into(), |(k, e)| {
            format!("{} ({:.4})", t.label(k), e.value)
        })
    };
    out.extend([
        r.knob.map_or("none".into(), |k| t.label(k)),
        r.value.as_ref().map_or("-".into(), estimate),
        neighbour(r.below),
        neighbour(r.above),
        if r.reachable { "yes" } else { "no" }.into(),
        format!(
            "{}{}",
            r.method.as_str(),
            if r.ambiguous { ", ambiguous" } else { "" }
        ),
    ]);
    out
}

fn header(t: &Tuned) -> Vec<String> {
    let mut out = t.swept.clone();
    out.extend(
        [
            t.knob.path.as_str(),
            t.metric.as_str(),
            "below",
            "above",
            "reachable",
            "method",
        ]
        .map(String::from),
    );
    out
}

/// The answer as an aligned text table (what `oddsmith tune` prints).
pub fn text_table(t: &Tuned) -> String {
    let mut rows = vec![header(t)];
    rows.extend(t.rows.iter().map(|r| cells(t, r)));
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    out
}

/// What was asked, in one sentence.
pub fn question(t: &Tuned) -> String {
    let within = t.within.map_or(String::new(), |w| format!(", within {w}"));
    let target = match t.target {
        Target::Nearest(x) => format!("is nearest {x}"),
        Target::AtLeast(x) => format!("is at least {x}, as near it as the knob allows"),
        Target::AtMost(x) => format!("is at most {x}, as near it as the knob allows"),
    };
    format!(
        "the value of `{}` ({} to {}) at which `{}` {target}{within}",
        t.knob.path,
        t.label(0),
        t.label(t.knob.values.len() - 1),
        t.metric
    )
}

/// One line per gate, e.g. `✓ why: knob in [2, 4] where a = 3 (4 rows)`.
pub fn gate_line(v: &GateVerdict) -> String {
    let g = &v.gate;
    let what = match &g.why {
        Some(why) => format!("{why}: {}", g.describe()),
        None => g.describe(),
    };
    let where_ = crate::scenario::where_clause(&g.filter);
    let result = if v.failed() {
        let list: Vec<String> = v
            .failures
            .iter()
            .map(|(point, found)| format!("{point}: {found}"))
            .collect();
        format!(
            "FAILS in {} of {} rows ({})",
            v.failures.len(),
            v.checked,
            list.join("; ")
        )
    } else {
        format!("holds ({} rows)", v.checked)
    };
    format!("{what}{where_}: {result}")
}

/// `report.md`, `report.html` and the chart (PNG and SVG).
pub fn report_files(
    scenario: &Scenario,
    t: &Tuned,
    verdicts: &[GateVerdict],
) -> Result<Vec<(String, Vec<u8>)>, OutputError> {
    let mut files = Vec::new();
    let chart = chart(scenario, t)?;
    let warnings: Vec<String> = scenario.warnings.iter().map(|w| w.to_string()).collect();
    let file_name = scenario
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let asked = format!(
        "Mechanic `{}`. For each combination of the sweep: {}.",
        t.mechanic,
        question(t)
    );
    let found = found_by(t);
    let head = header(t);
    let body: Vec<Vec<String>> = t.rows.iter().map(|r| cells(t, r)).collect();

    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", t.name);
    if let Some(d) = &scenario.description {
        let _ = writeln!(md, "{d}\n");
    }
    let _ = writeln!(md, "{asked}\n");
    let _ = writeln!(md, "{found}\n");
    md.push_str(&warnings_md(&warnings));
    let _ = writeln!(md, "## Answer\n");
    let _ = writeln!(md, "| {} |", head.join(" | "));
    let _ = writeln!(md, "|{}", " --- |".repeat(head.len()));
    for row in &body {
        let _ = writeln!(md, "| {} |", row.join(" | "));
    }
    let _ = writeln!(md);

    let mut html = String::new();
    let _ = writeln!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head><body>",
        esc(&t.name)
    );
    let _ = writeln!(html, "<h1>{}</h1>", esc(&t.name));
    if let Some(d) = &scenario.description {
        let _ = writeln!(html, "<p>{}</p>", esc(d));
    }
    let _ = writeln!(html, "<p>{}</p>", code_spans(&esc(&asked)));
    let _ = writeln!(html, "<p>{}</p>", code_spans(&esc(&found)));
    html.push_str(&warnings_html(&warnings));
    let _ = write!(html, "<h2>Answer</h2>\n<table><tr>");
    for h in &head {
        let _ = write!(html, "<th>{}</th>", esc(h));
    }
    let _ = writeln!(html, "</tr>");
    for row in &body {
        let _ = write!(html, "<tr>");
        for c in row {
            let _ = write!(html, "<td>{}</td>", esc(c));
        }
        let _ = writeln!(html, "</tr>");
    }
    let _ = writeln!(html, "</table>");

    if let Some(c) = chart {
        let alt = format!("{} found, by {}", t.knob.path, t.swept[0]);
        let _ = writeln!(md, "## The ladder\n\n![{alt}]({}.png)\n", c.file);
        // Inline the SVG without its XML prolog.
        let svg = c.svg.find("<svg").map(|i| &c.svg[i..]).unwrap_or(&c.svg);
        let _ = writeln!(
            html,
            "<h2>The ladder</h2>\n<figure aria-label=\"{}\">{svg}</figure>",
            esc(&alt)
        );
        files.push((format!("{}.png", c.file), c.png));
        files.push((format!("{}.svg", c.file), c.svg.into_bytes()));
    }
    if !verdicts.is_empty() {
        let _ = writeln!(md, "## Assertions\n");
        let _ = writeln!(html, "<h2>Assertions</h2><ul>");
        for v in verdicts {
            let (mark, class) = if v.failed() {
                ("✗", "fail")
            } else {
                ("✓", "ok")
            };
            let _ = writeln!(md, "- {mark} {}", gate_line(v));
            let _ = writeln!(
                html,
                "<li class=\"{class}\">{mark} {}</li>",
                esc(&gate_line(v))
            );
        }
        let _ = writeln!(md);
        let _ = writeln!(html, "</ul>");
    }
    let _ = writeln!(
        md,
        "## Scenario\n\n`{file_name}`:\n\n```toml\n{}\n```",
        scenario.text.trim_end()
    );
    let _ = writeln!(
        html,
        "<h2>Scenario</h2><p><code>{}</code></p><pre>{}</pre>\n</body></html>",
        esc(&file_name),
        esc(scenario.text.trim_end())
    );
    files.push(("report.md".into(), md.into_bytes()));
    files.push(("report.html".into(), html.into_bytes()));
    Ok(files)
}

/// How the answers were found, in one paragraph.
fn found_by(t: &Tuned) -> String {
    let mut methods: Vec<&str> = t.rows.iter().map(|r| r.method.as_str()).collect();
    methods.sort_unstable();
    methods.dedup();
    format!(
        "Found by: {}. Exact answers evaluate every knob value, and a tie goes to the lower value; Monte Carlo answers (seed {}, {} trials, candidates refined to ±{}) give 95% intervals, and values that cannot be told apart are all listed as ambiguous.",
        methods.join(", "),
        t.seed,
        t.trials,
        t.precision
    )
}

/// Write every output of a tune into `dir`: the data files, the scenario
/// copy, the reports and chart, then the manifest with their digests
/// (last, once every file it records is there). Returns the names
/// written, manifest included.
pub fn write_all(
    dir: &Dest,
    scenario: &Scenario,
    t: &Tuned,
    verdicts: &[GateVerdict],
    mode: Mode,
    meta: &RunMeta,
) -> Result<Vec<String>, OutputError> {
    let mut names = Vec::new();
    let files = data_files(t)?
        .into_iter()
        .chain([(
            "scenario.toml".to_string(),
            scenario.text.clone().into_bytes(),
        )])
        .chain(report_files(scenario, t, verdicts)?);
    for (name, bytes) in files {
        dir.write(&name, &bytes)?;
        names.push(name);
    }
    let manifest = TuneManifest::of(t, mode, meta, digests(dir, &names)?);
    dir.write(Manifest::FILE, &manifest.to_json()?)?;
    names.push(Manifest::FILE.to_string());
    Ok(names)
}
