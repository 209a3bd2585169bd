//! Selection `fn`s (straight-line code): one generic `fn` per *shape* of
//! selection chain (the chain with the entries it reads and its string and
//! int literals taken out), shared by every response of that shape, each
//! response's entries and literals handed over as data. Responses whose
//! conditions differ only in which entries they read and which values they
//! compare with are the common case (`slot == 'card'` across a project),
//! and a `fn` per response was most of the build time of a large agent.

use std::collections::BTreeMap;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::conditions::Bound;
use super::{idents, lit_str};

/// The selection functions made so far, by shape.
#[derive(Default)]
pub struct Selections {
    /// A shape's body (as text) -> its number.
    numbers: BTreeMap<String, usize>,
    /// The selection function of each shape, by number, with the first
    /// response that uses it and how many do.
    functions: Vec<(TokenStream, String, usize)>,
}

impl Selections {
    /// How many shapes (selection `fn`s) there are so far.
    pub fn len(&self) -> usize {
        self.functions.len()
    }

    /// The call (over a reader `r`) of the selection of `response`
    /// (described for a doc comment) whose body is `body` and data
    /// `bound`, making its shape's function if it is the first of it.
    pub fn call(&mut self, body: &TokenStream, bound: &Bound, response: &str) -> TokenStream {
        let next = self.numbers.len();
        let number = *self.numbers.entry(body.to_string()).or_insert(next);
        let select = idents::select_fn(number);
        if let Some((_, _, users)) = self.functions.get_mut(number) {
            *users += 1;
        } else {
            // The slices always have these lengths: both are made here.
            let (entries, bind_entries) = bind(
                quote!(entries),
                bound.entries.len(),
                idents::selection_entry,
            );
            let (texts, bind_texts) =
                bind(quote!(texts), bound.texts.len(), idents::selection_text);
            let (ints, bind_ints) = bind(quote!(ints), bound.ints.len(), idents::selection_int);
            // In line: out of line, delivery over `Context` took up to 3x
            // the instructions (a call with its data instead of constants).
            let function = quote! {
                #[inline]
                fn #select<R: Reader>(
                    r: &R,
                    #entries: &'static [&'static Entry],
                    #texts: &'static [&'static str],
                    #ints: &'static [i64],
                ) -> Option<usize> {
                    #bind_entries
                    #bind_texts
                    #bind_ints
                    #body
                }
            };
            self.functions.push((function, response.to_owned(), 1));
        }
        let entries = bound.entries.iter().map(|&id| idents::entry_const(id));
        let texts = bound.texts.iter().map(|t| lit_str(t));
        let ints = bound.ints.iter().map(|i| Literal::i64_suffixed(*i));
        quote!(#select(r, &[#(&#entries),*], &[#(#texts),*], &[#(#ints),*]))
    }

    /// The selection functions, in order of first use, and `select`, which
    /// leads a response's number to its selection (`arms`: response number
    /// and selection, in order of number), of type `selected`: the call of
    /// its shape's `fn` over its literals, or for a response without
    /// conditions its default. A number without an arm is `otherwise`.
    ///
    /// One arm per response, not a table of shapes and literals with one
    /// arm per shape: that built a crate of 1,000 responses about 30%
    /// faster, but the literals no longer folded to constants and delivery
    /// took 10% to 75% more instructions. Above [`SELECT_PART`] responses
    /// the arms are split into parts, one `fn` each (see there).
    pub fn into_items(
        self,
        arms: &[(usize, TokenStream)],
        selected: &TokenStream,
        otherwise: &TokenStream,
    ) -> TokenStream {
        let functions = self.functions.into_iter().map(|(function, first, users)| {
            let doc = users_doc("The selection", &first, users, "response");
            quote!(#[doc = #doc] #function)
        });
        let last = arms.last().map_or(0, |(number, _)| *number);
        let select = if last < SELECT_PART {
            arms_match(arms, otherwise)
        } else {
            // Parts by number: part `n` holds the arms of numbers
            // `n * SELECT_PART` onwards; a part without arms is left out.
            let mut parts: Vec<(usize, TokenStream)> = Vec::new();
            for chunk in arms.chunk_by(|a, b| a.0 / SELECT_PART == b.0 / SELECT_PART) {
                let n = chunk[0].0 / SELECT_PART;
                let name = idents::select_part(n);
                let body = arms_match(chunk, otherwise);
                parts.push((
                    n,
                    quote! {
                        #[inline]
                        fn #name<R: Reader>(response: usize, r: &R) -> #selected {
                            #body
                        }
                    },
                ));
            }
            let calls = parts.iter().map(|(n, _)| {
                let name = idents::select_part(*n);
                let n = Literal::usize_unsuffixed(*n);
                quote!(#n => #name(response, r),)
            });
            let parts = parts.iter().map(|(_, part)| part);
            let size = Literal::usize_unsuffixed(SELECT_PART);
            quote! {
                #(#parts)*
                match response / #size {
                    #(#calls)*
                    _ => #otherwise,
                }
            }
        };
        quote! {
            #(#functions)*

            /// The variant of response number `response` to deliver (in
            /// line at each call: a constant response folds to its own
            /// selection, and a call from another crate costs no call).
            #[allow(clippy::inline_always)]
            #[inline(always)]
            pub fn select<R: Reader>(response: usize, r: &R) -> #selected {
                #select
            }
        }
    }
}

/// The most responses `select` leads to in one `match`. Each arm is its
/// response's selection in line, and LLVM's time on one function grows
/// faster than its size: 3,000 responses in one `match` took 40 s of
/// release build where 1,000 took 6 s; in parts of 256, 12.7 s. A part is
/// a `fn` of its own, which costs delivery: the shared selection `fn`s are
/// then called rather than folded into each arm (about 58 more
/// instructions per delivery measured at 1,000 responses in parts of 256).
/// So parts start above 1,024 responses: agents of 1,025 to
/// [`super::STRAIGHT_LINE_BUDGET`] responses of few shapes pay that call
/// (1,215 instructions for a delivery by name at 1,500 responses against
/// 1,172 at 1,000, and 1,735 in the compact form), larger ones are compact
/// unless forced to straight-line code.
const SELECT_PART: usize = 1_024;

/// A `match` on `response` over `arms` (response number and selection),
/// `otherwise` for any other number.
fn arms_match(arms: &[(usize, TokenStream)], otherwise: &TokenStream) -> TokenStream {
    let numbers = arms.iter().map(|(n, _)| Literal::usize_unsuffixed(*n));
    let arms = arms.iter().map(|(_, arm)| arm);
    quote! {
        match response {
            #(#numbers => #arms,)*
            _ => #otherwise,
        }
    }
}

/// The doc line of a function shared by `users` users, the first `first`
/// (described for a doc comment: names through `names::doc_text`).
pub fn users_doc(what: &str, first: &str, users: usize, noun: &str) -> String {
    match users {
        1 => format!(" {what} of {first}."),
        2 => format!(" {what} of {first} and one other {noun}."),
        n => format!(" {what} of {first} and {} other {noun}s.", n - 1),
    }
}

/// The parameter `name` of a selection `fn` (`_` when it is handed no
/// data of its kind) and the binding of its `len` items, each named by
/// `each`.
fn bind(
    name: TokenStream,
    len: usize,
    each: fn(usize) -> proc_macro2::Ident,
) -> (TokenStream, TokenStream) {
    if len == 0 {
        return (quote!(_), TokenStream::new());
    }
    let bound = (0..len).map(each);
    (
        name.clone(),
        quote!(let &[#(#bound),*] = #name else { return None };),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::conditions::{Conditions, EntryTypes};
    use utter::EntryType;

    /// The call of a selection over entries a (any), b (int), c
    /// (categorical: "x") and d (any) whose body is the condition `src`.
    fn call(selections: &mut Selections, src: &str) -> String {
        let parsed = crate::condition::parse(src).expect("a valid condition");
        let ids = ["a", "b", "c", "d"];
        let expr =
            parsed.map_refs(&mut |r| ids.iter().position(|i| *i == r.entry).expect("a to d"));
        let values = vec!["x".to_owned()];
        let types = [
            (EntryType::Any, &[][..]),
            (EntryType::Int, &[][..]),
            (EntryType::Categorical, values.as_slice()),
            (EntryType::Any, &[][..]),
        ];
        let mut conditions = Conditions::new(EntryTypes { types: &types });
        let (body, bound) = conditions.selection(|c| {
            let test = c.condition(&expr);
            quote!(if #test { Some(0) } else { None })
        });
        selections.call(&body, &bound, "`utter_x`").to_string()
    }

    #[test]
    fn selections_differing_in_entries_and_literals_share_a_fn() {
        let mut selections = Selections::default();
        let first = call(&mut selections, "session.s.a == 'x' and session.s.b > 3");
        let second = call(&mut selections, "session.s.d == 'y' and session.s.b > 4");
        assert_eq!(first, "s0 (r , & [& E0 , & E1] , & [\"x\"] , & [3i64])");
        assert_eq!(second, "s0 (r , & [& E3 , & E1] , & [\"y\"] , & [4i64])");
        // Another operator, or another kind of comparison (a categorical
        // entry against one of its values): another shape.
        let other_op = call(&mut selections, "session.s.a == 'x' and session.s.b < 3");
        assert!(other_op.starts_with("s1 (r ,"), "{other_op}");
        let categorical = call(&mut selections, "session.s.c == 'x' and session.s.b > 3");
        assert!(categorical.starts_with("s2 (r ,"), "{categorical}");
        assert_eq!(selections.functions.len(), 3);
        let arms = [(0, first.parse().expect("tokens")), (1, quote!(Some(1)))];
        let items = selections
            .into_items(&arms, &quote!(Selected), &quote!(None))
            .to_string();
        // Each documents who uses it.
        assert!(
            items.contains("\" The selection of `utter_x` and one other response.\""),
            "{items}"
        );
        assert!(
            items.contains(
                "let & [e0 , e1] = entries else { return None } ; \
                 let & [x0] = texts else { return None } ; let & [k0] = ints"
            ),
            "{items}"
        );
        // `select` leads each response's number to its selection.
        assert!(
            items
                .contains("0 => s0 (r , & [& E0 , & E1] , & [\"x\"] , & [3i64]) , 1 => Some (1) ,"),
            "{items}"
        );
    }

    #[test]
    fn a_large_select_is_split_into_parts() {
        let dense = |n: usize| -> Vec<(usize, TokenStream)> {
            (0..n).map(|i| (i, quote!(Some(0)))).collect()
        };
        let items = Selections::default()
            .into_items(&dense(SELECT_PART), &quote!(Selected), &quote!(None))
            .to_string();
        assert!(!items.contains("part0"), "{items}");
        let items = Selections::default()
            .into_items(&dense(2_500), &quote!(Selected), &quote!(None))
            .to_string();
        assert!(items.contains("match response / 1024"), "{items}");
        for n in 0..3 {
            assert!(
                items.contains(&format!("{n} => part{n} (response , r)")),
                "{items}"
            );
        }
        assert!(!items.contains("part3"), "{items}");
        // Each part keeps the responses' own numbers.
        assert!(items.contains("1024 => Some (0)"), "{items}");
        assert!(items.contains("2499 => Some (0)"), "{items}");
    }

    #[test]
    fn a_sparse_select_has_arms_and_parts_only_where_responses_have_them() {
        // The compact form's: arms only for responses with conditions.
        let sparse: Vec<(usize, TokenStream)> = [3, 5, 2_100]
            .iter()
            .map(|&i| (i, quote!(Some(1))))
            .collect();
        let items = Selections::default()
            .into_items(&sparse, &quote!(Choice), &quote!(Walk))
            .to_string();
        assert!(items.contains("-> Choice"), "{items}");
        assert!(items.contains("0 => part0 (response , r)"), "{items}");
        assert!(items.contains("2 => part2 (response , r)"), "{items}");
        assert!(!items.contains("part1"), "{items}");
        assert!(
            items.contains("3 => Some (1) , 5 => Some (1) , _ => Walk"),
            "{items}"
        );
        assert!(items.contains("2100 => Some (1) , _ => Walk"), "{items}");
        let few = Selections::default()
            .into_items(&sparse[..2], &quote!(Choice), &quote!(Walk))
            .to_string();
        assert!(!few.contains("part"), "{few}");
    }
}
