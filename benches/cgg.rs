//! Speed of the CGG mechanics: Monte Carlo actions per second on every
//! thread (default action, 3d against 4d), and the exact 1,120-config
//! difficulty table.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oddsmith::run::{self, Mode, RunOptions};
use oddsmith::scenario::Scenario;
use oddsmith::sim::{self, Plan};
use oddsmith::systems::{Model, ParamMap, find};

/// Actions per measured iteration.
const TRIALS: u64 = 1 << 22;

fn monte_carlo(c: &mut Criterion) {
    let model: Box<dyn Model> = find("cgg.action")
        .unwrap()
        .prepare(&ParamMap::new())
        .unwrap();
    let plan = Plan {
        seed: 1,
        trials: TRIALS,
        precision: None,
    };
    let mut group = c.benchmark_group("cgg_actions");
    group.throughput(Throughput::Elements(TRIALS));
    group.sample_size(10);
    group.bench_function("all_threads", |b| {
        b.iter(|| sim::simulate(&[(0, model.as_ref())], &plan, &()))
    });
    group.finish();
}

fn exact_table(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cgg-difficulty.toml");
    let scenario = Scenario::load(&path).unwrap();
    assert_eq!(scenario.config_count(), 1120);
    let opts = RunOptions {
        mode: Mode::Exact,
        ..RunOptions::default()
    };
    let mut group = c.benchmark_group("cgg_exact");
    group.sample_size(10);
    group.bench_function("difficulty_table_1120_configs", |b| {
        b.iter(|| run::run(&scenario, &opts, &()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, monte_carlo, exact_table);
criterion_main!(benches);
