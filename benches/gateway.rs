//! Speed targets for the Gateway challenge: Monte Carlo contests per second
//! on one thread and on every thread, and the exact 4,928-config table.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oddsmith::pipeline::{self, Mode, RunOptions};
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
        b.iter(|| pipeline::run(&scenario, &opts, &()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, monte_carlo, exact_table);
criterion_main!(benches);
