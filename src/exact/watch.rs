//! An opt-in watch over the chains one thread solves: the workbench
//! (`oddsmith serve`) shows a slow exact solve's progress and stops one
//! whose answer nobody wants any more. Nothing else sets it, and unset it
//! costs [`absorb`](super::absorb) one thread-local read per round; the
//! numbers of a solve it lets run are the same bits.

use std::cell::RefCell;
use std::rc::Rc;

/// Called by [`absorb`](super::absorb) before each round with the round
/// about to start (0 before the first), the transient states live and
/// the probability still in play; `false` abandons the solve, which then
/// returns `None` (as beyond its limits).
pub type Watch = dyn Fn(usize, usize, f64) -> bool;

thread_local! {
    static WATCH: RefCell<Option<Rc<Watch>>> = const { RefCell::new(None) };
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

/// Whether the solve goes on (always, without a watch).
pub(super) fn go_on(round: usize, live: usize, in_play: f64) -> bool {
    let watch = WATCH.with(|w| w.borrow().clone());
    watch.is_none_or(|f| f(round, live, in_play))
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
}
