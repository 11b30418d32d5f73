//! Brute force for `cortex.basic`: every roll of every pool pair with at
//! most six dice in total, and every re-roll of every complication pool,
//! counted one by one, against the exact dynamic program.

use std::collections::{BTreeMap, HashMap};

use super::basic::Basic;
use super::pool::{Pool, SIZES};
use super::roll::{EMPTY_RATING, RatingTie};
use super::{Sides, trauma};
use crate::model::Marginals;

/// Every multiset of `n` step dice, largest first.
fn pools_of(n: usize) -> Vec<Vec<u32>> {
    fn go(n: usize, from: usize, acc: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if n == 0 {
            out.push(acc.clone());
            return;
        }
        for k in from..SIZES.len() {
            acc.push(SIZES[SIZES.len() - 1 - k]);
            go(n - 1, k, acc, out);
            acc.pop();
        }
    }
    let mut out = Vec::new();
    go(n, 0, &mut Vec::new(), &mut out);
    out
}

/// Call `f` with the faces of every roll of `dice`.
fn each_roll(dice: &[u32], mut f: impl FnMut(&[u32])) {
    let mut faces = vec![1u32; dice.len()];
    loop {
        f(&faces);
        let mut i = 0;
        loop {
            if i == dice.len() {
                return;
            }
            if faces[i] < dice[i] {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// Every roll of a pool, grouped: (total, dice not showing 1, 1s) → rolls.
type Grouped = BTreeMap<(i64, Vec<u32>, i64), u128>;

/// Rating counts by (complication pool, larger-die tie rule).
type Memo = HashMap<(Vec<u32>, bool), Vec<(u32, u128)>>;

fn grouped(dice: &[u32]) -> Grouped {
    let mut out = Grouped::new();
    each_roll(dice, |faces| {
        let mut kept: Vec<u32> = faces.iter().copied().filter(|&v| v > 1).collect();
        kept.sort_unstable_by(|a, b| b.cmp(a));
        let total = kept.iter().take(2).sum::<u32>() as i64;
        let pool: Vec<u32> = dice
            .iter()
            .zip(faces)
            .filter(|(_, v)| **v > 1)
            .map(|(s, _)| *s)
            .collect();
        let ones = faces.iter().filter(|&&v| v == 1).count() as i64;
        *out.entry((total, pool, ones)).or_insert(0) += 1;
    });
    out
}

/// Rating counts of re-rolling `pool`, by every re-roll: size → rolls.
fn ratings(pool: &[u32], tie: RatingTie) -> Vec<(u32, u128)> {
    if pool.is_empty() {
        return vec![(EMPTY_RATING, 1)];
    }
    let mut counts: BTreeMap<u32, u128> = BTreeMap::new();
    each_roll(pool, |faces| {
        let top = *faces.iter().max().unwrap();
        let tied = pool
            .iter()
            .zip(faces)
            .filter(|(_, v)| **v == top)
            .map(|(s, _)| *s);
        let size = match tie {
            RatingTie::Larger => tied.max(),
            RatingTie::Smaller => tied.min(),
        }
        .unwrap();
        *counts.entry(size).or_insert(0) += 1;
    });
    counts.into_iter().collect()
}

/// The helper's best non-1 die, by every roll: value → rolls.
fn helper(dice: &[u32]) -> BTreeMap<i64, u128> {
    let mut out = BTreeMap::new();
    each_roll(dice, |faces| {
        let best = faces.iter().copied().filter(|&v| v > 1).max().unwrap_or(0);
        *out.entry(best as i64).or_insert(0) += 1;
    });
    out
}

/// Marginals of `basic` by brute force from grouped rolls.
fn brute(
    basic: &Basic,
    actor: &Grouped,
    aid: Option<&BTreeMap<i64, u128>>,
    opposition: &Grouped,
    memo: &mut Memo,
) -> Marginals {
    let one = BTreeMap::from([(0i64, 1u128)]);
    let aid = aid.unwrap_or(&one);
    let n_a: u128 = actor.values().sum::<u128>() * aid.values().sum::<u128>();
    let n_o: u128 = opposition.values().sum();
    // Each group's rating law, looked up once (counted re-rolls → shares).
    let mut rating_of = |pool: &Vec<u32>| -> Vec<(u32, f64)> {
        let rs = memo
            .entry((pool.clone(), basic.tie == RatingTie::Larger))
            .or_insert_with(|| ratings(pool, basic.tie));
        let n: u128 = rs.iter().map(|(_, c)| c).sum();
        rs.iter().map(|&(s, c)| (s, c as f64 / n as f64)).collect()
    };
    let a_ratings: Vec<_> = actor.keys().map(|(_, pool, _)| rating_of(pool)).collect();
    let o_ratings: Vec<_> = opposition
        .keys()
        .map(|(_, pool, _)| rating_of(pool))
        .collect();
    // Dense sums in the hot loop; every value here is in 0..64.
    let mut acc = [[0.0f64; 64]; 8];
    // The signed margin can be negative, so it is kept apart.
    let mut margin: std::collections::BTreeMap<i64, f64> = std::collections::BTreeMap::new();
    for (((ta, _, ones), &ca), ra) in actor.iter().zip(&a_ratings) {
        for (h, &ch) in aid {
            for (((to, _, _), &co), ro) in opposition.iter().zip(&o_ratings) {
                let p = (ca * ch * co) as f64 / (n_a * n_o) as f64;
                let r = basic.resolve(ta + h, *to);
                acc[0][r.win as usize] += p;
                *margin.entry(r.signed_margin()).or_insert(0.0) += p;
                acc[2][r.extraordinary as usize] += p;
                acc[3][r.takes as usize] += p;
                acc[5][*ones as usize] += p;
                acc[6][r.push_steps as usize] += p;
                acc[7][trauma(r.win, r.takes) as usize] += p;
                if r.takes == 0 {
                    acc[4][0] += p;
                } else {
                    for &(size, q) in if r.win { ra } else { ro } {
                        acc[4][size as usize] += p * q;
                    }
                }
            }
        }
    }
    let mut m = Marginals::new(8);
    for (f, row) in acc.iter().enumerate() {
        for (v, &p) in row.iter().enumerate() {
            m.add(f, v as i64, p);
        }
    }
    for (&v, &p) in &margin {
        m.add(1, v, p);
    }
    m
}

fn assert_close(exact: &Marginals, brute: &Marginals, what: &str) {
    for f in 0..brute.len() {
        let (e, b) = (exact.field(f), brute.field(f));
        for v in e.keys().chain(b.keys()) {
            let (x, y) = (e.get(v).unwrap_or(&0.0), b.get(v).unwrap_or(&0.0));
            assert!(
                (x - y).abs() < 1e-12,
                "{what}: field {f} value {v}: exact {x}, brute {y}"
            );
        }
    }
}

fn basic(
    actor: &[u32],
    aid: Option<&[u32]>,
    opposition: &[u32],
    tie: RatingTie,
    push: bool,
) -> Basic {
    let sides = Sides {
        actor: Pool::new(actor.to_vec()).unwrap(),
        aid: aid.map(|h| Pool::new(h.to_vec()).unwrap()),
        opposition: Pool::new(opposition.to_vec()).unwrap(),
        gang: vec![],
    };
    Basic::new(sides, tie, push)
}

#[test]
fn exact_equals_enumeration_for_every_pool_pair_up_to_six_dice() {
    let by_size: Vec<Vec<Vec<u32>>> = (0..=5).map(pools_of).collect();
    assert_eq!(by_size[2].len(), 15);
    assert_eq!(by_size[5].len(), 126);
    let mut rolls: HashMap<Vec<u32>, Grouped> = HashMap::new();
    for pools in &by_size[1..] {
        for p in pools {
            rolls.insert(p.clone(), grouped(p));
        }
    }
    let mut memo = HashMap::new();
    let mut pairs = 0;
    for na in 1..=5 {
        for nb in 1..=(6 - na) {
            for a in &by_size[na] {
                for o in &by_size[nb] {
                    // Both tie rules and both push policies, alternating so
                    // each is met on every pool size.
                    let (tie, push) = if pairs % 2 == 0 {
                        (RatingTie::Larger, false)
                    } else {
                        (RatingTie::Smaller, true)
                    };
                    let b = basic(a, None, o, tie, push).tie_complication(pairs % 3 == 0);
                    let want = brute(&b, &rolls[a], None, &rolls[o], &mut memo);
                    assert_close(&b.exact(), &want, &format!("{a:?} vs {o:?}"));
                    pairs += 1;
                }
            }
        }
    }
    assert_eq!(pairs, 7085);
}

#[test]
fn exact_equals_enumeration_with_both_variants_and_aid() {
    let mut memo = HashMap::new();
    let helpers: Vec<Vec<u32>> = pools_of(1).into_iter().chain(pools_of(2)).collect();
    for na in 1..=3 {
        for a in pools_of(na) {
            let ga = grouped(&a);
            for o in pools_of(4 - na) {
                let go = grouped(&o);
                for (i, h) in helpers.iter().enumerate().filter(|(i, _)| i % 4 == na % 4) {
                    for (tie, push) in [
                        (RatingTie::Larger, false),
                        (RatingTie::Larger, true),
                        (RatingTie::Smaller, false),
                        (RatingTie::Smaller, true),
                    ] {
                        let b = basic(&a, Some(h), &o, tie, push);
                        let want = brute(&b, &ga, Some(&helper(h)), &go, &mut memo);
                        assert_close(&b.exact(), &want, &format!("{a:?}+aid{i} vs {o:?}"));
                    }
                }
            }
        }
    }
}
