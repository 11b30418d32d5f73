//! Dice pools: faces (`d6`, `d%`, `dF`, `d{1,2,4,4}`, `d{n}`) and the
//! modifiers that touch them (keep/drop, explode, reroll, success tests
//! with doubles and failures).

use super::{Parsed, Parser};
use crate::expr::ast::{CmpOp, Dice, FaceItem, Faces, KeepKind, Kind, Node, Num, Reroll, Test};
use crate::expr::error::Span;

impl Parser<'_> {
    /// A face test: an optional operator and a number (`1`, `<=2`, `>=8`).
    fn test(&mut self, what: &str) -> Parsed<Test> {
        let op = match self.cmp_op() {
            Some((CmpOp::Ne, _)) => {
                return Err(self.err(
                    self.pos,
                    self.pos + 2,
                    "a face test is =, <, <=, > or >= a number",
                ));
            }
            Some((op, len)) => {
                self.pos += len;
                op
            }
            None => CmpOp::Eq,
        };
        let value = self.signed(what)?;
        Ok(Test { op, value })
    }

    /// Whether a face test starts here.
    fn test_starts(&self) -> bool {
        matches!(self.peek(), Some(c) if c.is_ascii_digit() || "{-<>=≥≤".contains(c))
    }

    pub(super) fn dice(&mut self, start: usize, count: Num) -> Parsed<Node> {
        self.pos += 1; // the `d`
        let faces = self.faces()?;
        let mut dice = Dice {
            count,
            faces,
            reroll: None,
            explode: None,
            keep: Vec::new(),
            success: None,
            doubles: None,
            failures: None,
        };
        self.modifiers(&mut dice)?;
        Ok(Node {
            kind: Kind::Dice(Box::new(dice)),
            span: Span::new(start, self.pos),
        })
    }

    fn faces(&mut self) -> Parsed<Faces> {
        let at = self.pos;
        match self.peek() {
            Some('%') => {
                self.pos += 1;
                Ok(Faces::Percent)
            }
            Some('F') => {
                self.pos += 1;
                Ok(Faces::Fudge)
            }
            Some('{') => {
                let mut k = 1;
                while self.peek_at(k).is_some_and(char::is_whitespace) {
                    k += 1;
                }
                if self
                    .peek_at(k)
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                {
                    return Ok(Faces::Sides(self.num("a parameter")?));
                }
                self.face_list()
            }
            Some(c) if c.is_ascii_digit() => {
                let n = self.integer("the number of faces")?;
                if n < 1 {
                    return Err(self.err(at, self.pos, "a die needs at least one face"));
                }
                Ok(Faces::Sides(Num::Lit(n)))
            }
            _ => Err(self.err(
                at,
                at + 1,
                "a die needs faces: d6, d%, dF, d{1,2,4,4}, d{-1..1} or d{n}",
            )),
        }
    }

    fn face_list(&mut self) -> Parsed<Faces> {
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            if self.eat("}") {
                break;
            }
            if !items.is_empty() {
                if !self.eat(",") {
                    return Err(self.err(
                        self.pos,
                        self.pos + 1,
                        "faces are separated by commas: d{1,2,4,4}",
                    ));
                }
                self.skip_ws();
            }
            let at = self.pos;
            let a = self.signed_lit("a face (an integer)")?;
            self.skip_ws();
            if self.eat("..") {
                self.skip_ws();
                let b = self.signed_lit("the end of the range")?;
                if b < a {
                    return Err(self.err(
                        at,
                        self.pos,
                        format!("a range runs upwards: write {b}..{a}"),
                    ));
                }
                items.push(FaceItem::Range(a, b));
            } else {
                items.push(FaceItem::One(a));
            }
            if self.peek().is_none() {
                return Err(self.err(open, open + 1, "this `{` is never closed"));
            }
        }
        if items.is_empty() {
            return Err(self.err(open, self.pos, "a die needs at least one face"));
        }
        Ok(Faces::List(items))
    }

    fn signed_lit(&mut self, what: &str) -> Parsed<i64> {
        let at = self.pos;
        match self.signed(what)? {
            Num::Lit(v) => Ok(v),
            Num::Param { .. } => Err(self.err(
                at,
                self.pos,
                "listed faces are numbers; parameters go in d{n} or counts",
            )),
        }
    }

    fn modifiers(&mut self, d: &mut Dice) -> Parsed<()> {
        loop {
            let at = self.pos;
            if let Some(kind) = self.keep_kind() {
                let what = match kind {
                    KeepKind::KeepHighest | KeepKind::KeepLowest => "keep needs a count",
                    _ => "drop needs a count",
                };
                if !matches!(self.peek(), Some(c) if c.is_ascii_digit() || c == '{') {
                    return Err(self.err(self.pos, self.pos + 1, what));
                }
                let n = self.num(what)?;
                d.keep.push((kind, n, Span::new(at, self.pos)));
            } else if self.at("ro") || self.at("r") {
                let how = if self.eat("ro") {
                    Reroll::Once
                } else {
                    self.pos += 1;
                    Reroll::Always
                };
                if d.reroll.is_some() {
                    return Err(self.err(at, self.pos, "a pool has one reroll rule"));
                }
                if !self.test_starts() {
                    return Err(self.err(
                        self.pos,
                        self.pos + 1,
                        "a reroll needs a face test, e.g. r1 or r<=2",
                    ));
                }
                d.reroll = Some((how, self.test("the face to reroll")?));
            } else if self.at("!") {
                self.pos += 1;
                if self.at("!") {
                    return Err(self.err(
                        at,
                        self.pos + 1,
                        "`!!` is not supported: `!` already adds every explosion into one die",
                    ));
                }
                if d.explode.is_some() {
                    return Err(self.err(at, self.pos, "a pool explodes once"));
                }
                let test = if self.test_starts() {
                    Some(self.test("the face that explodes")?)
                } else {
                    None
                };
                d.explode = Some(test);
            } else if self.cmp_op().is_some() {
                if d.success.is_some() {
                    return Err(self.err(at, at + 1, "a pool has one success test"));
                }
                d.success = Some(self.test("a number to test each die against")?);
                self.after_success(d)?;
            } else if self.at("++") {
                let hint = if matches!(d.explode, Some(Some(_))) {
                    " (a test right after `!` is the explosion's; put the success test first: 10d10>=8++10!)"
                } else {
                    ""
                };
                return Err(self.err(
                    at,
                    at + 2,
                    format!(
                        "doubles (++) count on top of a success test: write e.g. 10d10>=8++10{hint}"
                    ),
                ));
            } else if self.at("f")
                && self
                    .peek_at(1)
                    .is_some_and(|c| c.is_ascii_digit() || "{-<>=".contains(c))
            {
                return Err(self.err(
                    at,
                    at + 1,
                    "failures (f) take successes away: write e.g. 10d10>=8f1",
                ));
            } else {
                return Ok(());
            }
        }
    }

    /// `++n` and `fn` after a success test, each at most once, spaces
    /// allowed before them.
    fn after_success(&mut self, d: &mut Dice) -> Parsed<()> {
        loop {
            let back = self.pos;
            self.skip_ws();
            let at = self.pos;
            if self.eat("++") {
                if d.doubles.is_some() {
                    return Err(self.err(at, self.pos, "a pool has one doubles test"));
                }
                d.doubles = Some(self.test("the face that counts twice")?);
            } else if self.at("f") && {
                self.pos += 1;
                let starts = self.test_starts();
                self.pos -= 1;
                starts
            } {
                self.pos += 1;
                if d.failures.is_some() {
                    return Err(self.err(at, self.pos, "a pool has one failure test"));
                }
                d.failures = Some(self.test("the face that takes a success away")?);
            } else {
                self.pos = back;
                return Ok(());
            }
        }
    }

    fn keep_kind(&mut self) -> Option<KeepKind> {
        for (s, kind) in [
            ("kh", KeepKind::KeepHighest),
            ("kl", KeepKind::KeepLowest),
            ("dh", KeepKind::DropHighest),
            ("dl", KeepKind::DropLowest),
        ] {
            if self.eat(s) {
                return Some(kind);
            }
        }
        // Roll20's bare `k3` keeps the highest.
        if self.at("k") && matches!(self.peek_at(1), Some(c) if c.is_ascii_digit() || c == '{') {
            self.pos += 1;
            return Some(KeepKind::KeepHighest);
        }
        None
    }
}
