//! Who is in a skirmish and by which rules it is played: the checked
//! scene ([`Skirmish`]), its entities ([`Member`]) and the readings the
//! text leaves open ([`Variants`]).

use super::moves::Play;
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
    /// Its policy, the ally of each rule's `to` resolved to an index.
    pub policy: Vec<(Rule<super::When, Play>, Option<usize>)>,
    /// Its acting order when it holds the initiative (entity indices,
    /// itself included), when the scenario gives one.
    pub order: Option<Vec<usize>>,
    /// One of the `henchmen.*` group (counted together in the outcome).
    pub group: bool,
}

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

/// The readings the text leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variants {
    pub tie: TieRule,
    pub setup_free: SetupFree,
    pub press_accelerate: PressAccelerate,
    pub eliminate: Shortfall,
}

impl Default for Variants {
    fn default() -> Self {
        Variants {
            tie: TieRule::Scene(Tie::Raises),
            setup_free: SetupFree::One,
            press_accelerate: PressAccelerate::Cancel,
            eliminate: Shortfall::None,
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
