//! The full action (rules §3.3–3.5) and the mechanic `cgg.action`.
//!
//! The Exec rolls the remaining difficulty dice in d10 for failure and to
//! raise the risk target; the player rolls the risk code in d6; then
//! venture is spent from the whole menu of §3.4, wrench (player) first and
//! hammer (Exec) with what is left, each use at most once ([`venture`]).
//! Both policies are deterministic functions of the dice; the dice venture
//! itself rolls (re-rolls, one more risk die, a die set aside) are the
//! only randomness after the two rolls, and the exact solver ([`exact`])
//! replays the settling once per branch of them. Monte Carlo draws the
//! two rolls' summary and the settling's answers from tables built on the
//! exact law ([`table`]); [`Action::sample`] rolls every die, for the
//! mechanics that play actions inside longer runs.

pub mod best;
mod exact;
mod keys;
pub mod rules;
pub mod table;
pub mod venture;
pub mod wrench;

pub use best::WrenchChoice;
pub use exact::exec_laws;
pub use venture::{ExecDice, Hammer, Rolled, Use, Wrench};
use venture::{RngDraw, class_of};
pub use wrench::WrenchPolicy;

use super::risk::roll as risk_roll;
use super::{Comparison, DieCode};
use crate::dice::DiceRng;
use crate::exact::Sums;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    CHECKED, Define, FieldSpec, MetricSpec, ParamError, ParamSpec, Pred, Schema, Trial, Warning,
};
use keys::STATIC_PARAMS;
pub(crate) use keys::action_params;
pub use keys::{ActionKeys, ActionParams, PARAMS, stunt};
pub use rules::{RULE_PARAMS, RuleKeys, action_from};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// The rule variants and policies of an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub risk_base: RiskBase,
    pub failure: FailureRule,
    pub wrench: WrenchPolicy,
    pub hammer: Hammer,
    pub comparison: Comparison,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            risk_base: RiskBase::Table,
            failure: FailureRule::Procedure,
            wrench: WrenchPolicy::Named(Wrench::Greedy),
            hammer: Hammer::Always,
            comparison: Comparison::Ge,
        }
    }
}

/// One fully resolved action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// Dice of the success code (stunt included).
    pub success_dice: u32,
    /// The code rolled for risk (stunt included); `None`: no risk.
    pub risk_code: Option<DieCode>,
    /// Base difficulty B.
    pub base: u32,
    /// Sum of the difficulty adjustments.
    pub adjust: i64,
    /// A condition impairs the explorer (its +1 is in `adjust`): "It's
    /// not as bad as I thought" may remove it.
    pub impaired: bool,
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
    pub const WRENCH_SPENT: usize = 10;
    pub const HAMMER_SPENT: usize = 11;
    /// Venture the wrench left to the hammer.
    pub const TO_HAMMER: usize = 12;
    /// The first of the nine uses, one field each in `Use::ALL` order.
    pub const CLOSE: usize = 13;
    pub const GOTTA: usize = 14;
    pub const GOOD: usize = 15;
    pub const SERIOUS: usize = 16;
    pub const NOT_AS_BAD: usize = 17;
    pub const CANT: usize = 18;
    pub const CONDITION: usize = 19;
    pub const GEAR: usize = 20;
    pub const INCAPACITATED: usize = 21;
    pub const COUNT: usize = 22;
}

/// One action's outcome, in [`field`] order.
pub type Outcome = [i64; field::COUNT];

impl Action {
    /// K: difficulty dice left after the explorer's success dice, 0..=6.
    pub fn difficulty_dice(&self) -> u32 {
        self.dice_after(0)
    }

    /// Difficulty dice once the difficulty is `lowered` dice lower (the
    /// 2-cost wrench uses), clamped to 0..=6.
    pub fn dice_after(&self, lowered: u32) -> u32 {
        (self.base as i64 + self.adjust - self.success_dice as i64 - lowered as i64)
            .clamp(0, MAX_DIFFICULTY_DICE as i64) as u32
    }

    /// The same action with success dice past the difficulty cut to it:
    /// they enter the rules only through [`Action::dice_after`], which
    /// clamps at 0 difficulty dice, so both settle alike. Scenes key their
    /// tables by it, an Edge's growing bonus then reusing one table.
    pub fn canonical(mut self) -> Action {
        self.success_dice = self.success_dice.min(self.success_cut());
        self
    }

    /// Success dice past which more change nothing: the difficulty.
    pub fn success_cut(&self) -> u32 {
        (self.base as i64 + self.adjust).max(0) as u32
    }

    /// The risk target before the difficulty dice raise it.
    pub fn base_target(&self) -> i64 {
        self.rules.risk_base.risk(self.base) + self.risk_extra
    }

    /// One action on `rng`.
    #[inline]
    pub fn sample(&self, rng: &mut DiceRng) -> Outcome {
        let highest = self.rules.failure.highest_failing();
        let mut dice = ExecDice::default();
        for _ in 0..self.difficulty_dice() {
            dice.0[class_of(rng.die(10), highest)] += 1;
        }
        let (venture, total) = match self.risk_code {
            None => (0, 0),
            Some(code) => risk_roll(rng, code),
        };
        let rolled = Rolled {
            dice,
            venture,
            total,
        };
        self.settle(&rolled, &mut RngDraw(rng))
    }

    /// The exact marginals of every outcome field.
    pub fn exact(&self) -> Marginals {
        let mut m = Sums::new(field::COUNT);
        exact::outcomes(self, |o, p| m.add(o, p));
        m.into_marginals()
    }

    /// The exact joint law of (hours paid, hours gained), of mass 1.
    pub fn hours_law(&self) -> Vec<((u32, u32), f64)> {
        let mut law: std::collections::BTreeMap<(u32, u32), f64> = Default::default();
        exact::outcomes(self, |o, p| {
            let k = (o[field::HOURS_PAID] as u32, o[field::HOURS_GAINED] as u32);
            *law.entry(k).or_insert(0.0) += p;
        });
        // Summed from many small terms, the mass falls short of 1 by some
        // ulps; a session multiplies twenty such laws, so normalise, or a
        // certain outcome comes out measurably uncertain.
        let mass: f64 = law.values().sum();
        law.into_iter().map(|(k, p)| (k, p / mass)).collect()
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

impl Trial for Action {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let table = table::table_of(self);
        let counts = table.count(rng, trials);
        tally.add_key_counts(&counts, |k| *table.outcome(k));
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Action::exact(self))
    }
}

/// The mechanic `cgg.action`.
pub struct ActionMechanic;

impl Define for ActionMechanic {
    type Params = ActionParams;
    type Trial = Action;
    const NAME: &'static str = "cgg.action";
    const SUMMARY: &'static str = "One action: the Exec's d10 failure dice against the explorer's code, the player's d6 risk roll, then venture (wrench, then hammer).";

    fn params(&self) -> &'static [ParamSpec] {
        &STATIC_PARAMS
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
                FieldSpec::int(
                    "venture",
                    "Venture rolled (6s on the risk roll, the \"get serious\" die's included).",
                ),
                FieldSpec::int("venture_left", "Venture neither side spent."),
                FieldSpec::int("wrench_used", "Wrench uses by the player (0..=5).").within(0, 5),
                FieldSpec::int("hammer_used", "Hammer uses by the Exec (0..=4).").within(0, 4),
                FieldSpec::int(
                    "hours_paid",
                    "Crisis-clock hours paid: wrench venture plus a stunt's hour.",
                ),
                FieldSpec::int("hours_gained", "Crisis-clock hours gained: hammer venture."),
                FieldSpec::int("wrench_spent", "Venture the player spent."),
                FieldSpec::int("hammer_spent", "Venture the Exec spent."),
                FieldSpec::int("to_hammer", "Venture the wrench left to the hammer."),
                FieldSpec::bool(
                    "close",
                    "\"That was close!\" (wrench, 1): +5 to the risk total.",
                ),
                FieldSpec::bool(
                    "gotta",
                    "\"Gotta make it!\" (wrench, 1): one failure removed.",
                ),
                FieldSpec::bool(
                    "good",
                    "\"I'm that good!\" (wrench, 1): the failure dice re-rolled.",
                ),
                FieldSpec::bool(
                    "serious",
                    "\"Alright, time to get serious\" (wrench, 2): codes one die higher.",
                ),
                FieldSpec::bool(
                    "not_as_bad",
                    "\"It's not as bad as I thought\" (wrench, 2): the impairing condition removed.",
                ),
                FieldSpec::bool("cant", "\"Can't do it!\" (hammer, 1): one more failure."),
                FieldSpec::bool(
                    "condition",
                    "\"It's even worse than that\" (hammer, 1): a condition given.",
                ),
                FieldSpec::bool("gear", "\"What? Why now!?\" (hammer, 2): gear disabled."),
                FieldSpec::bool(
                    "incapacitated",
                    "\"Didn't see that coming…\" (hammer, 3): incapacitated.",
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
                MetricSpec::mean(
                    "mean_to_hammer",
                    TO_HAMMER,
                    "Mean venture the wrench leaves to the hammer.",
                ),
                MetricSpec::prob(
                    "p_serious",
                    SERIOUS,
                    Pred::Eq(1),
                    "Probability the player gets serious (2 venture).",
                ),
                MetricSpec::prob(
                    "p_condition",
                    CONDITION,
                    Pred::Eq(1),
                    "Probability the Exec gives a condition.",
                ),
                MetricSpec::prob(
                    "p_gear",
                    GEAR,
                    Pred::Eq(1),
                    "Probability the Exec disables gear.",
                ),
                MetricSpec::prob(
                    "p_incapacitated",
                    INCAPACITATED,
                    Pred::Eq(1),
                    "Probability the Exec incapacitates the explorer.",
                ),
            ],
        }
    }

    /// The keys read as one action (a stunt's moved dice, the difficulty
    /// given one way).
    fn check(&self, p: &ActionParams) -> Result<Vec<Warning>, ParamError> {
        p.keys().action()?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &ActionParams) -> Vec<&'static str> {
        p.keys().idle()
    }

    fn build(&self, p: ActionParams) -> Action {
        // The same reading the check made; an action is a few numbers.
        p.keys().action().expect(CHECKED)
    }
}
