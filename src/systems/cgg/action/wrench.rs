//! The player's wrench policy (`policy.wrench`): one of the three named
//! policies (none, greedy, deny), or rules in the shared policy module's
//! form, each a use of venture (or "hold") and a condition on what the
//! player sees once both rolls are on the table. The rules form is what
//! best play writes.
//!
//! ```toml
//! "policy.wrench" = [
//!   { use = "gotta", when = { failures_at_least = 1, venture_at_most = 1 } },
//!   { use = "serious", when = { failures_at_most = 0, risk_short_at_least = 6 } },
//!   { use = "close" },
//!   { use = "hold" },
//! ]
//! ```
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

/// A rule's condition on what the player sees: every key set must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    pub failures_at_least: Option<i64>,
    pub failures_at_most: Option<i64>,
    pub risk_short_at_least: Option<i64>,
    pub risk_short_at_most: Option<i64>,
    pub venture_at_least: Option<i64>,
    pub venture_at_most: Option<i64>,
    pub dice_at_least: Option<i64>,
    pub dice_at_most: Option<i64>,
}

/// The keys of a `when` table, in [`Seen`]'s order (least, most).
const KEYS: [(&str, &str); 4] = [
    ("failures_at_least", "failures_at_most"),
    ("risk_short_at_least", "risk_short_at_most"),
    ("venture_at_least", "venture_at_most"),
    ("dice_at_least", "dice_at_most"),
];

const WHEN_KEYS: &str = "failures_at_least, failures_at_most, risk_short_at_least, risk_short_at_most, venture_at_least, venture_at_most, dice_at_least, dice_at_most (risk_short: how far the risk total is short of the target, 0 when the risk is avoided; dice: the difficulty dice on the table)";

impl When {
    /// The bounds as (least, most) pairs, in [`Seen`]'s order.
    pub fn bounds(&self) -> [(Option<i64>, Option<i64>); 4] {
        [
            (self.failures_at_least, self.failures_at_most),
            (self.risk_short_at_least, self.risk_short_at_most),
            (self.venture_at_least, self.venture_at_most),
            (self.dice_at_least, self.dice_at_most),
        ]
    }

    /// The condition of these bounds (`None`: no bound), in [`Seen`]'s
    /// order.
    pub fn of(b: [(Option<i64>, Option<i64>); 4]) -> When {
        When {
            failures_at_least: b[0].0,
            failures_at_most: b[0].1,
            risk_short_at_least: b[1].0,
            risk_short_at_most: b[1].1,
            venture_at_least: b[2].0,
            venture_at_most: b[2].1,
            dice_at_least: b[3].0,
            dice_at_most: b[3].1,
        }
    }

    #[inline]
    pub fn holds(&self, s: &Seen) -> bool {
        self.bounds()
            .iter()
            .zip(s)
            .all(|((lo, hi), x)| lo.is_none_or(|n| *x >= n) && hi.is_none_or(|n| *x <= n))
    }

    /// The keys that are set, as a table (for a written policy).
    pub fn table(&self) -> Vec<(String, ParamValue)> {
        KEYS.iter()
            .zip(self.bounds())
            .flat_map(|(&(lk, hk), (lo, hi))| [(lk, lo), (hk, hi)])
            .filter_map(|(k, v)| v.map(|n| (k.to_string(), ParamValue::Int(n))))
            .collect()
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = ["failures", "risk_short", "venture", "dice"];
        let mut parts = Vec::new();
        for (name, (lo, hi)) in names.iter().zip(self.bounds()) {
            match (lo, hi) {
                (Some(l), Some(h)) if l == h => parts.push(format!("{name}={l}")),
                _ => {
                    if let Some(l) = lo {
                        parts.push(format!("{name}≥{l}"));
                    }
                    if let Some(h) = hi {
                        parts.push(format!("{name}≤{h}"));
                    }
                }
            }
        }
        f.write_str(&parts.join(" & "))
    }
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
        let when: Option<When> = policy::when(self.when, WHEN_KEYS)?;
        if let Some(w) = &when {
            for ((lo, hi), (lk, hk)) in w.bounds().iter().zip(KEYS) {
                if let Some(n) = lo.iter().chain(hi).find(|n| **n < 0) {
                    let k = if *lo == Some(*n) { lk } else { hk };
                    return Err(format!(
                        "`when`: `{k}` = {n} is out of range; allowed: 0 or more"
                    ));
                }
                if let (Some(l), Some(h)) = (lo, hi)
                    && l > h
                {
                    return Err(format!(
                        "`when`: `{lk}` = {l} is more than `{hk}` = {h}, so the rule never holds; allowed: {lk} ≤ {hk}"
                    ));
                }
            }
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
        self.0
            .choose(
                |w| w.holds(&s),
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
pub const EXPECTS: &str = "\"greedy\", \"deny\" or \"none\", or a list of rules { use = \"…\", when = { … } } tried in order, one use at a time (no rule that applies: hold); `use`: hold, close, gotta, good, serious, not-as-bad; `when` keys: failures_at_least, failures_at_most, risk_short_at_least, risk_short_at_most, venture_at_least, venture_at_most, dice_at_least, dice_at_most";

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
