//! `oddsmith check`: the balance gate for CI.

use std::time::Instant;

use oddsmith::pipeline::{self, Mode, RunOptions};
use oddsmith::report::{self, OutDir, RunMeta, Status};
use oddsmith::scenario::Scenario;

use super::progress::Bar;
use super::{CheckArgs, Outcome};

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
    let outs = match args.out.as_ref().or(args.report.as_ref()) {
        Some(dir) => scenarios
            .iter()
            .zip(&args.scenarios)
            .map(|(_, path)| {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "scenario".into());
                OutDir::prepare(&dir.join(stem)).map(Some)
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => scenarios.iter().map(|_| None).collect(),
    };

    let mut rows: Vec<[String; 5]> = Vec::new();
    let mut within: Vec<String> = Vec::new();
    let (mut total, mut failed) = (0, 0);
    for ((scenario, path), out) in scenarios.iter().zip(&args.scenarios).zip(&outs) {
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
        let bar = Bar::new(None, args.quiet);
        let results = pool.install(|| pipeline::run(scenario, &opts, &bar));
        bar.finish();
        let results = results?;
        let verdicts = report::balance::evaluate(&results, &scenario.expectations);
        let name = path.display().to_string();
        for v in &verdicts {
            total += 1;
            if v.failed() {
                failed += 1;
            }
            let what = format!("line {}: {}", v.expectation.line, v.expectation.describe());
            for f in &v.findings {
                match f.status {
                    Status::Fails => rows.push([
                        name.clone(),
                        what.clone(),
                        f.config.clone(),
                        f.value.clone(),
                        f.bound.clone(),
                    ]),
                    Status::HoldsWithinInterval => within.push(format!(
                        "{name} {what}: {} = {} (holds only within the 95% interval)",
                        f.config, f.value
                    )),
                    Status::Holds => {}
                }
            }
        }
        if !args.quiet {
            let bad = verdicts.iter().filter(|v| v.failed()).count();
            println!(
                "{name}: {} of {} assertions hold ({} configs, {:.2} s)",
                verdicts.len() - bad,
                verdicts.len(),
                results.configs.len(),
                started.elapsed().as_secs_f64()
            );
        }
        if let (Some(out), true) = (out, reports_only) {
            out.write(&report::report_files(scenario, &results, &verdicts)?)?;
        } else if let Some(out) = out {
            let meta = RunMeta {
                scenario_path: name.clone(),
                scenario_sha256: scenario.sha256.clone(),
                threads,
                wall_seconds: started.elapsed().as_secs_f64(),
            };
            report::write_all(out, scenario, &results, &verdicts, &meta)?;
        }
    }
    if !within.is_empty() && !args.quiet {
        println!(
            "\nassertions that hold only because of Monte Carlo uncertainty (more trials would settle them):"
        );
        for w in within.iter().take(20) {
            println!("  {w}");
        }
        if within.len() > 20 {
            println!("  … and {} more", within.len() - 20);
        }
    }
    if rows.is_empty() {
        if !args.quiet {
            println!("\nall {total} assertions hold");
        }
        return Ok(Outcome::Fine);
    }
    println!("\n{failed} of {total} assertions FAIL:");
    let header = ["scenario", "assertion", "config", "value", "bound"];
    let widths: Vec<usize> = (0..5)
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
                .min(60)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    println!("{}", line(&header.map(String::from)));
    for r in rows.iter().take(200) {
        println!("{}", line(r));
    }
    if rows.len() > 200 {
        println!("… and {} more", rows.len() - 200);
    }
    Ok(Outcome::CheckFailed)
}
