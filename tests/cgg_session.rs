//! `cgg.session`: the crisis clock over a session (rules §3.9): a
//! hand-counted session, the clock's range as a property over any hours
//! an action can move, the exact chain against Monte Carlo, and bad
//! sequences named by key and action.

use oddsmith::model::After;
use oddsmith::systems::cgg::action::ActionMechanic;
use oddsmith::systems::cgg::session::{
    CRISES, CRISIS, Clock, FIRST_CRISIS, HOURS_LEFT, Roll, Session, SessionMechanic, Step,
};
use oddsmith::systems::testing::{Sample, assert_agrees};
use oddsmith::systems::{Define, ParamMap, ParamValue};
use proptest::prelude::*;

fn s(v: &str) -> ParamValue {
    ParamValue::Str(v.into())
}

fn session(pairs: &[(&str, ParamValue)]) -> Session {
    SessionMechanic.trial(&ParamMap::from_pairs(pairs)).unwrap()
}

/// Every action pays exactly one hour: a stunt with no risk roll (so no
/// venture) against an easy task.
fn one_hour_each() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("stunt.paid", ParamValue::Bool(true)),
        ("risk", s("none")),
        ("difficulty.base", s("easy")),
    ]
}

fn p(m: &oddsmith::model::Marginals, f: usize, v: i64) -> f64 {
    m.field(f).get(&v).copied().unwrap_or(0.0)
}

#[test]
fn one_hour_an_action_reaches_crisis_exactly_when_hand_counted() {
    // 12 hours, one off per action: the clock runs out in action 12.
    // Action 13 is the weakness; then 3 + 1d6 = h hours, run out in action
    // 13 + h, inside 20 actions for h = 4..=7: two crises with
    // probability 4/6.
    let mut v = one_hour_each();
    v.push(("actions", ParamValue::Int(20)));
    let m = session(&v).exact().unwrap();
    assert!((p(&m, FIRST_CRISIS, 12) - 1.0).abs() < 1e-12);
    assert!((p(&m, CRISIS, 1) - 1.0).abs() < 1e-12);
    assert!((p(&m, CRISES, 2) - 4.0 / 6.0).abs() < 1e-12);
    assert!((p(&m, CRISES, 1) - 2.0 / 6.0).abs() < 1e-12);
    // Hours left: h = 7 runs out in action 20 (0 left, still weak); h = 8,
    // 9 leave 1, 2; h = 4, 5, 6 run out in 17, 18, 19 and refill in 18,
    // 19, 20 to 3 + d, then lose 2, 1, 0: uniform on 2..7, 3..8, 4..9.
    let mean: f64 = m.field(HOURS_LEFT).iter().map(|(v, q)| *v as f64 * q).sum();
    assert!((mean - 3.25).abs() < 1e-12, "{mean}");
    assert!((p(&m, HOURS_LEFT, 0) - 1.0 / 6.0).abs() < 1e-12);
    assert!((p(&m, HOURS_LEFT, 9) - 1.0 / 36.0).abs() < 1e-12);

    // Two roles: 9 hours, out in action 9; starting at 5: out in action 5.
    let mut two = one_hour_each();
    two.push(("explorer.roles", ParamValue::Int(2)));
    let m = session(&two).exact().unwrap();
    assert!((p(&m, FIRST_CRISIS, 9) - 1.0).abs() < 1e-12);
    let mut five = one_hour_each();
    five.push(("explorer.hours", ParamValue::Int(5)));
    let m = session(&five).exact().unwrap();
    assert!((p(&m, FIRST_CRISIS, 5) - 1.0).abs() < 1e-12);
    // Eleven actions never empty a full clock: no crisis, 1 hour left,
    // the first crisis counted as action 12 (beyond the session).
    let mut short = one_hour_each();
    short.push(("actions", ParamValue::Int(11)));
    let m = session(&short).exact().unwrap();
    assert!((p(&m, CRISIS, 0) - 1.0).abs() < 1e-12);
    assert!((p(&m, HOURS_LEFT, 1) - 1.0).abs() < 1e-12);
    assert!((p(&m, FIRST_CRISIS, 12) - 1.0).abs() < 1e-12);
    // No weakness: refilled at once, in the action that emptied it.
    let mut quick = one_hour_each();
    quick.push(("crisis.actions", ParamValue::Int(0)));
    quick.push(("actions", ParamValue::Int(12)));
    let m = session(&quick).exact().unwrap();
    assert!((p(&m, HOURS_LEFT, 4) - 1.0 / 6.0).abs() < 1e-12);
    assert!((p(&m, HOURS_LEFT, 9) - 1.0 / 6.0).abs() < 1e-12);
}

fn any_roll() -> impl Strategy<Value = (u32, u32, u32)> {
    // Hours an action can move: paid up to 8 (a stunt and every wrench
    // use), gained up to 7 (every hammer use); a refill d6.
    (0u32..=8, 0u32..=7, 1u32..=6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// rules §3.9: the clock never holds more than 12 (9 with two
    /// roles) nor less than 0, whatever the actions pay and gain, through
    /// crises, weakness and refills.
    #[test]
    fn crisis_clock_never_leaves_its_range(
        rolls in prop::collection::vec(any_roll(), 1..60),
        roles in 1usize..=2,
        start in 1u32..=12,
        weakness in 0u32..=3,
    ) {
        let full = [12, 9][roles - 1];
        let s = Session::new(
            vec![Step::Action(ActionMechanic.trial(&ParamMap::new()).unwrap()); rolls.len()],
            full,
            start.min(full),
            weakness,
        );
        let mut c = Clock { hours: s.start, weak: 0, crises: 0, first: 0, refill: false };
        let mut round = 1;
        for &(paid, gained, d) in &rolls {
            let mut roll = Roll::Hours(paid, gained);
            loop {
                prop_assert!(c.hours <= full, "{c:?}");
                match s.after(round, &c, &roll) {
                    After::Roll(next) => {
                        prop_assert!(next.refill);
                        c = next;
                        roll = Roll::Refill(d);
                    }
                    After::Round(next) => {
                        c = next;
                        round += 1;
                        break;
                    }
                    After::End(o) => {
                        prop_assert!((0..=full as i64).contains(&o[HOURS_LEFT]), "{o:?}");
                        prop_assert!(o[FIRST_CRISIS] >= 1 && o[FIRST_CRISIS] <= rolls.len() as i64 + 1);
                        return Ok(());
                    }
                }
                prop_assert!(c.hours <= full, "{c:?}");
                // In crisis the clock stays empty until it is refilled.
                prop_assert!(c.weak == 0 || c.hours == 0, "{c:?}");
            }
        }
        prop_assert!(false, "the session never ended");
    }
}

#[test]
fn exact_chain_agrees_with_monte_carlo() {
    let configs: Vec<Vec<(&str, ParamValue)>> = vec![
        vec![],
        vec![("policy.wrench", s("deny")), ("explorer.code", s("4d"))],
        vec![
            ("policy.hammer", s("conditions")),
            ("difficulty.base", s("serious")),
            ("explorer.roles", ParamValue::Int(2)),
        ],
        vec![
            ("policy.wrench", s("deny")),
            ("policy.hammer", s("always")),
            ("explorer.code", s("6d")),
            ("crisis.actions", ParamValue::Int(2)),
            ("actions", ParamValue::Int(30)),
        ],
        vec![
            ("stunt.paid", ParamValue::Bool(true)),
            ("crisis.actions", ParamValue::Int(0)),
            ("explorer.hours", ParamValue::Int(6)),
        ],
        vec![(
            "sequence",
            ParamValue::List(vec![
                ParamValue::Table(vec![("difficulty.base".into(), s("godly"))]),
                ParamValue::Table(vec![("stunt.paid".into(), ParamValue::Bool(true))]),
                ParamValue::Table(vec![("policy.wrench".into(), s("deny"))]),
                ParamValue::Table(vec![("explorer.code".into(), s("8d"))]),
            ]),
        )],
    ];
    let mut worst: f64 = 0.0;
    for (i, v) in configs.iter().enumerate() {
        let m = SessionMechanic.model(session(v));
        let z = assert_agrees(
            m.as_ref(),
            Sample::seed(314).config(i).trials(200_000),
            &format!("{v:?}"),
        );
        worst = worst.max(z);
    }
    eprintln!("{} sessions, worst |z| = {worst:.2}", configs.len());
}

/// Monte Carlo draws each action's hours from a table of their law: at
/// a million trials the default session and a stunting, denying one with
/// a long weakness still agree with the exact chain.
#[test]
fn tabled_hours_agree_with_the_chain_at_a_million_trials() {
    for (i, v) in [
        vec![],
        vec![
            ("stunt.paid", ParamValue::Bool(true)),
            ("policy.wrench", s("deny")),
            ("crisis.actions", ParamValue::Int(3)),
            ("explorer.roles", ParamValue::Int(2)),
        ],
    ]
    .iter()
    .enumerate()
    {
        let m = SessionMechanic.model(session(v));
        let z = assert_agrees(m.as_ref(), Sample::seed(2718).config(i), &format!("{v:?}"));
        eprintln!("{v:?}: worst |z| = {z:.2} at 10^6 trials");
    }
}

#[test]
fn a_sequence_of_equal_actions_is_the_repeated_action() {
    let entry = ParamValue::Table(vec![("explorer.code".into(), s("4d"))]);
    let a = session(&[
        ("sequence", ParamValue::List(vec![entry; 7])),
        ("policy.wrench", s("deny")),
    ]);
    let b = session(&[
        ("explorer.code", s("4d")),
        ("actions", ParamValue::Int(7)),
        ("policy.wrench", s("deny")),
    ]);
    assert_eq!(a, b);
}

#[test]
fn bad_sessions_name_the_key_and_the_action() {
    let bad = |pairs: &[(&str, ParamValue)]| {
        SessionMechanic
            .trial(&ParamMap::from_pairs(pairs))
            .unwrap_err()
    };
    let e = bad(&[(
        "sequence",
        ParamValue::List(vec![
            ParamValue::Table(vec![]),
            ParamValue::Table(vec![("difficulty.bsae".into(), ParamValue::Int(5))]),
        ]),
    )]);
    assert_eq!(e.key, "sequence");
    assert!(e.message.starts_with("action 2: `difficulty.bsae`"), "{e}");
    let e = bad(&[(
        "sequence",
        ParamValue::List(vec![ParamValue::Table(vec![(
            "policy.wrench".into(),
            s("spite"),
        )])]),
    )]);
    assert!(e.message.contains("\"greedy\", \"deny\""), "{e}");
    let e = bad(&[
        (
            "sequence",
            ParamValue::List(vec![ParamValue::Table(vec![])]),
        ),
        ("actions", ParamValue::Int(3)),
    ]);
    assert_eq!(e.key, "actions");
    let e = bad(&[
        ("explorer.roles", ParamValue::Int(2)),
        ("explorer.hours", ParamValue::Int(10)),
    ]);
    assert_eq!(e.key, "explorer.hours");
    assert!(e.message.contains("1..=9"), "{e}");
    let e = bad(&[("sequence", ParamValue::List(vec![ParamValue::Int(3)]))]);
    assert!(
        e.message.starts_with("action 1: an integer is not a table"),
        "{e}"
    );
}

#[test]
fn a_tension_scene_carries_the_clock_in_and_out() {
    use ParamValue::*;
    // A scene of one-hour stunts at a standstill (trivial actions, the
    // Exec raising 1) for 20 rounds: 12 hours run out in round 12 of the
    // first scene; an action of weakness; refilled to 3 + d (4..=9), the
    // second scene empties the clock again.
    let scene = Table(vec![
        (
            "tension".into(),
            Table(vec![
                (
                    "explorers".into(),
                    List(vec![Table(vec![
                        ("name".into(), s("ann")),
                        ("code".into(), s("5d")),
                        ("stunt".into(), Bool(true)),
                    ])]),
                ),
                ("difficulty.base".into(), s("easy")),
                ("risk".into(), s("none")),
                ("exec.raise".into(), Int(1)),
                ("max_rounds".into(), Int(20)),
                ("start".into(), Int(5)),
            ]),
        ),
        ("explorer".into(), s("ann")),
    ]);
    let rest = Table(vec![("risk".into(), s("none"))]);
    let sess = session(&[("sequence", List(vec![scene.clone(), rest, scene]))]);
    assert!(sess.exact().is_none(), "scenes are Monte Carlo only");
    let mut rng = oddsmith::dice::DiceRng::from_u64(9);
    for _ in 0..200 {
        let o = sess.sample(&mut rng);
        assert_eq!(o[..3], [1, 2, 1], "{o:?}");
        assert_eq!(o[HOURS_LEFT], 0);
    }
    let e = SessionMechanic
        .trial(&ParamMap::from_pairs(&[(
            "sequence",
            List(vec![Table(vec![
                ("tension".into(), Table(vec![])),
                ("explorer".into(), s("zed")),
            ])]),
        )]))
        .unwrap_err();
    assert!(e.message.contains("\"zed\" is not in the scene"), "{e}");
}

#[test]
fn a_session_that_never_spends_is_certainly_crisis_free() {
    // Nothing paid: the first crisis is "action 21" with probability 1, to
    // the last ulp the CLI's agreement check can see.
    let m = session(&[("policy.wrench", s("none")), ("explorer.code", s("2d"))])
        .exact()
        .unwrap();
    let mean: f64 = m
        .field(FIRST_CRISIS)
        .iter()
        .map(|(v, q)| *v as f64 * q)
        .sum();
    assert!((mean - 21.0).abs() < 1e-12, "{mean}");
}
