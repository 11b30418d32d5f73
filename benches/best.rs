//! Speed of best play (issue 49): the exact best policy of shipped
//! gateway.scene duels, the target being under a second each. The
//! mechanic's defaults (ladder 10, a 100-round cap) with and without the
//! dominance table; the longest duel of scenarios/gateway-scene.toml
//! (ladder 12, A's trait 4 against B's 3); and the most states of
//! scenarios/gateway-strategies.toml (ladder 12, both backgrounds 2, a
//! coin for the first initiative, B stalling with Press). The `duel`
//! group: both sides' best play (`Opponent::Best`) in the shipped duels of
//! scenarios/gateway-best-duel.toml (ladder 4, 6, 8, a 12-round cap,
//! dominance included), each beside one-sided best play of the same
//! values in the same run, so the ratio is the duel's cost.

use criterion::{Criterion, criterion_group, criterion_main};
use oddsmith::best::{BestQuestion, Opponent, best};
use oddsmith::model::{ParamMap, ParamValue};
use oddsmith::systems;

fn question(pairs: &[(&str, ParamValue)], dominance: bool) -> BestQuestion {
    BestQuestion {
        mechanic: systems::find("gateway.scene").unwrap(),
        params: ParamMap::from_pairs(pairs),
        metric: "p_a_wins".into(),
        dominance,
        opponent: Default::default(),
    }
}

fn stall() -> ParamValue {
    use ParamValue::{Int, List, Str, Table};
    let rule = |effect: &str, when: Option<ParamValue>| {
        let mut t = vec![("effect".to_string(), Str(effect.into()))];
        if let Some(w) = when {
            t.push(("when".into(), w));
        }
        Table(t)
    };
    List(vec![
        rule("climax", None),
        rule("anticlimax", None),
        rule("press", Some(Table(vec![("edge_at_most".into(), Int(-1))]))),
        rule("edge", None),
    ])
}

/// A bench's name, its values, and whether it adds the dominance table.
type Case = (&'static str, Vec<(&'static str, ParamValue)>, bool);

fn duels(c: &mut Criterion) {
    use ParamValue::{Int, Str};
    let strategies = [
        ("ladder", Int(12)),
        ("initiative", Str("random".into())),
        ("a.background", Int(2)),
        ("b.background", Int(2)),
        ("b.policy", stall()),
    ];
    let cases: [Case; 4] = [
        ("scene_defaults", vec![], false),
        ("scene_defaults_dominance", vec![], true),
        (
            "scene_ladder_12_trait_4",
            vec![("ladder", Int(12)), ("a.trait", Int(4))],
            false,
        ),
        ("strategies_ladder_12_b_stalls", strategies.to_vec(), false),
    ];
    let mut group = c.benchmark_group("best");
    group.sample_size(10);
    for (name, pairs, dominance) in cases {
        let q = question(&pairs, dominance);
        group.bench_function(name, |b| b.iter(|| best(&q).unwrap()));
    }
    group.finish();
}

/// The shipped duels of gateway-best-duel.toml, both sides best and A
/// alone best, one after the other.
fn both_sides(c: &mut Criterion) {
    use ParamValue::{Int, Str};
    let mut group = c.benchmark_group("duel");
    group.sample_size(10);
    for ladder in [4, 6, 8] {
        let pairs = [
            ("ladder", Int(ladder)),
            ("initiative", Str("random".into())),
            ("round_cap", Int(12)),
            ("a.background", Int(2)),
            ("b.background", Int(2)),
        ];
        let one_sided = question(&pairs, true);
        let duel = BestQuestion {
            opponent: Opponent::Best,
            ..one_sided.clone()
        };
        group.bench_function(format!("gateway_best_ladder_{ladder}"), |b| {
            b.iter(|| best(&duel).unwrap())
        });
        group.bench_function(format!("one_sided_ladder_{ladder}"), |b| {
            b.iter(|| best(&one_sided).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, duels, both_sides);
criterion_main!(benches);
