//! Monte Carlo throughput of every mechanic, as a ratio to a plain C loop
//! of the same generator, measured side by side in one run.
//!
//! The machine is shared and noisy (±25% between runs), so absolute rates
//! mean little; ratios taken a second apart mean more. For each mechanic
//! (its default configuration) this runs, `REPS` times: the C loop on two
//! threads, the mechanic on one thread, then on two; and prints medians.
//!
//! Run through `benches/run.sh` (it compiles `benches/reference/xoshiro.c`
//! with `cc -O3 -pthread` and passes it in `ODDSMITH_C_LOOP`), or by hand:
//! `ODDSMITH_C_LOOP=/path/to/xoshiro cargo bench --bench throughput [NAME…]`.
//! Names filter mechanics by substring. `ODDSMITH_REPS` sets the repeats
//! (default 3), `ODDSMITH_SECONDS` the time per measurement (default 0.25).

use std::process::Command;
use std::time::Instant;

use oddsmith::dice::DiceRng;
use oddsmith::sim::{self, CHUNK, Plan};
use oddsmith::systems::{Model, ParamMap, registry};

/// Words per second of the C loop on `threads` threads, `words` each.
fn c_loop(path: &str, threads: usize, words: u64) -> f64 {
    let out = Command::new(path)
        .args([threads.to_string(), words.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("running the C loop {path}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("the C loop printed {text:?}"))
}

/// Trials per second of `model` over `trials` trials on `threads` threads.
fn rate(model: &dyn Model, threads: usize, trials: u64) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let plan = Plan {
        seed: 1,
        trials,
        precision: None,
    };
    let t = Instant::now();
    let tally = pool.install(|| sim::simulate(&[(0, model)], &plan, &()));
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(tally[0].trials(), trials);
    trials as f64 / secs
}

/// Words per second of oddsmith's own generator (the `DiceRng` wrapper
/// over rand_xoshiro) in a bare loop on `threads` threads.
fn rust_loop(threads: usize, words: u64) -> f64 {
    let t = Instant::now();
    let sums: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                s.spawn(move || {
                    let mut rng = DiceRng::from_u64(i as u64 + 1);
                    (0..words).fold(0u64, |a, _| a.wrapping_add(rng.next_u64()))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    std::hint::black_box(sums);
    (words * threads as u64) as f64 / t.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let c_path = std::env::var("ODDSMITH_C_LOOP")
        .expect("set ODDSMITH_C_LOOP to the compiled C loop (benches/run.sh does)");
    let reps: usize = env_or("ODDSMITH_REPS", 3);
    let seconds: f64 = env_or("ODDSMITH_SECONDS", 0.25);
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    // The C loop runs about as long as one measurement.
    let c_words = (seconds * 8e8) as u64;

    println!(
        "{:<24} {:>11} {:>11} {:>8} {:>8} {:>8} {:>11}",
        "mechanic", "1 thread/s", "2 threads/s", "ratio 1", "ratio 2", "scaling", "C words/s"
    );
    if wanted("rng") {
        let (mut c, mut one, mut two) = (vec![], vec![], vec![]);
        for _ in 0..reps {
            c.push(c_loop(&c_path, 2, c_words));
            one.push(rust_loop(1, c_words));
            two.push(rust_loop(2, c_words));
        }
        row("rng.next_u64 (words)", median(one), median(two), median(c));
    }
    for mechanic in registry() {
        let name = mechanic.name();
        if !wanted(name) {
            continue;
        }
        let model = match mechanic.prepare(&ParamMap::new()) {
            Ok(m) => m,
            Err(e) => {
                println!("{name:<24} skipped: defaults do not build ({e})");
                continue;
            }
        };
        // Size the runs from one chunk so each takes about `seconds` on one
        // thread; whole even numbers of chunks keep both threads busy.
        let probe = rate(model.as_ref(), 1, CHUNK);
        let chunks = ((probe * seconds / CHUNK as f64) as u64).clamp(2, 1 << 16);
        let trials = chunks.next_multiple_of(2) * CHUNK;
        let (mut c, mut one, mut two) = (vec![], vec![], vec![]);
        for _ in 0..reps {
            c.push(c_loop(&c_path, 2, c_words));
            one.push(rate(model.as_ref(), 1, trials));
            two.push(rate(model.as_ref(), 2, trials));
        }
        row(name, median(one), median(two), median(c));
    }
}

fn row(name: &str, one: f64, two: f64, c: f64) {
    println!(
        "{:<24} {:>11.3e} {:>11.3e} {:>7.3}× {:>7.3}× {:>7.2}× {:>11.3e}",
        name,
        one,
        two,
        one / c,
        two / c,
        two / one,
        c
    );
}
