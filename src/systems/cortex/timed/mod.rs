//! `cortex.timed`: a timed action (rules §2.4). A clock of B beats and a
//! list of steps, each a basic action. A roll costs one beat, an
//! extraordinary success none, a failure two (and the step is passed, or,
//! in the `repeat` variant, tried again). The actor is out of time when the
//! beats reach 0 or less after a failed roll, or after any roll with steps
//! still to do (rules §2.4, corrected 2026-11-22); a last step passed by
//! a success at exactly 0 beats completes without a clean getaway.
//!
//!
//! Buying time: between two steps, when `policy.buy_time` says so, the
//! first of the `helpers` still able makes a basic action against the next
//! step's opposition: a success gives back a beat, an extraordinary success
//! two, a failure means that helper helps no more. At most one attempt
//! between two steps.
//!
//! Exact: each step's (extraordinary, success, failure) odds, the actor's
//! and each helper's, come from the exact basic-action solver; the clock is
//! an absorbing chain over (step, beats left, first able helper, beats
//! bought) solved by [`crate::exact::markov::absorb`].
//!
//! Monte Carlo plays the same rounds through the generic chain
//! (`sim::Chain::simulate`), each roll (the actor's or a helper's basic
//! action) one draw of extraordinary / success / failure from the alias
//! table of that action's exact odds (the roll's law), kept per clock
//! state with what follows it. (Its own sampler, the tables built per
//! step before the loop, drew the same draws and is gone: the chain
//! matched it, 0.93 ms against 1.06 ms for 16,384 actions in
//! `benches/chain.rs`, 2026-11-28.) With no helper able to buy time the
//! rounds are compiled without the buying branch.

mod buy_time;
#[cfg(test)]
mod tests;

pub use buy_time::{BuyTime, When as BuyWhen};

use super::basic::Basic;
use super::tables::Lazy;
use super::{
    ACTOR_AID, ACTOR_POOL, OPPOSITION_GANG, OPPOSITION_POOL, OPPOSITION_TROUBLE, Pool, RatingTie,
    Sides,
};
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, Rounds, parse_some, parse_value, play};
use crate::sim::Chain;
use crate::sim::Tally;
use crate::systems::{
    Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, ParamValue, Pred,
    Schema, Trial, Warning,
};

/// The most steps a timed action may have.
pub const MAX_STEPS: usize = 20;

/// The steps of a timed action as a scenario gives them.
#[derive(Debug)]
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

/// The most helpers a timed action may have.
pub const MAX_HELPERS: usize = 8;

/// The helpers' pools from the `helpers` value.
fn helper_pools(v: &ParamValue) -> Result<Vec<Pool>, String> {
    match v {
        ParamValue::List(items) if items.len() <= MAX_HELPERS => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                ParamValue::Str(s) => s
                    .parse::<Pool>()
                    .map_err(|e| format!("helper {} \"{s}\": {e}", i + 1)),
                other => Err(format!(
                    "helper {} is {}, not a pool",
                    i + 1,
                    other.type_name()
                )),
            })
            .collect(),
        ParamValue::List(items) => Err(format!("{} helpers is out of range", items.len())),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

static PARAMS: [ParamSpec; 10] = [
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
    ParamSpec {
        path: "helpers",
        kind: ParamKind::Custom {
            expects: "a list of 0..=8 pools such as [\"d8 d6\", \"d6 d6\"]",
        },
        default: Lit::Absent,
        doc: "Helpers who may buy time, tried in this order; a helper that fails helps no more. Needs policy.buy_time (refused without it).",
    },
    ParamSpec {
        path: "policy.buy_time",
        kind: ParamKind::Custom {
            expects: "a list of rule tables { buy_time = true | false, when = { beats_at_most = n, steps_left_at_least = n } }, or { name = \"…\", rules = [ … ] }",
        },
        default: Lit::Absent,
        doc: "When a helper tries to buy time between two steps. Unset: never.",
    },
];

super::sides_params! {
    /// The parameters of `cortex.timed`, one field per path of [`PARAMS`].
    pub struct TimedParams {
        #[serde(deserialize_with = "steps")]
        steps: Steps,
        beats: i64,
        #[serde(rename = "variant.failure")]
        failure: AfterFailure,
        #[serde(default, deserialize_with = "helpers")]
        helpers: Option<Vec<Pool>>,
        /// Unset: no helper ever buys time.
        #[serde(
            rename = "policy.buy_time",
            default,
            deserialize_with = "buy_time_policy"
        )]
        buy_time: Option<BuyTime>,
    }
}

/// `steps`, read by [`steps_of`].
fn steps<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Steps, D::Error> {
    parse_value(d, steps_of)
}

/// `helpers`, read by [`helper_pools`].
fn helpers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<Pool>>, D::Error> {
    parse_some(d, helper_pools)
}

/// `policy.buy_time`, read by [`buy_time::parse`].
fn buy_time_policy<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<BuyTime>, D::Error> {
    parse_some(d, buy_time::parse)
}

crate::choice! {
    /// What follows a failed step (`variant.failure`).
    pub enum AfterFailure {
        /// The next step (the text).
        MoveOn = "move-on",
        /// The same step again.
        Repeat = "repeat",
    }
}

pub const FIELDS: usize = 6;
const BEATS_BOUGHT: usize = 4;
const COMPLICATION: usize = 5;
/// The index of a failure among [`Timed::moves`].
const FAILURE: usize = 2;

/// A fully checked timed action.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    /// Each step: a basic action against its own opposition.
    steps: Vec<Basic>,
    pub beats: i64,
    pub repeat: bool,
    /// Each helper's basic action against each step's opposition.
    helpers: Vec<Vec<Basic>>,
    pub buy_time: Option<BuyTime>,
    /// The [`odds`] of each step's roll, worked out on first use, for the
    /// solver and the sampler alike: the actor's in slots `0..steps`,
    /// helper `h`'s after `(1 + h) × steps`.
    odds: Lazy<[f64; 3]>,
}

/// The odds of a basic action's (extraordinary success, success,
/// failure), each roll of the clock.
fn odds(basic: &Basic) -> [f64; 3] {
    let (extra, win) = basic.success_odds();
    [extra, win - extra, 1.0 - win]
}

impl Timed {
    /// Steps against `oppositions` (each with the gang of `sides`).
    pub fn new(sides: &Sides, oppositions: &[Pool], beats: i64, repeat: bool) -> Timed {
        let steps: Vec<Basic> = oppositions
            .iter()
            .map(|o| {
                let s = Sides {
                    opposition: o.clone(),
                    ..sides.clone()
                };
                Basic::new(s, RatingTie::Larger, false)
            })
            .collect();
        Timed {
            odds: Lazy::new(steps.len()),
            steps,
            beats,
            repeat,
            helpers: Vec::new(),
            buy_time: None,
        }
    }

    /// The same action with these helpers buying time by `policy`.
    pub fn with_helpers(mut self, helpers: &[Pool], policy: Option<BuyTime>) -> Timed {
        self.helpers = helpers
            .iter()
            .map(|h| {
                self.steps
                    .iter()
                    .map(|s| {
                        let sides = Sides {
                            actor: h.clone(),
                            aid: None,
                            ..s.sides.clone()
                        };
                        Basic::new(sides, RatingTie::Larger, false)
                    })
                    .collect()
            })
            .collect();
        let slots = self.steps.len() * (1 + self.helpers.len());
        self.odds = Lazy::new(slots);
        self.buy_time = policy;
        self
    }

    /// Whether a helper tries to buy time before step `next` (a step was
    /// just passed) with `beats` left and helper `h` the first still able.
    #[inline]
    fn buys(&self, next: usize, beats: i64, h: usize) -> bool {
        h < self.helpers.len()
            && next > 0
            && next < self.steps.len()
            && self
                .buy_time
                .as_ref()
                .is_some_and(|p| buy_time::buys(p, beats, (self.steps.len() - next) as i64))
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
        let completed = !out_of_time && step == self.steps.len();
        if !out_of_time && !completed {
            return None;
        }
        let mut o = [0; FIELDS];
        o[0] = completed as i64;
        o[1] = beats;
        o[2] = rolls;
        o[3] = (completed && beats >= 1) as i64;
        // "You also take a Complication from the GM."
        o[COMPLICATION] = out_of_time as i64;
        Some(o)
    }

    /// Exact marginals.
    pub fn exact(&self) -> Option<Marginals> {
        Some(solve(&self.rounds(), FIELDS, Limits::default())?.marginals)
    }

    /// The action's rounds, for the solver and the generic chain
    /// (`benches/chain.rs`).
    pub fn rounds(&self) -> TimedRounds<'_> {
        TimedRounds { timed: self }
    }

    /// Whether a helper may ever buy time: otherwise the sampler's loop
    /// is compiled without the buying branch.
    fn helped(&self) -> bool {
        !self.helpers.is_empty() && self.buy_time.is_some()
    }

    /// One timed action.
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; FIELDS] {
        play(&self.rounds(), rng)
    }
}

/// Where a timed action stands between rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clock {
    /// The step to roll next (from 0).
    pub step: usize,
    pub beats: i64,
    /// The first helper still able to buy time.
    pub helper: usize,
    pub bought: i64,
    /// A helper rolls to buy time before `step`.
    pub buying: bool,
}

impl Clock {
    /// This clock in one word (for [`Rounds::pack`]), 15 bits a count.
    #[inline]
    fn pack(&self) -> Option<u64> {
        crate::model::pack_fields(&[
            (self.step as i64, 15),
            (self.beats, 15),
            (self.helper as i64, 15),
            (self.bought, 15),
            (self.buying as i64, 2),
        ])
    }
}

/// A timed action as rounds of one actor roll each, with a helper's roll
/// to buy time after it when the policy says so: every roll is an
/// extraordinary success (0), a success (1) or a failure ([`FAILURE`]).
/// Its law is the step's [`odds`]. `HELPS = false` says no helper ever
/// buys time (the sampler's loop without that branch).
pub struct TimedRounds<'a, const HELPS: bool = true> {
    timed: &'a Timed,
}

impl<const HELPS: bool> Rounds for TimedRounds<'_, HELPS> {
    type State = Clock;
    type Roll = usize;
    type Outcome = [i64; FIELDS];

    fn pack(&self, c: &Clock) -> Option<u64> {
        c.pack()
    }

    fn start(&self) -> Clock {
        Clock {
            step: 0,
            beats: self.timed.beats,
            helper: 0,
            bought: 0,
            buying: false,
        }
    }

    fn law(&self, _: usize, c: &Clock, out: &mut Vec<(usize, f64)>) {
        let t = self.timed;
        let (slot, basic) = if c.buying {
            let n = t.steps.len();
            ((1 + c.helper) * n + c.step, &t.helpers[c.helper][c.step])
        } else {
            (c.step, &t.steps[c.step])
        };
        out.extend(t.odds.get(slot, || odds(basic)).iter().copied().enumerate());
    }

    #[inline(always)]
    fn after(&self, round: usize, c: &Clock, &which: &usize) -> After<Clock, [i64; FIELDS]> {
        let t = self.timed;
        if HELPS && c.buying {
            // "with a success, they give you back one of the beats you've
            // lost. If they get an Extraordinary Success, it's two beats.
            // Failure means that Character can't help any more".
            let mut next = Clock {
                buying: false,
                ..*c
            };
            match which {
                FAILURE => next.helper += 1,
                _ => {
                    let back = if which == 0 { 2 } else { 1 };
                    next.beats += back;
                    next.bought += back;
                }
            }
            return After::Round(next);
        }
        let (step, beats) = t.moves(c.step, c.beats)[which];
        if let Some(mut outcome) = t.stop(step, beats, round as i64, which == FAILURE) {
            outcome[BEATS_BOUGHT] = c.bought;
            return After::End(outcome);
        }
        let next = Clock {
            step,
            beats,
            buying: HELPS && step > c.step && t.buys(step, beats, c.helper),
            ..*c
        };
        if next.buying {
            After::Roll(next)
        } else {
            After::Round(next)
        }
    }
}

impl Trial for Timed {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        if self.helped() {
            let rounds = TimedRounds::<true> { timed: self };
            Chain::new(&rounds, FIELDS).simulate::<FIELDS>(rng, trials, tally);
        } else {
            let rounds = TimedRounds::<false> { timed: self };
            Chain::new(&rounds, FIELDS).simulate::<FIELDS>(rng, trials, tally);
        }
    }

    fn exact(&self) -> Option<Marginals> {
        Timed::exact(self)
    }
}

/// The mechanic `cortex.timed`.
pub struct TimedAction;

impl Define for TimedAction {
    type Params = TimedParams;
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
                FieldSpec::int(
                    "beats_bought",
                    "Beats the helpers gave back by buying time.",
                ),
                FieldSpec::bool(
                    "complication",
                    "Out of time deals the actor a complication (its rating is not modelled).",
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
                MetricSpec::mean(
                    "mean_beats_bought",
                    BEATS_BOUGHT,
                    "Mean beats bought back by helpers.",
                ),
            ],
        }
    }

    fn check(&self, p: &TimedParams) -> Result<Vec<Warning>, ParamError> {
        Sides::check(&p.opposition, &p.trouble)?;
        // Helpers act only when the policy says to buy time: without one
        // they would change nothing, silently. Refuse rather than guess a
        // policy, whose choice moves the numbers.
        if p.helpers.as_ref().is_some_and(|h| !h.is_empty()) && p.buy_time.is_none() {
            return Err(ParamError::new(
                "helpers",
                "helpers only act when `policy.buy_time` says when to buy time, and it is unset; \
                 set it too, e.g. \"policy.buy_time\" = [{ buy_time = true, when = { beats_at_most = 2 } }] \
                 (buy time when two beats or fewer are left), or leave `helpers` out",
            ));
        }
        Ok(Vec::new())
    }

    fn idle(&self, p: &TimedParams) -> Vec<&'static str> {
        Sides::idle(&p.opposition)
    }

    fn build(&self, p: TimedParams) -> Timed {
        let sides = Sides::new(p.actor, p.aid, p.opposition, p.trouble, p.gang);
        let helpers = p.helpers.unwrap_or_default();
        let policy = p.buy_time;
        let oppositions = match p.steps {
            Steps::Count(n) => vec![sides.opposition.clone(); n],
            Steps::Pools(pools) => pools,
        };
        Timed::new(
            &sides,
            &oppositions,
            p.beats,
            match p.failure {
                AfterFailure::MoveOn => false,
                AfterFailure::Repeat => true,
            },
        )
        .with_helpers(&helpers, policy)
    }
}
