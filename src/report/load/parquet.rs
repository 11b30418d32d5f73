//! The Parquet side of reading a run back, a window of rows at a time so
//! that reading a sweep back costs memory by the window, not by the
//! sweep: the long table's rows config by config ([`LongRows`]), checked
//! against the scenario's sweep, and the joint metrics that only
//! `summary.parquet` holds ([`SummaryRows`]). Polars runs under
//! [`quietly`]: a malformed file must not take the program down with it.

use std::collections::HashMap;
use std::fs::File;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{LoadError, Row, SUM_TOLERANCE, bad};
use crate::results::ConfigResult;
use crate::scenario::{Config, Scenario};

/// Rows read at once: a few MB of columns, whatever the sweep.
const WINDOW: usize = 1 << 16;

/// One Parquet file read a window of rows at a time, its footer read
/// once.
struct Windows {
    path: PathBuf,
    file: File,
    metadata: FileMetadataRef,
    height: usize,
}

impl Windows {
    fn open(path: &Path) -> Result<Windows, LoadError> {
        let file = File::open(path).map_err(|e| bad(path, format!("cannot read: {e}")))?;
        let probe = file
            .try_clone()
            .map_err(|e| bad(path, format!("cannot read: {e}")))?;
        let footer = quietly(|| -> PolarsResult<_> {
            let mut reader = ParquetReader::new(probe);
            let metadata = reader.get_metadata()?.clone();
            Ok((metadata, reader.num_rows()?))
        });
        let (metadata, height) = unpanic(path, footer)?;
        Ok(Windows {
            path: path.to_path_buf(),
            file,
            metadata,
            height,
        })
    }

    /// Rows `start..start + len` (fewer at the end).
    fn read(&self, start: usize, len: usize) -> Result<DataFrame, LoadError> {
        let file = self
            .file
            .try_clone()
            .map_err(|e| bad(&self.path, format!("cannot read: {e}")))?;
        let metadata = self.metadata.clone();
        let frame = quietly(|| {
            let mut reader = ParquetReader::new(file);
            reader.set_metadata(metadata);
            reader.with_slice(Some((start, len))).finish()
        });
        unpanic(&self.path, frame)
    }
}

/// A Parquet read's result, its panic or error in words naming `path`.
fn unpanic<T>(path: &Path, read: Result<PolarsResult<T>, String>) -> Result<T, LoadError> {
    match read {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => Err(bad(path, format!("is not a readable Parquet file: {e}"))),
        Err(panic) => Err(bad(
            path,
            format!("is damaged; the Parquet reader gave up: {panic}"),
        )),
    }
}

/// One config's rows of the long table, by method in the order met.
pub(super) type ConfigRows = (u64, Vec<(String, Vec<Row>)>);

/// The rows of `results.parquet` config by config, each row checked
/// against the scenario's sweep. A run writes its configs in order, each
/// whole; rows out of that order are bad input.
pub(super) struct LongRows<'a> {
    windows: Windows,
    scenario: &'a Scenario,
    /// The current window's rows, checked, and the next one's place.
    rows: std::vec::IntoIter<(u64, String, Row)>,
    next: usize,
    /// A row read ahead: the first of the next config.
    ahead: Option<(u64, String, Row)>,
    /// The last config returned.
    last: Option<u64>,
    /// The config whose swept values rows are checked against.
    config: Option<(u64, Config)>,
}

impl<'a> LongRows<'a> {
    pub(super) fn open(path: &Path, scenario: &'a Scenario) -> Result<LongRows<'a>, LoadError> {
        Ok(LongRows {
            windows: Windows::open(path)?,
            scenario,
            rows: Vec::new().into_iter(),
            next: 0,
            ahead: None,
            last: None,
            config: None,
        })
    }

    fn row(&mut self) -> Result<Option<(u64, String, Row)>, LoadError> {
        if let Some(r) = self.ahead.take() {
            return Ok(Some(r));
        }
        if let Some(r) = self.rows.next() {
            return Ok(Some(r));
        }
        if self.next >= self.windows.height {
            return Ok(None);
        }
        let df = self.windows.read(self.next, WINDOW)?;
        if df.height() == 0 {
            return Err(bad(
                &self.windows.path,
                format!(
                    "ends at row {} of the {} its footer records",
                    self.next, self.windows.height
                ),
            ));
        }
        let rows = self.checked(&df, self.next)?;
        self.next += df.height();
        self.rows = rows.into_iter();
        Ok(self.rows.next())
    }

    /// The next config's rows, `None` past the last.
    pub(super) fn next_config(&mut self) -> Result<Option<ConfigRows>, LoadError> {
        let Some((id, method, row)) = self.row()? else {
            return Ok(None);
        };
        if let Some(last) = self.last
            && id <= last
        {
            return Err(bad(
                &self.windows.path,
                format!(
                    "config {id}'s rows come after config {last}'s; a run writes its configs in order, each whole"
                ),
            ));
        }
        self.last = Some(id);
        let mut by_method: Vec<(String, Vec<Row>)> = vec![(method, vec![row])];
        while let Some((next_id, method, row)) = self.row()? {
            if next_id != id {
                self.ahead = Some((next_id, method, row));
                break;
            }
            match by_method.iter_mut().find(|(m, _)| *m == method) {
                Some((_, rows)) => rows.push(row),
                None => by_method.push((method, vec![row])),
            }
        }
        Ok(Some((id, by_method)))
    }

    /// The rows of one window starting at row `offset` of the file, each
    /// checked: values present, its config in the sweep with the swept
    /// values the scenario gives it, a known method, a probability.
    fn checked(
        &mut self,
        df: &DataFrame,
        offset: usize,
    ) -> Result<Vec<(u64, String, Row)>, LoadError> {
        let parquet = self.windows.path.clone();
        let scenario = self.scenario;
        let col = |name: &str| {
            df.column(name)
                .map_err(|e| bad(&parquet, format!("has no column `{name}`: {e}")))
        };
        let typed = |name: &str, e: PolarsError| {
            bad(&parquet, format!("column `{name}` has the wrong type: {e}"))
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
        let paths = scenario.swept_paths();
        let mut swept_cols = Vec::new();
        for path in &paths {
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
        let mut out = Vec::with_capacity(df.height());
        for i in 0..df.height() {
            let row_bad = |what: String| bad(&parquet, format!("row {}: {what}", offset + i + 1));
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
            if self.config.as_ref().is_none_or(|(c, _)| *c != id) {
                self.config = Some((id, scenario.config(id as usize)));
            }
            let config = &self.config.as_ref().expect("just set").1;
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
                        paths[k],
                        text.get(i).unwrap_or("(missing)")
                    )));
                }
            }
            out.push((
                id,
                method.to_string(),
                Row {
                    field: field.to_string(),
                    value,
                    probability: p,
                    count: counts.get(i),
                    trials: n,
                },
            ));
        }
        Ok(out)
    }
}

/// Metrics over two fields at once need whole outcomes, which the long
/// table (one row per field and value) does not hold: their values and
/// intervals come from `summary.parquet`, whose rows are the configs' runs
/// in order. Only the metrics the long table cannot give (NaN after the
/// rebuild) are taken.
pub(super) struct SummaryRows {
    windows: Windows,
    /// The window held: its first row and, by metric, its value, low and
    /// high columns.
    start: usize,
    len: usize,
    cached: HashMap<String, [Vec<Option<f64>>; 3]>,
    df: Option<DataFrame>,
}

impl SummaryRows {
    pub(super) fn open(path: &Path) -> Result<SummaryRows, LoadError> {
        Ok(SummaryRows {
            windows: Windows::open(path)?,
            start: 0,
            len: 0,
            cached: HashMap::new(),
            df: None,
        })
    }

    /// Fill config `c`'s missing metrics from its runs' rows, the first
    /// at row `row` (counting from 0).
    pub(super) fn fill(&mut self, row: usize, c: &mut ConfigResult) -> Result<(), LoadError> {
        let path = self.windows.path.clone();
        for (k, run) in c.runs.iter_mut().enumerate() {
            let row = row + k;
            if row >= self.windows.height {
                return Err(bad(
                    &path,
                    format!(
                        "has {} rows, fewer than the run's (config, method) pairs",
                        self.windows.height
                    ),
                ));
            }
            if self.df.is_none() || !(self.start..self.start + self.len).contains(&row) {
                let df = self.windows.read(row, WINDOW)?;
                self.start = row;
                self.len = df.height();
                self.cached.clear();
                self.df = Some(df);
            }
            let at = row - self.start;
            for m in run.metrics.iter_mut().filter(|m| m.value.is_nan()) {
                if !self.cached.contains_key(&m.name) {
                    let df = self.df.as_ref().expect("read above");
                    let column = |name: &str| -> Result<Vec<Option<f64>>, LoadError> {
                        let c = df
                            .column(name)
                            .map_err(|e| bad(&path, format!("has no column `{name}`: {e}")))?;
                        let c = c.f64().map_err(|e| {
                            bad(&path, format!("column `{name}` has the wrong type: {e}"))
                        })?;
                        Ok((0..c.len()).map(|i| c.get(i)).collect())
                    };
                    let read = |name: &str| match df.column(name) {
                        Ok(_) => column(name),
                        Err(_) => Ok(vec![None; df.height()]),
                    };
                    let lo = format!("{}_lo", m.name);
                    let hi = format!("{}_hi", m.name);
                    let columns = [column(&m.name)?, read(&lo)?, read(&hi)?];
                    self.cached.insert(m.name.clone(), columns);
                }
                let [value, lo, hi] = &self.cached[&m.name];
                m.value = value[at].ok_or_else(|| {
                    bad(
                        &path,
                        format!("config {}: `{}` is missing", c.index, m.name),
                    )
                })?;
                if let Some(interval) = &mut m.interval {
                    *interval = (lo[at].unwrap_or(f64::NAN), hi[at].unwrap_or(f64::NAN));
                }
            }
        }
        Ok(())
    }

    /// Every config read, `runs` (config, method) pairs in all: the file
    /// must hold no more rows than that.
    pub(super) fn finish(&self, runs: usize) -> Result<(), LoadError> {
        if self.windows.height != runs {
            return Err(bad(
                &self.windows.path,
                format!(
                    "has {} rows, but the run has {runs} (config, method) pairs",
                    self.windows.height
                ),
            ));
        }
        Ok(())
    }
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
