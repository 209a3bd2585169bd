//! The utter compiler. The front door is [`Agent`]: [`Agent::open`] (a
//! folder) or [`Agent::from_files`] reads, checks and lowers once, in this
//! order, one module a step:
//!
//! 1. [`load`]: read the project's files; YAML into spanned nodes; walk them
//!    into raw responses and memory declarations.
//! 2. validate: check every file (conditions parsed by [`condition`],
//!    placeholders by [`template`]), merge the registry; findings accumulate.
//! 3. [`lower`](mod@lower): the usable responses (all of them when there is
//!    no error) into the registry IR, encoded on demand
//!    ([`Registry::encode`]) by the runtime's encoder.
//! 4. [`analysis`]: reads that registry and decides which variants each
//!    memory state delivers (its findings join the check's).
//! 5. The back ends read the agent's registry: an [`Interpreter`] delivers
//!    at run time (on that program), [`codegen`] emits Rust (straight-line
//!    code, or the program itself for large agents), [`snapshot`] writes
//!    the wording under review and compares two versions.
//!
//! # Public API
//!
//! What the CLI, the macro, `utter-build`, the facade's hot reload and the
//! benchmarks use, and nothing else:
//!
//! - the front door: [`Agent`] ([`Agent::open`] a folder, or
//!   [`Agent::from_files`] built in memory, with [`OpenOptions`]; a
//!   [`CheckCache`] for a check after an edit): its [`Checked`] project (its
//!   [`Finding`]s, [`MergedResponse`]s, [`SourceFile`]s), its [`Registry`]
//!   ([`Agent::registry`]: lowered once, by the check), [`codes`] and
//!   [`diagnostics`] (rendering, [`diagnostics::escape`], did-you-mean),
//!   [`bundled::Dialect`];
//! - the registry's IR types in [`lower`](mod@lower),
//!   [`Registry::interpreter`], [`Interpreter`], [`Registry::load_strict`]
//!   and [`RegistryError`];
//! - code generation: [`codegen`] (`generate*`, `expand*`,
//!   `include_responses`, `pretty`, [`codegen::Strategy`],
//!   [`codegen::Origin`], and [`codegen::reload`]'s fingerprints);
//! - analyses: [`analysis`] (verdicts and witnesses, findings) and
//!   [`snapshot`] (reviewed wording and diffs);
//! - the parsers, for tools and fuzzing: [`load`] (`project`, `yaml`, the
//!   raw responses, memory declarations and skill.md documents),
//!   [`condition`] and [`template`].
//!
//! Validation, the interpreter and naming are private; the code
//! generator's parts are private to [`codegen`]. The crate is versioned
//! with the rest of utter and makes no stability promise beyond it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod agent;
pub mod analysis;
pub mod bundled;
pub mod codegen;
pub mod condition;
pub mod diagnostics;
mod edit;
mod interpret;
pub mod load;
pub mod lower;
mod memo;
mod names;
pub mod snapshot;
mod strict;
pub mod template;
mod unicode;
mod validate;
pub mod wording;

// The guide's CLI chapter, so that its Rust example (a wording test with
// `utter_compiler::snapshot::check`) compiles as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/cli-and-ci.md")]
mod guide_cli_and_ci {}

pub use agent::{Agent, CheckCache, Options as OpenOptions};
pub use diagnostics::{Finding, Severity, SourceFile, codes};
pub use interpret::Interpreter;
#[cfg(feature = "serde")]
pub use interpret::{Answer, Request, RequestError};
pub use load::project::{ProjectFiles, ReadError};
pub use lower::{Registry, ResponseIndex};
pub use strict::RegistryError;
pub use unicode::is_deceptive;
pub use validate::{Checked, MergedResponse, Scope};
#[cfg(test)]
pub(crate) use {agent::check, lower::lower};
