//! One run, one directory, committed at once: whatever happens to a run
//! (a write error, a kill, Ctrl-C), `--out` holds the previous run or the
//! new one, whole, and nothing else; what a killed run left is cleaned up
//! by the next.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            for (k, v) in snapshot(&e.path()) {
                out.insert(format!("{name}/{k}"), v);
            }
        } else {
            out.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

/// Hidden staging or aside directories left beside `out`.
fn leftovers(parent: &Path) -> Vec<String> {
    entries(parent)
        .into_iter()
        .filter(|n| n.contains(".oddsmith-"))
        .collect()
}

fn run_ok(args: &[&str]) {
    let o = oddsmith(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

/// A finished run of the statements odds table in `dir/out`.
fn previous_run(dir: &Path) -> PathBuf {
    let out = dir.join("out");
    run_ok(&[
        "run",
        "scenarios/statements-odds.toml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    out
}

/// `oddsmith ARGS` in a shell that limits files to `blocks` 512-byte
/// blocks; `ignore_signal`: writes past it fail with EFBIG instead of the
/// process being killed by SIGXFSZ.
fn with_file_limit(blocks: u32, ignore_signal: bool, args: &[&str]) -> Output {
    let script = format!(
        "{}ulimit -f {blocks}; exec \"$0\" \"$@\"",
        if ignore_signal { "trap '' XFSZ; " } else { "" }
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_oddsmith"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn failed_run_keeps_previous_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let out = previous_run(dir.path());
    let before = snapshot(&out);
    // The raise table's summary.csv (200 KB) fits under 1000 blocks, its
    // results.csv (5 MB) does not: the run fails after writing some files.
    let o = with_file_limit(
        1000,
        true,
        &[
            "run",
            "scenarios/gateway-raises.toml",
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "exact",
            "-q",
        ],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("results.csv") && err.contains("File too large"),
        "{err}"
    );
    assert_eq!(snapshot(&out), before, "the previous run changed");
    assert_eq!(entries(dir.path()), ["out"], "staging left behind");
}

#[test]
fn killed_run_keeps_previous_outputs_and_the_next_run_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let out = previous_run(dir.path());
    let before = snapshot(&out);
    // SIGXFSZ kills the process in the middle of writing.
    let o = with_file_limit(
        1000,
        false,
        &[
            "run",
            "scenarios/gateway-raises.toml",
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "exact",
            "-q",
        ],
    );
    assert_eq!(o.status.code(), None, "killed by a signal");
    assert_eq!(snapshot(&out), before, "the previous run changed");
    let left = leftovers(dir.path());
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].starts_with(".out.oddsmith-staging."), "{left:?}");
    // The next run removes what the killed one left.
    run_ok(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "exact",
        "-q",
    ]);
    assert_eq!(entries(dir.path()), ["out"]);
    assert!(out.join("difficulty-table.png").is_file());
}

#[test]
fn a_run_never_mixes_with_files_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // --mode both writes agreement.csv; a later exact run must not keep it,
    // nor the charts of the other scenario.
    let s = scenario(
        dir.path(),
        "s.toml",
        "mechanic = \"gateway.challenge\"\ntrials = 2000\n[sweep]\nraises = [0, 1]\n[[chart]]\nkind = \"line\"\nmetric = \"p_success\"\nx = \"raises\"\nfile = \"old-chart\"\n",
    );
    run_ok(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "both",
        "-q",
    ]);
    assert!(out.join("agreement.csv").is_file() && out.join("old-chart.png").is_file());
    run_ok(&[
        "run",
        "scenarios/statements-odds.toml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    let names = entries(&out);
    assert!(
        !names
            .iter()
            .any(|n| n == "agreement.csv" || n.starts_with("old-chart")),
        "{names:?}"
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("statements.statement"), "{manifest}");
}

#[test]
fn planted_symlinks_are_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let out = previous_run(dir.path());
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // Links where the outputs, and the temporary files of older versions,
    // go: the run must neither write through them nor keep them.
    std::fs::remove_file(out.join("summary.csv")).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("summary.csv")).unwrap();
    std::os::unix::fs::symlink(&victim, out.join(".summary.csv.1.tmp")).unwrap();
    let o = oddsmith(&[
        "run",
        "scenarios/statements-odds.toml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(out.join("summary.csv")).unwrap();
    assert!(meta.is_file(), "summary.csv is a fresh file, not the link");
    assert!(!out.join(".summary.csv.1.tmp").exists());
}

#[test]
fn an_out_that_is_a_symlink_or_a_foreign_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let real = previous_run(dir.path());
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = oddsmith(&[
        "run",
        "scenarios/statements-odds.toml",
        "--out",
        link.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    // A directory holding someone's work is never replaced.
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "mine").unwrap();
    let o = oddsmith(&[
        "run",
        "scenarios/statements-odds.toml",
        "--out",
        project.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("notes.txt") && stderr(&o).contains("which oddsmith did not write"),
        "{}",
        stderr(&o)
    );
    assert_eq!(entries(&project), ["notes.txt"]);
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn interrupt_leaves_no_temp_files() {
    stop_a_long_run_with("INT");
}

#[test]
fn sigterm_from_a_scheduler_leaves_no_temp_files() {
    // A Slurm time limit or `kill` sends TERM, a closed terminal HUP: the
    // run stops as it does at Ctrl-C.
    stop_a_long_run_with("TERM");
    stop_a_long_run_with("HUP");
}

/// Start a run that would take hours over a previous run, send `signal`,
/// and check it stops within seconds with exit 130, leaving the previous
/// run as it was and nothing else.
fn stop_a_long_run_with(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = previous_run(dir.path());
    let before = snapshot(&out);
    // A Monte Carlo run that would take hours.
    let s = scenario(
        dir.path(),
        "long.toml",
        "mechanic = \"gateway.challenge\"\ntrials = 100000000000\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .args([
            "run",
            s.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "mc",
        ])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while leftovers(dir.path()).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(30), "no staging");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let the workers get going, then press Ctrl-C.
    std::thread::sleep(Duration::from_millis(300));
    let kill = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -{signal} {}", child.id()))
        .status()
        .unwrap();
    assert!(kill.success());
    let pressed = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if pressed.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("still running 30 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let o = child.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert!(
        pressed.elapsed() < Duration::from_secs(10),
        "stopped only after {:?}",
        pressed.elapsed()
    );
    assert_eq!(entries(dir.path()).len(), 2, "{:?}", entries(dir.path()));
    assert!(leftovers(dir.path()).is_empty());
    assert_eq!(snapshot(&out), before, "the previous run changed");
}

#[test]
fn check_out_gives_same_stems_distinct_directories_committed_together() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a")).unwrap();
    std::fs::create_dir_all(dir.path().join("b")).unwrap();
    let text = |raises: &str| {
        format!(
            "mechanic = \"gateway.challenge\"\n[sweep]\nraises = {raises}\n[[expect]]\nmetric = \"p_success\"\nat_least = 0\n"
        )
    };
    let a = scenario(&dir.path().join("a"), "x.toml", &text("[0, 1]"));
    let b = scenario(&dir.path().join("b"), "x.toml", &text("[2, 3, 4]"));
    let gate = dir.path().join("gate");
    // An earlier gate over another scenario: its directory must go.
    std::fs::create_dir_all(gate.join("gone")).unwrap();
    std::fs::write(gate.join("gone/report.md"), "old").unwrap();
    let o = oddsmith(&[
        "check",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        gate.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut names = entries(&gate);
    names.sort();
    assert_eq!(names, ["x", "x-2"]);
    assert_eq!(
        std::fs::read_to_string(gate.join("x/scenario.toml")).unwrap(),
        text("[0, 1]")
    );
    assert_eq!(
        std::fs::read_to_string(gate.join("x-2/scenario.toml")).unwrap(),
        text("[2, 3, 4]")
    );
    assert_eq!(csv_rows(&gate.join("x-2/summary.csv")).len(), 3);
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn report_rebuilds_in_place_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = previous_run(dir.path());
    let before = snapshot(&out);
    std::fs::remove_file(out.join("report.md")).unwrap();
    // A stray chart of nobody's: `report` rebuilds the run, not the mix.
    std::fs::write(out.join("stray.png"), "x").unwrap();
    run_ok(&["report", out.to_str().unwrap()]);
    assert_eq!(snapshot(&out), before);
    assert_eq!(entries(dir.path()), ["out"]);
}

#[test]
fn a_closed_pipe_ends_quietly_leaving_previous_outputs_and_no_staging() {
    // `oddsmith check … --report out | head -1`: the reader is gone
    // before the first line (its end of the pipe closed before the
    // command starts, so the test never races it). The command ends with
    // the code a shell gives a tool SIGPIPE ended, says nothing, and
    // unwinds through its staging: the previous run stays as it was.
    let dir = tempfile::tempdir().unwrap();
    let out = previous_run(dir.path());
    let before = snapshot(&out);
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .args(["check", "scenarios/statements-odds.toml", "--report"])
        .arg(&out)
        .current_dir(root())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    assert_eq!(snapshot(&out), before);
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        entries(dir.path())
    );
    // Written somewhere that fails otherwise (a full disk): an error that
    // names standard output, exit 2.
    let full = std::fs::File::create("/dev/full").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .args(["check", "scenarios/statements-odds.toml", "--report"])
        .arg(&out)
        .current_dir(root())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot write to standard output"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(&out), before);
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        entries(dir.path())
    );
}
