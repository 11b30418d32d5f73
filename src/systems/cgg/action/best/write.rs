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

/// Best play's moves as `policy.wrench` rules; `None` where a situation
/// has no order of moves that is best on all its boards, or past the
/// rule limit.
pub fn written(p: &WrenchChoice, reward: &dyn Fn(&[i64]) -> f64) -> Option<ParamValue> {
    let mut values = Values {
        p,
        reward,
        memo: HashMap::new(),
    };
    let mut situations: BTreeMap<Vec<i64>, Situation> = BTreeMap::new();
    // Every decision met, and its best moves, to check the rules on.
    let mut met: Vec<(Step, Vec<Spend>)> = Vec::new();
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
        if let Some(Some(_)) = moves.first() {
            let mut f = Vec::new();
            p.features(1, &s, &mut f);
            let sit = situations.entry(f).or_default();
            let board: (Vec<Spend>, Vec<Spend>) = (
                moves.iter().filter_map(|m| *m).collect(),
                best.iter().filter_map(|&i| moves[i]).collect(),
            );
            met.push((s.clone(), board.1.clone()));
            if !sit.boards.contains(&board) {
                sit.boards.push(board);
            }
            let first = moves[best[0]].expect("a move");
            match sit.taken.iter_mut().find(|(m, _)| *m == first) {
                Some((_, w)) => *w += mass,
                None => sit.taken.push((first, mass)),
            }
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
    let first = group(layers.first()?, 4);
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
                group(&[&l[..], &stands[..]].concat(), 4)
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
    for (s, best) in &met {
        if let Step::Board(b) = s {
            if !best.contains(&r.choose(&p.action, b)) {
                return None;
            }
        }
    }
    Some(out)
}

/// Layers of rules, most visited first in each, as `policy.wrench`. The
/// first layer's most visited move, where nothing follows it, is the
/// last rule, without `when`; every later layer's rules keep clear of
/// the situations it stands for (they are the first layer's there).
fn as_rules(layers: &[Vec<Ranged<Move>>]) -> Option<ParamValue> {
    let every: Vec<Ranged<Move>> = layers.concat();
    let spans = bounds::spans_of(&every);
    let first = layers.first()?;
    let fallback = first
        .iter()
        .find(|r| !r.1.1)
        .map_or((Spend::Hold, false), |r| r.1);
    let stands: Vec<Ranged<Move>> = first.iter().filter(|r| r.1 == fallback).cloned().collect();
    let mut out: Vec<ParamValue> = Vec::new();
    for (k, layer) in layers.iter().enumerate() {
        let mut with = layer.clone();
        if k > 0 {
            with.extend(stands.iter().cloned());
        }
        // The dice on the table first, then the venture left: best play
        // reads the failures and the risk most.
        let wide = bounds::widen(&with, &spans, &[3, 2, 1, 0]);
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
            wrench::rule(*m, Some(&When::of([b[0], b[1], b[2], b[3]])))
        }));
    }
    out.push(wrench::rule(fallback.0, None));
    (out.len() <= MAX_RULES).then_some(ParamValue::List(out))
}
