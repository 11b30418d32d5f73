//! The buy-time policy of a timed action (rules §2.4), in the shared
//! policy module's form: between two steps, the first helper still able
//! makes a basic action for more beats when a rule says so.
//!
//! ```toml
//! "policy.buy_time" = [{ buy_time = true, when = { beats_at_most = 2 } }]
//! ```

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use crate::systems::ParamValue;
use crate::systems::policy::{self, Rule, RuleSyntax};

/// A buy-time policy: its choice is whether to try.
pub type BuyTime = policy::Policy<When, Buy>;

/// A rule's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buy(pub bool);

impl fmt::Display for Buy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "buy" } else { "wait" })
    }
}

/// A rule's condition: every key set must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// Beats left are at most this.
    pub beats_at_most: Option<i64>,
    /// Steps still to do are at least this.
    pub steps_left_at_least: Option<i64>,
}

impl When {
    pub fn holds(&self, beats: i64, steps_left: i64) -> bool {
        self.beats_at_most.is_none_or(|n| beats <= n)
            && self.steps_left_at_least.is_none_or(|n| steps_left >= n)
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.beats_at_most {
            parts.push(format!("beats≤{n}"));
        }
        if let Some(n) = self.steps_left_at_least {
            parts.push(format!("steps left≥{n}"));
        }
        f.write_str(&parts.join(" & "))
    }
}

/// Whether `policy` buys time with `beats` left and `steps_left` to do.
#[inline]
pub fn buys(policy: &BuyTime, beats: i64, steps_left: i64) -> bool {
    policy
        .choose(|w| w.holds(beats, steps_left), |_| true)
        .is_some_and(|b| b.0)
}

const WHEN_KEYS: &str = "beats_at_most, steps_left_at_least";

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuyRule {
    buy_time: bool,
    #[serde(default)]
    when: Option<Value>,
}

impl RuleSyntax for BuyRule {
    const KEYS: &'static [&'static str] = &["buy_time", "when"];
    type When = When;
    type Choice = Buy;

    fn into_rule(self) -> Result<Rule<When, Buy>, String> {
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
        Ok(Rule {
            when,
            choice: Buy(self.buy_time),
        })
    }
}

/// Parse a buy-time policy.
pub fn parse(v: &ParamValue) -> Result<BuyTime, String> {
    policy::parse::<BuyRule>(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    fn rule(buy: bool, when: Option<ParamValue>) -> ParamValue {
        let mut t = vec![("buy_time".to_string(), Bool(buy))];
        if let Some(w) = when {
            t.push(("when".into(), w));
        }
        Table(t)
    }

    #[test]
    fn first_rule_that_holds() {
        let p = parse(&List(vec![
            rule(
                false,
                Some(Table(vec![("steps_left_at_least".into(), Int(3))])),
            ),
            rule(true, Some(Table(vec![("beats_at_most".into(), Int(2))]))),
        ]))
        .unwrap();
        assert!(buys(&p, 2, 1));
        assert!(!buys(&p, 3, 1), "3 beats is not low");
        assert!(!buys(&p, 1, 3), "the first rule waits");
        assert_eq!(p.label(), "wait if steps left≥3; buy if beats≤2");
        let e = parse(&List(vec![rule(
            true,
            Some(Table(vec![("beats".into(), Int(2))])),
        )]))
        .unwrap_err();
        assert!(
            e.starts_with("rule 1: `when`: unknown field `beats`"),
            "{e}"
        );
    }
}
