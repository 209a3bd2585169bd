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
        let mut d = s.serialize_struct("Delivery", 6)?;
        d.serialize_field("text", self.text.as_ref())?;
        d.serialize_field("response", self.response)?;
        d.serialize_field("variant", &self.variant)?;
        d.serialize_field("rephrase", &self.rephrase)?;
        d.serialize_field("fallback", &self.fallback)?;
        d.serialize_field("wording_id", &self.wording.map(|id| id.to_string()))?;
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
                "the integer {u} is outside 64 bits, which memory ints hold"
            ))
        })
    }
    fn visit_i128<E: de::Error>(self, i: i128) -> Result<Value, E> {
        i64::try_from(i).map(Value::Int).map_err(|_| {
            E::custom(format_args!(
                "the integer {i} is outside 64 bits, which memory ints hold"
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
    /// A skill id, or `project`.
    pub namespace: String,
    /// The entry's name.
    pub entry: String,
    /// The value to set.
    pub value: Value,
}

/// A memory document `{"<namespace>": {"<entry>": value}}` as JSON text:
/// the assignments in document order. Errors (malformed JSON, a duplicate
/// key at any level, an integer outside 64 bits, a namespace that is not an
/// object) carry their line and column; [`parse_located`] also tells where
/// each entry's key is.
pub fn memory_assignments(text: &str) -> Result<Vec<MemoryAssignment>, JsonError> {
    Ok(parse_located(text)?
        .into_iter()
        .map(|a| MemoryAssignment {
            namespace: a.namespace,
            entry: a.entry,
            value: a.value,
        })
        .collect())
}

/// [`memory_assignments`] for a document already parsed by `serde_json`
/// (which reads an integer outside 64 bits as a float, so that check is
/// only as good as the document given).
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

/// A memory document error with its place: byte offset, 1-based line and
/// column (columns count characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The byte offset.
    pub offset: usize,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for JsonError {}

/// A typed memory read from a memory document, with the CLI's strictness:
/// `Memory::from_json(text)` on the generated `Memory` (bring the trait into
/// scope: `use utter::json::FromJson`). Malformed JSON, a duplicate key, an
/// integer outside 64 bits, an undeclared entry and a value of another type
/// than the declared one are errors with the line and column where they
/// are; nothing is silently dropped.
pub trait FromJson: crate::SetMemory + Default {
    /// The memory `text` describes (`{"<namespace>": {"<entry>": value}}`).
    fn from_json(text: &str) -> Result<Self, JsonError> {
        let mut memory = Self::default();
        memory.load_json(text)?;
        Ok(memory)
    }

    /// Sets every entry `text` names; on an error, the entries before it
    /// are set and the rest are not.
    fn load_json(&mut self, text: &str) -> Result<(), JsonError> {
        for a in parse_located(text)? {
            self.set_value(&a.namespace, &a.entry, a.value)
                .map_err(|e| JsonError {
                    offset: a.offset,
                    line: a.line,
                    column: a.column,
                    message: e.to_string(),
                })?;
        }
        Ok(())
    }
}

impl<M: crate::SetMemory + Default> FromJson for M {}

/// What to do with a value its entry's declared type does not take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedValues {
    /// The document is an error at that value's key (what a person
    /// rendering a response wants to hear).
    Stop,
    /// The value is not stored and is listed; the rest is read (what the
    /// reference engine does with a value a slot refuses).
    Collect,
}

/// What a memory document set that the memory did not store.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NotStored {
    /// Entries the registry does not declare: they cannot be read.
    pub undeclared: Vec<LocatedAssignment>,
    /// Values their entry's type does not take, at their key
    /// ([`RefusedValues::Collect`] only).
    pub refused: Vec<JsonError>,
}

/// Reads a memory document into a registry's [`crate::SlotMemory`].
impl<S: AsRef<str>, V> crate::SlotMemory<'_, S, V> {
    /// Sets every entry `text` names. A value of another type than the
    /// declared one is an error at its key (the entries before it are
    /// set). An entry the registry does not declare cannot be read: it is
    /// not stored, and is returned with its place for the caller to warn
    /// about.
    ///
    /// # Errors
    /// What [`parse_located`] refuses, and a value the entry's declared
    /// type does not take.
    pub fn load_document<T: AsRef<str>>(
        &mut self,
        text: &str,
    ) -> Result<Vec<LocatedAssignment>, JsonError>
    where
        V: AsRef<[T]>,
    {
        Ok(self.read_document(text, RefusedValues::Stop)?.undeclared)
    }

    /// Sets every entry `text` names; a refused value stops the reading or
    /// is listed, as `refused` says.
    ///
    /// # Errors
    /// What [`parse_located`] refuses; with [`RefusedValues::Stop`], a
    /// value the entry's declared type does not take.
    pub fn read_document<T: AsRef<str>>(
        &mut self,
        text: &str,
        refused: RefusedValues,
    ) -> Result<NotStored, JsonError>
    where
        V: AsRef<[T]>,
    {
        let mut not_stored = NotStored::default();
        for a in parse_located(text)? {
            match self.set(&a.namespace, &a.entry, a.value.clone()) {
                Ok(()) => {}
                Err(crate::SetError::Undeclared { .. }) => not_stored.undeclared.push(a),
                Err(error) => {
                    let at = JsonError {
                        offset: a.offset,
                        line: a.line,
                        column: a.column,
                        message: error.to_string(),
                    };
                    match refused {
                        RefusedValues::Stop => return Err(at),
                        RefusedValues::Collect => not_stored.refused.push(at),
                    }
                }
            }
        }
        Ok(not_stored)
    }
}

/// One assignment of a memory document, with where its entry's key is.
#[derive(Clone, Debug, PartialEq)]
pub struct LocatedAssignment {
    /// A skill id, or `project`.
    pub namespace: String,
    /// The entry's name.
    pub entry: String,
    /// The value to set.
    pub value: Value,
    /// Byte offset, 1-based line and column of the entry's key.
    pub offset: usize,
    /// See `offset`.
    pub line: usize,
    /// See `offset`.
    pub column: usize,
}

/// Line and character column (1-based) of byte `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

fn error_at(text: &str, offset: usize, message: impl Into<String>) -> JsonError {
    let (line, column) = line_col(text, offset);
    JsonError {
        offset,
        line,
        column,
        message: message.into(),
    }
}

/// The byte offset of serde_json's 1-based line and (byte) column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let mut offset = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Where the keys of a memory document are: for each namespace, its key's
/// offset and its value's, and each entry key's offset. One pass over the
/// text (strings skipped with their escapes), run on text serde_json accepted.
struct KeyPlaces {
    /// `(namespace, value offset)` in document order.
    namespaces: Vec<(String, usize)>,
    /// `(namespace index, entry, key offset)`.
    entries: Vec<(usize, String, usize)>,
    /// The first integer literal outside 64 bits (serde_json would read it
    /// as a float, losing digits): its offset and text.
    wide_int: Option<(usize, String)>,
}

fn key_places(text: &str) -> KeyPlaces {
    let bytes = text.as_bytes();
    let mut places = KeyPlaces {
        namespaces: Vec::new(),
        entries: Vec::new(),
        wide_int: None,
    };
    // Per open container: whether it is an object and expects a key next.
    let mut stack: Vec<(bool, bool)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(bytes.len());
                if let Some((true, true)) = stack.last().copied() {
                    let key: String = serde_json::from_str(&text[start..end]).unwrap_or_default();
                    match stack.len() {
                        1 => {
                            // The namespace's value starts after the colon.
                            let colon = text[end..].find(':').map_or(end, |c| end + c + 1);
                            let value =
                                colon + (text[colon..].len() - text[colon..].trim_start().len());
                            places.namespaces.push((key, value));
                        }
                        2 => {
                            let ns = places.namespaces.len().saturating_sub(1);
                            places.entries.push((ns, key, start));
                        }
                        _ => {}
                    }
                    if let Some(top) = stack.last_mut() {
                        top.1 = false;
                    }
                }
            }
            b'{' => stack.push((true, true)),
            b'[' => stack.push((false, false)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.1 = top.0;
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i + 1 < bytes.len()
                    && matches!(bytes[i + 1], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                let token = &text[start..=i];
                let integer = !token.contains(['.', 'e', 'E']);
                if integer && places.wide_int.is_none() && token.parse::<i64>().is_err() {
                    places.wide_int = Some((start, token.to_owned()));
                }
            }
            _ => {}
        }
        i += 1;
    }
    places
}

/// Reads a memory document `{"<namespace>": {"<entry>": value}}` (a leading
/// BOM allowed) into assignments that know where their keys are. Every
/// error has a place: malformed JSON, a duplicate key, an integer outside 64
/// bits, nesting deeper than [`MAX_VALUE_DEPTH`], a document or namespace
/// that is not an object, text after the document. Linear in the text.
pub fn parse_located(text: &str) -> Result<Vec<LocatedAssignment>, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    let document = Value::deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            // serde_json's message ends with " at line L column C".
            let message = e.to_string();
            let message = message
                .rsplit_once(" at line ")
                .map_or(message.as_str(), |(m, _)| m)
                .to_owned();
            error_at(
                text,
                offset_of(text, e.line().max(1), e.column().max(1)),
                message,
            )
        })?;
    let start = text.len() - text.trim_start().len();
    let Value::Map(namespaces) = document else {
        return Err(error_at(
            text,
            start,
            r#"memory must be a JSON object of namespaces, like {"project": {"entry": value}}"#,
        ));
    };
    let places = key_places(text);
    if let Some((at, token)) = &places.wide_int {
        return Err(error_at(
            text,
            *at,
            format!("the integer {token} is outside 64 bits, which memory ints hold"),
        ));
    }
    let mut out = Vec::new();
    // Keys come in text order: lines and columns are counted once, onwards.
    let mut cursor = (0usize, 1usize, 1usize);
    let mut locate = |offset: usize| {
        let (from, mut line, mut column) = cursor;
        if offset < from {
            let (l, c) = line_col(text, offset);
            return (l, c);
        }
        for c in text[from..offset].chars() {
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        cursor = (offset, line, column);
        (line, column)
    };
    // Entry keys in text order, as serde reads them: one pass for all.
    let mut keys = places.entries.iter();
    for (index, (namespace, entries)) in namespaces.into_iter().enumerate() {
        let Value::Map(entries) = entries else {
            let at = places.namespaces.get(index).map_or(start, |(_, v)| *v);
            return Err(error_at(
                text,
                at,
                format!(
                    "a namespace must map entry names to values (a JSON object); `{namespace}` does not"
                ),
            ));
        };
        for (entry, value) in entries {
            let offset = keys
                .find(|(ns, key, _)| *ns == index && *key == entry)
                .map_or(start, |(_, _, at)| *at);
            let (line, column) = locate(offset);
            out.push(LocatedAssignment {
                namespace: namespace.clone(),
                entry,
                value,
                offset,
                line,
                column,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
