//! Any text as a condition: parsing never panics and errors point inside it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utter_compiler::condition;

fuzz_target!(|text: &str| {
    match condition::parse(text) {
        Ok(expr) => {
            for r in expr.refs() {
                assert!(r.span.end <= text.len() && text.is_char_boundary(r.span.start));
            }
        }
        Err(e) => {
            assert!(e.span.start <= e.span.end && e.span.end <= text.len());
            assert!(!e.message.is_empty());
        }
    }
});
