//! Dominance's backward induction: [`walk`](super::walk) for several
//! sets of allowed options at once, side by side in lanes, so each edge
//! of the graph is read once for all of them.

use super::super::{BestError, go_on};
use super::{Graph, INDEX, NEXT, Round, Worth};

/// The most sets of allowed options one [`walk_lanes`] carries (bits of
/// a word).
pub(super) const LANES: usize = 16;

/// Backward induction as [`walk`] does it, for several sets of allowed
/// options at once (lanes): each node's values sit side by side, so an
/// edge is read once for every lane. Each lane's sums are [`walk`]'s
/// sums, in the same order, so its values are the same bits.
pub(super) fn walk_lanes<S>(
    graphs: &[Graph<S>],
    rounds: &[Round],
    between: usize,
    end: &Worth<'_>,
    lanes: &[(Vec<bool>, Vec<bool>)],
) -> Result<Vec<f64>, BestError> {
    let n = lanes.len();
    debug_assert!(n <= LANES);
    // Per option id, the lanes that allow it (bit k: lane k), at the
    // deciding side's decisions and at the opposing side's.
    let options = lanes.first().map_or(0, |l| l.0.len());
    let allows = |second: bool| -> Vec<u16> {
        (0..options)
            .map(|o| {
                lanes.iter().enumerate().fold(0, |m, (k, l)| {
                    let side = if second { &l.1 } else { &l.0 };
                    m | u16::from(side[o]) << k
                })
            })
            .collect()
    };
    let allows = [allows(false), allows(true)];
    let mut next = vec![0.0; between * n];
    let mut cur = vec![0.0; between * n];
    let mut vals: Vec<Vec<f64>> = graphs
        .iter()
        .map(|g| vec![0.0; g.states.len() * n])
        .collect();
    let mut sums = Vec::new();
    let mut top = vec![0.0; n];
    for (r, d) in rounds.iter().enumerate().rev() {
        go_on(r + 1, d.layer.len())?;
        let g = &graphs[d.graph];
        let ends = end(r + 1);
        let vals = &mut vals[d.graph];
        for &i in &d.nodes {
            g.value_lanes(i as usize, vals, &next, &ends, &allows, &mut sums, &mut top);
            vals[i as usize * n..][..n].copy_from_slice(&top);
        }
        for (&u, &root) in d.layer.iter().zip(&d.roots) {
            cur[u as usize * n..][..n].copy_from_slice(&vals[root as usize * n..][..n]);
        }
        std::mem::swap(&mut cur, &mut next);
    }
    let start = rounds[0].layer[0] as usize;
    Ok(next[start * n..][..n].to_vec())
}

impl<S> Graph<S> {
    /// Law `law`'s expected value in every lane, into `out`.
    #[inline]
    fn sum_lanes(&self, law: usize, vals: &[f64], next: &[f64], end: &[f64], out: &mut [f64]) {
        let n = out.len();
        out.fill(0.0);
        for &(q, t) in self.edges(law) {
            let x = match t & !INDEX {
                0 => &vals[t as usize * n..][..n],
                NEXT => &next[(t & INDEX) as usize * n..][..n],
                _ => {
                    let x = end[(t & INDEX) as usize];
                    for o in out.iter_mut() {
                        *o += q * x;
                    }
                    continue;
                }
            };
            for (o, x) in out.iter_mut().zip(x) {
                *o += q * x;
            }
        }
    }

    /// Node `i`'s value in every lane (as [`Graph::value`] finds it with
    /// that lane's allowed options), into `top`.
    #[allow(clippy::too_many_arguments)]
    fn value_lanes(
        &self,
        i: usize,
        vals: &[f64],
        next: &[f64],
        end: &[f64],
        allows: &[Vec<u16>; 2],
        sums: &mut Vec<f64>,
        top: &mut [f64],
    ) {
        let n = top.len();
        let (a, b) = (self.span[i] as usize, self.span[i + 1] as usize);
        if b - a == 1 {
            self.sum_lanes(a, vals, next, end, top);
            return;
        }
        // Every option's sums, lane by lane.
        // (Each law's sums start from zero in `sum_lanes`: the buffer
        // only grows, never cleared.)
        let len = (b - a - 1) * n;
        if sums.len() < len {
            sums.resize(len, 0.0);
        }
        let sums = &mut sums[..len];
        for (l, out) in (a + 1..b).zip(sums.chunks_exact_mut(n)) {
            self.sum_lanes(l, vals, next, end, out);
        }
        let every = u16::MAX >> (16 - n);
        // The opposing side's decision (a duel): the least of its allowed
        // options in every lane (all of them, unless dominance forbids
        // some of its options; a lane that allows none keeps them all).
        if self.any_min && self.min[i] {
            let allows = &allows[1];
            let open = (a + 1..b).fold(0, |m, l| m | allows[self.laws[l].0 as usize]);
            top.fill(f64::INFINITY);
            for (l, s) in (a + 1..b).zip(sums.chunks_exact(n)) {
                let here = (allows[self.laws[l].0 as usize] | !open) & every;
                if here == every {
                    for (t, &v) in top.iter_mut().zip(s) {
                        *t = if v < *t { v } else { *t };
                    }
                    continue;
                }
                for (k, (t, &v)) in top.iter_mut().zip(s).enumerate() {
                    if here >> k & 1 == 1 && v < *t {
                        *t = v;
                    }
                }
            }
            return;
        }
        let allows = &allows[0];
        // A lane that allows none of the options here keeps them all.
        let open = (a + 1..b).fold(0, |m, l| m | allows[self.laws[l].0 as usize]);
        top.fill(f64::NEG_INFINITY);
        for (l, s) in (a + 1..b).zip(sums.chunks_exact(n)) {
            let here = (allows[self.laws[l].0 as usize] | !open) & every;
            // `>` rather than `f64::max`: the same for values that are
            // never NaN, and a plain compare the loop can vectorise.
            if here == every {
                for (t, &v) in top.iter_mut().zip(s) {
                    *t = if v > *t { v } else { *t };
                }
                continue;
            }
            for (k, (t, &v)) in top.iter_mut().zip(s).enumerate() {
                if here >> k & 1 == 1 && v > *t {
                    *t = v;
                }
            }
        }
    }
}
