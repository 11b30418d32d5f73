//! Steps 1 and 2 of a round: who pairs with whom, who assists whom
//! instead, and the assists themselves (rules §4.6).

use super::super::super::{Matchup, Rating, Verdict};
use super::super::assist;
use super::{Dice, Fight, Group, Type};

impl Group {
    /// How many pairings member `m` is in, as [`Group::count_engaged`]
    /// counted them and step 1 has added since.
    fn engagements(f: &Fight, m: usize) -> u8 {
        f.engaged[m]
    }

    /// A new pairing, counted for both members.
    fn engage(f: &mut Fight, c: usize, o: usize) {
        f.pairs.push((c, o));
        f.engaged[c] += 1;
        f.engaged[o] += 1;
    }

    /// How far a member is from where it started (the assist policy's
    /// "pressed"): RP against it, AP or resolve lost.
    pub fn pressed(&self, f: &Fight, m: usize) -> i64 {
        match self.kind {
            Type::Scored => f.tally[m],
            Type::Wagered | Type::Chained => self.members[m].start - f.tally[m],
        }
    }

    /// The engaged PC-side contestant in play most pressed (first in
    /// roster order on ties), other than `helper`.
    fn beneficiary(&self, f: &Fight, helper: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        // The PC side in play is its contestants.
        for &m in &self.contestants {
            if m == helper || f.out[m] || Self::engagements(f, m) == 0 {
                continue;
            }
            if best.is_none_or(|b| self.pressed(f, m) > self.pressed(f, b)) {
                best = Some(m);
            }
        }
        best
    }

    /// The AP of an assist `helper` makes now, or `None` to join.
    fn wants_to_assist(&self, f: &Fight, helper: usize) -> Option<i64> {
        let t = self.beneficiary(f, helper)?;
        let gives = |ap: i64| self.kind != Type::Wagered || f.tally[helper] > ap;
        assist::decide(&self.rules.assist, self.pressed(f, t), gives)
    }

    /// Step 1: new pairings; who assists, with what AP, is left in the
    /// fight's helpers.
    pub fn pair_off(&self, f: &mut Fight) {
        f.helpers.clear();
        self.count_engaged(f);
        let opponents = &self.opponents;
        for &c in &self.contestants {
            if f.out[c] || Self::engagements(f, c) > 0 {
                continue;
            }
            let free = opponents
                .iter()
                .copied()
                .find(|&o| !f.out[o] && Self::engagements(f, o) == 0);
            if let Some(o) = free {
                Self::engage(f, c, o);
            } else if let Some(ap) = self.wants_to_assist(f, c) {
                f.helpers.push((c, ap));
            } else if let Some(o) = opponents
                .iter()
                .copied()
                .filter(|&o| !f.out[o])
                .min_by_key(|&o| Self::engagements(f, o))
            {
                Self::engage(f, c, o);
            }
        }
        for &o in opponents {
            if f.out[o] || Self::engagements(f, o) > 0 {
                continue;
            }
            let target = self
                .contestants
                .iter()
                .copied()
                .filter(|&c| !f.out[c] && !f.helpers.iter().any(|&(h, _)| h == c))
                .min_by_key(|&c| Self::engagements(f, c));
            if let Some(c) = target {
                Self::engage(f, c, o);
            }
        }
        let paired = |m: &usize| f.out[*m] || Self::engagements(f, *m) > 0;
        let all_paired = self.contestants.iter().all(paired) && self.opponents.iter().all(paired);
        f.settled = (all_paired && f.helpers.is_empty()).then_some(f.pairs.len());
        self.support(f);
    }

    /// Step 1 once the pairings are settled: only supporters decide again
    /// whether to assist (how pressed their teammates are moves every
    /// round), as the whole of step 1 would have them decide.
    pub(super) fn support(&self, f: &mut Fight) {
        for &s in &self.supporters {
            if let Some(ap) = self.wants_to_assist(f, s) {
                f.helpers.push((s, ap));
            }
        }
    }

    /// Each member's pairings, counted once a step 1 rather than by a walk
    /// over the pairings at every question (the walks were a third of a
    /// party's time); step 2's assists read the same counts, as the
    /// pairings do not change between the two.
    pub(super) fn count_engaged(&self, f: &mut Fight) {
        f.engaged.clear();
        f.engaged.resize(self.members.len(), 0);
        for &(a, b) in &f.pairs {
            f.engaged[a] += 1;
            f.engaged[b] += 1;
        }
    }

    /// Step 2: one assist by `helper` (§5.2.6, §5.3.6, §5.4.9).
    pub fn assist(&self, f: &mut Fight, helper: usize, ap: i64, dice: &mut impl Dice) {
        let Some(t) = self.beneficiary(f, helper) else {
            return;
        };
        let helper_tn = self.tn(f, helper);
        match self.kind {
            Type::Scored => {
                // +5 for every earlier assist to the same teammate.
                let resistance = self.rules.base.plus(5 * f.assisted[t]);
                let ex = dice.contest(Matchup::against_resistance(helper_tn, resistance));
                let before = f.tally[t];
                match ex.verdict {
                    Verdict::Victory => f.tally[t] = (before - (ex.degree + 1)).max(0),
                    Verdict::Defeat => {
                        let after = before + ex.degree + 1;
                        f.tally[t] = self.shift_rp(f, t, before, after);
                        if f.tally[t] >= self.members[t].limit {
                            self.knock_out(f, t);
                        }
                    }
                    Verdict::Tie => {}
                }
            }
            Type::Wagered => {
                // The AP leave the helper whatever the result.
                f.tally[helper] -= ap;
                let ex = dice.contest(Matchup::against_resistance(helper_tn, Rating(ap)));
                if ex.verdict == Verdict::Victory {
                    f.tally[t] += ap;
                }
            }
            Type::Chained => {
                let ex = dice.contest(Matchup::against_resistance(helper_tn, self.rules.base));
                if ex.verdict == Verdict::Victory {
                    let restored = if ex.degree >= 2 { 2 } else { 1 };
                    f.tally[t] = (f.tally[t] + restored).min(self.members[t].start);
                }
            }
        }
        f.assisted[t] += 1;
        f.assists += 1;
    }
}
