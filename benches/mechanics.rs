//! One criterion bench per mechanic: Monte Carlo trials per second of its
//! default configuration on one thread and on two (mechanics whose
//! defaults leave a key unset, needing players or PCs, at the example the
//! registry tests use). `cargo bench --bench mechanics -- cortex` runs one system; for
//! ratios to the generator's own speed use `benches/run.sh`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oddsmith::sim::{self, CHUNK, Plan};
use oddsmith::systems::{registry, testing};

/// Trials per measured iteration: four chunks, so two threads share them.
const TRIALS: u64 = 4 * CHUNK;

fn mechanics(c: &mut Criterion) {
    let plan = Plan {
        seed: 1,
        trials: TRIALS,
        precision: None,
    };
    let pools: Vec<_> = [1, 2]
        .map(|n| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build();
            (n, pool.unwrap())
        })
        .into();
    for &mechanic in registry() {
        let Ok(model) = mechanic.prepare(&testing::example(mechanic)) else {
            continue;
        };
        let mut group = c.benchmark_group(mechanic.name());
        group.throughput(Throughput::Elements(TRIALS));
        group.sample_size(10);
        for (n, pool) in &pools {
            group.bench_function(format!("threads_{n}"), |b| {
                b.iter(|| pool.install(|| sim::simulate(&[(0, model.as_ref())], &plan, &())))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, mechanics);
criterion_main!(benches);
