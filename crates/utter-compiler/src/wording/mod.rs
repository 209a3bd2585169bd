//! Wording ids and the agent's wording fingerprint: SHA-256 over a
//! canonical encoding of what a reviewer saw, so that any tool recomputes
//! them (docs/audit.md) and they change only when the wording does.
//!
//! The encoding of one variant, UTF-8, each line ending in `\n`, `<n>` the
//! byte length of what follows the colon, in decimal:
//!
//! ```text
//! utter wording 1
//! response <n>:<response name>
//! variant <position, from 0>
//! condition <n>:<condition as written, trimmed>    or: condition none
//! rephrase true                                    or: rephrase false
//! text <n>:<text as written>
//! ```
//!
//! A variant's id is the first 8 bytes of its encoding's SHA-256, as 16
//! lowercase hex digits. The agent's fingerprint is the SHA-256 (64 hex
//! digits) of `utter wording fingerprint 1\n` followed by the encodings of
//! every variant of every response the agent itself defines (not the
//! bundled ones it does not override), responses in name order, variants
//! in YAML order.

mod selection;

use std::fmt::Write as _;

use sha2::{Digest as _, Sha256};
use utter::WordingId;

pub use selection::Selection;

/// `bytes` as lowercase hexadecimal (what `sha256sum` prints).
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// What a reviewer saw of one variant.
#[derive(Clone, Copy, Debug)]
pub struct VariantWording<'a> {
    /// The response's name.
    pub response: &'a str,
    /// The variant's position in the response (YAML order, from 0).
    pub position: usize,
    /// Its condition as written (trimmed), if any.
    pub condition: Option<&'a str>,
    /// `metadata.rephrase`.
    pub rephrase: bool,
    /// Its text as written.
    pub text: &'a str,
}

impl VariantWording<'_> {
    /// The canonical encoding (the module's documentation).
    pub fn encoding(&self) -> String {
        let mut out = String::with_capacity(64 + self.response.len() + self.text.len());
        let _ = write!(
            out,
            "utter wording 1\nresponse {}:{}\nvariant {}\n",
            self.response.len(),
            self.response,
            self.position
        );
        match self.condition {
            Some(condition) => {
                let _ = writeln!(out, "condition {}:{condition}", condition.len());
            }
            None => out.push_str("condition none\n"),
        }
        let _ = write!(
            out,
            "rephrase {}\ntext {}:{}\n",
            self.rephrase,
            self.text.len(),
            self.text
        );
        out
    }

    /// The variant's wording id.
    pub fn id(&self) -> WordingId {
        let digest = Sha256::digest(self.encoding().as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        WordingId(u64::from_be_bytes(first))
    }
}

/// The fingerprint of an agent's wording: `variants` are every variant of
/// the agent's own responses, responses in name order, variants in YAML
/// order.
pub fn fingerprint<'a>(variants: impl IntoIterator<Item = VariantWording<'a>>) -> String {
    let mut hash = Sha256::new();
    hash.update(b"utter wording fingerprint 1\n");
    for variant in variants {
        hash.update(variant.encoding().as_bytes());
    }
    hex(&hash.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoding and the id as documented, recomputed by Python's
    /// hashlib (docs/audit.md shows the script):
    /// `hashlib.sha256(encoding.encode()).hexdigest()[:16]`.
    #[test]
    fn ids_are_the_documented_sha256() {
        let variant = VariantWording {
            response: "utter_fee",
            position: 1,
            condition: Some("session.card.rush == True"),
            rephrase: true,
            text: "A fee of ${session.card.fee} applies. ✓",
        };
        assert_eq!(
            variant.encoding(),
            "utter wording 1\nresponse 9:utter_fee\nvariant 1\ncondition 25:session.card.rush == True\nrephrase true\ntext 41:A fee of ${session.card.fee} applies. ✓\n"
        );
        assert_eq!(variant.id().to_string(), PYTHON_ID);
        let plain = VariantWording {
            condition: None,
            rephrase: false,
            ..variant
        };
        assert_ne!(plain.id(), variant.id());
    }

    /// From `python3 -c 'import hashlib; print(hashlib.sha256(...).hexdigest()[:16])'`
    /// over the encoding above.
    const PYTHON_ID: &str = "8521c88c8a3ca8f9";
}
