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
use crate::results::{ConfigResult, Method, Results, Run};

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

/// The headline-metrics table of `r`, given the balance verdicts.
pub fn table(r: &Results, verdicts: &[Verdict]) -> Table {
    let metrics: Vec<String> = r
        .configs
        .first()
        .and_then(|c| c.runs.first())
        .map(|run| run.metrics.iter().map(|m| m.name.clone()).collect())
        .unwrap_or_default();
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
    let runs_per_config = r
        .configs
        .iter()
        .map(|c| c.runs.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let budget = (TABLE_ROWS / runs_per_config).max(1);
    if r.configs.len() <= budget {
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
    let named = named(r, verdicts, budget / 3);
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
    let (sample, note) = sample(r, budget.saturating_sub(named.len()).max(1));
    sections.push(Section {
        heading: Some("A sample across the sweep".into()),
        note: Some(format!(
            "{} of {} configs: {}. Every config, unrounded, is in `summary.csv`.",
            sample.len(),
            r.configs.len(),
            note
        )),
        rows: rows_of(&sample),
    });
    Table { header, sections }
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
fn named<'a>(r: &'a Results, verdicts: &[Verdict], limit: usize) -> Vec<&'a ConfigResult> {
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
        if filter.is_empty() {
            continue;
        }
        let hits: Vec<usize> = r
            .configs
            .iter()
            .filter(|c| balance::matches(r, c, filter))
            .map(|c| c.index)
            .collect();
        if hits.len() <= NAMED_BY_WHERE {
            for i in hits {
                add(i, &mut picked);
            }
        }
    }
    picked.sort_unstable();
    picked
        .into_iter()
        .filter_map(|i| r.configs.iter().find(|c| c.index == i))
        .collect()
}

/// A grid through the sweep of at most `budget` configs: each axis keeps
/// evenly spread values (first and last included), the longest axis thinned
/// first. Returns the configs in sweep order and a note saying what was kept.
fn sample(r: &Results, budget: usize) -> (Vec<&ConfigResult>, String) {
    // Each axis's values in sweep order.
    let axes: Vec<Vec<&crate::systems::ParamValue>> = (0..r.swept.len())
        .map(|i| {
            let mut vals = Vec::new();
            for c in &r.configs {
                if !vals.contains(&&c.swept[i]) {
                    vals.push(&c.swept[i]);
                }
            }
            vals
        })
        .collect();
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
    let kept: Vec<Vec<&crate::systems::ParamValue>> = axes
        .iter()
        .zip(&keep)
        .map(|(vals, &k)| spread(vals.len(), k).map(|j| vals[j]).collect())
        .collect();
    let configs = r
        .configs
        .iter()
        .filter(|c| c.swept.iter().zip(&kept).all(|(v, ks)| ks.contains(&v)))
        .collect();
    let note = r
        .swept
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
    (configs, note)
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
