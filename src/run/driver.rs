//! The one run driver: configs in, answers out, to a [`Sink`].
//!
//! A run is a list of [`Piece`]s: a whole run is one piece per config, a
//! shard a slice of the configs' Monte Carlo chunks, a search (`tune`) or
//! a question (`odds`, the workbench, Python) the few configs it asks
//! about. [`execute`] prepares each batch's models, solves them, simulates
//! what the [`Methods`] ask for (on the chunk streams a whole run uses, so
//! a piece's numbers never depend on what runs beside it), and hands each
//! piece's answer to the sink in order. What is made of an answer (a long
//! table, a summary, a shard file, an `odds` answer) is the sink's.

use std::ops::Range;
use std::time::Instant;

use rayon::prelude::*;

use super::{BATCH, Mode, RunError, Timings};
use crate::model::{Marginals, Mechanic, Model, ParamError, ParamValue, Schema, Tally};
use crate::results::ConfigResult;
use crate::sim::{self, Plan, Progress};

/// What a run runs: numbered configs of one mechanic (a scenario's sweep,
/// or a question's).
pub trait Source: Sync {
    /// The mechanic every config is of.
    fn mechanic(&self) -> &'static dyn Mechanic;
    /// Config `index`'s swept values and its model.
    fn prepare(&self, index: usize) -> Result<(Vec<ParamValue>, Box<dyn Model>), ParamError>;
    /// ` (a = 1, b = full)`, the swept values of config `index` for
    /// messages, or nothing when nothing is swept.
    fn describe(&self, swept: &[ParamValue]) -> String;
}

/// One unit of work: a config, or some of its Monte Carlo chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub config: usize,
    /// Chunks `start..end` of the config's Monte Carlo trials; `None` when
    /// the config is not cut (a whole run, exact and precision modes).
    pub chunks: Option<Range<u64>>,
}

impl Piece {
    /// All of config `config`.
    pub fn whole(config: usize) -> Piece {
        Piece {
            config,
            chunks: None,
        }
    }

    /// Whether this piece holds the config's chunk 0, and so its exact
    /// answer.
    pub fn first(&self) -> bool {
        self.chunks.as_ref().is_none_or(|r| r.start == 0)
    }
}

/// Which methods answer a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Methods {
    /// Solve exactly (where a solver exists), on the piece holding chunk 0.
    pub solve: bool,
    /// Solve on every piece: in auto mode a piece must know whether its
    /// config has an exact answer (and so needs no Monte Carlo).
    pub solve_every_piece: bool,
    /// Simulate every piece, or only those with no exact answer.
    pub simulate_always: bool,
    /// Simulate where there is no exact answer.
    pub simulate_unsolved: bool,
    /// A config with no exact answer is an error ([`RunError::NoExact`]).
    pub require_exact: bool,
}

impl From<Mode> for Methods {
    fn from(mode: Mode) -> Methods {
        Methods {
            solve: mode != Mode::MonteCarlo,
            solve_every_piece: mode == Mode::Auto,
            simulate_always: mode.simulates(true),
            simulate_unsolved: mode.simulates(false),
            require_exact: matches!(mode, Mode::Exact | Mode::Both),
        }
    }
}

impl Methods {
    fn solves(&self, piece: &Piece) -> bool {
        self.solve && (self.solve_every_piece || piece.first())
    }

    fn simulates(&self, solved: bool) -> bool {
        if solved {
            self.simulate_always
        } else {
            self.simulate_unsolved
        }
    }
}

/// One piece's answers, as the driver hands them to its sink.
pub struct Answered<'a> {
    pub piece: &'a Piece,
    /// The config's swept values.
    pub swept: Vec<ParamValue>,
    pub model: &'a dyn Model,
    /// The exact answer, or why there is none (`Err(None)`: not asked
    /// for, or no reason beyond "no solver for these values").
    pub exact: Result<Marginals, Option<String>>,
    /// The piece's Monte Carlo tally, when it was simulated.
    pub tally: Option<Tally>,
}

impl Answered<'_> {
    /// The config's schema.
    pub fn schema(&self) -> &Schema {
        self.model.schema()
    }

    /// The config's result, its support completed (every boolean, every
    /// category, every integer any of its runs reached), as every table
    /// of a run shows it.
    pub fn result(&self) -> ConfigResult {
        let schema = self.model.schema();
        let result = ConfigResult::of(
            self.piece.config,
            self.swept.clone(),
            schema,
            self.exact.as_ref().ok(),
            self.tally.as_ref(),
        );
        // Every test run checks the ranges the mechanics declare, which
        // merges hold shards to.
        debug_assert_eq!(
            result.outside_bounds(schema),
            None,
            "config {}: a value outside its field's declared bounds",
            self.piece.config
        );
        result
    }
}

/// What is made of a run's answers. Both hooks but [`Sink::answer`] are
/// no-ops by default.
pub trait Sink {
    type Error: From<RunError>;

    /// Monte Carlo is about to run `configs` configs of a batch.
    /// `unsolved` is `Some` when the first of them has no exact answer,
    /// with the mechanic's reason if it gives one (so a caller can say so
    /// before a long wait).
    fn simulating(&mut self, configs: usize, unsolved: Option<Option<&str>>) {
        let _ = (configs, unsolved);
    }

    /// One piece's answers, in the order the pieces were given.
    fn answer(&mut self, answered: Answered<'_>) -> Result<(), Self::Error>;
}

/// A closure as a sink: it is handed each piece's completed
/// [`ConfigResult`] and schema.
pub struct Each<F>(pub F);

impl<F, E> Sink for Each<F>
where
    F: FnMut(ConfigResult, &Schema) -> Result<(), E>,
    E: From<RunError>,
{
    type Error = E;

    fn answer(&mut self, a: Answered<'_>) -> Result<(), E> {
        (self.0)(a.result(), a.schema())
    }
}

/// Run `pieces` of `source` with `methods` under `plan`, batch by batch,
/// handing every piece's answers to `sink` in order. Models are built
/// lazily and dropped with their batch, so memory does not grow with the
/// sweep beyond what the sink keeps. Solving and simulating run in
/// parallel on the current rayon pool; answers do not depend on the
/// thread count, nor on which other pieces run.
pub fn execute<S: Sink>(
    source: &dyn Source,
    methods: Methods,
    plan: &Plan,
    pieces: impl IntoIterator<Item = Piece>,
    progress: &dyn Progress,
    sink: &mut S,
) -> Result<Timings, S::Error> {
    let mut timings = Timings::default();
    let mut pieces = pieces.into_iter().peekable();
    while pieces.peek().is_some() {
        let batch: Vec<Piece> = pieces.by_ref().take(BATCH).collect();
        let models: Vec<(Vec<ParamValue>, Box<dyn Model>)> = batch
            .par_iter()
            .map(|p| source.prepare(p.config))
            .collect::<Result<_, ParamError>>()
            .map_err(RunError::from)?;

        let started = Instant::now();
        let exact: Vec<Result<Marginals, Option<String>>> = batch
            .par_iter()
            .zip(&models)
            .map(|(p, (_, model))| {
                if !methods.solves(p) || progress.stopped() {
                    return Err(None);
                }
                // The exact phase starts now (a bar shows it, from zero);
                // every exact solver polls the progress as the Monte Carlo
                // workers do, so Ctrl-C or a cancelled request stops it.
                progress.solved(0);
                let solved =
                    crate::exact::watch::stopping(&|| progress.stopped(), || model.solve());
                progress.solved(1);
                solved
            })
            .collect();
        if progress.stopped() {
            return Err(RunError::Interrupted.into());
        }
        if methods.require_exact
            && let Some(i) =
                (0..batch.len()).find(|&i| methods.solves(&batch[i]) && exact[i].is_err())
        {
            return Err(RunError::NoExact {
                mechanic: source.mechanic().name().into(),
                config: batch[i].config,
                point: source.describe(&models[i].0),
            }
            .into());
        }
        timings.exact_seconds += started.elapsed().as_secs_f64();

        // Each piece draws on its config's own chunk streams (the config
        // index is the stream's coordinate), whole or in its chunk range.
        let started = Instant::now();
        let wanted: Vec<usize> = (0..batch.len())
            .filter(|&i| methods.simulates(exact[i].is_ok()))
            .collect();
        if !wanted.is_empty() {
            let unsolved = wanted.iter().find_map(|&i| exact[i].as_ref().err());
            sink.simulating(wanted.len(), unsolved.map(Option::as_deref));
        }
        let mut tallies: Vec<Option<Tally>> = vec![None; batch.len()];
        let (cut, whole): (Vec<usize>, Vec<usize>) =
            wanted.iter().partition(|&&i| batch[i].chunks.is_some());
        let whole_models: Vec<(usize, &dyn Model)> = whole
            .iter()
            .map(|&i| (batch[i].config, models[i].1.as_ref()))
            .collect();
        for (&i, t) in whole
            .iter()
            .zip(sim::simulate(&whole_models, plan, progress))
        {
            tallies[i] = Some(t);
        }
        let cut_models: Vec<(usize, &dyn Model, Range<u64>)> = cut
            .iter()
            .map(|&i| {
                let chunks = batch[i].chunks.clone().expect("a cut piece");
                (batch[i].config, models[i].1.as_ref(), chunks)
            })
            .collect();
        for (&i, t) in cut
            .iter()
            .zip(sim::simulate_chunks(&cut_models, plan, progress))
        {
            tallies[i] = Some(t);
        }
        if progress.stopped() {
            return Err(RunError::Interrupted.into());
        }
        timings.mc_seconds += started.elapsed().as_secs_f64();

        for ((piece, (swept, model)), (exact, tally)) in
            batch.iter().zip(models).zip(exact.into_iter().zip(tallies))
        {
            sink.answer(Answered {
                piece,
                swept,
                model: model.as_ref(),
                exact,
                tally,
            })?;
        }
    }
    Ok(timings)
}
