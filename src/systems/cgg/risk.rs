//! The player's risk roll (rules §3.2) and the mechanic `cgg.risk`.
//!
//! X d6 plus Y: every 6 is discarded and earns one venture, the other dice
//! (1..=5) are summed. The exact law is the joint distribution of
//! (venture, total), built die by die with integer weights over all 6^X
//! rolls; diligence (§3.7) reads the same table, and Monte Carlo draws
//! from it ([`super::alias`]).

use super::{Comparison, DieCode, code_param};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::{
    Choice, Define, FieldSpec, Lit, MetricSpec, ParamKind, ParamSpec, Pred, Schema, Trial,
};

/// The face that is discarded and earns venture.
pub const VENTURE_FACE: u32 = 6;

/// The exact joint law of one risk roll: `weights[v][s]` is the number of
/// the 6^X rolls with `v` sixes whose other dice sum to `s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RiskTable {
    pub code: DieCode,
    weights: Vec<Vec<u128>>,
}

impl RiskTable {
    /// Build the table of `code` by adding one die at a time.
    pub fn new(code: DieCode) -> Self {
        let x = code.dice() as usize;
        let mut w = vec![vec![0u128; 5 * x + 1]; x + 1];
        w[0][0] = 1;
        for die in 0..x {
            let mut next = vec![vec![0u128; 5 * x + 1]; x + 1];
            for v in 0..=die {
                for s in 0..=5 * (die - v) {
                    let n = w[v][s];
                    if n == 0 {
                        continue;
                    }
                    next[v + 1][s] += n;
                    for face in 1..=5 {
                        next[v][s + face] += n;
                    }
                }
            }
            w = next;
        }
        RiskTable { code, weights: w }
    }

    /// 6^X, the number of equally likely rolls.
    pub fn total_weight(&self) -> u128 {
        6u128.pow(self.code.dice())
    }

    /// `(venture, total, weight)` for every possible roll result, the total
    /// including the code's pips.
    pub fn iter(&self) -> impl Iterator<Item = (u32, i64, u128)> + '_ {
        let plus = self.code.plus() as i64;
        self.weights.iter().enumerate().flat_map(move |(v, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, w)| **w > 0)
                .map(move |(s, &w)| (v as u32, s as i64 + plus, w))
        })
    }

    /// As [`RiskTable::iter`], with probabilities.
    pub fn probabilities(&self) -> impl Iterator<Item = (u32, i64, f64)> + '_ {
        let t = self.total_weight() as f64;
        self.iter().map(move |(v, s, w)| (v, s, w as f64 / t))
    }

    /// `trials` rolls drawn at once from this law by an alias table (one
    /// word a roll, where rolling takes a die at a time), counted: for the
    /// mechanics that are one risk roll a trial.
    pub fn count_rolls(&self, rng: &mut DiceRng, trials: u64) -> Counted {
        let law: Vec<(u32, i64, f64)> = self.probabilities().collect();
        let table = Alias::new(law.iter().enumerate().map(|(k, r)| (k as u32, r.2)));
        Counted {
            results: law.iter().map(|&(v, s, _)| (v, s)).collect(),
            counts: table.count(rng, trials, law.len()),
        }
    }
}

/// Risk rolls counted by result ([`RiskTable::count_rolls`]): `counts[k]`
/// rolls came to `results[k]`, a `(venture, total)`.
pub struct Counted {
    pub results: Vec<(u32, i64)>,
    pub counts: Vec<u64>,
}

/// Roll `code` once: `(venture, total)`.
#[inline]
pub fn roll(rng: &mut DiceRng, code: DieCode) -> (u32, i64) {
    read(code, || rng.die(6))
}

/// `(venture, total)` when the dice of `code` show `faces`: the rule
/// [`roll`] applies to the dice it draws (6s set aside as venture, the
/// rest summed with the pips). For checking the rules on dice as a text
/// shows them; `None` unless there is one face in 1..=6 per die.
pub fn shown(code: DieCode, faces: &[u32]) -> Option<(u32, i64)> {
    let fits = faces.len() == code.dice() as usize && faces.iter().all(|f| (1..=6).contains(f));
    let mut next = faces.iter();
    fits.then(|| read(code, || *next.next().unwrap()))
}

/// The rule on the faces `next_face` gives the dice one after another.
#[inline(always)]
fn read(code: DieCode, mut next_face: impl FnMut() -> u32) -> (u32, i64) {
    let mut venture = 0;
    let mut sum = code.plus() as i64;
    for _ in 0..code.dice() {
        let face = next_face();
        if face == VENTURE_FACE {
            venture += 1;
        } else {
            sum += face as i64;
        }
    }
    (venture, sum)
}

static PARAMS: [ParamSpec; 3] = [
    code_param("code", "3d", "The die code rolled for risk, e.g. \"3d+2\"."),
    ParamSpec {
        path: "target",
        kind: ParamKind::Int { min: 0, max: 500 },
        default: Lit::Int(10),
        doc: "The risk target the total must reach.",
    },
    ParamSpec {
        path: "comparison",
        kind: ParamKind::Choice(Comparison::NAMES),
        default: Lit::Str("ge"),
        doc: "\"ge\": avoided on total ≥ target (the text); \"gt\": total > target.",
    },
];

/// A resolved bare risk roll: also the parameters of `cgg.risk`, one
/// field per path of [`PARAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RiskRoll {
    pub code: DieCode,
    pub target: i64,
    pub comparison: Comparison,
}

impl RiskRoll {
    /// `[avoided, total, venture]`.
    fn outcome(&self, venture: u32, total: i64) -> [i64; 3] {
        [
            self.comparison.meets(total, self.target) as i64,
            total,
            venture as i64,
        ]
    }

    /// Exact marginals of the three fields.
    pub fn exact(&self) -> Marginals {
        let mut m = Marginals::new(3);
        for (v, t, p) in RiskTable::new(self.code).probabilities() {
            m.add_outcome(&self.outcome(v, t), p);
        }
        m
    }
}

impl Trial for RiskRoll {
    /// Each trial draws the roll's (venture, total) at once from the exact
    /// law ([`RiskTable`]) by an alias table, and counts its key.
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let c = RiskTable::new(self.code).count_rolls(rng, trials);
        tally.add_key_counts(&c.counts, |k| {
            let (venture, total) = c.results[k];
            self.outcome(venture, total)
        });
    }

    fn exact(&self) -> Option<Marginals> {
        Some(RiskRoll::exact(self))
    }
}

/// The mechanic `cgg.risk`.
pub struct Risk;

impl Define for Risk {
    type Params = RiskRoll;
    type Trial = RiskRoll;
    const NAME: &'static str = "cgg.risk";
    const SUMMARY: &'static str =
        "A bare risk roll: X d6 + Y, each 6 discarded for one venture, avoided on total ≥ target.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool("avoided", "The total reaches the target."),
                FieldSpec::int("total", "Sum of the dice showing 1..5, plus Y."),
                FieldSpec::int("venture", "Dice showing 6: venture earned."),
            ],
            metrics: vec![
                MetricSpec::prob(
                    "p_avoided",
                    0,
                    Pred::Eq(1),
                    "Probability the risk is avoided.",
                ),
                MetricSpec::mean("mean_venture", 2, "Mean venture per roll (X/6)."),
                MetricSpec::prob(
                    "p_venture_1plus",
                    2,
                    Pred::Ge(1),
                    "Probability of at least one venture.",
                ),
                MetricSpec::prob(
                    "p_venture_2plus",
                    2,
                    Pred::Ge(2),
                    "Probability of at least two venture.",
                ),
                MetricSpec::mean("mean_total", 1, "Mean risk total."),
            ],
        }
    }

    fn build(&self, roll: RiskRoll) -> RiskRoll {
        roll
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Every one of the 6^X rolls, counted one by one.
    fn enumerate(code: DieCode) -> BTreeMap<(u32, i64), u128> {
        let x = code.dice();
        let mut out = BTreeMap::new();
        for mut r in 0..6u64.pow(x) {
            let (mut v, mut s) = (0, code.plus() as i64);
            for _ in 0..x {
                let face = (r % 6) as u32 + 1;
                r /= 6;
                if face == 6 {
                    v += 1;
                } else {
                    s += face as i64;
                }
            }
            *out.entry((v, s)).or_insert(0) += 1;
        }
        out
    }

    #[test]
    fn exact_equals_enumeration_of_every_roll_up_to_7_dice() {
        for x in 0..=7 {
            for y in 0..3 {
                let code = DieCode::new(x, y);
                let exact: BTreeMap<_, _> = RiskTable::new(code)
                    .iter()
                    .map(|(v, s, w)| ((v, s), w))
                    .collect();
                assert_eq!(exact, enumerate(code), "{code}");
            }
        }
    }

    #[test]
    fn hand_worked_one_die() {
        // 1d against 3: faces 3, 4, 5 avoid (3 of 6); one venture in 6.
        let r = RiskRoll {
            code: DieCode::new(1, 0),
            target: 3,
            comparison: Comparison::Ge,
        };
        let m = r.exact();
        assert!((m.field(0)[&1] - 0.5).abs() < 1e-15);
        assert!((m.field(2)[&1] - 1.0 / 6.0).abs() < 1e-15);
        let gt = RiskRoll {
            comparison: Comparison::Gt,
            ..r
        };
        assert!((gt.exact().field(0)[&1] - 2.0 / 6.0).abs() < 1e-15);
        // 0d+2 always totals 2, never ventures.
        let z = RiskRoll {
            code: DieCode::new(0, 2),
            target: 2,
            comparison: Comparison::Ge,
        };
        assert_eq!(z.exact().field(1)[&2], 1.0);
        assert_eq!(z.exact().field(0)[&1], 1.0);
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        use crate::systems::testing::{Sample, assert_agrees};
        use crate::systems::{Mechanic, ParamMap, ParamValue};
        for (code, target) in [("1d", 3), ("3d+2", 10), ("6d+1", 20), ("0d+1", 1)] {
            let mut values = ParamMap::new();
            values.set("code", ParamValue::Str(code.into()));
            values.set("target", ParamValue::Int(target));
            let m = Risk.prepare(&values).unwrap();
            assert_agrees(m.as_ref(), Sample::seed(7), &format!("{code} vs {target}"));
        }
    }
}
