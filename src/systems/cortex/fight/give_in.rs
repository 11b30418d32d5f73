//! The give-in policy of a fight (rules §2.5), in the shared policy
//! module's form: ordered rules, each a price and a condition on what the
//! actor sees before it rolls.
//!
//! ```toml
//! "policy.give_in" = [
//!   { give_in = "plot-point", when = { out_of_reach_by_more_than = 0 } },
//!   { give_in = "complication", when = { stakes_at_least = 14, complication_at_least = 10 } },
//! ]
//! ```

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use crate::systems::ParamValue;
use crate::systems::policy::{self, Rule, RuleSyntax};

/// A give-in policy.
pub type GiveIn = policy::Policy<When, Price>;

/// What giving in costs once the actor has rolled in the fight (before its
/// first roll it is free).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Price {
    /// Take a d6 complication ("you must either take a D6 Complication").
    Complication,
    /// Spend a plot point: no complication.
    PlotPoint,
}

impl fmt::Display for Price {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Price::Complication => "complication",
            Price::PlotPoint => "plot-point",
        })
    }
}

/// A rule's condition: every key set must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// The stakes to beat are at least this.
    pub stakes_at_least: Option<i64>,
    /// The stakes exceed the highest total the actor's pool can make by
    /// more than this (0: the action cannot be won).
    pub out_of_reach_by_more_than: Option<i64>,
    /// The actor's own complication is at least this die size.
    pub complication_at_least: Option<i64>,
}

/// What the actor sees before it rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub stakes: i64,
    /// The highest total its pool (helper and complication die included)
    /// can make.
    pub reach: i64,
    /// Its complication rating (0: none).
    pub complication: i64,
}

impl View {
    pub fn holds(&self, w: &When) -> bool {
        w.stakes_at_least.is_none_or(|n| self.stakes >= n)
            && w.out_of_reach_by_more_than
                .is_none_or(|n| self.stakes - self.reach > n)
            && w.complication_at_least
                .is_none_or(|n| self.complication >= n)
    }

    /// The price of giving in here, if the policy gives in.
    #[inline]
    pub fn choose(&self, policy: &GiveIn) -> Option<Price> {
        policy.choose(|w| self.holds(w), |_| true).copied()
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.stakes_at_least {
            parts.push(format!("stakes≥{n}"));
        }
        if let Some(n) = self.out_of_reach_by_more_than {
            parts.push(format!("out of reach by >{n}"));
        }
        if let Some(n) = self.complication_at_least {
            parts.push(format!("complication≥d{n}"));
        }
        f.write_str(&parts.join(" & "))
    }
}

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GiveInRule {
    give_in: String,
    #[serde(default)]
    when: Option<Value>,
}

const WHEN_KEYS: &str = "stakes_at_least, out_of_reach_by_more_than, complication_at_least";

impl RuleSyntax for GiveInRule {
    const KEYS: &'static [&'static str] = &["give_in", "when"];
    type When = When;
    type Choice = Price;

    fn into_rule(self) -> Result<Rule<When, Price>, String> {
        let choice = match self.give_in.as_str() {
            "complication" => Price::Complication,
            "plot-point" => Price::PlotPoint,
            other => {
                return Err(format!(
                    "`give_in` = \"{other}\" is not a price; allowed: \"complication\", \"plot-point\""
                ));
            }
        };
        let when = match self.when {
            None => None,
            Some(Value::String(s)) if s == "always" => None,
            Some(v @ Value::Object(_)) => {
                let w: When = serde_json::from_value(v)
                    .map_err(|e| format!("`when`: {e}; allowed: {WHEN_KEYS}"))?;
                if w == When::default() {
                    return Err(format!("`when` is an empty table; allowed: {WHEN_KEYS}"));
                }
                Some(w)
            }
            Some(v) => {
                return Err(format!(
                    "`when` = {v} is not a condition; allowed: \"always\" or a table of {WHEN_KEYS}"
                ));
            }
        };
        Ok(Rule { when, choice })
    }
}

/// Parse a give-in policy.
pub fn parse(v: &ParamValue) -> Result<GiveIn, String> {
    policy::parse::<GiveInRule>(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    use crate::systems::testing::table as t;

    #[test]
    fn rules_in_order_with_all_keys_holding() {
        let p = parse(&List(vec![
            t(&[
                ("give_in", Str("plot-point".into())),
                ("when", t(&[("out_of_reach_by_more_than", Int(0))])),
            ]),
            t(&[
                ("give_in", Str("complication".into())),
                (
                    "when",
                    t(&[
                        ("stakes_at_least", Int(14)),
                        ("complication_at_least", Int(10)),
                    ]),
                ),
            ]),
        ]))
        .unwrap();
        let view = |stakes, complication| View {
            stakes,
            reach: 16,
            complication,
        };
        assert_eq!(view(17, 0).choose(&p), Some(Price::PlotPoint));
        assert_eq!(view(16, 0).choose(&p), None, "16 is within reach");
        assert_eq!(view(14, 10).choose(&p), Some(Price::Complication));
        assert_eq!(view(14, 8).choose(&p), None);
        assert_eq!(
            p.label(),
            "plot-point if out of reach by >0; complication if stakes≥14 & complication≥d10"
        );
    }

    #[test]
    fn bad_rules_are_named() {
        let e = parse(&List(vec![t(&[("give_in", Str("run".into()))])])).unwrap_err();
        assert!(e.starts_with("rule 1: `give_in` = \"run\""), "{e}");
        let e = parse(&List(vec![t(&[
            ("give_in", Str("complication".into())),
            ("when", t(&[("stakes", Int(3))])),
        ])]))
        .unwrap_err();
        assert!(e.contains("unknown field `stakes`"), "{e}");
        let e = parse(&List(vec![t(&[
            ("give_in", Str("complication".into())),
            ("when", Str("soon".into())),
        ])]))
        .unwrap_err();
        assert!(e.contains("not a condition"), "{e}");
    }
}
