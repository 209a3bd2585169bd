//! The module's transport, plain exports with no bindings generator: the
//! page asks for a request buffer of a length ([`utter_request_buffer`]),
//! writes the request's UTF-8 bytes into it, calls [`utter_respond`] (the
//! answer's length) and reads the answer at [`utter_answer`]. Only
//! numbers cross; Rust never reads memory it does not own, so there is no
//! unsafe block, only the attribute that exports a symbol.

use std::cell::RefCell;

use crate::respond;

thread_local! {
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` zero bytes for the next request, reused from call to
/// call; its address, valid until the next call into the module.
#[allow(unsafe_code)] // exporting the symbol is the only unsafe part
#[unsafe(no_mangle)]
pub extern "C" fn utter_request_buffer(len: usize) -> *mut u8 {
    REQUEST.with_borrow_mut(|request| {
        request.clear();
        request.resize(len, 0);
        request.as_mut_ptr()
    })
}

/// Answers the request in the buffer; the answer's length in bytes.
#[allow(unsafe_code)] // exporting the symbol is the only unsafe part
#[unsafe(no_mangle)]
pub extern "C" fn utter_respond() -> usize {
    let answer = REQUEST.with_borrow(|request| match std::str::from_utf8(request) {
        Ok(text) => respond(text),
        Err(e) => {
            serde_json::json!({ "error": format!("the request is not UTF-8: {e}") }).to_string()
        }
    });
    ANSWER.with_borrow_mut(|kept| {
        *kept = answer.into_bytes();
        kept.len()
    })
}

/// The address of the last answer, valid until the next call into the
/// module.
#[allow(unsafe_code)] // exporting the symbol is the only unsafe part
#[unsafe(no_mangle)]
pub extern "C" fn utter_answer() -> *const u8 {
    ANSWER.with_borrow(|answer| answer.as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's side, natively: write into the lent buffer, read back.
    fn call(request: &[u8]) -> String {
        let buffer = utter_request_buffer(request.len());
        let lent = REQUEST.with_borrow(|r| r.as_ptr());
        assert_eq!(buffer.cast_const(), lent);
        REQUEST.with_borrow_mut(|r| r.copy_from_slice(request));
        let len = utter_respond();
        let at = utter_answer();
        ANSWER.with_borrow(|a| {
            assert_eq!((a.as_ptr(), a.len()), (at, len));
            String::from_utf8(a.clone()).unwrap()
        })
    }

    #[test]
    fn a_request_crosses_as_bytes_and_the_answer_comes_back() {
        let answer = call(br#"{"op":"check","files":{"responses.yml":"responses:\n  utter_hi:\n    - text: Hi\n"}}"#);
        let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
        let names: Vec<_> = answer["responses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["name"].as_str().unwrap(), r["bundled"].as_bool().unwrap()))
            .collect();
        assert!(names.contains(&("utter_hi", false)), "{names:?}");
        // A shorter request after a longer one: the buffer is its length.
        let answer = call(b"\xff{");
        assert!(answer.contains("not UTF-8"), "{answer}");
    }
}
