//! Parameter values, their declared kinds, and the check every value
//! passes before a mechanic reads it into its params struct ([`Args::typed`]:
//! no mechanic reads a value by string key).

mod de;
mod suggest;
mod typed;

pub use de::{InRange, from_value};
pub use suggest::{suggest, suggest_param};
pub use typed::{Given, fields_of, parse_some, parse_value};

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// A parameter value as a scenario gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
    List(Vec<ParamValue>),
    Table(Vec<(String, ParamValue)>),
}

impl ParamValue {
    /// The TOML type name, for "wrong type" messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Int(_) => "an integer",
            ParamValue::Float(_) => "a float",
            ParamValue::Bool(_) => "a boolean",
            ParamValue::Str(_) => "a string",
            ParamValue::List(_) => "an array",
            ParamValue::Table(_) => "a table",
        }
    }
}

/// Bare form for table cells (`full`, `3`, `true`); strings are unquoted.
/// A table with a string `name` entry (a named policy, a named player)
/// prints as that name, so outputs and charts label it readably.
impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Str(v) => write!(f, "{v}"),
            ParamValue::List(items) => {
                write!(f, "[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
            ParamValue::Table(entries) => {
                if let Some((_, ParamValue::Str(name))) = entries.iter().find(|(k, _)| k == "name")
                {
                    return write!(f, "{name}");
                }
                write!(f, "{{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k} = {v}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

/// A default value that can live in a `static` table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit {
    Int(i64),
    Bool(bool),
    Str(&'static str),
    /// No default: the key is optional and its absence means something.
    Absent,
}

impl Lit {
    fn value(self) -> Option<ParamValue> {
        match self {
            Lit::Int(v) => Some(ParamValue::Int(v)),
            Lit::Bool(v) => Some(ParamValue::Bool(v)),
            Lit::Str(v) => Some(ParamValue::Str(v.to_string())),
            Lit::Absent => None,
        }
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lit::Int(v) => write!(f, "{v}"),
            Lit::Bool(v) => write!(f, "{v}"),
            Lit::Str(v) => write!(f, "\"{v}\""),
            Lit::Absent => write!(f, "(unset)"),
        }
    }
}

/// A parameter whose value is one of a fixed set of names, read as an
/// enum: [`ParamKind::Choice`] lists [`Choice::NAMES`], and
/// the enum's `Deserialize` (from [`choice!`](crate::choice)) parses them
/// into a params struct, so the names a scenario may write and
/// the variants a mechanic matches on cannot drift apart. Implement it
/// with [`choice!`](crate::choice).
pub trait Choice: Copy + 'static {
    /// Every name, in the order help and errors list them.
    const NAMES: &'static [&'static str];
    /// The variant called `name`, if any.
    fn parse(name: &str) -> Option<Self>;
    /// The name of this variant.
    fn name(self) -> &'static str;
}

/// Implements [`Choice`]: `choice!(Enum { Variant = "name", … })` for an
/// existing enum, or `choice! { /// doc
/// pub enum Enum { /// doc
/// Variant = "name", … } }` to declare the enum too (Copy, Eq, Debug).
/// The name of every variant is matched exhaustively, so a variant without
/// a name does not compile, and the names are the only ones `parse`
/// accepts.
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident {
            $($(#[$vmeta:meta])* $variant:ident = $name:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $ty {
            $($(#[$vmeta])* $variant),+
        }
        $crate::choice!($ty { $($variant = $name),+ });
    };
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $crate::model::Choice for $ty {
            const NAMES: &'static [&'static str] = &[$($name),+];

            fn parse(name: &str) -> Option<Self> {
                $(if name == $name {
                    return Some($ty::$variant);
                })+
                None
            }

            fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl<'de> $crate::model::__serde::Deserialize<'de> for $ty {
            fn deserialize<D: $crate::model::__serde::Deserializer<'de>>(
                d: D,
            ) -> Result<Self, D::Error> {
                $crate::model::choice_from(d)
            }
        }
    };
}

/// A [`Choice`] read from its name (the `Deserialize` of
/// [`choice!`](crate::choice)).
pub fn choice_from<'de, C: Choice, D: serde::Deserializer<'de>>(d: D) -> Result<C, D::Error> {
    let name = String::deserialize(d)?;
    C::parse(&name).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "\"{name}\" is not a known name{}; allowed: one of {}",
            suggest(&name, C::NAMES.iter().copied()),
            quoted(C::NAMES.iter().copied())
        ))
    })
}

/// What values a parameter accepts.
#[derive(Clone, Copy, Debug)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// `true` or `false`.
    Bool,
    /// One of a fixed set of names.
    Choice(&'static [&'static str]),
    /// One of a fixed set of names that the rules rank, listed from the
    /// lowest to the highest (a ladder of difficulty levels): read as
    /// [`ParamKind::Choice`], and walkable in that order (`tune`).
    Ordered(&'static [&'static str]),
    /// An integer in `min..=max`, or a name standing for one.
    IntOrName {
        min: i64,
        max: i64,
        names: &'static [(&'static str, i64)],
    },
    /// A value the mechanic parses into its own type (a rating in mastery
    /// notation, a die code, a list of players…); `expects` says what, in
    /// words. The parse is the check: [`Args::typed`] reports its errors
    /// with the key and `expects`, so the value is read once.
    Custom { expects: &'static str },
}

impl ParamKind {
    /// What is allowed, in words, for help and error messages.
    pub fn allowed(&self) -> String {
        match self {
            ParamKind::Int { min, max } => int_range(*min, *max),
            ParamKind::Bool => "true or false".to_string(),
            ParamKind::Choice(names) | ParamKind::Ordered(names) => {
                format!("one of {}", quoted(names.iter().copied()))
            }
            ParamKind::IntOrName { min, max, names } => format!(
                "{} or one of {}",
                int_range(*min, *max),
                quoted(names.iter().map(|(n, _)| *n))
            ),
            ParamKind::Custom { expects, .. } => expects.to_string(),
        }
    }

    /// Check a value; the error says what is wrong with it. Custom values
    /// pass: the mechanic's parse checks them (see [`Args::typed`]).
    pub fn check(&self, v: &ParamValue) -> Result<(), String> {
        let in_range = |x: i64, min: i64, max: i64| {
            if (min..=max).contains(&x) {
                Ok(())
            } else {
                Err(format!("{x} is out of range"))
            }
        };
        match (self, v) {
            (ParamKind::Int { min, max }, ParamValue::Int(x)) => in_range(*x, *min, *max),
            (ParamKind::IntOrName { min, max, .. }, ParamValue::Int(x)) => in_range(*x, *min, *max),
            (ParamKind::Bool, ParamValue::Bool(_)) => Ok(()),
            (ParamKind::Custom { .. }, _) => Ok(()),
            (ParamKind::Choice(names) | ParamKind::Ordered(names), ParamValue::Str(s)) => {
                if names.contains(&s.as_str()) {
                    Ok(())
                } else {
                    Err(format!(
                        "\"{s}\" is not a known name{}",
                        suggest(s, names.iter().copied())
                    ))
                }
            }
            (ParamKind::IntOrName { names, .. }, ParamValue::Str(s)) => {
                if names.iter().any(|(n, _)| n == s) {
                    Ok(())
                } else {
                    Err(format!("\"{s}\" is not a known name"))
                }
            }
            (_, other) => Err(format!("{} is the wrong type", other.type_name())),
        }
    }
}

fn int_range(min: i64, max: i64) -> String {
    if max == i64::MAX {
        format!("an integer ≥ {min}")
    } else {
        format!("an integer {min}..={max}")
    }
}

fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One declared parameter of a mechanic.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// Dotted path as written in scenarios, e.g. `actor.trait`.
    pub path: &'static str,
    pub kind: ParamKind,
    pub default: Lit,
    pub doc: &'static str,
}

/// Explicitly set parameter values, by dotted path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamMap(BTreeMap<String, ParamValue>);

impl ParamMap {
    /// An empty map: every parameter at its default.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `path` to `value`, replacing any earlier value.
    pub fn set(&mut self, path: impl Into<String>, value: ParamValue) {
        self.0.insert(path.into(), value);
    }

    /// Unset `path` (it takes its default again).
    pub fn remove(&mut self, path: &str) {
        self.0.remove(path);
    }

    /// The explicit value of `path`, if set.
    pub fn get(&self, path: &str) -> Option<&ParamValue> {
        self.0.get(path)
    }

    /// A map of the given `(path, value)` pairs.
    pub fn from_pairs(pairs: &[(&str, ParamValue)]) -> Self {
        let mut m = ParamMap::new();
        for (k, v) in pairs {
            m.set(*k, v.clone());
        }
        m
    }

    /// Explicit values in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// A bad parameter: which key, and what is wrong and allowed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("`{key}`: {message}")]
pub struct ParamError {
    pub key: String,
    pub message: String,
}

impl ParamError {
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        ParamError {
            key: key.into(),
            message: message.into(),
        }
    }
}

/// Every declared key, comma-separated, for messages that list what a
/// mechanic (or a table of its) takes.
pub fn paths(specs: &[ParamSpec]) -> String {
    specs.iter().map(|s| s.path).collect::<Vec<_>>().join(", ")
}

/// Whether the declared path `spec` covers `path`: the same path, or a
/// pattern `prefix.*` and `path` is `prefix.` plus one name (`vars.*`
/// covers `vars.n`, for mechanics whose keys are the user's own names).
pub fn covers(spec: &str, path: &str) -> bool {
    match spec.strip_suffix(".*") {
        Some(prefix) => path
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|name| !name.is_empty() && !name.contains('.')),
        None => spec == path,
    }
}

/// Parameter values checked against their declared kinds: explicit values
/// first, then the declared defaults. A mechanic reads them into its
/// params struct with [`Args::typed`].
pub struct Args<'a> {
    specs: &'static [ParamSpec],
    set: &'a ParamMap,
}

impl<'a> Args<'a> {
    /// Check every explicit value against `specs` (unknown keys included;
    /// custom values are checked when the mechanic parses them). A spec
    /// `prefix.*` covers `prefix.NAME` for any one name (read into the
    /// params struct as a table of the names).
    pub fn new(specs: &'static [ParamSpec], set: &'a ParamMap) -> Result<Self, ParamError> {
        for (path, value) in set.iter() {
            let spec = specs.iter().find(|s| covers(s.path, path)).ok_or_else(|| {
                ParamError::new(
                    path,
                    format!(
                        "is not a parameter of this mechanic{}",
                        suggest_param(path, specs)
                    ),
                )
            })?;
            spec.kind.check(value).map_err(|why| {
                ParamError::new(path, format!("{why}; allowed: {}", spec.kind.allowed()))
            })?;
        }
        Ok(Args { specs, set })
    }

    fn spec(&self, path: &str) -> &'static ParamSpec {
        self.specs
            .iter()
            .find(|s| s.path == path)
            .unwrap_or_else(|| panic!("mechanic reads undeclared parameter `{path}`"))
    }

    /// The explicit values of a pattern parameter `prefix.*`, as
    /// `(NAME, value)` for each key `prefix.NAME`, in key order (the keys
    /// are the user's own names, so there are no defaults).
    fn named(&self, pattern: &str) -> impl Iterator<Item = (&'a str, &'a ParamValue)> {
        let spec = self.spec(pattern);
        let prefix = spec
            .path
            .strip_suffix('*')
            .unwrap_or_else(|| panic!("`{pattern}` is not a pattern `prefix.*`"));
        self.set
            .iter()
            .filter(|(path, _)| covers(spec.path, path))
            .map(move |(path, value)| (&path[prefix.len()..], value))
    }

    /// Whether the scenario set `path` explicitly.
    fn is_set(&self, path: &str) -> bool {
        self.set.get(path).is_some()
    }

    /// The value of `path`: explicit, else the default, else `None`.
    fn value(&self, path: &str) -> Option<ParamValue> {
        self.set
            .get(path)
            .cloned()
            .or_else(|| self.spec(path).default.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SPECS: &[ParamSpec] = &[
        ParamSpec {
            path: "a.n",
            kind: ParamKind::IntOrName {
                min: 1,
                max: 4,
                names: &[("low", 1), ("high", 4)],
            },
            default: Lit::Str("low"),
            doc: "",
        },
        ParamSpec {
            path: "b",
            kind: ParamKind::Bool,
            default: Lit::Bool(false),
            doc: "",
        },
    ];

    #[test]
    fn a_pattern_covers_one_name_under_its_prefix() {
        static VARS: [ParamSpec; 1] = [ParamSpec {
            path: "vars.*",
            kind: ParamKind::Int { min: 0, max: 9 },
            default: Lit::Absent,
            doc: "",
        }];
        let mut set = ParamMap::new();
        set.set("vars.n", ParamValue::Int(4));
        set.set("vars.m", ParamValue::Int(2));
        let args = Args::new(&VARS, &set).unwrap();
        let named: Vec<_> = args.named("vars.*").collect();
        assert_eq!(
            named,
            [("m", &ParamValue::Int(2)), ("n", &ParamValue::Int(4))]
        );
        // Checked against the pattern's kind; no name, or a dotted one, is
        // not covered.
        set.set("vars.n", ParamValue::Int(10));
        let err = Args::new(&VARS, &set).err().unwrap();
        assert_eq!(err.key, "vars.n");
        assert!(err.message.contains("10 is out of range"), "{err}");
        for path in ["vars.", "vars.a.b", "vars"] {
            let mut set = ParamMap::new();
            set.set(path, ParamValue::Int(1));
            let err = Args::new(&VARS, &set).err().unwrap();
            assert!(err.message.contains("is not a parameter"), "{path}: {err}");
        }
    }

    #[test]
    fn bad_values_name_key_and_allowed() {
        let mut set = ParamMap::new();
        set.set("a.n", ParamValue::Int(9));
        let err = Args::new(SPECS, &set).err().unwrap();
        assert_eq!(err.key, "a.n");
        assert!(err.message.contains("9 is out of range"), "{err}");
        assert!(err.message.contains("1..=4"), "{err}");
        let mut set = ParamMap::new();
        set.set("b", ParamValue::Int(1));
        let err = Args::new(SPECS, &set).err().unwrap();
        assert!(err.message.contains("wrong type"), "{err}");
    }
}
