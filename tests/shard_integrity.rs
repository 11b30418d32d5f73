//! Shards you can trust: a merge never writes a run that no whole run
//! could give. Each hole a merge once had (a changed tally value, an edit
//! that keeps the totals, a later shard's missing or edited
//! `scenario.toml`) is refused with exit 2; so is a value outside its
//! config's support even when the digests are forged to match; and every
//! single-byte change to a shard's file is refused or merges to the whole
//! run, byte for byte apart from `manifest.json`.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use oddsmith::report::{self, RunMeta, Staging};
use oddsmith::shard::{self, Part};

fn run_ok(args: &[&str]) {
    let o = oddsmith(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

/// Run `scenario` with `opts` once into `dir/whole` and as `n` shards into
/// `dir/shard-I`.
fn whole_and_shards(
    dir: &Path,
    scenario: &str,
    opts: &[&str],
    n: usize,
) -> (PathBuf, Vec<PathBuf>) {
    let whole = dir.join("whole");
    let mut args = vec!["run", scenario, "--quiet", "--out", whole.to_str().unwrap()];
    args.extend(opts);
    run_ok(&args);
    let shards = (1..=n)
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
    (whole, shards)
}

/// A copy of the shard in `from` at `to`.
fn copy_shard(from: &Path, to: &Path) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    for f in ["shard.json", "scenario.toml"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    to.to_path_buf()
}

fn merge(shards: &[&Path], out: &Path) -> std::process::Output {
    let mut args = vec!["merge", "--quiet", "--out", out.to_str().unwrap()];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    oddsmith(&args)
}

/// `merge` exits 0 on `shards`.
fn assert_merges(shards: &[&Path], out: &Path) {
    let o = merge(shards, out);
    assert!(o.status.success(), "{}", stderr(&o));
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

/// Rewrite `dir/shard.json` through `edit` of its text.
fn edit_text(dir: &Path, edit: impl FnOnce(&str) -> String) {
    let path = dir.join("shard.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&path, edited).unwrap();
}

/// Record the digests of `dir/shard.json`'s payload as it now is: what a
/// forger, not an accident, does.
fn forge_digests(dir: &Path) {
    let path = dir.join("shard.json");
    let mut part: Part = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    part.seal();
    std::fs::write(&path, part.to_json().unwrap()).unwrap();
}

/// `[value,count]` pairs of the last field of the last tally in `text`.
fn last_tally_pairs(text: &str) -> Vec<(usize, i64, u64)> {
    let start = text.rfind("[[[").expect("a tally") + 2;
    let end = start + text[start..].find("]]]").unwrap() + 2;
    let body = &text[start..end];
    // The last field's list: after the last "],[[" or from the start.
    let from = body.rfind("]],[[").map_or(0, |k| k + 3);
    let mut out = Vec::new();
    let mut at = start + from;
    for pair in body[from..].split("],[") {
        let p = pair.trim_matches(|c| c == '[' || c == ']');
        let (v, c) = p.split_once(',').unwrap();
        let off = text[at..].find(p).unwrap() + at;
        out.push((off, v.parse().unwrap(), c.parse().unwrap()));
        at = off + p.len();
    }
    out
}

const DICE: &str = "scenarios/dice-roll.toml";
const MC: [&str; 4] = ["--mode", "mc", "--trials", "150000"];

#[test]
fn hole_1_a_changed_last_tally_value_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, shards) = whole_and_shards(dir.path(), DICE, &MC, 3);
    // The untouched shards merge.
    assert_merges(
        &[&shards[0], &shards[1], &shards[2]],
        &dir.path().join("merged"),
    );
    // [18,n] → [19,n] in the third shard: 8d6kh3 cannot give 19.
    let changed = copy_shard(&shards[2], &dir.path().join("changed"));
    edit_text(&changed, |t| {
        let pairs = last_tally_pairs(t);
        let &(at, value, _) = pairs.last().unwrap();
        assert_eq!(value, 18, "the last value of 8d6kh3 is 18");
        format!("{}19{}", &t[..at], &t[at + 2..])
    });
    assert_refused(
        &[&shards[0], &shards[1], &changed],
        &[
            &changed.join("shard.json").display().to_string(),
            "shard 3/3: `pieces` do not match `sha256.pieces`",
            "changed or damaged after the shard ran",
        ],
    );
    // With the digests forged to match, the value itself is refused:
    // outside the expression's range, naming shard, config, field, value.
    forge_digests(&changed);
    assert_refused(
        &[&shards[0], &shards[1], &changed],
        &[
            "shard 3/3 gives `result` = 19, outside config 5's support",
            "allowed: 3 to 18",
        ],
    );
}

#[test]
fn hole_2_an_edit_that_keeps_the_totals_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, shards) = whole_and_shards(dir.path(), DICE, &MC, 3);
    // [17,a],[18,b] → [17,a-1],[18,b+1]: every total is kept.
    let changed = copy_shard(&shards[2], &dir.path().join("changed"));
    edit_text(&changed, |t| {
        let pairs = last_tally_pairs(t);
        let k = pairs.len() - 1;
        let ((at17, v17, c17), (at18, v18, c18)) = (pairs[k - 1], pairs[k]);
        assert_eq!((v17, v18), (17, 18));
        let old17 = format!("{v17},{c17}");
        let old18 = format!("{v18},{c18}");
        format!(
            "{}{v17},{}{}{v18},{}{}",
            &t[..at17],
            c17 - 1,
            &t[at17 + old17.len()..at18],
            c18 + 1,
            &t[at18 + old18.len()..]
        )
    });
    assert_refused(
        &[&changed, &shards[0], &shards[1]],
        &["shard 3/3: `pieces` do not match `sha256.pieces`"],
    );
}

#[test]
fn hole_3_a_later_shards_missing_or_edited_scenario_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, shards) = whole_and_shards(dir.path(), DICE, &MC, 3);
    let missing = copy_shard(&shards[1], &dir.path().join("missing"));
    std::fs::remove_file(missing.join("scenario.toml")).unwrap();
    assert_refused(
        &[&shards[0], &missing, &shards[2]],
        &[
            &missing.join("scenario.toml").display().to_string(),
            "cannot read",
            "every shard carries the scenario file it ran (shard 2/3)",
        ],
    );
    let edited = copy_shard(&shards[2], &dir.path().join("edited"));
    let path = edited.join("scenario.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("to = 8", "to = 9")).unwrap();
    assert_refused(
        &[&shards[0], &shards[1], &edited],
        &[
            &path.display().to_string(),
            "was changed after the shard ran",
        ],
    );
    // Both at once are both named.
    assert_refused(
        &[&shards[0], &missing, &edited],
        &[
            &missing.join("scenario.toml").display().to_string(),
            &path.display().to_string(),
        ],
    );
}

#[test]
fn a_forged_tally_outside_a_bool_or_category_is_refused() {
    // gateway.challenge: `success` is a bool.
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "g.toml",
        "mechanic = \"gateway.challenge\"\nseed = 3\n[sweep]\nraises = [0, 1]\n",
    );
    let (_, shards) = whole_and_shards(
        dir.path(),
        s.to_str().unwrap(),
        &["--mode", "both", "--trials", "70000"],
        2,
    );
    let changed = copy_shard(&shards[1], &dir.path().join("changed"));
    let path = changed.join("shard.json");
    let mut part: Part = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let tally = part.pieces[0].tally.as_mut().unwrap();
    // `success` (field 0): every `true` becomes a 2.
    let last = tally.fields[0].last_mut().unwrap();
    assert_eq!(last.0, 1);
    last.0 = 2;
    part.seal();
    std::fs::write(&path, part.to_json().unwrap()).unwrap();
    assert_refused(
        &[&shards[0], &changed],
        &[
            "shard 2/2 gives `success` = 2, outside config 1's support",
            "false or true",
        ],
    );
    // A value inside the field's kind but outside the config's exact
    // answer (mode both): `degree` one past its highest.
    let changed = copy_shard(&shards[1], &dir.path().join("changed-2"));
    let path = changed.join("shard.json");
    let mut part: Part = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let tally = part.pieces[0].tally.as_mut().unwrap();
    let f = tally.fields.len() - 1;
    let beyond = part.pieces[0].exact.as_ref().unwrap()[f].last().unwrap().0 + 1;
    let tally = part.pieces[0].tally.as_mut().unwrap();
    tally.fields[f].last_mut().unwrap().0 = beyond;
    part.seal();
    std::fs::write(&path, part.to_json().unwrap()).unwrap();
    assert_refused(
        &[&shards[0], &changed],
        &["outside config 1's support", "of the config's exact answer"],
    );
}

/// A generator for the flips: SplitMix64.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Every file of a run but `manifest.json`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = entries(dir)
        .into_iter()
        .filter(|n| n != "manifest.json")
        .collect();
    names.sort();
    names
}

/// `merged` equals `whole` byte for byte, `manifest.json` aside.
fn same_run(whole: &Path, merged: &Path) -> Result<(), String> {
    let names = files(whole);
    if names != files(merged) {
        return Err(format!("files {names:?} against {:?}", files(merged)));
    }
    for n in &names {
        if std::fs::read(whole.join(n)).unwrap() != std::fs::read(merged.join(n)).unwrap() {
            return Err(format!("{n} differs"));
        }
    }
    Ok(())
}

/// Merge the shards in `dirs` in-process, as `oddsmith merge` does; the
/// merged run is written to `out` only if the merge accepts them.
fn merge_in_process(dirs: &[PathBuf], out: &Path) -> Result<(), String> {
    let parts = shard::read_all(dirs).map_err(|e| e.to_string())?;
    shard::check_set(&parts).map_err(|e| e.to_string())?;
    let scenario = shard::scenario_of_all(&parts).map_err(|e| e.to_string())?;
    let results = shard::merge(&scenario, &parts).map_err(|e| e.to_string())?;
    let first = &parts[0].1;
    let meta = RunMeta {
        scenario_path: first.run.scenario.path.clone(),
        scenario_sha256: first.run.scenario.sha256.clone(),
        threads: 1,
        wall_seconds: 0.0,
    };
    let verdicts = report::balance::evaluate(&results, &scenario.expectations);
    let staging = Staging::begin(out).unwrap();
    report::write_all(&staging.root(), &scenario, &results, &verdicts, &meta).unwrap();
    staging.commit().unwrap();
    Ok(())
}

#[test]
fn every_flipped_byte_of_a_shard_is_refused_or_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // Mode both: the payload holds exact weights and tallies.
    let (whole, shards) = whole_and_shards(
        dir.path(),
        DICE,
        &["--mode", "both", "--trials", "150000"],
        3,
    );
    let untouched = dir.path().join("untouched");
    merge_in_process(&shards, &untouched).unwrap();
    same_run(&whole, &untouched).unwrap();

    let good = std::fs::read(shards[2].join("shard.json")).unwrap();
    let flipped = copy_shard(&shards[2], &dir.path().join("flipped"));
    let dirs = vec![shards[0].clone(), shards[1].clone(), flipped.clone()];
    // Every byte once, then seeded ones, to at least 600 flips; each
    // byte XORed with a seeded non-zero mask.
    let mut mix = Mix(31);
    let tried = good.len().max(600);
    let (mut refused, mut accepted) = (0, 0);
    for k in 0..tried {
        let at = if k < good.len() {
            k
        } else {
            (mix.next() % good.len() as u64) as usize
        };
        let mask = (mix.next() % 255 + 1) as u8;
        let mut bytes = good.clone();
        bytes[at] ^= mask;
        std::fs::write(flipped.join("shard.json"), &bytes).unwrap();
        let out = dir.path().join(format!("merged-{k}"));
        match merge_in_process(&dirs, &out) {
            Err(_) => {
                refused += 1;
                assert!(!out.exists());
            }
            Ok(()) => {
                accepted += 1;
                same_run(&whole, &out).unwrap_or_else(|e| {
                    panic!(
                        "byte {at} ^ {mask:#04x} ({:?} → {:?}) was accepted, but {e}",
                        good[at] as char, bytes[at] as char
                    )
                });
                std::fs::remove_dir_all(&out).unwrap();
            }
        }
    }
    println!(
        "flips of one shard's shard.json ({} bytes): {tried} tried, {refused} refused, {accepted} accepted and byte-identical to the whole run",
        good.len()
    );
    assert_eq!(refused + accepted, tried);
    assert!(tried >= 500);
    assert!(refused > tried * 9 / 10, "{refused} of {tried} refused");
}

#[test]
fn the_ranges_mechanics_declare_hold_in_every_run() {
    use oddsmith::run::{self, Mode, RunOptions};
    use oddsmith::scenario::Scenario;
    // The shipped scenarios of the mechanics that declare ranges (dice
    // expressions, statement and experience successes, cgg.action's
    // wrench and hammer uses), exact and Monte Carlo.
    let mut declared = 0;
    for path in [
        "scenarios/dice-roll.toml",
        "scenarios/statements-experience.toml",
        "scenarios/statements-odds.toml",
        "scenarios/cgg-difficulty.toml",
    ] {
        let scenario = Scenario::load(&root().join(path)).unwrap();
        let opts = RunOptions {
            mode: Mode::Both,
            trials: Some(20_000),
            ..RunOptions::default()
        };
        let results = run::run(&scenario, &opts, &()).unwrap();
        let models = scenario.models().unwrap();
        for (c, (_, model)) in results.configs.iter().zip(&models) {
            let schema = model.schema();
            declared += schema.fields.iter().filter(|f| f.range.is_some()).count();
            assert_eq!(c.outside_bounds(schema), None, "{path} config {}", c.index);
        }
    }
    assert!(declared > 20, "only {declared} declared ranges checked");
}
