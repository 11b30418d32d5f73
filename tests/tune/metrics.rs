//! Every metric of every mechanic in the registry, the derived complements
//! (`p_fail`, `p_not_win`) included, tuned on a short knob range with a
//! few Monte Carlo trials: through the library no panic, through the
//! binary exit 0 or 2 and never 101 (a panic). Each mechanic's knob is
//! its first parameter that walks a range at its defaults, so most tunes
//! answer (exit 0) and the test is not one of refusals only.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::Command;

use oddsmith::run::RunOptions;
use oddsmith::scenario::Scenario;
use oddsmith::systems::{self, Lit, Mechanic, ParamKind};
use oddsmith::tune::TuneOptions;
use oddsmith::tune::question::{self, TuneQuestion};

/// Few trials and a loose precision: the test is about panics, not odds.
const TRIALS: u64 = 256;
const PRECISION: f64 = 0.3;

/// A short range (`FROM..TO`, three values where there are) for each
/// parameter of `m` that a knob can walk, in declaration order.
fn knob_ranges(m: &dyn Mechanic) -> Vec<(String, String)> {
    m.params()
        .iter()
        .filter_map(|p| {
            let range = match p.kind {
                // Around the default, where the other defaults agree.
                ParamKind::Int { min, max } | ParamKind::IntOrName { min, max, .. } => {
                    // Without a default, from the least (from 1 where
                    // negatives are allowed: an expression's dice count).
                    let at = match p.default {
                        Lit::Int(d) => d,
                        _ if min < 0 => 2.min(max),
                        _ => min,
                    };
                    let from = at.saturating_sub(1).max(min);
                    format!("{from}..{}", max.min(from.saturating_add(2)))
                }
                ParamKind::Ordered(names) => {
                    format!("{}..{}", names[0], names[names.len().min(3) - 1])
                }
                ParamKind::Custom { expects } if expects.starts_with("a rating:") => "1..3".into(),
                ParamKind::Custom { .. } => "0..2".into(),
                ParamKind::Bool | ParamKind::Choice(_) => return None,
            };
            // A pattern's one name: `vars.*` is walked as `vars.x`, the
            // `{x}` of the expression `required` gives.
            let path = match p.path.strip_suffix(".*") {
                Some(prefix) => format!("{prefix}.x"),
                None => p.path.to_string(),
            };
            Some((path, range))
        })
        .collect()
}

/// Mechanics with no parameter a knob can walk: die codes, a list of
/// ratings.
const NO_KNOB: &[&str] = &["cgg.fallout", "cgg.diligence", "questworlds.prize"];

/// The parameters a mechanic requires (it has no default for them).
fn required(m: &dyn Mechanic) -> Vec<(String, String)> {
    let one = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    match m.name() {
        "gateway.ensemble" | "gateway.skirmish" => one("pcs", "[{ name = \"ann\" }]"),
        "dice.roll" => one("expr", "\"{x}d6 >= 7\""),
        "statements.scene" | "statements.campaign" => one(
            "players",
            "[{ name = \"ann\", statements = [{ favouring = 4 }] }]",
        ),
        _ => Vec::new(),
    }
}

/// Every metric name a tune of `m` may use, complements included: the
/// schema of its model at its defaults (a scene's metrics are named after
/// its players).
fn metric_names(m: &dyn Mechanic) -> Vec<String> {
    let mut text = format!("mechanic = \"{}\"\n[params]\n", m.name());
    for (k, v) in required(m) {
        text.push_str(&format!("\"{k}\" = {v}\n"));
    }
    // The expression's `{x}` is the knob; its schema needs it set.
    if m.name() == "dice.roll" {
        text.push_str("\"vars.x\" = 2\n");
    }
    let scenario = Scenario::parse(Path::new("metrics.toml"), &text).unwrap();
    let models = scenario.models().unwrap();
    models[0].1.schema().metric_names()
}

/// The question for `metric`: a probability aims at one half, anything
/// else at 1; every third asks `at least`, every third `at most`.
fn question(m: &dyn Mechanic, knob: &(String, String), metric: &str, i: usize) -> TuneQuestion {
    let prob = metric.starts_with("p_");
    let x = if prob { 0.5 } else { 1.0 };
    let mut q = TuneQuestion {
        mechanic: m.name().to_string(),
        knob: Some(knob.0.clone()),
        range: Some(knob.1.clone()),
        metric: Some(metric.to_string()),
        params: required(m),
        ..TuneQuestion::default()
    };
    match i % 3 {
        0 => q.target = Some(x),
        1 => q.at_least = Some(x),
        _ => q.at_most = Some(x),
    }
    q
}

fn options() -> TuneOptions {
    TuneOptions {
        run: RunOptions {
            trials: Some(TRIALS),
            precision: Some(PRECISION),
            ..RunOptions::default()
        },
        scan: false,
    }
}

/// The knob of `m` whose tune of its first metric answers, if any.
fn working_knob(m: &dyn Mechanic) -> Option<(String, String)> {
    let first = metric_names(m).into_iter().next()?;
    knob_ranges(m).into_iter().find(|k| {
        let q = question(m, k, &first, 0);
        catch_unwind(AssertUnwindSafe(|| question::answer(&q, &options(), &())))
            .is_ok_and(|r| r.is_ok())
    })
}

/// Every (mechanic, knob, metric) the test tunes.
fn cases() -> Vec<(&'static dyn Mechanic, (String, String), String)> {
    let mut out = Vec::new();
    let mut without = Vec::new();
    for &m in systems::registry() {
        let Some(knob) = working_knob(m) else {
            without.push(m.name());
            continue;
        };
        for metric in metric_names(m) {
            out.push((m, knob.clone(), metric));
        }
    }
    assert_eq!(without, NO_KNOB, "mechanics without a knob that answers");
    out
}

#[test]
fn every_metric_of_every_mechanic_tunes_without_a_panic() {
    let cases = cases();
    let complements = cases
        .iter()
        .filter(|(_, _, metric)| {
            metric.starts_with("p_not_") || metric == "p_fail" || metric == "p_false"
        })
        .count();
    assert!(complements > 10, "only {complements} complements tuned");
    let mut panics = Vec::new();
    let mut answered = 0;
    for (i, (m, knob, metric)) in cases.iter().enumerate() {
        let q = question(*m, knob, metric, i);
        match catch_unwind(AssertUnwindSafe(|| question::answer(&q, &options(), &()))) {
            Ok(Ok(a)) => {
                answered += 1;
                assert!(!a.rows.is_empty(), "{q:?}");
            }
            // A question the parser refuses is bad input, as it should be.
            Ok(Err(_)) => {}
            Err(_) => panics.push(format!("{} {} {metric}", m.name(), knob.0)),
        }
    }
    assert!(panics.is_empty(), "tune panicked on: {panics:#?}");
    assert!(
        answered * 10 >= cases.len() * 9,
        "only {answered} of {} tunes answered",
        cases.len()
    );
}

/// The same questions through the binary: exit 0 or 2, never 101.
#[test]
fn every_metric_of_every_mechanic_exits_0_or_2() {
    let bin = env!("CARGO_BIN_EXE_oddsmith");
    let cases = cases();
    let mut bad = Vec::new();
    for (i, (m, knob, metric)) in cases.iter().enumerate() {
        let q = question(*m, knob, metric, i);
        let mut args: Vec<String> = vec![
            "tune".into(),
            m.name().into(),
            "--knob".into(),
            knob.0.clone(),
            "--range".into(),
            knob.1.clone(),
            "--metric".into(),
            metric.clone(),
            "--trials".into(),
            TRIALS.to_string(),
            "--precision".into(),
            PRECISION.to_string(),
            "--quiet".into(),
        ];
        args.extend(q.params.iter().map(|(k, v)| format!("{k}={v}")));
        for (flag, x) in [
            ("--target", q.target),
            ("--at-least", q.at_least),
            ("--at-most", q.at_most),
        ] {
            if let Some(x) = x {
                args.extend([flag.to_string(), x.to_string()]);
            }
        }
        let o = Command::new(bin).args(&args).output().unwrap();
        if !matches!(o.status.code(), Some(0 | 2)) {
            bad.push(format!(
                "{}: {:?}\n{}",
                args.join(" "),
                o.status.code(),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
