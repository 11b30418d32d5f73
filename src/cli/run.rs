//! `oddsmith run`: a scenario, end to end.

use crate::cli::stdout::outln;
use std::time::Instant;

use anyhow::bail;
use oddsmith::report::{self, RunMeta};
use oddsmith::run::{self, AGREEMENT_Z, Mode, RunOptions};
use oddsmith::scenario::Scenario;

use super::progress::Bar;
use super::{Outcome, RunArgs, interrupt};

pub fn run(args: RunArgs) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let opts = options(&args)?;
    let mode = opts.mode;
    let scenario = Scenario::load(&args.scenario)?;
    not_a_tune(&scenario)?;
    warn(&args.scenario.display().to_string(), &scenario);
    let (threads, pool) = super::worker_pool(args.threads)?;
    interrupt::install();
    // Everything goes to a staging directory beside --out, swapped in only
    // when complete; dropping it on any error below removes it.
    let staging = interrupt::stage(&args.out)?;
    let per_config = args
        .trials
        .or(scenario.trials)
        .unwrap_or(oddsmith::scenario::DEFAULT_TRIALS);
    let total = match (mode, args.precision) {
        (_, Some(_)) => None,
        _ => Some(per_config.saturating_mul(scenario.config_count() as u64)),
    };
    let bar = Bar::new(total, scenario.config_count() as u64, args.quiet);
    let dest = staging.root();
    let mut long = report::LongWriter::create(&dest, &scenario)?;
    let collected = pool.install(|| collect(&scenario, &opts, &bar, Some(&mut long), Some(&dest)));
    bar.finish();
    let mut collected = collected?;
    long.finish()?;

    let meta = RunMeta {
        scenario_path: args.scenario.display().to_string(),
        scenario_sha256: scenario.sha256.clone(),
        threads,
        wall_seconds: started.elapsed().as_secs_f64(),
    };
    let verdicts = std::mem::take(&mut collected.verdicts);
    let names = report::write_rest(&dest, &scenario, &mut collected.sweep(), &verdicts, &meta)?;
    let out = interrupt::commit(staging)?;

    if !args.quiet {
        outln!(
            "{}: {} configs of {} ({}) in {:.2} s → {}: {}",
            scenario.name,
            collected.totals.configs,
            collected.results.mechanic,
            describe_mode(&collected),
            started.elapsed().as_secs_f64(),
            out.display(),
            names.join(", ")
        );
    }

    if !args.quiet && !verdicts.is_empty() {
        let failed = verdicts.iter().filter(|v| v.failed()).count();
        outln!(
            "balance: {} of {} assertions hold{}",
            verdicts.len() - failed,
            verdicts.len(),
            if failed > 0 {
                " (see report.md, or run `oddsmith check`)"
            } else {
                ""
            }
        );
    }

    let bad = &collected.disagreements;
    if !bad.is_empty() {
        eprintln!(
            "exact and Monte Carlo disagree (|z| > {AGREEMENT_Z}) in {} of {} configs:",
            bad.len(),
            collected.totals.configs
        );
        for (config, metrics) in bad {
            let point = run::describe(&scenario, &config.swept);
            for a in metrics {
                eprintln!(
                    "  config {}{point}: {} exact {:.6}, monte carlo {:.6}, z = {:.2}",
                    config.index, a.metric, a.exact, a.estimate, a.z
                );
            }
        }
        return Ok(Outcome::CheckFailed);
    }
    if mode == Mode::Both && !args.quiet {
        let worst = collected.totals.worst_z;
        outln!("exact and Monte Carlo agree in every config (largest |z| = {worst:.2})");
    }
    Ok(Outcome::Fine)
}

/// A scenario with `[tune]` is answered by `oddsmith tune`, one with
/// `[best]` by `oddsmith check`.
pub(super) fn not_a_tune(scenario: &Scenario) -> anyhow::Result<()> {
    if let Some(t) = &scenario.tune {
        bail!(
            "{}: this scenario has a [tune] table; `oddsmith tune {}` answers it (to run the sweep with every value of {}, move it to [sweep] and remove [tune])",
            scenario.path.display(),
            scenario.path.display(),
            t.knob.path
        );
    }
    if scenario.best.is_some() {
        bail!(
            "{}: this scenario has a [best] table; `oddsmith check {} --out DIR` answers it (best play in every config, its tables and report); to run the sweep under the given policy, remove [best]",
            scenario.path.display(),
            scenario.path.display()
        );
    }
    Ok(())
}

/// The scenario's warnings on stderr, at most 20.
pub(super) fn warn(name: &str, scenario: &Scenario) {
    for w in scenario.warnings.iter().take(20) {
        eprintln!("warning: {name}: {w}");
    }
    if scenario.warnings.len() > 20 {
        eprintln!(
            "warning: {name}: … and {} more",
            scenario.warnings.len() - 20
        );
    }
}

/// The run options `args` ask for, checked (a whole run and a shard).
pub(super) fn options(args: &RunArgs) -> anyhow::Result<RunOptions> {
    let mode: Mode = args.mode.into();
    if let Some(p) = args.precision {
        if !(p > 0.0 && p < 1.0) {
            bail!(
                "--precision {p} is out of range; allowed: a half-width between 0 and 1, e.g. 0.001"
            );
        }
        if mode == Mode::Exact {
            bail!("--precision applies to Monte Carlo; it cannot be used with --mode exact");
        }
    } else if let Some(n) = args.max_trials {
        bail!(
            "--max-trials {n} caps precision mode; add --precision (e.g. --precision 0.001) or use --trials for a fixed run"
        );
    }
    Ok(RunOptions {
        mode,
        trials: args.trials,
        seed: args.seed,
        precision: args.precision,
        max_trials: args.max_trials.unwrap_or(RunOptions::default().max_trials),
    })
}

/// Run `scenario` into the whole run's sink ([`report::Collect`]): each
/// config's long table goes to `long` (when given) as soon as it is
/// ready, and its result to a scratch store beside the outputs in `dir`
/// (when given), so memory does not grow with the sweep.
pub(super) fn collect(
    scenario: &Scenario,
    opts: &RunOptions,
    bar: &Bar,
    long: Option<&mut report::LongWriter>,
    dir: Option<&report::Dest>,
) -> anyhow::Result<report::Collected> {
    Ok(report::collect(scenario, opts, bar, long, dir)?)
}

fn describe_mode(collected: &report::Collected) -> String {
    let t = &collected.totals;
    match (t.exact_runs, t.mc_runs) {
        (_, 0) => "exact".into(),
        (0, _) => format!("monte carlo, seed {}", collected.results.seed),
        _ => format!("exact and monte carlo, seed {}", collected.results.seed),
    }
}
