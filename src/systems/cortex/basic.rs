//! `cortex.basic`: one basic action (rules §2.2). The opposition rolls
//! to set the stakes, the actor must beat them; the loser takes a
//! complication (margin 1..=4) or trauma (5+), rated by re-rolling the
//! winner's pool minus its 1s.
//!
//! Exact: each side's roll law comes from the (highest, second highest)
//! dynamic program in [`super::roll`], so two 20-die pools cost a few
//! thousand small vector operations, never 12^40 rolls.
//!
//! Monte Carlo draws each action's whole outcome from a table of them
//! ([`table`]), built once per model on its first run.

mod table;

use std::sync::{Arc, OnceLock};

use self::table::OutcomeTable;
use super::roll::{RollLaw, Rolled, best_die_law, ones_law, roll_best_die};
use super::{
    ACTOR_AID, ACTOR_POOL, FINAL_PUSH, FinalPush, KNOCKOUT, OPPOSITION_GANG, OPPOSITION_POOL,
    OPPOSITION_TROUBLE, RATING_TIE, RatingTie, Sides, TIE, TieRule, fate_fields, fate_with,
    pool::SIZES, trauma,
};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Define, FieldSpec, MetricSpec, ParamError, ParamSpec, Pred, Schema, Trial, Warning,
};

static PARAMS: [ParamSpec; 8] = [
    ACTOR_POOL,
    ACTOR_AID,
    OPPOSITION_POOL,
    OPPOSITION_TROUBLE,
    OPPOSITION_GANG,
    RATING_TIE,
    TIE,
    FINAL_PUSH,
];

super::sides_params! {
    /// The parameters of `cortex.basic`, one field per path of [`PARAMS`].
    pub struct BasicParams {
        #[serde(rename = "variant.rating_tie")]
        pub rating_tie: RatingTie,
        #[serde(rename = "variant.tie")]
        pub tie: TieRule,
        #[serde(rename = "policy.final_push")]
        pub final_push: FinalPush,
    }
}

/// Field positions.
const WIN: usize = 0;
const MARGIN: usize = 1;
const EXTRAORDINARY: usize = 2;
const TAKES: usize = 3;
const RATING: usize = 4;
const JINXES: usize = 5;
const PUSH_STEPS: usize = 6;
const TRAUMA: usize = 7;
const FIELDS: usize = 8;

/// How one pair of totals ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub win: bool,
    /// Winner's total − loser's total (≥ 0), after any final push.
    pub margin: i64,
    pub extraordinary: bool,
    pub takes: i64,
    pub push_steps: i64,
}

impl Resolved {
    /// The margin from the actor's side, as the `margin` field reports it:
    /// positive when the actor wins, negative when it loses.
    pub fn signed_margin(&self) -> i64 {
        if self.win { self.margin } else { -self.margin }
    }
}

/// A fully checked basic action.
#[derive(Clone, Debug, PartialEq)]
pub struct Basic {
    pub sides: Sides,
    pub tie: RatingTie,
    /// The actor pushes until safe when facing trauma.
    pub push: bool,
    /// A tie deals a complication (`variant.tie`).
    pub tie_deals: bool,
    actor: Vec<u32>,
    aid: Option<Vec<u32>>,
    opposition: Vec<u32>,
    table: TableCache,
}

/// The outcome table, worked out on a model's first Monte Carlo run and
/// shared by its clones. A cache, not part of the action: two actions are
/// equal whether or not either has built it.
#[derive(Clone, Debug, Default)]
struct TableCache(Arc<OnceLock<Option<OutcomeTable>>>);

impl PartialEq for TableCache {
    fn eq(&self, _: &TableCache) -> bool {
        true
    }
}

/// The fields of one action: `r` judged, `rating` the loser's (0 when it
/// takes nothing), `ones` the actor's 1s.
#[inline]
fn fields(r: &Resolved, rating: u32, ones: u32) -> [i64; FIELDS] {
    [
        r.win as i64,
        r.signed_margin(),
        r.extraordinary as i64,
        r.takes,
        rating as i64,
        ones as i64,
        r.push_steps,
        trauma(r.win, r.takes),
    ]
}

impl Basic {
    /// A basic action between `sides`.
    pub fn new(sides: Sides, tie: RatingTie, push: bool) -> Basic {
        Basic {
            actor: sides.actor.dice().to_vec(),
            aid: sides.aid.as_ref().map(|p| p.dice().to_vec()),
            opposition: sides.opposition_with(sides.gang.len()).dice().to_vec(),
            sides,
            tie,
            push,
            tie_deals: false,
            table: TableCache::default(),
        }
    }

    /// The same action where a tie deals a complication when `on`.
    pub fn tie_complication(mut self, on: bool) -> Basic {
        self.tie_deals = on;
        self.table = TableCache::default();
        self
    }

    /// The outcome table, if this action fits one.
    fn table(&self) -> Option<&OutcomeTable> {
        self.table
            .0
            .get_or_init(|| OutcomeTable::new(self))
            .as_ref()
    }

    /// The rule: the actor wins on a total above the stakes; the loser's
    /// fate by the margin.
    #[inline]
    pub fn resolve(&self, actor: i64, stakes: i64) -> Resolved {
        let win = actor > stakes;
        let (margin, takes, push_steps) =
            fate_with((actor - stakes).abs(), !win && self.push, self.tie_deals);
        Resolved {
            win,
            margin,
            extraordinary: win && margin >= KNOCKOUT,
            takes,
            push_steps,
        }
    }

    /// The exact law of the actor's total (helper's die included).
    pub fn actor_law(&self) -> RollLaw {
        let own = RollLaw::shared(&self.actor, self.tie);
        match &self.aid {
            Some(h) => own.plus(&best_die_law(h)),
            None => RollLaw::clone(&own),
        }
    }

    /// The exact law of the stakes.
    pub fn opposition_law(&self) -> RollLaw {
        RollLaw::clone(&RollLaw::shared(&self.opposition, self.tie))
    }

    /// `(P(extraordinary success), P(success))` exactly.
    pub fn success_odds(&self) -> (f64, f64) {
        let (a, o) = (self.actor_law(), self.opposition_law());
        let (mut extra, mut win) = (0.0, 0.0);
        for (t, &pa) in a.total.iter().enumerate() {
            win += pa * o.below(t);
            extra += pa * o.below((t + 1).saturating_sub(KNOCKOUT as usize));
        }
        (extra, win)
    }

    /// Exact marginals of every outcome field.
    pub fn exact(&self) -> Marginals {
        let (a, o) = (self.actor_law(), self.opposition_law());
        let mut m = Marginals::new(FIELDS);
        for (t, &pa) in a.total.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            for (u, &po) in o.total.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                let r = self.resolve(t as i64, u as i64);
                let p = pa * po;
                m.add(WIN, r.win as i64, p);
                m.add(MARGIN, r.signed_margin(), p);
                m.add(EXTRAORDINARY, r.extraordinary as i64, p);
                m.add(TAKES, r.takes, p);
                m.add(PUSH_STEPS, r.push_steps, p);
                m.add(TRAUMA, trauma(r.win, r.takes), p);
                // The rating comes from the winner's roll, so it is split by
                // the winner's rating law at its total.
                if r.takes == 0 {
                    m.add(RATING, 0, p);
                } else {
                    for (k, &size) in SIZES.iter().enumerate() {
                        let q = if r.win {
                            a.rating[t][k] * po
                        } else {
                            pa * o.rating[u][k]
                        };
                        m.add(RATING, size as i64, q);
                    }
                }
            }
        }
        for (k, &p) in ones_law(&self.actor).iter().enumerate() {
            m.add(JINXES, k as i64, p);
        }
        m
    }

    /// One action.
    #[inline]
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; FIELDS] {
        let a = Rolled::roll(rng, &self.actor);
        let help = self.aid.as_ref().map_or(0, |h| roll_best_die(rng, h));
        let o = Rolled::roll(rng, &self.opposition);
        let r = self.resolve(a.total + help, o.total);
        let rating = match (r.takes, r.win) {
            (0, _) => 0,
            (_, true) => a.rate(rng, self.tie),
            (_, false) => o.rate(rng, self.tie),
        };
        fields(&r, rating, a.ones)
    }
}

impl Trial for Basic {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        if let Some(table) = self.table() {
            let counts = table.count(rng, trials);
            tally.add_key_counts(&counts, |k| table.outcome(k));
            return;
        }
        tally.record_trials(rng, trials, |rng| self.sample(rng));
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Basic::exact(self))
    }
}

/// The mechanic `cortex.basic`.
pub struct BasicAction;

impl Define for BasicAction {
    type Params = BasicParams;
    type Trial = Basic;
    const NAME: &'static str = "cortex.basic";
    const SUMMARY: &'static str = "One basic action: two highest non-1 dice against stakes the opposition rolls; ties to the opposition; complications and trauma rated by a re-roll.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let [takes, rating, trauma] = fate_fields();
        Schema {
            fields: vec![
                FieldSpec::bool(
                    "win",
                    "The actor beats the stakes (a tie goes to the opposition).",
                ),
                FieldSpec::int(
                    "margin",
                    "The actor's total − the stakes, after any final push: positive when the actor wins, negative when it loses (|margin| is the winner's lead).",
                ),
                FieldSpec::bool("extraordinary", "The actor wins by 5 or more."),
                takes,
                rating,
                FieldSpec::int("jinxes", "Dice of the actor's pool that showed 1."),
                FieldSpec::int(
                    "push_steps",
                    "Trait steps the actor gave up in a final push.",
                ),
                trauma,
            ],
            metrics: vec![
                MetricSpec::prob("p_win", WIN, Pred::Eq(1), "Probability the actor wins."),
                MetricSpec::prob(
                    "p_extraordinary",
                    EXTRAORDINARY,
                    Pred::Eq(1),
                    "Probability of an extraordinary success.",
                ),
                MetricSpec::prob(
                    "p_trauma_dealt",
                    TRAUMA,
                    Pred::Eq(1),
                    "Probability the actor knocks the opposition out (trauma).",
                ),
                MetricSpec::prob(
                    "p_trauma_taken",
                    TRAUMA,
                    Pred::Eq(2),
                    "Probability the actor is knocked out (trauma).",
                ),
                MetricSpec::mean("mean_jinxes", JINXES, "Mean number of 1s the actor rolls."),
            ],
        }
    }

    fn check(&self, p: &BasicParams) -> Result<Vec<Warning>, ParamError> {
        Sides::check(&p.opposition, &p.trouble)?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &BasicParams) -> Vec<&'static str> {
        Sides::idle(&p.opposition)
    }

    fn build(&self, p: BasicParams) -> Basic {
        let sides = Sides::new(p.actor, p.aid, p.opposition, p.trouble, p.gang);
        Basic::new(sides, p.rating_tie, p.final_push.pushes()).tie_complication(p.tie.deals())
    }
}
