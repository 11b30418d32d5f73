//! The throughput bench as it stood at 44bbb8f, for building against the
//! commit where issue 18 was filed (0171f04): `benches/baseline.sh`
//! copies it into an export of that commit, so "n times today's rate" is
//! measured beside this build in one run. Not compiled here (it uses that
//! commit's API). Its own doc, from 44bbb8f, follows.
//!
//! Monte Carlo throughput of every mechanic, as a ratio to a plain C loop
//! of the same generator, measured side by side in one run.
//!
//! The machine is shared and noisy (±25% between runs), so absolute rates
//! mean little; ratios taken a second apart mean more. For each mechanic
//! (its default configuration) this runs, `REPS` times: the C loop on two
//! threads, the mechanic on one thread, then on two; and prints medians.
//!
//! Wall-clock rates on a busy machine say more about the neighbours than
//! about the code, so each run also counts CPU time (the process's, from
//! `/proc/self/stat`; the C loop reports its own): "cpu ratio" is trials
//! per CPU-second over C words per CPU-second, both on two threads. On an
//! idle machine where both scale, it is the wall-clock ratio.
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

/// CPU seconds this process has used, all threads (10 ms ticks).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the name.
    let ticks: Vec<f64> = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse().ok())
        .collect();
    ticks.iter().sum::<f64>() / 100.0
}

/// A rate by the wall clock and by CPU time.
#[derive(Clone, Copy)]
struct Rate {
    wall: f64,
    cpu: f64,
}

/// Words per second of the C loop on `threads` threads, `words` each.
fn c_loop(path: &str, threads: usize, words: u64) -> Rate {
    let out = Command::new(path)
        .args([threads.to_string(), words.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("running the C loop {path}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = text.split_whitespace().collect();
    let num = |i: usize| -> f64 {
        words
            .get(i)
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("the C loop printed {text:?}"))
    };
    Rate {
        wall: num(0),
        cpu: num(2),
    }
}

/// Trials per second of `model` over `trials` trials on `threads` threads.
fn rate(model: &dyn Model, threads: usize, trials: u64) -> Rate {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let plan = Plan {
        seed: 1,
        trials,
        precision: None,
    };
    let (t, c) = (Instant::now(), cpu_seconds());
    let tally = pool.install(|| sim::simulate(&[(0, model)], &plan, &()));
    let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
    assert_eq!(tally[0].trials(), trials);
    Rate {
        wall: trials as f64 / secs,
        cpu: trials as f64 / cpu.max(0.01),
    }
}

/// Words per second of oddsmith's own generator (the `DiceRng` wrapper
/// over rand_xoshiro) in a bare loop on `threads` threads.
fn rust_loop(threads: usize, words: u64) -> Rate {
    let (t, c) = (Instant::now(), cpu_seconds());
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
    let n = (words * threads as u64) as f64;
    Rate {
        wall: n / t.elapsed().as_secs_f64(),
        cpu: n / (cpu_seconds() - c).max(0.01),
    }
}

/// The median of each measure on its own.
fn median(v: Vec<Rate>) -> Rate {
    let mid = |f: fn(&Rate) -> f64| {
        let mut x: Vec<f64> = v.iter().map(f).collect();
        x.sort_by(|a, b| a.total_cmp(b));
        x[x.len() / 2]
    };
    Rate {
        wall: mid(|r| r.wall),
        cpu: mid(|r| r.cpu),
    }
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // Added for the baseline: a fixed number of trials on one thread, for
    // callgrind (as the current bench's `ODDSMITH_TRIALS`).
    if let Some(trials) = std::env::var("ODDSMITH_TRIALS")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
    {
        let filters: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with("--"))
            .collect();
        for &m in registry()
            .iter()
            .filter(|m| filters.iter().any(|f| m.name().contains(f)))
        {
            let model = m.prepare(&ParamMap::new()).unwrap();
            let r = rate(model.as_ref(), 1, trials);
            println!("{} {trials} {:.3e}", m.name(), r.wall);
        }
        return;
    }
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
        "{:<24} {:>11} {:>11} {:>8} {:>8} {:>8} {:>9} {:>11}",
        "mechanic",
        "1 thread/s",
        "2 threads/s",
        "ratio 1",
        "ratio 2",
        "scaling",
        "cpu ratio",
        "C words/s"
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
        let chunks = ((probe.wall * seconds / CHUNK as f64) as u64).clamp(2, 1 << 16);
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

/// One line: wall-clock rates on one and two threads, both as ratios to
/// the C loop on two threads, the scaling, and the CPU-time ratio of the
/// two-thread runs.
fn row(name: &str, one: Rate, two: Rate, c: Rate) {
    println!(
        "{:<24} {:>11.3e} {:>11.3e} {:>7.3}× {:>7.3}× {:>7.2}× {:>8.3}× {:>11.3e}",
        name,
        one.wall,
        two.wall,
        one.wall / c.wall,
        two.wall / c.wall,
        two.wall / one.wall,
        two.cpu / c.cpu,
        c.wall
    );
}
