//! A wrench rule's condition (`when`): bounds on the four quantities the
//! player sees ([`Seen`]), each `_at_least`, `_at_most` or `= n` for
//! both, and the uses `spent` this roll or `unspent` yet. Every key set
//! must hold.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;

use super::{Board, Seen, USES, Use, use_name};
use crate::systems::ParamValue;
use crate::systems::policy;

/// A use's bit in a mask of uses (`spent`, `unspent`): one per use, in
/// [`USES`]' order; 0 for a use not in [`USES`].
#[inline]
pub fn bit(u: Use) -> u8 {
    USES.iter().position(|&x| x == u).map_or(0, |i| 1 << i)
}

/// The wrench uses spent this roll, a bit per use in [`USES`]' order.
#[inline]
pub fn spent(b: &Board) -> u8 {
    USES.iter()
        .filter(|&&u| b.spent(u))
        .fold(0, |m, &u| m | bit(u))
}

/// A rule's condition on what the player sees: every bound set must
/// hold, every use in `spent` must be spent this roll and every use in
/// `unspent` not yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct When {
    pub failures_at_least: Option<i64>,
    pub failures_at_most: Option<i64>,
    pub risk_short_at_least: Option<i64>,
    pub risk_short_at_most: Option<i64>,
    pub venture_at_least: Option<i64>,
    pub venture_at_most: Option<i64>,
    pub dice_at_least: Option<i64>,
    pub dice_at_most: Option<i64>,
    /// Uses spent this roll, a bit per use in [`USES`]' order.
    pub spent: u8,
    /// Uses not spent yet, likewise.
    pub unspent: u8,
}

/// The four quantities a `when` bounds, in [`Seen`]'s order.
const NAMES: [&str; 4] = ["failures", "risk_short", "venture", "dice"];

/// The keys of a `when` table, in [`Seen`]'s order (least, most).
const KEYS: [(&str, &str); 4] = [
    ("failures_at_least", "failures_at_most"),
    ("risk_short_at_least", "risk_short_at_most"),
    ("venture_at_least", "venture_at_most"),
    ("dice_at_least", "dice_at_most"),
];

/// The wrench uses `spent` and `unspent` may name.
const WRENCH_USES: &str = "close, gotta, good, serious, not-as-bad";

const WHEN_KEYS: &str = "failures_at_least, failures_at_most, risk_short_at_least, risk_short_at_most, venture_at_least, venture_at_most, dice_at_least, dice_at_most; failures, risk_short, venture, dice (= n: at least and at most n); spent, unspent (lists of uses spent this roll, or not yet: close, gotta, good, serious, not-as-bad) (risk_short: how far the risk total is short of the target, 0 when the risk is avoided; dice: the difficulty dice on the table)";

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
    /// order, whatever is spent.
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
            spent: 0,
            unspent: 0,
        }
    }

    /// Whether the condition holds on what the player sees, `spent` the
    /// uses spent this roll ([`spent`]).
    #[inline]
    pub fn holds(&self, s: &Seen, spent: u8) -> bool {
        spent & self.spent == self.spent
            && spent & self.unspent == 0
            && self
                .bounds()
                .iter()
                .zip(s)
                .all(|((lo, hi), x)| lo.is_none_or(|n| *x >= n) && hi.is_none_or(|n| *x <= n))
    }

    /// The keys that are set, as a table (for a written policy): a
    /// quantity bounded to one value as `failures = n`.
    pub fn table(&self) -> Vec<(String, ParamValue)> {
        self.parts()
            .into_iter()
            .map(|(k, v, _)| (k.to_string(), v))
            .collect()
    }

    /// The keys that are set, each with its value and its words (a
    /// label's `failures≥2`), in the table's order: a quantity bounded
    /// to one value as `failures = n`, then the uses spent and unspent.
    fn parts(&self) -> Vec<(&'static str, ParamValue, String)> {
        let mut out = Vec::new();
        for ((name, (lk, hk)), (lo, hi)) in NAMES.iter().zip(KEYS).zip(self.bounds()) {
            match (lo, hi) {
                (Some(l), Some(h)) if l == h => {
                    out.push((*name, ParamValue::Int(l), format!("{name}={l}")));
                }
                _ => {
                    out.extend(lo.map(|n| (lk, ParamValue::Int(n), format!("{name}≥{n}"))));
                    out.extend(hi.map(|n| (hk, ParamValue::Int(n), format!("{name}≤{n}"))));
                }
            }
        }
        for (key, mask) in [("spent", self.spent), ("unspent", self.unspent)] {
            if mask != 0 {
                let names: Vec<&str> = uses_of(mask).map(use_name).collect();
                let list = names.iter().map(|&n| ParamValue::Str(n.into())).collect();
                out.push((
                    key,
                    ParamValue::List(list),
                    format!("{key}={}", names.join(",")),
                ));
            }
        }
        out
    }
}

/// The uses of a mask of [`USES`], in their order.
pub(super) fn uses_of(mask: u8) -> impl Iterator<Item = Use> {
    USES.into_iter().filter(move |&u| mask & bit(u) != 0)
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.parts().into_iter().map(|(_, _, w)| w).collect();
        f.write_str(&words.join(" & "))
    }
}

/// A rule's `when` as a scenario writes it: the bounds, their shorthands
/// (`failures = n` is `failures_at_least = n, failures_at_most = n`),
/// and the uses spent or not; [`WhenKeys::check`] makes it a [`When`].
#[derive(Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct WhenKeys {
    failures: Option<i64>,
    failures_at_least: Option<i64>,
    failures_at_most: Option<i64>,
    risk_short: Option<i64>,
    risk_short_at_least: Option<i64>,
    risk_short_at_most: Option<i64>,
    venture: Option<i64>,
    venture_at_least: Option<i64>,
    venture_at_most: Option<i64>,
    dice: Option<i64>,
    dice_at_least: Option<i64>,
    dice_at_most: Option<i64>,
    spent: Option<Value>,
    unspent: Option<Value>,
}

impl WhenKeys {
    /// The condition these keys say, or what is wrong with them.
    fn check(self) -> Result<When, String> {
        let written = [
            (self.failures, self.failures_at_least, self.failures_at_most),
            (
                self.risk_short,
                self.risk_short_at_least,
                self.risk_short_at_most,
            ),
            (self.venture, self.venture_at_least, self.venture_at_most),
            (self.dice, self.dice_at_least, self.dice_at_most),
        ];
        let mut bounds = [(None, None); 4];
        for (((name, (lk, hk)), (eq, lo, hi)), b) in
            NAMES.iter().zip(KEYS).zip(written).zip(&mut bounds)
        {
            if let Some(n) = eq {
                if let Some(k) = [(lk, lo), (hk, hi)].iter().find(|(_, v)| v.is_some()) {
                    return Err(format!(
                        "`when`: `{name}` = {n} and `{}` both bound the {name}; allowed: `{name}` alone, or `{lk}` / `{hk}`",
                        k.0
                    ));
                }
                if n < 0 {
                    return Err(format!(
                        "`when`: `{name}` = {n} is out of range; allowed: 0 or more"
                    ));
                }
                *b = (Some(n), Some(n));
                continue;
            }
            for (k, v) in [(lk, lo), (hk, hi)] {
                if let Some(n) = v.filter(|n| *n < 0) {
                    return Err(format!(
                        "`when`: `{k}` = {n} is out of range; allowed: 0 or more"
                    ));
                }
            }
            if let (Some(l), Some(h)) = (lo, hi)
                && l > h
            {
                return Err(format!(
                    "`when`: `{lk}` = {l} is more than `{hk}` = {h}, so the rule never holds; allowed: {lk} ≤ {hk}"
                ));
            }
            *b = (lo, hi);
        }
        let spent = uses_named("spent", self.spent)?;
        let unspent = uses_named("unspent", self.unspent)?;
        if let Some(u) = uses_of(spent & unspent).next() {
            return Err(format!(
                "`when`: \"{}\" is in both `spent` and `unspent`, so the rule never holds; allowed: a use in one of them",
                use_name(u)
            ));
        }
        Ok(When {
            spent,
            unspent,
            ..When::of(bounds)
        })
    }
}

/// The uses `spent` or `unspent` names, as a mask of [`USES`]: a list of
/// use names (or one name).
fn uses_named(key: &str, v: Option<Value>) -> Result<u8, String> {
    let items = match v {
        None => return Ok(0),
        Some(Value::String(s)) => vec![Value::String(s)],
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(v) => {
            return Err(format!(
                "`when`: `{key}` = {v} is not a list of uses; allowed: a list of one or more of {WRENCH_USES}"
            ));
        }
    };
    let mut mask = 0;
    for item in items {
        let u = item
            .as_str()
            .and_then(|s| USES.into_iter().find(|&u| use_name(u) == s))
            .ok_or_else(|| {
                format!("`when`: `{key}`: {item} is not a wrench use; allowed: {WRENCH_USES}")
            })?;
        mask |= bit(u);
    }
    Ok(mask)
}

/// A rule's `when` as read: none (absent, or "always"), or a checked
/// condition.
pub(super) fn read(when: Option<Value>) -> Result<Option<When>, String> {
    match policy::when::<WhenKeys>(when, WHEN_KEYS)? {
        Some(k) => k.check().map(Some),
        None => Ok(None),
    }
}
