//! Responses as data, for large agents: texts, names and variant records
//! encoded as a program (one string and three byte-string literals), and
//! selection as the straight-line code's (a selection `fn` per shape of
//! condition chain, a `match` arm per response with conditions). The many
//! statics and writers of straight-line code (a static per variant, a
//! writer per shape of text) are what a large agent's build spends its
//! time on; a few literals leave rustc and LLVM next to nothing, so a
//! 10,000-response agent builds in a fraction of the time. Selection is
//! compiled because interpreting conditions cost the compact form up to
//! ten times straight-line code's instructions per delivery (see
//! benches/README.md); texts with placeholders are rendered by the
//! runtime from their pieces.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::conditions::Conditions;
use super::lit_str;
use super::responses::compact_selection;
use crate::lower::Registry;

/// The compiled responses in compact form: `PROGRAM`, the selection as
/// straight-line code (`select`, see [`compact_selection`]) and the entry
/// points `deliver` and `rendered` (as the straight-line form has them).
pub fn compact_responses(registry: &Registry, conditions: &mut Conditions<'_>) -> TokenStream {
    let program = registry.encode();
    let strings = lit_str(&program.strings);
    let code = Literal::byte_string(&program.code);
    let responses = Literal::byte_string(&program.responses);
    let variants = Literal::byte_string(&program.variants);
    let select = compact_selection(registry, conditions);
    quote! {
        /// Every response, condition and text, encoded (see `utter::program`).
        pub static PROGRAM: Program<'static> = Program {
            strings: #strings,
            code: #code,
            responses: #responses,
            variants: #variants,
        };

        #select

        /// Delivers response number `response` from `r`.
        #[inline]
        pub fn deliver<R: Reader>(response: usize, r: &R) -> Delivery<'static> {
            PROGRAM.deliver_selected(response, select(response, r), &ENTRIES, r)
        }

        /// Selects response number `response` without rendering it.
        #[inline]
        pub fn rendered<R: Reader>(response: usize, r: &R) -> Rendered<'_, R> {
            Rendered::compact_selected(PROGRAM, response, select(response, r), &ENTRIES, r)
        }

        /// [`deliver`], as the typed view calls it.
        #[inline]
        pub fn deliver_view<R: Reader>(response: usize, r: &R) -> Delivery<'static> {
            deliver(response, r)
        }

        /// [`rendered`], as the typed view calls it.
        #[inline]
        pub fn rendered_view<R: Reader>(response: usize, r: &R) -> Rendered<'_, R> {
            rendered(response, r)
        }
    }
}
