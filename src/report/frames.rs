//! The results as polars data frames, and their CSV and Parquet encodings.
//! Column names and types here are a public interface (see the README).

use polars::prelude::*;

use super::OutputError;
use crate::results::ConfigResult;
#[cfg(test)]
use crate::results::{Method, Results};
use crate::systems::ParamValue;

pub(crate) fn encode_err(what: &str, e: PolarsError) -> OutputError {
    OutputError::Encode {
        what: what.into(),
        message: e.to_string(),
    }
}

/// How a swept parameter's column is typed: integers stay integers,
/// booleans stay booleans, anything mixed or named becomes text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    Int,
    Bool,
    Text,
}

impl ColumnKind {
    /// The kind that holds every one of `values`.
    pub fn of<'a>(values: impl IntoIterator<Item = &'a ParamValue> + Clone) -> ColumnKind {
        if values
            .clone()
            .into_iter()
            .all(|v| matches!(v, ParamValue::Int(_)))
        {
            ColumnKind::Int
        } else if values.into_iter().all(|v| matches!(v, ParamValue::Bool(_))) {
            ColumnKind::Bool
        } else {
            ColumnKind::Text
        }
    }
}

/// A column for one swept parameter, typed by the values it holds.
pub(crate) fn param_column(name: &str, values: &[&ParamValue]) -> Column {
    typed_column(name, ColumnKind::of(values.iter().copied()), values)
}

/// A column for one swept parameter, of the given kind.
fn typed_column(name: &str, kind: ColumnKind, values: &[&ParamValue]) -> Column {
    match kind {
        ColumnKind::Int => {
            let ints: Vec<i64> = values
                .iter()
                .map(|v| if let ParamValue::Int(i) = v { *i } else { 0 })
                .collect();
            Column::new(name.into(), ints)
        }
        ColumnKind::Bool => {
            let bools: Vec<bool> = values
                .iter()
                .map(|v| matches!(v, ParamValue::Bool(true)))
                .collect();
            Column::new(name.into(), bools)
        }
        ColumnKind::Text => {
            let text: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            Column::new(name.into(), text)
        }
    }
}

/// `summary.csv`: swept parameters, `method`, `trials`, then each headline
/// metric followed (when any run is Monte Carlo) by `<metric>_lo` and
/// `<metric>_hi`. The whole table at once: runs write it config by config
/// ([`crate::report::sweep`]), and tests hold the two to the same bytes.
#[cfg(test)]
pub fn summary(results: &Results) -> Result<DataFrame, OutputError> {
    let rows: Vec<_> = results
        .configs
        .iter()
        .flat_map(|c| c.runs.iter().map(move |r| (c, r)))
        .collect();
    let mut columns = Vec::new();
    for (i, path) in results.swept.iter().enumerate() {
        let values: Vec<&ParamValue> = rows.iter().map(|(c, _)| &c.swept[i]).collect();
        columns.push(param_column(path, &values));
    }
    columns.push(Column::new(
        "method".into(),
        rows.iter()
            .map(|(_, r)| r.method.as_str())
            .collect::<Vec<_>>(),
    ));
    columns.push(Column::new(
        "trials".into(),
        rows.iter().map(|(_, r)| r.trials).collect::<Vec<_>>(),
    ));
    let any_mc = rows.iter().any(|(_, r)| r.method == Method::MonteCarlo);
    let mut names: Vec<&str> = Vec::new();
    for (_, r) in &rows {
        for m in &r.metrics {
            if !names.contains(&m.name.as_str()) {
                names.push(&m.name);
            }
        }
    }
    for name in names {
        let metric = |r: &super::Run| r.metrics.iter().find(|m| m.name == name).cloned();
        let value: Vec<Option<f64>> = rows
            .iter()
            .map(|(_, r)| metric(r).map(|m| m.value))
            .collect();
        columns.push(Column::new(name.into(), value));
        if any_mc {
            let lo: Vec<Option<f64>> = rows
                .iter()
                .map(|(_, r)| metric(r).and_then(|m| m.interval).map(|i| i.0))
                .collect();
            let hi: Vec<Option<f64>> = rows
                .iter()
                .map(|(_, r)| metric(r).and_then(|m| m.interval).map(|i| i.1))
                .collect();
            columns.push(Column::new(format!("{name}_lo").into(), lo));
            columns.push(Column::new(format!("{name}_hi").into(), hi));
        }
    }
    DataFrame::new(rows.len(), columns).map_err(|e| encode_err("summary", e))
}

/// The long table of `configs`: one row per (config, method, field,
/// value); `swept` names and types the swept parameters' columns (from the
/// scenario, so every batch of a streamed run has the same types).
pub fn long(
    configs: &[&ConfigResult],
    swept: &[(String, ColumnKind)],
) -> Result<DataFrame, OutputError> {
    let rows: Vec<_> = configs
        .iter()
        .flat_map(|&c| {
            c.runs
                .iter()
                .flat_map(move |r| r.dist.iter().map(move |d| (c, r, d)))
        })
        .collect();
    let mut columns = vec![Column::new(
        "config_id".into(),
        rows.iter()
            .map(|(c, _, _)| c.index as u64)
            .collect::<Vec<_>>(),
    )];
    for (i, (path, kind)) in swept.iter().enumerate() {
        let values: Vec<&ParamValue> = rows.iter().map(|(c, _, _)| &c.swept[i]).collect();
        columns.push(typed_column(path, *kind, &values));
    }
    columns.extend([
        Column::new(
            "method".into(),
            rows.iter()
                .map(|(_, r, _)| r.method.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "field".into(),
            rows.iter()
                .map(|(_, _, d)| d.field.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "value".into(),
            rows.iter().map(|(_, _, d)| d.value).collect::<Vec<_>>(),
        ),
        Column::new(
            "label".into(),
            rows.iter()
                .map(|(_, _, d)| d.label.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "probability".into(),
            rows.iter()
                .map(|(_, _, d)| d.probability)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "count".into(),
            rows.iter().map(|(_, _, d)| d.count).collect::<Vec<_>>(),
        ),
        Column::new(
            "trials".into(),
            rows.iter().map(|(_, r, _)| r.trials).collect::<Vec<_>>(),
        ),
        Column::new(
            "lo".into(),
            rows.iter()
                .map(|(_, _, d)| d.interval.map(|i| i.0))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "hi".into(),
            rows.iter()
                .map(|(_, _, d)| d.interval.map(|i| i.1))
                .collect::<Vec<_>>(),
        ),
    ]);
    DataFrame::new(rows.len(), columns).map_err(|e| encode_err("results", e))
}

/// `agreement.csv`: one row per config and metric where both methods ran
/// (the whole table at once, as [`summary`]).
#[cfg(test)]
pub fn agreement(results: &Results) -> Result<DataFrame, OutputError> {
    let rows: Vec<_> = results
        .configs
        .iter()
        .flat_map(|c| c.agreement.iter().map(move |a| (c, a)))
        .collect();
    let mut columns = vec![Column::new(
        "config_id".into(),
        rows.iter().map(|(c, _)| c.index as u64).collect::<Vec<_>>(),
    )];
    for (i, path) in results.swept.iter().enumerate() {
        let values: Vec<&ParamValue> = rows.iter().map(|(c, _)| &c.swept[i]).collect();
        columns.push(param_column(path, &values));
    }
    columns.extend([
        Column::new(
            "metric".into(),
            rows.iter()
                .map(|(_, a)| a.metric.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "exact".into(),
            rows.iter().map(|(_, a)| a.exact).collect::<Vec<_>>(),
        ),
        Column::new(
            "monte_carlo".into(),
            rows.iter().map(|(_, a)| a.estimate).collect::<Vec<_>>(),
        ),
        Column::new(
            "se".into(),
            rows.iter().map(|(_, a)| a.se).collect::<Vec<_>>(),
        ),
        Column::new(
            "z".into(),
            rows.iter().map(|(_, a)| a.z).collect::<Vec<_>>(),
        ),
    ]);
    DataFrame::new(rows.len(), columns).map_err(|e| encode_err("agreement", e))
}

/// CSV with a header, empty cells for missing values.
pub fn csv(mut df: DataFrame) -> Result<Vec<u8>, OutputError> {
    let mut out = Vec::new();
    CsvWriter::new(&mut out)
        .include_header(true)
        .finish(&mut df)
        .map_err(|e| encode_err("CSV", e))?;
    Ok(out)
}

/// Parquet, zstd-compressed.
pub fn parquet(mut df: DataFrame) -> Result<Vec<u8>, OutputError> {
    let mut out = Vec::new();
    ParquetWriter::new(&mut out)
        .with_compression(ParquetCompression::Zstd(None))
        .finish(&mut df)
        .map_err(|e| encode_err("Parquet", e))?;
    Ok(out)
}
