//! The fuzz inputs: seed texts, tokens, edits of a text, generated
//! scenarios, notations and parameter values.

use std::path::Path;
use std::sync::OnceLock;

use oddsmith::systems::{self, ParamKind, ParamValue};
use proptest::prelude::*;
use proptest::sample::Index;

// ---------------------------------------------------------------------
// Inputs.

/// Texts the mutations start from: every scenario in the repository and
/// snippets that reach each notation.
pub(crate) fn seeds() -> &'static [String] {
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
pub(crate) fn tokens() -> &'static [String] {
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
pub(crate) enum Edit {
    Insert(Index, Index),
    Delete(Index, u8),
    Replace(Index, u8, Index),
    Char(Index, char),
    DupLine(Index),
    SwapLines(Index, Index),
    Truncate(Index),
}

pub(crate) fn edit() -> impl Strategy<Value = Edit> {
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

pub(crate) fn apply(text: &str, edits: &[Edit]) -> String {
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
pub(crate) fn mutated_scenario() -> impl Strategy<Value = String> {
    (any::<Index>(), prop::collection::vec(edit(), 1..5))
        .prop_map(|(seed, edits)| apply(&seeds()[seed.index(seeds().len())], &edits))
}

/// A TOML rendering of a value for a parameter, near its declared range
/// or from the vocabulary.
pub(crate) fn toml_value() -> impl Strategy<Value = String> {
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
pub(crate) fn spec_value(
    spec: &systems::ParamSpec,
    pick: Index,
    plausible: bool,
    other: &str,
) -> String {
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
pub(crate) fn generated_scenario() -> impl Strategy<Value = String> {
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
pub(crate) fn notation() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9dDmM+ ,.=-]{0,16}",
        "[0-9]{0,22}[dD][0-9]{0,22}([+-][0-9]{0,22})?",
        "[0-9]{0,3}[mM][0-9]{0,3}",
        "([0-9]{1,3}(\\.\\.=?)?){1,2}",
        any::<String>(),
    ]
}

/// Parameter values of any shape.
pub(crate) fn param_value() -> impl Strategy<Value = ParamValue> {
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
