//! Declared memory types (`type:` in `memory.yml`) and the one rule for which
//! values an entry of each type accepts.

use core::fmt;

use crate::format::write_py_repr;
use crate::value::{MAX_VALUE_DEPTH, Value};

/// The declared type of a memory entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntryType {
    /// `any` (the default): every value.
    Any,
    /// `text` (or its alias `str`): a string.
    Text,
    /// `int`: a 64-bit integer.
    Int,
    /// `float`: a float; an integer written to it is stored as a float.
    Float,
    /// `bool`.
    Bool,
    /// `list`.
    List,
    /// `json`: any JSON value (no check).
    Json,
    /// `categorical`: one of the entry's `enum_values`.
    Categorical,
}

impl EntryType {
    /// Every type, as `memory.yml` spells it.
    pub const NAMES: &'static [&'static str] = &[
        "any",
        "text",
        "int",
        "float",
        "bool",
        "list",
        "json",
        "categorical",
    ];

    /// The type named `name` in `memory.yml` (`str` is the reference
    /// engine's spelling of `text` in one bundled skill).
    pub fn from_name(name: &str) -> Option<EntryType> {
        Some(match name {
            "any" => EntryType::Any,
            "text" | "str" => EntryType::Text,
            "int" => EntryType::Int,
            "float" => EntryType::Float,
            "bool" => EntryType::Bool,
            "list" => EntryType::List,
            "json" => EntryType::Json,
            "categorical" => EntryType::Categorical,
            _ => return None,
        })
    }

    /// The name as `memory.yml` spells it.
    pub fn name(self) -> &'static str {
        match self {
            EntryType::Any => "any",
            EntryType::Text => "text",
            EntryType::Int => "int",
            EntryType::Float => "float",
            EntryType::Bool => "bool",
            EntryType::List => "list",
            EntryType::Json => "json",
            EntryType::Categorical => "categorical",
        }
    }

    /// The value an entry of this type stores for `value`, or why it is
    /// refused. `None` is accepted by every type (it means unset). An `int`
    /// written to a `float` entry becomes that float when it is exact
    /// (|i| <= 2^53); nothing else is converted.
    pub fn accept<S: AsRef<str>>(self, value: Value, values: &[S]) -> Result<Value, Value> {
        const EXACT: i64 = 1 << 53;
        let ok = match (self, &value) {
            (_, Value::None) | (EntryType::Any | EntryType::Json, _) => true,
            (EntryType::Text, Value::Str(_))
            | (EntryType::Int, Value::Int(_))
            | (EntryType::Float, Value::Float(_))
            | (EntryType::Bool, Value::Bool(_))
            | (EntryType::List, Value::List(_)) => true,
            (EntryType::Float, Value::Int(i)) if (-EXACT..=EXACT).contains(i) => {
                return Ok(Value::Float(*i as f64));
            }
            (EntryType::Categorical, Value::Str(s)) => {
                values.is_empty() || values.iter().any(|v| v.as_ref() == s)
            }
            _ => false,
        };
        if ok { Ok(value) } else { Err(value) }
    }
}

impl fmt::Display for EntryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a value could not be written to memory. Nothing was stored.
#[derive(Clone, Debug)]
pub enum SetError {
    /// No `memory.yml` of the agent declares `namespace.name`.
    Undeclared {
        /// The namespace asked for.
        namespace: String,
        /// The entry asked for.
        name: String,
    },
    /// The value nests lists and dicts deeper than [`MAX_VALUE_DEPTH`].
    TooDeep {
        /// The entry's namespace.
        namespace: String,
        /// The entry.
        name: String,
    },
    /// The value does not fit the entry's declared type.
    WrongType {
        /// The entry's namespace.
        namespace: String,
        /// The entry.
        name: String,
        /// Its declared type.
        declared: EntryType,
        /// The accepted values of a categorical entry.
        values: Vec<String>,
        /// The value refused.
        value: Value,
    },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::Undeclared { namespace, name } => write!(
                f,
                "memory entry `{namespace}.{name}` is not declared in any memory.yml"
            ),
            SetError::TooDeep { namespace, name } => write!(
                f,
                "the value for memory entry `{namespace}.{name}` nests lists and dicts more than {MAX_VALUE_DEPTH} levels deep"
            ),
            SetError::WrongType {
                namespace,
                name,
                declared,
                values,
                value,
            } => {
                write!(
                    f,
                    "memory entry `{namespace}.{name}` is declared `{declared}`; refused "
                )?;
                write_py_repr(f, value.as_ref())?;
                write!(f, " ({})", value.as_ref().type_name())?;
                if *declared == EntryType::Categorical {
                    write!(f, ", which is not one of: {}", values.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SetError {}

/// A text that is not one of a categorical entry's values (from a
/// generated enum's `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// The text given.
    pub text: String,
    /// The entry's values.
    pub expected: &'static [&'static str],
}

impl UnknownValue {
    /// `text` is none of `expected`.
    pub fn new(text: &str, expected: &'static [&'static str]) -> Self {
        UnknownValue {
            text: text.to_owned(),
            expected,
        }
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not one of: {}",
            self.text,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownValue {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_accepts_its_values_and_none() {
        let none: [&str; 0] = [];
        assert!(EntryType::Int.accept(Value::Int(3), &none).is_ok());
        assert!(EntryType::Int.accept(Value::from("3"), &none).is_err());
        assert!(EntryType::Int.accept(Value::Float(3.0), &none).is_err());
        assert!(EntryType::Int.accept(Value::Bool(true), &none).is_err());
        assert!(matches!(
            EntryType::Float.accept(Value::Int(7), &none),
            Ok(Value::Float(f)) if f == 7.0
        ));
        assert!(
            EntryType::Float
                .accept(Value::Int(i64::MAX), &none)
                .is_err()
        );
        assert!(EntryType::Text.accept(Value::Int(1), &none).is_err());
        assert!(EntryType::Bool.accept(Value::Int(1), &none).is_err());
        assert!(EntryType::List.accept(Value::List(vec![]), &none).is_ok());
        assert!(EntryType::Json.accept(Value::Int(1), &none).is_ok());
        for ty in EntryType::NAMES {
            let ty = EntryType::from_name(ty).unwrap();
            assert!(ty.accept(Value::None, &none).is_ok(), "{ty}");
        }
        let values = ["lost", "stolen"];
        assert!(
            EntryType::Categorical
                .accept(Value::from("lost"), &values)
                .is_ok()
        );
        assert!(
            EntryType::Categorical
                .accept(Value::from("Lost"), &values)
                .is_err()
        );
    }

    #[test]
    fn errors_name_the_entry_its_type_and_the_value() {
        let e = SetError::WrongType {
            namespace: "s".into(),
            name: "reason".into(),
            declared: EntryType::Categorical,
            values: vec!["lost".into(), "stolen".into()],
            value: Value::from("huge"),
        };
        assert_eq!(
            e.to_string(),
            "memory entry `s.reason` is declared `categorical`; refused 'huge' (str), which is not one of: lost, stolen"
        );
    }
}
