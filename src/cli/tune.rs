//! `oddsmith tune`: the knob value that gives the odds a designer wants,
//! from a scenario with `[tune]` or from one line
//! (`oddsmith tune gateway.challenge --knob opposition.challenge --metric
//! p_success --target 0.5 actor.trait=3`). The one-line form is written
//! out as a scenario and read by the same parser, so both forms check
//! the same things and say so in the same words.

use crate::cli::stdout::{out, outln};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use oddsmith::report::RunMeta;
use oddsmith::run::RunOptions;
use oddsmith::scenario::Scenario;
use oddsmith::systems::ParamValue;
use oddsmith::tune::question::{COMMAND_LINE, TuneQuestion, literal, quote};
use oddsmith::tune::{self, TuneOptions};

use super::progress::Bar;
use super::{Outcome, TuneArgs, interrupt};

pub fn tune(args: TuneArgs) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let path = PathBuf::from(&args.what);
    let is_file = path.is_file() || args.what.ends_with(".toml");
    let scenario = if is_file {
        let given: Vec<&str> = [
            ("--knob", args.knob.is_some()),
            ("--metric", args.metric.is_some()),
            ("--target", args.target.is_some()),
            ("--at-least", args.at_least.is_some()),
            ("--at-most", args.at_most.is_some()),
            ("--within", args.within.is_some()),
            ("--range", args.range.is_some()),
        ]
        .into_iter()
        .filter(|(_, set)| *set)
        .map(|(f, _)| f)
        .collect();
        if !given.is_empty() || !args.params.is_empty() {
            bail!(
                "{}: a scenario's [tune] table says what to tune; {} belong to the one-line form (`oddsmith tune MECHANIC --knob … key=value`)",
                args.what,
                given
                    .into_iter()
                    .map(String::from)
                    .chain(args.params.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let s = Scenario::load(&path)?;
        if s.tune.is_none() {
            bail!(
                "{}: the scenario has no [tune] table; add one (knob, metric, target) or use `oddsmith run`",
                args.what
            );
        }
        s
    } else {
        question(&args)?
            .scenario()
            .map_err(|e| anyhow::anyhow!(e.0))?
    };
    let opts = TuneOptions {
        run: RunOptions {
            mode: args.mode.into(),
            trials: args.trials,
            seed: args.seed,
            precision: args.precision,
            ..RunOptions::default()
        },
        scan: args.scan,
    };
    if let Some(p) = args.precision
        && !(p > 0.0 && p < 1.0)
    {
        bail!("--precision {p} is out of range; allowed: a half-width between 0 and 1, e.g. 0.002");
    }
    let (threads, pool) = super::worker_pool(args.threads)?;
    interrupt::install();
    let staging = match &args.out {
        Some(out) => Some(interrupt::stage(out)?),
        None => None,
    };
    let bar = Bar::new(None, 0, true);
    let tuned = pool.install(|| tune::tune(&scenario, &opts, &bar));
    if interrupt::requested() {
        bail!("interrupted; nothing was written");
    }
    let tuned = tuned?;
    let gates = scenario
        .tune
        .as_ref()
        .map(|t| tune::gates(&tuned, &t.gates))
        .unwrap_or_default();
    if !args.quiet {
        out!("{}", tune::report::text_table(&tuned));
    }
    if let Some(staging) = staging {
        let dest = staging.root();
        let meta = RunMeta {
            scenario_path: if is_file {
                args.what.clone()
            } else {
                COMMAND_LINE.into()
            },
            scenario_sha256: scenario.sha256.clone(),
            threads,
            wall_seconds: started.elapsed().as_secs_f64(),
        };
        let names =
            tune::report::write_all(&dest, &scenario, &tuned, &gates, opts.run.mode, &meta)?;
        let out = interrupt::commit(staging)?;
        if !args.quiet {
            outln!("→ {}: {}", out.display(), names.join(", "));
        }
    }
    let failed = gates.iter().filter(|v| v.failed()).count();
    if !args.quiet && !gates.is_empty() {
        outln!(
            "balance: {} of {} assertions hold",
            gates.len() - failed,
            gates.len()
        );
        for v in gates.iter().filter(|v| v.failed()) {
            outln!(
                "  {}:{}: {}",
                args.what,
                v.gate.line,
                tune::report::gate_line(v)
            );
        }
    }
    Ok(if failed > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Fine
    })
}

/// The one-line form as a question (checked when it is read as a scenario).
fn question(args: &TuneArgs) -> anyhow::Result<TuneQuestion> {
    if oddsmith::systems::find(&args.what).is_none() {
        // Reading it says that this is no mechanic, before any key=value.
        return Ok(TuneQuestion {
            mechanic: args.what.clone(),
            ..TuneQuestion::default()
        });
    }
    let mut params = Vec::new();
    let mut sweep = Vec::new();
    for p in &args.params {
        let (key, value) = p
            .split_once('=')
            .with_context(|| format!("{p:?} is not key=value (e.g. actor.trait=3)"))?;
        let key = key.trim().to_string();
        let given = |k: &String| *k == key;
        if params.iter().map(|p: &(String, String)| &p.0).any(given)
            || sweep
                .iter()
                .map(|s: &(String, Vec<String>)| &s.0)
                .any(given)
        {
            bail!(
                "{key} is given twice; give each key once (for several values write {key}=a,b,c or {key}=A..B)"
            );
        }
        // A range or a list sweeps the key, as in `odds`: one answer per
        // combination, as a scenario's [sweep] gives.
        let values = super::odds::values(&key, value)?;
        if values.len() > 1 {
            let words = values.iter().map(word).collect();
            sweep.push((key, words));
        } else {
            params.push((key, value.to_string()));
        }
    }
    Ok(TuneQuestion {
        mechanic: args.what.clone(),
        params,
        sweep,
        knob: args.knob.clone(),
        metric: args.metric.clone(),
        target: args.target,
        at_least: args.at_least,
        at_most: args.at_most,
        within: args.within,
        range: args.range.clone(),
    })
}

/// One swept value written back as the command line writes it, so that
/// the question reads it as that value: text that would read as a number
/// or a boolean is quoted.
fn word(v: &ParamValue) -> String {
    match v {
        ParamValue::Float(f) => format!("{f:?}"),
        ParamValue::Str(s) if literal(s) != quote(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}
