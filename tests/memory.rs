//! A sweep's memory does not grow with its configs: the run's own peak
//! (`peak_memory_bytes` in its manifest, the process's peak resident
//! memory, so one process per size) is about the same for a sweep ten
//! times the size. Each config's result is on disk once it is written;
//! the summaries, charts, report and assertions read back only what they
//! need. Redrawing a run's report (`oddsmith report DIR`) reads its data
//! back config by config, and its peak does not grow either.

mod common;

use std::path::Path;

use common::*;

/// An exact statements sweep of `favouring` 1..=`n` against `opposing`
/// 1..=100, with a chart of each kind and every kind of assertion, as
/// a designer's big sweep has.
fn sweep(dir: &Path, n: usize) -> std::path::PathBuf {
    let text = format!(
        r#"name = "Flat memory"
mechanic = "statements.statement"

[sweep]
favouring = {{ from = 1, to = {n} }}
opposing = {{ from = 1, to = 100 }}

[[chart]]
kind = "line"
title = "P(true) by opposing"
metric = "p_true"
x = "opposing"
where = {{ favouring = 7 }}
file = "line"

[[chart]]
kind = "histogram"
title = "Weight, 7 against 9"
field = "weight"
where = {{ favouring = 7, opposing = 9 }}
file = "weight"

[[expect]]
metric = "p_true"
monotonic = {{ along = "favouring", direction = "increasing" }}

[[expect]]
metric = "p_true"
monotonic = {{ along = "opposing", direction = "decreasing" }}

[[expect]]
where = {{ favouring = 7, opposing = 9 }}
metric = "p_true"
between = [0.75, 0.9]

[[expect]]
metric = "p_true"
at_least = 0.0
"#
    );
    scenario(dir, &format!("flat-{n}.toml"), &text)
}

/// The peak memory of an exact run of `sweep(n)`, from its manifest; the
/// run is left in `dir/out-n`.
fn peak(dir: &Path, n: usize) -> f64 {
    let file = sweep(dir, n);
    let out = dir.join(format!("out-{n}"));
    let o = oddsmith(&[
        "run",
        file.to_str().unwrap(),
        "--mode",
        "exact",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["configs"].as_u64(), Some(n as u64 * 100));
    manifest["peak_memory_bytes"]
        .as_f64()
        .expect("a peak on Linux")
}

#[test]
#[cfg(target_os = "linux")]
fn a_sweep_ten_times_the_size_peaks_within_a_fifth_more_memory() {
    let dir = tempfile::tempdir().unwrap();
    // 10,000 and 100,000 configs: past the size where a few hundred bytes
    // a config held in memory would show (the sweeps of 2026-11 held
    // about 1.2 KB a config: 12 MB against 120 MB here).
    let small = peak(dir.path(), 100);
    let big = peak(dir.path(), 1_000);
    assert!(
        big <= small * 1.2,
        "peak memory grew from {:.1} MB (10,000 configs) to {:.1} MB (100,000 configs)",
        small / 1e6,
        big / 1e6
    );
}

/// The peak resident memory of one `oddsmith ARGS` process, in bytes, as
/// the kernel accounts for the child when it is reaped (`wait4`).
#[cfg(target_os = "linux")]
fn child_peak(args: &[&str]) -> f64 {
    // Reaped by wait4 below, which std's wait cannot do with the usage.
    #[allow(clippy::zombie_processes)]
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_oddsmith"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("oddsmith starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill, and the
    // child is reaped here only (`child` is never waited on).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "oddsmith {args:?} failed ({status})"
    );
    // Linux counts ru_maxrss in KiB.
    usage.ru_maxrss as f64 * 1024.0
}

#[test]
#[cfg(target_os = "linux")]
fn redrawing_a_sweep_ten_times_the_size_peaks_within_a_fifth_more_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for n in [100, 1_000] {
        peak(dir.path(), n);
        let out = dir.path().join(format!("out-{n}"));
        let before = std::fs::read(out.join("report.md")).unwrap();
        peaks.push(child_peak(&["report", out.to_str().unwrap()]));
        // Redrawn from the data alone, the report is the run's own.
        assert_eq!(std::fs::read(out.join("report.md")).unwrap(), before);
    }
    let (small, big) = (peaks[0], peaks[1]);
    assert!(
        big <= small * 1.2,
        "`oddsmith report` peaked at {:.1} MB on 10,000 configs, {:.1} MB on 100,000 (the run in memory took 630 MB)",
        small / 1e6,
        big / 1e6
    );
}
