//! A plain scene of two explorers drawn a round at a time: one draw for
//! both turns and the Exec's raise.
//!
//! In a plain scene each explorer's turn depends on its own state only
//! ([`plain`](super::plain)), so the two turns of a round are independent
//! given the pair of states, and a round's law is the product of the two
//! turns' laws. Each pair of states has one alias table over the whole
//! round, built from the two explorers' own turn laws ([`Plain::law`])
//! the first time the pair comes up. The turns are still read in order:
//! if the first explorer's success ends the scene, the second's turn,
//! drawn with it, is dropped, as the turn-by-turn loop never plays it.
//! Dropping it biases nothing: whether the scene ends there depends on
//! the first turn alone.
//!
//! A round's table is picked by the round before it, so one scene alone
//! leaves the processor waiting on memory between rounds; Monte Carlo
//! ([`Pair::simulate`]) keeps [`LANES`] scenes in play at once, a round
//! of each in turn, and starts a new scene in a lane as soon as its last
//! one ends. A scene with one pitfall, the usual, runs a copy of the loop
//! with the track to address and raise known at compile time. The tests
//! play the same scenes turn by turn and rolling every die, and all must
//! agree.
//!
//! It stays because it pays: 94× the rate of `sim::Chain::simulate` of
//! the scene's [`SceneRounds`](super::SceneRounds) on the registry's
//! example (two 3d explorers), one thread (`benches/chain.rs`,
//! 2026-11-28, the chain linking states and drawing loose classes
//! straight from their laws: 2.00 ms against 187 ms for 16,384 scenes,
//! measured again after the chain's packed keys). The chain is
//! its oracle: the tests in `rounds.rs` hold its counts to the chain's
//! exact law on short scenes and to the chain's sampler on long ones.

use std::sync::OnceLock;

use super::Tension;
use super::plain::{End, HALF, LOWER_AT, Plain, RAISE_AT, STATE_AT, Seat};
use super::{MAX_PITFALLS, PITFALL};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::sim::alias::Alias;

/// The most pairs of states a scene is drawn by pairs with: beyond, the
/// tables of the pairs that come up (each up to a few hundred columns)
/// cost more memory than a turn's draw is worth.
const MAX_PAIRS: usize = 4096;

/// A drawn round is two words. The first holds both explorers' hours
/// paid and gained, 16 bits each (the first explorer's in the low half,
/// as a drawn turn holds them), so that adding whole rounds keeps both
/// explorers' sums. The second holds the pair of states the round leaves
/// (bits 0..16: its table's index), how far each turn lowers the
/// addressed track (16..18 and 18..20) and the Exec's raise (20..22).
const FIRST_LOWER_AT: u32 = 16;
const SECOND_LOWER_AT: u32 = 18;
const PAIR_RAISE_AT: u32 = 20;
/// A drawn turn's hours paid and gained.
const HOURS: u64 = 0xFFFF_FFFF;

/// Scenes in play at once in [`Pair::simulate`].
const LANES: usize = 4;

/// A scene in play.
#[derive(Clone, Copy, Debug)]
struct Scene {
    /// The pair of states the explorers are in.
    pair: usize,
    /// Both explorers' drawn hours added up (see [`FIRST_LOWER_AT`]).
    sums: u64,
    tracks: [i64; MAX_PITFALLS],
    /// Rounds played.
    round: i64,
}

/// A plain scene's two explorers, drawn a round at a time.
#[derive(Debug)]
pub struct Pair {
    /// The explorers in turn order.
    first: usize,
    second: usize,
    /// Their first states in [`Plain`]'s numbering.
    first_at: usize,
    second_at: usize,
    /// The second explorer's states: pair `(x, y)` of local states is
    /// number `x * span + y`.
    span: usize,
    /// One table per pair of states, built when the pair first comes up.
    tables: Vec<OnceLock<Alias<[u64; 2]>>>,
}

impl Pair {
    /// The pair for a scene of explorers `seats` acting in `order`, if
    /// it has two explorers with few enough states between them.
    pub(super) fn new(seats: &[Seat], order: &[usize]) -> Option<Pair> {
        let &[first, second] = order else {
            return None;
        };
        let states = |i: usize| seats[i].reachable();
        let pairs = states(first) * states(second);
        (pairs <= MAX_PAIRS).then(|| Pair {
            first,
            second,
            first_at: seats[first].first,
            second_at: seats[second].first,
            span: states(second),
            tables: (0..pairs).map(|_| OnceLock::new()).collect(),
        })
    }

    /// One scene of `t`, into `out` as [`Plain::play`] does, a round at
    /// a time.
    pub fn play(
        &self,
        plain: &Plain,
        t: &Tension,
        rng: &mut DiceRng,
        clock: Option<(usize, u32)>,
        out: &mut Vec<i64>,
    ) -> (u32, bool) {
        let mut scene = self.begin(plain, t, clock);
        let end = match t.starts.len() {
            1 => self.to_end::<true>(plain, t, rng, &mut scene),
            _ => self.to_end::<false>(plain, t, rng, &mut scene),
        };
        self.finish(plain, &scene, end, clock, out)
    }

    /// The scene's rounds to its end.
    fn to_end<const ONE: bool>(
        &self,
        plain: &Plain,
        t: &Tension,
        rng: &mut DiceRng,
        scene: &mut Scene,
    ) -> End {
        loop {
            if let Some(end) = self.step::<ONE>(plain, t, rng, scene) {
                return end;
            }
        }
    }

    /// `trials` scenes of `t` counted into `tally`, [`LANES`] of them in
    /// play at once: a round of each in turn. A scene's next round waits
    /// on the table its last round drew, so one scene at a time leaves
    /// the processor idle between rounds; several interleaved keep it
    /// busy. Each scene draws the same law as alone; only the order the
    /// generator's words are used in changes.
    pub fn simulate(
        &self,
        plain: &Plain,
        t: &Tension,
        rng: &mut DiceRng,
        trials: u64,
        tally: &mut Tally,
    ) {
        match t.starts.len() {
            1 => self.lanes::<true>(plain, t, rng, trials, tally),
            _ => self.lanes::<false>(plain, t, rng, trials, tally),
        }
    }

    /// [`Pair::simulate`], with one pitfall or several.
    fn lanes<const ONE: bool>(
        &self,
        plain: &Plain,
        t: &Tension,
        rng: &mut DiceRng,
        trials: u64,
        tally: &mut Tally,
    ) {
        let mut out = Vec::new();
        let fresh = self.begin(plain, t, None);
        if trials < LANES as u64 {
            for _ in 0..trials {
                self.play(plain, t, rng, None, &mut out);
                tally.record_outcome(&out);
            }
            return;
        }
        let mut scenes = [fresh; LANES];
        let mut left = trials - LANES as u64;
        'more: while left > 0 {
            for scene in scenes.iter_mut() {
                if let Some(end) = self.step::<ONE>(plain, t, rng, scene) {
                    self.finish(plain, scene, end, None, &mut out);
                    tally.record_outcome(&out);
                    *scene = fresh;
                    left -= 1;
                    if left == 0 {
                        break 'more;
                    }
                }
            }
        }
        // The scenes still in play, each to its end.
        for scene in scenes.iter_mut() {
            let end = self.to_end::<ONE>(plain, t, rng, scene);
            self.finish(plain, scene, end, None, &mut out);
            tally.record_outcome(&out);
        }
    }

    /// A scene before its first round, with explorer `clock.0`'s clock
    /// at `clock.1` if a session carries one in.
    fn begin(&self, plain: &Plain, t: &Tension, clock: Option<(usize, u32)>) -> Scene {
        let start = |i: usize| {
            let hours = match clock {
                Some((who, hours)) if who == i => hours,
                _ => t.explorers[i].hours,
            };
            plain.start(i, hours)
        };
        let mut tracks = [0; MAX_PITFALLS];
        tracks[..t.starts.len()].copy_from_slice(&t.starts);
        Scene {
            pair: (start(self.first) - self.first_at) * self.span + start(self.second)
                - self.second_at,
            sums: 0,
            tracks,
            round: 0,
        }
    }

    /// The scene's next round; how it ended if it did.
    #[inline(always)]
    fn step<const ONE: bool>(
        &self,
        plain: &Plain,
        t: &Tension,
        rng: &mut DiceRng,
        s: &mut Scene,
    ) -> Option<End> {
        s.round += 1;
        let ended = |avoided: bool, rounds: i64| End {
            avoided,
            sprung: !avoided,
            rounds,
        };
        // With one pitfall (ONE) it is the track addressed and raised.
        let pick = |tracks: &[i64], of: fn(&Tension, &[i64]) -> usize| {
            if ONE { 0 } else { of(t, tracks) }
        };
        let tracks = &mut s.tracks[..if ONE { 1 } else { t.starts.len() }];
        let [hours, w] = self.round(plain, t, rng, s.pair);
        let addr = pick(tracks, Tension::addressed);
        tracks[addr] -= (w >> FIRST_LOWER_AT & 3) as i64;
        if tracks[addr] <= 0 {
            // The first explorer's turn ends the scene: the second's is
            // not played, and it stays in its state.
            s.sums = s.sums.wrapping_add(hours & HOURS);
            let first = (w & HALF) as usize / self.span;
            s.pair = first * self.span + s.pair % self.span;
            return Some(ended(true, s.round));
        }
        let addr = pick(tracks, Tension::addressed);
        tracks[addr] -= (w >> SECOND_LOWER_AT & 3) as i64;
        s.sums = s.sums.wrapping_add(hours);
        s.pair = (w & HALF) as usize;
        if tracks[addr] <= 0 {
            return Some(ended(true, s.round));
        }
        let top = pick(tracks, Tension::top);
        tracks[top] += (w >> PAIR_RAISE_AT & 3) as i64;
        if tracks[top] >= PITFALL {
            return Some(ended(false, s.round));
        }
        (s.round >= t.max_rounds as i64).then_some(End {
            avoided: false,
            sprung: false,
            rounds: s.round,
        })
    }

    /// The ended scene's fields into `out`; what [`Plain::play`] returns.
    fn finish(
        &self,
        plain: &Plain,
        s: &Scene,
        end: End,
        clock: Option<(usize, u32)>,
        out: &mut Vec<i64>,
    ) -> (u32, bool) {
        let (mut state, mut summed) = ([0; 2], [0; 2]);
        state[self.first] = self.first_at + s.pair / self.span;
        state[self.second] = self.second_at + s.pair % self.span;
        summed[self.first] = s.sums & HOURS;
        summed[self.second] = s.sums >> 32;
        plain.fields(&state, &summed, end, clock, out)
    }

    /// A round from pair of states `pair`, drawn.
    #[inline(always)]
    fn round(&self, plain: &Plain, t: &Tension, rng: &mut DiceRng, pair: usize) -> [u64; 2] {
        let slot = &self.tables[pair];
        // `get` first: `get_or_init` alone costs a scene about 240 more
        // instructions (measured with the pairs).
        let table = match slot.get() {
            Some(table) => table,
            None => slot.get_or_init(|| self.table(plain, t, pair)),
        };
        table.draw(rng)
    }

    /// The table of a round from pair of states `pair`: the product of
    /// the two turns' laws.
    #[cold]
    #[inline(never)]
    fn table(&self, plain: &Plain, t: &Tension, pair: usize) -> Alias<[u64; 2]> {
        let (x, y) = (pair / self.span, pair % self.span);
        let firsts = plain.law(t, self.first, self.first_at + x);
        let seconds = plain.law(t, self.second, self.second_at + y);
        let local = |v: u64, at: usize| (v >> STATE_AT & HALF) as usize - at;
        let mut law = Vec::with_capacity(firsts.len() * seconds.len());
        for &(a, p) in &firsts {
            for &(b, q) in &seconds {
                let (x, y) = (local(a, self.first_at), local(b, self.second_at));
                // Only a gifted explorer's bonus grows past 0 (reachable).
                assert!(
                    y < self.span && (x + 1) * self.span <= self.tables.len(),
                    "a state past the pairs numbered"
                );
                let next = x * self.span + y;
                let hours = a & HOURS | (b & HOURS) << 32;
                let w = next as u64
                    | (a >> LOWER_AT & 3) << FIRST_LOWER_AT
                    | (b >> LOWER_AT & 3) << SECOND_LOWER_AT
                    | (b >> RAISE_AT & 3) << PAIR_RAISE_AT;
                law.push(([hours, w], p * q));
            }
        }
        Alias::new(law)
    }
}
