//! The facts of a reviewed text, each a span the rephraser never sees
//! written: every filled value, every figure with the words that scope it
//! and the unit a qualifier stands before, every email, web address and
//! phone number, and anything written like a tag.

use std::ops::Range;

use super::context::Spoken;
use super::tags;
use crate::guard::Filled;
use crate::guard::contacts::{self, Contact};
use crate::guard::figure::{Figure, Unit};
use crate::guard::languages::{Scope, is_unit_word, scope_after, scope_before};
use crate::guard::lexicon::ENGLISH;
use crate::guard::read::{Kind, read};

/// What a fact is, as the rephraser is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FactKind {
    /// An amount of money.
    Money,
    /// A number, with what it measures.
    Number,
    /// A date.
    Date,
    /// A time of day.
    Time,
    /// A code or an id, spelled.
    Code,
    /// An email address.
    Email,
    /// A web address.
    WebAddress,
    /// A phone number.
    Phone,
    /// A value filled in from memory (a name, a status).
    Value,
}

impl FactKind {
    /// How the rephraser's instructions name it.
    pub fn description(self) -> &'static str {
        match self {
            FactKind::Money => "an amount of money",
            FactKind::Number => "a number",
            FactKind::Date => "a date",
            FactKind::Time => "a time of day",
            FactKind::Code => "a code",
            FactKind::Email => "an email address",
            FactKind::WebAddress => "a web address",
            FactKind::Phone => "a phone number",
            FactKind::Value => "a value",
        }
    }
}

/// One fact of the reviewed text.
#[derive(Clone, Debug)]
pub(crate) struct Fact {
    /// All of it, scope words included (bytes of the reviewed text).
    pub span: Range<usize>,
    /// The scope phrase before the figure, if any.
    pub before: Option<(Range<usize>, Scope)>,
    /// The scope phrase after the figure, if any.
    pub after: Option<(Range<usize>, Scope)>,
    /// The figures, contact or value between the scopes.
    pub core: Range<usize>,
    pub kind: FactKind,
    /// The figures read in the core, with their spans.
    pub figures: Vec<(Range<usize>, Figure)>,
    /// The filled value the fact holds, by index.
    pub filled: Option<usize>,
    /// A number that is an id (`last_four`, `order_number`): spelled.
    pub code_like: bool,
}

/// What marked a span as a fact.
enum Source {
    Filled(usize),
    Figure(Figure),
    Contact(Contact),
    LiteralTag,
}

/// The facts of `reviewed` (whose placeholders filled in `filled`), in
/// order, not overlapping; scope words read in `language`.
pub(crate) fn find(reviewed: &str, filled: &[Filled], language: Option<Spoken>) -> Vec<Fact> {
    let mut marks: Vec<(Range<usize>, Source)> = Vec::new();
    for token in read(reviewed, &ENGLISH) {
        if let Kind::Figure(figure) = token.kind {
            marks.push((token.span, Source::Figure(figure)));
        }
    }
    for (span, contact) in contacts::find(reviewed) {
        marks.push((span, Source::Contact(contact)));
    }
    for tag in tags::find(reviewed) {
        marks.push((tag.span, Source::LiteralTag));
    }
    let mut from = 0;
    for (index, value) in filled.iter().enumerate() {
        if let Some(span) = filled_span(reviewed, value, from) {
            from = span.end;
            marks.push((span, Source::Filled(index)));
        }
    }
    marks.sort_by_key(|(span, _)| (span.start, std::cmp::Reverse(span.end)));
    let mut facts: Vec<Fact> = Vec::new();
    for (span, source) in marks {
        if span.is_empty() {
            continue;
        }
        match facts.last_mut() {
            Some(last) if span.start < last.core.end => {
                last.core.end = last.core.end.max(span.end);
                absorb(last, span, source, filled);
            }
            _ => {
                let mut fact = Fact {
                    span: span.clone(),
                    before: None,
                    after: None,
                    core: span.clone(),
                    kind: FactKind::Value,
                    figures: Vec::new(),
                    filled: None,
                    code_like: false,
                };
                absorb(&mut fact, span, source, filled);
                facts.push(fact);
            }
        }
    }
    for fact in &mut facts {
        let unitless = |f: &Figure| {
            matches!(
                f,
                Figure::Number {
                    unit: None,
                    per: None,
                    ..
                }
            )
        };
        if fact.code_like
            && fact.figures.iter().all(|(_, f)| unitless(f))
            && !fact.figures.is_empty()
        {
            fact.kind = FactKind::Code;
        }
    }
    widen(reviewed, &mut facts, language);
    facts
}

/// Where `value` stands in `reviewed`: where utter filled it in, else its
/// first place at or after `from`.
fn filled_span(reviewed: &str, value: &Filled, from: usize) -> Option<Range<usize>> {
    let text = value.value.as_str();
    if text.trim().is_empty() {
        return None;
    }
    if let Some(at) = value.at()
        && reviewed.get(at..at + text.len()) == Some(text)
    {
        return Some(at..at + text.len());
    }
    let at = from + reviewed.get(from..)?.find(text)?;
    Some(at..at + text.len())
}

fn absorb(fact: &mut Fact, span: Range<usize>, source: Source, filled: &[Filled]) {
    let rank = |kind: FactKind| match kind {
        FactKind::Email | FactKind::WebAddress | FactKind::Phone => 3,
        FactKind::Code => 2,
        FactKind::Value => 0,
        _ => 1,
    };
    let kind = match source {
        Source::Contact(Contact::Email) => FactKind::Email,
        Source::Contact(Contact::WebAddress) => FactKind::WebAddress,
        Source::Contact(Contact::Phone) => FactKind::Phone,
        Source::LiteralTag => FactKind::Code,
        Source::Filled(index) => {
            fact.filled = Some(index);
            fact.code_like |= looks_like_an_id(&filled[index].entry);
            FactKind::Value
        }
        Source::Figure(figure) => {
            let kind = figure_kind(&figure);
            fact.figures.push((span, figure));
            if fact.figures.len() > 1 && rank(fact.kind) == 1 {
                fact.kind = FactKind::Number;
                return;
            }
            kind
        }
    };
    if rank(kind) > rank(fact.kind) || (fact.kind == FactKind::Value && fact.figures.len() == 1) {
        fact.kind = kind;
    }
}

fn figure_kind(figure: &Figure) -> FactKind {
    match figure {
        Figure::Number {
            unit: Some(Unit::Named(name)),
            ..
        } if is_currency(name) => FactKind::Money,
        Figure::Number {
            unit: Some(Unit::Sign(_)),
            ..
        } => FactKind::Money,
        Figure::Number { .. } | Figure::AsWritten(_) => FactKind::Number,
        Figure::Code(_) => FactKind::Code,
        Figure::Time(_) => FactKind::Time,
        Figure::Date { .. } => FactKind::Date,
    }
}

fn is_currency(name: &str) -> bool {
    ENGLISH.currency_codes.iter().any(|(_, n)| *n == name)
        || ENGLISH
            .currency_signs
            .iter()
            .any(|(c, n)| *n == name && *c != '%' && *c != '‰')
}

/// Entry names whose numbers are ids, said digit by digit.
fn looks_like_an_id(entry: &str) -> bool {
    let name = entry
        .rsplit('.')
        .next()
        .unwrap_or(entry)
        .to_ascii_lowercase();
    let words: Vec<&str> = name.split(['_', '-']).collect();
    const ID_WORDS: &[&str] = &[
        "id",
        "code",
        "number",
        "no",
        "num",
        "four",
        "digits",
        "pin",
        "ref",
        "reference",
        "zip",
        "postcode",
        "postal",
        "phone",
        "account",
        "iban",
        "ticket",
        "order",
        "booking",
        "tracking",
        "confirmation",
        "policy",
        "claim",
    ];
    words.iter().any(|w| ID_WORDS.contains(w))
}

/// Each fact widened over the unit a qualifier stands before and the scope
/// words around it, never into its neighbour.
fn widen(text: &str, facts: &mut [Fact], language: Option<Spoken>) {
    for at in 0..facts.len() {
        let floor = if at == 0 { 0 } else { facts[at - 1].span.end };
        let ceiling = facts.get(at + 1).map_or(text.len(), |next| next.span.start);
        let fact = &mut facts[at];
        if matches!(
            fact.kind,
            FactKind::Email | FactKind::WebAddress | FactKind::Phone
        ) || fact.figures.is_empty()
        {
            continue;
        }
        if let Some(end) = qualified_unit(text, fact, ceiling) {
            fact.core.end = end;
        }
        fact.span = fact.core.clone();
        let Some(language) = language else { continue };
        if let Some((start, scope)) = scope_before(text, fact.core.start, language)
            && start >= floor
        {
            let end = text[..fact.core.start].trim_end().len();
            fact.before = Some((start..end, scope));
            fact.span.start = start;
        }
        if let Some((end, scope)) = scope_after(text, fact.core.end, language)
            && end <= ceiling
        {
            let rest = &text[fact.core.end..];
            let start = fact.core.end + (rest.len() - rest.trim_start().len());
            fact.after = Some((start..end, scope));
            fact.span.end = end;
        }
    }
}

/// The end of a unit word one or two words after a number read without a
/// unit (`5 business days`), if one is there before `ceiling`.
fn qualified_unit(text: &str, fact: &Fact, ceiling: usize) -> Option<usize> {
    let (span, figure) = fact.figures.last()?;
    let unitless = matches!(
        figure,
        Figure::Number {
            unit: None,
            per: None,
            ..
        }
    );
    if !unitless || span.end != fact.core.end {
        return None;
    }
    let mut at = fact.core.end;
    for _ in 0..2 {
        let rest = &text[at..ceiling];
        let gap = rest.len() - rest.trim_start_matches([' ', '\u{a0}', '-']).len();
        if gap == 0 && at != fact.core.end {
            return None;
        }
        let word_len: usize = rest[gap..]
            .chars()
            .take_while(|c| c.is_alphabetic())
            .map(char::len_utf8)
            .sum();
        if word_len == 0 || gap == 0 {
            return None;
        }
        let word = &rest[gap..gap + word_len];
        at += gap + word_len;
        if is_unit_word(word) {
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str, filled: &[Filled]) -> Vec<(String, FactKind)> {
        find(text, filled, Some(Spoken::English))
            .into_iter()
            .map(|f| (text[f.span].to_owned(), f.kind))
            .collect()
    }

    #[test]
    fn facts_take_their_scope_and_unit() {
        let text = "Refunds within 30 days, up to $50 per person, in 5 business days. Mail support@example.com.";
        assert_eq!(
            spans(text, &[]),
            [
                ("within 30 days".to_owned(), FactKind::Number),
                ("up to $50 per person".to_owned(), FactKind::Money),
                ("5 business days".to_owned(), FactKind::Number),
                ("support@example.com".to_owned(), FactKind::Email),
            ]
        );
    }

    #[test]
    fn filled_values_are_facts_where_utter_put_them() {
        let alice = Filled::new("session.user.name", "Alice");
        let text = "Hello Alice, your order 4224 ships at 18:40.";
        let order = Filled::new("session.order.order_number", "4224");
        let facts = find(text, &[alice, order], Some(Spoken::English));
        let shown: Vec<(&str, FactKind, bool)> = facts
            .iter()
            .map(|f| (&text[f.span.clone()], f.kind, f.code_like))
            .collect();
        assert_eq!(
            shown,
            [
                ("Alice", FactKind::Value, false),
                ("4224", FactKind::Code, true),
                ("18:40", FactKind::Time, false),
            ]
        );
        // A text written like a tag is a fact too: never a tag of the request.
        assert_eq!(
            spans("Type <f1/> here", &[]),
            [("<f1/>".to_owned(), FactKind::Code)]
        );
    }
}
