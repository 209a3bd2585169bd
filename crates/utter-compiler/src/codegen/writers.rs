//! Writers of interpolated texts (straight-line code for the typed view):
//! one generic `fn` per *shape* (the sequence of literal pieces and of the
//! entries read), shared by every variant of that shape, each variant's
//! literals handed over as data. A function per variant was most of the
//! type and borrow checking of a large agent; texts of one shape are the
//! common case (`"... {name} ..."` across a project).

use std::collections::BTreeMap;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::selections::users_doc;
use super::{idents, lit_str};
use utter::{Entry, Piece};

/// The writer functions made so far, by shape.
#[derive(Default)]
pub struct Shapes {
    /// A shape's body (as text) -> its number.
    numbers: BTreeMap<String, usize>,
    /// The writer function of each shape, by number, with the first
    /// variant that uses it and how many do.
    functions: Vec<(TokenStream, String, usize)>,
}

impl Shapes {
    /// How many shapes of text (writer `fn`s) there are so far.
    pub fn len(&self) -> usize {
        self.functions.len()
    }

    /// The `writer` field of a text with placeholders, `Some((shape,
    /// texts))`, making its shape's function if it is the first of it;
    /// `user` describes the variant for a doc comment.
    pub fn writer(
        &mut self,
        pieces: &[Piece<String, Vec<usize>>],
        entries: &[Entry<String, Vec<String>>],
        user: &str,
    ) -> TokenStream {
        let (body, texts) = shape_body(pieces, entries);
        let next = self.numbers.len();
        let number = *self.numbers.entry(body.to_string()).or_insert(next);
        if let Some((_, _, users)) = self.functions.get_mut(number) {
            *users += 1;
        } else {
            let write = idents::writer_fn(number);
            let bound = (0..texts.len()).map(idents::writer_text);
            // Instantiated for the typed view only (the entry points over any
            // reader render piece by piece). The texts always have this
            // length: both are made here.
            let function = quote! {
                fn #write<R: Reader>(r: &R, out: &mut Out<'_>, texts: &'static [&'static str]) {
                    let &[#(#bound),*] = texts else { return };
                    #body
                }
            };
            self.functions.push((function, user.to_owned(), 1));
        }
        let number = Literal::usize_unsuffixed(number);
        let texts = texts.iter().map(|t| lit_str(t));
        quote!(Some((#number, &[#(#texts),*])))
    }

    /// The writer functions, in order of first use, and `writer`, which
    /// maps a shape's number to its function.
    pub fn into_items(self) -> TokenStream {
        let count = self.functions.len();
        let functions = self.functions.into_iter().map(|(function, first, users)| {
            let doc = users_doc("The writer", &first, users, "variant");
            quote!(#[doc = #doc] #function)
        });
        let arms = (0..count).map(|number| {
            let write = idents::writer_fn(number);
            let number = Literal::usize_unsuffixed(number);
            quote!(#number => Some(#write::<R>),)
        });
        // No `match` without arms: lint-worthy in the user's crate.
        let body = if count == 0 {
            quote!(let _ = shape; None)
        } else {
            quote!(match shape { #(#arms)* _ => None })
        };
        quote! {
            #(#functions)*

            /// The generated writer of shape number `shape`.
            #[inline]
            fn writer<R: Reader>(shape: usize) -> Option<WriteFn<R>> {
                #body
            }
        }
    }
}

/// What a placeholder reading entry `id` writes when it is unset: the
/// entry's `unset_text`, else the placeholder as written.
fn fallback<'a>(entries: &'a [Entry<String, Vec<String>>], id: usize, raw: &'a str) -> &'a str {
    entries
        .get(id)
        .and_then(|e| e.unset_text.as_deref())
        .unwrap_or(raw)
}

/// The body of a shape's writer: straight-line `push_str` and `put` calls
/// into `out` (see `utter_runtime::writer`), each placeholder read through
/// the reader once (a `{name}` placeholder picks its entry by the active
/// skill, as `render` does: the skill's own entry of that name, else the
/// project's); and the texts it writes, in the order of their bindings
/// `t0`, `t1`, ...
fn shape_body(
    pieces: &[Piece<String, Vec<usize>>],
    entries: &[Entry<String, Vec<String>>],
) -> (TokenStream, Vec<String>) {
    let mut texts = Texts::default();
    let mut statements = Vec::new();
    for piece in pieces {
        statements.push(match piece {
            Piece::Text(literal) => {
                let write = texts.unread(literal);
                quote!(#write;)
            }
            Piece::Session { entry, raw } => {
                let write = match entries.get(*entry) {
                    Some(_) => texts.read(entries, *entry, raw),
                    None => texts.unread(raw),
                };
                quote!(#write;)
            }
            Piece::Bare { candidates, raw } => {
                let named = |id: &usize| entries.get(*id).map(|e| (*id, e.namespace.as_str()));
                let project = candidates
                    .iter()
                    .filter_map(named)
                    .find(|(_, ns)| *ns == "project");
                let arms: Vec<TokenStream> = candidates
                    .iter()
                    .filter_map(named)
                    .filter(|(_, ns)| *ns != "project")
                    .map(|(id, ns)| {
                        // The namespace is part of the shape, as the entry is.
                        let ns = lit_str(ns);
                        let read = texts.read(entries, id, raw);
                        quote!(Some(#ns) => #read,)
                    })
                    .collect();
                let otherwise = match project {
                    Some((id, _)) => texts.read(entries, id, raw),
                    None => texts.unread(raw),
                };
                if arms.is_empty() {
                    quote!(#otherwise;)
                } else {
                    // A `match` statement: a `;` after it is lint-worthy.
                    quote!(match r.skill_id() { #(#arms)* _ => #otherwise })
                }
            }
        });
    }
    (quote!(#(#statements)*), texts.0)
}

/// The longest literal piece written by the shape itself rather than
/// handed over as data.
const SHORT_TEXT: usize = 16;

/// The texts of a shape's writer, each bound to `t{n}`.
#[derive(Default)]
struct Texts(Vec<String>);

impl Texts {
    /// The binding of `text`, the next one.
    fn bind(&mut self, text: &str) -> proc_macro2::Ident {
        let bound = idents::writer_text(self.0.len());
        self.0.push(text.to_owned());
        bound
    }

    /// Writes `text` as it is: a short text in the shape itself (a copy of
    /// known length is a few moves, of unknown length a call to `memcpy`:
    /// 120 more instructions for a text with four short pieces), a longer
    /// one as data.
    fn unread(&mut self, text: &str) -> TokenStream {
        if text.len() <= SHORT_TEXT {
            let text = lit_str(text);
            return quote!(out.push_str(#text));
        }
        let bound = self.bind(text);
        quote!(out.push_str(#bound))
    }

    /// Writes the value of entry `id`, or its fallback when unset.
    fn read(
        &mut self,
        entries: &[Entry<String, Vec<String>>],
        id: usize,
        raw: &str,
    ) -> TokenStream {
        let entry = idents::entry_const(id);
        let fallback = self.bind(fallback(entries, id, raw));
        quote!(put(out, r.value(&#entry), #fallback))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utter::{EntryType, Visibility};

    fn entries() -> Vec<Entry<String, Vec<String>>> {
        ["card", "fee"]
            .iter()
            .enumerate()
            .map(|(id, name)| Entry {
                id,
                namespace: "project".to_owned(),
                name: (*name).to_owned(),
                visibility: Visibility::Project,
                unset_text: None,
                ty: EntryType::Any,
                values: Vec::new(),
                pii: false,
            })
            .collect()
    }

    /// `<text>{session.project.<entry>}<tail>`.
    fn text(literal: &str, entry: usize, tail: &str) -> Vec<Piece<String, Vec<usize>>> {
        vec![
            Piece::Text(literal.to_owned()),
            Piece::Session {
                entry,
                raw: format!("{{e{entry}}}"),
            },
            Piece::Text(tail.to_owned()),
        ]
    }

    #[test]
    fn texts_of_one_shape_share_a_writer_and_differ_in_data() {
        let entries = entries();
        let mut shapes = Shapes::default();
        let long = "A text longer than sixteen bytes: ";
        let first = shapes
            .writer(&text(long, 0, "."), &entries, "`a`")
            .to_string();
        let second = shapes
            .writer(
                &text("Another long text, same shape: ", 0, "."),
                &entries,
                "`d`",
            )
            .to_string();
        assert_eq!(shapes.functions.len(), 1);
        assert!(first.starts_with("Some ((0 ,"), "{first}");
        assert!(second.starts_with("Some ((0 ,"), "{second}");
        assert!(second.contains("Another long text"), "{second}");
        // Another entry, or another short literal: another shape.
        let other_entry = shapes
            .writer(&text(long, 1, "."), &entries, "`b`")
            .to_string();
        assert!(other_entry.starts_with("Some ((1 ,"), "{other_entry}");
        let other_short = shapes
            .writer(&text(long, 0, "!"), &entries, "`c`")
            .to_string();
        assert!(other_short.starts_with("Some ((2 ,"), "{other_short}");
        assert_eq!(shapes.functions.len(), 3);
        // The writer maps every shape's number to its function; each
        // documents who uses it.
        let items = shapes.into_items().to_string();
        assert!(
            items.contains("\" The writer of `a` and one other variant.\""),
            "{items}"
        );
        for n in 0..3 {
            assert!(
                items.contains(&format!("{n} => Some (w{n} :: < R >)")),
                "{items}"
            );
        }
    }

    #[test]
    fn no_shapes_make_a_writer_without_a_match() {
        let items = Shapes::default().into_items().to_string();
        assert!(!items.contains("match"), "{items}");
    }
}
