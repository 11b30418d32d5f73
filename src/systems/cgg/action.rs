//! The full action (RULES.md §3.3–3.5) and the mechanic `cgg.action`.
//!
//! The Exec rolls the remaining difficulty dice in d10 for failure and to
//! raise the risk target; the player rolls the risk code in d6; then
//! venture is spent, wrench (player) first and hammer (Exec) with what is
//! left, each use at most once. Both policies are deterministic functions
//! of the dice, so the only randomness after the two rolls is the re-roll
//! of "I'm that good!": the exact solver is the two rolls' joint law with
//! a binomial re-roll convolved in where the policy asks for one.

use super::risk::{RiskTable, roll as risk_roll};
pub use super::rules::{RULE_PARAMS, action_from};
use super::{Comparison, DieCode, code_param, read_code};
use crate::dice::DiceRng;
use crate::dist::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Args, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Pred, Schema, Trial,
};

/// "You can never have more than six dice of difficulty."
pub const MAX_DIFFICULTY_DICE: u32 = 6;
/// "That was close!" adds this to the risk total.
pub const CLOSE_BONUS: i64 = 5;
/// Base difficulty names (the challenge-level column of the table).
pub const BASE_NAMES: &[(&str, i64)] = &[
    ("easy", 3),
    ("not-too-hard", 4),
    ("difficult", 5),
    ("serious", 6),
    ("very-hard", 7),
    ("wow", 8),
    ("godly", 9),
];

/// Base risk for a base difficulty B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RiskBase {
    /// The table: 4, 7, … 22 for B = 3..9, i.e. 3B − 5.
    Table,
    /// The worked example ("4d, risk base is 9"): 3B − 3.
    Example,
}

crate::choice!(RiskBase {
    Table = "table",
    Example = "example",
});

impl RiskBase {
    pub fn risk(self, base: u32) -> i64 {
        let b = 3 * base as i64;
        match self {
            RiskBase::Table => b - 5,
            RiskBase::Example => b - 3,
        }
    }
}

/// Which difficulty dice count as failures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureRule {
    /// The step-by-step procedure: dice showing 1..3 are kept; failure is
    /// their number.
    Procedure,
    /// The summary sentence: dice showing 1..5 fail ("50% each").
    Half,
}

crate::choice!(FailureRule {
    Procedure = "procedure",
    Half = "half",
});

impl FailureRule {
    /// The highest face that counts as a failure.
    pub fn highest_failing(self) -> u32 {
        match self {
            FailureRule::Procedure => 3,
            FailureRule::Half => 5,
        }
    }
}

/// Faces of a difficulty die kept to raise the risk (both rules).
pub const HIGHEST_KEPT: u32 = 3;

/// The player's wrench policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrench {
    None,
    /// Spend where a use changes the outcome or removes a failure, in this
    /// order: "That was close!" when +5 turns a failed risk into avoided;
    /// then, with one failure, "Gotta make it!"; with two or more, "I'm
    /// that good!" (re-roll the failure dice) and then "Gotta make it!" if
    /// failures remain.
    Greedy,
}

crate::choice!(Wrench {
    None = "none",
    Greedy = "greedy",
});

/// The Exec's hammer policy ("Can't do it!": one more failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hammer {
    None,
    /// Whenever venture is left.
    Always,
    /// Only when the action would otherwise succeed.
    OnlyOnSuccess,
}

crate::choice!(Hammer {
    None = "none",
    Always = "always",
    OnlyOnSuccess = "only-on-success",
});

/// The rule variants and policies of an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub risk_base: RiskBase,
    pub failure: FailureRule,
    pub wrench: Wrench,
    pub hammer: Hammer,
    pub comparison: Comparison,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            risk_base: RiskBase::Table,
            failure: FailureRule::Procedure,
            wrench: Wrench::Greedy,
            hammer: Hammer::Always,
            comparison: Comparison::Ge,
        }
    }
}

/// One fully resolved action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    /// Dice of the success code (stunt included).
    pub success_dice: u32,
    /// The code rolled for risk (stunt included); `None`: no risk.
    pub risk_code: Option<DieCode>,
    /// Base difficulty B.
    pub base: u32,
    /// Sum of the difficulty adjustments.
    pub adjust: i64,
    /// Added to the risk target.
    pub risk_extra: i64,
    /// Hours paid before the roll (a stunt's one).
    pub hours_before: u32,
    pub rules: Rules,
}

/// Field indices of an action's outcome.
pub mod field {
    pub const FAILURES: usize = 0;
    pub const SUCCESS: usize = 1;
    pub const AVOIDED: usize = 2;
    pub const CLEAN: usize = 3;
    pub const VENTURE: usize = 4;
    pub const VENTURE_LEFT: usize = 5;
    pub const WRENCH_USED: usize = 6;
    pub const HAMMER_USED: usize = 7;
    pub const HOURS_PAID: usize = 8;
    pub const HOURS_GAINED: usize = 9;
    pub const COUNT: usize = 10;
}

/// One action's outcome, in [`field`] order.
pub type Outcome = [i64; field::COUNT];

/// What the wrench decided before any re-roll.
#[derive(Clone, Copy, Debug)]
struct Pre {
    venture: u32,
    avoided: bool,
    close: bool,
    reroll: bool,
    /// Venture left after these uses.
    left: u32,
}

impl Action {
    /// K: difficulty dice left after the explorer's success dice, 0..=6.
    pub fn difficulty_dice(&self) -> u32 {
        (self.base as i64 + self.adjust - self.success_dice as i64)
            .clamp(0, MAX_DIFFICULTY_DICE as i64) as u32
    }

    /// The risk target before the difficulty dice raise it.
    pub fn base_target(&self) -> i64 {
        self.rules.risk_base.risk(self.base) + self.risk_extra
    }

    /// Exact law of the Exec's roll: `(failures, risk increase, p)`.
    pub fn exec_table(&self) -> Vec<(u32, i64, f64)> {
        let k = self.difficulty_dice() as usize;
        let fail = self.rules.failure.highest_failing();
        // w[f][inc], integer counts over 10^K rolls.
        let max_inc = HIGHEST_KEPT as usize * k;
        let mut w = vec![vec![0u64; max_inc + 1]; k + 1];
        w[0][0] = 1;
        for _ in 0..k {
            let mut next = vec![vec![0u64; max_inc + 1]; k + 1];
            for f in 0..=k {
                for inc in 0..=max_inc {
                    let n = w[f][inc];
                    if n == 0 {
                        continue;
                    }
                    for face in 1..=10u32 {
                        let fails = face <= fail;
                        let add = if face <= HIGHEST_KEPT {
                            face as usize
                        } else {
                            0
                        };
                        next[f + fails as usize][inc + add] += n;
                    }
                }
            }
            w = next;
        }
        let total = 10f64.powi(k as i32);
        let mut out = Vec::new();
        for (f, row) in w.iter().enumerate() {
            for (inc, &n) in row.iter().enumerate() {
                if n > 0 {
                    out.push((f as u32, inc as i64, n as f64 / total));
                }
            }
        }
        out
    }

    /// Probability a re-rolled failure die fails again.
    fn refail_p(&self) -> f64 {
        self.rules.failure.highest_failing() as f64 / 10.0
    }

    /// The wrench uses decided on the two rolls, before any re-roll.
    #[inline]
    fn pre(&self, failures: u32, venture: u32, avoided: bool, close_saves: bool) -> Pre {
        let greedy = self.rules.wrench == Wrench::Greedy;
        let mut left = venture;
        let close = greedy && !avoided && close_saves && left >= 1;
        left -= close as u32;
        let reroll = greedy && failures >= 2 && left >= 1;
        left -= reroll as u32;
        Pre {
            venture,
            avoided: avoided || close,
            close,
            reroll,
            left,
        }
    }

    /// The outcome once the failures (after any re-roll) are known.
    #[inline]
    fn finish(&self, pre: Pre, failures: u32) -> Outcome {
        let mut left = pre.left;
        let gotta = self.rules.wrench == Wrench::Greedy && failures >= 1 && left >= 1;
        left -= gotta as u32;
        let failures = failures - gotta as u32;
        // With no difficulty dice left the explorer "succeeds handily":
        // no hammer use can add a failure (RULES.md §3.3, corrected
        // 2026-11-22), so the Exec keeps its venture.
        let trivial = self.difficulty_dice() == 0;
        let hammer = left >= 1
            && !trivial
            && match self.rules.hammer {
                Hammer::None => false,
                Hammer::Always => true,
                Hammer::OnlyOnSuccess => failures == 0,
            };
        left -= hammer as u32;
        let failures = failures + hammer as u32;
        let wrench = pre.close as u32 + pre.reroll as u32 + gotta as u32;
        let success = failures == 0;
        [
            failures as i64,
            success as i64,
            pre.avoided as i64,
            (success && pre.avoided) as i64,
            pre.venture as i64,
            left as i64,
            wrench as i64,
            hammer as i64,
            (self.hours_before + wrench) as i64,
            hammer as i64,
        ]
    }

    /// One action on `rng`.
    #[inline]
    pub fn sample(&self, rng: &mut DiceRng) -> Outcome {
        let fail = self.rules.failure.highest_failing();
        let (mut failures, mut inc) = (0u32, 0i64);
        for _ in 0..self.difficulty_dice() {
            let face = rng.die(10);
            failures += (face <= fail) as u32;
            if face <= HIGHEST_KEPT {
                inc += face as i64;
            }
        }
        let target = self.base_target() + inc;
        let cmp = self.rules.comparison;
        let pre = match self.risk_code {
            None => self.pre(failures, 0, true, false),
            Some(code) => {
                let (v, t) = risk_roll(rng, code);
                self.pre(
                    failures,
                    v,
                    cmp.meets(t, target),
                    cmp.meets(t + CLOSE_BONUS, target),
                )
            }
        };
        let after = if pre.reroll {
            (0..failures).filter(|_| rng.die(10) <= fail).count() as u32
        } else {
            failures
        };
        self.finish(pre, after)
    }

    /// The exact marginals of every outcome field.
    pub fn exact(&self) -> Marginals {
        let mut m = Marginals::new(field::COUNT);
        let exec = self.exec_table();
        let risk = self.risk_code.map(RiskLaw::new);
        let q = self.refail_p();
        let mut emit = |pre: Pre, failures: u32, p: f64| {
            if pre.reroll {
                for (k, pk) in binomial(failures, q).into_iter().enumerate() {
                    m.add_outcome(&self.finish(pre, k as u32), p * pk);
                }
            } else {
                m.add_outcome(&self.finish(pre, failures), p);
            }
        };
        for (failures, inc, pe) in exec {
            let target = self.base_target() + inc;
            match &risk {
                None => emit(self.pre(failures, 0, true, false), failures, pe),
                Some(law) => {
                    // total meets target ⇔ total ≥ need
                    let need = match self.rules.comparison {
                        Comparison::Ge => target,
                        Comparison::Gt => target + 1,
                    };
                    for v in 0..law.by_venture.len() {
                        let made = law.p_at_least(v, need);
                        let saved = law.p_at_least(v, need - CLOSE_BONUS) - made;
                        let missed = law.p_venture(v) - made - saved;
                        let v32 = v as u32;
                        for (avoided, close_saves, p) in [
                            (true, true, made),
                            (false, true, saved),
                            (false, false, missed),
                        ] {
                            if p > 0.0 {
                                emit(
                                    self.pre(failures, v32, avoided, close_saves),
                                    failures,
                                    pe * p,
                                );
                            }
                        }
                    }
                }
            }
        }
        m
    }
}

/// `P(k of n fail)` for k = 0..=n, each failing with probability `q`.
pub fn binomial(n: u32, q: f64) -> Vec<f64> {
    let mut row = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; row.len() + 1];
        for (k, p) in row.iter().enumerate() {
            next[k] += p * (1.0 - q);
            next[k + 1] += p * q;
        }
        row = next;
    }
    row
}

/// A risk table read as tail probabilities per venture count.
struct RiskLaw {
    /// For venture v: `(min total, P(v and total ≥ min + i))` for each i.
    by_venture: Vec<(i64, Vec<f64>)>,
}

impl RiskLaw {
    fn new(code: DieCode) -> Self {
        let table = RiskTable::new(code);
        let x = code.dice() as usize;
        let plus = code.plus() as i64;
        let mut by_venture: Vec<(i64, Vec<f64>)> = (0..=x)
            .map(|v| (plus, vec![0.0; 5 * (x - v) + 2]))
            .collect();
        for (v, t, p) in table.probabilities() {
            by_venture[v as usize].1[(t - plus) as usize] += p;
        }
        for (_, tail) in &mut by_venture {
            for i in (0..tail.len() - 1).rev() {
                tail[i] += tail[i + 1];
            }
        }
        RiskLaw { by_venture }
    }

    fn p_venture(&self, v: usize) -> f64 {
        self.by_venture[v].1[0]
    }

    fn p_at_least(&self, v: usize, need: i64) -> f64 {
        let (min, tail) = &self.by_venture[v];
        let i = need - min;
        if i <= 0 {
            tail[0]
        } else {
            tail.get(i as usize).copied().unwrap_or(0.0)
        }
    }
}

/// The parameters of `cgg.action`: the explorer and stunt, then the
/// shared rule parameters.
static PARAMS: [ParamSpec; 19] = [
    code_param(
        "explorer.code",
        "3d",
        "The explorer's attribute code: its dice are removed from the difficulty.",
    ),
    ParamSpec {
        path: "explorer.risk_code",
        kind: super::CODE,
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

/// Success dice and risk code after a stunt (§3.5): paying adds 1d to
/// success, then `moved` dice go from the risk code to the success code.
pub fn stunt(code: DieCode, risk_code: DieCode, paid: bool, moved: u32) -> (u32, DieCode) {
    let success = code.dice() + paid as u32 + moved;
    (success, risk_code.add_dice(-(moved as i64)))
}

impl Trial for Action {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let a = *self;
        tally.record_trials(rng, trials, |rng| a.sample(rng));
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Action::exact(self))
    }
}

/// The mechanic `cgg.action`.
pub struct ActionMechanic;

impl Define for ActionMechanic {
    type Trial = Action;
    const NAME: &'static str = "cgg.action";
    const SUMMARY: &'static str = "One action: the Exec's d10 failure dice against the explorer's code, the player's d6 risk roll, then venture (wrench, then hammer).";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        use field::*;
        Schema {
            fields: vec![
                FieldSpec::int("failures", "Failure count after venture (0 = success)."),
                FieldSpec::bool("success", "No failure after venture."),
                FieldSpec::bool(
                    "avoided",
                    "Risk avoided (after \"That was close!\"; always with no risk).",
                ),
                FieldSpec::bool("clean", "Success and risk avoided."),
                FieldSpec::int("venture", "Venture rolled (6s on the risk roll)."),
                FieldSpec::int("venture_left", "Venture neither side spent."),
                FieldSpec::int("wrench_used", "Wrench uses by the player (0..=3)."),
                FieldSpec::int("hammer_used", "Hammer uses by the Exec (0..=1)."),
                FieldSpec::int(
                    "hours_paid",
                    "Crisis-clock hours paid: wrench uses plus a stunt's hour.",
                ),
                FieldSpec::int(
                    "hours_gained",
                    "Crisis-clock hours gained from hammer uses.",
                ),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_success",
                    SUCCESS,
                    Pred::Eq(1),
                    "Probability of success (no failure after venture).",
                ),
                MetricSpec::prob(
                    "p_avoided",
                    AVOIDED,
                    Pred::Eq(1),
                    "Probability the risk is avoided.",
                ),
                MetricSpec::prob(
                    "p_clean",
                    CLEAN,
                    Pred::Eq(1),
                    "Probability of success with the risk avoided.",
                ),
                MetricSpec::prob(
                    "p_fail_1",
                    FAILURES,
                    Pred::Eq(1),
                    "Barely failed (1 failure).",
                ),
                MetricSpec::prob(
                    "p_fail_2",
                    FAILURES,
                    Pred::Eq(2),
                    "Failed badly (2 failures).",
                ),
                MetricSpec::prob(
                    "p_fail_3plus",
                    FAILURES,
                    Pred::Ge(3),
                    "Failed horribly (3+ failures).",
                ),
                MetricSpec::prob(
                    "p_venture_1plus",
                    VENTURE,
                    Pred::Ge(1),
                    "Probability of rolling at least one venture.",
                ),
                MetricSpec::mean("mean_venture", VENTURE, "Mean venture rolled."),
                MetricSpec::mean(
                    "mean_hours_paid",
                    HOURS_PAID,
                    "Mean crisis-clock hours paid.",
                ),
                MetricSpec::mean(
                    "mean_hours_gained",
                    HOURS_GAINED,
                    "Mean crisis-clock hours gained.",
                ),
            ],
        }
    }

    fn build(&self, args: &Args) -> Result<Action, ParamError> {
        let code = read_code(args, "explorer.code")?;
        let risk_code = args
            .parsed_if_set("explorer.risk_code", super::code_of)?
            .unwrap_or(code);
        let paid = args.bool("stunt.paid")?;
        let moved = args.int("stunt.moved")? as u32;
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
        action_from(args, success_dice, risk_code, paid as u32)
    }
}
