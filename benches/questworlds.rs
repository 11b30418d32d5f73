//! Speed of the QuestWorlds exact solvers: the whole resistance ladder
//! (369 contests) and the three sequence scenarios, through the pipeline.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use oddsmith::run::{self, Mode, RunOptions};
use oddsmith::scenario::Scenario;

fn exact_scenarios(c: &mut Criterion) {
    let opts = RunOptions {
        mode: Mode::Exact,
        ..RunOptions::default()
    };
    let mut group = c.benchmark_group("questworlds_exact");
    group.sample_size(10);
    for name in ["ladder", "scored", "wagered", "chained"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("scenarios/questworlds-{name}.toml"));
        let scenario = Scenario::load(&path).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| run::run(&scenario, &opts, &()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, exact_scenarios);
criterion_main!(benches);
