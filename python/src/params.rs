//! Python values to a mechanic's parameters: `{"actor.trait": 3}` to a
//! [`ParamMap`], `{"actor.trait": [1, 2, 3]}` to a sweep axis, and a
//! dice expression's `{name}` values, each refused with the message
//! `oddsmith odds` gives for the same mistake.

use std::collections::BTreeMap;

use oddsmith::expr::Expr;
use oddsmith::systems::{Mechanic, ParamKind, ParamMap, ParamSpec, ParamValue, suggest_param};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::param_error;

/// Fixed values and sweep axes, as a [`oddsmith::answer::Question`] holds them.
pub type Settings = (ParamMap, Vec<(String, Vec<ParamValue>)>);

/// A Python value as a parameter value: bool, int, float, str, a list
/// (or tuple) of values, a dict of values (a TOML inline table).
pub fn value(key: &str, v: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    // bool before int: Python's True is an int too.
    if v.is_instance_of::<PyBool>() {
        return Ok(ParamValue::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(ParamValue::Int)
            .map_err(|_| param_error(format!("{key}={v}: the integer does not fit in 64 bits")));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(ParamValue::Float(v.extract()?));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(ParamValue::Str(v.extract()?));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        return v
            .try_iter()?
            .map(|x| value(key, &x?))
            .collect::<PyResult<_>>()
            .map(ParamValue::List);
    }
    if let Ok(d) = v.cast::<PyDict>() {
        return d
            .iter()
            .map(|(k, x)| Ok((k.str()?.to_string(), value(key, &x)?)))
            .collect::<PyResult<_>>()
            .map(ParamValue::Table);
    }
    Err(param_error(format!(
        "{key}: a {} is not a parameter value; allowed: bool, int, float, str, a list or a dict of them",
        v.get_type().name()?
    )))
}

/// The `(key, value)` pairs of a dict (or None), keys as strings.
fn items<'py>(d: Option<&Bound<'py, PyAny>>) -> PyResult<Vec<(String, Bound<'py, PyAny>)>> {
    let Some(d) = d else { return Ok(Vec::new()) };
    if d.is_none() {
        return Ok(Vec::new());
    }
    let d = d.cast::<PyDict>().map_err(|_| {
        param_error("parameters are a dict of key → value, e.g. {\"actor.trait\": 3}")
    })?;
    d.iter()
        .map(|(k, v)| {
            let k: String = k
                .extract()
                .map_err(|_| param_error(format!("{k}: a parameter's key is a string")))?;
            Ok((k, v))
        })
        .collect()
}

/// Refuse a key `m` does not have, as `oddsmith odds` does.
fn known(m: &'static dyn Mechanic, key: &str) -> PyResult<()> {
    let specs: &[ParamSpec] = m.params();
    let ok = specs.iter().any(|s| {
        s.path == key
            || s.path
                .strip_suffix('*')
                .is_some_and(|prefix| key.starts_with(prefix))
    });
    if ok {
        return Ok(());
    }
    Err(param_error(format!(
        "{key} is not a parameter of {}{}\n  {} takes: {}",
        m.name(),
        suggest_param(key, specs),
        m.name(),
        specs.iter().map(|s| s.path).collect::<Vec<_>>().join(", ")
    )))
}

/// The fixed values of `params`.
pub fn fixed(m: &'static dyn Mechanic, params: Option<&Bound<'_, PyAny>>) -> PyResult<ParamMap> {
    let mut map = ParamMap::new();
    for (k, v) in items(params)? {
        known(m, &k)?;
        map.set(k.clone(), value(&k, &v)?);
    }
    Ok(map)
}

/// The sweep axes of `sweep`: each key with a non-empty list of values.
pub fn swept(
    m: &'static dyn Mechanic,
    sweep: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, Vec<ParamValue>)>> {
    items(sweep)?
        .into_iter()
        .map(|(k, v)| {
            known(m, &k)?;
            let values = match value(&k, &v)? {
                ParamValue::List(vs) if !vs.is_empty() => vs,
                _ => {
                    return Err(param_error(format!(
                        "{k}: a swept key takes a non-empty list of values, e.g. [1, 2, 3]"
                    )));
                }
            };
            Ok((k, values))
        })
        .collect()
}

/// An expression's picture with its caret, indented as the CLI prints it.
fn indented(picture: &str) -> String {
    picture
        .lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A dice expression and its `{name}` values as `dice.roll`'s parameters:
/// an int fixes a name, a list of ints sweeps it.
pub fn expression(text: &str, vars: Option<&Bound<'_, PyAny>>) -> PyResult<Settings> {
    let expr = Expr::parse(text).map_err(|e| {
        param_error(format!(
            "not a dice expression:\n{}",
            indented(&e.picture())
        ))
    })?;
    let names = expr.params();
    let mut fixed = ParamMap::new();
    let mut sweep = Vec::new();
    let mut bound = BTreeMap::new();
    for (k, v) in items(vars)? {
        let name = k.strip_prefix("vars.").unwrap_or(&k).to_string();
        let pv = value(&name, &v)?;
        if !names.contains(&name) {
            return Err(param_error(format!(
                "{name}={pv}: the expression has no {{{name}}}{}",
                if names.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; its parameters: {}",
                        names
                            .iter()
                            .map(|p| format!("{{{p}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            )));
        }
        let ints = |vs: &[ParamValue]| -> Option<Vec<i64>> {
            vs.iter()
                .map(|x| match x {
                    ParamValue::Int(i) => Some(*i),
                    _ => None,
                })
                .collect()
        };
        match &pv {
            ParamValue::Int(n) => {
                bound.insert(name.clone(), *n);
                fixed.set(format!("vars.{name}"), pv);
            }
            ParamValue::List(vs) if !vs.is_empty() && ints(vs).is_some() => {
                bound.insert(name.clone(), ints(vs).expect("checked")[0]);
                sweep.push((format!("vars.{name}"), vs.clone()));
            }
            _ => {
                return Err(param_error(format!(
                    "{name}={pv}: a parameter's value is an integer (or a list of them, to sweep)"
                )));
            }
        }
    }
    fixed.set("expr", ParamValue::Str(text.to_string()));
    expr.bind(&bound).map_err(|e| {
        let hint = if e.message.ends_with("has no value") {
            "\ngive it a value, e.g. vars={\"n\": 4}"
        } else {
            ""
        };
        param_error(format!(
            "cannot roll this:\n{}{hint}",
            indented(&e.picture())
        ))
    })?;
    Ok((fixed, sweep))
}

/// A parameter's numeric range `[min, max]`, where it has one.
pub fn range(kind: &ParamKind) -> Option<(i64, i64)> {
    match kind {
        ParamKind::Int { min, max } | ParamKind::IntOrName { min, max, .. } => Some((*min, *max)),
        _ => None,
    }
}
