//! Exact distributions of dice pools: one die (rerolls, explosions,
//! success scores), then the pool's sum, or its kept dice by a dynamic
//! program over the sorted dice.
//!
//! Keep/drop never enumerates rolls. Following icepool (A. J. Liu,
//! "Icepool: Efficient Computation of Dice Pool Probabilities", AIIDE
//! 2022), the faces are visited in order from one end, and the state is
//! how many dice have shown a face so far plus the sum kept so far; `j` of
//! the `m` dice still unassigned show the current face in `C(m, j) w^j`
//! ways. Once the kept positions are all filled, every way to finish is
//! counted in one step, `Σ_{j ≥ r} C(m, j) w^j B^(m−j)` with `B` the weight
//! of the faces still to come, so `20d6kh2` costs a few hundred
//! operations, not 6^20.

use super::bind::{Die, EXPLODE_DEPTH, Pool, Scoring};
use super::dist::{Acc, Budget, Dist, Stop};
use super::weight::Weight;

/// The exact distribution of a pool.
pub fn pool<W: Weight>(p: &Pool, budget: &mut Budget) -> Result<Dist<W>, Stop> {
    let roll = one_roll::<W>(&p.die, budget)?;
    match p.keep {
        None => die_total(&roll, &p.die, p.scoring.as_ref(), budget)?.sum_of(p.n, budget),
        Some(range) => {
            // Sort key: the die's value (a chain's total when it explodes).
            // What a kept die adds: its value, or the score of its face.
            let die = die_total(&roll, &p.die, None, budget)?;
            let entries: Vec<(i64, i64, W)> = die
                .counts
                .iter()
                .map(|(v, w)| (v, p.scoring.map_or(v, |s| s.score(v)), w.clone()))
                .collect();
            keep(&entries, &die.total, p.n, range, budget)
        }
    }
}

/// One roll of a die: a face, after a reroll-once. With `ro`, a face that
/// passes the test is replaced by a second roll, so out of N² equally likely
/// pairs face `v` comes up `c(v)·N` times as a first roll that stands (if it
/// does not pass) plus `m·c(v)` times as a second roll, where `m` faces pass.
fn one_roll<W: Weight>(die: &Die, budget: &mut Budget) -> Result<Dist<W>, Stop> {
    let first = Dist::<W>::uniform(&die.faces)?;
    let Some(test) = die.once else {
        return Ok(first);
    };
    budget.spend_on(
        first.len() as u64 * 2,
        &first.total,
        &first.total,
        "a reroll",
    )?;
    let n = W::from_u64(die.faces.len() as u64);
    let m = W::from_u64(die.faces.iter().filter(|&&f| test.holds(f)).count() as u64);
    let mut out = Acc::zeros(first.lo(), first.hi())?;
    for (v, c) in first.counts.iter() {
        if !test.holds(v) {
            out.add_at(v, c, &n)?;
        }
        out.add_at(v, c, &m)?;
    }
    Ok(Dist::new(out, n.mul(&n)?))
}

/// One die's value: a roll, or with `!` the total of a chain of rolls in
/// which every roll passing the explosion test adds another, at most
/// [`EXPLODE_DEPTH`] times. With `scoring`, each roll adds its score instead
/// of its face (so a ten that explodes in `10d10!>=8` scores, and so does
/// the roll it adds).
fn die_total<W: Weight>(
    roll: &Dist<W>,
    die: &Die,
    scoring: Option<&Scoring>,
    budget: &mut Budget,
) -> Result<Dist<W>, Stop> {
    let value = |f: i64| scoring.map_or(f, |s| s.score(f));
    // X₀: a roll that may not explode any more.
    let mut chain = match scoring {
        Some(_) => roll.map(value, budget)?,
        None => roll.clone(),
    };
    let Some(test) = die.explode else {
        return Ok(chain);
    };
    // X_k: a roll, then (if it explodes) X_{k−1} on top. Every branch
    // counts over total(roll) × total(X_{k−1}) cases.
    for _ in 0..EXPLODE_DEPTH {
        let ops = roll.len() as u64 * chain.len() as u64;
        budget.spend_on(ops, &roll.total, &chain.total, "an exploding die")?;
        let mut next = Acc::zeros(0, -1)?;
        for (f, w) in roll.counts.iter() {
            if test.holds(f) {
                next.add_shifted(&chain.counts, value(f), w)?;
            } else {
                next.cover(value(f), value(f))?;
                next.add_at(value(f), w, &chain.total)?;
            }
        }
        chain = Dist::new(next, roll.total.mul(&chain.total)?);
    }
    Ok(chain)
}

/// The kept part of `n` dice, each drawn from `entries` (sort key, what a
/// kept die adds, count; over `total` cases), keeping the positions
/// `lo..hi` counted from the highest die.
fn keep<W: Weight>(
    entries: &[(i64, i64, W)],
    total: &W,
    n: u32,
    (lo, hi): (u32, u32),
    budget: &mut Budget,
) -> Result<Dist<W>, Stop> {
    let all = total.pow(n as u64)?;
    if lo >= hi {
        return Ok(Dist::new(
            Acc {
                lo: 0,
                w: vec![all.clone()],
            },
            all,
        ));
    }
    // Walk from the end nearer the kept positions, so they fill early and
    // the rest of the pool is finished in one step.
    let mut order: Vec<&(i64, i64, W)> = entries.iter().collect();
    let (lo, hi) = if hi <= n - lo {
        order.sort_by_key(|e| std::cmp::Reverse(e.0));
        (lo as usize, hi as usize)
    } else {
        order.sort_by_key(|e| e.0);
        ((n - hi) as usize, (n - lo) as usize)
    };
    let n = n as usize;
    let (cmin, cmax) = order
        .iter()
        .fold((0i64, 0i64), |(a, b), e| (a.min(e.1), b.max(e.1)));
    let span = (hi - lo) as u64 * (cmax - cmin + 1) as u64;
    // Counts grow to `all`'s width: a state's and its factor's widths add
    // up to at most that, so their product is at most half of it squared.
    let ops =
        order.len() as u64 * (hi as u64 * hi as u64 / 2 + 1) * span.max(1) + n as u64 * hi as u64;
    let half = all.bits() / 2;
    budget.spend(W::cost(ops, half, half), "keeping dice")?;

    // binom[a][j] = C(n − a, j) for j < hi − a: the rows the states use.
    let mut row = vec![W::one()];
    let mut binom: Vec<Vec<W>> = vec![Vec::new(); hi];
    for m in 0..=n {
        if m > 0 {
            let mut next = Vec::with_capacity(row.len() + 1);
            for j in 0..=row.len().min(hi) {
                let a = if j < row.len() {
                    row[j].clone()
                } else {
                    W::zero()
                };
                let b = if j > 0 { row[j - 1].clone() } else { W::zero() };
                next.push(a.add(&b)?);
            }
            next.truncate(hi + 1);
            row = next;
        }
        if m + hi > n {
            binom[n - m] = row.clone();
        }
    }

    // Weight of the faces after each one in the walk.
    let mut after = vec![W::zero(); order.len()];
    for i in (0..order.len().saturating_sub(1)).rev() {
        after[i] = after[i + 1].add(&order[i + 1].2)?;
    }

    // states[a]: ways to have assigned `a` dice (all above the faces still
    // to come), by the sum kept so far; only a < hi is live.
    let mut states: Vec<Option<Acc<W>>> = vec![None; hi];
    states[0] = Some(Acc {
        lo: 0,
        w: vec![W::one()],
    });
    let mut done = Acc::zeros(0, -1)?;
    let kept_between = |a: usize, b: usize| b.min(hi).saturating_sub(a.max(lo)) as i64;
    for (i, &&(_, c, ref w)) in order.iter().enumerate() {
        budget.spend(0, "keeping dice")?; // paid above; a stop is heard here
        let b = &after[i];
        let mut next: Vec<Option<Acc<W>>> = vec![None; hi];
        // Powers of w up to hi, and of B and w + B as needed below.
        let mut wp = vec![W::one()];
        for _ in 1..=hi {
            let last = wp.last().expect("one").mul(w)?;
            wp.push(last);
        }
        let wb = w.add(b)?;
        for (a, state) in states.iter().enumerate() {
            let Some(state) = state else { continue };
            let m = n - a;
            let r = hi - a; // dice still needed to fill the kept positions
            // Stay below hi: j more dice show this face.
            for j in 0..r.min(m + 1) {
                let f = binom[a][j].mul(&wp[j])?;
                if f.is_zero() {
                    continue;
                }
                let slot = next[a + j].get_or_insert_with(|| Acc {
                    lo: 0,
                    w: Vec::new(),
                });
                slot.add_shifted(state, kept_between(a, a + j) * c, &f)?;
            }
            // Fill: r or more of the m dice show this face, the rest show
            // faces still to come. (w + B)^m minus the ways with fewer.
            if m >= r {
                let mut fill = wb.pow(m as u64)?;
                let mut bp = b.pow((m - r + 1) as u64)?; // B^(m − j) for j = r − 1
                for j in (0..r).rev() {
                    fill = fill.sub(&binom[a][j].mul(&wp[j])?.mul(&bp)?);
                    if j > 0 {
                        bp = bp.mul(b)?;
                    }
                }
                done.add_shifted(state, kept_between(a, hi) * c, &fill)?;
            }
        }
        states = next;
    }
    Ok(Dist::new(done, all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::ast::CmpOp;
    use crate::expr::bind::FaceTest;

    fn d(faces: std::ops::RangeInclusive<i64>) -> Die {
        Die {
            faces: faces.collect(),
            once: None,
            explode: None,
        }
    }

    fn counts(p: &Pool) -> (Vec<(i64, u128)>, u128) {
        let dist = pool::<u128>(p, &mut Budget::new(u64::MAX)).unwrap();
        (
            dist.counts.iter().map(|(v, w)| (v, *w)).collect(),
            dist.total,
        )
    }

    #[test]
    fn four_d6_keep_three_by_hand() {
        let p = Pool {
            n: 4,
            die: d(1..=6),
            keep: Some((0, 3)),
            scoring: None,
        };
        let (c, total) = counts(&p);
        assert_eq!(total, 1296);
        assert_eq!(c.iter().map(|x| x.1).sum::<u128>(), 1296);
        // 3: all four dice 1. 18: at least three sixes, 1 + 4·5 = 21 ways.
        assert_eq!(c.first(), Some(&(3, 1)));
        assert_eq!(c.last(), Some(&(18, 21)));
        let sum: i128 = c.iter().map(|&(v, w)| v as i128 * w as i128).sum();
        assert_eq!(sum, 15869);
    }

    #[test]
    fn keep_lowest_walks_up() {
        // 2d20kl1: P(min = 1) = 39/400.
        let p = Pool {
            n: 2,
            die: d(1..=20),
            keep: Some((1, 2)),
            scoring: None,
        };
        let (c, total) = counts(&p);
        assert_eq!(total, 400);
        assert_eq!(c[0], (1, 39));
        assert_eq!(c.last(), Some(&(20, 1)));
    }

    #[test]
    fn exploding_d6_chain() {
        // d6!: 1..5 with 6^10 each out of 6^11; 7..11 need a six first.
        let mut die = d(1..=6);
        die.explode = Some(FaceTest {
            op: CmpOp::Eq,
            value: 6,
        });
        let p = Pool {
            n: 1,
            die,
            keep: None,
            scoring: None,
        };
        let (c, total) = counts(&p);
        assert_eq!(total, 6u128.pow(11));
        assert_eq!(c[0], (1, 6u128.pow(10)));
        assert_eq!(c.iter().find(|x| x.0 == 7).unwrap().1, 6u128.pow(9));
        assert!(c.iter().all(|x| x.0 % 6 != 0 || x.0 == 66));
        // Ten sixes, then any face: 61..=66 once each.
        assert_eq!(c.last(), Some(&(66, 1)));
    }
}
