//! Every name the code generator makes for an internal item, in one place.
//!
//! Internal items live in the private module `__utter_compiled`. Each kind
//! has its own prefix, and every numbered name is the prefix followed by
//! digits (and `_` digits): no prefix is another's prefix followed by a
//! digit, and no fixed name of the module (`ENTRIES`, `NAMES`, `select`,
//! ...) is a prefix followed by digits, so no two items can meet whatever
//! the YAML files hold. Names from the YAML files never name an internal
//! item: they become enum variants and fields (see [`crate::names`]).
//!
//! | kind | name |
//! | --- | --- |
//! | memory entry constant | `E{entry}` |
//! | static pieces of a variant's text | `T{response}_{variant}` |
//! | static variant records of a response | `V{response}` |
//! | selection `fn` of a shape of conditions | `s{shape}` |
//! | a selection's entry, text or int (local binding) | `e{n}`, `x{n}`, `k{n}` |
//! | part `n` of `select` (a large agent's) | `part{n}` |
//! | writer `fn` of a shape of interpolated texts | `w{shape}` |
//! | a writer's text (local binding) | `t{n}` |
//! | `when:` trigger condition of a skill | `when{skill}_{trigger}` |
//! | label of a chained comparison | `'chain{n}` |

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::format_ident;

use crate::names::variant_name;

/// A name spelled by [`crate::names`] as an identifier: `r#type` becomes
/// a raw identifier.
pub fn rust_ident(spelled: &str) -> Ident {
    match spelled.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => format_ident!("{}", spelled),
    }
}

/// The enum variant of a name from the YAML files (a response name, a
/// skill id): [`variant_name`] as an identifier.
pub fn yaml_variant(name: &str) -> Ident {
    rust_ident(&variant_name(name))
}

/// The constant of memory entry `entry` (its index in `ENTRIES`).
pub fn entry_const(entry: usize) -> Ident {
    format_ident!("E{}", entry)
}

/// The static pieces of variant `variant` of response `response`.
pub fn text_static(response: usize, variant: usize) -> Ident {
    format_ident!("T{}_{}", response, variant)
}

/// The static variant records of response `response`.
pub fn variants_static(response: usize) -> Ident {
    format_ident!("V{}", response)
}

/// The selection `fn` of shape `shape` of selection chains.
pub fn select_fn(shape: usize) -> Ident {
    format_ident!("s{}", shape)
}

/// Part `n` of `select`, when it is split.
pub fn select_part(n: usize) -> Ident {
    format_ident!("part{}", n)
}

/// Entry `n` a selection `fn` reads.
pub fn selection_entry(n: usize) -> Ident {
    format_ident!("e{}", n)
}

/// String literal `n` of a selection `fn`.
pub fn selection_text(n: usize) -> Ident {
    format_ident!("x{}", n)
}

/// Int literal `n` of a selection `fn`.
pub fn selection_int(n: usize) -> Ident {
    format_ident!("k{}", n)
}

/// The writer of the interpolated texts of shape `shape`.
pub fn writer_fn(shape: usize) -> Ident {
    format_ident!("w{}", shape)
}

/// Text `n` of a shape's writer (a literal piece or a fallback).
pub fn writer_text(n: usize) -> Ident {
    format_ident!("t{}", n)
}

/// The condition of `when:` trigger `trigger` of skill `skill`.
pub fn when_fn(skill: usize, trigger: usize) -> Ident {
    format_ident!("when{}_{}", skill, trigger)
}

/// The label of chained comparison `n` of one function (`'chain{n}`).
pub fn chain_label(n: usize) -> TokenStream {
    [
        TokenTree::Punct(Punct::new('\'', Spacing::Joint)),
        TokenTree::Ident(format_ident!("chain{}", n)),
    ]
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every internal name of a large agent is distinct from every other
    /// and from the module's fixed names.
    #[test]
    fn internal_names_never_meet() {
        let fixed = [
            "ENTRIES",
            "PROGRAM",
            "writer",
            "select",
            "deliver",
            "rendered",
            "deliver_view",
            "rendered_view",
            "Holds",
            "AGENT",
            "WORDING",
            "RELOAD",
            "NAMES",
            "NAME_SLOTS",
            "BUNDLED",
            "SKILL_IDS",
            "EXPLAIN",
            "EXPLAIN_PROGRAM",
            "Explained",
            "explain",
        ];
        let mut seen: HashSet<String> = fixed.iter().map(|s| (*s).to_owned()).collect();
        let mut insert = |name: String| assert!(seen.insert(name.clone()), "`{name}` twice");
        for a in 0..24 {
            insert(entry_const(a).to_string());
            insert(select_fn(a).to_string());
            insert(variants_static(a).to_string());
            insert(writer_fn(a).to_string());
            insert(writer_text(a).to_string());
            insert(selection_entry(a).to_string());
            insert(selection_text(a).to_string());
            insert(selection_int(a).to_string());
            insert(select_part(a).to_string());
            for b in 0..24 {
                insert(text_static(a, b).to_string());
                insert(when_fn(a, b).to_string());
            }
        }
    }
}
