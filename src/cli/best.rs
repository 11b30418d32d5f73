//! `oddsmith best MECHANIC key=value … --metric M`: best play for one
//! config, asked of the library's one best-play question
//! ([`oddsmith::best`]) and printed as a report or as JSON.

use crate::cli::stdout::{out, outln};
use std::fmt::Write as _;

use anyhow::{anyhow, bail};
use oddsmith::best::{self, BestAnswer, BestError, BestQuestion, Opponent};

use super::odds::{ask_error, fixed, mechanic_named};
use super::{Against, BestArgs, BestFormat, Outcome};

pub fn best(args: BestArgs) -> anyhow::Result<Outcome> {
    let Some(m) = mechanic_named(&args.mechanic) else {
        bail!(
            "{} is not a mechanic; `oddsmith systems` lists them (best play covers: {})",
            args.mechanic,
            oddsmith::systems::best::covered().join(", ")
        );
    };
    let mut q = question(m, &args.params, args.metric.clone(), !args.no_dominance)?;
    q.opponent = match args.against {
        Against::Given => Opponent::Given,
        Against::Best => Opponent::Best,
    };
    let a = answer(&q)?;
    match args.format {
        BestFormat::Json => outln!("{}", serde_json::to_string_pretty(&a)?),
        BestFormat::Text => out!("{}", text(&a)),
    }
    Ok(Outcome::Fine)
}

/// The question `oddsmith best MECHANIC key=value … --metric M` asks
/// (the metric defaults to the mechanic's first): the workbench's
/// `/api/best` asks it in the same words.
pub fn question(
    m: &'static dyn oddsmith::model::Mechanic,
    words: &[String],
    metric: Option<String>,
    dominance: bool,
) -> anyhow::Result<BestQuestion> {
    let params = fixed(m, words, "best")?;
    // Before the default metric: a mechanic best play does not cover
    // says so whatever its values (some need keys no default gives).
    if oddsmith::systems::best::decision(m.name()).is_none() {
        bail!("{}", oddsmith::systems::best::why_not(m.name()));
    }
    let metric = match metric {
        Some(x) => x,
        None => m
            .schema_of(&params)
            .map_err(|e| anyhow!("{} {e}", m.name()))?
            .metrics[0]
            .name
            .clone(),
    };
    Ok(BestQuestion {
        mechanic: m,
        params,
        metric,
        dominance,
        opponent: Opponent::Given,
    })
}

/// Ask `q`, with the command line's messages.
pub fn answer(q: &BestQuestion) -> anyhow::Result<BestAnswer> {
    best::best(q).map_err(|e| match e {
        BestError::Param(p) => ask_error(q.mechanic, oddsmith::answer::AskError::Param(p)),
        other => anyhow!("{other}"),
    })
}

/// A value of the metric, as the scenario's report says it.
fn show(a: &BestAnswer, x: f64) -> String {
    best::sweep::value_text(x, a.probability)
}

/// A difference of the metric, as the scenario's report says it.
fn diff(a: &BestAnswer, x: f64) -> String {
    best::sweep::diff_text(x, a.probability)
}

/// The answer as a report for people.
pub fn text(a: &BestAnswer) -> String {
    let mut o = String::new();
    if let Some(d) = &a.duel {
        duel_text(a, d, &mut o);
    } else {
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
        rules_text(&a.rules, &mut o);
    }
    if !a.dominance.is_empty() {
        let against = if a.duel.is_some() {
            " against an opponent still playing best"
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "\ndominance (forbid one option{against}: what best play loses, and how often it uses it):"
        );
        dominance_text(a, &a.dominance, &mut o);
    }
    if let Some(d) = a.duel.as_ref().filter(|d| !d.dominance.is_empty()) {
        let _ = writeln!(
            o,
            "\nB's dominance (forbid one of B's options, A still playing best: what B's best play loses, which A gains, and how often B uses it):"
        );
        dominance_text(a, &d.dominance, &mut o);
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

/// A dominance table, one option a line.
fn dominance_text(a: &BestAnswer, rows: &[best::DominanceAnswer], o: &mut String) {
    let width = rows
        .iter()
        .map(|d| d.option.chars().count())
        .max()
        .unwrap_or(0);
    for d in rows {
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

/// A side's rules, one a line.
fn rules_text(rules: &[best::RuleAnswer], o: &mut String) {
    let width = rules
        .iter()
        .map(|r| r.when.chars().count())
        .max()
        .unwrap_or(0);
    for r in rules {
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
}

/// A duel's values and both sides' policies.
fn duel_text(a: &BestAnswer, d: &best::DuelAnswer, o: &mut String) {
    let _ = writeln!(
        o,
        "{}: both sides' best play for {} (a zero-sum duel: A maximises it, B minimises it)",
        a.mechanic, a.metric
    );
    let _ = writeln!(o, "  A chooses {}", a.decision);
    let _ = writeln!(o, "  B chooses {}", d.decision);
    let _ = writeln!(o, "  both best (the duel)     {}", show(a, a.best));
    let _ = writeln!(
        o,
        "  A best, B given          {}   (one-sided best play; B's best takes back {})",
        show(a, d.one_sided),
        diff(a, d.taken_back).replacen('+', "", 1)
    );
    let _ = writeln!(o, "  both given               {}", show(a, a.given));
    let _ = writeln!(o, "  duel vs both given       {}", diff(a, a.gap));
    let _ = writeln!(
        o,
        "\nA's best policy ({:.2} decisions a trial; share of them, and how often the rule's choice is best play's there):",
        a.decisions
    );
    rules_text(&a.rules, o);
    let _ = writeln!(
        o,
        "\nB's best policy ({:.2} decisions a trial; B's own view: its edge, its initiative …):",
        d.decisions
    );
    rules_text(&d.rules, o);
}

/// Whether `dir` holds a best-play scenario's outputs (its manifest says
/// so).
pub(super) fn is_best(dir: &std::path::Path) -> bool {
    std::fs::read(dir.join(oddsmith::report::Manifest::FILE))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v.get("command").and_then(|c| c.as_str()) == Some("best"))
}

/// `check` of a scenario with `[best]`: best play in every config, its
/// gates, and (into `dest`) its outputs. Returns the number of gates and
/// one line per failing gate.
pub(super) fn check_scenario(
    scenario: &oddsmith::scenario::Scenario,
    name: &str,
    dest: Option<&oddsmith::report::Dest>,
    reports_only: bool,
    threads: usize,
    quiet: bool,
) -> anyhow::Result<(usize, Vec<String>)> {
    use oddsmith::best::{report, sweep};
    let started = std::time::Instant::now();
    let spec = scenario.best.as_ref().expect("a best-play scenario");
    let run = sweep::best_scenario(scenario)?;
    let verdicts = sweep::gates(scenario, &run, &spec.gates)?;
    let failures: Vec<String> = verdicts
        .iter()
        .filter(|v| v.failed())
        .map(|v| format!("{name}:{}: {}", v.gate.line, sweep::gate_line(v)))
        .collect();
    if !quiet {
        outln!(
            "{name}: {} of {} assertions hold (best play in {} configs, {:.2} s)",
            verdicts.len() - failures.len(),
            verdicts.len(),
            run.rows.len(),
            started.elapsed().as_secs_f64()
        );
    }
    if let Some(dest) = dest {
        if reports_only {
            dest.write_all(&report::report_files(scenario, &run, &verdicts)?)?;
        } else {
            let meta = oddsmith::report::RunMeta {
                scenario_path: name.to_string(),
                scenario_sha256: scenario.sha256.clone(),
                threads,
                wall_seconds: started.elapsed().as_secs_f64(),
            };
            report::write_all(dest, scenario, &run, &verdicts, &meta)?;
        }
    }
    Ok((verdicts.len(), failures))
}
