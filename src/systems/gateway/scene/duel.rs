//! `gateway.scene`: a drama duel, A against B on one tension line
//! (rules §1.2), exact by absorbing Markov chain within a state limit.
//!
//! A is the engine's PC 1 and B its key entity, so the duel and
//! `gateway.ensemble` share one round function; only the keys and the
//! outcome fields differ.

use super::engine::SceneRounds;
use super::entity::{
    AID_NAMES, Aid, Entity, EntityKeys, MAX_ESSENCE, MAX_PASSENGERS, ORDER_NAMES, Order,
    SPEND_NAMES, Spend, concat_params, entity, policy_of,
};
use super::rules::{POLICY_EXPECTS, Policy, shorthand_policy, toml_form};
use super::state::{
    Drama, F_LADDER, F_ROUNDS, F_WINNER, FIELDS, KEY, Outcome, Start, f_edge, f_essence,
};
use super::{Pick, TIE_NAMES, Tie, pick, project};
use crate::dice::DiceRng;
use crate::model::Given;
use crate::model::{Marginals, play};
use crate::sim::{Chain, Tally};
use crate::systems::gateway::challenge::{Relevance, TRAIT_NAMES};
use crate::systems::{
    CHECKED, Define, FieldKind, FieldSpec, Lit, MetricKind, MetricSpec, ParamError, ParamKind,
    ParamMap, ParamSpec, ParamValue, Pred, Schema, Trial, Warning,
};
use serde::Deserialize;

const A: [ParamSpec; 11] = entity_params!("a.", "side A");
const B: [ParamSpec; 11] = entity_params!("b.", "side B");

/// The old policy keys, kept as shorthands for a policy.
macro_rules! shorthand_params {
    ($p:literal) => {
        [
            ParamSpec {
                path: concat!($p, "edge_raises"),
                kind: ParamKind::Int { min: 0, max: 5 },
                default: Lit::Int(0),
                doc: "Shorthand (with climax, anticlimax) for a policy: raises on Edge actions. Not with policy.",
            },
            ParamSpec {
                path: concat!($p, "climax"),
                kind: ParamKind::Bool,
                default: Lit::Bool(true),
                doc: "Shorthand: attempt a Climax when allowed (false: never). Not with policy.",
            },
            ParamSpec {
                path: concat!($p, "anticlimax"),
                kind: ParamKind::Bool,
                default: Lit::Bool(true),
                doc: "Shorthand: attempt an Anticlimax when allowed (false: never). Not with policy.",
            },
        ]
    };
}

const A_SHORT: [ParamSpec; 3] = shorthand_params!("a.");
const B_SHORT: [ParamSpec; 3] = shorthand_params!("b.");

// Who holds the initiative in round 1.
crate::choice! {
    pub enum FirstHolder {
        A = "a",
        B = "b",
        Random = "random",
    }
}

const INITIATIVE: &[&str] = <FirstHolder as crate::systems::Choice>::NAMES;

const SCENE: [ParamSpec; 5] = [
    ParamSpec {
        path: "ladder",
        kind: ParamKind::Int { min: 0, max: 50 },
        default: Lit::Int(10),
        doc: "Starting score on the climax ladder; it drops by 1 at the end of every round unless a Press succeeds, and by every level accelerated; never below 0.",
    },
    ParamSpec {
        path: "start_edge",
        kind: ParamKind::Int { min: -50, max: 50 },
        default: Lit::Int(0),
        doc: "Starting edge, from A's side: positive means A has the edge.",
    },
    super::ROUND_CAP,
    ParamSpec {
        path: "initiative",
        kind: ParamKind::Choice(INITIATIVE),
        default: Lit::Str("a"),
        doc: "Who holds the initiative in round 1: \"a\", \"b\", or \"random\" (a fair coin).",
    },
    ParamSpec {
        path: "initiative_tie",
        kind: ParamKind::Choice(TIE_NAMES),
        default: Lit::Str("raises"),
        doc: "Equal successful effects give the initiative to the side that used more raises (\"raises\") or to the side with the edge (\"edge\", the side bar); then to the holder.",
    },
];

static PARAMS: [ParamSpec; 33] = concat_params(&[&A, &A_SHORT, &B, &B_SHORT, &SCENE]);

/// Values of the `winner` field (the engine's: A is its PC, B its key).
pub use super::state::{
    KEY_CLIMAX as B_CLIMAX, KEY_ESCAPE as B_ESCAPE, PCS_CLIMAX as A_CLIMAX, PCS_ESCAPE as A_ESCAPE,
    STALEMATE,
};
const WINNERS: [&str; 5] = ["a_climax", "b_climax", "a_escape", "b_escape", "stalemate"];

/// The duel's fields, read off the engine's outcome.
const PICKS: [Pick; 7] = [
    Pick::Field(F_WINNER),
    Pick::Field(F_ROUNDS),
    Pick::Field(f_edge(1)),
    Pick::Escaped,
    Pick::Field(F_LADDER),
    Pick::Field(f_essence(1)),
    Pick::Field(f_essence(KEY)),
];

/// The parameters of `gateway.scene`, one field per path of [`PARAMS`].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneParams {
    #[serde(rename = "a.trait")]
    pub a_trait_dice: i64,
    #[serde(rename = "a.background")]
    pub a_background: i64,
    #[serde(rename = "a.background_relevance")]
    pub a_background_relevance: Relevance,
    #[serde(rename = "a.specialisation")]
    pub a_specialisation: bool,
    #[serde(rename = "a.equipment")]
    pub a_equipment: i64,
    #[serde(rename = "a.essence")]
    pub a_essence: i64,
    #[serde(rename = "a.essence_policy")]
    pub a_essence_policy: Spend,
    #[serde(rename = "a.passengers")]
    pub a_passengers: i64,
    #[serde(rename = "a.aid")]
    pub a_aid: Aid,
    #[serde(rename = "a.initiative_order")]
    pub a_initiative_order: Order,
    #[serde(rename = "a.policy", default)]
    pub a_policy: Option<ParamValue>,
    #[serde(rename = "a.edge_raises")]
    pub a_edge_raises: Given<i64>,
    #[serde(rename = "a.climax")]
    pub a_climax: Given<bool>,
    #[serde(rename = "a.anticlimax")]
    pub a_anticlimax: Given<bool>,
    #[serde(rename = "b.trait")]
    pub b_trait_dice: i64,
    #[serde(rename = "b.background")]
    pub b_background: i64,
    #[serde(rename = "b.background_relevance")]
    pub b_background_relevance: Relevance,
    #[serde(rename = "b.specialisation")]
    pub b_specialisation: bool,
    #[serde(rename = "b.equipment")]
    pub b_equipment: i64,
    #[serde(rename = "b.essence")]
    pub b_essence: i64,
    #[serde(rename = "b.essence_policy")]
    pub b_essence_policy: Spend,
    #[serde(rename = "b.passengers")]
    pub b_passengers: i64,
    #[serde(rename = "b.aid")]
    pub b_aid: Aid,
    #[serde(rename = "b.initiative_order")]
    pub b_initiative_order: Order,
    #[serde(rename = "b.policy", default)]
    pub b_policy: Option<ParamValue>,
    #[serde(rename = "b.edge_raises")]
    pub b_edge_raises: Given<i64>,
    #[serde(rename = "b.climax")]
    pub b_climax: Given<bool>,
    #[serde(rename = "b.anticlimax")]
    pub b_anticlimax: Given<bool>,
    pub ladder: i64,
    pub start_edge: i64,
    pub round_cap: u32,
    pub initiative: FirstHolder,
    pub initiative_tie: Tie,
}

/// One side of the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    A,
    B,
}

/// One side's keys: its entity's, and the shorthands for its policy.
struct SideKeys {
    keys: EntityKeys,
    edge_raises: Given<i64>,
    climax: Given<bool>,
    anticlimax: Given<bool>,
}

impl SceneParams {
    fn side(&self, side: Side) -> SideKeys {
        match side {
            Side::A => SideKeys {
                keys: EntityKeys {
                    dice: self.a_trait_dice,
                    background: self.a_background,
                    background_relevance: self.a_background_relevance,
                    specialisation: self.a_specialisation,
                    equipment: self.a_equipment,
                    essence: self.a_essence,
                    essence_policy: self.a_essence_policy,
                    passengers: self.a_passengers,
                    aid: self.a_aid,
                    initiative_order: self.a_initiative_order,
                    policy: self.a_policy.clone(),
                },
                edge_raises: self.a_edge_raises,
                climax: self.a_climax,
                anticlimax: self.a_anticlimax,
            },
            Side::B => SideKeys {
                keys: EntityKeys {
                    dice: self.b_trait_dice,
                    background: self.b_background,
                    background_relevance: self.b_background_relevance,
                    specialisation: self.b_specialisation,
                    equipment: self.b_equipment,
                    essence: self.b_essence,
                    essence_policy: self.b_essence_policy,
                    passengers: self.b_passengers,
                    aid: self.b_aid,
                    initiative_order: self.b_initiative_order,
                    policy: self.b_policy.clone(),
                },
                edge_raises: self.b_edge_raises,
                climax: self.b_climax,
                anticlimax: self.b_anticlimax,
            },
        }
    }
}

/// Side `side`'s policy: `policy`, or the shorthands (the rules' (as modelled) default
/// when none is set); both at once is an error that shows the new form.
fn side_policy(p: &SideKeys, side: &str) -> Result<Policy, ParamError> {
    let key = |k: &str| format!("{side}.{k}");
    let shorthand = shorthand_policy(
        p.climax.value,
        p.anticlimax.value,
        p.edge_raises.value as u32,
    );
    match policy_of(&p.keys.policy, &key("policy"))? {
        None => Ok(shorthand),
        Some(policy) => match [
            ("edge_raises", p.edge_raises.given),
            ("climax", p.climax.given),
            ("anticlimax", p.anticlimax.given),
        ]
        .into_iter()
        .find_map(|(k, given)| given.then(|| key(k)))
        {
            None => Ok(policy),
            Some(k) => Err(ParamError::new(
                &k,
                format!(
                    "is a shorthand for a policy and {side}.policy is set too; keep one. The shorthands as set mean \"{side}.policy\" = {}",
                    toml_form(&shorthand)
                ),
            )),
        },
    }
}

/// Side `side` of the duel, as the engine's entity named after it.
fn side_entity(p: &SceneParams, side: Side) -> Result<Entity, ParamError> {
    let name = match side {
        Side::A => "a",
        Side::B => "b",
    };
    let keys = p.side(side);
    Ok(entity(&keys.keys, name, side_policy(&keys, name)?))
}

/// The duel a set of scenario values describes, as the engine's scene.
pub fn drama_from(p: &SceneParams) -> Result<Drama, ParamError> {
    let a = side_entity(p, Side::A)?;
    let b = side_entity(p, Side::B)?;
    let start = match p.initiative {
        FirstHolder::A => Start::Holder(1),
        FirstHolder::B => Start::Holder(KEY),
        FirstHolder::Random => Start::Coin,
    };
    Ok(Drama {
        entities: vec![b, a],
        ladder: p.ladder,
        start_edges: vec![0, p.start_edge],
        round_cap: p.round_cap,
        start,
        tie: p.initiative_tie,
    })
}

/// A checked duel: what the solver and the sampler run on.
pub struct Duel {
    pub rounds: SceneRounds,
}

impl Duel {
    pub fn new(drama: Drama) -> Duel {
        Duel {
            rounds: SceneRounds::new(drama),
        }
    }

    pub fn drama(&self) -> &Drama {
        &self.rounds.drama
    }

    /// Exact marginals of the duel's fields; `None` beyond the state limit.
    pub fn exact(&self) -> Option<Marginals> {
        self.rounds.exact().map(|m| project(&m, &PICKS))
    }

    /// One scene's fields.
    #[inline]
    pub fn play(&self, rng: &mut DiceRng) -> [i64; 7] {
        fields(&play(&self.rounds, rng))
    }
}

#[inline]
pub(super) fn fields(o: &Outcome) -> [i64; 7] {
    PICKS.map(|p| pick(o, p))
}

/// Build the duel a set of scenario values describes.
pub fn duel_from(values: &ParamMap) -> Result<Duel, ParamError> {
    SceneMechanic.trial(values)
}

fn schema() -> Schema {
    let prob = |field, pred| MetricKind::Prob { field, pred };
    Schema {
        fields: vec![
            FieldSpec::new(
                "winner",
                FieldKind::Category(WINNERS.to_vec()),
                "How the scene ended: a side's Climax, a side's escape (Anticlimax), or a stalemate at the round cap.",
            ),
            FieldSpec::new("rounds", FieldKind::Int, "Rounds played."),
            FieldSpec::new(
                "final_edge",
                FieldKind::Int,
                "Edge at the end, from A's side.",
            ),
            FieldSpec::new("escaped", FieldKind::Bool, "Either side escaped."),
            FieldSpec::new(
                "final_ladder",
                FieldKind::Int,
                "The climax ladder at the end.",
            ),
            FieldSpec::new("a.essence_left", FieldKind::Int, "A's essence left."),
            FieldSpec::new("b.essence_left", FieldKind::Int, "B's essence left."),
        ],
        metrics: vec![
            MetricSpec::new(
                "p_a_wins",
                prob(0, Pred::Eq(A_CLIMAX)),
                "Probability A brings the scene to its climax.",
            ),
            MetricSpec::new(
                "p_b_wins",
                prob(0, Pred::Eq(B_CLIMAX)),
                "Probability B brings the scene to its climax.",
            ),
            MetricSpec::new(
                "p_escape",
                prob(3, Pred::Eq(1)),
                "Probability either side escapes.",
            ),
            MetricSpec::new(
                "mean_rounds",
                MetricKind::Mean { field: 1 },
                "Mean rounds played.",
            ),
            MetricSpec::new(
                "p_rounds_le_5",
                prob(1, Pred::Le(5)),
                "Probability the scene ends within 5 rounds.",
            ),
            MetricSpec::new(
                "p_rounds_le_10",
                prob(1, Pred::Le(10)),
                "Probability the scene ends within 10 rounds.",
            ),
            MetricSpec::both(
                "p_a_wins_within_7",
                (0, Pred::Eq(A_CLIMAX)),
                (1, Pred::Le(7)),
                "Probability A brings the scene to its climax within 7 rounds (winner and rounds read together, from the joint outcome).",
            ),
        ],
    }
}

// ---- The mechanic (the per-mechanic boilerplate lives here only) ----

impl Trial for Duel {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut sampler = Chain::new(&self.rounds, FIELDS).sampler();
        tally.record_trials(rng, trials, |rng| fields(&sampler.play(rng)));
    }

    fn exact(&self) -> Option<Marginals> {
        Duel::exact(self)
    }
}

/// The mechanic `gateway.scene` (rules §1.2).
pub struct SceneMechanic;

impl Define for SceneMechanic {
    type Params = SceneParams;
    type Trial = Duel;
    const NAME: &'static str = "gateway.scene";
    const SUMMARY: &'static str = "A drama duel: sides A and B act by their policies (Edge, Set-up, Press, Accelerate, Block, Climax, Anticlimax, combined) on one tension line as the climax ladder falls.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        schema()
    }

    /// Both sides' policies read (a policy and its shorthands are not
    /// both set).
    fn check(&self, p: &SceneParams) -> Result<Vec<Warning>, ParamError> {
        drama_from(p)?;
        Ok(Vec::new())
    }

    fn build(&self, p: SceneParams) -> Duel {
        // The policies are parsed again: cheap beside the scene they feed.
        Duel::new(drama_from(&p).expect(CHECKED))
    }
}
