//! The parsed form of an expression, before its `{name}` parameters have
//! values, and its canonical text.

use std::fmt;

use super::error::Span;

/// An integer slot: a literal, or a `{name}` parameter given later.
#[derive(Clone, Debug, PartialEq)]
pub enum Num {
    Lit(i64),
    Param { name: String, span: Span },
}

/// A comparison operator, in a test or between two expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
    Ne,
}

impl CmpOp {
    #[inline]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Ge => a >= b,
            CmpOp::Gt => a > b,
            CmpOp::Le => a <= b,
            CmpOp::Lt => a < b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
        }
    }
}

/// A test on one die's face, e.g. the `>=8` of `10d10>=8` or the `<=2` of
/// `r<=2`; a bare number means "equal to".
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    pub op: CmpOp,
    pub value: Num,
}

/// One entry of a custom face list: a face, or an inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceItem {
    One(i64),
    Range(i64, i64),
}

/// The faces of one die.
#[derive(Clone, Debug, PartialEq)]
pub enum Faces {
    /// `d6`, `d{n}`: faces 1..=n.
    Sides(Num),
    /// `d%`: 1..=100.
    Percent,
    /// `dF`: −1, 0, +1.
    Fudge,
    /// `d{1,2,4,4}`, `d{-1..1}`: the listed faces, repeats counting twice.
    List(Vec<FaceItem>),
}

/// Which end of the sorted dice a keep or drop counts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeepKind {
    KeepHighest,
    KeepLowest,
    DropHighest,
    DropLowest,
}

impl KeepKind {
    pub fn symbol(self) -> &'static str {
        match self {
            KeepKind::KeepHighest => "kh",
            KeepKind::KeepLowest => "kl",
            KeepKind::DropHighest => "dh",
            KeepKind::DropLowest => "dl",
        }
    }
}

/// How often a reroll happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reroll {
    /// `r`: until the face passes.
    Always,
    /// `ro`: once; the second roll stands.
    Once,
}

/// A pool of identical dice with its modifiers, e.g. `10d10>=8++10`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dice {
    pub count: Num,
    pub faces: Faces,
    pub reroll: Option<(Reroll, Test)>,
    /// `!` (on the highest face: `None` inside) or `!>=n`.
    pub explode: Option<Option<Test>>,
    /// Keeps and drops, applied left to right.
    pub keep: Vec<(KeepKind, Num, Span)>,
    /// Success counting: the test a die passes to count one success.
    pub success: Option<Test>,
    /// Faces that count two successes (`++10`).
    pub doubles: Option<Test>,
    /// Faces that take one success away (`f1`).
    pub failures: Option<Test>,
}

/// An operator between two expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Max,
    Min,
}

/// One node of the expression tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Num(Num),
    Dice(Box<Dice>),
    Neg(Box<Node>),
    Bin(BinOp, Box<Node>, Box<Node>),
    Cmp(CmpOp, Box<Node>, Box<Node>),
}

/// A node and the text it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub span: Span,
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Lit(v) => write!(f, "{v}"),
            Num::Param { name, .. } => write!(f, "{{{name}}}"),
        }
    }
}

impl Test {
    /// `>=8`, or a bare `1` for "equal to" where the modifier allows it.
    fn write(&self, f: &mut fmt::Formatter<'_>, bare_eq: bool) -> fmt::Result {
        if self.op == CmpOp::Eq && bare_eq {
            write!(f, "{}", self.value)
        } else {
            write!(f, "{}{}", self.op.symbol(), self.value)
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d", self.count)?;
        match &self.faces {
            Faces::Sides(n) => write!(f, "{n}")?,
            Faces::Percent => write!(f, "%")?,
            Faces::Fudge => write!(f, "F")?,
            Faces::List(items) => {
                write!(f, "{{")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    match item {
                        FaceItem::One(v) => write!(f, "{v}")?,
                        FaceItem::Range(a, b) => write!(f, "{a}..{b}")?,
                    }
                }
                write!(f, "}}")?;
            }
        }
        if let Some((how, test)) = &self.reroll {
            write!(f, "{}", if *how == Reroll::Once { "ro" } else { "r" })?;
            test.write(f, true)?;
        }
        for (kind, n, _) in &self.keep {
            write!(f, "{}{n}", kind.symbol())?;
        }
        if let Some(t) = &self.success {
            t.write(f, false)?;
        }
        if let Some(t) = &self.doubles {
            write!(f, "++")?;
            t.write(f, true)?;
        }
        if let Some(t) = &self.failures {
            write!(f, "f")?;
            t.write(f, true)?;
        }
        // Last: a test right after `!` is the explosion's own, so `!`
        // before a success test would change the reading.
        if let Some(test) = &self.explode {
            write!(f, "!")?;
            if let Some(t) = test {
                t.write(f, true)?;
            }
        }
        Ok(())
    }
}

/// Canonical text: every operation in parentheses, so the reading is
/// unambiguous; parsing it again gives the same tree.
impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Num(n) => write!(f, "{n}"),
            Kind::Dice(d) => write!(f, "{d}"),
            Kind::Neg(a) => write!(f, "(-{a})"),
            Kind::Bin(op, a, b) => match op {
                BinOp::Add => write!(f, "({a} + {b})"),
                BinOp::Sub => write!(f, "({a} - {b})"),
                BinOp::Mul => write!(f, "({a} * {b})"),
                BinOp::Max => write!(f, "max({a}, {b})"),
                BinOp::Min => write!(f, "min({a}, {b})"),
            },
            Kind::Cmp(op, a, b) => write!(f, "({a} {} {b})", op.symbol()),
        }
    }
}
