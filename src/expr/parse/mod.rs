//! From text to an expression tree: a recursive-descent parser over the
//! characters, so every error can point at its column.
//!
//! Precedence, lowest first: one comparison (`>= > <= < = == !=`, not
//! chained), then `+ -`, then `*`, then unary `-`, then dice, numbers,
//! parentheses and `max(…)`/`min(…)`. A dice pool's modifiers touch it
//! (`4d6kh3`, `10d10>=8`); that is how a success test (`10d10>=8`: count
//! the dice showing 8 or more) is told from a comparison of the total
//! (`3d6 >= 10`, with a space, or `(3d6)>=10`). After a success test,
//! doubles and failures may stand apart: `10d10>=8 ++10 f1`.

mod dice;

use super::ast::{BinOp, CmpOp, Kind, Node, Num};
use super::error::{ExprError, Span};

/// The longest expression accepted, in characters.
pub const MAX_LEN: usize = 10_000;
/// How deeply operations may nest (parentheses, or a chain such as
/// `d6+d6+…`); every later pass recurses this deep at most.
pub const MAX_DEPTH: usize = 200;

/// Parse `text` into a tree.
pub fn parse(text: &str) -> Result<Node, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_LEN {
        return Err(ExprError::new(
            text,
            Span::new(MAX_LEN, chars.len()),
            format!("the expression is longer than {MAX_LEN} characters"),
        ));
    }
    let mut p = Parser {
        text,
        chars,
        pos: 0,
        depth: 0,
    };
    p.skip_ws();
    if p.peek().is_none() {
        return Err(p.err(0, 0, "the expression is empty; write dice such as 3d6"));
    }
    let node = p.expr()?;
    p.skip_ws();
    if let Some(c) = p.peek() {
        let hint = if "kKrR!fF".contains(c) || p.at("++") || p.at("dh") || p.at("dl") {
            "; a dice modifier must touch its dice (4d6kh3, not 4d6 kh3)"
        } else if c == ')' {
            "; there is no `(` to close"
        } else {
            "; expected an operator (+ - * or a comparison) or the end"
        };
        return Err(p.err(p.pos, p.pos + 1, format!("unexpected `{c}`{hint}")));
    }
    if let Some(span) = too_deep(&node, 0) {
        return Err(p.err(
            span.start,
            span.end,
            format!("operations nest more than {MAX_DEPTH} deep here; use a pool such as 40d6 instead of d6+d6+…"),
        ));
    }
    Ok(node)
}

/// The span of a node deeper than [`MAX_DEPTH`], if any.
fn too_deep(node: &Node, depth: usize) -> Option<Span> {
    if depth > MAX_DEPTH {
        return Some(node.span);
    }
    match &node.kind {
        Kind::Num(_) | Kind::Dice(_) => None,
        Kind::Neg(a) => too_deep(a, depth + 1),
        Kind::Bin(_, a, b) | Kind::Cmp(_, a, b) => {
            too_deep(a, depth + 1).or_else(|| too_deep(b, depth + 1))
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    pos: usize,
    /// Nesting of parentheses, functions and unary minus, bounded so the
    /// recursion is.
    depth: usize,
}

type Parsed<T> = Result<T, ExprError>;

impl Parser<'_> {
    fn err(&self, start: usize, end: usize, message: impl Into<String>) -> ExprError {
        ExprError::new(self.text, Span::new(start, end), message)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.at(s) {
            self.pos += s.chars().count();
            true
        } else {
            false
        }
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// A comparison operator here, and its length.
    fn cmp_op(&self) -> Option<(CmpOp, usize)> {
        const OPS: [(&str, CmpOp); 10] = [
            (">=", CmpOp::Ge),
            ("<=", CmpOp::Le),
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("≥", CmpOp::Ge),
            ("≤", CmpOp::Le),
            ("≠", CmpOp::Ne),
            (">", CmpOp::Gt),
            ("<", CmpOp::Lt),
            ("=", CmpOp::Eq),
        ];
        OPS.iter()
            .find(|(s, _)| self.at(s))
            .map(|(s, op)| (*op, s.chars().count()))
    }

    fn expr(&mut self) -> Parsed<Node> {
        let a = self.sum()?;
        self.skip_ws();
        let Some((op, len)) = self.cmp_op() else {
            return Ok(a);
        };
        self.pos += len;
        let b = self.sum()?;
        self.skip_ws();
        if self.cmp_op().is_some() {
            return Err(self.err(
                self.pos,
                self.pos + 1,
                "comparisons do not chain; put one in parentheses, e.g. (a >= b) + (c >= d)",
            ));
        }
        let span = a.span.to(b.span);
        Ok(Node {
            kind: Kind::Cmp(op, Box::new(a), Box::new(b)),
            span,
        })
    }

    fn sum(&mut self) -> Parsed<Node> {
        let mut a = self.product()?;
        loop {
            self.skip_ws();
            let op = if self.at("++") {
                return Err(self.err(
                    self.pos,
                    self.pos + 2,
                    "`++` (doubles) follows a success test, e.g. 10d10>=8++10",
                ));
            } else if self.eat("+") {
                BinOp::Add
            } else if self.eat("-") {
                BinOp::Sub
            } else {
                return Ok(a);
            };
            let b = self.product()?;
            let span = a.span.to(b.span);
            a = Node {
                kind: Kind::Bin(op, Box::new(a), Box::new(b)),
                span,
            };
        }
    }

    fn product(&mut self) -> Parsed<Node> {
        let mut a = self.unary()?;
        loop {
            self.skip_ws();
            if !self.eat("*") {
                return Ok(a);
            }
            let b = self.unary()?;
            let span = a.span.to(b.span);
            a = Node {
                kind: Kind::Bin(BinOp::Mul, Box::new(a), Box::new(b)),
                span,
            };
        }
    }

    /// Enter one more level of nesting.
    fn deeper(&mut self) -> Parsed<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                self.pos,
                self.pos + 1,
                format!("this nests more than {MAX_DEPTH} deep"),
            ));
        }
        Ok(())
    }

    fn unary(&mut self) -> Parsed<Node> {
        self.skip_ws();
        let start = self.pos;
        if self.eat("-") {
            self.deeper()?;
            let a = self.unary()?;
            self.depth -= 1;
            let span = Span::new(start, a.span.end);
            return Ok(Node {
                kind: Kind::Neg(Box::new(a)),
                span,
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Parsed<Node> {
        self.skip_ws();
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.err(
                start,
                start + 1,
                "the expression ends too soon; expected a number, dice or `(`",
            ));
        };
        if c == '(' {
            self.pos += 1;
            self.deeper()?;
            let inner = self.expr()?;
            self.depth -= 1;
            self.skip_ws();
            if !self.eat(")") {
                return Err(self.err(start, start + 1, "this `(` is never closed"));
            }
            return Ok(Node {
                kind: inner.kind,
                span: Span::new(start, self.pos),
            });
        }
        for (name, op) in [("max", BinOp::Max), ("min", BinOp::Min)] {
            if self.at(name) {
                return self.function(start, name, op);
            }
        }
        if c.is_ascii_digit() || c == '{' {
            let count = self.num("a number")?;
            if matches!(self.peek(), Some('d' | 'D')) {
                return self.dice(start, count);
            }
            return Ok(Node {
                kind: Kind::Num(count),
                span: Span::new(start, self.pos),
            });
        }
        if c == 'd' || c == 'D' {
            return self.dice(start, Num::Lit(1));
        }
        Err(self.err(
            start,
            start + 1,
            format!("unexpected `{c}`; expected a number, dice (3d6), `(`, max(…) or min(…)"),
        ))
    }

    /// `max(a, b, …)` / `min(a, b, …)`, folded left.
    fn function(&mut self, start: usize, name: &str, op: BinOp) -> Parsed<Node> {
        self.pos += name.len();
        self.skip_ws();
        if !self.eat("(") {
            return Err(self.err(
                start,
                self.pos,
                format!("{name} takes its arguments in parentheses: {name}(a, b)"),
            ));
        }
        let open = self.pos - 1;
        self.deeper()?;
        let mut args = vec![self.expr()?];
        loop {
            self.skip_ws();
            if self.eat(",") {
                args.push(self.expr()?);
            } else if self.eat(")") {
                break;
            } else {
                return Err(self.err(
                    open,
                    open + 1,
                    format!("this `(` of {name} is never closed"),
                ));
            }
        }
        self.depth -= 1;
        if args.len() < 2 {
            return Err(self.err(
                start,
                self.pos,
                format!("{name} needs at least two arguments: {name}(a, b)"),
            ));
        }
        let span = Span::new(start, self.pos);
        let mut args = args.into_iter();
        let first = args.next().expect("two or more");
        Ok(args.fold(first, |a, b| Node {
            kind: Kind::Bin(op, Box::new(a), Box::new(b)),
            span,
        }))
    }

    /// An unsigned integer or a `{name}` parameter; `what` names it in
    /// errors.
    fn num(&mut self, what: &str) -> Parsed<Num> {
        let start = self.pos;
        if self.eat("{") {
            self.skip_ws();
            let name_start = self.pos;
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                self.pos += 1;
            }
            let name: String = self.chars[name_start..self.pos].iter().collect();
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(self.err(
                    name_start,
                    name_start + 1,
                    "a parameter is a name in braces, e.g. {n}",
                ));
            }
            self.skip_ws();
            if !self.eat("}") {
                return Err(self.err(start, start + 1, "this `{` is never closed"));
            }
            return Ok(Num::Param {
                name,
                span: Span::new(start, self.pos),
            });
        }
        self.integer(what).map(Num::Lit)
    }

    /// Digits, as an `i64`.
    fn integer(&mut self, what: &str) -> Parsed<i64> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.err(start, start + 1, format!("expected {what}")));
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        digits
            .parse()
            .map_err(|_| self.err(start, self.pos, "this number is too large"))
    }

    /// An integer with an optional minus sign (faces and tests may be
    /// negative), or a parameter.
    fn signed(&mut self, what: &str) -> Parsed<Num> {
        let start = self.pos;
        if self.eat("-") {
            return match self.integer(what) {
                Ok(v) => Ok(Num::Lit(-v)),
                Err(_) => Err(self.err(start, self.pos + 1, format!("expected {what}"))),
            };
        }
        self.num(what)
    }
}
