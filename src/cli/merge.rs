//! `oddsmith merge DIR… --out DIR`: add the shards of a run up into the
//! run one machine would have written.

use crate::cli::stdout::outln;
use std::time::Instant;

use anyhow::bail;
use oddsmith::report::{self, RunMeta};
use oddsmith::run::AGREEMENT_Z;
use oddsmith::shard;

use super::{MergeArgs, Outcome, interrupt};

pub fn merge(args: MergeArgs) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let parts = shard::read_all(&args.dirs)?;
    shard::check_set(&parts)?;
    // Merging into one of the shards would replace it mid-merge.
    if let Ok(out) = args.out.canonicalize()
        && let Some((dir, _)) = parts
            .iter()
            .find(|(d, _)| d.canonicalize().is_ok_and(|d| d == out))
    {
        bail!(
            "--out {} is the shard {}; write the merged run to another directory",
            args.out.display(),
            dir.display()
        );
    }
    let (_, first) = &parts[0];
    // Every shard's scenario.toml, not only the first's.
    let scenario = shard::scenario_of_all(&parts)?;
    let results = shard::merge(&scenario, &parts)?;

    interrupt::install();
    let staging = interrupt::stage(&args.out)?;
    // Shards run side by side: the run took its slowest shard, then the
    // merge.
    let slowest = parts
        .iter()
        .map(|(_, p)| p.timings.wall_seconds)
        .fold(0.0, f64::max);
    let meta = RunMeta {
        scenario_path: first.run.scenario.path.clone(),
        scenario_sha256: first.run.scenario.sha256.clone(),
        threads: parts
            .iter()
            .map(|(_, p)| p.timings.threads)
            .max()
            .unwrap_or(1),
        wall_seconds: slowest + started.elapsed().as_secs_f64(),
    };
    let verdicts = report::balance::evaluate(&results, &scenario.expectations);
    let names = report::write_all(&staging.root(), &scenario, &results, &verdicts, &meta)?;
    let out = interrupt::commit(staging)?;

    if !args.quiet {
        outln!(
            "{}: {} shards merged, {} configs of {} in {:.2} s → {}: {}",
            scenario.name,
            parts.len(),
            results.configs.len(),
            results.mechanic,
            started.elapsed().as_secs_f64(),
            out.display(),
            names.join(", ")
        );
        if !verdicts.is_empty() {
            let failed = verdicts.iter().filter(|v| v.failed()).count();
            outln!(
                "balance: {} of {} assertions hold",
                verdicts.len() - failed,
                verdicts.len()
            );
        }
    }
    // As `run --mode both` does: the data are written, and exit 1 says
    // the methods disagree.
    let bad = results.disagreements(AGREEMENT_Z);
    if !bad.is_empty() {
        eprintln!(
            "exact and Monte Carlo disagree (|z| > {AGREEMENT_Z}) in {} of {} configs; see agreement.csv",
            bad.len(),
            results.configs.len()
        );
        return Ok(Outcome::CheckFailed);
    }
    Ok(Outcome::Fine)
}
