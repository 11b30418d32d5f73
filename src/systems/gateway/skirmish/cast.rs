//! Who is in a skirmish and by which rules it is played: the checked
//! scene ([`Skirmish`]), its entities ([`Member`]) and the readings the
//! text leaves open ([`Variants`]).

use super::moves::{Category, Play};
use crate::systems::gateway::scene::{Entity, Tie};
use crate::systems::policy::Rule;

/// Most entities on one side, and in a scene.
pub const MAX_SIDE: usize = 6;
pub const MAX_ENTITIES: usize = 2 * MAX_SIDE;

/// The two sides: the PCs' and the GM's.
pub const PCS: u8 = 0;
pub const GM: u8 = 1;

/// What an entity is to the rules of elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A player character: a key entity, removed only by a Climax.
    Pc,
    /// The GM's key entity.
    Key,
    /// A minor entity (henchman, guard, witness): eliminated when an
    /// opponent's edge over it reaches its significance.
    Minor,
}

/// One entity of a skirmish.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Its roll, essence, passengers (Aid Another only) and order, as in
    /// `gateway.scene`; its policy there is unused.
    pub entity: Entity,
    pub kind: Kind,
    pub side: u8,
    /// 0..=6.
    pub significance: u8,
    /// Its policy, the ally of each rule's `to` and the entity of its
    /// `entity` resolved to indices.
    pub policy: Vec<Ruled>,
    /// Its acting order when it holds the initiative (entity indices,
    /// itself included), when the scenario gives one.
    pub order: Option<Vec<usize>>,
    /// One of the `henchmen.*` group (counted together in the outcome).
    pub group: bool,
    /// The entity it rides with as a passenger (its `lead`), if any.
    pub lead: Option<usize>,
    /// Essence by trait category (fate, mental, physical, social), when
    /// the table gives `essence_pools`; else all of `entity.essence` is
    /// in the pool of `category`.
    pub pools: Option<[u8; 4]>,
    /// The category of the traits it rolls, acting (unless a rule names
    /// another) and resisting.
    pub category: Category,
    /// It starts the scene out of play (`in_play = false`): found by a
    /// Search, or entering by itself when `enters` says.
    pub absent: bool,
    /// When an entity out of play enters by itself (a Surprise entrance).
    pub enters: Option<Entry>,
    /// It boards its `lead` only when the lead recruits it (`recruit =
    /// true`); until then it takes part on its own.
    pub recruit: bool,
    /// It never acts (a device, a place: a ticking bomb's trigger).
    pub passive: bool,
    /// A squad of this many members acting as one entity (0: not a
    /// squad), and its scale: members per free raise of its Aid Another.
    pub squad: u8,
    pub scale: u8,
}

/// The GM's policy for an entity out of play entering by itself, checked
/// at the start of each round and after each action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// From this round on.
    Round(u32),
    /// Once the climax ladder is at most this.
    Ladder(u32),
    /// Once every one of these entities (bits by index) is eliminated
    /// ("every security entity eliminated").
    Eliminated(u16),
}

/// A ticking bomb: countdown entities that Climax with a line to a
/// trigger alone (bits by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bomb {
    pub countdown: u16,
    pub trigger: u16,
}

/// A policy rule with its `to` ally and its `entity` resolved to indices.
pub type Ruled = (Rule<super::When, Play>, Option<usize>, Option<usize>);

impl Member {
    pub fn name(&self) -> &str {
        &self.entity.name
    }
}

/// The tie rule for equal successful effects, beside the scene's two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieRule {
    /// As `gateway.scene`: more raises, or the edge score floored at 0.
    Scene(Tie),
    /// The previous holder first, then more raises ("Characters who had
    /// the initiative in the previous round should be given the
    /// initiative again in a tie" comes before the raises sentence).
    Holder,
}

/// How many free raises a successful Set-up gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupFree {
    /// One (the rules' (as modelled) reading, `gateway.scene`'s).
    One,
    /// One plus each raise taken beyond the one that hands it over (the
    /// examples' Ayo and Dimitri; not Hank, who gives 3 for 2).
    PerRaise,
}

/// A Press and an Accelerate in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PressAccelerate {
    /// Both cancel; neither counts (the rules' (as modelled) reading).
    Cancel,
    /// The later one counts and the earlier is cancelled (the side bar:
    /// each counts "if [its] effect is not later cancelled out by the
    /// other").
    LaterWins,
}

/// What an Eliminate needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// An edge over the target at least its significance.
    None,
    /// Each point of significance above the edge paid with a raise (the
    /// examples: Ayo at +3 against significance 4 "needs a raise",
    /// Norris at +2 against 4 "needs two raises").
    Raises,
}

/// What a Block cancels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockRule {
    /// The whole action of each opponent whose DT it beats (as
    /// `gateway.scene` and `gateway.ensemble` read it).
    Action,
    /// In many-on-one, for the many: one effect against one ally (the
    /// rule's `to`, else the blocker itself); the opponent still acts
    /// against the others, and the blocker loses the initiative if the
    /// opponent's action against it succeeds.
    OneEffect,
}

/// Essence pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EssenceRule {
    /// One pool for every roll (`gateway.scene`'s reading).
    One,
    /// Four pools, one per trait category; a roll spends from the pool
    /// of the category it rolls.
    Four,
}

/// Where a passenger's Set-up free raises go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassengerSetup {
    /// To its lead, for no raise (the examples: the security chief and
    /// Tom's goblin witness give their leads free raises taking none).
    Lead,
    /// To itself, as anyone's Set-up, unless handed over for a raise.
    Own,
}

/// What a passenger that disembarks starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disembark {
    /// Its lead's lines, at its lead's edges (Hank leaves the rover at
    /// Martin's +1).
    Lines,
    /// No line: "a participating, disengaged entity".
    Disengaged,
}

/// What a Search costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchCost {
    /// One raise per point of significance over 1 (the rule: "a
    /// significance 4 entity would require 3 raises").
    OverOne,
    /// One raise per point of significance (the First Scene's round 5:
    /// a significance 2 trigger searched "with two raises").
    Significance,
}

/// When an entrant's Surprise combined with a rolled effect opens its
/// lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurpriseLines {
    /// At once, whatever the roll (the entrant "automatically connects a
    /// tension line").
    Always,
    /// Only to each surprised opponent whose DT the roll beats (a failed
    /// combined action opens nothing); a Surprise alone, with no roll,
    /// opens them all the same.
    OnSuccess,
}

/// How many free raises a squad's Aid Another gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquadAid {
    /// One per `scale` members, rounded down (five scale 2 guards give
    /// the mastermind two free raises, "a +3 edge bonus"; two give "a
    /// single free raise").
    Scale,
    /// One per member ("each giving the mastermind a free raise").
    Member,
}

/// One sub-scene of a split scene: its name (in field names), its key
/// entity and its entities (bits by index; passengers take their
/// lead's).
#[derive(Clone, Debug, PartialEq)]
pub struct SubScene {
    pub name: String,
    pub key: usize,
    pub members: u16,
}

/// The readings the text leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variants {
    pub tie: TieRule,
    pub setup_free: SetupFree,
    pub press_accelerate: PressAccelerate,
    pub eliminate: Shortfall,
    pub block: BlockRule,
    pub essence: EssenceRule,
    pub passenger_setup: PassengerSetup,
    pub disembark: Disembark,
    pub search_cost: SearchCost,
    pub surprise_lines: SurpriseLines,

    pub squad_aid: SquadAid,
}

impl Default for Variants {
    fn default() -> Self {
        Variants {
            tie: TieRule::Scene(Tie::Raises),
            setup_free: SetupFree::One,
            press_accelerate: PressAccelerate::Cancel,
            eliminate: Shortfall::None,
            block: BlockRule::Action,
            essence: EssenceRule::One,
            passenger_setup: PassengerSetup::Lead,
            disembark: Disembark::Lines,
            search_cost: SearchCost::OverOne,
            surprise_lines: SurpriseLines::Always,

            squad_aid: SquadAid::Scale,
        }
    }
}

/// A checked skirmish. Entities are indexed PCs first, then the PCs'
/// minor allies, then the key entity, then the GM's minor entities.
#[derive(Clone, Debug, PartialEq)]
pub struct Skirmish {
    pub members: Vec<Member>,
    pub ladder: i64,
    /// Open lines in round 1: (entity, entity, edge from the first's side).
    pub lines: Vec<(usize, usize, i64)>,
    pub round_cap: u32,
    /// Who holds the initiative in round 1.
    pub holder: usize,
    pub variants: Variants,
    /// A ticking bomb scene, if it is one.
    pub bomb: Option<Bomb>,
    /// A split scene's sub-scenes (none: one scene).
    pub split: Vec<SubScene>,
}

impl Skirmish {
    /// The key entity's index.
    pub fn key(&self) -> usize {
        self.members
            .iter()
            .position(|m| m.kind == Kind::Key)
            .expect("a skirmish has a key entity")
    }
}
