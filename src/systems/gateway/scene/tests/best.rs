//! Best play in the duel: the graph over repeating rounds against the
//! round-by-round solve, on small duels and every kind of metric (one
//! that reads the round an outcome records among them).

use super::*;
use crate::exact::best::check::{duel_graph_is_layered, graph_is_layered};
use crate::model::Define;
use crate::systems::gateway::Scene;

fn choice(pairs: &[(&str, ParamValue)]) -> DuelChoice {
    let v = values(pairs);
    let p = Scene.read(&v).unwrap();
    Define::check(&Scene, &p).unwrap();
    DuelChoice::new(Scene.build(p)).unwrap()
}

#[test]
fn repeating_rounds_solve_as_round_by_round() {
    let rounds_le_3 = |o: &[i64]| f64::from(o[1] <= 3);
    let a_wins = |o: &[i64]| f64::from(o[0] == A_CLIMAX);
    let mean_rounds = |o: &[i64]| o[1] as f64;
    let stall = policy(vec![
        rule(&["climax"], 0, None),
        rule(&["press"], 0, Some(t(&[("edge_at_most", Int(-1))]))),
        rule(
            &["edge", "accelerate"],
            1,
            Some(t(&[("round_at_least", Int(3))])),
        ),
        rule(&["edge"], 0, None),
    ]);
    let configs: Vec<(&str, Vec<(&str, ParamValue)>)> = vec![
        (
            "defaults, short",
            vec![("ladder", Int(3)), ("round_cap", Int(7))],
        ),
        (
            "coin and backgrounds",
            vec![
                ("ladder", Int(2)),
                ("round_cap", Int(6)),
                ("initiative", s("random")),
                ("a.background", Int(2)),
                ("b.background", Int(2)),
            ],
        ),
        (
            "B stalls, and rushes from round 3",
            vec![
                ("ladder", Int(3)),
                ("round_cap", Int(8)),
                ("b.policy", stall),
            ],
        ),
        (
            "a cap of one round",
            vec![("ladder", Int(2)), ("round_cap", Int(1))],
        ),
    ];
    for (what, pairs) in &configs {
        let p = choice(pairs);
        for (name, reward) in [
            ("a wins", &a_wins as &dyn Fn(&[i64]) -> f64),
            ("rounds ≤ 3", &rounds_le_3),
            ("mean rounds", &mean_rounds),
        ] {
            graph_is_layered(&p, reward, &format!("{what}, {name}"));
        }
    }
}

#[test]
fn both_sides_best_over_the_graph_is_round_by_round() {
    let a_wins = |o: &[i64]| f64::from(o[0] == A_CLIMAX);
    let rounds_le_3 = |o: &[i64]| f64::from(o[1] <= 3);
    for (what, pairs) in [
        (
            "defaults, short",
            vec![("ladder", Int(3)), ("round_cap", Int(6))],
        ),
        (
            "coin and backgrounds",
            vec![
                ("ladder", Int(2)),
                ("round_cap", Int(5)),
                ("initiative", s("random")),
                ("a.background", Int(2)),
                ("b.background", Int(2)),
            ],
        ),
    ] {
        let v = values(&pairs);
        let p = Scene.read(&v).unwrap();
        Define::check(&Scene, &p).unwrap();
        let p = DuelChoice::both(Scene.build(p)).unwrap();
        for (name, reward) in [
            ("a wins", &a_wins as &dyn Fn(&[i64]) -> f64),
            ("rounds ≤ 3", &rounds_le_3),
        ] {
            duel_graph_is_layered(&p, reward, &format!("{what}, {name}"));
        }
    }
}
