//! Tuning a designer's own dice: the knob is an expression's `{name}`,
//! `vars.NAME`, which no config has without it. P(n d6 ≥ 12) is 6/36,
//! 81/216 and 986/1296 for n = 2, 3 and 4 (counted by hand from the
//! sums' distributions: 2d6 ≥ 12 is one way in 36, 3d6 ≥ 12 is 81 of 216).

use super::common::*;

#[test]
fn an_expressions_name_is_a_knob_with_a_range() {
    let o = oddsmith(&[
        "tune",
        "dice.roll",
        "--knob",
        "vars.n",
        "--range",
        "1..10",
        "--metric",
        "p_true",
        "--target",
        "0.5",
        "expr=\"{n}d6 >= 12\"",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let row = stdout(&o).lines().nth(1).unwrap_or_default().to_string();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // 3 dice: 0.3750 (81/216) is nearer one half than 4 dice's 0.7608.
    assert_eq!(cells[..2], ["3", "0.3750"], "{}", stdout(&o));
    assert!(
        row.contains("2 (0.0278)") && row.contains("4 (0.7608)"),
        "{row}"
    );
}

#[test]
fn a_tune_scenario_may_walk_an_expressions_name_beside_a_swept_one() {
    let dir = tempfile::tempdir().unwrap();
    let s = scenario(
        dir.path(),
        "dice.toml",
        "name = \"dice for an even chance\"\nmechanic = \"dice.roll\"\n[params]\nexpr = \"{n}d6 >= {t}\"\n[sweep]\nvars.t = [10, 15]\n[tune]\nknob = \"vars.n\"\nrange = { from = 1, to = 8 }\nmetric = \"p_true\"\ntarget = 0.5\n",
    );
    let o = oddsmith(&["tune", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Vec<String>> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().take(3).map(String::from).collect())
        .collect();
    // 3d6 ≥ 10 is 0.6250 (135/216); 4d6 ≥ 15 is 0.4437 (575/1296).
    assert_eq!(
        rows,
        [["10", "3", "0.6250"], ["15", "4", "0.4437"]],
        "{}",
        stdout(&o)
    );
}

#[test]
fn an_expressions_name_without_a_range_or_absent_from_it_is_refused() {
    let o = oddsmith(&[
        "tune",
        "dice.roll",
        "--knob",
        "vars.n",
        "--metric",
        "p_true",
        "--target",
        "0.5",
        "expr=\"{n}d6 >= 12\"",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`tune.range` is missing, and vars.n declares no short range"),
        "{}",
        stderr(&o)
    );
    // A knob the expression does not name would change nothing.
    let o = oddsmith(&[
        "tune",
        "dice.roll",
        "--knob",
        "vars.m",
        "--range",
        "1..5",
        "--metric",
        "p_true",
        "--target",
        "0.5",
        "expr=\"{n}d6 >= 12\"",
        "vars.n=3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`vars.m` {m} does not appear in the expression \"{n}d6 >= 12\""),
        "{}",
        stderr(&o)
    );
}
