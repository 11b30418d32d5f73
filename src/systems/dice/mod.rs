//! `dice.roll`: your own dice, written as an expression (rules §6).
//!
//! The expression (`expr`, e.g. `"{n}d6kh3"`) is parsed and solved by
//! [`crate::expr`]; its `{name}` parameters take their values from the
//! scenario's `vars.name` keys, so a sweep over `vars.n` is a sweep over
//! pool sizes. One outcome field, `result`; metrics `mean` and `sd`, and
//! `p_true` first when the expression is a comparison.

use std::collections::BTreeMap;

use crate::dice::DiceRng;
use crate::expr::{Expr, NoExact, Roll, Sampler, Warning};
use crate::model::{Marginals, parse_value};
use crate::sim::Tally;
use crate::systems::{
    Args, CHECKED, Define, FieldKind, FieldSpec, Lit, MetricKind, MetricSpec, ParamError,
    ParamKind, ParamMap, ParamSpec, ParamValue, Pred, Schema, Trial,
};

#[cfg(test)]
mod tests;

/// The expression when a scenario gives none: the classic ability score.
pub const DEFAULT_EXPR: &str = "4d6kh3";
/// What `expr` accepts, in words.
const EXPR_EXPECT: &str = "a dice expression such as \"4d6kh3\", \"10d10>=8\" or \"3d8kh1+2 >= 2d8kh1+4\" (README: Dice expressions)";
/// The most values a result may range over: tallies keep one count per
/// value in a dense table, so `d1000000 * d1000000` would not fit.
const MAX_SPAN: i64 = 1 << 22;
/// The range of a `vars.NAME` value.
const VAR_MIN: i64 = -1_000_000;
const VAR_MAX: i64 = 1_000_000;

static PARAMS: [ParamSpec; 2] = [
    ParamSpec {
        path: "expr",
        kind: ParamKind::Custom {
            expects: EXPR_EXPECT,
        },
        default: Lit::Str(DEFAULT_EXPR),
        doc: "The roll: dice, keep/drop, explosions, rerolls, success counts, arithmetic, comparisons; {name} for a parameter.",
    },
    ParamSpec {
        path: "vars.*",
        kind: ParamKind::Int {
            min: VAR_MIN,
            max: VAR_MAX,
        },
        default: Lit::Absent,
        doc: "vars.NAME: the value of {NAME} in the expression (vars.n = 4); sweep it like any key.",
    },
];

/// The parameters of `dice.roll`, one field per path of [`PARAMS`].
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceParams {
    /// The expression's text.
    #[serde(deserialize_with = "expr_text")]
    pub expr: String,
    /// The value of each `{name}`, from the `vars.name` keys.
    #[serde(rename = "vars.*")]
    pub vars: BTreeMap<String, i64>,
}

/// `expr`: a string ([`check_keys`] has said so in dice.roll's words).
fn expr_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    parse_value(d, |v| match v {
        ParamValue::Str(s) => Ok(s.clone()),
        other => Err(format!("{} is the wrong type", other.type_name())),
    })
}

/// The checked roll a set of scenario values describes.
pub fn roll_from(values: &ParamMap) -> Result<Roll, ParamError> {
    DiceRoll.trial(values).map(|t| t.roll)
}

/// Check every explicit key of `values` in dice.roll's own words, in key
/// order: `expr` is a string, and a `vars.NAME` key has a parameter's
/// name and an integer in range (the keys are the user's own names, so
/// the messages say what a name is, which `Args` cannot).
fn check_keys(values: &ParamMap) -> Result<(), ParamError> {
    for (key, value) in values.iter() {
        if key == "expr" {
            if !matches!(value, ParamValue::Str(_)) {
                return Err(ParamError::new(
                    key,
                    format!(
                        "{} is the wrong type; allowed: {EXPR_EXPECT}",
                        value.type_name()
                    ),
                ));
            }
        } else if let Some(name) = key.strip_prefix("vars.") {
            let good_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !good_name {
                return Err(ParamError::new(
                    key,
                    "a parameter name is letters, digits and _, starting with a letter",
                ));
            }
            if !matches!(value, ParamValue::Int(v) if (VAR_MIN..=VAR_MAX).contains(v)) {
                return Err(ParamError::new(
                    key,
                    format!("{value} is not allowed; allowed: an integer {VAR_MIN}..={VAR_MAX}"),
                ));
            }
        } else {
            return Err(ParamError::new(
                key,
                "is not a parameter of dice.roll; allowed: expr, vars.NAME",
            ));
        }
    }
    Ok(())
}

/// A checked roll with how it was read, in words.
pub struct DiceTrial {
    roll: Roll,
    sampler: Sampler,
    reading: String,
}

/// The expression `p` describes, parsed, and its roll: bound to its
/// `vars` and checked to fit a tally.
fn roll_of(p: &DiceParams) -> Result<(Expr, Roll), ParamError> {
    let DiceParams { expr: text, vars } = p;
    let expr = Expr::parse(text).map_err(|e| ParamError::new("expr", e.to_string()))?;
    // A value for a name the expression lacks would change nothing: a
    // sweep or tune of it would repeat one answer.
    let names = expr.params();
    if let Some(extra) = vars.keys().find(|v| !names.contains(v)) {
        let have = if names.is_empty() {
            "it has no parameters".to_string()
        } else {
            let listed: Vec<String> = names.iter().map(|n| format!("vars.{n}")).collect();
            format!("its names: {}", listed.join(", "))
        };
        return Err(ParamError::new(
            format!("vars.{extra}"),
            format!(
                "{{{extra}}} does not appear in the expression \"{text}\", so this value would change nothing; {have}"
            ),
        ));
    }
    let roll = expr.bind(vars).map_err(|e| {
        let mut message = e.to_string();
        if let Some(name) = e
            .message
            .strip_prefix('{')
            .and_then(|m| m.strip_suffix("} has no value"))
        {
            message.push_str(&format!(
                "; give it one with vars.{name} in [params] or [sweep]"
            ));
        }
        ParamError::new("expr", message)
    })?;
    let (lo, hi) = roll.range();
    if hi - lo >= MAX_SPAN {
        return Err(ParamError::new(
            "expr",
            format!(
                "\"{text}\" can range from {lo} to {hi}; dice.roll counts every value, so at most {MAX_SPAN} values"
            ),
        ));
    }
    Ok((expr, roll))
}

/// The schema of a roll: a comparison's boolean, or the expression's
/// value within `range`, its least and greatest (`None` for the
/// mechanic's schema, before an expression is known).
fn schema(comparison: bool, range: Option<(i64, i64)>) -> Schema {
    let mean = MetricSpec::new("mean", MetricKind::Mean { field: 0 }, "Mean result.");
    let sd = MetricSpec::new(
        "sd",
        MetricKind::Sd { field: 0 },
        "Standard deviation of the result.",
    );
    if comparison {
        Schema {
            fields: vec![FieldSpec::new(
                "result",
                FieldKind::Bool,
                "The comparison holds (1) or not (0).",
            )],
            metrics: vec![
                MetricSpec::new(
                    "p_true",
                    MetricKind::Prob {
                        field: 0,
                        pred: Pred::Eq(1),
                    },
                    "Probability the comparison holds (only for comparisons).",
                ),
                mean,
                sd,
            ],
        }
    } else {
        let result = FieldSpec::new(
            "result",
            FieldKind::Int,
            "The expression's value (1/0 for a comparison).",
        );
        Schema {
            fields: vec![match range {
                Some((lo, hi)) => result.within(lo, hi),
                None => result,
            }],
            metrics: vec![mean, sd],
        }
    }
}

impl Trial for DiceTrial {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut scratch = Vec::new();
        tally.record_keyed(
            rng,
            trials,
            |rng| self.sampler.sample(rng, &mut scratch),
            |v| [v],
        );
    }

    /// Exact unless the expression is too large to solve in about a
    /// second; Monte Carlo answers then.
    fn exact(&self) -> Option<Marginals> {
        self.roll.exact().ok().map(marginals)
    }

    fn solve(&self) -> Result<Marginals, Option<String>> {
        self.roll.exact().map(marginals).map_err(|why| match why {
            NoExact::TooLarge(why) => Some(format!(
                "the exact solver gives up on this expression ({why})"
            )),
            // The driver, which asked for the stop, says why.
            NoExact::Cancelled => None,
        })
    }

    fn reading(&self) -> Option<String> {
        Some(self.reading.clone())
    }
}

/// The one field's marginal from an exact distribution.
fn marginals(d: crate::expr::Distribution) -> Marginals {
    let mut m = Marginals::new(1);
    for (v, p) in d.probabilities() {
        m.add(0, v, p);
    }
    m
}

/// The mechanic `dice.roll`.
pub struct DiceRoll;

impl Define for DiceRoll {
    type Params = DiceParams;
    type Trial = DiceTrial;
    const NAME: &'static str = "dice.roll";
    const SUMMARY: &'static str = "Your own dice: one roll of a dice expression such as 4d6kh3, 10d10>=8 or 3d8kh1+2 >= 2d8kh1+4.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    /// As documented: `p_true` exists only for comparisons, where
    /// `result` is a boolean.
    fn schema(&self) -> Schema {
        let mut s = schema(true, None);
        s.fields[0] = FieldSpec::new(
            "result",
            FieldKind::Int,
            "The expression's value (a boolean for a comparison).",
        );
        s
    }

    /// The keys checked in dice.roll's own words first (see
    /// [`check_keys`]); then as every mechanic's are.
    fn read(&self, values: &ParamMap) -> Result<DiceParams, ParamError> {
        check_keys(values)?;
        Args::new(Define::params(self), values)?.typed()
    }

    /// The expression parsed, bound and within a tally's span; the
    /// warnings are its settings no roll can meet.
    fn check(&self, p: &DiceParams) -> Result<Vec<Warning>, ParamError> {
        let (expr, _) = roll_of(p)?;
        Ok(expr.warnings(&p.vars))
    }

    fn build(&self, p: DiceParams) -> DiceTrial {
        // Parsed again: an expression is short, its sampler is the build.
        let (expr, roll) = roll_of(&p).expect(CHECKED);
        DiceTrial {
            reading: expr.read_as(&p.vars),
            sampler: roll.sampler(),
            roll,
        }
    }

    /// A comparison's boolean, or the expression's value within its range.
    fn schema_of(&self, p: &DiceParams) -> Schema {
        // The range is the bound roll's: parsed again, without a sampler.
        let (_, roll) = roll_of(p).expect(CHECKED);
        schema(roll.is_comparison(), Some(roll.range()))
    }
}
