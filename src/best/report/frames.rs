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

/// The swept columns, one entry per config in `each` (a config once
/// per row of the table).
fn swept<'a>(run: &BestRun, each: impl Iterator<Item = &'a BestRow> + Clone) -> Vec<Column> {
    let mut columns = vec![Column::new(
        "config_id".into(),
        each.clone().map(|r| r.row as u64).collect::<Vec<_>>(),
    )];
    for (i, path) in run.swept.iter().enumerate() {
        let values: Vec<&ParamValue> = each.clone().map(|r| &r.swept[i]).collect();
        columns.push(param_column(path, &values));
    }
    columns
}

fn metric(run: &BestRun, n: usize) -> Column {
    Column::new("metric".into(), vec![run.metric.as_str(); n])
}

/// `best`: one row per config.
pub fn best(run: &BestRun) -> Result<DataFrame, OutputError> {
    let n = run.rows.len();
    let a = |f: &dyn Fn(&BestRow) -> f64| run.rows.iter().map(f).collect::<Vec<_>>();
    let mut columns = swept(run, run.rows.iter());
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

/// The sides a table has rows for: A (the deciding side), and in a duel
/// B (`true`).
fn sides(run: &BestRun) -> &'static [bool] {
    if run.opponent == Opponent::Best {
        &[false, true]
    } else {
        &[false]
    }
}

/// `dominance`: one row per config and option group (in a duel, A's
/// options then B's, with a `side`).
pub fn dominance(run: &BestRun) -> Result<DataFrame, OutputError> {
    let each: Vec<(bool, &BestRow, &DominanceAnswer)> = run
        .rows
        .iter()
        .flat_map(|r| {
            sides(run)
                .iter()
                .flat_map(move |&b| r.answer.side(b).1.iter().map(move |d| (b, r, d)))
        })
        .collect();
    let n = each.len();
    let d =
        |f: &dyn Fn(&DominanceAnswer) -> f64| each.iter().map(|(_, _, x)| f(x)).collect::<Vec<_>>();
    let mut columns = swept(run, each.iter().map(|(_, r, _)| *r));
    columns.push(metric(run, n));
    if run.opponent == Opponent::Best {
        columns.push(side_column(each.iter().map(|(b, ..)| *b)));
    }
    columns.extend([
        Column::new(
            "option".into(),
            each.iter()
                .map(|(_, _, x)| x.option.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new("without".into(), d(&|x| x.without)),
        Column::new("loss".into(), d(&|x| x.loss)),
        Column::new("usage".into(), d(&|x| x.usage)),
    ]);
    DataFrame::new(n, columns).map_err(|e| encode_err("dominance", e))
}

/// `rules`: one row per config and rule, most visited first (in a duel,
/// A's rules then B's, each side ranked on its own).
pub fn rules(run: &BestRun) -> Result<DataFrame, OutputError> {
    // (rank, side, config, rule) for each rule.
    let each: Vec<(usize, bool, &BestRow, &RuleAnswer)> = run
        .rows
        .iter()
        .flat_map(|r| {
            sides(run).iter().flat_map(move |&b| {
                r.answer
                    .side(b)
                    .0
                    .iter()
                    .enumerate()
                    .map(move |(k, x)| (k, b, r, x))
            })
        })
        .collect();
    let n = each.len();
    let mut columns = swept(run, each.iter().map(|(_, _, r, _)| *r));
    if run.opponent == Opponent::Best {
        columns.push(side_column(each.iter().map(|(_, b, ..)| *b)));
    }
    columns.extend([
        Column::new(
            "rank".into(),
            each.iter().map(|(k, ..)| *k as u64 + 1).collect::<Vec<_>>(),
        ),
        Column::new(
            "when".into(),
            each.iter()
                .map(|(.., x)| x.when.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "choice".into(),
            each.iter()
                .map(|(.., x)| x.choice.as_str())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "share".into(),
            each.iter().map(|(.., x)| x.share).collect::<Vec<_>>(),
        ),
        Column::new(
            "agree".into(),
            each.iter().map(|(.., x)| x.agree).collect::<Vec<_>>(),
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

/// The `side` column of a duel's table: A for the deciding side, B
/// (`true`) for the opposing one.
fn side_column(sides: impl Iterator<Item = bool>) -> Column {
    Column::new(
        "side".into(),
        sides.map(|b| if b { "B" } else { "A" }).collect::<Vec<_>>(),
    )
}
