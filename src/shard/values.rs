//! What a shard's stored values may be: each field's values strictly
//! increasing and within its config's support (as far as the mechanic
//! says), probabilities in (0, 1], counts that sum to the trials. A merge
//! reads every exact answer and tally through these checks.

use std::collections::BTreeSet;

use super::part::{Bits, StoredTally, joint_of};
use crate::model::Marginals;
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
    pub(super) fn narrow_to_exact(&mut self, e: &[Vec<(i64, Bits)>], trials: u64) {
        for (f, rows) in e.iter().enumerate() {
            let mut ps: Vec<f64> = rows.iter().map(|r| r.1.0).collect();
            ps.sort_by(f64::total_cmp);
            let missing = (1.0 - ps.iter().sum::<f64>()).max(0.0);
            if missing * trials as f64 <= EXACT_SUPPORT_SLACK && f < self.exact.len() {
                self.exact[f] = Some(rows.iter().map(|r| r.0).collect());
            }
        }
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

pub(super) fn exact_of(stored: &[Vec<(i64, Bits)>], schema: &Schema) -> Result<Marginals, String> {
    if stored.len() != schema.fields.len() {
        return Err(format!(
            "the exact answer has {} fields, but the mechanic has {}",
            stored.len(),
            schema.fields.len()
        ));
    }
    let mut m = Marginals::new(stored.len());
    for (f, rows) in stored.iter().enumerate() {
        let name = &schema.fields[f].name;
        check_values(name, rows.iter().map(|r| r.0))?;
        for &(v, Bits(p)) in rows {
            if !(p > 0.0 && p <= 1.0 + ROUNDING) {
                return Err(format!(
                    "`{name}` = {v} has probability {p}; allowed: above 0, at most 1 (give or take {ROUNDING:e} of rounding)"
                ));
            }
            m.add(f, v, p);
        }
    }
    Ok(m)
}

pub(super) fn tally_of(
    stored: &StoredTally,
    schema: &Schema,
    due: Option<u64>,
    max_trials: Option<u64>,
) -> Result<Tally, String> {
    let fields = schema.fields.len();
    if stored.fields.len() != fields {
        return Err(format!(
            "the tally has {} fields, but the mechanic has {fields}",
            stored.fields.len()
        ));
    }
    let n = stored.trials;
    match (due, max_trials) {
        (Some(due), _) if n != due => {
            return Err(format!("the tally has {n} trials; its chunks have {due}"));
        }
        (None, Some(cap)) if n == 0 || n > cap => {
            return Err(format!(
                "the tally has {n} trials; allowed: 1 to the run's max_trials, {cap}"
            ));
        }
        _ => {}
    }
    for (f, rows) in stored.fields.iter().enumerate() {
        let name = &schema.fields[f].name;
        check_values(name, rows.iter().map(|r| r.0))?;
        let sum = rows.iter().try_fold(0u64, |s, &(_, c)| {
            (c > 0).then(|| s.checked_add(c)).flatten()
        });
        if sum != Some(n) {
            return Err(format!(
                "the counts of `{name}` do not sum to the tally's {n} trials"
            ));
        }
    }
    let triples = stored
        .fields
        .iter()
        .enumerate()
        .flat_map(|(f, rows)| rows.iter().map(move |&(v, c)| (f, v, c)));
    let tally = Tally::from_columns(fields, n, triples);
    Ok(match &stored.joint {
        Some(joint) => {
            if joint.iter().any(|(o, _)| o.len() != fields)
                || joint.iter().map(|(_, c)| c).sum::<u64>() != n
            {
                return Err(format!(
                    "the tally's whole outcomes do not count its {n} trials of {fields} fields"
                ));
            }
            tally.with_joint_table(joint_of(joint, |&c| c))
        }
        None => tally,
    })
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

    #[test]
    fn a_whole_exact_answer_narrows_the_support_to_its_values() {
        let schema = schema();
        let mut s = Support::declared(&schema);
        s.narrow_to_exact(&exact(&[(2, 0.25), (4, 0.5), (9, 0.25)]), 1_000_000);
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
        let m = exact_of(&exact(&[(3, 1.0000000000000004)]), &schema).unwrap();
        assert_eq!(m.field(3)[&3], 1.0000000000000004);
        let e = exact_of(&exact(&[(3, 1.001)]), &schema).unwrap_err();
        assert!(e.contains("at most 1"), "{e}");
        assert!(exact_of(&exact(&[(3, 0.0)]), &schema).is_err());
    }

    #[test]
    fn an_exact_answer_with_a_reachable_tail_does_not_narrow() {
        // 1e-9 of the mass unabsorbed: a million trials could reach it
        // (1e-3 > 1e-6), a hundred could not (1e-7).
        let schema = schema();
        let rows = exact(&[(1, 0.5), (2, 0.5 - 1e-9)]);
        let mut s = Support::declared(&schema);
        s.narrow_to_exact(&rows, 1_000_000);
        assert_eq!(s.check(3, 3), Ok(()));
        let mut s = Support::declared(&schema);
        s.narrow_to_exact(&rows, 100);
        assert!(s.check(3, 3).is_err());
    }
}
