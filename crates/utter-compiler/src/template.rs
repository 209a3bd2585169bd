//! Placeholders in response text, found in one left-to-right pass with the
//! reference engine's rules: `{session.<anything but }>}` or `{<ascii identifier>}`.
//! There is no escape: any other brace is literal text.

use std::ops::Range;

/// One piece of a text as scanned, before placeholders are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawPiece {
    /// Literal text.
    Text(String),
    /// `{session.REF}`; `reference` is REF.
    Session {
        /// What follows `session.`.
        reference: String,
        /// The placeholder as written, braces included.
        raw: String,
        /// Where it is in the text.
        span: Range<usize>,
    },
    /// `{name}`.
    Bare {
        /// The entry name.
        name: String,
        /// The placeholder as written, braces included.
        raw: String,
        /// Where it is in the text.
        span: Range<usize>,
    },
}

impl RawPiece {
    /// Splits a `{session.REF}` reference into namespace and entry, when REF
    /// has a dot (without one it is never a memory key).
    pub fn session_key(reference: &str) -> Option<(&str, &str)> {
        reference.split_once('.')
    }
}

/// `[A-Za-z_][A-Za-z0-9_]*` at the start of `s`; returns its length.
fn ascii_identifier(s: &str) -> usize {
    let b = s.as_bytes();
    if !b
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return 0;
    }
    b.iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count()
}

/// Splits `text` into literal text and placeholders; spans are byte ranges in `text`.
pub fn scan(text: &str) -> Vec<RawPiece> {
    let mut pieces = Vec::new();
    let mut literal_start = 0;
    let mut i = 0;
    while let Some(found) = text[i..].find('{') {
        let open = i + found;
        let rest = &text[open + 1..];
        let placeholder = if let Some(body) = rest.strip_prefix("session.") {
            body.find('}').filter(|&n| n > 0).map(|n| {
                let end = open + 1 + "session.".len() + n + 1;
                let reference = body[..n].to_owned();
                (
                    end,
                    RawPiece::Session {
                        reference,
                        raw: text[open..end].to_owned(),
                        span: open..end,
                    },
                )
            })
        } else {
            None
        };
        let placeholder = placeholder.or_else(|| {
            let n = ascii_identifier(rest);
            (n > 0 && rest[n..].starts_with('}')).then(|| {
                let end = open + 1 + n + 1;
                (
                    end,
                    RawPiece::Bare {
                        name: rest[..n].to_owned(),
                        raw: text[open..end].to_owned(),
                        span: open..end,
                    },
                )
            })
        });
        match placeholder {
            Some((end, piece)) => {
                if open > literal_start {
                    pieces.push(RawPiece::Text(text[literal_start..open].to_owned()));
                }
                pieces.push(piece);
                literal_start = end;
                i = end;
            }
            None => i = open + 1,
        }
    }
    if literal_start < text.len() {
        pieces.push(RawPiece::Text(text[literal_start..].to_owned()));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(text: &str) -> Vec<String> {
        scan(text)
            .into_iter()
            .map(|p| match p {
                RawPiece::Text(t) => format!("T:{t}"),
                RawPiece::Session { reference, .. } => format!("S:{reference}"),
                RawPiece::Bare { name, .. } => format!("B:{name}"),
            })
            .collect()
    }

    #[test]
    fn finds_both_placeholder_forms() {
        assert_eq!(
            shapes("Card {session.card.label}, reason {reason}."),
            ["T:Card ", "S:card.label", "T:, reason ", "B:reason", "T:."]
        );
    }

    #[test]
    fn follows_the_reference_regex() {
        assert_eq!(
            shapes("{ x } {1x} {é} {session.} {}"),
            ["T:{ x } {1x} {é} {session.} {}"]
        );
        assert_eq!(shapes("{{x}}"), ["T:{", "B:x", "T:}"]);
        assert_eq!(shapes("{session.a.b.c}"), ["S:a.b.c"]);
        assert_eq!(shapes("{session.{x}"), ["S:{x"]);
        assert_eq!(shapes("{session}"), ["B:session"]);
        assert_eq!(shapes("{session.a"), ["T:{session.a"]);
        assert_eq!(shapes(""), Vec::<String>::new());
    }
}
