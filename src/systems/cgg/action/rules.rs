//! The rule parameters shared by `cgg.action` and `cgg.tension`
//! (difficulty, risk, variants, policies) and how they are read into an
//! [`Action`].

use super::super::{Comparison, DieCode};
use super::{Action, BASE_NAMES, FailureRule, Hammer, RiskBase, Rules, WrenchPolicy};
use crate::model::Given;
use crate::systems::{Choice, Lit, ParamError, ParamKind, ParamSpec};

crate::choice! {
    /// Lacking the ability (a difficulty adjustment).
    pub enum Lacking {
        No = "no",
        Yes = "yes",
        /// A specialist is needed.
        Specialist = "specialist",
    }
}

crate::choice! {
    /// Time pressure (a difficulty adjustment).
    pub enum Time {
        Normal = "normal",
        AllTheTime = "all-the-time",
        Rushed = "rushed",
        ExtremeRush = "extreme-rush",
    }
}

crate::choice! {
    /// Help from others (a difficulty adjustment).
    pub enum Assistance {
        None = "none",
        Teamwork = "teamwork",
        Organised = "organised",
    }
}

crate::choice! {
    /// A condition of the explorer (a difficulty adjustment).
    pub enum Condition {
        None = "none",
        Impairs = "impairs",
        Enhances = "enhances",
    }
}

crate::choice! {
    /// Technological (or other) standing (a difficulty adjustment).
    pub enum Technology {
        Even = "even",
        Disadvantage = "disadvantage",
        Advantage = "advantage",
    }
}

crate::choice! {
    /// Whether the action has a risk roll.
    pub enum RiskRule {
        /// No risk roll, and no venture either.
        None = "none",
        /// A risk roll against base risk + kept difficulty dice + extra.
        Base = "base",
    }
}

impl Lacking {
    /// Difficulty dice it adds (removes, when negative).
    pub fn adjust(self) -> i64 {
        match self {
            Lacking::No => 0,
            Lacking::Yes => 1,
            Lacking::Specialist => 2,
        }
    }
}

impl Time {
    /// Difficulty dice it adds (removes, when negative).
    pub fn adjust(self) -> i64 {
        match self {
            Time::Normal => 0,
            Time::AllTheTime => -1,
            Time::Rushed => 1,
            Time::ExtremeRush => 2,
        }
    }
}

impl Assistance {
    /// Difficulty dice it adds (removes, when negative).
    pub fn adjust(self) -> i64 {
        match self {
            Assistance::None => 0,
            Assistance::Teamwork => -1,
            Assistance::Organised => -2,
        }
    }
}

impl Condition {
    /// Difficulty dice it adds (removes, when negative).
    pub fn adjust(self) -> i64 {
        match self {
            Condition::None => 0,
            Condition::Impairs => 1,
            Condition::Enhances => -1,
        }
    }
}

impl Technology {
    /// Difficulty dice it adds (removes, when negative).
    pub fn adjust(self) -> i64 {
        match self {
            Technology::Even => 0,
            Technology::Disadvantage => 1,
            Technology::Advantage => -1,
        }
    }
}

/// The parameters shared by `cgg.action` and `cgg.tension`: difficulty,
/// risk, variants and policies.
pub const RULE_PARAMS: [ParamSpec; 15] = [
    ParamSpec {
        path: "difficulty.base",
        kind: ParamKind::IntOrName {
            min: 3,
            max: 9,
            names: BASE_NAMES,
        },
        default: Lit::Int(4),
        doc: "Base difficulty dice B, 3..=9 or \"easy\", \"not-too-hard\", \"difficult\", \"serious\", \"very-hard\", \"wow\", \"godly\".",
    },
    ParamSpec {
        path: "difficulty.opponent",
        kind: super::super::CODE,
        default: Lit::Absent,
        doc: "A contest: the opponent's attribute code; B = its dice + 1 (2d..=20d+2). Replaces difficulty.base when set.",
    },
    ParamSpec {
        path: "difficulty.adjust",
        kind: ParamKind::Int { min: -12, max: 12 },
        default: Lit::Int(0),
        doc: "Signed sum of further difficulty adjustments (added to the named ones below).",
    },
    ParamSpec {
        path: "difficulty.lacking_ability",
        kind: ParamKind::Choice(Lacking::NAMES),
        default: Lit::Str("no"),
        doc: "Lacking the ability: \"yes\" +1, \"specialist\" (a specialist is needed) +2.",
    },
    ParamSpec {
        path: "difficulty.time",
        kind: ParamKind::Choice(Time::NAMES),
        default: Lit::Str("normal"),
        doc: "All the time in the world −1; rushed +1; extreme rush +2.",
    },
    ParamSpec {
        path: "difficulty.assistance",
        kind: ParamKind::Choice(Assistance::NAMES),
        default: Lit::Str("none"),
        doc: "Teamwork −1; organised assistance −2.",
    },
    ParamSpec {
        path: "difficulty.condition",
        kind: ParamKind::Choice(Condition::NAMES),
        default: Lit::Str("none"),
        doc: "A condition impairs +1 / enhances −1.",
    },
    ParamSpec {
        path: "difficulty.technology",
        kind: ParamKind::Choice(Technology::NAMES),
        default: Lit::Str("even"),
        doc: "Technological (or other) disadvantage +1 / advantage −1.",
    },
    ParamSpec {
        path: "risk",
        kind: ParamKind::Choice(RiskRule::NAMES),
        default: Lit::Str("base"),
        doc: "\"base\": a risk roll against base risk + kept difficulty dice + risk_extra; \"none\": no risk roll (no venture either).",
    },
    ParamSpec {
        path: "risk_extra",
        kind: ParamKind::Int { min: -50, max: 100 },
        default: Lit::Int(0),
        doc: "Added to the risk target (situation elements: their dice).",
    },
    ParamSpec {
        path: "comparison",
        kind: ParamKind::Choice(Comparison::NAMES),
        default: Lit::Str("ge"),
        doc: "Risk avoided on total ≥ target (\"ge\") or > target (\"gt\").",
    },
    ParamSpec {
        path: "variant.risk_base",
        kind: ParamKind::Choice(RiskBase::NAMES),
        default: Lit::Str("table"),
        doc: "Base risk: \"table\" 3B − 5 (4, 7 … 22); \"example\" 3B − 3 (the text's \"4d gives 9\").",
    },
    ParamSpec {
        path: "variant.failure",
        kind: ParamKind::Choice(FailureRule::NAMES),
        default: Lit::Str("procedure"),
        doc: "Failure dice: \"procedure\" those showing 1..3; \"half\" those showing 1..5 (risk still raised by the 1..3s).",
    },
    ParamSpec {
        path: "policy.wrench",
        kind: ParamKind::Custom {
            expects: super::wrench::EXPECTS,
        },
        default: Lit::Str("greedy"),
        doc: "Player: \"greedy\" spends venture where it changes the outcome, cheapest first; \"deny\" greedy, then the rest on any legal use so the Exec gets as little as possible; \"none\" never. Or rules `{ use = \"…\", when = { … } }` on the failures, the risk still short, the venture left and the dice on the table, one use at a time (the form best play writes).",
    },
    ParamSpec {
        path: "policy.hammer",
        kind: ParamKind::Choice(Hammer::NAMES),
        default: Lit::Str("always"),
        doc: "Exec, with the venture left: \"always\" \"Can't do it!\" (+1 failure) then a condition, gear, incapacitation by cost; \"only-on-success\" the same with \"Can't do it!\" only when the action would succeed; \"conditions\" never a failure; \"none\".",
    },
];

/// The rule keys ([`RULE_PARAMS`]) as read, each with whether the
/// scenario set it: a session's action entry sets some of them over the
/// session's ([`RuleKeys::overlay`]).
#[derive(Clone, Copy, Debug)]
pub struct RuleKeys {
    pub base: Given<u32>,
    pub opponent: Option<DieCode>,
    pub adjust: Given<i64>,
    pub lacking_ability: Given<Lacking>,
    pub time: Given<Time>,
    pub assistance: Given<Assistance>,
    pub condition: Given<Condition>,
    pub technology: Given<Technology>,
    pub risk: Given<RiskRule>,
    pub risk_extra: Given<i64>,
    pub comparison: Given<Comparison>,
    pub risk_base: Given<RiskBase>,
    pub failure: Given<FailureRule>,
    pub wrench: Given<WrenchPolicy>,
    pub hammer: Given<Hammer>,
}

impl RuleKeys {
    /// The keys that have no effect given the others: `difficulty.base`
    /// beside `difficulty.opponent`, and with no risk roll (`risk =
    /// "none"`) the risk target's keys and the venture policies (no risk
    /// roll rolls no venture).
    pub fn idle(&self) -> Vec<&'static str> {
        let mut idle = Vec::new();
        if self.opponent.is_some() {
            idle.push("difficulty.base");
        }
        if self.risk.value == RiskRule::None {
            idle.extend([
                "risk_extra",
                "comparison",
                "variant.risk_base",
                "policy.wrench",
                "policy.hammer",
            ]);
        }
        idle
    }
}

/// `over`'s value where it was set, else `under`'s.
pub fn over<T>(under: Given<T>, over: Given<T>) -> Given<T> {
    if over.given {
        Given {
            value: over.value,
            given: true,
        }
    } else {
        under
    }
}

impl RuleKeys {
    /// These keys with those `entry` sets in their place.
    pub fn overlay(self, entry: RuleKeys) -> RuleKeys {
        RuleKeys {
            base: over(self.base, entry.base),
            opponent: entry.opponent.or(self.opponent),
            adjust: over(self.adjust, entry.adjust),
            lacking_ability: over(self.lacking_ability, entry.lacking_ability),
            time: over(self.time, entry.time),
            assistance: over(self.assistance, entry.assistance),
            condition: over(self.condition, entry.condition),
            technology: over(self.technology, entry.technology),
            risk: over(self.risk, entry.risk),
            risk_extra: over(self.risk_extra, entry.risk_extra),
            comparison: over(self.comparison, entry.comparison),
            risk_base: over(self.risk_base, entry.risk_base),
            failure: over(self.failure, entry.failure),
            wrench: over(self.wrench, entry.wrench),
            hammer: over(self.hammer, entry.hammer),
        }
    }
}

/// A params struct with one field per path of [`RULE_PARAMS`] (each a
/// [`Given`]) and the mechanic's own fields, written as in any params
/// struct; its `rules()` is what the rule fields say, as [`RuleKeys`].
macro_rules! rule_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(rename = "difficulty.base")]
            pub difficulty_base: $crate::model::Given<u32>,
            #[serde(rename = "difficulty.opponent", default)]
            pub difficulty_opponent: Option<$crate::systems::cgg::DieCode>,
            #[serde(rename = "difficulty.adjust")]
            pub difficulty_adjust: $crate::model::Given<i64>,
            #[serde(rename = "difficulty.lacking_ability")]
            pub difficulty_lacking_ability:
                $crate::model::Given<$crate::systems::cgg::action::rules::Lacking>,
            #[serde(rename = "difficulty.time")]
            pub difficulty_time: $crate::model::Given<$crate::systems::cgg::action::rules::Time>,
            #[serde(rename = "difficulty.assistance")]
            pub difficulty_assistance:
                $crate::model::Given<$crate::systems::cgg::action::rules::Assistance>,
            #[serde(rename = "difficulty.condition")]
            pub difficulty_condition:
                $crate::model::Given<$crate::systems::cgg::action::rules::Condition>,
            #[serde(rename = "difficulty.technology")]
            pub difficulty_technology:
                $crate::model::Given<$crate::systems::cgg::action::rules::Technology>,
            pub risk: $crate::model::Given<$crate::systems::cgg::action::rules::RiskRule>,
            pub risk_extra: $crate::model::Given<i64>,
            pub comparison: $crate::model::Given<$crate::systems::cgg::Comparison>,
            #[serde(rename = "variant.risk_base")]
            pub variant_risk_base: $crate::model::Given<$crate::systems::cgg::action::RiskBase>,
            #[serde(rename = "variant.failure")]
            pub variant_failure: $crate::model::Given<$crate::systems::cgg::action::FailureRule>,
            #[serde(rename = "policy.wrench")]
            pub policy_wrench: $crate::model::Given<$crate::systems::cgg::action::WrenchPolicy>,
            #[serde(rename = "policy.hammer")]
            pub policy_hammer: $crate::model::Given<$crate::systems::cgg::action::Hammer>,
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// What the rule keys say.
            pub fn rules(&self) -> $crate::systems::cgg::action::rules::RuleKeys {
                $crate::systems::cgg::action::rules::RuleKeys {
                    base: self.difficulty_base,
                    opponent: self.difficulty_opponent,
                    adjust: self.difficulty_adjust,
                    lacking_ability: self.difficulty_lacking_ability,
                    time: self.difficulty_time,
                    assistance: self.difficulty_assistance,
                    condition: self.difficulty_condition,
                    technology: self.difficulty_technology,
                    risk: self.risk,
                    risk_extra: self.risk_extra,
                    comparison: self.comparison,
                    risk_base: self.variant_risk_base,
                    failure: self.variant_failure,
                    wrench: self.policy_wrench,
                    hammer: self.policy_hammer,
                }
            }
        }
    };
}
pub(crate) use rule_params;

/// The difficulty, risk and rule keys (see [`RULE_PARAMS`]) read into an
/// action for an explorer with `success_dice` and risk code `risk_code`.
pub fn action_from(
    keys: &RuleKeys,
    success_dice: u32,
    risk_code: DieCode,
    hours_before: u32,
) -> Result<Action, ParamError> {
    let base = if let Some(opp) = keys.opponent {
        if keys.base.given {
            return Err(ParamError::new(
                "difficulty.opponent",
                "give either difficulty.base or difficulty.opponent, not both",
            ));
        }
        if !(2..=20).contains(&opp.dice()) {
            return Err(ParamError::new(
                "difficulty.opponent",
                format!("{opp} is out of range; allowed: a die code 2d..=20d+2"),
            ));
        }
        opp.dice() + 1
    } else {
        keys.base.value
    };
    let condition = keys.condition.value;
    let adjust = keys.adjust.value
        + keys.lacking_ability.value.adjust()
        + keys.time.value.adjust()
        + keys.assistance.value.adjust()
        + condition.adjust()
        + keys.technology.value.adjust();
    let rules = Rules {
        risk_base: keys.risk_base.value,
        failure: keys.failure.value,
        wrench: keys.wrench.value,
        hammer: keys.hammer.value,
        comparison: keys.comparison.value,
    };
    let risk_code = match keys.risk.value {
        RiskRule::None => None,
        RiskRule::Base => Some(risk_code),
    };
    Ok(Action {
        success_dice,
        risk_code,
        base,
        adjust,
        impaired: condition == Condition::Impairs,
        risk_extra: keys.risk_extra.value,
        hours_before,
        rules,
    })
}
