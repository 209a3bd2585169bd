//! The `Response` enum, its names, and lookup by name: a `match` for small
//! agents, a generated open-addressing table beyond [`MATCH_LOOKUP_MAX`] so
//! lookup stays flat in the number of responses.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::lit_str;

/// Up to this many responses, `from_name` is a `match` (fastest for small
/// sets); beyond, an open-addressing table so lookup stays flat in N.
pub const MATCH_LOOKUP_MAX: usize = 256;

/// The body of `from_name`, and the static name table it needs, if any.
fn name_lookup(
    names: &[String],
    variants: &[proc_macro2::Ident],
    name_lits: &[Literal],
) -> (TokenStream, TokenStream) {
    if names.len() <= MATCH_LOOKUP_MAX {
        let body = quote! {
            match name {
                #( #name_lits => ::core::option::Option::Some(Response::#variants), )*
                _ => ::core::option::Option::None,
            }
        };
        return (body, TokenStream::new());
    }
    // At most half full, so probes stay short and an empty slot always ends a search.
    let size = (names.len() * 2).next_power_of_two();
    let mut slots = vec![0u32; size];
    for (index, name) in names.iter().enumerate() {
        let mut at = (utter::__private::name_hash(name) % size as u64) as usize;
        while slots[at] != 0 {
            at = (at + 1) % size;
        }
        slots[at] = u32::try_from(index + 1).expect("fewer than 4 billion responses");
    }
    let size_lit = Literal::usize_unsuffixed(size);
    let slots = slots.iter().map(|s| Literal::u32_unsuffixed(*s));
    let body = quote! {
        ::utter::__private::lookup(name, &__utter_compiled::NAMES, &__utter_compiled::NAME_SLOTS).map(|index| Response::ALL[index])
    };
    let table = quote! {
        pub static NAME_SLOTS: [u32; #size_lit] = [#(#slots),*];
    };
    (body, table)
}

/// The items every expansion has, complete or skeleton: the `Response` enum
/// with its names, lookup by name, the entry table and the skills; then
/// the tables they read, items of the compiled module.
/// `bundled[i]`: whether `names[i]` comes from the bundled defaults (packaged
/// system responses and default skills) rather than the project.
/// A code template: most of its lines are the generated items, read best
/// whole (tests/architecture.rs, `functions_stay_short`).
pub fn common_items(
    names: &[String],
    docs: &[Vec<String>],
    bundled: &[bool],
    skills: &[String],
) -> (TokenStream, TokenStream) {
    let variants: Vec<proc_macro2::Ident> = names
        .iter()
        .map(|n| super::idents::yaml_variant(n))
        .collect();
    let name_lits: Vec<Literal> = names.iter().map(|n| lit_str(n)).collect();
    let docs = docs.iter().map(|lines| quote!(#(#[doc = #lines])*));
    let count = Literal::usize_unsuffixed(names.len());
    let (from_name_body, name_index) = name_lookup(names, &variants, &name_lits);
    // An enum without variants cannot be cast to an index.
    let (name_body, index_body) = if names.is_empty() {
        (quote!(match self {}), quote!(match self {}))
    } else {
        (
            quote!(__utter_compiled::NAMES[self as usize]),
            quote!(self as usize),
        )
    };
    let skills = skills.iter().map(|s| lit_str(s));
    let tables = quote! {
        pub static NAMES: [&str; #count] = [#(#name_lits),*];
        pub static BUNDLED: [bool; #count] = [#(#bundled),*];
        pub const SKILL_IDS: &[&str] = &[#(#skills),*];
        #name_index
    };
    let public = quote! {
        /// The responses of the agent, one variant per response name.
        // `Debug` is written by hand: a derived one is a match with an arm per
        // response, which dominated build time for agents of thousands of responses.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(dead_code, clippy::enum_variant_names)]
        pub enum Response {
            #( #docs #variants, )*
        }

        impl ::core::fmt::Debug for Response {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::core::fmt::Display for Response {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::core::str::FromStr for Response {
            type Err = ::utter::UnknownResponse;

            /// The response called `name` (an unknown name is an error with a did-you-mean).
            fn from_str(name: &str) -> ::core::result::Result<Self, Self::Err> {
                Response::from_name(name).ok_or_else(|| ::utter::UnknownResponse::new(name, Response::ALL.iter().map(|r| r.name())))
            }
        }

        #[allow(dead_code)]
        impl Response {
            /// Every response, sorted by name.
            pub const ALL: &'static [Response] = &[#(Response::#variants),*];
            /// How many responses the agent has.
            pub const COUNT: usize = #count;

            /// The response name as written in `responses.yml`.
            #[must_use]
            pub const fn name(self) -> &'static str {
                #name_body
            }

            /// The response name as written in `responses.yml` ([`Self::name`]).
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                self.name()
            }

            /// Whether the response comes from the bundled defaults (the
            /// packaged system responses and default skills) and not from
            /// the project's own files.
            #[must_use]
            pub const fn is_bundled(self) -> bool {
                __utter_compiled::BUNDLED[self.index()]
            }

            /// The response's index in [`Response::ALL`].
            #[doc(hidden)]
            #[must_use]
            pub const fn index(self) -> usize {
                #index_body
            }

            /// The response called `name`, if the agent defines it.
            #[inline]
            #[must_use]
            pub fn from_name(name: &str) -> ::core::option::Option<Response> {
                #from_name_body
            }
        }


        /// Every skill id (bundled default skills included), sorted: the
        /// ids [`::utter::Context::for_skill_id`] accepts.
        #[allow(dead_code)]
        pub const SKILLS: &[&str] = __utter_compiled::SKILL_IDS;

        /// Empty typed memory for this agent (every entry unset).
        #[allow(dead_code)]
        #[must_use]
        pub fn memory() -> Memory {
            Memory::new()
        }

        /// Delivers the response called `name`; an unknown name delivers the
        /// name itself (fail closed, never rephrased).
        #[allow(dead_code)]
        #[inline]
        #[must_use]
        pub fn deliver_name<'n>(name: &'n str, ctx: &::utter::Context<'_>) -> ::utter::Delivery<'n> {
            match Response::from_name(name) {
                ::core::option::Option::Some(response) => deliver(response, ctx),
                ::core::option::Option::None => ::utter::Delivery::fallback(name),
            }
        }
    };
    (public, tables)
}
