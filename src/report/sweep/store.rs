//! A run's config results on disk, as they arrive: one compact binary
//! record per config in an unlinked scratch file in the run's staging
//! directory (so a killed run leaves nothing behind, and a full disk
//! fails the run like any other output), read back in sweep order by the
//! summary writers, and, picked by swept values, by the report.
//!
//! A record holds what a [`ConfigResult`] holds but its swept values,
//! which the sweep gives from the config's index ([`Grid::swept_at`]); names
//! (metrics, fields) are numbered once per store.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::report::OutputError;
use crate::report::grid::Grid;
use crate::results::{Agreement, ConfigResult, FieldRow, Method, MetricRow, Run};

/// Config records, written in sweep order and read back.
pub struct Store {
    file: BufWriter<File>,
    /// For messages: where the scratch file lives.
    at: PathBuf,
    names: Vec<String>,
    ids: HashMap<String, u16>,
    buf: Vec<u8>,
    records: usize,
}

fn io_err(at: &std::path::Path, e: std::io::Error) -> OutputError {
    OutputError::Io {
        path: at.to_path_buf(),
        message: e.to_string(),
    }
}

impl Store {
    /// A store in `file` (an unlinked scratch file), for messages `at`.
    pub fn new(file: File, at: PathBuf) -> Store {
        Store {
            file: BufWriter::with_capacity(1 << 16, file),
            at,
            names: Vec::new(),
            ids: HashMap::new(),
            buf: Vec::new(),
            records: 0,
        }
    }

    /// Configs stored.
    pub fn len(&self) -> usize {
        self.records
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    fn id(&mut self, name: &str) -> u16 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = u16::try_from(self.names.len()).expect("fewer than 65536 names in a schema");
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    /// Append `c`'s record.
    pub fn push(&mut self, c: &ConfigResult) -> Result<(), OutputError> {
        let mut b = std::mem::take(&mut self.buf);
        b.clear();
        put_u64(&mut b, c.index as u64);
        b.push(c.runs.len() as u8);
        for r in &c.runs {
            b.push(match r.method {
                Method::Exact => 0,
                Method::MonteCarlo => 1,
            });
            put_u64(&mut b, r.trials);
            put_u32(&mut b, r.metrics.len() as u32);
            for m in &r.metrics {
                let id = self.id(&m.name);
                put_u16(&mut b, id);
                put_f64(&mut b, m.value);
                put_opt_pair(&mut b, m.interval);
                put_opt_f64(&mut b, m.se);
            }
            put_u32(&mut b, r.dist.len() as u32);
            for d in &r.dist {
                let id = self.id(&d.field);
                put_u16(&mut b, id);
                put_u64(&mut b, d.value as u64);
                put_str(&mut b, &d.label);
                put_f64(&mut b, d.probability);
                match d.count {
                    Some(n) => {
                        b.push(1);
                        put_u64(&mut b, n);
                    }
                    None => b.push(0),
                }
                put_opt_pair(&mut b, d.interval);
            }
        }
        put_u32(&mut b, c.agreement.len() as u32);
        for a in &c.agreement {
            let id = self.id(&a.metric);
            put_u16(&mut b, id);
            for x in [a.exact, a.estimate, a.se, a.z] {
                put_f64(&mut b, x);
            }
        }
        let len = (b.len() as u32).to_le_bytes();
        let written = self
            .file
            .write_all(&len)
            .and_then(|()| self.file.write_all(&b));
        self.buf = b;
        written.map_err(|e| io_err(&self.at, e))?;
        self.records += 1;
        Ok(())
    }

    /// Read every record back in order: `want(index)` says which to
    /// decode; each one decoded, its swept values from `grid`, goes to
    /// `each`.
    pub fn scan(
        &mut self,
        grid: &Grid,
        want: &mut dyn FnMut(usize) -> bool,
        each: &mut dyn FnMut(ConfigResult) -> Result<(), OutputError>,
    ) -> Result<(), OutputError> {
        self.file.flush().map_err(|e| io_err(&self.at, e))?;
        let mut f = self
            .file
            .get_ref()
            .try_clone()
            .map_err(|e| io_err(&self.at, e))?;
        f.seek(SeekFrom::Start(0))
            .map_err(|e| io_err(&self.at, e))?;
        let mut r = BufReader::with_capacity(1 << 16, f);
        let mut rec = Vec::new();
        for _ in 0..self.records {
            let mut len = [0u8; 4];
            r.read_exact(&mut len).map_err(|e| io_err(&self.at, e))?;
            rec.resize(u32::from_le_bytes(len) as usize, 0);
            r.read_exact(&mut rec).map_err(|e| io_err(&self.at, e))?;
            let index = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes")) as usize;
            if !want(index) {
                continue;
            }
            each(self.decode(&rec, grid))?;
        }
        // Appends go on at the end.
        self.file
            .get_mut()
            .seek(SeekFrom::End(0))
            .map_err(|e| io_err(&self.at, e))?;
        Ok(())
    }

    fn decode(&self, rec: &[u8], grid: &Grid) -> ConfigResult {
        let mut r = Reader { b: rec, at: 0 };
        let index = r.u64() as usize;
        let n_runs = r.u8();
        let mut runs = Vec::with_capacity(n_runs as usize);
        for _ in 0..n_runs {
            let method = if r.u8() == 0 {
                Method::Exact
            } else {
                Method::MonteCarlo
            };
            let trials = r.u64();
            let n = r.u32();
            let metrics = (0..n)
                .map(|_| MetricRow {
                    name: self.names[r.u16() as usize].clone(),
                    value: r.f64(),
                    interval: r.opt_pair(),
                    se: r.opt_f64(),
                })
                .collect();
            let n = r.u32();
            let dist = (0..n)
                .map(|_| FieldRow {
                    field: self.names[r.u16() as usize].clone(),
                    value: r.u64() as i64,
                    label: r.str(),
                    probability: r.f64(),
                    count: (r.u8() == 1).then(|| r.u64()),
                    interval: r.opt_pair(),
                })
                .collect();
            runs.push(Run {
                method,
                trials,
                metrics,
                dist,
            });
        }
        let n = r.u32();
        let agreement = (0..n)
            .map(|_| Agreement {
                metric: self.names[r.u16() as usize].clone(),
                exact: r.f64(),
                estimate: r.f64(),
                se: r.f64(),
                z: r.f64(),
            })
            .collect();
        ConfigResult {
            index,
            swept: grid.swept_at(index),
            runs,
            agreement,
        }
    }
}

fn put_u16(b: &mut Vec<u8>, x: u16) {
    b.extend_from_slice(&x.to_le_bytes());
}
fn put_u32(b: &mut Vec<u8>, x: u32) {
    b.extend_from_slice(&x.to_le_bytes());
}
fn put_u64(b: &mut Vec<u8>, x: u64) {
    b.extend_from_slice(&x.to_le_bytes());
}
fn put_f64(b: &mut Vec<u8>, x: f64) {
    b.extend_from_slice(&x.to_bits().to_le_bytes());
}
fn put_opt_f64(b: &mut Vec<u8>, x: Option<f64>) {
    match x {
        Some(x) => {
            b.push(1);
            put_f64(b, x);
        }
        None => b.push(0),
    }
}
fn put_opt_pair(b: &mut Vec<u8>, x: Option<(f64, f64)>) {
    match x {
        Some((lo, hi)) => {
            b.push(1);
            put_f64(b, lo);
            put_f64(b, hi);
        }
        None => b.push(0),
    }
}
fn put_str(b: &mut Vec<u8>, s: &str) {
    put_u32(b, s.len() as u32);
    b.extend_from_slice(s.as_bytes());
}

/// A cursor over one record, which this store wrote.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.b[self.at..self.at + N].try_into().expect("N bytes");
        self.at += N;
        out
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn f64(&mut self) -> f64 {
        f64::from_bits(self.u64())
    }
    fn opt_f64(&mut self) -> Option<f64> {
        (self.u8() == 1).then(|| self.f64())
    }
    fn opt_pair(&mut self) -> Option<(f64, f64)> {
        (self.u8() == 1).then(|| (self.f64(), self.f64()))
    }
    fn str(&mut self) -> String {
        let n = self.u32() as usize;
        let s = String::from_utf8_lossy(&self.b[self.at..self.at + n]).into_owned();
        self.at += n;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamValue;

    #[test]
    fn records_read_back_as_written() {
        let grid = Grid {
            names: vec!["a".into(), "b".into()],
            values: vec![
                vec![ParamValue::Int(1), ParamValue::Int(2)],
                vec![ParamValue::Bool(false), ParamValue::Bool(true)],
            ],
        };
        let mut store = Store::new(tempfile::tempfile().unwrap(), PathBuf::from("scratch"));
        let configs: Vec<ConfigResult> = (0..4)
            .map(|i| ConfigResult {
                index: i,
                swept: grid.swept_at(i),
                runs: vec![Run {
                    method: if i % 2 == 0 {
                        Method::Exact
                    } else {
                        Method::MonteCarlo
                    },
                    trials: 7 * i as u64,
                    metrics: vec![MetricRow {
                        name: "p_x".into(),
                        value: 0.25 * i as f64,
                        interval: (i % 2 == 1).then_some((0.1, f64::NAN)),
                        se: (i % 2 == 1).then_some(0.01),
                    }],
                    dist: vec![FieldRow {
                        field: "margin".into(),
                        value: -(i as i64),
                        label: format!("v{i} é"),
                        probability: 1.0,
                        count: (i % 2 == 1).then_some(9),
                        interval: None,
                    }],
                }],
                agreement: vec![Agreement {
                    metric: "p_x".into(),
                    exact: 0.5,
                    estimate: 0.4,
                    se: 0.1,
                    z: -1.0,
                }],
            })
            .collect();
        for c in &configs {
            store.push(c).unwrap();
        }
        let mut back = Vec::new();
        store
            .scan(&grid, &mut |i| i != 2, &mut |c| {
                back.push(c);
                Ok(())
            })
            .unwrap();
        let want: Vec<&ConfigResult> = configs.iter().filter(|c| c.index != 2).collect();
        assert_eq!(back.len(), 3);
        for (b, w) in back.iter().zip(want) {
            // NaN != NaN: compare through Debug.
            assert_eq!(format!("{b:?}"), format!("{w:?}"));
        }
        // Appending after a scan goes on at the end.
        store.push(&configs[2]).unwrap();
        let mut n = 0;
        store
            .scan(&grid, &mut |_| true, &mut |_| {
                n += 1;
                Ok(())
            })
            .unwrap();
        assert_eq!(n, 5);
    }
}
