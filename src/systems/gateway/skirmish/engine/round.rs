//! The frame of a skirmish round: the acting order the initiative holder
//! sets, who acts next, the end of the round (the ladder, Press against
//! Accelerate) and who takes the next initiative.

use super::super::cast::{GM, PCS, PressAccelerate, TieRule};
use super::super::moves::Move;
use super::super::state::*;
use super::{Bits, Bits64, N, Order, SkirmishRounds, Step, W};
use crate::systems::gateway::scene::Tie;

impl SkirmishRounds {
    #[inline(always)]
    fn order_of(&self, s: &State) -> &Order {
        &self.orders[s.holder as usize & (W - 1)][s.lead as usize]
    }

    #[inline]
    pub(super) fn order(&self, s: &State) -> &[u8] {
        let o = self.order_of(s);
        &o.ents[..o.len as usize]
    }

    /// Entities in this round's order (acted or not).
    #[inline(always)]
    pub(super) fn order_len(&self, s: &State) -> usize {
        self.order_of(s).len as usize
    }

    /// Who acts next, as [`Self::skip`] noted it.
    #[inline(always)]
    pub(super) fn actor(&self, s: &State) -> usize {
        debug_assert!(s.pos < self.order_of(s).len);
        debug_assert_eq!(s.actor, self.order_of(s).ents[s.pos as usize & (W - 1)]);
        s.actor as usize & (W - 1)
    }

    /// Move `pos` past entities that are gone or blocked, and note who
    /// acts there (past the order's end: a slot never read).
    #[inline]
    pub(super) fn skip(&self, s: &mut State) {
        let o = self.order_of(s);
        let able = s.alive & !s.blocked;
        let mut pos = s.pos as usize;
        while pos < o.len as usize && able >> o.ents[pos & (W - 1)] & 1 == 0 {
            pos += 1;
        }
        s.pos = pos as u8;
        s.actor = o.ents[pos & (W - 1)];
    }

    pub(super) fn begin(&self, round: usize, s: &mut State) {
        if s.absent != 0 && !self.entries.is_empty() {
            self.arrive(s, round);
        }
        let h = s.holder as usize;
        s.pos = 0;
        s.lead = true;
        s.interrupt = false;
        let me = &self.sk.members[h];
        let rides = self.riders[h] != 0;
        if !me.entity.first || me.order.is_some() || rides {
            // Does the holder mean to Block (interrupt)? It then acts
            // first, and its passengers may only Aid Another.
            // Asked of the state as if it led (no copy of the state: the
            // decision reads nothing else that `lead` changes).
            s.lead = true;
            let v = self.view(h, s, round);
            let blocks = self.decide(h, s, &v).0.moves.has(Move::Block);
            s.lead = blocks || (me.entity.first && me.order.is_none());
            s.interrupt = rides && blocks;
        }
        self.skip(s);
    }

    pub(super) fn outcome(&self, winner: i64, round: usize, s: &State) -> Outcome {
        let mut o = [0; FIELDS];
        o[F_WINNER] = winner;
        o[F_ROUNDS] = round as i64;
        o[F_LADDER] = s.ladder as i64;
        let key = self.sk.key();
        // Eliminated: neither in the scene nor out of play yet.
        let gone = self.everyone & !s.alive & !s.absent;
        o[F_ELIM + PCS as usize] = (gone & self.pc_side).count_ones() as i64;
        o[F_ELIM + GM as usize] = (gone & !self.pc_side).count_ones() as i64;
        for i in 0..self.n {
            o[f_survived(i)] = (s.alive >> i & 1) as i64;
        }
        // Only an entity out of play at the start ever enters.
        for i in Bits(self.absent) {
            o[F_ENTERED + i / ENTERED_PER_FIELD] |=
                (s.entered[i] as i64) << (8 * (i % ENTERED_PER_FIELD));
        }
        for i in Bits(self.pc_side) {
            if self.line(s, i, key) {
                o[f_edge(i)] = self.edge(s, i, key);
            }
        }
        o[F_LINES] = s.lines.count_ones() as i64;
        o[F_SPENT] = s.spent[0] as i64;
        o[F_SPENT + 1] = s.spent[1] as i64;
        o[F_GIVEN] = s.given as i64;
        o[F_CLIMAXED] = s.climaxed as i64;
        // 4 bits an entity, 12 entities: within an i64's 63.
        o[F_TROOP] = s.troop as i64;
        o
    }

    pub(super) fn end_round(&self, round: usize, s: &mut State) -> Step {
        // Most rounds see no Accelerate: one comparison, not a sum.
        let accelerated: i64 = if s.accel == [0; N] {
            0
        } else {
            s.accel.iter().map(|&l| l as i64).sum()
        };
        let both = s.pressed != 0 && accelerated > 0;
        // Which of Press and Accelerate count, and the ladder's drop.
        let (press, accel, drop) = match (both, self.sk.variants.press_accelerate) {
            (false, _) => (true, true, i64::from(s.pressed == 0) + accelerated),
            (true, PressAccelerate::Cancel) => (false, false, 1),
            (true, PressAccelerate::LaterWins) if s.last_pa == 1 => (true, false, 0),
            (true, PressAccelerate::LaterWins) => (false, true, 1 + accelerated),
        };
        let holder = self.initiative(s, press, accel);
        s.ladder = (s.ladder as i64 - drop).max(0) as u8;
        s.holder = holder as u8;
        // An edge is kept only for a line open during this round. Every
        // other slot is 0 already (cleared at an earlier round's end, or
        // by Eliminate and Recruit as the line went), so only the lines
        // open during the last round and not this one need clearing.
        let gone = s.was & !(s.lines | s.broke);
        s.was = s.lines | s.broke;
        for p in Bits64(gone) {
            s.edges[p] = 0;
        }
        debug_assert!((0..PAIRS).all(|p| s.was >> p & 1 == 1 || s.edges[p] == 0));
        s.broke = 0;
        s.blocked = 0;
        s.ranks = [0; N];
        s.used = [0; N];
        s.pressed = 0;
        s.accel = [0; N];
        s.last_pa = 0;
        s.gave = [0; N];
        s.shield = [0; N];
        s.shielder = [0; N];
        s.forfeit = 0;
        s.hit = [0; 2];
        if round >= self.sk.round_cap as usize {
            return Step::End(self.outcome(STALEMATE, round, s));
        }
        self.begin(round + 1, s);
        Step::Round
    }

    /// The holder of next round's initiative.
    pub(super) fn initiative(&self, s: &State, press: bool, accel: bool) -> usize {
        let holder = s.holder as usize;
        // Who may hold it: in the scene, no passenger riding, not one
        // that lost it by a one-effect Block (a mask, walked by its bits;
        // the others rank 0).
        let able_now = s.alive & !(s.aboard | s.forfeit);
        let able = |i: usize| able_now >> i & 1 == 1;
        // Each one's rank: its best successful effect, a Press or an
        // Accelerate counted where they count. Most rounds have neither,
        // and the ranks are then read as they are.
        let lifted = (press && s.pressed != 0) || (accel && s.accel != [0; N]);
        let rank = |i: usize| {
            let mut r = s.ranks[i];
            if lifted {
                if press && s.pressed >> i & 1 == 1 {
                    r = r.max(Move::Press.rank());
                }
                if accel && s.accel[i] > 0 {
                    r = r.max(Move::Accelerate.rank());
                }
            }
            r
        };
        // The best rank and those who reach it (none able: no rank).
        let (best, mut tied) = greatest(able_now, |i| rank(i) as i64);
        let order = self.order(s);
        if best <= 0 {
            // Nobody successful: the holder keeps it; a holder that lost
            // it by its Block hands it to the other side.
            let lost = s.forfeit >> holder & 1 == 1;
            return if able(holder) {
                holder
            } else {
                order
                    .iter()
                    .map(|&i| i as usize)
                    .find(|&i| able(i) && (!lost || self.side[i] != self.side[holder]))
                    .unwrap_or(holder)
            };
        }
        // Only those able rank above 0, and `best` is above 0 here: those
        // who reach it are `tied`.
        // A giver tied with the ally it handed its free raises to: the
        // ally takes it (givers in the scene's order, each judged against
        // the ties left by those before it).
        if s.gave != [0; N] {
            for g in Bits(tied) {
                let r = s.gave[g];
                if r != 0 && tied >> (r - 1) & 1 == 1 {
                    tied &= !(1 << g);
                }
            }
        }
        let used = |i: usize| s.used[i] as i64;
        let edge_score = |i: usize| self.edge_range(s, i).1.max(0);
        match self.sk.variants.tie {
            TieRule::Holder => {
                if tied >> holder & 1 == 1 {
                    return holder;
                }
                narrow(&mut tied, used);
            }
            TieRule::Scene(Tie::Raises) => narrow(&mut tied, used),
            TieRule::Scene(Tie::Edge) => narrow(&mut tied, edge_score),
        }
        if tied >> holder & 1 == 1 {
            return holder;
        }
        order
            .iter()
            .map(|&i| i as usize)
            .find(|i| tied >> i & 1 == 1)
            .unwrap_or(holder)
    }
}

/// Those of `tied` with the greatest `score`, when more than one is tied
/// (the others never had a chance, so only the tied are scored).
#[inline]
fn narrow(tied: &mut u16, score: impl Fn(usize) -> i64) {
    if *tied & tied.wrapping_sub(1) != 0 {
        *tied = greatest(*tied, score).1;
    }
}

/// The greatest `score` among the entities of `mask` and those that
/// reach it, in one pass (`i64::MIN` and none for an empty mask).
#[inline(always)]
fn greatest(mask: u16, score: impl Fn(usize) -> i64) -> (i64, u16) {
    let (mut top, mut at) = (i64::MIN, 0u16);
    for i in Bits(mask) {
        let v = score(i);
        if v > top {
            (top, at) = (v, 1 << i);
        } else if v == top {
            at |= 1 << i;
        }
    }
    (top, at)
}
