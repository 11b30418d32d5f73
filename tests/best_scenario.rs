//! `[best]` in a scenario: `check` solves best play in every config of the
//! sweep (the same numbers as the library's one best-play question), its
//! gates pass and fail as written, its outputs are written, and bad input
//! exits 2 naming the file, line, key and what is allowed.

mod common;

use common::*;
use oddsmith::best::{BestQuestion, best};
use oddsmith::scenario::Scenario;

const CHALLENGE: &str = r#"name = "Raises"
mechanic = "gateway.challenge"
[params]
"actor.trait" = 3
[sweep]
"opposition.challenge" = [1, 2, 3]
[best]
metric = "expected_raises"
[[expect]]
of = "gap"
at_least = 0.0
why = "best play is never worse than the given policy"
[[expect]]
of = "usage"
option = "0 raises"
at_most = 1.0
"#;

#[test]
fn check_solves_every_config_as_the_library_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(dir.path(), "raises.toml", CHALLENGE);
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "check",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("2 of 2 assertions hold (best play in 3 configs"));
    let got = out.join("raises");
    for f in [
        "best.csv",
        "best.parquet",
        "dominance.csv",
        "dominance.parquet",
        "rules.csv",
        "rules.parquet",
        "dominance.png",
        "dominance.svg",
        "report.md",
        "report.html",
        "scenario.toml",
        "manifest.json",
    ] {
        assert!(got.join(f).is_file(), "{f} missing: {:?}", entries(&got));
    }
    // The table holds the library's answer for each config.
    let s = Scenario::load(&path).unwrap();
    let rows = csv_rows(&got.join("best.csv"));
    assert_eq!(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        let a = best(&BestQuestion {
            mechanic: s.mechanic,
            params: s.config(i).values,
            metric: "expected_raises".into(),
            dominance: true,
            opponent: Default::default(),
        })
        .unwrap();
        let cell = |k: &str| row[k].parse::<f64>().unwrap();
        assert!((cell("best") - a.best).abs() < 1e-12, "{row:?}");
        assert!((cell("given") - a.given).abs() < 1e-12, "{row:?}");
        assert!((cell("gap") - a.gap).abs() < 1e-12, "{row:?}");
        assert_eq!(row["opposition.challenge"], (i + 1).to_string());
        assert!(cell("best") >= cell("given"));
    }
    let dominance = csv_rows(&got.join("dominance.csv"));
    assert!(dominance.iter().any(|r| r["option"] == "0 raises"));
    let md = std::fs::read_to_string(got.join("report.md")).unwrap();
    for want in [
        "## Best play against the given policy",
        "## Dominance",
        "## The best policy",
        "loss if forbidden",
        "✓ best play is never worse than the given policy",
    ] {
        assert!(md.contains(want), "{want:?} missing:\n{md}");
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(got.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["command"], "best");
    // `report DIR` rebuilds it, the same bytes; `run` points to `check`.
    assert_rebuilds(&got);
    let o = oddsmith(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        dir.path().join("run").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("[best]"), "{}", stderr(&o));
}

#[test]
fn a_broken_gate_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let text = CHALLENGE.replace(
        "of = \"gap\"\nat_least = 0.0",
        "of = \"best\"\nat_least = 5.0\nwhere = { \"opposition.challenge\" = 3 }",
    );
    let path = scenario(dir.path(), "raises.toml", &text);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("best ≥ 5"), "{out}");
    assert!(out.contains("FAILS in 1 of 1 config"), "{out}");
    assert!(out.contains("opposition.challenge = 3"), "{out}");
}

#[test]
fn bad_best_tables_exit_2_naming_file_line_key_and_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "metric = \"expected_raises\"",
            "metric = \"p_win\"",
            &["raises.toml:8:", "`best.metric`", "allowed: p_success"],
        ),
        (
            "metric = \"expected_raises\"",
            "metric = \"expected_raises\"\ndominanse = false",
            &["`best.dominanse`", "allowed: metric, dominance"],
        ),
        (
            "of = \"gap\"",
            "of = \"gaps\"",
            &["`expect[1].of`", "allowed: best, given, gap, loss, usage"],
        ),
        (
            "option = \"0 raises\"\n",
            "",
            &["`expect[2].option`", "is missing"],
        ),
        (
            "option = \"0 raises\"",
            "option = \"setup\"",
            &["raises.toml:", "`expect.option`", "\"setup\"", "allowed: "],
        ),
        (
            "metric = \"expected_raises\"",
            "metric = \"expected_raises\"\ndominance = false",
            &["`expect[2].of`", "dominance = false"],
        ),
        (
            "[best]",
            "[tune]\nknob = \"actor.trait\"\n[best]",
            &["`tune`", "not both"],
        ),
        (
            "at_least = 0.0",
            "at_least = 0.0\nat_most = 1.0",
            &["`expect[1].at_most`", "a second bound"],
        ),
    ];
    for (from, to, want) in cases {
        let text = CHALLENGE.replacen(from, to, 1);
        assert_ne!(text, CHALLENGE, "{from:?} not found");
        let path = scenario(dir.path(), "raises.toml", &text);
        let o = oddsmith(&["check", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{to:?}: {}{err}", stdout(&o));
        for w in *want {
            assert!(err.contains(w), "{to:?}: {w:?} missing from:\n{err}");
        }
    }
    // A mechanic best play does not cover, and a standard deviation.
    let text = "name = \"x\"\nmechanic = \"dice.roll\"\n[best]\nmetric = \"mean\"\n";
    let path = scenario(dir.path(), "roll.toml", text);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("roll.toml:3: `best`"), "{err}");
    assert!(
        err.contains("allowed mechanics: gateway.challenge"),
        "{err}"
    );
}

fn read(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `report DIR` draws a best-play directory's reports and chart again
/// from its tables, byte for byte, and its manifest comes out the same.
fn assert_rebuilds(dir: &std::path::Path) {
    let drawn = [
        "report.md",
        "report.html",
        "dominance.svg",
        "dominance.png",
        "manifest.json",
    ];
    let before: Vec<Vec<u8>> = drawn.iter().map(|n| read(&dir.join(n))).collect();
    for n in &drawn[..4] {
        std::fs::remove_file(dir.join(n)).unwrap();
    }
    let o = oddsmith(&["report", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("rebuilt 4 files"), "{}", stdout(&o));
    for (n, b) in drawn.iter().zip(&before) {
        assert!(read(&dir.join(n)) == *b, "the rebuilt {n} differs");
    }
    // And again, from the directory it rebuilt.
    let o = oddsmith(&["report", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// The shipped duels (a written policy, its replay, dominance) rebuild
/// too, and a damaged directory is refused, exit 2, naming the file.
#[test]
fn report_rebuilds_a_best_play_directory_and_refuses_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gateway-best.toml");
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "check",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let got = out.join("gateway-best");
    assert!(
        String::from_utf8(read(&got.join("report.md")))
            .unwrap()
            .contains("```toml"),
        "no written policy to rebuild"
    );
    assert_rebuilds(&got);

    let refused = |dir: &std::path::Path, want: &str| {
        let o = oddsmith(&["report", dir.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(want), "{want:?} not in: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    };
    let copy = |name: &str| {
        let to = dir.path().join(name);
        std::fs::create_dir(&to).unwrap();
        for e in std::fs::read_dir(&got).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
        to
    };
    // A table changed since: its digest no longer matches.
    let changed = copy("changed");
    let parquet = changed.join("rules.parquet");
    let mut bytes = read(&parquet);
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&parquet, bytes).unwrap();
    refused(
        &changed,
        "rules.parquet: was changed after best play was solved",
    );
    // A table gone.
    let gone = copy("gone");
    std::fs::remove_file(gone.join("dominance.parquet")).unwrap();
    refused(&gone, "dominance.parquet: is missing");
    // A manifest that is not one.
    let garbled = copy("garbled");
    let manifest = garbled.join("manifest.json");
    let text = String::from_utf8(read(&manifest)).unwrap();
    std::fs::write(&manifest, text.replace("\"configs\"", "\"config\"")).unwrap();
    refused(
        &garbled,
        "manifest.json: not a best-play manifest oddsmith wrote",
    );
    // The scenario copy edited: not the scenario that was solved.
    let edited = copy("edited");
    let toml = edited.join("scenario.toml");
    let mut text = String::from_utf8(read(&toml)).unwrap();
    text.push_str("\n# edited\n");
    std::fs::write(&toml, &text).unwrap();
    refused(
        &edited,
        "scenario.toml: was changed after best play was solved",
    );
}

const DUEL: &str = r#"name = "Duel"
mechanic = "gateway.scene"
[params]
round_cap = 6
[sweep]
ladder = [3, 4]
[best]
metric = "p_a_wins"
opponent = "best"
[[expect]]
of = "taken_back"
at_least = 0.0
why = "B's best play never helps A"
[[expect]]
of = "one_sided"
at_least = 0.0
[[expect]]
of = "loss"
option = "anticlimax"
side = "b"
at_least = 0.0
why = "Forbidding B an option never helps B"
"#;

/// `opponent = "best"`: every config is the library's duel, the tables
/// carry its columns and both sides' rules, the report says it is a duel,
/// and `report DIR` rebuilds it.
#[test]
fn a_duel_scenario_is_the_librarys_duel() {
    let dir = tempfile::tempdir().unwrap();
    let path = scenario(dir.path(), "duel.toml", DUEL);
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "check",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("3 of 3 assertions hold (best play in 2 configs"));
    let got = out.join("duel");
    let s = Scenario::load(&path).unwrap();
    // The policy cells hold line breaks: read the Parquet table.
    use polars::prelude::*;
    let file = std::fs::File::open(got.join("best.parquet")).unwrap();
    let table = ParquetReader::new(file).finish().unwrap();
    assert_eq!(table.height(), 2);
    for i in 0..2 {
        let a = best(&BestQuestion {
            mechanic: s.mechanic,
            params: s.config(i).values,
            metric: "p_a_wins".into(),
            dominance: true,
            opponent: oddsmith::best::Opponent::Best,
        })
        .unwrap();
        let d = a.duel.as_ref().expect("a duel");
        let cell = |k: &str| table.column(k).unwrap().f64().unwrap().get(i).unwrap();
        assert_eq!(cell("best").to_bits(), a.best.to_bits());
        assert_eq!(cell("one_sided").to_bits(), d.one_sided.to_bits());
        assert_eq!(cell("taken_back").to_bits(), d.taken_back.to_bits());
        assert_eq!(cell("opposing_decisions").to_bits(), d.decisions.to_bits());
        // B's best play only takes back: the duel is below A's one-sided
        // best, and the written policies replay to the duel's value.
        assert!(cell("one_sided") >= cell("best") - 1e-12);
        assert!((cell("replayed") - cell("best")).abs() < 1e-9);
        let policy = table
            .column("policy")
            .unwrap()
            .str()
            .unwrap()
            .get(i)
            .unwrap()
            .to_string();
        assert!(policy.contains("\"b.policy\""), "{policy}");
        let rules = csv_rows(&got.join("rules.csv"));
        let of = |side: &str| {
            rules
                .iter()
                .filter(|r| r["config_id"] == i.to_string() && r["side"] == side)
                .count()
        };
        assert_eq!(of("A"), a.rules.len());
        assert_eq!(of("B"), d.rules.len());
        // Both sides' dominance: B's options forbidden (A still best)
        // only ever help A.
        let dominance = csv_rows(&got.join("dominance.csv"));
        let side = |side: &str| -> Vec<(String, f64)> {
            dominance
                .iter()
                .filter(|r| r["config_id"] == i.to_string() && r["side"] == side)
                .map(|r| (r["option"].clone(), r["without"].parse::<f64>().unwrap()))
                .collect()
        };
        assert_eq!(side("A").len(), a.dominance.len());
        let b = side("B");
        assert_eq!(b.len(), d.dominance.len());
        assert!(!b.is_empty());
        for ((option, without), x) in b.iter().zip(&d.dominance) {
            assert_eq!(*option, x.option);
            assert_eq!(without.to_bits(), x.without.to_bits());
            assert!(x.without >= a.best - 1e-12 && x.loss >= 0.0, "{x:?}");
        }
    }
    let md = std::fs::read_to_string(got.join("report.md")).unwrap();
    for want in [
        "a zero-sum duel (`opponent = \"best\"`)",
        "## Both sides' best play",
        "B's best play takes back",
        "B's best policy",
        "B loses if forbidden",
        "\"b.policy\"",
        "✓ B's best play never helps A",
        "✓ Forbidding B an option never helps B: loss of B's anticlimax ≥ 0",
    ] {
        assert!(md.contains(want), "{want:?} missing:\n{md}");
    }
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(got.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["opponent"], "best");
    assert_rebuilds(&got);
}

/// A duel's refusals reach scenario users with the file, line and key:
/// a bad `opponent`, a mechanic with no second deciding side, a metric
/// that is not zero-sum, B acting last, a duel's number without a duel.
#[test]
fn bad_duels_exit_2_naming_file_line_key_and_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "opponent = \"best\"",
            "opponent = \"worst\"",
            &[
                "duel.toml:9:",
                "`best.opponent`",
                "\"worst\"",
                "allowed: \"given\"",
            ],
        ),
        (
            "metric = \"p_a_wins\"",
            "metric = \"mean_rounds\"",
            &[
                "duel.toml:8:",
                "`best.metric`",
                "not zero-sum",
                "allowed with opponent = \"best\": p_a_wins",
            ],
        ),
        (
            "round_cap = 6",
            "round_cap = 6\n\"b.initiative_order\" = \"last\"",
            &[
                "duel.toml:5:",
                "`b.initiative_order`",
                "\"last\"",
                "allowed with opponent = \"best\": \"first\"",
            ],
        ),
        (
            "ladder = [3, 4]",
            "ladder = [3, 4]\n\"b.initiative_order\" = [\"first\", \"last\"]",
            &[
                "duel.toml:7:",
                "`b.initiative_order`",
                "in [sweep]",
                "\"first\"",
            ],
        ),
    ];
    let cases = [
        cases,
        &[
            (
                "side = \"b\"",
                "side = \"c\"",
                &["duel.toml:", "side", "\"c\" is no side; allowed: a, b"][..],
            ),
            (
                "of = \"taken_back\"",
                "of = \"taken_back\"\nside = \"b\"",
                &["duel.toml:", "side", "of is about the whole answer"][..],
            ),
            (
                "opponent = \"best\"\n[[expect]]\nof = \"taken_back\"\nat_least = 0.0\nwhy = \"B's best play never helps A\"\n[[expect]]\nof = \"one_sided\"\nat_least = 0.0\n",
                "",
                &["duel.toml:", "side", "\"b\" needs a duel"][..],
            ),
        ][..],
    ]
    .concat();
    for (from, to, want) in &cases {
        let text = DUEL.replacen(from, to, 1);
        assert_ne!(text, DUEL, "{from:?} not found");
        let path = scenario(dir.path(), "duel.toml", &text);
        let o = oddsmith(&["check", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{to:?}: {}{err}", stdout(&o));
        for w in *want {
            assert!(err.contains(w), "{to:?}: {w:?} missing from:\n{err}");
        }
    }
    // No second side that decides.
    let text = "name = \"x\"\nmechanic = \"cortex.contested\"\n[best]\nmetric = \"p_win\"\nopponent = \"best\"\n";
    let path = scenario(dir.path(), "contest.toml", text);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for w in [
        "contest.toml:5:",
        "`best.opponent`",
        "opposition never gives in",
        "allowed here: \"given\"",
    ] {
        assert!(err.contains(w), "{w:?} missing from:\n{err}");
    }
    // A duel's number in a one-sided scenario.
    let text = CHALLENGE.replacen("of = \"gap\"", "of = \"taken_back\"", 1);
    let path = scenario(dir.path(), "raises.toml", &text);
    let o = oddsmith(&["check", path.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`expect[1].of`") && err.contains("opponent = \"best\""),
        "{err}"
    );
}
