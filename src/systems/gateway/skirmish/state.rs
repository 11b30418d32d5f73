//! Where a skirmish stands, between and within rounds, and the layout of
//! its outcome.

use super::cast::MAX_ENTITIES;

const N: usize = MAX_ENTITIES;
/// Line slots: (PC-side index) × 6 + (GM-side index).
pub const PAIRS: usize = 36;

/// Values of the `winner` field (as `gateway.ensemble`'s).
pub const PCS_WIN: i64 = 0;
pub const GM_WIN: i64 = 1;
pub const PCS_ESCAPE: i64 = 2;
pub const GM_ESCAPE: i64 = 3;
pub const STALEMATE: i64 = 4;

/// The outcome: `[winner, rounds, final_ladder, pcs.eliminated,
/// gm.eliminated, lines_open, pcs.raises_spent, gm.raises_spent,
/// free_raises_given, then per entity: survived, edge over the key
/// entity (PC side) or over the first PC (GM side); then bomb (the round
/// a ticking bomb went off, 0 if it did not), the round each entity
/// entered, packed a byte each, seven to a field (0: in play from the
/// start, or never), then the split scene's sub-scenes hit by a Climax
/// (bit k: sub-scene k, in any round), then each squad's members left,
/// packed four bits an entity (as the state keeps them)]`.
pub const FIXED: usize = 9;
pub const F_BOMB: usize = FIXED + 2 * N;
pub const F_ENTERED: usize = F_BOMB + 1;
/// Entry rounds packed into one field.
pub const ENTERED_PER_FIELD: usize = 7;
pub const F_CLIMAXED: usize = F_ENTERED + N.div_ceil(ENTERED_PER_FIELD);
pub const F_TROOP: usize = F_CLIMAXED + 1;
pub const FIELDS: usize = F_TROOP + 1;
pub type Outcome = [i64; FIELDS];
pub const F_WINNER: usize = 0;
pub const F_ROUNDS: usize = 1;
pub const F_LADDER: usize = 2;
pub const F_ELIM: usize = 3;
pub const F_LINES: usize = 5;
pub const F_SPENT: usize = 6;
pub const F_GIVEN: usize = 8;
pub const fn f_survived(i: usize) -> usize {
    FIXED + i
}
pub const fn f_edge(i: usize) -> usize {
    FIXED + N + i
}

/// The round entity `i` entered, from an outcome (0: in play from the
/// start, or never entered).
pub fn entered_round(o: &[i64], i: usize) -> i64 {
    o[F_ENTERED + i / ENTERED_PER_FIELD] >> (8 * (i % ENTERED_PER_FIELD)) & 0xff
}

/// A skirmish's state. Between rounds the fields down to `given` carry;
/// the rest are this round's bookkeeping, reset at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    /// Each line slot's edge, from the PC side's entity (kept one round
    /// after the line breaks, for a Manoeuvre that brings it back).
    pub(super) edges: [i16; PAIRS],
    /// Bit p: line slot p is open.
    pub(super) lines: u64,
    /// Bit p: the line was open during the previous round (a Manoeuvre
    /// brings it back at its old edge, a step toward the opponent).
    pub(super) was: u64,
    /// Bit i: entity i is in the scene.
    pub(super) alive: u16,
    /// Bit i: entity i is a passenger riding with its lead (until it
    /// disembarks).
    pub(super) aboard: u16,
    /// Essence left by pool: one pool (slot 0), or one per trait
    /// category (`essence_rule = "four"`).
    pub(super) essence: [[u8; 4]; N],
    /// Free raises waiting for each entity's next action.
    pub(super) free: [u8; N],
    pub(super) ladder: u8,
    pub(super) holder: u8,
    /// Raises paid (each adding 2 to the DTs) by each side so far.
    pub(super) spent: [u8; 2],
    /// Free raises handed out by Set-ups so far.
    pub(super) given: u8,
    /// Bit i: entity i is out of play (not yet found or entered).
    pub(super) absent: u16,
    /// The round each entity entered (0: in play from the start).
    pub(super) entered: [u8; N],
    /// Members left in each squad, four bits an entity (0 for an entity
    /// that is no squad).
    pub(super) troop: u64,
    /// Bit k: sub-scene k of a split scene was hit by a Climax (in any
    /// round so far).
    pub(super) climaxed: u8,
    // ---- this round ----
    /// The holder acts first (it always does when it Blocks).
    pub(super) lead: bool,
    pub(super) pos: u8,
    /// Bit i: entity i's action is cancelled by a Block.
    pub(super) blocked: u16,
    pub(super) ranks: [u8; N],
    pub(super) used: [u8; N],
    pub(super) pressed: u16,
    pub(super) accel: [u8; N],
    /// Which came last of this round's successful Presses (1) and
    /// Accelerates (2).
    pub(super) last_pa: u8,
    /// `gave[i]`: 1 + the ally entity i handed a Set-up's free raises to.
    pub(super) gave: [u8; N],
    /// Lines broken this round.
    pub(super) broke: u64,
    /// The holder declared a Block at the start of the round (an
    /// interruption: its passengers may only Aid Another).
    pub(super) interrupt: bool,
    /// One-effect Blocks: `shield[j]` is 1 + the entity opponent j's
    /// action cannot touch this round, `shielder[j]` 1 + its blocker.
    pub(super) shield: [u8; N],
    pub(super) shielder: [u8; N],
    /// Bit i: entity i loses the initiative (its one-effect Block's
    /// opponent succeeded against it).
    pub(super) forfeit: u16,
    /// The sub-scenes each side's Climaxes hit this round (bit k:
    /// sub-scene k): a side that hits them all climaxes the scene.
    pub(super) hit: [u8; 2],
    /// Who acts next: the entity at `pos` in this round's order, noted by
    /// `skip` as it moves `pos`, so that the decision reads one byte, not
    /// the order again (last: states still sort by their other fields).
    pub(super) actor: u8,
}

/// What a test or a caller may read of a state.
impl State {
    pub fn holder(&self) -> usize {
        self.holder as usize
    }

    pub fn ladder(&self) -> i64 {
        self.ladder as i64
    }

    pub fn is_alive(&self, i: usize) -> bool {
        self.alive >> i & 1 == 1
    }

    pub fn free(&self, i: usize) -> u32 {
        self.free[i] as u32
    }

    pub fn lines_open(&self) -> u32 {
        self.lines.count_ones()
    }

    pub fn is_absent(&self, i: usize) -> bool {
        self.absent >> i & 1 == 1
    }

    pub fn entered(&self, i: usize) -> u32 {
        self.entered[i] as u32
    }

    /// Members left in squad i (0 for an entity that is no squad).
    pub fn troop(&self, i: usize) -> u32 {
        (self.troop >> (4 * i) & 0xf) as u32
    }

    /// The sub-scenes hit by a Climax so far (bit k: sub-scene k).
    pub fn climaxed(&self) -> u32 {
        self.climaxed as u32
    }

    pub fn is_aboard(&self, i: usize) -> bool {
        self.aboard >> i & 1 == 1
    }

    /// Essence left in entity i's pool `k` (0 with one pool; the
    /// category's index with four).
    pub fn essence(&self, i: usize, k: usize) -> u32 {
        self.essence[i][k] as u32
    }
}
