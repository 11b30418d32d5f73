//! What an explorer does on its turn in tension mode (rules §3.8): Act,
//! go Idle (gain one hour) or get Ready (a diligence roll for leverage,
//! perhaps cueing the Exec), as ordered rules in the shared policy form.
//!
//! ```toml
//! explorers = [{ code = "3d", policy = [
//!   { choose = "idle", when = { hours_at_most = 2 } },
//!   { choose = "ready-cue", when = { track_at_most = 4 } },
//! ] }]
//! ```
//!
//! An explorer whose rules all fail to hold acts.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use crate::systems::ParamValue;
use crate::systems::policy::{self, Rule, RuleSyntax};

/// An explorer's turn policy.
pub type TurnPolicy = policy::Policy<When, Turn>;

/// What an explorer does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Act: a full action against the track.
    Act,
    /// Idle: gain one hour.
    Idle,
    /// Ready: a diligence roll whose leverage dice join the next action;
    /// `cue`: +1d more, and the Exec raises the track by 1.
    Ready { cue: bool },
}

const TURNS: &str = "\"act\", \"idle\", \"ready\", \"ready-cue\"";

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Turn::Act => "act",
            Turn::Idle => "idle",
            Turn::Ready { cue: false } => "ready",
            Turn::Ready { cue: true } => "ready-cue",
        })
    }
}

/// A rule's condition: every key set must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// The track the explorer addresses is at least this.
    pub track_at_least: Option<i64>,
    /// … at most this.
    pub track_at_most: Option<i64>,
    /// The explorer's clock holds at most this many hours.
    pub hours_at_most: Option<i64>,
    /// The explorer has leverage ready (0: none).
    pub leverage_at_most: Option<i64>,
}

const WHEN_KEYS: &str = "track_at_least, track_at_most, hours_at_most, leverage_at_most";

/// What an explorer sees on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub track: i64,
    pub hours: i64,
    /// Leverage dice waiting for its next action.
    pub leverage: i64,
}

impl View {
    pub fn holds(&self, w: &When) -> bool {
        w.track_at_least.is_none_or(|n| self.track >= n)
            && w.track_at_most.is_none_or(|n| self.track <= n)
            && w.hours_at_most.is_none_or(|n| self.hours <= n)
            && w.leverage_at_most.is_none_or(|n| self.leverage <= n)
    }

    /// The turn `policy` picks here (act when no rule holds).
    #[inline]
    pub fn choose(&self, policy: Option<&TurnPolicy>) -> Turn {
        policy
            .and_then(|p| p.choose(|w| self.holds(w), |_| true))
            .copied()
            .unwrap_or(Turn::Act)
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.track_at_least {
            parts.push(format!("track≥{n}"));
        }
        if let Some(n) = self.track_at_most {
            parts.push(format!("track≤{n}"));
        }
        if let Some(n) = self.hours_at_most {
            parts.push(format!("hours≤{n}"));
        }
        if let Some(n) = self.leverage_at_most {
            parts.push(format!("leverage≤{n}"));
        }
        f.write_str(&parts.join(" & "))
    }
}

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRule {
    choose: String,
    #[serde(default)]
    when: Option<Value>,
}

impl RuleSyntax for TurnRule {
    const KEYS: &'static [&'static str] = &["choose", "when"];
    type When = When;
    type Choice = Turn;

    fn into_rule(self) -> Result<Rule<When, Turn>, String> {
        let choice = match self.choose.as_str() {
            "act" => Turn::Act,
            "idle" => Turn::Idle,
            "ready" => Turn::Ready { cue: false },
            "ready-cue" => Turn::Ready { cue: true },
            other => {
                return Err(format!(
                    "`choose` = \"{other}\" is not a turn; allowed: {TURNS}"
                ));
            }
        };
        Ok(Rule {
            when: policy::when(self.when, WHEN_KEYS)?,
            choice,
        })
    }
}

/// Parse a turn policy.
pub fn parse(v: &ParamValue) -> Result<TurnPolicy, String> {
    policy::parse::<TurnRule>(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    fn rule(choose: &str, when: Option<ParamValue>) -> ParamValue {
        let mut t = vec![("choose".to_string(), Str(choose.into()))];
        if let Some(w) = when {
            t.push(("when".into(), w));
        }
        Table(t)
    }

    #[test]
    fn first_rule_that_holds_else_act() {
        let p = parse(&List(vec![
            rule("idle", Some(Table(vec![("hours_at_most".into(), Int(2))]))),
            rule(
                "ready-cue",
                Some(Table(vec![
                    ("track_at_most".into(), Int(4)),
                    ("leverage_at_most".into(), Int(0)),
                ])),
            ),
        ]))
        .unwrap();
        let v = |track, hours, leverage| View {
            track,
            hours,
            leverage,
        };
        assert_eq!(v(9, 1, 0).choose(Some(&p)), Turn::Idle);
        assert_eq!(v(3, 5, 0).choose(Some(&p)), Turn::Ready { cue: true });
        assert_eq!(v(3, 5, 2).choose(Some(&p)), Turn::Act, "leverage waiting");
        assert_eq!(v(9, 5, 0).choose(None), Turn::Act);
        assert_eq!(
            p.label(),
            "idle if hours≤2; ready-cue if track≤4 & leverage≤0"
        );
        let e = parse(&List(vec![rule("sleep", None)])).unwrap_err();
        assert!(e.starts_with("rule 1: `choose` = \"sleep\""), "{e}");
        let e = parse(&List(vec![rule(
            "idle",
            Some(Table(vec![("hours".into(), Int(2))])),
        )]))
        .unwrap_err();
        assert!(e.contains("unknown field `hours`"), "{e}");
        assert!(e.contains("hours_at_most"), "{e}");
    }
}
