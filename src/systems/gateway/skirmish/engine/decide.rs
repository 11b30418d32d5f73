//! What an entity does in a skirmish: what it sees ([`View`]), whom an
//! action may be declared against, the rule its policy takes, and the
//! numbers of its roll ([`Turn`]).

use super::super::cast::{SearchCost, SetupFree, Shortfall, SurpriseLines};
use super::super::moves::{Aim, Move, Moves};
use super::super::state::*;
use super::{
    Act, Aims, Bits, Eng, MAX_DICE, N, NONE, SHAPE_LINES, SHAPE_OTHER, SkirmishRounds, Turn, W,
};
use crate::systems::gateway::scene::rules::{View, When};

/// The cheap refusals ([`SkirmishRounds::closed`]), a bit each.
const CLOSED_CLIMAX: u8 = 1;
const CLOSED_ANTICLIMAX: u8 = 2;
const CLOSED_BLOCK: u8 = 4;
const CLOSED_MANOEUVRE: u8 = 8;
const CLOSED_ELIMINATE: u8 = 16;

/// Every cheap refusal's bit.
pub(super) const CLOSED_ALL: u8 = 31;

/// For each set of cheap refusals closed (a `CLOSED_*` mask), the first
/// of `rules` (each: whether it has a condition, and its action's
/// [`Act::refuse`]) that a decision must try: the rules before it have
/// no condition and a refusal in the set.
pub(super) fn open_from(rules: &[(bool, u8)]) -> [u8; 32] {
    std::array::from_fn(|closed| {
        rules
            .iter()
            .position(|&(when, refuse)| when || refuse & closed as u8 == 0)
            .unwrap_or(rules.len()) as u8
    })
}

/// The cheap refusals an action with the effects `m` is subject to (none
/// for a Surprise, which opens lines before the rest is judged).
pub(super) fn refusals(m: Moves) -> u8 {
    if m.has(Move::Surprise) {
        return 0;
    }
    [
        (Move::Climax, CLOSED_CLIMAX),
        (Move::Anticlimax, CLOSED_ANTICLIMAX),
        (Move::Block, CLOSED_BLOCK),
        (Move::Manoeuvre, CLOSED_MANOEUVRE),
        (Move::Eliminate, CLOSED_ELIMINATE),
    ]
    .iter()
    .filter(|(mv, _)| m.has(*mv))
    .fold(0, |a, (_, bit)| a | bit)
}

/// Whether a rule's condition holds in the view `v`, given a copy: out of
/// line and by value, so that only a rule with a condition puts the view
/// in memory; a decision with none keeps it in registers.
#[inline(never)]
fn holds(w: &When, v: View) -> bool {
    v.holds(w)
}

/// What every rule an actor's policy tries reads first, found once per
/// decision: its opponents taking part and those it has a line with.
#[derive(Clone, Copy)]
pub(super) struct Sight {
    opp: u16,
    lined: u16,
}

// `sight`, `view_seen` and `decide_seen` are inlined into `turn`, which
// runs once an action: their results (a `View`, an `Act` and its `Aims`)
// then stay in registers instead of going through memory on every call.
impl<const P: bool> Eng<'_, P> {
    #[inline(always)]
    pub(super) fn sight(&self, i: usize, s: &State) -> Sight {
        Sight {
            opp: self.opponents(s, i),
            lined: self.lined(s, i),
        }
    }

    /// The same with `i`'s opponents and lines found already. `edge`:
    /// the view's edge is read (by a rule's condition); else it is found
    /// only where Climax and Anticlimax need it (a line to every
    /// opponent), and left 0 otherwise.
    #[inline(always)]
    fn view_seen(&self, i: usize, s: &State, round: usize, seen: Sight, edge: bool) -> View {
        let ladder = s.ladder as i64;
        let Sight { opp, lined } = seen;
        let all = opp != 0 && lined == opp;
        let (lo, hi) = if all || edge {
            self.edges_over(s, i, lined)
        } else {
            (0, 0)
        };
        // A passenger shares its lead's initiative, but neither climaxes
        // nor blocks.
        let rider = !P && s.aboard >> i & 1 == 1;
        let holds = s.holder as usize == self.anchor(s, i);
        let can_climax = if !P && self.countdown >> i & 1 == 1 {
            !rider && self.bomb_edge(s, i, 0).is_some_and(|lo| lo >= ladder)
        } else {
            !rider && all && lo >= ladder
        };
        View {
            edge: lo,
            ladder,
            round,
            holds_initiative: holds,
            free: s.free[i] as u32 + self.aid[i],
            can_climax,
            can_anticlimax: !rider && all && hi < 0 && ladder == 0,
            can_block: !rider && holds && self.first_to_act(s, i),
            // A skirmish refuses the condition (`moves`).
            opponent_succeeded: false,
        }
    }

    /// A countdown entity's least edge over the trigger entities it must
    /// reach (a ticking bomb): `None` when every trigger is eliminated or
    /// one in play has no line from it (`sur`: lines a Surprise opens at
    /// once, at 0). A trigger out of play counts as a line at 0: the
    /// countdown may enter by a Surprise and Climax once the ladder is
    /// down.
    pub(super) fn bomb_edge(&self, s: &State, i: usize, sur: u16) -> Option<i64> {
        let trig = self.trigger & (s.alive | s.absent);
        if trig == 0 {
            return None;
        }
        let lined = self.lined(s, i);
        let here = trig & s.alive;
        if here & !(lined | sur) != 0 {
            return None;
        }
        let mut lo = if trig & (s.absent | sur) != 0 {
            0
        } else {
            i64::MAX
        };
        for j in 0..self.n {
            if here & lined >> j & 1 == 1 {
                lo = lo.min(self.edge(s, i, j));
            }
        }
        Some(lo)
    }

    /// Nobody but `i`'s own passengers has acted before it this round: a
    /// Block, declared before the opponent rolls, is still possible.
    fn first_to_act(&self, s: &State, i: usize) -> bool {
        // Without passengers, only the first in the order.
        if s.pos == 0 || self.riders[i] == 0 {
            return s.pos == 0;
        }
        self.order(s)[..s.pos as usize]
            .iter()
            .all(|&x| self.lead[x as usize] == i as u8)
    }

    /// The entities `aim` admits (a mask made once per scene).
    #[inline(always)]
    fn fits(&self, aim: Aim) -> u16 {
        self.fit[aim as usize]
    }

    /// Whom `act` is declared against, or `None` when it is not allowed.
    /// Inlined where a decision tries its rules: its answer then stays in
    /// registers, not written to memory and read back per rule tried.
    #[inline(always)]
    pub(super) fn aims(
        &self,
        i: usize,
        s: &State,
        v: &View,
        seen: Sight,
        act: &Act,
    ) -> Option<Aims> {
        let m = act.moves;
        // The common actions first, by the same rules (no passenger
        // aboard: it has rules of its own): per-line effects on every
        // line, or a Manoeuvre at the first opponent without one.
        if act.shape != SHAPE_OTHER && (P || s.aboard >> i & 1 == 0) {
            if act.to != NONE && !self.ally_here(s, i, act.to) {
                return None;
            }
            let mut aims = Aims::default();
            if act.shape == SHAPE_LINES {
                aims.per_line = seen.lined;
                return (seen.lined != 0).then_some(aims);
            }
            let free = seen.opp & !seen.lined;
            if free == 0 {
                return None;
            }
            let j = free.trailing_zeros();
            aims.man = Some(j as u8);
            aims.one = 1 << j;
            return Some(aims);
        }
        const NO_ROLL: Moves = Moves::of(&[Move::Aid, Move::Disembark]);
        // A passenger may only Eliminate, Set-up, Aid Another or
        // Disembark; only Aid Another when its lead holds the initiative
        // and interrupts. Nobody else may Aid or Disembark.
        if !P && s.aboard >> i & 1 == 1 {
            let interrupted = s.interrupt && s.holder == self.lead[i];
            if !m.passenger_may() || (interrupted && m != Moves::of(&[Move::Aid])) {
                return None;
            }
            if m.any(NO_ROLL) {
                return Some(Aims::default());
            }
        } else if m.any(NO_ROLL) {
            return None;
        }
        let opp = seen.opp;
        let mut aims = Aims::default();
        let mut lined = seen.lined;
        // The effects with checks of their own before anyone is aimed at:
        // one test for all of them, since most rules tried have none.
        const CHECKED: Moves = Moves::of(&[
            Move::Surprise,
            Move::Climax,
            Move::Anticlimax,
            Move::Press,
            Move::Accelerate,
            Move::Block,
            Move::Search,
            Move::Recruit,
        ]);
        if m.any(CHECKED) || act.to != NONE {
            if m.has(Move::Surprise) {
                // Only in the round it entered, and opening a line to someone.
                if !self.sk.members[i].absent || s.entered[i] as usize != v.round {
                    return None;
                }
                let free = opp & !lined;
                aims.sur = if act.ent == NONE {
                    free
                } else {
                    free & 1 << act.ent
                };
                if aims.sur == 0 {
                    return None;
                }
                lined |= aims.sur;
            }
            let every = m.needs_every_line();
            let countdown = !P && self.countdown >> i & 1 == 1;
            if every {
                let sur = aims.sur;
                let lo_all = move || {
                    (0..self.n)
                        .filter(|&j| lined >> j & 1 == 1 && sur >> j & 1 == 0)
                        .map(|j| self.edge(s, i, j))
                        .chain((sur != 0).then_some(0))
                        .min()
                        .unwrap_or(0)
                };
                if m.has(Move::Climax) && countdown {
                    // The bomb: a line to the trigger alone.
                    if self
                        .bomb_edge(s, i, aims.sur)
                        .is_none_or(|lo| lo < v.ladder)
                    {
                        return None;
                    }
                    aims.every = self.trigger & (s.alive | s.absent);
                } else if !P
                    && (self.countdown | self.trigger) != 0
                    && !m.has(Move::Climax)
                    && !m.has(Move::Anticlimax)
                    && (opp == 0 || lined != opp)
                {
                    // Press or Accelerate in a ticking bomb: a line to the
                    // trigger or a countdown entity is enough.
                    let tc = (self.countdown | self.trigger) & opp & lined;
                    if tc == 0 {
                        return None;
                    }
                    aims.every = tc;
                } else {
                    if opp == 0 || lined != opp {
                        return None;
                    }
                    if m.has(Move::Climax)
                        && !P
                        && !self.subs.is_empty()
                        && !self.keys_in_play(s, i)
                    {
                        return None;
                    }
                    if m.has(Move::Climax)
                        && !(if aims.sur != 0 {
                            lo_all() >= v.ladder
                        } else {
                            v.can_climax
                        })
                    {
                        return None;
                    }
                    aims.every = opp;
                }
            }
            if (m.has(Move::Anticlimax) && !v.can_anticlimax)
                || (m.has(Move::Block) && !v.can_block)
            {
                return None;
            }
            if m.has(Move::Search) || m.has(Move::Recruit) {
                let j = act.ent as usize;
                if m.has(Move::Search) {
                    // Out of play, and of the searcher's sub-scenes: it
                    // meets no one else (every entity in one scene).
                    if s.absent >> j & 1 == 0 || self.reach[i & (W - 1)] >> j & 1 == 0 {
                        return None;
                    }
                    aims.find = Some(j as u8);
                    aims.one |= 1 << j;
                }
                if m.has(Move::Recruit) {
                    // Its own recruit, in play (or found by this same roll),
                    // not yet aboard.
                    let t = &self.sk.members[j];
                    let here = s.alive >> j & 1 == 1 || aims.find.is_some();
                    if !t.recruit || t.lead != Some(i) || !here || s.aboard >> j & 1 == 1 {
                        return None;
                    }
                    aims.recruit = Some(j as u8);
                    aims.one |= 1 << j;
                }
            }
            if act.to != NONE && !self.ally_here(s, i, act.to) {
                return None;
            }
        }
        let bits = Bits;
        let fit = self.fits(act.aim);
        if m.has(Move::Manoeuvre) {
            // The first in the scene's order that fits.
            let free = opp & !lined & fit;
            if free == 0 {
                return None;
            }
            let j = free.trailing_zeros();
            aims.man = Some(j as u8);
            aims.one |= 1 << j;
        }
        let after = lined | aims.man.map_or(0, |j| 1 << j);
        // Copies, not borrows of `aims`: a closure holding a reference
        // would keep `aims` in memory through the whole decision.
        let man = aims.man;
        let start = move |j: usize| self.start_edge(s, i, j, man);
        let sig = move |j: usize| self.sig[j];
        if m.per_line() {
            let set = after & fit;
            let set = if act.aim == Aim::Minor {
                // One minor opponent: the nearest to elimination.
                bits(set)
                    .max_by_key(|&j| (start(j) - sig(j), std::cmp::Reverse(j)))
                    .map_or(0, |j| 1 << j)
            } else {
                set
            };
            if set == 0 {
                return None;
            }
            aims.per_line = set;
        }
        if m.has(Move::Disengage) {
            let j = bits(lined & fit).min_by_key(|&j| (self.edge(s, i, j), j))?;
            aims.dis = Some(j as u8);
            aims.one |= 1 << j;
        }
        if m.has(Move::Eliminate) {
            // A minor opponent on a line, or a passenger riding with one
            // (on its lead's line, at its own significance).
            // The one nearest elimination (the greatest gap), the first
            // in the scene's order among equals; a loop, not an iterator
            // chain, because most decisions of a henchmen scene try it.
            let raises = self.sk.variants.eliminate == Shortfall::Raises;
            let mut best: Option<(i64, u8)> = None;
            for j in bits(self.foes[i] & s.alive & self.minors & fit) {
                if after >> self.anchor(s, j) & 1 == 0 {
                    continue;
                }
                let gap = start(j) - sig(j);
                if (raises || gap >= 0) && best.is_none_or(|(g, _)| gap > g) {
                    best = Some((gap, j as u8));
                }
            }
            let (gap, j) = best?;
            aims.elim = Some(j);
            aims.one |= 1 << j;
            // Each point the edge falls short costs a raise (the
            // "raises" reading; with the other, `gap` is never negative).
            aims.short = (-gap).clamp(0, u16::MAX as i64) as u16;
        }
        Some(aims)
    }

    /// Whether the ally `to` a Set-up or Block hands over to is in the
    /// scene. Never `i` itself nor an opponent: a rule naming one is
    /// left out when its policy is compiled ([`SkirmishRounds::new`]).
    #[inline(always)]
    fn ally_here(&self, s: &State, i: usize, to: u8) -> bool {
        let a = to as usize & (W - 1);
        debug_assert!(a != i && self.side[a] == self.side[i & (W - 1)]);
        s.alive >> a & 1 == 1
    }

    /// `i`'s edge over `j` as an action that may open a line to `man`
    /// first sees it (over a passenger: over its lead).
    #[inline(always)]
    fn start_edge(&self, s: &State, i: usize, j: usize, man: Option<u8>) -> i64 {
        let a = self.anchor(s, j);
        if man == Some(a as u8) {
            self.reopened(s, i, a)
        } else {
            self.edge(s, i, a)
        }
    }

    /// Which of the cheap refusals are closed now (`CLOSED_*` bits), told
    /// from the view and the sight alone: no Climax or Anticlimax (a line
    /// missing, or short of the ladder), no Block (out of turn), no
    /// Manoeuvre (every line open), no Eliminate (no minor opponent
    /// left). Found once a decision; each rule then tests its own
    /// [`Act::refuse`] against them, so that most rules a policy passes
    /// over cost one test, not a call of [`Self::aims`].
    #[inline(always)]
    fn closed(&self, i: usize, s: &State, v: &View, seen: Sight) -> u8 {
        let shut = |closed: bool, bit: u8| if closed { bit } else { 0 };
        shut(!v.can_climax, CLOSED_CLIMAX)
            | shut(!v.can_anticlimax, CLOSED_ANTICLIMAX)
            | shut(!v.can_block, CLOSED_BLOCK)
            | shut(seen.opp & !seen.lined == 0, CLOSED_MANOEUVRE)
            | shut(self.foes[i] & s.alive & self.minors == 0, CLOSED_ELIMINATE)
    }

    /// `act`'s aims, or `None` when it is not allowed: the cheap refusals
    /// first ([`Self::closed`]), then [`Self::aims`].
    #[inline(always)]
    fn try_act(
        &self,
        i: usize,
        s: &State,
        v: &View,
        seen: Sight,
        closed: u8,
        act: &Act,
    ) -> Option<Aims> {
        if act.refuse & closed != 0 {
            debug_assert!(self.aims(i, s, v, seen, act).is_none(), "{act:?}");
            return None;
        }
        self.aims(i, s, v, seen, act)
    }

    /// The same with `i`'s opponents and lines found already.
    #[inline(always)]
    fn decide_seen(&self, i: usize, s: &State, v: &View, seen: Sight) -> (Act, Aims) {
        let closed = self.closed(i, s, v, seen);
        // The rules the cheap refusals close, up to the first that may
        // hold, are passed over at once.
        let from = self.open_from[i & (W - 1)][closed as usize & (CLOSED_ALL as usize)] as usize;
        for (when, act) in &self.policies[i][from..] {
            if when.as_ref().is_none_or(|w| holds(w, *v)) {
                if let Some(a) = self.try_act(i, s, v, seen, closed, act) {
                    return (*act, a);
                }
            }
        }
        // The default policy likewise, from its first rule not closed.
        let fallback = if !P && s.aboard >> i & 1 == 1 {
            &self.rider_fallback[..]
        } else {
            &self.fallback[self.fallback_from[closed as usize & (CLOSED_ALL as usize)] as usize..]
        };
        for act in fallback {
            if let Some(a) = self.try_act(i, s, v, seen, closed, act) {
                return (*act, a);
            }
        }
        // No opponent in play to act on (they are all out of play yet):
        // it lets the round pass.
        (Act::PASS, Aims::default())
    }

    /// [`Self::turn`], inlined into the sampler's loop
    /// ([`SkirmishRounds::play`]), where the `Turn` is then built in the
    /// loop's own frame and read back from there by the roll and
    /// [`SkirmishRounds::advance`], not returned through memory twice.
    /// `dts`: the targets' dice and DTs are filled in; the sampler's loop
    /// leaves them out and finds each as it rolls against it
    /// ([`SkirmishRounds::roll_fused`]), with the raises paid (uncapped)
    /// returned beside the turn for it.
    #[inline(always)]
    pub(super) fn turn_here(&self, round: usize, s: &State, dts: bool) -> (Turn, u32) {
        let i = self.actor(s);
        let seen = self.sight(i, s);
        let v = self.view_seen(i, s, round, seen, self.conditional >> i & 1 == 1);
        let (act, aims) = self.decide_seen(i, s, &v, seen);
        let m = act.moves;
        // Each effect beyond the first, and handing a Set-up over, cost
        // a raise; so does each point an Eliminate's edge falls short
        // (the "raises" reading).
        let short = aims.short as u32;
        // A Search: one raise per point of significance over 1 (or per
        // point, `search_cost = "significance"`).
        let search = aims.find.map_or(0, |j| {
            let sig = self.sk.members[j as usize].significance as u32;
            match self.sk.variants.search_cost {
                SearchCost::OverOne => sig.saturating_sub(1),
                SearchCost::Significance => sig,
            }
        });
        let mut needed = act.extra as u32 + short + search;
        if m.has(Move::Press) {
            needed += s.accel.iter().map(|&l| l as u32).sum::<u32>();
        }
        if m.has(Move::Accelerate) && s.pressed != 0 {
            needed += 1;
        }
        // Aid Another and Disembark: no roll, nothing paid or spent.
        let no_roll = act.no_roll;
        let total = if no_roll { 0 } else { needed + act.raises };
        let free = if no_roll { 0 } else { v.free };
        let paid = total.saturating_sub(free);
        let effect_raises = if no_roll {
            0
        } else {
            act.raises + free.saturating_sub(total)
        };
        let climax = m.has(Move::Climax);
        let pool = self.pool_of(i, act.cat);
        // `Entity::spends`, read from the tables made once a scene (the
        // pool only for an entity that would spend).
        let spends = !no_roll && self.spenders(climax) >> i & 1 == 1 && s.essence[i][pool] > 0;
        let gives = match self.sk.variants.setup_free {
            SetupFree::One => 1,
            SetupFree::PerRaise => 1 + effect_raises,
        };
        let cap = |x: u32| x.min(u8::MAX as u32) as u8;
        let mut t = Turn {
            actor: i as u8,
            act,
            aims,
            steps: cap(1 + effect_raises),
            used: cap(needed + effect_raises),
            paid: cap(paid),
            gives: cap(gives),
            dice: (self.dice[i & (W - 1)] + spends as u32).min(MAX_DICE as u32) as u8,
            spends,
            pool: pool as u8,
            targets: 0,
            resists: 0,
            tdice: [0; N],
            need: [0; N],
        };
        // A Surprise that opens only the lines its roll wins is rolled
        // against each surprised opponent's DT.
        let surprised = if !no_roll && self.sk.variants.surprise_lines == SurpriseLines::OnSuccess {
            aims.sur
        } else {
            0
        };
        let targets = aims.per_line | surprised | aims.every | aims.one;
        t.targets = targets;
        if dts {
            let a = self.anchor(s, i);
            let spenders = self.spenders(climax);
            for j in Bits(targets) {
                let (resists, dice, need) = self.dt(s, i, a, j, spenders, paid);
                t.resists |= (resists as u16) << j;
                t.tdice[j] = dice;
                t.need[j] = need.clamp(-99, 99) as i16;
            }
        }
        (t, paid)
    }
}

/// The decision's entry points with every check, for the round's frame
/// (a Block's probe), the exact chain and the tests.
impl SkirmishRounds {
    pub(super) fn view(&self, i: usize, s: &State, round: usize) -> View {
        let e = self.full();
        e.view_seen(i, s, round, e.sight(i, s), true)
    }

    /// The action `i`'s policy takes: its first rule that holds and is
    /// allowed, else the default policy's first allowed rule.
    pub(super) fn decide(&self, i: usize, s: &State, v: &View) -> (Act, Aims) {
        let e = self.full();
        e.decide_seen(i, s, v, e.sight(i, s))
    }

    pub fn turn(&self, round: usize, s: &State) -> Turn {
        self.full().turn_here(round, s, true).0
    }
}
