//! Running one shard: its pieces through the run driver, as a single run
//! runs them (the same models, the same chunk streams), into a sink that
//! keeps raw exact answers and tallies for the merge.

use super::part::{self, FORMAT, Header, Part, ScenarioRef, StoredTally};
use super::{Layout, Shard};
use crate::run::{self, Answered, RunError, RunOptions, Sink};
use crate::scenario::Scenario;
use crate::sim::Progress;

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
    let mut sink = Stored(Vec::new());
    let timings = run::execute_scenario(scenario, opts, layout.pieces(shard), progress, &mut sink)?;
    let mut part = Part {
        format: FORMAT.into(),
        shard: shard.index,
        run: header(scenario, opts, shard.count),
        sha256: part::Digests {
            run: String::new(),
            pieces: String::new(),
        },
        timings: part::Timings {
            exact_seconds: timings.exact_seconds,
            monte_carlo_seconds: timings.mc_seconds,
            ..part::Timings::default()
        },
        pieces: sink.0,
    };
    part.seal();
    Ok(part)
}

/// The shard writer's sink: each piece's raw answers, kept for the
/// merge (its exact answer only on the piece holding chunk 0).
struct Stored(Vec<part::Piece>);

impl Sink for Stored {
    type Error = RunError;

    fn answer(&mut self, a: Answered<'_>) -> Result<(), RunError> {
        let p = a.piece;
        let exact = a.exact.ok().filter(|_| p.first());
        self.0.push(part::Piece {
            config: p.config,
            chunks: p.chunks.as_ref().map(|r| [r.start, r.end]),
            exact_joint: exact
                .as_ref()
                .and_then(|m| part::Piece::exact_joint_of(m, a.model.schema())),
            exact: exact.map(|m| part::Piece::exact_of(&m)),
            tally: a.tally.as_ref().map(StoredTally::of),
        });
        Ok(())
    }
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
        seed: run::seed(scenario, opts),
        trials: run::trials(scenario, opts),
        precision: opts.precision.map(part::Bits),
        max_trials: opts.precision.map(|_| opts.max_trials),
        shards,
    }
}
