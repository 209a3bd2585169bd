//! Code generation: a registry into Rust items. `include_responses!` calls
//! [`include_responses`] (its input read in `macro_input`), which calls
//! [`expand_at`]; `utter-build` calls [`generate_from`] and `pretty` (and
//! [`skeleton`] and [`error_message`] for an agent with errors); [`expand`]
//! is `expand_at` without a prefix or options (tests, benchmarks).
//!
//! The output is static data and `fn` items only, one module a concern:
//! `memory` (the entry table, typed `Memory`, categorical enums, `View`),
//! `conditions` (straight-line typed comparisons), `responses` (texts and
//! the response table), `selections` and `writers` (one selection `fn` per
//! shape of condition chain, one writer per shape of text), `strategy` (which form, by build
//! cost), `lookup` (the `Response` enum
//! and lookup by name) and `skills` (the `Skill` enum). Paths are absolute
//! (`::utter::...`), iteration orders sorted, no `unsafe` is emitted, and
//! neither are redundant parentheses.

mod audit;
pub(crate) mod compact;
pub(crate) mod conditions;
pub(crate) mod idents;
pub(crate) mod lookup;
mod macro_input;
pub(crate) mod memory;
pub mod reload;
pub(crate) mod responses;
pub(crate) mod selections;
pub(crate) mod skills;
mod strategy;
pub(crate) mod writers;

use std::path::Path;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::diagnostics::{Finding, render_finding};
use crate::lower::Registry;
use crate::validate::Checked;
use conditions::{Conditions, EntryTypes};
pub use lookup::MATCH_LOOKUP_MAX;
pub use macro_input::include_responses;
pub use reload::{Origin, OriginFolder};
use strategy::form_doc;
pub use strategy::{COMPILED_SELECTIONS, SHAPE_COST, STRAIGHT_LINE_BUDGET, Strategy};

fn lit_str(s: &str) -> Literal {
    Literal::string(s)
}

fn float(f: f64) -> TokenStream {
    if f.is_nan() {
        quote!(::core::f64::NAN)
    } else if f == f64::INFINITY {
        quote!(::core::f64::INFINITY)
    } else if f == f64::NEG_INFINITY {
        quote!(::core::f64::NEG_INFINITY)
    } else {
        let lit = Literal::f64_suffixed(f);
        quote!(#lit)
    }
}

/// The private module every expansion has, with its imports; `form` says
/// how its responses were compiled and why (its doc, read in `utter expand`).
fn compiled_module(form: &str, items: TokenStream) -> TokenStream {
    let operators = conditions::operator_imports();
    quote! {
        #[doc = #form]
        #[doc(hidden)]
        // Only what generated code does on purpose: conditions as written
        // (`!(a == b)`, `Ok(x?)`, `x and False or True`, `a > a`, a literal's
        // digits, the same test twice, a chained comparison as a block),
        // one writer per shape of text, one selection `fn` per shape of
        // condition chain however long. Clippy's other lints, pedantic ones included, apply.
        #[allow(
            dead_code,
            unused_imports,
            unused_variables,
            clippy::needless_question_mark,
            clippy::nonminimal_bool,
            clippy::unnecessary_wraps,
            clippy::match_same_arms,
            clippy::too_many_lines,
            clippy::redundant_closure_for_method_calls,
            clippy::if_not_else,
            clippy::unreadable_literal,
            clippy::same_functions_in_if_condition,
            clippy::overly_complex_bool_expr,
            clippy::eq_op,
            clippy::ifs_same_cond,
            clippy::blocks_in_conditions
        )]
        mod __utter_compiled {
            use ::core::option::Option::{self, None, Some};
            use ::core::result::Result::Ok;
            use ::utter::__private::{
                Choice::{self, Compiled, Walk}, Context, Delivery, Entry, Piece, Program, Reader, Rendered, Selected, Variant, compare,
                eq_bool, eq_float, eq_int, eq_str, holds, int_key, ord_float, ord_int, ord_str, pick, put, Out, WriteFn,
                deliver as deliver_compiled, rendered as render_selected,
            };
            use ::utter::{#operators, EntryType, py_eq};
            use ::utter::Piece::{Bare, Session, Text};
            use ::utter::ValueRef as V;
            use ::utter::Visibility::{Private, Project, Public};

            /// What a compiled `when:` condition returns: whether it holds,
            /// or why it could not be evaluated.
            type Holds = ::core::result::Result<bool, ::utter::EvalError>;

            #items
        }
    }
}

/// The complete code for a registry, in the form [`Strategy::Auto`] picks.
pub fn generate(registry: &Registry) -> TokenStream {
    generate_with(registry, Strategy::Auto)
}

/// The complete code for a registry, compiled as `strategy` says, from an
/// unknown folder (a hot reload needs `hot_reload().watch(folder)`).
pub fn generate_with(registry: &Registry, strategy: Strategy) -> TokenStream {
    generate_from(registry, strategy, &Origin::default())
}

/// The complete code for a registry compiled from `origin`, as `strategy` says.
///
/// Texts, conditions and tables live in one private module whose imports
/// are all absolute (`::utter::...`, `::core::...`), so the compiled items
/// can use short names without depending on anything in the user's scope.
pub fn generate_from(registry: &Registry, strategy: Strategy, origin: &Origin) -> TokenStream {
    let names: Vec<String> = registry.responses.iter().map(|r| r.name.clone()).collect();
    let docs: Vec<Vec<String>> = registry
        .responses
        .iter()
        .map(responses::response_doc)
        .collect();
    let types: Vec<(utter::EntryType, &[String])> = registry
        .entries
        .iter()
        .map(|e| (e.ty, e.values.as_slice()))
        .collect();
    let mut conditions = Conditions::new(EntryTypes { types: &types });
    let bundled: Vec<bool> = registry
        .responses
        .iter()
        .map(|r| crate::bundled::is_bundled(&r.file))
        .collect();
    let (common, tables) = lookup::common_items(&names, &docs, &bundled, &registry.skills);
    let entries = memory::entry_table(&registry.declarations);
    let typed = memory::typed_memory(&registry.declarations);
    let responses = registry.responses.len();
    // Straight-line code is made before it is known to fit: its shapes are
    // counted as it is made (about 0.25 s of build at 1,000 responses).
    let (compiled, form) = if strategy.is_compact_by_size(responses) {
        let form = form_doc(strategy, responses, None, true);
        (compact::compact_responses(registry, &mut conditions), form)
    } else {
        let (code, shapes) = responses::compiled_responses(registry, &mut conditions);
        let compact = strategy.is_compact(responses, shapes);
        let form = form_doc(strategy, responses, Some(shapes), compact);
        if compact {
            (compact::compact_responses(registry, &mut conditions), form)
        } else {
            (code, form)
        }
    };
    let mut when_conditions = Vec::new();
    let skills = skills::skill_items(registry, &mut conditions, &mut when_conditions);
    let reload = reload::reload_items(Some(registry), origin);
    let explain = audit::explain_items(registry);
    let module = compiled_module(
        &form,
        quote! {
            #entries
            #tables
            #compiled
            #(#when_conditions)*
            #reload
            #explain
        },
    );
    let hot_reload = reload::hot_reload_fn();
    let fingerprint = audit::fingerprint_item(&registry.wording_fingerprint());
    let explain_fn = audit::explain_fn();
    quote! {
        #common
        #skills
        #typed
        #fingerprint

        #[doc(hidden)]
        pub use __utter_compiled::ENTRIES;

        /// Delivers `response` from any memory: the first conditioned variant
        /// that holds, else the default, interpolated from `ctx`.
        #[allow(dead_code)]
        #[inline]
        #[must_use]
        pub fn deliver(response: Response, ctx: &::utter::Context<'_>) -> ::utter::Delivery<'static> {
            if let ::core::option::Option::Some(delivery) = __utter_compiled::RELOAD.deliver(response.index(), ctx) {
                return delivery;
            }
            __utter_compiled::deliver(response.index(), ctx)
        }

        #explain_fn
        #hot_reload
        #module
    }
}

/// The items of a project with errors: the same public items (responses
/// named as far as they could be read), so user code shows no follow-on errors.
pub fn skeleton(checked: &Checked) -> TokenStream {
    // Responses of broken files too, when their names could be read: user
    // code naming them gets no follow-on error.
    let mut names: Vec<String> = checked
        .responses
        .keys()
        .chain(&checked.unusable_responses)
        .cloned()
        .collect();
    names.sort();
    let mut seen = std::collections::HashSet::new();
    let names: Vec<String> = names
        .into_iter()
        .filter(|n| seen.insert(crate::names::variant_name(n)))
        .collect();
    let docs: Vec<Vec<String>> = names
        .iter()
        .map(|n| vec![format!(" `{}`", crate::names::doc_text(n, 120))])
        .collect();
    let bundled: Vec<bool> = names
        .iter()
        .map(|n| {
            checked
                .responses
                .get(n)
                .is_some_and(|r| crate::bundled::is_bundled(&r.file))
        })
        .collect();
    let (common, tables) = lookup::common_items(&names, &docs, &bundled, &checked.skills);
    let mut skill_ids: Vec<String> = checked.skills.clone();
    skill_ids.dedup_by(|a, b| crate::names::variant_name(a) == crate::names::variant_name(b));
    let skills = skills::skeleton_skill_items(&skill_ids);
    let typed = memory::typed_memory(&checked.memory);
    let entries = memory::entry_table(&checked.memory);
    let fallbacks = responses::skeleton_responses();
    let reload = reload::reload_items(None, &Origin::default());
    let form = " The project has errors: every response delivers its name.";
    let explain = audit::skeleton_explain();
    let module = compiled_module(form, quote!(#entries #tables #fallbacks #reload #explain));
    let hot_reload = reload::hot_reload_fn();
    let fingerprint = audit::fingerprint_item("");
    let explain_fn = audit::explain_fn();
    quote! {
        #common
        #skills
        #typed
        #fingerprint

        #[doc(hidden)]
        pub use __utter_compiled::ENTRIES;

        /// Delivers `response` (this project has errors: nothing is compiled).
        #[allow(dead_code)]
        #[must_use]
        pub fn deliver(response: Response, _ctx: &::utter::Context<'_>) -> ::utter::Delivery<'static> {
            ::utter::Delivery::fallback(response.name())
        }

        #explain_fn
        #hot_reload
        #module
    }
}

/// The message of a compile error: the self-contained first line, then the
/// snippet (`--> file:line:col` and the source line).
pub fn error_message(finding: &Finding, checked: &Checked, prefix: &str) -> String {
    let source = checked.source(&finding.file);
    let mut shown = finding.clone();
    if !prefix.is_empty() && !crate::bundled::is_bundled(&finding.file) {
        shown.file = format!("{}/{}", prefix.trim_end_matches('/'), finding.file);
    }
    let rendered = render_finding(&shown, source);
    let snippet = rendered.split_once('\n').map_or("", |(_, rest)| rest);
    format!("{}\n{}", shown.headline(), snippet.trim_end())
}

/// What `include_responses!` expands to: the code, or every error as a
/// `compile_error!` at `span` plus the skeleton. `tracked` files are
/// included as bytes so that editing one rebuilds the crate.
pub fn expand(agent: &crate::Agent, span: Span, tracked: &[&Path]) -> TokenStream {
    expand_at(agent, span, tracked, "", &ExpandOptions::default())
}

/// How `include_responses!` was asked to expand.
#[derive(Clone, Debug, Default)]
pub struct ExpandOptions {
    /// Warnings are errors.
    pub deny_warnings: bool,
    /// Straight-line, compact, or chosen by size.
    pub strategy: Strategy,
    /// Where the agent was compiled from (for a development hot reload).
    pub origin: Origin,
}

/// A rustc warning at `span` carrying `message`, on stable Rust: the use of
/// a deprecated constant (named after the finding's code) whose note is the
/// message. `#![deny(warnings)]` and `-D warnings` apply to it as usual.
fn warning(message: &str, code: &str, span: Span) -> TokenStream {
    let last = code.rsplit('.').next().unwrap_or("warning");
    let name = syn::Ident::new(&format!("utter_{last}"), span);
    let note = lit_str(message);
    quote_spanned!(span=>
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_upper_case_globals)]
            const #name: () = ();
            #name
        };
    )
}

/// [`expand`], with file names in errors shown under `prefix` (the agent
/// folder as the macro was given it), so they read from the crate root.
///
/// Warnings become rustc warnings at `span`; with `deny_warnings` they are
/// errors like the rest. The code is generated from the agent's own
/// registry (lowered once, when it was opened).
pub fn expand_at(
    agent: &crate::Agent,
    span: Span,
    tracked: &[&Path],
    prefix: &str,
    options: &ExpandOptions,
) -> TokenStream {
    let checked = agent.checked();
    let deny_warnings = options.deny_warnings;
    let mut tracked: Vec<String> = tracked.iter().map(|p| p.display().to_string()).collect();
    tracked.sort();
    let tracking = tracked.iter().map(|p| {
        let p = lit_str(p);
        quote!(
            const _: &[u8] = ::core::include_bytes!(#p);
        )
    });
    let warnings: Vec<&Finding> = checked
        .findings
        .iter()
        .filter(|f| f.severity == crate::diagnostics::Severity::Warning)
        .collect();
    let lowered = match agent.registry() {
        Ok(_) if deny_warnings && !warnings.is_empty() => Err(warnings.clone()),
        Ok(registry) => Ok(registry),
        Err(errors) => Err(errors.iter().collect()),
    };
    let warnings: Vec<TokenStream> = if deny_warnings {
        Vec::new()
    } else {
        warnings
            .iter()
            .map(|f| warning(&error_message(f, checked, prefix), f.code, span))
            .collect()
    };
    let body = match lowered {
        Ok(registry) => generate_from(registry, options.strategy, &options.origin),
        Err(errors) => {
            let errors = errors.iter().map(|f| {
                let message = lit_str(&error_message(f, checked, prefix));
                quote_spanned!(span=> ::core::compile_error!(#message);)
            });
            let skeleton = skeleton(checked);
            quote!(#(#errors)* #skeleton)
        }
    };
    quote! {
        #(#tracking)*
        #(#warnings)*
        #body
    }
}

/// The first lines of every generated source file.
pub const HEADER: &str = "// @generated by utter from the agent's responses.yml and memory.yml files.\n// Do not edit: change the YAML files and rebuild.\n\n";

/// Formats generated items as a Rust source file (prettyplease).
#[cfg(feature = "pretty")]
pub fn pretty(tokens: TokenStream, header: &str) -> Result<String, String> {
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    Ok(format!("{header}{}", prettyplease::unparse(&file)))
}
