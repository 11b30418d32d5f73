//! Where a scenario's text came from, to name the file and line in every
//! error, and TOML values read as parameter values: shared by the parser
//! and the checks it calls.

use std::ops::Range;
use std::path::Path;

use toml_edit::Value;

use super::ScenarioError;
use crate::systems::ParamValue;

/// Turns byte offsets into line numbers and builds errors.
pub(super) struct Ctx<'a> {
    path: &'a Path,
    text: &'a str,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(path: &'a Path, text: &'a str) -> Ctx<'a> {
        Ctx { path, text }
    }

    pub(super) fn line(&self, span: Option<Range<usize>>) -> usize {
        let at = span.map(|s| s.start).unwrap_or(0).min(self.text.len());
        self.text[..at].bytes().filter(|b| *b == b'\n').count() + 1
    }

    /// An error at a line already known (a `[params]` key's).
    pub(super) fn invalid_at(
        &self,
        line: usize,
        key: &str,
        message: impl Into<String>,
    ) -> ScenarioError {
        ScenarioError::Invalid {
            path: self.path.to_path_buf(),
            line,
            key: key.to_string(),
            message: message.into(),
        }
    }

    pub(super) fn invalid(
        &self,
        span: Option<Range<usize>>,
        key: &str,
        message: impl Into<String>,
    ) -> ScenarioError {
        ScenarioError::Invalid {
            path: self.path.to_path_buf(),
            line: self.line(span),
            key: key.to_string(),
            message: message.into(),
        }
    }
}

/// Convert a TOML value to a parameter value.
pub(super) fn to_param(ctx: &Ctx, path: &str, v: &Value) -> Result<ParamValue, ScenarioError> {
    Ok(match v {
        Value::String(s) => ParamValue::Str(s.value().clone()),
        Value::Integer(i) => ParamValue::Int(*i.value()),
        Value::Float(f) => ParamValue::Float(*f.value()),
        Value::Boolean(b) => ParamValue::Bool(*b.value()),
        Value::Datetime(_) => {
            return Err(ctx.invalid(v.span(), path, "is a date; no parameter takes dates"));
        }
        Value::Array(a) => ParamValue::List(
            a.iter()
                .map(|x| to_param(ctx, path, x))
                .collect::<Result<_, _>>()?,
        ),
        Value::InlineTable(t) => ParamValue::Table(
            t.iter()
                .map(|(k, x)| Ok((k.to_string(), to_param(ctx, path, x)?)))
                .collect::<Result<_, ScenarioError>>()?,
        ),
    })
}
