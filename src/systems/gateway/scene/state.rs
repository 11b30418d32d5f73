//! What a drama scene is and where one stands: the checked scene
//! ([`Drama`]), the state between and within rounds ([`State`]), one
//! decided action and its roll ([`Turn`], [`Roll`]), and the layout of the
//! outcome. The rules that move from one state to the next are in
//! `engine`.

use super::effect::Action;
use super::entity::Entity;

/// Most PCs in one scene, and entities (with K).
pub const MAX_PCS: usize = 6;
pub(super) const SLOTS: usize = MAX_PCS + 1;
/// K's index.
pub const KEY: usize = 0;

/// The exact solver gives up (and `--mode auto` simulates) when more than
/// this many states are live between two rounds.
pub const MAX_STATES: usize = 100_000;

/// Values of the `winner` field (the duel names them `a_climax` … with A
/// the PC and B the key entity).
pub const PCS_CLIMAX: i64 = 0;
pub const KEY_CLIMAX: i64 = 1;
pub const PCS_ESCAPE: i64 = 2;
pub const KEY_ESCAPE: i64 = 3;
pub const STALEMATE: i64 = 4;

/// Outcome layout: `[winner, rounds, ladder, edge of PC 1..=6, essence
/// left of K and PC 1..=6]` (unused PCs read 0).
pub const FIELDS: usize = 3 + MAX_PCS + SLOTS;
pub type Outcome = [i64; FIELDS];
pub const F_WINNER: usize = 0;
pub const F_ROUNDS: usize = 1;
pub const F_LADDER: usize = 2;
/// The field of PC `i`'s final edge (i from 1).
pub const fn f_edge(i: usize) -> usize {
    2 + i
}
/// The field of entity `i`'s essence left (K is 0).
pub const fn f_essence(i: usize) -> usize {
    3 + MAX_PCS + i
}

/// An action's margin once the edge is counted, `adv` being the roller's
/// signed edge. Only the holder has an edge score: it adds |e| to its result
/// when it acts (adv = +|e|) and to its DT when it is targeted (adv = −|e|);
/// the other side adds nothing, so the margin moves by `adv`, not `2·adv`
/// ("On any action you perform, you gain a bonus … equal to your edge score.
/// Similarly, when you are targeted … you add your edge score to the DT").
#[inline]
pub fn edged(margin: i64, adv: i64) -> i64 {
    margin + adv
}

/// How equal successful effects settle the initiative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tie {
    /// More raises used, then the previous holder (the default).
    Raises,
    /// The greater edge score, then the previous holder (the side bar).
    Edge,
}

/// Who holds the initiative in round 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Holder(usize),
    /// A fair coin between PC 1 (heads) and K (the duel's `"random"`).
    Coin,
}

/// A checked scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Drama {
    /// K, then the PCs.
    pub entities: Vec<Entity>,
    pub ladder: i64,
    /// Each PC's edge over K in round 1 (index 0 unused), from the PC's
    /// side: positive means the PC holds the edge.
    pub start_edges: Vec<i64>,
    pub round_cap: u32,
    pub start: Start,
    pub tie: Tie,
}

/// Where a scene stands. Between rounds only the first five fields differ
/// (the rest are reset), so those are what the solver's states count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    /// `edges[i]`: PC i's signed edge over K (`edges[0]` is unused).
    pub(super) edges: [i16; SLOTS],
    pub(super) essence: [u8; SLOTS],
    pub(super) ladder: u8,
    pub(super) holder: u8,
    /// Bit i: entity i has a Set-up's free raise for its next action.
    pub(super) free: u8,
    /// Round 1's initiative is still to be drawn.
    pub(super) coin: bool,
    /// The holder acts first this round.
    pub(super) lead: bool,
    /// Position in this round's acting order.
    pub(super) pos: u8,
    /// Bit i: entity i's action this round is cancelled by a Block.
    pub(super) blocked: u8,
    /// Best rank of each entity's successful effects this round, Press and
    /// Accelerate aside (they may yet be cancelled).
    pub(super) ranks: [u8; SLOTS],
    /// Raises each entity's action used this round.
    pub(super) used: [u8; SLOTS],
    /// Bit i: entity i's Press succeeded this round.
    pub(super) pressed: u8,
    /// Levels each entity accelerated this round.
    pub(super) accel: [u8; SLOTS],
}

/// What a test or a caller may read of a state.
impl State {
    /// PC `pc`'s edge over K, from the PC's side (the duel's edge, from A's
    /// side, is PC 1's).
    pub fn edge(&self, pc: usize) -> i64 {
        self.edges[pc] as i64
    }

    pub fn ladder(&self) -> i64 {
        self.ladder as i64
    }

    /// The initiative holder (K is 0; in a duel B is 0 and A is 1).
    pub fn holder(&self) -> usize {
        self.holder as usize
    }

    /// Whether entity `i` has a Set-up's free raise waiting.
    pub fn has_free(&self, i: usize) -> bool {
        self.free >> i & 1 == 1
    }

    pub fn essence(&self, i: usize) -> u8 {
        self.essence[i]
    }
}

/// One decided action, with the numbers its roll is made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    pub(super) actor: u8,
    pub(super) action: Action,
    /// Edge steps moved and levels accelerated on success.
    pub(super) steps: u8,
    /// Raises used, for initiative ties.
    pub(super) used: u8,
    /// The actor's dice this roll, essence included.
    pub(super) dice: u8,
    pub(super) spends: bool,
    /// Bit t: entity t is a target.
    pub(super) targets: u8,
    /// Bit t: target t spends essence resisting.
    pub(super) resists: u8,
    /// Target t's dice.
    pub(super) tdice: [u8; SLOTS],
    /// Target t's DT is beaten iff actor's top die − t's top die ≥ need[t].
    pub(super) need: [i16; SLOTS],
}

impl Turn {
    /// Its one target, when it has only one.
    #[inline]
    pub(super) fn single(&self) -> Option<usize> {
        // Never empty: an action has a target.
        (self.targets & self.targets.wrapping_sub(1) == 0)
            .then(|| self.targets.trailing_zeros() as usize)
    }
}

/// One roll: the first initiative's coin, or an action as decided and
/// which targets' DTs it beat (bit t). The decision travels with the roll
/// so that [`Rounds::after`] need not make it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Roll {
    /// 0: PC 1 holds the initiative, 1: K does.
    Coin(u8),
    Action {
        beat: u8,
        turn: Turn,
    },
}

impl Roll {
    /// Which targets' DTs the action beat (bit t), for an action.
    pub fn beat(&self) -> Option<u8> {
        match self {
            Roll::Coin(_) => None,
            Roll::Action { beat, .. } => Some(*beat),
        }
    }

    /// Who acted and what it did, for an action.
    pub fn action(&self) -> Option<(usize, Action)> {
        match self {
            Roll::Coin(_) => None,
            Roll::Action { turn, .. } => Some((turn.actor as usize, turn.action)),
        }
    }

    /// The raises the action used (chosen, required and free).
    pub fn raises_used(&self) -> Option<u32> {
        match self {
            Roll::Coin(_) => None,
            Roll::Action { turn, .. } => Some(turn.used as u32),
        }
    }
}
