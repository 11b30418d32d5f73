//! Dice expressions: the notation of AnyDice, Roll20 and icepool users
//! (rules §6), parsed, solved exactly, and sampled.
//!
//! ```text
//! 3d6  d20  d%  4dF  2d{1,2,4,4}  d{-1..1}       dice and custom faces
//! 4d6kh3  2d20kl1  4d6dl1  5d10dh2               keep / drop
//! 3d6!  d10!>=9                                  exploding (10 times at most)
//! 4d6r1  4d6r<=2  4d6ro1                         reroll until / once
//! 10d10>=8  10d10>=8 ++10  6d6>=5f1              success counting
//! d20+5  2*d6  max(d20, d20)  min(d6, d6)        arithmetic
//! 3d8kh1+2 >= 2d8kh1+4                           comparison: 1 or 0
//! {n}d6kh3                                       parameters
//! ```
//!
//! [`Expr::parse`] reads the text (errors point at a column);
//! [`Expr::bind`] gives the `{name}` parameters values and checks what
//! only values can tell, giving a [`Roll`]. A roll answers exactly
//! ([`Roll::exact`]: integer counts, `u128` first and arbitrary size if
//! they overflow, keep/drop by a dynamic program over sorted dice) or by
//! sampling ([`Roll::sampler`], run by the Monte Carlo engine). Both read
//! the same bound tree, so they mean the same thing.
//!
//! Semantics, in the order they apply to a pool: a reroll (`r`: draw
//! again until the face fails the test; `ro`: draw once more, the second
//! face stands) applies to every roll; an explosion (`!` on the highest
//! face, `!>=n` on a test) adds another roll to the same die, at most
//! [`EXPLODE_DEPTH`] times, after which the roll stands; keep/drop sort
//! the dice by value and keep positions from the top or bottom (asking for
//! more dice than there are keeps them all); then the kept dice are summed,
//! or with a success test each roll scores 1 if it passes, 2 if it is also
//! a double (`++`), −1 if it is a failure (`f`). Every dice term, each
//! side of a comparison included, is rolled independently.

mod ast;
mod big;
mod bind;
mod dist;
mod error;
mod exact;
mod notes;
mod parse;
mod pool;
mod sample;
mod weight;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_budget;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

pub use big::Big;
pub use bind::{EXPLODE_DEPTH, MAX_DICE, MAX_FACES};
pub use error::{ExprError, Span};
pub use exact::{Distribution, NoExact};
pub use notes::{Warning, WarningKind};
pub use sample::{Roller, Sampler};

use ast::{Faces, Kind, Node, Num};
use bind::Term;

/// A parsed expression, its `{name}` parameters not yet given values.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    text: String,
    root: Node,
}

impl Expr {
    /// Parse `text`; an error says what is wrong and at which column.
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        Ok(Expr {
            text: text.to_string(),
            root: parse::parse(text)?,
        })
    }

    /// The text as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The names of the `{name}` parameters, sorted.
    pub fn params(&self) -> Vec<String> {
        let mut names = BTreeSet::new();
        collect_params(&self.root, &mut names);
        names.into_iter().collect()
    }

    /// Whether the result is a yes/no comparison (1 or 0).
    pub fn is_comparison(&self) -> bool {
        matches!(self.root.kind, Kind::Cmp(..))
    }

    /// How the expression is read, in words, with `vars`' values: "the
    /// number of d10s showing 12 or more, out of 2d10".
    pub fn read_as(&self, vars: &BTreeMap<String, i64>) -> String {
        notes::read_as(&self.root, vars)
    }

    /// Traps in the expression with `vars`' values: a success target no
    /// die reaches, a keep larger than the pool, a comparison settled
    /// before the roll, a modifier that never fires.
    pub fn warnings(&self, vars: &BTreeMap<String, i64>) -> Vec<Warning> {
        notes::warnings(&self.text, &self.root, vars)
    }

    /// Give every parameter a value from `vars` (extra names are ignored)
    /// and check the counts, faces and tests they produce.
    pub fn bind(&self, vars: &BTreeMap<String, i64>) -> Result<Roll, ExprError> {
        let (term, range) = bind::bind(&self.text, &self.root, vars)?;
        Ok(Roll {
            term,
            range,
            comparison: self.is_comparison(),
        })
    }
}

/// The canonical text: every operation in parentheses, e.g.
/// `((3d8kh1 + 2) >= (2d8kh1 + 4))`; it parses back to the same reading.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.root)
    }
}

fn collect_params(node: &Node, out: &mut BTreeSet<String>) {
    let mut num = |n: &Num| {
        if let Num::Param { name, .. } = n {
            out.insert(name.clone());
        }
    };
    match &node.kind {
        Kind::Num(n) => num(n),
        Kind::Dice(d) => {
            num(&d.count);
            if let Faces::Sides(n) = &d.faces {
                num(n);
            }
            if let Some((_, t)) = &d.reroll {
                num(&t.value);
            }
            if let Some(Some(t)) = &d.explode {
                num(&t.value);
            }
            for (_, n, _) in &d.keep {
                num(n);
            }
            for t in [&d.success, &d.doubles, &d.failures].into_iter().flatten() {
                num(&t.value);
            }
        }
        Kind::Neg(a) => collect_params(a, out),
        Kind::Bin(_, a, b) | Kind::Cmp(_, a, b) => {
            collect_params(a, out);
            collect_params(b, out);
        }
    }
}

/// An expression with every number known: ready to solve or sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    term: Term,
    range: (i64, i64),
    comparison: bool,
}

impl Roll {
    /// Parse and bind an expression without parameters.
    pub fn new(text: &str) -> Result<Roll, ExprError> {
        Expr::parse(text)?.bind(&BTreeMap::new())
    }

    /// The exact distribution, unless it would take too long (then use
    /// the sampler).
    pub fn exact(&self) -> Result<Distribution, NoExact> {
        exact::exact(&self.term)
    }

    /// A sampler for Monte Carlo.
    pub fn sampler(&self) -> Sampler {
        Sampler::new(self.term.clone())
    }

    /// Whether the result is a yes/no comparison (1 or 0).
    pub fn is_comparison(&self) -> bool {
        self.comparison
    }

    /// Bounds on the result (every possible value lies within; for sums of
    /// exploding dice they are generous).
    pub fn range(&self) -> (i64, i64) {
        self.range
    }
}
