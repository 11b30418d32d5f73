//! Tests of the exact solver's budget: its estimate is paid before the
//! work, follows the work actually done (counted, never timed), and a
//! stop ends a solve at its next operation.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};

use super::big::Big;
use super::dist::{Budget, Stop};
use super::exact::{NoExact, WORK, eval, exact_within};
use super::weight::{Overflow, Weight};
use super::*;
use crate::exact::watch;

thread_local! {
    /// Units of work a [`Meter`] has done.
    static DONE: Cell<u64> = const { Cell::new(0) };
}

/// Big counts that count the work done on them, in the budget's units:
/// each product at the widths it really has.
#[derive(Clone, Debug, PartialEq)]
struct Meter(Big);

impl Meter {
    fn charge(a: &Big, b: &Big) {
        DONE.with(|d| d.set(d.get() + <Big as Weight>::cost(1, a.bits(), b.bits())));
    }
}

impl Weight for Meter {
    const MAX_BITS: u64 = u64::MAX;
    fn zero() -> Self {
        Meter(Big::zero())
    }
    fn from_u64(v: u64) -> Self {
        Meter(Big::from_u128(v.into()))
    }
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
    fn add(&self, other: &Self) -> Result<Self, Overflow> {
        Ok(Meter(self.0.add(&other.0)))
    }
    fn mul(&self, other: &Self) -> Result<Self, Overflow> {
        Meter::charge(&self.0, &other.0);
        Ok(Meter(self.0.mul(&other.0)))
    }
    fn sub(&self, other: &Self) -> Self {
        Meter(Weight::sub(&self.0, &other.0))
    }
    fn add_product(&mut self, a: &Self, b: &Self) -> Result<(), Overflow> {
        Meter::charge(&a.0, &b.0);
        self.0.add_mul_assign(&a.0, &b.0);
        Ok(())
    }
    fn to_big(&self) -> Big {
        self.0.clone()
    }
    fn bits(&self) -> u64 {
        self.0.bits()
    }
    fn cost(ops: u64, a_bits: u64, b_bits: u64) -> u64 {
        <Big as Weight>::cost(ops, a_bits, b_bits)
    }
}

/// (estimated, done) units for `text` with big counts.
fn estimated_and_done(text: &str) -> (u64, u64) {
    let roll = Roll::new(text).unwrap();
    DONE.with(|d| d.set(0));
    let mut budget = Budget::new(u64::MAX);
    let d = eval::<Meter>(&roll.term, &mut budget).unwrap();
    assert_eq!(
        d.counts.w.iter().fold(Big::zero(), |s, w| s.add(&w.0)),
        d.total.0
    );
    (budget.spent, DONE.with(Cell::get))
}

#[test]
fn the_estimate_follows_the_work_done_as_pools_grow() {
    // The work of a sum of n dice grows as n³ with big counts (n steps, a
    // span of n values, counts n limbs wide): the estimate must follow it,
    // not the n² steps alone.
    let mut last_done = 0;
    for n in [60, 200, 600, 1500] {
        let (est, done) = estimated_and_done(&format!("{n}d6"));
        let ratio = est as f64 / done as f64;
        assert!(
            (0.8..2.0).contains(&ratio),
            "{n}d6: estimated {est}, done {done}"
        );
        assert!(done > last_done);
        last_done = done;
    }
    for text in [
        "40d6!",
        "30d10kh3",
        "200d6 >= 190d6 + 10",
        "max(300d6, 310d6)",
    ] {
        let (est, done) = estimated_and_done(text);
        let ratio = est as f64 / done as f64;
        assert!(
            (0.8..50.0).contains(&ratio),
            "{text}: estimated {est}, done {done}"
        );
    }
}

#[test]
fn big_pools_are_refused_before_any_work() {
    for text in ["2000d6", "5000d6", "10000d6", "10000d6 + d20"] {
        let roll = Roll::new(text).unwrap();
        // With u128 counts the sum overflows early; big counts are
        // refused by their estimate, before the first step.
        DONE.with(|d| d.set(0));
        let mut budget = Budget::new(WORK);
        let err = eval::<Meter>(&roll.term, &mut budget).unwrap_err();
        assert!(matches!(err, Stop::TooLarge(_)), "{text}: {err:?}");
        // Only the die itself was built (a few products), no sum step.
        assert!(DONE.with(Cell::get) <= 64, "{text}: work began");
        let Err(NoExact::TooLarge(why)) = roll.exact() else {
            panic!("{text} has an exact answer");
        };
        assert!(
            why.contains("the sum of") && why.contains("more than the second"),
            "{why}"
        );
    }
    // 10000d6 would take most of an hour, and says so.
    let why = Roll::new("10000d6")
        .unwrap()
        .exact()
        .unwrap_err()
        .to_string();
    assert!(why.contains(" min of arithmetic"), "{why}");
}

#[test]
fn the_budget_of_an_answer_is_its_estimate() {
    let roll = Roll::new("500d6").unwrap();
    let (d, spent) = exact_within(&roll.term, WORK).unwrap();
    assert_eq!(d.weight_sum(), *d.total());
    assert!(spent > WORK / 1000 && spent <= WORK, "{spent}");
    // One unit short of it and the answer is refused, before any work.
    let short = exact_within(&roll.term, spent - 1);
    assert!(matches!(short, Err(NoExact::TooLarge(_))), "{short:?}");
}

#[test]
fn a_stop_ends_an_exact_solve_with_cancelled() {
    let stop = || true;
    for text in ["3d6", "300d6", "20d6kh3", "10d6! >= 30", "max(d20, d20)"] {
        let roll = Roll::new(text).unwrap();
        assert!(roll.exact().is_ok());
        assert_eq!(
            watch::stopping(&stop, || roll.exact()),
            Err(NoExact::Cancelled),
            "{text}"
        );
    }
    // Told mid-way: the sum stops at its next step, not at its end.
    let (_, whole) = estimated_and_done("300d6");
    let roll = Roll::new("300d6").unwrap();
    let polls = AtomicU32::new(0);
    let after_ten = || polls.fetch_add(1, Ordering::SeqCst) >= 10;
    DONE.with(|d| d.set(0));
    let r = watch::stopping(&after_ten, || {
        eval::<Meter>(&roll.term, &mut Budget::new(WORK))
    });
    assert_eq!(r.unwrap_err(), Stop::Cancelled);
    assert_eq!(polls.load(Ordering::SeqCst), 11);
    let partial = DONE.with(Cell::get);
    assert!(partial > 0 && partial < whole / 100, "{partial} of {whole}");
}

/// Prints the estimate beside the time taken, to set the cost constants
/// (`cargo test --release --lib calibrate -- --ignored --nocapture`); a
/// figure, not a test.
#[test]
#[ignore]
fn calibrate() {
    for text in [
        "12d1000",
        "13d1000",
        "12d1000",
        "13d1000",
        "200d6",
        "500d6",
        "1000d6",
        "60d6!",
        "100d10kh5",
    ] {
        let roll = Roll::new(text).unwrap();
        let started = std::time::Instant::now();
        let r = exact_within(&roll.term, u64::MAX);
        let secs = started.elapsed().as_secs_f64();
        let spent = r.as_ref().map_or(0, |(_, s)| *s);
        println!(
            "{text:>10}: {spent:>14} units, {secs:>8.3} s, {:>6.2} units/ns",
            spent as f64 / secs / 1e9
        );
    }
}
