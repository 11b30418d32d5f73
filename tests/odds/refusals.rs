//! Bad questions (exit 2 and why), no exact answer, and the four modes.

use super::*;

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
