//! `questworlds.group` (rules §4.4): each PC rolls a contest against
//! the resistance (which rolls once per PC); successes are summed per side
//! and the side with more wins; equal sums are a stalemate (variant
//! `pcs-win`: a zero-degree victory for the PCs). Sums of independent rolls
//! are exact by convolution; the Monte Carlo rolls every die (six faces
//! from a word) and counts each pair of sums as one key. Also the rating
//! lists both this and [`super::prize`] take.

use std::collections::BTreeMap;

use super::rating::{self, D20, Rating};
use super::{Level, RESISTANCE_PARAMS, Resistance, Roll};
use crate::dice::DiceRng;
use crate::model::Marginals;
use crate::sim::Tally;
use crate::systems::{
    CHECKED, Choice, Define, FieldKind, FieldSpec, Lit, MetricSpec, ParamError, ParamKind,
    ParamSpec, ParamValue, Pred, Schema, Trial, Warning,
};

/// The most characters in one group or prize contest.
pub const MAX_SIDE: usize = 8;

/// A list of ratings: `["15", "5M", 12]`, or a string `"15 5M 12"`.
pub const RATINGS: ParamKind = ParamKind::Custom {
    expects: "a list of 1..=8 ratings, e.g. [\"15\", \"5M\", 12] or \"15 5M 12\"",
};

fn ratings_of(v: &ParamValue) -> Result<Vec<Rating>, String> {
    let list: Vec<Rating> = match v {
        ParamValue::List(items) => items
            .iter()
            .map(rating::rating_of)
            .collect::<Result<_, _>>()?,
        ParamValue::Str(s) => s
            .split_whitespace()
            .map(|w| rating::rating_of(&ParamValue::Str(w.to_string())))
            .collect::<Result<_, _>>()?,
        other => return Err(format!("{} is the wrong type", other.type_name())),
    };
    if list.is_empty() || list.len() > MAX_SIDE {
        return Err(format!("{} ratings given", list.len()));
    }
    Ok(list)
}

/// A list of ratings, for `#[serde(deserialize_with = "ratings")]`.
pub(super) fn ratings<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Rating>, D::Error> {
    crate::model::parse_value(d, ratings_of)
}

/// Faces a rating rolls (one "no roll" case at TN ≤ 0).
pub(super) fn faces(r: Rating) -> std::ops::RangeInclusive<i64> {
    if r.tn() > 0 { 1..=D20 } else { 0..=0 }
}

/// Successes of one roll of `r`, weighted by faces.
fn successes(r: Rating) -> BTreeMap<i64, u128> {
    let mut out = BTreeMap::new();
    for f in faces(r) {
        *out.entry(Roll::of(r, f).successes).or_insert(0) += 1;
    }
    out
}

/// The distribution of a sum of independent rolls.
fn convolve(parts: impl IntoIterator<Item = BTreeMap<i64, u128>>) -> BTreeMap<i64, u128> {
    let mut acc = BTreeMap::from([(0i64, 1u128)]);
    for part in parts {
        let mut next = BTreeMap::new();
        for (a, wa) in &acc {
            for (b, wb) in &part {
                *next.entry(a + b).or_insert(0) += wa * wb;
            }
        }
        acc = next;
    }
    acc
}

/// Result categories of a group contest.
pub const GROUP_RESULTS: [&str; 3] = ["victory", "stalemate", "defeat"];

/// A group contest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub pcs: Vec<Rating>,
    pub resistance: Rating,
    /// Equal sums are a PC victory of degree 0 (the variant).
    pub pcs_win_stalemates: bool,
}

impl Group {
    /// `[result, degree, signed_degree, pc_successes, resistance_successes]`.
    pub fn outcome(&self, pc: i64, res: i64) -> [i64; 5] {
        let assured = self.resistance.tn() <= 0;
        let (result, signed) = match pc.cmp(&res) {
            _ if assured => (0, pc - res),
            std::cmp::Ordering::Greater => (0, pc - res),
            std::cmp::Ordering::Less => (2, pc - res),
            std::cmp::Ordering::Equal if self.pcs_win_stalemates => (0, 0),
            std::cmp::Ordering::Equal => (1, 0),
        };
        [result, signed.abs(), signed, pc, res]
    }

    /// Exact marginals: the two sums are independent.
    pub fn exact(&self) -> Marginals {
        let pc = convolve(self.pcs.iter().map(|&r| successes(r)));
        let res = convolve(self.pcs.iter().map(|_| successes(self.resistance)));
        let (tp, tr) = (pc.values().sum::<u128>(), res.values().sum::<u128>());
        let mut out = Marginals::new(5);
        for (a, wa) in &pc {
            for (b, wb) in &res {
                let p = (*wa as f64 / tp as f64) * (*wb as f64 / tr as f64);
                out.add_outcome(&self.outcome(*a, *b), p);
            }
        }
        out
    }

    /// The resistance's least summed successes, and how many sums it can
    /// reach: the `least` and `span` of [`Keys`].
    fn resistance_sums(&self) -> (i64, i64) {
        let each = faces(self.resistance).map(|f| Roll::of(self.resistance, f).successes);
        let (lo, hi) = (each.clone().min().unwrap_or(0), each.max().unwrap_or(0));
        let n = self.pcs.len() as i64;
        (n * lo, n * (hi - lo) + 1)
    }
}

/// What each face is worth to one side's roll: `[face]`, the successes of
/// [`Roll::of`] (the same for every face when the side does not roll), 32
/// wide so that a masked face is in bounds.
pub(super) fn by_face(r: Rating, worth: impl Fn(Roll) -> i64) -> [i64; 32] {
    std::array::from_fn(|f| {
        let face = if r.tn() > 0 {
            (f as i64).clamp(1, D20)
        } else {
            0
        };
        worth(Roll::of(r, face))
    })
}

/// A group contest's sampler. A pair of sums is one key, `pc * span +
/// (res − least)`, and a sum of rolls, so each roll's table holds what its
/// faces add to the key: PC `i`'s roll (slot `2i`) its successes × `span`,
/// the resistance's roll against it (slot `2i + 1`) its successes. Every
/// roll is a face of [`DiceRng::d20_each`], six from a word (a side that
/// does not roll ignores its face).
struct Keys {
    slots: Vec<[i64; 32]>,
    least: i64,
    span: i64,
}

impl Keys {
    fn new(g: &Group) -> Keys {
        let (least, span) = g.resistance_sums();
        let resistance = by_face(g.resistance, |r| r.successes);
        let slots = g
            .pcs
            .iter()
            .flat_map(|&pc| [by_face(pc, |r| r.successes * span), resistance])
            .collect();
        Keys { slots, least, span }
    }

    /// One group contest's key.
    #[inline(always)]
    fn sample(&self, rng: &mut DiceRng) -> i64 {
        let mut key = -self.least;
        rng.d20_each(&self.slots, |worth, face| key += worth[face as usize & 31]);
        key
    }

    /// The two sums of `key`.
    fn sums(&self, key: i64) -> (i64, i64) {
        (
            key.div_euclid(self.span),
            key.rem_euclid(self.span) + self.least,
        )
    }
}

crate::choice! {
    /// What equal sums are.
    pub enum EqualSums {
        /// A stalemate (the rules).
        Stalemate = "stalemate",
        /// A zero-degree victory for the PCs (variant).
        PcsWin = "pcs-win",
    }
}

static GROUP_PARAMS: [ParamSpec; 5] = [
    ParamSpec {
        path: "pcs",
        kind: RATINGS,
        default: Lit::Str("15 15 15"),
        doc: "The PCs' ratings; each rolls a contest against the resistance.",
    },
    RESISTANCE_PARAMS[0],
    RESISTANCE_PARAMS[1],
    RESISTANCE_PARAMS[2],
    ParamSpec {
        path: "stalemate",
        kind: ParamKind::Choice(EqualSums::NAMES),
        default: Lit::Str("stalemate"),
        doc: "Equal sums: \"stalemate\" (the rules), or \"pcs-win\" (variant: a zero-degree PC victory).",
    },
];

/// The parameters of `questworlds.group`, one field per path of
/// [`GROUP_PARAMS`].
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupParams {
    #[serde(deserialize_with = "ratings")]
    pub pcs: Vec<Rating>,
    #[serde(rename = "resistance.rating", default)]
    pub resistance_rating: Option<Rating>,
    #[serde(rename = "resistance.level", default)]
    pub resistance_level: Option<Level>,
    #[serde(rename = "resistance.base")]
    pub resistance_base: Rating,
    pub stalemate: EqualSums,
}

impl Trial for Group {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        // The two sums decide every field: count pairs of sums only.
        let keys = Keys::new(self);
        tally.record_keyed(
            rng,
            trials,
            |rng| keys.sample(rng),
            |k| {
                let (pc, res) = keys.sums(k);
                self.outcome(pc, res)
            },
        );
    }

    fn exact(&self) -> Option<Marginals> {
        Some(Group::exact(self))
    }
}

/// The mechanic `questworlds.group`.
pub struct GroupContest;

/// The resistance the keys describe.
fn resistance(p: &GroupParams) -> Resistance {
    Resistance {
        rating: p.resistance_rating,
        level: p.resistance_level,
        base: p.resistance_base,
    }
}

impl Define for GroupContest {
    type Params = GroupParams;
    type Trial = Group;
    const NAME: &'static str = "questworlds.group";
    const SUMMARY: &'static str = "Group contest: each PC rolls against the resistance; summed successes decide, equal sums stalemate.";

    fn params(&self) -> &'static [ParamSpec] {
        &GROUP_PARAMS
    }

    fn schema(&self) -> Schema {
        Schema {
            fields: vec![
                FieldSpec::new(
                    "result",
                    FieldKind::Category(GROUP_RESULTS.to_vec()),
                    "More summed successes wins; equal sums are a stalemate.",
                ),
                FieldSpec::int("degree", "Difference of the sums."),
                FieldSpec::int("signed_degree", "PC sum − resistance sum."),
                FieldSpec::int("pc_successes", "The PCs' summed successes."),
                FieldSpec::int("resistance_successes", "The resistance's summed successes."),
            ],
            metrics: vec![
                MetricSpec::prob("p_victory", 0, Pred::Eq(0), "Probability the PCs win."),
                MetricSpec::prob("p_stalemate", 0, Pred::Eq(1), "Probability of a stalemate."),
                MetricSpec::prob("p_defeat", 0, Pred::Eq(2), "Probability the PCs lose."),
                MetricSpec::mean(
                    "mean_degree",
                    2,
                    "Mean signed degree (positive for PC victories).",
                ),
            ],
        }
    }

    /// The resistance is a rating or a level, not both.
    fn check(&self, p: &GroupParams) -> Result<Vec<Warning>, ParamError> {
        resistance(p).tn()?;
        Ok(Vec::new())
    }

    /// `resistance.level` and `resistance.base` beside a set
    /// `resistance.rating`.
    fn idle(&self, p: &GroupParams) -> Vec<&'static str> {
        if p.resistance_rating.is_some() {
            vec!["resistance.level", "resistance.base"]
        } else {
            Vec::new()
        }
    }

    fn build(&self, p: GroupParams) -> Group {
        Group {
            // The TN is worked out again: the check kept nothing.
            resistance: resistance(&p).tn().expect(CHECKED),
            pcs: p.pcs,
            pcs_win_stalemates: match p.stalemate {
                EqualSums::Stalemate => false,
                EqualSums::PcsWin => true,
            },
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::prize::PrizeContest;
    use super::*;
    use crate::systems::{Mechanic, Model, ParamMap};

    /// The two marginals agree to 1e-10, value by value.
    pub(crate) fn close(a: &Marginals, b: &Marginals) {
        assert_eq!(a.len(), b.len());
        for f in 0..a.len() {
            let keys: std::collections::BTreeSet<_> =
                a.field(f).keys().chain(b.field(f).keys()).collect();
            for k in keys {
                let (x, y) = (
                    a.field(f).get(k).copied().unwrap_or(0.0),
                    b.field(f).get(k).copied().unwrap_or(0.0),
                );
                assert!((x - y).abs() < 1e-10, "field {f} value {k}: {x} vs {y}");
            }
        }
    }

    #[test]
    fn group_equals_enumeration_for_two_pcs() {
        for (a, b, res, variant) in [
            (15, 10, 10, false),
            (25, 3, 14, true),
            (44, 12, 20, false),
            (0, 18, 15, false),
            (12, 12, -5, false),
        ] {
            let g = Group {
                pcs: vec![Rating(a), Rating(b)],
                resistance: Rating(res),
                pcs_win_stalemates: variant,
            };
            let mut brute = Marginals::new(5);
            let cases = faces(Rating(a)).count() * faces(Rating(b)).count();
            let cases = (cases * faces(Rating(res)).count().pow(2)) as f64;
            for x in faces(Rating(a)) {
                for y in faces(Rating(b)) {
                    for u in faces(Rating(res)) {
                        for v in faces(Rating(res)) {
                            let pc =
                                Roll::of(Rating(a), x).successes + Roll::of(Rating(b), y).successes;
                            let r = Roll::of(Rating(res), u).successes
                                + Roll::of(Rating(res), v).successes;
                            brute.add_outcome(&g.outcome(pc, r), 1.0 / cases);
                        }
                    }
                }
            }
            close(&g.exact(), &brute);
        }
    }

    #[test]
    fn stalemate_variant_moves_stalemates_to_victories() {
        let mut g = GroupContest.trial(&ParamMap::new()).unwrap();
        let m = g.exact();
        g.pcs_win_stalemates = true;
        let v = g.exact();
        let (win, stale) = (m.field(0)[&0], m.field(0)[&1]);
        assert!(stale > 0.0);
        assert!((v.field(0)[&0] - (win + stale)).abs() < 1e-12);
        assert!(!v.field(0).contains_key(&1));
    }

    #[test]
    fn rating_lists_parse_both_ways() {
        let mut set = ParamMap::new();
        set.set(
            "pcs",
            ParamValue::List(vec![ParamValue::Str("5M".into()), ParamValue::Int(12)]),
        );
        assert_eq!(
            GroupContest.trial(&set).unwrap().pcs,
            vec![Rating(25), Rating(12)]
        );
        let mut set = ParamMap::new();
        set.set("contestants", ParamValue::Str("4M2 7 1M".into()));
        assert_eq!(
            PrizeContest.trial(&set).unwrap().contestants,
            vec![Rating(44), Rating(7), Rating(21)]
        );
        let mut set = ParamMap::new();
        set.set("contestants", ParamValue::Str("15".into()));
        assert_eq!(PrizeContest.trial(&set).unwrap_err().key, "contestants");
        let mut set = ParamMap::new();
        set.set("pcs", ParamValue::Str("15 X".into()));
        assert_eq!(GroupContest.trial(&set).unwrap_err().key, "pcs");
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        use crate::systems::testing::{Sample, assert_agrees};
        let models: Vec<Box<dyn Model>> = vec![
            GroupContest.prepare(&ParamMap::new()).unwrap(),
            {
                let mut set = ParamMap::new();
                set.set("pcs", ParamValue::Str("5M 12 3 1M2".into()));
                set.set("resistance.level", ParamValue::Str("hard".into()));
                GroupContest.prepare(&set).unwrap()
            },
            {
                // The resistance's masteries: its sums start above 0.
                let mut set = ParamMap::new();
                set.set("pcs", ParamValue::Str("4M 19".into()));
                set.set("resistance.rating", ParamValue::Str("2M2".into()));
                GroupContest.prepare(&set).unwrap()
            },
            {
                // Assured: the resistance does not roll.
                let mut set = ParamMap::new();
                set.set("pcs", ParamValue::Str("7 13 1M".into()));
                set.set("resistance.rating", ParamValue::Int(-2));
                GroupContest.prepare(&set).unwrap()
            },
            PrizeContest.prepare(&ParamMap::new()).unwrap(),
            {
                let mut set = ParamMap::new();
                set.set("contestants", ParamValue::Str("12 5M 18 9 20".into()));
                PrizeContest.prepare(&set).unwrap()
            },
            {
                // Eight: faces from two words; one contestant does not roll.
                let mut set = ParamMap::new();
                set.set(
                    "contestants",
                    ParamValue::Str("0 15 15 3M 8 12 19 20".into()),
                );
                PrizeContest.prepare(&set).unwrap()
            },
        ];
        for (i, m) in models.iter().enumerate() {
            assert_agrees(m.as_ref(), Sample::seed(3).config(i), &format!("model {i}"));
        }
    }
}
