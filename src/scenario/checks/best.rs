//! `[best]` and its gates: which metric best play maximises in every
//! config of the sweep, whether to work out dominance, and the
//! `[[expect]]` bounds on what best play finds (its value, the given
//! policy's, the gap, or one option's loss or use). The solving lives in
//! `crate::best`; this module only says what was asked, and refuses what
//! cannot be answered, with the line and key at fault.

use toml_edit::{Item, Table};

use super::super::error::Problems;
use super::super::{Axis, ScenarioError};
use super::entry::{Entry, tables};
use super::{filter, metric};
use crate::model::MetricKind;
use crate::scenario::ctx::Ctx;
use crate::systems::duel::Opponent;
use crate::systems::{self, ParamMap, ParamValue, Schema};

/// What an `[[expect]]` of a best-play scenario bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestOf {
    /// The metric under best play.
    Best,
    /// The metric under the policy the values give.
    Given,
    /// Best minus given.
    Gap,
    /// What forbidding one option costs best play.
    Loss,
    /// One option's share of best play's decisions.
    Usage,
    /// In a duel: A's best against B's given policy (one-sided best play).
    OneSided,
    /// In a duel: what B's best play takes back (one-sided − duel).
    TakenBack,
}

impl BestOf {
    pub const NAMES: [&'static str; 7] = [
        "best",
        "given",
        "gap",
        "loss",
        "usage",
        "one_sided",
        "taken_back",
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BestOf::Best => "best",
            BestOf::Given => "given",
            BestOf::Gap => "gap",
            BestOf::Loss => "loss",
            BestOf::Usage => "usage",
            BestOf::OneSided => "one_sided",
            BestOf::TakenBack => "taken_back",
        }
    }

    fn parse(s: &str) -> Option<BestOf> {
        Some(match s {
            "best" => BestOf::Best,
            "given" => BestOf::Given,
            "gap" => BestOf::Gap,
            "loss" => BestOf::Loss,
            "usage" => BestOf::Usage,
            "one_sided" => BestOf::OneSided,
            "taken_back" => BestOf::TakenBack,
            _ => return None,
        })
    }

    /// Whether it is about one option (and needs `option`).
    pub fn per_option(self) -> bool {
        matches!(self, BestOf::Loss | BestOf::Usage)
    }

    /// Whether it is a duel's number (and needs `opponent = "best"`).
    pub fn duel_only(self) -> bool {
        matches!(self, BestOf::OneSided | BestOf::TakenBack)
    }
}

/// `[[expect]]` in a best-play scenario: one bound on one number of every
/// config's answer (the configs `where` selects).
#[derive(Clone, Debug, PartialEq)]
pub struct BestGate {
    pub line: usize,
    pub why: Option<String>,
    pub filter: Vec<(String, ParamValue)>,
    pub of: BestOf,
    /// The option (`setup`, `1 raise`) a loss or usage is about; checked
    /// against the options best play finds when it is solved.
    pub option: Option<String>,
    /// Whose option: A's (false, the default) or, in a duel, B's
    /// (`side = "b"`).
    pub b_side: bool,
    /// Inclusive bounds; `None` is unbounded on that side.
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl BestGate {
    /// `gap in [0, 0.02]`, `loss of setup ≤ 0.001`.
    pub fn describe(&self) -> String {
        let what = match &self.option {
            Some(o) if self.b_side => format!("{} of B's {o}", self.of.as_str()),
            Some(o) => format!("{} of {o}", self.of.as_str()),
            None => self.of.as_str().to_string(),
        };
        match (self.low, self.high) {
            (Some(a), Some(b)) => format!("{what} in [{a}, {b}]"),
            (Some(a), None) => format!("{what} ≥ {a}"),
            (None, Some(b)) => format!("{what} ≤ {b}"),
            (None, None) => what,
        }
    }

    /// Whether `x` is within the bounds.
    pub fn holds(&self, x: f64) -> bool {
        self.low.is_none_or(|a| x >= a) && self.high.is_none_or(|b| x <= b)
    }
}

/// A parsed `[best]`.
#[derive(Clone, Debug, PartialEq)]
pub struct BestSpec {
    /// The metric best play maximises (a probability, a mean or a
    /// complement).
    pub metric: String,
    /// Work out what forbidding each option costs (default true).
    pub dominance: bool,
    /// What the other side plays: its given policy (the default) or best
    /// play too (a zero-sum duel).
    pub opponent: Opponent,
    pub gates: Vec<BestGate>,
    /// Line of `[best]`, for errors found when it is solved.
    pub line: usize,
}

const BEST_KEYS: &[&str] = &["metric", "dominance", "opponent"];
const GATE_KEYS: &[&str] = &[
    "of", "option", "side", "between", "at_least", "at_most", "where", "why",
];

/// Parse `[best]` and its `[[expect]]` gates; `None` when the file has no
/// `[best]` or it is wrong (mistakes go to `problems`).
pub(in crate::scenario) fn best(
    ctx: &Ctx,
    root: &Table,
    mechanic: &str,
    sweep: &[Axis],
    (fixed, lines): (&ParamMap, &[(String, usize)]),
    schema: &Schema,
    problems: &mut Problems,
) -> Option<BestSpec> {
    let item = root.get("best")?;
    let span = item
        .span()
        .or_else(|| root.key("best").and_then(|k| k.span()));
    let Item::Table(table) = item else {
        problems.push(ctx.invalid(span, "best", "must be a table: [best]"));
        return None;
    };
    let before = problems.len();
    for key in ["tune", "chart"] {
        if root.contains_key(key) {
            let span = root.get(key).and_then(|i| i.span());
            problems.push(ctx.invalid(
                span,
                key,
                match key {
                    "tune" => "a scenario asks one question: [best] (best play) or [tune] (a knob's value), not both; keep one",
                    _ => "a best-play scenario draws its own chart (the dominance bars); remove [[chart]]",
                },
            ));
        }
    }
    let covered = systems::best::covered();
    if !covered.contains(&mechanic) {
        problems.push(ctx.invalid(
            span.clone(),
            "best",
            format!(
                "{}; allowed mechanics: {}",
                systems::best::why_not(mechanic),
                covered.join(", ")
            ),
        ));
    }
    let e = Entry {
        table,
        section: "best",
        index: None,
    };
    e.check_keys(ctx, BEST_KEYS, problems);
    let metric = problems.ok(metric(ctx, &e, schema));
    if let Some(m) = &metric {
        let name = schema.complement_of(m).unwrap_or_else(|| m.clone());
        let sd = schema
            .metrics
            .iter()
            .any(|s| s.name == name && matches!(s.kind, MetricKind::Sd { .. }));
        if sd {
            problems.push(ctx.invalid(
                e.span("metric"),
                &e.name("metric"),
                format!(
                    "\"{m}\" is a standard deviation, which is no expectation of one trial; allowed: a probability or a mean, such as {}",
                    expectations(schema).join(", ")
                ),
            ));
        }
    }
    let dominance = problems.ok(e.boolean(ctx, "dominance")).flatten();
    let opponent = problems.ok(opponent(ctx, &e)).unwrap_or_default();
    if opponent == Opponent::Best && covered.contains(&mechanic) {
        duel(
            ctx,
            &e,
            mechanic,
            metric.as_deref(),
            (sweep, fixed, lines),
            problems,
        );
    }
    let gates = gates(
        ctx,
        root,
        sweep,
        fixed,
        (dominance != Some(false), opponent),
        problems,
    );
    match metric {
        Some(metric) if problems.len() == before => Some(BestSpec {
            metric,
            dominance: dominance.unwrap_or(true),
            opponent,
            gates,
            line: ctx.line(span),
        }),
        _ => None,
    }
}

/// `opponent = "given" | "best"` (default "given").
fn opponent(ctx: &Ctx, e: &Entry) -> Result<Opponent, ScenarioError> {
    let allowed =
        "\"given\" (its given policy, the default) or \"best\" (best play too: a zero-sum duel)";
    match e.string(ctx, "opponent")?.as_deref() {
        None | Some("given") => Ok(Opponent::Given),
        Some("best") => Ok(Opponent::Best),
        Some(other) => Err(ctx.invalid(
            e.span("opponent"),
            &e.name("opponent"),
            format!("\"{other}\" is not what the other side plays; allowed: {allowed}"),
        )),
    }
}

/// What a duel (`opponent = "best"`) needs before anything is solved: a
/// mechanic with a second deciding side, a zero-sum metric, and the
/// values the duel's solver needs (`b.initiative_order = "first"`), each
/// refused at its own key.
fn duel(
    ctx: &Ctx,
    e: &Entry,
    mechanic: &str,
    metric: Option<&str>,
    (sweep, fixed, lines): (&[Axis], &ParamMap, &[(String, usize)]),
    problems: &mut Problems,
) {
    let covered = systems::duel::covered();
    if !covered.contains(&mechanic) {
        problems.push(ctx.invalid(
            e.span("opponent"),
            &e.name("opponent"),
            format!(
                "\"best\" needs a second side that decides, and {mechanic} has none: {}; allowed here: \"given\" (\"best\" covers {})",
                systems::duel::reason(mechanic),
                covered.join(", ")
            ),
        ));
        return;
    }
    let zero_sum = systems::duel::zero_sum(mechanic);
    if let Some(m) = metric.filter(|m| !zero_sum.contains(m)) {
        problems.push(ctx.invalid(
            e.span("metric"),
            &e.name("metric"),
            format!(
                "\"{m}\" is not zero-sum in {mechanic} (what one side gains the other loses), so a duel (opponent = \"best\") cannot be played for it; allowed with opponent = \"best\": {}",
                zero_sum.join(", ")
            ),
        ));
    }
    for &(key, only, why) in systems::duel::needs(mechanic) {
        let wrong = |v: &ParamValue| !matches!(v, ParamValue::Str(s) if s == only);
        let line = || {
            lines
                .iter()
                .find(|(p, _)| p == key)
                .map_or_else(|| ctx.line(e.span("opponent")), |(_, l)| *l)
        };
        let found = match (fixed.get(key), sweep.iter().find(|a| a.path == key)) {
            (Some(v), _) if wrong(v) => Some((v.clone(), "[params]", line())),
            (_, Some(a)) => a
                .values
                .iter()
                .find(|v| wrong(v))
                .map(|v| (v.clone(), "[sweep]", a.line)),
            _ => None,
        };
        if let Some((v, section, line)) = found {
            let v = match v {
                ParamValue::Str(s) => format!("\"{s}\""),
                other => other.to_string(),
            };
            problems.push(ctx.invalid_at(
                line,
                key,
                format!(
                    "{v} (in {section}): best play for both sides (opponent = \"best\") needs \"{only}\" ({why}); allowed with opponent = \"best\": \"{only}\""
                ),
            ));
        }
    }
}

/// The metrics best play can maximise.
fn expectations(schema: &Schema) -> Vec<String> {
    schema
        .metrics
        .iter()
        .filter(|m| !matches!(m.kind, MetricKind::Sd { .. }))
        .map(|m| m.name.clone())
        .collect()
}

fn gates(
    ctx: &Ctx,
    root: &Table,
    sweep: &[Axis],
    fixed: &ParamMap,
    (dominance, opponent): (bool, Opponent),
    problems: &mut Problems,
) -> Vec<BestGate> {
    let mut out = Vec::new();
    let Some(entries) = problems.ok(tables(ctx, root, "expect")) else {
        return out;
    };
    for e in entries {
        let before = problems.len();
        e.check_keys(ctx, GATE_KEYS, problems);
        let filter = problems.ok(filter(ctx, &e, sweep, fixed));
        let why = problems.ok(e.string(ctx, "why")).flatten();
        let of = problems.ok(of(ctx, &e));
        let option = problems.ok(e.string(ctx, "option")).flatten();
        match (of, &option) {
            (Some(of), None) if of.per_option() => problems.push(ctx.invalid(
                e.span("of"),
                &e.name("option"),
                format!(
                    "is missing: of = \"{}\" is about one option; name it, e.g. option = \"setup\"",
                    of.as_str()
                ),
            )),
            (Some(of), Some(_)) if !of.per_option() => problems.push(ctx.invalid(
                e.span("option"),
                &e.name("option"),
                format!(
                    "names an option, but of = \"{}\" is about the whole answer; allowed with option: of = \"loss\" or \"usage\"",
                    of.as_str()
                ),
            )),
            (Some(of), Some(_)) if !dominance => problems.push(ctx.invalid(
                e.span("of"),
                &e.name("of"),
                format!(
                    "\"{}\" needs the dominance table, but [best] has dominance = false; remove that line or this [[expect]]",
                    of.as_str()
                ),
            )),
            (Some(of), _) if of.duel_only() && opponent != Opponent::Best => {
                problems.push(ctx.invalid(
                    e.span("of"),
                    &e.name("of"),
                    format!(
                        "\"{}\" is a duel's number, but [best] has no opponent = \"best\"; allowed without it: best, given, gap, loss, usage",
                        of.as_str()
                    ),
                ))
            }
            _ => {}
        }
        let b_side = problems.ok(side(ctx, &e, of, opponent)).unwrap_or(false);
        let bounds = problems.ok(bounds(ctx, &e));
        if let (Some(filter), Some(of), Some((low, high)), true) =
            (filter, of, bounds, problems.len() == before)
        {
            out.push(BestGate {
                line: ctx.line(e.table.span()),
                why,
                filter,
                of,
                option,
                b_side,
                low,
                high,
            });
        }
    }
    out
}

/// `side = "a" | "b"`: whose option a loss or usage is about; B's only in
/// a duel, where B decides too.
fn side(
    ctx: &Ctx,
    e: &Entry,
    of: Option<BestOf>,
    opponent: Opponent,
) -> Result<bool, ScenarioError> {
    let Some(s) = e.string(ctx, "side")? else {
        return Ok(false);
    };
    let bad = |m: String| ctx.invalid(e.span("side"), &e.name("side"), m);
    let b = match s.as_str() {
        "a" => false,
        "b" => true,
        _ => return Err(bad(format!("\"{s}\" is no side; allowed: a, b"))),
    };
    if of.is_some_and(|o| !o.per_option()) {
        return Err(bad(
            "says whose option, but of is about the whole answer; allowed with side: of = \"loss\" or \"usage\"".into(),
        ));
    }
    if b && opponent != Opponent::Best {
        return Err(bad(
            "\"b\" needs a duel, where B decides too: [best] opponent = \"best\"; without it only A's options have a loss and a usage".into(),
        ));
    }
    Ok(b)
}

fn of(ctx: &Ctx, e: &Entry) -> Result<BestOf, ScenarioError> {
    let allowed = BestOf::NAMES.join(", ");
    let Some(s) = e.string(ctx, "of")? else {
        return Err(ctx.invalid(
            e.table.span(),
            &e.name("of"),
            format!(
                "is missing: in a best-play scenario an [[expect]] bounds one number of best play's answer; allowed: {allowed}"
            ),
        ));
    };
    BestOf::parse(&s).ok_or_else(|| {
        ctx.invalid(
            e.span("of"),
            &e.name("of"),
            format!(
                "\"{s}\" is not a number of best play's answer{}; allowed: {allowed}",
                systems::suggest(&s, BestOf::NAMES.iter().copied())
            ),
        )
    })
}

/// `between = [a, b]`, `at_least = a` or `at_most = b`: exactly one.
fn bounds(ctx: &Ctx, e: &Entry) -> Result<(Option<f64>, Option<f64>), ScenarioError> {
    let keys: Vec<&str> = ["between", "at_least", "at_most"]
        .into_iter()
        .filter(|k| e.table.contains_key(k))
        .collect();
    let Some(&key) = keys.first() else {
        return Err(ctx.invalid(
            e.table.span(),
            &e.name("between"),
            "is missing: give one bound, between = [low, high], at_least = x or at_most = x",
        ));
    };
    if let Some(second) = keys.get(1) {
        return Err(ctx.invalid(
            e.span(second),
            &e.name(second),
            format!(
                "is a second bound beside `{key}`; an [[expect]] takes exactly one of between, at_least, at_most (write two [[expect]] tables)"
            ),
        ));
    }
    let v = e
        .value(key)
        .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), "must be a value"))?;
    Ok(match key {
        "between" => {
            let a = v
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| ctx.invalid(e.span(key), &e.name(key), "must be [low, high]"))?;
            let lo = e.number(ctx, key, a.get(0).expect("two values"))?;
            let hi = e.number(ctx, key, a.get(1).expect("two values"))?;
            if lo > hi {
                return Err(ctx.invalid(
                    e.span(key),
                    &e.name(key),
                    format!("[{lo}, {hi}] is empty: low must not exceed high"),
                ));
            }
            (Some(lo), Some(hi))
        }
        "at_least" => (Some(e.number(ctx, key, v)?), None),
        _ => (None, Some(e.number(ctx, key, v)?)),
    })
}
