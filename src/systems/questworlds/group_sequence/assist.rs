//! The `assist` policy of a group sequence (rules §4.6, [5.1.10]): what
//! an unengaged member does when no opponent is free to pair with — join an
//! engaged opponent, or assist the most pressed teammate. Written in the
//! shared policy module's form ([`crate::systems::policy`]):
//!
//! ```toml
//! assist = "never"                     # always join (the default)
//! assist = "always"                    # always assist
//! assist = { when_pressed = 2 }        # assist a teammate pressed by 2+
//! assist = [{ assist = true, when_pressed = 3, ap = 5 }, { assist = false }]
//! ```
//!
//! "Pressed" is how far the teammate is from where it started: RP against
//! it (scored), AP it has lost (wagered), resolve it has lost (chained).
//! `ap` is what a wagered assist transfers (default 3); a helper never
//! gives so much that it would drop to 0 AP.

use std::fmt;

use serde::Deserialize;

use crate::systems::ParamValue;
use crate::systems::policy::{self, Policy, Rule, RuleSyntax};

/// AP a wagered assist transfers unless the rule says.
pub const DEFAULT_AP: i64 = 3;
/// The largest `when_pressed` and `ap`.
const MAX: i64 = 400;

/// A rule's condition: the teammate is pressed by at least this much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pressed(pub i64);

impl fmt::Display for Pressed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pressed by {}", self.0)
    }
}

/// A rule's choice: assist (transferring `ap` in a wagered sequence) or join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Help {
    pub assist: bool,
    pub ap: i64,
}

impl fmt::Display for Help {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.assist, self.ap) {
            (false, _) => f.write_str("join"),
            (true, DEFAULT_AP) => f.write_str("assist"),
            (true, ap) => write!(f, "assist {ap} AP"),
        }
    }
}

/// An assist policy.
pub type AssistPolicy = Policy<Pressed, Help>;

/// What `assist` accepts.
pub const EXPECTS: &str = "\"never\" (join), \"always\", { when_pressed = n }, or a list of rules [{ assist = true, when_pressed = n, ap = n }, …] (n in 0..=400)";

/// One rule as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AssistRule {
    assist: bool,
    #[serde(default)]
    when_pressed: Option<i64>,
    #[serde(default)]
    ap: Option<i64>,
}

fn in_range(key: &str, n: i64, min: i64) -> Result<i64, String> {
    if (min..=MAX).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{key} = {n} is out of range {min}..={MAX}"))
    }
}

impl RuleSyntax for AssistRule {
    const KEYS: &'static [&'static str] = &["assist", "when_pressed", "ap"];
    type When = Pressed;
    type Choice = Help;

    fn into_rule(self) -> Result<Rule<Pressed, Help>, String> {
        Ok(Rule {
            when: self
                .when_pressed
                .map(|n| in_range("when_pressed", n, 0).map(Pressed))
                .transpose()?,
            choice: Help {
                assist: self.assist,
                ap: in_range("ap", self.ap.unwrap_or(DEFAULT_AP), 1)?,
            },
        })
    }
}

/// One rule, always holding.
fn only(assist: bool) -> AssistPolicy {
    Policy::new(vec![Rule {
        when: None,
        choice: Help {
            assist,
            ap: DEFAULT_AP,
        },
    }])
}

/// Parse an assist policy: two names and a one-key table are shorthands
/// for rule lists, which go through the shared parser.
pub fn parse(v: &ParamValue) -> Result<AssistPolicy, String> {
    match v {
        ParamValue::Str(s) if s == "never" => Ok(only(false)),
        ParamValue::Str(s) if s == "always" => Ok(only(true)),
        ParamValue::Str(s) => Err(format!("\"{s}\" is not an assist policy")),
        ParamValue::Table(entries) if entries.len() == 1 && entries[0].0 == "when_pressed" => {
            let ParamValue::Int(n) = entries[0].1 else {
                return Err("when_pressed must be an integer".into());
            };
            let mut p = Policy::new(vec![Rule {
                when: Some(Pressed(in_range("when_pressed", n, 0)?)),
                choice: Help {
                    assist: true,
                    ap: DEFAULT_AP,
                },
            }]);
            p.name = Some(format!("when pressed by {n}"));
            Ok(p)
        }
        _ => policy::parse::<AssistRule>(v),
    }
}

/// What a helper does for a teammate pressed by `pressed`, when `gives`
/// says whether it can spare the AP of a choice: `Some(ap)` to assist,
/// `None` to join (no rule applies: join).
#[inline]
pub fn decide(p: &AssistPolicy, pressed: i64, gives: impl Fn(i64) -> bool) -> Option<i64> {
    p.choose(|w| pressed >= w.0, |h| !h.assist || gives(h.ap))
        .filter(|h| h.assist)
        .map(|h| h.ap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    use crate::systems::testing::table as t;

    #[test]
    fn shorthands_and_rules() {
        let any = |_| true;
        assert_eq!(decide(&parse(&Str("never".into())).unwrap(), 9, any), None);
        assert_eq!(
            decide(&parse(&Str("always".into())).unwrap(), 0, any),
            Some(3)
        );
        let pressed = parse(&t(&[("when_pressed", Int(2))])).unwrap();
        assert_eq!(decide(&pressed, 1, any), None);
        assert_eq!(decide(&pressed, 2, any), Some(3));
        assert_eq!(pressed.label(), "when pressed by 2");
        let rules = parse(&List(vec![
            t(&[
                ("assist", Bool(true)),
                ("when_pressed", Int(5)),
                ("ap", Int(8)),
            ]),
            t(&[("assist", Bool(true)), ("ap", Int(2))]),
        ]))
        .unwrap();
        assert_eq!(decide(&rules, 6, any), Some(8));
        assert_eq!(
            decide(&rules, 6, |ap| ap < 5),
            Some(2),
            "8 AP cannot be spared"
        );
        assert_eq!(decide(&rules, 0, |_| false), None, "nothing to spare: join");
        assert_eq!(rules.label(), "assist 8 AP if pressed by 5; assist 2 AP");
    }

    #[test]
    fn bad_policies_say_what_is_wrong() {
        assert!(parse(&Str("sometimes".into())).is_err());
        let e = parse(&t(&[("when_pressed", Int(-1))])).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse(&List(vec![t(&[("assist", Bool(true)), ("ap", Int(0))])])).unwrap_err();
        assert!(e.contains("ap = 0 is out of range 1..=400"), "{e}");
        let e = parse(&List(vec![t(&[("asist", Bool(true))])])).unwrap_err();
        assert!(e.contains("unknown key `asist`"), "{e}");
        assert!(parse(&Bool(true)).is_err());
    }
}
