//! Best play of the wrench against brute force over every deterministic
//! policy, and options no one needs found as such.

use super::*;
use crate::exact::best::check::{From, best_is_brute_force};
use crate::exact::best::{BestLimits, best};
use crate::model::{Define, Marginals, ParamMap, ParamValue};
use crate::systems::cgg::action::venture::{ExecDice, Rolled};
use crate::systems::cgg::action::{ActionMechanic, field};

/// The parameters these keys set, each to its word.
fn params(pairs: &[(&str, &str)]) -> ParamMap {
    let pairs: Vec<(&str, ParamValue)> = pairs
        .iter()
        .map(|(k, v)| (*k, ParamValue::Str((*v).into())))
        .collect();
    ParamMap::from_pairs(&pairs)
}

fn action(pairs: &[(&str, &str)]) -> Action {
    let p = ActionMechanic.read(&params(pairs)).unwrap();
    Define::check(&ActionMechanic, &p).unwrap();
    ActionMechanic.build(p)
}

fn success(o: &[i64]) -> f64 {
    o[field::SUCCESS] as f64
}
fn avoided(o: &[i64]) -> f64 {
    o[field::AVOIDED] as f64
}
fn clean(o: &[i64]) -> f64 {
    o[field::CLEAN] as f64
}

/// A metric of one outcome.
type Metric = fn(&[i64]) -> f64;

const METRICS: [(&str, Metric); 3] = [("success", success), ("avoided", avoided), ("clean", clean)];

#[test]
fn a_whole_action_with_one_risk_die_is_its_brute_force() {
    // One difficulty die and one risk die: venture comes only with a 6,
    // so the player decides at most once, on five ways the Exec's die
    // can fall.
    for hammer in ["always", "only-on-success", "none"] {
        let a = action(&[
            ("explorer.code", "2d"),
            ("explorer.risk_code", "1d"),
            ("difficulty.base", "easy"),
            ("policy.hammer", hammer),
        ]);
        assert_eq!(a.difficulty_dice(), 1);
        for (name, reward) in METRICS {
            let n = best_is_brute_force(
                &WrenchChoice::new(a),
                &reward,
                20_000,
                &format!("{hammer} {name}"),
            );
            assert!(n >= 16, "{hammer} {name}: {n} policies");
        }
    }
}

#[test]
fn a_roll_with_venture_to_spare_is_its_brute_force() {
    // Two risk dice showing 6 (venture 2, total 0) against one failing
    // die showing 3 or 1 (risk target 4 + the face), impaired or not:
    // "get serious", "not as bad", the re-roll and the dice they roll
    // all branch (360 and 432 policies).
    for (impaired, cond) in [(false, "none"), (true, "impairs")] {
        let a = action(&[
            ("explorer.code", if impaired { "3d" } else { "2d" }),
            ("explorer.risk_code", "2d"),
            ("difficulty.base", "easy"),
            ("difficulty.condition", cond),
        ]);
        assert_eq!((a.difficulty_dice(), a.impaired), (1, impaired));
        let p = WrenchChoice::new(a);
        for (dice, venture) in [([0, 0, 1, 0, 0], 2), ([1, 0, 0, 0, 0], 2)] {
            let rolled = Rolled {
                dice: ExecDice(dice),
                venture,
                total: 0,
            };
            let from = From(&p, Step::Board(a.board(&rolled)));
            for (name, reward) in METRICS {
                let what = format!("{cond} {dice:?} {venture} {name}");
                let n = best_is_brute_force(&from, &reward, 20_000, &what);
                assert!(n >= 100, "{what}: {n} policies");
            }
        }
    }
}

#[test]
fn uses_that_cannot_help_are_dominated() {
    // Against no hammer and for the risk alone, removing or re-rolling a
    // failure changes nothing: forbidding either costs nothing and best
    // play never spends on them; "That was close!" is what saves risks.
    let a = action(&[("policy.hammer", "none")]);
    let s = best(&WrenchChoice::new(a), &avoided, true, BestLimits::default()).unwrap();
    let row = |t: &str| s.dominance.iter().find(|d| d.tag == t).unwrap().clone();
    for t in ["gotta", "good"] {
        let d = row(t);
        assert!(d.loss.abs() < 1e-12 && d.usage == 0.0, "{d:?}");
    }
    assert!(row("close").loss > 0.05, "{:?}", row("close"));
    // Against "always", holding venture back for success only feeds the
    // Exec's "Can't do it!": never needed.
    let a = action(&[]);
    let s = best(&WrenchChoice::new(a), &success, true, BestLimits::default()).unwrap();
    let hold = s.dominance.iter().find(|d| d.tag == "hold").unwrap();
    assert!(hold.loss.abs() < 1e-12, "{hold:?}");
}

/// Prepares `cgg.action` with `values` (the written rules among them)
/// and checks that it plays them as best play solved: the exact share of
/// `column` = 1 is `p`'s best value for `reward` within 1e-9, and the
/// sampler agrees with the exact law (fixed `seed`). Returns that share
/// and the exact law.
fn plays_as_solved(
    p: &WrenchChoice,
    reward: Metric,
    column: usize,
    values: &ParamMap,
    seed: u64,
    what: &str,
) -> (f64, Marginals) {
    let model = crate::systems::find("cgg.action")
        .unwrap()
        .prepare(values)
        .unwrap();
    let exact = model.exact().unwrap();
    let best = best(p, &reward, false, BestLimits::default()).unwrap();
    let replayed = exact.share(column, crate::model::Pred::Eq(1));
    assert!(
        (replayed - best.value).abs() < 1e-9,
        "{replayed} vs {}",
        best.value
    );
    crate::systems::testing::assert_agrees_with(
        &*model,
        &exact,
        crate::systems::testing::Sample::seed(seed),
        what,
    );
    (replayed, exact)
}

#[test]
fn written_rules_sample_as_they_solve() {
    // Best play for success at difficult against the "always" hammer,
    // written as rules: the action's tables, built by the same settling,
    // sample them as the exact solver plays them (every metric and every
    // field's law within 5 standard errors, fixed seed).
    let a = action(&[("difficulty.base", "difficult")]);
    let p = WrenchChoice::new(a);
    let written = p.write_for(&[], &success).expect("written");
    let (key, rules) = &written[0];
    assert_eq!(key, "policy.wrench");
    let mut values = params(&[("difficulty.base", "difficult")]);
    values.set("policy.wrench", rules.clone());
    let (replayed, _) = plays_as_solved(&p, success, field::SUCCESS, &values, 5, "written wrench");
    // And they are no named policy in disguise.
    let m = crate::systems::find("cgg.action").unwrap();
    for named in ["none", "greedy", "deny"] {
        values.set("policy.wrench", ParamValue::Str(named.into()));
        let v = m
            .prepare(&values)
            .unwrap()
            .exact()
            .unwrap()
            .share(field::SUCCESS, crate::model::Pred::Eq(1));
        assert!(v < replayed - 1e-3, "{named}: {v} vs {replayed}");
    }
}

#[test]
fn written_rules_with_uses_spent_sample_as_they_solve() {
    // A 2d explorer rolling 4d for risk on the half rule, for a clean
    // success against no hammer: the rules need the uses spent, and "get
    // serious" sets dice aside; the sampler's tables play them as the
    // exact solver does.
    let pairs = [
        ("explorer.code", "2d"),
        ("explorer.risk_code", "4d"),
        ("variant.failure", "half"),
        ("policy.hammer", "none"),
    ];
    let p = WrenchChoice::new(action(&pairs));
    let written = p.write_for(&[], &clean).expect("written");
    let ParamValue::List(rules) = &written[0].1 else {
        panic!("{:?}", written[0].1)
    };
    let text = format!("{rules:?}");
    assert!(text.contains("\"spent\"") || text.contains("\"unspent\""));
    let mut values = params(&pairs);
    values.set("policy.wrench", written[0].1.clone());
    let (_, exact) = plays_as_solved(
        &p,
        clean,
        field::CLEAN,
        &values,
        6,
        "written wrench with uses spent",
    );
    assert!(exact.share(field::SERIOUS, crate::model::Pred::Eq(1)) > 0.0);
}
