//! The whole run's sink: each config's result goes to the long-table
//! writer and to the run's on-disk [`Store`] as soon as it is ready, is
//! counted into the run's [`Totals`] and held to its assertions
//! ([`Checker`]), and is then dropped, so a sweep's size costs disk, not
//! memory. The report reads back only the configs it shows
//! ([`Sweep::read_back`]).

use super::balance::{Checker, Verdict};
use super::grid::Grid;
use super::sweep::{Store, Sweep};
use super::totals::Totals;
use super::{Dest, LongWriter, OutputError, keeps_fields};
use crate::results::{Agreement, ConfigResult, Results};
use crate::run::{self, AGREEMENT_Z, Answered, Piece, RunError, RunOptions, Sink};
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

/// The long-table writer, the store and the checks, as one sink.
pub struct Collect<'a> {
    scenario: &'a Scenario,
    long: Option<&'a mut LongWriter>,
    store: Store,
    totals: Totals,
    checker: Checker,
    disagreements: Vec<(ConfigResult, Vec<Agreement>)>,
}

impl<'a> Collect<'a> {
    /// A sink for `scenario`'s whole run, streaming rows into `long` and
    /// configs into `store`.
    pub fn new(
        scenario: &'a Scenario,
        long: Option<&'a mut LongWriter>,
        store: Store,
    ) -> Collect<'a> {
        let grid = Grid::of(scenario);
        Collect {
            scenario,
            long,
            store,
            totals: Totals::new(grid.names.len(), Some(grid.values.clone())),
            checker: Checker::new(grid, &scenario.expectations),
            disagreements: Vec::new(),
        }
    }
}

impl Collect<'_> {
    /// One config's result: to the long table, the totals, the checks and
    /// the store, in that order, and dropped.
    pub fn push(&mut self, mut c: ConfigResult) -> Result<(), OutputError> {
        if let Some(long) = self.long.as_deref_mut() {
            long.push(&c)?;
        }
        if !keeps_fields(self.scenario, &c) {
            for r in &mut c.runs {
                r.dist = Vec::new();
            }
        }
        self.totals.add(&c);
        self.checker.add(&c);
        let bad: Vec<Agreement> = c
            .agreement
            .iter()
            .filter(|a| a.z.is_nan() || a.z.abs() > AGREEMENT_Z)
            .cloned()
            .collect();
        if !bad.is_empty() {
            self.disagreements.push((c.clone(), bad));
        }
        self.store.push(&c)
    }

    /// Every config pushed: the run collected, `results` its head (its
    /// settings and timings, with no configs).
    pub fn finish(self, results: Results) -> Collected {
        let Collect {
            scenario,
            store,
            totals,
            checker,
            disagreements,
            ..
        } = self;
        Collected {
            results,
            totals,
            verdicts: checker.verdicts(),
            disagreements,
            store,
            grid: Grid::of(scenario),
        }
    }
}

impl Sink for Collect<'_> {
    type Error = CollectError;

    fn answer(&mut self, a: Answered<'_>) -> Result<(), CollectError> {
        Ok(self.push(a.result())?)
    }
}

/// A whole run, collected: its settings and timings (`results`, with no
/// configs), its totals, its verdicts, the configs where exact and Monte
/// Carlo disagree, and every config in its store.
pub struct Collected {
    pub results: Results,
    pub totals: Totals,
    pub verdicts: Vec<Verdict>,
    /// Configs where some metric's |z| exceeds [`AGREEMENT_Z`], with those
    /// metrics.
    pub disagreements: Vec<(ConfigResult, Vec<Agreement>)>,
    store: Store,
    grid: Grid,
}

impl Collected {
    /// The run as its outputs read it.
    pub fn sweep(&mut self) -> Sweep<'_> {
        Sweep::stored(
            &self.results,
            self.totals.clone(),
            &mut self.store,
            self.grid.clone(),
        )
    }
}

/// Run every config of `scenario` as `opts` says into a [`Collect`], its
/// long table written to `long` on the way and its configs kept in a
/// scratch file beside the outputs in `dir` (in the temporary directory
/// without one).
pub fn collect(
    scenario: &Scenario,
    opts: &RunOptions,
    progress: &dyn Progress,
    long: Option<&mut LongWriter>,
    dir: Option<&Dest>,
) -> Result<Collected, CollectError> {
    let mut sink = Collect::new(scenario, long, store_in(dir)?);
    let pieces = (0..scenario.config_count()).map(Piece::whole);
    let timings = run::execute_scenario(scenario, opts, pieces, progress, &mut sink)?;
    Ok(sink.finish(run::results_of(scenario, opts, Vec::new(), timings)))
}

/// A store for a run's configs: a scratch file beside the outputs in
/// `dir`, in the temporary directory without one.
pub fn store_in(dir: Option<&Dest>) -> Result<Store, OutputError> {
    let (file, at) = match dir {
        Some(d) => (d.scratch()?, d.path_of("(scratch)")),
        None => {
            let at = std::env::temp_dir();
            let file = tempfile::tempfile().map_err(|e| OutputError::Io {
                path: at.clone(),
                message: e.to_string(),
            })?;
            (file, at)
        }
    };
    Ok(Store::new(file, at))
}
