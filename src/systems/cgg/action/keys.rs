//! The keys of one explorer's action: `cgg.action`'s parameters (the
//! explorer and the stunt, then the shared rule keys), the params struct
//! every mechanic that plays actions embeds ([`action_params!`]), and
//! what those keys say ([`ActionKeys`]): the action they describe, and
//! which of them have no effect given the others.

use super::Action;
use super::rules::{self, RULE_PARAMS, RuleKeys, action_from};
use crate::model::Given;
use crate::systems::cgg::{DieCode, code_param};
use crate::systems::{Lit, ParamError, ParamKind, ParamSpec};

/// The parameters of `cgg.action`: the explorer and stunt, then the
/// shared rule parameters.
pub const PARAMS: [ParamSpec; 19] = [
    code_param(
        "explorer.code",
        "3d",
        "The explorer's attribute code: its dice are removed from the difficulty.",
    ),
    ParamSpec {
        path: "explorer.risk_code",
        kind: crate::systems::cgg::CODE,
        default: Lit::Absent,
        doc: "The code rolled for risk; defaults to explorer.code.",
    },
    ParamSpec {
        path: "stunt.paid",
        kind: ParamKind::Bool,
        default: Lit::Bool(false),
        doc: "A stunt: pay one hour for +1d to the success code.",
    },
    ParamSpec {
        path: "stunt.moved",
        kind: ParamKind::Int { min: 0, max: 9 },
        default: Lit::Int(0),
        doc: "Stunt: dice moved from the risk code to the success code (mastery; aspects up to 3). Needs stunt.paid.",
    },
    RULE_PARAMS[0],
    RULE_PARAMS[1],
    RULE_PARAMS[2],
    RULE_PARAMS[3],
    RULE_PARAMS[4],
    RULE_PARAMS[5],
    RULE_PARAMS[6],
    RULE_PARAMS[7],
    RULE_PARAMS[8],
    RULE_PARAMS[9],
    RULE_PARAMS[10],
    RULE_PARAMS[11],
    RULE_PARAMS[12],
    RULE_PARAMS[13],
    RULE_PARAMS[14],
];

pub(super) static STATIC_PARAMS: [ParamSpec; 19] = PARAMS;

/// A params struct with [`rules::rule_params!`]'s fields, the four keys
/// of one explorer's action (`explorer.code`, `explorer.risk_code`,
/// `stunt.paid`, `stunt.moved`) and the mechanic's own fields; its
/// `keys()` is what the action's keys say, as [`ActionKeys`].
macro_rules! action_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $crate::systems::cgg::action::rules::rule_params! {
            $(#[$meta])*
            pub struct $name {
                #[serde(rename = "explorer.code")]
                pub explorer_code: $crate::model::Given<$crate::systems::cgg::DieCode>,
                #[serde(rename = "explorer.risk_code", default)]
                pub explorer_risk_code: Option<$crate::systems::cgg::DieCode>,
                #[serde(rename = "stunt.paid")]
                pub stunt_paid: $crate::model::Given<bool>,
                #[serde(rename = "stunt.moved")]
                pub stunt_moved: $crate::model::Given<u32>,
                $($(#[$fmeta])* pub $field: $ty,)*
            }
        }

        impl $name {
            /// What the action's keys say.
            pub fn keys(&self) -> $crate::systems::cgg::action::ActionKeys {
                $crate::systems::cgg::action::ActionKeys {
                    code: self.explorer_code,
                    risk_code: self.explorer_risk_code,
                    paid: self.stunt_paid,
                    moved: self.stunt_moved,
                    rules: self.rules(),
                }
            }
        }
    };
}

pub(crate) use action_params;

action_params! {
    /// The parameters of `cgg.action`, one field per path of [`PARAMS`].
    pub struct ActionParams {}
}

/// The keys of one action ([`PARAMS`]) as read, each with whether the
/// scenario set it: a session's action entry sets some of them over the
/// session's ([`ActionKeys::overlay`]).
#[derive(Clone, Copy, Debug)]
pub struct ActionKeys {
    /// `explorer.code`.
    pub code: Given<DieCode>,
    /// `explorer.risk_code`.
    pub risk_code: Option<DieCode>,
    /// `stunt.paid`.
    pub paid: Given<bool>,
    /// `stunt.moved`.
    pub moved: Given<u32>,
    pub rules: RuleKeys,
}

impl ActionKeys {
    /// These keys with those `entry` sets in their place.
    pub fn overlay(self, entry: ActionKeys) -> ActionKeys {
        ActionKeys {
            code: rules::over(self.code, entry.code),
            risk_code: entry.risk_code.or(self.risk_code),
            paid: rules::over(self.paid, entry.paid),
            moved: rules::over(self.moved, entry.moved),
            rules: self.rules.overlay(entry.rules),
        }
    }

    /// The keys that have no effect given the others: the rule keys'
    /// ([`RuleKeys::idle`]), and `explorer.risk_code` with no risk roll
    /// unless a stunt moves dice from it.
    pub fn idle(&self) -> Vec<&'static str> {
        let mut idle = self.rules.idle();
        if self.rules.risk.value == rules::RiskRule::None && self.moved.value == 0 {
            idle.push("explorer.risk_code");
        }
        idle
    }

    /// The action the keys describe.
    pub fn action(&self) -> Result<Action, ParamError> {
        let code = self.code.value;
        let risk_code = self.risk_code.unwrap_or(code);
        let (paid, moved) = (self.paid.value, self.moved.value);
        if moved > 0 && !paid {
            return Err(ParamError::new(
                "stunt.moved",
                "moving dice is part of a stunt; set stunt.paid = true",
            ));
        }
        if moved > risk_code.dice() {
            return Err(ParamError::new(
                "stunt.moved",
                format!("{moved} is more dice than the risk code {risk_code} has"),
            ));
        }
        let (success_dice, risk_code) = stunt(code, risk_code, paid, moved);
        action_from(&self.rules, success_dice, risk_code, paid as u32)
    }
}

/// Success dice and risk code after a stunt (§3.5): paying adds 1d to
/// success, then `moved` dice go from the risk code to the success code.
pub fn stunt(code: DieCode, risk_code: DieCode, paid: bool, moved: u32) -> (u32, DieCode) {
    let success = code.dice() + paid as u32 + moved;
    (success, risk_code.add_dice(-(moved as i64)))
}
