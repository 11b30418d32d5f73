//! Absorbing Markov chains, solved by pushing probability mass forward one
//! round at a time until (almost) all of it is absorbed.
//!
//! Multi-round mechanics (sequences, scenes, contests that go back and
//! forth) are chains whose transient states are what the mechanic must
//! remember between rounds. Forward propagation gives the exact joint law
//! of the outcome *and* the number of rounds, handles self-loops (ties that
//! change nothing) without special cases, and needs no matrix inversion.
//! It stops when the mass still in play is below `tolerance` (reported, so
//! callers can show it) or after `max_rounds`. A round's states are summed
//! in a hash table and then sorted, and visited in that order: every sum
//! happens in a fixed order (same input, same bits, as when they lived in
//! an ordered map), at a fraction of the cost of ordered inserts.

use std::collections::HashMap;
use std::hash::Hash;

use foldhash::fast::FixedState;

use super::Sums;
use crate::model::Marginals;

/// Where one transition leads.
#[derive(Clone, Debug, PartialEq)]
pub enum Next<S, O = Vec<i64>> {
    /// Into another transient state.
    Go(S),
    /// Absorbed, with these outcome field values.
    Stop(O),
}

/// Bounds on the work a solve may do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Stop when the probability still in play falls below this.
    pub tolerance: f64,
    /// Give up (return `None`) when this many rounds pass first.
    pub max_rounds: usize,
    /// Give up (return `None`) when more transient states than this are live
    /// at once: the chain is too large for an exact answer.
    pub max_states: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            tolerance: 1e-13,
            max_rounds: 100_000,
            max_states: 200_000,
        }
    }
}

/// The solved chain.
#[derive(Clone, Debug, PartialEq)]
pub struct Absorbed {
    pub marginals: Marginals,
    /// Probability mass never absorbed (below the tolerance).
    pub leftover: f64,
    /// Rounds propagated.
    pub rounds: usize,
    /// The most transient states live at once.
    pub peak_states: usize,
}

/// Solve the chain that starts in `start`. `step(round, state, out)` pushes
/// every transition out of `state` in round `round` (from 1) as
/// `(next, probability)`; probabilities out of one state must sum to 1.
/// Outcomes have `fields` values each.
pub fn absorb<S: Ord + Clone + Hash, O: AsRef<[i64]>>(
    start: S,
    fields: usize,
    limits: Limits,
    mut step: impl FnMut(usize, &S, &mut Vec<(Next<S, O>, f64)>),
) -> Option<Absorbed> {
    let mut absorbed = Sums::new(fields);
    // The live states in increasing order, each with its mass.
    let mut live: Vec<(S, f64)> = vec![(start, 1.0)];
    let mut out = Vec::new();
    let mut peak = 1;
    let mut round = 0;
    while !live.is_empty() {
        let in_play: f64 = live.iter().map(|(_, p)| p).sum();
        if in_play < limits.tolerance {
            return Some(Absorbed {
                marginals: absorbed.into_marginals(),
                leftover: in_play,
                rounds: round,
                peak_states: peak,
            });
        }
        if !super::watch::go_on(round, live.len(), in_play) {
            return None;
        }
        if round >= limits.max_rounds {
            return None;
        }
        round += 1;
        let mut next: HashMap<S, f64, FixedState> = HashMap::default();
        for (state, p) in &live {
            out.clear();
            step(round, state, &mut out);
            for (to, q) in out.drain(..) {
                match to {
                    Next::Go(s) => *next.entry(s).or_insert(0.0) += p * q,
                    Next::Stop(outcome) => {
                        let outcome = outcome.as_ref();
                        debug_assert_eq!(outcome.len(), fields);
                        absorbed.add(outcome, p * q);
                    }
                }
            }
        }
        peak = peak.max(next.len());
        if next.len() > limits.max_states {
            return None;
        }
        live = next.into_iter().collect();
        live.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    }
    Some(Absorbed {
        marginals: absorbed.into_marginals(),
        leftover: 0.0,
        rounds: round,
        peak_states: peak,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamblers_ruin_matches_the_formula() {
        // Fair coin, start with 3 of 10: P(reach 10) = 3/10.
        let solved = absorb(3i32, 1, Limits::default(), |_, &s, out| {
            for to in [s - 1, s + 1] {
                let next = if to == 0 {
                    Next::Stop(vec![0])
                } else if to == 10 {
                    Next::Stop(vec![1])
                } else {
                    Next::Go(to)
                };
                out.push((next, 0.5));
            }
        })
        .unwrap();
        let win = solved.marginals.field(0)[&1];
        assert!((win - 0.3).abs() < 1e-10, "{win}");
        assert!(solved.leftover < 1e-13);
    }

    #[test]
    fn rounds_of_a_geometric_wait() {
        // Stop with probability 1/4 each round: P(rounds = k) = (3/4)^(k-1)/4.
        let solved = absorb((), 1, Limits::default(), |round, _, out| {
            out.push((Next::Stop(vec![round as i64]), 0.25));
            out.push((Next::Go(()), 0.75));
        })
        .unwrap();
        let rounds = solved.marginals.field(0);
        assert!((rounds[&1] - 0.25).abs() < 1e-15);
        assert!((rounds[&3] - 0.75f64.powi(2) * 0.25).abs() < 1e-15);
    }

    #[test]
    fn too_many_states_gives_up() {
        let limits = Limits {
            max_states: 10,
            ..Limits::default()
        };
        let solved = absorb(0u64, 1, limits, |_, &s, out| {
            out.push((Next::<u64>::Go(2 * s), 0.5));
            out.push((Next::Go(2 * s + 1), 0.5));
        });
        assert!(solved.is_none());
    }
}
