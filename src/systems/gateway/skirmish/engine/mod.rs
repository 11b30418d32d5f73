//! The round function of a skirmish: many entities on two sides, tension
//! lines between opposed pairs, each with its own edge. Both the exact
//! chain and the sampler run on [`SkirmishRounds`] through `model::rounds`.
//!
//! One roll is one action: the actor's highest die is rolled once and
//! tested against the DT of every opponent its effects are declared
//! against (each opponent's own dice, its bonus, 2 per raise paid, and
//! the edge on that line once). Per-line effects (Edge, Set-up, Restrict,
//! Block) come off against each opponent beaten; Manoeuvre, Disengage and
//! Eliminate have one target; Climax, Anticlimax, Press and Accelerate
//! need a line to every opposed entity and must beat every DT. The
//! readings are in the manual's skirmish chapter; with one PC, the key
//! entity and no minor entities this is `gateway.scene`'s round function
//! (a test holds the two equal).

mod bits;
mod build;
mod decide;
mod resolve;
mod round;
mod split;

use super::cast::{BlockRule, Entry, EssenceRule, MAX_ENTITIES, PCS, Skirmish};
use super::moves::{Aim, Moves};
use super::state::*;
use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{Marginals, Rounds};
use crate::systems::gateway::scene::MAX_STATES;
use crate::systems::gateway::scene::rules::When;
use bits::{Bits, Bits64};

const N: usize = MAX_ENTITIES;
/// The width of the per-entity tables read on every action: a power of
/// two above [`N`], so that an index masked by `W - 1` (as [`Bits`] and
/// the table lookups here do) needs no bounds check.
const W: usize = 16;
const _: () = assert!(W >= N && W.is_power_of_two());
/// Most dice a roll may have (a trait of 6, three essence points).
const MAX_DICE: usize = 9;
const NONE: u8 = u8::MAX;

/// Beyond this many entities a skirmish is simulated only: each line is a
/// dimension of the chain's state, and a fourth entity brings two or three
/// more (a sweep would spend minutes finding out that it is too big).
pub const MAX_EXACT_ENTITIES: usize = 3;

/// One acting order: the entities in turn, and how many.
#[derive(Clone, Copy, Debug, Default)]
struct Order {
    ents: [u8; W],
    len: u8,
}

/// A decided action in compact form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Act {
    pub moves: Moves,
    pub raises: u32,
    pub aim: Aim,
    /// The ally a Set-up's free raises go to (or a one-effect Block
    /// shields), or [`NONE`].
    pub to: u8,
    /// The entity a Search or Recruit names, or a Surprise's opponent,
    /// or [`NONE`].
    pub ent: u8,
    /// The trait category whose essence pool the roll draws, or [`NONE`]
    /// for the entity's own.
    pub cat: u8,
    /// Effects beyond the first, and a Set-up handed to an ally (each
    /// costs a raise), counted once when the policy is compiled: a
    /// popcount is a dozen instructions on the baseline x86-64 target,
    /// and every action paid it.
    extra: u8,
    /// The cheap refusals that apply to it (`decide::CLOSED_*` bits): a
    /// rule is passed over when one of them is closed now.
    refuse: u8,
    /// Made without a roll ([`Moves::no_roll`]), found once: the turn,
    /// the roll and `advance` all ask.
    no_roll: bool,
    /// The common actions whose aims take a short cut ([`Eng::aims`]):
    /// [`SHAPE_LINES`] (Edge, Set-up or Restrict, any of them, on every
    /// line, with no other effect), [`SHAPE_MANOEUVRE`] (a Manoeuvre
    /// alone at any opponent), [`SHAPE_OTHER`] for the rest.
    shape: u8,
}

pub(super) const SHAPE_OTHER: u8 = 0;
pub(super) const SHAPE_LINES: u8 = 1;
pub(super) const SHAPE_MANOEUVRE: u8 = 2;

impl Act {
    /// Letting the round pass: no effect (no opponent in play to act on).
    const PASS: Act = Act {
        moves: Moves::NONE,
        raises: 0,
        aim: Aim::All,
        to: NONE,
        ent: NONE,
        cat: NONE,
        extra: 0,
        refuse: 0,
        no_roll: true,
        shape: SHAPE_OTHER,
    };
}

/// Whom an action's effects are declared against (bits by entity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Aims {
    per_line: u16,
    every: u16,
    man: Option<u8>,
    dis: Option<u8>,
    elim: Option<u8>,
    /// Opponents a Surprise opens lines to, at once.
    sur: u16,
    /// The entity a Search finds, a Recruit boards.
    find: Option<u8>,
    recruit: Option<u8>,
    /// The one-target effects' targets (`man`, `dis`, `elim`, `find`,
    /// `recruit`) as a mask, gathered as they are aimed.
    one: u16,
    /// The points an Eliminate's edge falls short of its target's
    /// significance (0 when it reaches), found as it is aimed.
    short: u16,
}

/// One decided action with the numbers its roll is made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    pub actor: u8,
    pub act: Act,
    aims: Aims,
    /// Edge steps moved and levels accelerated on success.
    steps: u8,
    /// Raises used (for initiative ties) and paid (adding to the DTs).
    used: u8,
    paid: u8,
    /// Free raises a successful Set-up gives.
    gives: u8,
    dice: u8,
    spends: bool,
    /// The essence pool the actor spends from.
    pool: u8,
    pub targets: u16,
    resists: u16,
    tdice: [u8; N],
    /// Target t's DT is beaten iff actor's top die − t's top die ≥ need[t].
    need: [i16; N],
}

impl Turn {
    /// The least difference of top dice (actor's less target `j`'s) that
    /// beats `j`'s DT: every bonus, raise paid and edge counted.
    pub fn need(&self, j: usize) -> i64 {
        self.need[j] as i64
    }

    /// Raises paid (each adding 2 to the DTs) and the actor's dice.
    pub fn paid(&self) -> u32 {
        self.paid as u32
    }

    pub fn dice(&self) -> u32 {
        self.dice as u32
    }

    /// Edge steps moved and levels accelerated on success.
    pub fn steps(&self) -> u32 {
        self.steps as u32
    }
}

/// One roll: the action and which targets' DTs it beat (`Eq` and
/// `Hash`: the chain's sampler keys what follows a roll by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    pub beat: u16,
    pub turn: Turn,
}

/// What follows one roll, the state itself changed in place
/// ([`SkirmishRounds::advance`]): [`crate::model::After`] without the
/// state.
// Returned, never stored: the outcome is written once a scene, in place
// (boxing it would allocate once a scene).
#[allow(clippy::large_enum_variant)]
pub(super) enum Step {
    /// The round goes on.
    Roll,
    /// The round is over; the next has begun.
    Round,
    /// The scene is over.
    End(Outcome),
}

/// A skirmish ready to solve or sample.
pub struct SkirmishRounds {
    pub sk: Skirmish,
    n: usize,
    side: [u8; W],
    /// `pairs[i][j]`: the line slot between `i` and `j` ([`Self::pair`]),
    /// a table because every decision asks for it many times.
    pairs: [[u8; W]; W],
    /// Bit j of `foes[i]`: `j` is on the other side from `i`.
    foes: [u16; W],
    /// Bit j: `j` is a minor entity (the only ones Eliminate takes).
    minors: u16,
    /// Every entity, and those of the PC side (bits by entity): what an
    /// outcome counts.
    everyone: u16,
    pc_side: u16,
    /// Where entity `a`'s line slots start in the line mask: its side's
    /// index times 6 on the PC side (a row of 6 slots), its side's index
    /// on the GM side (a column, every 6th slot); see [`Self::lined_to`].
    slot_shift: [u8; W],
    /// The entities of the other side by their side's index (bit k: the
    /// entity of index k), the GM side's for a PC's row of slots, the PC
    /// side's for a GM entity's column.
    row_ents: [u16; 64],
    col_ents: [u16; 64],
    pmf: Vec<[f64; 9]>,
    cdf: Vec<[f64; 9]>,
    /// `orders[holder][lead]`, in fixed arrays: every action reads one
    /// (who acts, and whether the round is over).
    orders: [[Order; 2]; W],
    base: [[i64; W]; W],
    aid: [u32; N],
    /// Each passenger's lead, [`NONE`] for the others.
    lead: [u8; W],
    /// Bit p of `riders[i]`: p is a passenger of i.
    riders: [u16; N],
    /// Each entity's policy compiled once into the actions its rules
    /// take (allies and entities as indices), so that a decision walks
    /// plain `Act`s, not `Play`s with names and options.
    policies: Vec<Vec<(Option<When>, Act)>>,
    /// `open_from[i][closed]`: where a decision of `i` starts walking its
    /// policy when the cheap refusals `closed` are closed
    /// ([`decide::open_from`]).
    open_from: [[u8; 32]; W],
    /// Bit i: some rule of `i`'s policy has a condition (only those read
    /// the view's edge when `i` lacks a line to some opponent).
    conditional: u16,
    fallback: Vec<Act>,
    /// `fallback_from[closed]`: the same for the default policy.
    fallback_from: [u8; 32],
    /// A riding passenger's default: Eliminate when allowed, else Aid
    /// Another.
    rider_fallback: Vec<Act>,
    /// `fit[aim]`: the entities a rule's `target` admits (by [`Aim`]'s
    /// discriminant), so that aiming is a mask, not a test per entity.
    fit: [u16; 3],
    /// Each entity's significance, read at every Eliminate tried.
    sig: [i64; W],
    /// Each entity's dice, its own essence pool ([`Self::pool_of`] with
    /// no category), and those that spend essence on every roll and on
    /// Climax rolls only (bits): what a target's roll reads, once an
    /// action per target.
    dice: [u32; W],
    own_pool: [u8; W],
    spend_always: u16,
    spend_climax: u16,
    /// Entities out of play at the start, and those of them that enter
    /// by themselves, with when.
    absent: u16,
    entries: Vec<(u8, Entry)>,
    /// A ticking bomb's countdown and trigger entities (0 with none).
    countdown: u16,
    trigger: u16,
    /// Whom each entity may meet: the entities of its sub-scenes in a
    /// split scene (a passenger: its lead's), everyone else.
    reach: [u16; W],
    /// A split scene's sub-scenes (key entity, entities), the sub-scenes
    /// each entity is in (bit k), and all of them.
    subs: Vec<(u8, u16)>,
    sub_of: [u8; N],
    all_subs: u8,
    /// The first state of every scene ([`Self::fresh`]), made once.
    initial: Option<State>,
    /// No passenger (nobody ever aboard), no ticking bomb, no split
    /// scene and no one-effect Block (no shield ever set): the scene's
    /// loop runs as [`Eng`]`<true>`.
    plain: bool,
}

impl SkirmishRounds {
    /// One scene, roll by roll, as [`crate::model::play`] plays it (the
    /// same draws), with the state changed in place.
    pub fn play(&self, rng: &mut DiceRng) -> Outcome {
        // The generator on this frame: its state need not be stored back
        // after every draw.
        rng.on_this_frame(|rng| {
            if self.plain {
                Eng::<true>(self).play_here(rng)
            } else {
                self.full().play_here(rng)
            }
        })
    }

    /// `trials` scenes, each outcome handed to `each`: the same draws as
    /// [`Self::play`] scene after scene, with the generator put on this
    /// frame once, and a plain scene's loop ([`Eng`]) chosen once.
    pub fn play_each(&self, rng: &mut DiceRng, trials: u64, mut each: impl FnMut(&Outcome)) {
        rng.on_this_frame(|rng| {
            if self.plain {
                let e = Eng::<true>(self);
                for _ in 0..trials {
                    each(&e.play_here(rng));
                }
            } else {
                let e = self.full();
                for _ in 0..trials {
                    each(&e.play_here(rng));
                }
            }
        })
    }

    /// The engine with every check in place: what the exact chain, the
    /// round's frame and the tests run.
    #[inline(always)]
    fn full(&self) -> Eng<'_, false> {
        Eng(self)
    }

    pub fn entities(&self) -> usize {
        self.n
    }

    /// The exact law of the outcome, `None` beyond [`MAX_EXACT_ENTITIES`]
    /// entities or [`MAX_STATES`] live states.
    pub fn exact(&self) -> Option<Marginals> {
        if self.n > MAX_EXACT_ENTITIES && !self.split_small() {
            return None;
        }
        let limits = Limits {
            max_rounds: self.sk.round_cap as usize + 1,
            max_states: MAX_STATES,
            ..Limits::default()
        };
        solve(self, FIELDS, limits).map(|s| s.marginals)
    }

    /// The line slot between `i` and `j` (opposed).
    #[inline(always)]
    pub fn pair(&self, i: usize, j: usize) -> usize {
        self.pairs[i & (W - 1)][j & (W - 1)] as usize
    }

    #[inline(always)]
    fn line(&self, s: &State, i: usize, j: usize) -> bool {
        s.lines >> self.pair(self.anchor(s, i), self.anchor(s, j)) & 1 == 1
    }

    /// A slot's edge (kept from the PC side's entity) as `a`'s.
    #[inline(always)]
    fn signed(&self, a: usize, e: i16) -> i64 {
        if self.side[a & (W - 1)] == PCS {
            e as i64
        } else {
            -(e as i64)
        }
    }

    /// The entities `a` has an open line with in `lines`, read off its
    /// row (PC side) or column (GM side) of slots at once: a shift, a
    /// mask and a table, not a test per opponent, because every decision
    /// asks.
    #[inline(always)]
    fn lined_to(&self, lines: u64, a: usize) -> u16 {
        let a = a & (W - 1);
        let x = lines >> self.slot_shift[a];
        if self.side[a] == PCS {
            self.row_ents[(x & 63) as usize]
        } else {
            // Bits 0, 6, …, 30 (one per PC-side index) gathered into bits
            // 30..36 by one multiplication: each partial product lands on
            // a bit of its own, so nothing carries into them.
            const COL: u64 = 0x4104_1041;
            const GATHER: u64 = 1 << 30 | 1 << 25 | 1 << 20 | 1 << 15 | 1 << 10 | 1 << 5;
            self.col_ents[((x & COL).wrapping_mul(GATHER) >> 30 & 63) as usize]
        }
    }

    /// The essence pool entity `i` draws on with the category `cat`
    /// ([`NONE`]: its own): slot 0 with one pool.
    #[inline(always)]
    fn pool_of(&self, i: usize, cat: u8) -> usize {
        // Its own pool (most actions) is in the table made once a scene.
        if cat == NONE {
            return self.own_pool[i & (W - 1)] as usize;
        }
        match self.sk.variants.essence {
            EssenceRule::One => 0,
            EssenceRule::Four => cat as usize,
        }
    }

    /// Whether `i`'s Block takes the one-effect reading now: chosen, and
    /// `i` one of the many (its side has two or more participants).
    fn one_effect(&self, s: &State, i: usize) -> bool {
        self.sk.variants.block == BlockRule::OneEffect && {
            let mine = (0..self.n)
                .filter(|&k| {
                    self.side[k] == self.side[i] && s.alive >> k & 1 == 1 && s.aboard >> k & 1 == 0
                })
                .count();
            mine >= 2
        }
    }

    /// `i`'s least and greatest edge over the opponents it has lines with
    /// (0, 0 with none).
    #[inline]
    fn edge_range(&self, s: &State, i: usize) -> (i64, i64) {
        self.edges_over(s, i, self.lined(s, i))
    }
}

/// The engine as a scene's loop runs it. `PLAIN`: the scene has no
/// passenger, ticking bomb or split and no one-effect Block
/// ([`SkirmishRounds::plain`]), so the loop a henchmen scene samples is
/// compiled without their checks (7% of its instructions, 2026-11-28);
/// `Eng<false>` is every rule, the only one the exact chain runs.
#[derive(Clone, Copy)]
pub(super) struct Eng<'a, const PLAIN: bool>(&'a SkirmishRounds);

impl<const P: bool> std::ops::Deref for Eng<'_, P> {
    type Target = SkirmishRounds;

    #[inline(always)]
    fn deref(&self) -> &SkirmishRounds {
        self.0
    }
}

impl<const P: bool> Eng<'_, P> {
    /// One scene, roll by roll, on the caller's generator, which a
    /// sampler playing many scenes puts on its own frame once
    /// ([`DiceRng::on_this_frame`]).
    #[inline(always)]
    fn play_here(&self, rng: &mut DiceRng) -> Outcome {
        let mut s = self.start();
        let mut round = 1;
        loop {
            let roll = self.roll_fused(round, &s, rng);
            match self.advance(round, &mut s, &roll) {
                Step::Roll => {}
                Step::Round => round += 1,
                Step::End(o) => return o,
            }
        }
    }

    /// Who `i` stands for on the lines: its lead while it rides as a
    /// passenger ("Their initiative and Edge score is determined by their
    /// lead entity"), else itself.
    #[inline(always)]
    fn anchor(&self, s: &State, i: usize) -> usize {
        if !P && s.aboard >> i & 1 == 1 {
            self.lead[i & (W - 1)] as usize
        } else {
            i
        }
    }

    /// `i`'s signed edge over `j` on their line slot (a passenger's is
    /// its lead's).
    #[inline(always)]
    fn edge(&self, s: &State, i: usize, j: usize) -> i64 {
        let (a, b) = (self.anchor(s, i), self.anchor(s, j));
        self.signed(a, s.edges[self.pair(a, b)])
    }

    /// The opponents of `i` still in the scene and taking part (a
    /// passenger riding with its lead is no participant: no line joins
    /// it, and a Climax needs none to it).
    #[inline(always)]
    fn opponents(&self, s: &State, i: usize) -> u16 {
        if P {
            self.foes[i & (W - 1)] & s.alive
        } else {
            self.foes[i & (W - 1)] & s.alive & !s.aboard & self.reach[i & (W - 1)]
        }
    }

    /// Those of them `i` (or its lead) has a line with.
    #[inline(always)]
    fn lined(&self, s: &State, i: usize) -> u16 {
        // An opponent taking part rides with nobody: it is its own
        // anchor.
        self.opponents(s, i) & self.lined_to(s.lines, self.anchor(s, i))
    }

    /// The edge a Manoeuvre opens `i`'s line to `j` at: 0, or last
    /// round's edge moved one step toward `j`.
    #[inline]
    fn reopened(&self, s: &State, i: usize, j: usize) -> i64 {
        // Open at the end of last round, or during it, or broken this
        // round (it was open when this round began).
        if (s.was | s.broke) >> self.pair(i, j) & 1 == 1 {
            self.edge(s, i, j) - 1
        } else {
            0
        }
    }

    /// The same over the opponents of `lined` (`i`'s lines, found
    /// already).
    #[inline]
    fn edges_over(&self, s: &State, i: usize, lined: u16) -> (i64, i64) {
        if lined == 0 {
            return (0, 0);
        }
        // An opponent taking part is its own anchor.
        let a = self.anchor(s, i);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for j in Bits(lined) {
            let e = self.signed(a, s.edges[self.pair(a, j)]);
            lo = lo.min(e);
            hi = hi.max(e);
        }
        (lo, hi)
    }
}

/// The same helpers with every check, for what runs outside a scene's
/// loop (the round's frame, the exact chain, the tests).
impl SkirmishRounds {
    #[inline(always)]
    fn anchor(&self, s: &State, i: usize) -> usize {
        self.full().anchor(s, i)
    }

    /// `i`'s signed edge over `j` on their line slot (a passenger's is
    /// its lead's).
    pub fn edge(&self, s: &State, i: usize, j: usize) -> i64 {
        self.full().edge(s, i, j)
    }

    fn lined(&self, s: &State, i: usize) -> u16 {
        self.full().lined(s, i)
    }

    fn edges_over(&self, s: &State, i: usize, lined: u16) -> (i64, i64) {
        self.full().edges_over(s, i, lined)
    }
}

#[cfg(test)]
mod tests;
