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
