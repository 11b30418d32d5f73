//! Bad input: each case exits 2 with a message naming the problem, and
//! leaves no output behind.

mod common;

use common::*;

/// Run `scenario_text` (or `path` when given) and check the failure.
fn fails(scenario_text: Option<&str>, path: Option<&str>, out_name: &str, expect: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let file = match (scenario_text, path) {
        (Some(text), _) => scenario(dir.path(), "bad.toml", text),
        (None, Some(p)) => dir.path().join(p),
        (None, None) => unreachable!(),
    };
    let out = dir.path().join(out_name);
    let o = oddsmith(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--trials",
        "100",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "exit code for {expect:?}: {err}");
    for word in expect {
        assert!(err.contains(word), "message lacks {word:?}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    if out.is_dir() {
        assert!(
            entries(&out).is_empty(),
            "files left behind: {:?}",
            entries(&out)
        );
    }
    let mut left = entries(dir.path());
    left.retain(|n| n != "bad.toml" && n != "file");
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn unknown_mechanic() {
    fails(
        Some("mechanic = \"gateway.duel\"\n"),
        None,
        "out",
        &["bad.toml:1", "gateway.duel", "gateway.challenge"],
    );
}

#[test]
fn unknown_key() {
    fails(
        Some("mechanic = \"gateway.challenge\"\n[params]\nactor.backgrund = 2\n"),
        None,
        "out",
        &[
            "bad.toml:3",
            "`actor.backgrund`",
            "did you mean `actor.background`",
            "allowed keys",
        ],
    );
}

#[test]
fn wrong_type() {
    fails(
        Some("mechanic = \"gateway.challenge\"\n[params]\nactor.specialisation = \"yes\"\n"),
        None,
        "out",
        &[
            "bad.toml:3",
            "`actor.specialisation`",
            "wrong type",
            "true or false",
        ],
    );
}

#[test]
fn out_of_range() {
    fails(
        Some("mechanic = \"gateway.challenge\"\n[sweep]\nactor.essence = { from = 0, to = 4 }\n"),
        None,
        "out",
        &[
            "bad.toml:3",
            "`actor.essence`",
            "4 is out of range",
            "0..=3",
        ],
    );
}

#[test]
fn empty_sweep() {
    fails(
        Some("mechanic = \"gateway.challenge\"\n[sweep]\nraises = []\n"),
        None,
        "out",
        &["bad.toml:3", "`raises`", "empty"],
    );
}

#[test]
fn sweep_over_a_missing_path() {
    fails(
        Some("mechanic = \"gateway.challenge\"\n[sweep]\n\"opposition.level\" = [1, 2]\n"),
        None,
        "out",
        &["bad.toml:3", "`opposition.level`", "nothing to sweep over"],
    );
}

#[test]
fn unreadable_file() {
    fails(
        None,
        Some("missing.toml"),
        "out",
        &["missing.toml", "cannot read the scenario"],
    );
}

#[test]
fn scenario_is_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let o = oddsmith(&[
        "run",
        dir.path().to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read the scenario"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("out").exists());
}

#[test]
fn unwritable_out_dir() {
    // A path below a regular file can never be a directory (even for root,
    // which ignores permission bits).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let out = dir.path().join("file").join("out");
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        out.to_str().unwrap(),
        "--mode",
        "exact",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot create the output directory") && err.contains("file/out"),
        "{err}"
    );
    assert_eq!(entries(dir.path()), vec!["file"]);
}

#[test]
fn out_dir_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        dir.path().join("file").to_str().unwrap(),
        "--mode",
        "exact",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("file")).unwrap(),
        "x"
    );
}

#[test]
fn invalid_toml() {
    fails(
        Some("mechanic = \"gateway.challenge\"\n[params\nraises = 1\n"),
        None,
        "out",
        &["bad.toml:2", "not valid TOML"],
    );
}

#[test]
fn conflicting_opposition() {
    fails(
        Some(
            "mechanic = \"gateway.challenge\"\n[params]\nopposition.variability = 2\nopposition.trait = \"full\"\n",
        ),
        None,
        "out",
        &["bad.toml:3", "`opposition.variability`", "either an entity"],
    );
}

#[test]
fn bad_precision_and_unknown_flags() {
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        "/tmp/never-written",
        "--precision",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--precision 0 is out of range"),
        "{}",
        stderr(&o)
    );
    assert!(!std::path::Path::new("/tmp/never-written").exists());
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        "/tmp/never-written",
        "--mode",
        "fast",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}

#[test]
fn every_mistake_in_a_file_is_reported_each_with_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "bad.toml",
        "mechanic = \"gateway.challenge\"\n[params]\nactor.trait = 2\n\"actor.trait\" = 3\nactor.essence = 9\n[sweep]\nraises = [0, 1]\n[[expect]]\nmetric = \"p_success\"\nat_least = nan\n[[expect]]\nmetric = \"p_success\"\nmax_step = { along = \"raises\", step = -1, strict = true }\n",
    );
    let o = oddsmith(&["check", s.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with("error: ")), "{err}");
    for want in [
        "bad.toml:4: `actor.trait` is given twice (first on line 3)",
        "bad.toml:5: `actor.essence` = 9: 9 is out of range",
    ] {
        assert!(err.contains(want), "{want} missing from\n{err}");
    }
    // The assertions are checked once the parameters are sound.
    let s = scenario(
        dir.path(),
        "bad2.toml",
        "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 1]\n[[expect]]\nmetric = \"p_success\"\nat_least = nan\n[[expect]]\nmetric = \"p_success\"\nmax_step = { along = \"raises\", step = -1, strict = true }\n",
    );
    let o = oddsmith(&["check", s.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for want in [
        "bad2.toml:6: `expect[1].at_least` NaN is not a usable bound",
        "bad2.toml:9: `expect[2].max_step` has an unknown key `strict`",
    ] {
        assert!(err.contains(want), "{want} missing from\n{err}");
    }
}

#[test]
fn odds_arguments_get_the_ranges_of_scenario_keys() {
    for (args, want) in [
        (
            vec!["--actor", "1d8+9223372036854775807", "--vs", "2d8"],
            "--actor \"1d8+9223372036854775807\": a bonus of 9223372036854775807 is out of range; allowed: -120..=120",
        ),
        (
            vec!["--actor", "3d8", "--vs", "12d8"],
            "--vs \"12d8\": 12 dice is out of range; allowed: 1..=9",
        ),
        (
            vec!["--actor", "3d8", "--vs", "2d8", "--raises", "0..11"],
            "within 0..=10",
        ),
        (
            vec![
                "--actor",
                "3d8",
                "--vs",
                "2d8",
                "--free-raises",
                "4294967295",
            ],
            "--free-raises",
        ),
    ] {
        let mut all = vec!["odds", "gateway"];
        all.extend(args);
        let o = oddsmith(&all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
        assert!(err.contains(want), "{all:?}: {err}");
        assert!(stdout(&o).is_empty(), "no table is printed: {}", stdout(&o));
    }
}

/// `questworlds.group_sequence`: every roster mistake exits 2 naming the
/// file and line, the key, the place inside the roster, and what is
/// allowed.
#[test]
fn group_sequence_rosters() {
    let head = "mechanic = \"questworlds.group_sequence\"\n[params]\ntype = \"chained\"\n";
    let cases: &[(&str, &[&str])] = &[
        (
            "pcs = [{ rating = \"5Q\" }]",
            &["bad.toml:4", "`pcs`", "pc 1: `rating`", "5Q", "4M2"],
        ),
        (
            "pcs = [{ rating = 15, followers = [{ rating = 12, role = \"bodyguard\" }] }]",
            &[
                "bad.toml:4",
                "`pcs`",
                "pc 1, follower 1: `role`",
                "\"contestant\", \"secondary\", \"supporter\"",
            ],
        ),
        (
            "pcs = [{ rating = 15, resolv = 4 }]",
            &[
                "bad.toml:4",
                "unknown key `resolv`",
                "rating, followers, resolve",
            ],
        ),
        (
            "pcs = [{ rating = 15, resolve = 11 }]",
            &["bad.toml:4", "pc 1: `resolve`", "1..=10"],
        ),
        (
            "pcs = \"15 15 15 15 15 15 15\"",
            &["bad.toml:4", "`pcs`", "7 PCs", "1..=6"],
        ),
        (
            "opponents = [{ rating = 18 }, { rating = 12, kind = \"boss\" }]",
            &[
                "bad.toml:4",
                "`opponents`",
                "opponent 2: `kind`",
                "\"named\", \"mook\", \"impersonal\"",
            ],
        ),
        (
            "opponents = [{ rating = 12, kind = \"mook\", count = 13 }]",
            &["bad.toml:4", "opponent 1: `count`", "1..=12"],
        ),
        (
            "opponents = [{ rating = 12, count = 7 }, { rating = 12, count = 7 }]",
            &["bad.toml:4", "`opponents`", "14 opponents", "1..=12"],
        ),
        (
            "opponents = [{ rating = 12, kinds = \"mook\" }]",
            &["bad.toml:4", "unknown key `kinds`", "did you mean `kind`"],
        ),
        (
            "assist = [{ asist = true }]",
            &[
                "bad.toml:4",
                "`assist`",
                "unknown key `asist`",
                "assist, when_pressed, ap",
            ],
        ),
        (
            "type = \"melee\"",
            &[
                "bad.toml:4",
                "`type`",
                "\"scored\", \"wagered\", \"chained\"",
            ],
        ),
    ];
    for (line, expect) in cases {
        // `type` given again would be a duplicate: replace the header's.
        let text = if line.starts_with("type") {
            format!("mechanic = \"questworlds.group_sequence\"\n[params]\n\n{line}\n")
        } else {
            format!("{head}{line}\n")
        };
        fails(Some(&text), None, "out", expect);
    }
    fails(
        Some(
            "mechanic = \"questworlds.group_sequence\"\n[params]\ntype = \"wagered\"\npcs = \"15 0\"\n",
        ),
        None,
        "out",
        &["bad.toml:4", "`pcs`", "no AP", "≥ 1"],
    );
}

#[test]
fn max_trials_without_precision_is_refused() {
    let o = oddsmith(&[
        "run",
        "scenarios/gateway-raises.toml",
        "--out",
        "/nonexistent/never-written",
        "--max-trials",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--max-trials 1000 caps precision mode; add --precision"),
        "{}",
        stderr(&o)
    );
}

/// `cgg.action`'s `policy.wrench` rules: each mistake exits 2 naming the
/// file and line, the key, the rule, and what is allowed.
#[test]
fn wrench_rules() {
    let head = "mechanic = \"cgg.action\"\n[params]\n";
    let many = vec!["{ use = \"close\" }"; 65].join(", ");
    let too_many = format!("\"policy.wrench\" = [{many}]");
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "\"policy.wrench\" = [{ use = \"wrench\" }]",
            vec![
                "bad.toml:3",
                "`policy.wrench`",
                "rule 1: `use` = \"wrench\"",
                "hold, close, gotta, good, serious, not-as-bad",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { failures_at_least = 1 } }, { use = \"gotta\", when = { hammer_at_most = 1 } }]",
            vec![
                "bad.toml:3",
                "rule 2: `when`",
                "hammer_at_most",
                "failures_at_least, failures_at_most, risk_short_at_least",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { venture_at_least = 3, venture_at_most = 1 } }]",
            vec!["rule 1: `when`: `venture_at_least` = 3 is more than `venture_at_most` = 1"],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { dice_at_most = -1 } }]",
            vec![
                "rule 1: `when`: `dice_at_most` = -1 is out of range",
                "0 or more",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { failures = 1, failures_at_least = 1 } }]",
            vec![
                "bad.toml:3",
                "rule 1: `when`: `failures` = 1 and `failures_at_least` both bound the failures",
                "allowed: `failures` alone, or `failures_at_least` / `failures_at_most`",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { venture = -2 } }]",
            vec![
                "rule 1: `when`: `venture` = -2 is out of range",
                "0 or more",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"hold\" }, { use = \"close\", when = { spent = [\"gota\"] } }]",
            vec![
                "bad.toml:3",
                "`policy.wrench`",
                "rule 2: `when`: `spent`: \"gota\" is not a wrench use",
                "allowed: close, gotta, good, serious, not-as-bad",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { unspent = 1 } }]",
            vec![
                "rule 1: `when`: `unspent` = 1 is not a list of uses",
                "a list of one or more of close, gotta",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"serious\", when = { spent = [\"good\"], unspent = [\"good\"] } }]",
            vec![
                "rule 1: `when`: \"good\" is in both `spent` and `unspent`, so the rule never holds",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"gotta\", when = { spent = [\"gotta\"] } }]",
            vec![
                "rule 1: `when`: `spent` names \"gotta\", the rule's own use",
                "never applies",
            ],
        ),
        (
            "\"policy.wrench\" = [{ use = \"close\", when = { open = [\"gotta\"] } }]",
            vec!["rule 1: `when`", "open", "spent, unspent (lists of uses"],
        ),
        (
            "\"policy.wrench\" = [{ spend = \"close\" }]",
            vec!["rule 1: unknown key `spend`", "allowed: use, when"],
        ),
        (
            too_many.as_str(),
            vec!["`policy.wrench`", "1..=64 rules, not 65"],
        ),
        (
            "\"policy.wrench\" = \"careful\"",
            vec![
                "`policy.wrench`",
                "\"careful\"",
                "\"none\", \"greedy\", \"deny\"",
            ],
        ),
    ];
    for (line, expect) in &cases {
        fails(Some(&format!("{head}{line}\n")), None, "out", expect);
    }
}
