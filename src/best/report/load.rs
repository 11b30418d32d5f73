//! Reading a best-play directory back, for `oddsmith report DIR`:
//! `manifest.json`, the scenario copy and the tables (`best`,
//! `dominance`, `rules` as Parquet, whose numbers are the answers' own
//! bits), each checked as a run's and a tune's are (digests against the
//! manifest, the scenario the manifest names, one `best` row per config
//! of its sweep in order, every other table's rows naming one of them),
//! then turned back into the [`BestRun`] the reports are drawn from.

use std::path::Path;

use polars::prelude::*;

use super::super::sweep::{BestRow, BestRun};
use super::super::{BestAnswer, DominanceAnswer, DuelAnswer, Opponent, RuleAnswer};
use super::{BestManifest, DATA_FILES};
use crate::report::bad_file as bad;
use crate::report::{LoadError, Manifest, Words, check_digests, quietly, scenario_copy};
use crate::scenario::Scenario;
use crate::systems;

/// How the checks name a best-play directory.
const WORDS: Words = Words {
    manifest: "the manifest.json of best play",
    written: "the one",
    changed: "after best play was solved",
    again: "run `oddsmith check SCENARIO --out DIR` again",
    scenario: "the scenario best play was solved for",
};

/// A best-play directory read back.
pub struct LoadedBest {
    pub scenario: Scenario,
    pub run: BestRun,
    pub manifest: BestManifest,
}

/// The best-play outputs in `dir`.
pub fn load(dir: &Path) -> Result<LoadedBest, LoadError> {
    let manifest_path = dir.join(Manifest::FILE);
    let bytes = std::fs::read(&manifest_path).map_err(|e| {
        bad(
            &manifest_path,
            format!("cannot read: {e}; is this an oddsmith output directory?"),
        )
    })?;
    let manifest: BestManifest = serde_json::from_slice(&bytes).map_err(|e| {
        bad(
            &manifest_path,
            format!("not a best-play manifest oddsmith wrote: {e}"),
        )
    })?;
    check_digests(dir, &DATA_FILES, &manifest.files, &WORDS)?;
    let scenario = scenario_copy(dir, &manifest.scenario, &WORDS)?;
    let copy = dir.join("scenario.toml");
    let Some(spec) = scenario.best.as_ref() else {
        return Err(bad(
            &copy,
            "has no [best] table, but manifest.json says best play was solved",
        ));
    };
    let table = |name: &str| -> Result<DataFrame, LoadError> {
        let path = dir.join(format!("{name}.parquet"));
        let file =
            std::fs::File::open(&path).map_err(|e| bad(&path, format!("cannot read: {e}")))?;
        match quietly(|| ParquetReader::new(file).finish()) {
            Ok(Ok(df)) => Ok(df),
            Ok(Err(e)) => Err(bad(&path, format!("is not a readable Parquet file: {e}"))),
            Err(panic) => Err(bad(
                &path,
                format!("is damaged; the Parquet reader gave up: {panic}"),
            )),
        }
    };
    let count = scenario.config_count();
    let mechanic = scenario.mechanic.name();
    // What the answers share: whether the metric is a probability (as the
    // solve found it, from the first config's schema) and the decision.
    let schema = scenario
        .mechanic
        .schema_of(&scenario.config(0).values)
        .map_err(|e| bad(&copy, e.to_string()))?;
    let (_, probability) = crate::best::reward(&schema, &spec.metric).map_err(|e| bad(&copy, e))?;
    let decision = systems::best::decision(mechanic)
        .unwrap_or_default()
        .to_string();

    let path = dir.join("best.parquet");
    let df = table("best")?;
    let c = Columns {
        df: &df,
        path: &path,
    };
    let (ids, metric) = (c.int("config_id")?, c.text("metric")?);
    let (best, given, gap) = (c.number("best")?, c.number("given")?, c.number("gap")?);
    let (decisions, states) = (c.number("decisions")?, c.int("states")?);
    let (policy, replayed) = (c.text("policy")?, c.number("replayed")?);
    let duel = spec.opponent == Opponent::Best;
    let opposing = systems::duel::opposing(mechanic)
        .unwrap_or_default()
        .to_string();
    // A duel's columns: one-sided best play, what B takes back, B's
    // decisions a trial.
    let duels = if duel {
        Some((
            c.number("one_sided")?,
            c.number("taken_back")?,
            c.number("opposing_decisions")?,
        ))
    } else {
        None
    };
    if df.height() != count {
        return Err(bad(
            &path,
            format!(
                "has {} rows, but the scenario's sweep has {count} configs",
                df.height()
            ),
        ));
    }
    let mut rows = Vec::with_capacity(count);
    for i in 0..count {
        let row_bad = |what: String| bad(&path, format!("row {}: {what}", i + 1));
        if ids.get(i) != Some(i as u64) {
            return Err(row_bad(format!(
                "config_id {:?} is not {i} (one row per config, in the sweep's order)",
                ids.get(i)
            )));
        }
        if metric.get(i) != Some(spec.metric.as_str()) {
            return Err(row_bad(format!(
                "metric {:?} is not the [best] table's `{}`",
                metric.get(i).unwrap_or_default(),
                spec.metric
            )));
        }
        let (Some(best), Some(given), Some(gap), Some(decisions), Some(states)) = (
            best.get(i),
            given.get(i),
            gap.get(i),
            decisions.get(i),
            states.get(i),
        ) else {
            return Err(row_bad("has a missing value".into()));
        };
        let duel = match &duels {
            None => None,
            Some((one_sided, taken_back, decisions)) => {
                let (Some(one_sided), Some(taken_back), Some(decisions)) =
                    (one_sided.get(i), taken_back.get(i), decisions.get(i))
                else {
                    return Err(row_bad("has a missing value".into()));
                };
                Some(DuelAnswer {
                    decision: opposing.clone(),
                    one_sided,
                    taken_back,
                    rules: Vec::new(),
                    decisions,
                    dominance: Vec::new(),
                })
            }
        };
        let policy = policy.get(i).map(str::to_string);
        // As the solve says it: a reason wherever no policy is written.
        let unwritten = match policy {
            Some(_) => None,
            None => Some(systems::best::unwritten(mechanic)),
        };
        rows.push(BestRow {
            row: i,
            swept: scenario.config(i).swept,
            answer: BestAnswer {
                mechanic: mechanic.to_string(),
                metric: spec.metric.clone(),
                probability,
                decision: decision.clone(),
                best,
                given,
                gap,
                rules: Vec::new(),
                // Not in the tables, and not in the reports.
                options: Vec::new(),
                dominance: Vec::new(),
                policy,
                replayed: replayed.get(i),
                unwritten,
                duel,
                decisions,
                states: states as usize,
                rounds: 0,
                seconds: 0.0,
            },
        });
    }

    let path = dir.join("dominance.parquet");
    let df = table("dominance")?;
    let c = Columns {
        df: &df,
        path: &path,
    };
    let (ids, option) = (c.int("config_id")?, c.text("option")?);
    let (without, loss, usage) = (c.number("without")?, c.number("loss")?, c.number("usage")?);
    let side = if duel { Some(c.text("side")?) } else { None };
    for i in 0..df.height() {
        let row = config_of(&path, i, ids.get(i), count)?;
        let (Some(option), Some(without), Some(loss), Some(usage)) =
            (option.get(i), without.get(i), loss.get(i), usage.get(i))
        else {
            return Err(bad(&path, format!("row {}: has a missing value", i + 1)));
        };
        let b = is_b(&path, i, side.as_ref().map(|s| s.get(i)))?;
        let Some((_, list)) = rows[row].answer.side_mut(b) else {
            return Err(bad(&path, format!("row {}: side B outside a duel", i + 1)));
        };
        list.push(DominanceAnswer {
            option: option.to_string(),
            without,
            loss,
            usage,
        });
    }

    let path = dir.join("rules.parquet");
    let df = table("rules")?;
    let c = Columns {
        df: &df,
        path: &path,
    };
    let (ids, rank) = (c.int("config_id")?, c.int("rank")?);
    let (when, choice) = (c.text("when")?, c.text("choice")?);
    let (share, agree) = (c.number("share")?, c.number("agree")?);
    let side = if duel { Some(c.text("side")?) } else { None };
    for i in 0..df.height() {
        let row = config_of(&path, i, ids.get(i), count)?;
        let (Some(when), Some(choice), Some(share), Some(agree)) =
            (when.get(i), choice.get(i), share.get(i), agree.get(i))
        else {
            return Err(bad(&path, format!("row {}: has a missing value", i + 1)));
        };
        let b = is_b(&path, i, side.as_ref().map(|s| s.get(i)))?;
        let Some((rules, _)) = rows[row].answer.side_mut(b) else {
            return Err(bad(&path, format!("row {}: side B outside a duel", i + 1)));
        };
        if rank.get(i) != Some(rules.len() as u64 + 1) {
            return Err(bad(
                &path,
                format!(
                    "row {}: rank {:?} is not {} (a config's rules come in rank order)",
                    i + 1,
                    rank.get(i),
                    rules.len() + 1
                ),
            ));
        }
        rules.push(RuleAnswer {
            when: when.to_string(),
            choice: choice.to_string(),
            share,
            agree,
        });
    }

    let run = BestRun {
        name: scenario.name.clone(),
        mechanic: mechanic.to_string(),
        decision,
        metric: spec.metric.clone(),
        probability,
        opponent: spec.opponent,
        opposing: if duel { opposing } else { String::new() },
        swept: scenario.swept_names(),
        rows,
        seconds: manifest.wall_seconds,
    };
    Ok(LoadedBest {
        scenario,
        run,
        manifest,
    })
}

/// The config a row of `dominance` or `rules` belongs to.
fn config_of(path: &Path, i: usize, id: Option<u64>, count: usize) -> Result<usize, LoadError> {
    match id {
        Some(id) if (id as usize) < count => Ok(id as usize),
        _ => Err(bad(
            path,
            format!(
                "row {}: config_id {id:?} is not one of the sweep's {count} configs",
                i + 1
            ),
        )),
    }
}

/// A table's columns by name, each cast to the type it is read as.
struct Columns<'a> {
    df: &'a DataFrame,
    path: &'a Path,
}

impl Columns<'_> {
    fn cast(&self, name: &str, to: &DataType) -> Result<Column, LoadError> {
        let c = self
            .df
            .column(name)
            .map_err(|e| bad(self.path, format!("has no column `{name}`: {e}")))?;
        c.cast(to)
            .map_err(|e| bad(self.path, format!("column `{name}`: {e}")))
    }

    fn text(&self, name: &str) -> Result<StringChunked, LoadError> {
        Ok(self
            .cast(name, &DataType::String)?
            .str()
            .expect("cast to text")
            .clone())
    }

    fn number(&self, name: &str) -> Result<Float64Chunked, LoadError> {
        Ok(self
            .cast(name, &DataType::Float64)?
            .f64()
            .expect("cast to float")
            .clone())
    }

    fn int(&self, name: &str) -> Result<UInt64Chunked, LoadError> {
        Ok(self
            .cast(name, &DataType::UInt64)?
            .u64()
            .expect("cast to an integer")
            .clone())
    }
}

/// Whether row `i`'s `side` cell (`None` outside a duel: no such column)
/// names B; anything but A or B is damage.
fn is_b(path: &Path, i: usize, side: Option<Option<&str>>) -> Result<bool, LoadError> {
    match side {
        None | Some(Some("A")) => Ok(false),
        Some(Some("B")) => Ok(true),
        Some(other) => Err(bad(
            path,
            format!(
                "row {}: side {:?} is not A or B",
                i + 1,
                other.unwrap_or_default()
            ),
        )),
    }
}
