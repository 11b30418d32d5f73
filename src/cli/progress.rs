//! A progress bar on stderr that appears only for runs longer than a
//! second, and never with `--quiet` or when stderr is not a terminal.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use oddsmith::sim::Progress;

/// Shown after this long.
const DELAY: Duration = Duration::from_secs(1);

pub struct Bar {
    bar: ProgressBar,
    started: Instant,
    enabled: bool,
    shown: AtomicBool,
}

impl Bar {
    /// A bar over `total` trials (`None` when the total is not known, as in
    /// precision mode).
    pub fn new(total: Option<u64>, quiet: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let style = match total {
            Some(_) => ProgressStyle::with_template(
                "{spinner} {human_pos}/{human_len} trials [{wide_bar}] {percent}% ETA {eta}",
            ),
            None => {
                ProgressStyle::with_template("{spinner} {human_pos} trials, {per_sec}, {elapsed}")
            }
        }
        .expect("progress templates are valid");
        bar.set_style(style.progress_chars("=> "));
        Bar {
            bar,
            started: Instant::now(),
            enabled: !quiet && std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// Remove the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn advance(&self, trials: u64) {
        self.bar.inc(trials);
        if self.enabled && !self.shown.load(Ordering::Relaxed) && self.started.elapsed() > DELAY {
            self.shown.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}
