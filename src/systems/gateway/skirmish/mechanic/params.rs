//! The keys of `gateway.skirmish`: the scene's, a PC's, the key entity's,
//! a minor entity's, and the flat `henchmen.*` group's; the variants'
//! names; and [`SkirmishParams`], the keys as the builder reads them.

use serde::Deserialize;

use super::super::cast::{
    BlockRule, Disembark, EssenceRule, PassengerSetup, PressAccelerate, SearchCost, SetupFree,
    Shortfall, SquadAid, SurpriseLines, TieRule,
};
use super::super::moves::{Category, POLICY_EXPECTS};
use crate::systems::gateway::challenge::{Relevance, TRAIT_NAMES};
use crate::systems::gateway::scene::Tie;
use crate::systems::gateway::scene::entity::{
    AID_NAMES, Aid, EntityKeys, MAX_ESSENCE, MAX_PASSENGERS, ORDER_NAMES, Order, SPEND_NAMES,
    Spend, concat_params,
};
use crate::systems::{Choice, Lit, ParamKind, ParamSpec, ParamValue};

pub(super) const ENTITY: [ParamSpec; 11] = entity_params!("", "the entity");

pub(super) const NAME: ParamSpec = ParamSpec {
    path: "name",
    kind: ParamKind::Custom {
        expects: "a name of letters, digits, `_` or `-`",
    },
    default: Lit::Absent,
    doc: "The entity's name, in field names, lines, orders and `to` (default pc1, pc2, …; key; minor1, …).",
};
pub(super) const ORDER: ParamSpec = ParamSpec {
    path: "order",
    kind: ParamKind::Custom {
        expects: "a list of entity names",
    },
    default: Lit::Absent,
    doc: "The acting order it sets when it holds the initiative, itself included (names left out act after, in scene order); default: itself first (or last, by initiative_order), then the others in scene order.",
};
pub(super) const SIGNIFICANCE: ParamSpec = ParamSpec {
    path: "significance",
    kind: ParamKind::Int { min: 0, max: 6 },
    default: Lit::Int(1),
    doc: "Significance 0..=6: an opponent eliminates a minor entity when its edge over it is at least this (the key entity's default is 6).",
};
pub(super) const COUNT: ParamSpec = ParamSpec {
    path: "count",
    kind: ParamKind::Int { min: 1, max: 6 },
    default: Lit::Int(1),
    doc: "A group of this many alike entities, named name1, name2, …",
};
pub(super) const SIDE: ParamSpec = ParamSpec {
    path: "side",
    kind: ParamKind::Choice(SideName::NAMES),
    default: Lit::Str("gm"),
    doc: "Whose side a minor entity is on: \"gm\" (henchmen, guards) or \"pcs\" (an ally, a witness).",
};

pub(super) const LEAD: ParamSpec = ParamSpec {
    path: "lead",
    kind: ParamKind::Custom {
        expects: "the name of an entity on its side (not itself a passenger)",
    },
    default: Lit::Absent,
    doc: "Makes it a passenger of that entity: it takes its lead's edge and initiative, acts just before it, only to Eliminate, Set-up (the free raise going to the lead), Aid Another or Disembark, and leaves the scene with it.",
};
pub(super) const IN_PLAY: ParamSpec = ParamSpec {
    path: "in_play",
    kind: ParamKind::Bool,
    default: Lit::Bool(true),
    doc: "false: it starts the scene out of play, to be found by an opponent's or ally's Search (one raise per point of significance over 1) or to enter by itself when `enters` says; in the round it enters it may open lines at once by a Surprise.",
};
pub(super) const ENTERS: ParamSpec = ParamSpec {
    path: "enters",
    kind: ParamKind::Custom {
        expects: "a table with one of { round = n } (from round n), { ladder = n } (once the climax ladder is at most n), { eliminated = [\"<name>\", …] } (once every one of them is eliminated)",
    },
    default: Lit::Absent,
    doc: "When an entity out of play (`in_play = false`) enters by itself, the GM's policy for a Surprise entrance; default: only when found by a Search.",
};
pub(super) const RECRUIT: ParamSpec = ParamSpec {
    path: "recruit",
    kind: ParamKind::Bool,
    default: Lit::Bool(false),
    doc: "true: it boards its `lead` only when the lead recruits it (a Recruit, alone or with a Search), its lines passing to the lead; until then it takes part on its own.",
};
pub(super) const PASSIVE: ParamSpec = ParamSpec {
    path: "passive",
    kind: ParamKind::Bool,
    default: Lit::Bool(false),
    doc: "true: it never acts (a device, a place: a ticking bomb's trigger, a security system); it is still targeted and resists.",
};
pub(super) const SQUAD: ParamSpec = ParamSpec {
    path: "squad",
    kind: ParamKind::Int { min: 0, max: 15 },
    default: Lit::Int(0),
    doc: "A squad of this many members acting as one entity (the text's \"squad of five guards\"): as a passenger its Aid Another gives its lead free raises by its members (see squad_aid), and an Eliminate that beats it takes out one member plus one per raise; default 0: no squad.",
};
pub(super) const SCALE: ParamSpec = ParamSpec {
    path: "scale",
    kind: ParamKind::Int { min: 1, max: 15 },
    default: Lit::Int(1),
    doc: "A squad's scale (\"scale 2 mooks\"): with squad_aid = \"scale\", its Aid Another gives one free raise per this many members left, rounded down.",
};
pub(super) const ESSENCE_POOLS: ParamSpec = ParamSpec {
    path: "essence_pools",
    kind: ParamKind::Custom {
        expects: "a table { fate, mental, physical, social } of 0..=6 each (every key optional)",
    },
    default: Lit::Absent,
    doc: "Essence by trait category (instead of `essence`): pooled into one with essence_rule = \"one\", kept apart with \"four\".",
};
pub(super) const CATEGORY: ParamSpec = ParamSpec {
    path: "category",
    kind: ParamKind::Choice(&CATEGORIES),
    default: Lit::Str("physical"),
    doc: "The category of the traits it rolls, acting (unless a rule names another) and resisting: the essence pool it spends from with essence_rule = \"four\".",
};
pub(super) const CATEGORIES: [&str; 4] = Category::NAMES;
crate::choice!(Category {
    Fate = "fate",
    Mental = "mental",
    Physical = "physical",
    Social = "social"
});

crate::choice! {
    /// Whose side a minor entity is on (`side`).
    pub enum SideName {
        Gm = "gm",
        Pcs = "pcs",
    }
}

pub(super) const HENCHMEN: [ParamSpec; 11] = entity_params!("henchmen.", "each henchman");
pub(super) const HENCHMEN_GROUP: [ParamSpec; 3] = [
    ParamSpec {
        path: "henchmen.count",
        kind: ParamKind::Int { min: 0, max: 5 },
        default: Lit::Int(0),
        doc: "A group of alike minor GM entities, named h1, h2, … after the `minors` (a flat key, so a sweep can vary it).",
    },
    ParamSpec {
        path: "henchmen.significance",
        kind: ParamKind::Int { min: 0, max: 6 },
        default: Lit::Int(1),
        doc: "Each henchman's significance.",
    },
    ParamSpec {
        path: "henchmen.lead",
        kind: ParamKind::Custom {
            expects: "the name of a GM entity (the key entity, or a minor entity of `minors`)",
        },
        default: Lit::Absent,
        doc: "Makes every henchman a passenger of that entity (a gang riding with its leader); default: each takes part on its own.",
    },
];

pub(super) static PC_PARAMS: [ParamSpec; 15] =
    concat_params(&[&ENTITY, &[NAME, ORDER, ESSENCE_POOLS, CATEGORY]]);
pub(super) static KEY_PARAMS: [ParamSpec; 19] = concat_params(&[
    &ENTITY,
    &[
        NAME,
        ORDER,
        SIGNIFICANCE,
        ESSENCE_POOLS,
        CATEGORY,
        IN_PLAY,
        ENTERS,
        PASSIVE,
    ],
]);
pub(super) static MINOR_PARAMS: [ParamSpec; 25] = concat_params(&[
    &ENTITY,
    &[
        NAME,
        ORDER,
        SIGNIFICANCE,
        COUNT,
        SIDE,
        LEAD,
        ESSENCE_POOLS,
        CATEGORY,
        IN_PLAY,
        ENTERS,
        RECRUIT,
        PASSIVE,
        SQUAD,
        SCALE,
    ],
]);

crate::choice! {
    /// The initiative tie rules (`initiative_tie`): the scene's two, or
    /// the holder first.
    pub enum TieName {
        Raises = "raises",
        Edge = "edge",
        Holder = "holder",
    }
}

impl TieName {
    pub(super) fn rule(self) -> TieRule {
        match self {
            TieName::Raises => TieRule::Scene(Tie::Raises),
            TieName::Edge => TieRule::Scene(Tie::Edge),
            TieName::Holder => TieRule::Holder,
        }
    }
}

crate::choice!(SetupFree {
    One = "one",
    PerRaise = "per-raise"
});
crate::choice!(PressAccelerate {
    Cancel = "cancel",
    LaterWins = "later-wins"
});
crate::choice!(Shortfall {
    None = "none",
    Raises = "raises"
});
crate::choice!(BlockRule {
    Action = "action",
    OneEffect = "one-effect"
});
crate::choice!(EssenceRule {
    One = "one",
    Four = "four"
});
crate::choice!(PassengerSetup {
    Lead = "lead",
    Own = "own"
});
crate::choice!(Disembark {
    Lines = "lines",
    Disengaged = "disengaged"
});
crate::choice!(SquadAid {
    Scale = "scale",
    Member = "member"
});

crate::choice!(SearchCost {
    OverOne = "over-one",
    Significance = "significance"
});
crate::choice!(SurpriseLines {
    Always = "always",
    OnSuccess = "on-success"
});

pub(super) const TIES: &[&str] = TieName::NAMES;
pub(super) const SETUPS: &[&str] = SetupFree::NAMES;
pub(super) const PRESSES: &[&str] = PressAccelerate::NAMES;
pub(super) const SHORTFALLS: &[&str] = Shortfall::NAMES;
pub(super) const BLOCKS: &[&str] = BlockRule::NAMES;
pub(super) const ESSENCES: &[&str] = EssenceRule::NAMES;
pub(super) const PASSENGER_SETUPS: &[&str] = PassengerSetup::NAMES;
pub(super) const DISEMBARKS: &[&str] = Disembark::NAMES;
pub(super) const SEARCH_COSTS: &[&str] = SearchCost::NAMES;
pub(super) const SURPRISE_LINES: &[&str] = SurpriseLines::NAMES;

pub(super) const SQUAD_AIDS: &[&str] = SquadAid::NAMES;

pub(super) static SCENE: [ParamSpec; 21] = [
    ParamSpec {
        path: "pcs",
        kind: ParamKind::Custom {
            expects: "a list of 1..=6 PC tables { name, trait, background, background_relevance, specialisation, equipment, essence, essence_pools, category, essence_policy, passengers, aid, initiative_order, order, policy } (every key optional)",
        },
        default: Lit::Absent,
        doc: "The PCs (required): key entities, removed only by a Climax.",
    },
    ParamSpec {
        path: "key",
        kind: ParamKind::Custom {
            expects: "a table { name, significance, trait, background, …, essence_pools, category, order, policy } (every key optional)",
        },
        default: Lit::Absent,
        doc: "The GM's key entity (default: named key, a full trait, the default policy).",
    },
    ParamSpec {
        path: "minors",
        kind: ParamKind::Custom {
            expects: "a list of minor entity tables { name, significance, count, side, lead, trait, background, …, essence_pools, category, order, policy } (every key optional)",
        },
        default: Lit::Absent,
        doc: "Minor entities (henchmen, guards, witnesses), each eliminated by an opponent whose edge over it reaches its significance; a side has at most 6 entities.",
    },
    ParamSpec {
        path: "lines",
        kind: ParamKind::Custom {
            expects: "a list of tables { between = [\"<name>\", \"<name>\"], edge = n } (two opposed entities; edge from the first's side)",
        },
        default: Lit::Absent,
        doc: "Tension lines open in round 1. Default: the one line of a two-entity scene at edge 0; none with more than two entities (the text's advice).",
    },
    crate::systems::gateway::scene::LADDER,
    crate::systems::gateway::scene::ROUND_CAP,
    ParamSpec {
        path: "initiative",
        kind: ParamKind::Custom {
            expects: "an entity name",
        },
        default: Lit::Absent,
        doc: "Who holds the initiative in round 1 (default: the key entity).",
    },
    ParamSpec {
        path: "initiative_tie",
        kind: ParamKind::Choice(TIES),
        default: Lit::Str("raises"),
        doc: "Equal successful effects: more raises used, then the holder (\"raises\"); the greater edge score, a side behind scoring 0, then the holder (\"edge\", the side bar); the holder, then more raises (\"holder\", the main text's sentence order). A Set-up's giver tied with its receiver loses to it first.",
    },
    ParamSpec {
        path: "setup_free",
        kind: ParamKind::Choice(SETUPS),
        default: Lit::Str("one"),
        doc: "Free raises a successful Set-up gives: \"one\", or \"per-raise\" (one plus each raise chosen; handing them over costs a raise of its own).",
    },
    ParamSpec {
        path: "press_accelerate",
        kind: ParamKind::Choice(PRESSES),
        default: Lit::Str("cancel"),
        doc: "A Press and an Accelerate in one round: both cancel (\"cancel\"), or the later counts and the earlier is cancelled (\"later-wins\").",
    },
    ParamSpec {
        path: "eliminate_shortfall",
        kind: ParamKind::Choice(SHORTFALLS),
        default: Lit::Str("none"),
        doc: "An Eliminate needs an edge over its target of at least its significance (\"none\"), or takes one raise per point short (\"raises\", as the examples play it).",
    },
    ParamSpec {
        path: "block",
        kind: ParamKind::Choice(BLOCKS),
        default: Lit::Str("action"),
        doc: "What a Block cancels: the whole action of each opponent it beats (\"action\"), or, for an entity of the many in many-on-one, the opponent's effect against one ally (the rule's `to`, else the blocker), the blocker losing the initiative if the opponent's action against it succeeds (\"one-effect\").",
    },
    ParamSpec {
        path: "essence_rule",
        kind: ParamKind::Choice(ESSENCES),
        default: Lit::Str("one"),
        doc: "Essence: one pool for every roll (\"one\"), or four by trait category, a roll spending from its category's (\"four\").",
    },
    ParamSpec {
        path: "passenger_setup",
        kind: ParamKind::Choice(PASSENGER_SETUPS),
        default: Lit::Str("lead"),
        doc: "A passenger's Set-up gives its free raises to its lead for no raise (\"lead\", as the examples play it), or keeps them as anyone's Set-up does (\"own\").",
    },
    ParamSpec {
        path: "disembark",
        kind: ParamKind::Choice(DISEMBARKS),
        default: Lit::Str("lines"),
        doc: "A passenger that disembarks takes its lead's lines at its lead's edges (\"lines\"), or enters with none (\"disengaged\").",
    },
    ParamSpec {
        path: "search_cost",
        kind: ParamKind::Choice(SEARCH_COSTS),
        default: Lit::Str("over-one"),
        doc: "Raises a Search pays: one per point of the found entity's significance over 1 (\"over-one\", the rule: significance 4 needs 3), or one per point (\"significance\", as the First Scene's round 5 plays it).",
    },
    ParamSpec {
        path: "surprise_lines",
        kind: ParamKind::Choice(SURPRISE_LINES),
        default: Lit::Str("always"),
        doc: "An entrant's Surprise combined with a rolled effect opens its lines whatever the roll (\"always\"), or only to each opponent whose DT the roll beats (\"on-success\"); a Surprise alone opens them either way.",
    },
    ParamSpec {
        path: "ticking_bomb",
        kind: ParamKind::Custom {
            expects: "a table { countdown = [\"<name>\", …], trigger = [\"<name>\", …] } (countdown and trigger entities on opposite sides)",
        },
        default: Lit::Absent,
        doc: "A ticking bomb scene: a countdown entity may Climax (the bomb going off) with a line to the trigger entities alone (a trigger out of play counting as a line at 0), and every other entity may Press or Accelerate with a line to a trigger or a countdown entity; default: none.",
    },
    ParamSpec {
        path: "split",
        kind: ParamKind::Custom {
            expects: "a list of 2..=6 tables { key = \"<name>\", entities = [\"<name>\", …], name = \"<sub-scene>\" } (a GM key entity each; every entity not a passenger in at least one; name defaults to the key's)",
        },
        default: Lit::Absent,
        doc: "A split scene: sub-scenes sharing the climax ladder, each with its key entity. An entity meets only the entities of its sub-scenes; a Climax needs lines within them alone, but the scene climaxes only when one side hits every sub-scene in one round; a key entity hit loses its action that round and counts for the initiative as a failed Set-up; default: one scene.",
    },
    ParamSpec {
        path: "squad_aid",
        kind: ParamKind::Choice(SQUAD_AIDS),
        default: Lit::Str("scale"),
        doc: "Free raises a squad's Aid Another gives: one per `scale` members left, rounded down (\"scale\": five scale 2 guards give two, the text's \"+3 edge bonus\"), or one per member (\"member\": \"each giving the mastermind a free raise\").",
    },
    ParamSpec {
        path: "pc_policy",
        kind: ParamKind::Custom {
            expects: POLICY_EXPECTS,
        },
        default: Lit::Absent,
        doc: "The policy of every PC whose table sets none (a rule handing a Set-up `to` a PC is skipped by that PC itself); default: the default policy.",
    },
];

pub(super) static PARAMS: [ParamSpec; 35] = concat_params(&[&SCENE, &HENCHMEN_GROUP, &HENCHMEN]);

/// The parameters of `gateway.skirmish`, one field per path of
/// [`PARAMS`]. The entity tables (`pcs`, `key`, `minors`), the `lines`,
/// the names and the policies are kept as written: their reading needs
/// the whole scene (names resolved against every entity).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkirmishParams {
    #[serde(default)]
    pub pcs: Option<ParamValue>,
    #[serde(default)]
    pub key: Option<ParamValue>,
    #[serde(default)]
    pub minors: Option<ParamValue>,
    #[serde(default)]
    pub lines: Option<ParamValue>,
    pub ladder: i64,
    pub round_cap: u32,
    #[serde(default)]
    pub initiative: Option<ParamValue>,
    pub initiative_tie: TieName,
    pub setup_free: SetupFree,
    pub press_accelerate: PressAccelerate,
    pub eliminate_shortfall: Shortfall,
    pub block: BlockRule,
    pub essence_rule: EssenceRule,
    pub passenger_setup: PassengerSetup,
    pub disembark: Disembark,
    pub search_cost: SearchCost,
    pub surprise_lines: SurpriseLines,
    #[serde(default)]
    pub ticking_bomb: Option<ParamValue>,
    #[serde(default)]
    pub split: Option<ParamValue>,
    pub squad_aid: crate::model::Given<SquadAid>,
    #[serde(default)]
    pub pc_policy: Option<ParamValue>,
    #[serde(rename = "henchmen.count")]
    pub henchmen_count: i64,
    #[serde(rename = "henchmen.significance")]
    pub henchmen_significance: i64,
    #[serde(rename = "henchmen.lead", default)]
    pub henchmen_lead: Option<ParamValue>,
    #[serde(rename = "henchmen.trait")]
    pub henchmen_trait_dice: i64,
    #[serde(rename = "henchmen.background")]
    pub henchmen_background: i64,
    #[serde(rename = "henchmen.background_relevance")]
    pub henchmen_background_relevance: Relevance,
    #[serde(rename = "henchmen.specialisation")]
    pub henchmen_specialisation: bool,
    #[serde(rename = "henchmen.equipment")]
    pub henchmen_equipment: i64,
    #[serde(rename = "henchmen.essence")]
    pub henchmen_essence: i64,
    #[serde(rename = "henchmen.essence_policy")]
    pub henchmen_essence_policy: Spend,
    #[serde(rename = "henchmen.passengers")]
    pub henchmen_passengers: i64,
    #[serde(rename = "henchmen.aid")]
    pub henchmen_aid: Aid,
    #[serde(rename = "henchmen.initiative_order")]
    pub henchmen_initiative_order: Order,
    #[serde(rename = "henchmen.policy", default)]
    pub henchmen_policy: Option<ParamValue>,
}

impl SkirmishParams {
    /// Each henchman's entity keys.
    pub fn henchman(&self) -> EntityKeys {
        EntityKeys {
            dice: self.henchmen_trait_dice,
            background: self.henchmen_background,
            background_relevance: self.henchmen_background_relevance,
            specialisation: self.henchmen_specialisation,
            equipment: self.henchmen_equipment,
            essence: self.henchmen_essence,
            essence_policy: self.henchmen_essence_policy,
            passengers: self.henchmen_passengers,
            aid: self.henchmen_aid,
            initiative_order: self.henchmen_initiative_order,
            policy: self.henchmen_policy.clone(),
        }
    }
}
