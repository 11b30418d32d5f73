//! Hand-worked numbers for the three Cortex mechanics, and Monte Carlo
//! against the exact solvers at fixed seeds.

use super::basic::{Basic, BasicAction};
use super::contested::{Contested, ContestedAction};
use super::roll::RollLaw;
use super::timed::{Timed, TimedAction};
use super::{Pool, RatingTie, Sides};
use crate::model::Marginals;
use crate::systems::testing::{Sample, assert_agrees};
use crate::systems::{Define, ParamMap, ParamValue};

fn sides(actor: &str, aid: Option<&str>, opposition: &str, gang: Option<&str>) -> Sides {
    Sides {
        actor: actor.parse().unwrap(),
        aid: aid.map(|a| a.parse().unwrap()),
        opposition: opposition.parse().unwrap(),
        gang: gang.map_or(vec![], |g| g.parse::<Pool>().unwrap().dice().to_vec()),
    }
}

fn p(m: &Marginals, field: usize, value: i64) -> f64 {
    m.field(field).get(&value).copied().unwrap_or(0.0)
}

fn mean(m: &Marginals, field: usize) -> f64 {
    m.field(field).iter().map(|(v, p)| *v as f64 * p).sum()
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

#[test]
fn d6_d6_against_a_one_die_trouble_pool_by_hand() {
    // 2d6 without 1s: total 0 (both 1s) 1/36; a lone kept die v = 2..6
    // 2/36 each; two kept dice 4..12 with 1,2,3,4,5,4,3,2,1 of 36. So
    // P(A = t) ×36 for t = 0, 2..12: 1, 2, 2, 3, 4, 5, 4, 5, 4, 3, 2, 1.
    // 1d6 trouble: 0 or 2..6, 1/6 each.
    // P(A > O) ×216 = 2·1 + 2·2 + 3·3 + 4·4 + 5·5 + (4+5+4+3+2+1)·6 = 170.
    // P(A − O ≥ 5) ×216 = 4·1 + 5·1 + 4·2 + 5·3 + 4·4 + 3·5 + 2·6 + 1·6 = 81.
    // P(O − A ≥ 5) ×216: O = 5 or 6 with A = 0: 2.
    // Ties ×216: 1·1 + (2+2+3+4+5) = 17, which deal nothing.
    let b = Basic::new(sides("d6 d6", None, "d6", None), RatingTie::Larger, false);
    let m = b.exact();
    close(p(&m, 0, 1), 170.0 / 216.0);
    close(p(&m, 2, 1), 81.0 / 216.0);
    close(p(&m, 7, 1), 81.0 / 216.0);
    close(p(&m, 7, 2), 2.0 / 216.0);
    close(p(&m, 3, 0), 17.0 / 216.0);
    // Only d6s to re-roll on either side: every rating is d6.
    close(p(&m, 4, 6), 199.0 / 216.0);
    close(mean(&m, 5), 2.0 / 6.0);
    // Pushing until safe: 5 under → one step → a tie (nothing); 6 under →
    // one step → 1 under (a complication). No trauma is taken.
    let b = Basic::new(sides("d6 d6", None, "d6", None), RatingTie::Larger, true);
    let m = b.exact();
    close(p(&m, 7, 2), 0.0);
    close(p(&m, 6, 1), 2.0 / 216.0);
    close(p(&m, 3, 0), 18.0 / 216.0);
}

#[test]
fn ties_deal_a_complication_in_the_seed_text_variant() {
    // Same pools as above: the 17/216 ties now deal a complication to the
    // actor, so no one walks away clean. Every rating is d6 except the 0–0
    // tie (1/216), where the opposition's dice all showed 1 and its empty
    // complication pool rates d4 by the documented reading.
    let b = Basic::new(sides("d6 d6", None, "d6", None), RatingTie::Larger, false)
        .tie_complication(true);
    let m = b.exact();
    close(p(&m, 3, 0), 0.0);
    close(p(&m, 4, 6), 215.0 / 216.0);
    close(p(&m, 4, 4), 1.0 / 216.0);
    close(p(&m, 0, 1), 170.0 / 216.0);
    let c = Contested::new(
        sides("d4", None, "d4", None),
        RatingTie::Larger,
        false,
        true,
        None,
    )
    .tie_complication(true);
    close(p(&c.exact().unwrap(), 3, 0), 0.0);
    let mut v = ParamMap::new();
    v.set("variant.tie", ParamValue::Str("complication".into()));
    assert!(BasicAction.trial(&v).unwrap().tie_deals);
    assert!(ContestedAction.trial(&v).unwrap().tie_deals);
}

#[test]
fn a_pool_of_one_die_counts_only_that_die() {
    let law = RollLaw::of(&[8], RatingTie::Larger);
    let top = law.total.iter().rposition(|&p| p > 0.0).unwrap();
    assert_eq!(top, 8);
    // d8 vs 1d6: P(win) = (1+2+3+4+5+6+6)/6 / 8 = 27/48.
    let b = Basic::new(sides("d8", None, "d6", None), RatingTie::Larger, false);
    close(p(&b.exact(), 0, 1), 27.0 / 48.0);
}

#[test]
fn all_dice_showing_one_total_zero_and_lose_the_tie() {
    let law = RollLaw::of(&[4, 4, 4], RatingTie::Larger);
    close(law.total[0], 1.0 / 64.0);
    close(law.total[1], 0.0);
    let b = Basic::new(sides("3d4", None, "2d6", None), RatingTie::Larger, false);
    let r = b.resolve(0, 0);
    assert!(!r.win && r.margin == 0 && r.takes == 0);
}

#[test]
fn aid_adds_the_helpers_best_die() {
    // d4 aided by d4 against 1d6: the actor's total is its d4 (or 0) plus
    // the helper's d4 (or 0); by enumeration of 4·4 cases.
    let b = Basic::new(
        sides("d4", Some("d4"), "d6", None),
        RatingTie::Larger,
        false,
    );
    let law = b.actor_law();
    // total 0: both 1s; 2: one 2 and one 1 (2 ways); 8: both 4s.
    close(law.total[0], 1.0 / 16.0);
    close(law.total[2], 2.0 / 16.0);
    close(law.total[8], 1.0 / 16.0);
}

/// The keys of the two sides read the same in every mechanic that has
/// them: a bad pool names its key and what a pool is, and
/// `opposition.trouble` beside `opposition.pool` is refused even when set
/// to its default value (the typed parameters know it was set).
#[test]
fn every_mechanic_reads_the_sides_alike() {
    use super::fight::FightAction;
    use crate::systems::Mechanic;
    let mechanics: [&dyn Mechanic; 4] =
        [&BasicAction, &ContestedAction, &TimedAction, &FightAction];
    for m in mechanics {
        let mut v = ParamMap::new();
        v.set("opposition.pool", ParamValue::Str("d8 d6".into()));
        assert!(m.check(&v).is_ok(), "{}", m.name());
        v.set("opposition.trouble", ParamValue::Int(2));
        let e = m.check(&v).expect_err("a pool and a trouble pool");
        assert_eq!(e.key, "opposition.trouble", "{}", m.name());
        assert!(e.message.contains("not both"), "{}: {e}", m.name());
        for key in [
            "actor.pool",
            "actor.aid",
            "opposition.pool",
            "opposition.gang",
        ] {
            let mut v = ParamMap::new();
            v.set(key, ParamValue::Str("d8 d7".into()));
            let e = m.check(&v).expect_err("d7 is no step die");
            assert_eq!(e.key, key, "{}", m.name());
            assert!(
                e.message.starts_with("\"d8 d7\": d7 is not a step die")
                    && e.message.contains("; allowed: a pool of 1..=20 step dice"),
                "{}: {e}",
                m.name()
            );
        }
    }
}

#[test]
fn ganging_up_adds_dice_and_parameters_check() {
    let mut v = ParamMap::new();
    v.set("actor.pool", ParamValue::Str("2d6 d10".into()));
    v.set("opposition.pool", ParamValue::Str("d8".into()));
    v.set("opposition.gang", ParamValue::Str("3d6".into()));
    let b = BasicAction.trial(&v).unwrap();
    assert_eq!(b.sides.opposition_with(3).dice(), &[8, 6, 6, 6]);
    assert_eq!(b.sides.opposition_with(1).dice(), &[8, 6]);
    v.set("opposition.trouble", ParamValue::Int(3));
    assert_eq!(BasicAction.trial(&v).unwrap_err().key, "opposition.trouble");
    let mut v = ParamMap::new();
    v.set("actor.pool", ParamValue::Str("d8 d7".into()));
    let e = BasicAction.trial(&v).unwrap_err();
    assert_eq!(e.key, "actor.pool");
    assert!(
        e.message.contains("d7") && e.message.contains("allowed"),
        "{e}"
    );
    let b = BasicAction.trial(&ParamMap::new()).unwrap();
    assert_eq!(b.sides.opposition.dice(), &[6, 6]);
}

#[test]
fn basic_monte_carlo_agrees_with_exact_on_30_configs() {
    let configs: [(&str, Option<&str>, &str, Option<&str>); 15] = [
        ("d8 d6 d6", None, "2d6", None),
        ("d6 d6", None, "d6", None),
        ("d4", None, "d4", None),
        ("d12 d10 d8 d6", None, "6d6", None),
        ("2d4", Some("d8"), "3d6", None),
        ("d10 d8", None, "d8", Some("4d6")),
        ("20d12", None, "20d12", None),
        ("d12", None, "5d6", None),
        ("3d4 d12", Some("d6 d6"), "d10 d10", Some("d8")),
        ("d8 d8", None, "d12 d4", None),
        ("5d6", None, "2d6", None),
        ("d10 2d6", None, "4d6", None),
        ("d4 d6 d8 d10 d12", Some("d4"), "d12 d12", Some("2d6")),
        ("2d8", None, "20d6", None),
        ("d6 d4", None, "d12 d10 d8", None),
    ];
    let mut n = 0;
    for (i, &(a, aid, o, gang)) in configs.iter().enumerate() {
        for (tie, push) in [(RatingTie::Larger, false), (RatingTie::Smaller, true)] {
            let tie_deals = push && i % 2 == 1;
            let b = Basic::new(sides(a, aid, o, gang), tie, push).tie_complication(tie_deals);
            let what = format!(
                "{a} aid {aid:?} vs {o} gang {gang:?} {tie:?} push {push} tie deals {tie_deals}"
            );
            assert_agrees(
                BasicAction.model(b).as_ref(),
                Sample::seed(100 + i as u64),
                &what,
            );
            n += 1;
        }
    }
    assert_eq!(n, 30);
}

#[test]
fn contested_d4_against_d4_by_hand() {
    // f(s) = P(the side facing stakes s loses eventually), one d4 each
    // (totals 0, 2, 3, 4 with 1/4 each): f(4) = 1, f(3) = 3/4,
    // f(2) = 1/2 + 1/4·(1/4) + 0 = 9/16, f(0) = 1/4 + 1/4·(7/16) + 1/4·(1/4)
    // = 27/64. The actor opens: P(win) = ¼(f(0) + f(2) + f(3) + f(4))
    // = (27 + 36 + 48 + 64)/256 = 175/256.
    let c = Contested::new(
        sides("d4", None, "d4", None),
        RatingTie::Larger,
        false,
        true,
        None,
    );
    let m = c.exact().unwrap();
    close(p(&m, 0, 1), 175.0 / 256.0);
    // The opening roll never ends it; the shortest contest is two rolls.
    close(p(&m, 1, 1), 0.0);
    // Two rolls when the responder fails at once: ¼(¼ + ½ + ¾ + 1) = 10/16.
    close(p(&m, 1, 2), 10.0 / 16.0);
}

#[test]
fn contested_monte_carlo_agrees_with_exact() {
    type Case<'a> = (
        &'a str,
        Option<&'a str>,
        &'a str,
        Option<&'a str>,
        bool,
        Option<i64>,
    );
    let cases: [Case; 6] = [
        ("d4", None, "d4", None, false, None),
        ("d8 d6 d6", None, "2d6", None, true, None),
        ("d10 d8", Some("d6"), "d8", Some("3d6"), false, None),
        ("d6 d6", None, "d8 d8", None, true, Some(3)),
        ("2d8 d4", None, "d12", Some("d10 d4"), false, Some(6)),
        ("4d6", None, "6d6", None, true, None),
    ];
    for (i, &(a, aid, o, gang, push, give_in)) in cases.iter().enumerate() {
        let actor_first = i % 2 == 0;
        let c = Contested::new(
            sides(a, aid, o, gang),
            RatingTie::Larger,
            push,
            actor_first,
            give_in,
        )
        .tie_complication(i == 1 || i == 4);
        let what = format!("contest {a} vs {o} gang {gang:?} give_in {give_in:?}");
        assert_agrees(
            ContestedAction.model(c).as_ref(),
            Sample::seed(300 + i as u64),
            &what,
        );
    }
}

#[test]
fn contest_gang_dice_are_knocked_out_by_raises() {
    // Against a d4 with ten d12 helpers the gang shrinks as the actor
    // raises, so the actor does better than against a fixed 11-die pool
    // (slightly: it must first raise against eleven dice). Monte Carlo
    // checks the knock-out rule itself against the chain.
    let gang = Contested::new(
        sides("d12 d12", None, "d4", Some("10d12")),
        RatingTie::Larger,
        false,
        true,
        None,
    );
    let fixed = Contested::new(
        sides("d12 d12", None, "d4 10d12", None),
        RatingTie::Larger,
        false,
        true,
        None,
    );
    let (pg, pf) = (
        p(&gang.exact().unwrap(), 0, 1),
        p(&fixed.exact().unwrap(), 0, 1),
    );
    assert!(pg > pf, "{pg} vs {pf}");
}

#[test]
fn timed_out_of_time_at_zero_beats_after_a_failure_even_on_the_last_step() {
    // rules §2.4 (corrected 2026-11-22).
    let s = sides("d8 d6", None, "2d6", None);
    let b = Basic::new(s.clone(), RatingTie::Larger, false);
    let (extra, win) = b.success_odds();
    let opp: Pool = "2d6".parse().unwrap();
    // One step, one beat: an extraordinary success completes clean, a
    // success completes at 0 beats (no clean getaway), a failure leaves
    // −1 beats: out of time, although the step is passed.
    let m = Timed::new(&s, std::slice::from_ref(&opp), 1, false)
        .exact()
        .unwrap();
    close(p(&m, 0, 1), win);
    close(p(&m, 3, 1), extra);
    close(p(&m, 1, 0), win - extra);
    close(p(&m, 1, -1), 1.0 - win);
    // Two steps, one beat: only an extraordinary first step leaves time;
    // then the second step must succeed.
    let m = Timed::new(&s, &[opp.clone(), opp.clone()], 1, false)
        .exact()
        .unwrap();
    close(p(&m, 0, 1), extra * win);
    close(p(&m, 3, 1), extra * extra);
}

/// The law of one basic roll by enumerating every face of every die:
/// (extraordinary, success, failure), the rules of §2.1–2.2 spelled out
/// independently of the solver.
fn roll_law_by_faces(actor: &[u32], opposition: &[u32]) -> [f64; 3] {
    fn totals(dice: &[u32]) -> Vec<(i64, f64)> {
        let n: u64 = dice.iter().map(|&d| d as u64).product();
        (0..n)
            .map(|code| {
                let mut c = code;
                let mut kept: Vec<i64> = dice
                    .iter()
                    .map(|&d| {
                        let v = (c % d as u64) as i64 + 1;
                        c /= d as u64;
                        v
                    })
                    .filter(|&v| v != 1)
                    .collect();
                kept.sort_unstable_by(|a, b| b.cmp(a));
                (kept.iter().take(2).sum(), 1.0 / n as f64)
            })
            .collect()
    }
    let mut law = [0.0; 3];
    for (a, pa) in totals(actor) {
        for (o, po) in totals(opposition) {
            let which = if a - o >= 5 {
                0
            } else if a > o {
                1
            } else {
                2
            };
            law[which] += pa * po;
        }
    }
    law
}

/// Every sequence of roll results of a timed action, by the rules of
/// §2.4: P(completed, clean, beats left, rolls).
fn timed_by_sequences(
    law: &[f64; 3],
    steps: usize,
    beats: i64,
    repeat: bool,
) -> std::collections::BTreeMap<(i64, i64, i64, i64), f64> {
    let mut out = std::collections::BTreeMap::new();
    let mut live = vec![(0usize, beats, 0i64, 1.0)];
    while let Some((step, b, rolls, q)) = live.pop() {
        for (which, &pw) in law.iter().enumerate() {
            if pw == 0.0 {
                continue;
            }
            let (step, b) = match which {
                0 => (step + 1, b),
                1 => (step + 1, b - 1),
                _ => (if repeat { step } else { step + 1 }, b - 2),
            };
            let rolls = rolls + 1;
            let failed = which == 2;
            let key = if b <= 0 && (failed || step < steps) {
                Some((0, 0, b, rolls))
            } else if step == steps {
                Some((1, (b >= 1) as i64, b, rolls))
            } else {
                None
            };
            match key {
                Some(k) => *out.entry(k).or_insert(0.0) += q * pw,
                None => live.push((step, b, rolls, q * pw)),
            }
        }
    }
    out
}

#[test]
fn timed_exact_equals_every_roll_sequence() {
    let pools: [(&str, &[u32]); 4] = [
        ("d4", &[4]),
        ("d6 d4", &[6, 4]),
        ("d8 d6 d4", &[8, 6, 4]),
        ("3d6", &[6, 6, 6]),
    ];
    for (a, actor) in pools {
        for (o, opposition) in pools.iter().take(3) {
            let law = roll_law_by_faces(actor, opposition);
            let s = sides(a, None, o, None);
            let opp: Pool = o.parse().unwrap();
            for steps in 1..=3 {
                for beats in 1..=5 {
                    for repeat in [false, true] {
                        let m = Timed::new(&s, &vec![opp.clone(); steps], beats, repeat)
                            .exact()
                            .unwrap();
                        let joint = timed_by_sequences(&law, steps, beats, repeat);
                        let mut fields = vec![std::collections::BTreeMap::new(); 4];
                        for (&(done, clean, b, rolls), &q) in &joint {
                            for (f, v) in [done, b, rolls, clean].into_iter().enumerate() {
                                *fields[f].entry(v).or_insert(0.0) += q;
                            }
                        }
                        for (f, table) in fields.iter().enumerate() {
                            for (v, q) in table {
                                let what = format!(
                                    "{a} vs {o} steps {steps} beats {beats} repeat {repeat} field {f} value {v}"
                                );
                                assert!(
                                    (q - p(&m, f, *v)).abs() < 1e-12,
                                    "{what}: {q} vs {}",
                                    p(&m, f, *v)
                                );
                            }
                            let total: f64 = m.field(f).values().sum();
                            assert!((total - 1.0).abs() < 1e-9);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn timed_monte_carlo_agrees_with_exact() {
    let cases: [(&str, &[&str], i64, bool); 4] = [
        ("d8 d6 d6", &["2d6", "2d6", "2d6"], 4, false),
        ("d8 d6 d6", &["2d6", "3d6", "d10 d8"], 5, true),
        ("d12 d10", &["4d6"; 6], 6, false),
        ("d6 d6", &["d6"; 3], 3, true),
    ];
    for (i, &(a, steps, beats, repeat)) in cases.iter().enumerate() {
        let s = sides(a, None, "2d6", None);
        let opp: Vec<Pool> = steps.iter().map(|t| t.parse().unwrap()).collect();
        let t = Timed::new(&s, &opp, beats, repeat);
        let what = format!("timed {a} {steps:?} beats {beats} repeat {repeat}");
        assert_agrees(
            TimedAction.model(t).as_ref(),
            Sample::seed(500 + i as u64),
            &what,
        );
    }
}

/// The sum of P(margin = v) over the values `keep` accepts.
fn margin_mass(m: &Marginals, field: usize, keep: impl Fn(i64) -> bool) -> f64 {
    m.field(field)
        .iter()
        .filter(|(v, _)| keep(**v))
        .map(|(_, p)| p)
        .sum()
}

#[test]
fn margin_is_signed_from_the_actors_side() {
    // The d6 d6 against d6 numbers worked by hand above: the actor wins
    // 170/216, by 5+ 81/216; loses by 5+ 2/216; ties 17/216.
    let m = Basic::new(sides("d6 d6", None, "d6", None), RatingTie::Larger, false).exact();
    close(margin_mass(&m, 1, |v| v > 0), 170.0 / 216.0);
    close(margin_mass(&m, 1, |v| v >= 5), 81.0 / 216.0);
    close(margin_mass(&m, 1, |v| v <= -5), 2.0 / 216.0);
    close(margin_mass(&m, 1, |v| v == 0), 17.0 / 216.0);
    // Contested: the actor's wins have margin ≥ 0 (0 when the opposition
    // only ties the stakes), its losses margin ≤ 0.
    let c = Contested::new(
        sides("d8 d6", None, "d8 d6", Some("2d6")),
        RatingTie::Larger,
        false,
        true,
        None,
    );
    let m = c.exact().unwrap();
    let win = p(&m, 0, 1);
    assert!(margin_mass(&m, 2, |v| v > 0) <= win + 1e-12);
    assert!(margin_mass(&m, 2, |v| v >= 0) >= win - 1e-12);
    assert!(margin_mass(&m, 2, |v| v < 0) > 0.1);
}
