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
mod digests;
mod document;
pub(crate) mod frames;
pub mod grid;
pub(crate) mod headline;
mod load;
mod long;
mod manifest;
mod odds;
pub mod percent;
pub mod sweep;
pub mod tails;
pub mod totals;

pub use crate::results::complete_support_of;
pub use crate::results::{Agreement, ConfigResult, FieldRow, Method, MetricRow, Results, Run};
pub use atomic::{Dest, OutputError, Staging};
pub use balance::{Finding, Status, Verdict};
pub use collect::{Collect, CollectError, Collected, collect};
pub use digests::{Words, check_digests, scenario_copy};
pub(crate) use document::{STYLE, code_spans, esc, warnings_html, warnings_md};
pub(crate) use load::bad as bad_file;
pub(crate) use load::quietly;
pub use load::{LoadError, Loaded, each_config, load, load_head, redraw};
use long::LONG_FILES;
pub use long::LongWriter;
pub use manifest::{
    DATA_FILES, FileEntry, Manifest, ManifestDoc, RunMeta, ScenarioDoc, hex, sha256_file,
};
pub use odds::{Basis, odds};

use std::collections::BTreeMap;

use crate::scenario::Scenario;
pub use sweep::Sweep;
pub use totals::Totals;

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
    totals: &Totals,
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
        totals,
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

/// Render every output of a run held in memory (data, the scenario copy,
/// charts, report) and write each into `dir` as soon as it is rendered;
/// returns the names written.
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
    write_rest(
        dir,
        scenario,
        &mut Sweep::in_memory(results),
        verdicts,
        meta,
    )
}

/// Everything [`write_all`] writes but the long table, for a run that
/// streamed it through a [`LongWriter`] already: the summaries from every
/// config of `sweep` in turn, the charts and report from the few it reads
/// back ([`Sweep::read_back`]).
pub fn write_rest(
    dir: &Dest,
    scenario: &Scenario,
    sweep: &mut Sweep,
    verdicts: &[Verdict],
    meta: &RunMeta,
) -> Result<Vec<String>, OutputError> {
    sweep::summary::write_summary(dir, sweep)?;
    let mut names: Vec<String> = ["summary.csv", "summary.parquet"]
        .into_iter()
        .chain(LONG_FILES)
        .map(String::from)
        .collect();
    if sweep.totals.agreement_rows > 0 {
        sweep::summary::write_agreement(dir, sweep)?;
        names.push("agreement.csv".to_string());
    }
    // The scenario travels with its results so `oddsmith report DIR` can
    // rebuild charts and checks later.
    dir.write("scenario.toml", scenario.text.as_bytes())?;
    names.push("scenario.toml".to_string());
    let shown = sweep.read_back(scenario, verdicts)?;
    for (name, bytes) in report_files(scenario, &shown, &sweep.totals, verdicts)? {
        dir.write(&name, &bytes)?;
        names.push(name);
    }
    // Last, once every file it records is written; listed where it was.
    let manifest = Manifest::render(
        sweep.head,
        sweep.totals.configs,
        meta,
        digests(dir, &names)?,
    )?;
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
