//! Positions and URIs as the Language Server Protocol has them: lines and
//! UTF-16 columns, `file://` URIs.

use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use lsp_types::{Position, Range, Uri};
use utter_compiler::SourceFile;

/// The LSP position of byte `offset` of `text` (clamped to the text).
pub fn position(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    Position::new(line as u32, character as u32)
}

/// The byte offset of an LSP position (clamped to its line and the text).
pub fn offset(text: &str, position: Position) -> usize {
    offset_from(text, (0, 0), position).0
}

/// [`offset`], the lines counted from line `from.0`, which starts at byte
/// `from.1` (at or before the position's line); with the start of the
/// position's line, to count from for a later position.
fn offset_from(text: &str, from: (u32, usize), position: Position) -> (usize, (u32, usize)) {
    let lines = position.line.saturating_sub(from.0) as usize;
    let Some(line_start) = line_start(&text.as_bytes()[from.1..], lines).map(|at| from.1 + at)
    else {
        return (text.len(), from);
    };
    let line = (position.line.max(from.0), line_start);
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let mut units = 0usize;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= position.character as usize {
            return (line_start + i, line);
        }
        units += c.len_utf16();
    }
    (line_end, line)
}

/// The text of a document after the editor's `changes`, in order, to the
/// text `held` of it: each replaces a range (positions clamped to the
/// text), or the whole text when it has none. An edit of a range of a text
/// not held (never opened, or refused) cannot be made: why, in words.
pub fn apply_changes(
    held: Option<String>,
    changes: Vec<lsp_types::TextDocumentContentChangeEvent>,
) -> Result<String, String> {
    let mut text = held;
    for change in changes {
        match (change.range, text.as_mut()) {
            (None, _) => text = Some(change.text),
            (Some(range), Some(text)) => {
                // The end is found from the start's line, not the text's.
                let (start, line) = offset_from(text, (0, 0), range.start);
                let from = if range.end.line >= range.start.line {
                    line
                } else {
                    (0, 0)
                };
                let (end, _) = offset_from(text, from, range.end);
                text.replace_range(start.min(end)..start.max(end), &change.text);
            }
            (Some(_), None) => {
                return Err("the editor sent an edit of this document, but utter does not hold its text (it was not opened, or was refused); it is not checked until it is closed and opened again".to_owned());
            }
        }
    }
    text.ok_or_else(|| {
        "the editor sent a change without text; close and open the document again".to_owned()
    })
}

/// Where line `line` (0-based) of `bytes` starts, if it has that many
/// (a keystroke in a big document looks its line up): the newlines of
/// whole blocks counted at once, then of the last block one by one.
fn line_start(bytes: &[u8], line: usize) -> Option<usize> {
    const BLOCK: usize = 256;
    let mut left = line;
    let mut at = 0;
    while left > 0 && at + BLOCK <= bytes.len() {
        let count = utter_compiler::diagnostics::newlines(&bytes[at..at + BLOCK]);
        if count >= left {
            break;
        }
        left -= count;
        at += BLOCK;
    }
    for (i, &b) in bytes[at..].iter().enumerate() {
        if left == 0 {
            return Some(at + i);
        }
        left -= usize::from(b == b'\n');
    }
    (left == 0).then_some(bytes.len())
}

pub fn range(text: &str, span: &std::ops::Range<usize>) -> Range {
    Range::new(position(text, span.start), position(text, span.end))
}

/// [`position`] in a checked source, from its line index: O(log n) for the
/// line, and the column counted on that line only (a line over 4 KiB
/// counts characters, O(log n), rather than UTF-16 units), so the
/// diagnostics of a file cost linear time in their number.
pub fn position_in(source: &SourceFile, offset: usize) -> Position {
    let offset = source.floor_boundary(offset);
    let line = source.line_range(offset);
    let character = if line.end - line.start <= 4096 {
        source.text[line.start..offset]
            .chars()
            .map(char::len_utf16)
            .sum()
    } else {
        source.char_column(offset)
    };
    Position::new(source.line_index(offset) as u32, character as u32)
}

/// [`range`] in a checked source (see [`position_in`]).
pub fn range_in(source: &SourceFile, span: &std::ops::Range<usize>) -> Range {
    Range::new(
        position_in(source, span.start),
        position_in(source, span.end),
    )
}

/// The path of a `file://` URI, percent-decoded; `None` for other schemes.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let mut bytes = Vec::with_capacity(rest.len());
    let raw = rest.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            bytes.push(b);
            i += 3;
            continue;
        }
        bytes.push(raw[i]);
        i += 1;
    }
    let path = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` on Windows; `file:///x` elsewhere.
    Some(PathBuf::from(path))
}

/// The `file://` URI of an absolute path.
pub fn uri_of(path: &Path) -> Uri {
    let out = format!("file://{}", crate::output::uri(&path.to_string_lossy()));
    Uri::from_str(&out).expect("a percent-encoded file URI is valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line is found where counting newlines one by one finds it.
    #[test]
    fn lines_start_where_counting_finds_them() {
        let text = "a\n\nlonger line here\n\n\n\n\n\n\n\nx😀y\nend\n".repeat(40);
        let text = text.as_str();
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        for (line, &start) in starts.iter().enumerate() {
            assert_eq!(
                line_start(text.as_bytes(), line),
                Some(start),
                "line {line}"
            );
        }
        assert_eq!(line_start(text.as_bytes(), starts.len()), None);
        assert_eq!(line_start(b"", 0), Some(0));
        assert_eq!(line_start(b"abc\n", 1), Some(4));
    }

    /// Edits apply in order, at UTF-16 positions, as the editor made them.
    #[test]
    fn incremental_changes_apply_in_order_at_utf16_positions() {
        let change = |range: Option<((u32, u32), (u32, u32))>, text: &str| {
            lsp_types::TextDocumentContentChangeEvent {
                range: range.map(|((l0, c0), (l1, c1))| {
                    Range::new(Position::new(l0, c0), Position::new(l1, c1))
                }),
                range_length: None,
                text: text.to_owned(),
            }
        };
        let held = Some("a😀b\nsecond\n".to_owned());
        let edited = apply_changes(
            held.clone(),
            vec![
                // After the emoji: two UTF-16 units past `a`.
                change(Some(((0, 3), (0, 3))), "X"),
                // Sees the first edit: line 1 is still `second`.
                change(Some(((1, 0), (1, 3))), "SEC"),
                // A range given end first, and one past the end (clamped).
                change(Some(((1, 6), (1, 3))), "OND"),
                change(Some(((9, 0), (9, 0))), "end"),
            ],
        );
        assert_eq!(edited.as_deref(), Ok("a😀Xb\nSECOND\nend"));
        let replaced = apply_changes(
            held,
            vec![change(None, "new"), change(Some(((0, 3), (0, 3))), "!")],
        );
        assert_eq!(replaced.as_deref(), Ok("new!"));
        let unheld = apply_changes(None, vec![change(Some(((0, 0), (0, 0))), "x")]);
        assert!(unheld.unwrap_err().contains("does not hold its text"));
        assert_eq!(
            apply_changes(None, vec![change(None, "t")]).as_deref(),
            Ok("t")
        );
    }

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\n😀b\nc";
        assert_eq!(position(text, 7), Position::new(1, 3));
        assert_eq!(offset(text, Position::new(1, 3)), 7);
        assert_eq!(offset(text, Position::new(1, 99)), 7, "clamped to the line");
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
        assert_eq!(position(text, 999), Position::new(2, 1));
        // The line index agrees with the scan, at every offset.
        let source = SourceFile::new("f", text);
        for at in 0..=text.len() + 2 {
            assert_eq!(position_in(&source, at), position(text, at), "offset {at}");
        }
    }

    #[test]
    fn uris_round_trip() {
        let path = Path::new("/tmp/a b/é.yml");
        let uri = uri_of(path);
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%A9.yml");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }
}
