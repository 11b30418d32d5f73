use serde::Deserialize;

use super::*;
use crate::model::{Lit, ParamMap};

crate::choice! {
    /// A test choice.
    enum Side { Pc = "pc", Gm = "gm" }
}

static SPECS: &[ParamSpec] = &[
    ParamSpec {
        path: "actor.dice",
        kind: ParamKind::Int { min: 1, max: 9 },
        default: Lit::Int(2),
        doc: "",
    },
    ParamSpec {
        path: "side",
        kind: ParamKind::Choice(&["pc", "gm"]),
        default: Lit::Str("pc"),
        doc: "",
    },
    ParamSpec {
        path: "level",
        kind: ParamKind::IntOrName {
            min: 0,
            max: 9,
            names: &[("hard", 6)],
        },
        default: Lit::Int(3),
        doc: "",
    },
    ParamSpec {
        path: "even",
        kind: ParamKind::Custom {
            expects: "an even integer",
        },
        default: Lit::Int(2),
        doc: "",
    },
    ParamSpec {
        path: "twice",
        kind: ParamKind::Custom {
            expects: "an even integer",
        },
        default: Lit::Absent,
        doc: "",
    },
    ParamSpec {
        path: "help",
        kind: ParamKind::Bool,
        default: Lit::Bool(false),
        doc: "",
    },
    ParamSpec {
        path: "vars.*",
        kind: ParamKind::Int { min: 0, max: 9 },
        default: Lit::Absent,
        doc: "",
    },
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(rename = "actor.dice")]
    dice: u32,
    side: Side,
    level: i64,
    #[serde(deserialize_with = "even")]
    even: i64,
    #[serde(default, deserialize_with = "even_some")]
    twice: Option<i64>,
    help: Given<bool>,
    #[serde(rename = "vars.*")]
    vars: std::collections::BTreeMap<String, i64>,
}

fn even_of(v: &ParamValue) -> Result<i64, String> {
    match v {
        ParamValue::Int(i) if i % 2 == 0 => Ok(*i),
        ParamValue::Int(i) => Err(format!("{i} is odd")),
        other => Err(format!("{} is the wrong type", other.type_name())),
    }
}

fn even<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    parse_value(d, even_of)
}

fn even_some<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    parse_some(d, even_of)
}

fn read(pairs: &[(&str, ParamValue)]) -> Result<Params, ParamError> {
    let map = ParamMap::from_pairs(pairs);
    Args::new(SPECS, &map)?.typed()
}

#[test]
fn defaults_fill_the_struct_and_given_says_what_was_set() {
    let p = read(&[]).unwrap();
    assert_eq!(p.dice, 2);
    assert_eq!(p.side, Side::Pc);
    assert_eq!(p.level, 3);
    assert_eq!(p.even, 2);
    assert_eq!(p.twice, None);
    assert_eq!(
        p.help,
        Given {
            value: false,
            given: false
        }
    );
    assert!(p.vars.is_empty());
    let p = read(&[
        ("actor.dice", ParamValue::Int(5)),
        ("side", ParamValue::Str("gm".into())),
        ("level", ParamValue::Str("hard".into())),
        ("twice", ParamValue::Int(4)),
        ("help", ParamValue::Bool(false)),
        ("vars.n", ParamValue::Int(7)),
    ])
    .unwrap();
    assert_eq!(p.dice, 5);
    assert_eq!(p.side, Side::Gm);
    assert_eq!(p.level, 6, "a name stands for its integer");
    assert_eq!(p.twice, Some(4));
    assert_eq!(
        p.help,
        Given {
            value: false,
            given: true
        },
        "set to its default is still set"
    );
    assert_eq!(p.vars["n"], 7);
}

#[test]
fn a_parse_error_names_the_key_and_what_it_allows() {
    let e = read(&[("even", ParamValue::Int(3))]).unwrap_err();
    assert_eq!(e.key, "even");
    assert_eq!(e.message, "3 is odd; allowed: an even integer");
    let e = read(&[("twice", ParamValue::Bool(true))]).unwrap_err();
    assert_eq!(e.key, "twice");
    assert_eq!(
        e.message,
        "a boolean is the wrong type; allowed: an even integer"
    );
}

#[test]
fn a_required_key_left_unset_is_named() {
    #[derive(Debug, Deserialize)]
    struct Needs {
        #[serde(rename = "twice", deserialize_with = "even")]
        _twice: i64,
    }
    static ONE: &[ParamSpec] = &[ParamSpec {
        path: "twice",
        kind: ParamKind::Custom {
            expects: "an even integer",
        },
        default: Lit::Absent,
        doc: "",
    }];
    let map = ParamMap::new();
    let e = Args::new(ONE, &map).unwrap().typed::<Needs>().unwrap_err();
    assert_eq!(e.key, "twice");
    assert_eq!(e.message, "is required; allowed: an even integer");
}

#[test]
fn a_struct_lists_its_fields_by_path() {
    assert_eq!(
        fields_of::<Params>(),
        [
            "actor.dice",
            "side",
            "level",
            "even",
            "twice",
            "help",
            "vars.*"
        ]
    );
    assert!(fields_of::<i64>().is_empty());
}

#[test]
fn a_spec_without_a_field_is_refused() {
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Short {
        #[serde(rename = "actor.dice")]
        _dice: u32,
    }
    let map = ParamMap::new();
    let e = Args::new(SPECS, &map)
        .unwrap()
        .typed::<Short>()
        .unwrap_err();
    assert!(e.message.contains("unknown key `side`"), "{e}");
}
