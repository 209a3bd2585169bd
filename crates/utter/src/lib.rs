//! **utter**: the responses of a Rasa Mantle agent (`responses.yml`,
//! `memory.yml`, `skills/*/skill.md`), validated and compiled into Rust at
//! build time. The path is relative to the crate's `Cargo.toml`; this
//! example compiles the repository's example agent.
//!
//! ```
//! mod responses {
//!     utter::include_responses!("../../examples/card-agent");
//! }
//! use responses::{Memory, ReplacementReason, Response, Skill};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Typed memory: one field per declared entry, with its type.
//! let mut memory = Memory::new();
//! memory.card_replace.replacement_reason = Some(ReplacementReason::Lost);
//! memory.card_replace.replacement_fee = Some(15.0);
//!
//! let view = memory.view(Skill::CardReplace);
//! let delivery = view.deliver(Response::UtterCardReplacementFee);
//! assert_eq!(delivery.variant, Some(1));
//!
//! // Values that arrive as data are checked against the declared type.
//! assert!(memory.set("card_replace", "replacement_fee", "free").is_err());
//! // Rephrasing follows the variant's `metadata.rephrase`.
//! let spoken = delivery.speak_with(|text| text.to_uppercase());
//! println!("{}", spoken.text);
//! # Ok(())
//! # }
//! ```
//!
//! The runtime items (memory, values, delivery) live in `utter-runtime` and
//! are re-exported here; generated code names them as `::utter::...`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod reload;

pub use reload::HotReload;
#[cfg(feature = "hot-reload")]
pub use reload::{ReloadError, ReloadEvent};
pub use utter_macros::include_responses;
pub use utter_runtime::*;

// The guide's chapters, so that their Rust examples compile as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/typed-api.md")]
mod guide_typed_api {}
#[cfg(doctest)]
#[doc = include_str!("../../../docs/format.md")]
mod guide_format {}
#[cfg(doctest)]
#[doc = include_str!("../../../docs/semantics.md")]
mod guide_semantics {}
#[cfg(doctest)]
#[doc = include_str!("../../../docs/editor.md")]
mod guide_editor {}
#[cfg(doctest)]
#[doc = include_str!("../../../docs/reliability.md")]
mod guide_reliability {}
#[cfg(doctest)]
#[doc = include_str!("../../../docs/performance.md")]
mod guide_performance {}
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
mod readme {}

/// What generated code calls for a development hot reload; not a stable API.
#[doc(hidden)]
pub mod __reload {
    pub use crate::reload::{CompiledAgent, Reload};
}
