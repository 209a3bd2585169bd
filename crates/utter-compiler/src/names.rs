//! How names from YAML files are spelled in generated Rust. Validation uses
//! the same functions to report names that would meet in Rust.

use crate::load::memory::MemoryDecl;
use crate::unicode::is_deceptive;

/// The `Response` enum variant for a response name: CamelCase of its ASCII
/// alphanumeric words; any other character is spelled as `U` + its hex code,
/// and a leading digit gets an `R` prefix. Distinct names can meet here
/// (`utter_a` and `utterA`); validation reports that as a finding.
pub fn variant_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper_next = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if upper_next {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper_next = false;
        } else if c == '_' || c == '-' || c == ' ' || c == '.' {
            upper_next = true;
        } else {
            out.push_str(&format!("U{:X}", c as u32));
            upper_next = true;
        }
    }
    if out.is_empty() {
        out.push_str("Empty");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'R');
    }
    if out == "Self" {
        out.push('_');
    }
    out
}

/// A snake-case field name for a memory entry or namespace: ASCII letters,
/// digits and `_` are kept; any other character is spelled `_u` + its hex
/// code; a leading digit gets a `_` prefix; Rust keywords become raw
/// identifiers (or get a trailing `_` where Rust has no raw form).
pub fn field_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            out.push_str(&format!("_u{:x}", c as u32));
        }
    }
    if out.is_empty() || out == "_" {
        out.push_str("empty_");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    match out.as_str() {
        "self" | "Self" | "super" | "crate" => out.push('_'),
        word if is_keyword(word) => out.insert_str(0, "r#"),
        _ => {}
    }
    out
}

/// How the typed memory of an agent is spelled: per namespace a field of
/// `Memory` and a struct; per entry a field, and for a categorical entry an
/// enum with one variant per value.
#[derive(Clone, Debug, Default)]
pub struct TypedNames {
    /// Per namespace with entries, in sorted order: its id, the field of
    /// `Memory` and the struct's name.
    pub namespaces: Vec<(String, String, String)>,
    /// Per declaration (in the order given): its field, and for a
    /// categorical entry its enum's name and variant names.
    pub entries: Vec<EntryNames>,
    /// Names that would meet in Rust: the declaration's index and why.
    pub collisions: Vec<(usize, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct EntryNames {
    pub field: String,
    pub enum_name: Option<String>,
    pub variants: Vec<String>,
}

/// Items every expansion defines, which no generated type may be named.
pub const RESERVED_TYPES: &[&str] = &["Response", "Skill", "Memory", "View"];

/// Names the typed memory of `decls` (sorted by namespace, then name).
pub fn typed_names(decls: &[MemoryDecl]) -> TypedNames {
    use std::collections::{HashMap, HashSet};
    let mut out = TypedNames::default();
    let mut types: HashSet<String> = RESERVED_TYPES.iter().map(|s| (*s).to_owned()).collect();
    for decl in decls {
        if out
            .namespaces
            .last()
            .is_none_or(|(ns, _, _)| *ns != decl.namespace)
        {
            let field = field_name(&decl.namespace);
            let struct_name = format!("{}Memory", variant_name(&decl.namespace));
            out.namespaces
                .push((decl.namespace.clone(), field, struct_name.clone()));
            types.insert(struct_name);
        }
    }
    // How many categorical entries share each enum name: a shared one is
    // prefixed by its namespace everywhere.
    let mut plain_count: HashMap<String, usize> = HashMap::new();
    for decl in decls
        .iter()
        .filter(|d| d.ty == utter::EntryType::Categorical)
    {
        *plain_count.entry(variant_name(&decl.name)).or_default() += 1;
    }
    let mut fields: HashSet<(&str, String)> = HashSet::new();
    for (index, decl) in decls.iter().enumerate() {
        let field = field_name(&decl.name);
        if !fields.insert((decl.namespace.as_str(), field.clone())) {
            out.collisions.push((
                index,
                format!("entry `{}` is spelled `{field}` in generated Rust, like another entry of `{}`; rename one of them", decl.name, decl.namespace),
            ));
        }
        let mut names = EntryNames {
            field,
            ..EntryNames::default()
        };
        if decl.ty == utter::EntryType::Categorical {
            let plain = variant_name(&decl.name);
            let prefixed = format!("{}{plain}", variant_name(&decl.namespace));
            let shared = plain_count.get(&plain).is_some_and(|&n| n > 1);
            let chosen = [plain, prefixed]
                .into_iter()
                .skip(usize::from(shared))
                .find(|n| !types.contains(n));
            match chosen {
                Some(name) => {
                    types.insert(name.clone());
                    names.enum_name = Some(name);
                }
                None => out.collisions.push((
                    index,
                    format!("the enum of categorical entry `{}.{}` would be named like another generated type; rename the entry", decl.namespace, decl.name),
                )),
            }
            let mut variants: HashSet<String> = HashSet::new();
            for value in &decl.values {
                let variant = variant_name(value);
                if !variants.insert(variant.clone()) {
                    out.collisions.push((
                        index,
                        format!("value `{value}` of entry `{}` is spelled `{variant}` in generated Rust, like another of its values; rename one of them", decl.name),
                    ));
                }
                names.variants.push(variant);
            }
        }
        out.entries.push(names);
    }
    out
}

/// Text for a doc comment: control, bidirectional and invisible characters
/// and line separators are shown escaped (they would reorder or break the
/// comment, or a terminal's line), backticks
/// become `'` (the text sits in a code span), and long texts are cut.
pub fn doc_text(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars * 2));
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            out.push('…');
            break;
        }
        match c {
            '`' => out.push('\''),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if crate::diagnostics::escape::is_unsafe(c) || is_deceptive(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// Rust's strict and reserved keywords (2024 edition).
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "as" | "break"
            | "const"
            | "continue"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_valid_identifiers() {
        assert_eq!(variant_name("utter_ask_shipping"), "UtterAskShipping");
        assert_eq!(variant_name("utter-x.y z"), "UtterXYZ");
        assert_eq!(variant_name("123go"), "R123go");
        assert_eq!(variant_name(""), "Empty");
        assert_eq!(variant_name("self"), "Self_");
        assert_eq!(variant_name("é\"#"), "UE9U22U23");
        assert_eq!(variant_name("r#type"), "RU23Type");
    }

    #[test]
    fn field_names_are_valid_identifiers() {
        assert_eq!(field_name("replacement_reason"), "replacement_reason");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("1st"), "_1st");
        assert_eq!(field_name("a-b"), "a_u2db");
        assert_eq!(field_name(""), "empty_");
        assert_eq!(field_name("é"), "_ue9");
    }
}
