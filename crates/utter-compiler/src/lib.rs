//! The utter compiler. The pipeline, one module a step:
//!
//! 1. [`load`]: read the project's files; YAML into spanned nodes; walk them
//!    into raw responses and memory declarations.
//! 2. [`validate`]: check every file (conditions parsed by [`condition`],
//!    placeholders by [`template`]), merge the registry; findings accumulate;
//!    then [`analysis`] decides which variants each memory state delivers.
//! 3. [`lower`](mod@lower): an error-free project into the registry IR,
//!    encoded on demand ([`Registry::encode`]) by the runtime's encoder.
//! 4. Run it: [`interpret`] delivers at run time (on that program);
//!    `codegen` emits Rust (straight-line code, or the program itself for
//!    large agents).
#![forbid(unsafe_code)]

pub mod analysis;
pub mod bundled;
pub mod codegen;
pub mod condition;
pub mod diagnostics;
pub mod interpret;
pub mod load;
pub mod lower;
pub mod names;
pub mod snapshot;
pub mod template;
pub mod validate;

pub use diagnostics::{Finding, Severity, SourceFile, codes};
pub use interpret::{Interpreter, RegistryError};
pub use load::project::{ProjectFiles, ReadError};
pub use lower::{Registry, lower};
pub use validate::{Checked, check};
