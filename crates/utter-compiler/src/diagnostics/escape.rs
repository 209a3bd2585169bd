//! The one escaping rule for data that reaches a terminal, a log, stderr or
//! cargo: names, texts and paths from an agent folder are shown, never
//! obeyed. A character that could steer what reads the output (C0 and C1
//! controls, DEL, bidirectional controls, line and paragraph separators) is
//! written as `\u{..}`; so no data starts a line of its own, and no line
//! the data writes can be read as a cargo directive or a workflow command.

use std::borrow::Cow;

// The rule itself lives in the runtime, whose refusals and events print data too.
pub use utter::escape::{escape, is_unsafe};

/// Whether `c` is invisible or looks like a space without being one: a
/// reviewer could not tell two texts apart by looking (zero-width and
/// format characters, variation selectors, tags, the other spaces).
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}'
            | '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{1680}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2000}'..='\u{200D}'
            | '\u{202F}'
            | '\u{205F}'..='\u{2064}'
            | '\u{206A}'..='\u{206F}'
            | '\u{3000}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// `text` as one double-quoted string that no other text writes: `\` and
/// `"` escaped, a newline, tab and carriage return as `\n`, `\t`, `\r`, and
/// every unsafe or invisible character as `\u{..}`. So a quoted text stays
/// on its line, cannot pose as the structure around it, and shows each
/// character a reviewer must see; [`unquote`] reads it back.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_unsafe(c) || is_invisible(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The text [`quote()`] wrote as `quoted` (quotes included); `None` when
/// `quoted` is not one quoted string.
pub fn unquote(quoted: &str) -> Option<String> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            '\\' => match chars.next()? {
                '\\' => out.push('\\'),
                '"' => out.push('"'),
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'u' => {
                    if chars.next()? != '{' {
                        return None;
                    }
                    let mut hex = String::new();
                    loop {
                        match chars.next()? {
                            '}' => break,
                            h if h.is_ascii_hexdigit() && hex.len() < 6 => hex.push(h),
                            _ => return None,
                        }
                    }
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

/// `text` as a Markdown code span: [`escape`]d, so it stays on one line,
/// between backtick fences longer than any run of backticks in it, so no
/// emphasis, HTML, comment, mention or link is ever made of it (padded with
/// a space where it starts or ends with a backtick or a space, which
/// CommonMark strips again).
pub fn markdown_code(text: &str) -> String {
    let text = escape(text);
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = text.is_empty() || text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']);
    let pad = if pad { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `text` as Markdown text that reads as itself: [`escape`]d (one line),
/// every character that can open markup backslash-escaped (emphasis,
/// code, HTML, links, images, headings, tables, strikethrough, entities),
/// and the `:` of `://` and the `.` of `www.` too, so no autolink is made.
pub fn markdown_text(text: &str) -> String {
    let text = escape(text);
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.char_indices() {
        let rest = &text[i..];
        let autolink = (c == ':' && rest.starts_with("://"))
            || (c == '.' && text[..i].to_ascii_lowercase().ends_with("www"));
        if autolink
            || matches!(
                c,
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '!' | '#' | '|' | '~' | '&'
            )
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as HTML text that reads as itself: the five characters HTML
/// gives meaning to as entities, and every unsafe or invisible character
/// (and a tab, newline or carriage return) as a visible `\u{..}`, so a
/// reviewer sees each character and no data becomes markup.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_unsafe(c) || is_invisible(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
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
    fn quoting_is_one_to_one_and_stays_on_its_line() {
        let samples = [
            "",
            "plain",
            "a\\u{1b}b",
            "a\u{1b}b",
            "\"\\\"",
            "line\nnext\r\t",
            "\u{200b}zero\u{a0}width\u{feff}",
            "\u{202e}bidi",
        ];
        for s in samples {
            let q = quote(s);
            assert_eq!(unquote(&q).as_deref(), Some(s), "{q}");
            assert!(!q.chars().any(|c| is_unsafe(c) || is_invisible(c)), "{q}");
        }
        // An escape written out and the character it names differ.
        assert_ne!(quote("a\\u{1b}b"), quote("a\u{1b}b"));
        assert_eq!(unquote("\"a\"b\""), None);
        assert_eq!(unquote("\"\\q\""), None);
    }

    #[test]
    fn markdown_text_opens_no_markup() {
        assert_eq!(
            markdown_text("*a* <b> [l](x) https://e.x www.e.x `c` #h"),
            "\\*a\\* \\<b\\> \\[l\\](x) https\\://e.x www\\.e.x \\`c\\` \\#h"
        );
        assert_eq!(
            markdown_text("session.s.x = 'lost'"),
            "session.s.x = 'lost'"
        );
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
