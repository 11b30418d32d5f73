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

use super::Sweep;
use crate::report::atomic::{Dest, OutputError};
use crate::report::frames::{ColumnKind, encode_err};
use crate::report::totals::{Kind, Totals};
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
    Int(PrimitiveChunkedBuilder<Int64Type>),
    Bool(BooleanChunkedBuilder),
    Text(StringChunkedBuilder),
}

impl Swept {
    fn new(name: &str, kind: ColumnKind, capacity: usize) -> Swept {
        match kind {
            ColumnKind::Int => Swept::Int(PrimitiveChunkedBuilder::new(name.into(), capacity)),
            ColumnKind::Bool => Swept::Bool(BooleanChunkedBuilder::new(name.into(), capacity)),
            ColumnKind::Text => Swept::Text(StringChunkedBuilder::new(name.into(), capacity)),
        }
    }

    fn push(&mut self, v: &ParamValue) {
        // As `frames::typed_column` reads a value into its column.
        match self {
            Swept::Int(x) => x.append_value(if let ParamValue::Int(i) = v { *i } else { 0 }),
            Swept::Bool(x) => x.append_value(matches!(v, ParamValue::Bool(true))),
            Swept::Text(x) => x.append_value(v.to_string()),
        }
    }

    fn column(self) -> Column {
        match self {
            Swept::Int(x) => x.finish().into_column(),
            Swept::Bool(x) => x.finish().into_column(),
            Swept::Text(x) => x.finish().into_column(),
        }
    }
}

type Floats = PrimitiveChunkedBuilder<Float64Type>;

/// The rows of one row group of `summary.csv`, built straight into its
/// columns (about 90 bytes a row for four metrics).
struct SummaryRows<'a> {
    names: &'a [String],
    kinds: &'a [ColumnKind],
    metrics: &'a [String],
    any_mc: bool,
    swept: Vec<Swept>,
    method: StringChunkedBuilder,
    trials: PrimitiveChunkedBuilder<UInt64Type>,
    /// Per metric: value, and (with Monte Carlo) lo and hi.
    values: Vec<(Floats, Option<(Floats, Floats)>)>,
    len: usize,
}

impl<'a> SummaryRows<'a> {
    fn new(
        names: &'a [String],
        kinds: &'a [ColumnKind],
        metrics: &'a [String],
        any_mc: bool,
        capacity: usize,
    ) -> Self {
        let floats = |name: String| Floats::new(name.into(), capacity);
        SummaryRows {
            names,
            kinds,
            metrics,
            any_mc,
            swept: names
                .iter()
                .zip(kinds)
                .map(|(n, &k)| Swept::new(n, k, capacity))
                .collect(),
            method: StringChunkedBuilder::new("method".into(), capacity),
            trials: PrimitiveChunkedBuilder::new("trials".into(), capacity),
            values: metrics
                .iter()
                .map(|m| {
                    let bounds =
                        any_mc.then(|| (floats(format!("{m}_lo")), floats(format!("{m}_hi"))));
                    (floats(m.clone()), bounds)
                })
                .collect(),
            len: 0,
        }
    }

    fn push(&mut self, c: &ConfigResult, r: &Run) {
        for (col, v) in self.swept.iter_mut().zip(&c.swept) {
            col.push(v);
        }
        self.method.append_value(r.method.as_str());
        self.trials.append_value(r.trials);
        for (name, (value, bounds)) in self.metrics.iter().zip(&mut self.values) {
            let m = r.metrics.iter().find(|m| m.name == *name);
            value.append_option(m.map(|m| m.value));
            if let Some((lo, hi)) = bounds {
                let i = m.and_then(|m| m.interval);
                lo.append_option(i.map(|i| i.0));
                hi.append_option(i.map(|i| i.1));
            }
        }
        self.len += 1;
    }

    /// The frame of the rows so far (the columns `frames::summary` makes);
    /// the builder starts again with room for `capacity` rows.
    fn take(&mut self, capacity: usize) -> Result<DataFrame, OutputError> {
        let fresh = SummaryRows::new(self.names, self.kinds, self.metrics, self.any_mc, capacity);
        let full = std::mem::replace(self, fresh);
        let mut columns: Vec<Column> = full.swept.into_iter().map(Swept::column).collect();
        columns.push(full.method.finish().into_column());
        columns.push(full.trials.finish().into_column());
        for (value, bounds) in full.values {
            columns.push(value.finish().into_column());
            if let Some((lo, hi)) = bounds {
                columns.push(lo.finish().into_column());
                columns.push(hi.finish().into_column());
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

fn kinds(t: &[Kind]) -> Vec<ColumnKind> {
    t.iter().map(|k| k.column()).collect()
}

/// Write `summary.csv` and `summary.parquet` of `sweep` into `dir`.
pub fn write_summary(dir: &Dest, sweep: &mut Sweep) -> Result<(), OutputError> {
    let totals: Totals = sweep.totals.clone();
    let names = sweep.head.swept.clone();
    let kinds = kinds(&totals.summary_kinds);
    let any_mc = totals.mc_runs > 0;
    let sizes = groups(totals.summary_rows);
    let mut rows = SummaryRows::new(&names, &kinds, &totals.metrics, any_mc, 0);
    let schema = rows.take(sizes[0])?.schema().as_ref().clone();
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
        let mut group = 0;
        let mut write = |rows: &mut SummaryRows, next: usize| -> Result<(), OutputError> {
            let df = rows.take(next)?;
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
                    group = (group + 1).min(sizes.len() - 1);
                    write(&mut rows, sizes[group])?;
                }
            }
            Ok(())
        })?;
        if rows.len > 0 {
            write(&mut rows, 0)?;
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
    fn new(names: &[String], kinds: &[ColumnKind]) -> AgreementRows {
        AgreementRows {
            config: Vec::new(),
            swept: names
                .iter()
                .zip(kinds)
                .map(|(n, &k)| Swept::new(n, k, CSV_BATCH))
                .collect(),
            metric: Vec::new(),
            cells: Default::default(),
        }
    }

    fn frame(self) -> Result<DataFrame, OutputError> {
        let len = self.config.len();
        let mut columns = vec![Column::new("config_id".into(), self.config)];
        columns.extend(self.swept.into_iter().map(Swept::column));
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
    let schema = AgreementRows::new(&names, &kinds)
        .frame()?
        .schema()
        .as_ref()
        .clone();
    let mut file = open(dir, "agreement.csv")?;
    {
        let mut csv = CsvWriter::new(&mut file)
            .include_header(true)
            .batched(&schema)
            .map_err(|e| encode_err("CSV", e))?;
        let mut rows = AgreementRows::new(&names, &kinds);
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
                let df =
                    std::mem::replace(&mut rows, AgreementRows::new(&names, &kinds)).frame()?;
                csv.write_batch(&df).map_err(|e| encode_err("CSV", e))?;
            }
            Ok(())
        })?;
        if !rows.config.is_empty() {
            let df = rows.frame()?;
            csv.write_batch(&df).map_err(|e| encode_err("CSV", e))?;
        }
        csv.finish().map_err(|e| encode_err("CSV", e))?;
    }
    flush(dir, "agreement.csv", file)
}
