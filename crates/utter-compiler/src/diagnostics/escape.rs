//! The one escaping rule for data that reaches a terminal, a log, stderr or
//! cargo: names, texts and paths from an agent folder are shown, never
//! obeyed. A character that could steer what reads the output (C0 and C1
//! controls, DEL, bidirectional controls, line and paragraph separators) is
//! written as `\u{..}`; so no data starts a line of its own, and no line
//! the data writes can be read as a cargo directive or a workflow command.

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

/// `line` with every unsafe character but a tab replaced by U+FFFD, one
/// character for one: for a source snippet, whose underline counts
/// characters.
pub fn mask(line: &str) -> Cow<'_, str> {
    let unsafe_here = |c: char| c != '\t' && is_unsafe(c);
    if !line.chars().any(unsafe_here) {
        return Cow::Borrowed(line);
    }
    Cow::Owned(
        line.chars()
            .map(|c| if unsafe_here(c) { '\u{FFFD}' } else { c })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_characters_are_escaped() {
        let hostile = "a\u{1b}]0;T\u{7}\r\n::error::x\u{9b}\u{7f}\u{202e}\u{2066}\u{2028}\u{85}\tb";
        let shown = escape(hostile);
        assert!(!shown.chars().any(is_unsafe), "{shown}");
        assert!(
            shown.starts_with("a\\u{1b}]0;T\\u{7}\\u{d}\\u{a}::error::x"),
            "{shown}"
        );
        assert_eq!(escape("plain é ✓"), "plain é ✓");
    }

    #[test]
    fn masking_keeps_the_character_count() {
        let line = "x: \u{1b}[2J\u{202e}\tz";
        let masked = mask(line);
        assert_eq!(masked.chars().count(), line.chars().count());
        assert!(!masked.chars().any(|c| c != '\t' && is_unsafe(c)));
        assert!(masked.contains('\t'));
    }
}
