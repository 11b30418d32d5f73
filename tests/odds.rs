//! `oddsmith odds` for dice expressions and for any mechanic: readings
//! and warnings, every assumption listed, ranges, lists and comparisons,
//! and the one answer type behind text, JSON and CSV.

mod common;

use common::*;
use oddsmith::answer::{self, Question};
use oddsmith::systems::{self, FieldKind, ParamMap};

/// Run `odds` with `args`; it must succeed; its output.
fn answers(args: &[&str]) -> String {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Run `odds` with `args`; it must succeed; stdout and stderr.
fn answers_and_warnings(args: &[&str]) -> (String, String) {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Run `odds` with `args`; it must exit 2 naming the problem.
fn refuses(args: &[&str], words: &[&str]) {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

/// `odds … --format json`, parsed.
fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    serde_json::from_str(&answers(&all)).expect("odds --format json prints JSON")
}

/// A probability as the text output prints it.
fn pct(p: f64) -> String {
    format!("{:.4}%", p * 100.0)
}

/// The line of `text` starting with `start` (after spaces).
fn line<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}:\n{text}"))
}

#[test]
fn an_expression_gets_the_anydice_table() {
    let text = answers(&["4d6kh3"]);
    // Mean 15869/1296; P(18) = 21/1296; P(≥ 16) = 169/1296.
    assert!(text.contains("12.244599"), "{text}");
    let row18 = line(&text, "18 ");
    assert!(
        row18.contains(&pct(21.0 / 1296.0)) && row18.contains("1 in 61.7"),
        "{row18}"
    );
    assert!(line(&text, "16 ").contains(&pct(169.0 / 1296.0)), "{text}");
    assert!(
        text.contains("read as: the total of the highest 3 of 4d6"),
        "{text}"
    );
    for col in ["=", "≥", "≤", "= odds"] {
        assert!(text.contains(col), "{text}");
    }
}

#[test]
fn a_comparison_and_the_gateway_challenge_agree() {
    let dice = answers(&["3d8kh1+2 >= 2d8kh1+4", "--check", "--trials", "100000"]);
    // 11431 / 32768, once in 2.87.
    let p_true = line(&dice, "p_true");
    assert!(
        p_true.contains("34.8846%") && p_true.contains("1 in 2.87"),
        "{dice}"
    );
    assert!(
        dice.contains(
            "read as: whether (the highest of 3d8 plus 2) is at least (the highest of 2d8 plus 4) (1 if so, else 0)"
        ),
        "{dice}"
    );
    assert!(dice.contains("monte carlo"), "{dice}");
    // The complement, 21337 / 32768, once in 1.54: same wording.
    let p_false = line(&dice, "p_false");
    assert!(
        p_false.contains("65.1154%") && p_false.contains("1 in 1.54"),
        "{dice}"
    );
    let gateway = answers(&[
        "gateway",
        "actor.trait=3",
        "actor.background=2",
        "opposition.challenge=4",
    ]);
    assert!(gateway.starts_with("gateway.challenge:"), "{gateway}");
    assert!(
        line(&gateway, "p_success").contains("34.8846%"),
        "{gateway}"
    );
    assert!(line(&gateway, "p_fail").contains("65.1154%"), "{gateway}");
}

#[test]
fn a_success_count_no_die_reaches_warns_and_names_the_total() {
    let (text, err) = answers_and_warnings(&["2d10>=12"]);
    assert!(
        text.contains("read as: the number of d10s showing 12 or more, out of 2d10"),
        "{text}"
    );
    assert!(
        err.contains("warning: `2d10>=12` counts the d10s showing 12 or more, and no d10 can"),
        "{err}"
    );
    assert!(
        err.contains("Did you mean `2d10 >= 12`, the total of 2d10 compared with 12?"),
        "{err}"
    );
    // The total, as meant: P(2d10 ≥ 12) = 45/100; no warning.
    let (text, err) = answers_and_warnings(&["2d10 >= 12"]);
    assert!(line(&text, "p_true").contains("45.0000%"), "{text}");
    assert!(
        text.contains("read as: whether the total of 2d10 is at least 12"),
        "{text}"
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn every_kind_of_warning_reaches_stderr() {
    for (expr, words) in [
        ("3d6>=1", "every d6 does"),
        ("3d6kh4", "keeps 4 of 3 dice"),
        ("3d6dl3", "drops 3 of 3 dice"),
        ("d6 >= 7", "is never true"),
        ("2d6 <= 12", "is always true"),
        ("d6r7", "no die is ever rerolled"),
        ("d6!>=7", "no die is ever exploding"),
    ] {
        let (_, err) = answers_and_warnings(&[expr]);
        assert!(err.contains("warning: "), "{expr}: {err}");
        assert!(err.contains(words), "{expr}: {err}");
    }
}

#[test]
fn scenarios_carry_warnings_and_check_strict_fails_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "w.toml",
        "name = \"w\"\nmechanic = \"dice.roll\"\n[params]\nexpr = \"{n}d10>=12\"\n[sweep]\n\"vars.n\" = [1, 2]\n",
    );
    let s = s.to_str().unwrap();
    let o = oddsmith(&["check", s, "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("config 1 (vars.n = 2): `{n}d10>=12` counts the d10s"),
        "{err}"
    );
    let o = oddsmith(&["check", s, "--quiet", "--strict"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("--strict: 2 warning(s)"),
        "{}",
        stdout(&o)
    );
    // The report lists them.
    let out = dir.path().join("r");
    let o = oddsmith(&["check", s, "--quiet", "--report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("w").join("report.md")).unwrap();
    assert!(md.contains("## Warnings"), "{md}");
    assert!(
        md.contains("Did you mean `{n}d10 >= 12`, the total of 2d10 compared with 12?"),
        "{md}"
    );
}

#[test]
fn any_mechanic_answers_with_its_fields_and_metrics() {
    let text = answers(&[
        "cortex.basic",
        "actor.pool=d8 d6 d6",
        "opposition.trouble=2",
    ]);
    assert!(line(&text, "actor.pool ").ends_with("= d8 d6 d6"), "{text}");
    assert!(
        line(&text, "opposition.trouble ").ends_with("= 2"),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("p_win")), "{text}");
    assert!(text.contains("\nwin: "), "{text}");
    // A list parameter in TOML form, and a mechanic with no exact solver.
    let text = answers(&["statements.statement", "favouring=[4, 3]", "opposing=9"]);
    assert!(text.contains("p_true"), "{text}");
    let (text, err) = answers_and_warnings(&["cgg.tension", "start=3", "--trials", "20000"]);
    assert!(
        text.contains("method: Monte Carlo, 20,000 trials (seed 1); no exact answer: cgg.tension has no exact solver"),
        "{text}"
    );
    assert!(
        text.contains("--trials N trades time for precision"),
        "{text}"
    );
    assert!(
        err.contains("no exact answer: cgg.tension has no exact solver; simulating 20,000 trials"),
        "{err}"
    );
    assert!(line(&text, "start ").ends_with("= 3"), "{text}");
}

#[test]
fn every_parameter_is_listed_and_defaults_are_marked() {
    let text = answers(&["gateway", "actor.trait=3"]);
    assert!(line(&text, "actor.trait ").ends_with("= 3"), "{text}");
    assert!(
        line(&text, "opposition.variability ").ends_with("= 2  (default)"),
        "{text}"
    );
    let m = systems::find("gateway.challenge").unwrap();
    let listed = |text: &str, path: &str| {
        text.lines()
            .any(|l| l.trim_start().starts_with(&format!("{path} ")))
    };
    // Every key the answer rests on: an entity opposition's, not an
    // opposing character's (whose defaults were never assumed).
    for p in m.params() {
        let character = p.path.starts_with("opposition.")
            && ![
                "opposition.variability",
                "opposition.challenge",
                "opposition.edge",
            ]
            .contains(&p.path);
        assert_eq!(listed(&text, p.path), !character, "{}:\n{text}", p.path);
    }
    // And the other way round: a character's, not an entity's.
    let text = answers(&["gateway", "actor.trait=3", "opposition.trait=2"]);
    assert!(line(&text, "opposition.trait ").ends_with("= 2"), "{text}");
    assert!(
        line(&text, "opposition.essence ").ends_with("= 0  (default)"),
        "{text}"
    );
    assert!(!listed(&text, "opposition.variability"), "{text}");
    assert!(!listed(&text, "opposition.challenge"), "{text}");
    // A Cortex pool excludes the trouble pool: its size is not assumed.
    let text = answers(&["cortex.contested", "opposition.pool=d8 d6"]);
    assert!(!listed(&text, "opposition.trouble"), "{text}");
    let text = answers(&["cortex.contested"]);
    assert!(
        line(&text, "opposition.trouble ").ends_with("= 2  (default)"),
        "{text}"
    );
    // Whatever a mechanic calls idle is one of its keys.
    for m in systems::registry() {
        for key in m.idle(&ParamMap::new()) {
            assert!(
                m.params().iter().any(|p| p.path == key),
                "{}: {key}",
                m.name()
            );
        }
    }
    // QuestWorlds: a character opponent, not a resistance.
    let text = answers(&["questworlds.contest", "opponent.rating=14"]);
    assert!(!listed(&text, "resistance.base"), "{text}");
    let text = answers(&["questworlds.contest"]);
    assert!(!listed(&text, "opponent.modifier"), "{text}");
    assert!(listed(&text, "resistance.base"), "{text}");
    // Policies and variants too: the scene's initiative and strategies.
    let text = answers(&["gateway.scene", "--trials", "2000"]);
    assert!(line(&text, "initiative ").contains("(default)"), "{text}");
}

#[test]
fn parameters_fill_an_expression() {
    let text = answers(&["{n}d6kh3", "n=4"]);
    assert!(
        text.contains("with n = 4") && text.contains("12.244599"),
        "{text}"
    );
    // Unquoted words join the expression.
    let text = answers(&["3d6", "+", "2"]);
    assert!(text.contains("12.500000"), "{text}");
    assert!(text.contains("read as: the total of 3d6 plus 2"), "{text}");
}

#[test]
fn a_range_is_runs_sweep_number_for_number() {
    // Monte Carlo (cgg.tension has no exact solver), so equality means
    // the same configs, numbers and streams.
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "t.toml",
        "mechanic = \"cgg.tension\"\ntrials = 20000\nseed = 7\n[sweep]\nstart = [1, 2, 3]\n",
    );
    let out = dir.path().join("out");
    let o = oddsmith(&[
        "run",
        s.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&out.join("summary.csv"));
    let a = json(&[
        "cgg.tension",
        "start=1..3",
        "--trials",
        "20000",
        "--seed",
        "7",
    ]);
    let configs = a["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 3);
    assert_eq!(rows.len(), 3);
    let mut compared = 0;
    for (c, row) in configs.iter().zip(&rows) {
        assert_eq!(c["swept"][0].as_str().unwrap(), row["start"]);
        for m in c["metrics"].as_array().unwrap() {
            let name = m["name"].as_str().unwrap();
            if let Some(cell) = row.get(name) {
                let v: f64 = cell.parse().unwrap();
                assert_eq!(
                    v,
                    m["value"].as_f64().unwrap(),
                    "{name} at {}",
                    row["start"]
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 6, "{compared}");
    // The text table: one row per value, numbered as the sweep.
    let text = answers(&[
        "cgg.tension",
        "start=1..3",
        "--trials",
        "20000",
        "--seed",
        "7",
    ]);
    let first = configs[0]["metrics"][0].clone();
    let row = line(&text, "0  ");
    assert!(
        row.contains(&pct(first["value"].as_f64().unwrap())),
        "{text}"
    );
    // Steps and lists; two keys make a grid.
    let a = json(&["gateway", "opposition.challenge=0..12:4"]);
    assert_eq!(a["configs"].as_array().unwrap().len(), 4);
    let text = answers(&["gateway", "opposition.challenge=2,4", "raises=0..2"]);
    assert!(
        text.contains("p_success: rows opposition.challenge, columns raises"),
        "{text}"
    );
    assert!(text.contains("row × 3 + column"), "{text}");
}

#[test]
fn only_ordered_fields_get_at_least_and_at_most() {
    // QuestWorlds' result is victory, tie or defeat: "tie ≥" is noise.
    let text = answers(&[
        "questworlds.contest",
        "pc.rating=15",
        "resistance.rating=15",
    ]);
    let at = text.find("\nresult: ").expect("a result table");
    let table: Vec<&str> = text[at + 1..].lines().take(5).collect();
    assert!(table[1].contains('=') && !table[1].contains('≥'), "{text}");
    assert!(
        table.iter().any(|l| l.trim_start().starts_with("tie ")),
        "{text}"
    );
    // The degree is a number: its tails stay.
    let at = text.find("\ndegree: ").expect("a degree table");
    let header = text[at + 1..].lines().nth(1).unwrap();
    assert!(header.contains('≥') && header.contains('≤'), "{header}");
    // Equal ratings: the mean signed degree is 0, not float noise.
    let mean = line(&text, "mean_");
    assert!(!mean.contains("e-"), "{text}");
    let json = json(&[
        "questworlds.contest",
        "pc.rating=15",
        "resistance.rating=15",
    ]);
    let fields = json["configs"][0]["fields"].as_array().unwrap();
    let ordered = |name: &str| {
        fields.iter().find(|f| f["name"] == name).unwrap()["ordered"]
            .as_bool()
            .unwrap()
    };
    assert!(!ordered("result") && ordered("degree"));
}

#[test]
fn compare_prints_both_answers_and_the_difference() {
    let base = [
        "cortex.basic",
        "actor.pool=d8 d6 d6",
        "opposition.trouble=2",
    ];
    let a = json(&base);
    let mut with = base.to_vec();
    with.push("actor.aid=d8");
    let b = json(&with);
    let mut args = base.to_vec();
    args.extend(["--compare", "actor.aid=d8"]);
    let text = answers(&args);
    assert!(text.contains("B: as A, with actor.aid = d8"), "{text}");
    let pa = a["configs"][0]["metrics"][0]["value"].as_f64().unwrap();
    let pb = b["configs"][0]["metrics"][0]["value"].as_f64().unwrap();
    let name = a["configs"][0]["metrics"][0]["name"].as_str().unwrap();
    let row = line(&text, &format!("{name} "));
    assert!(row.contains(&pct(pa)) && row.contains(&pct(pb)), "{row}");
    assert!(
        row.contains(&format!("{:+.4} pp", (pb - pa) * 100.0)),
        "{row}"
    );
    assert!(row.contains(&format!("{:.3}×", pb / pa)), "{row}");
    for col in ["= A", "= B"] {
        assert!(text.contains(col), "{text}");
    }
    // `win` is a yes/no: "false or more" means nothing, so no tails.
    assert!(!text.contains("≥ A") && !text.contains("≤ B"), "{text}");
    // Expressions compare with an expression: 3d6 ≥ 14 is 35/216, 2d8+1
    // ≥ 14 is 10/64 (2d8 ≥ 13: 4 + 3 + 2 + 1 of 64).
    let text = answers(&["3d6 >= 14", "--compare", "2d8+1 >= 14"]);
    let row = line(&text, "p_true ");
    assert!(
        row.contains(&pct(35.0 / 216.0)) && row.contains(&pct(10.0 / 64.0)),
        "{row}"
    );
    assert!(
        row.contains(&format!("{:+.4} pp", (10.0 / 64.0 - 35.0 / 216.0) * 100.0)),
        "{row}"
    );
}

#[test]
fn several_expressions_answer_side_by_side() {
    let text = answers(&["3d6 >= 14", "2d8+1 >= 14"]);
    assert!(
        line(&text, "3d6 >= 14 ").contains(&pct(35.0 / 216.0)),
        "{text}"
    );
    assert!(
        line(&text, "2d8+1 >= 14 ").contains(&pct(10.0 / 64.0)),
        "{text}"
    );
    assert!(
        text.contains(
            "most likely: 3d6 >= 14 (16.2037%), 0.5787 percentage points above 2d8+1 >= 14"
        ),
        "{text}"
    );
    let all = json(&["3d6 >= 14", "2d8+1 >= 14"]);
    assert_eq!(all.as_array().unwrap().len(), 2);
}

#[test]
fn json_is_the_text_s_numbers() {
    let args = [
        "cortex.basic",
        "actor.pool=d8 d6 d6",
        "opposition.trouble=2",
    ];
    let text = answers(&args);
    let a = json(&args);
    assert_eq!(a["mechanic"], "cortex.basic");
    let c = &a["configs"][0];
    assert_eq!(c["method"], "exact");
    for m in c["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let v = m["value"].as_f64().unwrap();
        let shown = if m["probability"].as_bool().unwrap() {
            pct(v)
        } else {
            format!("{v:.6}")
        };
        let row = line(&text, &format!("{name} "));
        assert!(row.contains(&shown), "{name}: {shown} not in {row}");
    }
    for f in c["fields"].as_array().unwrap() {
        for r in f["rows"].as_array().unwrap() {
            let p = r["p"].as_f64().unwrap();
            assert!(text.contains(&pct(p)), "{r}");
        }
    }
    let defaults = a["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["source"] == "default")
        .count();
    assert!(defaults > 0 && text.matches("(default)").count() == defaults);
    // CSV: one row per metric, raw.
    let mut all = args.to_vec();
    all.extend(["--format", "csv"]);
    let csv = answers(&all);
    assert!(
        csv.starts_with("question,config,swept,metric,value,lo,hi,method,trials\n"),
        "{csv}"
    );
    let p = c["metrics"][0]["value"].as_f64().unwrap();
    assert!(csv.contains(&format!(",{p},")), "{csv}");
}

/// `p_fail` = 1 − `p_success` (and every other complement), at each
/// mechanic's defaults, and it is the probability of the field's "false"
/// row, not merely a subtraction.
#[test]
fn every_complement_is_one_minus_its_metric() {
    let mut checked = 0;
    for m in systems::registry() {
        let q = Question {
            mechanic: *m,
            params: ParamMap::new(),
            sweep: Vec::new(),
            trials: 4000,
            seed: 1,
            mode: oddsmith::run::Mode::Auto,
        };
        let Ok(a) = answer::ask(&q, &(), &mut |_, _| {}) else {
            continue;
        };
        let c = a.single();
        let schema = m.schema();
        for comp in schema.complements() {
            let of = c.metric(&comp.of).unwrap();
            let not = c.metric(&comp.name).unwrap();
            assert!(
                (of.value + not.value - 1.0).abs() < 1e-12,
                "{}: {} + {}",
                m.name(),
                of.name,
                not.name
            );
            let spec = schema.metrics.iter().find(|s| s.name == comp.of).unwrap();
            let field = spec.kind.fields()[0];
            assert_eq!(schema.fields[field].kind, FieldKind::Bool);
            let f = &c.fields[field];
            let yes = match spec.kind {
                systems::MetricKind::Prob { pred, .. } => pred.holds(1),
                _ => unreachable!(),
            };
            let not_row: f64 = f
                .rows
                .iter()
                .filter(|r| (r.value != 0) != yes)
                .map(|r| r.p)
                .sum();
            assert!(
                (not.value - not_row).abs() < 1e-9,
                "{}: {} = {} but the field says {not_row}",
                m.name(),
                not.name,
                not.value
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} complements checked");
    // Gateway's rules say "fail".
    let s = systems::find("gateway.challenge").unwrap().schema();
    assert!(
        s.complements()
            .iter()
            .any(|c| c.name == "p_fail" && c.of == "p_success")
    );
    // Not for a category field: a stalemate is neither side winning.
    let s = systems::find("gateway.scene").unwrap().schema();
    assert!(s.complements().iter().all(|c| c.of != "p_a_wins"));
}

#[test]
fn a_complement_works_in_expect() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "c.toml",
        "mechanic = \"gateway.challenge\"\n[sweep]\n\"opposition.challenge\" = [2, 4]\n[params]\n\"actor.trait\" = 3\n\"actor.background\" = 2\n\n[[expect]]\nmetric = \"p_fail\"\nat_most = 0.5\n",
    );
    let o = oddsmith(&["check", s.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    // The bound is stated in the metric the author wrote: p_fail ≤ 0.5,
    // failed by 65.1154% at challenge 4.
    assert!(out.contains("p_fail ≤ 0.5"), "{out}");
    assert!(out.contains("0.651154"), "{out}");
    let s = scenario(
        dir.path(),
        "d.toml",
        "mechanic = \"gateway.challenge\"\n[[expect]]\nmetric = \"p_fial\"\nat_most = 0.5\n",
    );
    let o = oddsmith(&["check", s.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean `p_fail`?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_questions_exit_2_and_say_why() {
    refuses(&["4d6kh"], &["^ keep needs a count"]);
    // The caret stands right after the expression, in its column.
    let err = stderr(&oddsmith(&["odds", "4d6kh"]));
    let lines: Vec<&str> = err.lines().collect();
    let at = lines.iter().position(|l| l.ends_with("4d6kh")).unwrap();
    assert_eq!(lines[at + 1].find('^'), Some(lines[at].len()), "{err}");
    refuses(&["{n}d6"], &["{n} has no value", "n=4"]);
    refuses(&["3d6", "n=4"], &["the expression has no {n}"]);
    refuses(
        &["cortex.basik"],
        &["no mechanic or system", "did you mean `cortex.basic`?"],
    );
    refuses(
        &["cortex.basic", "actor.pol=d8"],
        &[
            "actor.pol is not a parameter of cortex.basic (did you mean `actor.pool`?)",
            "cortex.basic takes: actor.pool",
        ],
    );
    // Words in the docs: an aiding helper's pool is actor.aid.
    refuses(
        &["cortex.basic", "helper=d8"],
        &["did you mean `actor.aid`?"],
    );
    refuses(
        &[
            "cortex.basic",
            "opposition.trouble=1",
            "opposition.trouble=2",
        ],
        &["opposition.trouble is given twice"],
    );
    refuses(
        &[
            "gateway",
            "opposition.challenge=1..3",
            "raises=0..2",
            "actor.trait=1,2",
        ],
        &["sweeps at most 2"],
    );
    refuses(
        &["gateway.scene", "initiative=randm"],
        &["\"randm\" is not a known name (did you mean `random`?)"],
    );
    // Helpers without a buy-time policy would change nothing.
    refuses(
        &["cortex.timed", "helpers=[\"d8 d6\"]"],
        &["`helpers`", "policy.buy_time", "is unset"],
    );
    refuses(
        &["gateway", "--actor", "3d8"],
        &["needs both --actor and --vs"],
    );
    refuses(
        &["cortex.basic", "--actor", "3d8+2"],
        &["belong to `oddsmith odds gateway`"],
    );
}

#[test]
fn no_exact_answer_says_why_and_how_to_trade_time() {
    let (text, err) = answers_and_warnings(&["10000d6", "--trials", "2000"]);
    assert!(
        text.contains(
            "method: Monte Carlo, 2,000 trials (seed 1); no exact answer: the exact solver gives up"
        ),
        "{text}"
    );
    assert!(
        err.contains("--trials N trades time for precision"),
        "{err}"
    );
}

/// `odds --mode` takes `run --mode`'s four words (it took none; `--check`
/// was its only switch, and it is `--mode both`).
#[test]
fn odds_takes_the_four_modes_of_run() {
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["odds"];
        all.extend(args);
        all.extend(["--format", "json"]);
        let o = oddsmith(&all);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).expect("json")
    };
    let exact = json(&["3d6", "--mode", "exact"]);
    assert_eq!(exact["configs"][0]["method"], "exact");
    let mc = json(&["3d6", "--mode", "mc", "--trials", "5000", "--seed", "2"]);
    assert_eq!(mc["configs"][0]["method"], "monte-carlo");
    assert_eq!(mc["configs"][0]["trials"], 5000);
    let both = json(&["3d6", "--mode", "both", "--trials", "5000"]);
    let check = json(&["3d6", "--check", "--trials", "5000"]);
    assert_eq!(both, check);
    assert_eq!(both["configs"][0]["metrics"][0]["check"]["trials"], 5000);
    // Mode exact where no solver answers: exit 2, saying why.
    let o = oddsmith(&["odds", "cgg.tension", "--mode", "exact"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no exact answer"), "{}", stderr(&o));
    let o = oddsmith(&["odds", "3d6", "--mode", "both", "--check"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
