//! The PC's wager (`pc.wager`): one wager every round, or a wager by
//! situation in the shared policy module's form, ordered rules on both
//! sides' AP at the round's start. The by-situation form is what best
//! play writes.
//!
//! ```toml
//! "pc.wager" = [
//!   { wager = 15, when = { lead_at_most = -6 } },
//!   { wager = 4, when = { pc_ap_at_most = 9, opponent_ap_at_least = 11 } },
//!   { wager = 1 },
//! ]
//! ```
//!
//! The last rule has no `when`: it is the wager when no other rule holds,
//! so a policy never leaves the PC without one.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use crate::systems::ParamValue;
use crate::systems::policy::{self, Rule, RuleSyntax};

/// The largest wager a scenario may write (a TN is at most this).
pub const MAX_WAGER: i64 = 400;

/// What `pc.wager` accepts, in words.
pub const EXPECTS: &str = "an integer 1..=400 (AP, at most the PC's starting AP), or a list of rules { wager = n, when = { … } } tried in order, the last without `when`; `when` keys: pc_ap_at_least, pc_ap_at_most, opponent_ap_at_least, opponent_ap_at_most, lead_at_least, lead_at_most (lead: the PC's AP minus the opposition's)";

/// The PC's wager at a round's start.
#[derive(Clone, Debug, PartialEq)]
pub enum PcWager {
    /// The same wager every round.
    Fixed(i64),
    /// The first rule that holds in the round's AP.
    Rules(policy::Policy<When, i64>),
}

impl From<i64> for PcWager {
    fn from(w: i64) -> Self {
        PcWager::Fixed(w)
    }
}

impl PcWager {
    /// The wager declared with `pc` and `opp` AP, before any desperation
    /// stake.
    #[inline]
    pub fn at(&self, pc: i64, opp: i64) -> i64 {
        match self {
            PcWager::Fixed(w) => *w,
            PcWager::Rules(p) => *p
                .choose(|w| w.holds(pc, opp), |_| true)
                .expect("the last rule has no `when` (checked by the parse)"),
        }
    }

    /// The largest wager it can declare.
    pub fn most(&self) -> i64 {
        match self {
            PcWager::Fixed(w) => *w,
            PcWager::Rules(p) => p.rules.iter().map(|r| r.choice).max().unwrap_or(0),
        }
    }
}

impl fmt::Display for PcWager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PcWager::Fixed(w) => write!(f, "{w}"),
            PcWager::Rules(p) => f.write_str(&p.label()),
        }
    }
}

/// A rule's condition on the AP at a round's start: every key set must
/// hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    pub pc_ap_at_least: Option<i64>,
    pub pc_ap_at_most: Option<i64>,
    pub opponent_ap_at_least: Option<i64>,
    pub opponent_ap_at_most: Option<i64>,
    /// The PC's AP minus the opposition's (negative: behind).
    pub lead_at_least: Option<i64>,
    pub lead_at_most: Option<i64>,
}

impl When {
    #[inline]
    pub fn holds(&self, pc: i64, opp: i64) -> bool {
        let at_least = |b: Option<i64>, x: i64| b.is_none_or(|n| x >= n);
        let at_most = |b: Option<i64>, x: i64| b.is_none_or(|n| x <= n);
        at_least(self.pc_ap_at_least, pc)
            && at_most(self.pc_ap_at_most, pc)
            && at_least(self.opponent_ap_at_least, opp)
            && at_most(self.opponent_ap_at_most, opp)
            && at_least(self.lead_at_least, pc - opp)
            && at_most(self.lead_at_most, pc - opp)
    }

    /// The keys that are set, as a table (for a written policy).
    pub fn table(&self) -> Vec<(String, ParamValue)> {
        [
            ("pc_ap_at_least", self.pc_ap_at_least),
            ("pc_ap_at_most", self.pc_ap_at_most),
            ("opponent_ap_at_least", self.opponent_ap_at_least),
            ("opponent_ap_at_most", self.opponent_ap_at_most),
            ("lead_at_least", self.lead_at_least),
            ("lead_at_most", self.lead_at_most),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|n| (k.to_string(), ParamValue::Int(n))))
        .collect()
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        let mut bound = |name: &str, op: &str, b: Option<i64>| {
            if let Some(n) = b {
                parts.push(format!("{name}{op}{n}"));
            }
        };
        bound("pc_ap", "≥", self.pc_ap_at_least);
        bound("pc_ap", "≤", self.pc_ap_at_most);
        bound("opponent_ap", "≥", self.opponent_ap_at_least);
        bound("opponent_ap", "≤", self.opponent_ap_at_most);
        bound("lead", "≥", self.lead_at_least);
        bound("lead", "≤", self.lead_at_most);
        f.write_str(&parts.join(" & "))
    }
}

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WagerRule {
    wager: i64,
    #[serde(default)]
    when: Option<Value>,
}

const WHEN_KEYS: &str = "pc_ap_at_least, pc_ap_at_most, opponent_ap_at_least, opponent_ap_at_most, lead_at_least, lead_at_most";

impl RuleSyntax for WagerRule {
    const KEYS: &'static [&'static str] = &["wager", "when"];
    type When = When;
    type Choice = i64;

    fn into_rule(self) -> Result<Rule<When, i64>, String> {
        if !(1..=MAX_WAGER).contains(&self.wager) {
            return Err(format!(
                "`wager` = {} is out of range; allowed: 1..={MAX_WAGER} (at most the PC's starting AP)",
                self.wager
            ));
        }
        Ok(Rule {
            when: policy::when(self.when, WHEN_KEYS)?,
            choice: self.wager,
        })
    }
}

/// `pc.wager`: a wager, or rules whose last has no `when`.
pub fn parse(v: &ParamValue) -> Result<PcWager, String> {
    match v {
        ParamValue::Int(w) if (1..=MAX_WAGER).contains(w) => Ok(PcWager::Fixed(*w)),
        ParamValue::Int(w) => Err(format!("{w} is out of range")),
        ParamValue::List(_) | ParamValue::Table(_) => {
            let p = policy::parse::<WagerRule>(v)?;
            if p.rules.last().is_some_and(|r| r.when.is_some()) {
                return Err(format!(
                    "rule {}: the last rule has no `when` (it is the wager when no other rule holds)",
                    p.rules.len()
                ));
            }
            Ok(PcWager::Rules(p))
        }
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

/// `pc.wager` for the params struct.
pub fn pc_wager<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PcWager, D::Error> {
    crate::model::parse_value(d, parse)
}

/// A written rule: `{ wager = w, when = { … } }`, or `{ wager = w }`.
pub fn rule(wager: i64, when: Option<&When>) -> ParamValue {
    let mut t = vec![("wager".to_string(), ParamValue::Int(wager))];
    if let Some(w) = when.filter(|w| **w != When::default()) {
        t.push(("when".into(), ParamValue::Table(w.table())));
    }
    ParamValue::Table(t)
}
