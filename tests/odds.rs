//! `oddsmith odds` for dice expressions and for any mechanic.

mod common;

use common::*;

/// Run `odds` with `args`; it must succeed; its output.
fn answers(args: &[&str]) -> String {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    let o = oddsmith(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
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

#[test]
fn an_expression_gets_the_anydice_table() {
    let text = answers(&["4d6kh3"]);
    // Mean 15869/1296; P(18) = 21/1296; P(≥ 16) = 169/1296.
    assert!(text.contains("12.244599"), "{text}");
    let row18 = text
        .lines()
        .find(|l| l.trim_start().starts_with("18 "))
        .unwrap();
    assert!(
        row18.contains("0.016204") && row18.contains("1 in 62"),
        "{row18}"
    );
    let row16 = text
        .lines()
        .find(|l| l.trim_start().starts_with("16 "))
        .unwrap();
    assert!(row16.contains("0.130401"), "{row16}");
    assert!(text.contains("1296 equally likely cases"), "{text}");
    for col in ["=", "≥", "≤", "= odds"] {
        assert!(text.contains(col), "{text}");
    }
}

#[test]
fn a_comparison_and_the_gateway_challenge_agree() {
    let dice = answers(&["3d8kh1+2 >= 2d8kh1+4", "--check", "--trials", "100000"]);
    let p_true = dice.lines().find(|l| l.starts_with("p_true")).unwrap();
    assert!(
        p_true.contains("0.348846") && p_true.contains("1 in 2.9"),
        "{dice}"
    );
    assert!(
        dice.contains("read as: ((3d8kh1 + 2) >= (2d8kh1 + 4))"),
        "{dice}"
    );
    assert!(dice.contains("monte carlo"), "{dice}");
    let gateway = answers(&[
        "gateway",
        "actor.trait=3",
        "actor.background=2",
        "opposition.challenge=4",
    ]);
    assert!(gateway.starts_with("gateway.challenge:"), "{gateway}");
    let p = gateway
        .lines()
        .find(|l| l.starts_with("p_success"))
        .unwrap();
    assert!(p.contains("0.348846"), "{gateway}");
}

#[test]
fn any_mechanic_answers_with_its_fields_and_metrics() {
    let text = answers(&[
        "cortex.basic",
        "actor.pool=d8 d6 d6",
        "opposition.trouble=2",
    ]);
    assert!(text.contains("parameters: actor.pool = d8 d6 d6, opposition.trouble = 2"));
    assert!(text.lines().any(|l| l.starts_with("p_win")), "{text}");
    assert!(text.contains("\nwin: "), "{text}");
    // A list parameter in TOML form, and a mechanic with no exact solver.
    let text = answers(&["statements.statement", "favouring=[4, 3]", "opposing=9"]);
    assert!(text.contains("p_true"), "{text}");
    let text = answers(&["cgg.tension", "start=3", "--trials", "20000"]);
    assert!(text.contains("method: Monte Carlo, 20000 trials"), "{text}");
    assert!(text.contains("parameters: start = 3"), "{text}");
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
    assert!(
        !text.contains("read as"),
        "plain sums need no reading: {text}"
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
        &["no mechanic or system", "cortex.basic"],
    );
    refuses(
        &["cortex.basic", "actor.pol=d8"],
        &["actor.pol", "cortex.basic takes: actor.pool"],
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
