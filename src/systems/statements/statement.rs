//! `statements.statement`: one statement's three weighted rolls, its
//! successes, failures and weight (rules §5.1–5.2).

use super::roll::{self, Factors, Roll, Rolls};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, ParamValue, Pred,
    Schema, Trial, Warning,
};

/// Difficulty modifiers run from 2 (very easy) to 12 (nearly impossible);
/// 0 means none.
pub fn difficulty_of(v: &ParamValue) -> Result<u64, String> {
    match v {
        ParamValue::Int(i @ (0 | 2..=12)) => Ok(*i as u64),
        ParamValue::Int(i) => Err(format!("{i} is not a difficulty modifier")),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

/// What [`difficulty_of`] accepts.
pub const DIFFICULTY_EXPECT: &str = "0 (none) or an integer 2..=12 (very easy … nearly impossible)";

/// A difficulty modifier inside a table (a scene's statements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "ParamValue")]
pub struct Difficulty(pub u64);

impl TryFrom<ParamValue> for Difficulty {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Difficulty, String> {
        difficulty_of(&v)
            .map(Difficulty)
            .map_err(|why| format!("{why}; allowed: {DIFFICULTY_EXPECT}"))
    }
}

static PARAMS: [ParamSpec; 7] = [
    ParamSpec {
        path: "favouring",
        kind: roll::FACTORS,
        default: Lit::Int(7),
        doc: "Traits, attributes and resources supporting the statement, summed (the text's Will 4 + Charismatic 3 = 7).",
    },
    ParamSpec {
        path: "opposing",
        kind: roll::FACTORS,
        default: Lit::Int(9),
        doc: "Factors opposing the statement, summed (the text's Acuity 5 + Shrewd 4 = 9).",
    },
    ParamSpec {
        path: "difficulty",
        kind: ParamKind::Custom {
            expects: DIFFICULTY_EXPECT,
        },
        default: Lit::Int(0),
        doc: "Difficulty modifier added to the opposing sum.",
    },
    ParamSpec {
        path: "luck",
        kind: ParamKind::Int { min: 0, max: 5 },
        default: Lit::Int(0),
        doc: "Luck bid, +1 to the favouring sum of the roll each.",
    },
    ParamSpec {
        path: "support",
        kind: ParamKind::Int { min: -1, max: 1 },
        default: Lit::Int(0),
        doc: "An earlier statement supports (+1 success) or hinders (−1) this one; successes stay in 0..=3.",
    },
    ParamSpec {
        path: "variant.rolls",
        kind: ParamKind::Choice(Rolls::NAMES),
        default: Lit::Str("three"),
        doc: "\"three\": always three rolls; \"until-failure\": roll until the first failure or the third success.",
    },
    ParamSpec {
        path: "variant.weight_luck",
        kind: ParamKind::Bool,
        default: Lit::Bool(true),
        doc: "Whether the luck bid counts in the weight (successes × favouring, luck included): true by default (rules §5.2, corrected 2026-11-22: luck is a favouring factor and can be used by itself); false is the old reading, where luck only helps the roll.",
    },
];

/// The parameters of `statements.statement`, one field per path of
/// [`PARAMS`].
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatementParams {
    pub favouring: Factors,
    pub opposing: Factors,
    pub difficulty: Difficulty,
    pub luck: u64,
    pub support: i64,
    #[serde(rename = "variant.rolls")]
    pub rolls: Rolls,
    #[serde(rename = "variant.weight_luck")]
    pub weight_luck: bool,
}

/// A fully checked statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The roll: favouring + luck against opposing + difficulty.
    pub roll: Roll,
    pub rolls: Rolls,
    /// −1, 0 or +1 successes from an earlier statement.
    pub support: i64,
    /// The factor each success adds to the weight: favouring, plus the luck
    /// bid under `variant.weight_luck`.
    pub weight_per_success: u64,
}

impl Resolution {
    /// The outcome fields `[successes, failures, weight, true]` from the
    /// successes rolled.
    pub fn outcome(&self, rolled: u32) -> [i64; 4] {
        let s = roll::supported(rolled, self.support);
        let weight = s as i64 * self.weight_per_success as i64;
        [
            s as i64,
            (roll::MAX_ROLLS - s) as i64,
            weight,
            (weight > 0) as i64,
        ]
    }

    /// Every outcome with the number of the (F + O)³ equally likely roll
    /// sequences that give it.
    pub fn outcome_counts(&self) -> Vec<([i64; 4], u128)> {
        let counts = self.roll.success_counts(self.rolls);
        // Support can fold two rolled counts into one outcome.
        let mut merged = std::collections::BTreeMap::new();
        for s in 0..=3u32 {
            if counts[s as usize] > 0 {
                *merged.entry(self.outcome(s)).or_insert(0) += counts[s as usize];
            }
        }
        merged.into_iter().collect()
    }

    /// Exact marginals of the four fields.
    pub fn exact(&self) -> Marginals {
        let counts = self.outcome_counts();
        let total: u128 = counts.iter().map(|(_, w)| w).sum();
        let mut m = Marginals::new(4);
        for (outcome, w) in counts {
            m.add_outcome(&outcome, w as f64 / total as f64);
        }
        m
    }
}

impl Trial for Resolution {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let r = *self;
        // The successes rolled decide every field: count them only.
        let counts = r.roll.count_successes(rng, r.rolls, trials);
        tally.add_key_counts(&counts, |s| r.outcome(s as u32));
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Resolution::exact(self))
    }
}

/// The mechanic `statements.statement`.
pub struct Statement;

impl Define for Statement {
    type Params = StatementParams;
    type Trial = Resolution;
    const NAME: &'static str = "statements.statement";
    const SUMMARY: &'static str = "One statement: three rolls of a d(F+O), success on F or less; weight = successes × favouring.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::int("successes", "Successes, after support, 0..=3.").within(0, 3),
                FieldSpec::int("failures", "3 − successes.").within(0, 3),
                FieldSpec::int(
                    "weight",
                    "Successes × favouring sum, the luck bid included (excluded under variant.weight_luck = false).",
                ),
                FieldSpec::bool("true", "Weight above 0: the statement can come true."),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_true",
                    3,
                    Pred::Eq(1),
                    "Probability the statement has weight.",
                ),
                MetricSpec::mean("mean_successes", 0, "Mean successes."),
                MetricSpec::mean("mean_weight", 2, "Mean weight."),
                MetricSpec::mean("mean_failures", 1, "Mean failures."),
            ],
        }
    }

    /// Some die to roll.
    fn check(&self, p: &StatementParams) -> Result<Vec<Warning>, ParamError> {
        if p.favouring.0 + p.luck + p.opposing.0 + p.difficulty.0 == 0 {
            return Err(ParamError::new(
                "favouring",
                "favouring, luck, opposing and difficulty are all 0, so there is no die to roll (d0); give at least one a value",
            ));
        }
        Ok(Vec::new())
    }

    fn build(&self, p: StatementParams) -> Resolution {
        p.resolution(p.luck)
    }
}

impl StatementParams {
    /// The statement these values make with `luck` bid (best play weighs
    /// each bid with the statement's own rules).
    pub fn resolution(&self, luck: u64) -> Resolution {
        let favouring = self.favouring.0;
        let opposing = self.opposing.0 + self.difficulty.0;
        Resolution {
            roll: Roll::new(favouring + luck, opposing),
            rolls: self.rolls,
            support: self.support,
            weight_per_success: favouring + if self.weight_luck { luck } else { 0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::testing::{Sample, assert_agrees};
    use crate::systems::{Mechanic, ParamMap};
    use ParamValue::*;

    fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
        ParamMap::from_pairs(pairs)
    }

    #[test]
    fn text_example_two_successes_weigh_fourteen() {
        let r = Statement
            .trial(&values(&[
                ("favouring", List(vec![Int(4), Int(3)])),
                ("opposing", List(vec![Int(5), Int(4)])),
            ]))
            .unwrap();
        assert_eq!(
            r.roll,
            Roll {
                favour: 7,
                sides: 16
            }
        );
        assert_eq!(r.outcome(2), [2, 1, 14, 1]);
        // P(true) = 1 − (9/16)³ = 3367/4096.
        let m = r.exact();
        assert_eq!(m.field(3)[&1], 3367.0 / 4096.0);
        assert_eq!(m.field(2)[&14], (3 * 49 * 9) as f64 / 4096.0);
    }

    #[test]
    fn weight_counts_the_luck_bid_so_a_luck_only_statement_can_come_true() {
        // rules §5.2 (corrected 2026-11-22): W = s × F, F including luck.
        let base = [
            ("favouring", Int(3)),
            ("opposing", Int(4)),
            ("luck", Int(2)),
        ];
        let r = Statement.trial(&values(&base)).unwrap();
        assert_eq!(
            r.roll,
            Roll {
                favour: 5,
                sides: 9
            }
        );
        assert_eq!(r.outcome(3)[2], 15);
        // "Luck can be used by itself": three successes on luck 3 weigh 9.
        let r = Statement
            .trial(&values(&[("favouring", Int(0)), ("luck", Int(3))]))
            .unwrap();
        assert_eq!(r.outcome(3), [3, 0, 9, 1]);
        assert!(r.exact().field(3)[&1] > 0.0);
        // variant.weight_luck = false: the old reading, luck only rolls.
        let mut without = base.to_vec();
        without.push(("variant.weight_luck", Bool(false)));
        assert_eq!(Statement.trial(&values(&without)).unwrap().outcome(3)[2], 9);
        let r = Statement
            .trial(&values(&[
                ("favouring", Int(0)),
                ("luck", Int(3)),
                ("variant.weight_luck", Bool(false)),
            ]))
            .unwrap();
        assert_eq!(r.outcome(3), [3, 0, 0, 0]);
    }

    #[test]
    fn difficulty_and_errors() {
        let r = Statement
            .trial(&values(&[("difficulty", Int(12))]))
            .unwrap();
        assert_eq!(
            r.roll,
            Roll {
                favour: 7,
                sides: 28
            }
        );
        let err = Statement
            .trial(&values(&[("difficulty", Int(1))]))
            .unwrap_err();
        assert_eq!(err.key, "difficulty");
        assert!(err.message.contains("2..=12"), "{err}");
        let err = Statement
            .trial(&values(&[("opposing", List(vec![Int(2), Int(-3)]))]))
            .unwrap_err();
        assert_eq!(err.key, "opposing");
        assert!(err.message.contains("-3"), "{err}");
        let err = Statement
            .trial(&values(&[("favouring", Int(0)), ("opposing", Int(0))]))
            .unwrap_err();
        assert!(err.message.contains("d0"), "{err}");
    }

    /// Every three-roll sequence, with support and weight applied by hand.
    fn enumerate(f: u64, luck: u64, o: u64, support: i64, rolls: Rolls) -> Vec<([i64; 4], u128)> {
        let n = f + luck + o;
        let mut counts = std::collections::BTreeMap::new();
        for a in 1..=n {
            for b in 1..=n {
                for c in 1..=n {
                    let mut s: i64 = 0;
                    for r in [a, b, c] {
                        if r <= f + luck {
                            s += 1;
                        } else if rolls == Rolls::UntilFailure {
                            break;
                        }
                    }
                    let s = (s + support).clamp(0, 3);
                    let w = s * (f + luck) as i64;
                    *counts.entry([s, 3 - s, w, (w > 0) as i64]).or_insert(0u128) += 1;
                }
            }
        }
        counts.into_iter().collect()
    }

    #[test]
    fn exact_equals_enumeration_up_to_twelve_a_side() {
        for f in 1..=12u64 {
            for o in 1..=12u64 {
                let (luck, support, rolls) = match (f + o) % 4 {
                    0 => (0, 0, "three"),
                    1 => (1, 1, "three"),
                    2 => (0, -1, "until-failure"),
                    _ => (2, 0, "until-failure"),
                };
                let r = Statement
                    .trial(&values(&[
                        ("favouring", Int(f as i64)),
                        ("opposing", Int(o as i64)),
                        ("luck", Int(luck as i64)),
                        ("support", Int(support)),
                        ("variant.rolls", Str(rolls.into())),
                    ]))
                    .unwrap();
                assert_eq!(
                    r.outcome_counts(),
                    enumerate(f, luck, o, support, r.rolls),
                    "{f} vs {o}"
                );
            }
        }
    }

    #[test]
    fn monte_carlo_agrees_with_exact_on_twenty_configs() {
        for k in 0..20i64 {
            let m = Statement
                .prepare(&values(&[
                    ("favouring", List(vec![Int(1 + k % 7), Int(k / 3)])),
                    ("opposing", Int(1 + (k * 5) % 13)),
                    ("difficulty", Int(if k % 3 == 0 { 0 } else { 2 + k % 11 })),
                    ("luck", Int(k % 6)),
                    ("support", Int(k % 3 - 1)),
                    ("variant.rolls", Str(Rolls::NAMES[(k % 2) as usize].into())),
                    ("variant.weight_luck", Bool(k % 4 == 1)),
                ]))
                .unwrap();
            let sample = Sample::seed(6).config(k as usize);
            assert_agrees(m.as_ref(), sample, &format!("config {k}"));
        }
    }
}
