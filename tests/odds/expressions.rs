//! Dice expressions: the AnyDice table, a comparison against the Gateway
//! challenge, and warnings on the command line and in scenarios.

use super::*;

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
