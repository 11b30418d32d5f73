//! Policies: what an entity does, as an ordered list of rules, each a
//! condition and a choice; the first rule whose condition holds and whose
//! choice is allowed is taken.
//!
//! This module is shared by every mechanic with decisions to make (Gateway's
//! action effects; Cortex's give-in, CGG's venture, QuestWorlds' parting
//! shots and assists…). It knows nothing about any system: a system brings
//!
//! - a **condition** type `C` (Gateway: `can-climax`, `{ edge_at_least = 2 }`…)
//!   and a **choice** type `A` (Gateway: an action effect with raises), and
//! - a **rule syntax** ([`RuleSyntax`]): a serde type for one rule table as a
//!   scenario writes it (use `#[serde(deny_unknown_fields)]`), the list of
//!   its keys, and a conversion into a checked [`Rule`].
//!
//! and gets parsing from a scenario value with messages that name the rule
//! and the key ([`parse`], read once into the mechanic's params struct
//! through a `deserialize_with` adapter over `model::parse_value`), the choice
//! ([`Policy::choose`]) and a short printed form for labels ([`Policy::label`]).
//!
//! ## The scenario form
//!
//! A policy is a list of rule tables, tried in order:
//!
//! ```toml
//! "a.policy" = [
//!   { effect = "climax", when = "can-climax" },
//!   { effect = "setup", when = "no-free-raise" },
//!   { effect = ["edge", "accelerate"], raises = 1 },
//! ]
//! ```
//!
//! or, to give it a name that outputs and charts show instead of the
//! printed form, a table `{ name = "…", rules = [ … ] }`. A rule without
//! `when` (or with `when = "always"`) always holds. Because a policy is one
//! value, a sweep compares strategies: `"a.policy" = [[…], […]]`.
//!
//! ## Using it in a new mechanic
//!
//! ```ignore
//! #[derive(Deserialize)]
//! #[serde(deny_unknown_fields)]
//! struct GiveInRule { give_in: bool, when: Option<serde_json::Value> }
//! impl RuleSyntax for GiveInRule {
//!     const KEYS: &'static [&'static str] = &["give_in", "when"];
//!     type When = MyCondition;
//!     type Choice = bool;
//!     fn into_rule(self) -> Result<Rule<MyCondition, bool>, String> { … }
//! }
//! // parameter kind: ParamKind::Custom { expects: "..." }
//! // in the params struct: #[serde(rename = "policy.give_in", deserialize_with = "give_in")]
//! // with fn give_in(d) { model::parse_value(d, policy::parse::<GiveInRule>) }
//! // at decision time: p.choose(|c| c.holds(&view), |a| allowed(a))
//! ```

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::ParamValue;

/// The most rules one policy may have.
pub const MAX_RULES: usize = 64;

/// One rule: when `when` holds (always when `None`), take `choice`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule<C, A> {
    pub when: Option<C>,
    pub choice: A,
}

/// An ordered list of rules with an optional name.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy<C, A> {
    /// The designer's name for it, shown instead of the printed form.
    pub name: Option<String>,
    pub rules: Vec<Rule<C, A>>,
}

impl<C, A> Policy<C, A> {
    /// An unnamed policy of these rules.
    pub fn new(rules: Vec<Rule<C, A>>) -> Self {
        Policy { name: None, rules }
    }

    /// The choice of the first rule whose condition `holds` and whose
    /// choice is `allowed`; `None` when no rule applies (the mechanic then
    /// falls back to its documented default).
    #[inline]
    pub fn choose(&self, holds: impl Fn(&C) -> bool, allowed: impl Fn(&A) -> bool) -> Option<&A> {
        self.rules
            .iter()
            .find(|r| r.when.as_ref().is_none_or(&holds) && allowed(&r.choice))
            .map(|r| &r.choice)
    }
}

impl<C: fmt::Display, A: fmt::Display> Policy<C, A> {
    /// The name if it has one, else the short printed form: rules in order,
    /// `choice if condition`, separated by `; `.
    pub fn label(&self) -> String {
        match &self.name {
            Some(n) => n.clone(),
            None => self.to_string(),
        }
    }
}

/// The printed form, whatever the name: `climax if can-climax; edge`.
impl<C: fmt::Display, A: fmt::Display> fmt::Display for Policy<C, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.rules.iter().enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{}", r.choice)?;
            if let Some(c) = &r.when {
                write!(f, " if {c}")?;
            }
        }
        Ok(())
    }
}

/// One rule table as a scenario writes it. Derive `Deserialize` with
/// `#[serde(deny_unknown_fields)]`; [`parse`] checks the keys first so the
/// message lists [`RuleSyntax::KEYS`].
pub trait RuleSyntax: DeserializeOwned {
    /// Every key a rule table may have, for messages.
    const KEYS: &'static [&'static str];
    type When;
    type Choice;
    /// Check the rule and convert it (bad names, ranges, combinations).
    fn into_rule(self) -> Result<Rule<Self::When, Self::Choice>, String>;
}

/// What a policy value looks like, for `expects` strings and messages.
pub const FORM: &str = "a list of rule tables, or { name = \"…\", rules = [ … ] }";

/// Parse a policy from a scenario value: a list of rule tables, or a table
/// `{ name, rules }`. Errors name the rule (from 1) and the key.
pub fn parse<S: RuleSyntax>(v: &ParamValue) -> Result<Policy<S::When, S::Choice>, String> {
    let (name, items) = match v {
        ParamValue::List(items) => (None, items),
        ParamValue::Table(entries) => named(entries)?,
        other => {
            return Err(format!("a policy is {FORM}, not {}", other.type_name()));
        }
    };
    if items.is_empty() || items.len() > MAX_RULES {
        return Err(format!(
            "a policy has 1..={MAX_RULES} rules, not {}",
            items.len()
        ));
    }
    let rules = items
        .iter()
        .enumerate()
        .map(|(i, item)| rule::<S>(item).map_err(|e| format!("rule {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Policy { name, rules })
}

/// The `{ name = "…", rules = [ … ] }` form.
fn named(entries: &[(String, ParamValue)]) -> Result<(Option<String>, &Vec<ParamValue>), String> {
    let mut name = None;
    let mut rules = None;
    for (k, x) in entries {
        match (k.as_str(), x) {
            ("name", ParamValue::Str(s)) if !s.trim().is_empty() => name = Some(s.clone()),
            ("name", _) => return Err("`name` must be a non-empty string".into()),
            ("rules", ParamValue::List(items)) => rules = Some(items),
            ("rules", other) => {
                return Err(format!(
                    "`rules` must be a list of rule tables, not {}",
                    other.type_name()
                ));
            }
            _ => {
                return Err(format!(
                    "a named policy has the keys name, rules; `{k}` is not one (a list of rules needs [ … ] around it)"
                ));
            }
        }
    }
    match rules {
        Some(items) => Ok((name, items)),
        None => Err("a named policy needs `rules = [ … ]`".into()),
    }
}

fn rule<S: RuleSyntax>(item: &ParamValue) -> Result<Rule<S::When, S::Choice>, String> {
    let ParamValue::Table(entries) = item else {
        return Err(format!(
            "must be a table {{ {} }}, not {}",
            S::KEYS.join(", "),
            item.type_name()
        ));
    };
    for (k, _) in entries {
        if !S::KEYS.contains(&k.as_str()) {
            return Err(format!(
                "unknown key `{k}`; allowed: {}",
                S::KEYS.join(", ")
            ));
        }
    }
    let syntax: S = serde_json::from_value(json(item)).map_err(|e| e.to_string())?;
    syntax.into_rule()
}

/// A rule's `when` as a condition table of type `W` (all its keys must
/// hold): absent or `"always"` is no condition; a table is read with
/// serde (use `#[serde(deny_unknown_fields)]` and `Default` for "no key
/// set"); anything else, or an empty table, is an error listing `keys`.
pub fn when<W>(when: Option<Value>, keys: &str) -> Result<Option<W>, String>
where
    W: DeserializeOwned + Default + PartialEq,
{
    match when {
        None => Ok(None),
        Some(Value::String(s)) if s == "always" => Ok(None),
        Some(v @ Value::Object(_)) => {
            let w: W =
                serde_json::from_value(v).map_err(|e| format!("`when`: {e}; allowed: {keys}"))?;
            if w == W::default() {
                return Err(format!("`when` is an empty table; allowed: {keys}"));
            }
            Ok(Some(w))
        }
        Some(v) => Err(format!(
            "`when` = {v} is not a condition; allowed: \"always\" or a table of {keys}"
        )),
    }
}

/// A scenario value as JSON, for serde.
pub fn json(v: &ParamValue) -> Value {
    match v {
        ParamValue::Int(i) => Value::from(*i),
        ParamValue::Float(x) => Value::from(*x),
        ParamValue::Bool(b) => Value::from(*b),
        ParamValue::Str(s) => Value::from(s.as_str()),
        ParamValue::List(items) => Value::Array(items.iter().map(json).collect()),
        ParamValue::Table(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, x)| (k.clone(), json(x)))
                .collect::<Map<_, _>>(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;
    use serde::Deserialize;

    /// A toy system: say a number when a threshold is met.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Say {
        say: i64,
        #[serde(default)]
        when: Option<i64>,
    }

    impl RuleSyntax for Say {
        const KEYS: &'static [&'static str] = &["say", "when"];
        type When = i64;
        type Choice = i64;
        fn into_rule(self) -> Result<Rule<i64, i64>, String> {
            if self.say < 0 {
                return Err(format!("say = {} is negative", self.say));
            }
            Ok(Rule {
                when: self.when,
                choice: self.say,
            })
        }
    }

    /// A policy table from key/value pairs.
    fn t(pairs: &[(&str, ParamValue)]) -> ParamValue {
        ParamValue::Table(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn first_rule_that_holds_and_is_allowed() {
        let p = parse::<Say>(&List(vec![
            t(&[("say", Int(1)), ("when", Int(5))]),
            t(&[("say", Int(2))]),
            t(&[("say", Int(3))]),
        ]))
        .unwrap();
        let at = |x: i64, allowed: i64| p.choose(|c| x >= *c, |a| *a != allowed).copied();
        assert_eq!(at(6, 0), Some(1));
        assert_eq!(at(4, 0), Some(2));
        assert_eq!(at(6, 1), Some(2), "rule 1 holds but is not allowed");
        assert_eq!(at(4, 2), Some(3));
        assert_eq!(p.choose(|_| false, |a| *a > 3), None);
        assert_eq!(p.label(), "1 if 5; 2; 3");
    }

    #[test]
    fn named_form_labels_by_name() {
        let p = parse::<Say>(&t(&[
            ("name", Str("eager".into())),
            ("rules", List(vec![t(&[("say", Int(1))])])),
        ]))
        .unwrap();
        assert_eq!(p.label(), "eager");
        assert_eq!(p.to_string(), "1");
    }

    #[test]
    fn errors_name_the_rule_and_the_key() {
        let e =
            parse::<Say>(&List(vec![t(&[("say", Int(1))]), t(&[("sya", Int(1))])])).unwrap_err();
        assert_eq!(e, "rule 2: unknown key `sya`; allowed: say, when");
        let e = parse::<Say>(&List(vec![t(&[("say", Str("x".into()))])])).unwrap_err();
        assert!(e.starts_with("rule 1: invalid type: string \"x\""), "{e}");
        let e = parse::<Say>(&List(vec![t(&[("when", Int(1))])])).unwrap_err();
        assert!(e.contains("missing field `say`"), "{e}");
        let e = parse::<Say>(&List(vec![t(&[("say", Int(-1))])])).unwrap_err();
        assert_eq!(e, "rule 1: say = -1 is negative");
        assert!(
            parse::<Say>(&List(vec![]))
                .unwrap_err()
                .contains("1..=64 rules")
        );
        assert!(
            parse::<Say>(&Int(3))
                .unwrap_err()
                .contains("not an integer")
        );
        let e = parse::<Say>(&t(&[("say", Int(1))])).unwrap_err();
        assert!(e.contains("a list of rules needs [ … ]"), "{e}");
        let e = parse::<Say>(&t(&[("name", Str("x".into()))])).unwrap_err();
        assert!(e.contains("needs `rules"), "{e}");
    }
}
