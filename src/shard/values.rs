//! What a shard's stored values may be: each field's values strictly
//! increasing and within its config's support (as far as the mechanic
//! says), probabilities in (0, 1], counts that sum to the trials. A merge
//! reads every exact answer and tally through these checks.

use std::collections::BTreeSet;

use super::part::{Bits, StoredTally, joint_of};
use crate::model::{Marginals, Outcomes, Weight};
use crate::sim::Tally;
use crate::systems::{FieldKind, Schema};

/// The widest range of values one field may span: tallies are dense, so
/// a wider one is garbage, not a result.
const MAX_SPAN: i64 = 1 << 24;

/// The probability an exact answer may leave unaccounted, times the
/// config's trials, for its values to bound a tally: a chain solved until
/// less than 1e-13 of its mass is still in play has a tail a long run
/// could reach, and a genuine shard must never be refused.
const EXACT_SUPPORT_SLACK: f64 = 1e-6;

/// How far above 1 a stored probability may be: a solver's sum of many
/// terms rounds (questworlds.scored's sure parting shot is
/// 1.0000000000000004), and a genuine shard must never be refused.
const ROUNDING: f64 = 1e-9;

/// The values each field of one config may take, as far as the mechanic
/// says: a bool's 0 and 1, a category's choices, an integer's declared
/// range; and, once the config's exact answer is read, exactly its values.
pub(super) struct Support<'a> {
    schema: &'a Schema,
    /// Per field, the exact answer's values, where they bound the field.
    exact: Vec<Option<BTreeSet<i64>>>,
}

impl<'a> Support<'a> {
    pub(super) fn declared(schema: &'a Schema) -> Support<'a> {
        Support {
            schema,
            exact: vec![None; schema.fields.len()],
        }
    }

    /// Bound each field by the values of the exact answer `e`, where its
    /// probabilities leave too little unaccounted for a run of `trials`
    /// trials to reach another value.
    pub(super) fn narrow_to_exact(&mut self, e: &Marginals, trials: u64) {
        for f in 0..e.len() {
            let mut ps: Vec<f64> = e.weights(f).map(|(_, p)| p).collect();
            ps.sort_by(f64::total_cmp);
            let missing = (1.0 - ps.iter().sum::<f64>()).max(0.0);
            if missing * trials as f64 <= EXACT_SUPPORT_SLACK && f < self.exact.len() {
                self.exact[f] = Some(e.weights(f).map(|(v, _)| v).collect());
            }
        }
    }

    /// `Ok` when every value of `t`, in its columns and its whole
    /// outcomes, is one its field may take; else the first that is not,
    /// as `(field, value, the values it may take)`.
    pub(super) fn check_table<W: Weight>(
        &self,
        t: &Outcomes<W>,
    ) -> Result<(), (usize, i64, String)> {
        let columns = (0..t.len()).flat_map(|f| t.weights(f).map(move |(v, _)| (f, v)));
        // Whole outcomes too: a metric over two fields reads them.
        let whole = t.joint().into_iter().flatten();
        let whole = whole.flat_map(|(o, _)| o.iter().copied().enumerate());
        for (f, v) in columns.chain(whole) {
            self.check(f, v).map_err(|allowed| (f, v, allowed))?;
        }
        Ok(())
    }

    /// `Ok` when field `f` may take `v`; else the values it may take.
    pub(super) fn check(&self, f: usize, v: i64) -> Result<(), String> {
        let Some(spec) = self.schema.fields.get(f) else {
            return Ok(());
        };
        let declared = match &spec.kind {
            FieldKind::Bool => Some((0, 1, "false or true, 0 or 1".to_string())),
            FieldKind::Category(labels) => Some((
                0,
                labels.len() as i64 - 1,
                format!(
                    "one of its {} choices, 0 to {} ({})",
                    labels.len(),
                    labels.len() as i64 - 1,
                    labels.join(" | ")
                ),
            )),
            FieldKind::Int => spec.range.map(|(lo, hi)| {
                (
                    lo,
                    hi,
                    format!("{lo} to {hi}, the range the mechanic declares for it"),
                )
            }),
        };
        if let Some((lo, hi, allowed)) = declared
            && !(lo..=hi).contains(&v)
        {
            return Err(allowed);
        }
        if let Some(Some(values)) = self.exact.get(f)
            && !values.contains(&v)
        {
            let (lo, hi) = (values.first(), values.last());
            return Err(format!(
                "the {} values of the config's exact answer ({} to {})",
                values.len(),
                lo.map_or("-".into(), |v| v.to_string()),
                hi.map_or("-".into(), |v| v.to_string()),
            ));
        }
        Ok(())
    }
}

/// Values of one stored field: strictly increasing, within a plausible
/// span.
fn check_values(field: &str, values: impl Iterator<Item = i64>) -> Result<(), String> {
    let mut first = None;
    let mut last: Option<i64> = None;
    for v in values {
        if last.is_some_and(|l| v <= l) {
            return Err(format!("`{field}` lists value {v} out of order or twice"));
        }
        let lo = *first.get_or_insert(v);
        if v.saturating_sub(lo) > MAX_SPAN {
            return Err(format!(
                "`{field}` spans values {lo} to {v}, far beyond any mechanic"
            ));
        }
        last = Some(v);
    }
    Ok(())
}

/// What differs between reading back a stored exact answer and a stored
/// tally; the rest of [`outcomes_of`] is one for both.
trait Stored: Weight {
    /// A weight as `shard.json` stores it.
    type As: Copy + Into<Self>;
    /// The table, as messages name it.
    const TABLE: &'static str;
    /// What is wrong with the weights of field `name` (its values checked)
    /// in a table of `total`, if anything.
    fn field_fault(name: &str, rows: &[(i64, Self::As)], total: Option<Self>) -> Option<String>;
    /// What is wrong with whole outcomes of `fields` fields in a table of
    /// `total`, if anything.
    fn whole_fault(fields: usize, joint: &[(Vec<i64>, Self::As)], total: Self) -> Option<String>;
}

/// Probabilities in (0, 1] (give or take rounding); a field's mass is not
/// checked, since a solver stopped at a tolerance leaves some unaccounted.
impl Stored for f64 {
    type As = Bits;
    const TABLE: &'static str = "the exact answer";

    fn field_fault(name: &str, rows: &[(i64, Bits)], _: Option<f64>) -> Option<String> {
        let &(v, Bits(p)) = rows
            .iter()
            .find(|r| !(r.1.0 > 0.0 && r.1.0 <= 1.0 + ROUNDING))?;
        Some(format!(
            "`{name}` = {v} has probability {p}; allowed: above 0, at most 1 (give or take {ROUNDING:e} of rounding)"
        ))
    }

    fn whole_fault(fields: usize, joint: &[(Vec<i64>, Bits)], _: f64) -> Option<String> {
        joint.iter().any(|(o, _)| o.len() != fields).then(|| {
            format!("the exact answer's whole outcomes are not all outcomes of {fields} fields")
        })
    }
}

/// Counts above zero, each field's and the whole outcomes' summing to the
/// trials exactly.
impl Stored for u64 {
    type As = u64;
    const TABLE: &'static str = "the tally";

    fn field_fault(name: &str, rows: &[(i64, u64)], total: Option<u64>) -> Option<String> {
        let n = total.unwrap_or(0);
        let sum = rows.iter().try_fold(0u64, |s, &(_, c)| {
            (c > 0).then(|| s.checked_add(c)).flatten()
        });
        (sum != Some(n))
            .then(|| format!("the counts of `{name}` do not sum to the tally's {n} trials"))
    }

    fn whole_fault(fields: usize, joint: &[(Vec<i64>, u64)], n: u64) -> Option<String> {
        let sum = joint.iter().try_fold(0u64, |s, (o, c)| {
            (o.len() == fields).then(|| s.checked_add(*c)).flatten()
        });
        (sum != Some(n)).then(|| {
            format!("the tally's whole outcomes do not count its {n} trials of {fields} fields")
        })
    }
}

/// A stored table read back and checked: per field `(value, weight)` in
/// increasing value, and the whole outcomes when stored. `total` gives
/// the total the table claims, once checked (a tally's trials; `None` for
/// an answer). Either way the table's total is its first field's mass.
fn outcomes_of<W: Stored>(
    stored: &[Vec<(i64, W::As)>],
    joint: Option<&[(Vec<i64>, W::As)]>,
    total: impl FnOnce() -> Result<Option<W>, String>,
    schema: &Schema,
) -> Result<Outcomes<W>, String> {
    let fields = schema.fields.len();
    if stored.len() != fields {
        return Err(format!(
            "{} has {} fields, but the mechanic has {fields}",
            W::TABLE,
            stored.len()
        ));
    }
    let total = total()?;
    for (f, rows) in stored.iter().enumerate() {
        let name = &schema.fields[f].name;
        check_values(name, rows.iter().map(|r| r.0))?;
        if let Some(fault) = W::field_fault(name, rows, total) {
            return Err(fault);
        }
    }
    let mass = stored.first().into_iter().flatten();
    let mass = mass.fold(W::ZERO, |s, &(_, w)| s + w.into());
    let triples = stored
        .iter()
        .enumerate()
        .flat_map(|(f, rows)| rows.iter().map(move |&(v, w)| (f, v, w.into())));
    let table = Outcomes::from_columns(fields, mass, triples);
    let Some(joint) = joint else {
        return Ok(table);
    };
    if let Some(fault) = W::whole_fault(fields, joint, mass) {
        return Err(fault);
    }
    Ok(table.with_joint_table(joint_of(joint, |&w| w.into())))
}

/// A stored tally read back: [`outcomes_of`], once its trials are those
/// its chunks were due (`due`), or else within the run's cap.
pub(super) fn tally_of(
    stored: &StoredTally,
    schema: &Schema,
    due: Option<u64>,
    max_trials: Option<u64>,
) -> Result<Tally, String> {
    let n = stored.trials;
    let trials = || match (due, max_trials) {
        (Some(due), _) if n != due => {
            Err(format!("the tally has {n} trials; its chunks have {due}"))
        }
        (None, Some(cap)) if n == 0 || n > cap => Err(format!(
            "the tally has {n} trials; allowed: 1 to the run's max_trials, {cap}"
        )),
        _ => Ok(Some(n)),
    };
    outcomes_of(&stored.fields, stored.joint.as_deref(), trials, schema)
}

/// A stored exact answer read back: [`outcomes_of`].
pub(super) fn exact_of(
    stored: &[Vec<(i64, Bits)>],
    joint: Option<&[(Vec<i64>, Bits)]>,
    schema: &Schema,
) -> Result<Marginals, String> {
    outcomes_of(stored, joint, || Ok(None), schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::FieldSpec;

    fn schema() -> Schema {
        Schema {
            fields: vec![
                FieldSpec::bool("win", ""),
                FieldSpec::new("side", FieldKind::Category(vec!["a", "b", "c"]), ""),
                FieldSpec::int("roll", "").within(1, 6),
                FieldSpec::int("free", ""),
            ],
            metrics: Vec::new(),
        }
    }

    #[test]
    fn declared_support_bounds_bools_categories_and_ranged_integers() {
        let schema = schema();
        let s = Support::declared(&schema);
        for (f, ok, bad) in [
            (0, [0, 1], [-1, 2]),
            (1, [0, 2], [-1, 3]),
            (2, [1, 6], [0, 7]),
        ] {
            for v in ok {
                assert_eq!(s.check(f, v), Ok(()), "field {f} value {v}");
            }
            for v in bad {
                assert!(s.check(f, v).is_err(), "field {f} value {v}");
            }
        }
        assert!(s.check(1, 3).unwrap_err().contains("a | b | c"));
        assert!(s.check(2, 7).unwrap_err().contains("1 to 6"));
        // An integer with no declared range takes any value.
        assert_eq!(s.check(3, -1_000_000), Ok(()));
    }

    fn exact(field: &[(i64, f64)]) -> Vec<Vec<(i64, Bits)>> {
        let rows = field.iter().map(|&(v, p)| (v, Bits(p))).collect();
        vec![Vec::new(), Vec::new(), Vec::new(), rows]
    }

    /// [`exact`], read back.
    fn answer(field: &[(i64, f64)]) -> Marginals {
        exact_of(&exact(field), None, &schema()).unwrap()
    }

    #[test]
    fn a_whole_exact_answer_narrows_the_support_to_its_values() {
        let schema = schema();
        let mut s = Support::declared(&schema);
        s.narrow_to_exact(&answer(&[(2, 0.25), (4, 0.5), (9, 0.25)]), 1_000_000);
        assert_eq!(s.check(3, 4), Ok(()));
        for v in [3, 10, 1] {
            let e = s.check(3, v).unwrap_err();
            assert!(
                e.contains("3 values of the config's exact answer (2 to 9)"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_probability_rounded_past_one_is_read_and_one_far_past_it_refused() {
        let schema = schema();
        let m = exact_of(&exact(&[(3, 1.0000000000000004)]), None, &schema).unwrap();
        assert_eq!(m.field(3)[&3], 1.0000000000000004);
        let e = exact_of(&exact(&[(3, 1.001)]), None, &schema).unwrap_err();
        assert!(e.contains("at most 1"), "{e}");
        assert!(exact_of(&exact(&[(3, 0.0)]), None, &schema).is_err());
    }

    #[test]
    fn an_exact_answer_with_a_reachable_tail_does_not_narrow() {
        // 1e-9 of the mass unabsorbed: a million trials could reach it
        // (1e-3 > 1e-6), a hundred could not (1e-7).
        let schema = schema();
        let rows = answer(&[(1, 0.5), (2, 0.5 - 1e-9)]);
        let mut s = Support::declared(&schema);
        s.narrow_to_exact(&rows, 1_000_000);
        assert_eq!(s.check(3, 3), Ok(()));
        let mut s = Support::declared(&schema);
        s.narrow_to_exact(&rows, 100);
        assert!(s.check(3, 3).is_err());
    }

    fn tally(fields: Vec<Vec<(i64, u64)>>, joint: Option<Vec<(Vec<i64>, u64)>>) -> StoredTally {
        StoredTally {
            trials: 4,
            fields,
            joint,
        }
    }

    #[test]
    fn both_tables_are_read_by_one_path_and_refused_in_their_own_words() {
        let schema = schema();
        let columns = || {
            vec![
                vec![(0, 1), (1, 3)],
                vec![(2, 4)],
                vec![(6, 4)],
                vec![(-5, 4)],
            ]
        };
        let t = tally_of(&tally(columns(), None), &schema, Some(4), None).unwrap();
        assert_eq!((t.trials(), t.mass(0), t.joint()), (4, 4, None));
        // Fields first, then the trials, then each field's counts.
        let few = tally(vec![vec![(0, 4)]], None);
        let e = tally_of(&few, &schema, Some(3), None).unwrap_err();
        assert_eq!(e, "the tally has 1 fields, but the mechanic has 4");
        let e = tally_of(&tally(columns(), None), &schema, Some(3), None).unwrap_err();
        assert_eq!(e, "the tally has 4 trials; its chunks have 3");
        let mut zero = columns();
        zero[0] = vec![(0, 0), (1, 4)];
        let e = tally_of(&tally(zero, None), &schema, None, Some(9)).unwrap_err();
        assert_eq!(e, "the counts of `win` do not sum to the tally's 4 trials");
        let e = exact_of(&[vec![(0, Bits(1.0))]], None, &schema).unwrap_err();
        assert_eq!(e, "the exact answer has 1 fields, but the mechanic has 4");
        // Whole outcomes: a tally's count its trials, and every outcome
        // has a value per field.
        let whole = |o: Vec<Vec<i64>>| o.into_iter().map(|o| (o, 2)).collect::<Vec<_>>();
        let joint = whole(vec![vec![0, 2, 6, -5], vec![1, 2, 6, -5]]);
        let t = tally_of(&tally(columns(), Some(joint)), &schema, Some(4), None).unwrap();
        assert_eq!(t.joint().map(|j| j.len()), Some(2));
        let short = whole(vec![vec![0, 2, 6, -5], vec![1, 2, 6]]);
        let e = tally_of(&tally(columns(), Some(short)), &schema, Some(4), None).unwrap_err();
        assert_eq!(
            e,
            "the tally's whole outcomes do not count its 4 trials of 4 fields"
        );
        let answer = vec![
            vec![(1, Bits(1.0))],
            vec![(0, Bits(1.0))],
            vec![(1, Bits(1.0))],
            vec![],
        ];
        let short = vec![(vec![1, 0, 1], Bits(1.0))];
        let e = exact_of(&answer, Some(&short), &schema).unwrap_err();
        assert_eq!(
            e,
            "the exact answer's whole outcomes are not all outcomes of 4 fields"
        );
        let whole = vec![(vec![1, 0, 1, 7], Bits(1.0))];
        let m = exact_of(&answer, Some(&whole), &schema).unwrap();
        assert_eq!((m.total(), m.joint().map(|j| j.len())), (1.0, Some(1)));
    }

    #[test]
    fn a_table_outside_the_support_names_the_first_value_outside() {
        let schema = schema();
        let s = Support::declared(&schema);
        let mut m = Marginals::with_joint(4);
        m.add_outcome(&[1, 2, 6, 0], 0.5);
        assert_eq!(s.check_table(&m), Ok(()));
        m.add_outcome(&[1, 2, 7, 0], 0.5);
        let (f, v, allowed) = s.check_table(&m).unwrap_err();
        assert_eq!((f, v), (2, 7));
        assert!(allowed.contains("1 to 6"), "{allowed}");
    }
}
