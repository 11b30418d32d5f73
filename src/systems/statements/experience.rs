//! `statements.experience`: the experience test after a scene, and the
//! failure cost of setbacks (rules §5.4).
//!
//! The GM weighs the character's failures in the scene against the sum of
//! its traits and resources with three weighted rolls: one success or more
//! improves a trait or resource, three improve an attribute.

use super::roll::{self, Factors, Roll, Rolls};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Define, FieldSpec, Lit, MetricSpec, ParamKind, ParamSpec, Pred, Schema, Trial,
};

static PARAMS: [ParamSpec; 2] = [
    ParamSpec {
        path: "failures",
        kind: ParamKind::Int { min: 0, max: 1000 },
        default: Lit::Int(3),
        doc: "Failures the character generated in the scene: the favouring side of the test.",
    },
    ParamSpec {
        path: "traits",
        kind: roll::FACTORS,
        default: Lit::Int(10),
        doc: "The character's traits and resources (their degrees, summed): the opposing side.",
    },
];

/// The parameters of `statements.experience`, one field per path of
/// [`PARAMS`].
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperienceParams {
    pub failures: u64,
    pub traits: Factors,
}

/// The failure cost of a setback: its penalty, doubled if it lasts
/// indefinitely, doubled if it reduces an attribute, doubled again if it is
/// permanent (§5.4).
pub fn setback_cost(penalty: u32, indefinite: bool, attribute: bool, permanent: bool) -> u32 {
    penalty << (u32::from(indefinite) + u32::from(attribute) + u32::from(permanent))
}

/// The outcome fields `[successes, improve, attribute]` of `s` successes.
fn outcome(s: u32) -> [i64; 3] {
    [s as i64, (s >= 1) as i64, (s == 3) as i64]
}

/// The test: failures against traits, three rolls. No failures means no
/// success is possible (and with no traits either, nothing to roll).
pub fn test_roll(failures: u64, traits: u64) -> Roll {
    Roll::new(failures, traits)
}

/// The experience test of one character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExperienceTest {
    pub roll: Roll,
}

impl Trial for ExperienceTest {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let r = self.roll;
        let counts = r.count_successes(rng, Rolls::Three, trials);
        tally.add_key_counts(&counts, |s| outcome(s as u32));
    }

    fn exact(&self) -> Option<Marginals> {
        let mut m = Marginals::new(3);
        for (s, p) in self
            .roll
            .success_probabilities(Rolls::Three)
            .into_iter()
            .enumerate()
        {
            m.add_outcome(&outcome(s as u32), p);
        }
        Some(m)
    }
}

/// The mechanic `statements.experience`.
pub struct Experience;

impl Define for Experience {
    type Params = ExperienceParams;
    type Trial = ExperienceTest;
    const NAME: &'static str = "statements.experience";
    const SUMMARY: &'static str = "The experience test: the scene's failures against the character's traits and resources, three rolls.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::int("successes", "Successes on the experience test, 0..=3.")
                    .within(0, 3),
                FieldSpec::bool("improve", "One success or more: +1 to a trait or resource."),
                FieldSpec::bool("attribute", "Three successes: +1 to an attribute."),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_improve",
                    1,
                    Pred::Eq(1),
                    "Probability of improving a trait or resource.",
                ),
                MetricSpec::prob(
                    "p_attribute",
                    2,
                    Pred::Eq(1),
                    "Probability of improving an attribute.",
                ),
                MetricSpec::mean("mean_successes", 0, "Mean successes."),
            ],
        }
    }

    fn build(&self, p: ExperienceParams) -> ExperienceTest {
        ExperienceTest {
            roll: test_roll(p.failures, p.traits.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamValue::{self, *};
    use crate::systems::testing::{Sample, assert_agrees};
    use crate::systems::{Mechanic, Model, ParamMap};

    fn prepare(pairs: &[(&str, ParamValue)]) -> Box<dyn Model> {
        let mut m = ParamMap::new();
        for (k, v) in pairs {
            m.set(*k, v.clone());
        }
        Experience.prepare(&m).unwrap()
    }

    #[test]
    fn text_example_eight_failures_buy_these_setbacks() {
        // "8 failures … permanently reduce Acuity by 1, or temporarily
        // reduce a single Trait by 4 points."
        assert_eq!(setback_cost(1, true, true, true), 8);
        assert_eq!(setback_cost(4, false, false, false), 4);
        assert_eq!(setback_cost(2, true, false, false), 4);
        assert_eq!(setback_cost(3, false, true, false), 6);
    }

    #[test]
    fn exact_by_hand() {
        // 4 failures against traits 4 + 3 + 1 = 8: a d12, success on 1..=4.
        let m = prepare(&[
            ("failures", Int(4)),
            ("traits", List(vec![Int(4), Int(3), Int(1)])),
        ])
        .exact()
        .unwrap();
        let (p, q) = (4.0f64 / 12.0, 8.0f64 / 12.0);
        assert!((m.field(1)[&1] - (1.0 - q.powi(3))).abs() < 1e-15);
        assert!((m.field(2)[&1] - p.powi(3)).abs() < 1e-15);
        assert!((m.field(0)[&2] - 3.0 * p * p * q).abs() < 1e-15);
    }

    #[test]
    fn no_failures_no_experience() {
        for traits in [0, 12] {
            let m = prepare(&[("failures", Int(0)), ("traits", Int(traits))])
                .exact()
                .unwrap();
            assert_eq!(m.field(0)[&0], 1.0);
            assert_eq!(m.field(1).get(&1), None);
        }
        // No traits at all: every failure is a success.
        let m = prepare(&[("failures", Int(2)), ("traits", Int(0))])
            .exact()
            .unwrap();
        assert_eq!(m.field(2)[&1], 1.0);
    }

    #[test]
    fn exact_equals_enumeration() {
        for failures in 0..=12u64 {
            for traits in 0..=12u64 {
                if failures + traits == 0 {
                    continue;
                }
                let n = failures + traits;
                let mut counts = [0u128; 4];
                for a in 1..=n {
                    for b in 1..=n {
                        for c in 1..=n {
                            let s = [a, b, c].iter().filter(|r| **r <= failures).count();
                            counts[s] += 1;
                        }
                    }
                }
                assert_eq!(
                    test_roll(failures, traits).success_counts(Rolls::Three),
                    counts
                );
            }
        }
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        for (i, (failures, traits)) in [(1, 20), (3, 10), (8, 8), (15, 4), (0, 5), (5, 0)]
            .into_iter()
            .enumerate()
        {
            let m = prepare(&[("failures", Int(failures)), ("traits", Int(traits))]);
            let what = format!("{failures} vs {traits}");
            assert_agrees(m.as_ref(), Sample::seed(4).config(i), &what);
        }
    }
}
