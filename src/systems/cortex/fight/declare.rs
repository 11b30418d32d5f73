//! The declaration of `cortex.fight`: schema, model and registry entry.
//! Written in the per-mechanic `Model` style of main at the time; the
//! `Define`/`Trial` refactor (issue 11) turns this into one `Define` impl.

use super::{
    ACTIONS, ACTOR_COMPLICATION, AIDER_COMPLICATIONS, DEAD, DEAD_LABELS, Fight, GAVE_IN,
    OPPOSITION_COMPLICATION, PARAMS, TRAUMA, TRAUMA_RATING, WINNER, WINNERS,
};
use crate::dice::DiceRng;
use crate::dist::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Args, FieldKind, FieldSpec, Mechanic, MetricKind, MetricSpec, Model, ParamError, ParamMap,
    ParamSpec, Pred, Schema,
};

pub fn schema() -> Schema {
    Schema {
        fields: vec![
            FieldSpec::new(
                "winner",
                FieldKind::Category(WINNERS.to_vec()),
                "The side left standing (\"none\": called off at `max_actions`).",
            ),
            FieldSpec::new(
                "actions",
                FieldKind::Int,
                "Actions until a side is out (knocked out or gave in), the last one included.",
            ),
            FieldSpec::new(
                "actor_complication",
                FieldKind::Int,
                "The actor's complication rating at the end (0: none).",
            ),
            FieldSpec::new(
                "opposition_complication",
                FieldKind::Int,
                "The opposition's complication rating at the end (0: none).",
            ),
            FieldSpec::new(
                "trauma",
                FieldKind::Category(crate::systems::cortex::TRAUMA.to_vec()),
                "Who is knocked out with trauma: \"dealt\" (the opposition) or \"taken\" (the actor).",
            ),
            FieldSpec::new(
                "trauma_rating",
                FieldKind::Int,
                "The knocked-out side's trauma rating after it (stacked on any it brought in); 0 when none.",
            ),
            FieldSpec::new(
                "dead",
                FieldKind::Category(DEAD_LABELS.to_vec()),
                "Who took more trauma on a d12 trauma.",
            ),
            FieldSpec::new("gave_in", FieldKind::Bool, "The actor gave in."),
            FieldSpec::new(
                "aider_complications",
                FieldKind::Int,
                "Complications the aider took (one per action its side lost).",
            ),
        ],
        metrics: vec![
            MetricSpec::new(
                "p_win",
                MetricKind::Prob {
                    field: WINNER,
                    pred: Pred::Eq(0),
                },
                "Probability the actor is left standing.",
            ),
            MetricSpec::new(
                "mean_actions",
                MetricKind::Mean { field: ACTIONS },
                "Mean number of actions until a side is out.",
            ),
            MetricSpec::new(
                "p_out_within_3",
                MetricKind::Prob {
                    field: ACTIONS,
                    pred: Pred::Le(3),
                },
                "Probability a side is out (knocked out or gave in) within 3 actions.",
            ),
            MetricSpec::new(
                "p_trauma_taken",
                MetricKind::Prob {
                    field: TRAUMA,
                    pred: Pred::Eq(2),
                },
                "Probability the actor is knocked out with trauma.",
            ),
            MetricSpec::new(
                "p_dead",
                MetricKind::Prob {
                    field: DEAD,
                    pred: Pred::Eq(2),
                },
                "Probability the actor dies.",
            ),
            MetricSpec::new(
                "p_gave_in",
                MetricKind::Prob {
                    field: GAVE_IN,
                    pred: Pred::Eq(1),
                },
                "Probability the actor gives in.",
            ),
            MetricSpec::new(
                "mean_actor_complication",
                MetricKind::Mean {
                    field: ACTOR_COMPLICATION,
                },
                "Mean complication rating the actor ends with (0 counts for none).",
            ),
            MetricSpec::new(
                "mean_opposition_complication",
                MetricKind::Mean {
                    field: OPPOSITION_COMPLICATION,
                },
                "Mean complication rating the opposition ends with.",
            ),
            MetricSpec::new(
                "mean_trauma_rating",
                MetricKind::Mean {
                    field: TRAUMA_RATING,
                },
                "Mean trauma rating of the knocked-out side (0 when none).",
            ),
            MetricSpec::new(
                "mean_aider_complications",
                MetricKind::Mean {
                    field: AIDER_COMPLICATIONS,
                },
                "Mean complications the aider takes.",
            ),
        ],
    }
}

/// The mechanic `cortex.fight`.
pub struct FightAction;

pub fn model(fight: Fight) -> Box<dyn Model> {
    Box::new(FightModel {
        fight,
        schema: schema(),
    })
}

struct FightModel {
    fight: Fight,
    schema: Schema,
}

impl Model for FightModel {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        tally.record_trials(rng, trials, |rng| self.fight.sample(rng));
    }

    fn exact(&self) -> Option<Marginals> {
        self.fight.exact()
    }
}

impl Fight {
    pub fn from_values(values: &ParamMap) -> Result<Fight, ParamError> {
        Fight::from_args(&Args::new(&PARAMS, values)?)
    }
}

impl Mechanic for FightAction {
    fn name(&self) -> &'static str {
        "cortex.fight"
    }

    fn summary(&self) -> &'static str {
        "A fight: basic or contested actions until a side is out; complications stack and join the opponent's pool, trauma, death, giving in, aiders."
    }

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        schema()
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError> {
        Ok(model(Fight::from_values(values)?))
    }
}
