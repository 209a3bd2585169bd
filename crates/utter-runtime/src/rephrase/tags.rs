//! The tag a fact stands as in a rephrase request: `<f1/>`, `<f2/>`, ...
//! One owner of the format: writing a tag and finding tags in an answer.

use std::ops::Range;

/// The tag of the fact numbered `number` (from 1).
pub(crate) fn tag(number: usize) -> String {
    format!("<f{number}/>")
}

/// Something in a text that is, or tries to be, a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub span: Range<usize>,
    /// The fact's number when the tag is written exactly; `None` for a tag
    /// written otherwise (`<f 1/>`, `</f1>`, `<F1>`).
    pub number: Option<usize>,
}

/// The longest a tag attempt is read (`<` to `>`): past it, it ends.
const MAX_TAG_LEN: usize = 24;

/// Every tag and tag attempt in `text`, in order: `<`, then optional
/// spaces and `/`, then `f` or `F` and a digit.
pub(crate) fn find(text: &str) -> Vec<Found> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].find('<') {
        let start = from + offset;
        from = start + 1;
        let Some(end) = attempt_end(bytes, start) else {
            continue;
        };
        let number = exact(&text[start..end]);
        found.push(Found {
            span: start..end,
            number,
        });
        from = end;
    }
    found
}

/// Where a tag attempt starting at `start` (a `<`) ends, if it is one.
fn attempt_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    while matches!(bytes.get(at), Some(b' ' | b'/')) {
        at += 1;
    }
    if !matches!(bytes.get(at), Some(b'f' | b'F')) {
        return None;
    }
    at += 1;
    while bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    if !bytes.get(at).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let limit = (start + MAX_TAG_LEN).min(bytes.len());
    let close = bytes[at..limit].iter().position(|&b| b == b'>');
    Some(match close {
        Some(close) => at + close + 1,
        // No `>` near: the attempt is its digits.
        None => {
            at + bytes[at..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count()
        }
    })
}

/// The number of an exactly written tag (`<f12/>`), digits without a
/// leading zero.
fn exact(written: &str) -> Option<usize> {
    let digits = written.strip_prefix("<f")?.strip_suffix("/>")?;
    let exact = !digits.is_empty()
        && digits.len() <= 6
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0');
    exact.then(|| digits.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_tags_and_attempts_are_told_apart() {
        let text = "a <f1/> b <f12/> c <f 3/> d </f4> e <F5/> f <f06/> g <b>x</b> <f7>";
        let found: Vec<(&str, Option<usize>)> = find(text)
            .into_iter()
            .map(|f| (&text[f.span], f.number))
            .collect();
        assert_eq!(
            found,
            [
                ("<f1/>", Some(1)),
                ("<f12/>", Some(12)),
                ("<f 3/>", None),
                ("</f4>", None),
                ("<F5/>", None),
                ("<f06/>", None),
                ("<f7>", None),
            ]
        );
        assert_eq!(tag(3), "<f3/>");
        assert!(find("a < b, x<y, <<f").is_empty());
        // An attempt with no `>` near ends with its digits.
        let far = format!("<f9{}", "x".repeat(40));
        assert_eq!(find(&far)[0].span, 0..3);
    }
}
