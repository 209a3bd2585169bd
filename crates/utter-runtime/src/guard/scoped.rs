//! What scopes a figure is part of it: the words that bound it (`within`,
//! `up to`, `at least`, `before`, `per person`, ...), a qualifier before
//! its unit (`5 business days`), and letters written against it that the
//! reader does not read as its unit (`5 GB`, `CA$25`, `$25 CAD`). Each
//! figure of the reviewed text must keep them in the rephrased one.

use std::collections::{HashMap, HashSet};

use super::figure::{Figure, Kind, Token, Unit};
use super::languages::{
    Scope, Spoken, is_unit_word, may_scope_after, may_scope_before, scope_after, scope_before,
};
use super::lexicon::ENGLISH;
use super::{FactRefusal, Shown};

/// What scopes one figure.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Scoped {
    /// Its scopes, canonical, sorted (`at least 18` and `18 or older`
    /// both say 1).
    bounds: Vec<u8>,
    /// A qualifier or unit written as letters the reader does not read.
    noun: Option<String>,
}

/// Every figure of `reviewed` that `answer` also states has the same
/// scope there (figures lost or added are the reader's rules).
pub(super) fn scopes_kept(
    (reviewed, kept): (&str, &[Token]),
    (answer, said): (&str, &[Token]),
) -> Result<(), FactRefusal> {
    let (kept_figures, said_figures) = {
        let acronyms = acronyms_of(&[reviewed, answer]);
        (
            scoped_figures(reviewed, kept, &acronyms),
            scoped_figures(answer, said, &acronyms),
        )
    };
    // Most texts scope no figure: then neither text can differ.
    let trivial = |figures: &[(&Figure, Scoped, std::ops::Range<usize>)]| {
        figures
            .iter()
            .all(|(_, s, _)| s.bounds.is_empty() && s.noun.is_none())
    };
    if trivial(&kept_figures) && trivial(&said_figures) {
        return Ok(());
    }
    let kept_scopes = by_value(reviewed, kept_figures);
    let said_scopes = by_value(answer, said_figures);
    for (key, kept_list) in &kept_scopes {
        let Some(said_list) = said_scopes.get(key) else {
            continue;
        };
        if kept_list.len() != said_list.len() {
            continue;
        }
        let (mut kept_sorted, mut said_sorted): (Vec<_>, Vec<_>) = (
            kept_list.iter().map(|(s, _)| s.clone()).collect(),
            said_list.iter().map(|(s, _)| s.clone()).collect(),
        );
        kept_sorted.sort();
        said_sorted.sort();
        if kept_sorted != said_sorted {
            let differs = |(scope, _): &&(Scoped, String)| !said_sorted.contains(scope);
            let reviewed_text = kept_list.iter().find(differs).map(|(_, t)| t.clone());
            let said_differs = |(scope, _): &&(Scoped, String)| !kept_sorted.contains(scope);
            let answer_text = said_list.iter().find(said_differs).map(|(_, t)| t.clone());
            return Err(FactRefusal::Changed {
                reviewed: Shown {
                    text: reviewed_text,
                    entry: None,
                },
                answer: Shown {
                    text: answer_text,
                    entry: None,
                },
            });
        }
    }
    Ok(())
}

/// The scope of each figure by the figure's value, with the figure and its
/// scope words as written.
/// Each figure of `text` (codes aside) with its scope, and its span with
/// its scope words.
fn scoped_figures<'k>(
    text: &str,
    tokens: &'k [Token],
    acronyms: &HashSet<String>,
) -> Vec<(&'k Figure, Scoped, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for token in tokens {
        let Kind::Figure(figure) = &token.kind else {
            continue;
        };
        if matches!(figure, Figure::Code(_)) {
            continue;
        }
        let span = &token.span;
        let before = scope_before_any(text, span.start);
        let after = scope_after_any(text, span.end);
        let noun = noun(text, span.clone(), figure, acronyms);
        let start = before.map_or(span.start, |(at, _)| at);
        let end = after.map_or(span.end, |(at, _)| at);
        let mut bounds: Vec<u8> = [before, after]
            .into_iter()
            .flatten()
            .map(|(_, s)| canonical(s))
            .filter(|&c| c != 0)
            .collect();
        bounds.sort_unstable();
        out.push((figure, Scoped { bounds, noun }, start..end));
    }
    out
}

/// The scopes by the figure's value, each with its figure and scope
/// words as written.
fn by_value<'k>(
    text: &str,
    figures: Vec<(&'k Figure, Scoped, std::ops::Range<usize>)>,
) -> HashMap<&'k Figure, Vec<(Scoped, String)>> {
    let mut out: HashMap<&Figure, Vec<(Scoped, String)>> = HashMap::new();
    for (figure, scoped, span) in figures {
        out.entry(figure)
            .or_default()
            .push((scoped, text[span].to_owned()));
    }
    out
}

const LANGUAGES: [Spoken; 4] = [
    Spoken::English,
    Spoken::German,
    Spoken::French,
    Spoken::Spanish,
];

fn scope_before_any(text: &str, at: usize) -> Option<(usize, Scope)> {
    if !may_scope_before(text, at) {
        return None;
    }
    LANGUAGES
        .iter()
        .filter_map(|&l| scope_before(text, at, l))
        .min_by_key(|(start, _)| *start)
}

fn scope_after_any(text: &str, at: usize) -> Option<(usize, Scope)> {
    if !may_scope_after(text, at) {
        return None;
    }
    LANGUAGES
        .iter()
        .filter_map(|&l| scope_after(text, at, l))
        .max_by_key(|(end, _)| *end)
}

/// One value for scopes that say the same of a figure: `18 or more` is
/// `at least 18`; `each` is `per person`; `only`, `exactly` and `in total`
/// add nothing a figure does not say (so `$45 per person` → `$45 in total`
/// is refused: a scope lost).
fn canonical(scope: Scope) -> u8 {
    match scope {
        Scope::AtLeast | Scope::OrMore => 1,
        Scope::AtMost | Scope::OrLess | Scope::UpTo => 2,
        Scope::MoreThan => 3,
        Scope::LessThan => 4,
        Scope::Within => 5,
        Scope::After => 6,
        Scope::Before => 7,
        Scope::By => 8,
        Scope::From | Scope::Since => 9,
        Scope::Until => 10,
        Scope::About => 11,
        Scope::PerPerson | Scope::Each => 12,
        // `in total` and `only` clarify; `exactly` adds nothing either.
        Scope::InTotal | Scope::Exactly | Scope::Only => 0,
    }
}

/// Letters that say what a number counts but that the reader did not read
/// as its unit: a qualifier before a unit word (`business` in `5 business
/// days`), an acronym after it (`GB`, `CAD`), or letters written against a
/// currency sign before it (`CA` in `CA$25`).
/// The words either text writes as an acronym (`GB`, `CAD`), lowercase:
/// a text in capitals throughout writes none (its every word would pass for
/// one), so `1 TO 5` shouted is `1 to 5`.
fn acronyms_of(texts: &[&str]) -> HashSet<String> {
    let mut out = HashSet::new();
    for text in texts {
        if !text.chars().any(char::is_lowercase) {
            continue;
        }
        for word in text.split(|c: char| !c.is_ascii_alphabetic()) {
            if (2..=5).contains(&word.len())
                && word.chars().filter(char::is_ascii_uppercase).count() >= 2
            {
                out.insert(word.to_ascii_lowercase());
            }
        }
    }
    out
}

fn noun(
    text: &str,
    span: std::ops::Range<usize>,
    figure: &Figure,
    acronyms: &HashSet<String>,
) -> Option<String> {
    let Figure::Number { unit, .. } = figure else {
        return None;
    };
    // A currency code that names the figure's own unit says nothing more.
    let own_code = |code: &str| {
        let code = code.to_ascii_lowercase();
        // A unit word in capitals (`HOURS`) is the unit the reader read.
        ENGLISH.units.iter().any(|(word, _)| *word == code)
            || ENGLISH
                .currency_codes
                .iter()
                .any(|(c, name)| *c == code && Some(Unit::Named(name)) == *unit)
    };
    let before = &text[..span.start];
    let prefix: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_uppercase())
        .collect();
    let starts_with_sign = text[span.clone()].starts_with(|c: char| !c.is_alphanumeric());
    if !prefix.is_empty() && prefix.len() <= 3 && starts_with_sign {
        return Some(prefix.chars().rev().collect());
    }
    // An acronym the reader took in with the figure (`$25 CAD`).
    let written = &text[span.clone()];
    if let Some((_, last)) = written.rsplit_once(' ')
        && acronyms.contains(&last.to_ascii_lowercase())
        && !own_code(last)
    {
        return Some(last.to_ascii_lowercase());
    }
    let rest = &text[span.end..];
    let words: Vec<&str> = rest
        .split_whitespace()
        .take(2)
        .map(|w| w.trim_end_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    let first = *words.first()?;
    let gap_ok = rest.len() - rest.trim_start().len() <= 1;
    let acronym = acronyms.contains(&first.to_ascii_lowercase());
    if gap_ok && acronym && !own_code(first) {
        return Some(first.to_ascii_lowercase());
    }
    let unitless = matches!(
        figure,
        Figure::Number {
            unit: None,
            per: None,
            ..
        }
    );
    let second = words.get(1)?;
    let first_is_word = first.chars().all(char::is_alphabetic) && !first.is_empty();
    (unitless && gap_ok && first_is_word && is_unit_word(second)).then(|| lemma(first))
}

/// A word as compared: lowercase, a plural `s` off.
fn lemma(word: &str) -> String {
    let lower = word.to_lowercase();
    match lower.strip_suffix('s') {
        Some(stem) if stem.len() > 2 => stem.to_owned(),
        _ => lower,
    }
}
