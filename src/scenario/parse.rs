//! From TOML text to a checked [`Scenario`], keeping line numbers for every
//! message.

use std::ops::Range;
use std::path::Path;

use sha2::{Digest, Sha256};
use toml_edit::{Document, InlineTable, Item, Table, Value};

use super::ctx::{Ctx, to_param};
use super::error::Problems;
use super::{Axis, MAX_CONFIGS, MAX_TUNE_CONFIGS, Scenario, ScenarioError};
use crate::model::covers;
use crate::systems::{self, Mechanic, ParamMap, ParamSpec, ParamValue, suggest};

/// Top-level keys a scenario may have.
const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "mechanic",
    "seed",
    "trials",
    "params",
    "sweep",
    "labels",
    "chart",
    "expect",
    "tune",
    "best",
];
/// The most values one sweep range may produce.
const MAX_AXIS: i64 = 100_000;

pub(super) fn scenario(path: &Path, text: &str) -> Result<Scenario, ScenarioError> {
    let ctx = Ctx::new(path, text);
    let doc = Document::parse(text).map_err(|e| ScenarioError::Toml {
        path: path.to_path_buf(),
        line: ctx.line(e.span()),
        message: e.message().trim().to_string(),
    })?;
    let root = doc.as_table();
    let mut problems = Problems::default();
    for (key, _) in root.iter() {
        if !TOP_KEYS.contains(&key) {
            problems.push(ctx.invalid(
                root.key(key).and_then(|k| k.span()),
                key,
                format!(
                    "is not a scenario key{}; allowed: {}",
                    suggest(key, TOP_KEYS.iter().copied()),
                    TOP_KEYS.join(", ")
                ),
            ));
        }
    }
    let span_of = |key: &str| {
        root.get(key)
            .and_then(|i| i.span())
            .or_else(|| root.key(key).and_then(|k| k.span()))
    };

    let string = |key: &str| -> Result<Option<String>, ScenarioError> {
        match root.get(key) {
            None => Ok(None),
            Some(item) => item
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| ctx.invalid(span_of(key), key, "must be a string")),
        }
    };
    let positive = |key: &str, min: i64| -> Result<Option<u64>, ScenarioError> {
        match root.get(key) {
            None => Ok(None),
            Some(item) => match item.as_integer() {
                Some(v) if v >= min => Ok(Some(v as u64)),
                Some(v) => Err(ctx.invalid(
                    span_of(key),
                    key,
                    format!("{v} is out of range; allowed: an integer ≥ {min}"),
                )),
                None => Err(ctx.invalid(span_of(key), key, format!("must be an integer ≥ {min}"))),
            },
        }
    };
    let name = problems.ok(string("name")).flatten().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "scenario".into())
    });
    let description = problems.ok(string("description")).flatten();
    let seed = problems.ok(positive("seed", 0)).flatten();
    let trials = problems.ok(positive("trials", 1)).flatten();

    let mechanic = match root.get("mechanic") {
        None => Err(ctx.invalid(
            None,
            "mechanic",
            format!(
                "is missing; it names what to simulate, one of: {}",
                systems::names().join(", ")
            ),
        )),
        Some(item) => match item.as_str() {
            None => Err(ctx.invalid(
                span_of("mechanic"),
                "mechanic",
                "must be a string, e.g. \"gateway.challenge\"",
            )),
            Some(name) => systems::find(name).ok_or_else(|| {
                ctx.invalid(
                    span_of("mechanic"),
                    "mechanic",
                    format!(
                        "\"{name}\" is not a known mechanic{}; known: {}",
                        suggest(name, systems::names().into_iter()),
                        systems::names().join(", ")
                    ),
                )
            }),
        },
    };
    // Without a mechanic there is nothing to check parameters against.
    let Some(mechanic) = problems.ok(mechanic) else {
        return Err(problems.into_error().expect("a problem was kept"));
    };

    let specs = mechanic.params();
    let mut params = ParamMap::new();
    let mut param_lines: Vec<(String, usize)> = Vec::new();
    if let Some(item) = root.get("params") {
        if let Some(table) = problems.ok(section(&ctx, item, "params", span_of("params"))) {
            walk(
                &ctx,
                mechanic,
                specs,
                table,
                "",
                "params",
                &mut problems,
                &mut |path, value, span| {
                    // `a.b = 1` and `"a.b" = 2` are two keys to TOML but
                    // one parameter here: say so rather than keep the last.
                    if let Some((_, first)) = param_lines.iter().find(|(p, _)| p == path) {
                        return Err(twice(&ctx, span, path, *first));
                    }
                    param_lines.push((path.to_string(), ctx.line(span.clone())));
                    let v = to_param(&ctx, path, value)?;
                    check(&ctx, specs, path, &v, span.clone())?;
                    params.set(path, v);
                    Ok(())
                },
            );
        }
    }

    let mut sweep: Vec<Axis> = Vec::new();
    if let Some(item) = root.get("sweep") {
        if let Some(table) = problems.ok(section(&ctx, item, "sweep", span_of("sweep"))) {
            let mut seen: Vec<(String, usize)> = Vec::new();
            walk(
                &ctx,
                mechanic,
                specs,
                table,
                "",
                "sweep",
                &mut problems,
                &mut |path, value, span| {
                    if let Some((_, first)) = seen.iter().find(|(p, _)| p == path) {
                        return Err(twice(&ctx, span, path, *first));
                    }
                    seen.push((path.to_string(), ctx.line(span.clone())));
                    if param_lines.iter().any(|(p, _)| p == path) {
                        return Err(ctx.invalid(
                            span,
                            path,
                            "is set in both [params] and [sweep]; keep one",
                        ));
                    }
                    let values = axis_values(&ctx, specs, path, value, span.clone())?;
                    sweep.push(Axis {
                        path: path.to_string(),
                        values,
                        line: ctx.line(span),
                    });
                    Ok(())
                },
            );
        }
    }
    let count = sweep
        .iter()
        .try_fold(1usize, |acc, a| acc.checked_mul(a.values.len()));
    if count.is_none_or(|c| c > MAX_CONFIGS) {
        problems.push(ctx.invalid(
            span_of("sweep"),
            "sweep",
            format!("expands to more than {MAX_CONFIGS} configs; sweep fewer values"),
        ));
    }
    // Combinations, charts and assertions are checked against a sound
    // sweep only; against a broken one they would only repeat its faults.
    if let Some(e) = problems.into_error() {
        return Err(e);
    }
    let mut problems = Problems::default();

    let mut scenario = Scenario {
        path: path.to_path_buf(),
        text: text.to_string(),
        charts: Vec::new(),
        expectations: Vec::new(),
        tune: None,
        best: None,
        labels: super::Labels::default(),
        warnings: Vec::new(),
        name,
        description,
        mechanic,
        seed,
        trials,
        params,
        sweep,
        sha256: Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        param_lines,
        mechanic_line: ctx.line(span_of("mechanic")),
    };
    // A tune's knob that a config cannot do without (a dice expression's
    // `{n}` as `vars.n`) stands at its range's start for the checks below;
    // every value it walks is checked with the tune itself.
    let stand_in = super::checks::knob_stand_in(root, &scenario);
    if let Some((path, value)) = &stand_in {
        scenario.params.set(path.clone(), value.clone());
    }
    // Check every config once now, so combinations the mechanic rejects
    // are reported before anything runs; each is built only when it runs.
    let mut warnings = Vec::new();
    for config in scenario.configs() {
        warnings.extend(scenario.check(&config)?);
    }
    scenario.warnings = warnings;
    // The names of the first config (checked above), for the labels,
    // charts and assertions.
    let first = scenario.config(0);
    let first_schema = mechanic
        .schema_of(&first.values)
        .map_err(|e| scenario.config_error(&first, e))?;
    if let Some((path, _)) = &stand_in {
        scenario.params.remove(path);
    }
    let schema = &first_schema;
    // A copy: the checks below read it while the scenario fills in.
    let fixed = scenario.params.clone();
    let names = super::checks::Names {
        params: specs,
        schema,
        mechanic: mechanic.name(),
        fixed: &fixed,
    };
    if let Some(item) = root.get("labels") {
        scenario.labels = super::checks::labels(
            &ctx,
            item,
            "labels",
            span_of("labels"),
            &names,
            &mut problems,
        );
    }
    if root.contains_key("best") {
        scenario.best = super::checks::best(
            &ctx,
            root,
            mechanic.name(),
            &scenario.sweep,
            (&fixed, &scenario.param_lines),
            schema,
            &mut problems,
        );
        return problems.result(scenario);
    }
    if root.contains_key("tune") {
        let known = super::checks::Known {
            specs,
            fixed: &scenario.param_lines,
            params: &fixed,
            sweep: &scenario.sweep,
            schema,
        };
        scenario.tune = super::checks::tune(&ctx, root, &known, &mut problems);
        if root.contains_key("chart") {
            problems.push(ctx.invalid(
                span_of("chart"),
                "chart",
                "a tune scenario draws its own chart (the found knob against the first swept parameter); remove [[chart]]",
            ));
        }
        // Every value the knob walks, in every combination, is a config
        // the search may ask for: check them all now, as for the sweep.
        if let Some(grid) = scenario.tune_grid() {
            if grid.config_count() > MAX_TUNE_CONFIGS {
                problems.push(ctx.invalid(
                    span_of("tune"),
                    "tune.range",
                    format!(
                        "the sweep times the knob's values is more than {MAX_TUNE_CONFIGS} configs; sweep fewer values or narrow the range"
                    ),
                ));
                return Err(problems.into_error().expect("a problem was kept"));
            }
            for config in grid.configs() {
                grid.check(&config)?;
            }
        }
        return problems.result(scenario);
    }
    scenario.charts = super::checks::charts(
        &ctx,
        root,
        &scenario.sweep,
        &names,
        &scenario.labels,
        &mut problems,
    );
    scenario.expectations =
        super::checks::expectations(&ctx, root, &scenario.sweep, &fixed, schema, &mut problems);
    problems.result(scenario)
}

/// The error for a parameter given twice.
fn twice(ctx: &Ctx, span: Option<Range<usize>>, path: &str, first: usize) -> ScenarioError {
    ctx.invalid(
        span,
        path,
        format!(
            "is given twice (first on line {first}); `a.b = …` and `\"a.b\" = …` name the same parameter: keep one"
        ),
    )
}

/// `[params]` / `[sweep]` as a table, whether written as a section or inline.
fn section<'a>(
    ctx: &Ctx,
    item: &'a Item,
    key: &str,
    span: Option<Range<usize>>,
) -> Result<Entries<'a>, ScenarioError> {
    match item {
        Item::Table(t) => Ok(Entries::Table(t)),
        Item::Value(Value::InlineTable(t)) => Ok(Entries::Inline(t)),
        _ => Err(ctx.invalid(span, key, format!("must be a table: [{key}]"))),
    }
}

/// A table or an inline table, walked the same way.
#[derive(Clone, Copy)]
enum Entries<'a> {
    Table(&'a Table),
    Inline(&'a InlineTable),
}

/// One entry: its key span, and the item or value.
enum Entry<'a> {
    Item(&'a Item),
    Value(&'a Value),
}

impl<'a> Entries<'a> {
    fn list(self) -> Vec<(&'a str, Option<Range<usize>>, Entry<'a>)> {
        match self {
            Entries::Table(t) => t
                .iter()
                .map(|(k, item)| {
                    (
                        k,
                        t.key(k).and_then(|k| k.span()).or_else(|| item.span()),
                        Entry::Item(item),
                    )
                })
                .collect(),
            Entries::Inline(t) => t
                .iter()
                .map(|(k, v)| {
                    (
                        k,
                        t.key(k).and_then(|k| k.span()).or_else(|| v.span()),
                        Entry::Value(v),
                    )
                })
                .collect(),
        }
    }
}

impl<'a> Entry<'a> {
    fn as_entries(&self) -> Option<Entries<'a>> {
        match self {
            Entry::Item(Item::Table(t)) => Some(Entries::Table(t)),
            Entry::Item(Item::Value(Value::InlineTable(t))) => Some(Entries::Inline(t)),
            Entry::Value(Value::InlineTable(t)) => Some(Entries::Inline(t)),
            _ => None,
        }
    }

    fn value(&self) -> Option<&'a Value> {
        match self {
            Entry::Item(Item::Value(v)) => Some(v),
            Entry::Value(v) => Some(*v),
            _ => None,
        }
    }
}

/// What [`walk`] calls for each parameter: path, value, span.
type Visit<'a> = dyn FnMut(&str, &Value, Option<Range<usize>>) -> Result<(), ScenarioError> + 'a;

/// Walk nested tables down to declared parameter paths and hand each one's
/// value to `visit`. A path that is neither a parameter nor the prefix of
/// one is an error listing the parameters.
#[allow(clippy::too_many_arguments)]
fn walk(
    ctx: &Ctx,
    mechanic: &dyn Mechanic,
    specs: &[ParamSpec],
    table: Entries,
    prefix: &str,
    section: &str,
    problems: &mut Problems,
    visit: &mut Visit,
) {
    for (key, span, entry) in table.list() {
        let path = if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        };
        let is_param = specs.iter().any(|s| covers(s.path, &path));
        let is_prefix = specs
            .iter()
            .any(|s| s.path.starts_with(&format!("{path}.")));
        // In [sweep] a range is an inline table; in both sections a declared
        // parameter takes whatever value is there.
        if is_param {
            match entry.value() {
                Some(v) => {
                    if let Err(e) = visit(&path, v, span) {
                        problems.push(e);
                    }
                }
                None => problems.push(ctx.invalid(span, &path, "must be a value, not a [section]")),
            }
        } else if let (true, Some(inner)) = (is_prefix, entry.as_entries()) {
            walk(ctx, mechanic, specs, inner, &path, section, problems, visit);
        } else {
            let what = if section == "sweep" {
                "sweep over"
            } else {
                "set"
            };
            problems.push(ctx.invalid(
                span,
                &path,
                format!(
                    "is not a parameter of {}, so there is nothing to {what}{}; allowed keys: {}",
                    mechanic.name(),
                    systems::suggest_param(&path, specs),
                    crate::model::paths(specs)
                ),
            ));
        }
    }
}

/// Check one value against the declared kind of `path`.
fn check(
    ctx: &Ctx,
    specs: &[ParamSpec],
    path: &str,
    v: &ParamValue,
    span: Option<Range<usize>>,
) -> Result<(), ScenarioError> {
    let spec = specs
        .iter()
        .find(|s| covers(s.path, path))
        .expect("walk only visits declared paths");
    spec.kind.check(v).map_err(|why| {
        ctx.invalid(
            span,
            path,
            format!("= {v}: {why}; allowed: {}", spec.kind.allowed()),
        )
    })
}

/// The values of one sweep axis: a non-empty array, or
/// `{ from = a, to = b, step = s }` (step defaults to 1; to is included).
fn axis_values(
    ctx: &Ctx,
    specs: &[ParamSpec],
    path: &str,
    v: &Value,
    span: Option<Range<usize>>,
) -> Result<Vec<ParamValue>, ScenarioError> {
    let values = match v {
        Value::Array(a) => {
            if a.is_empty() {
                return Err(ctx.invalid(
                    span,
                    path,
                    "sweeps over an empty list; give at least one value",
                ));
            }
            let mut out = Vec::with_capacity(a.len());
            for x in a.iter() {
                let pv = to_param(ctx, path, x)?;
                check(ctx, specs, path, &pv, x.span().or(span.clone()))?;
                out.push(pv);
            }
            out
        }
        Value::InlineTable(t) => {
            for (k, _) in t.iter() {
                if !["from", "to", "step"].contains(&k) {
                    return Err(ctx.invalid(
                        span,
                        path,
                        format!("range has an unknown key `{k}`; allowed: from, to, step"),
                    ));
                }
            }
            let int = |k: &str, default: Option<i64>| -> Result<i64, ScenarioError> {
                match t.get(k) {
                    Some(x) => x.as_integer().ok_or_else(|| {
                        ctx.invalid(x.span(), path, format!("range `{k}` must be an integer"))
                    }),
                    None => default.ok_or_else(|| {
                        ctx.invalid(
                            span.clone(),
                            path,
                            format!("range needs `{k}`: {{ from = a, to = b, step = 1 }}"),
                        )
                    }),
                }
            };
            let (from, to, step) = (int("from", None)?, int("to", None)?, int("step", Some(1))?);
            // In i128: the span of two i64 does not fit an i64.
            let (from, to, step) = (i128::from(from), i128::from(to), i128::from(step));
            if step == 0 || (to - from).signum() * step.signum() < 0 {
                return Err(ctx.invalid(span, path, format!("range from {from} to {to} by {step} never arrives; the step must be non-zero and point from `from` towards `to`")));
            }
            if (to - from) / step >= i128::from(MAX_AXIS) {
                return Err(ctx.invalid(
                    span,
                    path,
                    format!("range has more than {MAX_AXIS} values"),
                ));
            }
            let mut out = Vec::new();
            let mut x = from;
            while (step > 0 && x <= to) || (step < 0 && x >= to) {
                let pv = ParamValue::Int(x as i64);
                check(ctx, specs, path, &pv, span.clone())?;
                out.push(pv);
                x += step;
            }
            out
        }
        _ => {
            return Err(ctx.invalid(
                span,
                path,
                "must be a list of values, or a range { from = a, to = b, step = 1 }",
            ));
        }
    };
    Ok(values)
}
