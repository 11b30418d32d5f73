//! Exports: the table of results and one exporter per output file.
//!
//! Every exporter renders its whole file in memory; [`OutDir::write`] then
//! writes each to a temporary name and renames them into place only when
//! all were written, so an interrupted or failed run never leaves a half
//! file behind.

mod atomic;
mod frames;
mod manifest;
mod results;

pub use atomic::{OutDir, OutputError};
pub use manifest::{Manifest, RunMeta};
pub use results::{Agreement, ConfigResult, FieldRow, Method, MetricRow, Results, Run};

/// One output file.
pub trait Exporter {
    /// Its name inside the output directory.
    fn file_name(&self) -> &'static str;
    /// Its whole content.
    fn render(&self, results: &Results, meta: &RunMeta) -> Result<Vec<u8>, OutputError>;
}

/// `summary.csv`: one row per config and method, headline metrics wide.
pub struct SummaryCsv;
/// `results.csv`: the long table.
pub struct ResultsCsv;
/// `results.parquet`: the long table, typed.
pub struct ResultsParquet;
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

impl Exporter for ResultsCsv {
    fn file_name(&self) -> &'static str {
        "results.csv"
    }
    fn render(&self, results: &Results, _: &RunMeta) -> Result<Vec<u8>, OutputError> {
        frames::csv(frames::long(results)?)
    }
}

impl Exporter for ResultsParquet {
    fn file_name(&self) -> &'static str {
        "results.parquet"
    }
    fn render(&self, results: &Results, _: &RunMeta) -> Result<Vec<u8>, OutputError> {
        frames::parquet(frames::long(results)?)
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

impl Exporter for Manifest {
    fn file_name(&self) -> &'static str {
        "manifest.json"
    }
    fn render(&self, results: &Results, meta: &RunMeta) -> Result<Vec<u8>, OutputError> {
        manifest::render(results, meta)
    }
}

/// The exporters a run writes.
pub fn exporters(results: &Results) -> Vec<Box<dyn Exporter>> {
    let mut list: Vec<Box<dyn Exporter>> = vec![
        Box::new(SummaryCsv),
        Box::new(ResultsCsv),
        Box::new(ResultsParquet),
    ];
    if results.configs.iter().any(|c| !c.agreement.is_empty()) {
        list.push(Box::new(AgreementCsv));
    }
    list.push(Box::new(Manifest));
    list
}

/// Render every output of `results` and write them into `dir` together.
pub fn write_all(
    dir: &OutDir,
    results: &Results,
    meta: &RunMeta,
) -> Result<Vec<std::path::PathBuf>, OutputError> {
    let files = exporters(results)
        .iter()
        .map(|e| Ok((e.file_name().to_string(), e.render(results, meta)?)))
        .collect::<Result<Vec<_>, OutputError>>()?;
    dir.write(&files)
}
