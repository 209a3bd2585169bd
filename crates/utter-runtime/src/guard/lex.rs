//! The first step of reading a text: runs of digits (of any script), of
//! letters and of superscripts, single symbols, and what space stood before
//! each.

use std::borrow::Cow;
use std::ops::Range;

use super::lexicon::{Lexicon, Word};
use super::number::{digit_value, superscript_value};

/// One run of the text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lex<'t> {
    /// Decimal digits of one or more scripts, as ASCII digits.
    Digits(Cow<'t, str>),
    /// Letters (and apostrophes between them), lowercase, `’` as `'`.
    Word(Cow<'t, str>),
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
pub(crate) struct Lexeme<'t> {
    pub lex: Lex<'t>,
    pub span: Range<usize>,
    pub gap: Gap,
    /// What the lexicon says of a word (looked up once, here).
    pub entry: Option<&'static Word>,
}

/// The runs of `text`, each word with its entry in `lexicon`.
pub(crate) fn lex<'t>(text: &'t str, lexicon: &'static Lexicon) -> Vec<Lexeme<'t>> {
    let mut out: Vec<Lexeme<'_>> = Vec::with_capacity(text.len() / 4 + 1);
    let mut at = 0;
    let mut gap = Gap::None;
    while let Some(c) = char_at(text, at) {
        if c.is_whitespace() {
            let end = scan(text, at, char::is_whitespace);
            let one = end == at + c.len_utf8();
            let groups = matches!(c, ' ' | '\u{A0}' | '\u{202F}' | '\u{2009}');
            gap = if one && groups { Gap::Space } else { Gap::Wide };
            at = end;
            continue;
        }
        let (lex, end) = run(text, at, c);
        let entry = match &lex {
            Lex::Word(word) => lexicon.entry(word),
            _ => None,
        };
        out.push(Lexeme {
            lex,
            span: at..end,
            gap,
            entry,
        });
        gap = Gap::None;
        at = end;
    }
    out
}

/// The run that starts with `c` at byte `start`, and where it ends.
fn run(text: &str, start: usize, c: char) -> (Lex<'_>, usize) {
    if c.is_ascii_alphabetic() {
        return word(text, start);
    }
    if c.is_ascii_digit() {
        let end = scan(text, start, |c| digit_value(c).is_some());
        return (Lex::Digits(ascii_digits(&text[start..end])), end);
    }
    if c.is_ascii() {
        return (Lex::Sym(c), start + 1);
    }
    if digit_value(c).is_some() {
        let end = scan(text, start, |c| digit_value(c).is_some());
        (Lex::Digits(ascii_digits(&text[start..end])), end)
    } else if superscript_value(c).is_some() {
        let end = scan(text, start, |c| superscript_value(c).is_some());
        let digits = text[start..end]
            .chars()
            .filter_map(superscript_value)
            .map(|d| char::from(b'0' + d))
            .collect();
        (Lex::Super(digits), end)
    } else if c.is_alphabetic() {
        word(text, start)
    } else if c.is_numeric() {
        (Lex::Numeric, start + c.len_utf8())
    } else {
        (Lex::Sym(c), start + c.len_utf8())
    }
}

/// The character at byte `at` (ASCII without decoding).
fn char_at(text: &str, at: usize) -> Option<char> {
    match text.as_bytes().get(at)? {
        &b if b.is_ascii() => Some(char::from(b)),
        _ => text[at..].chars().next(),
    }
}

/// Where the run of characters `keep` accepts, from byte `at`, ends.
fn scan(text: &str, mut at: usize, keep: impl Fn(char) -> bool) -> usize {
    while let Some(c) = char_at(text, at).filter(|&c| keep(c)) {
        at += c.len_utf8();
    }
    at
}

/// A run of decimal digits as ASCII digits (borrowed when it is ASCII).
fn ascii_digits(run: &str) -> Cow<'_, str> {
    if run.is_ascii() {
        return Cow::Borrowed(run);
    }
    Cow::Owned(
        run.chars()
            .filter_map(digit_value)
            .map(|d| char::from(b'0' + d))
            .collect(),
    )
}

/// The word from byte `start`: letters, apostrophes between letters
/// (`don't`), a possessive `'s` skipped (`Alice's`); lowercase, `’` as `'`
/// (borrowed when it is lowercase ASCII as written). The word and where
/// its run ends.
fn word(text: &str, start: usize) -> (Lex<'_>, usize) {
    if let Some(plain) = ascii_word(text, start) {
        return plain;
    }
    let letter_after = |at: usize| char_at(text, at).is_some_and(char::is_alphabetic);
    let mut end = scan(text, start, char::is_alphabetic);
    let mut letters_end = end;
    while let Some(quote @ ('\'' | '’')) = char_at(text, end) {
        let after = end + quote.len_utf8();
        if matches!(char_at(text, after), Some('s' | 'S')) && !letter_after(after + 1) {
            // A possessive is not part of the name.
            end = after + 1;
            break;
        }
        if !letter_after(after) {
            break;
        }
        end = scan(text, after, char::is_alphabetic);
        letters_end = end;
    }
    let run = &text[start..letters_end];
    let plain = run.bytes().all(|b| b.is_ascii_lowercase() || b == b'\'');
    let lower = if plain {
        Cow::Borrowed(run)
    } else {
        let mut word = String::with_capacity(run.len());
        for c in run.chars() {
            match c {
                '’' => word.push('\''),
                c if c.is_ascii() => word.push(c.to_ascii_lowercase()),
                c => word.extend(c.to_lowercase()),
            }
        }
        Cow::Owned(word)
    };
    (Lex::Word(lower), end)
}

/// The common case of [`word`] without decoding: ASCII letters up to an
/// ASCII byte that is no quote (`None` otherwise).
fn ascii_word(text: &str, start: usize) -> Option<(Lex<'_>, usize)> {
    let bytes = text.as_bytes();
    let len = bytes[start..]
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(bytes.len() - start);
    let end = start + len;
    if bytes.get(end).is_some_and(|&b| !b.is_ascii() || b == b'\'') {
        return None;
    }
    let run = &text[start..end];
    let lower = if run.bytes().all(|b| b.is_ascii_lowercase()) {
        Cow::Borrowed(run)
    } else {
        Cow::Owned(run.to_ascii_lowercase())
    };
    Some((Lex::Word(lower), end))
}
