//! Any text as a response text: placeholder scanning never panics, and the
//! pieces put back together are the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utter_compiler::template::{RawPiece, scan};

fuzz_target!(|text: &str| {
    let rebuilt: String = scan(text)
        .into_iter()
        .map(|piece| match piece {
            RawPiece::Text(t) => t,
            RawPiece::Session { raw, .. } | RawPiece::Bare { raw, .. } => raw,
        })
        .collect();
    assert_eq!(rebuilt, text);
});
