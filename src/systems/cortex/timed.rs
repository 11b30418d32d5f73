//! `cortex.timed`: a timed action (RULES.md §2.4). A clock of B beats and a
//! list of steps, each a basic action. A roll costs one beat, an
//! extraordinary success none, a failure two (and the step is passed, or,
//! in the `repeat` variant, tried again). The actor is out of time when the
//! beats reach 0 or less after a failed roll, or after any roll with steps
//! still to do (RULES.md §2.4, corrected 2026-11-22); a last step passed by
//! a success at exactly 0 beats completes without a clean getaway.
//!
//! Exact: each step's (extraordinary, success, failure) odds come from the
//! exact basic-action solver; the clock is an absorbing chain over (step,
//! beats left) solved by [`crate::dist::markov::absorb`].

use super::basic::Basic;
use super::roll::{Rolled, roll_best_die};
use super::{
    ACTOR_AID, ACTOR_POOL, KNOCKOUT, OPPOSITION_GANG, OPPOSITION_POOL, OPPOSITION_TROUBLE, Pool,
    RatingTie, Sides,
};
use crate::dice::DiceRng;
use crate::dist::{After, Limits, Marginals, Rounds, play, solve};
use crate::sim::Tally;
use crate::systems::{
    Args, Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, ParamValue,
    Pred, Schema, Trial,
};

/// The most steps a timed action may have.
pub const MAX_STEPS: usize = 20;

/// The steps of a timed action as a scenario gives them.
enum Steps {
    /// This many steps against the opposition.
    Count(usize),
    /// One step against each of these pools.
    Pools(Vec<Pool>),
}

fn steps_of(v: &ParamValue) -> Result<Steps, String> {
    match v {
        ParamValue::Int(n) if (1..=MAX_STEPS as i64).contains(n) => Ok(Steps::Count(*n as usize)),
        ParamValue::Int(n) => Err(format!("{n} is out of range")),
        ParamValue::List(items) if (1..=MAX_STEPS).contains(&items.len()) => items
            .iter()
            .map(|item| match item {
                ParamValue::Str(s) => s.parse::<Pool>().map_err(|e| format!("step \"{s}\": {e}")),
                other => Err(format!("a step is {}, not a pool", other.type_name())),
            })
            .collect::<Result<_, _>>()
            .map(Steps::Pools),
        ParamValue::List(items) => Err(format!("{} steps is out of range", items.len())),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

static PARAMS: [ParamSpec; 8] = [
    ACTOR_POOL,
    ACTOR_AID,
    OPPOSITION_POOL,
    OPPOSITION_TROUBLE,
    OPPOSITION_GANG,
    ParamSpec {
        path: "steps",
        kind: ParamKind::Custom {
            expects: "a number of steps 1..=20 (each against the opposition), or a list of 1..=20 opposition pools such as [\"2d6\", \"d8 d6\"]",
        },
        default: Lit::Int(3),
        doc: "The steps of the action: how many basic actions against the opposition, or each step's opposing pool.",
    },
    ParamSpec {
        path: "beats",
        kind: ParamKind::Int { min: 1, max: 60 },
        default: Lit::Int(4),
        doc: "Beats of time on the clock.",
    },
    ParamSpec {
        path: "variant.failure",
        kind: ParamKind::Choice(AfterFailure::NAMES),
        default: Lit::Str("move-on"),
        doc: "After a failed step: move on to the next (default) or repeat it.",
    },
];

crate::choice! {
    /// What follows a failed step (`variant.failure`).
    pub enum AfterFailure {
        /// The next step (the text).
        MoveOn = "move-on",
        /// The same step again.
        Repeat = "repeat",
    }
}

const FIELDS: usize = 4;
/// The index of a failure among [`Timed::moves`].
const FAILURE: usize = 2;

/// One step: a basic action against its own opposition.
#[derive(Clone, Debug, PartialEq)]
struct Step {
    basic: Basic,
    actor: Vec<u32>,
    aid: Option<Vec<u32>>,
    opposition: Vec<u32>,
}

/// A fully checked timed action.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    steps: Vec<Step>,
    pub beats: i64,
    pub repeat: bool,
}

impl Timed {
    /// Steps against `oppositions` (each with the gang of `sides`).
    pub fn new(sides: &Sides, oppositions: &[Pool], beats: i64, repeat: bool) -> Timed {
        let steps = oppositions
            .iter()
            .map(|o| {
                let s = Sides {
                    opposition: o.clone(),
                    ..sides.clone()
                };
                let basic = Basic::new(s.clone(), RatingTie::Larger, false);
                Step {
                    basic,
                    actor: s.actor.dice().to_vec(),
                    aid: s.aid.as_ref().map(|p| p.dice().to_vec()),
                    opposition: s.opposition_with(s.gang.len()).dice().to_vec(),
                }
            })
            .collect();
        Timed {
            steps,
            beats,
            repeat,
        }
    }

    /// Where one roll leaves the clock: `(next step, beats left)` for an
    /// extraordinary success, a success and a failure.
    #[inline]
    fn moves(&self, step: usize, beats: i64) -> [(usize, i64); 3] {
        let after_failure = if self.repeat { step } else { step + 1 };
        [
            (step + 1, beats),
            (step + 1, beats - 1),
            (after_failure, beats - 2),
        ]
    }

    /// The outcome, if the clock stops at `(step, beats)` after `rolls`,
    /// the last of which `failed`. "If you run out of beats—zero or less—
    /// you're out of time": a failure that leaves 0 or less is out of time
    /// even on the last step; a success on the last step at exactly 0 beats
    /// completes, but not clean ("If you succeed but have zero beats left,
    /// you have to choose").
    #[inline]
    fn stop(&self, step: usize, beats: i64, rolls: i64, failed: bool) -> Option<[i64; FIELDS]> {
        let out_of_time = beats <= 0 && (failed || step < self.steps.len());
        if out_of_time {
            Some([0, beats, rolls, 0])
        } else if step == self.steps.len() {
            Some([1, beats, rolls, (beats >= 1) as i64])
        } else {
            None
        }
    }

    /// Exact marginals.
    pub fn exact(&self) -> Option<Marginals> {
        let odds = self
            .steps
            .iter()
            .map(|s| {
                let (extra, win) = s.basic.success_odds();
                [extra, win - extra, 1.0 - win]
            })
            .collect();
        let rounds = TimedRounds {
            timed: self,
            odds: Some(odds),
        };
        Some(solve(&rounds, FIELDS, Limits::default())?.marginals)
    }

    /// One timed action.
    #[inline]
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; FIELDS] {
        play(
            &TimedRounds {
                timed: self,
                odds: None,
            },
            rng,
        )
    }
}

/// A timed action as rounds of one roll each: the state is (step, beats
/// left), the roll an extraordinary success (0), a success (1) or a
/// failure ([`FAILURE`]).
struct TimedRounds<'a> {
    timed: &'a Timed,
    /// Each step's odds of the three, for the solver.
    odds: Option<Vec<[f64; 3]>>,
}

impl Rounds for TimedRounds<'_> {
    type State = (usize, i64);
    type Roll = usize;
    type Outcome = [i64; FIELDS];

    fn start(&self) -> (usize, i64) {
        (0, self.timed.beats)
    }

    fn law(&self, _: usize, &(i, _): &(usize, i64), out: &mut Vec<(usize, f64)>) {
        let odds = self.odds.as_ref().expect("the solver has the odds");
        out.extend(odds[i].iter().copied().enumerate());
    }

    #[inline]
    fn roll(&self, _: usize, &(i, _): &(usize, i64), rng: &mut DiceRng) -> usize {
        let s = &self.timed.steps[i];
        let a =
            Rolled::roll(rng, &s.actor).total + s.aid.as_ref().map_or(0, |h| roll_best_die(rng, h));
        let o = Rolled::roll(rng, &s.opposition).total;
        if a - o >= KNOCKOUT {
            0
        } else if a > o {
            1
        } else {
            FAILURE
        }
    }

    #[inline]
    fn after(
        &self,
        round: usize,
        &(i, b): &(usize, i64),
        &which: &usize,
    ) -> After<(usize, i64), [i64; FIELDS]> {
        let (i, b) = self.timed.moves(i, b)[which];
        match self.timed.stop(i, b, round as i64, which == FAILURE) {
            Some(outcome) => After::End(outcome),
            None => After::Round((i, b)),
        }
    }
}

impl Trial for Timed {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        tally.record_trials(rng, trials, |rng| self.sample(rng));
    }

    fn exact(&self) -> Option<Marginals> {
        Timed::exact(self)
    }
}

/// The mechanic `cortex.timed`.
pub struct TimedAction;

impl Define for TimedAction {
    type Trial = Timed;
    const NAME: &'static str = "cortex.timed";
    const SUMMARY: &'static str = "A timed action: basic-action steps against a clock of beats; extraordinary successes cost no time, failures an extra beat.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool(
                    "completed",
                    "Every step was passed before the time ran out.",
                ),
                FieldSpec::int(
                    "beats_left",
                    "Beats on the clock at the end (0 or less when out of time).",
                ),
                FieldSpec::int("rolls", "Basic actions rolled."),
                FieldSpec::bool(
                    "clean",
                    "Completed with at least one beat left (no choice between getaway and objective).",
                ),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_completed",
                    0,
                    Pred::Eq(1),
                    "Probability every step is done in time.",
                ),
                MetricSpec::prob(
                    "p_clean",
                    3,
                    Pred::Eq(1),
                    "Probability of finishing with time left.",
                ),
                MetricSpec::mean("mean_rolls", 2, "Mean number of rolls."),
            ],
        }
    }

    fn build(&self, args: &Args) -> Result<Timed, ParamError> {
        let sides = Sides::from_args(args)?;
        let oppositions = match args.parsed("steps", steps_of)? {
            Steps::Count(n) => vec![sides.opposition.clone(); n],
            Steps::Pools(pools) => pools,
        };
        Ok(Timed::new(
            &sides,
            &oppositions,
            args.int("beats")?,
            match args.choice_of("variant.failure")? {
                AfterFailure::MoveOn => false,
                AfterFailure::Repeat => true,
            },
        ))
    }
}
