//! The whole run's sink: each config's result goes to the long-table
//! writer as soon as it is ready, and only what the summary, the checks
//! and the charts read stays in memory, so a sweep's size costs its
//! summary, not its distributions.

use super::{LongWriter, OutputError, keeps_fields};
use crate::results::{ConfigResult, Results};
use crate::run::{self, Answered, Piece, RunError, RunOptions, Sink};
use crate::scenario::Scenario;
use crate::sim::Progress;

/// Why a collected run stopped.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// The long-table writer and the summary collector, as one sink.
pub struct Collect<'a> {
    scenario: &'a Scenario,
    long: Option<&'a mut LongWriter>,
    configs: Vec<ConfigResult>,
}

impl<'a> Collect<'a> {
    /// A sink for `scenario`'s whole run, streaming rows into `long`.
    pub fn new(scenario: &'a Scenario, long: Option<&'a mut LongWriter>) -> Collect<'a> {
        Collect {
            scenario,
            long,
            configs: Vec::with_capacity(scenario.config_count()),
        }
    }
}

impl Sink for Collect<'_> {
    type Error = CollectError;

    fn answer(&mut self, a: Answered<'_>) -> Result<(), CollectError> {
        let mut c = a.result();
        if let Some(long) = self.long.as_deref_mut() {
            long.push(&c)?;
        }
        if !keeps_fields(self.scenario, &c) {
            for r in &mut c.runs {
                r.dist = Vec::new();
            }
        }
        self.configs.push(c);
        Ok(())
    }
}

/// Run every config of `scenario` as `opts` says into a [`Collect`]: the
/// run's summary results, its long table written to `long` on the way.
pub fn collect(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
    long: Option<&mut LongWriter>,
) -> Result<Results, CollectError> {
    let mut sink = Collect::new(scenario, long);
    let pieces = (0..scenario.config_count()).map(Piece::whole);
    let timings = run::execute_scenario(scenario, opts, pieces, progress, &mut sink)?;
    Ok(run::results_of(scenario, opts, sink.configs, timings))
}
