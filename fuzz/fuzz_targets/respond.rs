//! Any bytes as a request to the playground's module (`respond`): hostile
//! JSON, file maps with odd names and contents, every operation. It never
//! panics, and always answers one JSON object.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let request = String::from_utf8_lossy(data);
    let answer = utter_playground::respond(&request);
    let parsed: serde_json::Value = serde_json::from_str(&answer).expect("the answer is JSON");
    assert!(parsed.is_object(), "{answer}");
});
