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
/// The keys a `when` table may take.
const WHEN_KEYS: &[&str] = &[
    "edge_at_least",
    "edge_at_most",
    "ladder_at_most",
    "round_at_least",
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
            "allowed: {}, or a table {{ {} = n }}",
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
        Value::Object(m) if m.len() == 1 => {
            let (k, x) = m.iter().next().expect("one entry");
            let n = x
                .as_i64()
                .ok_or_else(|| format!("`when`: {k} must be an integer, not {x}"))?;
            match k.as_str() {
                "edge_at_least" => Ok(Some(When::EdgeAtLeast(n))),
                "edge_at_most" => Ok(Some(When::EdgeAtMost(n))),
                "ladder_at_most" => Ok(Some(When::LadderAtMost(n))),
                "round_at_least" => Ok(Some(When::RoundAtLeast(n))),
                other => Err(format!(
                    "`when` has an unknown key `{other}`; {}",
                    allowed()
                )),
            }
        }
        other => Err(format!(
            "`when` = {other} is not a condition; {}",
            allowed()
        )),
    }
}

/// What `expects` says of a policy parameter.
pub const POLICY_EXPECTS: &str = "a policy: a list of rules { effect = \"edge\" | [\"edge\", \"accelerate\"] …, raises = 0.., when = \"always\" | \"can-climax\" | \"can-anticlimax\" | \"holds-initiative\" | \"has-free-raise\" | \"no-free-raise\" | { edge_at_least | edge_at_most | ladder_at_most | round_at_least = n } }, tried in order (the first that holds and is allowed is taken; else Edge), or { name = \"…\", rules = [ … ] }";

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
        named => format!("\"{named}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamValue::{self, *};

    use crate::systems::testing::table as t;

    fn s(x: &str) -> ParamValue {
        Str(x.into())
    }

    #[test]
    fn the_issue_example_parses_and_prints() {
        let p = parse_policy(&List(vec![
            t(&[("effect", s("climax")), ("when", s("can-climax"))]),
            t(&[("effect", s("setup")), ("when", s("no-free-raise"))]),
            t(&[
                ("effect", List(vec![s("edge"), s("accelerate")])),
                ("raises", Int(1)),
            ]),
            t(&[
                ("effect", s("press")),
                ("when", t(&[("edge_at_most", Int(-2))])),
            ]),
        ]))
        .unwrap();
        assert_eq!(
            p.label(),
            "climax if can-climax; setup if no-free-raise; edge+accelerate r1; press if edge≤-2"
        );
        assert_eq!(
            toml_form(&p),
            "[{ effect = \"climax\", when = \"can-climax\" }, { effect = \"setup\", when = \"no-free-raise\" }, { effect = [\"edge\", \"accelerate\"], raises = 1 }, { effect = \"press\", when = { edge_at_most = -2 } }]"
        );
    }

    #[test]
    fn bad_rules_say_what_is_allowed() {
        let one = |rule: ParamValue| parse_policy(&List(vec![rule])).unwrap_err();
        let e = one(t(&[("effect", s("edg"))]));
        assert!(
            e.starts_with("rule 1: `effect` = \"edg\" is not an effect; allowed: \"edge\""),
            "{e}"
        );
        let e = one(t(&[("effect", s("edge")), ("whn", s("always"))]));
        assert_eq!(
            e,
            "rule 1: unknown key `whn`; allowed: effect, raises, when"
        );
        let e = one(t(&[("effect", List(vec![s("press"), s("accelerate")]))]));
        assert!(e.contains("cancel each other"), "{e}");
        let e = one(t(&[("effect", s("edge")), ("when", s("sometimes"))]));
        assert!(
            e.contains("\"can-climax\"") && e.contains("edge_at_least"),
            "{e}"
        );
        let e = one(t(&[
            ("effect", s("edge")),
            ("when", t(&[("edge_above", Int(1))])),
        ]));
        assert!(e.contains("unknown key `edge_above`"), "{e}");
        let e = one(t(&[("effect", s("edge")), ("raises", Int(11))]));
        assert!(e.contains("0..=10"), "{e}");
        let e = one(t(&[("effect", s("edge")), ("raises", Int(-1))]));
        assert!(e.starts_with("rule 1: invalid value"), "{e}");
        let e = one(t(&[("raises", Int(1))]));
        assert!(e.contains("missing field `effect`"), "{e}");
        let e = one(t(&[("effect", List(vec![s("edge"), s("edge")]))]));
        assert!(e.contains("twice"), "{e}");
    }

    #[test]
    fn views_decide() {
        let p = shorthand_policy(true, true, 2);
        let mut v = View {
            edge: 3,
            ladder: 3,
            round: 1,
            holds_initiative: true,
            free: 0,
            can_climax: true,
            can_anticlimax: false,
            can_block: true,
        };
        assert_eq!(v.choose(&p), Action::new(&[Effect::Climax], 0));
        v.can_climax = false;
        assert_eq!(v.choose(&p), Action::new(&[Effect::Edge], 2));
        v.can_anticlimax = true;
        assert_eq!(v.choose(&p), Action::new(&[Effect::Anticlimax], 0));
        let none = shorthand_policy(false, false, 0);
        assert_eq!(v.choose(&none), Action::EDGE);
        for (w, yes) in [
            (When::EdgeAtLeast(3), true),
            (When::EdgeAtLeast(4), false),
            (When::EdgeAtMost(3), true),
            (When::LadderAtMost(2), false),
            (When::RoundAtLeast(1), true),
            (When::HasFreeRaise, false),
            (When::NoFreeRaise, true),
            (When::HoldsInitiative, true),
        ] {
            assert_eq!(v.holds(&w), yes, "{w}");
        }
    }
}
