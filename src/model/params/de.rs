//! Table-shaped parameter values (a scene's players, an explorer, a rolled
//! augment) read through serde: a mechanic declares the shape as structs
//! with `#[serde(deny_unknown_fields)]` and reads it with [`from_value`].
//! Errors say where inside the value the problem is, in the words of the
//! value's own keys: `player 1, statement 2: `luck`: 7 is out of range`.

use std::fmt;

use serde::de::value::StrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde::{Deserialize, Deserializer};

use super::ParamValue;
use super::suggest::suggest;

/// Read `value`, the value of the parameter or entry called `name`, as a
/// `T`. The error names the place inside `value` at fault; list items
/// are named after the key holding the list (`players` → `player 2`).
pub fn from_value<T: DeserializeOwned>(name: &str, value: &ParamValue) -> Result<T, String> {
    T::deserialize(ValueDe(value)).map_err(|e| e.render(name))
}

/// An integer in `MIN..=MAX` inside a table. Its default is 0, for the
/// optional fields whose range holds 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ParamValue")]
pub struct InRange<const MIN: i64, const MAX: i64>(pub i64);

impl<const MIN: i64, const MAX: i64> TryFrom<ParamValue> for InRange<MIN, MAX> {
    type Error = String;

    fn try_from(v: ParamValue) -> Result<Self, String> {
        match v {
            ParamValue::Int(i) if (MIN..=MAX).contains(&i) => Ok(InRange(i)),
            ParamValue::Int(i) => Err(format!("{i} is out of range {MIN}..={MAX}")),
            other => Err(format!(
                "{} is the wrong type; allowed: an integer {MIN}..={MAX}",
                other.type_name()
            )),
        }
    }
}

/// One step into a value.
#[derive(Debug)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// What went wrong, and where, innermost step last.
#[derive(Debug)]
pub struct Error {
    path: Vec<Step>,
    message: String,
    /// The field a struct lacked, when that is the error.
    missing: Option<&'static str>,
}

impl Error {
    /// The same error inside the top-level key `key`.
    pub(super) fn within_key(self, key: &str) -> Error {
        self.within(Step::Key(key.to_string()))
    }

    /// The top-level key at fault, if any, and the error said from inside
    /// it (`player 2: `luck`: …`); a missing key is "is required".
    pub(super) fn split_key(mut self) -> (Option<String>, String) {
        if let (Some(field), true) = (self.missing, self.path.is_empty()) {
            return (Some(field.to_string()), "is required".to_string());
        }
        match self.path.first() {
            Some(Step::Key(k)) => {
                let key = k.clone();
                self.path.remove(0);
                let why = self.render(&key);
                (Some(key), why)
            }
            _ => (None, self.render("")),
        }
    }

    /// The same error one step further out.
    fn within(mut self, step: Step) -> Error {
        self.path.insert(0, step);
        self
    }

    /// `player 1, statement 2: `luck`: message`, the root being `name`.
    fn render(&self, name: &str) -> String {
        let mut out = String::new();
        let mut list = Some(name);
        for (i, step) in self.path.iter().enumerate() {
            match step {
                Step::Index(n) => {
                    if !out.is_empty() {
                        out.push_str(", ");
                    }
                    match list.take() {
                        Some(key) => {
                            let one = key.strip_suffix('s').unwrap_or(key);
                            out.push_str(&format!("{one} {}", n + 1));
                        }
                        None => out.push_str(&format!("item {}", n + 1)),
                    }
                }
                Step::Key(k) if matches!(self.path.get(i + 1), Some(Step::Index(_))) => {
                    list = Some(k);
                }
                Step::Key(k) => {
                    if !out.is_empty() {
                        out.push_str(": ");
                    }
                    out.push_str(&format!("`{k}`"));
                    list = None;
                }
            }
        }
        if out.is_empty() {
            self.message.clone()
        } else {
            format!("{out}: {}", self.message)
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(""))
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error {
            path: Vec::new(),
            message: msg.to_string(),
            missing: None,
        }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::custom(format!(
            "unknown key `{field}`{}; allowed: {}",
            suggest(field, expected.iter().copied()),
            expected.join(", ")
        ))
    }

    fn missing_field(field: &'static str) -> Self {
        Error {
            missing: Some(field),
            ..Self::custom(format!("`{field}` is missing"))
        }
    }
}

/// A parameter value as a serde deserializer.
pub(super) struct ValueDe<'a>(pub(super) &'a ParamValue);

impl<'de> Deserializer<'de> for ValueDe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            ParamValue::Int(i) => visitor.visit_i64(*i),
            ParamValue::Float(x) => visitor.visit_f64(*x),
            ParamValue::Bool(b) => visitor.visit_bool(*b),
            ParamValue::Str(s) => visitor.visit_str(s),
            ParamValue::List(items) => {
                let mut seq = Seq {
                    items: items.iter(),
                    index: 0,
                };
                let value = visitor.visit_seq(&mut seq)?;
                match seq.items.len() {
                    0 => Ok(value),
                    left => Err(de::Error::invalid_length(seq.index + left, &"fewer items")),
                }
            }
            ParamValue::Table(entries) => visitor.visit_map(Map {
                entries: entries.iter(),
                value: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            ParamValue::Str(s) => {
                visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(s.as_str()))
            }
            _ => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// The items of a list, counted for error paths.
struct Seq<'a> {
    items: std::slice::Iter<'a, ParamValue>,
    index: usize,
}

impl<'de> SeqAccess<'de> for &mut Seq<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(ValueDe(item))
            .map(Some)
            .map_err(|e| e.within(Step::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The entries of a table.
struct Map<'a> {
    entries: std::slice::Iter<'a, (String, ParamValue)>,
    value: Option<&'a (String, ParamValue)>,
}

impl<'de> MapAccess<'de> for Map<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(entry);
        let key: StrDeserializer<'_, Error> = entry.0.as_str().into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = self.value.take().expect("a value follows its key");
        seed.deserialize(ValueDe(value))
            .map_err(|e| e.within(Step::Key(key.clone())))
    }
}

/// Any value, kept as it is (for fields read by a parse of their own:
/// `#[serde(try_from = "ParamValue")]`).
impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ParamValue, D::Error> {
        struct Any;

        impl<'de> Visitor<'de> for Any {
            type Value = ParamValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a parameter value")
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ParamValue, E> {
                Ok(ParamValue::Int(v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ParamValue, E> {
                i64::try_from(v)
                    .map(ParamValue::Int)
                    .map_err(|_| E::custom(format!("{v} is too large")))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ParamValue, E> {
                Ok(ParamValue::Float(v))
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<ParamValue, E> {
                Ok(ParamValue::Bool(v))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<ParamValue, E> {
                Ok(ParamValue::Str(v.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ParamValue, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(ParamValue::List(items))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamValue, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(ParamValue::Table(entries))
            }
        }

        d.deserialize_any(Any)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ParamValue::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Leaf {
        n: u8,
        #[serde(default)]
        flag: bool,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Branch {
        name: String,
        twigs: Vec<Leaf>,
        pair: Option<[i64; 2]>,
    }

    fn table(pairs: &[(&str, ParamValue)]) -> ParamValue {
        Table(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn branch(twigs: Vec<ParamValue>) -> ParamValue {
        table(&[("name", Str("b".into())), ("twigs", List(twigs))])
    }

    #[test]
    fn nested_tables_and_lists_read_into_structs() {
        let v = List(vec![branch(vec![
            table(&[("n", Int(3))]),
            table(&[("n", Int(4)), ("flag", Bool(true))]),
        ])]);
        let got: Vec<Branch> = from_value("limbs", &v).unwrap();
        assert_eq!(
            got,
            [Branch {
                name: "b".into(),
                twigs: vec![Leaf { n: 3, flag: false }, Leaf { n: 4, flag: true }],
                pair: None,
            }]
        );
    }

    #[test]
    fn errors_say_where_in_the_words_of_the_keys() {
        let read = |v: ParamValue| from_value::<Vec<Branch>>("limbs", &v).unwrap_err();
        let e = read(List(vec![
            branch(vec![table(&[("n", Int(1))])]),
            branch(vec![table(&[("n", Int(1)), ("flg", Bool(true))])]),
        ]));
        assert_eq!(
            e,
            "limb 2, twig 1: unknown key `flg` (did you mean `flag`?); allowed: n, flag"
        );
        let e = read(List(vec![branch(vec![table(&[("flag", Bool(true))])])]));
        assert_eq!(e, "limb 1, twig 1: `n` is missing");
        let e = read(List(vec![branch(vec![table(&[("n", Int(300))])])]));
        assert!(e.starts_with("limb 1, twig 1: `n`: "), "{e}");
        let mut b = branch(vec![]);
        if let Table(entries) = &mut b {
            entries.push(("pair".into(), List(vec![Int(1), Int(2), Int(3)])));
        }
        let e = read(List(vec![b]));
        assert!(e.starts_with("limb 1: `pair`: invalid length 3"), "{e}");
    }

    #[test]
    fn ranges_are_checked() {
        assert_eq!(
            from_value::<InRange<-1, 1>>("support", &Int(-1)),
            Ok(InRange(-1))
        );
        assert_eq!(
            from_value::<InRange<-1, 1>>("support", &Int(2)).unwrap_err(),
            "2 is out of range -1..=1"
        );
        assert!(
            from_value::<InRange<-1, 1>>("support", &Str("1".into()))
                .unwrap_err()
                .contains("wrong type")
        );
    }

    #[test]
    fn any_value_reads_back_as_itself() {
        let v = table(&[
            ("a", List(vec![Int(-1), Float(0.5), Str("x".into())])),
            ("b", Bool(false)),
        ]);
        assert_eq!(from_value::<ParamValue>("v", &v).unwrap(), v);
    }
}
