//! The rule parameters shared by `cgg.action` and `cgg.tension`
//! (difficulty, risk, variants, policies) and how they are read into an
//! [`Action`].

use super::super::{Comparison, DieCode, read_code};
use super::{Action, BASE_NAMES, FailureRule, Hammer, RiskBase, Rules, Wrench};
use crate::systems::{Args, Choice, Lit, ParamError, ParamKind, ParamSpec};

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
        kind: ParamKind::Choice(Wrench::NAMES),
        default: Lit::Str("greedy"),
        doc: "Player: \"greedy\" spends venture where it changes the outcome, cheapest first; \"deny\" greedy, then the rest on any legal use so the Exec gets as little as possible; \"none\" never.",
    },
    ParamSpec {
        path: "policy.hammer",
        kind: ParamKind::Choice(Hammer::NAMES),
        default: Lit::Str("always"),
        doc: "Exec, with the venture left: \"always\" \"Can't do it!\" (+1 failure) then a condition, gear, incapacitation by cost; \"only-on-success\" the same with \"Can't do it!\" only when the action would succeed; \"conditions\" never a failure; \"none\".",
    },
];

/// The difficulty, risk and rule keys (see [`RULE_PARAMS`]) read into an
/// action for an explorer with `success_dice` and risk code `risk_code`.
pub fn action_from(
    args: &Args,
    success_dice: u32,
    risk_code: DieCode,
    hours_before: u32,
) -> Result<Action, ParamError> {
    let base = if args.is_set("difficulty.opponent") {
        if args.is_set("difficulty.base") {
            return Err(ParamError::new(
                "difficulty.opponent",
                "give either difficulty.base or difficulty.opponent, not both",
            ));
        }
        let opp = read_code(args, "difficulty.opponent")?;
        if !(2..=20).contains(&opp.dice()) {
            return Err(ParamError::new(
                "difficulty.opponent",
                format!("{opp} is out of range; allowed: a die code 2d..=20d+2"),
            ));
        }
        opp.dice() + 1
    } else {
        args.int("difficulty.base")? as u32
    };
    let condition = args.choice_of::<Condition>("difficulty.condition")?;
    let adjust = args.int("difficulty.adjust")?
        + args
            .choice_of::<Lacking>("difficulty.lacking_ability")?
            .adjust()
        + args.choice_of::<Time>("difficulty.time")?.adjust()
        + args
            .choice_of::<Assistance>("difficulty.assistance")?
            .adjust()
        + condition.adjust()
        + args
            .choice_of::<Technology>("difficulty.technology")?
            .adjust();
    let rules = Rules {
        risk_base: args.choice_of("variant.risk_base")?,
        failure: args.choice_of("variant.failure")?,
        wrench: args.choice_of("policy.wrench")?,
        hammer: args.choice_of("policy.hammer")?,
        comparison: args.choice_of("comparison")?,
    };
    let risk_code = match args.choice_of("risk")? {
        RiskRule::None => None,
        RiskRule::Base => Some(risk_code),
    };
    Ok(Action {
        success_dice,
        risk_code,
        base,
        adjust,
        impaired: condition == Condition::Impairs,
        risk_extra: args.int("risk_extra")?,
        hours_before,
        rules,
    })
}
