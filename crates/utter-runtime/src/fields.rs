//! Typed memory fields as memory reads them, and dynamic values as the
//! typed fields hold them (what the generated `Memory` calls).

use crate::value::{Value, ValueRef};

/// A text field as memory reads it.
#[inline]
pub fn text(field: &Option<String>) -> ValueRef<'_> {
    field.as_deref().map_or(ValueRef::None, ValueRef::Str)
}

/// An int field as memory reads it.
#[inline]
pub fn int(field: &Option<i64>) -> ValueRef<'_> {
    field.map_or(ValueRef::None, ValueRef::Int)
}

/// A float field as memory reads it.
#[inline]
pub fn float(field: &Option<f64>) -> ValueRef<'_> {
    field.map_or(ValueRef::None, ValueRef::Float)
}

/// A bool field as memory reads it.
#[inline]
pub fn boolean(field: &Option<bool>) -> ValueRef<'_> {
    field.map_or(ValueRef::None, ValueRef::Bool)
}

/// A dynamically typed field (`any`, `json`, `list`) as memory reads it.
#[inline]
pub fn dynamic(field: &Option<Value>) -> ValueRef<'_> {
    field.as_ref().map_or(ValueRef::None, Value::as_ref)
}

/// A categorical field as memory reads it.
#[inline]
pub fn categorical(field: Option<&'static str>) -> ValueRef<'static> {
    field.map_or(ValueRef::None, ValueRef::Str)
}

/// A value already accepted by its entry's type, as the typed field
/// holds it (`None` unsets the field).
pub fn into_text(value: Value) -> Option<String> {
    match value {
        Value::Str(s) => Some(s),
        _ => None,
    }
}

/// See [`into_text`].
pub fn into_int(value: Value) -> Option<i64> {
    match value {
        Value::Int(i) => Some(i),
        _ => None,
    }
}

/// See [`into_text`].
pub fn into_float(value: Value) -> Option<f64> {
    match value {
        Value::Float(f) => Some(f),
        _ => None,
    }
}

/// See [`into_text`].
pub fn into_bool(value: Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(b),
        _ => None,
    }
}

/// See [`into_text`].
pub fn into_dynamic(value: Value) -> Option<Value> {
    match value {
        Value::None => None,
        other => Some(other),
    }
}
