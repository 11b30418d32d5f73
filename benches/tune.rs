//! Speed of `tune`: the 12-row exact tune of the manual (the Gateway
//! challenge for even odds, by trait 1..=4 and background 0, 2, 4, over
//! challenge 0..=20: 252 exact configs and 12 searches).

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use oddsmith::scenario::Scenario;
use oddsmith::tune::{self, TuneOptions};

const EVEN_ODDS: &str = r#"
mechanic = "gateway.challenge"
[params]
"opposition.variability" = 2
[sweep]
"actor.trait" = [1, 2, 3, 4]
"actor.background" = [0, 2, 4]
[tune]
knob = "opposition.challenge"
range = { from = 0, to = 20 }
metric = "p_success"
target = 0.5
"#;

fn exact_tune(c: &mut Criterion) {
    let scenario = Scenario::parse(Path::new("even-odds.toml"), EVEN_ODDS).unwrap();
    assert_eq!(scenario.config_count(), 12);
    let mut group = c.benchmark_group("tune");
    group.sample_size(10);
    group.bench_function("gateway_even_odds_12_rows_exact", |b| {
        b.iter(|| tune::tune(&scenario, &TuneOptions::default(), &()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, exact_tune);
criterion_main!(benches);
