//! `statements.experience`: the experience test after a scene, and the
//! failure cost of setbacks (RULES.md §5.4).
//!
//! The GM weighs the character's failures in the scene against the sum of
//! its traits and resources with three weighted rolls: one success or more
//! improves a trait or resource, three improve an attribute.

use super::roll::{self, FACTORS_EXPECT, Roll, Rolls};
use crate::dice::DiceRng;
use crate::dist::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Args, FieldKind, FieldSpec, Lit, Mechanic, MetricKind, MetricSpec, Model, ParamError,
    ParamKind, ParamMap, ParamSpec, Pred, Schema,
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
        kind: ParamKind::Custom {
            expects: FACTORS_EXPECT,
            check: roll::check_factors,
        },
        default: Lit::Int(10),
        doc: "The character's traits and resources (their degrees, summed): the opposing side.",
    },
];

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

fn exact(roll: &Roll) -> Marginals {
    let mut m = Marginals::new(3);
    for (s, p) in roll
        .success_probabilities(Rolls::Three)
        .into_iter()
        .enumerate()
    {
        m.add_outcome(&outcome(s as u32), p);
    }
    m
}

fn schema() -> Schema {
    Schema {
        fields: vec![
            FieldSpec::new(
                "successes",
                FieldKind::Int,
                "Successes on the experience test, 0..=3.",
            ),
            FieldSpec::new(
                "improve",
                FieldKind::Bool,
                "One success or more: +1 to a trait or resource.",
            ),
            FieldSpec::new(
                "attribute",
                FieldKind::Bool,
                "Three successes: +1 to an attribute.",
            ),
        ],
        metrics: vec![
            MetricSpec::new(
                "p_improve",
                MetricKind::Prob {
                    field: 1,
                    pred: Pred::Eq(1),
                },
                "Probability of improving a trait or resource.",
            ),
            MetricSpec::new(
                "p_attribute",
                MetricKind::Prob {
                    field: 2,
                    pred: Pred::Eq(1),
                },
                "Probability of improving an attribute.",
            ),
            MetricSpec::new(
                "mean_successes",
                MetricKind::Mean { field: 0 },
                "Mean successes.",
            ),
        ],
    }
}

struct ExperienceModel {
    roll: Roll,
    schema: Schema,
}

impl Model for ExperienceModel {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let r = self.roll;
        tally.record_keyed(
            rng,
            trials,
            |rng| r.sample(rng, Rolls::Three) as i64,
            |s| outcome(s as u32),
        );
    }

    fn exact(&self) -> Option<Marginals> {
        Some(exact(&self.roll))
    }
}

/// The mechanic `statements.experience`.
pub struct Experience;

impl Mechanic for Experience {
    fn name(&self) -> &'static str {
        "statements.experience"
    }

    fn summary(&self) -> &'static str {
        "The experience test: the scene's failures against the character's traits and resources, three rolls."
    }

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        schema()
    }

    fn has_exact(&self) -> bool {
        true
    }

    fn prepare(&self, values: &ParamMap) -> Result<Box<dyn Model>, ParamError> {
        let args = Args::new(&PARAMS, values)?;
        let failures = args.int("failures")? as u64;
        let traits = args
            .value("traits")
            .map(|v| roll::factor_sum(&v))
            .unwrap_or(0);
        Ok(Box::new(ExperienceModel {
            roll: test_roll(failures, traits),
            schema: schema(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Plan, simulate};
    use crate::stats::{estimate, exact_value, z_score};
    use crate::systems::ParamValue::{self, *};

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
            let plan = Plan {
                seed: 4,
                trials: 1_000_000,
                precision: None,
            };
            let tally = simulate(&[(i, m.as_ref())], &plan, &()).remove(0);
            let exact = m.exact().unwrap();
            for spec in &m.schema().metrics {
                let z = z_score(&exact_value(spec, &exact), &estimate(spec, &tally));
                assert!(
                    z.abs() < 5.0,
                    "{failures} vs {traits}: {} z = {z}",
                    spec.name
                );
            }
        }
    }
}
