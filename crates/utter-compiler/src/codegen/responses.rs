//! Responses as straight-line code: per response its texts (static arrays of
//! pieces) and its selection, an `if`/`else if` chain over its conditioned
//! variants in YAML order (first true wins, an evaluation error skips the
//! variant) ending in the default, made a `fn` generic over the reader and
//! shared by every response of its shape (see `selections`).

use crate::wording::Selection;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::conditions::{Conditions, fallible, int_equality};
use super::selections::Selections;
use super::strategy::COMPILED_SELECTIONS;
use super::writers::Shapes;
use super::{idents, lit_str};
use crate::condition::Expr;
use crate::lower::{Registry, Response};
use crate::names::doc_text;
use utter::{Entry, Piece, literal_text};

fn piece(p: &Piece<String, Vec<usize>>) -> TokenStream {
    match p {
        Piece::Text(t) => {
            let t = lit_str(t);
            quote!(Text(#t))
        }
        Piece::Session { entry, raw } => {
            let entry = Literal::usize_unsuffixed(*entry);
            let raw = lit_str(raw);
            quote!(Session { entry: #entry, raw: #raw })
        }
        Piece::Bare { candidates, raw } => {
            let candidates = candidates.iter().map(|c| Literal::usize_unsuffixed(*c));
            let raw = lit_str(raw);
            quote!(Bare { candidates: &[#(#candidates),*], raw: #raw })
        }
    }
}

/// The doc lines of a response's `Response` variant: its name, where it is
/// defined, and each variant's condition, text and rephrase flag.
pub fn response_doc(response: &Response) -> Vec<String> {
    let mut doc = vec![
        format!(" `{}`", doc_text(&response.name, 120)),
        String::new(),
        format!(
            " Defined in `{}:{}`.",
            doc_text(&response.file, 200),
            response.line
        ),
        String::new(),
    ];
    for (index, variant) in response.variants.iter().enumerate() {
        let selection = Selection::of(
            variant.condition_text.as_deref(),
            response.default == Some(index),
        );
        let when = selection.label(|c| format!("`{}`", doc_text(c, 100)));
        let rephrase = if variant.rephrase { " (rephrased)" } else { "" };
        doc.push(format!(
            " {index}. {when}{rephrase}: `{}`",
            doc_text(&variant.text, 120)
        ));
    }
    doc
}

/// The `if` branches of a selection chain over the conditioned variants
/// (YAML order): one per condition, except that consecutive variants
/// comparing the same entry with int literals share one `match`.
fn selection_branches(
    conditioned: &[(usize, &Expr<usize>)],
    conditions: &mut Conditions<'_>,
) -> Vec<TokenStream> {
    let mut branches = Vec::new();
    let mut rest = conditioned;
    while let Some(&(v, condition)) = rest.first() {
        if let Some((id, _)) = int_equality(condition) {
            let run: Vec<(i64, usize)> = rest
                .iter()
                .map_while(|&(v, c)| {
                    int_equality(c)
                        .filter(|(other, _)| *other == id)
                        .map(|(_, k)| (k, v))
                })
                .collect();
            if run.len() > 1 {
                let switch = conditions.int_switch(id, &run);
                branches.push(quote!(if let Some(variant) = #switch { Some(variant) }));
                rest = &rest[run.len()..];
                continue;
            }
        }
        let test = conditions.condition(condition);
        let test = if fallible(condition) {
            quote!(holds(|| Ok(#test)))
        } else {
            test
        };
        let v = Literal::usize_unsuffixed(v);
        branches.push(quote!(if #test { Some(#v) }));
        rest = &rest[1..];
    }
    branches
}

/// The default variant's number of a response (an expression).
fn default(response: &Response) -> TokenStream {
    match response.default {
        Some(v) => {
            let v = Literal::usize_unsuffixed(v);
            quote!(Some(#v))
        }
        None => quote!(None),
    }
}

/// The selection of a response with conditions: the call (over a reader
/// `r`) of its shape's selection `fn`, made in `selections` if it is the
/// first of its shape. `None`: the response has no condition.
fn selection(
    response: &Response,
    conditions: &mut Conditions<'_>,
    selections: &mut Selections,
) -> Option<TokenStream> {
    let conditioned: Vec<(usize, &Expr<usize>)> = response
        .variants
        .iter()
        .enumerate()
        .filter_map(|(v, variant)| Some((v, variant.condition.as_ref()?)))
        .collect();
    if conditioned.is_empty() {
        return None;
    }
    let default = default(response);
    let (body, bound) = conditions.selection(|conditions| {
        let branches = selection_branches(&conditioned, conditions);
        quote!(#(#branches else)* { #default })
    });
    let user = format!("`{}`", doc_text(&response.name, 120));
    Some(selections.call(&body, &bound, &user))
}

/// The selection of a compact agent as straight-line code: `select`, for
/// each of the first [`COMPILED_SELECTIONS`] responses with conditions,
/// `Compiled` of its variant number (or none), through the selection `fn`s
/// of straight-line code, one per shape; `Walk` for any other response (the
/// program selects: a default, or by walking the conditions). The texts
/// stay data.
pub fn compact_selection(registry: &Registry, conditions: &mut Conditions<'_>) -> TokenStream {
    let mut selections = Selections::default();
    let arms: Vec<(usize, TokenStream)> = registry
        .responses
        .iter()
        .enumerate()
        .filter_map(|(i, response)| {
            let call = selection(response, conditions, &mut selections)?;
            Some((i, quote!(Compiled(#call))))
        })
        .take(COMPILED_SELECTIONS)
        .collect();
    selections.into_items(&arms, &quote!(Choice), &quote!(Walk))
}

/// What each response is made of, made so far: the writers of its
/// interpolated variants in `shapes`, its selection `fn` in `selections`.
#[derive(Default)]
struct Functions {
    shapes: Shapes,
    selections: Selections,
}

/// Per response: its items (texts and variant records) and its selection
/// (an expression over `r`: the variant picked, number and record).
fn response_items(
    index: usize,
    response: &Response,
    conditions: &mut Conditions<'_>,
    functions: &mut Functions,
    entries: &[Entry<String, Vec<String>>],
) -> (TokenStream, TokenStream) {
    let mut items = Vec::new();
    let mut variants = Vec::new();
    for (v, variant) in response.variants.iter().enumerate() {
        let text = idents::text_static(index, v);
        let pieces: Vec<TokenStream> = variant.pieces.iter().map(piece).collect();
        let len = Literal::usize_unsuffixed(pieces.len());
        items.push(quote!(static #text: [Piece; #len] = [#(#pieces),*];));
        let rephrase = variant.rephrase;
        let (literal, writer) = match literal_text(&variant.pieces) {
            Some(t) => {
                let t = lit_str(t);
                (quote!(Some(#t)), quote!(None))
            }
            None => {
                let user = format!("`{}` variant {v}", doc_text(&response.name, 120));
                let writer = functions.shapes.writer(&variant.pieces, entries, &user);
                (quote!(None), writer)
            }
        };
        let capacity = Literal::usize_unsuffixed(utter::text_capacity(&variant.pieces));
        let wording = super::audit::wording_id(variant.wording);
        variants.push(quote!(Variant { pieces: &#text, literal: #literal, rephrase: #rephrase, wording: #wording, capacity: #capacity, writer: #writer }));
    }
    let select = selection(response, conditions, &mut functions.selections)
        .unwrap_or_else(|| default(response));
    let variants_static = idents::variants_static(index);
    let select = quote!(pick(&#variants_static, #select));
    let count = Literal::usize_unsuffixed(variants.len());
    items.push(quote!(static #variants_static: [Variant; #count] = [#(#variants),*];));
    (quote!(#(#items)*), select)
}

/// The entry points of a project with errors: every response falls back to
/// its name.
pub fn skeleton_responses() -> TokenStream {
    let select = quote! {
        /// The variant of response number `response` to deliver.
        #[inline]
        pub fn select<R: Reader>(response: usize, r: &R) -> Selected {
            None
        }
    };
    entry_points(select, Shapes::default().into_items())
}

/// `deliver` and `rendered` over `select` (the item `select`), over any
/// reader (texts rendered piece by piece) and over the typed view (through
/// `writer`, defined with the writers in `shapes`).
fn entry_points(select: TokenStream, shapes: TokenStream) -> TokenStream {
    quote! {
        #shapes
        #select

        /// [`deliver`] through the generated writers: what the typed view calls.
        #[allow(clippy::inline_always)]
        #[inline(always)]
        pub fn deliver_view<R: Reader>(response: usize, r: &R) -> Delivery<'static> {
            deliver_compiled(NAMES[response], &ENTRIES, r, select(response, r), writer::<R>)
        }

        /// [`rendered`] through the generated writers: what the typed view calls.
        #[allow(clippy::inline_always)]
        #[inline(always)]
        pub fn rendered_view<R: Reader>(response: usize, r: &R) -> Rendered<'_, R> {
            render_selected(NAMES[response], &ENTRIES, r, select(response, r), writer::<R>)
        }

        /// Delivers response number `response` from `r`.
        #[inline]
        pub fn deliver<R: Reader>(response: usize, r: &R) -> Delivery<'static> {
            deliver_compiled(NAMES[response], &ENTRIES, r, select(response, r), |_| None)
        }

        /// Selects response number `response` without rendering it.
        #[inline]
        pub fn rendered<R: Reader>(response: usize, r: &R) -> Rendered<'_, R> {
            render_selected(NAMES[response], &ENTRIES, r, select(response, r), |_| None)
        }
    }
}

/// The compiled responses: items of the private module (texts, selection
/// fns, the response table) and the generic entry points `select`,
/// `deliver` and `rendered` over any reader; with the number of distinct
/// shapes of selection and of text among them (what, besides the number of
/// responses, their build cost follows).
pub fn compiled_responses(
    registry: &Registry,
    conditions: &mut Conditions<'_>,
) -> (TokenStream, usize) {
    let mut items = Vec::new();
    let mut selections = Vec::new();
    let mut functions = Functions::default();
    for (i, response) in registry.responses.iter().enumerate() {
        let (item, selection) =
            response_items(i, response, conditions, &mut functions, &registry.entries);
        items.push(item);
        selections.push((i, selection));
    }
    let shapes = functions.selections.len() + functions.shapes.len();
    let select = functions
        .selections
        .into_items(&selections, &quote!(Selected), &quote!(None));
    let entry_points = entry_points(select, functions.shapes.into_items());
    let code = quote! {
        #(#items)*

        #entry_points
    };
    (code, shapes)
}
