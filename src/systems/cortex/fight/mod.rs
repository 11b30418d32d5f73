//! `cortex.fight`: complications over a scene (rules §2.5). The actor
//! and the opposition repeat basic or contested actions (`kind`) until one
//! side is taken out. Complications stack (a new one no larger than the
//! old steps it up a size; one past d12 knocks out with trauma), a loss by
//! 5 or more knocks out with trauma at once, and more trauma on a d12
//! trauma is death. Each side's complication die joins the **opponent's**
//! pool on later rolls. The actor may give in before it rolls (policy),
//! free before its first roll, else for a d6 complication or a plot point;
//! an aider takes a complication each action its side loses.
//!
//! Each roll of a total is one round of [`Rounds`]; the rating re-roll is
//! a second roll within it. The state between rounds is (both
//! complication ratings, actions done, the aider's complications, whether
//! the actor has rolled, whose turn against which stakes), a few thousand
//! states at most, so the exact chain is always offered (`solve` gives up,
//! and Monte Carlo alone answers, past its limits).
//!
//! Monte Carlo plays the same rounds, each roll one draw of (total,
//! rating) from the table of the pool as it stands ([`super::tables`]),
//! built on first use for each complication die the pool can hold.
//!
//! Gang dice stay in the opposition's pool for the whole fight (the
//! contested action's knocking out of gang dice is not carried over).

mod give_in;
mod rounds;
#[cfg(test)]
mod tests;

pub use give_in::{GiveIn, Price, View, When};
pub use rounds::FightRounds;

use super::roll::{RollLaw, best_die_law};
use super::tables::{Drawn, Lazy, RollTable};
use super::{
    ACTOR_AID, ACTOR_POOL, OPPOSITION_GANG, OPPOSITION_POOL, OPPOSITION_TROUBLE, RATING_TIE,
    RatingTie, Sides, TIE, TieRule,
};
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, parse_some, play};
use crate::systems::{Choice, Lit, ParamKind, ParamSpec};

/// Ratings a complication or trauma may have, 0 for none.
const RATINGS: [u32; 6] = [0, 4, 6, 8, 10, 12];

crate::choice! {
    /// Each action of the fight (`kind`).
    pub enum Kind {
        /// The opposition sets the stakes, the actor must beat them.
        Basic = "basic",
        /// The sides raise the stakes in turn until one fails.
        Contested = "contested",
    }
}

crate::choice! {
    /// Trauma a side brings into the fight.
    pub enum Trauma {
        None = "none",
        D4 = "d4",
        D6 = "d6",
        D8 = "d8",
        D10 = "d10",
        D12 = "d12",
    }
}

impl Trauma {
    /// The rating, 0 for none.
    fn rating(self) -> u32 {
        RATINGS[Trauma::NAMES
            .iter()
            .position(|n| *n == self.name())
            .expect("a listed name")]
    }
}
/// A price of giving in: a complication of this size.
pub const GIVE_IN_RATING: u32 = 6;

static PARAMS: [ParamSpec; 12] = [
    ACTOR_POOL,
    ACTOR_AID,
    OPPOSITION_POOL,
    OPPOSITION_TROUBLE,
    OPPOSITION_GANG,
    RATING_TIE,
    TIE,
    ParamSpec {
        path: "kind",
        kind: ParamKind::Choice(Kind::NAMES),
        default: Lit::Str("basic"),
        doc: "Each action of the fight: a basic action (the opposition sets the stakes, the actor must beat them) or a contested action (the opposition sets the stakes, then the sides raise them in turn until one fails).",
    },
    ParamSpec {
        path: "actor.trauma",
        kind: ParamKind::Choice(Trauma::NAMES),
        default: Lit::Str("none"),
        doc: "Trauma the actor brings into the fight; more trauma on a d12 trauma is death.",
    },
    ParamSpec {
        path: "opposition.trauma",
        kind: ParamKind::Choice(Trauma::NAMES),
        default: Lit::Str("none"),
        doc: "Trauma the opposition brings into the fight.",
    },
    ParamSpec {
        path: "policy.give_in",
        kind: ParamKind::Custom {
            expects: "a list of rule tables { give_in = \"complication\" | \"plot-point\", when = { stakes_at_least = n, out_of_reach_by_more_than = n, complication_at_least = n } }, or { name = \"…\", rules = [ … ] }",
        },
        default: Lit::Absent,
        doc: "When the actor gives in, before it rolls, and at which price (free before its first roll). Unset: never.",
    },
    ParamSpec {
        path: "max_actions",
        kind: ParamKind::Int { min: 1, max: 100 },
        default: Lit::Int(40),
        doc: "Actions after which the fight is called off with no winner (only reached when ties deal nothing).",
    },
];

super::sides_params! {
    /// The parameters of `cortex.fight`, one field per path of [`PARAMS`].
    pub struct FightParams {
        #[serde(rename = "variant.rating_tie")]
        pub rating_tie: RatingTie,
        #[serde(rename = "variant.tie")]
        pub tie: TieRule,
        pub kind: Kind,
        #[serde(rename = "actor.trauma")]
        pub actor_trauma: Trauma,
        #[serde(rename = "opposition.trauma")]
        pub opposition_trauma: Trauma,
        /// Unset: the actor never gives in.
        #[serde(
            rename = "policy.give_in",
            default,
            deserialize_with = "give_in_policy"
        )]
        pub give_in: Option<GiveIn>,
        pub max_actions: u32,
    }
}

/// `policy.give_in`, read by [`give_in::parse`].
fn give_in_policy<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<GiveIn>, D::Error> {
    parse_some(d, give_in::parse)
}

/// Field positions.
pub const WINNER: usize = 0;
pub const ACTIONS: usize = 1;
pub const ACTOR_COMPLICATION: usize = 2;
pub const OPPOSITION_COMPLICATION: usize = 3;
pub const TRAUMA: usize = 4;
pub const TRAUMA_RATING: usize = 5;
pub const DEAD: usize = 6;
pub const GAVE_IN: usize = 7;
pub const AIDER_COMPLICATIONS: usize = 8;
pub const FIELDS: usize = 9;

/// Labels of `winner`.
pub const WINNERS: [&str; 3] = ["actor", "opposition", "none"];
/// Labels of `dead`.
pub const DEAD_LABELS: [&str; 3] = ["none", "opposition", "actor"];

/// A complication (or trauma) of rating `r` on one of `cur` (0: none):
/// the new rating, or `None` when it steps past d12 (rules §2.5: "If
/// your opponent already has a higher rating for that Complication, it
/// increases by one step. If the selected Complication is already at d12,
/// your opponent is Knocked Out").
#[inline]
pub fn stack(cur: u32, r: u32) -> Option<u32> {
    if cur == 0 || r > cur {
        Some(r)
    } else if cur == 12 {
        None
    } else {
        Some(cur + 2)
    }
}

/// The position of `rating` in [`RATINGS`]: 0 for none, else the step
/// (d4 → 1 … d12 → 5), worked out rather than searched for, since the
/// sampler asks on every roll.
#[inline(always)]
fn index(rating: u32) -> usize {
    debug_assert!(RATINGS.contains(&rating), "ratings are step dice");
    (rating / 2).saturating_sub(1) as usize
}

/// A fully checked fight.
#[derive(Clone, Debug, PartialEq)]
pub struct Fight {
    pub kind: Kind,
    pub tie: RatingTie,
    pub tie_deals: bool,
    pub give_in: Option<GiveIn>,
    pub max_actions: u32,
    /// Trauma each side brings in (0: none).
    pub actor_trauma: u32,
    pub opposition_trauma: u32,
    aid: Option<Vec<u32>>,
    /// The actor's dice with the opposition's complication die, by its
    /// index in [`RATINGS`]; the opposition's with the actor's.
    actor: Vec<Vec<u32>>,
    opposition: Vec<Vec<u32>>,
    /// The highest total the actor can make, by the same index.
    reach: Vec<i64>,
    /// The sampler's roll tables: the actor's by the same index in slots
    /// `0..6`, the opposition's in `6..12`.
    tables: Lazy<RollTable>,
}

/// Where a fight stands between rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FightState {
    /// Complication ratings (0: none).
    pub actor: u32,
    pub opposition: u32,
    /// Actions finished.
    pub actions: u32,
    /// Complications the aider has taken.
    pub aider: u32,
    /// The actor has rolled in this fight (giving in is no longer free).
    pub rolled: bool,
    pub phase: Phase,
}

/// Within an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// The opposition (`opp`) or the actor rolls against `stakes` (−1:
    /// the opening roll that sets them). `setter` is the rating drawn
    /// with the roll that set them, kept by the sampler only, to rate from
    /// that very roll.
    Turn {
        opp: bool,
        stakes: i64,
        setter: Option<u32>,
    },
    /// The loser takes `takes` (1 a complication, 2 trauma), rated by
    /// re-rolling the winner's pool whose roll made `total` (`rating`: the
    /// rating drawn with that roll, for the sampler).
    Rate {
        actor_won: bool,
        takes: u8,
        total: i64,
        rating: Option<u32>,
    },
}

/// One roll of a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FightRoll {
    /// The actor gives in instead of rolling, at this price.
    GiveIn(Price),
    /// A side's total; the sampler also draws the rating its dice would
    /// give ([`super::tables`]).
    Total { total: i64, rating: Option<u32> },
    /// The die size rating a complication or trauma.
    Rating(u32),
}

impl Fight {
    pub fn new(sides: &Sides, kind: Kind, tie: RatingTie, tie_deals: bool) -> Fight {
        let opp = sides.opposition_with(sides.gang.len());
        let with = |dice: &[u32], r: u32| -> Vec<u32> {
            let mut v = dice.to_vec();
            if r > 0 {
                v.push(r);
            }
            v
        };
        let actor: Vec<Vec<u32>> = RATINGS
            .iter()
            .map(|&r| with(sides.actor.dice(), r))
            .collect();
        let aid_top = sides
            .aid
            .as_ref()
            .map_or(0, |p| p.dice().iter().copied().max().unwrap_or(0) as i64);
        let reach = actor
            .iter()
            .map(|d| {
                let mut s = d.clone();
                s.sort_unstable_by(|a, b| b.cmp(a));
                s.iter().take(2).sum::<u32>() as i64 + aid_top
            })
            .collect();
        Fight {
            kind,
            tie,
            tie_deals,
            give_in: None,
            max_actions: 40,
            actor_trauma: 0,
            opposition_trauma: 0,
            aid: sides.aid.as_ref().map(|p| p.dice().to_vec()),
            opposition: RATINGS.iter().map(|&r| with(opp.dice(), r)).collect(),
            actor,
            reach,
            tables: Lazy::new(2 * RATINGS.len()),
        }
    }

    /// The law of the actor's roll (its helper's die included) with the
    /// opposition's complication die of index `i`.
    fn actor_law(&self, i: usize) -> RollLaw {
        let own = RollLaw::shared(&self.actor[i], self.tie);
        match &self.aid {
            Some(h) => own.plus(&best_die_law(h)),
            None => RollLaw::clone(&own),
        }
    }

    /// The law of the opposition's roll with the actor's complication die
    /// of index `i`.
    fn opposition_law(&self, i: usize) -> RollLaw {
        RollLaw::clone(&RollLaw::shared(&self.opposition[i], self.tie))
    }

    /// One roll of the opposition (`opp`) or the actor in `s`, from the
    /// table of its pool as it stands.
    #[inline]
    fn draw(&self, opp: bool, s: &FightState, rng: &mut DiceRng) -> Drawn {
        let table = if opp {
            let i = index(s.actor);
            self.tables.get(RATINGS.len() + i, || {
                RollTable::new(&self.opposition_law(i))
            })
        } else {
            let i = index(s.opposition);
            self.tables.get(i, || RollTable::new(&self.actor_law(i)))
        };
        table.draw(rng)
    }

    /// Exact marginals, when the chain is small enough.
    pub fn exact(&self) -> Option<Marginals> {
        Some(solve(&FightRounds::solver(self), FIELDS, Limits::default())?.marginals)
    }

    /// One fight.
    #[inline]
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; FIELDS] {
        play(
            &FightRounds {
                fight: self,
                laws: None,
            },
            rng,
        )
    }

    /// The actor's choice before rolling against `stakes` in `s`.
    #[inline]
    fn gives_in(&self, s: &FightState, stakes: i64) -> Option<Price> {
        let policy = self.give_in.as_ref()?;
        View {
            stakes,
            reach: self.reach[index(s.opposition)],
            complication: s.actor as i64,
        }
        .choose(policy)
    }

    /// The outcome of a fight over in `s`, the current action counted.
    fn end(&self, s: &FightState, winner: usize) -> [i64; FIELDS] {
        let mut o = [0; FIELDS];
        o[WINNER] = winner as i64;
        o[ACTIONS] = s.actions as i64 + 1;
        o[ACTOR_COMPLICATION] = s.actor as i64;
        o[OPPOSITION_COMPLICATION] = s.opposition as i64;
        o[AIDER_COMPLICATIONS] = s.aider as i64;
        o
    }

    /// The outcome when the actor (`actor_out`) or the opposition is
    /// knocked out with trauma rated `r`.
    fn knocked_out(&self, s: &FightState, actor_out: bool, r: u32) -> [i64; FIELDS] {
        let mut o = self.end(s, if actor_out { 1 } else { 0 });
        let before = if actor_out {
            self.actor_trauma
        } else {
            self.opposition_trauma
        };
        o[TRAUMA] = if actor_out { 2 } else { 1 };
        o[TRAUMA_RATING] = stack(before, r).unwrap_or(12) as i64;
        // "If you are already at a d12 Trauma and you take more, you're
        // dead": stacking steps past d12 exactly then.
        if stack(before, r).is_none() {
            o[DEAD] = if actor_out { 2 } else { 1 };
        }
        o
    }

    /// The next action, or the end of the fight at the cap.
    fn next_action(&self, mut s: FightState) -> After<FightState, [i64; FIELDS]> {
        if s.actions + 1 >= self.max_actions {
            return After::End(self.end(&s, 2));
        }
        s.actions += 1;
        s.phase = Phase::Turn {
            opp: true,
            stakes: -1,
            setter: None,
        };
        After::Round(s)
    }
}

mod declare;
pub use declare::FightAction;
