//! Giving an expression's `{name}` parameters their values, and checking
//! what only values can tell: face counts, keep counts, rerolls that leave
//! no face, and results too large to count.
//!
//! The result is a [`Term`] tree in which every number is known and every
//! die is a list of faces; both the exact evaluator and the sampler read
//! it, so they cannot disagree on what an expression means.

use std::collections::BTreeMap;

use super::ast::{BinOp, CmpOp, Dice, FaceItem, Faces, KeepKind, Kind, Node, Num, Reroll, Test};
use super::error::{ExprError, Span};

/// Most dice in one pool.
pub const MAX_DICE: i64 = 10_000;
/// Most faces on one die (counting repeats in a face list).
pub const MAX_FACES: i64 = 1_000_000;
/// Explosions one die may chain before its last roll stands.
pub const EXPLODE_DEPTH: u32 = 10;
/// Results (and every partial result) stay within ±this, 2^53, where
/// integers still convert to `f64` exactly.
pub const VALUE_LIMIT: i128 = 1 << 53;

/// A face test with its number known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceTest {
    pub op: CmpOp,
    pub value: i64,
}

impl FaceTest {
    #[inline(always)]
    pub fn holds(self, face: i64) -> bool {
        self.op.holds(face, self.value)
    }
}

/// Success counting: what one roll of a die scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub success: FaceTest,
    pub doubles: Option<FaceTest>,
    pub failures: Option<FaceTest>,
}

impl Scoring {
    /// One success for passing the test, two when the face is also a
    /// double, minus one when it is a failure.
    #[inline(always)]
    pub fn score(&self, face: i64) -> i64 {
        let hit = if self.success.holds(face) {
            1 + self.doubles.is_some_and(|d| d.holds(face)) as i64
        } else {
            0
        };
        hit - self.failures.is_some_and(|f| f.holds(face)) as i64
    }
}

/// One die: faces drawn uniformly (repeats weigh more), an optional
/// reroll-once test, an optional explosion test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Die {
    /// Every face, ascending; a reroll-until (`r`) has removed its faces
    /// already, since rerolling until a face passes is drawing from the
    /// faces that pass.
    pub faces: Vec<i64>,
    /// `ro`: a face passing this is rolled once more, and the new roll
    /// stands.
    pub once: Option<FaceTest>,
    /// `!`: a roll passing this adds another roll, at most
    /// [`EXPLODE_DEPTH`] times.
    pub explode: Option<FaceTest>,
}

/// A pool: `n` dice, then keep/drop, then a sum or a success count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub n: u32,
    pub die: Die,
    /// The positions kept, `lo..hi`, counting from the highest die (0);
    /// `None` keeps all.
    pub keep: Option<(u32, u32)>,
    pub scoring: Option<Scoring>,
}

/// An expression with every number known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Const(i64),
    Pool(Box<Pool>),
    Neg(Box<Term>),
    Bin(BinOp, Box<Term>, Box<Term>),
    Cmp(CmpOp, Box<Term>, Box<Term>),
}

/// Bind `node` (parsed from `text`) with `vars`; also returns the lowest
/// and highest value it can take.
pub fn bind(
    text: &str,
    node: &Node,
    vars: &BTreeMap<String, i64>,
) -> Result<(Term, (i64, i64)), ExprError> {
    let b = Binder { text, vars };
    let (term, lo, hi) = b.node(node)?;
    Ok((term, (lo as i64, hi as i64)))
}

struct Binder<'a> {
    text: &'a str,
    vars: &'a BTreeMap<String, i64>,
}

impl Binder<'_> {
    fn err(&self, span: Span, message: impl Into<String>) -> ExprError {
        ExprError::new(self.text, span, message)
    }

    fn num(&self, n: &Num) -> Result<i64, ExprError> {
        match n {
            Num::Lit(v) => Ok(*v),
            Num::Param { name, span } => self
                .vars
                .get(name)
                .copied()
                .ok_or_else(|| self.err(*span, format!("{{{name}}} has no value"))),
        }
    }

    /// A number that must lie in `min..=max`; `what` names it.
    fn ranged(
        &self,
        n: &Num,
        span: Span,
        min: i64,
        max: i64,
        what: &str,
    ) -> Result<i64, ExprError> {
        let v = self.num(n)?;
        if (min..=max).contains(&v) {
            Ok(v)
        } else {
            let span = match n {
                Num::Param { span, .. } => *span,
                Num::Lit(_) => span,
            };
            Err(self.err(span, format!("{what} is {v}; allowed: {min}..={max}")))
        }
    }

    fn test(&self, t: &Test) -> Result<FaceTest, ExprError> {
        Ok(FaceTest {
            op: t.op,
            value: self.num(&t.value)?,
        })
    }

    fn check_range(&self, span: Span, lo: i128, hi: i128) -> Result<(), ExprError> {
        if lo < -VALUE_LIMIT || hi > VALUE_LIMIT {
            return Err(self.err(
                span,
                format!(
                    "this can reach {}, beyond the ±2^53 oddsmith counts to",
                    if hi > VALUE_LIMIT { hi } else { lo }
                ),
            ));
        }
        Ok(())
    }

    fn node(&self, node: &Node) -> Result<(Term, i128, i128), ExprError> {
        let (term, lo, hi) = match &node.kind {
            Kind::Num(n) => {
                let v = self.num(n)?;
                (Term::Const(v), v as i128, v as i128)
            }
            Kind::Dice(d) => self.pool(d, node.span)?,
            Kind::Neg(a) => {
                let (a, lo, hi) = self.node(a)?;
                (Term::Neg(Box::new(a)), -hi, -lo)
            }
            Kind::Bin(op, a, b) => {
                let (a, alo, ahi) = self.node(a)?;
                let (b, blo, bhi) = self.node(b)?;
                let (lo, hi) = match op {
                    BinOp::Add => (alo + blo, ahi + bhi),
                    BinOp::Sub => (alo - bhi, ahi - blo),
                    BinOp::Mul => {
                        let c = [alo * blo, alo * bhi, ahi * blo, ahi * bhi];
                        (*c.iter().min().unwrap(), *c.iter().max().unwrap())
                    }
                    BinOp::Max => (alo.max(blo), ahi.max(bhi)),
                    BinOp::Min => (alo.min(blo), ahi.min(bhi)),
                };
                (Term::Bin(*op, Box::new(a), Box::new(b)), lo, hi)
            }
            Kind::Cmp(op, a, b) => {
                let (a, _, _) = self.node(a)?;
                let (b, _, _) = self.node(b)?;
                (Term::Cmp(*op, Box::new(a), Box::new(b)), 0, 1)
            }
        };
        self.check_range(node.span, lo, hi)?;
        Ok((term, lo, hi))
    }

    fn faces(&self, faces: &Faces, span: Span) -> Result<Vec<i64>, ExprError> {
        Ok(match faces {
            Faces::Sides(n) => {
                let sides = self.ranged(n, span, 1, MAX_FACES, "the number of faces")?;
                (1..=sides).collect()
            }
            Faces::Percent => (1..=100).collect(),
            Faces::Fudge => vec![-1, 0, 1],
            Faces::List(items) => {
                let count: i128 = items
                    .iter()
                    .map(|i| match i {
                        FaceItem::One(_) => 1,
                        FaceItem::Range(a, b) => *b as i128 - *a as i128 + 1,
                    })
                    .sum();
                if count > MAX_FACES as i128 {
                    return Err(self.err(
                        span,
                        format!("this die has {count} faces; allowed: at most {MAX_FACES}"),
                    ));
                }
                let mut faces = Vec::with_capacity(count as usize);
                for item in items {
                    match *item {
                        FaceItem::One(v) => faces.push(v),
                        FaceItem::Range(a, b) => faces.extend(a..=b),
                    }
                }
                faces.sort_unstable();
                faces
            }
        })
    }

    fn pool(&self, d: &Dice, span: Span) -> Result<(Term, i128, i128), ExprError> {
        let n = self.ranged(&d.count, span, 0, MAX_DICE, "the number of dice")? as u32;
        let mut faces = self.faces(&d.faces, span)?;
        let mut once = None;
        if let Some((how, test)) = &d.reroll {
            let t = self.test(test)?;
            match how {
                Reroll::Always => {
                    faces.retain(|&f| !t.holds(f));
                    if faces.is_empty() {
                        return Err(self.err(
                            span,
                            "this reroll matches every face, so the die never stops rolling",
                        ));
                    }
                }
                Reroll::Once => once = Some(t),
            }
        }
        let (fmin, fmax) = (faces[0], *faces.last().expect("at least one face"));
        let explode = match &d.explode {
            None => None,
            Some(test) => {
                let t = match test {
                    Some(t) => self.test(t)?,
                    None => FaceTest {
                        op: CmpOp::Eq,
                        value: fmax,
                    },
                };
                if faces.iter().all(|&f| t.holds(f)) {
                    return Err(self.err(
                        span,
                        "this die explodes on every face, so the explosions never stop",
                    ));
                }
                Some(t)
            }
        };
        let mut keep = (0u32, n);
        for (kind, count, kspan) in &d.keep {
            let k = self.ranged(count, *kspan, 0, MAX_DICE, "the keep/drop count")? as u32;
            let (lo, hi) = keep;
            let k = k.min(hi - lo);
            keep = match kind {
                KeepKind::KeepHighest => (lo, lo + k),
                KeepKind::KeepLowest => (hi - k, hi),
                KeepKind::DropHighest => (lo + k, hi),
                KeepKind::DropLowest => (lo, hi - k),
            };
        }
        let keep = (keep != (0, n)).then_some(keep);
        let scoring = match &d.success {
            None => None,
            Some(s) => Some(Scoring {
                success: self.test(s)?,
                doubles: d.doubles.as_ref().map(|t| self.test(t)).transpose()?,
                failures: d.failures.as_ref().map(|t| self.test(t)).transpose()?,
            }),
        };
        if keep.is_some() && scoring.is_some() && explode.is_some() {
            return Err(self.err(
                span,
                "keep/drop and success counting cannot be combined on exploding dice \
                 (which rolls of a chain would be kept?)",
            ));
        }
        // One roll's value, then one die's (a chain of up to 11 rolls).
        let (rlo, rhi) = match scoring {
            Some(_) => (-1i128, 2i128),
            None => (fmin as i128, fmax as i128),
        };
        let chain = if explode.is_some() {
            1 + EXPLODE_DEPTH as i128
        } else {
            1
        };
        let (dlo, dhi) = (rlo.min(chain * rlo), rhi.max(chain * rhi));
        let kept = keep.map(|(lo, hi)| hi - lo).unwrap_or(n) as i128;
        let (lo, hi) = (kept * dlo, kept * dhi);
        let pool = Pool {
            n,
            die: Die {
                faces,
                once,
                explode,
            },
            keep,
            scoring,
        };
        Ok((Term::Pool(Box::new(pool)), lo, hi))
    }
}
