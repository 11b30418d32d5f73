//! `oddsmith run … --shard I/N` and `oddsmith merge`: shards merged in any
//! order equal the single run byte for byte, in every mode; sets that are
//! not one whole run are refused with exit 2, naming the culprit; the
//! recipes in docs/recipes/ run as written.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// A run's files that must match byte for byte: everything but the
/// manifest, whose timings and thread count differ from run to run.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = entries(dir)
        .into_iter()
        .filter(|n| n != "manifest.json")
        .collect();
    names.sort();
    names
}

/// `merged` is `single`, byte for byte (the manifest up to timings).
fn assert_same_run(single: &Path, merged: &Path) {
    let names = files(single);
    for must in ["summary.csv", "results.csv", "results.parquet"] {
        assert!(names.iter().any(|n| n == must), "{must} missing: {names:?}");
    }
    assert_eq!(names, files(merged), "different files");
    for name in &names {
        let a = std::fs::read(single.join(name)).unwrap();
        let b = std::fs::read(merged.join(name)).unwrap();
        assert!(
            a == b,
            "{name} differs between the single and the merged run"
        );
    }
    let manifest = |dir: &Path| {
        let mut m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
        for key in [
            "threads",
            "wall_seconds",
            "exact_seconds",
            "monte_carlo_seconds",
            "peak_memory_bytes",
        ] {
            m.as_object_mut().unwrap().remove(key).expect(key);
        }
        m
    };
    assert_eq!(manifest(single), manifest(merged));
}

fn run_ok(args: &[&str]) {
    let o = oddsmith(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

/// Run `scenario` once and as `n` shards into `dir`; returns the single
/// run's directory and the shards' directories.
fn single_and_shards(
    dir: &Path,
    scenario: &str,
    opts: &[&str],
    n: usize,
) -> (PathBuf, Vec<PathBuf>) {
    let single = dir.join("single");
    let mut args = vec![
        "run",
        scenario,
        "--quiet",
        "--out",
        single.to_str().unwrap(),
    ];
    args.extend(opts);
    run_ok(&args);
    let shards: Vec<PathBuf> = (1..=n)
        .map(|i| {
            let out = dir.join(format!("shard-{i}"));
            let which = format!("{i}/{n}");
            let mut args = vec![
                "run",
                scenario,
                "--quiet",
                "--shard",
                &which,
                "--out",
                out.to_str().unwrap(),
            ];
            args.extend(opts);
            run_ok(&args);
            out
        })
        .collect();
    (single, shards)
}

fn merge(shards: &[&Path], out: &Path) -> std::process::Output {
    let mut args = vec!["merge", "--quiet", "--out", out.to_str().unwrap()];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    oddsmith(&args)
}

fn merged_equals_single(scenario: &str, opts: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let (single, shards) = single_and_shards(dir.path(), scenario, opts, 3);
    let out = dir.path().join("merged");
    let o = merge(&[&shards[2], &shards[0], &shards[1]], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_run(&single, &out);
}

#[test]
fn three_shards_merge_to_the_single_run_byte_for_byte_exact() {
    // 4,928 configs solved exactly, whole configs to each shard.
    merged_equals_single("scenarios/gateway-raises.toml", &["--mode", "exact"]);
}

#[test]
fn three_shards_merge_to_the_single_run_byte_for_byte_monte_carlo() {
    // 50 configs of 2 chunks: 100 units, so shards 1/3 and 2/3 end in the
    // middle of a config and its tallies come from two shards.
    merged_equals_single(
        "tests/scenarios/gateway-50.toml",
        &["--mode", "mc", "--trials", "100000"],
    );
}

#[test]
fn three_shards_merge_to_the_single_run_byte_for_byte_precision() {
    merged_equals_single(
        "tests/scenarios/gateway-50.toml",
        &[
            "--mode",
            "mc",
            "--precision",
            "0.005",
            "--trials",
            "5000",
            "--max-trials",
            "300000",
        ],
    );
}

/// One config, 5 chunks and a short one: three shards split it by chunk.
const ONE_CONFIG: &str = "name = \"4d6 keep three\"\nmechanic = \"dice.roll\"\nseed = 7\ntrials = 327687\n[params]\nexpr = \"4d6kh3\"\n";

#[test]
fn one_config_spreads_over_three_shards_by_chunk_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(dir.path(), "one.toml", ONE_CONFIG);
    for mode in ["mc", "both", "auto", "exact"] {
        let sub = dir.path().join(mode);
        std::fs::create_dir(&sub).unwrap();
        let (single, shards) = single_and_shards(&sub, s.to_str().unwrap(), &["--mode", mode], 3);
        let part: serde_json::Value =
            serde_json::from_slice(&std::fs::read(shards[1].join("shard.json")).unwrap()).unwrap();
        if mode == "exact" {
            // Whole configs: the one config is shard 3's, 1 and 2 are empty.
            assert_eq!(part["pieces"], serde_json::json!([]), "{mode}");
        } else {
            assert_eq!(
                part["pieces"][0]["chunks"],
                serde_json::json!([2, 4]),
                "{mode}"
            );
        }
        let out = sub.join("merged");
        let o = merge(&[&shards[1], &shards[2], &shards[0]], &out);
        assert!(o.status.success(), "{mode}: {}", stderr(&o));
        assert_same_run(&single, &out);
    }
}

#[test]
fn merge_takes_the_shards_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let (single, shards) = single_and_shards(
        dir.path(),
        "scenarios/dice-roll.toml",
        &["--mode", "mc", "--trials", "150000"],
        3,
    );
    let (a, b, c) = (&shards[0], &shards[1], &shards[2]);
    let orders: [[&Path; 3]; 6] = [
        [a, b, c],
        [a, c, b],
        [b, a, c],
        [b, c, a],
        [c, a, b],
        [c, b, a],
    ];
    for (k, order) in orders.iter().enumerate() {
        let out = dir.path().join(format!("merged-{k}"));
        let o = merge(order, &out);
        assert!(o.status.success(), "{order:?}: {}", stderr(&o));
        assert_same_run(&single, &out);
    }
}

/// `merge` refuses with exit 2, writes nothing, and says each of `needles`.
fn assert_refused(shards: &[&Path], needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("merged");
    let o = merge(shards, &out);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "`{n}` not in: {err}");
    }
    assert!(!out.exists(), "a refused merge wrote {}", out.display());
}

#[test]
fn a_missing_or_doubled_shard_is_refused_with_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_, shards) = single_and_shards(
        dir.path(),
        "scenarios/dice-roll.toml",
        &["--mode", "mc", "--trials", "70000"],
        3,
    );
    let (a, b, c) = (
        shards[0].as_path(),
        shards[1].as_path(),
        shards[2].as_path(),
    );
    assert_refused(
        &[a, c],
        &["shard 2/3 of `scenarios/dice-roll.toml` is missing"],
    );
    assert_refused(&[c], &["shards 1/3, 2/3 of", "are missing"]);
    let twice = format!(
        "shard 2/3 is given 2 times: {}, {}",
        b.display(),
        b.display()
    );
    assert_refused(&[b, a, b, c], &[&twice]);
    // A copy of a shard under another name is the same shard twice.
    let copy = dir.path().join("copy-of-1");
    std::fs::create_dir(&copy).unwrap();
    for f in ["shard.json", "scenario.toml"] {
        std::fs::copy(a.join(f), copy.join(f)).unwrap();
    }
    let twice = format!(
        "shard 1/3 is given 2 times: {}, {}",
        a.display(),
        copy.display()
    );
    assert_refused(&[a, b, copy.as_path()], &[&twice, "shard 3/3", "missing"]);
}

#[test]
fn shards_of_different_seeds_are_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ["--mode", "mc", "--trials", "70000"];
    let (_, shards) = single_and_shards(dir.path(), "scenarios/dice-roll.toml", &opts, 2);
    let other = dir.path().join("seed-9");
    let mut args = vec![
        "run",
        "scenarios/dice-roll.toml",
        "--quiet",
        "--seed",
        "9",
        "--shard",
        "2/2",
        "--out",
        other.to_str().unwrap(),
    ];
    args.extend(opts);
    run_ok(&args);
    let culprit = format!("{}: `seed` is 9, but", other.join("shard.json").display());
    assert_refused(&[&shards[0], &other], &[&culprit, "has 1"]);
    // Other trials or another shard count are another run too.
    let other = dir.path().join("of-3");
    run_ok(&[
        "run",
        "scenarios/dice-roll.toml",
        "--quiet",
        "--mode",
        "mc",
        "--trials",
        "70000",
        "--shard",
        "2/3",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert_refused(&[&shards[0], &other], &["`shards` is 3", "has 2"]);
}

#[test]
fn shards_of_a_different_scenario_are_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ["--mode", "mc", "--trials", "70000"];
    let (_, shards) = single_and_shards(dir.path(), "scenarios/dice-roll.toml", &opts, 2);
    // The same scenario with one more comment line is another file.
    let text = std::fs::read_to_string(root().join("scenarios/dice-roll.toml")).unwrap();
    let edited = scenario(dir.path(), "dice-roll.toml", &format!("# edited\n{text}"));
    let other = dir.path().join("edited");
    let mut args = vec![
        "run",
        edited.to_str().unwrap(),
        "--quiet",
        "--shard",
        "2/2",
        "--out",
        other.to_str().unwrap(),
    ];
    args.extend(opts);
    run_ok(&args);
    assert_refused(
        &[&shards[0], &other],
        &[
            &format!("{}: `scenario` is", other.join("shard.json").display()),
            "scenarios/dice-roll.toml",
        ],
    );
}

#[test]
fn a_whole_run_an_edited_scenario_or_a_damaged_tally_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ["--mode", "mc", "--trials", "70000"];
    let (single, shards) = single_and_shards(dir.path(), "scenarios/dice-roll.toml", &opts, 2);
    assert_refused(
        &[&single, &shards[1]],
        &["this is a whole run, not a shard"],
    );

    let copy = |name: &str| {
        let to = dir.path().join(name);
        std::fs::create_dir(&to).unwrap();
        for f in ["shard.json", "scenario.toml"] {
            std::fs::copy(shards[0].join(f), to.join(f)).unwrap();
        }
        to
    };
    let edited = copy("edited-scenario");
    let path = edited.join("scenario.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("to = 8", "to = 9")).unwrap();
    assert_refused(
        &[&edited, &shards[1]],
        &["scenario.toml: was changed after the shard ran"],
    );

    // One count one higher: the counts no longer sum to the trials.
    let damaged = copy("damaged-tally");
    let path = damaged.join("shard.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("\"fields\":[[[").unwrap() + "\"fields\":[[[".len();
    let comma = at + text[at..].find(',').unwrap();
    let end = comma + text[comma..].find(']').unwrap();
    let count: u64 = text[comma + 1..end].parse().unwrap();
    let text = format!("{}{}{}", &text[..comma + 1], count + 1, &text[end..]);
    std::fs::write(&path, text).unwrap();
    assert_refused(
        &[&damaged, &shards[1]],
        &["shard.json: shard 1/2: `pieces` do not match `sha256.pieces`"],
    );
    // Past the digests (recorded again, as only a forger would), the
    // tally itself is still checked.
    let mut part: oddsmith::shard::Part =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    part.seal();
    std::fs::write(&path, part.to_json().unwrap()).unwrap();
    assert_refused(
        &[&damaged, &shards[1]],
        &[
            "shard.json: config 0 chunks 0..2: the counts of",
            "do not sum to",
        ],
    );
}

#[test]
fn a_shard_outside_one_to_n_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["0/3", "4/3", "3", "1/0"] {
        let o = oddsmith(&[
            "run",
            "scenarios/dice-roll.toml",
            "--shard",
            bad,
            "--out",
            dir.path().join("x").to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("allowed"), "{bad}: {}", stderr(&o));
    }
}

/// The value of top-level `key:` in the workflow's `env:` block.
fn workflow_env(text: &str, key: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("  {key}: ")))
        .unwrap_or_else(|| panic!("no env {key} in the workflow"));
    line.split_once(": ").unwrap().1.trim().to_string()
}

/// The `run:` command of the step named `name`: one line, or a `run: |`
/// block (the lines indented under it).
fn workflow_step(text: &str, name: &str) -> String {
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim() != format!("- name: {name}"));
    lines.next().unwrap_or_else(|| panic!("no step {name}"));
    let line = lines.next().unwrap();
    let run = line.trim().strip_prefix("run: ").expect("a run: line");
    if run != "|" {
        return run.to_string();
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let under = indent(line);
    lines
        .take_while(|l| l.trim().is_empty() || indent(l) > under)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn github_actions_recipe_merges_to_the_single_run() {
    let text =
        std::fs::read_to_string(root().join("docs/recipes/github-actions-shards.yml")).unwrap();
    let scenario = root().join(workflow_env(&text, "SCENARIO"));
    let run_options = workflow_env(&text, "RUN_OPTIONS");
    let matrix = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .expect("a shard matrix");
    let shards: Vec<usize> = matrix
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let n = shards.len();
    assert_eq!(shards, (1..=n).collect::<Vec<_>>(), "the matrix lists 1..N");
    let shard_step = workflow_step(&text, "Run shard");
    let merge_step = workflow_step(&text, "Merge");

    let dir = tempfile::tempdir().unwrap();
    let bash = |command: &str, matrix: &[(&str, String)]| {
        let o = Command::new("bash")
            .args(["-euo", "pipefail", "-c", command])
            .current_dir(dir.path())
            .env("ODDSMITH", env!("CARGO_BIN_EXE_oddsmith"))
            .env("SCENARIO", &scenario)
            .env("RUN_OPTIONS", &run_options)
            .envs(matrix.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}: {}", stderr(&o));
    };
    // Each matrix job (the step's env: SHARD and SHARDS), then the merge
    // job (artifacts unpack where the shards wrote them: shards/shard-I/).
    assert!(text.contains("SHARD: ${{ matrix.shard }}"));
    assert!(text.contains("SHARDS: ${{ strategy.job-total }}"));
    for i in &shards {
        bash(
            &shard_step,
            &[("SHARD", i.to_string()), ("SHARDS", n.to_string())],
        );
    }
    bash(&merge_step, &[]);

    let single = dir.path().join("single");
    let mut args = vec![
        "run",
        scenario.to_str().unwrap(),
        "--quiet",
        "--out",
        single.to_str().unwrap(),
    ];
    args.extend(run_options.split_whitespace());
    run_ok(&args);
    assert_same_run(&single, &dir.path().join("run"));
}

#[test]
fn slurm_recipe_merges_to_the_single_run() {
    let script = root().join("docs/recipes/slurm-shards.sh");
    let scenario = root().join("scenarios/dice-roll.toml");
    let opts = ["--mode", "mc", "--trials", "200000"];
    let dir = tempfile::tempdir().unwrap();
    let sh = |args: &[&str], env: &[(&str, String)]| {
        let o = Command::new("bash")
            .arg(&script)
            .args(args)
            .current_dir(dir.path())
            .env("ODDSMITH", env!("CARGO_BIN_EXE_oddsmith"))
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    };
    // The array job's tasks, as Slurm starts them, then the merge job.
    for i in 1..=4 {
        let mut args = vec!["shard", scenario.to_str().unwrap()];
        args.extend(opts);
        sh(
            &args,
            &[
                ("SLURM_ARRAY_TASK_ID", i.to_string()),
                ("SLURM_ARRAY_TASK_COUNT", "4".to_string()),
            ],
        );
    }
    sh(&["merge"], &[]);

    let single = dir.path().join("single");
    let mut args = vec![
        "run",
        scenario.to_str().unwrap(),
        "--quiet",
        "--out",
        single.to_str().unwrap(),
    ];
    args.extend(opts);
    run_ok(&args);
    assert_same_run(&single, &dir.path().join("run"));
}

#[test]
fn merging_into_one_of_the_shards_is_refused_and_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_, shards) = single_and_shards(
        dir.path(),
        "scenarios/dice-roll.toml",
        &["--mode", "mc", "--trials", "70000"],
        1,
    );
    let before = std::fs::read(shards[0].join("shard.json")).unwrap();
    let o = merge(&[&shards[0]], &shards[0]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the shard"), "{}", stderr(&o));
    assert_eq!(std::fs::read(shards[0].join("shard.json")).unwrap(), before);
}
