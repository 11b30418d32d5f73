//! `dice.roll` through the mechanic interface: parameters, published
//! numbers, Monte Carlo against exact, and the same question asked of
//! `gateway.challenge`.

use super::*;
use crate::run::{self, Mode, RunOptions};
use crate::scenario::Scenario;
use crate::sim::{Plan, simulate};
use crate::stats::{estimate, exact_value, z_score};
use crate::systems::{Mechanic, find};

fn values(expr: &str, vars: &[(&str, i64)]) -> ParamMap {
    let mut m = ParamMap::new();
    m.set("expr", ParamValue::Str(expr.into()));
    for (k, v) in vars {
        m.set(format!("vars.{k}"), ParamValue::Int(*v));
    }
    m
}

/// The exact value of metric `name` of `expr`.
fn exact_metric(expr: &str, vars: &[(&str, i64)], name: &str) -> f64 {
    let model = DiceRoll.prepare(&values(expr, vars)).unwrap();
    let spec = model
        .schema()
        .metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{expr} has no {name}"))
        .clone();
    exact_value(&spec, &model.exact().unwrap()).value
}

#[test]
fn four_d6_keep_three_mean_is_published() {
    assert!((exact_metric("4d6kh3", &[], "mean") - 15869.0 / 1296.0).abs() < 1e-12);
    assert!((exact_metric("{n}d6kh3", &[("n", 4)], "mean") - 12.2446).abs() < 1e-4);
}

#[test]
fn the_gateway_example_agrees_with_gateway_challenge() {
    // 3d8 keep highest +2 against 2d8 +4: 11431/32768 (rules §1.1).
    let want = 11431.0 / 32768.0;
    let p_dice = exact_metric("3d8kh1+2 >= 2d8kh1+4", &[], "p_true");
    let challenge = find("gateway.challenge").unwrap();
    let mut v = ParamMap::new();
    v.set("actor.trait", ParamValue::Int(3));
    v.set("actor.background", ParamValue::Int(2));
    v.set("opposition.variability", ParamValue::Int(2));
    v.set("opposition.challenge", ParamValue::Int(4));
    let model = challenge.prepare(&v).unwrap();
    let p_gateway = exact_value(&model.schema().metrics[0], &model.exact().unwrap()).value;
    assert!((p_dice - want).abs() < 1e-15, "{p_dice}");
    assert!((p_gateway - want).abs() < 1e-15, "{p_gateway}");
    // And a sweep of the opposition's bonus through {b} matches the
    // challenge level, point for point.
    for (b, level) in [(0, 0), (2, 2), (4, 4), (8, 8)] {
        let p = exact_metric("3d8kh1+2 >= 2d8kh1+{b}", &[("b", b)], "p_true");
        v.set("opposition.challenge", ParamValue::Int(level));
        let m = challenge.prepare(&v).unwrap();
        let g = exact_value(&m.schema().metrics[0], &m.exact().unwrap()).value;
        assert!((p - g).abs() < 1e-15, "b = {b}: {p} vs {g}");
    }
}

/// Thirty expressions, every operator among them, with their `{name}`
/// values.
const THIRTY: [(&str, &[(&str, i64)]); 30] = [
    ("4d6kh3", &[]),
    ("3d6", &[]),
    ("d20 + 5", &[]),
    ("2d20kl1", &[]),
    ("2d20kh1", &[]),
    ("10d10>=8", &[]),
    ("10d10>=8 ++10", &[]),
    ("6d6>=5f1", &[]),
    ("8d6!", &[]),
    ("d10!>=9", &[]),
    ("4d6r1", &[]),
    ("4d6ro<=2", &[]),
    ("4dF", &[]),
    ("2d{1,2,4,4}", &[]),
    ("3d{-1..1} + 1", &[]),
    ("d%", &[]),
    ("max(d20, d20)", &[]),
    ("min(d20, d20) + 2", &[]),
    ("d6 * d6", &[]),
    ("2*d8 - d4", &[]),
    ("3d8kh1+2 >= 2d8kh1+4", &[]),
    ("d20 >= 11", &[]),
    ("2d6 = 7", &[]),
    ("d20+3 > d20", &[]),
    ("(d6 >= 4) + (d6 >= 4) + (d6 >= 4)", &[]),
    ("5d10kh2kl1", &[]),
    ("8d6dl2dh2", &[]),
    ("{n}d6kh3", &[("n", 5)]),
    ("10d10>=8!", &[]),
    ("d{s}! - 2d6", &[("s", 4)]),
];

#[test]
fn monte_carlo_agrees_with_exact_on_thirty_expressions() {
    for (i, (expr, vars)) in THIRTY.iter().enumerate() {
        let model = DiceRoll.prepare(&values(expr, vars)).unwrap();
        let exact = model.exact().unwrap_or_else(|| panic!("{expr} solves"));
        let plan = Plan {
            seed: 16,
            trials: 500_000,
            precision: None,
        };
        let tally = simulate(&[(i, model.as_ref())], &plan, &()).remove(0);
        for spec in &model.schema().metrics {
            let z = z_score(&exact_value(spec, &exact), &estimate(spec, &tally));
            assert!(z.abs() < 5.0, "{expr}: {} z = {z}", spec.name);
        }
    }
}

#[test]
fn a_roll_is_pinned_by_its_seed() {
    // Value stability: the first trials of a fixed stream.
    let model = DiceRoll.prepare(&values("4d6kh3", &[])).unwrap();
    let mut tally = Tally::new(1);
    model.simulate(&mut DiceRng::from_u64(1), 1000, &mut tally);
    let sum: i64 = tally.field(0).iter().map(|(v, c)| v * c as i64).sum();
    assert_eq!(tally.trials(), 1000);
    assert_eq!(sum, 12_251);
}

#[test]
fn comparisons_get_p_true_and_a_boolean_result() {
    let m = DiceRoll.prepare(&values("d20 >= 11", &[])).unwrap();
    let names: Vec<_> = m.schema().metrics.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["p_true", "mean", "sd"]);
    assert_eq!(m.schema().fields[0].kind, FieldKind::Bool);
    let m = DiceRoll.prepare(&values("3d6", &[])).unwrap();
    let names: Vec<_> = m.schema().metrics.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["mean", "sd"]);
    assert!((exact_metric("3d6", &[], "sd") - (3.0 * 35.0f64 / 12.0).sqrt()).abs() < 1e-12);
}

#[test]
fn bad_parameters_name_the_key() {
    let err = |v: &ParamMap| Mechanic::check(&DiceRoll, v).expect_err("an error");
    let e = err(&values("4d6kh", &[]));
    assert_eq!(e.key, "expr");
    assert!(e.message.contains("keep needs a count (column 6"), "{e}");
    let e = err(&values("{n}d6", &[]));
    assert_eq!(e.key, "expr");
    assert!(e.message.contains("give it one with vars.n"), "{e}");
    let e = err(&values("{n}d6", &[("n", -1)]));
    assert!(e.message.contains("the number of dice is -1"), "{e}");
    let mut v = values("3d6", &[]);
    v.set("vars.2x", ParamValue::Int(1));
    assert_eq!(err(&v).key, "vars.2x");
    let mut v = values("3d6", &[]);
    v.set("vars.n", ParamValue::Str("four".into()));
    assert!(err(&v).message.contains("an integer"), "{}", err(&v));
    let mut v = values("3d6", &[]);
    v.set("sides", ParamValue::Int(6));
    assert!(err(&v).message.contains("allowed: expr, vars.NAME"));
    let mut v = ParamMap::new();
    v.set("expr", ParamValue::Int(3));
    assert!(err(&v).message.contains("wrong type"));
    let e = err(&values("d1000000 * d1000000", &[]));
    assert!(e.message.contains("at most 4194304 values"), "{e}");
    // Defaults: 4d6kh3.
    assert!(Mechanic::check(&DiceRoll, &ParamMap::new()).is_ok());
}

#[test]
fn a_scenario_sweeps_vars_and_checks_the_expression() {
    let text = r#"
mechanic = "dice.roll"
[params]
expr = "{n}d6kh3"
[sweep]
vars.n = { from = 3, to = 6 }
"#;
    let s = Scenario::parse(std::path::Path::new("t.toml"), text).unwrap();
    assert_eq!(s.swept_paths(), ["vars.n"]);
    let opts = RunOptions {
        mode: Mode::Exact,
        ..RunOptions::default()
    };
    let r = run::run(&s, &opts, &()).unwrap();
    let means: Vec<f64> = r
        .configs
        .iter()
        .map(|c| c.runs[0].metrics[0].value)
        .collect();
    assert_eq!(means.len(), 4);
    assert!((means[0] - 10.5).abs() < 1e-12);
    assert!((means[1] - 15869.0 / 1296.0).abs() < 1e-12);
    assert!(means.windows(2).all(|w| w[1] > w[0]), "{means:?}");

    let bad = text.replace("{n}d6kh3", "{n}d6kh");
    let err = Scenario::parse(std::path::Path::new("t.toml"), &bad)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("t.toml:4: `expr`"), "{err}");
    assert!(err.contains("keep needs a count (column 8"), "{err}");
    let unbound = text.replace("vars.n", "vars.k");
    let err = Scenario::parse(std::path::Path::new("t.toml"), &unbound)
        .err()
        .unwrap()
        .to_string();
    // vars.k for a {n}: the name the expression lacks is named first,
    // with the ones it has.
    assert!(
        err.contains("`vars.k` {k} does not appear in the expression"),
        "{err}"
    );
    assert!(err.contains("its names: vars.n"), "{err}");
    let nested = text.replace("vars.n = { from = 3, to = 6 }", "vars.n.x = 3");
    assert!(Scenario::parse(std::path::Path::new("t.toml"), &nested).is_err());
}
