//! The generic chain's sampler (`sim::Chain::simulate`: each roll drawn
//! from the alias table of its law, `Rounds::law`, with the tables and
//! what follows each roll kept per (round, state) in one cache) against
//! each mechanic's own sampler (a bespoke `Rounds::roll` in the plain loop,
//! a memo, or a mechanic's own loop), on one thread, at the registry's
//! example (for `cgg.tension`, also the shipped scenario's scene, with and
//! without its turn policy, one config per sampler): the measure of
//! whether a bespoke sampler (a memo, the plain loop) still earns its
//! place. A bespoke sampler stays where it is more than 1.25× the
//! chain's rate in the same run (issue 48). `cortex.timed` samples
//! through the chain itself: its pair measures the mechanic's path
//! against the bare chain.
//!
//! `cargo bench --bench chain -- --warm-up-time 1 --measurement-time 3`
//! (about two minutes).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oddsmith::dice::DiceRng;
use oddsmith::model::{After, Define, Mechanic, ParamMap, ParamValue, Rounds, Tally, Trial};
use oddsmith::scenario::Scenario;
use oddsmith::sim::Chain;
use oddsmith::systems::cgg::tension::TensionMechanic;
use oddsmith::systems::cortex::contested::{self, ContestedAction};
use oddsmith::systems::cortex::fight::{self, FightAction, FightRounds};
use oddsmith::systems::cortex::timed::{self, TimedAction};
use oddsmith::systems::gateway::scene::{EnsembleMechanic, SceneMechanic, state};
use oddsmith::systems::gateway::skirmish::{self, SkirmishMechanic};
use oddsmith::systems::questworlds::chained::ChainedSequence;
use oddsmith::systems::questworlds::scored::ScoredSequence;
use oddsmith::systems::questworlds::sequence::{Capped, Sequence, Sequenced};
use oddsmith::systems::questworlds::wagered::WageredSequence;
use oddsmith::systems::testing::{example, table};

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
    // gateway.scene: the mechanic's path (the chain, its loose states
    // drawn by the scene's bespoke roll) against the chain drawing every
    // roll from its law.
    let duel = SceneMechanic.trial(&example(&SceneMechanic)).unwrap();
    let schema = Mechanic::schema_of(&SceneMechanic, &example(&SceneMechanic)).unwrap();
    pair(
        c,
        "gateway.scene",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            duel.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(state::FIELDS);
            Chain::new(&LawOnly(&duel.rounds), state::FIELDS)
                .simulate::<{ state::FIELDS }>(rng, n, &mut t);
        },
    );

    // gateway.ensemble, likewise: at the registry's example and with six
    // PCs (whose states hardly recur, so most are drawn by the bespoke
    // roll).
    for (name, values) in [
        ("gateway.ensemble", example(&EnsembleMechanic)),
        ("gateway.ensemble.six", six_pcs()),
    ] {
        let e = EnsembleMechanic.trial(&values).unwrap();
        let schema = Mechanic::schema_of(&EnsembleMechanic, &values).unwrap();
        pair(
            c,
            name,
            &|rng, n| {
                let mut t = Tally::for_schema(&schema);
                e.simulate(rng, n, &mut t);
            },
            &|rng, n| {
                let mut t = Tally::new(state::FIELDS);
                Chain::new(&LawOnly(&e.rounds), state::FIELDS)
                    .simulate::<{ state::FIELDS }>(rng, n, &mut t);
            },
        );
    }

    // gateway.skirmish: the plain loop against the chain, at the
    // registry's small example and at the shipped henchmen scenes.
    for (name, values) in [
        ("gateway.skirmish", example(&SkirmishMechanic)),
        ("gateway.skirmish.henchmen", henchmen_scene()),
    ] {
        let skirmish = SkirmishMechanic.trial(&values).unwrap();
        let schema = Mechanic::schema_of(&SkirmishMechanic, &values).unwrap();
        const FIELDS: usize = skirmish::state::FIELDS;
        pair(
            c,
            name,
            &|rng, n| {
                let mut t = Tally::for_schema(&schema);
                skirmish.simulate(rng, n, &mut t);
            },
            &|rng, n| {
                let mut t = Tally::new(FIELDS);
                Chain::new(&skirmish.rounds, FIELDS).simulate::<FIELDS>(rng, n, &mut t);
            },
        );
    }

    // cortex.fight: its own sampler against the chain.
    let f = FightAction.trial(&example(&FightAction)).unwrap();
    let schema = Mechanic::schema_of(&FightAction, &example(&FightAction)).unwrap();
    let rounds = FightRounds::solver(&f);
    pair(
        c,
        "cortex.fight",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            f.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(fight::FIELDS);
            // Drawn from the law: the solver's states carry no rating for
            // the bespoke roll's rating phase, so its loose states (a
            // class gone loose) could not be drawn by it.
            Chain::new(&LawOnly(&rounds), fight::FIELDS)
                .simulate::<{ fight::FIELDS }>(rng, n, &mut t);
        },
    );

    // cortex.timed: its roll (the law's table kept per step) against the
    // chain (kept per clock state).
    let t = TimedAction.trial(&example(&TimedAction)).unwrap();
    let schema = Mechanic::schema_of(&TimedAction, &example(&TimedAction)).unwrap();
    let rounds = t.rounds();
    pair(
        c,
        "cortex.timed",
        &|rng, n| {
            let mut tally = Tally::for_schema(&schema);
            t.simulate(rng, n, &mut tally);
        },
        &|rng, n| {
            let mut tally = Tally::new(timed::FIELDS);
            Chain::new(&rounds, timed::FIELDS).simulate::<{ timed::FIELDS }>(rng, n, &mut tally);
        },
    );

    // cortex.contested: its own sampler (one joint draw of total and
    // rating, keyed counting) against the chain.
    let k = ContestedAction.trial(&example(&ContestedAction)).unwrap();
    let schema = Mechanic::schema_of(&ContestedAction, &example(&ContestedAction)).unwrap();
    let rounds = k.solver();
    pair(
        c,
        "cortex.contested",
        &|rng, n| {
            let mut t = Tally::for_schema(&schema);
            k.simulate(rng, n, &mut t);
        },
        &|rng, n| {
            let mut t = Tally::new(contested::FIELDS);
            Chain::new(&rounds, contested::FIELDS)
                .simulate::<{ contested::FIELDS }>(rng, n, &mut t);
        },
    );
}

/// A mechanic's rounds with the provided `roll` (the law's table), for
/// the chain to draw its loose states from their laws: the measure of a
/// bespoke `roll`.
struct LawOnly<'a, R>(&'a R);

impl<R: Rounds> Rounds for LawOnly<'_, R> {
    type State = R::State;
    type Roll = R::Roll;
    type Outcome = R::Outcome;

    fn start(&self) -> R::State {
        self.0.start()
    }

    fn law(&self, round: usize, state: &R::State, out: &mut Vec<(R::Roll, f64)>) {
        self.0.law(round, state, out)
    }

    fn after(&self, round: usize, state: &R::State, roll: &R::Roll) -> After<R::State, R::Outcome> {
        self.0.after(round, state, roll)
    }

    fn pack(&self, state: &R::State) -> Option<u64> {
        self.0.pack(state)
    }
}

/// Six PCs at their defaults against the key entity at its own.
fn six_pcs() -> ParamMap {
    let pcs = (1..=6)
        .map(|k| table(&[("name", ParamValue::Str(format!("p{k}")))]))
        .collect();
    ParamMap::from_pairs(&[("pcs", ParamValue::List(pcs))])
}

/// One config of the shipped `scenarios/gateway-henchmen.toml`: three PCs
/// against the key entity and three henchmen of significance 2, ladder 8
/// (the first such config of its sweep: one of its two PC policies).
fn henchmen_scene() -> ParamMap {
    let scenario = Scenario::load(std::path::Path::new("scenarios/gateway-henchmen.toml"))
        .expect("the shipped scenario loads");
    let at = |config: &oddsmith::scenario::Config, path: &str, value: &str| {
        config
            .values
            .get(path)
            .is_some_and(|v| v.to_string() == value)
    };
    scenario
        .configs()
        .find(|c| {
            at(c, "henchmen.count", "3")
                && at(c, "henchmen.significance", "2")
                && at(c, "ladder", "8")
        })
        .expect("the scenario sweeps this config")
        .values
}

/// A mechanic's rounds keyed per (round, state): the chain as it was
/// before `Rounds::homogeneous`, the measure of that declaration.
struct ByRound<'a, R>(&'a R);

impl<R: Rounds> Rounds for ByRound<'_, R> {
    type State = R::State;
    type Roll = R::Roll;
    type Outcome = R::Outcome;

    fn start(&self) -> R::State {
        self.0.start()
    }

    fn law(&self, round: usize, state: &R::State, out: &mut Vec<(R::Roll, f64)>) {
        self.0.law(round, state, out)
    }

    fn roll(&self, round: usize, state: &R::State, rng: &mut DiceRng) -> R::Roll {
        self.0.roll(round, state, rng)
    }

    fn after(&self, round: usize, state: &R::State, roll: &R::Roll) -> After<R::State, R::Outcome> {
        self.0.after(round, state, roll)
    }

    fn pack(&self, state: &R::State) -> Option<u64> {
        self.0.pack(state)
    }
}

/// The QuestWorlds sequences at the registry's examples: the mechanic's
/// own path, the chain of the capped sequence (one node per state, its
/// rules declared the same in every round) and the same chain keyed per
/// (round, state). The examples have no augment, so one arm.
fn sequences(c: &mut Criterion) {
    sequence(c, ScoredSequence);
    sequence(c, WageredSequence);
    sequence(c, ChainedSequence);
}

fn sequence<D, Q, const N: usize>(c: &mut Criterion, d: D)
where
    D: Define<Trial = Sequenced<Q, N>> + Mechanic,
    Q: Sequence,
{
    let trial = d.trial(&example(&d)).unwrap();
    let schema = Mechanic::schema_of(&d, &example(&d)).unwrap();
    let arms: Vec<_> = trial.sequence.arms().collect();
    assert_eq!(arms.len(), 1, "the example has no augment");
    let capped = Capped {
        sequence: arms[0].2,
        max_rounds: trial.max_rounds,
    };
    let mut group = c.benchmark_group(format!("chain_{}", D::NAME));
    group.throughput(Throughput::Elements(TRIALS));
    group.sample_size(10);
    group.bench_function("own", |b| {
        let mut rng = DiceRng::from_u64(1);
        b.iter(|| {
            let mut t = Tally::for_schema(&schema);
            trial.simulate(&mut rng, TRIALS, &mut t);
        })
    });
    group.bench_function("chain", |b| {
        let mut rng = DiceRng::from_u64(1);
        b.iter(|| {
            let mut t = Tally::new(N);
            Chain::new(&capped, N).simulate::<N>(&mut rng, TRIALS, &mut t);
        })
    });
    group.bench_function("chain_by_round", |b| {
        let mut rng = DiceRng::from_u64(1);
        b.iter(|| {
            let mut t = Tally::new(N);
            Chain::new(&ByRound(&capped), N).simulate::<N>(&mut rng, TRIALS, &mut t);
        })
    });
    group.finish();
}

/// The shipped tension scenario's scene (scenarios/cgg-tension.toml: ann
/// 4d holds the Edge and acts first, bob 3d helps, cy 2d idles at 2
/// hours or fewer) at one of its configs: the Edge to the weakest, the
/// track from 7, difficulty 5, greedy. With cy's turn policy (`policy`)
/// every turn is played by the general loop; without it the scene is
/// plain, played by its three explorers' chains.
fn shipped_scene(policy: bool) -> ParamMap {
    use ParamValue::{Bool, Int, List, Str};
    let s = |v: &str| Str(v.into());
    let mut cy = vec![("name", s("cy")), ("code", s("2d"))];
    if policy {
        let idle = table(&[
            ("choose", s("idle")),
            ("when", table(&[("hours_at_most", Int(2))])),
        ]);
        cy.push(("policy", List(vec![idle])));
    }
    let explorers = List(vec![
        table(&[("name", s("ann")), ("code", s("4d"))]),
        table(&[("name", s("bob")), ("code", s("3d")), ("helps", Bool(true))]),
        table(&cy),
    ]);
    ParamMap::from_pairs(&[
        ("explorers", explorers),
        ("edge.holder", s("ann")),
        ("edge.first", s("self")),
        ("edge.gives", s("weakest")),
        ("start", Int(7)),
        ("difficulty.base", Int(5)),
        ("policy.wrench", s("greedy")),
    ])
}

/// cgg.tension: each of its three samplers against the chain of
/// `SceneRounds`: two explorers a round a draw (`pair.rs`, the registry's
/// example), a plain scene of three a turn a draw (`plain.rs`), and a
/// scene with a turn policy through the general loop (`prepared.rs`'s
/// tables).
fn tension(c: &mut Criterion) {
    for (name, values) in [
        ("cgg.tension.pair", example(&TensionMechanic)),
        ("cgg.tension.plain", shipped_scene(false)),
        ("cgg.tension.general", shipped_scene(true)),
    ] {
        let trial = TensionMechanic.trial(&values).unwrap();
        let t = &trial;
        let schema = Mechanic::schema_of(&TensionMechanic, &values).unwrap();
        let rounds = t.rounds();
        let fields = rounds.fields();
        pair(
            c,
            name,
            &|rng, n| {
                let mut tally = Tally::for_schema(&schema);
                t.simulate(rng, n, &mut tally);
            },
            &|rng, n| {
                let mut tally = Tally::new(fields);
                let chain = Chain::new(&rounds, fields);
                match fields {
                    10 => chain.simulate::<10>(rng, n, &mut tally),
                    12 => chain.simulate::<12>(rng, n, &mut tally),
                    _ => unreachable!("two or three explorers"),
                }
            },
        );
    }
}

criterion_group!(benches, samplers, sequences, tension);
criterion_main!(benches);
