//! `oddsmith run` end to end on the shipped Gateway drama scene scenario.

mod common;

use common::*;

#[test]
fn scene_table_is_exact_and_agrees_with_monte_carlo() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-scene.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--trials",
        "20000",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    assert_eq!(rows.len(), 2 * 11 * 4);
    for r in rows.iter().filter(|r| r["method"] == "exact") {
        let p = |k: &str| r[k].parse::<f64>().unwrap();
        let total = p("p_a_wins") + p("p_b_wins") + p("p_escape");
        assert!(total <= 1.0 + 1e-9, "{r:?}");
        assert!(p("p_rounds_le_5") <= p("p_rounds_le_10"));
    }
    // More trait dice for A never lower its chance, ladder by ladder.
    for ladder in 2..=12 {
        let wins: Vec<f64> = (1..=4)
            .map(|d| {
                rows.iter()
                    .find(|r| {
                        r["method"] == "exact"
                            && r["ladder"] == ladder.to_string()
                            && r["a.trait"] == d.to_string()
                    })
                    .unwrap()["p_a_wins"]
                    .parse()
                    .unwrap()
            })
            .collect();
        assert!(
            wins.windows(2).all(|w| w[0] <= w[1]),
            "ladder {ladder}: {wins:?}"
        );
    }
}

// ---- RULES §1.2 "Edge" (corrected 2026-11-22): the edge counts once ----

use oddsmith::systems::ParamValue::{self, Int, Str};
use oddsmith::systems::gateway::scene::{
    A_CLIMAX, A_ESCAPE, B_CLIMAX, B_ESCAPE, STALEMATE, Scene, edged,
};
use oddsmith::systems::{Define, ParamMap};
use std::collections::BTreeMap;

/// Scene 2, Round 9 of the text: Tom's Climax. Tom rolls a top die of 7,
/// plus 1 (Arcanist) plus 5 (his edge) = 13; Kroe rolls 6 + 4 (Arcanist) =
/// 10, plus 2 for the one raise Tom chose (his two free raises add
/// nothing): 12. Tom succeeds. Only the holder's edge score counts.
#[test]
fn edge_counts_once_round_9_tom_climaxes() {
    let margin = (7 + 1) - (6 + 4 + 2);
    assert_eq!(margin, -4, "without the edge Tom would fail");
    assert_eq!(edged(margin, 5), 1);
    assert!(edged(margin, 5) >= 0, "13 against 12: Tom succeeds");
}

/// Scene 2, Round 1: Kroe, holding a +2 edge, rolls 12 in all (10 + his
/// edge) with one raise against Angelique's 11: her DT is 11 + 2 = 13 and
/// "as Kroe used a raise his 12 doesn't beat her roll". Counting the edge
/// twice (Kroe +2 and Angelique −2) would make him succeed, against the
/// text.
#[test]
fn edge_counts_once_round_1_kroe_fails_against_angelique() {
    let margin = 10 - (11 + 2);
    assert!(edged(margin, 2) < 0, "Kroe fails, as in the text");
    assert!(
        margin + 2 * 2 >= 0,
        "the old doubled reading contradicts the text"
    );
}

/// The rules of one action spelled out independently of the solver: the
/// roller's top d8s plus its bonus and, if it holds the edge, its edge
/// score, against the target's top d8s plus its bonus, 2 per raise and, if
/// it holds the edge, its edge score. Enumerates every face of every die.
fn p_action_by_faces(roller: (u32, i64), target: (u32, i64), raises: i64, adv: i64) -> f64 {
    fn tops(dice: u32) -> Vec<(i64, f64)> {
        // Law of the highest of `dice` d8 by enumerating every roll.
        let mut law = BTreeMap::new();
        let n = 8u64.pow(dice);
        for code in 0..n {
            let mut c = code;
            let mut top = 0;
            for _ in 0..dice {
                top = top.max((c % 8) as i64 + 1);
                c /= 8;
            }
            *law.entry(top).or_insert(0.0) += 1.0 / n as f64;
        }
        law.into_iter().collect()
    }
    let holder_roller = adv.max(0);
    let holder_target = (-adv).max(0);
    let mut p = 0.0;
    for (r, pr) in tops(roller.0) {
        for (t, pt) in tops(target.0) {
            let result = r + roller.1 + holder_roller;
            let dt = t + target.1 + 2 * raises + holder_target;
            if result >= dt {
                p += pr * pt;
            }
        }
    }
    p
}

/// Every branch of a scene of at most two rounds, from the rules of §1.2:
/// the initiative holder acts first; Climax when the advantage reaches the
/// ladder, Anticlimax when behind at ladder 0, else Edge with `raises`;
/// the ladder drops by one a round; the side that alone succeeds takes the
/// initiative. Returns P(winner, rounds, final edge).
#[allow(clippy::too_many_arguments)]
fn enumerate_scene(
    sides: [(u32, i64); 2],
    raises: [i64; 2],
    ladder: i64,
    edge: i64,
    holder: usize,
    round: i64,
    cap: i64,
    p: f64,
    out: &mut BTreeMap<(i64, i64, i64), f64>,
) {
    let lad = (ladder - (round - 1)).max(0);
    let mut branches = vec![(edge, [false, false], p)];
    for who in [holder, 1 - holder] {
        let mut next = Vec::new();
        for (e, mut ok, q) in branches {
            let adv = if who == 0 { e } else { -e };
            let (kind, r) = if adv >= lad {
                (0, 0)
            } else if adv < 0 && lad == 0 {
                (1, 0)
            } else {
                (2, raises[who])
            };
            let s = p_action_by_faces(sides[who], sides[1 - who], r, adv);
            if s > 0.0 {
                let i = usize::from(who != holder);
                match kind {
                    0 => {
                        *out.entry((if who == 0 { A_CLIMAX } else { B_CLIMAX }, round, e))
                            .or_default() += q * s
                    }
                    1 => {
                        *out.entry((if who == 0 { A_ESCAPE } else { B_ESCAPE }, round, e))
                            .or_default() += q * s
                    }
                    _ => {
                        let sign = if who == 0 { 1 } else { -1 };
                        let mut ok2 = ok;
                        ok2[i] = true;
                        next.push((e + sign * (1 + r), ok2, q * s));
                    }
                }
            }
            if s < 1.0 {
                ok[usize::from(who != holder)] = false;
                next.push((e, ok, q * (1.0 - s)));
            }
        }
        branches = next;
    }
    for (e, ok, q) in branches {
        if round >= cap {
            *out.entry((STALEMATE, round, e)).or_default() += q;
        } else {
            let holder = match ok {
                [false, true] => 1 - holder,
                _ => holder,
            };
            enumerate_scene(sides, raises, ladder, e, holder, round + 1, cap, q, out);
        }
    }
}

#[test]
fn edge_counts_once_two_round_scene_equals_enumeration() {
    let cases: Vec<Vec<(&str, ParamValue)>> = vec![
        vec![("ladder", Int(1)), ("a.trait", Int(2)), ("b.trait", Int(1))],
        vec![
            ("ladder", Int(1)),
            ("start_edge", Int(-1)),
            ("a.trait", Int(1)),
            ("a.background", Int(2)),
            ("b.trait", Int(2)),
            ("initiative", Str("b".into())),
        ],
        vec![
            ("ladder", Int(2)),
            ("start_edge", Int(1)),
            ("a.trait", Int(2)),
            ("a.edge_raises", Int(1)),
            ("b.trait", Int(2)),
            ("b.background", Int(1)),
            ("b.edge_raises", Int(2)),
        ],
        vec![
            ("ladder", Int(0)),
            ("start_edge", Int(2)),
            ("a.trait", Int(1)),
            ("b.trait", Int(3)),
        ],
    ];
    for case in cases {
        let mut pairs = case.clone();
        pairs.push(("round_cap", Int(2)));
        let duel = Scene.trial(&ParamMap::from_pairs(&pairs)).unwrap().duel;
        let get = |k: &str, d: i64| {
            case.iter()
                .find(|(n, _)| *n == k)
                .map_or(d, |(_, v)| match v {
                    Int(i) => *i,
                    _ => d,
                })
        };
        let sides = [
            (get("a.trait", 3) as u32, get("a.background", 0)),
            (get("b.trait", 3) as u32, get("b.background", 0)),
        ];
        let raises = [get("a.edge_raises", 0), get("b.edge_raises", 0)];
        let first = usize::from(
            case.iter()
                .any(|(k, v)| *k == "initiative" && *v == Str("b".into())),
        );
        let mut joint = BTreeMap::new();
        enumerate_scene(
            sides,
            raises,
            duel.ladder,
            duel.start_edge,
            first,
            1,
            2,
            1.0,
            &mut joint,
        );
        let exact = duel.exact().unwrap();
        let mut by_field = [BTreeMap::new(), BTreeMap::new(), BTreeMap::new()];
        for (&(w, r, e), &p) in &joint {
            for (f, v) in [w, r, e].into_iter().enumerate() {
                *by_field[f].entry(v).or_insert(0.0) += p;
            }
        }
        for (f, table) in by_field.iter().enumerate() {
            let solved: BTreeMap<i64, f64> = exact.field(f).iter().map(|(&k, &v)| (k, v)).collect();
            assert_eq!(
                table.keys().collect::<Vec<_>>(),
                solved.keys().collect::<Vec<_>>(),
                "{case:?} field {f}"
            );
            for (v, p) in table {
                assert!(
                    (p - solved[v]).abs() < 1e-12,
                    "{case:?} field {f} value {v}: {p} vs {}",
                    solved[v]
                );
            }
        }
    }
}
