//! `include_responses!`: a thin shim over `utter_compiler::codegen`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use proc_macro::TokenStream;

/// Compiles the agent project at the given path (relative to the crate's
/// `Cargo.toml`) into Rust items: `Response`, `ENTRIES`, `SKILLS`, `memory()`,
/// `deliver()` and `deliver_name()`. Every invalid variant is a compile error.
#[proc_macro]
pub fn include_responses(input: TokenStream) -> TokenStream {
    utter_compiler::codegen::include_responses(input.into()).into()
}
