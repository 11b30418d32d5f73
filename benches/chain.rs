//! The generic chain's sampler (`sim::Chain::simulate`: the rules' own
//! `roll`, with what follows each (round, state, roll) kept in a cache)
//! against each mechanic's own sampler, on one thread, at the registry's
//! example: the measure of whether a bespoke sampler (a memo, the plain
//! loop) still earns its place. A bespoke sampler stays where it is at
//! least 1.1× the chain's rate in the same run.
//!
//! `cargo bench --bench chain` (about a minute).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oddsmith::dice::DiceRng;
use oddsmith::model::{Define, Tally, Trial};
use oddsmith::sim::Chain;
use oddsmith::systems::cortex::fight::{self, FightAction, FightRounds};
use oddsmith::systems::gateway::scene::{SceneMechanic, state};
use oddsmith::systems::gateway::skirmish::SkirmishMechanic;
use oddsmith::systems::questworlds::scored::ScoredSequence;
use oddsmith::systems::questworlds::sequence::Capped;
use oddsmith::systems::testing::example;

/// Trials per measured iteration.
const TRIALS: u64 = 1 << 14;

fn pair(
    c: &mut Criterion,
    name: &str,
    own: &dyn Fn(&mut DiceRng, u64),
    chain: &dyn Fn(&mut DiceRng, u64),
) {
    let mut group = c.benchmark_group(format!("chain_{name}"));
    group.throughput(Throughput::Elements(TRIALS));
    group.sample_size(10);
    group.bench_function("own", |b| {
        let mut rng = DiceRng::from_u64(1);
        b.iter(|| own(&mut rng, TRIALS))
    });
    group.bench_function("chain", |b| {
        let mut rng = DiceRng::from_u64(1);
        b.iter(|| chain(&mut rng, TRIALS))
    });
    group.finish();
}

fn samplers(c: &mut Criterion) {
    // gateway.scene: its memo against the chain.
    let duel = SceneMechanic.trial(&example(&SceneMechanic)).unwrap();
    let schema = SceneMechanic.schema_of(&duel);
    pair(
        c,
        "gateway.scene",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            duel.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(state::FIELDS);
            Chain::new(&duel.rounds, state::FIELDS).simulate::<{ state::FIELDS }>(rng, n, &mut t);
        },
    );

    // gateway.skirmish: the plain loop against the chain.
    let skirmish = SkirmishMechanic.trial(&example(&SkirmishMechanic)).unwrap();
    let schema = SkirmishMechanic.schema_of(&skirmish);
    pair(
        c,
        "gateway.skirmish",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            skirmish.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(33);
            Chain::new(&skirmish.rounds, 33).simulate::<33>(rng, n, &mut t);
        },
    );

    // cortex.fight: its own sampler against the chain.
    let f = FightAction.trial(&example(&FightAction)).unwrap();
    let schema = FightAction.schema_of(&f);
    let rounds = FightRounds::sampler(&f);
    pair(
        c,
        "cortex.fight",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            f.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(fight::FIELDS);
            Chain::new(&rounds, fight::FIELDS).simulate::<{ fight::FIELDS }>(rng, n, &mut t);
        },
    );
}

/// questworlds.scored: its memo against the chain, on the sequence
/// itself (the example has no augment, so one arm).
fn sequences(c: &mut Criterion) {
    let trial = ScoredSequence.trial(&example(&ScoredSequence)).unwrap();
    let schema = ScoredSequence.schema_of(&trial);
    let arms: Vec<_> = trial.sequence.arms().collect();
    assert_eq!(arms.len(), 1, "the example has no augment");
    let capped = Capped {
        sequence: arms[0].2,
        max_rounds: trial.max_rounds,
    };
    pair(
        c,
        "questworlds.scored",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            trial.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(6);
            Chain::new(&capped, 6).simulate::<6>(rng, n, &mut t);
        },
    );
}

criterion_group!(benches, samplers, sequences);
criterion_main!(benches);
