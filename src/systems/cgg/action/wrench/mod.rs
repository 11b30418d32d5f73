//! The player's wrench policy (`policy.wrench`): one of the three named
//! policies (none, greedy, deny), or rules in the shared policy module's
//! form, each a use of venture (or "hold") and a condition on what the
//! player sees once both rolls are on the table. The rules form is what
//! best play writes.
//!
//! ```toml
//! "policy.wrench" = [
//!   { use = "gotta", when = { failures_at_least = 1, venture_at_most = 1 } },
//!   { use = "serious", when = { failures = 0, risk_short_at_least = 6 } },
//!   { use = "serious", when = { failures = 1, spent = ["gotta"] } },
//!   { use = "close" },
//!   { use = "hold" },
//! ]
//! ```
//!
//! A `when` bounds the four quantities the player sees (`failures`,
//! `risk_short`, `venture`, `dice`: `_at_least`, `_at_most`, or `= n`
//! for both) and may ask which uses are `spent` this roll or `unspent`
//! yet; every key must hold.
//!
//! The player spends one use at a time: the first rule whose `when` holds
//! and whose use is open (venture enough, not spent this roll, something
//! for it to act on) is played, and the rules are read again on the board
//! it leaves; "hold", or no rule that applies, ends the wrench. The one
//! function that plays them ([`Action::wrench`], here, through [`Rules::play`])
//! serves the exact solver, the sampling tables and best play's replay;
//! the named policies are played by [`Action::named_wrench`].
//!
//! An action is a few numbers that key its sampling tables, so a rule
//! list is kept once per process ([`intern`]) and the action holds a
//! reference to it: two equal lists are one reference, and the tables of
//! an action with rules are keyed by its list like any other rule key.

use std::fmt;
use std::sync::Mutex;

use serde::Deserialize;
use serde_json::Value;

use super::venture::{Board, Draw, Use};
use super::{Action, Wrench};
use crate::systems::policy::{self, Rule, RuleSyntax};
use crate::systems::{Choice, ParamValue};
pub use when::{When, bit, spent};

/// The player's move: one more wrench use, or stop spending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    /// Stop: what is left goes to the hammer.
    Hold,
    Wrench(Use),
}

/// The wrench uses, in the rules' order, as rules name them.
pub const USES: [Use; 5] = [
    Use::Close,
    Use::Gotta,
    Use::Good,
    Use::Serious,
    Use::NotAsBad,
];

/// A wrench use's name, as its outcome field has it.
pub fn use_name(u: Use) -> &'static str {
    match u {
        Use::Close => "close",
        Use::Gotta => "gotta",
        Use::Good => "good",
        Use::Serious => "serious",
        Use::NotAsBad => "not-as-bad",
        _ => "hammer",
    }
}

impl fmt::Display for Spend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spend::Hold => write!(f, "hold"),
            Spend::Wrench(u) => write!(f, "{}", use_name(*u)),
        }
    }
}

/// What a rule's `use` may name.
const USE_NAMES: &str = "hold, close, gotta, good, serious, not-as-bad";

impl Spend {
    /// The move a rule's `use` names.
    pub fn parse(name: &str) -> Option<Spend> {
        if name == "hold" {
            return Some(Spend::Hold);
        }
        USES.into_iter()
            .find(|&u| use_name(u) == name)
            .map(Spend::Wrench)
    }
}

/// What the player sees at a decision: the failures as they stand, how
/// far the risk total is short of the target (0: avoided), the venture
/// left and the difficulty dice on the table. Best play's features, in
/// its order.
pub type Seen = [i64; 4];

/// What the player sees on `b`.
pub fn seen(a: &Action, b: &Board) -> Seen {
    [
        i64::from(b.failures()),
        a.short(b),
        i64::from(b.left()),
        i64::from(b.dice()),
    ]
}

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UseRule {
    #[serde(rename = "use")]
    spend: String,
    #[serde(default)]
    when: Option<Value>,
}

impl RuleSyntax for UseRule {
    const KEYS: &'static [&'static str] = &["use", "when"];
    type When = When;
    type Choice = Spend;

    fn into_rule(self) -> Result<Rule<When, Spend>, String> {
        let choice = Spend::parse(&self.spend).ok_or_else(|| {
            format!(
                "`use` = \"{}\" is not a use of venture; allowed: {USE_NAMES}",
                self.spend
            )
        })?;
        let when = when::read(self.when)?;
        // A use spent is never open: a rule for it that asks it spent
        // would never apply.
        if let (Spend::Wrench(u), Some(w)) = (choice, &when)
            && w.spent & when::bit(u) != 0
        {
            return Err(format!(
                "`when`: `spent` names \"{0}\", the rule's own use, which is spent once a roll, so the rule never applies; allowed: `spent` without \"{0}\"",
                use_name(u)
            ));
        }
        Ok(Rule { when, choice })
    }
}

/// A rule list, kept once per process (see [`intern`]).
pub type Written = policy::Policy<When, Spend>;

/// The rules of a wrench policy: a reference to the list kept once per
/// process, so an action stays a few numbers. Equal lists are one
/// reference, so comparing and hashing the reference is comparing and
/// hashing the list.
#[derive(Clone, Copy)]
pub struct Rules(&'static Written);

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Rules {}

impl std::hash::Hash for Rules {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::ptr::hash(self.0, h);
    }
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({})", self.0)
    }
}

/// The one copy of `p` in this process. A process reads a handful of rule
/// lists (a sweep's, a best-play question's written one), and each is a
/// few rules: kept for the process's life, they cost next to nothing,
/// and the action that refers to them stays `Copy`.
pub fn intern(p: Written) -> Rules {
    static KEPT: Mutex<Vec<&'static Written>> = Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = kept.iter().find(|k| ***k == p) {
        return Rules(k);
    }
    let k: &'static Written = Box::leak(Box::new(p));
    kept.push(k);
    Rules(k)
}

impl Rules {
    /// The rules as read.
    pub fn written(&self) -> &'static Written {
        self.0
    }

    /// The move the rules make on `b`: the first rule that holds and
    /// whose use is open; hold when none does.
    #[inline]
    pub fn choose(&self, a: &Action, b: &Board) -> Spend {
        let s = seen(a, b);
        let spent = spent(b);
        self.0
            .choose(
                |w| w.holds(&s, spent),
                |m| match m {
                    Spend::Hold => true,
                    Spend::Wrench(u) => a.may_wrench(b, *u),
                },
            )
            .copied()
            .unwrap_or(Spend::Hold)
    }

    /// Play the rules from `b` on, one use at a time, until they hold.
    /// Every use spends venture and each is spent once, so this ends.
    pub fn play<D: Draw>(&self, a: &Action, b: &mut Board, draw: &mut D) {
        while let Spend::Wrench(u) = self.choose(a, b) {
            a.wrench_use(b, u, draw);
        }
    }
}

impl Action {
    /// The player's wrench policy from `b` on (uses already spent stay
    /// spent): a named policy, or rules.
    pub fn wrench<D: Draw>(&self, b: &mut Board, draw: &mut D) {
        match self.rules.wrench {
            WrenchPolicy::Named(w) => self.named_wrench(w, b, draw),
            WrenchPolicy::Rules(r) => r.play(self, b, draw),
        }
    }
}

/// The player's wrench policy: named, or rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WrenchPolicy {
    Named(Wrench),
    Rules(Rules),
}

impl From<Wrench> for WrenchPolicy {
    fn from(w: Wrench) -> Self {
        WrenchPolicy::Named(w)
    }
}

impl PartialEq<Wrench> for WrenchPolicy {
    fn eq(&self, w: &Wrench) -> bool {
        *self == WrenchPolicy::Named(*w)
    }
}

impl Default for WrenchPolicy {
    fn default() -> Self {
        WrenchPolicy::Named(Wrench::Greedy)
    }
}

impl fmt::Display for WrenchPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WrenchPolicy::Named(w) => f.write_str(w.name()),
            WrenchPolicy::Rules(r) => f.write_str(&r.0.label()),
        }
    }
}

/// What `policy.wrench` accepts, in words.
pub const EXPECTS: &str = "\"greedy\", \"deny\" or \"none\", or a list of rules { use = \"…\", when = { … } } tried in order, one use at a time (no rule that applies: hold); `use`: hold, close, gotta, good, serious, not-as-bad; `when` keys: failures_at_least, failures_at_most, risk_short_at_least, risk_short_at_most, venture_at_least, venture_at_most, dice_at_least, dice_at_most; failures, risk_short, venture, dice (= n); spent, unspent (lists of uses)";

/// `policy.wrench`: a named policy, or rules.
pub fn parse(v: &ParamValue) -> Result<WrenchPolicy, String> {
    match v {
        ParamValue::Str(s) => Wrench::parse(s).map(WrenchPolicy::Named).ok_or_else(|| {
            let names: Vec<String> = Wrench::NAMES.iter().map(|n| format!("\"{n}\"")).collect();
            format!(
                "\"{s}\" is not a wrench policy; allowed: one of {}, or a list of rules",
                names.join(", ")
            )
        }),
        ParamValue::List(_) | ParamValue::Table(_) => {
            Ok(WrenchPolicy::Rules(intern(policy::parse::<UseRule>(v)?)))
        }
        other => Err(format!(
            "{} is the wrong type; allowed: {EXPECTS}",
            other.type_name()
        )),
    }
}

impl<'de> Deserialize<'de> for WrenchPolicy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::model::parse_value(d, parse)
    }
}

/// A written rule: `{ use = "…", when = { … } }`, or `{ use = "…" }`.
pub fn rule(spend: Spend, when: Option<&When>) -> ParamValue {
    let mut t = vec![("use".to_string(), ParamValue::Str(spend.to_string()))];
    if let Some(w) = when.filter(|w| **w != When::default()) {
        t.push(("when".into(), ParamValue::Table(w.table())));
    }
    ParamValue::Table(t)
}

mod when;

#[cfg(test)]
mod tests;
