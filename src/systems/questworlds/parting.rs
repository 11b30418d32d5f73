//! Parting shots (rules §4.5, [5.1.8, 5.2.3, 5.3.3, 5.4.8]): right
//! after a defeat the victor may roll one more contest against the loser.
//! A victory worsens the loser's tally as a normal round would; a defeat
//! lets the loser take back what it would have scored, from the tally of
//! the round that removed it, and it returns if that brings it back under
//! the limit.
//!
//! When a side shoots is a policy of the shared module
//! ([`crate::systems::policy`]): `never` (the default), `always`,
//! `{ when_ahead_by = n }`, or a list of rules
//! `[{ shoot = true, when_ahead_by = 2 }, { shoot = false }]`. "Ahead" is
//! the victor's lead in the sequence's tally right after the defeat: RP
//! against the loser minus RP against the victor (scored), the victor's AP
//! minus the loser's (wagered), the victor's resolve minus the loser's
//! (chained).

use std::fmt;

use serde::Deserialize;

use super::{Exchange, Verdict};
use crate::systems::policy::{self, Policy, Rule, RuleSyntax};
use crate::systems::{Lit, ParamKind, ParamSpec, ParamValue};

/// The condition of a parting-shot rule: the victor leads by at least
/// this much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AheadBy(pub i64);

impl fmt::Display for AheadBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ahead by {}", self.0)
    }
}

/// The choice of a parting-shot rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoot(pub bool);

impl fmt::Display for Shoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "shoot" } else { "hold" })
    }
}

/// When a side takes a parting shot.
pub type PartingShot = Policy<AheadBy, Shoot>;

/// The most a lead can be asked for (AP leads run to a few hundred).
const MAX_LEAD: i64 = 1000;

/// What `pc.parting_shot` and `opponent.parting_shot` accept.
pub const EXPECTS: &str = "\"never\", \"always\", { when_ahead_by = n } (n in 0..=1000), or a list of rules [{ shoot = true, when_ahead_by = n }, …]";

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShotRule {
    shoot: bool,
    #[serde(default)]
    when_ahead_by: Option<i64>,
}

impl RuleSyntax for ShotRule {
    const KEYS: &'static [&'static str] = &["shoot", "when_ahead_by"];
    type When = AheadBy;
    type Choice = Shoot;

    fn into_rule(self) -> Result<Rule<AheadBy, Shoot>, String> {
        Ok(Rule {
            when: self.when_ahead_by.map(lead).transpose()?,
            choice: Shoot(self.shoot),
        })
    }
}

fn lead(n: i64) -> Result<AheadBy, String> {
    if (0..=MAX_LEAD).contains(&n) {
        Ok(AheadBy(n))
    } else {
        Err(format!(
            "when_ahead_by = {n} is out of range 0..={MAX_LEAD}"
        ))
    }
}

/// The policy that never shoots: parting shots as before they existed.
pub fn never() -> PartingShot {
    Policy::new(vec![Rule {
        when: None,
        choice: Shoot(false),
    }])
}

/// Parse a parting-shot value: the two names and the one-rule table are
/// shorthands for rule lists, which go through the shared policy parser.
pub fn parse(v: &ParamValue) -> Result<PartingShot, String> {
    let always = |shoot| {
        Policy::new(vec![Rule {
            when: None,
            choice: Shoot(shoot),
        }])
    };
    match v {
        ParamValue::Str(s) if s == "never" => Ok(always(false)),
        ParamValue::Str(s) if s == "always" => Ok(always(true)),
        ParamValue::Str(s) => Err(format!("\"{s}\" is not a parting-shot policy")),
        ParamValue::Table(entries) if entries.len() == 1 && entries[0].0 == "when_ahead_by" => {
            let ParamValue::Int(n) = entries[0].1 else {
                return Err("when_ahead_by must be an integer".into());
            };
            let mut p = Policy::new(vec![Rule {
                when: Some(lead(n)?),
                choice: Shoot(true),
            }]);
            p.name = Some(format!("when ahead by {n}"));
            Ok(p)
        }
        _ => policy::parse::<ShotRule>(v),
    }
}

/// Whether a victor leading by `lead` shoots (no rule applying: it holds).
#[inline]
pub fn shoots(p: &PartingShot, lead: i64) -> bool {
    p.choose(|a| lead >= a.0, |_| true).is_some_and(|s| s.0)
}

/// The kind of the two parting-shot keys.
pub const KIND: ParamKind = ParamKind::Custom { expects: EXPECTS };

/// `pc.parting_shot` and `opponent.parting_shot`.
pub const PARAMS: [ParamSpec; 2] = [
    ParamSpec {
        path: "pc.parting_shot",
        kind: KIND,
        default: Lit::Str("never"),
        doc: "When the PC, having just defeated the opposition, rolls one more contest against it: \"never\", \"always\", { when_ahead_by = n } (its lead in the tally is at least n), or a list of rules [{ shoot = true, when_ahead_by = n }, …]. Victory worsens the loser's tally as a round would; defeat lets the loser take that much back from the round that removed it, and return if it is back under the limit.",
    },
    ParamSpec {
        path: "opponent.parting_shot",
        kind: KIND,
        default: Lit::Str("never"),
        doc: "When the opposition takes a parting shot at a defeated PC (as `pc.parting_shot`; the text reserves parting shots for PCs, so this is for PC-against-PC sequences).",
    },
];

/// Labels of the `parting_shot` outcome field.
pub const RESULTS: [&str; 4] = ["none", "worsened", "held", "reversed"];
/// No parting shot was taken.
pub const NONE: i64 = 0;
/// The last parting shot won and worsened the defeat.
pub const WORSENED: i64 = 1;
/// The last parting shot did not win; the loser stayed out.
pub const HELD: i64 = 2;
/// A parting shot failed and brought the loser back (at least once).
pub const REVERSED: i64 = 3;

/// Who takes the shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shooter {
    Pc,
    Opponent,
}

/// A parting-shot key, for `#[serde(deserialize_with = "policy")]`.
pub fn policy<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PartingShot, D::Error> {
    crate::model::parse_value(d, parse)
}

/// The two sides' parting-shot policies.
#[derive(Clone, Debug, PartialEq)]
pub struct PartingShots {
    pub pc: PartingShot,
    pub opponent: PartingShot,
}

impl PartingShots {
    /// Neither side ever shoots.
    pub fn none() -> Self {
        PartingShots {
            pc: never(),
            opponent: never(),
        }
    }

    /// Whether `shooter`, leading by `lead`, shoots.
    #[inline]
    pub fn shoots(&self, shooter: Shooter, lead: i64) -> bool {
        match shooter {
            Shooter::Pc => shoots(&self.pc, lead),
            Shooter::Opponent => shoots(&self.opponent, lead),
        }
    }
}

/// A parting shot about to be rolled: who shoots, and what the round that
/// removed the loser cost it (the most it can take back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shot {
    pub by: Shooter,
    pub removed_by: i64,
}

impl Shot {
    /// The shot's contest as the shooter reads it.
    #[inline]
    pub fn read(self, ex: &Exchange) -> ShotResult {
        let won = match (ex.verdict, self.by) {
            (Verdict::Tie, _) => return ShotResult::Tie,
            (Verdict::Victory, Shooter::Pc) | (Verdict::Defeat, Shooter::Opponent) => true,
            _ => false,
        };
        if won {
            ShotResult::Won(ex.degree)
        } else {
            ShotResult::Lost(ex.degree)
        }
    }
}

/// A parting shot's contest, for the shooter, with its degree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShotResult {
    Won(i64),
    Tie,
    Lost(i64),
}

/// A sequence's state with what parting shots add: a shot pending (only
/// inside the round that removed the loser, so the solver never merges
/// such states), and whether a shot was ever reversed (for the outcome).
/// With both policies `never` the second is always `false`: the chain is
/// the sequence's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Phased<S> {
    pub state: S,
    pub shot: Option<Shot>,
    pub reversed: bool,
}

impl<S> Phased<S> {
    /// Before the first round.
    #[inline]
    pub fn start(state: S) -> Self {
        Phased {
            state,
            shot: None,
            reversed: false,
        }
    }

    /// The same phase with the sequence in `state`.
    #[inline]
    pub fn with(&self, state: S) -> Self {
        Phased {
            state,
            shot: None,
            reversed: self.reversed,
        }
    }

    /// This phase in one word for [`crate::model::Rounds::pack`], its
    /// state's values being `state` (at most three): `None` past 14 bits
    /// a value.
    #[inline]
    pub fn pack(&self, state: [i64; 3]) -> Option<u64> {
        let (by, removed_by) = match self.shot {
            None => (0, 0),
            Some(Shot {
                by: Shooter::Pc,
                removed_by,
            }) => (1, removed_by),
            Some(Shot {
                by: Shooter::Opponent,
                removed_by,
            }) => (-1, removed_by),
        };
        crate::model::pack_fields(&[
            (state[0], 14),
            (state[1], 14),
            (state[2], 14),
            (by, 2),
            (removed_by, 14),
            (self.reversed as i64, 2),
        ])
    }

    /// The `parting_shot` field of a sequence ending now with `last` (the
    /// result of the shot just rolled, or [`NONE`]).
    #[inline]
    pub fn result(&self, last: i64) -> i64 {
        if self.reversed { REVERSED } else { last }
    }
}

/// What a loser takes back when it wins the parting shot: what it would
/// have scored, but no more than the round that removed it cost it.
#[inline]
pub fn taken_back(would_score: i64, removed_by: i64) -> i64 {
    would_score.min(removed_by).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    use crate::systems::testing::table as t;

    #[test]
    fn the_three_forms_and_rule_lists() {
        let never = parse(&Str("never".into())).unwrap();
        let always = parse(&Str("always".into())).unwrap();
        let ahead = parse(&t(&[("when_ahead_by", Int(2))])).unwrap();
        for lead in [-3, 0, 1, 2, 9] {
            assert!(!shoots(&never, lead));
            assert!(shoots(&always, lead));
            assert_eq!(shoots(&ahead, lead), lead >= 2, "lead {lead}");
        }
        assert_eq!(ahead.label(), "when ahead by 2");
        let rules = parse(&List(vec![
            t(&[("shoot", Bool(false)), ("when_ahead_by", Int(5))]),
            t(&[("shoot", Bool(true)), ("when_ahead_by", Int(1))]),
        ]))
        .unwrap();
        assert!(!shoots(&rules, 6), "the first rule that holds decides");
        assert!(shoots(&rules, 3));
        assert!(!shoots(&rules, 0), "no rule applies: hold");
        assert_eq!(rules.label(), "hold if ahead by 5; shoot if ahead by 1");
    }

    #[test]
    fn bad_values_say_what_is_wrong() {
        assert!(parse(&Str("sometimes".into())).is_err());
        let e = parse(&t(&[("when_ahead_by", Int(-1))])).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse(&List(vec![t(&[("shot", Bool(true))])])).unwrap_err();
        assert!(e.contains("unknown key `shot`"), "{e}");
        assert!(parse(&Int(3)).is_err());
    }

    #[test]
    fn a_loser_takes_back_no_more_than_removed_it() {
        assert_eq!(taken_back(2, 3), 2);
        assert_eq!(taken_back(4, 3), 3);
        assert_eq!(taken_back(0, 3), 0);
    }
}
