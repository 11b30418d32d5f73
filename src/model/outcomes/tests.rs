//! Tests of outcome tables: histograms, joint keys, merging, and a
//! solver's whole outcomes.

use super::record::{Keys, MAX_KEYS};
use super::*;
use crate::dice::DiceRng;

#[test]
fn hist_grows_both_ways() {
    let mut h = Hist::default();
    for v in [3, -2, 7, 3] {
        h.record(v);
    }
    assert_eq!(h.iter().collect::<Vec<_>>(), vec![(-2, 1), (3, 2), (7, 1)]);
    assert_eq!(h.total(), 4);
}

#[test]
fn merge_is_order_free() {
    let mut a = Tally::new(1);
    let mut b = Tally::new(1);
    let mut rng = DiceRng::from_u64(3);
    a.record_trials(&mut rng, 100, |r| [r.d8() as i64]);
    b.record_trials(&mut rng, 50, |r| [-(r.d8() as i64)]);
    let ab = a.clone() + b.clone();
    let ba = b + a;
    assert_eq!(ab, ba);
    assert_eq!(ab.trials(), 150);
}

#[test]
fn recording_one_outcome_at_a_time_equals_recording_trials() {
    let mut fixed = Tally::new(2);
    fixed.record_trials(&mut DiceRng::from_u64(4), 1000, |r| {
        let d = r.d8() as i64;
        [d, -d]
    });
    let mut one = Tally::new(2);
    let mut rng = DiceRng::from_u64(4);
    for _ in 0..1000 {
        let d = rng.d8() as i64;
        one.record_outcome(&[d, -d]);
    }
    assert_eq!(fixed, one);
}

/// Per-field recording, the reference the joint keys must equal.
fn field_by_field<const N: usize>(
    rng: &mut DiceRng,
    trials: u64,
    mut sample: impl FnMut(&mut DiceRng) -> [i64; N],
) -> Tally {
    let mut t = Tally::new(N);
    for _ in 0..trials {
        t.record_outcome(&sample(rng));
    }
    t
}

#[test]
fn joint_keys_equal_field_by_field_recording() {
    // Correlated fields, a long upper tail (beyond the learnt range, so
    // recorded field by field), a negative field, and short runs that
    // end inside the warm-up.
    let sample = |r: &mut DiceRng| {
        let d = r.d8() as i64;
        let mut run = 0;
        while r.bits(1) == 1 {
            run += 1;
        }
        [d, (d >= 5) as i64, -d - run, run]
    };
    for trials in [0, 1, 255, 256, 257, 100_000] {
        let mut joint = Tally::new(4);
        joint.record_trials(&mut DiceRng::from_u64(17), trials, sample);
        let direct = field_by_field(&mut DiceRng::from_u64(17), trials, sample);
        assert_eq!(joint, direct, "{trials} trials");
        assert_eq!(joint.trials(), trials);
    }
}

#[test]
fn too_many_joint_keys_fall_back_to_fields() {
    // Three fields of 128 values: 2^21 keys, past the flat array.
    let sample = |r: &mut DiceRng| [r.bits(7) as i64, r.bits(7) as i64, r.bits(7) as i64];
    let mut joint = Tally::new(3);
    joint.record_trials(&mut DiceRng::from_u64(5), 5_000, sample);
    assert_eq!(
        joint,
        field_by_field(&mut DiceRng::from_u64(5), 5_000, sample)
    );
}

#[test]
fn joint_keys_decode_to_their_outcomes() {
    let j = Keys::learn([-3, 0, 10], [2, 1, 10]).unwrap();
    for outcome in [[-3, 0, 10], [2, 1, 10], [0, 1, 10], [5, 0, 11]] {
        let k = j.key(&outcome).expect("inside the widened ranges");
        assert_eq!(j.decode(k), outcome);
    }
    assert_eq!(j.key(&[-4, 0, 10]), None);
    assert!(j.keys <= MAX_KEYS);
}

#[test]
fn key_counts_expand_once_each() {
    let mut t = Tally::new(2);
    t.add_key_counts(&[3, 0, 2], |k| [k as i64, 10 * k as i64]);
    assert_eq!(t.trials(), 5);
    assert_eq!(t.field(1).iter().collect::<Vec<_>>(), vec![(0, 3), (20, 2)]);
}

#[test]
fn whole_outcomes_are_counted_however_recorded_and_merged() {
    let sample = |r: &mut DiceRng| {
        let d = r.d8() as i64;
        [d, (d >= 4) as i64]
    };
    let mut fixed = Tally::with_joint(2);
    fixed.record_trials(&mut DiceRng::from_u64(5), 5000, sample);
    let mut one = Tally::with_joint(2);
    let mut rng = DiceRng::from_u64(5);
    for _ in 0..5000 {
        one.record_outcome(&sample(&mut rng));
    }
    let mut keyed = Tally::with_joint(2);
    keyed.record_keyed(
        &mut DiceRng::from_u64(5),
        5000,
        |r| r.d8() as i64,
        |d| [d, (d >= 4) as i64],
    );
    assert_eq!(fixed, one);
    assert_eq!(fixed, keyed);
    let joint = fixed.joint().unwrap();
    assert_eq!(joint.values().sum::<u64>(), 5000);
    assert_eq!(joint.len(), 8, "d8 faces, each with its flag");
    // The marginals are the joint's sums.
    let fours: u64 = joint
        .iter()
        .filter(|(o, _)| o[0] == 4)
        .map(|(_, n)| n)
        .sum();
    assert_eq!(
        fixed.field(0).iter().find(|(v, _)| *v == 4).unwrap().1,
        fours
    );
    // Merging keeps them, from an empty start too; a part without
    // them makes them unknown.
    let merged = Tally::new(2) + fixed.clone() + one.clone();
    assert_eq!(merged.joint().unwrap().values().sum::<u64>(), 10_000);
    let mut plain = Tally::new(2);
    plain.record_trials(&mut DiceRng::from_u64(5), 10, sample);
    assert!((fixed + plain).joint().is_none());
}

#[test]
fn keyed_recording_equals_direct_recording() {
    let expand = |k: i64| [k, (k >= 4) as i64];
    let mut direct = Tally::new(2);
    direct.record_trials(&mut DiceRng::from_u64(9), 10_000, |r| expand(r.d8() as i64));
    let mut keyed = Tally::new(2);
    keyed.record_keyed(&mut DiceRng::from_u64(9), 10_000, |r| r.d8() as i64, expand);
    assert_eq!(direct, keyed);
}

#[test]
fn no_joint_keys_before_the_warm_up() {
    // Every outcome, zeros included, goes field by field until the
    // ranges are learnt.
    let none = Keys::<3>::NONE;
    for outcome in [[0, 0, 0], [1, -1, 7], [i64::MIN, 0, i64::MAX]] {
        assert_eq!(none.key(&outcome), None);
    }
}

#[test]
fn whole_outcomes_keep_the_joint_table_and_a_lone_field_drops_it() {
    let mut m = Marginals::new(2);
    m.add_outcome(&[1, 0], 0.25);
    m.add_outcome(&[1, 1], 0.25);
    m.add_outcome(&[0, 1], 0.5);
    assert_eq!(m.field(1)[&1], 0.75);
    assert_eq!(m.total(), 1.0);
    let joint = m.joint().expect("every probability came whole");
    assert_eq!(joint[&[1i64, 1][..]], 0.25);
    assert_eq!(joint.len(), 3);
    m.add(0, 2, 0.1);
    assert!(m.joint().is_none());
}

#[test]
fn counts_and_probabilities_read_the_same_way() {
    // One table of whole outcomes, weighed once in counts and once in
    // probabilities: every read agrees up to the scale.
    let outcomes = [([0, 1], 1u64), ([0, 2], 1), ([1, 3], 2)];
    let mut t = Tally::with_joint(2);
    let mut m = Marginals::new(2);
    for (o, n) in outcomes {
        t.record_outcomes(&o, n);
        m.add_outcome(&o, n as f64 / 4.0);
    }
    assert_eq!((t.total(), m.total()), (4, 1.0));
    assert_eq!(t.share(1, Pred::Le(2)), 2);
    assert_eq!(m.share(1, Pred::Le(2)), 0.5);
    let quick = (0, Pred::Eq(0));
    assert_eq!(t.share_both(quick, (1, Pred::Ge(2))), Some(1));
    assert_eq!(m.share_both(quick, (1, Pred::Ge(2))), Some(0.25));
    let w: Vec<(i64, u64)> = t.weights(1).collect();
    assert_eq!(w, vec![(1, 1), (2, 1), (3, 2)]);
    // Read back from columns alone, whole outcomes are unknown.
    let back = Tally::from_columns(
        2,
        4,
        (0..2).flat_map(|f| t.weights(f).map(move |(v, n)| (f, v, n))),
    );
    assert_eq!(back, t);
    assert_eq!(back.share_both(quick, (1, Pred::Ge(2))), None);
    // Merging adds weights, and whole outcomes where both parts kept them.
    let twice = m.clone() + m.clone();
    assert_eq!(twice.field(1)[&3], 1.0);
    assert_eq!(twice.joint().unwrap()[&[1i64, 3][..]], 1.0);
}

#[test]
fn beside_pairs_every_value_of_either_table_in_order() {
    let mut t = Tally::new(2);
    for o in [[1, 5], [3, 5], [3, 6]] {
        t.record_outcome(&o);
    }
    let mut m = Marginals::new(2);
    for (v, p) in [(0, 0.25), (3, 0.5), (4, 0.25)] {
        m.add(0, v, p);
    }
    let pairs: Vec<_> = t.beside(&m, 0).collect();
    assert_eq!(
        pairs,
        vec![(0, 0, 0.25), (1, 1, 0.0), (3, 2, 0.5), (4, 0, 0.25)]
    );
    assert_eq!(
        m.beside(&t, 1).collect::<Vec<_>>(),
        vec![(5, 0.0, 2), (6, 0.0, 1)]
    );
    assert_eq!(t.mass(1), 3);
    assert_eq!(m.mass(0), 1.0);
}
