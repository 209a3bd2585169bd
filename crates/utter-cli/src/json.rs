//! The JSON shapes `utter` prints. Written by hand: two small fixed shapes do
//! not need a serialisation framework in every clean build.

use std::fmt::Write as _;

use utter::Delivery;
use utter_compiler::Finding;

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_owned(), string)
}

fn opt_index(i: Option<usize>) -> String {
    i.map_or_else(|| "null".to_owned(), |i| i.to_string())
}

/// `{"findings": [{"code","severity","file","response","variant","line","column","message"}, ...]}`
pub fn findings(findings: &[Finding]) -> String {
    let items: Vec<String> = findings
        .iter()
        .map(|f| {
            format!(
                "{{\"code\":{},\"severity\":{},\"file\":{},\"response\":{},\"variant\":{},\"line\":{},\"column\":{},\"message\":{}}}",
                string(f.code),
                string(f.severity.as_str()),
                string(&f.file),
                opt_string(f.response.as_deref()),
                opt_index(f.variant),
                f.line,
                f.column,
                string(&f.message)
            )
        })
        .collect();
    format!("{{\"findings\":[{}]}}", items.join(","))
}

/// `{"text","response","variant","rephrase","fallback"}`
pub fn delivery(d: &Delivery<'_>) -> String {
    format!(
        "{{\"text\":{},\"response\":{},\"variant\":{},\"rephrase\":{},\"fallback\":{}}}",
        string(&d.text),
        string(d.response),
        opt_index(d.variant),
        d.rephrase,
        d.fallback
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\u0001é\"");
    }
}
