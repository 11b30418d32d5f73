//! The staging directory and its swap, on a scratch directory.

use super::*;

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A finished run in `out` holding `files`.
fn run_into(out: &Path, files: &[(&str, &str)]) {
    let s = Staging::begin(out).unwrap();
    for (n, b) in files {
        s.root().write(n, b.as_bytes()).unwrap();
    }
    s.commit().unwrap();
}

#[test]
fn a_commit_replaces_the_whole_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(
        &out,
        &[
            ("report.md", "one"),
            ("old.png", "x"),
            ("agreement.csv", "a"),
        ],
    );
    run_into(&out, &[("report.md", "two")]);
    assert_eq!(names(&out), ["report.md"]);
    assert_eq!(fs::read_to_string(out.join("report.md")).unwrap(), "two");
    assert_eq!(names(tmp.path()), ["out"], "no staging or aside left");
}

#[test]
fn a_dropped_staging_leaves_the_previous_run_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &[("report.md", "one")]);
    let s = Staging::begin(&out).unwrap();
    s.root().write("report.md", b"half").unwrap();
    drop(s);
    assert_eq!(fs::read_to_string(out.join("report.md")).unwrap(), "one");
    assert_eq!(names(tmp.path()), ["out"]);
}

#[test]
fn missing_parents_are_made_and_removed_again_when_nothing_is_committed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("a/b/out");
    drop(Staging::begin(&out).unwrap());
    assert!(names(tmp.path()).is_empty(), "{:?}", names(tmp.path()));
    run_into(&out, &[("report.md", "x")]);
    assert!(out.join("report.md").is_file());
}

#[test]
fn two_outputs_with_one_name_fail_instead_of_overwriting() {
    let tmp = tempfile::tempdir().unwrap();
    let s = Staging::begin(&tmp.path().join("out")).unwrap();
    s.root().write("chart.png", b"first").unwrap();
    let e = s.root().write("chart.png", b"second").unwrap_err();
    assert!(e.to_string().contains("two outputs"), "{e}");
}

#[test]
fn names_must_be_plain() {
    let tmp = tempfile::tempdir().unwrap();
    let s = Staging::begin(&tmp.path().join("out")).unwrap();
    for bad in ["../escape", "a/b", "..", ".", "", "/abs"] {
        assert!(s.root().write(bad, b"x").is_err(), "{bad:?} accepted");
    }
    assert!(names(tmp.path()).iter().all(|n| n.starts_with(".out.")));
}

#[test]
fn leftovers_of_dead_runs_are_removed_and_live_ones_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &[("report.md", "one")]);
    // PID 2^22 + 1 is above Linux's pid_max, so it names no live process.
    let dead = tmp.path().join(".out.oddsmith-staging.4194305.abcdefgh");
    fs::create_dir(&dead).unwrap();
    fs::write(dead.join("summary.csv"), "half").unwrap();
    let live = tmp.path().join(format!(
        ".out.oddsmith-staging.{}.zzzzzzzz",
        std::process::id()
    ));
    fs::create_dir(&live).unwrap();
    let other = tmp.path().join(".other.oddsmith-staging.4194305.abcdefgh");
    fs::create_dir(&other).unwrap();
    run_into(&out, &[("report.md", "two")]);
    assert!(!dead.exists());
    assert!(live.exists(), "a running process's staging is not touched");
    assert!(other.exists(), "another --out's leftovers are not touched");
}

#[test]
fn a_kill_between_the_renames_gets_the_previous_run_back() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &[("report.md", "one")]);
    // What a kill after "old aside" and before "new in" leaves.
    let aside = tmp.path().join(".out.oddsmith-old.4194305.abcdefgh");
    fs::rename(&out, &aside).unwrap();
    let s = Staging::begin(&out).unwrap();
    assert_eq!(fs::read_to_string(out.join("report.md")).unwrap(), "one");
    assert!(!aside.exists());
    drop(s);
    assert_eq!(names(tmp.path()), ["out"]);
}

#[test]
fn the_portable_swap_replaces_and_cleans_up() {
    let tmp = tempfile::tempdir().unwrap();
    let (new, out) = (tmp.path().join("new"), tmp.path().join("out"));
    fs::create_dir(&new).unwrap();
    fs::write(new.join("report.md"), "new").unwrap();
    fs::create_dir(&out).unwrap();
    fs::write(out.join("report.md"), "old").unwrap();
    let aside = tmp.path().join(".out.oddsmith-old.1.x");
    swap_by_renames(&new, &out, || fs::create_dir(&aside).map(|_| aside.clone())).unwrap();
    assert_eq!(fs::read_to_string(out.join("report.md")).unwrap(), "new");
    assert_eq!(names(tmp.path()), ["out"]);
}

#[test]
fn foreign_directories_are_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("project");
    fs::create_dir_all(out.join("src")).unwrap();
    fs::write(out.join("Cargo.toml"), "[package]").unwrap();
    let e = Staging::begin(&out).unwrap_err().to_string();
    assert!(e.contains("which oddsmith did not write"), "{e}");
    // A folder of pictures is not a run either: no report, no manifest.
    let pics = tmp.path().join("pictures");
    fs::create_dir(&pics).unwrap();
    fs::write(pics.join("cat.png"), "x").unwrap();
    assert!(Staging::begin(&pics).is_err());
    // `check --out` directories hold one run per scenario.
    let gate = tmp.path().join("gate");
    fs::create_dir_all(gate.join("a")).unwrap();
    fs::write(gate.join("a/report.md"), "x").unwrap();
    fs::write(gate.join("a/chart.svg"), "x").unwrap();
    drop(Staging::begin(&gate).unwrap());
    assert!(Staging::begin(Path::new(".")).is_err());
    assert!(Staging::begin(Path::new("..")).is_err());
}

#[test]
fn writes_stop_once_interrupted() {
    static FLAG: AtomicBool = AtomicBool::new(false);
    let tmp = tempfile::tempdir().unwrap();
    let s = Staging::begin(&tmp.path().join("out"))
        .unwrap()
        .stop_on(&FLAG);
    s.root().write("report.md", b"x").unwrap();
    FLAG.store(true, Ordering::SeqCst);
    assert!(matches!(
        s.root().write("report.html", b"x"),
        Err(OutputError::Interrupted)
    ));
    assert!(matches!(s.commit(), Err(OutputError::Interrupted)));
    assert!(names(tmp.path()).is_empty());
}
