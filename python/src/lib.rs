//! `oddsmith._oddsmith`: the library's one answer for Python. A thin edge,
//! like `cli/`: it turns Python values into a [`Question`], asks
//! [`oddsmith::answer::ask`] (the function `oddsmith odds` calls), and
//! hands the [`Answer`] back as the JSON `oddsmith odds --format json`
//! prints, so both faces show the same numbers. The DataFrames are built
//! on the Python side (`python/oddsmith/__init__.py`), from columns.
//!
//! Errors become `ParamError` (a `ValueError`) with the CLI's message; work
//! runs on a Rust thread with the GIL released, stopped by Ctrl-C
//! ([`watch`]); a panic becomes an exception, never an abort.

mod params;
mod pool;
mod run;
mod watch;

use oddsmith::answer::{self, Question};
use oddsmith::run::Mode;
use oddsmith::systems::{self, FieldKind, Lit, Mechanic};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBool;
use serde_json::json;

create_exception!(
    oddsmith,
    ParamError,
    PyValueError,
    "A question oddsmith cannot answer as asked: an unknown mechanic or key, a value out of range, a dice expression that does not parse. The message is the command line's."
);

/// `oddsmith odds --trials`'s default: Monte Carlo trials per config.
const DEFAULT_TRIALS: u64 = 1_000_000;

/// The error raised for a bad question, with `message`.
pub(crate) fn param_error(message: impl Into<String>) -> PyErr {
    ParamError::new_err(message.into())
}

/// A whole-number argument (`trials`, `seed`) as Python gave it: `None`
/// when left out, else an int from `min` to 2**64 − 1, or `ParamError`
/// naming the argument (never Python's own `OverflowError` or
/// `TypeError`, which would not say which argument).
pub(crate) fn whole(name: &str, v: Option<&Bound<'_, PyAny>>, min: u64) -> PyResult<Option<u64>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let allowed = format!("allowed: a whole number from {min} to 2**64 - 1");
    let int_like = !v.is_instance_of::<PyBool>() && v.call_method0("__index__").is_ok();
    if !int_like {
        return Err(param_error(format!(
            "{name}={} is not a whole number (a {}); {allowed}",
            v.repr()?,
            v.get_type().name()?
        )));
    }
    match v.extract::<u64>() {
        Ok(n) if n >= min => Ok(Some(n)),
        _ => Err(param_error(format!(
            "{name}={} is out of range; {allowed}",
            v.repr()?
        ))),
    }
}

/// The mechanic called `what`, or the first of the system called `what`
/// (as `oddsmith odds` reads its first word).
fn mechanic_named(what: &str) -> PyResult<&'static dyn Mechanic> {
    systems::find(what)
        .or_else(|| {
            systems::registry()
                .iter()
                .copied()
                .find(|m| m.name().split('.').next() == Some(what))
        })
        .ok_or_else(|| {
            let names = systems::names();
            param_error(format!(
                "no mechanic or system is called {what:?}{}; known: {}; or write a dice expression such as \"3d6\"",
                systems::suggest(what, names.iter().copied()),
                names.join(", ")
            ))
        })
}

/// How a question is answered, in `run --mode`'s words (the library's
/// one [`Mode`]): `auto` (exact where a solver covers the values, else
/// Monte Carlo), `exact` (an error where there is none), `mc` (Monte Carlo
/// only) or `both` (`odds --check`: Monte Carlo beside the exact value).
pub(crate) fn mode_of(mode: &str) -> PyResult<Mode> {
    mode.parse::<Mode>()
        .map_err(|e| param_error(format!("mode {e}")))
}

/// Ask `q` with the GIL released. The answer as `odds --format json`
/// prints it.
fn ask_json(py: Python<'_>, q: Question) -> PyResult<String> {
    let answer = watch::interruptible(py, move |progress| {
        answer::ask(&q, progress, &mut |_, _| {}).map_err(|e| {
            // Interrupted: the caller raises KeyboardInterrupt on its own.
            let e = match e {
                answer::AskError::Param(e) => e,
                answer::AskError::NoExact { .. } => return format!("{} {e}", q.mechanic.name()),
                answer::AskError::Interrupted => return e.to_string(),
            };
            // As `oddsmith odds` says it: an unknown key with the keys there are.
            let m = q.mechanic;
            let keys = if e.message.starts_with("is not a parameter") {
                format!(
                    "\n  {} takes: {}",
                    m.name(),
                    oddsmith::model::paths(m.params())
                )
            } else {
                String::new()
            };
            format!("{} {e}{keys}", m.name())
        })
    })?
    .map_err(param_error)?;
    serde_json::to_string(&answer).map_err(|e| param_error(e.to_string()))
}

/// `answer(mechanic, params, sweep, mode, trials, seed)`: the JSON of
/// `oddsmith odds MECHANIC key=value … --format json`.
#[pyfunction]
#[pyo3(signature = (mechanic, params=None, sweep=None, mode="auto", trials=None, seed=None))]
fn answer_json(
    py: Python<'_>,
    mechanic: &str,
    params: Option<&Bound<'_, PyAny>>,
    sweep: Option<&Bound<'_, PyAny>>,
    mode: &str,
    trials: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let m = mechanic_named(mechanic)?;
    let mode = mode_of(mode)?;
    let trials = whole("trials", trials, 1)?.unwrap_or(DEFAULT_TRIALS);
    let seed = whole("seed", seed, 0)?.unwrap_or(1);
    let fixed = params::fixed(m, params)?;
    let sweep = params::swept(m, sweep)?;
    let q = Question {
        mechanic: m,
        params: fixed,
        sweep,
        trials,
        seed,
        mode,
    };
    ask_json(py, q)
}

/// `odds(expr, vars, mode, trials, seed)`: the JSON of `oddsmith odds
/// EXPR name=value … --format json`.
#[pyfunction]
#[pyo3(signature = (expr, vars=None, mode="auto", trials=None, seed=None))]
fn odds_json(
    py: Python<'_>,
    expr: &str,
    vars: Option<&Bound<'_, PyAny>>,
    mode: &str,
    trials: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mode = mode_of(mode)?;
    let trials = whole("trials", trials, 1)?.unwrap_or(DEFAULT_TRIALS);
    let seed = whole("seed", seed, 0)?.unwrap_or(1);
    let (params, sweep) = params::expression(expr, vars)?;
    let q = Question {
        mechanic: systems::find("dice.roll").expect("dice.roll is registered"),
        params,
        sweep,
        trials,
        seed,
        mode,
    };
    ask_json(py, q)
}

/// `tune(...)`: the JSON of the library's tune answer, for the question
/// `oddsmith tune MECHANIC --knob … key=value` asks (values already
/// written as on the command line by the Python side).
#[pyfunction]
#[pyo3(signature = (mechanic, params, sweep, knob, metric, target, at_least, at_most, within, range, mode, trials, seed))]
#[allow(clippy::too_many_arguments)]
fn tune_json(
    py: Python<'_>,
    mechanic: String,
    params: Vec<(String, String)>,
    sweep: Vec<(String, Vec<String>)>,
    knob: Option<String>,
    metric: Option<String>,
    target: Option<f64>,
    at_least: Option<f64>,
    at_most: Option<f64>,
    within: Option<f64>,
    range: Option<String>,
    mode: &str,
    trials: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    use oddsmith::run::RunOptions;
    use oddsmith::tune::TuneOptions;
    use oddsmith::tune::question::{self, TuneQuestion};
    let mode = mode_of(mode)?;
    let trials = whole("trials", trials, 1)?;
    let seed = whole("seed", seed, 0)?.unwrap_or(1);
    let q = TuneQuestion {
        mechanic,
        params,
        sweep,
        knob,
        metric,
        target,
        at_least,
        at_most,
        within,
        range,
    };
    let opts = TuneOptions {
        run: RunOptions {
            mode,
            trials,
            seed: Some(seed),
            ..RunOptions::default()
        },
        scan: false,
    };
    let answer = watch::interruptible(py, move |stop| question::answer(&q, &opts, stop))?
        .map_err(|e| param_error(e.0))?;
    serde_json::to_string(&answer).map_err(|e| param_error(e.to_string()))
}

/// `best(mechanic, params, metric, dominance, opponent)`: the JSON of
/// `oddsmith best MECHANIC key=value … --metric M --format json` (the
/// library's one best-play question; the metric defaults to the
/// mechanic's first; `opponent="best"` is `--against best`, a duel).
#[pyfunction]
#[pyo3(signature = (mechanic, params=None, metric=None, dominance=true, opponent=None))]
fn best_json(
    py: Python<'_>,
    mechanic: &str,
    params: Option<&Bound<'_, PyAny>>,
    metric: Option<String>,
    dominance: bool,
    opponent: Option<&str>,
) -> PyResult<String> {
    use oddsmith::best::{BestError, BestQuestion, Opponent, best};
    let opponent = match opponent {
        None | Some("given") => Opponent::Given,
        Some("best") => Opponent::Best,
        Some(other) => {
            return Err(param_error(format!(
                "opponent={other:?}: allowed: 'given' (the other side plays its given policy, the default) or 'best' (best play too: a zero-sum duel)"
            )));
        }
    };
    let m = systems::find(mechanic).ok_or_else(|| {
        let names = systems::names();
        param_error(format!(
            "no mechanic is called {mechanic:?}{}; best play covers: {}",
            systems::suggest(mechanic, names.iter().copied()),
            systems::best::covered().join(", ")
        ))
    })?;
    let params = params::fixed(m, params)?;
    let metric = match metric {
        Some(x) => x,
        None => m
            .schema_of(&params)
            .map_err(|e| param_error(format!("{} {e}", m.name())))?
            .metrics[0]
            .name
            .clone(),
    };
    let q = BestQuestion {
        mechanic: m,
        params,
        metric,
        dominance,
        opponent,
    };
    let answer = watch::interruptible(py, move |_| {
        best(&q).map_err(|e| match e {
            BestError::Param(e) => format!("{} {e}", q.mechanic.name()),
            other => other.to_string(),
        })
    })?
    .map_err(param_error)?;
    serde_json::to_string(&answer).map_err(|e| param_error(e.to_string()))
}

/// The registry as JSON: what `oddsmith systems` lists.
#[pyfunction]
fn mechanics_json() -> String {
    let lit = |l: Lit| match l {
        Lit::Int(v) => json!(v),
        Lit::Bool(v) => json!(v),
        Lit::Str(v) => json!(v),
        Lit::Absent => serde_json::Value::Null,
    };
    let all: Vec<serde_json::Value> = systems::registry()
        .iter()
        .map(|m| {
            let schema = m.schema();
            json!({
                "name": m.name(),
                "system": m.name().split('.').next().unwrap_or_default(),
                "summary": m.summary(),
                "exact": m.has_exact(),
                "parameters": m.params().iter().map(|p| json!({
                    "key": p.path,
                    "allowed": p.kind.allowed(),
                    "range": params::range(&p.kind),
                    "default": lit(p.default),
                    "doc": p.doc,
                })).collect::<Vec<_>>(),
                "fields": schema.fields.iter().map(|f| json!({
                    "name": f.name,
                    "kind": match &f.kind {
                        FieldKind::Bool => json!("bool"),
                        FieldKind::Int => json!("integer"),
                        FieldKind::Category(labels) => json!(labels),
                    },
                    "doc": f.doc,
                })).collect::<Vec<_>>(),
                "metrics": schema.metrics.iter().map(|s| json!({
                    "name": s.name,
                    "doc": s.doc,
                    "probability": s.kind.is_probability(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::Value::Array(all).to_string()
}

/// For the overhead figure: the same exact single-config answer, timed
/// in Rust alone (`n` times; mean seconds per answer).
#[pyfunction]
fn time_rust_answer(mechanic: &str, params: Option<&Bound<'_, PyAny>>, n: u32) -> PyResult<f64> {
    let m = mechanic_named(mechanic)?;
    let q = Question {
        mechanic: m,
        params: params::fixed(m, params)?,
        sweep: Vec::new(),
        trials: 1_000_000,
        seed: 1,
        mode: Mode::Auto,
    };
    let pool = pool::current()?;
    let start = std::time::Instant::now();
    for _ in 0..n.max(1) {
        let a = pool
            .install(|| answer::ask(&q, &(), &mut |_, _| {}))
            .map_err(|e| param_error(e.to_string()))?;
        std::hint::black_box(a);
    }
    Ok(start.elapsed().as_secs_f64() / f64::from(n.max(1)))
}

/// For the tests: a panic deep in Rust must come back as an exception.
#[pyfunction]
fn _panic_for_test(py: Python<'_>) -> PyResult<()> {
    watch::interruptible(py, |_| -> () { panic!("a deliberate panic") })
}

#[pymodule]
fn _oddsmith(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParamError", m.py().get_type::<ParamError>())?;
    m.add_function(wrap_pyfunction!(answer_json, m)?)?;
    m.add_function(wrap_pyfunction!(odds_json, m)?)?;
    m.add_function(wrap_pyfunction!(mechanics_json, m)?)?;
    m.add_function(wrap_pyfunction!(tune_json, m)?)?;
    m.add_function(wrap_pyfunction!(best_json, m)?)?;
    m.add_function(wrap_pyfunction!(run::run_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(time_rust_answer, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    Ok(())
}
