//! Reading a finished tune back from its directory, for `oddsmith report
//! DIR`: `manifest.json`, the scenario copy and `tune.parquet`, each
//! checked as a run's are (digests against the manifest, the scenario
//! the manifest names, every row a combination of the scenario's sweep
//! with a knob value the knob walks), then turned back into the
//! [`Tuned`] the reports are drawn from.

use std::path::Path;

use polars::prelude::*;

use super::report::{DATA_FILES, TuneManifest};
use super::{Estimate, Method, TuneRow, Tuned};
use crate::report::bad_file as bad;
use crate::report::{LoadError, Manifest, Words, check_digests, quietly, scenario_copy};
use crate::scenario::{KnobKind, Scenario};

/// How the checks name a tune's directory.
const WORDS: Words = Words {
    manifest: "the tune's manifest.json",
    written: "the tune",
    changed: "after the tune",
    again: "tune the scenario again",
    scenario: "the scenario the tune ran",
};

/// A tune read back.
pub struct LoadedTune {
    pub scenario: Scenario,
    pub tuned: Tuned,
    pub manifest: TuneManifest,
    /// What the reader should hear but that does not stop it.
    pub warnings: Vec<String>,
}

/// Whether the directory `dir` holds a tune (its manifest says so).
pub fn is_tune(dir: &Path) -> bool {
    std::fs::read(dir.join(Manifest::FILE))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v.get("command").and_then(|c| c.as_str()) == Some("tune"))
}

/// The tune in `dir`.
pub fn load(dir: &Path) -> Result<LoadedTune, LoadError> {
    let manifest_path = dir.join(Manifest::FILE);
    let bytes = std::fs::read(&manifest_path).map_err(|e| {
        bad(
            &manifest_path,
            format!("cannot read: {e}; is this an oddsmith output directory?"),
        )
    })?;
    let manifest: TuneManifest = serde_json::from_slice(&bytes).map_err(|e| {
        bad(
            &manifest_path,
            format!("not a tune manifest oddsmith wrote: {e}"),
        )
    })?;
    let mut warnings = Vec::new();
    match &manifest.files {
        None => warnings.push(format!(
            "{} records no file digests (the tune was written before oddsmith recorded them), so its files cannot be checked against it; to check them, tune it again with --out",
            manifest_path.display()
        )),
        Some(files) => check_digests(dir, &DATA_FILES, files, &WORDS)?,
    }
    let scenario = scenario_copy(dir, &manifest.scenario, &WORDS)?;
    let copy = dir.join("scenario.toml");
    let Some(spec) = scenario.tune.as_ref() else {
        return Err(bad(
            &copy,
            "has no [tune] table, but manifest.json says it was tuned",
        ));
    };
    let parquet = dir.join("tune.parquet");
    let file =
        std::fs::File::open(&parquet).map_err(|e| bad(&parquet, format!("cannot read: {e}")))?;
    let rows = match quietly(|| rows_of(file, &parquet, &scenario)) {
        Ok(rows) => rows?,
        Err(panic) => {
            return Err(bad(
                &parquet,
                format!("is damaged; the Parquet reader gave up: {panic}"),
            ));
        }
    };
    let tuned = Tuned {
        name: scenario.name.clone(),
        mechanic: scenario.mechanic.name().to_string(),
        swept: scenario.swept_names(),
        knob: spec.knob.clone(),
        metric: spec.metric.clone(),
        target: spec.target,
        within: spec.within,
        rows,
        evaluations: manifest.configs_evaluated,
        seed: manifest.seed,
        trials: manifest.trials,
        precision: manifest.precision,
        seconds: manifest.wall_seconds,
    };
    Ok(LoadedTune {
        scenario,
        tuned,
        manifest,
        warnings,
    })
}

/// The rows of `tune.parquet`, each checked against the scenario.
fn rows_of(
    file: std::fs::File,
    parquet: &Path,
    scenario: &Scenario,
) -> Result<Vec<TuneRow>, LoadError> {
    let spec = scenario.tune.as_ref().expect("checked by the caller");
    let knob = &spec.knob;
    let df = ParquetReader::new(file)
        .finish()
        .map_err(|e| bad(parquet, format!("is not a readable Parquet file: {e}")))?;
    // Every column as text or number: the knob's column is typed by its
    // kind, and a cast reads either.
    let text = |name: &str| -> Result<StringChunked, LoadError> {
        let c = df
            .column(name)
            .map_err(|e| bad(parquet, format!("has no column `{name}`: {e}")))?;
        let c = c
            .cast(&DataType::String)
            .map_err(|e| bad(parquet, format!("column `{name}`: {e}")))?;
        Ok(c.str().expect("cast to text").clone())
    };
    let number = |name: &str| -> Result<Float64Chunked, LoadError> {
        let c = df
            .column(name)
            .map_err(|e| bad(parquet, format!("has no column `{name}`: {e}")))?;
        let c = c
            .cast(&DataType::Float64)
            .map_err(|e| bad(parquet, format!("column `{name}`: {e}")))?;
        Ok(c.f64().expect("cast to float").clone())
    };
    let flag = |name: &str| -> Result<BooleanChunked, LoadError> {
        let c = df
            .column(name)
            .map_err(|e| bad(parquet, format!("has no column `{name}`: {e}")))?;
        c.bool()
            .cloned()
            .map_err(|e| bad(parquet, format!("column `{name}` has the wrong type: {e}")))
    };
    let swept: Vec<StringChunked> = scenario
        .swept_paths()
        .iter()
        .map(|p| text(p))
        .collect::<Result<_, _>>()?;
    let (knobs, below, above) = (text("knob")?, text("below")?, text("above")?);
    let metric = text("metric")?;
    let (value, lo, hi) = (
        number("metric_value")?,
        number("metric_lo")?,
        number("metric_hi")?,
    );
    let (below_value, above_value) = (number("below_value")?, number("above_value")?);
    let (reachable, ambiguous, monotone) =
        (flag("reachable")?, flag("ambiguous")?, flag("monotone")?);
    let methods = text("method")?;

    // The label of each knob position as the knob column writes it.
    let labels: Vec<String> = (0..knob.values.len())
        .map(|k| match knob.kind {
            KnobKind::Int => knob.numbers[k].to_string(),
            _ => knob.values[k].to_string(),
        })
        .collect();
    let count = scenario.config_count();
    let mut out: Vec<TuneRow> = Vec::with_capacity(df.height());
    let mut row = 0;
    let mut config = scenario.config(0);
    for i in 0..df.height() {
        let row_bad = |what: String| bad(parquet, format!("row {}: {what}", i + 1));
        let cells: Vec<Option<&str>> = swept.iter().map(|c| c.get(i)).collect();
        let is = |c: &crate::scenario::Config| {
            c.swept
                .iter()
                .zip(&cells)
                .all(|(v, cell)| Some(v.to_string().as_str()) == *cell)
        };
        // Rows come combination by combination, an ambiguous one once per
        // candidate.
        if i > 0 && !is(&config) {
            row += 1;
            if row >= count {
                return Err(row_bad(format!("is past the sweep's {count} combinations")));
            }
            config = scenario.config(row);
        }
        if !is(&config) {
            return Err(row_bad(format!(
                "its swept values {cells:?} are not combination {} of the scenario's sweep",
                row + 1
            )));
        }
        if metric.get(i) != Some(spec.metric.as_str()) {
            return Err(row_bad(format!(
                "metric {:?} is not the [tune] table's `{}`",
                metric.get(i).unwrap_or_default(),
                spec.metric
            )));
        }
        let position = |cell: Option<&str>, what: &str| -> Result<Option<usize>, LoadError> {
            let Some(cell) = cell else { return Ok(None) };
            labels
                .iter()
                .position(|l| l == cell)
                .map(Some)
                .ok_or_else(|| {
                    row_bad(format!(
                        "{what} {cell} is not a value the knob `{}` walks",
                        knob.path
                    ))
                })
        };
        let estimate = |v: Option<f64>, interval: Option<(f64, f64)>| {
            v.map(|value| Estimate {
                value,
                se: None,
                interval,
            })
        };
        let interval = lo.get(i).zip(hi.get(i));
        let neighbour = |k: Option<usize>, v: Option<f64>| k.zip(estimate(v, None));
        let method = match methods.get(i) {
            Some("exact") => Method::Exact,
            Some("bisection") => Method::Bisection,
            Some("scan") => Method::Scan,
            other => {
                return Err(row_bad(format!(
                    "method {other:?} is not one of exact, bisection, scan"
                )));
            }
        };
        let (Some(reachable), Some(ambiguous), Some(monotone)) =
            (reachable.get(i), ambiguous.get(i), monotone.get(i))
        else {
            return Err(row_bad("has a missing value".into()));
        };
        out.push(TuneRow {
            row,
            swept: config.swept.clone(),
            knob: position(knobs.get(i), "knob")?,
            value: estimate(value.get(i), interval),
            below: neighbour(position(below.get(i), "below")?, below_value.get(i)),
            above: neighbour(position(above.get(i), "above")?, above_value.get(i)),
            reachable,
            method,
            ambiguous,
            monotone,
        });
    }
    if row + 1 != count || out.is_empty() {
        return Err(bad(
            parquet,
            format!(
                "has {} combinations, but the scenario's sweep has {count}",
                if out.is_empty() { 0 } else { row + 1 }
            ),
        ));
    }
    Ok(out)
}
