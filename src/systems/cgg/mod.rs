//! `cgg`: pip-capped d6 risk rolls, Exec d10 failure dice and venture
//! (rules §3).
//!
//! The player rolls a die code in d6 for risk (6s are discarded as
//! venture); the Exec rolls the remaining difficulty dice in d10 for
//! failure. One file per mechanic: [`risk`] (the bare risk roll),
//! [`action`] (difficulty, failure dice, venture policies, stunts),
//! [`fallout`], [`diligence`], [`tension`] (the multi-round pitfall
//! track) and [`session`] (the crisis clock over many actions); [`code`] is the die-code type they share and [`rules`] the
//! parameters action and tension share.

pub mod action;
pub mod code;
pub mod diligence;
pub mod fallout;
pub mod risk;
pub mod session;
pub mod tension;

/// Hours on an explorer's full clock: one role, two roles (the session
/// keeps it, a tension scene starts from it).
pub const FULL: [u32; 2] = [12, 9];

pub use code::DieCode;

use crate::systems::{Lit, ParamKind, ParamSpec, ParamValue};

/// What a die-code parameter accepts, in words.
pub const CODE_EXPECTS: &str = "a die code like \"4d\", \"3d+2\" or \"0d+1\"";

/// The kind of a die-code parameter.
pub const CODE: ParamKind = ParamKind::Custom {
    expects: CODE_EXPECTS,
};

/// The die code a parameter value writes.
pub fn code_of(v: &ParamValue) -> Result<DieCode, String> {
    match v {
        ParamValue::Str(s) => s.parse(),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

/// A die code inside a table (an explorer).
impl TryFrom<ParamValue> for DieCode {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<DieCode, String> {
        code_of(&v)
    }
}

/// A die-code parameter at `path` with a default.
pub const fn code_param(path: &'static str, default: &'static str, doc: &'static str) -> ParamSpec {
    ParamSpec {
        path,
        kind: CODE,
        default: Lit::Str(default),
        doc,
    }
}

/// How a risk total is compared with its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// total ≥ target (the text).
    Ge,
    /// total > target (variant).
    Gt,
}

crate::choice!(Comparison {
    Ge = "ge",
    Gt = "gt",
});

impl Comparison {
    #[inline(always)]
    pub fn meets(self, total: i64, target: i64) -> bool {
        match self {
            Comparison::Ge => total >= target,
            Comparison::Gt => total > target,
        }
    }
}
