//! The balance gate end to end: `oddsmith check`, `report` and `diff`.

mod common;

use common::*;

const BASE: &str = "name = \"t\"\nmechanic = \"gateway.challenge\"\nseed = 1\n[sweep]\n\"opposition.challenge\" = [0, 2, 4]\n";

#[test]
fn an_assertion_that_holds_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    // 3d8 against 2d8 + 0: P(success) = 0.6907 exactly.
    let s = scenario(
        dir.path(),
        "holds.toml",
        &format!(
            "{BASE}[[expect]]\nwhy = \"an easy challenge is easy\"\nwhere = {{ \"opposition.challenge\" = 0 }}\nmetric = \"p_success\"\nbetween = [0.6, 0.75]\n[[expect]]\nmetric = \"p_success\"\nmonotonic = {{ along = \"opposition.challenge\", direction = \"decreasing\" }}\n"
        ),
    );
    let o = oddsmith(&["check", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("2 of 2 assertions hold"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn quiet_output_starts_with_the_failures_not_a_blank_line() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "fails.toml",
        &format!("{BASE}[[expect]]\nmetric = \"p_success\"\nat_least = 0.5\n"),
    );
    let o = oddsmith(&["check", "--quiet", s.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.starts_with("1 of 1 assertions FAIL:\n"), "{out:?}");
    // Without --quiet, the failures are a paragraph after the summary.
    let o = oddsmith(&["check", s.to_str().unwrap()]);
    assert!(stdout(&o).contains(" (3 configs, "), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("\n\n1 of 1 assertions FAIL:\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn an_assertion_that_fails_exits_1_with_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "fails.toml",
        &format!(
            "{BASE}[[expect]]\nwhy = \"most challenges are winnable\"\nmetric = \"p_success\"\nat_least = 0.5\n[[expect]]\nmetric = \"p_success\"\nmonotonic = {{ along = \"opposition.challenge\", direction = \"increasing\" }}\n"
        ),
    );
    let o = oddsmith(&["check", s.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("2 of 2 assertions FAIL"), "{out}");
    // Each failing assertion: where, the rule, its why, then each config's
    // value against the bound.
    assert!(out.contains("fails.toml:6: p_success ≥ 0.5"), "{out}");
    assert!(out.contains("  why: most challenges are winnable"), "{out}");
    assert!(
        out.contains("config") && out.contains("value") && out.contains("bound"),
        "{out}"
    );
    // challenge 2: 3d8 vs 2d8+2 = 0.348846; challenge 4: 0.130371; 0 holds.
    let row = |config: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(config))
            .unwrap_or_else(|| panic!("no row for {config} in\n{out}"))
            .to_string()
    };
    let r = row("opposition.challenge = 4 ");
    assert!(r.contains("0.130371") && r.contains("≥ 0.5"), "{r}");
    assert!(
        row("opposition.challenge = 2 ").contains("0.348846"),
        "{out}"
    );
    assert!(!out.contains("opposition.challenge = 0 "), "{out}");
    assert!(
        out.contains("fails.toml:10: p_success never falls"),
        "{out}"
    );
    assert!(out.contains("why: (not given"), "{out}");
    let r = row("opposition.challenge 0 → 2");
    assert!(
        r.contains("0.690674 → 0.348846") && r.contains("never falls"),
        "{r}"
    );
}

#[test]
fn a_monte_carlo_value_inside_its_bound_only_by_the_interval_holds() {
    let dir = tempfile::tempdir().unwrap();
    let plain = scenario(
        dir.path(),
        "plain.toml",
        "mechanic = \"gateway.challenge\"\nseed = 5\ntrials = 2000\n",
    );
    let out = dir.path().join("mc");
    let o = oddsmith(&[
        "run",
        plain.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "mc",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let row = &csv_rows(&out.join("summary.csv"))[0];
    let (p, hi): (f64, f64) = (
        row["p_success"].parse().unwrap(),
        row["p_success_hi"].parse().unwrap(),
    );
    // A bound above the estimate but inside its interval: holds, and says why.
    let inside = scenario(
        dir.path(),
        "inside.toml",
        &format!(
            "mechanic = \"gateway.challenge\"\nseed = 5\ntrials = 2000\n[[expect]]\nmetric = \"p_success\"\nat_least = {}\n",
            (p + hi) / 2.0
        ),
    );
    let o = oddsmith(&["check", inside.to_str().unwrap(), "--mode", "mc"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("holds only within the 95% interval"),
        "{}",
        stdout(&o)
    );
    // A bound above the whole interval fails.
    let above = scenario(
        dir.path(),
        "above.toml",
        &format!(
            "mechanic = \"gateway.challenge\"\nseed = 5\ntrials = 2000\n[[expect]]\nmetric = \"p_success\"\nat_least = {}\n",
            hi + 0.001
        ),
    );
    let o = oddsmith(&["check", above.to_str().unwrap(), "--mode", "mc"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

#[test]
fn bad_assertions_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[[expect]]\nmetric = \"p_sucess\"\nat_least = 0.5\n",
            "\"p_sucess\" is not a metric",
        ),
        (
            "[[expect]]\nmetric = \"p_success\"\nmonotonic = { along = \"raises\", direction = \"decreasing\" }\n",
            "\"raises\" is not swept",
        ),
        (
            "[[expect]]\nmetric = \"p_success\"\n",
            "has no bound; give one of between",
        ),
        ("[[chart]]\nkind = \"pie\"\n", "\"pie\" is not a chart kind"),
        (
            "[[chart]]\nkind = \"line\"\nmetric = \"p_success\"\nx = \"raises\"\n",
            "\"raises\" is not swept",
        ),
        (
            "[[expect]]\nwhere = { \"opposition.challenge\" = 3 }\nmetric = \"p_success\"\nat_least = 0.1\n",
            "not a value of the sweep",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let s = scenario(
            dir.path(),
            &format!("bad{i}.toml"),
            &format!("{BASE}{text}"),
        );
        let o = oddsmith(&["check", s.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "case {i}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(want) && stderr(&o).contains(&format!("bad{i}.toml:")),
            "case {i}: {}",
            stderr(&o)
        );
    }
    // A chart that leaves a swept parameter loose is named.
    let s = scenario(
        dir.path(),
        "loose.toml",
        "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 1]\n\"actor.trait\" = [1, 2]\n[[chart]]\nkind = \"line\"\nmetric = \"p_success\"\nx = \"raises\"\n",
    );
    let o = oddsmith(&["check", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("leaves actor.trait varying"),
        "{}",
        stderr(&o)
    );
}

/// Run `text` with `--mode exact` into `dir/name`.
fn run_exact(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
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

#[test]
fn diff_flags_a_changed_rule_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = "[sweep]\n\"actor.background\" = [0, 1, 3]\nraises = [0, 1]\n";
    // The "rules change": a partially relevant background now costs a forced
    // raise. It cannot touch background 0 (no background to use).
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
    let o = oddsmith(&["diff", old.to_str().unwrap(), new.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    let changed: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    // p_success moves in the four configs with a background; expected
    // raises only where a raise is taken (at raises 0 it is 0 either way).
    assert_eq!(changed.len(), 6, "{out}");
    assert!(
        changed.iter().all(|l| !l.contains("actor.background = 0")),
        "{out}"
    );
    assert_eq!(
        changed.iter().filter(|l| l.contains("p_success")).count(),
        4,
        "{out}"
    );
    // The same run against itself: nothing moved.
    let o = oddsmith(&["diff", old.to_str().unwrap(), old.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("no metric moved"), "{}", stdout(&o));
}

#[test]
fn diff_of_two_seeds_stays_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let text = "mechanic = \"gateway.challenge\"\ntrials = 20000\n[sweep]\n\"opposition.challenge\" = { from = 0, to = 10 }\nraises = [0, 1, 2]\n";
    let s = scenario(dir.path(), "s.toml", text);
    for seed in ["1", "2"] {
        let out = dir.path().join(format!("seed{seed}"));
        let o = oddsmith(&[
            "run",
            s.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "mc",
            "--seed",
            seed,
            "-q",
        ]);
        assert!(o.status.success());
    }
    let o = oddsmith(&[
        "diff",
        dir.path().join("seed1").to_str().unwrap(),
        dir.path().join("seed2").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn report_rebuilds_the_same_files_from_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let before: Vec<(String, Vec<u8>)> = [
        "report.md",
        "report.html",
        "success-by-challenge.png",
        "difficulty-table.svg",
    ]
    .iter()
    .map(|n| (n.to_string(), std::fs::read(out.join(n)).unwrap()))
    .collect();
    for (n, _) in &before {
        std::fs::remove_file(out.join(n)).unwrap();
    }
    let o = oddsmith(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (n, bytes) in &before {
        assert!(
            &std::fs::read(out.join(n)).unwrap() == bytes,
            "{n} differs after `oddsmith report`"
        );
    }
    // And a directory that is not a run is bad input.
    let o = oddsmith(&["report", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn charts_need_no_installed_fonts() {
    // With fontconfig pointed at nothing, charts still draw their text
    // (the font is compiled in) and come out byte-identical.
    let dir = tempfile::tempdir().unwrap();
    let mut pngs = Vec::new();
    for (i, no_fonts) in [false, true].into_iter().enumerate() {
        let out = dir.path().join(format!("out{i}"));
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_oddsmith"));
        cmd.args([
            "run",
            "scenarios/gateway-raises.toml",
            "--out",
            out.to_str().unwrap(),
            "--mode",
            "exact",
            "-q",
        ])
        .current_dir(root());
        if no_fonts {
            cmd.env("FONTCONFIG_FILE", "/dev/null")
                .env("FONTCONFIG_PATH", "/nonexistent")
                .env("XDG_DATA_HOME", "/nonexistent");
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        pngs.push(std::fs::read(out.join("difficulty-table.png")).unwrap());
    }
    assert_eq!(pngs[0], pngs[1]);
    // Text is really drawn: the title row holds dark pixels.
    let img = image::load_from_memory(&pngs[1]).unwrap().to_rgb8();
    let dark = (0..img.width())
        .flat_map(|x| (5..35).map(move |y| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0.iter().all(|c| *c < 100))
        .count();
    assert!(dark > 200, "title row has {dark} dark pixels");
}

#[test]
fn check_report_replaces_only_the_reports_of_the_scenarios_it_checks() {
    let dir = tempfile::tempdir().unwrap();
    let a = scenario(
        dir.path(),
        "a.toml",
        &format!(
            "{BASE}[[chart]]\nkind = \"line\"\nmetric = \"p_success\"\nx = \"opposition.challenge\"\nfile = \"a\"\n"
        ),
    );
    let b = scenario(dir.path(), "b.toml", BASE);
    let reports = dir.path().join("reports");
    let r = reports.to_str().unwrap();
    let o = oddsmith(&[
        "check",
        "--quiet",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--report",
        r,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let b_report = std::fs::read(reports.join("b/report.md")).unwrap();
    // A changed title for `a` alone: its report is rewritten, b's stays.
    std::fs::write(
        &a,
        std::fs::read_to_string(&a)
            .unwrap()
            .replace("name = \"t\"", "name = \"renamed\""),
    )
    .unwrap();
    let o = oddsmith(&["check", a.to_str().unwrap(), "--report", r]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("kept 1 other scenario(s)' reports in"),
        "{}",
        stdout(&o)
    );
    let a_report = std::fs::read_to_string(reports.join("a/report.md")).unwrap();
    assert!(a_report.contains("renamed"), "{a_report}");
    assert!(reports.join("a/a.png").exists() || reports.join("a/a.svg").exists());
    assert_eq!(
        std::fs::read(reports.join("b/report.md")).unwrap(),
        b_report
    );
    // `--out` still holds this check's outputs only.
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "check",
        "--quiet",
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = oddsmith(&[
        "check",
        "--quiet",
        a.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.join("a").is_dir() && !out.join("b").exists());
}
