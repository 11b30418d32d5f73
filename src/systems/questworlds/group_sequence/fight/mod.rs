//! One group sequence, round by round (rules §4.6). Every member keeps
//! its own tally (RP against it, AP, or resolve); pairings are rounds of
//! the plain sequence between two members, played by the plain sequences'
//! own round rules ([`Scored::after`], [`Wagered::step`],
//! [`Chained::after`]) on the members' tallies, so a pairing can only
//! differ from a plain sequence by what the group adds around it:
//!
//! 1. **Pairing.** Each unengaged PC-side contestant, in roster order,
//!    pairs with the first unengaged opponent; with none free it assists
//!    (when the `assist` policy says so) or joins the opponent in play
//!    with the fewest pairings. Then each unengaged opponent joins the
//!    PC-side contestant with the fewest pairings. New pairings go to the
//!    end of the roster of pairings; supporters only assist.
//! 2. **Assists**, helper by helper, for the most pressed engaged teammate.
//! 3. **Rounds** of every pairing in roster order (a member out by then
//!    plays no more). Secondary followers take RP (scored) or absorb a
//!    defeat (chained) by `secondary.shift`.
//! 4. The side with no contestant in play loses (both at once: a draw).
//! 5. **Second chances** (wagered) of PCs knocked out while the fight
//!    goes on; a draw at `max_rounds`.
//!
//! The dice come through [`Dice`], so hand-worked tests can script every
//! contest; rolled dice ([`Rolled`]) look each contest up in the outcome
//! table of its matchup ([`Tables`]). The rosters by part, and the first
//! round's pairings when they leave no one unpaired, are worked out once
//! ([`Group::new`]); a trial's [`Fight`] is reset in place
//! ([`Group::start_in`]), so a trial allocates nothing. Steps 1 and 2 are
//! in [`pairing`].

use super::super::chained::{Chained, Trade};
use super::super::scored::{Scored, Tactics};
use super::super::sequence;
use super::super::wagered::{Desperation, Wagered, WageredState};
use super::super::{Augment, Matchup, Rating, Verdict};
use super::assist::AssistPolicy;
pub use super::dice::{Dice, Rolled};

mod pairing;
use crate::model::After;

crate::choice! {
    /// The sequence type every pairing plays.
    pub enum Type {
        Scored = "scored",
        Wagered = "wagered",
        Chained = "chained",
    }
}

crate::choice! {
    /// When a PC hands what a defeat costs to its secondary followers.
    pub enum Shift {
        /// Only when it keeps the PC in the sequence.
        WhenItSaves = "when-it-saves",
        /// Every time (scored: every RP they can take; chained: the first defeat).
        Always = "always",
    }
}

/// RP at which a follower is removed (§5.2.1.3).
pub const FOLLOWER_RP: i64 = 3;
/// A follower's chained resolve (§5.4.4).
pub const FOLLOWER_RESOLVE: i64 = 3;
/// The penalty for the rest of the sequence after a second chance (§5.3.5).
pub const SECOND_CHANCE_PENALTY: i64 = -6;

/// Outcome field values of `winner`.
pub const PCS: i64 = 0;
pub const OPPONENTS: i64 = 1;
pub const DRAW: i64 = 2;
/// Outcome fields: winner, rounds, PCs out, opponents out, followers
/// lost, assists made.
pub const FIELDS: usize = 6;

/// What a member is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Pc,
    /// A follower rolling as a PC would.
    Contestant,
    /// A follower at its PC's side.
    Secondary,
    /// A follower that only assists.
    Supporter,
    Opponent,
}

/// One member of either roster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub part: Part,
    pub rating: Rating,
    /// The member's PC (itself for a PC; unused for opponents).
    pub owner: usize,
    /// Its tally at the start: RP 0, AP, or resolve.
    pub start: i64,
    /// Scored: RP at which it is out.
    pub limit: i64,
}

/// The group's choices and limits.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub assist: AssistPolicy,
    pub shift: Shift,
    pub second_chance: bool,
    /// What every member stakes on the exchanges it leads (wagered).
    pub wager: i64,
    /// What assists and follower augments face.
    pub base: Rating,
    pub max_rounds: usize,
}

/// A group sequence: rosters, rules, and the plain sequences' round rules.
pub struct Group {
    pub kind: Type,
    /// PC side in roster order (each PC, then its followers), then opponents.
    pub members: Vec<Member>,
    pub rules: Rules,
    scored: Scored,
    wagered: Wagered,
    chained: Chained,
    /// The members of each part a round looks for, in roster order,
    /// listed once: PCs and contestant followers (who pair, and count for
    /// "last member in play" with the opponents), PCs, opponents,
    /// supporters, secondary followers.
    contestants: Vec<usize>,
    pcs: Vec<usize>,
    opponents: Vec<usize>,
    supporters: Vec<usize>,
    secondary: Vec<usize>,
    /// Each member's secondary followers (empty but for PCs).
    secondaries: Vec<Vec<usize>>,
    /// The first round's pairings, when step 1 then leaves every
    /// contestant and opponent paired, none helping: they are the same in
    /// every trial (no die is rolled before them that they depend on), so
    /// worked out once.
    opening: Option<Vec<(usize, usize)>>,
}

/// A group sequence under way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fight {
    pub tally: Vec<i64>,
    pub out: Vec<bool>,
    /// TN changes for the rest of the sequence (a second chance's −6).
    pub penalty: Vec<i64>,
    pub chance_used: Vec<bool>,
    /// Assists each member has received (scored: each raises the next's resistance).
    pub assisted: Vec<i64>,
    /// Chained: the augment each secondary follower gives while present.
    pub bonus: Vec<i64>,
    /// (PC-side member, opponent), in roster order.
    pub pairs: Vec<(usize, usize)>,
    pub round: usize,
    pub assists: i64,
    pub lost: i64,
    /// Step 1's helpers and the AP each assists with (kept to reuse).
    helpers: Vec<(usize, i64)>,
    /// How many pairings each member is in, as of step 1 (kept to reuse).
    engaged: Vec<u8>,
    /// The number of pairings when step 1 last left every contestant and
    /// opponent in play paired, none of them helping: until a pairing
    /// ends (or a PC comes back), step 1 has nothing to do but ask the
    /// supporters again.
    settled: Option<usize>,
    /// A second chance was taken: penalties and chances need resetting.
    chances_taken: bool,
    /// Knock-outs so far: who is standing changes only with one.
    knockouts: usize,
}

impl Fight {
    /// Forget that step 1 is settled, so the next round works all of it
    /// out again (tests hold the shortcut to the whole step).
    #[cfg(test)]
    pub fn unsettle(&mut self) {
        self.settled = None;
    }
}

/// `v` holding `n` copies of `x`, in place.
fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

impl Group {
    /// A group sequence of `members` (see [`Group::members`]).
    pub fn new(kind: Type, members: Vec<Member>, rules: Rules) -> Self {
        // The plain sequences' round rules; each pairing's contest comes
        // from its own matchup, so the matchups given here are never rolled.
        let any = sequence::matchup(Rating(10), Rating(10));
        let wager = rules.wager;
        let of = |want: fn(Part) -> bool| -> Vec<usize> {
            (0..members.len())
                .filter(|&m| want(members[m].part))
                .collect()
        };
        let contestants = of(|p| p == Part::Pc || p == Part::Contestant);
        let pcs = of(|p| p == Part::Pc);
        let opponents = of(|p| p == Part::Opponent);
        let supporters = of(|p| p == Part::Supporter);
        let secondary = of(|p| p == Part::Secondary);
        let secondaries = (0..members.len())
            .map(|pc| {
                let owned = secondary.iter().copied();
                owned.filter(|&s| members[s].owner == pc).collect()
            })
            .collect();
        let mut group = Group {
            kind,
            members,
            rules,
            scored: Scored::new(any, Tactics::NONE, Tactics::NONE),
            wagered: Wagered::new(any, wager, wager, Desperation::Keep),
            chained: Chained::new(Rating(10), Rating(10), 1, 1, Trade::Never),
            contestants,
            pcs,
            opponents,
            supporters,
            secondary,
            secondaries,
            opening: None,
        };
        let mut f = Fight::default();
        group.reset(&mut f);
        group.pair_off(&mut f);
        if f.settled == Some(f.pairs.len()) {
            group.opening = Some(f.pairs);
        }
        group
    }

    /// Before the first round: tallies at their start, and each chained
    /// secondary follower's augment rolled against the base resistance.
    pub fn start(&self, dice: &mut impl Dice) -> Fight {
        let mut f = Fight::default();
        self.start_in(&mut f, dice);
        f
    }

    /// [`Group::start`] into `f`, reusing its storage.
    pub fn start_in(&self, f: &mut Fight, dice: &mut impl Dice) {
        self.reset(f);
        if let Some(pairs) = &self.opening {
            f.pairs.extend_from_slice(pairs);
            f.settled = Some(pairs.len());
            if !self.supporters.is_empty() {
                self.count_engaged(f);
            }
        }
        if self.kind == Type::Chained {
            for &s in &self.secondary {
                let m = Matchup::against_resistance(self.members[s].rating, self.rules.base);
                f.bonus[s] = Augment::bonus_for(&dice.contest(m));
            }
        }
    }

    /// Every tally at its start, no one out, no pairing yet.
    /// A fight reused trial after trial is mostly clean already: what only
    /// a second chance, an assist or a chained augment writes is put back
    /// only when one was (a trial's own reset costs more than its rounds).
    fn reset(&self, f: &mut Fight) {
        let n = self.members.len();
        f.tally.clear();
        f.tally.extend(self.members.iter().map(|m| m.start));
        refill(&mut f.out, n, false);
        if f.bonus.len() != n || self.kind == Type::Chained {
            refill(&mut f.bonus, n, 0);
        }
        if f.penalty.len() != n || f.chances_taken {
            refill(&mut f.penalty, n, 0);
            refill(&mut f.chance_used, n, false);
            f.chances_taken = false;
        }
        if f.assisted.len() != n || f.assists > 0 {
            refill(&mut f.assisted, n, 0);
        }
        f.pairs.clear();
        f.helpers.clear();
        f.settled = None;
        f.round = 0;
        f.knockouts = 0;
        f.assists = 0;
        f.lost = 0;
    }

    /// The secondary followers of PC `pc` still at its side.
    fn secondaries<'a>(&'a self, f: &'a Fight, pc: usize) -> impl Iterator<Item = usize> + 'a {
        self.secondaries[pc].iter().copied().filter(|&s| !f.out[s])
    }

    /// A member's TN now: its rating, penalties, and (chained) the augment
    /// of its first secondary follower still present.
    #[inline(always)]
    pub fn tn(&self, f: &Fight, m: usize) -> Rating {
        let augment = match self.kind {
            Type::Chained => self.secondaries(f, m).next().map_or(0, |s| f.bonus[s]),
            _ => 0,
        };
        self.members[m].rating.plus(f.penalty[m] + augment)
    }

    /// Scored: RP lodged against PC `m` (from `before` to `after`) moved
    /// onto its secondary followers by `secondary.shift`, each taking up
    /// to 3 and then removed. Returns the PC's RP.
    #[inline(always)]
    fn shift_rp(&self, f: &mut Fight, m: usize, before: i64, after: i64) -> i64 {
        if self.members[m].part != Part::Pc || after <= before {
            return after;
        }
        self.shift_rp_to_followers(f, m, before, after)
    }

    /// [`Group::shift_rp`] once RP were lodged against a PC.
    fn shift_rp_to_followers(&self, f: &mut Fight, m: usize, before: i64, after: i64) -> i64 {
        let room: i64 = self
            .secondaries(f, m)
            .map(|s| FOLLOWER_RP - f.tally[s])
            .sum();
        let limit = self.members[m].limit;
        let mut moved = match self.rules.shift {
            Shift::WhenItSaves if after >= limit && room >= after - (limit - 1) => {
                after - (limit - 1)
            }
            Shift::WhenItSaves => 0,
            Shift::Always => (after - before).min(room),
        };
        let kept = after - moved;
        for &s in &self.secondaries[m] {
            if f.out[s] {
                continue;
            }
            let take = moved.min(FOLLOWER_RP - f.tally[s]);
            f.tally[s] += take;
            moved -= take;
            if f.tally[s] >= FOLLOWER_RP {
                f.out[s] = true;
                f.lost += 1;
            }
        }
        kept
    }

    /// Step 3: one round of the pairing of `a` (PC side) and `b`, by the
    /// plain sequence's rules on the two members' tallies.
    pub fn pair_round(&self, f: &mut Fight, a: usize, b: usize, dice: &mut impl Dice) {
        let m = sequence::matchup(self.tn(f, a), self.tn(f, b));
        let (ta, tb) = (f.tally[a], f.tally[b]);
        let (na, nb) = match self.kind {
            Type::Scored => {
                let ex = dice.contest(m);
                match self.scored.after(f.round, &(ta, tb), &ex) {
                    After::Roll(s) | After::Round(s) => s,
                    After::End(out) => (out[3], out[4]),
                }
            }
            Type::Wagered => {
                let mut state = WageredState::Round((ta, tb));
                loop {
                    let ex = dice.contest(m);
                    match self.wagered.step(f.round, &state, &ex) {
                        After::Roll(s) => state = s,
                        After::Round(s) => break ap_of(&s),
                        After::End(out) => break (out[3], out[4]),
                    }
                }
            }
            Type::Chained => {
                let ex = dice.contest(m);
                match self.chained.after(f.round, &(ta, tb, 0), &ex) {
                    After::Roll((x, y, _)) | After::Round((x, y, _)) => (x, y),
                    After::End(out) => (out[3], out[4]),
                }
            }
        };
        let na = match self.kind {
            Type::Scored => self.shift_rp(f, a, ta, na),
            Type::Chained => self.absorb(f, a, ta, na),
            Type::Wagered => na,
        };
        f.tally[a] = na;
        f.tally[b] = nb;
        for x in [a, b] {
            let out = match self.kind {
                Type::Scored => f.tally[x] >= self.members[x].limit,
                Type::Wagered | Type::Chained => f.tally[x] <= 0,
            };
            if out {
                self.knock_out(f, x);
            }
        }
    }

    /// Member `m` is out; a contestant follower out is a follower lost.
    fn knock_out(&self, f: &mut Fight, m: usize) {
        if !f.out[m] && self.members[m].part == Part::Contestant {
            f.lost += 1;
        }
        f.out[m] = true;
        f.knockouts += 1;
    }

    /// Chained: a defeat of PC `m` (resolve `before` → `after`) absorbed
    /// by its first secondary follower by `secondary.shift`; the follower
    /// leaves, and its augment with it.
    fn absorb(&self, f: &mut Fight, m: usize, before: i64, after: i64) -> i64 {
        if self.members[m].part != Part::Pc || after >= before {
            return after;
        }
        let wanted = match self.rules.shift {
            Shift::WhenItSaves => after <= 0,
            Shift::Always => true,
        };
        let first = self.secondaries(f, m).next();
        match first {
            Some(s) if wanted => {
                f.tally[s] -= before - after;
                f.out[s] = true;
                f.lost += 1;
                before
            }
            _ => after,
        }
    }

    /// Step 5: a wagered second chance of PC `m` (§5.3.5): a contest
    /// against resistance = how far below 0 it is; victory brings it back
    /// at ⌈starting AP / 4⌉, at −6 for the rest of the sequence.
    pub fn second_chance(&self, f: &mut Fight, m: usize, dice: &mut impl Dice) {
        f.chance_used[m] = true;
        f.chances_taken = true;
        let resistance = Rating(-f.tally[m]);
        let ex = dice.contest(Matchup::against_resistance(self.tn(f, m), resistance));
        if ex.verdict == Verdict::Victory {
            f.out[m] = false;
            f.settled = None;
            f.tally[m] = (self.members[m].start + 3) / 4;
            f.penalty[m] += SECOND_CHANCE_PENALTY;
        }
    }

    /// The outcome with `winner`.
    fn outcome(&self, f: &Fight, winner: i64) -> [i64; FIELDS] {
        let out_of = |of: &[usize]| of.iter().filter(|&&m| f.out[m]).count() as i64;
        [
            winner,
            f.round as i64,
            out_of(&self.pcs),
            out_of(&self.opponents),
            f.lost,
            f.assists,
        ]
    }

    /// One whole round; the outcome when the sequence ends with it.
    #[inline(always)]
    pub fn round(&self, f: &mut Fight, dice: &mut impl Dice) -> Option<[i64; FIELDS]> {
        f.round += 1;
        let knockouts = f.knockouts;
        if f.settled != Some(f.pairs.len()) {
            self.pair_off(f);
        } else if !self.supporters.is_empty() {
            f.helpers.clear();
            self.support(f);
        }
        for i in 0..f.helpers.len() {
            let (h, ap) = f.helpers[i];
            if !f.out[h] {
                self.assist(f, h, ap, dice);
            }
        }
        for i in 0..f.pairs.len() {
            let (a, b) = f.pairs[i];
            if !f.out[a] && !f.out[b] {
                self.pair_round(f, a, b, dice);
            }
        }
        // Most rounds knock no one out, and only a knock-out can leave a
        // side with no one standing (the first round looks anyway, in case
        // a side starts with no one).
        if f.knockouts != knockouts || f.round == 1 {
            let standing = |of: &[usize]| of.iter().filter(|&&m| !f.out[m]).count();
            match (standing(&self.contestants), standing(&self.opponents)) {
                (0, 0) => return Some(self.outcome(f, DRAW)),
                (0, _) => return Some(self.outcome(f, OPPONENTS)),
                (_, 0) => return Some(self.outcome(f, PCS)),
                _ => {}
            }
            f.pairs.retain(|&(a, b)| !f.out[a] && !f.out[b]);
        }
        if self.kind == Type::Wagered && self.rules.second_chance {
            for &m in &self.pcs {
                if f.out[m] && !f.chance_used[m] {
                    self.second_chance(f, m, dice);
                }
            }
        }
        (f.round >= self.rules.max_rounds).then(|| self.outcome(f, DRAW))
    }

    /// A whole group sequence.
    pub fn play(&self, dice: &mut impl Dice) -> [i64; FIELDS] {
        self.play_in(&mut Fight::default(), dice)
    }

    /// A whole group sequence in `f`, reusing its storage.
    pub fn play_in(&self, f: &mut Fight, dice: &mut impl Dice) -> [i64; FIELDS] {
        self.start_in(f, dice);
        loop {
            if let Some(outcome) = self.round(f, dice) {
                return outcome;
            }
        }
    }
}

/// Both AP totals of a wagered state.
fn ap_of(s: &WageredState) -> (i64, i64) {
    let (WageredState::Round(ap)
    | WageredState::Second { ap, .. }
    | WageredState::Returned { ap, .. }) = *s;
    ap
}
