//! A run read through a [`Sweep`] gives what the whole run in memory
//! gives: the same summary bytes from the store as from the results, the
//! same verdicts from the streaming checker as from `evaluate`.

use std::path::Path;

use super::summary::{groups, write_agreement, write_summary};
use super::{Grid, Store, Sweep, Totals};
use crate::report::balance::{self, Checker};
use crate::report::{Staging, frames};
use crate::results::Results;
use crate::run::{Mode, RunOptions, run};
use crate::scenario::{Expectation, Rule, Scenario};
use crate::systems::ParamValue;

/// `statements-odds.toml` (20 × 20 configs) in both modes, few trials:
/// exact and Monte Carlo runs, intervals and agreements.
fn both() -> (Scenario, Results) {
    let scenario = Scenario::load(Path::new("scenarios/statements-odds.toml")).unwrap();
    let opts = RunOptions {
        mode: Mode::Both,
        trials: Some(2_000),
        ..RunOptions::default()
    };
    let results = run(&scenario, &opts, &()).unwrap();
    (scenario, results)
}

fn stored(scenario: &Scenario, results: &Results) -> Store {
    let mut store = Store::new(tempfile::tempfile().unwrap(), "scratch".into());
    for c in &results.configs {
        store.push(c).unwrap();
    }
    assert_eq!(store.len(), scenario.config_count());
    store
}

/// The summary files `sweep` writes.
fn written(sweep: &mut Sweep) -> [Vec<u8>; 3] {
    let dir = tempfile::tempdir().unwrap();
    let staging = Staging::begin(&dir.path().join("out")).unwrap();
    let dest = staging.root();
    write_summary(&dest, sweep).unwrap();
    write_agreement(&dest, sweep).unwrap();
    ["summary.csv", "summary.parquet", "agreement.csv"]
        .map(|n| std::fs::read(dest.path_of(n)).unwrap())
}

#[test]
fn summaries_written_config_by_config_are_the_whole_tables_bytes() {
    let (scenario, results) = both();
    let whole = [
        frames::csv(frames::summary(&results).unwrap()).unwrap(),
        frames::parquet(frames::summary(&results).unwrap()).unwrap(),
        frames::csv(frames::agreement(&results).unwrap()).unwrap(),
    ];
    assert_eq!(written(&mut Sweep::in_memory(&results)), whole);
    let mut store = stored(&scenario, &results);
    let mut head = results.clone();
    head.configs.clear();
    let totals = Totals::of(&results);
    let mut sweep = Sweep::stored(&head, totals, &mut store, Grid::of(&scenario));
    assert_eq!(written(&mut sweep), whole);
}

#[test]
fn totals_from_the_sweeps_axes_are_the_folded_ones() {
    let (scenario, results) = both();
    let grid = Grid::of(&scenario);
    let mut t = Totals::new(grid.names.len(), Some(grid.values.clone()));
    for c in &results.configs {
        t.add(c);
        assert_eq!(grid.swept_at(c.index), c.swept);
    }
    let folded = Totals::of(&results);
    assert_eq!(
        (t.axes.clone(), t.metrics.clone()),
        (folded.axes.clone(), folded.metrics.clone())
    );
    assert_eq!(t.configs, 400);
    assert_eq!((t.exact_runs, t.mc_runs, t.summary_rows), (400, 400, 800));
    assert_eq!(t.mc_trials, Some((2_000, 2_000)));
}

#[test]
fn row_groups_are_cut_where_polars_cuts_a_whole_frame() {
    assert_eq!(groups(0), vec![0]);
    assert_eq!(groups(1_000), vec![1_000]);
    // Below twice the target: one group.
    assert_eq!(groups(524_287), vec![524_287]);
    assert_eq!(groups(600_000), vec![300_000, 300_000]);
    assert_eq!(groups(800_001), vec![266_667, 266_667, 266_667]);
    assert_eq!(groups(2_160_000).len(), 8);
    assert_eq!(groups(2_160_000).iter().sum::<usize>(), 2_160_000);
}

fn expect(metric: &str, filter: &[(&str, i64)], rule: Rule) -> Expectation {
    Expectation {
        line: 1,
        why: None,
        metric: metric.into(),
        filter: filter
            .iter()
            .map(|(p, v)| (p.to_string(), ParamValue::Int(*v)))
            .collect(),
        rule,
    }
}

#[test]
fn assertions_checked_as_the_run_streams_give_the_whole_runs_verdicts() {
    let (scenario, results) = both();
    let along = |a: &str, increasing| Rule::Monotonic {
        along: a.into(),
        increasing,
    };
    let step = |a: &str, step| Rule::MaxStep {
        along: a.into(),
        step,
    };
    let mut expectations = scenario.expectations.clone();
    expectations.extend([
        // Findings in many groups, along the first axis and the last.
        expect("p_true", &[], along("favouring", false)),
        expect("p_true", &[], along("opposing", true)),
        expect("mean_weight", &[], step("opposing", 0.2)),
        expect("mean_weight", &[], step("favouring", 0.2)),
        // A `where` on another axis, on the axis itself, on no value.
        expect("p_true", &[("opposing", 5)], along("favouring", false)),
        expect("p_true", &[("favouring", 5)], along("favouring", false)),
        expect("p_true", &[("favouring", 99)], Rule::AtLeast(0.0)),
        expect("p_false", &[("opposing", 3)], Rule::Between(0.2, 0.3)),
        expect("p_true", &[], Rule::AtMost(0.5)),
        expect("no_such_metric", &[], along("favouring", true)),
    ]);
    let whole = balance::evaluate(&results, &expectations);
    assert!(whole.iter().filter(|v| !v.findings.is_empty()).count() >= 6);
    let mut checker = Checker::new(Grid::of(&scenario), &expectations);
    for c in &results.configs {
        checker.add(c);
    }
    assert_eq!(checker.verdicts(), whole);
}

/// An assertion failing at every config keeps its first
/// [`balance::KEPT_FINDINGS`] findings and counts the rest, the same
/// whether checked as the run streams or over the whole run, so a sweep
/// of millions of failing configs keeps as little as one of forty.
#[test]
fn a_failing_assertion_keeps_its_first_findings_and_counts_the_rest() {
    let (scenario, results) = both();
    let n = results.configs.len();
    assert!(n > 2 * balance::KEPT_FINDINGS, "{n} configs");
    let expectations = [
        expect("p_true", &[], Rule::AtMost(-1.0)),
        expect(
            "p_true",
            &[],
            Rule::MaxStep {
                along: "favouring".into(),
                step: -1.0,
            },
        ),
    ];
    let whole = balance::evaluate(&results, &expectations);
    let mut checker = Checker::new(Grid::of(&scenario), &expectations);
    for c in &results.configs {
        checker.add(c);
    }
    let streamed = checker.verdicts();
    assert_eq!(streamed, whole);
    for v in &whole {
        assert_eq!(v.findings.len(), balance::KEPT_FINDINGS);
        assert!(
            v.failed() && v.fails == v.checked,
            "{} of {}",
            v.fails,
            v.checked
        );
        assert_eq!(v.more(), v.fails - balance::KEPT_FINDINGS);
    }
    // Every config fails the bound: the first twenty configs are kept.
    let kept: Vec<usize> = whole[0].findings.iter().map(|f| f.configs[0]).collect();
    assert_eq!(kept, (0..balance::KEPT_FINDINGS).collect::<Vec<_>>());
    let md = crate::report::report_files(&scenario, &results, &Totals::of(&results), &whole)
        .unwrap()
        .into_iter()
        .find(|(name, _)| name.ends_with(".md"))
        .map(|(_, body)| String::from_utf8(body).unwrap())
        .unwrap();
    assert!(
        md.contains(&format!("- and {} more", n - balance::KEPT_FINDINGS)),
        "{md}"
    );
}

/// The report files of `scenario`'s run `results`, in memory and read
/// back from a store, and how many configs the store read back.
fn reports_both_ways(scenario: &Scenario, results: &Results) -> usize {
    let verdicts = balance::evaluate(results, &scenario.expectations);
    let whole =
        crate::report::report_files(scenario, results, &Totals::of(results), &verdicts).unwrap();
    let mut store = stored(scenario, results);
    let mut head = results.clone();
    head.configs.clear();
    let mut sweep = Sweep::stored(&head, Totals::of(results), &mut store, Grid::of(scenario));
    let shown = sweep.read_back(scenario, &verdicts).unwrap();
    let back = crate::report::report_files(scenario, &shown, &sweep.totals, &verdicts).unwrap();
    assert_eq!(back.len(), whole.len());
    for ((n, b), (m, w)) in back.iter().zip(&whole) {
        assert_eq!(n, m);
        assert!(b == w, "{n} differs when read back");
    }
    shown.configs.len()
}

#[test]
fn a_report_reads_back_what_its_whole_run_shows() {
    let (mut scenario, results) = both();
    // Its heatmaps draw every config.
    assert_eq!(reports_both_ways(&scenario, &results), 400);
    // Without them, the headline table's sample and the configs the
    // assertions name.
    scenario.charts.clear();
    let read = reports_both_ways(&scenario, &results);
    assert!((10..100).contains(&read), "{read} configs read back");
}
