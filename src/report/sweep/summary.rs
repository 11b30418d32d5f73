//! `summary.csv`, `summary.parquet` and `agreement.csv` written from a
//! [`Sweep`] config by config, their columns known up front from its
//! [`Totals`], so no more than one Parquet row group of rows is in memory
//! however large the sweep.
//!
//! The bytes are those polars writes for the whole table in one call: the
//! CSV is row by row, and the Parquet row groups are cut where polars cuts
//! a one-chunk frame ([`groups`]).

use std::fs::File;
use std::io::{BufWriter, Write};

use polars::io::csv::write::BatchedWriter as CsvBatched;
use polars::io::parquet::write::BatchedWriter as ParquetBatched;
use polars::prelude::*;

use super::{Sweep, Totals};
use crate::report::atomic::{Dest, OutputError};
use crate::report::frames::{ColumnKind, encode_err};
use crate::results::{ConfigResult, Run};
use crate::systems::ParamValue;

/// The row group polars aims at when it writes a frame in one call.
const POLARS_ROW_GROUP: usize = 512 * 512;
/// Rows of `agreement.csv` encoded at a time.
const CSV_BATCH: usize = 16 * 1024;

/// The sizes of the row groups polars writes a one-chunk frame of `rows`
/// rows in (`chunk_df_for_writing` and `split_impl` of polars-core 0.55):
/// one group below twice the target, else `rows / target` groups of equal
/// size, the last taking the remainder.
pub fn groups(rows: usize) -> Vec<usize> {
    let n = rows / POLARS_ROW_GROUP;
    if n <= 1 {
        return vec![rows];
    }
    let size = rows / n;
    let mut out = vec![size; n - 1];
    out.push(rows - size * (n - 1));
    out
}

/// A column of swept values being filled, typed as its column will be.
enum Swept {
    Int(Vec<i64>),
    Bool(Vec<bool>),
    Text(Vec<String>),
}

impl Swept {
    fn new(kind: ColumnKind) -> Swept {
        match kind {
            ColumnKind::Int => Swept::Int(Vec::new()),
            ColumnKind::Bool => Swept::Bool(Vec::new()),
            ColumnKind::Text => Swept::Text(Vec::new()),
        }
    }

    fn push(&mut self, v: &ParamValue) {
        // As `frames::typed_column` reads a value into its column.
        match self {
            Swept::Int(x) => x.push(if let ParamValue::Int(i) = v { *i } else { 0 }),
            Swept::Bool(x) => x.push(matches!(v, ParamValue::Bool(true))),
            Swept::Text(x) => x.push(v.to_string()),
        }
    }

    fn column(self, name: &str) -> Column {
        match self {
            Swept::Int(x) => Column::new(name.into(), x),
            Swept::Bool(x) => Column::new(name.into(), x),
            Swept::Text(x) => Column::new(name.into(), x),
        }
    }
}

/// The rows of one frame of `summary.csv`, column by column.
struct SummaryRows<'a> {
    names: &'a [String],
    kinds: &'a [ColumnKind],
    metrics: &'a [String],
    any_mc: bool,
    swept: Vec<Swept>,
    method: Vec<&'static str>,
    trials: Vec<u64>,
    /// Per metric: value, and (with Monte Carlo) lo and hi.
    values: Vec<[Vec<Option<f64>>; 3]>,
    len: usize,
}

impl<'a> SummaryRows<'a> {
    fn new(
        names: &'a [String],
        kinds: &'a [ColumnKind],
        metrics: &'a [String],
        any_mc: bool,
    ) -> Self {
        SummaryRows {
            names,
            kinds,
            metrics,
            any_mc,
            swept: kinds.iter().map(|&k| Swept::new(k)).collect(),
            method: Vec::new(),
            trials: Vec::new(),
            values: metrics.iter().map(|_| Default::default()).collect(),
            len: 0,
        }
    }

    fn push(&mut self, c: &ConfigResult, r: &Run) {
        for (col, v) in self.swept.iter_mut().zip(&c.swept) {
            col.push(v);
        }
        self.method.push(r.method.as_str());
        self.trials.push(r.trials);
        for (name, [value, lo, hi]) in self.metrics.iter().zip(&mut self.values) {
            let m = r.metrics.iter().find(|m| m.name == *name);
            value.push(m.map(|m| m.value));
            if self.any_mc {
                let i = m.and_then(|m| m.interval);
                lo.push(i.map(|i| i.0));
                hi.push(i.map(|i| i.1));
            }
        }
        self.len += 1;
    }

    /// The frame of the rows so far (as `frames::summary` makes it); the
    /// builder is empty again.
    fn take(&mut self) -> Result<DataFrame, OutputError> {
        let fresh = SummaryRows::new(self.names, self.kinds, self.metrics, self.any_mc);
        let full = std::mem::replace(self, fresh);
        let mut columns = Vec::new();
        for (name, col) in full.names.iter().zip(full.swept) {
            columns.push(col.column(name));
        }
        columns.push(Column::new("method".into(), full.method));
        columns.push(Column::new("trials".into(), full.trials));
        for (name, [value, lo, hi]) in full.metrics.iter().zip(full.values) {
            columns.push(Column::new(name.into(), value));
            if full.any_mc {
                columns.push(Column::new(format!("{name}_lo").into(), lo));
                columns.push(Column::new(format!("{name}_hi").into(), hi));
            }
        }
        DataFrame::new(full.len, columns).map_err(|e| encode_err("summary", e))
    }
}

/// A buffered output file, flushed (and so its errors seen) at the end.
fn open(dir: &Dest, name: &str) -> Result<BufWriter<File>, OutputError> {
    Ok(BufWriter::with_capacity(1 << 20, dir.create(name)?))
}

fn flush(dir: &Dest, name: &str, mut w: BufWriter<File>) -> Result<(), OutputError> {
    w.flush().map_err(|e| OutputError::Io {
        path: dir.path_of(name),
        message: e.to_string(),
    })
}

fn kinds(t: &[super::Kind]) -> Vec<ColumnKind> {
    t.iter().map(|k| k.column()).collect()
}

/// Write `summary.csv` and `summary.parquet` of `sweep` into `dir`.
pub fn write_summary(dir: &Dest, sweep: &mut Sweep) -> Result<(), OutputError> {
    let totals: Totals = sweep.totals.clone();
    let names = sweep.head.swept.clone();
    let kinds = kinds(&totals.summary_kinds);
    let any_mc = totals.mc_runs > 0;
    let mut rows = SummaryRows::new(&names, &kinds, &totals.metrics, any_mc);
    let schema = rows.take()?.schema().as_ref().clone();
    let mut csv_file = open(dir, "summary.csv")?;
    let mut parquet_file = open(dir, "summary.parquet")?;
    {
        let mut csv: CsvBatched<&mut BufWriter<File>> = CsvWriter::new(&mut csv_file)
            .include_header(true)
            .batched(&schema)
            .map_err(|e| encode_err("CSV", e))?;
        let mut parquet: ParquetBatched<&mut BufWriter<File>> =
            ParquetWriter::new(&mut parquet_file)
                .with_compression(ParquetCompression::Zstd(None))
                .batched(&schema)
                .map_err(|e| encode_err("Parquet", e))?;
        let sizes = groups(totals.summary_rows);
        let mut group = 0;
        let mut write = |rows: &mut SummaryRows| -> Result<(), OutputError> {
            let df = rows.take()?;
            csv.write_batch(&df).map_err(|e| encode_err("CSV", e))?;
            if df.height() > 0 {
                parquet
                    .write_batch(&df)
                    .map_err(|e| encode_err("Parquet", e))?;
            }
            Ok(())
        };
        sweep.each(&mut |_| true, &mut |c| {
            for r in &c.runs {
                rows.push(c, r);
                if rows.len == sizes[group] {
                    write(&mut rows)?;
                    group = (group + 1).min(sizes.len() - 1);
                }
            }
            Ok(())
        })?;
        if rows.len > 0 {
            write(&mut rows)?;
        }
        csv.finish().map_err(|e| encode_err("CSV", e))?;
        parquet.finish().map_err(|e| encode_err("Parquet", e))?;
    }
    flush(dir, "summary.csv", csv_file)?;
    flush(dir, "summary.parquet", parquet_file)
}

/// The rows of one frame of `agreement.csv`.
struct AgreementRows {
    config: Vec<u64>,
    swept: Vec<Swept>,
    metric: Vec<String>,
    cells: [Vec<f64>; 4],
}

impl AgreementRows {
    fn new(kinds: &[ColumnKind]) -> AgreementRows {
        AgreementRows {
            config: Vec::new(),
            swept: kinds.iter().map(|&k| Swept::new(k)).collect(),
            metric: Vec::new(),
            cells: Default::default(),
        }
    }

    fn frame(self, names: &[String]) -> Result<DataFrame, OutputError> {
        let len = self.config.len();
        let mut columns = vec![Column::new("config_id".into(), self.config)];
        for (name, col) in names.iter().zip(self.swept) {
            columns.push(col.column(name));
        }
        columns.push(Column::new("metric".into(), self.metric));
        let [exact, mc, se, z] = self.cells;
        columns.extend([
            Column::new("exact".into(), exact),
            Column::new("monte_carlo".into(), mc),
            Column::new("se".into(), se),
            Column::new("z".into(), z),
        ]);
        DataFrame::new(len, columns).map_err(|e| encode_err("agreement", e))
    }
}

/// Write `agreement.csv` of `sweep` into `dir`.
pub fn write_agreement(dir: &Dest, sweep: &mut Sweep) -> Result<(), OutputError> {
    let names = sweep.head.swept.clone();
    let kinds = kinds(&sweep.totals.agreement_kinds);
    let schema = AgreementRows::new(&kinds)
        .frame(&names)?
        .schema()
        .as_ref()
        .clone();
    let mut file = open(dir, "agreement.csv")?;
    {
        let mut csv = CsvWriter::new(&mut file)
            .include_header(true)
            .batched(&schema)
            .map_err(|e| encode_err("CSV", e))?;
        let mut rows = AgreementRows::new(&kinds);
        sweep.each(&mut |_| true, &mut |c| {
            for a in &c.agreement {
                rows.config.push(c.index as u64);
                for (col, v) in rows.swept.iter_mut().zip(&c.swept) {
                    col.push(v);
                }
                rows.metric.push(a.metric.clone());
                for (cell, x) in rows.cells.iter_mut().zip([a.exact, a.estimate, a.se, a.z]) {
                    cell.push(x);
                }
            }
            if rows.config.len() >= CSV_BATCH {
                let df = std::mem::replace(&mut rows, AgreementRows::new(&kinds)).frame(&names)?;
                csv.write_batch(&df).map_err(|e| encode_err("CSV", e))?;
            }
            Ok(())
        })?;
        if !rows.config.is_empty() {
            let df = rows.frame(&names)?;
            csv.write_batch(&df).map_err(|e| encode_err("CSV", e))?;
        }
        csv.finish().map_err(|e| encode_err("CSV", e))?;
    }
    flush(dir, "agreement.csv", file)
}

