//! Best play over the graph of a round that repeats ([`Repeats`]).
//!
//! A mechanic whose rounds repeat (a duel Press can keep going to its
//! round cap) would otherwise be explored afresh every round: the same
//! states, the same rolls, the same laws, a hundred times. Here each
//! distinct round (the rounds before `from` on their own, the repeating
//! round once, the cap round once) is one graph, grown as rounds reach
//! new states: its nodes are the states met within the round (every
//! roll's result before the state it follows from), each with the given
//! policy's law and, at a decision, each option's law, as edges to a
//! node, to a state of the next round, or to an outcome. Each round
//! keeps the list of its nodes its reachable states lead to (the states
//! between rounds differ from round to round: an edge can grow without
//! bound), and backward induction walks those lists with plain
//! arithmetic, every round from the last down to the first: the sums of
//! the round-by-round solve (`layered`), so its values exactly, not to a
//! tolerance. Dominance walks the same lists again with options
//! forbidden. In a duel (`both`) the opposing side's decisions are nodes
//! too, marked to take the least of their options.

use std::collections::HashMap;
use std::rc::Rc;

use foldhash::fast::FixedState;

use super::{BestError, BestLimits, Raw, Side, Solved, assemble, go_on, menu};
use crate::model::{After, Choose, Repeats};

mod forward;
mod lanes;
mod min;
use forward::forward;
use lanes::{LANES, walk_lanes};

/// An edge's target: a node of the round, a state of the next round (by
/// its index among every state between rounds) or an outcome, by the
/// top two bits.
const NEXT: u32 = 1 << 30;
const END: u32 = 2 << 30;
const INDEX: u32 = NEXT - 1;

/// One kind of round's graph.
struct Graph<S> {
    /// The round it is built at.
    round: usize,
    /// Whether the round ends every trial.
    last: bool,
    /// Each node's state; children come before their parents.
    states: Vec<S>,
    memo: HashMap<S, u32, FixedState>,
    /// Node i's laws are `laws[span[i]..span[i + 1]]`: the given
    /// policy's first, then one per option at a decision.
    span: Vec<u32>,
    /// (the id of its set of options, or `u32::MAX` for the given law;
    /// first edge): options with the same edges at a node share a law.
    laws: Vec<(u32, u32)>,
    /// (probability, target).
    edges: Vec<(f64, u32)>,
    /// The round a node was last reached in (for the rounds' lists).
    stamp: Vec<u32>,
    /// Whether a node is the opposing side's decision (in a duel), and
    /// whether any is (so one-sided walks need not read `min`).
    min: Vec<bool>,
    any_min: bool,
    /// Node i's distinct targets (nodes and states of the next round,
    /// never outcomes) are `kids[kid_span[i]..kid_span[i + 1]]`: what
    /// a round's reach follows, once each however many laws lead there.
    kid_span: Vec<u32>,
    kids: Vec<u32>,
}

/// One round as walked: its graph, its states between rounds (indices
/// into [`Builder::between`]) and their nodes, and every node they lead
/// to, in ascending order (children first).
struct Round {
    graph: usize,
    layer: Vec<u32>,
    roots: Vec<u32>,
    nodes: Vec<u32>,
}

/// Builds the graphs, sharing the options, outcomes and states between
/// rounds met.
struct Builder<'a, P: Choose> {
    p: &'a P,
    /// Whether the opposing side's decisions are nodes too (a duel).
    both: bool,
    round_field: Option<usize>,
    /// Every option met, by id, and whether the deciding side has it
    /// (and, in a duel, the opposing side).
    options: Vec<P::Option>,
    mine: Vec<bool>,
    theirs: Vec<bool>,
    /// Menus met, with their options' ids.
    menus: Vec<(Vec<P::Option>, Vec<u32>)>,
    /// The sets of options that share a law at some node (each law's
    /// id is its set's), first listed first; the set of each option on
    /// its own, by the option's id.
    sets: Vec<Vec<u32>>,
    set_ids: HashMap<Vec<u32>, u32, FixedState>,
    single: Vec<u32>,
    /// Every outcome met (its round field set to 0), by id.
    outcomes: Vec<Vec<i64>>,
    outcome_ids: HashMap<Vec<i64>, u32, FixedState>,
    /// Every state between rounds met, by id.
    between: Vec<P::State>,
    between_ids: HashMap<P::State, u32, FixedState>,
}

impl<P: Choose> Builder<'_, P> {
    fn ids(&mut self, menu: &[P::Option], side: Side) -> Vec<u32> {
        let mine = side == Side::Max;
        let theirs = side == Side::Min;
        if let Some((_, ids)) = self.menus.iter().find(|(m, _)| m[..] == *menu) {
            let ids = ids.clone();
            // One-sided, every option is the deciding side's already.
            if self.both {
                for &i in &ids {
                    self.mine[i as usize] |= mine;
                    self.theirs[i as usize] |= theirs;
                }
            }
            return ids;
        }
        let ids: Vec<u32> = menu
            .iter()
            .map(|o| match self.options.iter().position(|x| x == o) {
                Some(i) => {
                    self.mine[i] |= mine;
                    self.theirs[i] |= theirs;
                    i as u32
                }
                None => {
                    self.options.push(o.clone());
                    self.mine.push(mine);
                    self.theirs.push(theirs);
                    (self.options.len() - 1) as u32
                }
            })
            .collect();
        self.menus.push((menu.to_vec(), ids.clone()));
        ids
    }

    /// The id of a set of option ids (a law's options, first listed
    /// first).
    fn set(&mut self, ids: &[u32]) -> u32 {
        if let [id] = ids {
            let id = *id as usize;
            if self.single.len() <= id {
                self.single.resize(id + 1, u32::MAX);
            }
            if self.single[id] == u32::MAX {
                self.single[id] = self.sets.len() as u32;
                self.sets.push(vec![id as u32]);
            }
            return self.single[id];
        }
        if let Some(&k) = self.set_ids.get(ids) {
            return k;
        }
        let k = self.sets.len() as u32;
        self.sets.push(ids.to_vec());
        self.set_ids.insert(ids.to_vec(), k);
        k
    }

    /// Per set of options: whether `allowed` (by option id) allows any.
    fn by_set(&self, allowed: &[bool]) -> Vec<bool> {
        self.sets
            .iter()
            .map(|set| set.iter().any(|&o| allowed[o as usize]))
            .collect()
    }

    fn outcome(&mut self, o: &[i64]) -> u32 {
        let mut o = o.to_vec();
        if let Some(f) = self.round_field {
            o[f] = 0;
        }
        if let Some(&k) = self.outcome_ids.get(&o) {
            return k;
        }
        let k = self.outcomes.len() as u32;
        self.outcomes.push(o.clone());
        self.outcome_ids.insert(o, k);
        k
    }

    fn between(&mut self, s: P::State) -> u32 {
        let next = self.between.len() as u32;
        let j = *self.between_ids.entry(s.clone()).or_insert(next);
        if j == next {
            self.between.push(s);
        }
        j
    }

    /// The node of `s` in `g`, built with every node below it.
    fn node(&mut self, g: &mut Graph<P::State>, s: &P::State) -> Result<u32, BestError> {
        if let Some(&i) = g.memo.get(s) {
            return Ok(i);
        }
        let round = g.round;
        // A round's graph can be most of the work: poll within it too.
        if g.states.len() & 4095 == 4095 {
            go_on(round, g.states.len())?;
        }
        let mut menu = Vec::new();
        let side = self::menu(self.p, self.both, round, s, &mut menu);
        let ids = if menu.is_empty() {
            Vec::new()
        } else {
            self.ids(&menu, side)
        };
        // Every law's edges, flat: law k's are `flat[starts[k]..starts[k + 1]]`.
        let mut flat: Vec<(f64, u32)> = Vec::new();
        let mut starts = Vec::with_capacity(menu.len() + 2);
        let mut law = Vec::new();
        for k in 0..=menu.len() {
            let o = if k == 0 { None } else { Some(&menu[k - 1]) };
            starts.push(flat.len());
            law.clear();
            self.p.law(round, s, o, &mut law);
            for (roll, q) in &law {
                if *q == 0.0 {
                    continue;
                }
                let t = match self.p.after(round, s, roll) {
                    After::Roll(n) => self.node(g, &n)?,
                    After::Round(n) => {
                        if g.last {
                            return Err(BestError::Rounds(round));
                        }
                        NEXT | self.between(n)
                    }
                    After::End(o) => END | self.outcome(o.as_ref()),
                };
                flat.push((*q, t));
            }
        }
        starts.push(flat.len());
        let law_of = |k: usize| &flat[starts[k]..starts[k + 1]];
        // Options whose laws are the same edges are one law, at the first
        // one's place, with every one of their ids (a set): its value is
        // theirs, bit for bit, and ties go to the first listed anyway.
        let mut kept: Vec<(usize, Vec<u32>)> = Vec::with_capacity(menu.len());
        for k in 1..=menu.len() {
            let id = ids[k - 1];
            match kept.iter_mut().find(|(j, _)| law_of(*j) == law_of(k)) {
                Some((_, set)) => set.push(id),
                None => kept.push((k, vec![id])),
            }
        }
        let first = g.kids.len();
        g.laws.push((u32::MAX, g.edges.len() as u32));
        g.edges.extend_from_slice(law_of(0));
        for (k, set) in &kept {
            let set = self.set(set);
            g.laws.push((set, g.edges.len() as u32));
            g.edges.extend_from_slice(law_of(*k));
        }
        g.kids
            .extend(flat.iter().map(|e| e.1).filter(|t| t & !INDEX != END));
        g.kids[first..].sort_unstable();
        let distinct = first + dedup(&mut g.kids[first..]);
        g.kids.truncate(distinct);
        g.kid_span.push(g.kids.len() as u32);
        g.span.push(g.laws.len() as u32);
        g.states.push(s.clone());
        g.stamp.push(0);
        g.min.push(side == Side::Min);
        g.any_min |= side == Side::Min;
        let i = (g.states.len() - 1) as u32;
        g.memo.insert(s.clone(), i);
        Ok(i)
    }
}

impl<S> Graph<S> {
    fn new(round: usize, last: bool) -> Self {
        Graph {
            round,
            last,
            states: Vec::new(),
            memo: HashMap::default(),
            span: vec![0],
            laws: Vec::new(),
            edges: Vec::new(),
            stamp: Vec::new(),
            min: Vec::new(),
            any_min: false,
            kid_span: vec![0],
            kids: Vec::new(),
        }
    }

    /// The expected value of law `law` given the values of this round's
    /// nodes (`vals`), the next round's (`next`) and the endings (`end`).
    #[inline(always)]
    pub(super) fn expect(&self, law: usize, vals: &[f64], next: &[f64], end: &[f64]) -> f64 {
        let mut v = 0.0;
        for &(q, t) in self.edges(law) {
            let x = match t & !INDEX {
                0 => vals[t as usize],
                NEXT => next[(t & INDEX) as usize],
                _ => end[(t & INDEX) as usize],
            };
            v += q * x;
        }
        v
    }

    fn edges(&self, law: usize) -> &[(f64, u32)] {
        let end = self
            .laws
            .get(law + 1)
            .map_or(self.edges.len(), |l| l.1 as usize);
        &self.edges[self.laws[law].1 as usize..end]
    }

    /// Every node `roots` lead to (stamped `round`), ascending, and the
    /// states between rounds they reach, ascending (stamped `round` in
    /// `met`, by their index).
    fn reach(&mut self, round: u32, roots: &[u32], met: &mut Vec<u32>) -> (Vec<u32>, Vec<u32>) {
        let mut nodes = Vec::new();
        let mut next = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        for &r in roots {
            if self.stamp[r as usize] != round {
                self.stamp[r as usize] = round;
                stack.push(r);
            }
        }
        while let Some(i) = stack.pop() {
            nodes.push(i);
            let (a, b) = (self.kid_span[i as usize], self.kid_span[i as usize + 1]);
            for &t in &self.kids[a as usize..b as usize] {
                match t & !INDEX {
                    0 if self.stamp[t as usize] != round => {
                        self.stamp[t as usize] = round;
                        stack.push(t);
                    }
                    NEXT => {
                        // Each state once, however many nodes lead there.
                        let j = (t & INDEX) as usize;
                        if met.len() <= j {
                            met.resize(j + 1, 0);
                        }
                        if met[j] != round {
                            met[j] = round;
                            next.push(j as u32);
                        }
                    }
                    _ => {}
                }
            }
        }
        // Ascending, by a bitset over the graph's nodes: a scan of one
        // word per 64 nodes, cheaper than sorting them.
        let mut bits = vec![0u64; self.stamp.len().div_ceil(64)];
        for &i in &nodes {
            bits[i as usize / 64] |= 1 << (i % 64);
        }
        nodes.clear();
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                nodes.push(w as u32 * 64 + word.trailing_zeros());
                word &= word - 1;
            }
        }
        next.sort_unstable();
        (nodes, next)
    }

    /// The value of node `i`: at a decision, the best allowed option (all,
    /// when none is) and its place in the menu (0 for the given law);
    /// with no `allowed`, the given law. Not for the opposing side's
    /// decisions ([`Graph::value_min`]).
    #[inline]
    fn value(
        &self,
        i: usize,
        vals: &[f64],
        next: &[f64],
        end: &[f64],
        allowed: Option<&[bool]>,
        found: &mut Vec<(usize, f64)>,
    ) -> (f64, u16) {
        let sum = |law: usize| self.expect(law, vals, next, end);
        let (a, b) = (self.span[i] as usize, self.span[i + 1] as usize);
        let Some(allowed) = allowed.filter(|_| b - a > 1) else {
            return (sum(a), 0);
        };
        let open = (a + 1..b).any(|l| allowed[self.laws[l].0 as usize]);
        found.clear();
        let mut top = f64::NEG_INFINITY;
        for l in a + 1..b {
            if open && !allowed[self.laws[l].0 as usize] {
                continue;
            }
            let v = sum(l);
            top = top.max(v);
            found.push((l, v));
        }
        // Ties go to the option listed first, as round by round.
        let eps = 1e-12 * top.abs().max(1.0);
        let (l, _) = *found
            .iter()
            .find(|(_, v)| *v >= top - eps)
            .expect("an option");
        (top, (l - a) as u16)
    }
}

/// Moves the distinct values of a sorted slice to its front; returns how
/// many there are.
fn dedup(xs: &mut [u32]) -> usize {
    let mut n = 0;
    for k in 0..xs.len() {
        if n == 0 || xs[k] != xs[n - 1] {
            xs[n] = xs[k];
            n += 1;
        }
    }
    n
}

/// The graphs, and every round as walked.
type Built<S> = (Vec<Graph<S>>, Vec<Round>);

/// Every round's graph and lists.
fn build<P: Choose>(
    b: &mut Builder<'_, P>,
    rep: Repeats,
    limits: BestLimits,
) -> Result<Built<P::State>, BestError> {
    let mut graphs: Vec<Graph<P::State>> = Vec::new();
    let (mut repeat, mut cap) = (None, None);
    let mut rounds = Vec::new();
    // The round each state between rounds was last reached in (from 1).
    let mut met = Vec::new();
    let start = b.p.start();
    let mut layer = vec![b.between(start)];
    let mut round = 1;
    loop {
        go_on(round, layer.len())?;
        let last = round >= rep.cap;
        let gi = if last {
            *cap.get_or_insert_with(|| {
                graphs.push(Graph::new(round, true));
                graphs.len() - 1
            })
        } else if round >= rep.from {
            *repeat.get_or_insert_with(|| {
                graphs.push(Graph::new(round, false));
                graphs.len() - 1
            })
        } else {
            graphs.push(Graph::new(round, false));
            graphs.len() - 1
        };
        let g = &mut graphs[gi];
        let mut roots = Vec::with_capacity(layer.len());
        for &u in &layer {
            let s = b.between[u as usize].clone();
            roots.push(b.node(g, &s)?);
        }
        let (nodes, next) = g.reach(round as u32, &roots, &mut met);
        rounds.push(Round {
            graph: gi,
            layer,
            roots,
            nodes,
        });
        if next.is_empty() {
            return Ok((graphs, rounds));
        }
        if next.len() > limits.max_states {
            return Err(BestError::States(limits.max_states));
        }
        if round >= limits.max_rounds {
            return Err(BestError::Rounds(limits.max_rounds));
        }
        layer = next;
        round += 1;
    }
}

/// The outcomes' worth by the round they end in.
type Worth<'a> = dyn Fn(usize) -> Rc<Vec<f64>> + 'a;

/// Backward induction over every round under `allowed` (the given
/// policy when `None`; the opposing side's best too when `duel`): the
/// value at the start; with `choices`, the choice at every node of every
/// round (aligned with its list).
fn walk<S>(
    graphs: &[Graph<S>],
    rounds: &[Round],
    between: usize,
    end: &Worth<'_>,
    allowed: Option<&[bool]>,
    duel: bool,
    mut choices: Option<&mut Vec<Vec<u16>>>,
) -> Result<f64, BestError> {
    let mut next = vec![0.0; between];
    let mut cur = vec![0.0; between];
    let mut vals: Vec<Vec<f64>> = graphs.iter().map(|g| vec![0.0; g.states.len()]).collect();
    let mut found = Vec::new();
    if let Some(c) = choices.as_deref_mut() {
        c.clear();
        c.resize(rounds.len(), Vec::new());
    }
    for (r, d) in rounds.iter().enumerate().rev() {
        go_on(r + 1, d.layer.len())?;
        let g = &graphs[d.graph];
        let ends = end(r + 1);
        let vals = &mut vals[d.graph];
        let mut choice = Vec::new();
        for &i in &d.nodes {
            let i = i as usize;
            let (v, c) = if g.any_min && g.min[i] && allowed.is_some() {
                g.value_min(i, vals, &next, &ends, duel, &mut found)
            } else {
                g.value(i, vals, &next, &ends, allowed, &mut found)
            };
            vals[i] = v;
            if choices.is_some() {
                choice.push(c);
            }
        }
        for (&u, &root) in d.layer.iter().zip(&d.roots) {
            cur[u as usize] = vals[root as usize];
        }
        std::mem::swap(&mut cur, &mut next);
        if let Some(c) = choices.as_deref_mut() {
            c[r] = choice;
        }
    }
    Ok(next[rounds[0].layer[0] as usize])
}

/// Best play over the rounds' graphs; for both sides when `both` (a
/// duel, see [`super::duel`]).
pub fn solve<P: Choose>(
    p: &P,
    rep: Repeats,
    reward: &dyn Fn(&[i64]) -> f64,
    dominance: bool,
    limits: BestLimits,
    both: bool,
) -> Result<Solved<P::Option>, BestError> {
    let mut b = Builder {
        p,
        both,
        round_field: rep.round_field,
        options: Vec::new(),
        mine: Vec::new(),
        theirs: Vec::new(),
        menus: Vec::new(),
        sets: Vec::new(),
        set_ids: HashMap::default(),
        single: Vec::new(),
        outcomes: Vec::new(),
        outcome_ids: HashMap::default(),
        between: Vec::new(),
        between_ids: HashMap::default(),
    };
    let (graphs, rounds) = build(&mut b, rep, limits)?;
    let cache: std::cell::RefCell<HashMap<usize, Rc<Vec<f64>>>> = Default::default();
    let worth = |round: usize| -> Rc<Vec<f64>> {
        let key = if rep.round_field.is_some() { round } else { 0 };
        if let Some(v) = cache.borrow().get(&key) {
            return v.clone();
        }
        let v: Vec<f64> = b
            .outcomes
            .iter()
            .map(|o| match rep.round_field {
                Some(f) => {
                    let mut o = o.clone();
                    o[f] = round as i64;
                    reward(&o)
                }
                None => reward(o),
            })
            .collect();
        let v = Rc::new(v);
        cache.borrow_mut().insert(key, v.clone());
        v
    };
    let n = b.between.len();
    // Walks read a law's set of options (allowed when any of them is).
    let all = b.by_set(&vec![true; b.options.len()]);
    let mut choices = Vec::new();
    let value = walk(
        &graphs,
        &rounds,
        n,
        &worth,
        Some(&all),
        both,
        Some(&mut choices),
    )?;
    let given = walk(&graphs, &rounds, n, &worth, None, false, None)?;
    let one_sided = if both {
        Some(walk(&graphs, &rounds, n, &worth, Some(&all), false, None)?)
    } else {
        None
    };
    // A law best play takes is its set's first option (ties go to the
    // option listed first).
    let firsts: Vec<P::Option> = b
        .sets
        .iter()
        .map(|set| b.options[set[0] as usize].clone())
        .collect();
    let (replayed, mut tables) = forward(p, &graphs, &rounds, n, &worth, &choices, &firsts);
    let (opposing_options, opposing_table) = tables.pop().expect("two sides");
    let (options, table) = tables.pop().expect("two sides");
    let raw = Raw {
        value,
        given,
        replayed,
        options,
        table,
        one_sided,
        opposing_options,
        opposing_table,
        states: rounds.iter().map(|r| r.layer.len()).sum(),
        rounds: rounds.len(),
    };
    let every = b.options.clone();
    // Each side's options: dominance forbids one side's at a time.
    let side = |of: &[bool]| -> Vec<P::Option> {
        every
            .iter()
            .zip(of)
            .filter(|(_, m)| **m)
            .map(|(o, _)| o.clone())
            .collect()
    };
    let (mine, theirs) = (side(&b.mine), side(&b.theirs));
    assemble(p, raw, dominance, (&mine, &theirs), |sets, side| {
        // (the deciding side's allowed options, the opposing side's;
        // the other side keeps `all`).
        let masks: Vec<(Vec<bool>, Vec<bool>)> = sets
            .iter()
            .map(|allowed| {
                let mask = b.by_set(&every.iter().map(allowed).collect::<Vec<_>>());
                match side {
                    Side::Min => (all.clone(), mask),
                    _ => (mask, all.clone()),
                }
            })
            .collect();
        let mut values = Vec::with_capacity(masks.len());
        // Up to [`LANES`] sets a walk, in walks of equal size: each walk
        // reads the graph's edges once for all of its sets.
        let walks = masks.len().div_ceil(LANES).max(1);
        for chunk in masks.chunks(masks.len().div_ceil(walks).max(1)) {
            values.extend(walk_lanes(&graphs, &rounds, n, &worth, chunk)?);
        }
        Ok(values)
    })
}
