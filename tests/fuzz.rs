//! Fuzzing every parser oddsmith has: the scenario parser, fed mutated
//! copies of every shipped scenario and generated scenarios of every
//! mechanic; and every notation parser (cortex pools, CGG die codes,
//! QuestWorlds ratings, the statements scene's players and conflicts, the
//! `odds` arguments) and every parameter check and mechanic constructor,
//! fed arbitrary strings and values. None may panic (tests build with
//! overflow checks on, so an overflow is a panic too); a refused scenario
//! must name the file and a line; a notation that parses must print back
//! to itself.
//!
//! `cargo test --release --test fuzz` runs a few hundred cases of each
//! target (CI). The long run is
//! `ODDSMITH_FUZZ_SECONDS=600 cargo test --release --test fuzz -- --ignored --nocapture`,
//! which reports executions per second.

use std::path::Path;
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use oddsmith::dice::DiceRng;
use oddsmith::scenario::{Scenario, ScenarioError};
use oddsmith::sim::Tally;
use oddsmith::systems::gateway::notation;
use oddsmith::systems::{self, ParamKind, ParamMap, ParamValue, cgg, cortex, questworlds};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

// ---------------------------------------------------------------------
// Targets: each takes one input and panics only on a bug.

/// The scenario parser on `text`; a scenario it accepts must also run.
/// Whether it was accepted.
fn scenario_target(text: &str) -> bool {
    match Scenario::parse(Path::new("fuzz.toml"), text) {
        Ok(s) => {
            let n = s.config_count();
            assert!((1..=oddsmith::scenario::MAX_CONFIGS).contains(&n));
            // A checked model cannot fail: a few trials of the first and
            // last config.
            let models = s.models().expect("models were checked at parse");
            for (config, model) in [models.first(), models.last()].into_iter().flatten() {
                let mut tally = Tally::new(model.schema().fields.len());
                let mut rng = DiceRng::for_chunk(1, config.index as u64, 0);
                model.simulate(&mut rng, 8, &mut tally);
                assert_eq!(tally.trials(), 8);
            }
            true
        }
        Err(e) => {
            for p in e.all() {
                let msg = p.to_string();
                assert!(msg.starts_with("fuzz.toml"), "{msg}");
                if let ScenarioError::Toml { line, .. } | ScenarioError::Invalid { line, .. } = p {
                    assert!(
                        *line >= 1 && *line <= text.lines().count().max(1) + 1,
                        "{msg}"
                    );
                }
            }
            false
        }
    }
}

/// Every string notation on `s`; what parses prints back to itself.
/// Whether any parser took it.
fn notation_target(s: &str) -> bool {
    let mut took = false;
    if let Ok(pool) = cortex::Pool::from_str(s) {
        took = true;
        let again = cortex::Pool::from_str(&pool.to_string()).expect("a printed pool parses");
        assert_eq!(again, pool, "{s:?}");
    }
    if let Ok(code) = cgg::DieCode::from_str(s) {
        took = true;
        let again = cgg::DieCode::from_str(&code.to_string()).expect("a printed code parses");
        assert_eq!(again, code, "{s:?}");
    }
    if let Ok(r) = questworlds::Rating::from_str(s) {
        took = true;
        if questworlds::rating::rating_of(&ParamValue::Str(s.into())).is_ok() {
            let again = questworlds::Rating::from_str(&r.to_string()).expect("prints back");
            assert_eq!(again, r, "{s:?}");
        }
    }
    let _ = questworlds::rating::rating_of(&ParamValue::Str(s.into()));
    if let Ok(pool) = notation::parse_pool(s) {
        took = true;
        assert!((1..=notation::MAX_DICE).contains(&pool.dice), "{s:?}");
        assert!(pool.bonus.abs() <= notation::MAX_BONUS, "{s:?}");
    }
    if let Ok(raises) = notation::parse_raises(s) {
        took = true;
        assert!(!raises.is_empty() && raises.iter().all(|&r| r <= notation::MAX_RAISES));
    }
    took
}

/// Every parameter check of every mechanic on `v` (custom values, the
/// statements scene's players and conflicts among them, are parsed by the
/// check), and its constructor when the check passed. Whether the
/// mechanic took it.
fn value_target(v: &ParamValue, mechanic: Index, param: Index) -> bool {
    let m = systems::registry()[mechanic.index(systems::registry().len())];
    let spec = &m.params()[param.index(m.params().len())];
    let accepted = spec.kind.check(v).is_ok();
    let values = ParamMap::from_pairs(&[(spec.path, v.clone())]);
    match m.check(&values) {
        Ok(_) => {
            assert!(accepted, "{} accepted {v} for {}", m.name(), spec.path);
            let model = m.prepare(&values).expect("a build of checked values");
            let mut tally = Tally::new(model.schema().fields.len());
            model.simulate(&mut DiceRng::from_u64(7), 4, &mut tally);
            true
        }
        Err(e) => {
            assert!(!e.key.is_empty() && !e.message.is_empty());
            false
        }
    }
}

// ---------------------------------------------------------------------
// Inputs.

/// Texts the mutations start from: every scenario in the repository and
/// snippets that reach each notation.
fn seeds() -> &'static [String] {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out: Vec<String> = Vec::new();
        for dir in ["scenarios", "tests/scenarios"] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            paths.sort();
            out.extend(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()));
        }
        out.extend(
            [
                "mechanic = \"gateway.challenge\"\n[params]\nactor.trait = \"full\"\n[sweep]\nraises = { from = 0, to = 3 }\n[[expect]]\nmetric = \"p_success\"\nmax_step = { along = \"raises\", step = 0.2 }\n",
                "mechanic = \"cortex.basic\"\n[params]\npool = \"d8 2d6\"\n[sweep]\ndifficulty = [3, 7, 11]\n",
                "mechanic = \"questworlds.contest\"\n[sweep]\n\"hero.rating\" = [\"5M\", \"17\", \"4M2\"]\n",
                "mechanic = \"statements.scene\"\n[params]\nplayers = [{ name = \"ann\", statements = [{ favouring = [2, 3] }] }, { name = \"bob\", luck = 2, statements = [{ favouring = [1], luck = 1, supported_by = \"ann.1\" }] }]\nconflicts = [[\"ann.1\", \"bob.1\"]]\n",
            ]
            .map(String::from),
        );
        out
    })
}

/// Pieces of TOML, scenario vocabulary and boundary values that mutations
/// insert: every mechanic's name, parameter paths and names, metrics and
/// fields too.
fn tokens() -> &'static [String] {
    static TOKENS: OnceLock<Vec<String>> = OnceLock::new();
    TOKENS.get_or_init(|| {
        let mut t: Vec<String> = [
            "=",
            "\"",
            "'",
            "[",
            "]",
            "[[",
            "]]",
            "{",
            "}",
            ",",
            ".",
            "\n",
            "#",
            " ",
            "\\",
            "\"\"\"",
            "true",
            "false",
            "nan",
            "-nan",
            "inf",
            "-inf",
            "+inf",
            "1e308",
            "-1e308",
            "1e-320",
            "0",
            "-0",
            "-1",
            "1",
            "2",
            "0.5",
            "-0.1",
            "9223372036854775807",
            "-9223372036854775808",
            "99999999999999999999",
            "0x7f",
            "0b1",
            "1_000",
            "1979-05-27",
            "[sweep]",
            "[params]",
            "[[chart]]",
            "[[expect]]",
            "mechanic",
            "name",
            "description",
            "seed",
            "trials",
            "from",
            "to",
            "step",
            "where",
            "metric",
            "between",
            "at_least",
            "at_most",
            "monotonic",
            "max_step",
            "along",
            "direction",
            "\"increasing\"",
            "\"decreasing\"",
            "why",
            "kind",
            "x",
            "series",
            "facet",
            "file",
            "field",
            "title",
            "\"line\"",
            "\"heatmap\"",
            "\"histogram\"",
            "\"at-least\"",
            "{ from = 0, to = 5 }",
            "{ from = 9223372036854775807, to = -9223372036854775808, step = -1 }",
            "{ from = 0, to = 9223372036854775807, step = 4611686018427387904 }",
            "[1, 2, 3]",
            "[]",
            "{}",
            "é",
            "𝔡",
            "\u{0}",
            "\u{feff}",
            "\r\n",
            "3d8+2",
            "d12 2d6",
            "4d+2",
            "31d",
            "5M2",
            "20M",
            "0M",
            "ann.1",
            "bob.9",
            "[[\"ann.1\", \"ann.1\"]]",
            "[{ name = \"x\", statements = [{ favouring = 0 }] }]",
        ]
        .map(String::from)
        .to_vec();
        for m in systems::registry() {
            t.push(format!("\"{}\"", m.name()));
            let schema = m.schema();
            t.extend(schema.metrics.iter().map(|x| format!("\"{}\"", x.name)));
            t.extend(schema.fields.iter().map(|x| format!("\"{}\"", x.name)));
            for p in m.params() {
                t.push(p.path.to_string());
                t.push(format!("\"{}\"", p.path));
                match p.kind {
                    ParamKind::Int { min, max } | ParamKind::IntOrName { min, max, .. } => {
                        for v in [min - 1, min, max, max.saturating_add(1)] {
                            t.push(v.to_string());
                        }
                    }
                    _ => {}
                }
                match p.kind {
                    ParamKind::Choice(names) | ParamKind::Ordered(names) => {
                        t.extend(names.iter().map(|n| format!("\"{n}\"")))
                    }
                    ParamKind::IntOrName { names, .. } => {
                        t.extend(names.iter().map(|(n, _)| format!("\"{n}\"")))
                    }
                    _ => {}
                }
            }
        }
        t
    })
}

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, Index),
    Delete(Index, u8),
    Replace(Index, u8, Index),
    Char(Index, char),
    DupLine(Index),
    SwapLines(Index, Index),
    Truncate(Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Insert(a, b)),
        2 => (any::<Index>(), 1u8..12).prop_map(|(a, n)| Edit::Delete(a, n)),
        3 => (any::<Index>(), 1u8..8, any::<Index>()).prop_map(|(a, n, b)| Edit::Replace(a, n, b)),
        2 => (any::<Index>(), any::<char>()).prop_map(|(a, c)| Edit::Char(a, c)),
        1 => any::<Index>().prop_map(Edit::DupLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let token = |i: &Index| {
        tokens()[i.index(tokens().len())]
            .chars()
            .collect::<Vec<_>>()
    };
    for e in edits {
        let at = |i: &Index| i.index(chars.len() + 1);
        match e {
            Edit::Insert(a, t) => {
                let p = at(a);
                chars.splice(p..p, token(t));
            }
            Edit::Delete(a, n) => {
                let p = at(a);
                let end = (p + *n as usize).min(chars.len());
                chars.drain(p..end);
            }
            Edit::Replace(a, n, t) => {
                let p = at(a);
                let end = (p + *n as usize).min(chars.len());
                chars.splice(p..end, token(t));
            }
            Edit::Char(a, c) => {
                let p = at(a);
                chars.insert(p, *c);
            }
            Edit::DupLine(a) | Edit::SwapLines(a, _) => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let i = a.index(lines.len());
                if let Edit::SwapLines(_, b) = e {
                    let j = b.index(lines.len());
                    lines.swap(i, j);
                } else {
                    lines.insert(i, lines[i]);
                }
                chars = lines.join("\n").chars().collect();
            }
            Edit::Truncate(a) => {
                let p = at(a);
                chars.truncate(p);
            }
        }
    }
    chars.into_iter().collect()
}

/// A shipped scenario or snippet, edited one to eight times.
fn mutated_scenario() -> impl Strategy<Value = String> {
    (any::<Index>(), prop::collection::vec(edit(), 1..5))
        .prop_map(|(seed, edits)| apply(&seeds()[seed.index(seeds().len())], &edits))
}

/// A TOML rendering of a value for a parameter, near its declared range
/// or from the vocabulary.
fn toml_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<Index>().prop_map(|i| tokens()[i.index(tokens().len())].clone()),
        any::<i64>().prop_map(|i| i.to_string()),
        (-3i64..40).prop_map(|i| i.to_string()),
        "[a-zA-Z0-9 +.,=_-]{0,12}".prop_map(|s| format!("{s:?}")),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec(("[a-z_]{1,10}", inner), 0..4).prop_map(|kv| {
                let body: Vec<String> = kv.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                format!("{{ {} }}", body.join(", "))
            }),
        ]
    })
}

/// A value for `spec` as TOML: mostly one it allows (an integer in its
/// range, one of its names, a boolean, a notation from the vocabulary),
/// else `other`.
fn spec_value(spec: &systems::ParamSpec, pick: Index, plausible: bool, other: &str) -> String {
    if !plausible {
        return other.to_string();
    }
    match spec.kind {
        ParamKind::Int { min, max } => {
            let span = (max.min(min + 40) - min + 1) as usize;
            (min + pick.index(span) as i64).to_string()
        }
        ParamKind::IntOrName { min, max, names } => {
            let span = (max.min(min + 40) - min + 1) as usize;
            match pick.index(span + names.len()) {
                i if i < span => (min + i as i64).to_string(),
                i => format!("\"{}\"", names[i - span].0),
            }
        }
        ParamKind::Bool => (pick.index(2) == 0).to_string(),
        ParamKind::Choice(names) | ParamKind::Ordered(names) => {
            format!("\"{}\"", names[pick.index(names.len())])
        }
        ParamKind::Custom { .. } => other.to_string(),
    }
}

/// A scenario of a random mechanic: some of its parameters set, one or two
/// swept, with a chart and an assertion; values mostly in range.
fn generated_scenario() -> impl Strategy<Value = String> {
    (
        any::<Index>(),
        prop::collection::vec((any::<Index>(), any::<Index>(), prop::bool::weighted(0.85), toml_value()), 0..5),
        prop::collection::vec(
            (
                any::<Index>(),
                prop::collection::vec((any::<Index>(), prop::bool::weighted(0.85), toml_value()), 1..4),
            ),
            0..3,
        ),
        any::<Index>(),
        any::<Index>(),
        (-1.0f64..2.0, any::<bool>()),
    )
        .prop_map(|(m, params, sweep, metric, axis, (bound, chart))| {
            let m = systems::registry()[m.index(systems::registry().len())];
            let specs = m.params();
            let mut text = format!("mechanic = \"{}\"\n[params]\n", m.name());
            for (p, pick, plausible, v) in &params {
                let spec = &specs[p.index(specs.len())];
                text += &format!("\"{}\" = {}\n", spec.path, spec_value(spec, *pick, *plausible, v));
            }
            text += "[sweep]\n";
            let mut swept = Vec::new();
            for (p, vs) in &sweep {
                let spec = &specs[p.index(specs.len())];
                swept.push(spec.path);
                let vs: Vec<String> = vs
                    .iter()
                    .map(|(pick, plausible, v)| spec_value(spec, *pick, *plausible, v))
                    .collect();
                text += &format!("\"{}\" = [{}]\n", spec.path, vs.join(", "));
            }
            let schema = m.schema();
            let metric = &schema.metrics[metric.index(schema.metrics.len())].name;
            if let Some(along) = swept.get(axis.index(swept.len().max(1))) {
                text += &format!(
                    "[[expect]]\nmetric = \"{metric}\"\nmax_step = {{ along = \"{along}\", step = {bound} }}\n"
                );
                if chart {
                    text += &format!(
                        "[[chart]]\nkind = \"line\"\nmetric = \"{metric}\"\nx = \"{along}\"\n"
                    );
                }
            }
            text += &format!("[[expect]]\nmetric = \"{metric}\"\nat_least = {bound}\n");
            text
        })
}

/// Strings in the alphabet of the notations, and anything at all.
fn notation() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9dDmM+ ,.=-]{0,16}",
        "[0-9]{0,22}[dD][0-9]{0,22}([+-][0-9]{0,22})?",
        "[0-9]{0,3}[mM][0-9]{0,3}",
        "([0-9]{1,3}(\\.\\.=?)?){1,2}",
        any::<String>(),
    ]
}

/// Parameter values of any shape.
fn param_value() -> impl Strategy<Value = ParamValue> {
    let leaf = prop_oneof![
        prop_oneof![any::<i64>(), -5i64..25].prop_map(ParamValue::Int),
        any::<f64>().prop_map(ParamValue::Float),
        any::<bool>().prop_map(ParamValue::Bool),
        prop_oneof![
            notation(),
            "[a-z]{1,5}\\.[0-9]{1,2}",
            any::<Index>().prop_map(|i| tokens()[i.index(tokens().len())]
                .trim_matches('"')
                .to_string()),
        ]
        .prop_map(ParamValue::Str),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(ParamValue::List),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("name".to_string()),
                        Just("statements".to_string()),
                        Just("favouring".to_string()),
                        Just("opposing".to_string()),
                        Just("luck".to_string()),
                        Just("supported_by".to_string()),
                        Just("hindered_by".to_string()),
                        "[a-z_]{1,10}",
                    ],
                    inner
                ),
                0..5
            )
            .prop_map(ParamValue::Table),
        ]
    })
}

// ---------------------------------------------------------------------
// The short run, in every `cargo test`.

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenarios_never_panic(text in mutated_scenario()) {
        scenario_target(&text);
    }

    #[test]
    fn generated_scenarios_never_panic(text in generated_scenario()) {
        scenario_target(&text);
    }

    #[test]
    fn notations_never_panic_and_print_back(s in notation()) {
        notation_target(&s);
    }

    #[test]
    fn parameter_values_never_panic(v in param_value(), m in any::<Index>(), p in any::<Index>()) {
        value_target(&v, m, p);
    }
}

// ---------------------------------------------------------------------
// The long run.

#[test]
#[ignore = "long: run with --ignored (ODDSMITH_FUZZ_SECONDS, default 600)"]
fn fuzz_every_parser_for_a_while() {
    let seconds: u64 = std::env::var("ODDSMITH_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("ODDSMITH_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261122);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    let mutated = mutated_scenario();
    let generated = generated_scenario();
    let notations = notation();
    let values = (param_value(), any::<Index>(), any::<Index>());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut runs = [0u64; 4];
    let mut accepted = [0u64; 4];
    let mut spent = [Duration::ZERO; 4];
    let mut i = 0usize;
    while Instant::now() < deadline {
        let target = i % 4;
        i += 1;
        let t = Instant::now();
        match target {
            0 => {
                let text = mutated.new_tree(&mut runner).unwrap().current();
                accepted[0] += u64::from(fail_with(&text, || scenario_target(&text)));
            }
            1 => {
                let text = generated.new_tree(&mut runner).unwrap().current();
                accepted[1] += u64::from(fail_with(&text, || scenario_target(&text)));
            }
            2 => {
                let s = notations.new_tree(&mut runner).unwrap().current();
                accepted[2] += u64::from(fail_with(&format!("{s:?}"), || notation_target(&s)));
            }
            _ => {
                let (v, m, p) = values.new_tree(&mut runner).unwrap().current();
                accepted[3] += u64::from(fail_with(&format!("{v:?} {m:?} {p:?}"), || {
                    value_target(&v, m, p)
                }));
            }
        }
        runs[target] += 1;
        spent[target] += t.elapsed();
    }
    let total: u64 = runs.iter().sum();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "fuzzed for {secs:.0} s: {total} executions, {:.0} per second",
        total as f64 / secs
    );
    for (k, name) in [
        "mutated scenarios",
        "generated scenarios",
        "notations",
        "parameter values",
    ]
    .iter()
    .enumerate()
    {
        println!(
            "  {name:<20} {:>10} executions, {:>8.0} per second of its own time, {:>5.1}% accepted",
            runs[k],
            runs[k] as f64 / spent[k].as_secs_f64().max(1e-9),
            100.0 * accepted[k] as f64 / runs[k].max(1) as f64
        );
    }
}

/// Run `f`; on a panic, keep the input in `target/fuzz-failure.txt` and
/// fail with it.
fn fail_with<T: Default>(input: &str, f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(e) => {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failure.txt");
            let _ = std::fs::create_dir_all(file.parent().unwrap());
            let _ = std::fs::write(&file, input);
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!(
                "panic on this input (kept in {}): {msg}\n{input}",
                file.display()
            );
        }
    }
}
