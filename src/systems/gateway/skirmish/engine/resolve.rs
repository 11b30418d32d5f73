//! One action resolved: the law of its roll (exact) and a bespoke roll of
//! its dice (sampled), and the state it leaves: lines opened, moved and
//! broken, entities eliminated, free raises handed out, the scene ended.

use super::super::cast::{
    Disembark, Entry, EssenceRule, GM, PCS, PassengerSetup, SetupFree, SurpriseLines,
};
use super::super::moves::{Move, Moves};
use super::super::state::*;
use super::{Bits, Eng, MAX_DICE, N, NONE, Roll, SkirmishRounds, Step, W};
use crate::dice::DiceRng;
use crate::model::{After, Rounds};
use crate::systems::gateway::scene::edged;

impl SkirmishRounds {
    /// Who spends essence resisting a roll (a Climax's or another),
    /// while points last (`Entity::spends`, read from the tables made
    /// once a scene).
    #[inline(always)]
    pub(super) fn spenders(&self, climax: bool) -> u16 {
        self.spend_always | if climax { self.spend_climax } else { 0 }
    }

    /// The scene's first state, built: its entities' essence, squads,
    /// passengers and opening lines, and the first round begun.
    pub(super) fn fresh(&self) -> State {
        let mut s = State {
            edges: [0; PAIRS],
            lines: 0,
            was: 0,
            alive: ((1u32 << self.n) - 1) as u16 & !self.absent,
            aboard: 0,
            absent: self.absent,
            entered: [0; N],
            troop: 0,
            climaxed: 0,
            hit: [0; 2],
            essence: [[0; 4]; N],
            free: [0; N],
            ladder: self.sk.ladder.clamp(0, 255) as u8,
            holder: self.sk.holder as u8,
            spent: [0; 2],
            given: 0,
            lead: true,
            pos: 0,
            blocked: 0,
            ranks: [0; N],
            used: [0; N],
            pressed: 0,
            accel: [0; N],
            last_pa: 0,
            gave: [0; N],
            broke: 0,
            interrupt: false,
            shield: [0; N],
            shielder: [0; N],
            forfeit: 0,
            actor: 0,
        };
        for (i, m) in self.sk.members.iter().enumerate() {
            // One pool holds all of it; four hold it by category, an
            // undivided `essence` in the entity's own category.
            let pools = m.pools.unwrap_or([0; 4]);
            match self.sk.variants.essence {
                EssenceRule::One => s.essence[i][0] = m.entity.essence + pools.iter().sum::<u8>(),
                EssenceRule::Four => {
                    s.essence[i] = pools;
                    s.essence[i][m.category as usize] += m.entity.essence;
                }
            }
            if m.lead.is_some() && !m.recruit {
                s.aboard |= 1 << i;
            }
            s.troop |= (m.squad.min(15) as u64) << (4 * i);
        }
        for &(i, j, e) in &self.sk.lines {
            self.open(&mut s, i, j, e);
        }
        self.begin(1, &mut s);
        s
    }

    /// Open the line between `i` and `j` at `e` (from `i`'s side).
    pub(super) fn open(&self, s: &mut State, i: usize, j: usize, e: i64) {
        let p = self.pair(i, j);
        s.lines |= 1 << p;
        let e = if self.side[i & (W - 1)] == PCS { e } else { -e };
        s.edges[p] = e.clamp(-999, 999) as i16;
    }

    /// Entity `j`, out of play, enters the scene in `round` (found by a
    /// Search, or by itself): in the scene, on no line. It acts in its
    /// place in this round's order if that is still to come.
    pub(super) fn enter(&self, s: &mut State, j: usize, round: usize) {
        s.absent &= !(1 << j);
        s.alive |= 1 << j;
        s.entered[j] = round.clamp(1, u8::MAX as usize) as u8;
    }

    /// Those out of play whose entrance the GM's policy calls for now
    /// enter (at the start of a round, and after each action for an
    /// elimination).
    pub(super) fn arrive(&self, s: &mut State, round: usize) {
        for &(j, e) in &self.entries {
            let j = j as usize;
            if s.absent >> j & 1 == 0 {
                continue;
            }
            let now = match e {
                Entry::Round(r) => round >= r as usize,
                Entry::Ladder(l) => (s.ladder as u32) <= l,
                Entry::Eliminated(mask) => (s.alive | s.absent) & mask == 0,
            };
            if now {
                self.enter(s, j, round);
            }
        }
    }

    /// `r` recruits `j`: `j` boards `r` as its passenger, and the lines
    /// and edges `j` held pass to `r` (where `r` has none of its own to
    /// that opponent).
    fn recruit(&self, s: &mut State, r: usize, j: usize) {
        for k in 0..self.n {
            if self.side[k] == self.side[j] {
                continue;
            }
            let p = self.pair(j, k);
            if s.lines >> p & 1 == 1 && !self.line(s, r, k) {
                let e = self.edge(s, j, k);
                self.open(s, r, k, e);
            }
            s.lines &= !(1 << p);
            s.was &= !(1 << p);
            s.broke &= !(1 << p);
            s.edges[p] = 0;
        }
        s.aboard |= 1 << j;
    }

    pub(super) fn eliminate(&self, s: &mut State, j: usize) {
        // Its passengers go with it (a gang whose leader falls): walked
        // by mask, the riders aboard and the opposed entities, as an
        // elimination comes several times a scene.
        for p in Bits(s.aboard & self.riders[j]) {
            s.alive &= !(1 << p);
            s.aboard &= !(1 << p);
            s.free[p] = 0;
        }
        s.alive &= !(1 << j);
        s.aboard &= !(1 << j);
        s.free[j] = 0;
        let mut gone = 0u64;
        for k in Bits(self.foes[j & (W - 1)]) {
            let p = self.pair(j, k);
            gone |= 1 << p;
            s.edges[p] = 0;
        }
        s.lines &= !gone;
        s.was &= !gone;
        s.broke &= !gone;
    }
}

impl Rounds for SkirmishRounds {
    type State = State;
    type Roll = Roll;
    type Outcome = Outcome;

    /// The scene's first state, made once ([`SkirmishRounds::fresh`])
    /// and copied for every scene.
    fn start(&self) -> State {
        match &self.initial {
            Some(s) => *s,
            None => self.fresh(),
        }
    }

    fn law(&self, round: usize, s: &State, out: &mut Vec<(Roll, f64)>) {
        let t = self.turn(round, s);
        if t.act.no_roll {
            out.push((Roll { beat: 0, turn: t }, 1.0));
            return;
        }
        let idx: Vec<usize> = (0..self.n).filter(|j| t.targets >> j & 1 == 1).collect();
        let mut by_mask = vec![0.0f64; 1 << idx.len()];
        for r in 1..=8usize {
            let pr = self.pmf[t.dice as usize][r];
            if pr == 0.0 {
                continue;
            }
            let qs: Vec<f64> = idx
                .iter()
                .map(|&j| {
                    let x = (r as i64 - t.need[j] as i64).clamp(0, 8) as usize;
                    self.cdf[t.tdice[j] as usize][x]
                })
                .collect();
            for (m, slot) in by_mask.iter_mut().enumerate() {
                let mut p = pr;
                for (k, q) in qs.iter().enumerate() {
                    p *= if m >> k & 1 == 1 { *q } else { 1.0 - q };
                }
                *slot += p;
            }
        }
        for (m, &p) in by_mask.iter().enumerate() {
            if p > 0.0 {
                let beat = idx
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| m >> k & 1 == 1)
                    .fold(0u16, |a, (_, &j)| a | 1 << j);
                out.push((Roll { beat, turn: t }, p));
            }
        }
    }

    /// A bespoke roll of the action's dice (the actor's keep-highest
    /// pool, then each target's), kept because it pays on scenes of three
    /// or more entities: drawing from the law's table through the chain's
    /// cache is 4.7× slower on `gateway-henchmen`'s scenes, whose states
    /// rarely recur, though faster on a duel, which the sampler therefore
    /// sends through the chain (2026-11-28; see `Trial::simulate` of
    /// `SkirmishModel`). The chain is its oracle (`tests/chain.rs`).
    fn roll(&self, round: usize, s: &State, rng: &mut DiceRng) -> Roll {
        self.full().roll_here(round, s, rng)
    }

    fn after(&self, round: usize, s: &State, roll: &Roll) -> After<State, Outcome> {
        let mut s = *s;
        match self.full().advance(round, &mut s, roll) {
            Step::Roll => After::Roll(s),
            Step::Round => After::Round(s),
            Step::End(o) => After::End(o),
        }
    }
}

impl<const P: bool> Eng<'_, P> {
    /// Target `j`'s side of a roll by `i` (whose anchor is `a`), `paid`
    /// raises paid: whether it spends essence resisting, its dice, and
    /// the least difference of top dice that beats its DT (unclamped: a
    /// difference of top dice lies in -7..=7).
    #[inline(always)]
    pub(super) fn dt(
        &self,
        s: &State,
        i: usize,
        a: usize,
        j: usize,
        spenders: u16,
        paid: u32,
    ) -> (bool, u8, i64) {
        // Its essence is read only when it would spend.
        let resists = spenders >> j & 1 == 1 && s.essence[j][self.own_pool[j] as usize] > 0;
        let dice = (self.dice[j] + resists as u32).min(MAX_DICE as u32) as u8;
        // The edge on the line between their anchors, if open.
        let p = self.pair(a, self.anchor(s, j));
        let adv = if s.lines >> p & 1 == 1 {
            self.signed(a, s.edges[p])
        } else {
            0
        };
        let rest = self.base[i & (W - 1)][j] - 2 * paid as i64;
        (resists, dice, -edged(rest, adv))
    }

    /// [`Rounds::roll`]: the turn with its targets' DTs, the actor's
    /// keep-highest pool, then each target's.
    #[inline]
    pub(super) fn roll_here(&self, round: usize, s: &State, rng: &mut DiceRng) -> Roll {
        let t = self.turn_here(round, s, true).0;
        if t.act.no_roll {
            return Roll { beat: 0, turn: t };
        }
        let top = rng.d8_keep_highest(t.dice as u32) as i16;
        let mut beat = 0u16;
        for j in Bits(t.targets) {
            let theirs = rng.d8_keep_highest(t.tdice[j] as u32) as i16;
            beat |= ((top - theirs >= t.need[j]) as u16) << j;
        }
        Roll { beat, turn: t }
    }

    /// The same roll (the same draws), inlined into the sampler's loop
    /// ([`SkirmishRounds::play`]): each target's dice and DT are found as
    /// it is rolled against, not stored in the turn and read back (the
    /// turn's `tdice` and `need` stay 0; [`Self::advance`] reads neither).
    #[inline(always)]
    pub(super) fn roll_fused(&self, round: usize, s: &State, rng: &mut DiceRng) -> Roll {
        let (mut t, paid) = self.turn_here(round, s, false);
        if t.act.no_roll {
            return Roll { beat: 0, turn: t };
        }
        let i = t.actor as usize;
        let a = self.anchor(s, i);
        let spenders = self.spenders(t.act.moves.has(Move::Climax));
        let top = rng.d8_keep_highest(t.dice as u32) as i64;
        let mut beat = 0u16;
        let mut resists = 0u16;
        for j in Bits(t.targets) {
            let (spends, dice, need) = self.dt(s, i, a, j, spenders, paid);
            resists |= (spends as u16) << j;
            let theirs = rng.d8_keep_highest(dice as u32) as i64;
            beat |= ((top - theirs >= need) as u16) << j;
        }
        t.resists = resists;
        Roll { beat, turn: t }
    }

    /// [`Rounds::after`] in place: `s` becomes the state that follows
    /// `roll`, so the sampler's loop ([`SkirmishRounds::play`]) copies
    /// no state (when the scene ends, what is left in `s` is spent).
    /// Inlined into that loop, where it reads the turn from the loop's
    /// frame.
    #[inline(always)]
    pub(super) fn advance(&self, round: usize, s: &mut State, roll: &Roll) -> Step {
        let t = &roll.turn;
        let i = t.actor as usize;
        let a = t.aims;
        let m = t.act.moves;
        if t.spends {
            s.essence[i][t.pool as usize] -= 1;
        }
        for j in Bits(t.resists) {
            s.essence[j][self.own_pool[j] as usize] -= 1;
        }
        let no_roll = t.act.no_roll;
        let rider = !P && s.aboard >> i & 1 == 1;
        if !no_roll {
            s.free[i] = 0;
        }
        let side = self.side[i] as usize;
        s.spent[side] = s.spent[side].saturating_add(t.paid);
        let mut beat = roll.beat & t.targets;
        if !P && s.shield[i] != 0 {
            // A one-effect Block shields one entity from this action; the
            // blocker loses the initiative if the action beats it.
            beat &= !(1 << (s.shield[i] - 1));
            let b = s.shielder[i] - 1;
            if beat >> b & 1 == 1 {
                s.forfeit |= 1 << b;
            }
        }
        let beat = beat;
        let beats = |j: Option<u8>| j.is_some_and(|j| beat >> j & 1 == 1);
        let all = a.every != 0 && beat & a.every == a.every;
        let winner = |escape: bool| match (self.side[i] == GM, escape) {
            (false, false) => PCS_WIN,
            (true, false) => GM_WIN,
            (false, true) => PCS_ESCAPE,
            (true, true) => GM_ESCAPE,
        };
        if !P && all && m.has(Move::Climax) && self.countdown >> i & 1 == 0 && !self.subs.is_empty()
        {
            // A split scene: the scene climaxes once every sub-scene is
            // hit this round; else the action's other effects go on.
            if let Some(o) = self.split_climax(s, i, round) {
                return Step::End(o);
            }
        } else if all && m.has(Move::Climax) {
            let mut o = self.outcome(winner(false), round, s);
            if !P && self.countdown >> i & 1 == 1 {
                o[F_BOMB] = round as i64;
            }
            return Step::End(o);
        }
        if all && m.has(Move::Anticlimax) {
            return Step::End(self.outcome(winner(true), round, s));
        }
        let mut rank = 0;
        let mut note = |mv: Move| rank = rank.max(mv.rank());
        // Effects most actions lack, tested in groups: one test each
        // group for the common action.
        const ENTRY: Moves = Moves::of(&[Move::Surprise, Move::Aid, Move::Disembark]);
        const REACH: Moves = Moves::of(&[Move::Disengage, Move::Search, Move::Recruit]);
        const LATE: Moves = Moves::of(&[Move::Press, Move::Accelerate, Move::Block]);
        if m.any(ENTRY) {
            if m.has(Move::Surprise) {
                // The entrant's lines open at once, whatever its roll (or,
                // `surprise_lines = "on-success"`, those its roll wins).
                let sure = no_roll || self.sk.variants.surprise_lines == SurpriseLines::Always;
                let opens = if sure { a.sur } else { a.sur & beat };
                for j in 0..self.n {
                    if opens >> j & 1 == 1 {
                        self.open(s, i, j, 0);
                    }
                }
                if opens != 0 {
                    note(Move::Surprise);
                }
            }
            if m.has(Move::Aid) {
                // No roll: a free raise for the lead's action.
                let l = self.lead[i] as usize;
                s.free[l] = s.free[l].saturating_add(self.aid_of(s, i)).min(15);
            }
            if m.has(Move::Disembark) {
                // It leaves its lead: a participant from now on, on its
                // lead's lines at its lead's edges (or on none).
                let l = self.lead[i] as usize;
                s.aboard &= !(1 << i);
                if self.sk.variants.disembark == Disembark::Lines {
                    for j in 0..self.n {
                        if self.lined(s, l) >> j & 1 == 1 {
                            let e = self.edge(s, l, j);
                            self.open(s, i, j, e);
                        }
                    }
                }
                note(Move::Disembark);
            }
        }
        if m.has(Move::Manoeuvre) && beats(a.man) {
            let j = a.man.expect("aimed") as usize;
            let e = self.reopened(s, i, j);
            self.open(s, i, j, e);
            note(Move::Manoeuvre);
        }
        let on_line = beat & a.per_line;
        // Per-line targets are opponents taking part (their own
        // anchors), so the actor's row or column of slots tells them all.
        debug_assert!(on_line & s.aboard == 0);
        let on_line = if on_line == 0 {
            0
        } else {
            on_line & self.lined_to(s.lines, self.anchor(s, i))
        };
        if m.has(Move::Edge) && on_line != 0 {
            // The actor takes part (a passenger makes no Edge), as do
            // its targets: each line's slot is moved in place, the line
            // open already.
            debug_assert!(s.aboard >> i & 1 == 0);
            let step = self.signed(i, t.steps as i16);
            for j in Bits(on_line) {
                let p = self.pair(i, j);
                s.edges[p] = (s.edges[p] as i64 + step).clamp(-999, 999) as i16;
            }
            note(Move::Edge);
        }
        if m.has(Move::Setup) && on_line != 0 {
            let to = if t.act.to == NONE {
                match self.sk.variants.passenger_setup {
                    PassengerSetup::Lead if rider => self.lead[i] as usize,
                    _ => i,
                }
            } else {
                s.gave[i] = t.act.to + 1;
                t.act.to as usize
            };
            s.free[to] = s.free[to].saturating_add(t.gives).min(15);
            if to != i || self.sk.variants.setup_free == SetupFree::PerRaise {
                s.given = s.given.saturating_add(t.gives);
            }
            note(Move::Setup);
        }
        if m.has(Move::Restrict) && on_line != 0 {
            // No number moves: a restriction only shapes what the
            // opponent may describe and roll, which the model does not
            // see. It ranks in the initiative hierarchy.
            note(Move::Restrict);
        }
        if m.any(REACH) {
            if m.has(Move::Disengage) && beats(a.dis) {
                let j = a.dis.expect("aimed") as usize;
                let p = self.pair(i, j);
                if s.lines >> p & 1 == 1 {
                    s.lines &= !(1 << p);
                    s.broke |= 1 << p;
                }
                note(Move::Disengage);
            }
            if m.has(Move::Search) && beats(a.find) {
                self.enter(s, a.find.expect("aimed") as usize, round);
                note(Move::Search);
            }
            if m.has(Move::Recruit) && beats(a.recruit) {
                let j = a.recruit.expect("aimed") as usize;
                if s.alive >> j & 1 == 1 {
                    self.recruit(s, i, j);
                    note(Move::Recruit);
                }
            }
        }
        if m.has(Move::Eliminate) && beats(a.elim) {
            let j = a.elim.expect("aimed") as usize;
            if self.sk.members[j].squad == 0 || self.thin(s, j, t) {
                self.eliminate(s, j);
            }
            note(Move::Eliminate);
        }
        if m.any(LATE) {
            if all && m.has(Move::Press) {
                s.pressed |= 1 << i;
                s.last_pa = 1;
            }
            if all && m.has(Move::Accelerate) {
                s.accel[i] = s.accel[i].saturating_add(t.steps);
                s.last_pa = 2;
            }
            let blocked = beat & a.per_line;
            if m.has(Move::Block) && blocked != 0 {
                if self.one_effect(s, i) {
                    let ally = if t.act.to == NONE { i as u8 } else { t.act.to };
                    for j in 0..self.n {
                        if blocked >> j & 1 == 1 {
                            s.shield[j] = ally + 1;
                            s.shielder[j] = i as u8 + 1;
                        }
                    }
                } else {
                    s.blocked |= blocked;
                    for j in 0..self.n {
                        if blocked >> j & 1 == 1 {
                            s.free[j] = 0;
                        }
                    }
                }
                note(Move::Block);
            }
        }
        // A passenger's Eliminate or Set-up never changes the initiative
        // (its Disembark, made as it leaves, does).
        if rider && !m.has(Move::Disembark) {
            rank = 0;
        }
        s.ranks[i] = rank;
        s.used[i] = t.used;
        if s.absent != 0 && !self.entries.is_empty() {
            self.arrive(s, round);
        }
        s.pos += 1;
        self.skip(s);
        if s.pos as usize >= self.order_len(s) {
            self.end_round(round, s)
        } else {
            Step::Roll
        }
    }
}
