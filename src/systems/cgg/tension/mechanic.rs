//! `cgg.tension` as a mechanic: its parameters, its schema (fields named
//! for the explorers and the tracks), and building a [`Tension`] from them.

use super::super::action::action_from;
use super::{
    AVOIDED, Explorer, HOURS_GAINED, HOURS_PAID, IN_CRISIS, MAX_PITFALLS, PARAMS, PITFALL_SPRUNG,
    Pick, ROUNDS, Tension, explorer, prepared,
};
use crate::systems::{
    Define, FieldSpec, MetricSpec, ParamError, ParamSpec, ParamValue, Pred, Schema,
};

/// The mechanic `cgg.tension`.
pub struct TensionMechanic;

impl Define for TensionMechanic {
    type Params = crate::model::Raw;
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

    fn schema_of(&self, t: &Tension) -> Schema {
        let mut s = self.schema();
        for e in &t.explorers {
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

    fn build(&self, raw: crate::model::Raw) -> Result<Tension, ParamError> {
        let args = &raw.args(Define::params(self));
        let list = match args.parsed_if_set("explorers", explorer::explorers)? {
            Some(l) => l,
            None => explorer::explorers(&ParamValue::List(vec![
                ParamValue::Str("3d".into()),
                ParamValue::Str("3d".into()),
            ]))
            .expect("the default explorers"),
        };
        let paid = args.bool("stunt.paid")?;
        let moved = args.int("stunt.moved")? as u32;
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
                let mut a = action_from(args, e.code.dice(), e.risk_code, 0)?;
                if let Some(w) = e.wrench {
                    a.rules.wrench = w;
                }
                Ok(a)
            })
            .collect::<Result<Vec<_>, ParamError>>()?;
        let starts = match args.parsed_if_set("pitfalls", |v| match v {
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
        })? {
            Some(s) => {
                if args.is_set("start") {
                    return Err(ParamError::new(
                        "start",
                        "give either start (one pitfall) or pitfalls, not both",
                    ));
                }
                s
            }
            None => vec![args.int("start")?],
        };
        let holder = args
            .parsed_if_set("edge.holder", |v| match v {
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
            })?
            .unwrap_or_default();
        let gives = args.parsed("edge.gives", |v| Pick::parse(v, &list, true))?;
        let first = args.parsed("edge.first", |v| Pick::parse(v, &list, true))?;
        Ok(Tension {
            explorers: list,
            actions,
            starts,
            address: args.choice_of("pitfalls.address")?,
            raise: args.int("exec.raise")? as u32,
            max_rounds: args.int("max_rounds")? as u32,
            holder,
            gives,
            first,
            effective: args.choice_of("variant.effective")?,
            prepared: prepared::Cache::default(),
        })
    }
}
