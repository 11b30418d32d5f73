//! Running one shard: its pieces, batch by batch, as a single run would
//! run them (the same models, the same chunk streams), kept as raw exact
//! answers and tallies for the merge.

use std::time::Instant;

use rayon::prelude::*;

use super::part::{self, FORMAT, Header, Part, ScenarioRef, StoredTally};
use super::{Layout, Piece, Shard};
use crate::dist::Marginals;
use crate::pipeline::{self, BATCH, Mode, RunError, RunOptions};
use crate::scenario::Scenario;
use crate::sim::{self, Plan, Precision, Progress, Tally};
use crate::systems::Model;

/// Run `shard` of `scenario` under `opts` (on the current rayon pool).
/// The returned part's timings have no thread count or wall time yet:
/// those are the caller's to fill.
pub fn run(
    scenario: &Scenario,
    opts: &RunOptions,
    shard: Shard,
    progress: &dyn Progress,
) -> Result<Part, RunError> {
    let layout = Layout::of(scenario, opts);
    let plan = Plan {
        seed: pipeline::seed(scenario, opts),
        trials: pipeline::trials(scenario, opts),
        precision: opts.precision.map(|half_width| Precision {
            half_width,
            max_trials: opts.max_trials,
        }),
    };
    let mut timings = part::Timings::default();
    let pieces = layout.pieces(shard);
    let mut stored = Vec::with_capacity(pieces.len());
    for batch in pieces.chunks(BATCH) {
        let models: Vec<Box<dyn Model>> = batch
            .par_iter()
            .map(|p| {
                scenario
                    .prepare(&scenario.config(p.config))
                    .expect("scenario models were checked at load")
            })
            .collect();

        // Exact answers: by the piece holding chunk 0; in auto mode by
        // every piece, which must know whether its config has one (and so
        // needs no Monte Carlo) before simulating.
        let solve = |p: &Piece| match opts.mode {
            Mode::MonteCarlo => false,
            Mode::Auto => true,
            Mode::Exact | Mode::Both => p.first(),
        };
        let started = Instant::now();
        let exact: Vec<Option<Marginals>> = batch
            .par_iter()
            .zip(&models)
            .map(|(p, model)| {
                if !solve(p) || progress.stopped() {
                    return None;
                }
                let solved = model.exact();
                progress.solved(1);
                solved
            })
            .collect();
        if progress.stopped() {
            return Err(RunError::Interrupted);
        }
        if matches!(opts.mode, Mode::Exact | Mode::Both)
            && let Some(i) = (0..batch.len()).find(|&i| solve(&batch[i]) && exact[i].is_none())
        {
            let config = scenario.config(batch[i].config);
            return Err(RunError::NoExact {
                mechanic: scenario.mechanic.name().into(),
                config: config.index,
                point: pipeline::describe(scenario, &config.swept),
            });
        }
        timings.exact_seconds += started.elapsed().as_secs_f64();

        let started = Instant::now();
        let wanted: Vec<usize> = (0..batch.len())
            .filter(|&i| opts.mode.simulates(exact[i].is_some()))
            .collect();
        let simulated: Vec<Tally> = match layout.chunked() {
            // Precision mode: whole configs, run as a single run runs them.
            false => {
                let models: Vec<(usize, &dyn Model)> = wanted
                    .iter()
                    .map(|&i| (batch[i].config, models[i].as_ref()))
                    .collect();
                sim::simulate(&models, &plan, progress)
            }
            true => {
                let models: Vec<(usize, &dyn Model, std::ops::Range<u64>)> = wanted
                    .iter()
                    .map(|&i| {
                        let chunks = batch[i].chunks.clone().expect("a cut layout");
                        (batch[i].config, models[i].as_ref(), chunks)
                    })
                    .collect();
                sim::simulate_chunks(&models, &plan, progress)
            }
        };
        if progress.stopped() {
            return Err(RunError::Interrupted);
        }
        timings.monte_carlo_seconds += started.elapsed().as_secs_f64();

        let mut tallies: Vec<Option<Tally>> = vec![None; batch.len()];
        for (&i, tally) in wanted.iter().zip(simulated) {
            tallies[i] = Some(tally);
        }
        for (((p, exact), tally), model) in batch.iter().zip(exact).zip(tallies).zip(&models) {
            stored.push(part::Piece {
                config: p.config,
                chunks: p.chunks.as_ref().map(|r| [r.start, r.end]),
                exact_joint: exact
                    .as_ref()
                    .filter(|_| p.first())
                    .and_then(|m| part::Piece::exact_joint_of(m, model.schema())),
                exact: exact
                    .filter(|_| p.first())
                    .map(|m| part::Piece::exact_of(&m)),
                tally: tally.as_ref().map(StoredTally::of),
            });
        }
    }
    let mut part = Part {
        format: FORMAT.into(),
        shard: shard.index,
        run: header(scenario, opts, shard.count),
        sha256: part::Digests {
            run: String::new(),
            pieces: String::new(),
        },
        timings,
        pieces: stored,
    };
    part.seal();
    Ok(part)
}

/// What every shard of `scenario` run under `opts` in `shards` shards
/// records alike.
pub(super) fn header(scenario: &Scenario, opts: &RunOptions, shards: usize) -> Header {
    Header {
        oddsmith_version: env!("CARGO_PKG_VERSION").into(),
        scenario: ScenarioRef {
            name: scenario.name.clone(),
            path: scenario.path.display().to_string(),
            sha256: scenario.sha256.clone(),
        },
        mechanic: scenario.mechanic.name().into(),
        configs: scenario.config_count(),
        mode: opts.mode,
        seed: pipeline::seed(scenario, opts),
        trials: pipeline::trials(scenario, opts),
        precision: opts.precision.map(part::Bits),
        max_trials: opts.precision.map(|_| opts.max_trials),
        shards,
    }
}
