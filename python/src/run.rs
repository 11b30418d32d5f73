//! `run(scenario, out)`: `oddsmith run SCENARIO --out OUT`, through the
//! same library calls the CLI makes (the pipeline's stream, the long
//! table's writer, the report writers, the balance verdicts), staged and
//! swapped in whole. Python reads `summary.parquet` and scans
//! `results.parquet` lazily; the verdicts come back here as rows.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use oddsmith::report::{self, RunMeta};
use oddsmith::run::RunOptions;
use oddsmith::scenario::Scenario;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use serde_json::json;

use crate::{mode_of, param_error, watch};

/// The process that last wrote a run, 0 before any. Writing starts
/// polars' own worker threads, which (unlike ours, [`crate::pool`])
/// cannot be made again: a child forked after its parent wrote a run
/// would wait for ever on threads that stayed in the parent.
static WROTE_IN: AtomicU32 = AtomicU32::new(0);

/// Refuse a run in a child forked after its parent wrote one.
fn check_not_forked_after_a_run() -> PyResult<()> {
    let me = std::process::id();
    let wrote = WROTE_IN.load(Ordering::Relaxed);
    if wrote != 0 && wrote != me {
        return Err(PyRuntimeError::new_err(
            "oddsmith.run cannot write a run in a process forked after its parent wrote one (the table writer's threads stay in the parent); start the child with multiprocessing's \"spawn\" or \"forkserver\" method, or run the scenario in the parent (answer, sweep and tune work in a forked child)",
        ));
    }
    WROTE_IN.store(me, Ordering::Relaxed);
    Ok(())
}

/// Run the scenario at `path` into `out`; JSON with the output directory
/// and one row per `[[expect]]` verdict.
#[pyfunction]
#[pyo3(signature = (path, out, mode="auto", trials=None, seed=None))]
pub fn run_scenario(
    py: Python<'_>,
    path: PathBuf,
    out: PathBuf,
    mode: &str,
    trials: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    check_not_forked_after_a_run()?;
    let opts = RunOptions {
        mode: mode_of(mode)?,
        trials: crate::whole("trials", trials, 1)?,
        seed: crate::whole("seed", seed, 0)?,
        ..RunOptions::default()
    };
    let outcome = watch::interruptible(py, move |progress| -> Result<String, String> {
        let started = Instant::now();
        let scenario = Scenario::load(&path).map_err(|e| e.to_string())?;
        if let Some(t) = &scenario.tune {
            return Err(format!(
                "{}: this scenario has a [tune] table, which oddsmith.tune answers for one mechanic (or `oddsmith tune {}` for the file); to run the sweep with every value of {}, move it to [sweep] and remove [tune]",
                path.display(),
                path.display(),
                t.knob.path
            ));
        }
        if scenario.best.is_some() {
            return Err(format!(
                "{}: this scenario has a [best] table, which `oddsmith check {} --out DIR` answers (best play in every config); oddsmith.best asks it for one config or a sweep",
                path.display(),
                path.display()
            ));
        }
        // The staging directory stops at the flag, as the CLI's at Ctrl-C;
        // it wants a flag that lives for the process (one per run, a word).
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let staging = report::Staging::begin(&out)
            .map_err(|e| e.to_string())?
            .stop_on(flag);
        let dest = staging.root();
        let mut long = report::LongWriter::create(&dest, &scenario).map_err(|e| e.to_string())?;
        // The CLI's sink: each config's result goes to a scratch store
        // beside the outputs as it finishes, so memory stays flat however
        // many configs the sweep has.
        let mut collected =
            report::collect(&scenario, &opts, progress, Some(&mut long), Some(&dest))
                .map_err(|e| e.to_string())?;
        if progress.0.load(Ordering::Relaxed) {
            flag.store(true, Ordering::Relaxed);
            return Err("interrupted".into());
        }
        long.finish().map_err(|e| e.to_string())?;
        let meta = RunMeta {
            scenario_path: path.display().to_string(),
            scenario_sha256: scenario.sha256.clone(),
            threads: rayon_threads(),
            wall_seconds: started.elapsed().as_secs_f64(),
        };
        let verdicts = std::mem::take(&mut collected.verdicts);
        report::write_rest(&dest, &scenario, &mut collected.sweep(), &verdicts, &meta)
            .map_err(|e| e.to_string())?;
        let out = staging.commit().map_err(|e| e.to_string())?;
        let checks: Vec<serde_json::Value> = verdicts
            .iter()
            .map(|v| {
                json!({
                    "line": v.expectation.line,
                    "assertion": v.expectation.describe(),
                    "why": v.expectation.why,
                    "holds": !v.failed(),
                    "checked": v.checked,
                    "failures": v.failures().count(),
                    "within_interval": v.within_interval().count(),
                })
            })
            .collect();
        Ok(json!({
            "scenario": scenario.name,
            "mechanic": collected.results.mechanic,
            "out": out.display().to_string(),
            "checks": checks,
        })
        .to_string())
    })?;
    outcome.map_err(param_error)
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
