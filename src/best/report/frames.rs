//! The tables of a best-play scenario, one tidy table each, as CSV and
//! Parquet: `best` (one row per config: the value under best play, under
//! the given policy, the gap), `dominance` (one row per config and option
//! group: what forbidding it costs, and its use) and `rules` (one row per
//! config and rule of the best policy). A duel's tables (`opponent =
//! "best"`) say more: `best` has `one_sided`, `taken_back` and
//! `opposing_decisions`, and `dominance` and `rules` a `side` (`A` or
//! `B`) with both sides' rows. Column names and types are a public interface
//! (docs/src/best.md).

use polars::prelude::*;

use super::super::sweep::{BestRow, BestRun};
use super::super::{DominanceAnswer, Opponent, RuleAnswer};
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
    if run.opponent == Opponent::Best {
        let d = |f: &dyn Fn(&crate::best::DuelAnswer) -> f64| {
            run.rows
                .iter()
                .map(|r| r.answer.duel.as_ref().map(f))
                .collect::<Vec<_>>()
        };
        columns.extend([
            Column::new("one_sided".into(), d(&|x| x.one_sided)),
            Column::new("taken_back".into(), d(&|x| x.taken_back)),
            Column::new("opposing_decisions".into(), d(&|x| x.decisions)),
        ]);
    }
    DataFrame::new(n, columns).map_err(|e| encode_err("best", e))
}

/// A side's dominance rows in a config: A's (the deciding side's), or in
/// a duel B's too.
fn side_dominance(r: &BestRow, side: usize) -> &[DominanceAnswer] {
    match (side, &r.answer.duel) {
        (0, _) => &r.answer.dominance,
        (_, Some(d)) => &d.dominance,
        (_, None) => &[],
    }
}

/// `dominance`: one row per config and option group (in a duel, A's
/// options then B's, with a `side`).
pub fn dominance(run: &BestRun) -> Result<DataFrame, OutputError> {
    let duel = run.opponent == Opponent::Best;
    let sides: &[usize] = if duel { &[0, 1] } else { &[0] };
    let each: Vec<(usize, usize, &BestRow)> = run
        .rows
        .iter()
        .flat_map(|r| {
            sides
                .iter()
                .flat_map(move |&s| (0..side_dominance(r, s).len()).map(move |k| (k, s, r)))
        })
        .collect();
    let n = each.len();
    let row = |k: usize, s: usize, r: &BestRow| side_dominance(r, s)[k].clone();
    let d = |f: &dyn Fn(&DominanceAnswer) -> f64| {
        each.iter()
            .map(|(k, s, r)| f(&row(*k, *s, r)))
            .collect::<Vec<_>>()
    };
    let rows: Vec<(usize, &BestRow)> = each.iter().map(|(k, _, r)| (*k, *r)).collect();
    let mut columns = swept(run, &rows);
    columns.push(metric(run, n));
    if duel {
        columns.push(side_column(each.iter().map(|(_, s, _)| *s)));
    }
    columns.extend([
        Column::new(
            "option".into(),
            each.iter()
                .map(|(k, s, r)| row(*k, *s, r).option)
                .collect::<Vec<_>>(),
        ),
        Column::new("without".into(), d(&|x| x.without)),
        Column::new("loss".into(), d(&|x| x.loss)),
        Column::new("usage".into(), d(&|x| x.usage)),
    ]);
    DataFrame::new(n, columns).map_err(|e| encode_err("dominance", e))
}

/// A side's rules in a config: A's (the deciding side's), or in a duel
/// B's too.
fn side_rules(r: &BestRow, side: usize) -> &[RuleAnswer] {
    match (side, &r.answer.duel) {
        (0, _) => &r.answer.rules,
        (_, Some(d)) => &d.rules,
        (_, None) => &[],
    }
}

/// `rules`: one row per config and rule, most visited first (in a duel,
/// A's rules then B's, each side ranked on its own).
pub fn rules(run: &BestRun) -> Result<DataFrame, OutputError> {
    let duel = run.opponent == Opponent::Best;
    let sides: &[usize] = if duel { &[0, 1] } else { &[0] };
    // (rank, side, row) for each rule.
    let each: Vec<(usize, usize, &BestRow)> = run
        .rows
        .iter()
        .flat_map(|r| {
            sides
                .iter()
                .flat_map(move |&s| (0..side_rules(r, s).len()).map(move |k| (k, s, r)))
        })
        .collect();
    let n = each.len();
    let rows: Vec<(usize, &BestRow)> = each.iter().map(|(k, _, r)| (*k, *r)).collect();
    let mut columns = swept(run, &rows);
    let rule = |k: usize, s: usize, r: &BestRow| side_rules(r, s)[k].clone();
    if duel {
        columns.push(side_column(each.iter().map(|(_, s, _)| *s)));
    }
    columns.extend([
        Column::new(
            "rank".into(),
            each.iter().map(|(k, ..)| *k as u64 + 1).collect::<Vec<_>>(),
        ),
        Column::new(
            "when".into(),
            each.iter()
                .map(|(k, s, r)| rule(*k, *s, r).when)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "choice".into(),
            each.iter()
                .map(|(k, s, r)| rule(*k, *s, r).choice)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "share".into(),
            each.iter()
                .map(|(k, s, r)| rule(*k, *s, r).share)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "agree".into(),
            each.iter()
                .map(|(k, s, r)| rule(*k, *s, r).agree)
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

/// The `side` column of a duel's table: A for the deciding side (0), B
/// for the opposing one.
fn side_column(sides: impl Iterator<Item = usize>) -> Column {
    Column::new(
        "side".into(),
        sides
            .map(|s| if s == 0 { "A" } else { "B" })
            .collect::<Vec<_>>(),
    )
}
