//! Reading a finished run back from its directory: `scenario.toml` (the
//! copy written beside the outputs), `results.parquet` and
//! `manifest.json`. Metrics, intervals and agreement are recomputed from
//! the stored distributions and counts, exactly as the run computed them.
//!
//! Nothing read is trusted: every data file must be the one the run
//! wrote (its SHA-256 is in the manifest; a run written before oddsmith
//! recorded them is read with a warning), the scenario copy must be the
//! file the run ran, the manifest must describe that
//! scenario, and every row of the Parquet file must be a value of an
//! outcome of its config, with probabilities that sum to one (exact) or
//! counts that sum to the trials (Monte Carlo). A file that is not so, or
//! that makes the Parquet reader fail or panic, is bad input naming it.

mod parquet;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::OutputError;
use super::collect::{Collect, store_in};
use super::manifest::{DATA_FILES, ManifestDoc, sha256_file};
use crate::model::{Marginals, Outcomes, Schema, Weight};
use crate::results::Results;
use crate::results::{ConfigResult, Mode};
use crate::scenario::{Config, Scenario, ScenarioError};
use crate::sim::Tally;
pub(crate) use parquet::quietly;
use parquet::{LongRows, SummaryRows};

/// Why a run directory cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("{path}: {message}")]
    Bad { path: String, message: String },
}

/// Bad input: the file at `path`, and what is wrong with it. Shared by
/// every reader of an output directory (a run, a tune, best play).
pub(crate) fn bad(path: &Path, message: impl Into<String>) -> LoadError {
    LoadError::Bad {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// Probabilities of a field must sum to one within this.
const SUM_TOLERANCE: f64 = 1e-6;
/// The widest range of values one field may span: tallies are dense, so
/// a wider one is garbage, not a result.
const MAX_SPAN: i64 = 1 << 24;

/// A run read back.
pub struct Loaded {
    pub scenario: Scenario,
    pub results: Results,
    /// Its `manifest.json`.
    pub manifest: ManifestDoc,
    /// What the reader should hear but that does not stop it: a run
    /// written before oddsmith recorded file digests.
    pub warnings: Vec<String>,
}

/// Every data file of the run in `dir` that its manifest records must be
/// there with the recorded digest, and every one there must be recorded.
/// A manifest that records none (written before oddsmith did) gives a
/// warning saying how to run it again.
fn verify_files(
    dir: &Path,
    manifest_path: &Path,
    m: &ManifestDoc,
) -> Result<Vec<String>, LoadError> {
    let Some(files) = &m.files else {
        let mut again = format!(
            "oddsmith run {} --mode {}",
            m.scenario.path,
            mode_word(m.mode)
        );
        again.push_str(&format!(" --seed {} --trials {}", m.seed, m.trials));
        if let Some(p) = m.precision {
            again.push_str(&format!(" --precision {p}"));
        }
        again.push_str(&format!(" --out {}", dir.display()));
        return Ok(vec![format!(
            "{} records no file digests (the run was written before oddsmith recorded them), so its files cannot be checked against it; to check them, run it again: `{again}`",
            manifest_path.display()
        )]);
    };
    for name in DATA_FILES {
        let path = dir.join(name);
        match (files.get(name), path.exists()) {
            (Some(entry), true) => {
                let sha = sha256_file(&path)?;
                if sha != entry.sha256 {
                    return Err(bad(
                        &path,
                        format!(
                            "was changed after the run (its SHA-256 is {sha}, the run's manifest.json says {}); run the scenario again instead of reading it",
                            entry.sha256
                        ),
                    ));
                }
            }
            (Some(_), false) => {
                return Err(bad(
                    &path,
                    "is missing, but the run's manifest.json records it; the directory is not the run that was written",
                ));
            }
            (None, true) => {
                return Err(bad(
                    &path,
                    "is not one of the files the run's manifest.json records; the directory is not the run that was written",
                ));
            }
            (None, false) => {}
        }
    }
    Ok(Vec::new())
}

/// `--mode`'s word for `mode`.
fn mode_word(mode: Mode) -> &'static str {
    match mode {
        Mode::Auto => "auto",
        Mode::Exact => "exact",
        Mode::MonteCarlo => "mc",
        Mode::Both => "both",
    }
}

/// One stored row of the long table.
struct Row {
    field: String,
    value: i64,
    probability: f64,
    count: Option<u64>,
    trials: u64,
}

/// The scenario and results of the run in `dir`, every config in memory.
pub fn load(dir: &Path) -> Result<Loaded, LoadError> {
    let mut loaded = load_head(dir)?;
    let mut configs = Vec::new();
    each_config(dir, &loaded.scenario, &mut |c| {
        configs.push(c);
        Ok(())
    })?;
    loaded.results.configs = configs;
    Ok(loaded)
}

/// The run in `dir` without its configs: its manifest, checked, with
/// every data file's digest, and the scenario it ran; read the configs
/// with [`each_config`].
pub fn load_head(dir: &Path) -> Result<Loaded, LoadError> {
    let scenario_path = dir.join("scenario.toml");
    let manifest_path = dir.join("manifest.json");
    let bytes = std::fs::read(&manifest_path).map_err(|e| {
        bad(
            &manifest_path,
            format!("cannot read: {e}; is this an oddsmith output directory?"),
        )
    })?;
    let manifest: ManifestDoc = serde_json::from_slice(&bytes).map_err(|e| {
        bad(
            &manifest_path,
            format!("not a manifest oddsmith wrote: {e}"),
        )
    })?;
    let warnings = verify_files(dir, &manifest_path, &manifest)?;
    let mut scenario = Scenario::load(&scenario_path)?;
    check_manifest(&manifest, &manifest_path, &scenario, &scenario_path)?;
    // Reports name the scenario by the file it was run from, not the copy:
    // parsed again under that path, an unnamed scenario keeps the name its
    // file's stem gave it in the run (the text parsed once already, so
    // this cannot fail on it).
    scenario = Scenario::parse(Path::new(&manifest.scenario.path), &scenario.text)?;

    let results = Results {
        name: scenario.name.clone(),
        description: scenario.description.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        swept: scenario.swept_names(),
        seed: manifest.seed,
        trials: manifest.trials,
        mode: manifest.mode,
        precision: manifest.precision,
        configs: Vec::new(),
        exact_seconds: manifest.exact_seconds,
        mc_seconds: manifest.monte_carlo_seconds,
    };
    Ok(Loaded {
        scenario,
        results,
        manifest,
        warnings,
    })
}

/// The configs of the run in `dir` (opened by [`load_head`] as `scenario`)
/// read back one by one: each config's result, checked, handed to `each`
/// in sweep order and not kept, so reading a sweep back costs memory by
/// the config, not by the sweep.
pub fn each_config(
    dir: &Path,
    scenario: &Scenario,
    each: &mut dyn FnMut(ConfigResult) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    let parquet = dir.join("results.parquet");
    let mut rows = LongRows::open(&parquet, scenario)?;
    // Opened at the first config whose metrics need it; its rows are
    // every config's runs in order.
    let mut summary: Option<SummaryRows> = None;
    let mut summary_row = 0;
    for index in 0..scenario.config_count() {
        let config = scenario.config(index);
        let model = scenario.prepare(&config)?;
        let schema = model.schema();
        let no_results = || {
            bad(
                &parquet,
                format!("config {index} has no results; the file does not match scenario.toml"),
            )
        };
        let runs = match rows.next_config()? {
            Some((id, runs)) if id == index as u64 => runs,
            _ => return Err(no_results()),
        };
        let at = |method: &str| {
            runs.iter()
                .find(|(m, _)| m == method)
                .map(|(_, rows)| rows.as_slice())
        };
        let mut result = config_of(
            &parquet,
            scenario,
            &config,
            schema,
            at(f64::METHOD),
            at(u64::METHOD),
        )?;
        super::complete_support_of(&mut result, schema);
        if schema.needs_joint() {
            if summary.is_none() {
                summary = Some(SummaryRows::open(&dir.join("summary.parquet"))?);
            }
            summary
                .as_mut()
                .expect("opened above")
                .fill(summary_row, &mut result)?;
        }
        summary_row += result.runs.len();
        each(result)?;
    }
    // Rows past the last config are out of order (their config came
    // before), which reading them says.
    if let Some((id, _)) = rows.next_config()? {
        return Err(bad(
            &parquet,
            format!("has rows of config {id} after the last config's"),
        ));
    }
    if let Some(summary) = &summary {
        summary.finish(summary_row)?;
    }

    Ok(())
}

/// Files drawn: each file's name and bytes.
pub type Files = Vec<(String, Vec<u8>)>;

/// The charts and documents of the run in `dir` drawn anew from its data,
/// with the run read back. Its configs go one by one into a store, as a
/// run collects them, and the report reads back only those it shows, so
/// redrawing a sweep costs memory by what is drawn, not by the sweep.
pub fn redraw(dir: &Path) -> Result<(Loaded, Files), LoadError> {
    let loaded = load_head(dir)?;
    let mut sink = Collect::new(&loaded.scenario, None, store_in(None)?);
    each_config(dir, &loaded.scenario, &mut |c| Ok(sink.push(c)?))?;
    let mut collected = sink.finish(loaded.results.clone());
    let verdicts = std::mem::take(&mut collected.verdicts);
    let mut sweep = collected.sweep();
    let shown = sweep.read_back(&loaded.scenario, &verdicts)?;
    let files = super::report_files(&loaded.scenario, &shown, &sweep.totals, &verdicts)?;
    Ok((loaded, files))
}

/// One config's result from its exact and Monte Carlo rows, each checked
/// row by row and field by field.
fn config_of(
    parquet: &Path,
    scenario: &Scenario,
    config: &Config,
    schema: &Schema,
    exact_rows: Option<&[Row]>,
    tally_rows: Option<&[Row]>,
) -> Result<ConfigResult, LoadError> {
    // Each row's field, once per value, within a plausible span.
    let field_of = |rows: &[Row]| -> Result<Vec<usize>, LoadError> {
        let mut values: HashSet<(&str, i64)> = HashSet::with_capacity(rows.len());
        let mut span: HashMap<&str, (i64, i64)> = HashMap::new();
        for r in rows {
            if !values.insert((&r.field, r.value)) {
                return Err(bad(
                    parquet,
                    format!(
                        "config {}: `{}` = {} appears twice",
                        config.index, r.field, r.value
                    ),
                ));
            }
            let s = span.entry(&r.field).or_insert((r.value, r.value));
            *s = (s.0.min(r.value), s.1.max(r.value));
            if s.1.saturating_sub(s.0) > MAX_SPAN {
                return Err(bad(
                    parquet,
                    format!(
                        "config {}: `{}` spans values {} to {}, far beyond any mechanic",
                        config.index, r.field, s.0, s.1
                    ),
                ));
            }
        }
        rows.iter()
            .map(|r| {
                schema
                    .fields
                    .iter()
                    .position(|f| f.name == r.field)
                    .ok_or_else(|| {
                        bad(
                            parquet,
                            format!(
                                "config {}: `{}` is not an outcome of {}",
                                config.index,
                                r.field,
                                scenario.mechanic.name()
                            ),
                        )
                    })
            })
            .collect()
    };
    let in_config = |m: String| bad(parquet, format!("config {}: {m}", config.index));
    let exact: Option<Marginals> = match exact_rows {
        Some(rows) => Some(outcomes_of(rows, &field_of(rows)?, schema).map_err(in_config)?),
        None => None,
    };
    let tally: Option<Tally> = match tally_rows {
        Some(rows) => Some(outcomes_of(rows, &field_of(rows)?, schema).map_err(in_config)?),
        None => None,
    };
    if exact.is_none() && tally.is_none() {
        return Err(bad(
            parquet,
            format!(
                "config {} has no results; the file does not match scenario.toml",
                config.index
            ),
        ));
    }
    let result = ConfigResult::new(
        config.index,
        config.swept.clone(),
        schema,
        exact.as_ref(),
        tally.as_ref(),
    );
    if let Some((field, value, (lo, hi))) = result.outside_bounds(schema) {
        return Err(bad(
            parquet,
            format!(
                "config {}: `{field}` = {value} lies outside the values it can take, {lo} to {hi}",
                config.index
            ),
        ));
    }
    Ok(result)
}

/// What differs between reading a config's exact rows and its Monte
/// Carlo rows; the rest of [`outcomes_of`] is one for both.
trait Stored: Weight {
    /// The rows' `method`.
    const METHOD: &'static str;
    /// The weight of row `r` of a run of `n` trials (the first row's), or
    /// what is wrong with it.
    fn of_row(r: &Row, n: u64) -> Result<Self, String>;
    /// `a + b`, as a field's weights are summed to be checked.
    fn plus(a: Self, b: Self) -> Self;
    /// What is wrong with field `name`'s weights summing to `sum`, in a
    /// run of `n` trials, if anything.
    fn sum_fault(name: &str, sum: Self, n: u64) -> Option<String>;
}

/// A row's probability, with no trials or count; each field's sum to one.
impl Stored for f64 {
    const METHOD: &'static str = "exact";

    fn of_row(r: &Row, _: u64) -> Result<f64, String> {
        match r.trials != 0 || r.count.is_some() {
            true => Err("an exact row has trials or a count".into()),
            false => Ok(r.probability),
        }
    }

    fn plus(a: f64, b: f64) -> f64 {
        a + b
    }

    fn sum_fault(name: &str, sum: f64, _: u64) -> Option<String> {
        ((sum - 1.0).abs() > SUM_TOLERANCE)
            .then(|| format!("the exact probabilities of `{name}` sum to {sum}, not 1"))
    }
}

/// A row's count, of the same trials as every row and matching its
/// probability; each field's sum to the trials.
impl Stored for u64 {
    const METHOD: &'static str = "monte-carlo";

    fn of_row(r: &Row, n: u64) -> Result<u64, String> {
        let wrong = |what: &str| format!("a Monte Carlo row of `{}` {what}", r.field);
        let Some(c) = r.count else {
            return Err(wrong("has no count"));
        };
        if r.trials != n || n == 0 {
            return Err(wrong("disagrees on the number of trials"));
        }
        if c > n || (c as f64 / n as f64 - r.probability).abs() > 1e-9 {
            return Err(wrong("has a count that does not match its probability"));
        }
        Ok(c)
    }

    fn plus(a: u64, b: u64) -> u64 {
        a.saturating_add(b)
    }

    fn sum_fault(name: &str, sum: u64, n: u64) -> Option<String> {
        (sum != n).then(|| format!("the counts of `{name}` sum to {sum}, not the {n} trials"))
    }
}

/// One config's table of one method from its rows, `idx[i]` the field of
/// row `i`, checked row by row and field by field: what is wrong, if
/// anything, in words that follow the config's number. Its total is its
/// first field's mass (for a tally, checked to be the trials).
fn outcomes_of<W: Stored>(
    rows: &[Row],
    idx: &[usize],
    schema: &Schema,
) -> Result<Outcomes<W>, String> {
    let fields = schema.fields.len();
    let n = rows[0].trials;
    let mut sums = vec![W::ZERO; fields];
    let mut triples = Vec::with_capacity(rows.len());
    for (r, &f) in rows.iter().zip(idx) {
        let w = W::of_row(r, n)?;
        sums[f] = W::plus(sums[f], w);
        triples.push((f, r.value, w));
    }
    for (f, &sum) in sums.iter().enumerate() {
        if let Some(fault) = W::sum_fault(&schema.fields[f].name, sum, n) {
            return Err(fault);
        }
    }
    let total = sums.first().copied().unwrap_or(W::ZERO);
    Ok(Outcomes::from_columns(fields, total, triples))
}

/// The manifest must describe the scenario copy beside it.
fn check_manifest(
    m: &ManifestDoc,
    manifest_path: &Path,
    scenario: &Scenario,
    scenario_path: &Path,
) -> Result<(), LoadError> {
    if m.scenario.sha256 != scenario.sha256 {
        return Err(bad(
            scenario_path,
            format!(
                "was changed after the run (its SHA-256 is {}, the run's manifest.json says {}); run the scenario again instead of rebuilding from it",
                scenario.sha256, m.scenario.sha256
            ),
        ));
    }
    let swept = scenario.swept_paths();
    let problem = if m.mechanic != scenario.mechanic.name() {
        Some(format!(
            "says mechanic {}, but scenario.toml runs {}",
            m.mechanic,
            scenario.mechanic.name()
        ))
    } else if m.scenario.swept != swept {
        Some(format!(
            "says the sweep is over [{}], but scenario.toml sweeps [{}]",
            m.scenario.swept.join(", "),
            swept.join(", ")
        ))
    } else if m.configs != scenario.config_count() {
        Some(format!(
            "says {} configs, but scenario.toml expands to {}",
            m.configs,
            scenario.config_count()
        ))
    } else {
        None
    };
    match problem {
        Some(p) => Err(bad(manifest_path, p)),
        None => Ok(()),
    }
}
