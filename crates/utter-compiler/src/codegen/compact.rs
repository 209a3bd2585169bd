//! Responses as data, for large agents: the registry encoded as a program
//! (one string and three byte-string literals) and entry points that hand it
//! to the runtime's evaluator. A few literals instead of a function and a
//! static per variant: rustc and LLVM have next to nothing to type-check or
//! optimise, so a 10,000-response agent builds in a fraction of the time,
//! at the evaluator's delivery speed rather than straight-line code's.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::lit_str;
use crate::lower::Registry;

/// The compiled responses in compact form: `PROGRAM` and the entry points
/// `deliver` and `rendered` (as the straight-line form has them).
pub fn compact_responses(registry: &Registry) -> TokenStream {
    let program = registry.encode();
    let strings = lit_str(&program.strings);
    let code = Literal::byte_string(&program.code);
    let responses = Literal::byte_string(&program.responses);
    let variants = Literal::byte_string(&program.variants);
    quote! {
        /// Every response, condition and text, encoded (see `utter::program`).
        pub static PROGRAM: Program<'static> = Program {
            strings: #strings,
            code: #code,
            responses: #responses,
            variants: #variants,
        };

        /// Delivers response number `response` from `r`.
        #[inline]
        pub fn deliver<R: Reader>(response: usize, r: &R) -> Delivery<'static> {
            PROGRAM.deliver(response, &ENTRIES, r)
        }

        /// Selects response number `response` without rendering it.
        #[inline]
        pub fn rendered<R: Reader>(response: usize, r: &R) -> Rendered<'_, R> {
            Rendered::compact(PROGRAM, response, &ENTRIES, r)
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
