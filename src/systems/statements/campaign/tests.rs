//! The campaign's hand-worked cases, its agreement with independent
//! scenes, and the memo against the plain resolution.

use super::*;
use crate::systems::testing::table;
use crate::systems::{Mechanic, ParamMap, ParamValue};
use ParamValue::*;

/// A one-player campaign of one statement; every outcome of trial 1.
fn run(statement: ParamValue, luck: i64, rest: &[(&str, ParamValue)]) -> Vec<i64> {
    let mut m = ParamMap::new();
    m.set(
        "players",
        List(vec![table(&[
            ("name", Str("ann".into())),
            ("luck", Int(luck)),
            ("statements", List(vec![statement])),
        ])]),
    );
    for (k, v) in rest {
        m.set(*k, v.clone());
    }
    let series = Campaign.trial(&m).unwrap();
    let mut scene = series.table.clone();
    let mut resolved = Resolved::new(&scene, true);
    let (mut played, mut out) = (Played::default(), Vec::new());
    let rng = &mut DiceRng::from_u64(1);
    series.play(rng, &mut scene, &mut resolved, &mut played, &mut out);
    assert_eq!(out.len(), series.named_schema().fields.len());
    out
}

#[test]
fn drives_earn_luck_up_to_ten_and_failures_feed_experience() {
    // Favouring 0: three failures a scene, each earning luck (a drive):
    // 3, 6, 9, then the cap. Three failures against traits 0 always
    // give three experience successes.
    let hopeless = table(&[
        ("favouring", Int(0)),
        ("opposing", Int(1)),
        ("drive", Bool(true)),
    ]);
    let out = run(
        hopeless,
        0,
        &[("experience.traits", Int(0)), ("bids", Str("none".into()))],
    );
    assert_eq!(out, [3, 6, 9, 10, 10, 15, 5, 5]);
}

#[test]
fn bids_are_spent_when_true_and_follow_the_policy() {
    // Favouring 1 against 0: always three successes, always true.
    let sure = |bid| table(&[("favouring", Int(1)), ("luck", Int(bid))]);
    // Fixed bids of 2 from 5 luck: 3, 1, then the 1 left, then none.
    let fixed = run(sure(2), 5, &[("scenes", Int(4))]);
    assert_eq!(fixed, [3, 1, 0, 0, 0, 0, 0]);
    // All in: everything on the first statement at once.
    let all_in = run(
        sure(0),
        5,
        &[("scenes", Int(2)), ("bids", Str("all-in".into()))],
    );
    assert_eq!(all_in, [0, 0, 0, 0, 0]);
    // No bids: the luck stays.
    let none = run(
        sure(2),
        5,
        &[("scenes", Int(2)), ("bids", Str("none".into()))],
    );
    assert_eq!(none, [5, 5, 0, 0, 0]);
}

/// `a` and `b` laws over 0, 1, …: the law of their sum.
fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut c = vec![0.0; a.len() + b.len() - 1];
    for (i, &p) in a.iter().enumerate() {
        for (j, &q) in b.iter().enumerate() {
            c[i + j] += p * q;
        }
    }
    c
}

/// The registry's example campaign (five scenes of two players with
/// two statements each, no luck, traits 10): scenes are independent,
/// so a player's failures are five scenes' failures convolved, and its
/// experience and attribute counts binomial over the scenes, each
/// scene's chance summed over its failures. A million trials (every
/// roll drawn from an alias table) agree with it.
#[test]
fn the_example_campaign_agrees_with_independent_scenes() {
    use crate::model::Marginals;
    use crate::systems::testing::{Sample, assert_agrees_with, example};
    let model = Campaign.prepare(&example(&Campaign)).unwrap();
    let mut exact = Marginals::new(16);
    for (p, favouring) in [(0, 3), (1, 5)] {
        let law = |f: u64| Roll::new(f, 4).success_probabilities(Rolls::Three);
        // Failures of one scene: 3 − successes of each statement.
        let fails = |l: [f64; 4]| [l[3], l[2], l[1], l[0]];
        let scene = convolve(&fails(law(favouring)), &fails(law(favouring + 1)));
        let (mut improve, mut attribute) = (0.0, 0.0);
        for (f, &q) in scene.iter().enumerate() {
            let test = test_roll(f as u64, 10).success_probabilities(Rolls::Three);
            improve += q * (1.0 - test[0]);
            attribute += q * test[3];
        }
        let (mut failures, mut exp, mut attr) = (vec![1.0], vec![1.0], vec![1.0]);
        for _ in 0..5 {
            failures = convolve(&failures, &scene);
            exp = convolve(&exp, &[1.0 - improve, improve]);
            attr = convolve(&attr, &[1.0 - attribute, attribute]);
        }
        let at = 8 * p;
        for k in 0..5 {
            exact.add(at + k, 0, 1.0);
        }
        for (field, law) in [(5, &failures), (6, &exp), (7, &attr)] {
            for (v, &q) in law.iter().enumerate() {
                exact.add(at + field, v as i64, q);
            }
        }
    }
    let z = assert_agrees_with(model.as_ref(), &exact, Sample::seed(18), "example campaign");
    eprintln!("example campaign: worst |z| {z:.2}");
}

#[test]
fn fields_and_metrics_are_named_per_player_and_scene() {
    let mut m = ParamMap::new();
    let st = table(&[("favouring", Int(3)), ("opposing", Int(3))]);
    m.set(
        "players",
        List(vec![
            table(&[
                ("name", Str("ann".into())),
                ("statements", List(vec![st.clone()])),
            ]),
            table(&[("name", Str("bob".into())), ("statements", List(vec![st]))]),
        ]),
    );
    m.set("scenes", Int(2));
    let model = Campaign.prepare(&m).unwrap();
    let names: Vec<&str> = model
        .schema()
        .metrics
        .iter()
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "mean_luck.ann.1",
            "mean_luck.ann.2",
            "mean_failures.ann",
            "mean_experience.ann",
            "mean_luck.bob.1",
            "mean_luck.bob.2",
            "mean_failures.bob",
            "mean_experience.bob"
        ]
    );
    m.set("scenes", Int(21));
    assert_eq!(Campaign.prepare(&m).err().unwrap().key, "scenes");
}

/// The shipped campaign (bids, a conflict settled by the coin, drives)
/// under each bid policy and with bids in the weight, and the example:
/// every trial gives the same outcome, and leaves the stream in the same
/// place, with the memo of resolved scenes as without it.
#[test]
fn the_memo_of_resolved_scenes_changes_no_trial() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/statements-campaign.toml"
    ));
    let text = std::fs::read_to_string(path).unwrap();
    let shipped = crate::scenario::Scenario::parse(path, &text)
        .unwrap()
        .params;
    let mut configs = vec![crate::systems::testing::example(&Campaign)];
    for bids in ["none", "fixed", "all-in"] {
        for weight_luck in [false, true] {
            let mut m = shipped.clone();
            m.set("bids", Str(bids.into()));
            m.set("variant.weight_luck", Bool(weight_luck));
            configs.push(m);
        }
    }
    for m in configs {
        let series = Campaign.trial(&m).unwrap();
        let mut scene = series.table.clone();
        let mut memo = Resolved::new(&scene, true);
        let mut plain = Resolved::new(&scene, false);
        let (mut rng_memo, mut rng_plain) = (DiceRng::from_u64(5), DiceRng::from_u64(5));
        let mut t = Played::default();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for trial in 0..20_000 {
            series.play(&mut rng_memo, &mut scene, &mut memo, &mut t, &mut a);
            series.play(&mut rng_plain, &mut scene, &mut plain, &mut t, &mut b);
            assert_eq!(a, b, "trial {trial} of {m:?}");
        }
        assert_eq!(rng_memo.next_u64(), rng_plain.next_u64(), "{m:?}");
    }
}
