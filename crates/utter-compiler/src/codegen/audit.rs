//! What generated code says for audit: each variant's wording id (in its
//! record) and the agent's wording fingerprint.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// A wording id as generated code holds it: hexadecimal, as logs and the
/// snapshot show it.
pub fn wording_id(id: utter::WordingId) -> TokenStream {
    let literal: Literal = format!("0x{:016x}", id.0)
        .parse()
        .expect("a hexadecimal literal");
    quote!(::utter::WordingId(#literal))
}

/// `WORDING_FINGERPRINT`: the fingerprint of the agent's wording, the one
/// `utter snapshot` writes in the snapshot's header (empty for a project
/// with errors, which does not compile).
pub fn fingerprint_item(fingerprint: &str) -> TokenStream {
    let first = format!(" The fingerprint of this agent's reviewed wording, `{fingerprint}`:");
    quote! {
        #[doc = #first]
        /// the value the committed snapshot's `fingerprint` line holds (`utter snapshot`).
        /// Log it at start-up to say which reviewed wording a service delivers, or assert
        /// it in a test against the snapshot (docs/audit.md).
        #[allow(dead_code)]
        pub const WORDING_FINGERPRINT: &str = #fingerprint;
    }
}

/// The compiled module's `explain`: every condition of every response
/// encoded whole (no shared runs, so each has its own outcome) with the
/// text as written, evaluated one by one by the runtime's evaluator. Only
/// `explain` reads these statics: an agent that never calls it does not
/// link them.
pub fn explain_items(registry: &crate::lower::Registry) -> TokenStream {
    let mut data = utter::program::ProgramData::default();
    let tables: Vec<TokenStream> = registry
        .responses
        .iter()
        .map(|response| {
            let conditions = response.variants.iter().enumerate().filter_map(|(i, v)| {
                let at = Literal::u32_unsuffixed(data.condition(v.condition.as_ref()?));
                let text = v.condition_text.as_deref().unwrap_or_default();
                let i = Literal::usize_unsuffixed(i);
                Some(quote!((#i, #text, #at)))
            });
            let conditions: Vec<TokenStream> = conditions.collect();
            let default = match response.default {
                Some(d) => {
                    let d = Literal::usize_unsuffixed(d);
                    quote!(Some(#d))
                }
                None => quote!(None),
            };
            quote!((#default, &[#(#conditions),*]))
        })
        .collect();
    let count = Literal::usize_unsuffixed(tables.len());
    let strings = data.strings.as_str();
    let code = Literal::byte_string(&data.code);
    quote! {
        /// Every condition, encoded whole: read by `explain` alone.
        static EXPLAIN_PROGRAM: Program<'static> = Program {
            strings: #strings,
            code: #code,
            responses: b"",
            variants: b"",
        };

        /// A response's default, and each conditioned variant's position,
        /// condition as written and offset in `EXPLAIN_PROGRAM`.
        type Explained = (Option<usize>, &'static [(usize, &'static str, u32)]);

        /// Per response, what `explain` evaluates.
        static EXPLAIN: [Explained; #count] = [#(#tables),*];

        /// Why response number `response` delivers what it does from `r`.
        pub fn explain<R: Reader>(response: usize, r: &R) -> ::utter::Explanation<'static> {
            let (default, conditions) = EXPLAIN[response];
            ::utter::Explanation::new(
                NAMES[response],
                default,
                conditions.iter().map(|&(variant, text, at)| {
                    (variant, text, EXPLAIN_PROGRAM.evaluate(at as usize, &ENTRIES, r))
                }),
            )
        }
    }
}

/// `explain` of a project with errors: every response delivers its name.
pub fn skeleton_explain() -> TokenStream {
    quote! {
        /// Response number `response` delivers its name: the project has errors.
        pub fn explain<R: Reader>(response: usize, _r: &R) -> ::utter::Explanation<'static> {
            ::utter::Explanation::new(NAMES[response], None, [])
        }
    }
}

/// The public `explain` beside `deliver`.
pub fn explain_fn() -> TokenStream {
    quote! {
        /// Why `response` delivers what it does from `ctx`: each condition's
        /// outcome (true, false, or the error that skips its variant) and
        /// the rule that decided, as `utter render --explain` prints it
        /// (`Display`). Off the hot path: every condition is evaluated.
        #[allow(dead_code)]
        #[must_use]
        pub fn explain(response: Response, ctx: &::utter::Context<'_>) -> ::utter::Explanation<'static> {
            __utter_compiled::explain(response.index(), ctx)
        }
    }
}
