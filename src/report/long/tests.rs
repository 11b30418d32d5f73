//! The streamed long table against the table written in one call.

use super::*;
use crate::report::atomic::Staging;
use crate::results::{FieldRow, Method, Run};
use crate::systems::ParamValue;

/// `n` configs of a sweep over `a` (integers) and `b` (names), with from 1
/// to 40 distribution rows each, some Monte Carlo (with counts and
/// intervals) and some exact.
fn configs(n: usize) -> Vec<ConfigResult> {
    (0..n)
        .map(|i| {
            let rows = 1 + (i * 7) % 40;
            let mc = i % 3 == 0;
            let dist = (0..rows)
                .map(|v| FieldRow {
                    field: if v % 2 == 0 { "margin" } else { "raises" }.into(),
                    value: v as i64 - 3,
                    label: format!("v{v}"),
                    probability: 1.0 / (rows as f64 + v as f64 / 3.0),
                    count: mc.then_some((i * v) as u64),
                    interval: mc.then_some((0.1 / (1 + v) as f64, 0.9 / (1 + i) as f64)),
                })
                .collect();
            ConfigResult {
                index: i,
                swept: vec![
                    ParamValue::Int((i / 3) as i64),
                    ParamValue::Str(["one", "two", "three"][i % 3].into()),
                ],
                runs: vec![Run {
                    method: if mc {
                        Method::MonteCarlo
                    } else {
                        Method::Exact
                    },
                    trials: if mc { 1000 } else { 0 },
                    metrics: Vec::new(),
                    dist,
                }],
                agreement: Vec::new(),
            }
        })
        .collect()
}

fn columns() -> Vec<(String, ColumnKind)> {
    vec![
        ("a".into(), ColumnKind::Int),
        ("b".into(), ColumnKind::Text),
    ]
}

/// Stream `configs` through a [`LongWriter`] and return the two files.
fn streamed(configs: &[ConfigResult]) -> (Vec<u8>, Vec<u8>) {
    streamed_every(configs, ENCODE)
}

/// The same, encoding whenever `every` rows are pending.
fn streamed_every(configs: &[ConfigResult], every: usize) -> (Vec<u8>, Vec<u8>) {
    let tmp = tempfile::tempdir().unwrap();
    let staging = Staging::begin(&tmp.path().join("out")).unwrap();
    let dest = staging.root();
    let mut w = LongWriter::with_columns(&dest, columns()).unwrap();
    w.encode_every = every;
    for c in configs {
        w.push(c).unwrap();
    }
    w.finish().unwrap();
    (
        std::fs::read(dest.path_of(CSV)).unwrap(),
        std::fs::read(dest.path_of(PARQUET)).unwrap(),
    )
}

fn whole(configs: &[ConfigResult]) -> DataFrame {
    let refs: Vec<&ConfigResult> = configs.iter().collect();
    frames::long(&refs, &columns()).unwrap()
}

fn row_groups(parquet: &[u8]) -> Vec<i64> {
    let mut reader = ParquetReader::new(std::io::Cursor::new(parquet.to_vec()));
    let meta = reader.get_metadata().unwrap();
    meta.row_groups
        .iter()
        .map(|rg| rg.num_rows() as i64)
        .collect()
}

#[test]
fn a_small_streamed_table_is_byte_identical_to_one_written_at_once() {
    let configs = configs(500);
    let (csv, parquet) = streamed(&configs);
    assert_eq!(csv, frames::csv(whole(&configs)).unwrap());
    assert_eq!(parquet, frames::parquet(whole(&configs)).unwrap());
}

#[test]
fn a_long_streamed_table_cuts_row_groups_at_the_same_rows_whatever_the_batches() {
    // About 2.3 row groups of rows.
    let configs = configs(8_000);
    let all = whole(&configs);
    assert!(all.height() > 2 * ROW_GROUP);
    let (csv, parquet) = streamed(&configs);
    assert_eq!(csv, frames::csv(all.clone()).unwrap(), "CSV is row by row");
    let back = ParquetReader::new(std::io::Cursor::new(parquet.clone()))
        .finish()
        .unwrap();
    assert!(
        back.equals_missing(&all),
        "the Parquet file holds every row"
    );
    let groups = row_groups(&parquet);
    assert_eq!(groups.len(), all.height().div_ceil(ROW_GROUP));
    assert!(
        groups[..groups.len() - 1]
            .iter()
            .all(|&n| n == ROW_GROUP as i64)
    );

    // Encoded config by config, or all at the end: the same bytes, since
    // only row counts decide where a group ends.
    for every in [1, usize::MAX] {
        let (c, p) = streamed_every(&configs, every);
        assert!(c == csv && p == parquet, "encoding every {every} rows");
    }
}
