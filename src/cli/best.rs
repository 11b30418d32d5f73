//! `oddsmith best MECHANIC key=value … --metric M`: best play for one
//! config, asked of the library's one best-play question
//! ([`oddsmith::best`]) and printed as a report or as JSON.

use std::fmt::Write as _;

use anyhow::{anyhow, bail};
use oddsmith::best::{self, BestAnswer, BestError, BestQuestion};

use super::odds::{ask_error, fixed, mechanic_named};
use super::{BestArgs, BestFormat, Outcome};

pub fn best(args: BestArgs) -> anyhow::Result<Outcome> {
    let Some(m) = mechanic_named(&args.mechanic) else {
        bail!(
            "{} is not a mechanic; `oddsmith systems` lists them (best play covers: {})",
            args.mechanic,
            oddsmith::systems::best::covered().join(", ")
        );
    };
    let params = fixed(m, &args.params, "best")?;
    // Before the default metric: a mechanic best play does not cover
    // says so whatever its values (some need keys no default gives).
    if oddsmith::systems::best::decision(m.name()).is_none() {
        bail!("{}", oddsmith::systems::best::why_not(m.name()));
    }
    let metric = match &args.metric {
        Some(x) => x.clone(),
        None => m
            .schema_of(&params)
            .map_err(|e| anyhow!("{} {e}", m.name()))?
            .metrics[0]
            .name
            .clone(),
    };
    let q = BestQuestion {
        mechanic: m,
        params,
        metric,
        dominance: !args.no_dominance,
    };
    let a = best::best(&q).map_err(|e| match e {
        BestError::Param(p) => ask_error(m, oddsmith::answer::AskError::Param(p)),
        other => anyhow!("{other}"),
    })?;
    match args.format {
        BestFormat::Json => println!("{}", serde_json::to_string_pretty(&a)?),
        BestFormat::Text => print!("{}", text(&a)),
    }
    Ok(Outcome::Fine)
}

/// A value of the metric: a percentage for a probability.
fn show(a: &BestAnswer, x: f64) -> String {
    if a.probability {
        format!("{:.2}%", 100.0 * x)
    } else {
        format!("{x:.4}")
    }
}

/// A difference of the metric: points for a probability.
fn diff(a: &BestAnswer, x: f64) -> String {
    if a.probability {
        format!("{:+.2} points", 100.0 * x)
    } else {
        format!("{x:+.4}")
    }
}

/// The answer as a report for people.
pub fn text(a: &BestAnswer) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}: best play for {} ({})",
        a.mechanic, a.metric, a.decision
    );
    let _ = writeln!(o, "  best play      {}", show(a, a.best));
    let _ = writeln!(o, "  given policy   {}", show(a, a.given));
    let _ = writeln!(o, "  gap            {}", diff(a, a.gap));
    let _ = writeln!(
        o,
        "\nbest policy ({:.2} decisions a trial; share of them, and how often the rule's choice is best play's there):",
        a.decisions
    );
    let width = a
        .rules
        .iter()
        .map(|r| r.when.chars().count())
        .max()
        .unwrap_or(0);
    for r in &a.rules {
        let pad = width - r.when.chars().count();
        let _ = write!(
            o,
            "  {}:{} {:<22} {:>6.1}%",
            r.when,
            " ".repeat(pad),
            r.choice,
            100.0 * r.share
        );
        if r.agree < 1.0 - 1e-9 {
            let _ = write!(o, "  (agrees {:.0}%)", 100.0 * r.agree);
        }
        o.push('\n');
    }
    if !a.dominance.is_empty() {
        let _ = writeln!(
            o,
            "\ndominance (forbid one option: what best play loses, and how often it uses it):"
        );
        let width = a
            .dominance
            .iter()
            .map(|d| d.option.chars().count())
            .max()
            .unwrap_or(0);
        for d in &a.dominance {
            let pad = width - d.option.chars().count();
            let note = if d.loss < 1e-12 && d.usage == 0.0 {
                "  never used"
            } else if d.loss < 1e-12 {
                "  never needed"
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "  {}{} loses {:>15}  used {:>5.1}%{note}",
                d.option,
                " ".repeat(pad),
                diff(a, -d.loss).replacen('-', "", 1).replacen('+', "", 1),
                100.0 * d.usage
            );
        }
    }
    match (&a.policy, &a.unwritten) {
        (Some(p), _) => {
            let _ = writeln!(
                o,
                "\nas the mechanic's own keys (replay with `run` or `check`):"
            );
            for line in p.lines() {
                let _ = writeln!(o, "  {line}");
            }
            if let Some(r) = a.replayed {
                let _ = writeln!(o, "  replayed by the exact solver: {}", show(a, r));
            }
        }
        (None, Some(why)) => {
            let _ = writeln!(o, "\nno policy written: {why}");
        }
        (None, None) => {}
    }
    let _ = writeln!(
        o,
        "\n{} states over {} rounds, {:.2}s",
        a.states, a.rounds, a.seconds
    );
    o
}
