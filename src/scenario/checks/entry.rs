//! One `[[chart]]` or `[[expect]]` table of the scenario file, read key
//! by key with the spans that error messages point at.

use std::ops::Range;

use toml_edit::{InlineTable, Item, Table, Value};

use super::super::ScenarioError;
use super::super::error::Problems;
use crate::scenario::ctx::Ctx;

/// A table of an array of tables, entry by entry, with spans.
pub(super) struct Entry<'a> {
    pub(super) table: &'a Table,
    pub(super) section: &'static str,
    /// Place in its array of tables; `None` for a lone table (`[tune]`).
    pub(super) index: Option<usize>,
}

impl Entry<'_> {
    pub(super) fn span(&self, key: &str) -> Option<Range<usize>> {
        self.table
            .get(key)
            .and_then(|i| i.span())
            .or_else(|| self.table.key(key).and_then(|k| k.span()))
            .or_else(|| self.table.span())
    }

    pub(super) fn name(&self, key: &str) -> String {
        match self.index {
            Some(i) => format!("{}[{}].{key}", self.section, i + 1),
            None => format!("{}.{key}", self.section),
        }
    }

    pub(super) fn value(&self, key: &str) -> Option<&Value> {
        self.table.get(key).and_then(Item::as_value)
    }

    pub(super) fn string(&self, ctx: &Ctx, key: &str) -> Result<Option<String>, ScenarioError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(item) => item
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| ctx.invalid(self.span(key), &self.name(key), "must be a string")),
        }
    }

    pub(super) fn boolean(&self, ctx: &Ctx, key: &str) -> Result<Option<bool>, ScenarioError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(item) => item.as_bool().map(Some).ok_or_else(|| {
                ctx.invalid(self.span(key), &self.name(key), "must be true or false")
            }),
        }
    }

    /// A finite number: a NaN bound would hold (or fail) for every value,
    /// an infinite one says nothing.
    pub(super) fn number(&self, ctx: &Ctx, key: &str, v: &Value) -> Result<f64, ScenarioError> {
        let x = v
            .as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .ok_or_else(|| ctx.invalid(self.span(key), &self.name(key), "must be a number"))?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(ctx.invalid(
                self.span(key),
                &self.name(key),
                format!("{x} is not a usable bound; allowed: a finite number"),
            ))
        }
    }

    pub(super) fn check_keys(&self, ctx: &Ctx, allowed: &[&str], problems: &mut Problems) {
        for (k, _) in self.table.iter() {
            if !allowed.contains(&k) {
                problems.push(ctx.invalid(
                    self.span(k),
                    &self.name(k),
                    format!(
                        "is not a key of {}{}; allowed: {}",
                        match self.index {
                            Some(_) => format!("[[{}]]", self.section),
                            None => format!("[{}]", self.section),
                        },
                        crate::systems::suggest(k, allowed.iter().copied()),
                        allowed.join(", ")
                    ),
                ));
            }
        }
    }

    /// The inline table under `key` (`monotonic = { … }`), with only the
    /// keys `allowed`.
    pub(super) fn inline<'t>(
        &'t self,
        ctx: &Ctx,
        key: &str,
        allowed: &[&str],
        shape: &str,
    ) -> Result<&'t InlineTable, ScenarioError> {
        let t = self
            .value(key)
            .and_then(Value::as_inline_table)
            .ok_or_else(|| {
                ctx.invalid(self.span(key), &self.name(key), format!("must be {shape}"))
            })?;
        let mut problems = Problems::default();
        for (k, _) in t.iter() {
            if !allowed.contains(&k) {
                problems.push(ctx.invalid(
                    self.span(key),
                    &self.name(key),
                    format!(
                        "has an unknown key `{k}`; allowed: {} (as in {shape})",
                        allowed.join(", ")
                    ),
                ));
            }
        }
        problems.result(t)
    }
}

/// The tables of `section` (`chart` or `expect`), each with its place.
pub(super) fn tables<'a>(
    ctx: &Ctx,
    root: &'a Table,
    section: &'static str,
) -> Result<Vec<Entry<'a>>, ScenarioError> {
    match root.get(section) {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(a)) => Ok(a
            .iter()
            .enumerate()
            .map(|(index, table)| Entry {
                table,
                section,
                index: Some(index),
            })
            .collect()),
        Some(item) => Err(ctx.invalid(
            item.span(),
            section,
            format!("must be written as [[{section}]] tables"),
        )),
    }
}
