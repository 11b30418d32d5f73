//! Exports: the table of results and one exporter per output file.
//!
//! Every exporter renders its file and writes it into the run's
//! [`Staging`] directory; the CLI commits that directory into `--out` only
//! when every file is there, so an interrupted or failed run never leaves
//! a half file, or a mix of two runs, behind.

mod atomic;
pub mod balance;
pub mod charts;
mod collect;
pub mod config;
pub mod diff;
mod document;
pub(crate) mod frames;
mod headline;
mod load;
mod long;
mod manifest;
mod odds;
pub mod percent;
pub mod tails;

pub(crate) use crate::results::complete_support;
pub use crate::results::complete_support_of;
pub use crate::results::{Agreement, ConfigResult, FieldRow, Method, MetricRow, Results, Run};
pub use atomic::{Dest, OutputError, Staging};
pub use balance::{Finding, Status, Verdict};
pub use collect::{Collect, CollectError, collect};
pub(crate) use document::{STYLE, code_spans, esc, warnings_html, warnings_md};
pub(crate) use load::quietly;
pub use load::{LoadError, Loaded, load};
use long::LONG_FILES;
pub use long::LongWriter;
pub use manifest::{
    DATA_FILES, FileEntry, Manifest, ManifestDoc, RunMeta, ScenarioDoc, hex, sha256_file,
};
pub use odds::{Basis, odds};

use std::collections::BTreeMap;

use crate::scenario::Scenario;

/// One output file.
pub trait Exporter {
    /// Its name inside the output directory.
    fn file_name(&self) -> &'static str;
    /// Its whole content.
    fn render(&self, results: &Results, meta: &RunMeta) -> Result<Vec<u8>, OutputError>;
}

/// `summary.csv`: one row per config and method, headline metrics wide.
pub struct SummaryCsv;
/// `summary.parquet`: the same table, typed.
pub struct SummaryParquet;
/// `agreement.csv`: exact against Monte Carlo, per config and metric
/// (only in `--mode both`).
pub struct AgreementCsv;

impl Exporter for SummaryCsv {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }
    fn render(&self, results: &Results, _: &RunMeta) -> Result<Vec<u8>, OutputError> {
        frames::csv(frames::summary(results)?)
    }
}

impl Exporter for SummaryParquet {
    fn file_name(&self) -> &'static str {
        "summary.parquet"
    }
    fn render(&self, results: &Results, _: &RunMeta) -> Result<Vec<u8>, OutputError> {
        frames::parquet(frames::summary(results)?)
    }
}

impl Exporter for AgreementCsv {
    fn file_name(&self) -> &'static str {
        "agreement.csv"
    }
    fn render(&self, results: &Results, _: &RunMeta) -> Result<Vec<u8>, OutputError> {
        frames::csv(frames::agreement(results)?)
    }
}

/// The exporters of a run's whole-run data files; the long table is
/// written by [`LongWriter`] as the run streams, and the manifest, which
/// records every other file's digest, last of all.
pub fn exporters(results: &Results) -> Vec<Box<dyn Exporter>> {
    let mut list: Vec<Box<dyn Exporter>> = vec![Box::new(SummaryCsv), Box::new(SummaryParquet)];
    if results.configs.iter().any(|c| !c.agreement.is_empty()) {
        list.push(Box::new(AgreementCsv));
    }
    list
}

/// The SHA-256 of each of `names`, as written into `dir`.
pub fn digests(dir: &Dest, names: &[String]) -> Result<BTreeMap<String, String>, OutputError> {
    names
        .iter()
        .map(|n| Ok((n.clone(), sha256_file(&dir.path_of(n))?)))
        .collect()
}

/// The human side of a run: every chart (PNG and SVG), `report.md` and
/// `report.html`, given the balance verdicts.
pub fn report_files(
    scenario: &Scenario,
    results: &Results,
    verdicts: &[Verdict],
) -> Result<Vec<(String, Vec<u8>)>, OutputError> {
    let fixed = config::fixed(scenario);
    let rendered = scenario
        .charts
        .iter()
        .map(|spec| charts::render(results, spec, &fixed))
        .collect::<Result<Vec<_>, _>>()?;
    let titled: Vec<(String, &charts::Rendered)> = scenario
        .charts
        .iter()
        .zip(&rendered)
        .map(|(spec, r)| (charts::title(spec), r))
        .collect();
    let file_name = scenario
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let settings = config::settings(scenario);
    let tails = tails::tables(scenario, results);
    let warnings: Vec<String> = scenario.warnings.iter().map(|w| w.to_string()).collect();
    let doc = document::Document {
        warnings: &warnings,
        results,
        description: scenario.description.as_deref(),
        scenario_file: &file_name,
        scenario_text: &scenario.text,
        charts: &titled,
        verdicts,
        labels: &scenario.labels,
        settings: &settings,
        tails: &tails,
    };
    let mut files = Vec::new();
    for r in &rendered {
        files.push((format!("{}.png", r.file), r.png.clone()));
        files.push((format!("{}.svg", r.file), r.svg.clone().into_bytes()));
    }
    files.push((
        "report.md".to_string(),
        document::markdown(&doc).into_bytes(),
    ));
    files.push(("report.html".to_string(), document::html(&doc).into_bytes()));
    Ok(files)
}

/// Render every output of a run (data, the scenario copy, charts, report)
/// and write each into `dir` as soon as it is rendered; returns the names
/// written.
pub fn write_all(
    dir: &Dest,
    scenario: &Scenario,
    results: &Results,
    verdicts: &[Verdict],
    meta: &RunMeta,
) -> Result<Vec<String>, OutputError> {
    let mut long = LongWriter::create(dir, scenario)?;
    for c in &results.configs {
        long.push(c)?;
    }
    long.finish()?;
    write_rest(dir, scenario, results, verdicts, meta)
}

/// Everything [`write_all`] writes but the long table, for a run that
/// streamed it through a [`LongWriter`] already (its `results` may then
/// keep only the distributions its charts draw; see [`keeps_fields`]).
pub fn write_rest(
    dir: &Dest,
    scenario: &Scenario,
    results: &Results,
    verdicts: &[Verdict],
    meta: &RunMeta,
) -> Result<Vec<String>, OutputError> {
    let mut names = Vec::new();
    for e in exporters(results) {
        dir.write(e.file_name(), &e.render(results, meta)?)?;
        names.push(e.file_name().to_string());
    }
    names.splice(2..2, LONG_FILES.map(String::from));
    // The scenario travels with its results so `oddsmith report DIR` can
    // rebuild charts and checks later.
    dir.write("scenario.toml", scenario.text.as_bytes())?;
    names.push("scenario.toml".to_string());
    for (name, bytes) in report_files(scenario, results, verdicts)? {
        dir.write(&name, &bytes)?;
        names.push(name);
    }
    // Last, once every file it records is written; listed where it was.
    let manifest = Manifest::render(results, meta, digests(dir, &names)?)?;
    dir.write(manifest::FILE, &manifest)?;
    let at = names.iter().position(|n| n == "scenario.toml").unwrap_or(0);
    names.insert(at, manifest::FILE.to_string());
    Ok(names)
}

/// Whether config `c` of `scenario` must keep its distributions after the
/// long table has them: only when a chart draws one of its fields, or an
/// assertion names it (the report's at-least tables read them).
pub fn keeps_fields(scenario: &Scenario, c: &ConfigResult) -> bool {
    let holds = |filter: &[(String, crate::systems::ParamValue)]| {
        filter.iter().all(|(path, v)| {
            scenario
                .sweep
                .iter()
                .position(|a| &a.path == path)
                .is_none_or(|i| &c.swept[i] == v)
        })
    };
    scenario
        .charts
        .iter()
        .any(|spec| spec.field.is_some() && holds(&spec.filter))
        || scenario.expectations.iter().any(|e| {
            !e.filter.is_empty()
                && tails::picked(scenario, &e.filter) <= tails::NAMED
                && holds(&e.filter)
        })
}
