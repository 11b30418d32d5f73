//! Gateway policies: the `when` vocabulary, what an entity sees when it
//! decides, and the rule syntax of the shared policy module
//! (`systems::policy`).
//!
//! ```toml
//! "a.policy" = [
//!   { effect = "climax", when = "can-climax" },
//!   { effect = "setup", when = "no-free-raise" },
//!   { effect = ["edge", "accelerate"], raises = 1 },
//! ]
//! ```

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::effect::{Action, Effect, Effects};
use crate::systems::policy::{self, Rule, RuleSyntax};

/// A policy of Gateway actions.
pub type Policy = policy::Policy<When, Action>;

/// The most raises a rule may choose.
pub const MAX_RULE_RAISES: u32 = 10;

/// A rule's condition (`when`); "always" is a rule without one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// A Climax is allowed: the edge over every opponent is at least the
    /// ladder.
    CanClimax,
    /// An Anticlimax is allowed: behind on the edge with the ladder at 0.
    CanAnticlimax,
    HoldsInitiative,
    /// A free raise (Set-up, Aid Another) is there for this action.
    HasFreeRaise,
    NoFreeRaise,
    EdgeAtLeast(i64),
    EdgeAtMost(i64),
    LadderAtMost(i64),
    RoundAtLeast(i64),
    /// Several bounds that must all hold (a `when` table of more than one
    /// key, or of a key only such a table has).
    All(Bounds),
}

/// The bounds of a multi-condition `when` table: each `Some` must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    pub edge_at_least: Option<i64>,
    pub edge_at_most: Option<i64>,
    pub ladder_at_least: Option<i64>,
    pub ladder_at_most: Option<i64>,
    pub round_at_least: Option<i64>,
    pub round_at_most: Option<i64>,
    pub can_climax: Option<bool>,
    pub holds_initiative: Option<bool>,
    pub has_free_raise: Option<bool>,
    /// An opponent's effect has succeeded this round (before this action).
    pub opponent_succeeded: Option<bool>,
}

impl Bounds {
    pub fn holds(&self, v: &View) -> bool {
        let at_least = |b: Option<i64>, x: i64| b.is_none_or(|n| x >= n);
        let at_most = |b: Option<i64>, x: i64| b.is_none_or(|n| x <= n);
        let is = |b: Option<bool>, x: bool| b.is_none_or(|y| y == x);
        let round = v.round as i64;
        at_least(self.edge_at_least, v.edge)
            && at_most(self.edge_at_most, v.edge)
            && at_least(self.ladder_at_least, v.ladder)
            && at_most(self.ladder_at_most, v.ladder)
            && at_least(self.round_at_least, round)
            && at_most(self.round_at_most, round)
            && is(self.can_climax, v.can_climax)
            && is(self.holds_initiative, v.holds_initiative)
            && is(self.has_free_raise, v.free > 0)
            && is(self.opponent_succeeded, v.opponent_succeeded)
    }

    /// Each bound as (table key, TOML value, words), in the table's order.
    pub fn parts(&self) -> Vec<(&'static str, String, String)> {
        let mut out = Vec::new();
        let mut int = |k: &'static str, b: Option<i64>, word: &str| {
            if let Some(n) = b {
                out.push((k, n.to_string(), format!("{word}{n}")));
            }
        };
        int("edge_at_least", self.edge_at_least, "edge≥");
        int("edge_at_most", self.edge_at_most, "edge≤");
        int("ladder_at_least", self.ladder_at_least, "ladder≥");
        int("ladder_at_most", self.ladder_at_most, "ladder≤");
        int("round_at_least", self.round_at_least, "round≥");
        int("round_at_most", self.round_at_most, "round≤");
        let mut flag = |k: &'static str, b: Option<bool>, word: &str| {
            if let Some(y) = b {
                let words = if y {
                    word.to_string()
                } else {
                    format!("not {word}")
                };
                out.push((k, y.to_string(), words));
            }
        };
        flag("can_climax", self.can_climax, "can-climax");
        flag(
            "holds_initiative",
            self.holds_initiative,
            "holds-initiative",
        );
        flag("has_free_raise", self.has_free_raise, "has-free-raise");
        flag(
            "opponent_succeeded",
            self.opponent_succeeded,
            "opponent-succeeded",
        );
        out
    }

    /// One key of a `when` table.
    fn set(&mut self, k: &str, x: &Value) -> Result<(), String> {
        let int = || {
            x.as_i64()
                .ok_or_else(|| format!("`when`: {k} must be an integer, not {x}"))
        };
        let flag = || {
            x.as_bool()
                .ok_or_else(|| format!("`when`: {k} must be true or false, not {x}"))
        };
        match k {
            "edge_at_least" => self.edge_at_least = Some(int()?),
            "edge_at_most" => self.edge_at_most = Some(int()?),
            "ladder_at_least" => self.ladder_at_least = Some(int()?),
            "ladder_at_most" => self.ladder_at_most = Some(int()?),
            "round_at_least" => self.round_at_least = Some(int()?),
            "round_at_most" => self.round_at_most = Some(int()?),
            "can_climax" => self.can_climax = Some(flag()?),
            "holds_initiative" => self.holds_initiative = Some(flag()?),
            "has_free_raise" => self.has_free_raise = Some(flag()?),
            "opponent_succeeded" => self.opponent_succeeded = Some(flag()?),
            other => return Err(format!("`when` has an unknown key `{other}`")),
        }
        Ok(())
    }
}

/// The names a `when` string may take.
const WHEN_NAMES: &[&str] = &[
    "always",
    "can-climax",
    "can-anticlimax",
    "holds-initiative",
    "has-free-raise",
    "no-free-raise",
];
/// The keys a `when` table may take: several keys must all hold.
const WHEN_KEYS: &[&str] = &[
    "edge_at_least",
    "edge_at_most",
    "ladder_at_least",
    "ladder_at_most",
    "round_at_least",
    "round_at_most",
    "can_climax",
    "holds_initiative",
    "has_free_raise",
    "opponent_succeeded",
];

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            When::CanClimax => write!(f, "can-climax"),
            When::CanAnticlimax => write!(f, "can-anticlimax"),
            When::HoldsInitiative => write!(f, "holds-initiative"),
            When::HasFreeRaise => write!(f, "has-free-raise"),
            When::NoFreeRaise => write!(f, "no-free-raise"),
            When::EdgeAtLeast(n) => write!(f, "edge≥{n}"),
            When::EdgeAtMost(n) => write!(f, "edge≤{n}"),
            When::LadderAtMost(n) => write!(f, "ladder≤{n}"),
            When::RoundAtLeast(n) => write!(f, "round≥{n}"),
            When::All(b) => {
                let words: Vec<String> = b.parts().into_iter().map(|p| p.2).collect();
                write!(f, "{}", words.join(" and "))
            }
        }
    }
}

/// What an entity knows when it decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Its signed edge: over its one opponent, or (the key entity against
    /// several PCs) its least edge over any of them.
    pub edge: i64,
    pub ladder: i64,
    /// From 1.
    pub round: usize,
    pub holds_initiative: bool,
    /// Free raises there for this action.
    pub free: u32,
    pub can_climax: bool,
    pub can_anticlimax: bool,
    /// The initiative holder, before any opponent has acted this round.
    pub can_block: bool,
    /// An opponent's effect has succeeded this round, before this action
    /// (always false for the first to act).
    pub opponent_succeeded: bool,
}

impl View {
    pub fn holds(&self, w: &When) -> bool {
        match *w {
            When::CanClimax => self.can_climax,
            When::CanAnticlimax => self.can_anticlimax,
            When::HoldsInitiative => self.holds_initiative,
            When::HasFreeRaise => self.free > 0,
            When::NoFreeRaise => self.free == 0,
            When::EdgeAtLeast(n) => self.edge >= n,
            When::EdgeAtMost(n) => self.edge <= n,
            When::LadderAtMost(n) => self.ladder <= n,
            When::RoundAtLeast(n) => self.round as i64 >= n,
            When::All(ref b) => b.holds(self),
        }
    }

    /// Whether every effect of `a` may be attempted now.
    pub fn allows(&self, a: &Action) -> bool {
        (!a.has(Effect::Climax) || self.can_climax)
            && (!a.has(Effect::Anticlimax) || self.can_anticlimax)
            && (!a.has(Effect::Block) || self.can_block)
    }

    /// The action `policy` takes here: its first rule that holds and is
    /// allowed, else Edge with no raises.
    #[inline]
    pub fn choose(&self, policy: &Policy) -> Action {
        policy
            .choose(|w| self.holds(w), |a| self.allows(a))
            .copied()
            .unwrap_or(Action::EDGE)
    }
}

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GatewayRule {
    effect: Value,
    #[serde(default)]
    raises: u32,
    #[serde(default)]
    when: Option<Value>,
}

impl RuleSyntax for GatewayRule {
    const KEYS: &'static [&'static str] = &["effect", "raises", "when"];
    type When = When;
    type Choice = Action;

    fn into_rule(self) -> Result<Rule<When, Action>, String> {
        let names: Vec<&Value> = match &self.effect {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        if names.is_empty() {
            return Err("`effect` is an empty list; name at least one effect".into());
        }
        let mut effects = Vec::new();
        for v in names {
            let e = v.as_str().and_then(Effect::from_name).ok_or_else(|| {
                format!(
                    "`effect` = {v} is not an effect; allowed: {}",
                    effect_names()
                )
            })?;
            if effects.contains(&e) {
                return Err(format!("`effect` names {} twice", e.name()));
            }
            effects.push(e);
        }
        let has = |e| effects.contains(&e);
        if has(Effect::Press) && has(Effect::Accelerate) {
            return Err("`effect` combines press and accelerate, which cancel each other".into());
        }
        if has(Effect::Climax) && has(Effect::Anticlimax) {
            return Err("`effect` combines climax and anticlimax; a scene ends one way".into());
        }
        if self.raises > MAX_RULE_RAISES {
            return Err(format!(
                "`raises` = {} is out of range; allowed: 0..={MAX_RULE_RAISES}",
                self.raises
            ));
        }
        Ok(Rule {
            when: self.when.as_ref().map(when_of).transpose()?.flatten(),
            choice: Action {
                effects: Effects::of(&effects),
                raises: self.raises,
            },
        })
    }
}

fn effect_names() -> String {
    Effect::ALL.map(|e| format!("\"{}\"", e.name())).join(", ")
}

/// A `when` value; `None` for "always" (shared with `gateway.skirmish`).
pub fn when_of(v: &Value) -> Result<Option<When>, String> {
    let allowed = || {
        format!(
            "allowed: {}, or a table {{ {} = n | true | false, … }} (every key must hold)",
            WHEN_NAMES
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", "),
            WHEN_KEYS.join(" | ")
        )
    };
    match v {
        Value::String(s) => match s.as_str() {
            "always" => Ok(None),
            "can-climax" => Ok(Some(When::CanClimax)),
            "can-anticlimax" => Ok(Some(When::CanAnticlimax)),
            "holds-initiative" => Ok(Some(When::HoldsInitiative)),
            "has-free-raise" => Ok(Some(When::HasFreeRaise)),
            "no-free-raise" => Ok(Some(When::NoFreeRaise)),
            other => Err(format!(
                "`when` = \"{other}\" is not a condition; {}",
                allowed()
            )),
        },
        Value::Object(m) if m.len() == 1 && old_key(m) => {
            let (k, x) = m.iter().next().expect("one entry");
            let n = x
                .as_i64()
                .ok_or_else(|| format!("`when`: {k} must be an integer, not {x}"))?;
            Ok(Some(match k.as_str() {
                "edge_at_least" => When::EdgeAtLeast(n),
                "edge_at_most" => When::EdgeAtMost(n),
                "ladder_at_most" => When::LadderAtMost(n),
                _ => When::RoundAtLeast(n),
            }))
        }
        Value::Object(m) if !m.is_empty() => {
            let mut b = Bounds::default();
            for (k, x) in m {
                b.set(k, x).map_err(|e| {
                    if e.contains("unknown key") {
                        format!("{e}; {}", allowed())
                    } else {
                        e
                    }
                })?;
            }
            Ok(Some(When::All(b)))
        }
        other => Err(format!(
            "`when` = {other} is not a condition; {}",
            allowed()
        )),
    }
}

/// A one-key table of the conditions the language had before tables of
/// several bounds: those keep their own variant (and printed form).
fn old_key(m: &serde_json::Map<String, Value>) -> bool {
    m.keys().all(|k| {
        matches!(
            k.as_str(),
            "edge_at_least" | "edge_at_most" | "ladder_at_most" | "round_at_least"
        )
    })
}

/// What `expects` says of a policy parameter.
pub const POLICY_EXPECTS: &str = "a policy: a list of rules { effect = \"edge\" | [\"edge\", \"accelerate\"] …, raises = 0.., when = \"always\" | \"can-climax\" | \"can-anticlimax\" | \"holds-initiative\" | \"has-free-raise\" | \"no-free-raise\" | { edge_at_least | edge_at_most | ladder_at_least | ladder_at_most | round_at_least | round_at_most = n, can_climax | holds_initiative | has_free_raise | opponent_succeeded = true | false, … (all must hold) } }, tried in order (the first that holds and is allowed is taken; else Edge), or { name = \"…\", rules = [ … ] }";

pub fn parse_policy(v: &crate::systems::ParamValue) -> Result<Policy, String> {
    policy::parse::<GatewayRule>(v)
}

/// rules §1.2's default, and what the old shorthands (`climax`,
/// `anticlimax`, `edge_raises`) describe: Climax when allowed, Anticlimax
/// when allowed, else Edge with `edge_raises` raises.
pub fn shorthand_policy(climax: bool, anticlimax: bool, edge_raises: u32) -> Policy {
    let mut rules = Vec::new();
    if climax {
        rules.push(Rule {
            when: None,
            choice: Action::new(&[Effect::Climax], 0),
        });
    }
    if anticlimax {
        rules.push(Rule {
            when: None,
            choice: Action::new(&[Effect::Anticlimax], 0),
        });
    }
    rules.push(Rule {
        when: None,
        choice: Action::new(&[Effect::Edge], edge_raises),
    });
    Policy::new(rules)
}

/// The same policy in the scenario form, for messages that show the new
/// way to write old keys.
pub fn toml_form(p: &Policy) -> String {
    let rules: Vec<String> = p
        .rules
        .iter()
        .map(|r| {
            let names: Vec<String> = r
                .choice
                .effects
                .iter()
                .map(|e| format!("\"{}\"", e.name()))
                .collect();
            let effect = if names.len() == 1 {
                names[0].clone()
            } else {
                format!("[{}]", names.join(", "))
            };
            let mut s = format!("{{ effect = {effect}");
            if r.choice.raises > 0 {
                s += &format!(", raises = {}", r.choice.raises);
            }
            if let Some(w) = r.when {
                s += &format!(", when = {}", toml_when(w));
            }
            s + " }"
        })
        .collect();
    format!("[{}]", rules.join(", "))
}

fn toml_when(w: When) -> String {
    match w {
        When::EdgeAtLeast(n) => format!("{{ edge_at_least = {n} }}"),
        When::EdgeAtMost(n) => format!("{{ edge_at_most = {n} }}"),
        When::LadderAtMost(n) => format!("{{ ladder_at_most = {n} }}"),
        When::RoundAtLeast(n) => format!("{{ round_at_least = {n} }}"),
        When::All(b) => {
            let parts: Vec<String> = b
                .parts()
                .into_iter()
                .map(|(k, v, _)| format!("{k} = {v}"))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        named => format!("\"{named}\""),
    }
}

#[cfg(test)]
mod tests;
