//! Scenario snippets and the messages they must produce.

use std::path::Path;

use super::*;

fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    Scenario::parse(Path::new("s.toml"), text)
}

fn error(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_full_scenario_parses_and_expands_last_axis_fastest() {
    let s = parse(
        r#"
name = "t"
mechanic = "gateway.challenge"
seed = 7
trials = 1000
[params]
actor.background = 2
opposition = { variability = "tough" }
[sweep]
"actor.trait" = ["full", 1]
raises = { from = 0, to = 2 }
"#,
    )
    .unwrap();
    assert_eq!(s.seed, Some(7));
    assert_eq!(s.trials, Some(1000));
    assert_eq!(s.swept_paths(), vec!["actor.trait", "raises"]);
    let configs: Vec<_> = s.configs().collect();
    assert_eq!(configs.len(), 6);
    assert_eq!(
        configs[1].swept,
        vec![ParamValue::Str("full".into()), ParamValue::Int(1)]
    );
    assert_eq!(
        configs[3].swept,
        vec![ParamValue::Int(1), ParamValue::Int(0)]
    );
    assert_eq!(
        configs[5].values.get("opposition.variability"),
        Some(&ParamValue::Str("tough".into()))
    );
    assert_eq!(
        configs[5].values.get("actor.background"),
        Some(&ParamValue::Int(2))
    );
}

#[test]
fn nested_sweep_tables_and_descending_ranges() {
    let s = parse(
        "mechanic = \"gateway.challenge\"\n[sweep.opposition]\nchallenge = { from = 10, to = 0, step = -5 }\n",
    )
    .unwrap();
    assert_eq!(s.sweep[0].path, "opposition.challenge");
    assert_eq!(
        s.sweep[0].values,
        vec![ParamValue::Int(10), ParamValue::Int(5), ParamValue::Int(0)]
    );
}

#[test]
fn unknown_mechanic_lists_the_known_ones() {
    let e = error("mechanic = \"gateway.chalenge\"\n");
    assert!(e.starts_with("s.toml:1:"), "{e}");
    assert!(e.contains("did you mean `gateway.challenge`"), "{e}");
}

#[test]
fn unknown_key_names_line_and_allowed_keys() {
    let e = error("mechanic = \"gateway.challenge\"\n\n[params]\nactor.trate = 2\n");
    assert!(e.starts_with("s.toml:4:"), "{e}");
    assert!(e.contains("`actor.trate`"), "{e}");
    assert!(e.contains("did you mean `actor.trait`"), "{e}");
    assert!(e.contains("allowed keys: actor.trait"), "{e}");
}

#[test]
fn wrong_type_and_out_of_range() {
    let e = error("mechanic = \"gateway.challenge\"\n[params]\nactor.essence = \"two\"\n");
    assert!(
        e.contains("s.toml:3:")
            && e.contains("`actor.essence`")
            && e.contains("wrong type")
            && e.contains("0..=3"),
        "{e}"
    );
    let e = error("mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 11]\n");
    assert!(
        e.contains("s.toml:3:") && e.contains("11 is out of range") && e.contains("0..=10"),
        "{e}"
    );
    let e = error("mechanic = \"gateway.challenge\"\n[params]\nopposition.challenge = \"hard\"\n");
    assert!(e.contains("\"tricky\""), "{e}");
}

#[test]
fn empty_and_missing_sweeps() {
    let e = error("mechanic = \"gateway.challenge\"\n[sweep]\nraises = []\n");
    assert!(e.contains("empty"), "{e}");
    let e = error("mechanic = \"gateway.challenge\"\n[sweep]\nactor.luck = [1, 2]\n");
    assert!(
        e.contains("`actor.luck`") && e.contains("nothing to sweep over"),
        "{e}"
    );
    let e = error("mechanic = \"gateway.challenge\"\n[sweep]\nraises = { from = 3, to = 0 }\n");
    assert!(e.contains("never arrives"), "{e}");
}

#[test]
fn both_params_and_sweep_is_ambiguous() {
    let e =
        error("mechanic = \"gateway.challenge\"\n[params]\nraises = 1\n[sweep]\nraises = [0, 1]\n");
    assert!(e.contains("both [params] and [sweep]"), "{e}");
}

#[test]
fn mechanic_level_conflicts_name_the_config() {
    let e = error(
        "mechanic = \"gateway.challenge\"\n[params]\nopposition.challenge = 2\n[sweep]\nopposition.trait = [1, 2]\n",
    );
    assert!(e.starts_with("s.toml:3:"), "{e}");
    assert!(e.contains("opposition.trait = 1"), "{e}");
}

#[test]
fn bad_toml_and_top_level_keys() {
    let e = error("mechanic = \"gateway.challenge\"\n[params\n");
    assert!(e.contains("s.toml:2: not valid TOML"), "{e}");
    let e = error("mechanic = \"gateway.challenge\"\ntrails = 10\n");
    assert!(e.contains("did you mean `trials`"), "{e}");
    let e = error("mechanic = \"gateway.challenge\"\ntrials = 0\n");
    assert!(e.contains("≥ 1"), "{e}");
}

#[test]
fn at_most_and_compare_charts_parse_and_compare_needs_two_values() {
    let s = parse(
        r#"
mechanic = "gateway.challenge"
[sweep]
"actor.trait" = [1, 2]
raises = [0, 1, 2]
[[chart]]
kind = "at-most"
field = "margin"
series = "actor.trait"
where = { raises = 0 }
[[chart]]
kind = "compare"
metric = "p_success"
x = "raises"
series = "actor.trait"
"#,
    )
    .unwrap();
    assert_eq!(s.charts[0].kind, ChartKind::AtMost);
    assert_eq!(s.charts[1].kind, ChartKind::Compare);
    assert_eq!(s.charts[1].file, "chart-2-compare");
    let e = error(
        "mechanic = \"gateway.challenge\"\n[sweep]\nraises = [0, 1]\n\"actor.trait\" = [2]\n[[chart]]\nkind = \"compare\"\nmetric = \"p_success\"\nx = \"raises\"\nseries = \"actor.trait\"\n",
    );
    assert!(
        e.contains("s.toml:") && e.contains("series") && e.contains("two or more values"),
        "{e}"
    );
}

const SWEPT: &str =
    "mechanic = \"gateway.challenge\"\n[sweep]\n\"opposition.challenge\" = [0, 2, 4]\n";

#[test]
fn nan_and_infinite_bounds_are_refused() {
    for bound in [
        "at_least = nan",
        "at_most = inf",
        "at_least = -inf",
        "between = [0.1, nan]",
        "between = [-inf, 0.5]",
        "max_step = { along = \"opposition.challenge\", step = nan }",
        "max_step = { along = \"opposition.challenge\", step = inf }",
    ] {
        let e = error(&format!(
            "{SWEPT}[[expect]]\nmetric = \"p_success\"\n{bound}\n"
        ));
        assert!(e.starts_with("s.toml:6:"), "{bound}: {e}");
        assert!(e.contains("finite number"), "{bound}: {e}");
        assert!(e.contains("`expect[1]."), "{bound}: {e}");
    }
}

#[test]
fn negative_max_step_is_refused() {
    let e = error(&format!(
        "{SWEPT}[[expect]]\nmetric = \"p_success\"\nmax_step = {{ along = \"opposition.challenge\", step = -0.1 }}\n"
    ));
    assert!(
        e.starts_with("s.toml:6:") && e.contains("`expect[1].max_step`") && e.contains("negative"),
        "{e}"
    );
}

#[test]
fn unknown_keys_inside_assertion_tables_are_refused() {
    let e = error(&format!(
        "{SWEPT}[[expect]]\nmetric = \"p_success\"\nmonotonic = {{ along = \"opposition.challenge\", direction = \"decreasing\", strict = true }}\n"
    ));
    assert!(
        e.contains("`expect[1].monotonic`") && e.contains("unknown key `strict`"),
        "{e}"
    );
    let e = error(&format!(
        "{SWEPT}[[expect]]\nmetric = \"p_success\"\nmax_step = {{ along = \"opposition.challenge\", step = 0.2, stepp = 1 }}\n"
    ));
    assert!(e.contains("unknown key `stepp`"), "{e}");
}

#[test]
fn a_parameter_given_twice_in_two_spellings_is_refused() {
    let e =
        error("mechanic = \"gateway.challenge\"\n[params]\nactor.trait = 2\n\"actor.trait\" = 3\n");
    assert!(
        e.starts_with("s.toml:4:") && e.contains("`actor.trait` is given twice (first on line 3)"),
        "{e}"
    );
    let e = error(
        "mechanic = \"gateway.challenge\"\n[sweep]\n\"opposition.challenge\" = [1]\n[sweep.opposition]\nchallenge = [2]\n",
    );
    assert!(
        e.contains("`opposition.challenge` is given twice (first on line 3)"),
        "{e}"
    );
}

#[test]
fn every_mistake_in_a_file_is_reported() {
    let text = "mechanic = \"gateway.challenge\"\ntrails = 5\n[params]\nactor.trate = 2\nactor.essence = 9\n[sweep]\nraises = []\n[[chart]]\nkind = \"pie\"\n[[expect]]\nmetric = \"p_sucess\"\nat_least = nan\n";
    let e = match parse(text) {
        Err(e) => e,
        Ok(_) => panic!("accepted"),
    };
    let lines: Vec<usize> = e.all().iter().map(|p| p.line()).collect();
    // The chart and assertion are checked only against a sound sweep.
    assert_eq!(lines, [2, 4, 5, 7], "{e}");
    let text = format!(
        "{SWEPT}[[chart]]\nkind = \"pie\"\ncolour = \"red\"\n[[expect]]\nmetric = \"p_sucess\"\nat_least = nan\nwhy = 3\n"
    );
    let e = parse(&text).err().unwrap();
    let msg = e.to_string();
    assert_eq!(e.all().len(), 5, "{msg}");
    for want in [
        "s.toml:5: `chart[1].kind`",
        "s.toml:6: `chart[1].colour`",
        "`expect[1].metric`",
        "`expect[1].at_least`",
        "`expect[1].why`",
    ] {
        assert!(msg.contains(want), "{want} missing from\n{msg}");
    }
}

#[test]
fn two_charts_with_one_file_are_refused() {
    let chart = "[[chart]]\nkind = \"line\"\nmetric = \"p_success\"\nx = \"opposition.challenge\"\nfile = \"same\"\n";
    let e = error(&format!("{SWEPT}{chart}{chart}"));
    assert!(
        e.starts_with("s.toml:13:")
            && e.contains("\"same\" is the file of another chart too (line 8)"),
        "{e}"
    );
}

#[test]
fn ranges_at_the_ends_of_i64_do_not_overflow() {
    for range in [
        "{ from = -9223372036854775808, to = 9223372036854775807 }",
        "{ from = 9223372036854775807, to = -9223372036854775808, step = -1 }",
        "{ from = 9223372036854775807, to = 9223372036854775807 }",
        "{ from = 0, to = 9223372036854775807, step = 9223372036854775807 }",
    ] {
        let e = error(&format!(
            "mechanic = \"gateway.challenge\"\n[sweep]\nraises = {range}\n"
        ));
        assert!(e.starts_with("s.toml:3:"), "{range}: {e}");
    }
}

#[test]
fn labels_and_chart_words_parse_and_the_chart_labels_come_first() {
    let s = parse(&format!(
        r#"{SWEPT}[labels]
p_success = "Chance of success"
opposition.challenge = "Challenge"
[[chart]]
kind = "line"
metric = "p_success"
x = "opposition.challenge"
title = "Success against challenge"
subtitle = "Three trait dice"
x_title = "Challenge level"
y_title = "Chance"
labels = {{ "p_success" = "Success" }}
[[chart]]
kind = "line"
metric = "expected_raises"
x = "opposition.challenge"
[[chart]]
kind = "line"
metric = "p_success"
x = "opposition.challenge"
percent = false
file = "plain"
"#
    ))
    .unwrap();
    assert_eq!(s.labels.get("opposition.challenge"), Some("Challenge"));
    let c = &s.charts[0];
    assert_eq!(c.title.as_deref(), Some("Success against challenge"));
    assert_eq!(c.subtitle.as_deref(), Some("Three trait dice"));
    assert_eq!(c.x_title.as_deref(), Some("Challenge level"));
    assert_eq!(c.y_title.as_deref(), Some("Chance"));
    // The chart's own label wins; the scenario's fill in the rest.
    assert_eq!(c.labels.of("p_success"), "Success");
    assert_eq!(c.labels.of("opposition.challenge"), "Challenge");
    // Percent axes: on for probabilities, off for other metrics, and
    // `percent = false` turns them off.
    assert!(c.percent);
    assert!(!s.charts[1].percent);
    assert!(!s.charts[2].percent);
}

#[test]
fn bad_label_and_chart_keys_name_the_file_line_and_key() {
    let text = format!(
        "{SWEPT}[labels]\np_sucess = \"Chance\"\n\"opposition.challenge\" = 3\n[[chart]]\nkind = \"line\"\nmetric = \"expected_raises\"\nx = \"opposition.challenge\"\npercent = true\nx_label = \"Challenge\"\nlabels = {{ raise = \"Raises\" }}\nsubtitle = 2\n"
    );
    let e = parse(&text).err().unwrap();
    let msg = e.to_string();
    for want in [
        "s.toml:5: `labels.p_sucess` \"p_sucess\" is not a parameter, metric or outcome field of gateway.challenge (did you mean `p_success`?)",
        "s.toml:6: `labels.opposition.challenge` must be a string",
        "s.toml:11: `chart[1].percent` is true, but expected_raises is not a probability",
        "s.toml:12: `chart[1].x_label` is not a key of [[chart]]",
        "s.toml:13: `chart[1].labels.raise`",
        "(did you mean `raises`?)",
        "s.toml:14: `chart[1].subtitle` must be a string",
    ] {
        assert!(msg.contains(want), "{want} missing from\n{msg}");
    }
    let e = error("mechanic = \"gateway.challenge\"\nlabels = 3\n");
    assert!(e.starts_with("s.toml:2: `labels` must be a table"), "{e}");
}

#[test]
fn where_on_a_fixed_parameter_is_a_sweep_of_one_value() {
    let base = r#"
mechanic = "gateway.challenge"
[params]
"actor.trait" = 2
"opposition.variability" = "tough"
[sweep]
"opposition.challenge" = [0, 2]
"#;
    // The fixed value: accepted, and filters nothing out.
    let s = parse(&format!(
        "{base}[[expect]]\nwhere = {{ \"actor.trait\" = 2, \"opposition.challenge\" = 2 }}\nmetric = \"p_success\"\nat_least = 0.1\n"
    ))
    .unwrap();
    assert_eq!(
        s.expectations[0].filter,
        vec![("opposition.challenge".to_string(), ParamValue::Int(2))]
    );
    let s = parse(&format!(
        "{base}[[expect]]\nwhere = {{ \"opposition.variability\" = \"tough\" }}\nmetric = \"p_success\"\nat_least = 0.1\n"
    ))
    .unwrap();
    assert!(s.expectations[0].filter.is_empty());
    // Another value: said plainly, with the fixed one.
    let e = error(&format!(
        "{base}[[expect]]\nwhere = {{ \"actor.trait\" = 3 }}\nmetric = \"p_success\"\nat_least = 0.1\n"
    ));
    assert!(
        e.contains(
            "actor.trait = 3 matches no config: actor.trait is not swept but fixed at 2 in [params]"
        ),
        "{e}"
    );
    // Neither swept nor set: as before.
    let e = error(&format!(
        "{base}[[expect]]\nwhere = {{ raises = 1 }}\nmetric = \"p_success\"\nat_least = 0.1\n"
    ));
    assert!(e.contains("\"raises\" is not swept"), "{e}");
}

#[test]
fn a_misspelt_bound_is_named_with_the_key_meant() {
    let base = "mechanic = \"gateway.challenge\"\n[[expect]]\nmetric = \"p_success\"\n";
    let e = error(&format!("{base}at_lest = 0.1\n"));
    assert!(
        e.contains("`expect[1].at_lest` is not a key of [[expect]] (did you mean `at_least`?)"),
        "{e}"
    );
    assert!(
        !e.contains("needs exactly one") && !e.contains("no bound"),
        "{e}"
    );
    // No bound at all, and two bounds, say which.
    let e = error(base);
    assert!(
        e.contains("has no bound; give one of between, at_least"),
        "{e}"
    );
    let e = error(&format!("{base}at_least = 0.1\nat_most = 0.9\n"));
    assert!(
        e.contains("`expect[1].at_most` is a second bound beside `at_least`"),
        "{e}"
    );
}
