//! The promise of load and run: every config of a scenario is checked
//! once, when it loads, and built once, when it runs; never built at load,
//! never checked again at run.

use std::path::Path;

use super::{RunOptions, run};
use crate::model::counts;
use crate::scenario::Scenario;

/// `f` on a one-thread rayon pool, so that the run's parallel builds
/// happen on the thread whose counts [`counts::now`] reads.
fn on_one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    pool.install(f)
}

/// Checks and builds `f` made on this thread.
fn counted<T>(f: impl FnOnce() -> T) -> (T, (usize, usize)) {
    let (checks, builds) = counts::now();
    let out = f();
    let (c, b) = counts::now();
    (out, (c - checks, b - builds))
}

#[test]
fn a_scenario_is_checked_at_load_and_built_only_when_it_runs() {
    on_one_thread(|| {
        // A sweep of 96 configs with an exact solver: quick to run whole.
        let path = Path::new("scenarios/statements-experience.toml");
        let (scenario, (checks, builds)) = counted(|| Scenario::load(path).unwrap());
        let n = scenario.config_count();
        assert_eq!(n, 96);
        assert_eq!(
            (checks, builds),
            (n, 0),
            "load checks each config, builds none"
        );

        let (results, (checks, builds)) =
            counted(|| run(&scenario, &RunOptions::default(), &()).unwrap());
        assert_eq!(results.configs.len(), n);
        assert_eq!(
            (checks, builds),
            (0, n),
            "the run builds each config, checks none"
        );
    });
}

#[test]
fn the_biggest_sweep_and_a_tune_grid_load_without_building() {
    on_one_thread(|| {
        let path = Path::new("scenarios/gateway-raises.toml");
        let (scenario, (checks, builds)) = counted(|| Scenario::load(path).unwrap());
        assert_eq!((checks, builds), (scenario.config_count(), 0));

        // A tune scenario checks its sweep and every config its knob may
        // ask for (the grid), and builds none of them.
        let path = Path::new("scenarios/gateway-tune-ladder.toml");
        let (scenario, (checks, builds)) = counted(|| Scenario::load(path).unwrap());
        let grid = scenario.tune_grid().expect("a tune scenario has a grid");
        assert_eq!(
            (checks, builds),
            (scenario.config_count() + grid.config_count(), 0)
        );
    });
}

/// Says stop from its `after`-th poll on, counting the polls.
struct StopAfter {
    after: usize,
    polls: std::sync::atomic::AtomicUsize,
}

impl crate::sim::Progress for StopAfter {
    fn advance(&self, _: u64) {}
    fn stopped(&self) -> bool {
        self.polls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= self.after
    }
}

#[test]
fn a_stop_asked_during_an_exact_solve_stops_it_as_interrupted() {
    // One solver of each kind: a chain (a Gateway scene), and a dice
    // expression (a sum big enough to poll between its steps).
    for text in [
        "mechanic = \"gateway.scene\"\n",
        "mechanic = \"dice.roll\"\n[params]\nexpr = \"400d6\"\n",
    ] {
        let scenario = Scenario::parse(Path::new("s.toml"), text).unwrap();
        let opts = RunOptions {
            mode: crate::results::Mode::Exact,
            ..RunOptions::default()
        };
        // Unstopped, it solves.
        assert!(run(&scenario, &opts, &()).is_ok(), "{text}");
        // The driver's own poll before the solve passes; the solver's
        // next poll stops it.
        let progress = StopAfter {
            after: 1,
            polls: Default::default(),
        };
        let r = on_one_thread(|| run(&scenario, &opts, &progress));
        assert!(
            matches!(r, Err(super::RunError::Interrupted)),
            "{text}: {:?}",
            r.map(|_| ())
        );
        let polls = progress.polls.load(std::sync::atomic::Ordering::SeqCst);
        // Before the solve, in it (at least once), after it.
        assert!(polls >= 3, "{text}: {polls} polls");
    }
}
