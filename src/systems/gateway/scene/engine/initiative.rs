//! Who holds the next round's initiative (rules §1.2): the best
//! successful effect, then the tie rule, the holder, the acting order.

use super::super::effect::Effect;
use super::super::state::*;
use super::SceneRounds;

impl SceneRounds {
    /// The holder of next round's initiative.
    pub(super) fn initiative(&self, s: &State, cancel: bool) -> usize {
        let holder = s.holder as usize;
        let mut rank = s.ranks;
        if !cancel {
            for (i, r) in rank.iter_mut().enumerate().take(self.n + 1) {
                if s.pressed >> i & 1 == 1 {
                    *r = (*r).max(Effect::Press.rank());
                }
                if s.accel[i] > 0 {
                    *r = (*r).max(Effect::Accelerate.rank());
                }
            }
        }
        let best = rank[..=self.n].iter().copied().max().unwrap_or(0);
        if best == 0 {
            return holder;
        }
        // Bit i: entity i is still in the running.
        let mut tied = 0u8;
        for (i, &r) in rank.iter().enumerate().take(self.n + 1) {
            tied |= u8::from(r == best) << i;
        }
        if tied.count_ones() > 1 {
            // Only the holder of an edge has an edge score ("the
            // initiative goes to the person with the Edge bonus"): a side
            // behind scores 0, not its negative edge, so two sides behind
            // tie and the previous holder decides.
            let score = |i: usize| match self.drama.tie {
                Tie::Raises => s.used[i] as i64,
                Tie::Edge if i == KEY => self.key_edges(s).1.max(0),
                Tie::Edge => (s.edges[i] as i64).max(0),
            };
            let top = (0..=self.n)
                .filter(|i| tied >> i & 1 == 1)
                .map(score)
                .max()
                .unwrap_or(0);
            for i in 0..=self.n {
                if score(i) != top {
                    tied &= !(1 << i);
                }
            }
        }
        if tied >> holder & 1 == 1 {
            return holder;
        }
        self.order(holder, s.lead)[..=self.n]
            .iter()
            .map(|&i| i as usize)
            .find(|i| tied >> i & 1 == 1)
            .unwrap_or(holder)
    }
}
