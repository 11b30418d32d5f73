//! The headline-metrics table of a report: which configs it shows, in what
//! order, and how each cell reads.
//!
//! A small sweep is shown whole. A big one is shown as the configs the
//! balance assertions name (their `where`, and every config a finding
//! points at) followed by a sample across the sweep: each swept parameter
//! thinned to evenly spread values, ends included, so every part of the
//! sweep is seen rather than the first few hundred rows of one corner.

use super::balance::{self, Verdict};
use super::odds::{Basis, odds};
use super::percent::percent;
use super::totals::Totals;
use crate::results::{ConfigResult, Method, Results, Run};
use crate::systems::ParamValue;

/// The most rows a report's table shows; every row is in `summary.csv`.
pub const TABLE_ROWS: usize = 150;
/// An assertion whose `where` matches at most this many configs names
/// them; a broader one (a whole axis) names none.
const NAMED_BY_WHERE: usize = 24;

/// A run of rows under one heading.
pub struct Section {
    pub heading: Option<String>,
    pub note: Option<String>,
    pub rows: Vec<Vec<String>>,
}

/// The header and sections of the table.
pub struct Table {
    pub header: Vec<String>,
    pub sections: Vec<Section>,
}

/// The configs a `where` (path, value pairs) picks out.
pub type Hits<'a> = dyn FnMut(&[(String, ParamValue)]) -> Vec<usize> + 'a;

/// Which configs the table shows, decided from the run's totals and
/// verdicts alone, so a streamed run can read back just these.
pub struct Picks {
    /// Every config (a small sweep).
    pub all: bool,
    /// Configs the assertions name, in sweep order.
    pub named: Vec<usize>,
    /// The sample's values of each swept path, and the note saying so.
    pub kept: Vec<Vec<ParamValue>>,
    pub note: String,
}

/// Rows the table may spend per method, given the most runs a config has.
fn budget(totals: &Totals) -> usize {
    (TABLE_ROWS / totals.runs_per_config.max(1)).max(1)
}

/// The configs the table of a run shows: `hits(filter)` lists the
/// configs a `where` picks out (asked only when there are few).
pub fn picks(swept: &[String], totals: &Totals, verdicts: &[Verdict], hits: &mut Hits) -> Picks {
    let budget = budget(totals);
    if totals.configs <= budget {
        return Picks {
            all: true,
            named: Vec::new(),
            kept: Vec::new(),
            note: String::new(),
        };
    }
    let named = named(swept, totals, verdicts, budget / 3, hits);
    let (kept, note) = sample(
        swept,
        &totals.axes,
        budget.saturating_sub(named.len()).max(1),
    );
    Picks {
        all: false,
        named,
        kept,
        note,
    }
}

/// The headline-metrics table of `r` (every config it shows among its
/// configs), given the run's totals and the balance verdicts.
pub fn table(r: &Results, totals: &Totals, verdicts: &[Verdict]) -> Table {
    let metrics: Vec<String> = totals.first_metrics.clone().unwrap_or_default();
    let mut header: Vec<String> = r.swept.clone();
    header.push("method".into());
    for m in &metrics {
        header.push(m.clone());
        if m.starts_with("p_") {
            header.push("odds".into());
        }
    }
    let rows_of = |configs: &[&ConfigResult]| -> Vec<Vec<String>> {
        configs
            .iter()
            .flat_map(|c| c.runs.iter().map(|run| row(c, run, &metrics)))
            .collect()
    };
    let picks = picks(&r.swept, totals, verdicts, &mut |filter| {
        r.configs
            .iter()
            .filter(|c| balance::matches(r, c, filter))
            .map(|c| c.index)
            .collect()
    });
    if picks.all {
        let all: Vec<&ConfigResult> = r.configs.iter().collect();
        return Table {
            header,
            sections: vec![Section {
                heading: None,
                note: Some(
                    "Every config; the same numbers, unrounded, are in `summary.csv`.".into(),
                ),
                rows: rows_of(&all),
            }],
        };
    }
    let mut sections = Vec::new();
    let named: Vec<&ConfigResult> = picks
        .named
        .iter()
        .filter_map(|&i| r.configs.iter().find(|c| c.index == i))
        .collect();
    if !named.is_empty() {
        sections.push(Section {
            heading: Some("Configs the assertions name".into()),
            note: Some(
                "Each config an assertion's `where` picks out, and each config a finding above points at."
                    .into(),
            ),
            rows: rows_of(&named),
        });
    }
    let sample: Vec<&ConfigResult> = r
        .configs
        .iter()
        .filter(|c| in_sample(&picks.kept, &c.swept))
        .collect();
    sections.push(Section {
        heading: Some("A sample across the sweep".into()),
        note: Some(format!(
            "{} of {} configs: {}. Every config, unrounded, is in `summary.csv`.",
            sample.len(),
            totals.configs,
            picks.note
        )),
        rows: rows_of(&sample),
    });
    Table { header, sections }
}

/// Whether swept values `swept` are in the sample that keeps `kept`.
pub fn in_sample(kept: &[Vec<ParamValue>], swept: &[ParamValue]) -> bool {
    swept.iter().zip(kept).all(|(v, ks)| ks.contains(v))
}

fn row(c: &ConfigResult, run: &Run, metrics: &[String]) -> Vec<String> {
    let mut row: Vec<String> = c.swept.iter().map(|v| v.to_string()).collect();
    row.push(run.method.as_str().into());
    let basis = match run.method {
        Method::Exact => Basis::Exact,
        Method::MonteCarlo => Basis::Trials(run.trials),
    };
    for name in metrics {
        let m = run.metrics.iter().find(|m| &m.name == name);
        // Probabilities read as percentages here; the data files keep
        // them raw.
        let show = |v: f64| {
            if name.starts_with("p_") {
                percent(v)
            } else {
                format!("{v:.4}")
            }
        };
        row.push(match m {
            Some(m) => match m.interval {
                Some((lo, hi)) => format!("{} [{}, {}]", show(m.value), show(lo), show(hi)),
                None => show(m.value),
            },
            None => String::new(),
        });
        if name.starts_with("p_") {
            row.push(m.map(|m| odds(m.value, basis)).unwrap_or_default());
        }
    }
    row
}

/// The configs the assertions name, in sweep order, at most `limit`:
/// those of findings first (what went wrong matters most), then those a
/// narrow `where` picks out.
fn named(
    swept: &[String],
    totals: &Totals,
    verdicts: &[Verdict],
    limit: usize,
    hits: &mut Hits,
) -> Vec<usize> {
    let mut picked: Vec<usize> = Vec::new();
    let add = |i: usize, picked: &mut Vec<usize>| {
        if picked.len() < limit && !picked.contains(&i) {
            picked.push(i);
        }
    };
    for v in verdicts {
        for f in &v.findings {
            for &i in &f.configs {
                add(i, &mut picked);
            }
        }
    }
    for v in verdicts {
        let filter = &v.expectation.filter;
        if filter.is_empty() || totals.matching(swept, filter) > NAMED_BY_WHERE {
            continue;
        }
        for i in hits(filter) {
            add(i, &mut picked);
        }
    }
    picked.sort_unstable();
    picked
}

/// A grid through the sweep of at most `budget` configs: each axis keeps
/// evenly spread values (first and last included), the longest axis thinned
/// first. Returns each axis's kept values and a note saying what was kept.
fn sample(
    swept: &[String],
    axes: &[Vec<ParamValue>],
    budget: usize,
) -> (Vec<Vec<ParamValue>>, String) {
    let mut keep: Vec<usize> = axes.iter().map(Vec::len).collect();
    while keep.iter().product::<usize>() > budget {
        let Some((longest, _)) = keep
            .iter()
            .enumerate()
            .filter(|(_, k)| **k > 1)
            .max_by_key(|(i, k)| (**k, std::cmp::Reverse(*i)))
        else {
            break;
        };
        keep[longest] -= 1;
    }
    let kept: Vec<Vec<ParamValue>> = axes
        .iter()
        .zip(&keep)
        .map(|(vals, &k)| spread(vals.len(), k).map(|j| vals[j].clone()).collect())
        .collect();
    let note = swept
        .iter()
        .zip(axes.iter().zip(&kept))
        .map(|(p, (all, ks))| {
            if ks.len() == all.len() {
                format!("every `{p}`")
            } else {
                let vals: Vec<String> = ks.iter().map(|v| v.to_string()).collect();
                format!("`{p}` at {}", vals.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    (kept, note)
}

/// `k` evenly spread positions among `n`, first and last included.
fn spread(n: usize, k: usize) -> impl Iterator<Item = usize> {
    (0..k).map(move |j| {
        if k <= 1 {
            0
        } else {
            (j * (n - 1) + (k - 1) / 2) / (k - 1)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn spread_keeps_both_ends_and_spaces_evenly() {
        assert_eq!(spread(11, 3).collect::<Vec<_>>(), vec![0, 5, 10]);
        assert_eq!(spread(4, 2).collect::<Vec<_>>(), vec![0, 3]);
        assert_eq!(spread(7, 4).collect::<Vec<_>>(), vec![0, 2, 4, 6]);
        assert_eq!(spread(5, 5).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert_eq!(spread(5, 1).collect::<Vec<_>>(), vec![0]);
    }
}
