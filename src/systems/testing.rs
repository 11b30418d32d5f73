//! The check every mechanic's tests share: Monte Carlo of a model at a
//! fixed seed agrees with its exact answer, and that answer is a whole
//! probability law. Public so the integration tests (and the tests of a
//! mechanic written outside oddsmith) can reach it; it panics with the
//! config, field and value at fault, as a test wants.
//!
//! For a multi-round mechanic, two more: its [`Chain`] answers as the
//! brute-force walk of every path of rolls ([`assert_chain_is_enumeration`]),
//! and the chain's sampler, drawing from the law, samples as the mechanic's
//! own ([`assert_chain_samples_as`]); a bespoke `roll` draws its law
//! ([`assert_roll_is_law`]).

use super::{Mechanic, Model, ParamMap, ParamValue, Trial};
use crate::dice::DiceRng;
use crate::exact::Limits;
use crate::model::{Marginals, Rounds};
use crate::sim::{Chain, Plan, Tally, enumerate, simulate};
use crate::stats::{estimate, exact_value, z_score};

/// Agreement within this many standard errors.
pub const Z_LIMIT: f64 = 5.0;

/// Differences below this are floating-point rounding in a solver (a
/// chain stopped at a tolerance of 1e-12, a point mass summed from many
/// paths), which no Monte Carlo run could resolve.
const SOLVER_ROUNDING: f64 = 1e-9;

/// Counts allowed on top of the 5 standard errors of one value's
/// frequency: a value expected less than once in the run may still be
/// seen a few times (a Poisson count, where the normal bound is too
/// tight), while a value the solver calls impossible must never be seen.
const RARE_COUNTS: f64 = 3.0;

/// Which Monte Carlo run to compare: a seed, the config id that picks the
/// random streams (as in a sweep), and the number of trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub seed: u64,
    pub config: usize,
    pub trials: u64,
}

impl Sample {
    /// A million trials at `seed`, on the streams of config 0.
    pub fn seed(seed: u64) -> Sample {
        Sample {
            seed,
            config: 0,
            trials: 1_000_000,
        }
    }

    /// The same on the streams of config `config`.
    pub fn config(self, config: usize) -> Sample {
        Sample { config, ..self }
    }

    /// The same with `trials` trials.
    pub fn trials(self, trials: u64) -> Sample {
        Sample { trials, ..self }
    }
}

/// Every field of `exact` has probability mass 1.
pub fn assert_mass_one(exact: &Marginals, what: &str) {
    for f in 0..exact.len() {
        let mass = exact.mass(f);
        assert!(
            (mass - 1.0).abs() < SOLVER_ROUNDING,
            "{what}: field {f} has mass {mass}"
        );
    }
}

/// Monte Carlo of `model` agrees with its own exact answer: see
/// [`assert_agrees_with`]. Returns the largest |z| of a metric.
pub fn assert_agrees(model: &dyn Model, sample: Sample, what: &str) -> f64 {
    let exact = model
        .exact()
        .unwrap_or_else(|| panic!("{what}: no exact answer to compare with"));
    assert_agrees_with(model, &exact, sample, what)
}

/// Monte Carlo of `model` over `sample` agrees with `exact` (its own
/// solver's answer, or one worked out otherwise): every field of `exact`
/// has mass 1, every metric of the model's schema is within 5 standard
/// errors (the spread the exact law predicts), and so is the frequency of
/// every value of every field. Returns the largest |z| of a metric.
pub fn assert_agrees_with(model: &dyn Model, exact: &Marginals, sample: Sample, what: &str) -> f64 {
    let schema = model.schema();
    assert_eq!(
        exact.len(),
        schema.fields.len(),
        "{what}: the exact answer has the wrong number of fields"
    );
    assert_mass_one(exact, what);
    let plan = Plan {
        seed: sample.seed,
        trials: sample.trials,
        precision: None,
    };
    let tally = simulate(&[(sample.config, model)], &plan, &()).remove(0);
    let mut worst: f64 = 0.0;
    for spec in &schema.metrics {
        let (x, e) = (exact_value(spec, exact), estimate(spec, &tally));
        let z = z_score(&x, &e);
        let same = (x.value - e.value).abs() < SOLVER_ROUNDING;
        assert!(
            z.abs() < Z_LIMIT || same,
            "{what}: {} is {} exactly, {} by Monte Carlo (z = {z})",
            spec.name,
            x.value,
            e.value
        );
        if !same {
            worst = worst.max(z.abs());
        }
    }
    frequencies(&tally, exact, |f| schema.fields[f].name.to_string(), what);
    worst
}

/// Two Monte Carlo runs that should draw the same law (a fast sampler
/// and the dice rolled one by one) agree: every value of every field has
/// frequencies within 5 standard errors of their difference, plus a few
/// counts for a rare value. Returns the largest |z| of a frequency.
pub fn assert_same_law(a: &Tally, b: &Tally, what: &str) -> f64 {
    let (n, m) = (a.trials() as f64, b.trials() as f64);
    assert_eq!(a.len(), b.len(), "{what}: different fields");
    let mut worst: f64 = 0.0;
    for f in 0..a.len() {
        for (v, x, y) in a.beside(b, f) {
            let (pa, pb) = (x as f64 / n, y as f64 / m);
            let p = (pa * n + pb * m) / (n + m);
            let se = (p * (1.0 - p) * (1.0 / n + 1.0 / m)).sqrt();
            let slack = RARE_COUNTS * (1.0 / n + 1.0 / m);
            assert!(
                (pa - pb).abs() <= Z_LIMIT * se + slack,
                "{what}: field {f} = {v}: {pa} in one run, {pb} in the other"
            );
            if se > 0.0 {
                worst = worst.max((pa - pb).abs() / se);
            }
        }
    }
    worst
}

/// A trial's [`Trial::simulate`] (which may count keys, memoise or draw
/// from tables) records bit for bit what its plain `sample`, trial by
/// trial from the same stream, gives.
pub fn assert_simulates_as_sampled<const N: usize>(
    trial: &impl Trial,
    mut sample: impl FnMut(&mut DiceRng) -> [i64; N],
    trials: u64,
    what: &str,
) {
    let mut fast = Tally::new(N);
    trial.simulate(&mut DiceRng::from_u64(29), trials, &mut fast);
    let mut plain = Tally::new(N);
    let mut rng = DiceRng::from_u64(29);
    for _ in 0..trials {
        plain.record_outcome(&sample(&mut rng));
    }
    assert_eq!(fast, plain, "{what}");
}

/// Probability an enumeration may leave on paths longer than its roll cap
/// and still be a test: past this, the walk would agree with anything
/// near the chain's answer.
pub const MAX_LOST: f64 = 1e-3;

/// [`Chain::exact`] of `rounds` is what [`enumerate`] finds walking every
/// path of at most `max_rolls` rolls, states never merged: the walk loses
/// less than [`MAX_LOST`] on longer paths; every value of every field
/// has, by the walk, at most its chain probability and at most the lost
/// probability less (both up to solver rounding); with nothing lost the
/// two have the same values, but for values the chain never reached
/// because it stops once less than its tolerance (10^-13) is still in
/// play. The chain's answer is a whole law. Returns it with the
/// probability the walk lost.
pub fn assert_chain_is_enumeration<R: Rounds>(
    rounds: &R,
    fields: usize,
    max_rolls: usize,
    what: &str,
) -> (Marginals, f64) {
    let chain = Chain::new(rounds, fields)
        .exact(Limits::default())
        .unwrap_or_else(|| panic!("{what}: the chain is past its limits"));
    assert_eq!(chain.len(), fields, "{what}: the chain's fields");
    assert_mass_one(&chain, what);
    let clock = std::time::Instant::now();
    let (walked, lost) = enumerate(rounds, fields, max_rolls);
    // Seen with `--nocapture`: what a case costs, to keep it small.
    eprintln!(
        "{what}: walked {max_rolls} rolls deep in {:?}, lost {lost:e}",
        clock.elapsed()
    );
    assert!(
        lost < MAX_LOST,
        "{what}: the walk lost {lost} past {max_rolls} rolls"
    );
    for f in 0..fields {
        for (v, p, q) in chain.beside(&walked, f) {
            assert!(
                q <= p + SOLVER_ROUNDING && p - q <= lost + SOLVER_ROUNDING,
                "{what}: field {f} = {v}: {p} by the chain, {q} by the walk (lost {lost})"
            );
            if lost > 0.0 {
                continue;
            }
            // Nothing lost: the same values, but for those the chain never
            // reached because they are under its tolerance.
            assert!(
                p > 0.0 || q < Limits::default().tolerance,
                "{what}: field {f} = {v} has {q} by the walk, none by the chain"
            );
            if p == 0.0 {
                eprintln!(
                    "{what}: field {f} = {v}: {q:e} by the walk, under the chain's tolerance"
                );
            }
            assert!(
                q > 0.0 || p == 0.0,
                "{what}: field {f} = {v} has {p} by the chain, none by the walk"
            );
        }
    }
    (chain, lost)
}

/// [`Chain::simulate`] of `rounds` (drawing from its law) and the
/// mechanic's own sampler `own` (a memo, keyed counting, the plain loop
/// with a bespoke `roll`), each run for `trials` trials from the same seed,
/// agree: every value of every field is seen by the two within 5
/// standard errors of the difference of two frequencies (plus a few counts
/// for a rare value), and a value one never sees the other sees at most a
/// few times. The chain is the own sampler's oracle. Returns the chain's
/// tally.
pub fn assert_chain_samples_as<R, const N: usize>(
    rounds: &R,
    trials: u64,
    own: impl FnOnce(&mut DiceRng, u64, &mut Tally),
    what: &str,
) -> Tally
where
    R: Rounds,
    R::Outcome: Clone + Into<[i64; N]>,
{
    let mut chain = Tally::new(N);
    Chain::new(rounds, N).simulate::<N>(&mut DiceRng::from_u64(31), trials, &mut chain);
    let mut theirs = Tally::new(N);
    own(&mut DiceRng::from_u64(31), trials, &mut theirs);
    assert_eq!(chain.trials(), trials, "{what}");
    assert_eq!(theirs.trials(), trials, "{what}");
    let n = trials as f64;
    for f in 0..N {
        let a: std::collections::BTreeMap<i64, u64> = chain.field(f).iter().collect();
        let b: std::collections::BTreeMap<i64, u64> = theirs.field(f).iter().collect();
        for v in a.keys().chain(b.keys()) {
            let (x, y) = (
                a.get(v).copied().unwrap_or(0),
                b.get(v).copied().unwrap_or(0),
            );
            let p = (x + y) as f64 / (2.0 * n);
            let sd = (2.0 * n * p * (1.0 - p)).sqrt();
            assert!(
                (x as f64 - y as f64).abs() <= Z_LIMIT * sd + 2.0 * RARE_COUNTS,
                "{what}: field {f} = {v}: {x} by the chain, {y} by the own sampler of {trials}"
            );
        }
    }
    chain
}

/// A bespoke [`Rounds::roll`] draws as [`Rounds::law`] says: `trials`
/// trials played by `roller`'s `roll` and `after`, and in every (round,
/// state) met each value of the law of `law` (the same rounds as the
/// solver builds them) is drawn as often as its probability says, within
/// 5 standard errors plus a few counts; no value outside the law, nor of
/// probability 0, is ever drawn. Returns the number of states checked.
pub fn assert_roll_is_law<R>(law: &R, roller: &R, trials: u64, what: &str) -> usize
where
    R: Rounds,
    R::Roll: PartialEq + std::fmt::Debug,
{
    use crate::model::After;
    type Seen<R> = (Vec<(<R as Rounds>::Roll, f64)>, Vec<u64>);
    let mut seen: std::collections::HashMap<(usize, R::State), Seen<R>> =
        std::collections::HashMap::new();
    let mut rng = DiceRng::from_u64(37);
    for _ in 0..trials {
        let (mut round, mut state) = (1, roller.start());
        loop {
            let roll = roller.roll(round, &state, &mut rng);
            let (values, counts) = seen.entry((round, state.clone())).or_insert_with(|| {
                let mut values = Vec::new();
                law.law(round, &state, &mut values);
                let counts = vec![0; values.len()];
                (values, counts)
            });
            let i = values
                .iter()
                .position(|(v, _)| *v == roll)
                .unwrap_or_else(|| {
                    panic!("{what}: round {round} drew {roll:?}, not in its law {values:?}")
                });
            counts[i] += 1;
            match roller.after(round, &state, &roll) {
                After::Roll(next) => state = next,
                After::Round(next) => (round, state) = (round + 1, next),
                After::End(_) => break,
            }
        }
    }
    for ((round, _), (values, counts)) in &seen {
        let n: u64 = counts.iter().sum();
        for ((v, p), &k) in values.iter().zip(counts) {
            let sd = (n as f64 * p * (1.0 - p)).max(0.0).sqrt();
            let bound = if *p > 0.0 {
                Z_LIMIT * sd + RARE_COUNTS
            } else {
                0.0
            };
            assert!(
                (k as f64 - n as f64 * p).abs() <= bound,
                "{what}: round {round}: {v:?} drawn {k} times of {n}, its law {p}"
            );
        }
    }
    seen.len()
}

/// The frequency of every value of every field of `tally` is within 5
/// standard errors (plus a few counts for a rare value) of its `exact`
/// probability, and no value `exact` calls impossible is seen. Returns
/// the largest |z| of a frequency.
pub fn assert_frequencies(tally: &Tally, exact: &Marginals, what: &str) -> f64 {
    assert_eq!(tally.len(), exact.len(), "{what}: different fields");
    frequencies(tally, exact, |f| format!("field {f}"), what)
}

/// [`assert_frequencies`], naming field `f` as `name(f)` says.
fn frequencies(
    tally: &Tally,
    exact: &Marginals,
    name: impl Fn(usize) -> String,
    what: &str,
) -> f64 {
    let n = tally.trials() as f64;
    let mut worst: f64 = 0.0;
    for f in 0..exact.len() {
        for (v, k, p) in tally.beside(exact, f) {
            let k = k as f64;
            let sd = (n * p * (1.0 - p)).max(0.0).sqrt();
            let bound = if p > 0.0 {
                Z_LIMIT * sd + RARE_COUNTS
            } else {
                0.0
            };
            assert!(
                (k - n * p).abs() <= bound + SOLVER_ROUNDING * n,
                "{what}: {} = {v} seen {k} times in {n}, {p} exactly",
                name(f)
            );
            if sd > 0.0 {
                worst = worst.max((k - n * p).abs() / sd);
            }
        }
    }
    worst
}

/// A TOML-like table value from `(key, value)` pairs, for tests that
/// build parameter values by hand.
pub fn table(pairs: &[(&str, ParamValue)]) -> ParamValue {
    ParamValue::Table(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// The values a mechanic is checked (and benched) at: its defaults, but
/// for a parameter with no default that must be set.
pub fn example(m: &dyn Mechanic) -> ParamMap {
    let mut values = ParamMap::new();
    if ["gateway.ensemble", "gateway.skirmish"].contains(&m.name()) {
        // One PC at every default against the key entity.
        values.set("pcs", ParamValue::List(vec![ParamValue::Table(vec![])]));
    }
    if ["statements.scene", "statements.campaign"].contains(&m.name()) {
        let statement = |f: i64| {
            ParamValue::Table(vec![
                ("favouring".into(), ParamValue::Int(f)),
                ("opposing".into(), ParamValue::Int(4)),
            ])
        };
        let player = |name: &str, f: i64| {
            ParamValue::Table(vec![
                ("name".into(), ParamValue::Str(name.into())),
                (
                    "statements".into(),
                    ParamValue::List(vec![statement(f), statement(f + 1)]),
                ),
            ])
        };
        values.set(
            "players",
            ParamValue::List(vec![player("ann", 3), player("bob", 5)]),
        );
    }
    values
}
