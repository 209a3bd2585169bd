//! The first step of reading a text: runs of digits (of any script), of
//! letters and of superscripts, single symbols, and what space stood before
//! each.

use std::ops::Range;

use super::number::{digit_value, superscript_value};

/// One run of the text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lex {
    /// Decimal digits of one or more scripts, as ASCII digits.
    Digits(String),
    /// Letters (and apostrophes between them), lowercase, `’` as `'`.
    Word(String),
    /// Superscript digits, as ASCII digits.
    Super(String),
    /// Another numeric character (`½`, `Ⅻ`): compared as written.
    Numeric,
    /// Anything else but space: punctuation, a currency sign, `%`.
    Sym(char),
}

/// What stood between a run and the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gap {
    /// Nothing: the runs touch.
    None,
    /// One space that may group digits (a space, no-break space, narrow
    /// no-break space or thin space).
    Space,
    /// Any other space (several, a tab, a newline).
    Wide,
}

#[derive(Clone, Debug)]
pub(crate) struct Lexeme {
    pub lex: Lex,
    pub span: Range<usize>,
    pub gap: Gap,
}

/// The runs of `text`.
pub(crate) fn lex(text: &str) -> Vec<Lexeme> {
    let mut out: Vec<Lexeme> = Vec::with_capacity(text.len() / 3 + 1);
    let mut chars = text.char_indices().peekable();
    let mut gap = Gap::None;
    while let Some((start, c)) = chars.next() {
        if c.is_whitespace() {
            let mut count = 1;
            while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {
                count += 1;
            }
            let groups = matches!(c, ' ' | '\u{A0}' | '\u{202F}' | '\u{2009}');
            gap = if count == 1 && groups {
                Gap::Space
            } else {
                Gap::Wide
            };
            continue;
        }
        let mut end = start + c.len_utf8();
        let lex = if let Some(d) = digit_value(c) {
            let mut digits = String::from(char::from(b'0' + d));
            while let Some((at, d)) = chars
                .peek()
                .and_then(|&(at, c)| Some((at, digit_value(c)?)))
            {
                digits.push(char::from(b'0' + d));
                chars.next();
                end = at + text[at..].chars().next().map_or(1, char::len_utf8);
            }
            Lex::Digits(digits)
        } else if let Some(d) = superscript_value(c) {
            let mut digits = String::from(char::from(b'0' + d));
            while let Some((at, d)) = chars
                .peek()
                .and_then(|&(at, c)| Some((at, superscript_value(c)?)))
            {
                digits.push(char::from(b'0' + d));
                chars.next();
                end = at + text[at..].chars().next().map_or(1, char::len_utf8);
            }
            Lex::Super(digits)
        } else if c.is_alphabetic() {
            let mut word: String = c.to_lowercase().collect();
            loop {
                match chars.peek().copied() {
                    Some((at, c)) if c.is_alphabetic() => {
                        word.extend(c.to_lowercase());
                        chars.next();
                        end = at + c.len_utf8();
                    }
                    // A possessive `'s` is not part of the name (`Alice's`).
                    Some((at, quote @ ('\'' | '’')))
                        if text[at + quote.len_utf8()..].starts_with(['s', 'S'])
                            && !text[at + quote.len_utf8() + 1..]
                                .chars()
                                .next()
                                .is_some_and(char::is_alphabetic) =>
                    {
                        chars.next();
                        chars.next();
                        end = at + quote.len_utf8() + 1;
                        break;
                    }
                    // An apostrophe between letters (`don't`, `O’Brien`).
                    Some((at, quote @ ('\'' | '’')))
                        if text[at + quote.len_utf8()..]
                            .chars()
                            .next()
                            .is_some_and(char::is_alphabetic) =>
                    {
                        word.push('\'');
                        chars.next();
                        end = at + quote.len_utf8();
                    }
                    _ => break,
                }
            }
            Lex::Word(word)
        } else if c.is_numeric() {
            Lex::Numeric
        } else {
            Lex::Sym(c)
        };
        out.push(Lexeme {
            lex,
            span: start..end,
            gap,
        });
        gap = Gap::None;
    }
    out
}
