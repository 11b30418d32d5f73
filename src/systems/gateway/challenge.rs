//! `gateway.challenge`: one challenge roll (rules §1.1).
//!
//! A challenge pits the actor's highest d8 plus bonuses against the
//! opposition's highest d8 plus bonuses; each raise the actor takes adds 2
//! to the opposition, and the actor succeeds on equal or better.

mod best;

pub use best::{Raises, RaisesChoice};

use super::packed;
use crate::dice::{D8, DiceRng};
use crate::exact::Counts;
use crate::model::Given;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Pred, Schema,
    Trial, Warning,
};

/// Trait relevance names and their dice (Table 1.1).
pub(super) const TRAIT_NAMES: &[(&str, i64)] = &[("full", 3), ("partial", 2), ("unrelated", 1)];
/// Variability names and their dice (Table 1.4).
const VARIABILITY_NAMES: &[(&str, i64)] = &[
    ("random", 1),
    ("variable", 2),
    ("consistent", 3),
    ("tough", 4),
];
/// Challenge level names (Table 1.3).
const CHALLENGE_NAMES: &[(&str, i64)] = &[
    ("easy", 0),
    ("moderate", 2),
    ("tricky", 4),
    ("difficult", 6),
    ("taxing", 8),
    ("impossible", 10),
];
crate::choice! {
    /// Background relevance (Table 1.2).
    pub enum Relevance {
        /// The level counts.
        Full = "full",
        /// The level counts but costs one forced raise.
        Partial = "partial",
        /// No background, no specialisation.
        None = "none",
    }
}

/// Points the opposition gains per raise.
pub const RAISE_STEP: i64 = 2;
/// Equipment counts up to this bonus.
pub const EQUIPMENT_CAP: i64 = 2;
/// Bonus a specialisation adds.
pub const SPECIALISATION_BONUS: i64 = 2;

/// The keys of one character (actor, or opposition as a character; the
/// two sides of a scene).
macro_rules! character_params {
    ($side:literal, $who:literal) => {
        [
            ParamSpec {
                path: concat!($side, ".trait"),
                kind: ParamKind::IntOrName { min: 1, max: 6, names: TRAIT_NAMES },
                default: Lit::Str("full"),
                doc: concat!("Trait dice of ", $who, ": relevance \"full\" (3), \"partial\" (2), \"unrelated\" (1), or a die count."),
            },
            ParamSpec {
                path: concat!($side, ".essence"),
                kind: ParamKind::Int { min: 0, max: 3 },
                default: Lit::Int(0),
                doc: "Essence points spent, +1 die each (the text shows one per roll; 0..=3 accepted).",
            },
            ParamSpec {
                path: concat!($side, ".background"),
                kind: ParamKind::Int { min: 0, max: 6 },
                default: Lit::Int(0),
                doc: "Background level added to the roll.",
            },
            ParamSpec {
                path: concat!($side, ".background_relevance"),
                kind: ParamKind::Choice(Relevance::NAMES),
                default: Lit::Str("full"),
                doc: "\"full\": level counts; \"partial\": level counts but costs one forced raise (+2 to the other side); \"none\": no background, no specialisation.",
            },
            ParamSpec {
                path: concat!($side, ".specialisation"),
                kind: ParamKind::Bool,
                default: Lit::Bool(false),
                doc: "+2 when a usable background (level ≥ 1, relevance not \"none\") is used.",
            },
            ParamSpec {
                path: concat!($side, ".equipment"),
                kind: ParamKind::Int { min: 0, max: 100 },
                default: Lit::Int(0),
                doc: "Applicable equipment traits, +1 each, capped at +2.",
            },
        ]
    };
}

const ACTOR: [ParamSpec; 6] = character_params!("actor", "the actor");
const OPPONENT: [ParamSpec; 6] = character_params!("opposition", "an opposing character");

static PARAMS: [ParamSpec; 18] = [
    ACTOR[0],
    ACTOR[1],
    ACTOR[2],
    ACTOR[3],
    ACTOR[4],
    ACTOR[5],
    ParamSpec {
        path: "actor.edge",
        kind: ParamKind::Int {
            min: -100,
            max: 100,
        },
        default: Lit::Int(0),
        doc: "The actor's signed edge on the tension line, added to its result.",
    },
    ParamSpec {
        path: "opposition.variability",
        kind: ParamKind::IntOrName {
            min: 1,
            max: 4,
            names: VARIABILITY_NAMES,
        },
        default: Lit::Int(2),
        doc: "Entity opposition: dice rolled, 1..=4 or \"random\", \"variable\", \"consistent\", \"tough\".",
    },
    ParamSpec {
        path: "opposition.challenge",
        kind: ParamKind::IntOrName {
            min: 0,
            max: 20,
            names: CHALLENGE_NAMES,
        },
        default: Lit::Int(0),
        doc: "Entity opposition: challenge level added to its roll (easy 0 … impossible 10).",
    },
    OPPONENT[0],
    OPPONENT[1],
    OPPONENT[2],
    OPPONENT[3],
    OPPONENT[4],
    OPPONENT[5],
    ParamSpec {
        path: "opposition.edge",
        kind: ParamKind::Int {
            min: -100,
            max: 100,
        },
        default: Lit::Int(0),
        doc: "The opposition's own edge, added to its result when the actor targets it.",
    },
    ParamSpec {
        path: "raises",
        kind: ParamKind::Int { min: 0, max: 10 },
        default: Lit::Int(0),
        doc: "Raises the actor chooses to take: +2 each to the opposition, banked on success.",
    },
    ParamSpec {
        path: "free_raises",
        kind: ParamKind::Int { min: 0, max: 100 },
        default: Lit::Int(0),
        doc: "Raises granted on success without raising the opposition.",
    },
];

/// The parameters of `gateway.challenge`, one field per path of
/// [`PARAMS`]. The opposition's character keys are [`Given`]: setting any
/// of them makes the opposition a character, not an entity.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeParams {
    #[serde(rename = "actor.trait")]
    pub actor_trait: i64,
    #[serde(rename = "actor.essence")]
    pub actor_essence: i64,
    #[serde(rename = "actor.background")]
    pub actor_background: i64,
    #[serde(rename = "actor.background_relevance")]
    pub actor_relevance: Relevance,
    #[serde(rename = "actor.specialisation")]
    pub actor_specialisation: bool,
    #[serde(rename = "actor.equipment")]
    pub actor_equipment: i64,
    #[serde(rename = "actor.edge")]
    pub actor_edge: i64,
    #[serde(rename = "opposition.variability")]
    pub variability: Given<i64>,
    #[serde(rename = "opposition.challenge")]
    pub challenge: Given<i64>,
    #[serde(rename = "opposition.trait")]
    pub opposition_trait: Given<i64>,
    #[serde(rename = "opposition.essence")]
    pub opposition_essence: Given<i64>,
    #[serde(rename = "opposition.background")]
    pub opposition_background: Given<i64>,
    #[serde(rename = "opposition.background_relevance")]
    pub opposition_relevance: Given<Relevance>,
    #[serde(rename = "opposition.specialisation")]
    pub opposition_specialisation: Given<bool>,
    #[serde(rename = "opposition.equipment")]
    pub opposition_equipment: Given<i64>,
    #[serde(rename = "opposition.edge")]
    pub opposition_edge: i64,
    pub raises: u32,
    pub free_raises: u32,
}

impl ChallengeParams {
    /// The actor's background keys.
    fn actor_background(&self) -> Background {
        Background {
            level: self.actor_background,
            relevance: self.actor_relevance,
            specialisation: self.actor_specialisation,
            equipment: self.actor_equipment,
        }
    }

    /// The opposition's background keys, as a character.
    fn opposition_background(&self) -> Background {
        Background {
            level: self.opposition_background.value,
            relevance: self.opposition_relevance.value,
            specialisation: self.opposition_specialisation.value,
            equipment: self.opposition_equipment.value,
        }
    }

    /// The first of the opposition's character keys the scenario set, if
    /// any: it makes the opposition a character, not an entity.
    fn character_key(&self) -> Option<&'static str> {
        [
            ("opposition.trait", self.opposition_trait.given),
            ("opposition.essence", self.opposition_essence.given),
            ("opposition.background", self.opposition_background.given),
            (
                "opposition.background_relevance",
                self.opposition_relevance.given,
            ),
            (
                "opposition.specialisation",
                self.opposition_specialisation.given,
            ),
            ("opposition.equipment", self.opposition_equipment.given),
        ]
        .into_iter()
        .find_map(|(key, given)| given.then_some(key))
    }
}

/// What a character's background, specialisation and equipment add to
/// its roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Background {
    pub level: i64,
    pub relevance: Relevance,
    pub specialisation: bool,
    pub equipment: i64,
}

/// One side's roll: highest of `dice` d8, plus `bonus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    pub dice: u32,
    pub bonus: i64,
}

impl Pool {
    /// Exact distribution of this side's result.
    pub fn counts(&self) -> Counts {
        Counts::keep_highest(self.dice, D8).shift(self.bonus)
    }

    /// The result when this pool's dice show `faces`: the highest face
    /// plus the bonus, the rule [`Contest::sample_margin`] draws and
    /// [`Pool::counts`] solves. For checking the rules on dice as a text
    /// shows them; `None` unless there is one face in 1..=8 per die.
    pub fn result(&self, faces: &[u32]) -> Option<i64> {
        let fits = faces.len() == self.dice as usize && faces.iter().all(|f| (1..=8).contains(f));
        let highest = faces.iter().copied().max().filter(|_| fits)?;
        Some(highest as i64 + self.bonus)
    }
}

/// A fully resolved challenge: both pools, with the raises already added to
/// the opposition's bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contest {
    pub actor: Pool,
    /// The opposition, including +2 for every chosen and forced raise.
    pub opposition: Pool,
    /// Raises banked on success: chosen plus free.
    pub banked: u32,
}

impl Contest {
    /// `actor` against `opposition` with `raises` chosen and `free_raises`
    /// granted (no background penalties).
    pub fn new(actor: Pool, opposition: Pool, raises: u32, free_raises: u32) -> Self {
        Contest {
            actor,
            opposition: Pool {
                dice: opposition.dice,
                bonus: opposition.bonus + RAISE_STEP * raises as i64,
            },
            banked: raises + free_raises,
        }
    }

    /// Exact distribution of the margin, actor − opposition, over all
    /// 8^(dice) equally likely rolls.
    pub fn margin_counts(&self) -> Counts {
        self.actor.counts().minus(&self.opposition.counts())
    }

    /// `(successful rolls, all rolls)`: the exact P(success) as a fraction.
    pub fn success_fraction(&self) -> (u128, u128) {
        let m = self.margin_counts();
        let wins = m.iter().filter(|(v, _)| *v >= 0).map(|(_, w)| w).sum();
        (wins, m.total())
    }

    /// One challenge's margin, actor − opposition; the margin decides the
    /// whole outcome (see [`Contest::outcome`]).
    #[inline(always)]
    pub fn sample_margin(&self, rng: &mut DiceRng) -> i64 {
        let a = rng.d8_keep_highest(self.actor.dice) as i64 + self.actor.bonus;
        let o = rng.d8_keep_highest(self.opposition.dice) as i64 + self.opposition.bonus;
        a - o
    }

    /// The outcome fields `[success, margin, raises_banked]` of a margin:
    /// success on equal or better, raises banked only on success.
    #[inline(always)]
    pub fn outcome(&self, margin: i64) -> [i64; 3] {
        let success = margin >= 0;
        [
            success as i64,
            margin,
            if success { self.banked as i64 } else { 0 },
        ]
    }

    /// One challenge: `[success, margin, raises_banked]`.
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; 3] {
        self.outcome(self.sample_margin(rng))
    }

    /// Exact marginals of the three outcome fields.
    pub fn exact(&self) -> Marginals {
        let mut out = Marginals::new(3);
        for (margin, p) in self.margin_counts().probabilities() {
            out.add_outcome(&self.outcome(margin), p);
        }
        out
    }
}

impl Trial for Contest {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let c = *self;
        let (a, o) = (c.actor.dice, c.opposition.dice);
        if !packed::fits(a, o) {
            tally.record_keyed(rng, trials, |rng| c.sample_margin(rng), |m| c.outcome(m));
            return;
        }
        // Pools of up to four dice a side, where the engine spends its
        // time: whole contests per word, raw margins counted (see
        // `packed`), bonuses added once per key.
        let counts = packed::count_margins(rng, trials, a, o);
        let bonus = c.actor.bonus - c.opposition.bonus;
        tally.add_key_counts(&counts, |k| {
            c.outcome(k as i64 + packed::KEY_OFFSET + bonus)
        });
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Contest::exact(self))
    }
}

/// A character's pool of `dice` d8 and its forced raises, from its
/// background, specialisation and equipment.
pub(super) fn character_pool(b: Background, dice: i64) -> (Pool, u32) {
    let (counts, costs_a_raise) = match b.relevance {
        Relevance::Full => (true, false),
        Relevance::Partial => (true, true),
        Relevance::None => (false, false),
    };
    // A level-0 background is no background: nothing to use, so no forced
    // raise and no specialisation either.
    let usable = counts && b.level > 0;
    let mut bonus = if usable { b.level } else { 0 };
    if usable && b.specialisation {
        bonus += SPECIALISATION_BONUS;
    }
    bonus += b.equipment.min(EQUIPMENT_CAP);
    let forced = u32::from(usable && costs_a_raise);
    (
        Pool {
            dice: dice as u32,
            bonus,
        },
        forced,
    )
}

/// The mechanic `gateway.challenge` (rules §1.1).
pub struct Challenge;

impl Define for Challenge {
    type Params = ChallengeParams;
    type Trial = Contest;
    const NAME: &'static str = "gateway.challenge";
    const SUMMARY: &'static str = "One challenge roll: highest d8 of the actor's pool + bonuses against the opposition's, +2 per raise; success on equal or better.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool("success", "The actor equals or beats the opposition."),
                FieldSpec::int(
                    "margin",
                    "Actor result − opposition result (raises included).",
                ),
                FieldSpec::int(
                    "raises_banked",
                    "Chosen plus free raises on success; 0 on failure.",
                ),
            ],
            metrics: vec![
                MetricSpec::prob("p_success", 0, Pred::Eq(1), "Probability of success."),
                MetricSpec::mean(
                    "expected_raises",
                    2,
                    "Mean raises banked: (raises + free) × P(success).",
                ),
            ],
        }
    }

    /// The contest a set of scenario values describes.
    /// The opposition is an entity or a character, not both.
    fn check(&self, p: &ChallengeParams) -> Result<Vec<Warning>, ParamError> {
        if let Some(ck) = p.character_key() {
            for (entity_key, given) in [
                ("opposition.variability", p.variability.given),
                ("opposition.challenge", p.challenge.given),
            ] {
                if given {
                    return Err(ParamError::new(
                        entity_key,
                        format!(
                            "the opposition is either an entity (variability, challenge) or a character (`{ck}` is set), not both"
                        ),
                    ));
                }
            }
        }
        Ok(Vec::new())
    }

    /// An entity's keys beside a character, a character's beside an entity.
    fn idle(&self, p: &ChallengeParams) -> Vec<&'static str> {
        match p.character_key() {
            Some(_) => vec!["opposition.variability", "opposition.challenge"],
            None => vec![
                "opposition.trait",
                "opposition.essence",
                "opposition.background",
                "opposition.background_relevance",
                "opposition.specialisation",
                "opposition.equipment",
            ],
        }
    }

    fn build(&self, p: ChallengeParams) -> Contest {
        let (mut actor, forced) =
            character_pool(p.actor_background(), p.actor_trait + p.actor_essence);
        actor.bonus += p.actor_edge;
        let mut opposition = match p.character_key() {
            Some(_) => {
                let dice = p.opposition_trait.value + p.opposition_essence.value;
                let (pool, its_forced) = character_pool(p.opposition_background(), dice);
                // Reading: a character's partially relevant background costs it
                // the same 2 points a forced raise costs the actor.
                Pool {
                    dice: pool.dice,
                    bonus: pool.bonus - RAISE_STEP * its_forced as i64,
                }
            }
            None => Pool {
                dice: p.variability.value as u32,
                bonus: p.challenge.value,
            },
        };
        opposition.bonus += p.opposition_edge;
        let mut contest = Contest::new(actor, opposition, p.raises, p.free_raises);
        // The forced raise adds to the opposition but is never banked.
        contest.opposition.bonus += RAISE_STEP * forced as i64;
        contest
    }
}

#[cfg(test)]
mod tests;
