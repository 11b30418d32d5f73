//! A mechanic's parameters read once into one typed struct.
//!
//! A mechanic declares its parameters twice in form but once in fact: the
//! [`ParamSpec`] table (kinds, ranges, defaults, docs: what help, errors
//! and the workbench show) and a `#[derive(Deserialize)]` struct with one
//! field per declared path (what its builder reads). [`Args::typed`] fills
//! the struct from the checked values, defaults included, so the builder
//! reads fields instead of string keys; [`fields_of`] lists a struct's
//! fields, and the registry's test fails when a spec has no field or a
//! field no spec.
//!
//! How the struct is written:
//! - one field per path, `#[serde(rename = "actor.trait")]` where the
//!   path is dotted; `#[serde(deny_unknown_fields)]` on the struct;
//! - integers as any integer type, booleans as `bool`, names as the
//!   [`Choice`](super::Choice) enum they stand for, a name standing for an
//!   integer ([`ParamKind::IntOrName`]) as the integer;
//! - a value the mechanic parses itself through [`parse_value`] (or kept
//!   whole as a [`ParamValue`] when its parse needs other fields);
//! - a path with no default as an `Option` (with `#[serde(default)]`);
//! - a pattern path `prefix.*` as a table of the named values;
//! - [`Given<T>`] where the builder must know whether the scenario set the
//!   key or its default stands (a setting that only means something
//!   beside another).

use std::fmt;

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::de::{Error, ValueDe};
use super::{Args, ParamError, ParamKind, ParamSpec, ParamValue};

/// A parameter's value and whether the scenario set it (rather than its
/// default standing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Given<T> {
    pub value: T,
    /// True when the scenario (or the sweep) gave the key a value.
    pub given: bool,
}

/// The struct name [`Given`] asks for: the one value deserializer that
/// knows whether a key was set answers it with both halves.
const GIVEN: &str = "$oddsmith::Given";
const GIVEN_FIELDS: &[&str] = &["value", "given"];

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Both<T>(std::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for Both<T> {
            type Value = Given<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a parameter of a mechanic's typed parameters")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Given<T>, A::Error> {
                let _: StrKey = map
                    .next_key()?
                    .ok_or_else(|| de::Error::missing_field("value"))?;
                let value = map.next_value()?;
                let _: StrKey = map
                    .next_key()?
                    .ok_or_else(|| de::Error::missing_field("given"))?;
                let given = map.next_value()?;
                Ok(Given { value, given })
            }
        }

        d.deserialize_struct(GIVEN, GIVEN_FIELDS, Both(std::marker::PhantomData))
    }
}

/// A key read and ignored (the order of [`Given`]'s halves is fixed).
struct StrKey;

impl<'de> Deserialize<'de> for StrKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de::IgnoredAny::deserialize(d).map(|_| StrKey)
    }
}

/// A custom value read by the mechanic's own parse, for
/// `#[serde(deserialize_with = "…")]` adapters:
/// `fn pool<'de, D: Deserializer<'de>>(d: D) -> Result<Pool, D::Error> {
/// parse_value(d, pool_of) }`. The parse's error becomes the key's error.
pub fn parse_value<'de, D, T>(
    d: D,
    parse: impl FnOnce(&ParamValue) -> Result<T, String>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let value = ParamValue::deserialize(d)?;
    parse(&value).map_err(de::Error::custom)
}

/// [`parse_value`] for an `Option` field (a path with no default).
pub fn parse_some<'de, D, T>(
    d: D,
    parse: impl FnOnce(&ParamValue) -> Result<T, String>,
) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
{
    parse_value(d, parse).map(Some)
}

/// The fields of a struct `T` derives `Deserialize` for, as serde names
/// them (the paths, for a mechanic's typed parameters).
pub fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Fields(Option<&'static [&'static str]>);

    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0 = Some(fields);
            Err(de::Error::custom("fields listed"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }

    let mut fields = Fields(None);
    let _ = T::deserialize(&mut fields);
    fields.0.unwrap_or(&[])
}

/// One declared parameter as the typed struct reads it: its value
/// (explicit, else the default; names standing for integers resolved)
/// and whether it was set.
struct Entry {
    path: &'static str,
    value: ParamValue,
    given: bool,
}

impl Args<'_> {
    /// The checked values as the mechanic's typed parameters `T` (see the
    /// module doc for how `T` is written). Errors name the key, say what
    /// is wrong and what is allowed (unless the parse's message says it
    /// already).
    pub fn typed<T: DeserializeOwned>(&self) -> Result<T, ParamError> {
        let entries: Vec<Entry> = self
            .specs
            .iter()
            .filter_map(|spec| self.entry(spec))
            .collect();
        T::deserialize(Top(&entries)).map_err(|e| self.error(e))
    }

    fn entry(&self, spec: &'static ParamSpec) -> Option<Entry> {
        if spec.path.ends_with(".*") {
            let named: Vec<(String, ParamValue)> = self
                .named(spec.path)
                .map(|(name, value)| (name.to_string(), value.clone()))
                .collect();
            return Some(Entry {
                path: spec.path,
                given: !named.is_empty(),
                value: ParamValue::Table(named),
            });
        }
        let value = self.value(spec.path)?;
        let value = match (value, spec.kind) {
            (ParamValue::Str(s), ParamKind::IntOrName { names, .. }) => names
                .iter()
                .find(|(n, _)| *n == s)
                .map(|(_, v)| ParamValue::Int(*v))
                .unwrap_or(ParamValue::Str(s)),
            (value, _) => value,
        };
        Some(Entry {
            path: spec.path,
            value,
            given: self.is_set(spec.path),
        })
    }

    /// A deserialization error as the key's [`ParamError`]: the place
    /// inside the value said in the value's own words, and what the key
    /// allows unless the message says it already.
    fn error(&self, e: Error) -> ParamError {
        let (key, why) = e.split_key();
        let Some(key) = key else {
            return ParamError::new("", why);
        };
        let allowed = self
            .specs
            .iter()
            .find(|s| s.path == key)
            .map(|s| s.kind.allowed());
        match allowed {
            Some(allowed) if !why.contains("allowed:") => {
                ParamError::new(key, format!("{why}; allowed: {allowed}"))
            }
            _ => ParamError::new(key, why),
        }
    }
}

/// Every declared parameter, as one table.
struct Top<'a>(&'a [Entry]);

impl<'de> Deserializer<'de> for Top<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(Entries {
            entries: self.0.iter(),
            value: None,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct Entries<'a> {
    entries: std::slice::Iter<'a, Entry>,
    value: Option<&'a Entry>,
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(entry);
        let key: StrDeserializer<'_, Error> = entry.path.into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let entry = self.value.take().expect("a value follows its key");
        seed.deserialize(EntryDe(entry))
            .map_err(|e| e.within_key(entry.path))
    }
}

/// One declared parameter's value: as [`ValueDe`], except that it answers
/// [`Given`] with the value and whether it was set.
struct EntryDe<'a>(&'a Entry);

impl<'de> Deserializer<'de> for EntryDe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        ValueDe(&self.0.value).deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        ValueDe(&self.0.value).deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == GIVEN {
            visitor.visit_map(GivenMap {
                entry: self.0,
                step: 0,
            })
        } else {
            ValueDe(&self.0.value).deserialize_struct(name, fields, visitor)
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        ValueDe(&self.0.value).deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map
        identifier ignored_any
    }
}

/// [`Given`]'s two halves: the value, then whether it was set.
struct GivenMap<'a> {
    entry: &'a Entry,
    step: usize,
}

impl<'de> MapAccess<'de> for GivenMap<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(name) = GIVEN_FIELDS.get(self.step) else {
            return Ok(None);
        };
        let key: StrDeserializer<'_, Error> = name.into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        self.step += 1;
        if self.step == 1 {
            seed.deserialize(ValueDe(&self.entry.value))
        } else {
            seed.deserialize(self.entry.given.into_deserializer())
        }
    }
}

#[cfg(test)]
mod tests;
