//! A progress bar on stderr that appears only for runs longer than a
//! second, and never with `--quiet` or when stderr is not a terminal. It
//! counts configs while the exact solver works, then trials while Monte
//! Carlo runs; it also carries Ctrl-C to the workers.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use oddsmith::sim::Progress;

use super::interrupt;

/// Shown after this long.
const DELAY: Duration = Duration::from_secs(1);

/// What the bar counts now.
const IDLE: u8 = 0;
const SOLVING: u8 = 1;
const SIMULATING: u8 = 2;

pub struct Bar {
    bar: ProgressBar,
    /// Monte Carlo trials in all (`None` in precision mode).
    trials: Option<u64>,
    configs: u64,
    phase: AtomicU8,
    started: Instant,
    enabled: bool,
    shown: AtomicBool,
}

impl Bar {
    /// A bar over `configs` exact solutions and then `trials` Monte Carlo
    /// trials (`None` when the total is not known, as in precision mode).
    pub fn new(trials: Option<u64>, configs: u64, quiet: bool) -> Bar {
        Bar {
            bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
            trials,
            configs,
            phase: AtomicU8::new(IDLE),
            started: Instant::now(),
            enabled: !quiet && std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// Remove the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Switch what the bar counts, once, from whichever thread gets here
    /// first.
    fn enter(&self, phase: u8) {
        let now = self.phase.load(Ordering::Relaxed);
        if now == phase
            || self
                .phase
                .compare_exchange(now, phase, Ordering::SeqCst, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let (len, template) = match (phase, self.trials) {
            (SOLVING, _) => (
                Some(self.configs),
                "{spinner} exact: {human_pos}/{human_len} configs [{wide_bar}] {percent}% ETA {eta}",
            ),
            (_, Some(n)) => (
                Some(n),
                "{spinner} {human_pos}/{human_len} trials [{wide_bar}] {percent}% ETA {eta}",
            ),
            (_, None) => (None, "{spinner} {human_pos} trials, {per_sec}, {elapsed}"),
        };
        let style = ProgressStyle::with_template(template)
            .expect("progress templates are valid")
            .progress_chars("=> ");
        self.bar.set_style(style);
        match len {
            Some(n) => self.bar.set_length(n),
            None => self.bar.unset_length(),
        }
        self.bar.set_position(0);
    }

    fn show_when_slow(&self) {
        if self.enabled && !self.shown.load(Ordering::Relaxed) && self.started.elapsed() > DELAY {
            self.shown.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Progress for Bar {
    fn advance(&self, trials: u64) {
        self.enter(SIMULATING);
        self.bar.inc(trials);
        self.show_when_slow();
    }

    fn solved(&self, configs: u64) {
        self.enter(SOLVING);
        self.bar.inc(configs);
        self.show_when_slow();
    }

    fn stopped(&self) -> bool {
        interrupt::requested()
    }
}
