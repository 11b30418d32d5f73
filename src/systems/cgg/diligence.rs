//! Diligence (rules §3.7) and the mechanic `cgg.diligence`.
//!
//! The die code is rolled like a risk roll, but 6s are simply discarded
//! (no venture uses). The total is read as pips of a new leverage code; when
//! enhancing an existing leverage code, a third of the rolled pips (rounded
//! up) are added to it as bonus pips instead.

use super::risk::{RiskTable, roll};
use super::{DieCode, code_param};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{Define, FieldSpec, Lit, MetricSpec, ParamSpec, Pred, Schema, Trial};

static PARAMS: [ParamSpec; 2] = [
    code_param(
        "code",
        "3d",
        "The die code rolled for diligence (attribute plus assistance).",
    ),
    ParamSpec {
        path: "enhancing",
        kind: super::CODE,
        default: Lit::Absent,
        doc: "An existing leverage code being enhanced: it gains ⌈total / 3⌉ bonus pips. Unset: the total is a new code.",
    },
];

/// A resolved diligence roll: also the parameters of `cgg.diligence`,
/// one field per path of [`PARAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Diligence {
    pub code: DieCode,
    #[serde(default)]
    pub enhancing: Option<DieCode>,
}

impl Diligence {
    /// The leverage code a rolled total gives.
    pub fn leverage(&self, total: i64) -> DieCode {
        let pips = total.max(0) as u32;
        match self.enhancing {
            None => DieCode::from_pips(pips),
            Some(existing) => existing.add_pips(pips.div_ceil(3)),
        }
    }

    /// `[pips, leverage_pips, leverage_dice, discarded]`.
    fn outcome(&self, discarded: u32, total: i64) -> [i64; 4] {
        let lev = self.leverage(total);
        [
            total,
            lev.pips() as i64,
            lev.dice() as i64,
            discarded as i64,
        ]
    }

    pub fn exact(&self) -> Marginals {
        let mut m = Marginals::new(4);
        for (v, t, p) in RiskTable::new(self.code).probabilities() {
            m.add_outcome(&self.outcome(v, t), p);
        }
        m
    }

    /// One roll, die by die: `[pips, leverage_pips, leverage_dice,
    /// discarded]`. The tension tests roll a Ready turn by it.
    pub fn sample(&self, rng: &mut DiceRng) -> [i64; 4] {
        let (v, t) = roll(rng, self.code);
        self.outcome(v, t)
    }
}

impl Trial for Diligence {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // The 6s discarded and the total decide every field: draw those at
        // once from the risk roll's law, as `cgg.risk` does, and count them.
        let c = RiskTable::new(self.code).count_rolls(rng, trials);
        tally.add_key_counts(&c.counts, |k| {
            let (discarded, total) = c.results[k];
            self.outcome(discarded, total)
        });
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Diligence::exact(self))
    }
}

/// The mechanic `cgg.diligence`.
pub struct DiligenceMechanic;

impl Define for DiligenceMechanic {
    type Params = Diligence;
    type Trial = Diligence;
    const NAME: &'static str = "cgg.diligence";
    const SUMMARY: &'static str = "A diligence roll: X d6 + Y with 6s discarded; the total, read as pips, is the leverage code.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let dice = |name: &str, at_least: i64, doc: &'static str| {
            MetricSpec::prob(name, 2, Pred::Ge(at_least), doc)
        };
        Schema {
            fields: vec![
                FieldSpec::int("pips", "The rolled total: dice showing 1..5 plus Y."),
                FieldSpec::int("leverage_pips", "Pips of the resulting leverage code."),
                FieldSpec::int("leverage_dice", "Dice of the resulting leverage code."),
                FieldSpec::int("discarded", "Dice showing 6, discarded."),
            ],
            metrics: vec![
                MetricSpec::mean("mean_leverage_pips", 1, "Mean pips of leverage."),
                MetricSpec::mean("mean_leverage_dice", 2, "Mean dice of the leverage code."),
                dice(
                    "p_leverage_1d_plus",
                    1,
                    "Probability the leverage is at least 1d.",
                ),
                dice(
                    "p_leverage_2d_plus",
                    2,
                    "Probability the leverage is at least 2d.",
                ),
                dice(
                    "p_leverage_3d_plus",
                    3,
                    "Probability the leverage is at least 3d.",
                ),
                dice(
                    "p_leverage_4d_plus",
                    4,
                    "Probability the leverage is at least 4d.",
                ),
            ],
        }
    }

    fn build(&self, roll: Diligence) -> Diligence {
        roll
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> DieCode {
        s.parse().unwrap()
    }

    #[test]
    fn totals_read_as_pips() {
        let d = Diligence {
            code: c("3d"),
            enhancing: None,
        };
        assert_eq!(d.leverage(8), c("2d+2"));
        assert_eq!(d.leverage(0), c("0d"));
        // Enhancing 2d+2 with a roll of 7: ⌈7/3⌉ = 3 bonus pips → 3d+2.
        let e = Diligence {
            enhancing: Some(c("2d+2")),
            ..d
        };
        assert_eq!(e.leverage(7), c("3d+2"));
    }

    #[test]
    fn exact_by_hand_for_one_die() {
        // 1d: totals 0 (a six), 1..5 each 1/6; leverage 1d+ needs 3..5.
        let m = Diligence {
            code: c("1d"),
            enhancing: None,
        }
        .exact();
        assert!((m.field(2)[&1] - 0.5).abs() < 1e-15);
        assert!((m.field(3)[&1] - 1.0 / 6.0).abs() < 1e-15);
        assert!((m.field(0)[&0] - 1.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        use crate::systems::testing::{Sample, assert_agrees};
        for (code, enh) in [
            ("0d+2", None),
            ("1d", None),
            ("4d+1", None),
            ("3d", Some("2d+2")),
        ] {
            let m = DiligenceMechanic.model(Diligence {
                code: c(code),
                enhancing: enh.map(c),
            });
            assert_agrees(
                m.as_ref(),
                Sample::seed(5),
                &format!("{code} enhancing {enh:?}"),
            );
        }
    }
}
