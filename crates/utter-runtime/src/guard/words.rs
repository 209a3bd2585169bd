//! Facts written in words: numbers (`twenty-five`, `fifth`, through
//! `text2num`) and English dates (`December 5, 2026`).

use std::borrow::Cow;

use super::figure::{Figure, Kind, Token};
use super::lex::{Gap, Lex, Lexeme};
use super::lexicon::Lexicon;

/// A number written in words: lexemes `start..end`, its digits.
pub(crate) struct NumberWords {
    pub start: usize,
    pub end: usize,
    pub digits: String,
}

/// The numbers written in words, found by `text2num` over the words (a
/// hyphen inside a number, `twenty-five`, is part of it).
pub(crate) fn number_words(lexemes: &[Lexeme], lexicon: &Lexicon) -> Vec<NumberWords> {
    let may_be =
        |l: &Lexeme| matches!(&l.lex, Lex::Word(w) if lexicon.may_be_number_word(w, l.entry));
    if !lexemes.iter().any(may_be) {
        return Vec::new();
    }
    // Digits said one by one are read here, not by `text2num` (which
    // reads `four zero four one seven` as two numbers).
    let runs = digit_runs(lexemes);
    // The stream's tokens and the lexeme each stands for.
    let mut stream: Vec<StreamToken<'_>> = Vec::with_capacity(lexemes.len());
    let mut at_lexeme = Vec::with_capacity(lexemes.len());
    for (i, lexeme) in lexemes.iter().enumerate() {
        let hyphen_in_word = lexeme.lex == Lex::Sym('-')
            && lexeme.gap == Gap::None
            && i > 0
            && matches!(lexemes[i - 1].lex, Lex::Word(_))
            && lexemes
                .get(i + 1)
                .is_some_and(|l| l.gap == Gap::None && matches!(l.lex, Lex::Word(_)));
        if hyphen_in_word {
            continue;
        }
        let in_run = runs.iter().any(|r| r.start <= i && i < r.end);
        stream.push(match &lexeme.lex {
            Lex::Word(word) if !in_run => StreamToken(Some(word)),
            _ => StreamToken(None),
        });
        at_lexeme.push(i);
    }
    let language = (lexicon.number_words)();
    let mut found: Vec<NumberWords> = text2num::find_numbers(stream.iter(), &language, 0.0)
        .into_iter()
        .filter_map(|found| {
            let start = *at_lexeme.get(found.start)?;
            let end = *at_lexeme.get(found.end.checked_sub(1)?)? + 1;
            let digits: String = found
                .text
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let before = start.checked_sub(1).and_then(|b| match &lexemes[b].lex {
                Lex::Word(w) => Some(w.as_ref()),
                _ => None,
            });
            let only = match &lexemes[start].lex {
                Lex::Word(w) if end == start + 1 => Some(w.as_ref()),
                _ => None,
            };
            if only.is_some_and(|w| lexicon.is_pronoun(w, before)) {
                return None;
            }
            Some(NumberWords { start, end, digits })
        })
        .collect();
    found.extend(runs);
    found.sort_by_key(|words| words.start);
    found
}

/// Digits said one by one (`four zero four one seven`), three or more in a
/// row: the digits they spell.
fn digit_runs(lexemes: &[Lexeme]) -> Vec<NumberWords> {
    const DIGITS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    // A digit word joined by a hyphen is part of a number (`twenty-one`).
    let hyphenated =
        |i: usize| lexemes[i].gap == Gap::None && i > 0 && lexemes[i - 1].lex == Lex::Sym('-');
    let digit = |i: usize| match &lexemes.get(i)?.lex {
        Lex::Word(word)
            if !hyphenated(i)
                && lexemes
                    .get(i + 1)
                    .is_none_or(|next| next.lex != Lex::Sym('-') || next.gap != Gap::None) =>
        {
            let word = if word == "oh" { "zero" } else { word.as_ref() };
            DIGITS.iter().position(|d| *d == word)
        }
        _ => None,
    };
    let mut runs = Vec::new();
    let mut at = 0;
    while at < lexemes.len() {
        let mut digits = String::new();
        let mut end = at;
        while let Some(d) = digit(end) {
            digits.push(char::from(b'0' + d as u8));
            end += 1;
        }
        if digits.len() >= 3 {
            runs.push(NumberWords {
                start: at,
                end,
                digits,
            });
            at = end;
        } else {
            at += 1;
        }
    }
    runs
}

/// A lexeme as `text2num` sees it: a word, or something no number word
/// crosses.
struct StreamToken<'a>(Option<&'a str>);

impl text2num::Token for &StreamToken<'_> {
    fn text(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0.unwrap_or(""))
    }

    fn text_lowercase(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0.unwrap_or(""))
    }

    fn nt_separated(&self, previous: &Self) -> bool {
        self.0.is_none() || previous.0.is_none()
    }

    fn not_a_number_part(&self) -> bool {
        self.0.is_none()
    }
}

/// Written English dates: `December 5, 2026`, `5 December 2026`, `the 5th
/// of Dec`, a month next to a day (and a year).
pub(crate) fn dates(tokens: &mut Vec<Token<'_>>) {
    // A bare whole number (no unit, no rate) in `range`.
    let whole_in =
        |t: Option<&Token>, range: std::ops::RangeInclusive<u32>| match t.map(|t| &t.kind) {
            Some(Kind::Figure(Figure::Number {
                value,
                unit: None,
                per: None,
            })) => value.as_u32().filter(|n| range.contains(n)),
            _ => None,
        };
    let day = |t: Option<&Token>| whole_in(t, 1..=31);
    let year = |t: Option<&Token>| whole_in(t, 1000..=2999);
    let month = |t: Option<&Token>| match t.map(|t| &t.kind) {
        Some(Kind::Word(_)) => t.and_then(|t| t.entry).and_then(|w| w.month()),
        _ => None,
    };
    if !tokens.iter().any(|t| day(Some(t)).is_some()) {
        return;
    }
    let mut at = 0;
    while at < tokens.len() {
        // Month, day[, year] or day [of] month [year].
        let found = if let Some(d) = day(tokens.get(at + 1))
            && let Some(m) = month(tokens.get(at))
        {
            let y = year(tokens.get(at + 2));
            Some((m, d, y, at + 2 + usize::from(y.is_some())))
        } else if let Some(d) = day(tokens.get(at)) {
            let of =
                matches!(tokens.get(at + 1).map(|t| &t.kind), Some(Kind::Word(w)) if w == "of");
            let m_at = at + 1 + usize::from(of);
            month(tokens.get(m_at)).map(|m| {
                let y = year(tokens.get(m_at + 1));
                (m, d, y, m_at + 1 + usize::from(y.is_some()))
            })
        } else {
            None
        };
        if let Some((month, day, year, end)) = found {
            let span = tokens[at].span.start..tokens[end - 1].span.end;
            let date = Token {
                kind: Kind::Figure(Figure::Date {
                    year,
                    month,
                    day: day as u8,
                }),
                span,
                entry: None,
            };
            tokens.splice(at..end, [date]);
        }
        at += 1;
    }
}
