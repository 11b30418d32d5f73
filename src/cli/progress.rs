//! A progress bar on stderr that appears only for runs longer than a
//! second, and never with `--quiet` or when stderr is not a terminal. It
//! counts configs while the exact solver works, then trials while Monte
//! Carlo runs; it also carries Ctrl-C to the workers (the exact solvers
//! among them). Each phase starts from zero with its own clock, so a
//! rate never mixes the exact attempt's time with the trials' count;
//! counts are whole numbers and rates have three significant digits.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use oddsmith::sim::Progress;

use super::interrupt;

/// Shown after this long.
const DELAY: Duration = Duration::from_secs(1);

/// A rate is shown only once its phase has run this long: the first
/// chunks finish together, and a count over a few microseconds is noise.
const RATE_AFTER: Duration = Duration::from_millis(500);

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
                "{spinner} exact: {count}/{total} configs [{wide_bar}] {percent}% {elapsed}",
            ),
            (_, Some(n)) => (
                Some(n),
                "{spinner} {count}/{total} trials [{wide_bar}] {percent}% {rate} ETA {eta}",
            ),
            (_, None) => (None, "{spinner} {count} trials {rate} {elapsed}"),
        };
        let style = ProgressStyle::with_template(template)
            .expect("progress templates are valid")
            .with_key("count", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&whole(s.pos()));
            })
            .with_key("total", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&s.len().map_or_else(String::new, whole));
            })
            .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(s.pos(), s.elapsed()));
            })
            .progress_chars("=> ");
        // Zero and a fresh clock first, so the new words never show the
        // old phase's count, nor divide it by the old phase's time.
        self.bar.reset();
        match len {
            Some(n) => self.bar.set_length(n),
            None => self.bar.unset_length(),
        }
        self.bar.set_style(style);
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

/// A count as a whole number with thousands separators: `65,536`.
pub fn whole(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number to three significant digits, with k, M or G past a thousand:
/// `0.187`, `18.7`, `187`, `1.87k`, `6.48M`.
pub fn three_digits(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return "0".into();
    }
    // Round to three significant digits first, so 999.6 is 1.00k.
    let scale = 10f64.powi(x.log10().floor() as i32 - 2);
    let x = (x / scale).round() * scale;
    let (x, unit) = match x {
        x if x >= 1e9 => (x / 1e9, "G"),
        x if x >= 1e6 => (x / 1e6, "M"),
        x if x >= 1e3 => (x / 1e3, "k"),
        x => (x, ""),
    };
    let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}{unit}")
}

/// `(6.48M/s)` for `pos` trials over `elapsed`, or nothing before
/// [`RATE_AFTER`] (too soon to mean anything).
pub fn rate(pos: u64, elapsed: Duration) -> String {
    if elapsed < RATE_AFTER || pos == 0 {
        return String::new();
    }
    format!("({}/s)", three_digits(pos as f64 / elapsed.as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_whole_numbers_grouped_by_thousands() {
        assert_eq!(whole(0), "0");
        assert_eq!(whole(1), "1");
        assert_eq!(whole(999), "999");
        assert_eq!(whole(1_000), "1,000");
        assert_eq!(whole(65_536), "65,536");
        assert_eq!(whole(1_000_000), "1,000,000");
        assert_eq!(whole(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn rates_have_three_significant_digits() {
        assert_eq!(three_digits(0.1867), "0.187");
        assert_eq!(three_digits(0.001234), "0.00123");
        assert_eq!(three_digits(1.0), "1.00");
        assert_eq!(three_digits(18.67), "18.7");
        assert_eq!(three_digits(186.7), "187");
        assert_eq!(three_digits(999.4), "999");
        assert_eq!(three_digits(999.6), "1.00k");
        assert_eq!(three_digits(18_670.0), "18.7k");
        assert_eq!(three_digits(6_479_233_715.750_1), "6.48G");
        assert_eq!(three_digits(12_345_678.0), "12.3M");
        assert_eq!(three_digits(0.0), "0");
        assert_eq!(three_digits(f64::INFINITY), "0");
    }

    #[test]
    fn no_rate_until_a_phase_has_run_long_enough() {
        // The first chunk of a phase, a few microseconds after it began:
        // no absurd rate.
        assert_eq!(rate(65_536, Duration::from_micros(10)), "");
        assert_eq!(rate(0, Duration::from_secs(5)), "");
        assert_eq!(rate(65_536 * 100, Duration::from_secs(2)), "(3.28M/s)");
        assert_eq!(rate(1, Duration::from_secs_f64(5.356)), "(0.187/s)");
    }

    #[test]
    fn a_new_phase_starts_from_zero_with_its_own_clock() {
        // One config solved in the exact phase, then Monte Carlo: the
        // bar's count and clock restart, never showing "1 trials".
        let bar = Bar::new(None, 1, true);
        bar.solved(0);
        bar.solved(1);
        assert_eq!(bar.bar.position(), 1);
        bar.advance(65_536);
        assert_eq!(bar.bar.position(), 65_536);
        bar.advance(65_536);
        assert_eq!(bar.bar.position(), 131_072);
    }
}
