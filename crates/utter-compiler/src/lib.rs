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
//! - reading and checking: [`ProjectFiles::read`], [`check`] into
//!   [`Checked`] (its [`Finding`]s, [`MergedResponse`]s, [`SourceFile`]s),
//!   [`codes`] and [`diagnostics`] (rendering, [`diagnostics::escape`],
//!   did-you-mean), [`bundled::Dialect`];
//! - the registry: [`lower()`] into a [`Registry`] (its IR types in
//!   [`lower`](mod@lower)), [`Registry::interpreter`], [`Interpreter`],
//!   [`Registry::load_strict`] and [`RegistryError`];
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
pub use load::project::{ProjectFiles, ReadError};
pub use lower::{Registry, ResponseIndex, lower, lower_usable, usable_responses};
pub use strict::RegistryError;
pub use unicode::is_deceptive;
pub use validate::{Checked, MergedResponse, Scope};

/// Checks the whole project: every file and the merged registry, then the
/// variants of each response together, for every response that is valid
/// on its own and reads only valid entries (a broken response is not
/// analysed: no cascades; an error elsewhere does not hide the analysis).
pub fn check(files: &ProjectFiles) -> Checked {
    check_and_lower(files, &mut CheckCache::disabled()).0
}

/// [`check`], and the lowering of the usable responses the analysis read
/// (the whole registry when the project has no errors). The pipeline in
/// its order: validate, lower, analyse.
pub(crate) fn check_and_lower(files: &ProjectFiles, cache: &mut CheckCache) -> (Checked, Registry) {
    cache.begin(files);
    let mut checked = validate::validate(files, &mut cache.units);
    let registry = lower::lower_usable_with(&checked, &cache.units, &mut cache.lowered);
    let mut found = analysis::findings_with(&checked, &registry, &mut cache.verdicts);
    checked.lints.apply(&mut found);
    checked.findings.extend(found);
    diagnostics::sort_findings(&mut checked.findings);
    (checked, registry)
}
