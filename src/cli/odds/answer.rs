//! `oddsmith odds EXPR` and `oddsmith odds MECHANIC key=value …`: every
//! outcome field's distribution with "= / ≥ / ≤" columns and "1 in N"
//! odds (the AnyDice views), and the headline metrics; exact where the
//! mechanic solves, Monte Carlo otherwise or beside it with `--check`.

use anyhow::{Context, anyhow, bail};
use oddsmith::dist::Marginals;
use oddsmith::expr::Expr;
use oddsmith::report::{Basis, odds};
use oddsmith::sim::{self, Plan, Tally};
use oddsmith::stats;
use oddsmith::systems::{self, FieldSpec, Mechanic, Model, ParamMap, ParamValue};

use super::super::{OddsArgs, Outcome};

/// Width of the longest bar in a distribution table.
const BAR: f64 = 30.0;

pub fn answer(args: &OddsArgs) -> anyhow::Result<Outcome> {
    if let Some(m) = mechanic_named(&args.what) {
        return mechanic(m, args);
    }
    let looks_like_a_name = args
        .what
        .split('.')
        .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
    if looks_like_a_name && !args.what.starts_with('d') {
        bail!(
            "no mechanic or system is called {:?}; known: {}; or write a dice expression such as \"3d6\"",
            args.what,
            systems::names().join(", ")
        );
    }
    expression(args)
}

/// The mechanic called `what`, or the first of the system called `what`.
fn mechanic_named(what: &str) -> Option<&'static dyn Mechanic> {
    systems::find(what).or_else(|| {
        systems::registry()
            .iter()
            .copied()
            .find(|m| m.name().split('.').next() == Some(what))
    })
}

/// `key=value`, when `text` is one (`key` a dotted name).
fn assignment(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once('=')?;
    let name_like = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    name_like.then_some((key, value))
}

/// A command-line value: an integer, a float, `true`/`false`, a TOML
/// array or inline table, else text (surrounding quotes removed).
fn value(text: &str) -> anyhow::Result<ParamValue> {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Ok(ParamValue::Int(i));
    }
    if let Ok(b) = t.parse::<bool>() {
        return Ok(ParamValue::Bool(b));
    }
    if t.starts_with('[') || t.starts_with('{') {
        let doc = toml_edit::Document::parse(format!("v = {t}"))
            .map_err(|e| anyhow!("{t} is not a TOML value: {}", e.message().trim()))?;
        let v = doc
            .as_table()
            .get("v")
            .and_then(|i| i.as_value())
            .context("not a value")?;
        return from_toml(v);
    }
    if let Ok(f) = t.parse::<f64>() {
        return Ok(ParamValue::Float(f));
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|s| s.strip_suffix(*q)))
        .unwrap_or(t);
    Ok(ParamValue::Str(unquoted.to_string()))
}

fn from_toml(v: &toml_edit::Value) -> anyhow::Result<ParamValue> {
    use toml_edit::Value;
    Ok(match v {
        Value::String(s) => ParamValue::Str(s.value().clone()),
        Value::Integer(i) => ParamValue::Int(*i.value()),
        Value::Float(f) => ParamValue::Float(*f.value()),
        Value::Boolean(b) => ParamValue::Bool(*b.value()),
        Value::Datetime(_) => bail!("no parameter takes dates"),
        Value::Array(a) => ParamValue::List(a.iter().map(from_toml).collect::<Result<_, _>>()?),
        Value::InlineTable(t) => ParamValue::Table(
            t.iter()
                .map(|(k, x)| Ok((k.to_string(), from_toml(x)?)))
                .collect::<anyhow::Result<_>>()?,
        ),
    })
}

fn mechanic(m: &'static dyn Mechanic, args: &OddsArgs) -> anyhow::Result<Outcome> {
    let mut values = ParamMap::new();
    for p in &args.params {
        let (key, text) = assignment(p).with_context(|| {
            format!(
                "{p:?} is not key=value; {} takes: {}",
                m.name(),
                m.params()
                    .iter()
                    .map(|s| s.path)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        values.set(key, value(text)?);
    }
    let model = m.prepare(&values).map_err(|e| {
        anyhow!(
            "{} {e}\n  {} takes: {}",
            m.name(),
            m.name(),
            m.params()
                .iter()
                .map(|s| s.path)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    println!("{}: {}", m.name(), m.summary());
    let set: Vec<String> = values.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    if set.is_empty() {
        println!("parameters: all at their defaults");
    } else {
        println!(
            "parameters: {} (the rest at their defaults)",
            set.join(", ")
        );
    }
    report(model.as_ref(), args)
}

fn expression(args: &OddsArgs) -> anyhow::Result<Outcome> {
    // Words that are not name=value belong to the expression (so `odds 3d6
    // + 2` works unquoted).
    let mut text = args.what.clone();
    let mut vars = Vec::new();
    for p in &args.params {
        match assignment(p) {
            Some((k, v)) => vars.push((k.strip_prefix("vars.").unwrap_or(k).to_string(), v)),
            None => {
                text.push(' ');
                text.push_str(p);
            }
        }
    }
    let expr = Expr::parse(&text)
        .map_err(|e| anyhow!("not a dice expression:\n{}", indented(&e.picture())))?;
    let params = expr.params();
    let mut values = ParamMap::new();
    values.set("expr", ParamValue::Str(text.clone()));
    let mut bound = std::collections::BTreeMap::new();
    for (name, v) in vars {
        if !params.contains(&name) {
            bail!(
                "{name}={v}: the expression has no {{{name}}}{}",
                if params.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; its parameters: {}",
                        params
                            .iter()
                            .map(|p| format!("{{{p}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            );
        }
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| anyhow!("{name}={v}: a parameter's value is an integer"))?;
        values.set(format!("vars.{name}"), ParamValue::Int(n));
        bound.insert(name, n);
    }
    let roll = expr.bind(&bound).map_err(|e| {
        let hint = if e.message.ends_with("has no value") {
            "\ngive it a value on the command line, e.g. n=4"
        } else {
            ""
        };
        anyhow!("cannot roll this:\n{}{hint}", indented(&e.picture()))
    })?;
    let model = systems::find("dice.roll")
        .expect("dice.roll is registered")
        .prepare(&values)
        .map_err(|e| anyhow!("{e}"))?;
    println!("{text}");
    if !bound.is_empty() {
        let with: Vec<String> = bound.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        println!("with {}", with.join(", "));
    }
    // Show the reading when its parentheses say something the text did not.
    let canonical = expr.to_string();
    let outer = canonical
        .strip_prefix('(')
        .and_then(|c| c.strip_suffix(')'))
        .unwrap_or(&canonical);
    if outer.replace(' ', "") != text.replace(' ', "") {
        println!("read as: {canonical}");
    }
    if let Ok(d) = roll.exact() {
        let total = d.total().to_string();
        let total = if total.len() > 24 {
            format!("about 10^{}", total.len() - 1)
        } else {
            total
        };
        println!("exact: {total} equally likely cases");
    }
    report(model.as_ref(), args)
}

/// Metrics, then each field's table, from the exact answer and/or a
/// simulation.
fn report(model: &dyn Model, args: &OddsArgs) -> anyhow::Result<Outcome> {
    let schema = model.schema();
    let exact = model.exact();
    let tally = if exact.is_none() || args.check {
        let plan = Plan {
            seed: args.seed,
            trials: args.trials,
            precision: None,
        };
        Some(sim::simulate(&[(0, model)], &plan, &()).remove(0))
    } else {
        None
    };
    match (&exact, &tally) {
        (Some(_), None) => println!("method: exact"),
        (Some(_), Some(t)) => println!(
            "method: exact, checked against {} Monte Carlo trials (seed {})",
            t.trials(),
            args.seed
        ),
        (None, Some(t)) => println!(
            "method: Monte Carlo, {} trials (seed {}); no exact answer here",
            t.trials(),
            args.seed
        ),
        (None, None) => unreachable!("one method always answers"),
    }
    println!();
    print!("{:<20} {:>12} {:>13}", "metric", "value", "odds");
    if exact.is_none() {
        print!("  {:>27}", "95% interval");
    }
    if exact.is_some() && tally.is_some() {
        print!("  {:>30} {:>7}", "monte carlo [95% interval]", "z");
    }
    println!();
    for spec in &schema.metrics {
        let is_prob = spec.kind.is_probability();
        match (&exact, &tally) {
            (Some(m), t) => {
                let e = stats::exact_value(spec, m);
                print!(
                    "{:<20} {:>12} {:>13}",
                    spec.name,
                    number(e.value),
                    if is_prob {
                        odds(e.value, Basis::Exact)
                    } else {
                        String::new()
                    }
                );
                if let Some(t) = t {
                    let est = stats::estimate(spec, t);
                    print!(
                        "  {:>30} {:>7.2}",
                        format!(
                            "{} [{}, {}]",
                            number(est.value),
                            number(est.lo),
                            number(est.hi)
                        ),
                        stats::z_score(&e, &est)
                    );
                }
            }
            (None, Some(t)) => {
                let est = stats::estimate(spec, t);
                print!(
                    "{:<20} {:>12} {:>13}  {:>27}",
                    spec.name,
                    number(est.value),
                    if is_prob {
                        odds(est.value, Basis::Trials(t.trials()))
                    } else {
                        String::new()
                    },
                    format!("[{}, {}]", number(est.lo), number(est.hi))
                );
            }
            (None, None) => unreachable!(),
        }
        println!();
    }
    for (f, spec) in schema.fields.iter().enumerate() {
        let (probs, basis) = match (&exact, &tally) {
            (Some(m), _) => (exact_field(m, f), Basis::Exact),
            (None, Some(t)) => (observed_field(t, f), Basis::Trials(t.trials())),
            (None, None) => unreachable!(),
        };
        println!();
        table(spec, &probs, basis);
    }
    Ok(Outcome::Fine)
}

fn exact_field(m: &Marginals, f: usize) -> Vec<(i64, f64)> {
    m.field(f).iter().map(|(v, p)| (*v, *p)).collect()
}

fn observed_field(t: &Tally, f: usize) -> Vec<(i64, f64)> {
    let n = t.trials() as f64;
    t.field(f).iter().map(|(v, c)| (v, c as f64 / n)).collect()
}

/// Most rows a distribution table shows; wider ranges are grouped.
const MAX_ROWS: usize = 120;

/// One field's distribution: value, P(=), P(≥), P(≤), 1 in N, a bar.
/// A field with more than [`MAX_ROWS`] values is shown in equal ranges of
/// values (`2970..2999`), each row's "=" the probability of its range.
fn table(spec: &FieldSpec, probs: &[(i64, f64)], basis: Basis) {
    println!("{}: {}", spec.name, spec.doc);
    let rows: Vec<(String, f64)> = if probs.len() > MAX_ROWS {
        let (lo, hi) = (probs[0].0, probs[probs.len() - 1].0);
        let width = ((hi - lo) as usize / MAX_ROWS + 1) as i64;
        let mut rows: Vec<(i64, f64)> = Vec::new();
        for &(v, p) in probs {
            let start = lo + (v - lo) / width * width;
            match rows.last_mut() {
                Some(last) if last.0 == start => last.1 += p,
                _ => rows.push((start, p)),
            }
        }
        println!("(in ranges of {width} values)");
        rows.into_iter()
            .map(|(start, p)| (format!("{start}..{}", start + width - 1), p))
            .collect()
    } else {
        probs.iter().map(|&(v, p)| (spec.label(v), p)).collect()
    };
    let width = rows
        .iter()
        .map(|(label, _)| label.chars().count())
        .max()
        .unwrap_or(1)
        .max(5);
    println!(
        "{:>width$} {:>12} {:>12} {:>12} {:>14}",
        "value", "=", "≥", "≤", "= odds"
    );
    let top = rows.iter().map(|p| p.1).fold(0.0, f64::max);
    // Sums from each end, so a tail of 1e-20 is not lost next to 1.
    let mut at_least: Vec<f64> = rows
        .iter()
        .rev()
        .scan(0.0, |s, p| {
            *s += p.1;
            Some(*s)
        })
        .collect();
    at_least.reverse();
    let mut below = 0.0;
    for ((label, p), at_least) in rows.iter().zip(at_least) {
        below += p;
        let bar = if top > 0.0 {
            "█".repeat((p / top * BAR).round() as usize)
        } else {
            String::new()
        };
        println!(
            "{label:>width$} {:>12} {:>12} {:>12} {:>14}  {bar}",
            number(*p),
            number(at_least.min(1.0)),
            number(below.min(1.0)),
            odds(*p, basis)
        );
    }
}

/// Six decimals, or three significant digits for tiny values.
fn number(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-4 {
        format!("{x:.3e}")
    } else {
        format!("{x:.6}")
    }
}

/// An expression's picture with its caret, indented so the error printer
/// keeps it under the line it belongs to (and the caret in its column).
fn indented(picture: &str) -> String {
    picture
        .lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_values() {
        assert_eq!(value("3").unwrap(), ParamValue::Int(3));
        assert_eq!(value("-2").unwrap(), ParamValue::Int(-2));
        assert_eq!(value("true").unwrap(), ParamValue::Bool(true));
        assert_eq!(
            value("d8 d6 d6").unwrap(),
            ParamValue::Str("d8 d6 d6".into())
        );
        assert_eq!(value("\"full\"").unwrap(), ParamValue::Str("full".into()));
        assert_eq!(
            value("[4, 3]").unwrap(),
            ParamValue::List(vec![ParamValue::Int(4), ParamValue::Int(3)])
        );
        assert!(value("[4,").is_err());
        assert_eq!(
            assignment("actor.pool=d8 d6"),
            Some(("actor.pool", "d8 d6"))
        );
        assert_eq!(assignment("n=4"), Some(("n", "4")));
        assert_eq!(assignment(">=10"), None);
        assert_eq!(assignment("3d6=10"), None);
    }

    #[test]
    fn systems_pick_their_first_mechanic() {
        assert_eq!(
            mechanic_named("gateway").unwrap().name(),
            "gateway.challenge"
        );
        assert_eq!(
            mechanic_named("cortex.timed").unwrap().name(),
            "cortex.timed"
        );
        assert_eq!(mechanic_named("dice").unwrap().name(), "dice.roll");
        assert!(mechanic_named("3d6").is_none());
    }

    #[test]
    fn small_numbers_keep_their_digits() {
        assert_eq!(number(0.5), "0.500000");
        assert_eq!(number(1.0 / 32768.0), "3.052e-5");
        assert_eq!(number(0.0), "0.000000");
    }
}
