//! Any bytes as the language server's input: the bounded framing never
//! panics and never allocates what a frame claims (the malloc limit of
//! `run-all.sh` catches that); every message it yields is a JSON-RPC one.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/utter-cli/src/lsp/transport.rs"]
#[allow(dead_code)]
mod transport;

fuzz_target!(|bytes: &[u8]| {
    let mut input = std::io::Cursor::new(bytes);
    for _ in 0..64 {
        match transport::read_message(&mut input) {
            Ok(Some(message)) => {
                // What the server does next with a request: its params as JSON.
                if let lsp_server::Message::Request(request) = message {
                    let _ = serde_json::from_value::<lsp_types::HoverParams>(request.params);
                }
            }
            Ok(None) | Err(_) => break,
        }
    }
});
