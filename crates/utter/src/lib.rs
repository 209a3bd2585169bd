//! **utter**: the responses of a Rasa Mantle agent (`responses.yml`,
//! `memory.yml`), validated and compiled into Rust at build time.
//!
//! ```ignore
//! mod responses {
//!     utter::include_responses!("agent");
//! }
//!
//! let mut memory = responses::memory();
//! memory.set("card_replace", "replacement_reason", "lost")?;
//! let ctx = utter::Context::for_skill(&memory, "card_replace");
//! let delivery = responses::deliver(responses::Response::UtterCardReplacementFee, &ctx);
//! println!("{}", delivery.text);
//! ```
//!
//! The runtime items (memory, values, delivery) live in `utter-runtime` and
//! are re-exported here; generated code names them as `::utter::...`.
#![forbid(unsafe_code)]

pub use utter_macros::include_responses;
pub use utter_runtime::*;
