//! The forward pass over the rounds' graphs: the trial's probability
//! pushed under the best choices, counting each side's decisions.

use std::collections::BTreeMap;

use super::{Graph, INDEX, NEXT, Round, Worth};
use crate::model::Choose;

type Table = BTreeMap<(Vec<i64>, usize), f64>;

/// A side's options taken, and its visits per (what it sees, option).
type Taken<O> = (Vec<O>, Table);

/// Push the trial's probability forward under the best choices; returns
/// the metric summed from the outcomes and, per side (the deciding
/// side's, then the opposing side's in a duel), the options taken and
/// the visits per (what the side sees, option). `every` is each law's
/// option by its id (the first of the law's set).
pub(super) fn forward<P: Choose>(
    p: &P,
    graphs: &[Graph<P::State>],
    rounds: &[Round],
    between: usize,
    end: &Worth<'_>,
    choices: &[Vec<u16>],
    every: &[P::Option],
) -> (f64, Vec<Taken<P::Option>>) {
    // Visits per (round, graph, node, option id): a node of a repeating
    // round's graph is seen in each round it is met in (a side may tell
    // the rounds apart). A round meets each of its nodes once, so the
    // keys are distinct, and ascending once each round's run (walked
    // from its last node down) is turned round.
    let mut visits: Vec<((usize, usize, u32, u32), f64)> = Vec::new();
    let mut total = 0.0;
    let mut start = vec![0.0; between];
    let mut next = vec![0.0; between];
    start[rounds[0].layer[0] as usize] = 1.0;
    let mut mass: Vec<Vec<f64>> = graphs.iter().map(|g| vec![0.0; g.states.len()]).collect();
    for (r, d) in rounds.iter().enumerate() {
        let g = &graphs[d.graph];
        let ends = end(r + 1);
        let mass = &mut mass[d.graph];
        for &i in &d.nodes {
            mass[i as usize] = 0.0;
        }
        for (&u, &root) in d.layer.iter().zip(&d.roots) {
            mass[root as usize] += start[u as usize];
            start[u as usize] = 0.0;
        }
        let met = visits.len();
        for (k, &i) in d.nodes.iter().enumerate().rev() {
            let m = mass[i as usize];
            if m == 0.0 {
                continue;
            }
            let c = choices[r][k] as usize;
            let law = g.span[i as usize] as usize + c;
            if c > 0 {
                visits.push(((r + 1, d.graph, i, g.laws[law].0), m));
            }
            for &(q, t) in g.edges(law) {
                match t & !INDEX {
                    0 => mass[t as usize] += m * q,
                    NEXT => next[(t & INDEX) as usize] += m * q,
                    _ => total += m * q * ends[(t & INDEX) as usize],
                }
            }
        }
        visits[met..].reverse();
        std::mem::swap(&mut start, &mut next);
    }
    debug_assert!(visits.windows(2).all(|w| w[0].0 < w[1].0));
    let mut sides: Vec<Taken<P::Option>> = vec![(Vec::new(), Table::new()); 2];
    let mut f = Vec::new();
    for ((round, gi, node, id), v) in visits {
        let g = &graphs[gi];
        let o = &every[id as usize];
        let min = g.min[node as usize];
        let (options, table) = &mut sides[usize::from(min)];
        let k = match options.iter().position(|x| x == o) {
            Some(k) => k,
            None => {
                options.push(o.clone());
                options.len() - 1
            }
        };
        f.clear();
        let s = &g.states[node as usize];
        if min {
            p.opposing_features(round, s, &mut f);
        } else {
            p.features(round, s, &mut f);
        }
        *table.entry((f.clone(), k)).or_insert(0.0) += v;
    }
    (total, sides)
}
