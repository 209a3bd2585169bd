//! A JSON Schema (draft-07) validator for exactly the keywords the SARIF
//! 2.1.0 schema and utter's own (docs/schemas) use; any other keyword fails
//! validation, so a schema that needs more cannot pass unnoticed. Small enough to keep the CLI's test
//! build free of a general validator's dependency tree.

use serde_json::{Map, Value};

/// Keywords that only annotate (draft-07: `format` is an annotation unless a
/// validator opts in; this one checks the `uri` forms loosely below).
const ANNOTATIONS: &[&str] = &[
    "description",
    "default",
    "title",
    "$id",
    "$schema",
    "definitions",
];

pub struct Validator<'s> {
    root: &'s Value,
}

impl<'s> Validator<'s> {
    pub fn new(root: &'s Value) -> Self {
        Validator { root }
    }

    /// Every violation, as `path: problem`.
    pub fn validate(&self, instance: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(self.root, instance, "$", &mut errors);
        errors
    }

    fn resolve(&self, reference: &str) -> &'s Value {
        let name = reference
            .strip_prefix("#/definitions/")
            .unwrap_or_else(|| panic!("unsupported $ref {reference}"));
        &self.root["definitions"][name]
    }

    fn check(&self, schema: &'s Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let Some(schema) = schema.as_object() else {
            if schema == &Value::Bool(false) {
                errors.push(format!("{at}: not allowed"));
            }
            return;
        };
        for (keyword, arg) in schema {
            match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) => {}
                "$ref" => self.check(self.resolve(arg.as_str().unwrap()), v, at, errors),
                "type" => {
                    let is = |name: &Value| match name.as_str().unwrap() {
                        "object" => v.is_object(),
                        "array" => v.is_array(),
                        "string" => v.is_string(),
                        "boolean" => v.is_boolean(),
                        "integer" => v.is_i64() || v.is_u64(),
                        "number" => v.is_number(),
                        "null" => v.is_null(),
                        other => panic!("unsupported type {other}"),
                    };
                    // One type, or a list of them (utter's schemas: `["string", "null"]`).
                    let ok = match arg.as_array() {
                        Some(names) => names.iter().any(is),
                        None => is(arg),
                    };
                    if !ok {
                        errors.push(format!("{at}: not of type {arg}"));
                    }
                }
                "properties" => {
                    if let Some(obj) = v.as_object() {
                        for (name, sub) in arg.as_object().unwrap() {
                            if let Some(value) = obj.get(name) {
                                self.check(sub, value, &format!("{at}.{name}"), errors);
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    if let Some(obj) = v.as_object() {
                        let known = schema.get("properties").and_then(Value::as_object);
                        for (name, value) in obj {
                            if !known.is_some_and(|k: &Map<String, Value>| k.contains_key(name)) {
                                self.check(arg, value, &format!("{at}.{name}"), errors);
                            }
                        }
                    }
                }
                "required" => {
                    if let Some(obj) = v.as_object() {
                        for name in arg.as_array().unwrap() {
                            if !obj.contains_key(name.as_str().unwrap()) {
                                errors.push(format!("{at}: missing required {name}"));
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(items) = v.as_array() {
                        for (i, item) in items.iter().enumerate() {
                            self.check(arg, item, &format!("{at}[{i}]"), errors);
                        }
                    }
                }
                "minItems" => {
                    if v.as_array()
                        .is_some_and(|a| (a.len() as u64) < arg.as_u64().unwrap())
                    {
                        errors.push(format!("{at}: fewer than {arg} items"));
                    }
                }
                "uniqueItems" => {
                    if arg == &Value::Bool(true)
                        && let Some(a) = v.as_array()
                        && a.iter().enumerate().any(|(i, x)| a[..i].contains(x))
                    {
                        errors.push(format!("{at}: items not unique"));
                    }
                }
                "minimum" => {
                    if v.as_f64().is_some_and(|n| n < arg.as_f64().unwrap()) {
                        errors.push(format!("{at}: below {arg}"));
                    }
                }
                "maximum" => {
                    if v.as_f64().is_some_and(|n| n > arg.as_f64().unwrap()) {
                        errors.push(format!("{at}: above {arg}"));
                    }
                }
                "enum" => {
                    if !arg.as_array().unwrap().contains(v) {
                        errors.push(format!("{at}: {v} not one of {arg}"));
                    }
                }
                "pattern" => {
                    if let Some(s) = v.as_str()
                        && !matches_pattern(arg.as_str().unwrap(), s)
                    {
                        errors.push(format!("{at}: {s:?} does not match {arg}"));
                    }
                }
                "format" => {
                    if let Some(s) = v.as_str()
                        && arg.as_str().unwrap().starts_with("uri")
                        && s.chars().any(|c| c.is_whitespace() || c.is_control())
                    {
                        errors.push(format!("{at}: {s:?} is no {arg}"));
                    }
                }
                "anyOf" | "oneOf" => {
                    let passing = arg
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|sub| {
                            let mut e = Vec::new();
                            self.check(sub, v, at, &mut e);
                            e.is_empty()
                        })
                        .count();
                    let ok = if keyword == "anyOf" {
                        passing >= 1
                    } else {
                        passing == 1
                    };
                    if !ok {
                        errors.push(format!("{at}: {keyword} matched {passing} alternatives"));
                    }
                }
                other => panic!("the validator does not know keyword {other}"),
            }
        }
    }
}

/// The four patterns of the SARIF schema, matched by hand.
fn matches_pattern(pattern: &str, s: &str) -> bool {
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    match pattern {
        "[0-9]+(\\.[0-9]+){3}" => s
            .split(|c: char| !c.is_ascii_digit() && c != '.')
            .any(|run| {
                let parts: Vec<&str> = run.split('.').collect();
                parts.windows(4).any(|w| w.iter().all(|p| !p.is_empty()))
            }),
        "[^/]+/.+" => s
            .split_once('/')
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty()),
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-5][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$" =>
        {
            let parts: Vec<&str> = s.split('-').collect();
            parts.len() == 5
                && hex(parts[0], 8)
                && hex(parts[1], 4)
                && hex(parts[2], 4)
                && (b'1'..=b'5').contains(&parts[2].as_bytes()[0])
                && hex(parts[3], 4)
                && b"89abAB".contains(&parts[3].as_bytes()[0])
                && hex(parts[4], 12)
        }
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" => {
            s.len() >= 2 && s.as_bytes()[..2].iter().all(u8::is_ascii_alphabetic)
        }
        // utter's wording ids.
        "^[0-9a-f]{16}$" => {
            s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        }
        other => panic!("the validator does not know pattern {other}"),
    }
}
