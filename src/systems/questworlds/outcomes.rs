//! A contest as a table of outcomes: the PC's face and the opposition's
//! face (20 × 20 cells, or 20 × 1 when a side does not roll) decide everything,
//! story points included, so every cell is judged once and the sampler
//! draws the two faces, looks the cell up and counts its key.
//!
//! One contest at a time ([`OutcomeTable::sample`], for sequences) draws
//! the faces exactly as [`Matchup::sample`] draws them (PC first, a d20
//! only for a side with TN > 0). A run of contests where both sides roll
//! ([`OutcomeTable::count`]) takes three contests from each word
//! ([`DiceRng::d20_six`]); `table_counts_what_judging_counted` checks both
//! against judging every trial on the same faces.
//! [`Tables`] keeps the table of every matchup a trial meets, for
//! mechanics whose TNs change from contest to contest.

use super::roll::{Exchange, Matchup, Roll};
use crate::dice::DiceRng;

/// Cells per side: face 0 (no roll) and 1..=20, padded to a power of two
/// so a cell's index is a shift and an or, and masking it proves it in
/// bounds.
const SIDE: usize = 32;
/// Cells of a table.
pub const CELLS: usize = SIDE * SIDE;

/// Every outcome of one matchup, by the faces that give it.
#[derive(Clone, Debug)]
pub struct OutcomeTable {
    pc_rolls: bool,
    opp_rolls: bool,
    /// `keys[x * SIDE + y]`: the outcome of faces `x`, `y`.
    keys: Vec<u8>,
    outcomes: Vec<Exchange>,
}

impl OutcomeTable {
    /// The table of `m`; `None` in the unlikely case of more than 256
    /// distinct outcomes.
    pub fn new(m: &Matchup) -> Option<OutcomeTable> {
        Self::read(m, |ex| ex)
    }

    /// The table of `m` with each outcome read by `read` (a sequence keeps
    /// only what its rules look at, so equal readings share a key).
    pub fn read(m: &Matchup, read: impl Fn(Exchange) -> Exchange) -> Option<OutcomeTable> {
        let pc_rolls = m.pc.tn() > 0;
        let opp_rolls = m.opponent.tn() > 0;
        let faces = |rolls: bool| if rolls { 1..=20 } else { 0..=0 };
        let mut keys = vec![0u8; SIDE * SIDE];
        let mut outcomes: Vec<Exchange> = Vec::new();
        for x in faces(pc_rolls) {
            for y in faces(opp_rolls) {
                let ex = read(m.judge(Roll::of(m.pc, x), Roll::of(m.opponent, y)));
                let k = match outcomes.iter().position(|o| *o == ex) {
                    Some(k) => k,
                    None => {
                        outcomes.push(ex);
                        outcomes.len() - 1
                    }
                };
                keys[x as usize * SIDE + y as usize] = u8::try_from(k).ok()?;
            }
        }
        Some(OutcomeTable {
            pc_rolls,
            opp_rolls,
            keys,
            outcomes,
        })
    }

    /// The outcome of key `k`.
    pub fn outcome(&self, k: usize) -> &Exchange {
        &self.outcomes[k]
    }

    /// One contest: the faces drawn as [`Matchup::sample`] draws them, so
    /// the stream and the outcome are the same, without judging.
    #[inline(always)]
    pub fn sample(&self, rng: &mut DiceRng) -> Exchange {
        self.outcomes[self.key(rng)]
    }

    /// One contest's outcome key (see [`Self::outcome`]), drawn as
    /// [`Self::sample`] draws it: the same stream.
    #[inline(always)]
    pub fn key(&self, rng: &mut DiceRng) -> usize {
        self.keys[Self::cell(self.rolls(), rng)] as usize
    }

    /// Which sides roll (the PC, the opposition): how a contest is drawn.
    #[inline]
    pub fn rolls(&self) -> (bool, bool) {
        (self.pc_rolls, self.opp_rolls)
    }

    /// The cell of one contest's faces, drawn as [`Matchup::sample`]
    /// draws them when the sides that roll are `rolls`: an index below
    /// [`CELLS`] into [`Self::keys`].
    #[inline(always)]
    pub fn cell(rolls: (bool, bool), rng: &mut DiceRng) -> usize {
        let (x, y) = match rolls {
            (true, true) => rng.d20_pair(),
            (true, false) => (rng.d20(), 0),
            (false, true) => (0, rng.d20()),
            (false, false) => (0, 0),
        };
        (x as usize * SIDE + y as usize) & (CELLS - 1)
    }

    /// The outcome key of each cell ([`CELLS`] of them).
    pub fn keys(&self) -> &[u8] {
        &self.keys
    }

    /// How many distinct outcomes (keys `0..outcome_count`).
    pub fn outcome_count(&self) -> usize {
        self.outcomes.len()
    }

    /// Run `trials` contests; `counts[k]` is how many gave outcome `k`.
    pub fn count(&self, rng: &mut DiceRng, trials: u64) -> Vec<u64> {
        match (self.pc_rolls, self.opp_rolls) {
            (true, true) => self.count_triples(rng, trials),
            (true, false) => self.count_cells(rng, trials, |rng| (rng.d20(), 0)),
            (false, true) => self.count_cells(rng, trials, |rng| (0, rng.d20())),
            (false, false) => self.count_cells(rng, trials, |_| (0, 0)),
        }
    }

    /// The counting loop when both sides roll: six d20 a word, so three
    /// contests, each counted in its own lane (see [`Self::count_cells`]).
    /// The last word's unused contests are dropped.
    fn count_triples(&self, rng: &mut DiceRng, trials: u64) -> Vec<u64> {
        let n = self.outcomes.len();
        let keys: &[u8; SIDE * SIDE] = self.keys[..].try_into().expect("32 × 32 cells");
        let cell = |x: u32, y: u32| keys[(x as usize * SIDE + y as usize) & (SIDE * SIDE - 1)];
        let mut lanes = [[0u64; 256]; 3];
        for _ in 0..trials / 3 {
            let f = rng.d20_six();
            for (lane, pair) in lanes.iter_mut().zip(f.chunks_exact(2)) {
                lane[cell(pair[0], pair[1]) as usize] += 1;
            }
        }
        if trials % 3 > 0 {
            let f = rng.d20_six();
            let last = lanes.iter_mut().zip(f.chunks_exact(2));
            for (lane, pair) in last.take((trials % 3) as usize) {
                lane[cell(pair[0], pair[1]) as usize] += 1;
            }
        }
        (0..n).map(|k| lanes.iter().map(|l| l[k]).sum()).collect()
    }

    /// The counting loop for one way of drawing the faces. Four lanes in
    /// turn, so a run of one common outcome does not wait on its own
    /// increments; the table is a fixed-size array so its lookups need no
    /// bounds check.
    #[inline(always)]
    fn count_cells(
        &self,
        rng: &mut DiceRng,
        trials: u64,
        faces: impl Fn(&mut DiceRng) -> (u32, u32),
    ) -> Vec<u64> {
        const LANES: usize = 4;
        let n = self.outcomes.len();
        let keys: &[u8; SIDE * SIDE] = self.keys[..].try_into().expect("32 × 32 cells");
        let mut lanes = [[0u64; 256]; LANES];
        let cell = |rng: &mut DiceRng| {
            let (x, y) = faces(rng);
            keys[(x as usize * SIDE + y as usize) & (SIDE * SIDE - 1)] as usize
        };
        for _ in 0..trials / LANES as u64 {
            for lane in lanes.iter_mut() {
                lane[cell(rng)] += 1;
            }
        }
        for lane in lanes.iter_mut().take((trials % LANES as u64) as usize) {
            lane[cell(rng)] += 1;
        }
        (0..n).map(|k| lanes.iter().map(|l| l[k]).sum()).collect()
    }
}

/// The outcome tables of the matchups met so far, each built the first
/// time it is rolled, for a mechanic whose TNs change as it goes (a group
/// sequence's penalties, augments and assists): every contest is then a
/// lookup, drawn as [`Matchup::sample`] draws it, read by `read` as
/// [`OutcomeTable::read`] reads it. An open-addressed array keyed by the
/// matchup, at most half full; one per run of trials, never shared.
#[derive(Clone, Debug)]
pub struct Tables {
    read: fn(Exchange) -> Exchange,
    /// A matchup and its table (`None`: more than 256 outcomes, judged
    /// every time).
    slots: Vec<Option<(Matchup, Option<OutcomeTable>)>>,
    used: usize,
}

impl Tables {
    /// No table yet; each cell read by `read`.
    pub fn new(read: fn(Exchange) -> Exchange) -> Tables {
        Tables {
            read,
            slots: vec![None; 16],
            used: 0,
        }
    }

    /// The slot of `m`, or the empty slot where it belongs.
    #[inline(always)]
    fn find(&self, m: &Matchup) -> usize {
        let mask = self.slots.len() - 1;
        let h = (m.pc.tn() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (m.opponent.tn() as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (m.story_points as u64);
        let mut i = (h >> 40) as usize & mask;
        while let Some((k, _)) = &self.slots[i] {
            if k == m {
                break;
            }
            i = (i + 1) & mask;
        }
        i
    }

    /// One contest of `m`, as `read(m.sample(rng))`: the same stream,
    /// the same outcome.
    #[inline(always)]
    pub fn sample(&mut self, m: &Matchup, rng: &mut DiceRng) -> Exchange {
        let mut i = self.find(m);
        if self.slots[i].is_none() {
            i = self.insert(m, i);
        }
        match &self.slots[i] {
            Some((_, Some(table))) => table.sample(rng),
            _ => (self.read)(m.sample(rng)),
        }
    }

    /// Build the table of `m` into empty slot `i` (growing first when
    /// half full); returns its slot.
    #[cold]
    fn insert(&mut self, m: &Matchup, i: usize) -> usize {
        let mut i = i;
        if 2 * (self.used + 1) > self.slots.len() {
            let wider = vec![None; 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, wider);
            for (k, table) in old.into_iter().flatten() {
                let j = self.find(&k);
                self.slots[j] = Some((k, table));
            }
            i = self.find(m);
        }
        self.slots[i] = Some((*m, OutcomeTable::read(m, self.read)));
        self.used += 1;
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::questworlds::Rating;

    #[test]
    fn table_counts_what_judging_counted() {
        let matchups = [
            Matchup::against_resistance(Rating(15), Rating(10)),
            Matchup::against_resistance(Rating(25), Rating(33)).with_story_points(2),
            Matchup::against_resistance(Rating(7), Rating(0)),
            Matchup::against_character(Rating(-3), Rating(12)),
            Matchup::against_character(Rating(40), Rating(-1)).with_story_points(1),
        ];
        for m in matchups {
            let table = OutcomeTable::new(&m).unwrap();
            for trials in [0, 1, 2, 3, 4, 5_001] {
                let counts = table.count(&mut DiceRng::from_u64(21), trials);
                let mut judged = vec![0u64; counts.len()];
                let mut rng = DiceRng::from_u64(21);
                let mut judge = |ex: Exchange| {
                    let k = table.outcomes.iter().position(|o| *o == ex).unwrap();
                    judged[k] += 1;
                };
                if m.pc.tn() > 0 && m.opponent.tn() > 0 {
                    // Three contests a word, the PC's face first in each.
                    let mut faces = Vec::new();
                    while faces.len() < 2 * trials as usize {
                        faces.extend(rng.d20_six());
                    }
                    for f in faces.chunks_exact(2).take(trials as usize) {
                        judge(m.judge(
                            Roll::of(m.pc, f[0] as i64),
                            Roll::of(m.opponent, f[1] as i64),
                        ));
                    }
                } else {
                    for _ in 0..trials {
                        judge(m.sample(&mut rng));
                    }
                }
                assert_eq!(counts, judged, "{m:?}, {trials} trials");
            }
            // One contest at a time, read as a sequence reads it: the same
            // outcomes from the same stream.
            let read = |ex: Exchange| Exchange {
                pc_successes: 0,
                ..ex
            };
            let table = OutcomeTable::read(&m, read).unwrap();
            let (mut a, mut b) = (DiceRng::from_u64(8), DiceRng::from_u64(8));
            for _ in 0..2_000 {
                assert_eq!(table.sample(&mut a), read(m.sample(&mut b)), "{m:?}");
            }
            assert_eq!(
                a.next_u64(),
                b.next_u64(),
                "{m:?}: the streams stay in step"
            );
        }
    }

    #[test]
    fn tables_draw_what_judging_drew_for_every_matchup_met() {
        // Enough matchups to grow the array twice, met in turn, some
        // assured, one with story points.
        let matchups: Vec<Matchup> = (0..40)
            .map(|i| {
                let m = Matchup::against_resistance(Rating(3 + 2 * i), Rating(30 - 3 * (i % 13)));
                m.with_story_points(i / 30)
            })
            .collect();
        let read = |ex: Exchange| Exchange {
            pc_successes: 0,
            ..ex
        };
        let mut tables = Tables::new(read);
        let (mut a, mut b) = (DiceRng::from_u64(3), DiceRng::from_u64(3));
        for round in 0..20 {
            for m in &matchups {
                let got = tables.sample(m, &mut a);
                assert_eq!(got, read(m.sample(&mut b)), "{m:?}, round {round}");
            }
        }
        assert_eq!(a.next_u64(), b.next_u64(), "the streams stay in step");
        assert_eq!(tables.used, matchups.len());
        assert!(tables.slots.len() >= 2 * matchups.len());
    }
}
