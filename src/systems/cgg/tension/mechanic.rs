//! `cgg.tension` as a mechanic: its parameters, its schema (fields named
//! for the explorers and the tracks), and building a [`Tension`] from them.

use super::super::action::action_from;
use super::super::action::rules::rule_params;
use super::{
    AVOIDED, Address, Effective, Explorer, HOURS_GAINED, HOURS_PAID, IN_CRISIS, MAX_PITFALLS,
    PARAMS, PITFALL_SPRUNG, Pick, ROUNDS, Tension, explorer, prepared,
};
use crate::model::{Given, parse_some};
use crate::systems::{
    CHECKED, Define, FieldSpec, MetricSpec, ParamError, ParamSpec, ParamValue, Pred, Schema,
    Warning,
};

rule_params! {
    /// The parameters of `cgg.tension`, one field per path of [`PARAMS`]:
    /// the explorers parsed whole, the Edge's picks kept whole (they name
    /// explorers) and parsed in `build`.
    pub struct TensionParams {
        #[serde(default, deserialize_with = "explorers")]
        pub explorers: Option<Vec<Explorer>>,
        pub start: Given<i64>,
        #[serde(default, deserialize_with = "pitfalls")]
        pub pitfalls: Option<Vec<i64>>,
        #[serde(rename = "pitfalls.address")]
        pub pitfalls_address: Address,
        #[serde(rename = "exec.raise")]
        pub exec_raise: u32,
        pub max_rounds: u32,
        #[serde(rename = "edge.holder", default)]
        pub edge_holder: Option<ParamValue>,
        #[serde(rename = "edge.gives")]
        pub edge_gives: ParamValue,
        #[serde(rename = "edge.first")]
        pub edge_first: ParamValue,
        #[serde(rename = "variant.effective")]
        pub variant_effective: Effective,
        #[serde(rename = "stunt.paid")]
        pub stunt_paid: bool,
        #[serde(rename = "stunt.moved")]
        pub stunt_moved: u32,
    }
}

fn explorers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<Explorer>>, D::Error> {
    parse_some(d, explorer::explorers)
}

fn pitfalls<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    parse_some(d, |v| match v {
        ParamValue::List(items) if (1..=MAX_PITFALLS).contains(&items.len()) => items
            .iter()
            .map(|x| match x {
                ParamValue::Int(t) if (1..=14).contains(t) => Ok(*t),
                other => Err(format!("{other} is not a track start 1..=14")),
            })
            .collect(),
        other => Err(format!(
            "{other} is not a list of 1..={MAX_PITFALLS} starts"
        )),
    })
}

/// A value kept whole and parsed against the explorers, its error worded
/// as every parameter's: what is wrong, then what `path` allows.
fn parsed<T>(
    path: &'static str,
    v: &ParamValue,
    parse: impl FnOnce(&ParamValue) -> Result<T, String>,
) -> Result<T, ParamError> {
    parse(v).map_err(|why| {
        if why.contains("allowed:") {
            ParamError::new(path, why)
        } else {
            let spec = PARAMS.iter().find(|s| s.path == path);
            let allowed = spec.expect("a key of cgg.tension").kind.allowed();
            ParamError::new(path, format!("{why}; allowed: {allowed}"))
        }
    })
}

/// The mechanic `cgg.tension`.
pub struct TensionMechanic;

impl Define for TensionMechanic {
    type Params = TensionParams;
    type Trial = Tension;
    const NAME: &'static str = "cgg.tension";
    const SUMMARY: &'static str = "A tension scene: the Edge's cumulative +1d, then every explorer acts (helped, stunting), idles or gets ready; successes lower the track, the Exec raises it 1d3; 0 avoids the pitfall, 15 springs it.";
    const EXACT: bool = false;

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool("avoided", "A track reached 0: that pitfall avoided."),
                FieldSpec::bool("pitfall", "A track reached 15: that pitfall happened."),
                FieldSpec::int("rounds", "Rounds played."),
                FieldSpec::int(
                    "hours_paid",
                    "Crisis-clock hours all explorers paid (taken off their clocks).",
                ),
                FieldSpec::int(
                    "hours_gained",
                    "Crisis-clock hours all explorers gained (put on their clocks).",
                ),
                FieldSpec::int("in_crisis", "Explorers whose clock ran out in the scene."),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_avoided",
                    AVOIDED,
                    Pred::Eq(1),
                    "Probability a pitfall is avoided.",
                ),
                MetricSpec::prob(
                    "p_pitfall",
                    PITFALL_SPRUNG,
                    Pred::Eq(1),
                    "Probability a pitfall happens.",
                ),
                MetricSpec::mean("mean_rounds", ROUNDS, "Mean rounds until the scene ends."),
                MetricSpec::mean(
                    "mean_hours_paid",
                    HOURS_PAID,
                    "Mean hours paid over the scene.",
                ),
                MetricSpec::mean(
                    "mean_hours_gained",
                    HOURS_GAINED,
                    "Mean hours gained over the scene.",
                ),
                MetricSpec::prob(
                    "p_crisis",
                    IN_CRISIS,
                    Pred::Ge(1),
                    "Probability some explorer's clock runs out in the scene.",
                ),
            ],
        }
    }

    /// Two more fields per explorer, named as the scenario names them.
    fn schema_of(&self, p: &TensionParams) -> Schema {
        let mut s = self.schema();
        // The names are the explorers' list, read as the check read it.
        for e in &tension_of(p).expect(CHECKED).explorers {
            s.fields.push(FieldSpec::int(
                format!("{}.hours_paid", e.name),
                "Hours this explorer paid.",
            ));
            s.fields.push(FieldSpec::int(
                format!("{}.hours_gained", e.name),
                "Hours this explorer gained.",
            ));
        }
        s
    }

    /// The explorers' actions read, the stunt's moved dice paid for, one
    /// pitfall or several, and the Edge's picks naming explorers.
    fn check(&self, p: &TensionParams) -> Result<Vec<Warning>, ParamError> {
        tension_of(p)?;
        Ok(Vec::new())
    }

    fn build(&self, p: TensionParams) -> Tension {
        // The same reading the check made; its cache starts empty, so
        // reading is all a build does here.
        tension_of(&p).expect(CHECKED)
    }
}

/// The scene the keys describe: explorers with their actions, the
/// pitfalls, and the Edge's picks resolved against the explorers' names.
fn tension_of(p: &TensionParams) -> Result<Tension, ParamError> {
    let rules = p.rules();
    let list = match &p.explorers {
        Some(l) => l.clone(),
        None => explorer::explorers(&ParamValue::List(vec![
            ParamValue::Str("3d".into()),
            ParamValue::Str("3d".into()),
        ]))
        .expect("the default explorers"),
    };
    let (paid, moved) = (p.stunt_paid, p.stunt_moved);
    if moved > 0 && !paid {
        return Err(ParamError::new(
            "stunt.moved",
            "moving dice is part of a stunt; set stunt.paid = true",
        ));
    }
    let list: Vec<Explorer> = list
        .into_iter()
        .map(|mut e| {
            if paid {
                e.stunt = true;
                e.moved = (e.moved + moved).min(e.risk_code.dice());
            }
            e
        })
        .collect();
    let actions = list
        .iter()
        .map(|e| {
            let mut a = action_from(&rules, e.code.dice(), e.risk_code, 0)?;
            if let Some(w) = e.wrench {
                a.rules.wrench = w.into();
            }
            Ok(a)
        })
        .collect::<Result<Vec<_>, ParamError>>()?;
    let starts = match &p.pitfalls {
        Some(s) => {
            if p.start.given {
                return Err(ParamError::new(
                    "start",
                    "give either start (one pitfall) or pitfalls, not both",
                ));
            }
            s.clone()
        }
        None => vec![p.start.value],
    };
    let holder = match &p.edge_holder {
        Some(v) => parsed("edge.holder", v, |v| match v {
            ParamValue::Str(s) => list.iter().position(|e| &e.name == s).ok_or_else(|| {
                format!(
                    "\"{s}\" is no explorer's name; allowed: {}",
                    list.iter()
                        .map(|e| format!("\"{}\"", e.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }),
            other => Err(format!("{} is the wrong type", other.type_name())),
        })?,
        None => 0,
    };
    let gives = parsed("edge.gives", &p.edge_gives, |v| Pick::parse(v, &list, true))?;
    let first = parsed("edge.first", &p.edge_first, |v| Pick::parse(v, &list, true))?;
    Ok(Tension {
        explorers: list,
        actions,
        starts,
        address: p.pitfalls_address,
        raise: p.exec_raise,
        max_rounds: p.max_rounds,
        holder,
        gives,
        first,
        effective: p.variant_effective,
        prepared: prepared::Cache::default(),
    })
}
