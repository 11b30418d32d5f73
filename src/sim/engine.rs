//! Scheduling chunks of trials across threads, with an optional precision
//! target.

use rayon::prelude::*;

use crate::dice::DiceRng;
use crate::model::{Model, Tally};
use crate::stats;

/// Trials per chunk. Large enough that seeding and merging cost nothing,
/// small enough that a few configs still spread over every core.
pub const CHUNK: u64 = 1 << 16;

/// Precision mode: run each config until the 95% interval of its headline
/// metric has a half-width below `half_width`, or `max_trials` are spent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    pub half_width: f64,
    pub max_trials: u64,
}

/// How many trials to run, and from which seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    pub seed: u64,
    /// Trials per config; in precision mode, the first round's.
    pub trials: u64,
    pub precision: Option<Precision>,
}

/// Told how the work goes, from any thread; asked whether to stop.
pub trait Progress: Sync {
    /// `trials` more Monte Carlo trials are done.
    fn advance(&self, trials: u64);
    /// `configs` more configs are solved exactly.
    fn solved(&self, _configs: u64) {}
    /// Whether the run should stop (Ctrl-C): workers check before each
    /// chunk, and the caller must then discard the partial tallies.
    fn stopped(&self) -> bool {
        false
    }
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

/// Trials in chunk `k` when `total` trials are cut into chunks.
fn chunk_len(total: u64, k: u64) -> u64 {
    CHUNK.min(total - k * CHUNK)
}

/// Run chunks `from..to` (with `total` trials overall) of config `c`.
fn run_chunks(
    model: &dyn Model,
    seed: u64,
    c: usize,
    from: u64,
    to: u64,
    total: u64,
    progress: &dyn Progress,
) -> Tally {
    let empty = || Tally::for_schema(model.schema());
    (from..to)
        .into_par_iter()
        .map(|k| {
            let mut tally = empty();
            if progress.stopped() {
                return tally;
            }
            let mut rng = DiceRng::for_chunk(seed, c as u64, k);
            let n = chunk_len(total, k);
            model.simulate(&mut rng, n, &mut tally);
            progress.advance(n);
            tally
        })
        .reduce(empty, |a, b| a + b)
}

/// Simulate every `(config id, model)` under `plan`; one tally per model,
/// in order. The config id picks the random streams, so a config's result
/// does not depend on what runs beside it. Runs on the current rayon pool.
pub fn simulate(
    models: &[(usize, &dyn Model)],
    plan: &Plan,
    progress: &dyn Progress,
) -> Vec<Tally> {
    match plan.precision {
        None => models
            .par_iter()
            .map(|&(c, m)| {
                let chunks = plan.trials.div_ceil(CHUNK);
                run_chunks(m, plan.seed, c, 0, chunks, plan.trials, progress)
            })
            .collect(),
        Some(target) => simulate_to_precision(models, plan.seed, plan.trials, target, progress),
    }
}

/// Simulate chunks `chunks` of every `(config id, model, chunks)` of a run
/// of `plan.trials` trials per config: one tally per model, in order. A
/// config's tallies over disjoint chunk ranges add up to the tally
/// [`simulate`] gives it (the same streams, counted in integers), which is
/// what lets a run be split into shards at any chunk and merged exactly.
pub fn simulate_chunks(
    models: &[(usize, &dyn Model, std::ops::Range<u64>)],
    plan: &Plan,
    progress: &dyn Progress,
) -> Vec<Tally> {
    models
        .par_iter()
        .map(|(c, m, chunks)| {
            run_chunks(
                *m,
                plan.seed,
                *c,
                chunks.start,
                chunks.end,
                plan.trials,
                progress,
            )
        })
        .collect()
}

/// Precision mode. Every config runs in rounds that double its trials,
/// from `first` trials up to `target.max_trials` exactly; after each round
/// its headline interval is checked. A round of `n` trials gives the tally
/// a fixed run of `n` trials gives (the same chunks; a short last chunk is
/// run again, longer, in the next round), so the stopping point, and so the
/// result, is the same for any thread count.
fn simulate_to_precision(
    models: &[(usize, &dyn Model)],
    seed: u64,
    first: u64,
    target: Precision,
    progress: &dyn Progress,
) -> Vec<Tally> {
    let cap = target.max_trials.max(1);
    models
        .par_iter()
        .map(|&(c, m)| {
            let headline = &m.schema().metrics[0];
            // Whole chunks done so far, kept across rounds.
            let mut whole = Tally::for_schema(m.schema());
            let mut whole_chunks = 0u64;
            let mut n = first.clamp(1, cap);
            loop {
                let full = n / CHUNK;
                whole += &run_chunks(m, seed, c, whole_chunks, full, n, progress);
                whole_chunks = full;
                let mut tally = whole.clone();
                if n % CHUNK > 0 {
                    tally += &run_chunks(m, seed, c, full, full + 1, n, progress);
                }
                if progress.stopped() {
                    return tally;
                }
                let est = stats::estimate(headline, &tally);
                if est.half_width() < target.half_width || n >= cap {
                    return tally;
                }
                n = n.saturating_mul(2).min(cap);
            }
        })
        .collect()
}
