//! Python tokenisation, for the subset of tokens a condition may hold; any
//! other Python token is lexed too, so the parser can name what it rejects.

use std::ops::Range;

use super::ConditionError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Name(String),
    Int(i64),
    Float(f64),
    Str(String),
    /// An operator or delimiter, as written (`==`, `(`, `+`, ...).
    Op(&'static str),
    End,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Range<usize>,
}

const OPERATORS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "<", ">", "(", ")", "[", "]", "{", "}",
    ",", ":", ";", ".", "=", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "!",
];

/// Python's keywords: they cannot be names, so not memory reference segments.
pub const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

fn err(span: Range<usize>, message: impl Into<String>) -> ConditionError {
    ConditionError {
        span,
        message: message.into(),
    }
}

fn is_id_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

fn is_id_continue(c: char) -> bool {
    unicode_ident::is_xid_continue(c)
}

/// Splits `src` into tokens. Line breaks are allowed only inside brackets
/// (as in Python); comments are refused.
pub fn tokenize(src: &str) -> Result<Vec<Token>, ConditionError> {
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let bytes = src.as_bytes();
    while i < src.len() {
        let c = src[i..].chars().next().unwrap_or(' ');
        let start = i;
        match c {
            ' ' | '\t' | '\x0c' => i += 1,
            '\r' | '\n' => {
                if depth == 0 {
                    return Err(err(
                        start..start + 1,
                        "a condition is a single line; line breaks are allowed only inside parentheses",
                    ));
                }
                i += 1;
            }
            '\\' => {
                // An explicit line continuation, as Python allows.
                let rest = &src[i + 1..];
                let skip = if rest.starts_with("\r\n") {
                    2
                } else if rest.starts_with('\n') || rest.starts_with('\r') {
                    1
                } else {
                    return Err(err(start..start + 1, "unexpected `\\` outside a string"));
                };
                i += 1 + skip;
            }
            '#' => {
                return Err(err(
                    start..src.len(),
                    "comments (`#`) are not allowed in conditions",
                ));
            }
            '0'..='9' => {
                let (tok, end) = lex_number(src, i)?;
                tokens.push(Token {
                    tok,
                    span: start..end,
                });
                i = end;
            }
            '.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let (tok, end) = lex_number(src, i)?;
                tokens.push(Token {
                    tok,
                    span: start..end,
                });
                i = end;
            }
            '\'' | '"' => {
                let (text, end) = lex_string(src, i, false)?;
                tokens.push(Token {
                    tok: Tok::Str(text),
                    span: start..end,
                });
                i = end;
            }
            c if is_id_start(c) => {
                let (tok, end) = lex_word(src, i)?;
                tokens.push(Token {
                    tok,
                    span: start..end,
                });
                i = end;
            }
            _ => {
                let Some(op) = OPERATORS.iter().find(|op| src[i..].starts_with(**op)) else {
                    return Err(err(
                        start..start + c.len_utf8(),
                        format!("unexpected character `{c}`"),
                    ));
                };
                match *op {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth = depth.saturating_sub(1),
                    _ => {}
                }
                tokens.push(Token {
                    tok: Tok::Op(op),
                    span: start..start + op.len(),
                });
                i += op.len();
            }
        }
    }
    tokens.push(Token {
        tok: Tok::End,
        span: src.len()..src.len(),
    });
    Ok(tokens)
}

/// The name from byte `start`, or the string it prefixes (`r'…'`, `u'…'`;
/// bytes and f-strings are errors); the token and where it ends.
fn lex_word(src: &str, start: usize) -> Result<(Tok, usize), ConditionError> {
    let end = src[start..]
        .char_indices()
        .find(|&(_, c)| !is_id_continue(c))
        .map_or(src.len(), |(j, _)| start + j);
    let word = &src[start..end];
    if matches!(src.as_bytes().get(end), Some(b'\'' | b'"')) {
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "r" | "u" => {
                let (text, str_end) = lex_string(src, end, lower == "r")?;
                return Ok((Tok::Str(text), str_end));
            }
            "b" | "br" | "rb" => {
                return Err(err(
                    start..end + 1,
                    "bytes literals are not supported; use a plain string",
                ));
            }
            "f" | "fr" | "rf" | "t" | "tr" | "rt" => {
                return Err(err(
                    start..end + 1,
                    "f-strings are not supported in conditions",
                ));
            }
            _ => {}
        }
    }
    Ok((Tok::Name(word.to_owned()), end))
}

/// Digits of one radix with single underscores between them; returns the end.
fn digits(src: &str, mut i: usize, radix: u32) -> Result<usize, ConditionError> {
    let bytes = src.as_bytes();
    let start = i;
    let mut last_underscore = false;
    while let Some(&b) = bytes.get(i) {
        if (b as char).is_digit(radix) {
            last_underscore = false;
        } else if b == b'_' && i > start && !last_underscore {
            last_underscore = true;
        } else {
            break;
        }
        i += 1;
    }
    if last_underscore {
        return Err(err(
            i - 1..i,
            "invalid number literal: `_` must separate digits",
        ));
    }
    Ok(i)
}

fn lex_number(src: &str, start: usize) -> Result<(Tok, usize), ConditionError> {
    let bytes = src.as_bytes();
    let mut i = start;
    let radix = match (bytes[i], bytes.get(i + 1).map(u8::to_ascii_lowercase)) {
        (b'0', Some(b'x')) => Some(16),
        (b'0', Some(b'o')) => Some(8),
        (b'0', Some(b'b')) => Some(2),
        _ => None,
    };
    let tok = if let Some(radix) = radix {
        let body_start = i + 2;
        // Python allows one `_` right after the prefix.
        let body = if bytes.get(body_start) == Some(&b'_') {
            body_start + 1
        } else {
            body_start
        };
        i = digits(src, body, radix)?;
        if i == body {
            return Err(err(start..i, "invalid number literal"));
        }
        let text: String = src[body..i].chars().filter(|&c| c != '_').collect();
        let value = i64::from_str_radix(&text, radix)
            .map_err(|_| err(start..i, "integer literal is out of range (64-bit)"))?;
        Tok::Int(value)
    } else {
        i = digits(src, i, 10)?;
        let int_part = &src[start..i];
        let mut is_float = false;
        if bytes.get(i) == Some(&b'.') {
            is_float = true;
            i += 1;
            if bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i = digits(src, i, 10)?;
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(bytes.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if bytes.get(j).is_some_and(u8::is_ascii_digit) {
                is_float = true;
                i = digits(src, j, 10)?;
            }
        }
        let text: String = src[start..i].chars().filter(|&c| c != '_').collect();
        if is_float {
            Tok::Float(
                text.parse()
                    .map_err(|_| err(start..i, "invalid float literal"))?,
            )
        } else {
            if int_part.len() > 1
                && int_part.starts_with('0')
                && int_part.bytes().any(|b| (b'1'..=b'9').contains(&b))
            {
                return Err(err(
                    start..i,
                    "leading zeros in decimal integer literals are not permitted",
                ));
            }
            Tok::Int(
                text.parse()
                    .map_err(|_| err(start..i, "integer literal is out of range (64-bit)"))?,
            )
        }
    };
    match src[i..].chars().next() {
        Some('j' | 'J') => Err(err(
            start..i + 1,
            "complex number literals are not supported",
        )),
        Some(c) if is_id_continue(c) => Err(err(start..i + c.len_utf8(), "invalid number literal")),
        _ => Ok((tok, i)),
    }
}

fn lex_string(src: &str, start: usize, raw: bool) -> Result<(String, usize), ConditionError> {
    let quote = src.as_bytes()[start] as char;
    let triple: String = std::iter::repeat_n(quote, 3).collect();
    let is_triple = src[start..].starts_with(&triple);
    let body_start = start + if is_triple { 3 } else { 1 };
    let mut out = String::new();
    let mut chars = src[body_start..].char_indices().peekable();
    while let Some((off, c)) = chars.next() {
        let at = body_start + off;
        if c == quote {
            if !is_triple {
                return Ok((out, at + 1));
            }
            if src[at..].starts_with(&triple) {
                return Ok((out, at + 3));
            }
            out.push(c);
            continue;
        }
        if (c == '\n' || c == '\r') && !is_triple {
            break;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        if raw {
            // Raw strings keep the backslash; it only stops a quote ending the string.
            out.push('\\');
            out.push(e);
            continue;
        }
        let escape_span = at..at + 1 + e.len_utf8();
        match e {
            '\n' => {}
            '\r' => {
                if chars.peek().is_some_and(|&(_, c)| c == '\n') {
                    chars.next();
                }
            }
            '\\' | '\'' | '"' => out.push(e),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek() {
                        Some(&(_, d)) if d.is_digit(8) => {
                            value = value * 8 + d.to_digit(8).unwrap_or(0);
                            chars.next();
                        }
                        _ => break,
                    }
                }
                out.push(char::from_u32(value).unwrap_or('\u{fffd}'));
            }
            'x' | 'u' | 'U' => {
                let len = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut value = 0u32;
                for _ in 0..len {
                    match chars.next() {
                        Some((_, d)) if d.is_ascii_hexdigit() => {
                            value = value * 16 + d.to_digit(16).unwrap_or(0);
                        }
                        _ => {
                            return Err(err(
                                escape_span,
                                format!("truncated `\\{e}` escape: it takes {len} hex digits"),
                            ));
                        }
                    }
                }
                let Some(ch) = char::from_u32(value) else {
                    return Err(err(
                        escape_span,
                        format!("`\\{e}{value:x}` is not a Unicode scalar value"),
                    ));
                };
                out.push(ch);
            }
            'N' => {
                return Err(err(
                    escape_span,
                    "named Unicode escapes (`\\N{...}`) are not supported; write the character or `\\u` + 4 hex digits",
                ));
            }
            other => {
                // Python keeps unknown escapes as written.
                out.push('\\');
                out.push(other);
            }
        }
    }
    Err(err(start..src.len(), "unterminated string literal"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        tokenize(src).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_follow_python() {
        assert_eq!(
            toks("1_000 0x1F 0o17 0b101 1.5 .5 1e3 1.")[..8],
            [
                Tok::Int(1000),
                Tok::Int(31),
                Tok::Int(15),
                Tok::Int(5),
                Tok::Float(1.5),
                Tok::Float(0.5),
                Tok::Float(1000.0),
                Tok::Float(1.0)
            ]
        );
        assert_eq!(toks("00")[0], Tok::Int(0));
        for bad in [
            "01",
            "1__0",
            "1_",
            "1j",
            "0x",
            "99999999999999999999",
            "1abc",
        ] {
            assert!(tokenize(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strings_follow_python() {
        assert_eq!(
            toks(r#"'a\'b' "c\td" r"\d" '\x41\u00e9\101' '\q'"#)[..5],
            [
                Tok::Str("a'b".into()),
                Tok::Str("c\td".into()),
                Tok::Str("\\d".into()),
                Tok::Str("AéA".into()),
                Tok::Str("\\q".into()),
            ]
        );
        assert_eq!(toks("'''a'b'''")[0], Tok::Str("a'b".into()));
        for bad in ["'open", "b'x'", "f'x'", r"'\x4'", r"'\N{DASH}'", "'a\nb'"] {
            assert!(tokenize(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn line_breaks_only_inside_brackets() {
        assert!(tokenize("a ==\n b").is_err());
        assert!(tokenize("(a ==\n b)").is_ok());
        assert!(tokenize("a == \\\n b").is_ok());
        assert!(tokenize("a # note").is_err());
    }
}
