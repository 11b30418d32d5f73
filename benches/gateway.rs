//! Speed targets for Gateway: Monte Carlo contests per second on one thread
//! and on every thread, and the exact 4,928-config table; drama scenes
//! simulated per second, and the exact 176-config strategies table.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oddsmith::run::{self, Mode, RunOptions};
use oddsmith::scenario::Scenario;
use oddsmith::sim::{self, Plan};
use oddsmith::systems::{Model, ParamMap, find};

/// Contests per measured iteration: enough chunks to keep both threads busy.
const TRIALS: u64 = 1 << 24;

fn monte_carlo(c: &mut Criterion) {
    let model: Box<dyn Model> = find("gateway.challenge")
        .unwrap()
        .prepare(&ParamMap::new())
        .unwrap();
    let plan = Plan {
        seed: 1,
        trials: TRIALS,
        precision: None,
    };
    let mut group = c.benchmark_group("gateway_contests");
    group.throughput(Throughput::Elements(TRIALS));
    group.sample_size(20);
    let all = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    for threads in [1, all] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| pool.install(|| sim::simulate(&[(0, model.as_ref())], &plan, &())))
        });
    }
    group.finish();
}

fn exact_table(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gateway-raises.toml");
    let scenario = Scenario::load(&path).unwrap();
    assert_eq!(scenario.config_count(), 4928);
    let opts = RunOptions {
        mode: Mode::Exact,
        ..RunOptions::default()
    };
    let mut group = c.benchmark_group("gateway_exact");
    group.sample_size(10);
    group.bench_function("raise_table_4928_configs", |b| {
        b.iter(|| run::run(&scenario, &opts, &()).unwrap())
    });
    group.finish();
}

/// Scenes per measured iteration.
const SCENES: u64 = 1 << 20;

fn scenes(c: &mut Criterion) {
    let duel = find("gateway.scene").unwrap();
    let default = duel.prepare(&ParamMap::new()).unwrap();
    // The shipped table's busiest pairing: Set-up against rush, ladder 12.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gateway-strategies.toml");
    let scenario = Scenario::load(&path).unwrap();
    let config = scenario
        .configs()
        .find(|c| {
            c.swept[0].to_string() == "12"
                && c.swept[1].to_string() == "set-up"
                && c.swept[2].to_string() == "rush"
        })
        .unwrap();
    let mixed = scenario.prepare(&config).unwrap();
    let plan = Plan {
        seed: 1,
        trials: SCENES,
        precision: None,
    };
    let mut group = c.benchmark_group("gateway_scene_monte_carlo");
    group.throughput(Throughput::Elements(SCENES));
    group.sample_size(10);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for (name, model) in [
        ("default_duel", &default),
        ("set_up_against_rush_ladder_12", &mixed),
    ] {
        group.bench_function(format!("{name}_threads_1"), |b| {
            b.iter(|| one.install(|| sim::simulate(&[(0, model.as_ref())], &plan, &())))
        });
    }
    group.finish();

    let opts = RunOptions {
        mode: Mode::Exact,
        ..RunOptions::default()
    };
    assert_eq!(scenario.config_count(), 176);
    let mut group = c.benchmark_group("gateway_scene_exact");
    group.sample_size(10);
    group.bench_function("strategies_table_176_configs", |b| {
        b.iter(|| run::run(&scenario, &opts, &()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, monte_carlo, exact_table, scenes);
criterion_main!(benches);
