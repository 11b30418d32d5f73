//! Speed of exact dice expressions: keep/drop by the dynamic program over
//! sorted dice, success pools by convolution, exploding dice with counts
//! past u128 (8d6! has 6^88 cases). Each is parsed once; the timing is the
//! exact solve. A Monte Carlo million-roll run of 4d6kh3 is timed beside
//! them for scale.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oddsmith::dice::DiceRng;
use oddsmith::expr::Roll;

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("expr_exact");
    for (name, text) in [
        ("20d6kh2", "20d6kh2"),
        ("10d10>=8 ++10", "10d10>=8 ++10"),
        ("8d6!", "8d6!"),
        ("4d6kh3", "4d6kh3"),
        ("3d8kh1+2 >= 2d8kh1+4", "3d8kh1+2 >= 2d8kh1+4"),
    ] {
        let roll = Roll::new(text).unwrap();
        group.bench_function(name, |b| b.iter(|| black_box(&roll).exact().unwrap()));
    }
    group.finish();
}

fn sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("expr_sample");
    group.sample_size(10);
    let sampler = Roll::new("4d6kh3").unwrap().sampler();
    group.bench_function("4d6kh3_million", |b| {
        b.iter(|| {
            let mut rng = DiceRng::from_u64(1);
            let mut scratch = Vec::new();
            (0..1_000_000)
                .map(|_| sampler.sample(&mut rng, &mut scratch))
                .sum::<i64>()
        })
    });
    group.finish();
}

criterion_group!(benches, exact, sample);
criterion_main!(benches);
