//! The long results table (`results.csv`, `results.parquet`), written as
//! the run streams: each config's rows are encoded as soon as they are
//! buffered up to one Parquet row group, so memory is bounded by a row
//! group, not by the sweep.
//!
//! The bytes do not depend on how configs arrive: the CSV is row by row,
//! and Parquet row groups are cut at exactly [`ROW_GROUP`] rows whatever
//! the batches. A run, a run written all at once from its [`Results`], and
//! the merge of shards therefore give the same files. Below one row group
//! (every shipped scenario) the Parquet file is the one polars writes for
//! the whole frame in one call.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use polars::io::csv::write::BatchedWriter as CsvBatched;
use polars::io::parquet::write::BatchedWriter as ParquetBatched;
use polars::prelude::*;

use super::atomic::{Dest, OutputError};
use super::frames::{self, ColumnKind};
use crate::results::ConfigResult;
use crate::scenario::Scenario;

/// Rows per Parquet row group. A table smaller than this is one row
/// group, as polars' one-shot write makes it; the rows waiting for a group
/// to fill (about 200 bytes each) are the writer's fixed memory.
pub const ROW_GROUP: usize = 64 * 1024;

/// Rows of pending configs encoded at a time: encoded columns take a
/// fraction of the memory of the rows they come from.
const ENCODE: usize = 8 * 1024;

const CSV: &str = "results.csv";
const PARQUET: &str = "results.parquet";
/// The files a [`LongWriter`] writes.
pub const LONG_FILES: [&str; 2] = [CSV, PARQUET];

/// `results.csv` and `results.parquet`, open in a staging directory and
/// filled config by config.
pub struct LongWriter {
    swept: Vec<(String, ColumnKind)>,
    csv: CsvBatched<Shared>,
    parquet: ParquetBatched<Shared>,
    files: [(Shared, PathBuf); 2],
    /// Configs whose rows are not encoded yet, and how many rows they hold.
    pending: Vec<ConfigResult>,
    pending_rows: usize,
    /// Encoded rows short of a whole row group.
    carry: Option<DataFrame>,
    /// Pending rows that trigger an encoding ([`ENCODE`]; tests vary it to
    /// show the bytes do not depend on it).
    encode_every: usize,
}

impl LongWriter {
    /// Create both files in `dir` for a run of `scenario`.
    pub fn create(dir: &Dest, scenario: &Scenario) -> Result<LongWriter, OutputError> {
        let swept = scenario
            .sweep
            .iter()
            .map(|a| (a.path.clone(), ColumnKind::of(a.values.iter())))
            .collect();
        LongWriter::with_columns(dir, swept)
    }

    /// Create both files in `dir`, the swept parameters' columns named and
    /// typed by `swept`.
    fn with_columns(
        dir: &Dest,
        swept: Vec<(String, ColumnKind)>,
    ) -> Result<LongWriter, OutputError> {
        // The schema of an empty frame fixes every column's type up front,
        // so a batch whose optional columns are all missing still matches.
        let schema = frames::long(&[], &swept)?.schema().as_ref().clone();
        let csv_file = Shared::new(dir.create(CSV)?);
        let parquet_file = Shared::new(dir.create(PARQUET)?);
        let csv = CsvWriter::new(csv_file.clone())
            .include_header(true)
            .batched(&schema)
            .map_err(|e| encode_err(CSV, e))?;
        let parquet = ParquetWriter::new(parquet_file.clone())
            .with_compression(ParquetCompression::Zstd(None))
            .batched(&schema)
            .map_err(|e| encode_err(PARQUET, e))?;
        Ok(LongWriter {
            swept,
            csv,
            parquet,
            files: [
                (csv_file, dir.path_of(CSV)),
                (parquet_file, dir.path_of(PARQUET)),
            ],
            pending: Vec::new(),
            pending_rows: 0,
            carry: None,
            encode_every: ENCODE,
        })
    }

    /// Add one config's rows (its runs' distributions).
    pub fn push(&mut self, config: &ConfigResult) -> Result<(), OutputError> {
        self.pending_rows += config.runs.iter().map(|r| r.dist.len()).sum::<usize>();
        self.pending.push(config.clone());
        if self.pending_rows >= self.encode_every {
            self.encode()?;
        }
        Ok(())
    }

    /// Encode the pending configs: all of them into the CSV, and whole row
    /// groups into the Parquet file, carrying the rest.
    fn encode(&mut self) -> Result<(), OutputError> {
        let refs: Vec<&ConfigResult> = self.pending.iter().collect();
        let df = frames::long(&refs, &self.swept)?;
        self.pending.clear();
        self.pending_rows = 0;
        self.csv.write_batch(&df).map_err(|e| encode_err(CSV, e))?;
        let mut rows = match self.carry.take() {
            Some(mut carry) => {
                carry.vstack_mut(&df).map_err(|e| encode_err(PARQUET, e))?;
                carry
            }
            None => df,
        };
        while rows.height() >= ROW_GROUP {
            let group = rows.slice(0, ROW_GROUP);
            self.write_group(group)?;
            rows = rows.slice(ROW_GROUP as i64, rows.height() - ROW_GROUP);
        }
        if rows.height() > 0 {
            self.carry = Some(rows);
        }
        Ok(())
    }

    fn write_group(&mut self, mut group: DataFrame) -> Result<(), OutputError> {
        // One chunk per column: one row group, laid out as polars lays out
        // a frame it writes in one call.
        group.rechunk_mut();
        self.parquet
            .write_batch(&group)
            .map_err(|e| encode_err(PARQUET, e))
    }

    /// Write what is left and close both files.
    pub fn finish(mut self) -> Result<(), OutputError> {
        self.encode()?;
        if let Some(rest) = self.carry.take() {
            self.write_group(rest)?;
        }
        self.csv.finish().map_err(|e| encode_err(CSV, e))?;
        self.parquet.finish().map_err(|e| encode_err(PARQUET, e))?;
        // Flushed here, not on drop, so a full disk is an error.
        for (file, path) in &self.files {
            file.flush_to_disk(path)?;
        }
        Ok(())
    }
}

/// A buffered file both a polars writer and [`LongWriter`] hold: polars
/// writers do not give their sink back, and the last flush must be seen.
#[derive(Clone)]
struct Shared(Arc<Mutex<BufWriter<File>>>);

impl Shared {
    fn new(file: File) -> Shared {
        Shared(Arc::new(Mutex::new(BufWriter::with_capacity(
            1 << 20,
            file,
        ))))
    }

    fn flush_to_disk(&self, path: &Path) -> Result<(), OutputError> {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        w.flush().map_err(|e| OutputError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .flush()
    }
}

fn encode_err(what: &str, e: PolarsError) -> OutputError {
    OutputError::Encode {
        what: what.into(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests;
