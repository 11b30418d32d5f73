//! Any mechanic: its fields and metrics, every parameter listed with
//! defaults marked, expressions filled from parameters, ranges swept as
//! `run` sweeps them, and ≥/≤ only for ordered fields.

use super::*;

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
    // ... but a rolled augment faces the base resistance, opponent or not.
    let text = answers(&[
        "questworlds.contest",
        "opponent.rating=14",
        "pc.augment={ rating = \"15\" }",
    ]);
    assert!(listed(&text, "resistance.base"), "{text}");
    // The sequences and the group contest list theirs as the contest does.
    let text = answers(&["questworlds.chained", "opponent.rating=14"]);
    assert!(!listed(&text, "resistance.level"), "{text}");
    assert!(!listed(&text, "resistance.base"), "{text}");
    let text = answers(&["questworlds.scored"]);
    assert!(!listed(&text, "opponent.rating"), "{text}");
    let text = answers(&["questworlds.group", "resistance.rating=14"]);
    assert!(!listed(&text, "resistance.base"), "{text}");
    // CGG: an opponent's code replaces the base difficulty; no risk roll
    // leaves the risk target and the venture policies idle.
    let text = answers(&["cgg.action", "difficulty.opponent=3d", "risk=none"]);
    for key in [
        "difficulty.base",
        "risk_extra",
        "policy.wrench",
        "explorer.risk_code",
    ] {
        assert!(!listed(&text, key), "{key}: {text}");
    }
    assert!(listed(&text, "variant.failure"), "{text}");
    let text = answers(&["cgg.session", "sequence=[{}, {}]"]);
    assert!(!listed(&text, "actions"), "{text}");
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
