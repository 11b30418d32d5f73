//! Best play's wrench written as `policy.wrench` rules
//! ([`super::super::wrench`]).
//!
//! The rules see four numbers (the failures, the risk still short, the
//! venture left, the dice on the table), and several boards look alike
//! to them (which uses are spent, the dice by face). So the writer does
//! not copy best play's choices: it works out every board's best moves
//! (all within a relative 1e-12 of the best value), follows every best
//! move from the rolls on, and gives each situation (what the rules see)
//! an order of moves such that, on each of its boards, the first move
//! open there is a best one ([`Situation::order`]): a rule whose use is
//! spent, or has nothing to act on, is passed over, which is how the
//! rules tell "Gotta make it!" still to come from "Gotta make it!" spent.
//! Where that is not enough (a situation with no such order, or rules
//! that miss a best move), the situations are keyed again by which uses
//! are spent too, and the rules may say so (`spent`, `unspent`); the
//! widening tries those bounds first, so they stay only where needed.
//!
//! Each situation's first moves are one layer of rules, its second moves
//! the next, and so on; each layer is grouped as best play's rules are
//! ([`group`]), each rule widened as far as it goes without meeting a
//! situation of another move of its layer, rules another of the same
//! move covers dropped, and the first layer's most visited move with
//! nothing after it left to the last rule, without `when` (later layers
//! keep clear of its situations). Last, the rules are played on every
//! board best play can reach, and written only if they take a best move
//! on each: replayed, they give best play's value. `None` where a
//! situation has no such order, or past the rule limit.

use std::collections::{BTreeMap, HashMap};

use super::{Next, Step, WrenchChoice};
use crate::exact::best::rules as bounds;
use crate::exact::best::{Decision, group};
use crate::model::policy::MAX_RULES;
use crate::model::{After, Choose, ParamValue};
use crate::systems::cgg::action::venture::Board;
use crate::systems::cgg::action::wrench::{self, Spend, When, WrenchPolicy};

/// Two values this close (relative) are one.
const TIE: f64 = 1e-12;

/// Every board's value under best play, memoised.
struct Values<'a> {
    p: &'a WrenchChoice,
    reward: &'a dyn Fn(&[i64]) -> f64,
    memo: HashMap<Step, f64>,
}

impl Values<'_> {
    fn value(&mut self, s: &Step) -> f64 {
        if let Some(v) = self.memo.get(s) {
            return *v;
        }
        let v = self
            .moves(s)
            .into_iter()
            .map(|o| self.worth(s, o.as_ref()))
            .fold(f64::NEG_INFINITY, f64::max);
        self.memo.insert(s.clone(), v);
        v
    }

    /// What the player may do on `s` (`None`: nothing to decide).
    fn moves(&self, s: &Step) -> Vec<Option<Spend>> {
        let mut opts = Vec::new();
        self.p.options(1, s, &mut opts);
        if opts.is_empty() {
            vec![None]
        } else {
            opts.into_iter().map(Some).collect()
        }
    }

    /// The value of taking `o` on `s`, and where it leads.
    fn worth(&mut self, s: &Step, o: Option<&Spend>) -> f64 {
        self.law(s, o)
            .into_iter()
            .map(|(n, q)| {
                q * match n {
                    Ok(n) => self.value(&n),
                    Err(v) => v,
                }
            })
            .sum()
    }

    /// The boards `o` on `s` leads to (or the value where it ends).
    fn law(&self, s: &Step, o: Option<&Spend>) -> Vec<(Result<Step, f64>, f64)> {
        let mut law: Vec<(Next, f64)> = Vec::new();
        self.p.law(1, s, o, &mut law);
        law.into_iter()
            .filter(|(_, q)| *q != 0.0)
            .map(|(n, q)| match self.p.after(1, s, &n) {
                After::Roll(n) | After::Round(n) => (Ok(n), q),
                After::End(out) => (Err((self.reward)(&out)), q),
            })
            .collect()
    }
}

/// What one situation's boards ask of a move.
#[derive(Default)]
struct Situation {
    /// Per board met (alike boards once): the moves open there, and the
    /// best of them.
    boards: Vec<(Vec<Spend>, Vec<Spend>)>,
    /// Best play's own moves there (its tie-break: the first best), by
    /// visits.
    taken: Vec<(Spend, f64)>,
}

impl Situation {
    /// The moves in the order the rules try them: each, where it is open,
    /// best on every board no earlier move was open on. Chosen greedily,
    /// best play's most taken first: a move that qualifies still does
    /// once others are placed before it, so greed finds an order where
    /// there is one. `None` when there is none.
    fn order(&self) -> Option<Vec<Spend>> {
        let mut taken = self.taken.clone();
        taken.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut left: Vec<&(Vec<Spend>, Vec<Spend>)> = self.boards.iter().collect();
        let mut list = Vec::new();
        while !left.is_empty() {
            let fits = |m: &Spend| {
                left.iter().any(|b| b.0.contains(m))
                    && left.iter().all(|b| !b.0.contains(m) || b.1.contains(m))
            };
            let mut every: Vec<Spend> = taken.iter().map(|t| t.0).collect();
            every.extend(left.iter().flat_map(|b| b.0.iter().copied()));
            let m = every.into_iter().find(fits)?;
            list.push(m);
            left.retain(|b| !b.0.contains(&m));
        }
        Some(list)
    }
}

/// A rule's move, and whether its situation has moves after it (tried
/// where it is not open).
type Move = (Spend, bool);

/// One rule before it is written: a range per feature, and its move.
type Ranged<M> = (Vec<(i64, i64)>, M);

/// One decision best play meets, as the writer reads it.
struct Met {
    board: Board,
    /// What the rules see there.
    seen: Vec<i64>,
    /// The wrench uses spent ([`wrench::spent`]).
    spent: u8,
    /// The moves open there, and the best of them.
    moves: (Vec<Spend>, Vec<Spend>),
    /// Best play's own move (its tie-break: the first best), and how
    /// often it is made.
    first: Spend,
    mass: f64,
}

/// Best play's moves as `policy.wrench` rules; `None` where a situation
/// has no order of moves that is best on all its boards, or past the
/// rule limit. Rules on the four quantities alone where they do; else
/// with which uses are spent in sight too.
pub fn written(p: &WrenchChoice, reward: &dyn Fn(&[i64]) -> f64) -> Option<ParamValue> {
    let met = walk(p, reward);
    compose(p, &met, false).or_else(|| compose(p, &met, true))
}

/// Every decision best play can meet, following every best move from
/// the rolls on.
fn walk(p: &WrenchChoice, reward: &dyn Fn(&[i64]) -> f64) -> Vec<Met> {
    let mut values = Values {
        p,
        reward,
        memo: HashMap::new(),
    };
    let mut met: Vec<Met> = Vec::new();
    // Boards in order of the uses spent (every use adds one), so a board's
    // visits are all in before it is taken; boards only some other best
    // move reaches come in with no visits.
    let mut frontier: BTreeMap<(u32, Step), f64> = BTreeMap::new();
    let mut at = Some(((0, Step::Rolls), 1.0));
    while let Some(((_, s), mass)) = at {
        let moves = values.moves(&s);
        let worths: Vec<f64> = moves.iter().map(|o| values.worth(&s, o.as_ref())).collect();
        let v = worths.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<usize> = (0..moves.len())
            .filter(|&i| worths[i] >= v - TIE * v.abs().max(1.0))
            .collect();
        if let (Step::Board(b), Some(Some(_))) = (&s, moves.first()) {
            let mut seen = Vec::new();
            p.features(1, &s, &mut seen);
            met.push(Met {
                board: b.clone(),
                seen,
                spent: wrench::spent(b),
                moves: (
                    moves.iter().filter_map(|m| *m).collect(),
                    best.iter().filter_map(|&i| moves[i]).collect(),
                ),
                first: moves[best[0]].expect("a move"),
                mass,
            });
        }
        for (k, &i) in best.iter().enumerate() {
            let w = if k == 0 { mass } else { 0.0 };
            for (n, q) in values.law(&s, moves[i].as_ref()) {
                if let Ok(Step::Board(b)) = n {
                    *frontier.entry((b.uses(), Step::Board(b))).or_insert(0.0) += w * q;
                }
            }
        }
        at = frontier.pop_first();
    }
    met
}

/// The features a situation is keyed by: what the rules see, and with
/// `spent` one more per wrench use (1: spent this roll).
fn key(m: &Met, spent: bool) -> Vec<i64> {
    let mut k = m.seen.clone();
    if spent {
        k.extend((0..wrench::USES.len()).map(|i| i64::from(m.spent >> i & 1)));
    }
    k
}

/// The rules of the decisions `met`, situations keyed by what the rules
/// see (and with `spent`, which uses are spent).
fn compose(p: &WrenchChoice, met: &[Met], spent: bool) -> Option<ParamValue> {
    let mut situations: BTreeMap<Vec<i64>, Situation> = BTreeMap::new();
    for m in met {
        let sit = situations.entry(key(m, spent)).or_default();
        if !sit.boards.contains(&m.moves) {
            sit.boards.push(m.moves.clone());
        }
        match sit.taken.iter_mut().find(|(t, _)| *t == m.first) {
            Some((_, w)) => *w += m.mass,
            None => sit.taken.push((m.first, m.mass)),
        }
    }
    let features = key(met.first()?, spent).len();
    // Each situation's moves in order, the k-th of every situation in
    // layer k.
    let mut moves: Vec<Move> = Vec::new();
    let mut layers: Vec<Vec<Decision>> = Vec::new();
    for (f, sit) in &situations {
        let visits: f64 = sit.taken.iter().map(|t| t.1).sum();
        let list = sit.order()?;
        for (k, &m) in list.iter().enumerate() {
            let mv = (m, k + 1 < list.len());
            let option = match moves.iter().position(|o| *o == mv) {
                Some(i) => i,
                None => {
                    moves.push(mv);
                    moves.len() - 1
                }
            };
            if layers.len() <= k {
                layers.push(Vec::new());
            }
            layers[k].push(Decision {
                features: f.clone(),
                option,
                visits,
            });
        }
    }
    // The fallback: the first layer's most visited move with nothing
    // after it. Later layers are grouped with its situations in sight
    // (as a move of their own), so that no rule of theirs spans one.
    let first = group(layers.first()?, features);
    // (Hold, where every move has others after it: no rule that applies
    // is hold.)
    let fallback = first
        .iter()
        .find(|b| !moves[b.option].1)
        .map_or(usize::MAX, |b| b.option);
    let stands: Vec<Decision> = layers[0]
        .iter()
        .filter(|d| d.option == fallback)
        .map(|d| Decision {
            option: moves.len(),
            ..d.clone()
        })
        .collect();
    let layers: Vec<Vec<Ranged<Move>>> = layers
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let boxes = if k == 0 {
                first.clone()
            } else {
                group(&[&l[..], &stands[..]].concat(), features)
            };
            boxes
                .into_iter()
                .filter(|b| b.option < moves.len())
                .map(|b| (b.ranges, moves[b.option]))
                .collect()
        })
        .collect();
    let out = as_rules(&layers)?;
    // The rules take a best move on every board best play can reach.
    let Ok(WrenchPolicy::Rules(r)) = wrench::parse(&out) else {
        return None;
    };
    met.iter()
        .all(|m| m.moves.1.contains(&r.choose(&p.action, &m.board)))
        .then_some(out)
}

/// Layers of rules, most visited first in each, as `policy.wrench`. The
/// first layer's most visited move, where nothing follows it, is the
/// last rule, without `when`; every later layer's rules keep clear of
/// the situations it stands for (they are the first layer's there).
/// Ranges past the four quantities are the uses spent (1) or not (0).
fn as_rules(layers: &[Vec<Ranged<Move>>]) -> Option<ParamValue> {
    let every: Vec<Ranged<Move>> = layers.concat();
    let spans = bounds::spans_of(&every);
    let first = layers.first()?;
    let fallback = first
        .iter()
        .find(|r| !r.1.1)
        .map_or((Spend::Hold, false), |r| r.1);
    let stands: Vec<Ranged<Move>> = first.iter().filter(|r| r.1 == fallback).cloned().collect();
    // The uses spent first (dropped wherever the rules do without
    // them), then the dice on the table, then the venture left: best
    // play reads the failures and the risk most.
    let order: Vec<usize> = (0..spans.len()).rev().collect();
    let mut out: Vec<ParamValue> = Vec::new();
    for (k, layer) in layers.iter().enumerate() {
        let mut with = layer.clone();
        if k > 0 {
            with.extend(stands.iter().cloned());
        }
        let wide = bounds::widen(&with, &spans, &order);
        let kept: Vec<Ranged<Spend>> = wide
            .into_iter()
            .zip(layer)
            .filter(|(_, (_, m))| k > 0 || *m != fallback)
            .map(|(r, (_, m))| (r, m.0))
            .collect();
        out.extend(bounds::prune(kept).iter().map(|(r, m)| {
            let b: Vec<(Option<i64>, Option<i64>)> = r
                .iter()
                .zip(&spans)
                .map(|(&(lo, hi), &(min, max))| {
                    ((lo > min).then_some(lo), (hi < max).then_some(hi))
                })
                .collect();
            let mask = |bit: fn(&(Option<i64>, Option<i64>)) -> bool| {
                b[4..]
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| bit(x))
                    .fold(0u8, |m, (i, _)| m | 1 << i)
            };
            // A rule's own use is unspent wherever it is open: not said.
            let own = match m {
                Spend::Wrench(u) => wrench::bit(*u),
                Spend::Hold => 0,
            };
            let when = When {
                spent: mask(|x| x.0 == Some(1)),
                unspent: mask(|x| x.1 == Some(0)) & !own,
                ..When::of([b[0], b[1], b[2], b[3]])
            };
            wrench::rule(*m, Some(&when))
        }));
    }
    out.push(wrench::rule(fallback.0, None));
    (out.len() <= MAX_RULES).then_some(ParamValue::List(out))
}
