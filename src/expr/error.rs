//! Errors in an expression, pointing at the column where they are.

use std::fmt;

/// A stretch of the expression text, in characters from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// From the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start, other.end.max(self.start))
    }
}

/// What is wrong with an expression, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ExprError {
    pub message: String,
    pub span: Span,
    /// The expression's text, for the caret picture.
    pub text: String,
}

impl ExprError {
    pub fn new(text: &str, span: Span, message: impl Into<String>) -> Self {
        ExprError {
            message: message.into(),
            span,
            text: text.to_string(),
        }
    }

    /// The column (from 1) where the problem starts.
    pub fn column(&self) -> usize {
        self.span.start + 1
    }

    /// The expression with a caret line under the problem:
    ///
    /// ```text
    /// 4d6kh
    ///      ^ keep needs a count
    /// ```
    pub fn picture(&self) -> String {
        let width = (self.span.end.saturating_sub(self.span.start)).max(1);
        format!(
            "{}\n{}{} {}",
            self.text,
            " ".repeat(self.span.start),
            "^".repeat(width),
            self.message
        )
    }
}

/// One line: `keep needs a count (column 6 of "4d6kh")`.
impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (column {} of \"{}\")",
            self.message,
            self.column(),
            self.text
        )
    }
}
