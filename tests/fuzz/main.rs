//! Fuzzing every parser oddsmith has: the scenario parser, fed mutated
//! copies of every shipped scenario and generated scenarios of every
//! mechanic; and every notation parser (cortex pools, CGG die codes,
//! QuestWorlds ratings, the statements scene's players and conflicts, the
//! `odds` arguments) and every parameter check and mechanic constructor,
//! fed arbitrary strings and values. None may panic (tests build with
//! overflow checks on, so an overflow is a panic too); a refused scenario
//! must name the file and a line; a notation that parses must print back
//! to itself.
//!
//! `cargo test --release --test fuzz` runs a few hundred cases of each
//! target (CI). The long run is
//! `ODDSMITH_FUZZ_SECONDS=600 cargo test --release --test fuzz -- --ignored --nocapture`,
//! which reports executions per second.

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

mod inputs;
mod targets;

use inputs::*;
use targets::*;

// ---------------------------------------------------------------------
// The short run, in every `cargo test`.

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenarios_never_panic(text in mutated_scenario()) {
        scenario_target(&text);
    }

    #[test]
    fn generated_scenarios_never_panic(text in generated_scenario()) {
        scenario_target(&text);
    }

    #[test]
    fn notations_never_panic_and_print_back(s in notation()) {
        notation_target(&s);
    }

    #[test]
    fn parameter_values_never_panic(v in param_value(), m in any::<Index>(), p in any::<Index>()) {
        value_target(&v, m, p);
    }
}

// ---------------------------------------------------------------------
// The long run.

#[test]
#[ignore = "long: run with --ignored (ODDSMITH_FUZZ_SECONDS, default 600)"]
fn fuzz_every_parser_for_a_while() {
    let seconds: u64 = std::env::var("ODDSMITH_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("ODDSMITH_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261122);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    let mutated = mutated_scenario();
    let generated = generated_scenario();
    let notations = notation();
    let values = (param_value(), any::<Index>(), any::<Index>());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut runs = [0u64; 4];
    let mut accepted = [0u64; 4];
    let mut spent = [Duration::ZERO; 4];
    let mut i = 0usize;
    while Instant::now() < deadline {
        let target = i % 4;
        i += 1;
        let t = Instant::now();
        match target {
            0 => {
                let text = mutated.new_tree(&mut runner).unwrap().current();
                accepted[0] += u64::from(fail_with(&text, || scenario_target(&text)));
            }
            1 => {
                let text = generated.new_tree(&mut runner).unwrap().current();
                accepted[1] += u64::from(fail_with(&text, || scenario_target(&text)));
            }
            2 => {
                let s = notations.new_tree(&mut runner).unwrap().current();
                accepted[2] += u64::from(fail_with(&format!("{s:?}"), || notation_target(&s)));
            }
            _ => {
                let (v, m, p) = values.new_tree(&mut runner).unwrap().current();
                accepted[3] += u64::from(fail_with(&format!("{v:?} {m:?} {p:?}"), || {
                    value_target(&v, m, p)
                }));
            }
        }
        runs[target] += 1;
        spent[target] += t.elapsed();
    }
    let total: u64 = runs.iter().sum();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "fuzzed for {secs:.0} s: {total} executions, {:.0} per second",
        total as f64 / secs
    );
    for (k, name) in [
        "mutated scenarios",
        "generated scenarios",
        "notations",
        "parameter values",
    ]
    .iter()
    .enumerate()
    {
        println!(
            "  {name:<20} {:>10} executions, {:>8.0} per second of its own time, {:>5.1}% accepted",
            runs[k],
            runs[k] as f64 / spent[k].as_secs_f64().max(1e-9),
            100.0 * accepted[k] as f64 / runs[k].max(1) as f64
        );
    }
}

/// Run `f`; on a panic, keep the input in `target/fuzz-failure.txt` and
/// fail with it.
fn fail_with<T: Default>(input: &str, f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(e) => {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failure.txt");
            let _ = std::fs::create_dir_all(file.parent().unwrap());
            let _ = std::fs::write(&file, input);
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!(
                "panic on this input (kept in {}): {msg}\n{input}",
                file.display()
            );
        }
    }
}
