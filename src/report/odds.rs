//! Probabilities as odds a person reads at a glance: "1 in 4,096",
//! "fails 1 in 20", "always". The one formatting used by the command line
//! and every report, so the same number never reads two ways.

/// What a probability rests on: an exact solver, or a count of trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    Exact,
    /// A Monte Carlo estimate from this many trials.
    Trials(u64),
}

/// Above this, an event reads better by how rarely it fails ("1 in 1.2"
/// says little; "fails 1 in 6" says it plainly).
const NEAR_CERTAIN: f64 = 0.75;
/// Odds longer than this are below the resolution of a 64-bit float's
/// complement near 1 (1 − p loses its digits there), so they are not shown
/// as if they were known.
const LONGEST_FAILURE: f64 = 1e12;

/// `p` as odds.
///
/// - "always" and "never" only for an exact 1 or 0: an estimate that saw
///   no (or only) successes says so with its trial count instead;
/// - "1 in N" up to three in four, "fails 1 in N" above (so 0.9998 reads
///   "fails 1 in 5,000", not "1 in 1.00");
/// - N with one decimal below 10, else a whole number with thousands
///   separators; beyond a trillion, scientific notation.
pub fn odds(p: f64, basis: Basis) -> String {
    if p.is_nan() {
        return String::new();
    }
    match basis {
        Basis::Exact if p <= 0.0 => return "never".into(),
        Basis::Exact if p >= 1.0 => return "always".into(),
        Basis::Trials(n) if p <= 0.0 => return format!("none in {} trials", grouped(n as f64)),
        Basis::Trials(n) if p >= 1.0 => {
            return format!("no failure in {} trials", grouped(n as f64));
        }
        _ => {}
    }
    if p > NEAR_CERTAIN {
        let n = 1.0 / (1.0 - p);
        if n > LONGEST_FAILURE {
            return format!("fails < 1 in {}", big(LONGEST_FAILURE));
        }
        format!("fails 1 in {}", big(n))
    } else {
        format!("1 in {}", big(1.0 / p))
    }
}

/// N of "1 in N".
fn big(n: f64) -> String {
    if n < 9.95 {
        format!("{n:.1}")
    } else if n <= LONGEST_FAILURE {
        grouped(n)
    } else {
        format!("{n:.1e}")
    }
}

/// A whole number with thousands separators: 4096 → "4,096".
fn grouped(n: f64) -> String {
    let digits = format!("{:.0}", n.round());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Basis, odds};

    #[test]
    fn exact_odds_read_as_one_in_n() {
        let e = Basis::Exact;
        assert_eq!(odds(1.0 / 4096.0, e), "1 in 4,096");
        assert_eq!(odds(1.0 / 32768.0, e), "1 in 32,768");
        assert_eq!(odds(0.01, e), "1 in 100");
        assert_eq!(odds(0.5, e), "1 in 2.0");
        assert_eq!(odds(0.4, e), "1 in 2.5");
        assert_eq!(odds(0.13, e), "1 in 7.7");
        assert_eq!(odds(0.1004, e), "1 in 10");
        assert_eq!(odds(1e-15, e), "1 in 1.0e15");
        assert_eq!(odds(0.0, e), "never");
        assert_eq!(odds(1.0, e), "always");
    }

    #[test]
    fn near_certain_events_read_by_how_rarely_they_fail() {
        let e = Basis::Exact;
        assert_eq!(odds(0.9998, e), "fails 1 in 5,000");
        assert_eq!(odds(0.8, e), "fails 1 in 5.0");
        assert_eq!(odds(0.75, e), "1 in 1.3");
        assert_eq!(odds(1.0 - 1.0 / 4096.0, e), "fails 1 in 4,096");
        // 1 − p has no digits left to tell 1e-14 from rounding noise.
        assert_eq!(odds(1.0 - 1e-14, e), "fails < 1 in 1,000,000,000,000");
    }

    #[test]
    fn estimates_never_claim_certainty() {
        let mc = Basis::Trials(1_000_000);
        assert_eq!(odds(0.0, mc), "none in 1,000,000 trials");
        assert_eq!(odds(1.0, mc), "no failure in 1,000,000 trials");
        assert_eq!(odds(0.25, mc), "1 in 4.0");
        assert_eq!(odds(f64::NAN, mc), "");
    }
}
