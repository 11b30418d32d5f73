//! Monte Carlo: one roll of a bound expression.
//!
//! The sampler walks the same [`Term`] tree the exact evaluator reads, with
//! faces already listed and every test already numeric. Dice come from a
//! [`Roller`]: the engine's [`DiceRng`] for simulation, or a scripted
//! roller that walks every branch, which is how the tests enumerate all
//! rolls by brute force with the very code that simulates them.

use super::ast::BinOp;
use super::bind::{Die, EXPLODE_DEPTH, Pool, Scoring, Term};
use crate::dice::DiceRng;

/// A source of uniform choices.
pub trait Roller {
    /// A uniform index in `0..n` (`n ≥ 1`).
    fn pick(&mut self, n: u32) -> u32;
}

impl Roller for DiceRng {
    #[inline(always)]
    fn pick(&mut self, n: u32) -> u32 {
        self.die(n) - 1
    }
}

/// Rolls a bound expression.
#[derive(Clone, Debug)]
pub struct Sampler {
    root: Term,
}

impl Sampler {
    pub(crate) fn new(root: Term) -> Self {
        Sampler { root }
    }

    /// One roll's result. `scratch` holds a pool's dice while keeping; pass
    /// the same vector every time to avoid allocating.
    #[inline]
    pub fn sample<R: Roller>(&self, r: &mut R, scratch: &mut Vec<i64>) -> i64 {
        eval(&self.root, r, scratch)
    }
}

fn eval<R: Roller>(t: &Term, r: &mut R, scratch: &mut Vec<i64>) -> i64 {
    match t {
        Term::Const(v) => *v,
        Term::Pool(p) => pool(p, r, scratch),
        Term::Neg(a) => -eval(a, r, scratch),
        Term::Bin(op, a, b) => {
            let x = eval(a, r, scratch);
            let y = eval(b, r, scratch);
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Max => x.max(y),
                BinOp::Min => x.min(y),
            }
        }
        Term::Cmp(op, a, b) => {
            let x = eval(a, r, scratch);
            let y = eval(b, r, scratch);
            op.holds(x, y) as i64
        }
    }
}

/// One roll of a die's face, after a reroll-once.
#[inline(always)]
fn roll<R: Roller>(die: &Die, r: &mut R) -> i64 {
    let n = die.faces.len() as u32;
    let f = die.faces[r.pick(n) as usize];
    match die.once {
        Some(t) if t.holds(f) => die.faces[r.pick(n) as usize],
        _ => f,
    }
}

/// One die: a roll, or a chain of exploding rolls; faces or scores added.
#[inline(always)]
fn die_value<R: Roller>(die: &Die, scoring: Option<&Scoring>, r: &mut R) -> i64 {
    let mut total = 0;
    let mut depth = 0;
    loop {
        let f = roll(die, r);
        total += scoring.map_or(f, |s| s.score(f));
        match die.explode {
            Some(t) if t.holds(f) && depth < EXPLODE_DEPTH => depth += 1,
            _ => return total,
        }
    }
}

fn pool<R: Roller>(p: &Pool, r: &mut R, scratch: &mut Vec<i64>) -> i64 {
    match p.keep {
        None => (0..p.n)
            .map(|_| die_value(&p.die, p.scoring.as_ref(), r))
            .sum(),
        Some((lo, hi)) => {
            let kept = |sorted: &[i64]| -> i64 {
                sorted[lo as usize..hi as usize]
                    .iter()
                    .map(|&v| p.scoring.map_or(v, |s| s.score(v)))
                    .sum()
            };
            if p.n as usize <= FEW {
                // A few dice (4d6kh3) are kept in order as they come, on
                // the stack: each new die passes down the sorted ones by
                // max and min, with no branch on the faces to mispredict.
                let mut dice = [0i64; FEW];
                let dice = &mut dice[..p.n as usize];
                for i in 0..dice.len() {
                    let mut v = die_value(&p.die, None, r);
                    for slot in &mut dice[..i] {
                        (*slot, v) = ((*slot).max(v), (*slot).min(v));
                    }
                    dice[i] = v;
                }
                kept(dice)
            } else {
                scratch.clear();
                for _ in 0..p.n {
                    scratch.push(die_value(&p.die, None, r));
                }
                scratch.sort_unstable_by(|a, b| b.cmp(a));
                kept(scratch)
            }
        }
    }
}

/// Pools up to this many dice are kept in order on the stack.
const FEW: usize = 12;
