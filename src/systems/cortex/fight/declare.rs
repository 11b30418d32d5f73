//! The declaration of `cortex.fight`: its parameters, schema and builder.

use super::{
    ACTIONS, ACTOR_COMPLICATION, AIDER_COMPLICATIONS, DEAD, DEAD_LABELS, Fight, FightParams,
    FightRounds, GAVE_IN, OPPOSITION_COMPLICATION, PARAMS, Sides, TRAUMA, TRAUMA_RATING, WINNER,
    WINNERS,
};
use crate::dice::DiceRng;
use crate::model::{Marginals, play};
use crate::sim::Tally;
use crate::systems::{
    Define, FieldKind, FieldSpec, MetricSpec, ParamError, ParamSpec, Pred, Schema, Trial, Warning,
};

impl Trial for Fight {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let rounds = FightRounds::sampler(self);
        tally.record_trials(rng, trials, |rng| play(&rounds, rng));
    }

    fn exact(&self) -> Option<Marginals> {
        Fight::exact(self)
    }
}

/// The mechanic `cortex.fight`.
pub struct FightAction;

impl Define for FightAction {
    type Params = FightParams;
    type Trial = Fight;
    const NAME: &'static str = "cortex.fight";
    const SUMMARY: &'static str = "A fight: basic or contested actions until a side is out; complications stack and join the opponent's pool, trauma, death, giving in, aiders.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::new(
                    "winner",
                    FieldKind::Category(WINNERS.to_vec()),
                    "The side left standing (\"none\": called off at `max_actions`).",
                ),
                FieldSpec::int(
                    "actions",
                    "Actions until a side is out (knocked out or gave in), the last one included.",
                ),
                FieldSpec::int(
                    "actor_complication",
                    "The actor's complication rating at the end (0: none).",
                ),
                FieldSpec::int(
                    "opposition_complication",
                    "The opposition's complication rating at the end (0: none).",
                ),
                FieldSpec::new(
                    "trauma",
                    FieldKind::Category(crate::systems::cortex::TRAUMA.to_vec()),
                    "Who is knocked out with trauma: \"dealt\" (the opposition) or \"taken\" (the actor).",
                ),
                FieldSpec::int(
                    "trauma_rating",
                    "The knocked-out side's trauma rating after it (stacked on any it brought in); 0 when none.",
                ),
                FieldSpec::new(
                    "dead",
                    FieldKind::Category(DEAD_LABELS.to_vec()),
                    "Who took more trauma on a d12 trauma.",
                ),
                FieldSpec::bool("gave_in", "The actor gave in."),
                FieldSpec::int(
                    "aider_complications",
                    "Complications the aider took (one per action its side lost).",
                ),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_win",
                    WINNER,
                    Pred::Eq(0),
                    "Probability the actor is left standing.",
                ),
                MetricSpec::mean(
                    "mean_actions",
                    ACTIONS,
                    "Mean number of actions until a side is out.",
                ),
                MetricSpec::prob(
                    "p_out_within_3",
                    ACTIONS,
                    Pred::Le(3),
                    "Probability a side is out (knocked out or gave in) within 3 actions.",
                ),
                MetricSpec::prob(
                    "p_trauma_taken",
                    TRAUMA,
                    Pred::Eq(2),
                    "Probability the actor is knocked out with trauma.",
                ),
                MetricSpec::prob("p_dead", DEAD, Pred::Eq(2), "Probability the actor dies."),
                MetricSpec::prob(
                    "p_gave_in",
                    GAVE_IN,
                    Pred::Eq(1),
                    "Probability the actor gives in.",
                ),
                MetricSpec::mean(
                    "mean_actor_complication",
                    ACTOR_COMPLICATION,
                    "Mean complication rating the actor ends with (0 counts for none).",
                ),
                MetricSpec::mean(
                    "mean_opposition_complication",
                    OPPOSITION_COMPLICATION,
                    "Mean complication rating the opposition ends with.",
                ),
                MetricSpec::mean(
                    "mean_trauma_rating",
                    TRAUMA_RATING,
                    "Mean trauma rating of the knocked-out side (0 when none).",
                ),
                MetricSpec::mean(
                    "mean_aider_complications",
                    AIDER_COMPLICATIONS,
                    "Mean complications the aider takes.",
                ),
            ],
        }
    }

    fn check(&self, p: &FightParams) -> Result<Vec<Warning>, ParamError> {
        Sides::check(&p.opposition, &p.trouble)?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &FightParams) -> Vec<&'static str> {
        Sides::idle(&p.opposition)
    }

    fn build(&self, p: FightParams) -> Fight {
        let sides = Sides::new(p.actor, p.aid, p.opposition, p.trouble, p.gang);
        let mut f = Fight::new(&sides, p.kind, p.rating_tie, p.tie.deals());
        f.actor_trauma = p.actor_trauma.rating();
        f.opposition_trauma = p.opposition_trauma.rating();
        f.max_actions = p.max_actions;
        f.give_in = p.give_in;
        f
    }
}
