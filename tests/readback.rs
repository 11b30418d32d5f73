//! Reading a run back (`report`, `diff`) validates before it trusts: a
//! damaged or foreign `results.parquet`, an edited `scenario.toml` or a
//! manifest that does not match is bad input (exit 2) naming the file,
//! never a panic; `diff` compares only like runs and orders its findings.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use polars::prelude::*;

/// Run `text` (exact) into `dir/name`.
fn run_exact(dir: &Path, name: &str, text: &str) -> PathBuf {
    let s = scenario(dir, &format!("{name}.toml"), text);
    let out = dir.join(name);
    let o = oddsmith(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "exact",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// Make `out` a run written before oddsmith recorded file digests: its
/// manifest without `files`. Such a run is read with a warning, and every
/// check below the digests still holds it to what a run writes.
fn forget_digests(out: &Path) {
    let path = out.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("files").expect("files");
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

const GATEWAY: &str = "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 1, 2]\n";

/// `report DIR` and `diff DIR DIR` both refuse with exit 2, naming
/// `file` and saying `what`.
fn both_refuse(dir: &Path, file: &str, what: &str) {
    for args in [
        vec!["report", dir.to_str().unwrap()],
        vec!["diff", dir.to_str().unwrap(), dir.to_str().unwrap()],
    ] {
        let o = oddsmith(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(file) && err.contains(what), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn damaged_parquet_files_are_bad_input_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_exact(dir.path(), "run", GATEWAY);
    // Past the digests, to the Parquet reader itself.
    forget_digests(&out);
    let parquet = out.join("results.parquet");
    let good = std::fs::read(&parquet).unwrap();
    // Cut short, emptied, replaced by text.
    for bytes in [
        good[..good.len() / 2].to_vec(),
        Vec::new(),
        b"not parquet".to_vec(),
    ] {
        std::fs::write(&parquet, &bytes).unwrap();
        both_refuse(&out, "results.parquet", "");
    }
    // Single bytes flipped all through the file: never a panic; each is
    // refused or, where the byte held nothing read, the run reads as it was.
    let mut refused = 0;
    for at in (0..good.len()).step_by(good.len() / 97 + 1) {
        let mut bytes = good.clone();
        bytes[at] ^= 0x5a;
        std::fs::write(&parquet, &bytes).unwrap();
        let o = oddsmith(&["diff", out.to_str().unwrap(), out.to_str().unwrap()]);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "byte {at}: {err}");
        match o.status.code() {
            Some(2) => {
                assert!(err.contains("results.parquet"), "byte {at}: {err}");
                refused += 1;
            }
            Some(0) => {}
            other => panic!("byte {at}: exit {other:?}: {err}"),
        }
    }
    assert!(refused > 10, "only {refused} damaged files refused");
}

/// Rewrite `results.parquet` in `out` through `edit`.
fn edit_parquet(out: &Path, edit: impl FnOnce(DataFrame) -> DataFrame) {
    let path = out.join("results.parquet");
    let df = ParquetReader::new(std::fs::File::open(&path).unwrap())
        .finish()
        .unwrap();
    let mut df = edit(df);
    ParquetWriter::new(std::fs::File::create(&path).unwrap())
        .finish(&mut df)
        .unwrap();
}

/// A change to the long table.
type Edit = Box<dyn Fn(DataFrame) -> DataFrame>;

/// `df` with `column` in place of its namesake.
fn replace(mut df: DataFrame, column: Column) -> DataFrame {
    df.with_column(column).unwrap();
    df
}

#[test]
fn parquet_that_does_not_hold_this_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_exact(dir.path(), "run", GATEWAY);
    forget_digests(&out);
    let good = std::fs::read(out.join("results.parquet")).unwrap();
    let reset = || std::fs::write(out.join("results.parquet"), &good).unwrap();
    let cases: Vec<(&str, Edit)> = vec![
        (
            "sum to 0.5",
            Box::new(|df| {
                let p: Vec<f64> = df
                    .column("probability")
                    .unwrap()
                    .f64()
                    .unwrap()
                    .into_no_null_iter()
                    .map(|p| p * 0.5)
                    .collect();
                replace(df, Column::new("probability".into(), p))
            }),
        ),
        (
            "appears twice",
            Box::new(|df| df.head(Some(1)).vstack(&df).unwrap()),
        ),
        (
            "rows come after config 2's",
            Box::new(|df| df.vstack(&df.head(Some(1))).unwrap()),
        ),
        (
            "is not an outcome",
            Box::new(|df| {
                let mut fields: Vec<String> = df
                    .column("field")
                    .unwrap()
                    .str()
                    .unwrap()
                    .iter()
                    .map(|f| f.unwrap().to_string())
                    .collect();
                fields[0] = "luck".into();
                replace(df, Column::new("field".into(), fields))
            }),
        ),
        (
            "does not exist",
            Box::new(|df| {
                let c: Vec<u64> = df
                    .column("config_id")
                    .unwrap()
                    .u64()
                    .unwrap()
                    .into_no_null_iter()
                    .map(|c| c + 100)
                    .collect();
                replace(df, Column::new("config_id".into(), c))
            }),
        ),
        (
            "has no column `raises`",
            Box::new(|df| df.drop("raises").unwrap()),
        ),
        (
            "wrong type",
            Box::new(|df| {
                let v = df
                    .column("value")
                    .unwrap()
                    .cast(&DataType::Float64)
                    .unwrap();
                replace(df, v)
            }),
        ),
    ];
    for (what, edit) in cases {
        reset();
        edit_parquet(&out, edit);
        both_refuse(&out, "results.parquet", what);
    }
    // Another run's parquet: same mechanic, other sweep values.
    let other = run_exact(
        dir.path(),
        "other",
        "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [5, 6, 7]\n",
    );
    std::fs::copy(other.join("results.parquet"), out.join("results.parquet")).unwrap();
    both_refuse(&out, "results.parquet", "but in scenario.toml it is");
}

#[test]
fn an_edited_scenario_copy_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_exact(dir.path(), "run", GATEWAY);
    let text = std::fs::read_to_string(out.join("scenario.toml")).unwrap();
    // Still a valid scenario with the same sweep, but not what ran.
    std::fs::write(
        out.join("scenario.toml"),
        text.replace("[sweep]", "[params]\nactor.background = 3\n[sweep]"),
    )
    .unwrap();
    both_refuse(&out, "scenario.toml", "was changed after the run");
}

#[test]
fn a_manifest_of_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_exact(dir.path(), "run", GATEWAY);
    let manifest = out.join("manifest.json");
    let good = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, good.replace("\"configs\": 3", "\"configs\": 4")).unwrap();
    both_refuse(&out, "manifest.json", "says 4 configs");
    std::fs::write(
        &manifest,
        good.replace("\"mode\": \"exact\"", "\"mode\": 7"),
    )
    .unwrap();
    both_refuse(&out, "manifest.json", "not a manifest oddsmith wrote");
    std::fs::write(&manifest, "{").unwrap();
    both_refuse(&out, "manifest.json", "not a manifest oddsmith wrote");
}

#[test]
fn diff_refuses_unlike_runs() {
    let dir = tempfile::tempdir().unwrap();
    let gateway = run_exact(dir.path(), "gateway", GATEWAY);
    let statements = run_exact(
        dir.path(),
        "statements",
        "mechanic = \"statements.statement\"\n[sweep]\nfavouring = [1, 2, 3]\n",
    );
    let other_sweep = run_exact(
        dir.path(),
        "other",
        "mechanic = \"gateway.challenge\"\n[sweep]\n\"opposition.challenge\" = [0, 1, 2]\n",
    );
    for (other, what) in [
        (&statements, "different mechanics"),
        (&other_sweep, "sweep different parameters"),
    ] {
        let o = oddsmith(&["diff", gateway.to_str().unwrap(), other.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        assert!(stderr(&o).contains(what), "{}", stderr(&o));
    }
}

#[test]
fn diff_reports_configs_in_one_run_only_as_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let old = run_exact(dir.path(), "old", GATEWAY);
    let new = run_exact(
        dir.path(),
        "new",
        "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 1, 2, 3]\n",
    );
    let o = oddsmith(&["diff", old.to_str().unwrap(), new.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(&format!("only in {}: raises = 3", new.display())),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("no metric moved"), "{}", stdout(&o));
}

#[test]
fn diff_prints_biggest_moves_first_and_writes_them_as_csv() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = "[sweep]\n\"actor.background\" = [0, 1, 3]\nraises = [0, 1]\n";
    let old = run_exact(
        dir.path(),
        "old",
        &format!(
            "mechanic = \"gateway.challenge\"\n[params]\nactor.background_relevance = \"full\"\n{sweep}"
        ),
    );
    let new = run_exact(
        dir.path(),
        "new",
        &format!(
            "mechanic = \"gateway.challenge\"\n[params]\nactor.background_relevance = \"partial\"\n{sweep}"
        ),
    );
    let csv = dir.path().join("moves.csv");
    let o = oddsmith(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let printed: Vec<f64> = stdout(&o)
        .lines()
        .filter_map(|l| l.split("(change ").nth(1))
        .map(|rest| rest.split(',').next().unwrap().parse::<f64>().unwrap())
        .collect();
    assert_eq!(printed.len(), 6, "{}", stdout(&o));
    assert!(
        printed.windows(2).all(|w| w[0].abs() >= w[1].abs()),
        "not biggest first: {printed:?}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("status,config,metric,old,new,change,allowed\n"),
        "{text}"
    );
    let rows = text.lines().skip(1).count();
    assert_eq!(rows, 6, "{text}");
    assert!(
        text.lines().nth(1).unwrap().starts_with("moved,\""),
        "{text}"
    );
    assert!(
        entries(dir.path())
            .iter()
            .all(|n| !n.starts_with(".oddsmith"))
    );
}

#[test]
fn report_keeps_the_name_an_unnamed_scenario_took_from_its_file() {
    // Unnamed, a scenario is named after its file's stem; the copy in the
    // run is `scenario.toml`, whose stem must not rename it.
    let tmp = tempfile::tempdir().unwrap();
    let out = run_exact(tmp.path(), "myroll", GATEWAY);
    let before = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(before.starts_with("# myroll"), "{before}");
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert_eq!(after, before);
}

#[test]
fn a_metric_over_two_fields_survives_report_and_shards() {
    // The long table holds fields one by one; a metric that reads two at
    // once comes back from summary.parquet, and a shard keeps whole
    // outcomes, so `report` and `merge` give the run's own numbers.
    let tmp = tempfile::tempdir().unwrap();
    let text = "mechanic = \"gateway.scene\"\ntrials = 70000\n[sweep]\n\"a.trait\" = [2, 4]\n[[chart]]\nkind = \"line\"\nmetric = \"p_a_wins_within_7\"\nx = \"a.trait\"\nfile = \"quick\"\n";
    for mode in ["exact", "mc", "both"] {
        let s = scenario(tmp.path(), &format!("{mode}.toml"), text);
        let out = tmp.path().join(format!("run-{mode}"));
        let run = |extra: &[&str]| {
            let mut args = vec!["run", s.to_str().unwrap(), "--mode", mode, "-q"];
            args.extend_from_slice(extra);
            let o = oddsmith(&args);
            assert!(o.status.success(), "{mode}: {}", stderr(&o));
        };
        run(&["--out", out.to_str().unwrap()]);
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        assert!(
            summary
                .lines()
                .next()
                .unwrap()
                .contains("p_a_wins_within_7")
        );
        assert!(!summary.contains("NaN"), "{mode}: {summary}");
        let before = std::fs::read_to_string(out.join("report.md")).unwrap();
        let o = oddsmith(&["report", out.to_str().unwrap()]);
        assert!(o.status.success(), "{mode}: {}", stderr(&o));
        let after = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert_eq!(after, before, "{mode}: report DIR changed the report");

        let shards: Vec<String> = (1..=2)
            .map(|i| {
                tmp.path()
                    .join(format!("{mode}-shard-{i}"))
                    .display()
                    .to_string()
            })
            .collect();
        for (i, dir) in shards.iter().enumerate() {
            run(&["--shard", &format!("{}/2", i + 1), "--out", dir]);
        }
        let merged = tmp.path().join(format!("merged-{mode}"));
        let o = oddsmith(&[
            "merge",
            &shards[0],
            &shards[1],
            "--out",
            merged.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{mode}: {}", stderr(&o));
        for file in ["summary.csv", "results.csv", "report.md"] {
            assert_eq!(
                std::fs::read(merged.join(file)).unwrap(),
                std::fs::read(out.join(file)).unwrap(),
                "{mode}: merged {file}"
            );
        }
    }
}

/// The SHA-256 of the file at `path`, hex.
fn sha256(path: &Path) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(std::fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn manifest_of(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap()
}

/// Every file of the run in `out` but the manifest is in its `files`,
/// with its digest, and nothing else is.
fn assert_manifest_records_every_file(out: &Path) {
    let m = manifest_of(out);
    let files = m["files"].as_object().expect("files");
    let mut names: Vec<String> = entries(out)
        .into_iter()
        .filter(|n| n != "manifest.json")
        .collect();
    names.sort();
    let recorded: Vec<String> = files.keys().cloned().collect();
    assert_eq!(recorded, names);
    for (name, entry) in files {
        assert_eq!(
            entry["sha256"].as_str().unwrap(),
            sha256(&out.join(name)),
            "{name}"
        );
    }
}

#[test]
fn a_changed_missing_or_stray_data_file_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(dir.path(), "both.toml", GATEWAY);
    let out = dir.path().join("both");
    let o = oddsmith(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "--trials",
        "20000",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_manifest_records_every_file(&out);
    for name in [
        "scenario.toml",
        "summary.csv",
        "summary.parquet",
        "results.csv",
        "results.parquet",
        "agreement.csv",
    ] {
        let path = out.join(name);
        let good = std::fs::read(&path).unwrap();
        // One byte changed, and one byte more.
        let mut bytes = good.clone();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x01;
        for changed in [bytes, [good.as_slice(), b"\n"].concat()] {
            std::fs::write(&path, &changed).unwrap();
            both_refuse(
                &out,
                &path.display().to_string(),
                "was changed after the run",
            );
        }
        std::fs::remove_file(&path).unwrap();
        both_refuse(
            &out,
            &path.display().to_string(),
            "is missing, but the run's manifest.json records it",
        );
        std::fs::write(&path, &good).unwrap();
    }
    // A file the run did not write, under a data file's name.
    let exact = run_exact(dir.path(), "exact", GATEWAY);
    std::fs::copy(out.join("agreement.csv"), exact.join("agreement.csv")).unwrap();
    both_refuse(
        &exact,
        "agreement.csv",
        "is not one of the files the run's manifest.json records",
    );
    // Whole again, both read.
    let o = oddsmith(&["diff", out.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn an_old_run_without_digests_is_read_with_a_warning_saying_how_to_run_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_exact(dir.path(), "run", GATEWAY);
    forget_digests(&out);
    let before = std::fs::read(out.join("manifest.json")).unwrap();
    let again = format!(
        "run it again: `oddsmith run {} --mode exact --seed ",
        dir.path().join("run.toml").display()
    );
    for args in [
        vec!["report", out.to_str().unwrap()],
        vec!["diff", out.to_str().unwrap(), out.to_str().unwrap()],
    ] {
        let o = oddsmith(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "warning: {} records no file digests",
                out.join("manifest.json").display()
            )) && err.contains(&again)
                && err.contains(&format!("--out {}`", out.display())),
            "{args:?}: {err}"
        );
    }
    // `report` leaves such a manifest as it was.
    assert_eq!(std::fs::read(out.join("manifest.json")).unwrap(), before);
}

#[test]
fn report_updates_the_entries_it_rewrites_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dice");
    let o = oddsmith(&[
        "run",
        "scenarios/dice-roll.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "exact",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_manifest_records_every_file(&out);
    let before = manifest_of(&out);
    // A chart and a document edited by hand: not data, so `report` reads
    // the run and draws them again, and records the new digests.
    let svg = out.join("mean-by-dice.svg");
    std::fs::write(&svg, "<svg/>").unwrap();
    std::fs::write(out.join("report.md"), "edited\n").unwrap();
    // And their entries spoiled: `report` writes them anew.
    let mut spoiled = before.clone();
    for name in ["mean-by-dice.svg", "report.md"] {
        spoiled["files"][name]["sha256"] = serde_json::json!("0".repeat(64));
    }
    std::fs::write(
        out.join("manifest.json"),
        serde_json::to_vec_pretty(&spoiled).unwrap(),
    )
    .unwrap();
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    assert_manifest_records_every_file(&out);
    let after = manifest_of(&out);
    // Drawn again the same: the same digests, and nothing else moved.
    assert_eq!(after, before);
    // Another report of the same run is clean too.
    let o = oddsmith(&["diff", out.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
