//! `questworlds.contest`: one contest (rules §4.2–4.3), a PC against a
//! resistance or against another character, with modifiers, augments and
//! story points.

use std::sync::Arc;

use super::outcomes::OutcomeTable;
use super::rating::Rating;
use super::{
    AUGMENT, Augment, Exchange, Level, MODIFIER, Matchup, RATING, RESISTANCE_PARAMS, Resistance,
};
use crate::dice::DiceRng;
use crate::exact::Memo;
use crate::model::Given;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    CHECKED, Choice, Define, FieldKind, FieldSpec, Lit, MetricSpec, ParamError, ParamKind,
    ParamSpec, Pred, Schema, Trial, Warning,
};

crate::choice! {
    /// When the PC spends story points (§4.3).
    pub enum StoryPoints {
        Never = "never",
        /// After the roll, the fewest points that turn a defeat into a
        /// victory or tie.
        WhenItFlipsDefeat = "when-it-flips-defeat",
    }
}

static PARAMS: [ParamSpec; 11] = [
    ParamSpec {
        path: "pc.rating",
        kind: RATING,
        default: Lit::Str("15"),
        doc: "The PC's rating, e.g. 15, \"5M\", \"4M2\".",
    },
    ParamSpec {
        path: "pc.modifier",
        kind: MODIFIER,
        default: Lit::Int(0),
        doc: "Added to the PC's TN (steps of 5).",
    },
    ParamSpec {
        path: "pc.augment",
        kind: AUGMENT,
        default: Lit::Int(0),
        doc: "Augment to the PC's TN: 0, 5, 10, or { rating = \"15\" } rolled against the base resistance (victory of degree d: +5(d+1), at most +20; else +5).",
    },
    ParamSpec {
        path: "pc.story_points",
        kind: ParamKind::Int { min: 0, max: 10 },
        default: Lit::Int(0),
        doc: "Story points the PC has; each spent adds one success.",
    },
    ParamSpec {
        path: "pc.story_point_policy",
        kind: ParamKind::Choice(StoryPoints::NAMES),
        default: Lit::Str("when-it-flips-defeat"),
        doc: "\"never\", or \"when-it-flips-defeat\": after the roll, spend the fewest points that turn a defeat into a victory or tie.",
    },
    RESISTANCE_PARAMS[0],
    RESISTANCE_PARAMS[1],
    RESISTANCE_PARAMS[2],
    ParamSpec {
        path: "opponent.rating",
        kind: RATING,
        default: Lit::Absent,
        doc: "PC against PC: the other character's rating (instead of a resistance); at TN ≤ 0 it fails automatically.",
    },
    ParamSpec {
        path: "opponent.modifier",
        kind: MODIFIER,
        default: Lit::Int(0),
        doc: "PC against PC: added to the other character's TN.",
    },
    ParamSpec {
        path: "opponent.augment",
        kind: AUGMENT,
        default: Lit::Int(0),
        doc: "PC against PC: the other character's augment, as `pc.augment`.",
    },
];

/// The parameters of `questworlds.contest`, one field per path of
/// [`PARAMS`].
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContestParams {
    #[serde(rename = "pc.rating")]
    pub pc_rating: Rating,
    #[serde(rename = "pc.modifier", deserialize_with = "super::modifier")]
    pub pc_modifier: i64,
    #[serde(rename = "pc.augment", deserialize_with = "super::augment")]
    pub pc_augment: Augment,
    #[serde(rename = "pc.story_points")]
    pub story_points: i64,
    #[serde(rename = "pc.story_point_policy")]
    pub story_point_policy: StoryPoints,
    #[serde(rename = "resistance.rating", default)]
    pub resistance_rating: Option<Rating>,
    #[serde(rename = "resistance.level", default)]
    pub resistance_level: Option<Level>,
    #[serde(rename = "resistance.base")]
    pub resistance_base: Rating,
    #[serde(rename = "opponent.rating", default)]
    pub opponent_rating: Option<Rating>,
    #[serde(
        rename = "opponent.modifier",
        deserialize_with = "super::given_modifier"
    )]
    pub opponent_modifier: Given<i64>,
    #[serde(rename = "opponent.augment", deserialize_with = "super::given_augment")]
    pub opponent_augment: Given<Augment>,
}

/// The fields of one contest outcome.
fn fields(ex: &Exchange) -> [i64; 5] {
    [
        ex.verdict as i64,
        ex.degree,
        ex.signed_degree(),
        ex.pc_successes,
        ex.story_points,
    ]
}

/// Who the PC faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opposition {
    Resistance(Rating),
    Character { rating: Rating, augment: Augment },
}

/// A resolved contest configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// PC rating with its modifier.
    pub pc: Rating,
    pub augment: Augment,
    pub story_points: i64,
    pub opposition: Opposition,
    /// What rolled augments face.
    pub base: Rating,
}

impl Config {
    fn matchup(&self, pc_bonus: i64, opp_bonus: i64) -> Matchup {
        let pc = self.pc.plus(pc_bonus);
        let m = match self.opposition {
            Opposition::Resistance(r) => Matchup::against_resistance(pc, r),
            Opposition::Character { rating, .. } => {
                Matchup::against_character(pc, rating.plus(opp_bonus))
            }
        };
        m.with_story_points(self.story_points)
    }

    fn opp_augment(&self) -> Augment {
        match self.opposition {
            Opposition::Resistance(_) => Augment::Assured(0),
            Opposition::Character { augment, .. } => augment,
        }
    }

    /// Exact marginals of the five outcome fields.
    pub fn exact(&self) -> Marginals {
        let mut out = Marginals::new(5);
        for (pb, pp) in self.augment.bonuses(self.base) {
            for (ob, po) in self.opp_augment().bonuses(self.base) {
                for (ex, p) in self.matchup(pb, ob).probabilities() {
                    out.add_outcome(&fields(&ex), pp * po * p);
                }
            }
        }
        out
    }

    /// One contest, augment rolls included.
    pub fn sample(&self, rng: &mut DiceRng) -> Exchange {
        let pb = self.augment.sample(self.base, rng);
        let ob = self.opp_augment().sample(self.base, rng);
        self.matchup(pb, ob).sample(rng)
    }
}

/// The outcome table of `m`, judged once per run however many chunks and
/// configs roll it (`None`: more than 256 outcomes), and kept for the
/// last matchups met.
fn table_of(m: Matchup) -> Arc<Option<OutcomeTable>> {
    static TABLES: Memo<Matchup, Option<OutcomeTable>, 64> = Memo::new();
    TABLES.get(m, || OutcomeTable::new(&m))
}

impl Trial for Config {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // With no rolled augment the two faces decide the outcome: judge
        // each cell once and count keys (assured augments draw nothing, so
        // the stream is the one `Config::sample` reads).
        if let (Augment::Assured(pb), Augment::Assured(ob)) = (self.augment, self.opp_augment())
            && let Some(table) = table_of(self.matchup(pb, ob)).as_ref()
        {
            let counts = table.count(rng, trials);
            tally.add_key_counts(&counts, |k| fields(table.outcome(k)));
            return;
        }
        let c = *self;
        tally.record_trials(rng, trials, |rng| fields(&c.sample(rng)));
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Config::exact(self))
    }
}

/// The mechanic `questworlds.contest`.
pub struct Contest;

/// Whom the PC faces: a character (when an `opponent.*` key is set) or
/// the resistance.
fn opposition(p: &ContestParams) -> Result<Opposition, ParamError> {
    let resistance = Resistance {
        rating: p.resistance_rating,
        level: p.resistance_level,
        base: p.resistance_base,
    };
    let set = [
        ("opponent.rating", p.opponent_rating.is_some()),
        ("opponent.modifier", p.opponent_modifier.given),
        ("opponent.augment", p.opponent_augment.given),
    ]
    .into_iter()
    .find_map(|(key, given)| given.then_some(key));
    Ok(
        match super::opponent(
            set,
            p.opponent_rating,
            p.opponent_modifier.value,
            &resistance,
        )? {
            Some(rating) => Opposition::Character {
                rating,
                augment: p.opponent_augment.value,
            },
            None => Opposition::Resistance(resistance.tn()?),
        },
    )
}

impl Define for Contest {
    type Params = ContestParams;
    type Trial = Config;
    const NAME: &'static str = "questworlds.contest";
    const SUMMARY: &'static str = "One contest: d20 against the PC's rating and the resistance's; more successes wins, then the higher roll.";

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::new(
                    "result",
                    FieldKind::Category(vec!["victory", "tie", "defeat"]),
                    "The PC's result: more successes wins, then the higher roll; equal rolls tie.",
                ),
                FieldSpec::int("degree", "Difference in successes (story points included)."),
                FieldSpec::int(
                    "signed_degree",
                    "Degree, positive for PC victories, negative for defeats.",
                ),
                FieldSpec::int(
                    "pc_successes",
                    "The PC's successes: die, masteries and story points.",
                ),
                FieldSpec::int("story_points_spent", "Story points the policy spent."),
            ],
            metrics: vec![
                MetricSpec::prob("p_victory", 0, Pred::Eq(0), "Probability the PC wins."),
                MetricSpec::prob(
                    "p_tie",
                    0,
                    Pred::Eq(1),
                    "Probability of a tie (equal successes and equal rolls).",
                ),
                MetricSpec::prob("p_defeat", 0, Pred::Eq(2), "Probability the PC loses."),
                MetricSpec::mean(
                    "mean_degree",
                    2,
                    "Mean signed degree (positive for victories).",
                ),
            ],
        }
    }

    /// The PC faces a resistance or a character, not both, and the
    /// resistance is a rating or a level.
    fn check(&self, p: &ContestParams) -> Result<Vec<Warning>, ParamError> {
        opposition(p)?;
        Ok(Vec::new())
    }

    fn idle(&self, p: &ContestParams) -> Vec<&'static str> {
        let character =
            p.opponent_rating.is_some() || p.opponent_modifier.given || p.opponent_augment.given;
        let resistance = Resistance {
            rating: p.resistance_rating,
            level: p.resistance_level,
            base: p.resistance_base,
        };
        let rolled = matches!(p.pc_augment, Augment::Rolled(_))
            || (p.opponent_augment.given && matches!(p.opponent_augment.value, Augment::Rolled(_)));
        super::idle_opposition(character, &resistance, rolled)
    }

    fn build(&self, p: ContestParams) -> Config {
        let pc = p.pc_rating.plus(p.pc_modifier);
        let story_points = match p.story_point_policy {
            StoryPoints::Never => 0,
            StoryPoints::WhenItFlipsDefeat => p.story_points,
        };
        Config {
            pc,
            augment: p.pc_augment,
            story_points,
            // Who the PC faces is worked out again: the check kept nothing.
            opposition: opposition(&p).expect(CHECKED),
            base: p.resistance_base,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{Mechanic, ParamMap, ParamValue};

    fn values(pairs: &[(&str, ParamValue)]) -> ParamMap {
        ParamMap::from_pairs(pairs)
    }

    fn p_victory(m: &Marginals) -> f64 {
        m.field(0).get(&0).copied().unwrap_or(0.0)
    }

    #[test]
    fn ratings_levels_and_modifiers_resolve() {
        use ParamValue::*;
        let c = Contest
            .trial(&values(&[
                ("pc.rating", Str("4M2".into())),
                ("pc.modifier", Int(-5)),
                ("resistance.level", Str("punishing".into())),
            ]))
            .unwrap();
        assert_eq!(c.pc, Rating(39));
        assert_eq!(c.opposition, Opposition::Resistance(Rating(25)));
        let c = Contest
            .trial(&values(&[
                ("resistance.level", Str("simple".into())),
                ("resistance.base", Str("1M".into())),
            ]))
            .unwrap();
        assert_eq!(c.opposition, Opposition::Resistance(Rating(1)));
        let c = Contest.trial(&ParamMap::new()).unwrap();
        assert_eq!(c.opposition, Opposition::Resistance(Rating(10)));
        assert_eq!(c.pc, Rating(15));
    }

    #[test]
    fn bad_values_name_the_key() {
        use ParamValue::*;
        for (k, v) in [
            ("pc.rating", Str("5Q".into())),
            ("pc.modifier", Int(3)),
            ("pc.augment", Int(7)),
            ("pc.augment", Table(vec![("bonus".into(), Int(5))])),
        ] {
            let err = Contest.trial(&values(&[(k, v)])).unwrap_err();
            assert_eq!(err.key, k);
        }
        let err = Contest
            .trial(&values(&[
                ("resistance.level", Str("hard".into())),
                ("resistance.rating", Int(12)),
            ]))
            .unwrap_err();
        assert_eq!(err.key, "resistance.level");
        let err = Contest
            .trial(&values(&[
                ("opponent.rating", Int(12)),
                ("resistance.rating", Int(12)),
            ]))
            .unwrap_err();
        assert_eq!(err.key, "resistance.rating");
        let err = Contest
            .trial(&values(&[("opponent.modifier", Int(5))]))
            .unwrap_err();
        assert_eq!(err.key, "opponent.rating");
    }

    #[test]
    fn simple_resistance_at_base_10_is_assured() {
        let c = Contest
            .trial(&values(&[(
                "resistance.level",
                ParamValue::Str("simple".into()),
            )]))
            .unwrap();
        assert_eq!(p_victory(&c.exact()), 1.0);
    }

    #[test]
    fn ten_vs_ten_is_symmetric_and_augments_help() {
        let c = Contest
            .trial(&values(&[("pc.rating", ParamValue::Int(10))]))
            .unwrap();
        let m = c.exact();
        let (v, t, d) = (m.field(0)[&0], m.field(0)[&1], m.field(0)[&2]);
        assert!((v - d).abs() < 1e-15 && (v + t + d - 1.0).abs() < 1e-15);
        assert!(
            m.field(2)
                .iter()
                .map(|(k, p)| *k as f64 * p)
                .sum::<f64>()
                .abs()
                < 1e-15
        );
        let mut last = v;
        for aug in [
            ParamValue::Int(5),
            ParamValue::Table(vec![("rating".into(), ParamValue::Str("5M".into()))]),
            ParamValue::Int(10),
        ] {
            let c = Contest
                .trial(&values(&[
                    ("pc.rating", ParamValue::Int(10)),
                    ("pc.augment", aug.clone()),
                ]))
                .unwrap();
            let pv = p_victory(&c.exact());
            assert!(pv > last - 0.06, "{aug}: {pv}");
            assert!(pv > v, "{aug}");
            last = pv;
        }
    }

    #[test]
    fn rolled_augment_is_the_mixture_of_its_bonuses() {
        // 15 + rolled augment (rating 15 vs base 10) against 10.
        let c = Contest
            .trial(&values(&[(
                "pc.augment",
                ParamValue::Table(vec![("rating".into(), ParamValue::Int(15))]),
            )]))
            .unwrap();
        let mixed: f64 = Augment::Rolled(Rating(15))
            .bonuses(Rating(10))
            .iter()
            .map(|(b, p)| {
                let m = Matchup::against_resistance(Rating(15 + b), Rating(10));
                p * m
                    .probabilities()
                    .iter()
                    .filter(|(ex, _)| ex.verdict == super::super::Verdict::Victory)
                    .map(|(_, q)| q)
                    .sum::<f64>()
            })
            .sum();
        assert!((p_victory(&c.exact()) - mixed).abs() < 1e-15);
    }

    #[test]
    fn more_rating_never_lowers_p_victory_for_1_to_60() {
        for opp in 1..=60 {
            let mut last = 0.0;
            for pc in 1..=60 {
                let c = Config {
                    pc: Rating(pc),
                    augment: Augment::Assured(0),
                    story_points: 0,
                    opposition: Opposition::Resistance(Rating(opp)),
                    base: Rating(10),
                };
                let v = p_victory(&c.exact());
                assert!(v >= last - 1e-12, "{pc} vs {opp}: {v} < {last}");
                last = v;
            }
        }
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        use crate::systems::testing::{Sample, assert_agrees};
        use ParamValue::*;
        let configs = [
            vec![("pc.rating", Int(1)), ("resistance.rating", Int(1))],
            vec![
                ("pc.rating", Str("5M".into())),
                ("resistance.level", Str("hard".into())),
            ],
            vec![
                ("pc.rating", Int(12)),
                ("pc.story_points", Int(2)),
                (
                    "pc.augment",
                    Table(vec![("rating".into(), Str("1M".into()))]),
                ),
            ],
            vec![
                ("pc.rating", Int(17)),
                ("opponent.rating", Str("4M2".into())),
                ("opponent.augment", Int(10)),
            ],
            vec![("pc.rating", Int(0)), ("resistance.rating", Int(-5))],
        ];
        for (i, pairs) in configs.iter().enumerate() {
            let m = Contest.prepare(&values(pairs)).unwrap();
            assert_agrees(m.as_ref(), Sample::seed(7).config(i), &format!("{pairs:?}"));
        }
    }
}
