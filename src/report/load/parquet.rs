//! The Parquet side of reading a run back: the long table's rows by
//! (config, method), checked against the scenario's sweep, and the
//! joint metrics that only `summary.parquet` holds. Polars runs under
//! [`quietly`]: a malformed file must not take the program down with it.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use polars::prelude::*;

use super::{LoadError, Row, SUM_TOLERANCE, bad};
use crate::results::ConfigResult;
use crate::scenario::Scenario;

/// Metrics over two fields at once need whole outcomes, which the long
/// table (one row per field and value) does not hold: their values and
/// intervals come from `summary.parquet`, whose rows are the configs' runs
/// in order. Only the metrics the long table cannot give (NaN after the
/// rebuild) are taken.
pub(super) fn joint_metrics_from_summary(
    path: &Path,
    configs: &mut [ConfigResult],
) -> Result<(), LoadError> {
    let file = std::fs::File::open(path).map_err(|e| bad(path, format!("cannot read: {e}")))?;
    let df = match quietly(|| ParquetReader::new(file).finish()) {
        Ok(Ok(df)) => df,
        Ok(Err(e)) => return Err(bad(path, format!("is not a readable Parquet file: {e}"))),
        Err(panic) => {
            return Err(bad(
                path,
                format!("is damaged; the Parquet reader gave up: {panic}"),
            ));
        }
    };
    let runs: usize = configs.iter().map(|c| c.runs.len()).sum();
    if df.height() != runs {
        return Err(bad(
            path,
            format!(
                "has {} rows, but the run has {runs} (config, method) pairs",
                df.height()
            ),
        ));
    }
    let column = |name: &str| -> Result<Vec<Option<f64>>, LoadError> {
        let c = df
            .column(name)
            .map_err(|e| bad(path, format!("has no column `{name}`: {e}")))?;
        let c = c
            .f64()
            .map_err(|e| bad(path, format!("column `{name}` has the wrong type: {e}")))?;
        Ok((0..c.len()).map(|i| c.get(i)).collect())
    };
    let mut row = 0;
    let mut cached: HashMap<String, [Vec<Option<f64>>; 3]> = HashMap::new();
    for c in configs.iter_mut() {
        for run in &mut c.runs {
            for m in run.metrics.iter_mut().filter(|m| m.value.is_nan()) {
                if !cached.contains_key(&m.name) {
                    let lo = format!("{}_lo", m.name);
                    let hi = format!("{}_hi", m.name);
                    let read = |name: &str| match df.column(name) {
                        Ok(_) => column(name),
                        Err(_) => Ok(vec![None; runs]),
                    };
                    cached.insert(m.name.clone(), [column(&m.name)?, read(&lo)?, read(&hi)?]);
                }
                let [value, lo, hi] = &cached[&m.name];
                m.value = value[row].ok_or_else(|| {
                    bad(path, format!("config {}: `{}` is missing", c.index, m.name))
                })?;
                if let Some(interval) = &mut m.interval {
                    *interval = (lo[row].unwrap_or(f64::NAN), hi[row].unwrap_or(f64::NAN));
                }
            }
            row += 1;
        }
    }
    Ok(())
}

/// The rows of `results.parquet`, by (config, method), checked against
/// the scenario's sweep. Polars runs under `catch_unwind`: a malformed
/// file must not take the program down with it.
pub(super) fn read_parquet(
    parquet: &Path,
    scenario: &Scenario,
) -> Result<BTreeMap<(u64, String), Vec<Row>>, LoadError> {
    let file =
        std::fs::File::open(parquet).map_err(|e| bad(parquet, format!("cannot read: {e}")))?;
    match quietly(|| rows_of(file, parquet, scenario)) {
        Ok(result) => result,
        Err(panic) => Err(bad(
            parquet,
            format!("is damaged; the Parquet reader gave up: {panic}"),
        )),
    }
}

fn rows_of(
    file: std::fs::File,
    parquet: &Path,
    scenario: &Scenario,
) -> Result<BTreeMap<(u64, String), Vec<Row>>, LoadError> {
    let df = ParquetReader::new(file)
        .finish()
        .map_err(|e| bad(parquet, format!("is not a readable Parquet file: {e}")))?;
    let col = |name: &str| {
        df.column(name)
            .map_err(|e| bad(parquet, format!("has no column `{name}`: {e}")))
    };
    let typed = |name: &str, e: PolarsError| {
        bad(parquet, format!("column `{name}` has the wrong type: {e}"))
    };
    let ids = col("config_id")?.u64().map_err(|e| typed("config_id", e))?;
    let methods = col("method")?.str().map_err(|e| typed("method", e))?;
    let fields = col("field")?.str().map_err(|e| typed("field", e))?;
    let values = col("value")?.i64().map_err(|e| typed("value", e))?;
    let probs = col("probability")?
        .f64()
        .map_err(|e| typed("probability", e))?;
    let counts = col("count")?.u64().map_err(|e| typed("count", e))?;
    let trials = col("trials")?.u64().map_err(|e| typed("trials", e))?;
    // Each row's swept values, as text, must be its config's.
    let mut swept_cols = Vec::new();
    for path in scenario.swept_paths() {
        let text = col(path)?
            .cast(&DataType::String)
            .map_err(|e| typed(path, e))?;
        swept_cols.push(text);
    }
    let swept_text: Vec<&StringChunked> = swept_cols
        .iter()
        .map(|c| c.str().expect("cast to text"))
        .collect();
    let count = scenario.config_count();
    // Rows come config by config: build each config once.
    let mut current: Option<(u64, crate::scenario::Config)> = None;

    let mut by_run: BTreeMap<(u64, String), Vec<Row>> = BTreeMap::new();
    for i in 0..df.height() {
        let row_bad = |what: String| bad(parquet, format!("row {}: {what}", i + 1));
        let (Some(id), Some(method), Some(field), Some(value), Some(p), Some(n)) = (
            ids.get(i),
            methods.get(i),
            fields.get(i),
            values.get(i),
            probs.get(i),
            trials.get(i),
        ) else {
            return Err(row_bad("has a missing value".into()));
        };
        if usize::try_from(id).map_or(true, |c| c >= count) {
            return Err(row_bad(format!(
                "config {id} does not exist; the scenario has {count} configs"
            )));
        }
        if current.as_ref().is_none_or(|(c, _)| *c != id) {
            current = Some((id, scenario.config(id as usize)));
        }
        let config = &current.as_ref().expect("just set").1;
        if method != "exact" && method != "monte-carlo" {
            return Err(row_bad(format!(
                "method \"{method}\" is neither exact nor monte-carlo"
            )));
        }
        if !(0.0..=1.0 + SUM_TOLERANCE).contains(&p) {
            return Err(row_bad(format!("probability {p} is not in [0, 1]")));
        }
        for (k, text) in swept_text.iter().enumerate() {
            let want = config.swept[k].to_string();
            if text.get(i) != Some(want.as_str()) {
                return Err(row_bad(format!(
                    "config {id} has {} = {}, but in scenario.toml it is {want}",
                    scenario.swept_paths()[k],
                    text.get(i).unwrap_or("(missing)")
                )));
            }
        }
        by_run
            .entry((id, method.to_string()))
            .or_default()
            .push(Row {
                field: field.to_string(),
                value,
                probability: p,
                count: counts.get(i),
                trials: n,
            });
    }
    Ok(by_run)
}

/// Run `f`, turning a panic into its message without printing it.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an internal error".into())
    })
}
