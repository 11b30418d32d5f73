//! One engine for every multi-round mechanic: a [`Chain`] over a
//! [`Rounds`], answering both ways from the one statement of the rules.
//!
//! - [`Chain::exact`] propagates the absorbing chain forward
//!   ([`crate::exact::solve`]);
//! - [`Chain::simulate`] plays trials roll by roll. It owns the state
//!   cache, as icepool's engine owns the caching of `next_state`: a graph
//!   of the (round, state)s met, each with the alias table of its roll's
//!   law ([`Rounds::law`] through [`crate::model::law_table`]) and, per
//!   value of the law, a link to what follows it ([`Rounds::after`], with
//!   the policies' choices), worked out the first time it is drawn. The
//!   same states recur from trial to trial, so neither the law nor the
//!   rules are worked out twice, and a walk along known links hashes
//!   nothing; states are looked up by their packed word
//!   ([`Rounds::pack`]) where the mechanic packs. Rules the same in every
//!   round but for a cap ([`Rounds::homogeneous`]) keep one node per
//!   state, the round counted along the walk. A class of states that
//!   hardly recurs is measured and then drawn by [`Rounds::roll`]
//!   ([`cache`]). Draw for draw it is [`crate::model::play`] with the
//!   provided `roll`, so a mechanic whose `roll` is not overridden
//!   samples alike both ways, bit for bit; a bespoke `roll` (the dice
//!   themselves, for states that never recur) draws only its loose
//!   states, in law;
//! - [`enumerate`] walks every path of rolls without merging states: the
//!   brute-force oracle the chain's answers are tested against.
//!
//! The cache is bounded ([`CACHE_ENTRIES`] values of laws kept); past it,
//! a state's law and table are built afresh at each visit, which draws the
//! same values (the table is a function of the law), only slower.

mod cache;
mod index;

use crate::dice::DiceRng;
use crate::exact::{Limits, solve};
use crate::model::{After, Marginals, Rounds, Tally};
use cache::Cache;
pub use cache::{CACHE_ENTRIES, WINDOW};

/// A multi-round mechanic's engine.
pub struct Chain<'a, R: Rounds> {
    rounds: &'a R,
    fields: usize,
}

impl<'a, R: Rounds> Chain<'a, R> {
    /// The chain of `rounds`, whose outcomes have `fields` fields.
    pub fn new(rounds: &'a R, fields: usize) -> Chain<'a, R> {
        Chain { rounds, fields }
    }

    /// The exact marginals of every outcome field, or `None` beyond
    /// `limits`.
    pub fn exact(&self, limits: Limits) -> Option<Marginals> {
        solve(self.rounds, self.fields, limits).map(|a| a.marginals)
    }
}

impl<'a, R> Chain<'a, R>
where
    R: Rounds,
    R::Outcome: Clone,
{
    /// `trials` trials into `tally`, roll by roll, each roll drawn from
    /// its law's alias table, with the tables and what follows each roll
    /// kept per (round, state) in one cache of at most [`CACHE_ENTRIES`]
    /// values (see [`cache`]).
    pub fn simulate<const N: usize>(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally)
    where
        R::Outcome: Into<[i64; N]>,
    {
        // The cache itself, not a `Sampler`: cortex.timed's loop compiles
        // about 7% shorter so (callgrind, 2026-11-28).
        let mut cache = Cache::new(self.rounds);
        tally.record_trials(rng, trials, |rng| cache.play(self.rounds, rng).into());
    }

    /// `trials` trials through one sampler, each outcome handed to
    /// `record`: for a mechanic that tallies a row made from its outcome
    /// rather than the outcome itself (the skirmish's picks).
    pub fn play_each(&self, rng: &mut DiceRng, trials: u64, mut record: impl FnMut(R::Outcome)) {
        let mut sampler = self.sampler();
        for _ in 0..trials {
            record(sampler.play(rng));
        }
    }

    /// The sampler of [`Chain::simulate`], one trial at a time, for a
    /// mechanic that reads its outcome before tallying it (a scene picks
    /// its fields from the round function's outcome). Its cache lives as
    /// long as it does: one sampler per run of trials on one thread.
    pub fn sampler(&self) -> Sampler<'a, R> {
        Sampler {
            rounds: self.rounds,
            cache: Cache::new(self.rounds),
        }
    }
}

/// A chain's sampler with its cache (see [`Chain::sampler`]).
pub struct Sampler<'a, R: Rounds> {
    rounds: &'a R,
    cache: Cache<R>,
}

impl<R> Sampler<'_, R>
where
    R: Rounds,
    R::Outcome: Clone,
{
    /// One trial's outcome, drawn as [`Chain::simulate`] draws it.
    #[inline]
    pub fn play(&mut self, rng: &mut DiceRng) -> R::Outcome {
        self.cache.play(self.rounds, rng)
    }
}

/// The exact marginals of `rounds` by walking every path of rolls, states
/// never merged, down to `max_rolls` rolls (paths longer than that are
/// dropped, and their probability returned as the second value). Exponential:
/// for small cases, as the oracle of [`Chain::exact`].
pub fn enumerate<R: Rounds>(rounds: &R, fields: usize, max_rolls: usize) -> (Marginals, f64) {
    let mut out = Marginals::new(fields);
    let mut lost = 0.0;
    walk(
        rounds,
        1,
        &rounds.start(),
        1.0,
        max_rolls,
        &mut out,
        &mut lost,
    );
    (out, lost)
}

fn walk<R: Rounds>(
    rounds: &R,
    round: usize,
    state: &R::State,
    p: f64,
    left: usize,
    out: &mut Marginals,
    lost: &mut f64,
) {
    if left == 0 {
        *lost += p;
        return;
    }
    let mut law = Vec::new();
    rounds.law(round, state, &mut law);
    for (roll, q) in &law {
        if *q == 0.0 {
            continue;
        }
        let p = p * q;
        match rounds.after(round, state, roll) {
            After::Roll(next) => walk(rounds, round, &next, p, left - 1, out, lost),
            After::Round(next) => walk(rounds, round + 1, &next, p, left - 1, out, lost),
            After::End(outcome) => {
                for (f, &v) in outcome.as_ref().iter().enumerate() {
                    out.add(f, v, p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::play;

    /// A fair-coin gambler's ruin from 2 of 5, capped at 12 flips (then a
    /// draw, 2), counting flips.
    struct Ruin;

    impl Rounds for Ruin {
        type State = (i64, i64);
        type Roll = i64;
        type Outcome = [i64; 2];

        fn start(&self) -> (i64, i64) {
            (2, 0)
        }

        fn law(&self, _: usize, _: &(i64, i64), out: &mut Vec<(i64, f64)>) {
            out.extend([(-1, 0.5), (1, 0.5)]);
        }

        fn after(&self, _: usize, &(s, n): &(i64, i64), &r: &i64) -> After<(i64, i64), [i64; 2]> {
            match (s + r, n + 1) {
                (0, n) => After::End([0, n]),
                (5, n) => After::End([1, n]),
                (_, 12) => After::End([2, 12]),
                (s, n) => After::Round((s, n)),
            }
        }
    }

    #[test]
    fn the_chain_is_the_enumeration() {
        let chain = Chain::new(&Ruin, 2).exact(Limits::default()).unwrap();
        let (walked, lost) = enumerate(&Ruin, 2, 12);
        assert_eq!(lost, 0.0);
        for f in 0..2 {
            for (v, p) in walked.field(f) {
                let q = chain.field(f).get(v).copied().unwrap_or(0.0);
                assert!((p - q).abs() < 1e-12, "field {f} value {v}: {p} vs {q}");
            }
            assert_eq!(walked.field(f).len(), chain.field(f).len());
        }
        // By hand: from 2, ruin before 5 has chance 3/5 without the cap.
        let ruined = walked.field(0)[&0];
        assert!(ruined > 0.5 && ruined < 0.6, "{ruined}");
    }

    #[test]
    fn the_cached_sampler_draws_as_the_plain_loop() {
        let mut a = DiceRng::from_u64(9);
        let mut b = DiceRng::from_u64(9);
        let mut cache = Cache::new(&Ruin);
        for _ in 0..5_000 {
            assert_eq!(cache.play(&Ruin, &mut a), play(&Ruin, &mut b));
        }
        // Ruin's states: 4 stakes by 12 flips at most, two values each.
        assert!(cache.len() > 0 && cache.len() <= 48);
        assert_eq!(cache.kept, 2 * cache.len());
        // A full cache keeps nothing more and draws the same.
        let mut full = Cache::new(&Ruin);
        full.kept = CACHE_ENTRIES;
        for _ in 0..1_000 {
            assert_eq!(full.play(&Ruin, &mut a), play(&Ruin, &mut b));
        }
        assert_eq!(full.len(), 0);
    }

    /// Ruin, its states packed into a word: the same draws, looked up by
    /// the packed table.
    struct PackedRuin;

    impl Rounds for PackedRuin {
        type State = (i64, i64);
        type Roll = i64;
        type Outcome = [i64; 2];

        fn start(&self) -> (i64, i64) {
            Ruin.start()
        }

        fn law(&self, round: usize, s: &(i64, i64), out: &mut Vec<(i64, f64)>) {
            Ruin.law(round, s, out)
        }

        fn after(&self, round: usize, s: &(i64, i64), r: &i64) -> After<(i64, i64), [i64; 2]> {
            Ruin.after(round, s, r)
        }

        fn pack(&self, &(s, n): &(i64, i64)) -> Option<u64> {
            Some((s as u64) << 32 | n as u64)
        }
    }

    #[test]
    fn a_packed_state_draws_as_a_hashed_one() {
        let mut a = DiceRng::from_u64(5);
        let mut b = DiceRng::from_u64(5);
        let mut packed = Cache::new(&PackedRuin);
        let mut hashed = Cache::new(&Ruin);
        for _ in 0..5_000 {
            assert_eq!(packed.play(&PackedRuin, &mut a), hashed.play(&Ruin, &mut b));
        }
        assert_eq!(packed.len(), hashed.len());
    }

    /// Ruin with the flips counted by the round, not the state: the same
    /// rules every round but for the cap (12 rounds, then a draw) and the
    /// count written into the ending, so it declares itself homogeneous.
    struct Timed {
        homogeneous: bool,
    }

    impl Rounds for Timed {
        type State = i64;
        type Roll = i64;
        type Outcome = [i64; 2];

        fn start(&self) -> i64 {
            2
        }

        fn law(&self, _: usize, _: &i64, out: &mut Vec<(i64, f64)>) {
            out.extend([(-1, 0.5), (1, 0.5)]);
        }

        fn after(&self, round: usize, &s: &i64, &r: &i64) -> After<i64, [i64; 2]> {
            match s + r {
                0 => After::End([0, round as i64]),
                5 => After::End([1, round as i64]),
                _ if round >= 12 => After::End([2, round as i64]),
                s => After::Round(s),
            }
        }

        fn homogeneous(&self) -> Option<usize> {
            self.homogeneous.then_some(12)
        }
    }

    #[test]
    fn a_homogeneous_chain_keeps_a_node_per_state() {
        let (mut a, mut b, mut c) = (
            DiceRng::from_u64(3),
            DiceRng::from_u64(3),
            DiceRng::from_u64(3),
        );
        let timed = Timed { homogeneous: true };
        let by_round = Timed { homogeneous: false };
        let mut cache = Cache::new(&timed);
        let mut per_round = Cache::new(&by_round);
        for k in 0..20_000 {
            let plain = play(&timed, &mut a);
            assert_eq!(cache.play(&timed, &mut b), plain, "trial {k}");
            assert_eq!(per_round.play(&by_round, &mut c), plain, "trial {k}");
        }
        // Stakes 1 to 4, whatever the round; per round, up to 48.
        assert_eq!(cache.len(), 4);
        assert!(per_round.len() > 12, "{}", per_round.len());
        // The cap's draws and the endings at every round were met.
        assert!(cache.ending_rounds() > 12);
        let (walked, _) = enumerate(&timed, 2, 12);
        let exact = Chain::new(&timed, 2).exact(Limits::default()).unwrap();
        assert_eq!(walked.field(1).len(), exact.field(1).len());
        assert!(walked.field(0)[&2] > 0.0, "a draw at the cap");
    }

    /// A walk whose every state is new (a counter of the rolls so far, a
    /// coin flipped forty times): the cache stops keeping its states once
    /// it has measured that they never recur, and draws the same.
    struct Fresh;

    impl Rounds for Fresh {
        type State = (u64, u8);
        type Roll = u64;
        type Outcome = [i64; 1];

        fn start(&self) -> (u64, u8) {
            (0, 0)
        }

        fn law(&self, _: usize, _: &(u64, u8), out: &mut Vec<(u64, f64)>) {
            out.extend([(0, 0.5), (1, 0.5)]);
        }

        fn after(&self, _: usize, &(path, n): &(u64, u8), &r: &u64) -> After<(u64, u8), [i64; 1]> {
            match n {
                39 => After::End([(path.count_ones() + r as u32) as i64]),
                n => After::Roll((path << 1 | r, n + 1)),
            }
        }
    }

    #[test]
    fn a_class_whose_states_never_recur_goes_uncached() {
        let mut a = DiceRng::from_u64(2);
        let mut b = DiceRng::from_u64(2);
        let mut cache = Cache::new(&Fresh);
        for _ in 0..2_000 {
            assert_eq!(cache.play(&Fresh, &mut a), play(&Fresh, &mut b));
        }
        assert!(
            !cache.caches(1),
            "round 1's states never recur past the first rolls"
        );
        // Two windows of rolls, then nothing more kept.
        assert!(cache.len() < 3 * WINDOW as usize, "{} nodes", cache.len());
        // Ruin's states recur: they stay cached.
        let mut ruin = Cache::new(&Ruin);
        for _ in 0..20_000 {
            ruin.play(&Ruin, &mut a);
        }
        assert!((1..12).all(|round| ruin.caches(round)));
    }

    /// A roll of a loaded three-sided die, to ten rolls: the chain draws
    /// each value as often as its law says.
    struct Loaded;

    impl Rounds for Loaded {
        type State = u8;
        type Roll = char;
        type Outcome = [i64; 1];

        fn start(&self) -> u8 {
            0
        }

        fn law(&self, _: usize, _: &u8, out: &mut Vec<(char, f64)>) {
            out.extend([('a', 0.125), ('z', 0.0), ('b', 0.375), ('c', 0.5)]);
        }

        fn after(&self, _: usize, &n: &u8, &r: &char) -> After<u8, [i64; 1]> {
            match n {
                9 => After::End([r as i64]),
                n => After::Roll(n + 1),
            }
        }
    }

    #[test]
    fn the_cached_draws_follow_the_law() {
        let exact = Chain::new(&Loaded, 1).exact(Limits::default()).unwrap();
        let trials = 200_000;
        let mut tally = Tally::new(1);
        Chain::new(&Loaded, 1).simulate::<1>(&mut DiceRng::from_u64(4), trials, &mut tally);
        let seen: std::collections::BTreeMap<i64, u64> = tally.field(0).iter().collect();
        assert_eq!(seen.get(&('z' as i64)), None, "a value of probability 0");
        for (v, p) in [('a', 0.125), ('b', 0.375), ('c', 0.5)] {
            assert_eq!(exact.field(0)[&(v as i64)], p);
            let k = seen[&(v as i64)] as f64;
            let sd = (trials as f64 * p * (1.0 - p)).sqrt();
            assert!((k - trials as f64 * p).abs() < 5.0 * sd, "{v}: {k}");
        }
    }
}
