//! Speed target for the exact Cortex basic-action solver: two 20-die pools
//! solved in well under 10 ms (the (highest, second highest) dynamic
//! program, never an enumeration of rolls).

use criterion::{Criterion, criterion_group, criterion_main};
use oddsmith::systems::{Model, ParamMap, ParamValue, find};

fn model(actor: &str, opposition: &str) -> Box<dyn Model> {
    let mut values = ParamMap::new();
    values.set("actor.pool", ParamValue::Str(actor.into()));
    values.set("opposition.pool", ParamValue::Str(opposition.into()));
    find("cortex.basic").unwrap().prepare(&values).unwrap()
}

fn exact_basic(c: &mut Criterion) {
    let mut group = c.benchmark_group("cortex_basic_exact");
    for (name, actor, opposition) in [
        ("20d12_vs_20d12", "20d12", "20d12"),
        (
            "mixed_20_vs_20",
            "4d12 4d10 4d8 4d6 4d4",
            "4d4 4d6 4d8 4d10 4d12",
        ),
    ] {
        let m = model(actor, opposition);
        group.bench_function(name, |b| b.iter(|| m.exact().unwrap()));
    }
    group.finish();
}

criterion_group!(benches, exact_basic);
criterion_main!(benches);
