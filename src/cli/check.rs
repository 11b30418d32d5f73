//! `oddsmith check`: the balance gate for CI. Exit 0 when every
//! assertion holds, 1 when one fails (or, with `--strict`, when a
//! scenario has warnings), 2 on bad input.

use crate::cli::stdout::outln;
use std::path::PathBuf;
use std::time::Instant;

use oddsmith::report::{self, RunMeta, Verdict};
use oddsmith::run::{Mode, RunOptions};
use oddsmith::scenario::{Rule, Scenario};
use oddsmith::tune::{self, TuneOptions};

use super::progress::Bar;
use super::{CheckArgs, Outcome, interrupt};

/// The most failing configs printed per assertion.
const SHOWN: usize = 20;

pub fn check(args: CheckArgs) -> anyhow::Result<Outcome> {
    // Read every scenario first: one bad file stops the gate before any
    // run, with exit code 2.
    let scenarios = args
        .scenarios
        .iter()
        .map(|p| Scenario::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let (threads, pool) = super::worker_pool(args.threads)?;
    let reports_only = args.report.is_some();
    // One directory for the whole gate, committed at once when every
    // scenario has run: DIR/<file stem>/ each.
    let staging = match args.out.as_ref().or(args.report.as_ref()) {
        Some(dir) => {
            interrupt::install();
            Some(interrupt::stage(dir)?)
        }
        None => None,
    };
    let subdirs = subdir_names(&args.scenarios);
    let mut warned = 0;
    for (scenario, path) in scenarios.iter().zip(&args.scenarios) {
        super::run::warn(&path.display().to_string(), scenario);
        warned += scenario.warnings.len();
    }

    let mut failures: Vec<(String, Verdict)> = Vec::new();
    let mut tune_failures: Vec<String> = Vec::new();
    let mut within: Vec<String> = Vec::new();
    // Findings within the interval beyond those each verdict keeps.
    let mut unkept_within = 0;
    let (mut total, mut failed) = (0, 0);
    for ((scenario, path), subdir) in scenarios.iter().zip(&args.scenarios).zip(&subdirs) {
        let started = Instant::now();
        let mode = match args.mode {
            super::CheckMode::Auto => Mode::Auto,
            super::CheckMode::Mc => Mode::MonteCarlo,
        };
        let opts = RunOptions {
            mode,
            trials: args.trials,
            seed: args.seed,
            ..RunOptions::default()
        };
        let dest = match &staging {
            Some(staging) => Some(staging.subdir(subdir)?),
            None => None,
        };
        if scenario.best.is_some() {
            let name = path.display().to_string();
            let (verdicts, bad) = pool.install(|| {
                super::best::check_scenario(
                    scenario,
                    &name,
                    dest.as_ref(),
                    reports_only,
                    threads,
                    args.quiet,
                )
            })?;
            total += verdicts;
            failed += bad.len();
            tune_failures.extend(bad);
            continue;
        }
        if let Some(spec) = &scenario.tune {
            // A tune scenario's assertions bound the knob it finds.
            let opts = TuneOptions {
                run: opts,
                scan: false,
            };
            let bar = Bar::new(None, 0, true);
            let tuned = pool.install(|| tune::tune(scenario, &opts, &bar))?;
            let verdicts = tune::gates(&tuned, &spec.gates);
            let name = path.display().to_string();
            let bad = verdicts.iter().filter(|v| v.failed()).count();
            total += verdicts.len();
            failed += bad;
            for v in verdicts.iter().filter(|v| v.failed()) {
                tune_failures.push(format!(
                    "{name}:{}: {}",
                    v.gate.line,
                    tune::report::gate_line(v)
                ));
            }
            if !args.quiet {
                outln!(
                    "{name}: {} of {} assertions hold ({} rows tuned, {:.2} s)",
                    verdicts.len() - bad,
                    verdicts.len(),
                    tuned.rows.len(),
                    started.elapsed().as_secs_f64()
                );
            }
            if let Some(dest) = dest {
                if reports_only {
                    dest.write_all(&tune::report::report_files(scenario, &tuned, &verdicts)?)?;
                } else {
                    let meta = RunMeta {
                        scenario_path: name.clone(),
                        scenario_sha256: scenario.sha256.clone(),
                        threads,
                        wall_seconds: started.elapsed().as_secs_f64(),
                    };
                    tune::report::write_all(&dest, scenario, &tuned, &verdicts, mode, &meta)?;
                }
            }
            continue;
        }
        let bar = Bar::new(None, scenario.config_count() as u64, args.quiet);
        let mut long = match &dest {
            Some(dest) if !reports_only => Some(report::LongWriter::create(dest, scenario)?),
            _ => None,
        };
        let collected = pool
            .install(|| super::run::collect(scenario, &opts, &bar, long.as_mut(), dest.as_ref()));
        bar.finish();
        let mut collected = collected?;
        if let Some(long) = long {
            long.finish()?;
        }
        let verdicts = std::mem::take(&mut collected.verdicts);
        let name = path.display().to_string();
        for v in &verdicts {
            total += 1;
            if v.failed() {
                failed += 1;
                failures.push((name.clone(), v.clone()));
            }
            unkept_within += v.within - v.within_interval().count();
            for f in v.within_interval() {
                within.push(format!(
                    "{name}:{} {}: {} = {} (holds only within the 95% interval)",
                    v.expectation.line,
                    v.expectation.describe(),
                    f.config,
                    f.value
                ));
            }
        }
        if !args.quiet {
            let bad = verdicts.iter().filter(|v| v.failed()).count();
            outln!(
                "{name}: {} of {} assertions hold ({} configs, {:.2} s)",
                verdicts.len() - bad,
                verdicts.len(),
                collected.totals.configs,
                started.elapsed().as_secs_f64()
            );
        }
        if let Some(dest) = dest {
            if reports_only {
                let mut sweep = collected.sweep();
                let shown = sweep.read_back(scenario, &verdicts)?;
                dest.write_all(&report::report_files(
                    scenario,
                    &shown,
                    &sweep.totals,
                    &verdicts,
                )?)?;
            } else {
                let meta = RunMeta {
                    scenario_path: name.clone(),
                    scenario_sha256: scenario.sha256.clone(),
                    threads,
                    wall_seconds: started.elapsed().as_secs_f64(),
                };
                report::write_rest(&dest, scenario, &mut collected.sweep(), &verdicts, &meta)?;
            }
        }
    }
    if let Some(staging) = staging {
        // `--report DIR` keeps the reports of scenarios not checked now;
        // `--out DIR` holds this check's outputs only.
        if args.report.is_some() {
            let kept = staging.carry_over(&subdirs)?;
            if !kept.is_empty() && !args.quiet {
                outln!(
                    "kept {} other scenario(s)' reports in {}",
                    kept.len(),
                    staging.out().display()
                );
            }
        }
        interrupt::commit(staging)?;
    }
    if !within.is_empty() && !args.quiet {
        outln!(
            "\nassertions that hold only because of Monte Carlo uncertainty (more trials would settle them):"
        );
        for w in within.iter().take(SHOWN) {
            outln!("  {w}");
        }
        let more = within.len() + unkept_within - within.len().min(SHOWN);
        if more > 0 {
            outln!("  … and {more} more");
        }
    }
    // A blank line between paragraphs, never before the first (with
    // --quiet, the first may be the failures').
    let mut said = !args.quiet && !scenarios.is_empty();
    let mut gap = || {
        if std::mem::replace(&mut said, true) {
            "\n"
        } else {
            ""
        }
    };
    let strict_fail = args.strict && warned > 0;
    if strict_fail {
        outln!(
            "{}--strict: {warned} warning(s) (on stderr, and in each report) fail the gate",
            gap()
        );
    }
    if failures.is_empty() && tune_failures.is_empty() {
        if !args.quiet {
            outln!("\nall {total} assertions hold");
        }
        return Ok(if strict_fail {
            Outcome::CheckFailed
        } else {
            Outcome::Fine
        });
    }
    outln!("{}{failed} of {total} assertions FAIL:", gap());
    for (name, v) in &failures {
        print_failure(name, v);
    }
    for line in &tune_failures {
        outln!("\n{line}");
    }
    Ok(Outcome::CheckFailed)
}

/// One failing assertion: where, what, why, and each config's value
/// against the bound.
fn print_failure(name: &str, v: &Verdict) {
    let e = &v.expectation;
    outln!("\n{name}:{}: {}", e.line, e.describe());
    match &e.why {
        Some(why) => outln!("  why: {why}"),
        None => outln!("  why: (not given; add `why = \"…\"` to say what this protects)"),
    }
    let bound = short_bound(&e.rule);
    let rows: Vec<[&str; 3]> = v
        .failures()
        .map(|f| [f.config.as_str(), f.value.as_str(), bound.as_str()])
        .collect();
    let header = ["config", "value", "bound"];
    let widths: Vec<usize> = (0..3)
        .map(|i| {
            rows.iter()
                .take(SHOWN)
                .map(|r| r[i].chars().count())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
                .min(60)
        })
        .collect();
    let line = |cells: [&str; 3]| {
        let text: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        format!("  {}", text.join("  ").trim_end())
    };
    outln!("{}", line(header));
    for r in rows.iter().take(SHOWN) {
        outln!("{}", line(*r));
    }
    let shown = rows.len().min(SHOWN);
    if v.fails > shown {
        outln!("  … and {} more configs", v.fails - shown);
    }
}

/// The bound alone, to read beside each value (the assertion is printed
/// above it).
fn short_bound(rule: &Rule) -> String {
    match rule {
        Rule::Between(a, b) => format!("in [{a}, {b}]"),
        Rule::AtLeast(a) => format!("≥ {a}"),
        Rule::AtMost(b) => format!("≤ {b}"),
        Rule::Monotonic { increasing, .. } => (if *increasing {
            "never falls"
        } else {
            "never rises"
        })
        .into(),
        Rule::MaxStep { step, .. } => format!("moves ≤ {step}"),
    }
}

/// The output subdirectory of each scenario: its file stem, made unique
/// with `-2`, `-3`, … in argument order when two scenarios share a stem
/// (`a/x.toml` and `b/x.toml` go to `x` and `x-2`).
fn subdir_names(paths: &[PathBuf]) -> Vec<String> {
    let mut taken: Vec<String> = Vec::new();
    for p in paths {
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty() && !s.starts_with('.'))
            .unwrap_or_else(|| "scenario".into());
        let mut name = stem.clone();
        let mut n = 1;
        while taken.contains(&name) {
            n += 1;
            name = format!("{stem}-{n}");
        }
        taken.push(name);
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_stems_get_distinct_subdirs() {
        let paths: Vec<PathBuf> = ["a/x.toml", "b/x.toml", "x-2.toml", "c/x.toml", "y.toml"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(subdir_names(&paths), ["x", "x-2", "x-2-2", "x-3", "y"]);
    }
}
