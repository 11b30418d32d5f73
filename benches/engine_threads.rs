//! Is the engine what keeps a mechanic from scaling on two threads?
//!
//! `throughput` measures each mechanic through the engine (`sim::simulate`
//! on a rayon pool). This bench measures the same chunks three ways, one
//! after another, round after round: through the engine, by plain threads
//! that each run every other chunk into one tally of their own (no rayon,
//! no merging per chunk), and the bare generator, each on one thread and
//! on two. If the engine scaled worse than plain threads, the shortfall
//! would be its own; if all three move together, it is the host's.
//!
//! `cargo bench --bench engine_threads -- NAME…` (whole mechanic names);
//! `ODDSMITH_REPS` rounds (default 7), `ODDSMITH_SECONDS` a one-thread
//! run (default 0.3); `ODDSMITH_EACH=1` prints every round's three
//! scalings too.

use std::time::Instant;

use oddsmith::dice::DiceRng;
use oddsmith::sim::{self, CHUNK, Plan, Tally};
use oddsmith::systems::{Model, registry, testing};

/// Trials a second through the engine on pool `pool`.
fn engine(pool: &rayon::ThreadPool, m: &dyn Model, trials: u64) -> f64 {
    let plan = Plan {
        seed: 1,
        trials,
        precision: None,
    };
    let start = Instant::now();
    let tally = pool.install(|| sim::simulate(&[(0, m)], &plan, &()));
    assert_eq!(tally[0].trials(), trials);
    trials as f64 / start.elapsed().as_secs_f64()
}

/// Trials a second on `threads` plain threads, thread `i` running chunks
/// `i, i + threads, …` (the engine's streams) into one tally.
fn plain(m: &dyn Model, threads: u64, trials: u64) -> f64 {
    let chunks = trials / CHUNK;
    let start = Instant::now();
    let done: u64 = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|i| {
                s.spawn(move || {
                    let mut tally = Tally::for_schema(m.schema());
                    for k in (i..chunks).step_by(threads as usize) {
                        m.simulate(&mut DiceRng::for_chunk(1, 0, k), CHUNK, &mut tally);
                    }
                    tally.trials()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert_eq!(done, trials);
    trials as f64 / start.elapsed().as_secs_f64()
}

/// Words a second of the bare generator on `threads` threads.
fn generator(threads: u64, seconds: f64) -> f64 {
    let words = (seconds * 9e8) as u64;
    let start = Instant::now();
    let sums: Vec<u64> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|i| {
                s.spawn(move || {
                    let mut rng = DiceRng::from_u64(i + 1);
                    (0..words).fold(0u64, |a, _| a.wrapping_add(rng.next_u64()))
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    std::hint::black_box(sums);
    (words * threads) as f64 / start.elapsed().as_secs_f64()
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The median of `x`.
fn median(mut x: Vec<f64>) -> f64 {
    x.sort_by(|a, b| a.total_cmp(b));
    x[x.len() / 2]
}

fn main() {
    let names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let reps: usize = env_or("ODDSMITH_REPS", 7).max(1);
    let seconds: f64 = env_or("ODDSMITH_SECONDS", 0.3);
    let each = std::env::var("ODDSMITH_EACH").is_ok();
    let pools = [1, 2].map(|n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("a thread pool")
    });
    println!(
        "{:<27} {:>6} {:>11} | best scaling: {:>7} {:>7} {:>9} | paired: {:>7} {:>7} {:>9}",
        "mechanic",
        "chunks",
        "1 thread/s",
        "engine",
        "plain",
        "generator",
        "engine",
        "plain",
        "generator"
    );
    for name in names {
        let Some(&mechanic) = registry().iter().find(|m| m.name() == name) else {
            eprintln!("{name}: no such mechanic (`oddsmith systems` lists them)");
            std::process::exit(2);
        };
        let model = mechanic
            .prepare(&testing::example(mechanic))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let m = model.as_ref();
        // Build the tables first, then size a one-thread run to `seconds`
        // in an even number of chunks.
        engine(&pools[1], m, 4 * CHUNK);
        let probe = engine(&pools[0], m, 2 * CHUNK);
        let chunks = ((probe * seconds / CHUNK as f64) as u64).clamp(2, 1 << 16);
        let trials = chunks.next_multiple_of(2) * CHUNK;
        // [engine 1, engine 2, plain 1, plain 2, generator 1, generator 2]
        let mut rounds: Vec<[f64; 6]> = Vec::new();
        for _ in 0..reps {
            let r = [
                engine(&pools[0], m, trials),
                engine(&pools[1], m, trials),
                plain(m, 1, trials),
                plain(m, 2, trials),
                generator(1, seconds),
                generator(2, seconds),
            ];
            if each {
                println!(
                    "  round: engine {:.2}× plain {:.2}× generator {:.2}×",
                    r[1] / r[0],
                    r[3] / r[2],
                    r[5] / r[4]
                );
            }
            rounds.push(r);
        }
        let best = |i: usize| rounds.iter().map(|r| r[i]).fold(0.0, f64::max);
        let paired = |i: usize| median(rounds.iter().map(|r| r[i + 1] / r[i]).collect());
        println!(
            "{:<27} {:>6} {:>11.3e} | {:>21.2}× {:>6.2}× {:>8.2}× | {:>15.2}× {:>6.2}× {:>8.2}×",
            name,
            trials / CHUNK,
            best(0),
            best(1) / best(0),
            best(3) / best(2),
            best(5) / best(4),
            paired(0),
            paired(2),
            paired(4)
        );
    }
}
