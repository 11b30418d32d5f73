//! The rule parameters shared by `cgg.action` and `cgg.tension`
//! (difficulty, risk, variants, policies) and how they are read into an
//! [`Action`].

use super::action::{Action, BASE_NAMES, FailureRule, Hammer, RiskBase, Rules, Wrench};
use super::{Comparison, DieCode, read_code};
use crate::systems::{Args, Lit, ParamError, ParamKind, ParamSpec};

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
        kind: ParamKind::Custom {
            expects: super::CODE_EXPECTS,
            check: super::check_code,
        },
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
        kind: ParamKind::Choice(&["no", "yes", "specialist"]),
        default: Lit::Str("no"),
        doc: "Lacking the ability: \"yes\" +1, \"specialist\" (a specialist is needed) +2.",
    },
    ParamSpec {
        path: "difficulty.time",
        kind: ParamKind::Choice(&["normal", "all-the-time", "rushed", "extreme-rush"]),
        default: Lit::Str("normal"),
        doc: "All the time in the world −1; rushed +1; extreme rush +2.",
    },
    ParamSpec {
        path: "difficulty.assistance",
        kind: ParamKind::Choice(&["none", "teamwork", "organised"]),
        default: Lit::Str("none"),
        doc: "Teamwork −1; organised assistance −2.",
    },
    ParamSpec {
        path: "difficulty.condition",
        kind: ParamKind::Choice(&["none", "impairs", "enhances"]),
        default: Lit::Str("none"),
        doc: "A condition impairs +1 / enhances −1.",
    },
    ParamSpec {
        path: "difficulty.technology",
        kind: ParamKind::Choice(&["even", "disadvantage", "advantage"]),
        default: Lit::Str("even"),
        doc: "Technological (or other) disadvantage +1 / advantage −1.",
    },
    ParamSpec {
        path: "risk",
        kind: ParamKind::Choice(&["none", "base"]),
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
        kind: ParamKind::Choice(&["ge", "gt"]),
        default: Lit::Str("ge"),
        doc: "Risk avoided on total ≥ target (\"ge\") or > target (\"gt\").",
    },
    ParamSpec {
        path: "variant.risk_base",
        kind: ParamKind::Choice(&["table", "example"]),
        default: Lit::Str("table"),
        doc: "Base risk: \"table\" 3B − 5 (4, 7 … 22); \"example\" 3B − 3 (the text's \"4d gives 9\").",
    },
    ParamSpec {
        path: "variant.failure",
        kind: ParamKind::Choice(&["procedure", "half"]),
        default: Lit::Str("procedure"),
        doc: "Failure dice: \"procedure\" those showing 1..3; \"half\" those showing 1..5 (risk still raised by the 1..3s).",
    },
    ParamSpec {
        path: "policy.wrench",
        kind: ParamKind::Choice(&["none", "greedy"]),
        default: Lit::Str("greedy"),
        doc: "Player: \"greedy\" spends venture where it avoids the risk or removes failures; \"none\" never.",
    },
    ParamSpec {
        path: "policy.hammer",
        kind: ParamKind::Choice(&["none", "always", "only-on-success"]),
        default: Lit::Str("always"),
        doc: "Exec: \"Can't do it!\" (+1 failure) with leftover venture: always, only when the action would succeed, or never.",
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
    let pick = |path: &str, table: &[(&str, i64)]| -> Result<i64, ParamError> {
        let name = args.choice(path)?;
        Ok(table
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or(0))
    };
    let adjust = args.int("difficulty.adjust")?
        + pick(
            "difficulty.lacking_ability",
            &[("no", 0), ("yes", 1), ("specialist", 2)],
        )?
        + pick(
            "difficulty.time",
            &[("all-the-time", -1), ("rushed", 1), ("extreme-rush", 2)],
        )?
        + pick(
            "difficulty.assistance",
            &[("teamwork", -1), ("organised", -2)],
        )?
        + pick("difficulty.condition", &[("impairs", 1), ("enhances", -1)])?
        + pick(
            "difficulty.technology",
            &[("disadvantage", 1), ("advantage", -1)],
        )?;
    let rules = Rules {
        risk_base: match args.choice("variant.risk_base")?.as_str() {
            "example" => RiskBase::Example,
            _ => RiskBase::Table,
        },
        failure: match args.choice("variant.failure")?.as_str() {
            "half" => FailureRule::Half,
            _ => FailureRule::Procedure,
        },
        wrench: match args.choice("policy.wrench")?.as_str() {
            "none" => Wrench::None,
            _ => Wrench::Greedy,
        },
        hammer: match args.choice("policy.hammer")?.as_str() {
            "none" => Hammer::None,
            "only-on-success" => Hammer::OnlyOnSuccess,
            _ => Hammer::Always,
        },
        comparison: Comparison::read(args, "comparison")?,
    };
    Ok(Action {
        success_dice,
        risk_code: (args.choice("risk")? == "base").then_some(risk_code),
        base,
        adjust,
        risk_extra: args.int("risk_extra")?,
        hours_before,
        rules,
    })
}
