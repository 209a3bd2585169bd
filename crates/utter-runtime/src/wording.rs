//! Audit: the id of each variant's reviewed wording, carried by every
//! delivery, and (with the `tracing` feature) one event per delivery.

use std::fmt;
use std::str::FromStr;

/// The id of one variant's reviewed wording: the first 8 bytes of the
/// SHA-256 of a canonical encoding of the response name, the variant's
/// position, its condition and text as written and its rephrase flag
/// (docs/audit.md says how to recompute it). Computed when the agent is
/// compiled, carried by every [`Delivery`](crate::Delivery), printed beside
/// the variant in the snapshot: a log line that names it points at the
/// reviewed text. Shown as 16 lowercase hexadecimal digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WordingId(pub u64);

impl fmt::Display for WordingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl fmt::Debug for WordingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WordingId({self})")
    }
}

/// Why a text is not a [`WordingId`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseWordingIdError;

impl fmt::Display for ParseWordingIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a wording id is 16 hexadecimal digits")
    }
}

impl std::error::Error for ParseWordingIdError {}

impl FromStr for WordingId {
    type Err = ParseWordingIdError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ParseWordingIdError);
        }
        u64::from_str_radix(text, 16)
            .map(WordingId)
            .map_err(|_| ParseWordingIdError)
    }
}

/// One `tracing` event for a delivery (target `utter::delivery`, level
/// `INFO`): the response, variant, skill, fallback and rephrase flags and
/// the wording id. Without the `tracing` feature this is nothing at all.
#[inline(always)]
#[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
pub(crate) fn record(
    response: &str,
    variant: Option<usize>,
    wording: Option<WordingId>,
    rephrase: bool,
    skill: Option<&str>,
) {
    #[cfg(feature = "tracing")]
    tracing::event!(
        target: "utter::delivery",
        tracing::Level::INFO,
        response,
        variant,
        wording = wording.map(tracing::field::display),
        skill,
        fallback = variant.is_none(),
        rephrase,
        "delivered"
    );
}

/// One `tracing` event for an asked rephrase (target `utter::rephrase`,
/// level `INFO`): the response, wording id and outcome (`used`, `refused`
/// with the reason, `failed`, or `blank` when the answer was blank).
#[inline(always)]
#[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
pub(crate) fn record_rephrase(
    response: &str,
    wording: Option<WordingId>,
    outcome: &str,
    refused: Option<&crate::FactRefusal>,
) {
    #[cfg(feature = "tracing")]
    {
        let reason = refused.map(ToString::to_string);
        tracing::event!(
            target: "utter::rephrase",
            tracing::Level::INFO,
            response,
            wording = wording.map(tracing::field::display),
            outcome,
            reason,
            "rephrased"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_reads_back_from_its_display() {
        for id in [0, 1, 0xdead_beef, u64::MAX] {
            let shown = WordingId(id).to_string();
            assert_eq!(shown.len(), 16);
            assert_eq!(shown.parse(), Ok(WordingId(id)));
        }
        for bad in [
            "",
            "123",
            "+123456789abcdef",
            "0123456789abcdeg",
            "0123456789abcdef0",
        ] {
            assert_eq!(bad.parse::<WordingId>(), Err(ParseWordingIdError), "{bad}");
        }
    }
}
