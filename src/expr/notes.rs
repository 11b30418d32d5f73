//! How an expression was read, in words, and the warnings a designer
//! needs before trusting its answer: a success target no die can reach, a
//! keep larger than the pool, a comparison that is settled before any die
//! is rolled, a modifier that never fires.
//!
//! Both read the parsed tree with the parameters' values, so the words
//! say what the solver and the sampler compute. A warning names the
//! likely intent: `2d10>=12` counts the d10s showing 12 or more (none
//! can), where `2d10 >= 12` compares the total with 12.

use std::collections::BTreeMap;

use super::ast::{BinOp, CmpOp, Dice, FaceItem, Faces, KeepKind, Kind, Node, Num, Reroll, Test};
use super::bind;

pub use crate::model::{Warning, WarningKind};

/// The reading of `node` in words, parameters replaced by their values.
pub fn read_as(node: &Node, vars: &BTreeMap<String, i64>) -> String {
    Words { vars }.node(node, true)
}

/// Every warning about `node` (parsed from `text`) with `vars`.
pub fn warnings(text: &str, node: &Node, vars: &BTreeMap<String, i64>) -> Vec<Warning> {
    let mut out = Vec::new();
    walk(text, node, vars, &mut out);
    out
}

struct Words<'a> {
    vars: &'a BTreeMap<String, i64>,
}

impl Words<'_> {
    fn num(&self, n: &Num) -> String {
        match n {
            Num::Lit(v) => v.to_string(),
            Num::Param { name, .. } => self
                .vars
                .get(name)
                .map(|v| v.to_string())
                .unwrap_or_else(|| format!("{{{name}}}")),
        }
    }

    fn node(&self, node: &Node, top: bool) -> String {
        match &node.kind {
            Kind::Num(n) => self.num(n),
            Kind::Dice(d) => self.dice(d),
            Kind::Neg(a) => format!("minus {}", self.node(a, false)),
            Kind::Bin(op, a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                match op {
                    BinOp::Add => format!("{a} plus {b}"),
                    BinOp::Sub => format!("{a} minus {b}"),
                    BinOp::Mul => format!("{a} times {b}"),
                    BinOp::Max => format!("the higher of {a} and {b}"),
                    BinOp::Min => format!("the lower of {a} and {b}"),
                }
            }
            Kind::Cmp(op, a, b) => {
                let said = format!(
                    "{} {} {}",
                    self.operand(a),
                    compare_words(*op),
                    self.operand(b)
                );
                if top {
                    format!("whether {said} (1 if so, else 0)")
                } else {
                    format!("(1 if {said}, else 0)")
                }
            }
        }
    }

    /// An operand of an operator: in brackets when it is itself one.
    fn operand(&self, node: &Node) -> String {
        let words = self.node(node, false);
        match node.kind {
            Kind::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul, ..) => format!("({words})"),
            _ => words,
        }
    }

    fn die(&self, d: &Dice) -> String {
        match &d.faces {
            Faces::Sides(n) => format!("d{}", self.num(n)),
            Faces::Percent => "d%".into(),
            Faces::Fudge => "dF".into(),
            Faces::List(_) => {
                let mut plain = d.clone();
                plain.count = Num::Lit(1);
                plain.reroll = None;
                plain.explode = None;
                plain.keep.clear();
                plain.success = None;
                plain.doubles = None;
                plain.failures = None;
                plain.to_string().trim_start_matches('1').to_string()
            }
        }
    }

    fn dice(&self, d: &Dice) -> String {
        let n = self.num(&d.count);
        let die = self.die(d);
        let mut pool = format!("{n}{die}");
        let mut how = Vec::new();
        if let Some((kind, t)) = &d.reroll {
            how.push(match kind {
                Reroll::Always => format!("rerolling {} until it is not", self.face(t)),
                Reroll::Once => format!("rerolling {} once", self.face(t)),
            });
        }
        if let Some(e) = &d.explode {
            how.push(match e {
                None => "exploding on the highest face".into(),
                Some(t) => format!("exploding on {}", self.face(t)),
            });
        }
        if !how.is_empty() {
            pool = format!("{pool} ({})", how.join(", "));
        }
        for (kind, k, _) in &d.keep {
            let k = self.num(k);
            pool = match kind {
                KeepKind::KeepHighest if k == "1" => format!("the highest of {pool}"),
                KeepKind::KeepLowest if k == "1" => format!("the lowest of {pool}"),
                KeepKind::KeepHighest => format!("the highest {k} of {pool}"),
                KeepKind::KeepLowest => format!("the lowest {k} of {pool}"),
                KeepKind::DropHighest => format!("{pool} without the highest {k}"),
                KeepKind::DropLowest => format!("{pool} without the lowest {k}"),
            };
        }
        match &d.success {
            Some(t) => {
                let mut s = format!(
                    "the number of {die}s showing {}, out of {pool}",
                    self.face(t)
                );
                if let Some(t) = &d.doubles {
                    s.push_str(&format!(", {} counting twice", self.face(t)));
                }
                if let Some(t) = &d.failures {
                    s.push_str(&format!(", each {} taking one away", self.face(t)));
                }
                s
            }
            None if d.keep.is_empty() && n == "1" && d.reroll.is_none() && d.explode.is_none() => {
                format!("a {die}")
            }
            // One die kept: its value, not a total.
            None if matches!(
                d.keep.last(),
                Some((KeepKind::KeepHighest | KeepKind::KeepLowest, Num::Lit(1), _))
            ) =>
            {
                pool
            }
            None => format!("the total of {pool}"),
        }
    }

    /// A face test in words: `8 or more`, `1`, `anything but 3`.
    fn face(&self, t: &Test) -> String {
        let v = self.num(&t.value);
        match t.op {
            CmpOp::Ge => format!("{v} or more"),
            CmpOp::Gt => format!("more than {v}"),
            CmpOp::Le => format!("{v} or less"),
            CmpOp::Lt => format!("less than {v}"),
            CmpOp::Eq => v,
            CmpOp::Ne => format!("anything but {v}"),
        }
    }
}

fn compare_words(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Ge => "is at least",
        CmpOp::Gt => "is more than",
        CmpOp::Le => "is at most",
        CmpOp::Lt => "is less than",
        CmpOp::Eq => "equals",
        CmpOp::Ne => "differs from",
    }
}

/// The text a node came from.
fn source(text: &str, node: &Node) -> String {
    text.chars()
        .skip(node.span.start)
        .take(node.span.end.saturating_sub(node.span.start))
        .collect::<String>()
        .trim()
        .to_string()
}

fn value(n: &Num, vars: &BTreeMap<String, i64>) -> Option<i64> {
    match n {
        Num::Lit(v) => Some(*v),
        Num::Param { name, .. } => vars.get(name).copied(),
    }
}

/// The faces a die can show (before any reroll), or `None` when a
/// parameter has no value.
fn faces(d: &Dice, vars: &BTreeMap<String, i64>) -> Option<Vec<i64>> {
    Some(match &d.faces {
        Faces::Sides(n) => (1..=value(n, vars)?.clamp(1, bind::MAX_FACES)).collect(),
        Faces::Percent => (1..=100).collect(),
        Faces::Fudge => vec![-1, 0, 1],
        Faces::List(items) => {
            let mut v = Vec::new();
            for item in items {
                match *item {
                    FaceItem::One(x) => v.push(x),
                    FaceItem::Range(a, b) => v.extend(a..=b.min(a + bind::MAX_FACES)),
                }
            }
            v
        }
    })
}

fn walk(text: &str, node: &Node, vars: &BTreeMap<String, i64>, out: &mut Vec<Warning>) {
    match &node.kind {
        Kind::Num(_) => {}
        Kind::Dice(d) => pool(text, node, d, vars, out),
        Kind::Neg(a) => walk(text, a, vars, out),
        Kind::Bin(_, a, b) => {
            walk(text, a, vars, out);
            walk(text, b, vars, out);
        }
        Kind::Cmp(op, a, b) => {
            walk(text, a, vars, out);
            walk(text, b, vars, out);
            comparison(text, node, *op, a, b, vars, out);
        }
    }
}

fn comparison(
    text: &str,
    node: &Node,
    op: CmpOp,
    a: &Node,
    b: &Node,
    vars: &BTreeMap<String, i64>,
    out: &mut Vec<Warning>,
) {
    let range = |n: &Node| bind::bind(text, n, vars).ok().map(|(_, r)| r);
    let (Some((alo, ahi)), Some((blo, bhi))) = (range(a), range(b)) else {
        return;
    };
    // Settled when the test holds (or fails) for every pair of values
    // the two ranges allow; the ranges may be generous (explosions), so
    // a settled answer is certain, an unsettled one only possible.
    let same = alo == ahi && blo == bhi && alo == blo;
    let apart = ahi < blo || bhi < alo;
    let (always_true, always_false) = match op {
        CmpOp::Ge => (alo >= bhi, ahi < blo),
        CmpOp::Gt => (alo > bhi, ahi <= blo),
        CmpOp::Le => (ahi <= blo, alo > bhi),
        CmpOp::Lt => (ahi < blo, alo >= bhi),
        CmpOp::Eq => (same, apart),
        CmpOp::Ne => (apart, same),
    };
    let always = if always_true {
        Some(true)
    } else if always_false {
        Some(false)
    } else {
        None
    };
    if let Some(truth) = always {
        out.push(Warning {
            kind: WarningKind::ConstantComparison,
            message: format!(
                "`{}` is {} true: the left side ranges {}, the right side {}",
                source(text, node),
                if truth { "always" } else { "never" },
                span_words(alo, ahi),
                span_words(blo, bhi)
            ),
        });
    }
}

fn span_words(lo: i64, hi: i64) -> String {
    if lo == hi {
        format!("is always {lo}")
    } else {
        format!("{lo}..{hi}")
    }
}

/// `2d10 >= 12`: the pool without its success counting, compared as a
/// total with the test's number.
fn total_reading(d: &Dice, t: &Test, vars: &BTreeMap<String, i64>) -> String {
    let mut plain = d.clone();
    plain.success = None;
    plain.doubles = None;
    plain.failures = None;
    let v = value(&t.value, vars)
        .map(|v| v.to_string())
        .unwrap_or_else(|| t.value.to_string());
    format!("{plain} {} {v}", t.op.symbol())
}

fn pool(text: &str, node: &Node, d: &Dice, vars: &BTreeMap<String, i64>, out: &mut Vec<Warning>) {
    let (Some(faces), Some(n)) = (faces(d, vars), value(&d.count, vars)) else {
        return;
    };
    if faces.is_empty() {
        return;
    }
    let at = source(text, node);
    let words = Words { vars };
    let die = words.die(d);
    let passes = |t: &Test| -> Option<usize> {
        let v = value(&t.value, vars)?;
        Some(faces.iter().filter(|&&f| t.op.holds(f, v)).count())
    };
    if let Some(t) = &d.success {
        let total = total_reading(d, t, vars);
        match passes(t) {
            Some(0) => out.push(Warning {
                kind: WarningKind::UnreachableTarget,
                message: format!(
                    "`{at}` counts the {die}s showing {}, and no {die} can: the count is always 0. Did you mean `{total}`, the total of {}{die} compared with {}?",
                    words.face(t),
                    words.num(&d.count),
                    words.num(&t.value)
                ),
            }),
            Some(k) if k == faces.len() && d.doubles.is_none() && d.failures.is_none() => {
                out.push(Warning {
                    kind: WarningKind::EveryFacePasses,
                    message: format!(
                        "`{at}` counts the {die}s showing {}, and every {die} does: the count is always the number of dice kept. Did you mean `{total}`, the total compared with {}?",
                        words.face(t),
                        words.num(&t.value)
                    ),
                })
            }
            _ => {}
        }
        for (t, what) in [
            (&d.doubles, "counting twice"),
            (&d.failures, "taking one away"),
        ] {
            if let Some(t) = t
                && passes(t) == Some(0)
            {
                out.push(no_effect(&at, &die, &words.face(t), what));
            }
        }
    }
    if let Some((_, t)) = &d.reroll
        && passes(t) == Some(0)
    {
        out.push(no_effect(&at, &die, &words.face(t), "rerolled"));
    }
    if let Some(Some(t)) = &d.explode
        && passes(t) == Some(0)
    {
        out.push(no_effect(&at, &die, &words.face(t), "exploding"));
    }
    let mut left = n;
    for (kind, k, _) in &d.keep {
        let Some(k) = value(k, vars) else { return };
        let keeps = matches!(kind, KeepKind::KeepHighest | KeepKind::KeepLowest);
        if keeps && k > left {
            out.push(Warning {
                kind: WarningKind::KeepExceedsPool,
                message: format!(
                    "`{at}` keeps {k} of {left} dice: every die is kept, as if there were no `{}{k}`",
                    kind.symbol()
                ),
            });
        } else if !keeps && k >= left && left > 0 {
            out.push(Warning {
                kind: WarningKind::KeepExceedsPool,
                message: format!(
                    "`{at}` drops {k} of {left} dice: no die is left, so the result is always 0"
                ),
            });
        }
        left = if keeps {
            k.min(left)
        } else {
            (left - k).max(0)
        };
    }
}

fn no_effect(at: &str, die: &str, face: &str, what: &str) -> Warning {
    Warning {
        kind: WarningKind::NoEffect,
        message: format!(
            "`{at}`: no {die} shows {face}, so no die is ever {what}; the modifier does nothing"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Expr;
    use super::*;

    fn kinds(text: &str) -> Vec<WarningKind> {
        Expr::parse(text)
            .unwrap()
            .warnings(&BTreeMap::new())
            .into_iter()
            .map(|w| w.kind)
            .collect()
    }

    #[test]
    fn an_unreachable_target_names_the_total_reading() {
        let w = Expr::parse("2d10>=12").unwrap().warnings(&BTreeMap::new());
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].kind, WarningKind::UnreachableTarget);
        assert!(
            w[0].message.contains("Did you mean `2d10 >= 12`"),
            "{}",
            w[0]
        );
        assert!(w[0].message.contains("the total of 2d10"), "{}", w[0]);
        // The reading that was meant warns of nothing.
        assert!(kinds("2d10 >= 12").is_empty());
        assert!(kinds("10d10>=8").is_empty());
    }

    #[test]
    fn each_kind_of_warning() {
        assert_eq!(kinds("3d6>=1"), [WarningKind::EveryFacePasses]);
        assert_eq!(kinds("3d6kh4"), [WarningKind::KeepExceedsPool]);
        assert_eq!(kinds("3d6dl3"), [WarningKind::KeepExceedsPool]);
        assert!(kinds("4d6kh3").is_empty() && kinds("4d6dl1").is_empty());
        assert_eq!(kinds("d6 >= 7"), [WarningKind::ConstantComparison]);
        assert_eq!(kinds("2d6 <= 12"), [WarningKind::ConstantComparison]);
        assert!(kinds("2d6 <= 11").is_empty());
        assert_eq!(kinds("d6r7"), [WarningKind::NoEffect]);
        assert_eq!(kinds("d6!>=7"), [WarningKind::NoEffect]);
        assert_eq!(kinds("6d6>=5f7"), [WarningKind::NoEffect]);
        // Parameters are read with their values.
        let e = Expr::parse("{n}d6kh3").unwrap();
        let two = BTreeMap::from([("n".to_string(), 2)]);
        assert_eq!(e.warnings(&two)[0].kind, WarningKind::KeepExceedsPool);
        let four = BTreeMap::from([("n".to_string(), 4)]);
        assert!(e.warnings(&four).is_empty());
    }

    #[test]
    fn readings_in_words() {
        let read = |t: &str| Expr::parse(t).unwrap().read_as(&BTreeMap::new());
        assert_eq!(
            read("2d10>=12"),
            "the number of d10s showing 12 or more, out of 2d10"
        );
        assert_eq!(
            read("2d10 >= 12"),
            "whether the total of 2d10 is at least 12 (1 if so, else 0)"
        );
        assert_eq!(read("4d6kh3"), "the total of the highest 3 of 4d6");
        assert_eq!(read("d20+5"), "a d20 plus 5");
        assert_eq!(
            read("3d8kh1+2 >= 2d8kh1+4"),
            "whether (the highest of 3d8 plus 2) is at least (the highest of 2d8 plus 4) (1 if so, else 0)"
        );
        assert_eq!(
            read("10d10>=8++10f1"),
            "the number of d10s showing 8 or more, out of 10d10, 10 counting twice, each 1 taking one away"
        );
    }
}
