//! `oddsmith tune`: the knob value that gives the odds a designer wants,
//! from a scenario with `[tune]` or from one line
//! (`oddsmith tune gateway.challenge --knob opposition.challenge --metric
//! p_success --target 0.5 actor.trait=3`). The one-line form is written
//! out as a scenario and read by the same parser, so both forms check
//! the same things and say so in the same words.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use oddsmith::pipeline::{Mode, RunOptions};
use oddsmith::report::{self, RunMeta};
use oddsmith::scenario::Scenario;
use oddsmith::tune::{self, TuneOptions};

use super::progress::Bar;
use super::{CheckMode, Outcome, TuneArgs, interrupt};

/// The name a one-line tune's messages give as its file.
const COMMAND_LINE: &str = "command line";

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
        Scenario::parse(Path::new(COMMAND_LINE), &one_line(&args)?).map_err(|e| {
            // The lines are those of the scenario the flags were written
            // into, which the user never saw: the key says where.
            let text = e.to_string();
            let lines: Vec<String> = text
                .lines()
                .map(|l| match l.strip_prefix(&format!("{COMMAND_LINE}:")) {
                    Some(rest) => format!(
                        "{COMMAND_LINE}{}",
                        rest.trim_start_matches(|c: char| c.is_ascii_digit())
                    ),
                    None => l.to_string(),
                })
                .collect();
            anyhow::anyhow!(lines.join("\n"))
        })?
    };
    let opts = TuneOptions {
        run: RunOptions {
            mode: match args.mode {
                CheckMode::Auto => Mode::Auto,
                CheckMode::Mc => Mode::MonteCarlo,
            },
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
        print!("{}", report::tune::text_table(&tuned));
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
        let mut names = Vec::new();
        for (name, bytes) in report::tune::data_files(&tuned, opts.run.mode, &meta)?
            .into_iter()
            .chain(report::tune::report_files(&scenario, &tuned, &gates)?)
        {
            dest.write(&name, &bytes)?;
            names.push(name);
        }
        dest.write("scenario.toml", scenario.text.as_bytes())?;
        names.push("scenario.toml".into());
        let out = interrupt::commit(staging)?;
        if !args.quiet {
            println!("→ {}: {}", out.display(), names.join(", "));
        }
    }
    let failed = gates.iter().filter(|v| v.failed()).count();
    if !args.quiet && !gates.is_empty() {
        println!(
            "balance: {} of {} assertions hold",
            gates.len() - failed,
            gates.len()
        );
        for v in gates.iter().filter(|v| v.failed()) {
            println!(
                "  {}:{}: {}",
                args.what,
                v.gate.line,
                report::tune::gate_line(v)
            );
        }
    }
    Ok(if failed > 0 {
        Outcome::CheckFailed
    } else {
        Outcome::Fine
    })
}

/// The one-line form as scenario text.
fn one_line(args: &TuneArgs) -> anyhow::Result<String> {
    if oddsmith::systems::find(&args.what).is_none() {
        bail!(
            "{:?} is neither a scenario file nor a mechanic; give a scenario (*.toml) or one of: {}",
            args.what,
            oddsmith::systems::names().join(", ")
        );
    }
    let mut text = format!(
        "name = \"{} tune\"\nmechanic = {}\n[params]\n",
        args.what,
        quote(&args.what)
    );
    for p in &args.params {
        let (key, value) = p
            .split_once('=')
            .with_context(|| format!("{p:?} is not key=value (e.g. actor.trait=3)"))?;
        text.push_str(&format!("{} = {}\n", quote(key.trim()), literal(value)));
    }
    text.push_str("[tune]\n");
    let knob = args
        .knob
        .as_deref()
        .context("--knob is missing: the parameter to search, e.g. --knob opposition.challenge")?;
    text.push_str(&format!("knob = {}\n", quote(knob)));
    let metric = args
        .metric
        .as_deref()
        .context("--metric is missing: the headline metric to aim, e.g. --metric p_success")?;
    text.push_str(&format!("metric = {}\n", quote(metric)));
    let target = match (args.target, args.at_least, args.at_most) {
        (Some(x), None, None) => format!("{x:?}"),
        (None, Some(x), None) => format!("{{ at_least = {x:?} }}"),
        (None, None, Some(x)) => format!("{{ at_most = {x:?} }}"),
        (None, None, None) => {
            bail!("give one of --target X (nearest), --at-least X or --at-most X")
        }
        _ => bail!("give only one of --target, --at-least and --at-most"),
    };
    text.push_str(&format!("target = {target}\n"));
    if let Some(w) = args.within {
        text.push_str(&format!("within = {w:?}\n"));
    }
    if let Some(r) = &args.range {
        let (from, to) = r
            .split_once("..")
            .with_context(|| format!("--range {r:?} is not FROM..TO (e.g. 0..20)"))?;
        text.push_str(&format!(
            "range = {{ from = {}, to = {} }}\n",
            literal(from),
            literal(to)
        ));
    }
    Ok(text)
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A command-line value as TOML: numbers, booleans, arrays and inline
/// tables as written, anything else as text (surrounding quotes removed).
fn literal(text: &str) -> String {
    let t = text.trim();
    let plain = t.parse::<i64>().is_ok()
        || t.parse::<bool>().is_ok()
        || (t.parse::<f64>().is_ok()
            && t.chars().any(|c| c.is_ascii_digit())
            && !t.contains(char::is_alphabetic));
    let structured =
        (t.starts_with('[') && t.ends_with(']')) || (t.starts_with('{') && t.ends_with('}'));
    if plain || structured {
        return t.to_string();
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|s| s.strip_suffix(*q)))
        .unwrap_or(t);
    quote(unquoted)
}
