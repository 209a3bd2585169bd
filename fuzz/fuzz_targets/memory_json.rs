//! Any text as a `--memory` file: the reader never panics; errors have a
//! position inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = utter::json::parse_located(text) {
        assert!(e.offset <= text.len() && e.line >= 1 && e.column >= 1);
    }
});
