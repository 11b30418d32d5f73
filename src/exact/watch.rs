//! What an exact solve on this thread polls to know whether to go on.
//!
//! Two things, both opt-in and thread-local. A *watch* over the chains one
//! thread solves: the workbench (`oddsmith serve`) shows a slow chain's
//! progress through it. And a *stop* ([`stopping`]): the run driver sets
//! one around every exact solve, asking its `Progress` (Ctrl-C on the
//! command line and in Python, a cancelled or superseded request in the
//! workbench), so an exact solve stops as promptly as the Monte Carlo loop
//! does. Every solver loop polls [`go_on`] or [`stopped`]: the chain
//! solver before each round, the dice-expression solver before each
//! operation, [`Memo`](super::Memo) before it keeps a law. Unset, they
//! cost one thread-local read per poll; the numbers of a solve they let
//! run are the same bits.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Called by [`absorb`](super::absorb) before each round with the round
/// about to start (0 before the first), the transient states live and
/// the probability still in play; `false` abandons the solve, which then
/// returns `None` (as beyond its limits).
pub type Watch = dyn Fn(usize, usize, f64) -> bool;

/// Asked whether to stop: `true` abandons the solve.
pub type Stop<'a> = dyn Fn() -> bool + Sync + 'a;

thread_local! {
    static WATCH: RefCell<Option<Rc<Watch>>> = const { RefCell::new(None) };
    /// The innermost [`stopping`]'s check, its lifetime erased; only
    /// [`stopped`] reads it, while that call is on the stack.
    static STOP: Cell<Option<&'static Stop<'static>>> = const { Cell::new(None) };
}

/// Run `work` with `stop` polled by every exact solve this thread does in
/// it (a solve told to stop gives up, as beyond its limits, and the
/// caller, which asked the same `stop`, says it was cancelled). An outer
/// stop still applies inside.
pub fn stopping<T>(stop: &Stop<'_>, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<&'static Stop<'static>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            STOP.with(|s| s.set(self.0));
        }
    }
    let outer = STOP.with(Cell::get);
    let check = || stop() || outer.is_some_and(|o| o());
    let check: &Stop<'_> = &check;
    // SAFETY: the reference is stored only for the duration of `work`:
    // `Restore` puts the outer value back when this frame ends, by return
    // or by unwinding, before `check` (which lives on this frame) is
    // dropped, and `stopped` only calls it, never lets it out.
    let erased: &'static Stop<'static> =
        unsafe { std::mem::transmute::<&Stop<'_>, &'static Stop<'static>>(check) };
    let _restore = Restore(STOP.with(|s| s.replace(Some(erased))));
    work()
}

/// Whether the innermost [`stopping`] on this thread says stop (never,
/// without one).
pub fn stopped() -> bool {
    STOP.with(Cell::get).is_some_and(|stop| stop())
}

/// Run `work` with `watch` over every chain this thread solves in it (the
/// previous watch, if any, comes back after).
pub fn watched<T>(watch: Rc<Watch>, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Rc<Watch>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            WATCH.with(|w| *w.borrow_mut() = old);
        }
    }
    let _restore = Restore(WATCH.with(|w| w.borrow_mut().replace(watch)));
    work()
}

/// Whether the chain solve goes on (always, without a watch or a stop).
pub(super) fn go_on(round: usize, live: usize, in_play: f64) -> bool {
    let watch = WATCH.with(|w| w.borrow().clone());
    watch.is_none_or(|f| f(round, live, in_play)) && !stopped()
}

#[cfg(test)]
mod tests {
    use super::super::{Limits, Next, absorb};
    use super::*;
    use std::cell::Cell;

    /// Fair coin from 3 of 10: P(reach 10) = 3/10.
    fn ruin() -> Option<f64> {
        absorb(3i32, 1, Limits::default(), |_, &s, out| {
            for to in [s - 1, s + 1] {
                let next = match to {
                    0 => Next::Stop(vec![0]),
                    10 => Next::Stop(vec![1]),
                    _ => Next::Go(to),
                };
                out.push((next, 0.5));
            }
        })
        .map(|a| a.marginals.field(0)[&1])
    }

    #[test]
    fn a_watch_sees_each_round_and_changes_no_bit() {
        let plain = ruin().unwrap();
        let rounds = Rc::new(Cell::new(0usize));
        let seen = rounds.clone();
        let watched_p = watched(
            Rc::new(move |round, live, in_play| {
                assert!(live >= 1 && in_play > 0.0);
                seen.set(round);
                true
            }),
            ruin,
        )
        .unwrap();
        assert_eq!(plain.to_bits(), watched_p.to_bits());
        assert!(rounds.get() > 50, "{}", rounds.get());
        // Gone after: no watch is called outside `watched`.
        assert_eq!(ruin().unwrap().to_bits(), plain.to_bits());
    }

    #[test]
    fn a_watch_that_says_stop_abandons_the_solve() {
        let stop_at_5 = Rc::new(|round: usize, _: usize, _: f64| round < 5);
        assert_eq!(watched(stop_at_5, ruin), None);
        assert!(ruin().is_some());
    }

    #[test]
    fn a_stop_abandons_a_chain_at_its_next_round_and_is_gone_after() {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let polls = AtomicUsize::new(0);
        let cancel = AtomicBool::new(false);
        // Cancelled from round 3 on: the solve polls once more and stops.
        let stop = || {
            if polls.fetch_add(1, Ordering::SeqCst) == 3 {
                cancel.store(true, Ordering::SeqCst);
            }
            cancel.load(Ordering::SeqCst)
        };
        assert_eq!(stopping(&stop, ruin), None);
        assert_eq!(polls.load(Ordering::SeqCst), 4);
        assert!(!stopped());
        assert!(ruin().is_some());
        // A stop that never says stop changes no bit.
        let never = || false;
        assert_eq!(
            stopping(&never, ruin).map(f64::to_bits),
            ruin().map(f64::to_bits)
        );
    }

    #[test]
    fn an_outer_stop_holds_inside_an_inner_one() {
        let yes = || true;
        let no = || false;
        assert!(stopping(&yes, || stopping(&no, stopped)));
        assert!(stopping(&no, || stopping(&yes, stopped)));
        assert!(!stopping(&no, || stopping(&no, stopped)));
        // Restored after a panic inside.
        let caught = std::panic::catch_unwind(|| stopping(&yes, || panic!("inside")));
        assert!(caught.is_err());
        assert!(!stopped());
    }
}
