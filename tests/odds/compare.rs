//! Side by side: `--compare`, several expressions, JSON against the
//! text, and complement metrics (in answers and in `[[expect]]`).

use super::*;

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
