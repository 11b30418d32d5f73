//! The one-line `tune`'s rough edges (issue 45): complement metrics,
//! ties in float noise, flags that are not numbers, and sweeps on the
//! command line.

use super::common::*;

/// `oddsmith tune MECHANIC --knob KNOB --metric METRIC <more>`.
fn tune_line(mechanic: &str, knob: &str, metric: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec!["tune", mechanic, "--knob", knob, "--metric", metric];
    args.extend(more);
    oddsmith(&args)
}

/// The answer rows of the text table (the header dropped).
fn rows(o: &std::process::Output) -> Vec<String> {
    stdout(o).lines().skip(1).map(String::from).collect()
}

/// `p_fail` is allowed by the parser, so it is tuned: at trait 3 the
/// failure chance nearest one half is challenge 1's 0.4958 (one minus
/// p_success 0.5042).
#[test]
fn a_complement_metric_is_tuned() {
    let o = tune_line(
        "gateway.challenge",
        "opposition.challenge",
        "p_fail",
        &["--target", "0.5", "actor.trait=3"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = rows(&o);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].starts_with("1 ") && r[0].contains("0.4958"), "{r:?}");
    // At least one half: the lowest challenge that fails that often.
    let o = tune_line(
        "gateway.challenge",
        "opposition.challenge",
        "p_fail",
        &["--at-least", "0.5", "actor.trait=3"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = rows(&o);
    assert!(r[0].starts_with("2 "), "{r:?}");
    // Cortex's `p_not_win` is one minus `p_win`, value for value.
    let win = tune_line(
        "cortex.basic",
        "opposition.trouble",
        "p_win",
        &["--target", "0.5"],
    );
    let not_win = tune_line(
        "cortex.basic",
        "opposition.trouble",
        "p_not_win",
        &["--target", "0.5"],
    );
    assert_eq!(not_win.status.code(), Some(0), "{}", stderr(&not_win));
    assert_eq!(win.status.code(), Some(0), "{}", stderr(&win));
    let (w, n) = (rows(&win), rows(&not_win));
    let knob = |r: &str| r.split_whitespace().next().unwrap().to_string();
    assert_eq!(knob(&w[0]), knob(&n[0]), "{w:?} {n:?}");
}

/// PC 13 against resistances 1..45: 12 wins 0.525 and 13 wins 0.475,
/// the same distance from one half in exact arithmetic, so the tie rule
/// gives the lower knob value, as it does for PC 6 (where the floats
/// happen to agree).
#[test]
fn exact_ties_go_to_the_lower_knob_whatever_the_float_rounding() {
    for (pc, want) in [("13", "12 "), ("6", "5 ")] {
        let o = tune_line(
            "questworlds.contest",
            "resistance.rating",
            "p_victory",
            &[
                "--target",
                "0.5",
                "--range",
                "1..45",
                &format!("pc.rating={pc}"),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let r = rows(&o);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].starts_with(want), "PC {pc}: {r:?}");
    }
}

#[test]
fn a_flag_that_is_not_a_finite_number_is_named() {
    for (flag, value) in [
        ("--target", "NaN"),
        ("--target", "inf"),
        ("--at-least", "NaN"),
        ("--within", "NaN"),
    ] {
        let mut more = vec![flag, value, "actor.trait=3"];
        if flag != "--target" && flag != "--at-least" {
            more.extend(["--target", "0.5"]);
        }
        let o = tune_line(
            "gateway.challenge",
            "opposition.challenge",
            "p_success",
            &more,
        );
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{flag} {value} is not a finite number")),
            "{flag} {value}: {err}"
        );
        assert!(!err.contains("TOML"), "{err}");
    }
}

/// A range or a list on the one-line form sweeps the key, as `odds`
/// reads it and as a scenario's [sweep] does: one row per value.
#[test]
fn the_one_line_form_sweeps_ranges_and_lists() {
    let o = tune_line(
        "gateway.challenge",
        "opposition.challenge",
        "p_success",
        &["--target", "0.5", "actor.trait=1..4"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("actor.trait  opposition.challenge"),
        "{text}"
    );
    let traits: Vec<String> = rows(&o)
        .iter()
        .map(|r| r.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(traits, ["1", "2", "3", "4"]);
    // Each row is the answer the key fixed at that value gives.
    let one = tune_line(
        "gateway.challenge",
        "opposition.challenge",
        "p_success",
        &["--target", "0.5", "actor.trait=3"],
    );
    let fixed = rows(&one)[0].clone();
    assert!(
        rows(&o)[2].ends_with(fixed.as_str()),
        "{:?} vs {fixed}",
        rows(&o)
    );

    let o = tune_line(
        "gateway.challenge",
        "opposition.challenge",
        "p_success",
        &[
            "--target",
            "0.5",
            "actor.trait=3",
            "actor.specialisation=false,true",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = rows(&o);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(
        r[0].starts_with("false ") && r[1].starts_with("true "),
        "{r:?}"
    );
    // A key given twice is refused, naming it.
    let o = tune_line(
        "gateway.challenge",
        "opposition.challenge",
        "p_success",
        &["--target", "0.5", "actor.trait=3", "actor.trait=1..2"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("actor.trait is given twice"),
        "{}",
        stderr(&o)
    );
}

/// Python and the workbench give values one by one; a range there says
/// it is a sweep.
#[test]
fn a_range_given_as_one_value_says_it_is_a_sweep() {
    use oddsmith::tune::question::TuneQuestion;
    let q = TuneQuestion {
        mechanic: "gateway.challenge".into(),
        params: vec![("actor.trait".into(), "1..4".into())],
        knob: Some("opposition.challenge".into()),
        metric: Some("p_success".into()),
        target: Some(0.5),
        ..TuneQuestion::default()
    };
    let Err(e) = q.scenario() else {
        panic!("a range was read as one value")
    };
    let e = e.0;
    assert!(
        e.starts_with("actor.trait=1..4: a range takes several values, which is a sweep"),
        "{e}"
    );
}
