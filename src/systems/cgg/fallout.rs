//! Fallout (rules §3.6) and the mechanic `cgg.fallout`.
//!
//! The fallout code's dice minus the resisting attribute's dice are rolled
//! in d10; each die showing less than four adds a grade, from Minor (0) up
//! to Critical (3+). Only dice count on either side, as for difficulty.

use super::action::binomial;
use super::{DieCode, code_param};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::{Define, FieldKind, FieldSpec, MetricSpec, ParamSpec, Pred, Schema, Trial};

/// A fallout die adds a grade when it shows less than this.
pub const GRADE_BELOW: u32 = 4;
/// Grades from here on are Critical.
pub const CRITICAL: u32 = 3;
/// Grade names.
pub const GRADES: [&str; 4] = ["minor", "moderate", "major", "critical"];

static PARAMS: [ParamSpec; 2] = [
    code_param(
        "code",
        "4d",
        "The fallout die code (often the code that caused the risk).",
    ),
    code_param(
        "resistance",
        "2d",
        "The resisting attribute's code; its dice are removed.",
    ),
];

/// The parameters of `cgg.fallout`, one field per path of [`PARAMS`].
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FalloutParams {
    pub code: DieCode,
    pub resistance: DieCode,
}

/// A resolved fallout roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fallout {
    /// d10s rolled: fallout dice minus resistance dice, at least 0.
    pub dice: u32,
}

impl Fallout {
    pub fn new(code: DieCode, resistance: DieCode) -> Self {
        Fallout {
            dice: code.dice().saturating_sub(resistance.dice()),
        }
    }

    /// `[grade, count]` for `count` dice under four.
    fn outcome(count: u32) -> [i64; 2] {
        [count.min(CRITICAL) as i64, count as i64]
    }

    /// The law of the count of dice under four: binomial(dice, 3/10).
    fn law(&self) -> Vec<f64> {
        binomial(self.dice, (GRADE_BELOW - 1) as f64 / 10.0)
    }

    /// Exact marginals of both fields, from [`Fallout::law`].
    pub fn exact(&self) -> Marginals {
        let mut m = Marginals::new(2);
        for (k, p) in self.law().into_iter().enumerate() {
            m.add_outcome(&Self::outcome(k as u32), p);
        }
        m
    }
}

impl Trial for Fallout {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // The count of dice below four decides both fields: draw it at
        // once from its law by an alias table (one word a roll,
        // where rolling takes a d10 at a time), and count it.
        let law = Alias::new((0..).zip(self.law()));
        let counts = law.count(rng, trials, self.dice as usize + 1);
        tally.add_key_counts(&counts, |k| Fallout::outcome(k as u32));
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Fallout::exact(self))
    }
}

/// The mechanic `cgg.fallout`.
pub struct FalloutMechanic;

impl Define for FalloutMechanic {
    type Params = FalloutParams;
    type Trial = Fallout;
    const NAME: &'static str = "cgg.fallout";
    const SUMMARY: &'static str =
        "Fallout: (fallout dice − resistance dice) d10, each below four one grade up from Minor.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let grade =
            |name: &str, pred: Pred, doc: &'static str| MetricSpec::prob(name, 0, pred, doc);
        Schema {
            fields: vec![
                FieldSpec::new(
                    "grade",
                    FieldKind::Category(GRADES.to_vec()),
                    "Fallout grade: minor, moderate, major, critical (3+).",
                ),
                FieldSpec::int(
                    "count",
                    "Fallout dice showing less than four (uncapped grade).",
                ),
            ],
            metrics: vec![
                grade(
                    "p_major_plus",
                    Pred::Ge(2),
                    "Probability of Major or Critical fallout.",
                ),
                grade(
                    "p_minor",
                    Pred::Eq(0),
                    "Probability the fallout stays Minor.",
                ),
                grade(
                    "p_moderate",
                    Pred::Eq(1),
                    "Probability of Moderate fallout.",
                ),
                grade("p_major", Pred::Eq(2), "Probability of Major fallout."),
                grade(
                    "p_critical",
                    Pred::Ge(3),
                    "Probability of Critical fallout.",
                ),
                MetricSpec::mean("mean_count", 1, "Mean dice under four."),
            ],
        }
    }

    fn build(&self, p: FalloutParams) -> Fallout {
        Fallout::new(p.code, p.resistance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_fallout_minus_resistance() {
        let c = |s: &str| s.parse::<DieCode>().unwrap();
        assert_eq!(Fallout::new(c("5d+2"), c("2d+1")).dice, 3);
        assert_eq!(Fallout::new(c("2d"), c("4d")).dice, 0);
    }

    #[test]
    fn exact_equals_enumeration_up_to_four_dice() {
        for dice in 0..=4u32 {
            let mut counts = [0u64; 5];
            for mut r in 0..10u64.pow(dice) {
                let mut k = 0;
                for _ in 0..dice {
                    k += ((r % 10) + 1 < GRADE_BELOW as u64) as usize;
                    r /= 10;
                }
                counts[k] += 1;
            }
            let m = Fallout { dice }.exact();
            let total = 10f64.powi(dice as i32);
            for (k, &n) in counts.iter().enumerate().take(dice as usize + 1) {
                let p = m.field(1).get(&(k as i64)).copied().unwrap_or(0.0);
                assert!((p - n as f64 / total).abs() < 1e-12, "{dice} dice, {k}");
            }
        }
        // 0 dice: always Minor. 1 die: Moderate 3 in 10.
        assert_eq!(Fallout { dice: 0 }.exact().field(0)[&0], 1.0);
        assert!((Fallout { dice: 1 }.exact().field(0)[&1] - 0.3).abs() < 1e-15);
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        use crate::systems::testing::{Sample, assert_agrees};
        for dice in [0, 1, 3, 6] {
            let m = FalloutMechanic.model(Fallout { dice });
            assert_agrees(m.as_ref(), Sample::seed(11), &format!("{dice} dice"));
        }
    }
}
