//! `oddsmith odds EXPR …` and `oddsmith odds MECHANIC key=value …`: the
//! questions asked of [`oddsmith::answer::ask`], and its answers printed
//! as text (one config, a table or grid for a range, a list of
//! expressions, or two side by side with `--compare`), JSON or CSV.
//! Warnings go to stderr.

use anyhow::{anyhow, bail};
use oddsmith::answer::{self, Answer};
use oddsmith::run::Mode;
use oddsmith::systems::{self, Mechanic};

use super::question::{self, Asked};
use super::text;
use crate::cli::progress::Bar;
use crate::cli::{OddsArgs, OddsFormat, Outcome};

pub fn answer(args: &OddsArgs) -> anyhow::Result<Outcome> {
    let asked = questions(args)?;
    let mut answers: Vec<(String, Answer)> = Vec::new();
    for Asked { label, question } in &asked {
        let configs = question.config_count() as u64;
        let simulates = match question.mode {
            Mode::Exact => false,
            Mode::MonteCarlo | Mode::Both => true,
            Mode::Auto => !question.mechanic.has_exact(),
        };
        let total = simulates.then_some(question.trials * configs);
        let bar = Bar::new(total, configs, false);
        let mut before = |n: usize, why: Option<&str>| {
            if let Some(why) = why
                && question.mode == Mode::Auto
            {
                eprintln!(
                    "no exact answer{}: {why}; simulating {} trials{} (seed {}); --trials N trades time for precision",
                    if label.is_empty() {
                        String::new()
                    } else {
                        format!(" for {label}")
                    },
                    text::grouped(question.trials as f64),
                    if n > 1 {
                        format!(" for each of {n} configs")
                    } else {
                        String::new()
                    },
                    question.seed
                );
            }
        };
        let a = answer::ask(question, &bar, &mut before)
            .map_err(|e| ask_error(question.mechanic, e))?;
        bar.finish();
        if crate::cli::interrupted() {
            bail!("interrupted");
        }
        answers.push((label.clone(), a));
    }
    warn(&answers);
    let out = match args.format {
        OddsFormat::Json => json(&answers)?,
        OddsFormat::Csv => csv(&answers),
        // Cells padded for alignment leave no spaces at line ends.
        OddsFormat::Text => human(&answers, args)
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect(),
    };
    crate::cli::stdout::bytes(out.as_bytes());
    Ok(Outcome::Fine)
}

/// The questions `args` asks (a mechanic's, or dice expressions'), or the
/// message that says what is wrong with them.
pub fn questions(args: &OddsArgs) -> anyhow::Result<Vec<Asked>> {
    Ok(match mechanic_named(&args.what) {
        Some(m) => question::mechanic(m, args)?,
        None => {
            let looks_like_a_name = args.what.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            });
            if looks_like_a_name && !args.what.starts_with('d') {
                let names = systems::names();
                bail!(
                    "no mechanic or system is called {:?}{}; known: {}; or write a dice expression such as \"3d6\"",
                    args.what,
                    systems::suggest(&args.what, names.iter().copied()),
                    names.join(", ")
                );
            }
            question::expressions(args)?
        }
    })
}

/// The message for a value `ask` refused: the mechanic's name first, and
/// for an unknown key the keys there are.
pub fn ask_error(m: &dyn Mechanic, e: answer::AskError) -> anyhow::Error {
    let e = match e {
        answer::AskError::Param(e) => e,
        answer::AskError::NoExact { .. } => return anyhow!("{} {e}", m.name()),
        answer::AskError::Interrupted => return anyhow!("interrupted"),
    };
    let keys = if e.message.starts_with("is not a parameter") {
        format!(
            "\n  {} takes: {}",
            m.name(),
            oddsmith::model::paths(m.params())
        )
    } else {
        String::new()
    };
    anyhow!("{} {e}{keys}", m.name())
}

/// The mechanic called `what`, or the first of the system called `what`.
pub fn mechanic_named(what: &str) -> Option<&'static dyn Mechanic> {
    systems::find(what).or_else(|| {
        systems::registry()
            .iter()
            .copied()
            .find(|m| m.name().split('.').next() == Some(what))
    })
}

/// Every distinct warning on stderr, once.
fn warn(answers: &[(String, Answer)]) {
    let mut seen: Vec<&str> = Vec::new();
    for (_, a) in answers {
        for c in &a.configs {
            for w in &c.warnings {
                if !seen.contains(&w.message.as_str()) {
                    seen.push(&w.message);
                    eprintln!("warning: {}", w.message);
                }
            }
        }
    }
}

fn human(answers: &[(String, Answer)], args: &OddsArgs) -> String {
    let mut out = String::new();
    match answers {
        [(_, a)] => {
            text::heading(a, &mut out);
            if a.swept.is_empty() {
                text::single(a.single(), &mut out);
            } else {
                text::sweep(a, &mut out);
            }
        }
        [(_, a), (_, b)] if args.compare.is_some() => {
            if a.mechanic == "dice.roll" {
                let expr = |x: &Answer| {
                    x.parameters
                        .iter()
                        .find(|p| p.key == "expr")
                        .map(|p| p.value.clone())
                        .unwrap_or_default()
                };
                out.push_str(&format!("A: {}\n", expr(a)));
                if let Some(r) = &a.single().reading {
                    out.push_str(&format!("   read as: {r}\n"));
                }
                out.push_str(&format!("B: {}\n", expr(b)));
                if let Some(r) = &b.single().reading {
                    out.push_str(&format!("   read as: {r}\n"));
                }
                text::method(a, &mut out);
                text::compare(a, b, &[], &mut out);
            } else {
                out.push_str(&format!("A: {}: {}\n", a.mechanic, a.summary));
                text::parameters(&a.parameters, &mut out);
                text::method(a, &mut out);
                let changes: Vec<String> = b
                    .parameters
                    .iter()
                    .zip(&a.parameters)
                    .filter(|(pb, pa)| pb.value != pa.value || pb.source != pa.source)
                    .map(|(pb, _)| format!("{} = {}", pb.key, pb.value))
                    .collect();
                text::compare(a, b, &changes, &mut out);
            }
        }
        _ => text::list(answers, &mut out),
    }
    out
}

/// One answer as a JSON object; several (a list of expressions, or A and
/// B of `--compare`) as an array of them, in the order asked.
fn json(answers: &[(String, Answer)]) -> anyhow::Result<String> {
    let mut s = match answers {
        [(_, a)] => serde_json::to_string_pretty(a)?,
        _ => serde_json::to_string_pretty(&answers.iter().map(|(_, a)| a).collect::<Vec<_>>())?,
    };
    s.push('\n');
    Ok(s)
}

/// Every metric of every config, one row each, raw numbers.
fn csv(answers: &[(String, Answer)]) -> String {
    let mut out = String::from("question,config,swept,metric,value,lo,hi,method,trials\n");
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    for (i, (label, a)) in answers.iter().enumerate() {
        let q = if label.is_empty() {
            (i + 1).to_string()
        } else {
            label.clone()
        };
        for c in &a.configs {
            let swept: Vec<String> = a
                .swept
                .iter()
                .zip(&c.swept)
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            for m in &c.metrics {
                let (lo, hi) = m
                    .interval
                    .map(|(l, h)| (l.to_string(), h.to_string()))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "{},{},{},{},{},{lo},{hi},{},{}\n",
                    quote(&q),
                    c.index,
                    quote(&swept.join("; ")),
                    m.name,
                    m.value,
                    c.method,
                    c.trials
                ));
            }
        }
    }
    out
}
