//! The utter compiler: load a Mantle agent project, validate it, lower it to
//! a registry, and either interpret it or generate Rust code for it.
#![forbid(unsafe_code)]

pub mod condition;
pub mod diagnostics;
pub mod load;
