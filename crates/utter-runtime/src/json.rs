//! serde support (feature `serde`): [`Value`] and [`Delivery`] serialize,
//! [`Value`] deserializes strictly (duplicate keys and integers outside 64
//! bits are errors, not silent last-wins or rounding), and a memory document
//! `{"<namespace>": {"<entry>": value}}` becomes the assignments to make.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Delivery, MAX_VALUE_DEPTH, Value};

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::None => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(f) => s.serialize_f64(*f),
            Value::Str(t) => s.serialize_str(t),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(pairs) => {
                let mut map = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl Serialize for Delivery<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut d = s.serialize_struct("Delivery", 5)?;
        d.serialize_field("text", self.text.as_ref())?;
        d.serialize_field("response", self.response)?;
        d.serialize_field("variant", &self.variant)?;
        d.serialize_field("rephrase", &self.rephrase)?;
        d.serialize_field("fallback", &self.fallback)?;
        d.end()
    }
}

/// Deserializes a [`Value`] at nesting `depth`.
struct ValueSeed {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::None)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::None)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u).map(Value::Int).map_err(|_| {
            E::custom(format_args!(
                "the integer {u} does not fit the 64-bit ints memory holds"
            ))
        })
    }
    fn visit_i128<E: de::Error>(self, i: i128) -> Result<Value, E> {
        i64::try_from(i).map(Value::Int).map_err(|_| {
            E::custom(format_args!(
                "the integer {i} does not fit the 64-bit ints memory holds"
            ))
        })
    }
    fn visit_u128<E: de::Error>(self, u: u128) -> Result<Value, E> {
        self.visit_i128(i128::try_from(u).unwrap_or(i128::MAX))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Str(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let depth = self.nested::<A::Error>()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ValueSeed { depth })? {
            items.push(item);
        }
        Ok(Value::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let depth = self.nested::<A::Error>()?;
        let mut pairs: Vec<(String, Value)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            let value = map.next_value_seed(ValueSeed { depth })?;
            pairs.push((key, value));
        }
        Ok(Value::Map(pairs))
    }
}

impl ValueSeed {
    fn nested<E: de::Error>(&self) -> Result<usize, E> {
        if self.depth >= MAX_VALUE_DEPTH {
            return Err(E::custom(format_args!(
                "values nest deeper than {MAX_VALUE_DEPTH} levels"
            )));
        }
        Ok(self.depth + 1)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        ValueSeed { depth: 0 }.deserialize(d)
    }
}

impl Value {
    /// Any serializable value as a memory value (through `serde_json`).
    /// Integers outside 64 bits and maps with non-string keys are errors.
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<Value, serde_json::Error> {
        Value::deserialize(serde_json::to_value(value)?)
    }
}

/// One `namespace.entry = value` of a memory document.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryAssignment {
    pub namespace: String,
    pub entry: String,
    pub value: Value,
}

/// A memory document `{"<namespace>": {"<entry>": value}}` as JSON text:
/// the assignments in document order. Errors (malformed JSON, a duplicate
/// key at any level, an integer outside 64 bits, a namespace that is not an
/// object) carry the line and column (`Error::line`, `Error::column`).
pub fn memory_assignments(text: &str) -> Result<Vec<MemoryAssignment>, serde_json::Error> {
    let document = Value::deserialize(&mut serde_json::Deserializer::from_str(text))?;
    document_assignments(document).map_err(|message| {
        // A shape error has no position inside serde; point at the start.
        <serde_json::Error as de::Error>::custom(message)
    })
}

/// [`memory_assignments`] for a document already parsed by `serde_json`.
pub fn memory_assignments_from(
    document: serde_json::Value,
) -> Result<Vec<MemoryAssignment>, serde_json::Error> {
    let document = Value::deserialize(document)?;
    document_assignments(document).map_err(<serde_json::Error as de::Error>::custom)
}

fn document_assignments(document: Value) -> Result<Vec<MemoryAssignment>, String> {
    let Value::Map(namespaces) = document else {
        return Err(r#"a memory document is an object {"<namespace>": {"<entry>": value}}"#.into());
    };
    let mut out = Vec::new();
    for (namespace, entries) in namespaces {
        let Value::Map(entries) = entries else {
            return Err(format!(
                "namespace `{namespace}` must be an object of entries, {{\"<entry>\": value}}"
            ));
        };
        for (entry, value) in entries {
            out.push(MemoryAssignment {
                namespace: namespace.clone(),
                entry,
                value,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_json() {
        let value = Value::Map(vec![
            (
                "a".into(),
                Value::List(vec![Value::Int(1), Value::Float(2.5), Value::None]),
            ),
            ("b".into(), Value::Bool(true)),
            ("c".into(), Value::Str("é".into())),
        ]);
        let text = serde_json::to_string(&value).unwrap();
        assert_eq!(text, r#"{"a":[1,2.5,null],"b":true,"c":"é"}"#);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }

    #[test]
    fn strictness_is_kept() {
        let err = serde_json::from_str::<Value>("{\"a\": 1,\n \"a\": 2}").unwrap_err();
        assert!(err.to_string().contains("duplicate key `a`"), "{err}");
        assert_eq!(err.line(), 2);
        let err = serde_json::from_str::<Value>("[18446744073709551615]").unwrap_err();
        assert!(err.to_string().contains("does not fit"), "{err}");
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(serde_json::from_str::<Value>(&deep).is_err());
    }

    #[test]
    fn a_memory_document_becomes_assignments() {
        let got =
            memory_assignments(r#"{"project": {"name": "Ada"}, "s": {"n": 3, "l": [1]}}"#).unwrap();
        let triples: Vec<(&str, &str, &Value)> = got
            .iter()
            .map(|a| (a.namespace.as_str(), a.entry.as_str(), &a.value))
            .collect();
        assert_eq!(
            triples,
            [
                ("project", "name", &Value::from("Ada")),
                ("s", "n", &Value::Int(3)),
                ("s", "l", &Value::List(vec![Value::Int(1)]))
            ]
        );
        let err = memory_assignments(r#"{"s": {"n": 1, "n": 2}}"#).unwrap_err();
        assert!(err.to_string().contains("duplicate key `n`"), "{err}");
        assert!(memory_assignments(r#"{"s": 3}"#).is_err());
        assert!(memory_assignments("[1]").is_err());
        let doc = serde_json::json!({"s": {"flag": true}});
        assert_eq!(
            memory_assignments_from(doc).unwrap()[0].value,
            Value::Bool(true)
        );
    }

    #[test]
    fn any_serialize_value_and_deliveries() {
        #[derive(Serialize)]
        struct Card {
            label: &'static str,
            last4: u16,
        }
        let v = Value::from_serialize(&Card {
            label: "Visa",
            last4: 4242,
        })
        .unwrap();
        assert_eq!(
            v,
            Value::Map(vec![
                ("label".into(), "Visa".into()),
                ("last4".into(), Value::Int(4242))
            ])
        );
        assert!(Value::from_serialize(&u64::MAX).is_err());
        let d = Delivery::fallback("utter_x");
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"text":"utter_x","response":"utter_x","variant":null,"rephrase":false,"fallback":true}"#
        );
    }
}
