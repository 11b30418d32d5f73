//! Monte Carlo throughput of every mechanic, as a ratio to a plain C loop
//! of the same generator, measured side by side in one run.
//!
//! The machine is shared and noisy (±25% between runs), so absolute rates
//! mean little; ratios taken a second apart mean more. For each mechanic
//! (its default configuration) this runs the C loop on two threads, the
//! mechanic on one thread, then on two; it does so for every mechanic in
//! turn, `REPS` rounds of that, and prints medians.
//!
//! Scaling is the fastest two-thread run over the fastest one-thread run:
//! a neighbour only ever slows a run down, so the best of the repeats is
//! the nearest to the machine's own speed, where a median of two noisy
//! medians can put the scaling anywhere from 1.3× to 2.7× (seen here).
//! Best over best still compares the luckiest moment of one set of runs
//! with that of another, so "paired" gives the other reading: the median
//! over rounds of each round's two-thread rate over the one-thread rate
//! measured just before it, when the host's share was most alike.
//! The row "C loop + 4 lookups" is the C loop counting four table lookups
//! a word, on one thread and two: how far a table-bound loop (as most
//! samplers are) scales on this machine at all.
//! "steal" is the share of the VM's CPU time its host gave to others
//! during the two-thread runs (`/proc/stat`): when it is not near 0, a
//! two-thread run had less than two CPUs, and its scaling shows it.
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
//! Names filter mechanics by substring (a whole name picks that one
//! alone). `ODDSMITH_REPS` sets the repeats (default 3),
//! `ODDSMITH_SECONDS` the time per measurement (default 0.25).
//! Mechanics whose defaults leave a key unset (a scene's players) run at
//! the example the registry tests use ([`testing::example`]).
//!
//! `ODDSMITH_TRIALS=N` instead runs exactly `N` trials of each named
//! mechanic on one thread and prints nothing but the rates: a fixed amount
//! of work for `valgrind --tool=callgrind`, whose instruction counts do not
//! move with the machine's load (`ODDSMITH_C_LOOP` is then not needed).

use std::process::Command;
use std::time::Instant;

use oddsmith::dice::DiceRng;
use oddsmith::sim::{self, CHUNK, Plan};
use oddsmith::systems::testing;
use oddsmith::systems::{Model, registry};

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

/// The whole machine's stolen and total CPU ticks so far (`/proc/stat`):
/// the time the host gave this VM's CPUs to someone else.
fn machine_ticks() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<f64> = stat
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .filter_map(|t| t.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal ...
    let steal = ticks.get(7).copied().unwrap_or(0.0);
    (steal, ticks.iter().take(8).sum())
}

/// The share of the machine's CPU time stolen since `before`.
fn stolen_since(before: (f64, f64)) -> f64 {
    let now = machine_ticks();
    (now.0 - before.0) / (now.1 - before.1).max(1.0)
}

/// A rate by the wall clock and by CPU time, and the share of the
/// machine's time the host stole meanwhile.
#[derive(Clone, Copy)]
struct Rate {
    wall: f64,
    cpu: f64,
    steal: f64,
}

/// Words per second of the C loop on `threads` threads, `words` each
/// (with `lookups`, four table lookups counted per word: see the C file).
fn c_loop(path: &str, threads: usize, words: u64, lookups: bool) -> Rate {
    let mut args = vec![threads.to_string(), words.to_string()];
    if lookups {
        args.push("lookups".into());
    }
    let m = machine_ticks();
    let out = Command::new(path)
        .args(args)
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
        steal: stolen_since(m),
    }
}

/// Trials per second of `model` over `trials` trials on `threads` threads.
/// The thread pools are built once and kept warm (as a run's one pool is):
/// a pool built per measurement starts its threads on a core the kernel
/// has not yet balanced, which cost a short two-thread run a third of its
/// time.
fn rate(model: &dyn Model, threads: usize, trials: u64) -> Rate {
    static POOLS: std::sync::OnceLock<[rayon::ThreadPool; 2]> = std::sync::OnceLock::new();
    let pools = POOLS.get_or_init(|| {
        [1, 2].map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("a thread pool")
        })
    });
    let pool = &pools[threads - 1];
    let plan = Plan {
        seed: 1,
        trials,
        precision: None,
    };
    let (t, c, m) = (Instant::now(), cpu_seconds(), machine_ticks());
    let tally = pool.install(|| sim::simulate(&[(0, model)], &plan, &()));
    let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
    assert_eq!(tally[0].trials(), trials);
    Rate {
        wall: trials as f64 / secs,
        cpu: trials as f64 / cpu.max(0.01),
        steal: stolen_since(m),
    }
}

/// Words per second of oddsmith's own generator (the `DiceRng` wrapper
/// over rand_xoshiro) in a bare loop on `threads` threads.
fn rust_loop(threads: usize, words: u64) -> Rate {
    let (t, c, m) = (Instant::now(), cpu_seconds(), machine_ticks());
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
        steal: stolen_since(m),
    }
}

/// The median of each measure on its own.
fn median(v: &[Rate]) -> Rate {
    let mid = |f: fn(&Rate) -> f64| middle(v.iter().map(f).collect());
    Rate {
        wall: mid(|r| r.wall),
        cpu: mid(|r| r.cpu),
        steal: mid(|r| r.steal),
    }
}

/// The fastest wall-clock rate of the repeats.
fn best(v: &[Rate]) -> f64 {
    v.iter().map(|r| r.wall).fold(0.0, f64::max)
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    // A filter that is a mechanic's whole name picks that one alone
    // (`questworlds.group` is also the start of `questworlds.group_sequence`).
    let whole = |f: &str| registry().iter().any(|m| m.name() == f);
    let wanted = |name: &str| {
        filters.is_empty()
            || filters.iter().any(|f| {
                if whole(f) {
                    name == f
                } else {
                    name.contains(f.as_str())
                }
            })
    };
    if let Some(trials) = std::env::var("ODDSMITH_TRIALS")
        .ok()
        .and_then(|t| t.parse().ok())
    {
        return fixed_trials(trials, &wanted);
    }
    let c_path = std::env::var("ODDSMITH_C_LOOP")
        .expect("set ODDSMITH_C_LOOP to the compiled C loop (benches/run.sh does)");
    let reps: usize = env_or("ODDSMITH_REPS", 3);
    let seconds: f64 = env_or("ODDSMITH_SECONDS", 0.25);
    // The C loop runs about as long as one measurement.
    let c_words = (seconds * 8e8) as u64;

    // Every row is measured once a round, round after round, so a noisy
    // minute costs each row one repeat rather than one row all of them.
    let mut rows: Vec<Row> = Vec::new();
    if wanted("rng") {
        rows.push(Row::new("rng.next_u64 (words)", move |t| {
            rust_loop(t, c_words)
        }));
        // How far a table-bound loop scales here, for the rows below.
        let path = c_path.clone();
        rows.push(Row::new("C loop + 4 lookups (words)", move |t| {
            c_loop(&path, t, c_words / t as u64, true)
        }));
    }
    for &mechanic in registry() {
        let name = mechanic.name();
        if !wanted(name) {
            continue;
        }
        let model = match mechanic.prepare(&testing::example(mechanic)) {
            Ok(m) => m,
            Err(e) => {
                println!("{name:<27} skipped: defaults do not build ({e})");
                continue;
            }
        };
        // Size the runs from one chunk so each takes about `seconds` on one
        // thread; whole even numbers of chunks keep both threads busy.
        // The first chunk builds the model's tables: time the second.
        rate(model.as_ref(), 2, 2 * CHUNK);
        let probe = rate(model.as_ref(), 1, CHUNK);
        let chunks = ((probe.wall * seconds / CHUNK as f64) as u64).clamp(2, 1 << 16);
        let trials = chunks.next_multiple_of(2) * CHUNK;
        rows.push(Row::new(name, move |t| rate(model.as_ref(), t, trials)));
    }
    for round in 1..=reps {
        eprint!("\rround {round} of {reps}");
        for r in rows.iter_mut() {
            r.c.push(c_loop(&c_path, 2, c_words, false));
            r.one.push((r.measure)(1));
            r.two.push((r.measure)(2));
        }
    }
    eprintln!();
    println!(
        "{:<27} {:>11} {:>11} {:>8} {:>8} {:>8} {:>8} {:>9} {:>6} {:>11}",
        "mechanic",
        "1 thread/s",
        "2 threads/s",
        "ratio 1",
        "ratio 2",
        "scaling",
        "paired",
        "cpu ratio",
        "steal",
        "C words/s"
    );
    for r in &rows {
        row(&r.name, &r.one, &r.two, &r.c);
    }
}

/// One row of the table: how to measure it on `t` threads, and what the
/// rounds measured (the C loop beside it, one thread, two).
struct Row {
    name: String,
    measure: Box<dyn Fn(usize) -> Rate>,
    c: Vec<Rate>,
    one: Vec<Rate>,
    two: Vec<Rate>,
}

impl Row {
    fn new(name: &str, measure: impl Fn(usize) -> Rate + 'static) -> Row {
        Row {
            name: name.to_string(),
            measure: Box::new(measure),
            c: Vec::new(),
            one: Vec::new(),
            two: Vec::new(),
        }
    }
}

/// `trials` trials of every wanted mechanic on one thread, one line each.
fn fixed_trials(trials: u64, wanted: &dyn Fn(&str) -> bool) {
    for &mechanic in registry().iter().filter(|m| wanted(m.name())) {
        let model = mechanic
            .prepare(&testing::example(mechanic))
            .unwrap_or_else(|e| panic!("{}: {e}", mechanic.name()));
        let r = rate(model.as_ref(), 1, trials);
        println!("{:<28} {trials} trials, {:.3e}/s", mechanic.name(), r.wall);
    }
}

/// The median over rounds of each round's two-thread rate over its
/// one-thread rate, measured back to back.
fn paired_scaling(one: &[Rate], two: &[Rate]) -> f64 {
    middle(one.iter().zip(two).map(|(a, b)| b.wall / a.wall).collect())
}

/// The median of `x` (the upper one of an even count).
fn middle(mut x: Vec<f64>) -> f64 {
    x.sort_by(|a, b| a.total_cmp(b));
    x[x.len() / 2]
}

/// One line: median wall-clock rates on one and two threads, both as
/// ratios to the C loop's median on two threads, the scaling two ways
/// (best over best; the median of each round's pair), the CPU-time ratio
/// of the two-thread runs, and the median share of the machine's time
/// the host stole during them.
fn row(name: &str, one: &[Rate], two: &[Rate], c: &[Rate]) {
    let scaling = best(two) / best(one);
    let paired = paired_scaling(one, two);
    let (one, two, c) = (median(one), median(two), median(c));
    println!(
        "{:<27} {:>11.3e} {:>11.3e} {:>7.3}× {:>7.3}× {:>7.2}× {:>7.2}× {:>8.3}× {:>5.1}% {:>11.3e}",
        name,
        one.wall,
        two.wall,
        one.wall / c.wall,
        two.wall / c.wall,
        scaling,
        paired,
        two.cpu / c.cpu,
        100.0 * two.steal,
        c.wall
    );
}
