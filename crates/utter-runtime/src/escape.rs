//! The one escaping rule for data that reaches a terminal, a log, stderr or
//! cargo: names, texts and values are shown, never obeyed. A character that
//! could steer what reads the output (C0 and C1 controls, DEL,
//! bidirectional controls, line and paragraph separators, zero-width and
//! other invisible format characters, Unicode tag characters) is written as
//! `\u{..}`; so no data starts a line of its own, and no line the data
//! writes can be read as a cargo directive or a workflow command. The
//! compiler and the CLI use this rule too (the runtime's fact-guard
//! refusals and `tracing` events print data).

use std::borrow::Cow;

/// Whether `c` must not reach a terminal or a line-oriented reader as it is.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                // Zero-width and invisible: a reader cannot see them, so a
                // log line could hide text in them.
                | '\u{00AD}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200D}'
                | '\u{2060}'..='\u{2064}'
                | '\u{FEFF}'
                // Tag characters: invisible text some models read.
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// `text` with every unsafe character written as `\u{..}` (a tab too: a
/// message is one line).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_written_as_escapes() {
        for c in [
            '\u{200B}',
            '\u{200D}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{E0041}',
            '\u{E007F}',
            '\u{202E}',
            '\n',
        ] {
            let text = format!("a{c}b");
            assert_eq!(escape(&text), format!("a{}b", c.escape_unicode()), "{c:?}");
        }
        assert!(matches!(escape("plain é ✓"), Cow::Borrowed(_)));
    }
}
