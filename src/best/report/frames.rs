//! The tables of a best-play scenario, one tidy table each, as CSV and
//! Parquet: `best` (one row per config: the value under best play, under
//! the given policy, the gap), `dominance` (one row per config and option
//! group: what forbidding it costs, and its use) and `rules` (one row per
//! config and rule of the best policy). Column names and types are a
//! public interface (docs/src/best.md).

use polars::prelude::*;

use super::super::sweep::{BestRow, BestRun};
use crate::report::OutputError;
use crate::report::frames::{self, encode_err, param_column};
use crate::systems::ParamValue;

/// The swept columns of `rows`, one entry per row of `each`.
fn swept(run: &BestRun, each: &[(usize, &BestRow)]) -> Vec<Column> {
    let mut columns = vec![Column::new(
        "config_id".into(),
        each.iter().map(|(_, r)| r.row as u64).collect::<Vec<_>>(),
    )];
    for (i, path) in run.swept.iter().enumerate() {
        let values: Vec<&ParamValue> = each.iter().map(|(_, r)| &r.swept[i]).collect();
        columns.push(param_column(path, &values));
    }
    columns
}

fn metric(run: &BestRun, n: usize) -> Column {
    Column::new("metric".into(), vec![run.metric.as_str(); n])
}

/// `best`: one row per config.
pub fn best(run: &BestRun) -> Result<DataFrame, OutputError> {
    let each: Vec<(usize, &BestRow)> = run.rows.iter().map(|r| (0, r)).collect();
    let n = each.len();
    let a = |f: &dyn Fn(&BestRow) -> f64| run.rows.iter().map(f).collect::<Vec<_>>();
    let mut columns = swept(run, &each);
    columns.extend([
        metric(run, n),
        Column::new("best".into(), a(&|r| r.answer.best)),
        Column::new("given".into(), a(&|r| r.answer.given)),
        Column::new("gap".into(), a(&|r| r.answer.gap)),
        Column::new("decisions".into(), a(&|r| r.answer.decisions)),
        Column::new(
            "states".into(),
            run.rows
                .iter()
                .map(|r| r.answer.states as u64)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "policy".into(),
            run.rows
                .iter()
                .map(|r| r.answer.policy.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "replayed".into(),
            run.rows
                .iter()
                .map(|r| r.answer.replayed)
                .collect::<Vec<_>>(),
        ),
    ]);
    DataFrame::new(n, columns).map_err(|e| encode_err("best", e))
}

/// `dominance`: one row per config and option group.
pub fn dominance(run: &BestRun) -> Result<DataFrame, OutputError> {
    let each: Vec<(usize, &BestRow)> = run
        .rows
        .iter()
        .flat_map(|r| (0..r.answer.dominance.len()).map(move |k| (k, r)))
        .collect();
    let n = each.len();
    let d = |f: &dyn Fn(&crate::best::DominanceAnswer) -> f64| {
        each.iter()
            .map(|(k, r)| f(&r.answer.dominance[*k]))
            .collect::<Vec<_>>()
    };
    let mut columns = swept(run, &each);
    columns.extend([
        metric(run, n),
        Column::new(
            "option".into(),
            each.iter()
                .map(|(k, r)| r.answer.dominance[*k].option.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new("without".into(), d(&|x| x.without)),
        Column::new("loss".into(), d(&|x| x.loss)),
        Column::new("usage".into(), d(&|x| x.usage)),
    ]);
    DataFrame::new(n, columns).map_err(|e| encode_err("dominance", e))
}

/// `rules`: one row per config and rule, most visited first.
pub fn rules(run: &BestRun) -> Result<DataFrame, OutputError> {
    let each: Vec<(usize, &BestRow)> = run
        .rows
        .iter()
        .flat_map(|r| (0..r.answer.rules.len()).map(move |k| (k, r)))
        .collect();
    let n = each.len();
    let mut columns = swept(run, &each);
    let rule = |k: usize, r: &BestRow| r.answer.rules[k].clone();
    columns.extend([
        Column::new(
            "rank".into(),
            each.iter().map(|(k, _)| *k as u64 + 1).collect::<Vec<_>>(),
        ),
        Column::new(
            "when".into(),
            each.iter()
                .map(|(k, r)| rule(*k, r).when)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "choice".into(),
            each.iter()
                .map(|(k, r)| rule(*k, r).choice)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "share".into(),
            each.iter()
                .map(|(k, r)| rule(*k, r).share)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "agree".into(),
            each.iter()
                .map(|(k, r)| rule(*k, r).agree)
                .collect::<Vec<_>>(),
        ),
    ]);
    DataFrame::new(n, columns).map_err(|e| encode_err("rules", e))
}

/// The data files: each table as CSV and Parquet.
pub fn data_files(run: &BestRun) -> Result<Vec<(String, Vec<u8>)>, OutputError> {
    let mut out = Vec::new();
    for (name, df) in [
        ("best", best(run)?),
        ("dominance", dominance(run)?),
        ("rules", rules(run)?),
    ] {
        out.push((format!("{name}.csv"), frames::csv(df.clone())?));
        out.push((format!("{name}.parquet"), frames::parquet(df)?));
    }
    Ok(out)
}
