//! `cortex.contested`: a contested action (rules §2.3). The initiator
//! rolls to set the stakes; the sides then alternate, each rolling its
//! whole pool and raising the stakes to its total if it beats them. The
//! first side that fails to beat the stakes loses, by the margin under the
//! last stakes. Each raise the actor makes against a gang knocks out one
//! gang die (two on a raise of 5+); the opposition's own pool is never
//! touched.
//!
//! Exact: an absorbing chain over (whose turn, stakes, gang dice left, the
//! actor's last total when a give-in policy needs it), solved by
//! [`crate::exact::markov::absorb`]. The stakes only rise, so it ends within
//! a few dozen rolls.
//!
//! Monte Carlo plays the same rounds, each roll one draw of (total,
//! rating) from its pool's table ([`super::tables`]). The rules of one
//! roll live in `rules`, shared with best play ([`best`]), which leaves
//! the actor's give-in open.

use super::roll::{RollLaw, best_die_law};
use super::tables::{Lazy, RollTable};
use super::{
    ACTOR_AID, ACTOR_POOL, FINAL_PUSH, FinalPush, KNOCKOUT, OPPOSITION_GANG, OPPOSITION_POOL,
    OPPOSITION_TROUBLE, PUSH, RATING_TIE, RatingTie, Sides, TIE, TieRule, fate_fields, fate_with,
    pool::SIZES, trauma,
};
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, ParamValue, Rounds, parse_some, play};
use crate::sim::Tally;
use crate::systems::{
    Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Pred, Schema,
    Trial, Warning,
};

pub mod best;
mod rules;

pub use rules::Laws;

static PARAMS: [ParamSpec; 11] = [
    ACTOR_POOL,
    ACTOR_AID,
    OPPOSITION_POOL,
    OPPOSITION_TROUBLE,
    OPPOSITION_GANG,
    RATING_TIE,
    TIE,
    FINAL_PUSH,
    ParamSpec {
        path: "initiator",
        kind: ParamKind::Choice(Initiator::NAMES),
        default: Lit::Str("actor"),
        doc: "The side that rolls first to set the stakes.",
    },
    ParamSpec {
        path: "policy.give_in",
        kind: ParamKind::Int { min: 0, max: 60 },
        default: Lit::Absent,
        doc: "Unset: the actor never gives in. N: on its turn, before rolling, the actor gives in when the stakes exceed its own last total (0 before its first roll) by more than N.",
    },
    ParamSpec {
        path: "policy.give_in_at",
        kind: ParamKind::Custom {
            expects: "stakes 0..=60, or a list of them by gang dice left (0, 1, 2 …; the last for more) such as [9, 8, 7]",
        },
        default: Lit::Absent,
        doc: "Unset: no limit. S: on its turn, before rolling, the actor gives in when the stakes are S or more (as well as by `policy.give_in`); a list: S by the gang dice still backing the opposition. The form best play writes.",
    },
];

super::sides_params! {
    /// The parameters of `cortex.contested`, one field per path of
    /// [`PARAMS`].
    pub struct ContestedParams {
        #[serde(rename = "variant.rating_tie")]
        pub rating_tie: RatingTie,
        #[serde(rename = "variant.tie")]
        pub tie: TieRule,
        #[serde(rename = "policy.final_push")]
        pub final_push: FinalPush,
        pub initiator: Initiator,
        /// Unset: the actor never gives in.
        #[serde(rename = "policy.give_in", default)]
        pub give_in: Option<i64>,
        /// Unset: no limit on the stakes.
        #[serde(rename = "policy.give_in_at", default, deserialize_with = "give_in_at")]
        pub give_in_at: Option<Vec<i64>>,
    }
}

crate::choice! {
    /// The side that rolls first to set the stakes.
    pub enum Initiator {
        Actor = "actor",
        Opposition = "opposition",
    }
}

const WIN: usize = 0;
const EXCHANGES: usize = 1;
const MARGIN: usize = 2;
const TAKES: usize = 3;
const RATING: usize = 4;
const GAVE_IN: usize = 5;
const PUSH_STEPS: usize = 6;
const TRAUMA: usize = 7;
pub const FIELDS: usize = 8;

/// Gang dice a raise of `by` over the stakes knocks out.
#[inline]
fn knocked(by: i64) -> usize {
    if by >= KNOCKOUT { 2 } else { 1 }
}

/// A fully checked contested action.
#[derive(Clone, Debug, PartialEq)]
pub struct Contested {
    pub sides: Sides,
    pub tie: RatingTie,
    pub push: bool,
    /// A tie deals a complication (`variant.tie`).
    pub tie_deals: bool,
    pub actor_first: bool,
    pub give_in: Option<i64>,
    /// The actor gives in facing stakes this high or higher, by gang
    /// dice left (the last entry for more).
    pub give_in_at: Option<Vec<i64>>,
    actor: Vec<u32>,
    aid: Option<Vec<u32>>,
    /// The opposition's dice with `g` gang dice left, for each g.
    opposition: Vec<Vec<u32>>,
    /// The sampler's roll tables: the actor's in slot 0, the opposition's
    /// with `g` gang dice left in slot `1 + g`.
    tables: Lazy<RollTable>,
}

/// Where a contest stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContestState {
    /// The opposition (`opp`) or the actor is to roll against `stakes`
    /// (−1 before the first roll), with `g` gang dice left and the actor's
    /// last total `last` (tracked only for a give-in policy). `setter` is
    /// the rating drawn with the roll that set the stakes, kept by the
    /// sampler only, to rate a complication from that very roll; the
    /// solver rates it from the setter's law given its total, so it never
    /// splits states.
    Roll {
        opp: bool,
        stakes: i64,
        g: usize,
        last: i64,
        setter: Option<u32>,
    },
    /// The roller (`opp` or the actor) failed to beat `stakes`: `outcome`
    /// waits for the rating of its complication or trauma.
    Rate {
        outcome: [i64; FIELDS],
        opp: bool,
        stakes: i64,
        g: usize,
        setter: Option<u32>,
    },
}

/// What one roll of a contest gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContestRoll {
    /// The actor gives in instead of rolling.
    GiveIn,
    /// A side's total; the sampler also draws the rating its dice would
    /// give ([`super::tables`]).
    Total { total: i64, rating: Option<u32> },
    /// The die size rating a complication or trauma.
    Rating(u32),
}

/// A contest with its roll laws: what the solver and the sampler run on.
pub struct ContestRounds<'a> {
    contest: &'a Contested,
    /// The actor's law (its helper's die included) and the opposition's
    /// with `g` gang dice left, for each g; empty for the sampler.
    laws: Option<Laws>,
    /// The sampler's roll tables, slot by slot as in [`Contested::tables`],
    /// looked up once for a run of trials; empty for the solver.
    tables: Vec<&'a RollTable>,
}

impl Contested {
    pub fn new(
        sides: Sides,
        tie: RatingTie,
        push: bool,
        actor_first: bool,
        give_in: Option<i64>,
    ) -> Contested {
        Contested {
            tables: Lazy::new(2 + sides.gang.len()),
            actor: sides.actor.dice().to_vec(),
            aid: sides.aid.as_ref().map(|p| p.dice().to_vec()),
            opposition: (0..=sides.gang.len())
                .map(|g| sides.opposition_with(g).dice().to_vec())
                .collect(),
            sides,
            tie,
            push,
            tie_deals: false,
            actor_first,
            give_in,
            give_in_at: None,
        }
    }

    /// The same contest where the actor also gives in facing stakes of
    /// `at[g]` or more with `g` gang dice left (the last entry for more).
    pub fn give_in_at(mut self, at: Option<Vec<i64>>) -> Contested {
        self.give_in_at = at;
        self
    }

    /// The same contest where a tie deals a complication when `on`.
    pub fn tie_complication(mut self, on: bool) -> Contested {
        self.tie_deals = on;
        self
    }

    /// The actor gives in facing `stakes` after its last total `last`,
    /// with `g` gang dice left.
    #[inline]
    fn gives_in(&self, stakes: i64, last: i64, g: usize) -> bool {
        stakes >= 0
            && (self.give_in.is_some_and(|th| stakes - last > th)
                || self
                    .give_in_at
                    .as_ref()
                    .is_some_and(|at| at.get(g).or(at.last()).is_some_and(|&at| stakes >= at)))
    }

    /// The outcome when the side that rolled `total` fails to beat
    /// `stakes` (rating filled in by the caller).
    #[inline]
    fn failed(&self, actor_failed: bool, stakes: i64, total: i64, rolls: i64) -> [i64; FIELDS] {
        let (margin, takes, steps) =
            fate_with(stakes - total, actor_failed && self.push, self.tie_deals);
        let mut o = [0; FIELDS];
        o[WIN] = !actor_failed as i64;
        o[EXCHANGES] = rolls;
        // From the actor's side, like Gateway's margin.
        o[MARGIN] = if actor_failed { -margin } else { margin };
        o[TAKES] = takes;
        o[PUSH_STEPS] = steps;
        o[TRAUMA] = trauma(!actor_failed, takes);
        o
    }

    fn gave_in(rolls: i64) -> [i64; FIELDS] {
        let mut o = [0; FIELDS];
        o[EXCHANGES] = rolls;
        o[GAVE_IN] = 1;
        o
    }

    /// The law of the actor's roll, its helper's die included.
    fn actor_law(&self) -> RollLaw {
        let own = RollLaw::of(&self.actor, self.tie);
        match &self.aid {
            Some(h) => own.plus(&best_die_law(h)),
            None => own,
        }
    }

    /// The sampler's rounds: every roll table, built on first use.
    fn sampler(&self) -> ContestRounds<'_> {
        let tables = (0..self.opposition.len() + 1)
            .map(|slot| match slot {
                0 => self.tables.get(0, || RollTable::new(&self.actor_law())),
                _ => self.tables.get(slot, || {
                    RollTable::new(&RollLaw::of(&self.opposition[slot - 1], self.tie))
                }),
            })
            .collect();
        ContestRounds {
            contest: self,
            laws: None,
            tables,
        }
    }

    /// The contest's rounds with every roll's law: what the solver and the
    /// generic chain run on (public for `benches/chain.rs`).
    pub fn solver(&self) -> ContestRounds<'_> {
        ContestRounds {
            contest: self,
            laws: Some(self.laws()),
            tables: Vec::new(),
        }
    }

    /// Every roll's law: the actor's and the opposition's with each
    /// number of gang dice left.
    pub fn laws(&self) -> Laws {
        let opposition: Vec<RollLaw> = self
            .opposition
            .iter()
            .map(|d| RollLaw::of(d, self.tie))
            .collect();
        (self.actor_law(), opposition)
    }

    /// Exact marginals, when the chain is small enough.
    pub fn exact(&self) -> Option<Marginals> {
        Some(solve(&self.solver(), FIELDS, Limits::default())?.marginals)
    }
}

impl ContestRounds<'_> {
    fn laws(&self) -> &Laws {
        self.laws.as_ref().expect("the solver has the roll laws")
    }
}

impl Rounds for ContestRounds<'_> {
    type State = ContestState;
    type Roll = ContestRoll;
    type Outcome = [i64; FIELDS];

    fn start(&self) -> ContestState {
        self.contest.start()
    }

    fn law(&self, _: usize, state: &ContestState, out: &mut Vec<(ContestRoll, f64)>) {
        self.contest.law_as(self.laws(), state, None, out);
    }

    /// A bespoke draw: total and rating at once from the side's joint
    /// table (the rating carried in the state for the failure that reads
    /// it), where the law draws the rating after the total. It pays: 3.7×
    /// the rate of `sim::Chain::simulate` of [`Contested::solver`] on the
    /// registry's example, one thread (`benches/chain.rs`, 2026-11-28:
    /// 0.61 ms against 2.28 ms for 16,384 contests). The chain is its
    /// oracle (the tests' `assert_chain_samples_as`).
    #[inline(always)]
    fn roll(&self, _: usize, state: &ContestState, rng: &mut DiceRng) -> ContestRoll {
        let c = self.contest;
        match *state {
            ContestState::Roll {
                opp,
                stakes,
                g,
                last,
                ..
            } => {
                if !opp && c.gives_in(stakes, last, g) {
                    return ContestRoll::GiveIn;
                }
                // The actor's table, or the opposition's with g gang dice.
                let d = self.tables[if opp { 1 + g } else { 0 }].draw(rng);
                ContestRoll::Total {
                    total: d.total,
                    rating: Some(d.rating),
                }
            }
            ContestState::Rate { setter, .. } => {
                ContestRoll::Rating(setter.expect("a failure follows a roll that set the stakes"))
            }
        }
    }

    #[inline(always)]
    fn after(
        &self,
        round: usize,
        state: &ContestState,
        roll: &ContestRoll,
    ) -> After<ContestState, [i64; FIELDS]> {
        self.contest.after_roll(round, state, roll)
    }
}

/// How a finished contest is counted by the sampler: one key of its
/// exchanges (most significant: the long tail), how it ended (the actor
/// failed, the opposition failed, the actor gave in), the margin under the
/// stakes before any final push and the rating's die size halved. The
/// other fields follow from these, so they are worked out once per key
/// ([`Keys::outcome`]) rather than once per trial.
struct Keys {
    /// Margins run `0..margins`: a failed total is at most the stakes,
    /// which are a total.
    margins: i64,
}

/// Die sizes halved (0 for none) run below this.
const HALF_SIZES: i64 = 7;

impl Keys {
    #[inline(always)]
    fn key(&self, o: &[i64; FIELDS]) -> i64 {
        let (how, margin) = match o[GAVE_IN] {
            1 => (2, 0),
            _ => (o[WIN], o[PUSH_STEPS] * PUSH + o[MARGIN].abs()),
        };
        ((o[EXCHANGES] * 3 + how) * self.margins + margin) * HALF_SIZES + o[RATING] / 2
    }

    fn outcome(&self, c: &Contested, key: i64) -> [i64; FIELDS] {
        let half_size = key % HALF_SIZES;
        let rest = key / HALF_SIZES;
        let (margin, rest) = (rest % self.margins, rest / self.margins);
        let (how, exchanges) = (rest % 3, rest / 3);
        if how == 2 {
            return Contested::gave_in(exchanges);
        }
        let mut o = c.failed(how == 0, margin, 0, exchanges);
        if o[TAKES] != 0 {
            o[RATING] = 2 * half_size;
        }
        o
    }
}

impl Trial for Contested {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let rounds = self.sampler();
        let keys = Keys {
            margins: 1 + rounds
                .tables
                .iter()
                .map(|t| t.max_total())
                .max()
                .unwrap_or(0),
        };
        tally.record_keyed(
            rng,
            trials,
            |rng| keys.key(&play(&rounds, rng)),
            |k| keys.outcome(self, k),
        );
    }

    fn exact(&self) -> Option<Marginals> {
        Contested::exact(self)
    }
}

/// `policy.give_in_at`: stakes, or a list of stakes by gang dice left.
fn give_in_at_of(v: &ParamValue) -> Result<Vec<i64>, String> {
    let stakes = |v: &ParamValue| match v {
        ParamValue::Int(n) if (0..=60).contains(n) => Ok(*n),
        ParamValue::Int(n) => Err(format!("stakes {n} is out of range 0..=60")),
        other => Err(format!("{} is the wrong type", other.type_name())),
    };
    match v {
        ParamValue::List(items) if (1..=21).contains(&items.len()) => {
            items.iter().map(stakes).collect()
        }
        ParamValue::List(items) => Err(format!("{} stakes is not 1..=21", items.len())),
        other => stakes(other).map(|n| vec![n]),
    }
}

fn give_in_at<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    parse_some(d, give_in_at_of)
}

/// The mechanic `cortex.contested`.
pub struct ContestedAction;

impl Define for ContestedAction {
    type Params = ContestedParams;
    type Trial = Contested;
    const NAME: &'static str = "cortex.contested";
    const SUMMARY: &'static str = "A contested action: sides alternate raising the stakes until one fails to beat them; ganging up, aiding, giving in, final push.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let [takes, rating, trauma] = fate_fields();
        Schema {
            fields: vec![
                FieldSpec::bool("win", "The actor wins the contest."),
                FieldSpec::int("exchanges", "Rolls made, the failing one included."),
                FieldSpec::int(
                    "margin",
                    "Last stakes − the failing total, after any final push, from the actor's side: positive when the opposition failed, negative when the actor did (0 on giving in).",
                ),
                takes,
                rating,
                FieldSpec::bool(
                    "gave_in",
                    "The actor gave in (no complication dealt by the roll).",
                ),
                FieldSpec::int(
                    "push_steps",
                    "Trait steps the actor gave up in a final push.",
                ),
                trauma,
            ],
            metrics: vec![
                MetricSpec::prob("p_win", WIN, Pred::Eq(1), "Probability the actor wins."),
                MetricSpec::prob(
                    "p_trauma_dealt",
                    TRAUMA,
                    Pred::Eq(1),
                    "Probability the actor knocks the opposition out.",
                ),
                MetricSpec::prob(
                    "p_trauma_taken",
                    TRAUMA,
                    Pred::Eq(2),
                    "Probability the actor is knocked out.",
                ),
                MetricSpec::mean("mean_exchanges", EXCHANGES, "Mean number of rolls."),
                MetricSpec::prob(
                    "p_gave_in",
                    GAVE_IN,
                    Pred::Eq(1),
                    "Probability the actor gives in.",
                ),
            ],
        }
    }

    fn check(&self, p: &ContestedParams) -> Result<Vec<Warning>, ParamError> {
        Sides::check(&p.opposition, &p.trouble)?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &ContestedParams) -> Vec<&'static str> {
        Sides::idle(&p.opposition)
    }

    fn build(&self, p: ContestedParams) -> Contested {
        Contested::new(
            Sides::new(p.actor, p.aid, p.opposition, p.trouble, p.gang),
            p.rating_tie,
            p.final_push.pushes(),
            match p.initiator {
                Initiator::Actor => true,
                Initiator::Opposition => false,
            },
            p.give_in,
        )
        .tie_complication(p.tie.deals())
        .give_in_at(p.give_in_at)
    }
}

#[cfg(test)]
mod tests;
