//! Scheduling chunks of trials across threads, with an optional precision
//! target.

use rayon::prelude::*;

use super::Tally;
use crate::dice::DiceRng;
use crate::stats;
use crate::systems::Model;

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
    /// Trials per config (ignored in precision mode).
    pub trials: u64,
    pub precision: Option<Precision>,
}

/// Told how many trials are done, from any thread.
pub trait Progress: Sync {
    fn advance(&self, trials: u64);
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
    let fields = model.schema().fields.len();
    (from..to)
        .into_par_iter()
        .map(|k| {
            let mut rng = DiceRng::for_chunk(seed, c as u64, k);
            let mut tally = Tally::new(fields);
            let n = chunk_len(total, k);
            model.simulate(&mut rng, n, &mut tally);
            progress.advance(n);
            tally
        })
        .reduce(|| Tally::new(fields), |a, b| a + b)
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
        Some(target) => simulate_to_precision(models, plan.seed, target, progress),
    }
}

/// Precision mode. Every config runs in rounds that double its chunk count
/// (16 chunks first); after each round its headline interval is checked.
/// Round boundaries depend only on chunk counts, so the stopping point, and
/// so the result, is the same for any thread count.
fn simulate_to_precision(
    models: &[(usize, &dyn Model)],
    seed: u64,
    target: Precision,
    progress: &dyn Progress,
) -> Vec<Tally> {
    let max_chunks = target.max_trials.div_ceil(CHUNK).max(1);
    let total = max_chunks * CHUNK;
    models
        .par_iter()
        .map(|&(c, m)| {
            let headline = &m.schema().metrics[0];
            let mut tally = Tally::new(m.schema().fields.len());
            let mut done = 0u64;
            let mut next = 16u64.min(max_chunks);
            loop {
                tally += &run_chunks(m, seed, c, done, next, total, progress);
                done = next;
                let est = stats::estimate(headline, &tally);
                if est.half_width() < target.half_width || done >= max_chunks {
                    return tally;
                }
                next = (done * 2).min(max_chunks);
            }
        })
        .collect()
}
