//! The guard's rules, over two readings: values kept, the same figures,
//! roles kept, the same number of negations.

use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::Range;

use super::figure::{Figure, Kind, Token};
use super::languages::{Spoken, stock_negations};
use super::lexicon::{Class, Lexicon};
use super::read::read;
use super::{FactRefusal, Filled, Shown};

/// Words each side of a value read for the words that tie it to its role.
const ROLE_WORDS: usize = 3;
/// Words a rephrase may put between two words of a filled value (`Visa
/// card ending 4242` for `Visa ending 4242`).
const WORDS_INSERTED: usize = 2;

/// One filled value where it stands in both texts.
struct Placed<'f> {
    filled: &'f Filled,
    /// Tokens of the reviewed text (where a placeholder filled it in).
    reviewed: Option<Range<usize>>,
    /// Tokens of the rephrased text.
    answer: Range<usize>,
    /// Whether it is words only (so another such value could trade places
    /// with it).
    words_only: bool,
}

/// The rules over both texts; their readings when every rule holds, for
/// the rules read after these.
pub(super) fn check<'t>(
    reviewed: &'t str,
    filled: &[Filled],
    answer: &'t str,
    lexicon: &'static Lexicon,
) -> Result<Readings<'t>, FactRefusal> {
    let mut said = read(answer, lexicon);
    let mut kept = read(reviewed, lexicon);
    let (said_codes, kept_codes) = (codes(&said), codes(&kept));
    join_codes(&mut kept, reviewed, &said_codes);
    join_codes(&mut said, answer, &kept_codes);
    let placed = place_values((reviewed, &kept), filled, &said, &said_codes, lexicon)?;
    let text = Texts {
        reviewed,
        answer,
        kept: &kept,
        said: &said,
        placed: &placed,
        lexicon,
    };
    let pairs = text.same_figures()?;
    let classes = |tokens: &[Token]| -> Vec<Class> {
        tokens
            .iter()
            .map(|t| match &t.kind {
                Kind::Word(w) => lexicon.class(w, t.entry),
                _ => Class::default(),
            })
            .collect()
    };
    let (kept_classes, said_classes) = (classes(&kept), classes(&said));
    text.roles_kept(&pairs, &kept_classes, &said_classes)?;
    let negations =
        |classes: &[Class], text: &str| match classes.iter().filter(|c| c.negation).count() {
            0 => 0,
            all => all.saturating_sub(stock_negations(text, Spoken::English)),
        };
    let (reviewed, answer) = (
        negations(&kept_classes, text.reviewed),
        negations(&said_classes, text.answer),
    );
    if reviewed != answer {
        return Err(FactRefusal::Negation { reviewed, answer });
    }
    opposites_kept((&kept, &kept_classes), (&said, &said_classes), lexicon)?;
    Ok(Readings {
        kept,
        said,
        negations: reviewed,
    })
}

/// Both readings, for the rules read after these, and the negations both
/// texts have (the same number, outside stock phrases).
pub(super) struct Readings<'t> {
    pub kept: Vec<Token<'t>>,
    pub said: Vec<Token<'t>>,
    pub negations: usize,
}

/// An answer that says `open` where the reviewed text says `closed` (and
/// never `closed`) turns the fact.
fn opposites_kept(
    kept: (&[Token], &[Class]),
    said: (&[Token], &[Class]),
    lexicon: &'static Lexicon,
) -> Result<(), FactRefusal> {
    // The words of either text that have an opposite (most texts: none).
    let polar = |(tokens, classes): (&[Token], &[Class])| -> Vec<String> {
        tokens
            .iter()
            .zip(classes)
            .filter_map(|(t, class)| match &t.kind {
                Kind::Word(w) if class.opposite => Some(w.to_string()),
                _ => None,
            })
            .collect()
    };
    let (kept, said) = (polar(kept), polar(said));
    if kept.is_empty() && said.is_empty() {
        return Ok(());
    }
    let has = |words: &[String], word: &str| words.iter().any(|w| w == word);
    for &(a, b) in lexicon.opposites {
        for (was, now) in [(a, b), (b, a)] {
            if has(&kept, was) && !has(&said, was) && has(&said, now) && !has(&kept, now) {
                return Err(FactRefusal::Opposite {
                    reviewed: was,
                    answer: now,
                });
            }
        }
    }
    Ok(())
}

/// Each filled value found in both texts, or the refusal naming the first
/// one the rephrased text lost.
fn place_values<'f>(
    (reviewed, kept): (&str, &[Token]),
    filled: &'f [Filled],
    said: &[Token],
    said_codes: &[String],
    lexicon: &'static Lexicon,
) -> Result<Vec<Placed<'f>>, FactRefusal> {
    let mut placed = Vec::with_capacity(filled.len());
    for value in filled {
        let not_break = |k: &Kind| *k != Kind::Break;
        let tokens: Vec<Kind> = match read_in_place(reviewed, kept, &value.value) {
            Some(tokens) => tokens
                .iter()
                .map(|t| t.kind.clone())
                .filter(not_break)
                .collect(),
            None => {
                let mut tokens = read(&value.value, lexicon);
                join_codes(&mut tokens, &value.value, said_codes);
                tokens
                    .into_iter()
                    .map(|t| t.kind)
                    .filter(not_break)
                    .collect()
            }
        };
        if tokens.is_empty() {
            continue;
        }
        let Some(answer) = find(&tokens, said) else {
            return Err(FactRefusal::LostValue(shown_value(value)));
        };
        placed.push(Placed {
            filled: value,
            reviewed: find(&tokens, kept),
            answer,
            words_only: tokens.iter().all(|k| matches!(k, Kind::Word(_))),
        });
    }
    Ok(placed)
}

/// The reading of a filled value where it first stands in the reviewed
/// text, when its tokens begin and end with it (so nothing around it is
/// read with it): the same reading as the value read alone, without
/// reading it again (but for a number word its context reads as a pronoun,
/// `this one`, as the answer may). `None` when a token reaches across its edges
/// (`$7.5` for `7.5`, a date for its day).
pub(super) fn read_in_place<'k, 't>(
    reviewed: &str,
    kept: &'k [Token<'t>],
    value: &str,
) -> Option<&'k [Token<'t>]> {
    let start = find_text(reviewed, value)?;
    let end = start + value.len();
    let first = kept.iter().position(|t| t.span.end > start)?;
    let last = kept[first..]
        .iter()
        .position(|t| t.span.end >= end)
        .map(|i| first + i)?;
    let aligned = kept[first].span.start == start && kept[last].span.end == end;
    aligned.then(|| &kept[first..=last])
}

/// Where `needle` first stands in `haystack`: a short needle by its first
/// byte (a general searcher costs more to set up than a value takes to
/// find), a long one by `str::find` (linear).
fn find_text(haystack: &str, needle: &str) -> Option<usize> {
    const SHORT: usize = 16;
    if needle.len() > SHORT {
        return haystack.find(needle);
    }
    let (bytes, wanted) = (haystack.as_bytes(), needle.as_bytes());
    let first = *wanted.first()?;
    (0..bytes.len()).find(|&at| bytes[at] == first && bytes[at..].starts_with(wanted))
}

/// The codes of a reading (`ua455`).
fn codes(tokens: &[Token]) -> Vec<String> {
    tokens
        .iter()
        .filter_map(|t| match &t.kind {
            Kind::Figure(Figure::Code(code)) => Some(code.clone()),
            _ => None,
        })
        .collect()
}

/// Spacing aside in codes: two neighbours with only a space or hyphen
/// between them (`UA 455`, `SW1A 1AA`) read as the one code they spell
/// when the other text writes that code (`UA455`).
fn join_codes(tokens: &mut Vec<Token>, text: &str, codes: &[String]) {
    if codes.is_empty() {
        return;
    }
    let mut at = 0;
    while at + 1 < tokens.len() {
        let (a, b) = (&tokens[at], &tokens[at + 1]);
        let part = |t: &Token| {
            matches!(
                &t.kind,
                Kind::Word(_)
                    | Kind::Figure(Figure::Code(_))
                    | Kind::Figure(Figure::Number { unit: None, .. })
            )
        };
        let between = text.get(a.span.end..b.span.start).unwrap_or("x");
        let spaced = !between.is_empty() && between.chars().all(|c| c == '-' || c.is_whitespace());
        if part(a) && part(b) && spaced {
            let spelled: String = text[a.span.start..b.span.end]
                .chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .map(|c| super::number::digit_value(c).map_or(c, |d| char::from(b'0' + d)))
                .collect();
            if codes.contains(&spelled) {
                let span = a.span.start..b.span.end;
                tokens.splice(
                    at..at + 2,
                    [Token {
                        kind: Kind::Figure(Figure::Code(spelled)),
                        span,
                        entry: None,
                    }],
                );
            }
        }
        at += 1;
    }
}

fn shown_value(value: &Filled) -> Shown {
    Shown {
        text: (!value.pii).then(|| value.value.clone()),
        entry: Some(value.entry.clone()),
    }
}

/// Where the tokens of a value first stand in `text`: in order, sentence
/// breaks aside, a few words inserted only between two of its words.
fn find(value: &[Kind], text: &[Token]) -> Option<Range<usize>> {
    (0..text.len()).find_map(|start| {
        let end = match_at(value, text, start)?;
        Some(start..end)
    })
}

fn match_at(value: &[Kind], text: &[Token], start: usize) -> Option<usize> {
    let mut at = start;
    for (k, wanted) in value.iter().enumerate() {
        let mut inserted = 0;
        loop {
            let token = &text.get(at)?.kind;
            if same(wanted, token) {
                at += 1;
                break;
            }
            let first = at == start;
            let between_words =
                k > 0 && matches!(value[k - 1], Kind::Word(_)) && matches!(wanted, Kind::Word(_));
            if !first && *token == Kind::Break {
                at += 1;
            } else if !first
                && between_words
                && matches!(token, Kind::Word(_))
                && inserted < WORDS_INSERTED
            {
                inserted += 1;
                at += 1;
            } else {
                return None;
            }
        }
    }
    Some(at)
}

fn same(wanted: &Kind, token: &Kind) -> bool {
    match (wanted, token) {
        (Kind::Word(a), Kind::Word(b)) => a == b,
        (Kind::Figure(a), Kind::Figure(b)) => a.same_value(b),
        _ => false,
    }
}

/// The two texts and their readings.
struct Texts<'a> {
    reviewed: &'a str,
    answer: &'a str,
    kept: &'a [Token<'a>],
    said: &'a [Token<'a>],
    placed: &'a [Placed<'a>],
    lexicon: &'static Lexicon,
}

/// A figure of the reviewed text (token index) and the one of the
/// rephrased text that states it.
type Pair = (usize, usize);

impl Texts<'_> {
    /// Every figure of the reviewed text once in the rephrased text, and no
    /// other: the pairs.
    fn same_figures(&self) -> Result<Vec<Pair>, FactRefusal> {
        let figures = |tokens: &[Token]| -> Vec<usize> {
            (0..tokens.len())
                .filter(|&i| matches!(tokens[i].kind, Kind::Figure(_)))
                .collect()
        };
        // The answer's figures by value, each value's in order: a reviewed
        // figure takes the first unmatched one of its value (linear).
        fn figure<'k>(token: &'k Token<'_>) -> Option<&'k Figure> {
            match &token.kind {
                Kind::Figure(figure) => Some(figure),
                _ => None,
            }
        }
        let said_figures = figures(self.said);
        let mut by_value: HashMap<&Figure, VecDeque<usize>> = HashMap::new();
        for &said in &said_figures {
            if let Some(value) = figure(&self.said[said]) {
                by_value.entry(value).or_default().push_back(said);
            }
        }
        let mut pairs = Vec::with_capacity(said_figures.len());
        let mut lost = Vec::new();
        for kept in figures(self.kept) {
            let found = figure(&self.kept[kept])
                .and_then(|value| by_value.get_mut(value))
                .and_then(VecDeque::pop_front);
            match found {
                Some(said) => pairs.push((kept, said)),
                None => lost.push(kept),
            }
        }
        let unmatched: Vec<usize> = {
            let mut left: Vec<usize> = by_value.into_values().flatten().collect();
            left.sort_unstable();
            left
        };
        match (lost.first(), unmatched.first()) {
            (Some(&kept), Some(&said)) => Err(FactRefusal::Changed {
                reviewed: self.shown_kept(kept),
                answer: self.shown_said(said),
            }),
            (Some(&kept), None) => Err(FactRefusal::Lost(self.shown_kept(kept))),
            (None, Some(&said)) => Err(FactRefusal::Added(self.shown_said(said))),
            (None, None) => Ok(pairs),
        }
    }

    /// A figure of the reviewed text as a refusal shows it: named by the
    /// entry a placeholder filled it from, hidden when that is personal.
    fn shown_kept(&self, at: usize) -> Shown {
        let owner = self
            .placed
            .iter()
            .find(|p| p.reviewed.as_ref().is_some_and(|r| r.contains(&at)))
            .map(|p| p.filled);
        let personal = owner
            .filter(|f| f.pii)
            .or_else(|| self.personal_repeated(at, self.kept));
        Shown {
            text: personal
                .is_none()
                .then(|| self.reviewed[self.kept[at].span.clone()].to_owned()),
            entry: owner.or(personal).map(|f| f.entry.clone()),
        }
    }

    /// A figure of the rephrased text as a refusal shows it: hidden, and the
    /// entry named, when it may repeat personal data.
    fn shown_said(&self, at: usize) -> Shown {
        let personal = self.personal_repeated(at, self.said);
        Shown {
            text: personal
                .is_none()
                .then(|| self.answer[self.said[at].span.clone()].to_owned()),
            entry: personal.map(|f| f.entry.clone()),
        }
    }

    /// The personal value whose characters hold the figure's digits or
    /// code, if any.
    fn personal_repeated(&self, at: usize, tokens: &[Token]) -> Option<&Filled> {
        let Kind::Figure(figure) = &tokens[at].kind else {
            return None;
        };
        let digits = figure.digits();
        self.placed
            .iter()
            .map(|p| p.filled)
            .filter(|f| f.pii)
            .find(|f| {
                let compact: String = f
                    .value
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect();
                // The value read as the guard reads it (`twenty-five` is 25,
                // `24 December 1990` a date): any of its figures.
                let read_alike = read(&f.value, self.lexicon).iter().any(|t| match &t.kind {
                    Kind::Figure(own) => own.same_value(figure) || own.digits() == digits,
                    _ => false,
                });
                digits.is_empty() || compact.contains(&digits) || read_alike
            })
    }

    /// Values that could trade places keep the words that tie each to its
    /// role: refused when one stands by the word that ties another to its
    /// role, on the same side, and by none of its own.
    fn roles_kept(
        &self,
        pairs: &[Pair],
        kept_classes: &[Class],
        said_classes: &[Class],
    ) -> Result<(), FactRefusal> {
        let figure = |at: usize| match &self.kept[at].kind {
            Kind::Figure(f) => Some(f),
            _ => None,
        };
        // Each value: its tokens in both texts, and what it is.
        let mut values: Vec<(Range<usize>, Range<usize>, Role)> = pairs
            .iter()
            .filter_map(|&(k, s)| Some((k..k + 1, s..s + 1, Role::Figure(figure(k)?))))
            .collect();
        for (i, placed) in self.placed.iter().enumerate() {
            if let (true, Some(kept)) = (placed.words_only, placed.reviewed.clone()) {
                let words = placed.filled.value.as_str();
                values.push((kept, placed.answer.clone(), Role::Words(i, words)));
            }
        }
        if values.len() < 2 {
            return Ok(());
        }
        let kept_slots = slots(
            self.kept,
            kept_classes,
            self.placed.iter().filter_map(|p| p.reviewed.clone()),
        );
        let said_slots = slots(
            self.said,
            said_classes,
            self.placed.iter().map(|p| p.answer.clone()),
        );
        let kept_around = |range: &Range<usize>| {
            (
                neighbours_before(self.kept, range.start, &kept_slots),
                neighbours_after(self.kept, range.end, &kept_slots),
            )
        };
        let around: Vec<_> = values
            .iter()
            .map(|(kept, _, _)| kept_around(kept))
            .collect();
        let index = RoleIndex::new(&values, &around);
        for (i, (kept, said, role)) in values.iter().enumerate() {
            let own = &around[i];
            let now = (
                neighbours_before(self.said, said.start, &said_slots),
                neighbours_after(self.said, said.end, &said_slots),
            );
            for j in index.candidates(&now) {
                let (other_kept, _, other) = &values[j];
                if !role.could_trade_with(other) {
                    continue;
                }
                let theirs = &around[j];
                // Each side: the nearest word that ties one value to its
                // role and not the other; kept when the answer has it there.
                let side = |own: &Neighbours, theirs: &Neighbours, now: &Neighbours| {
                    let mine = own.iter().flatten().find(|w| !theirs.contains(&Some(w)));
                    let other = theirs.iter().flatten().find(|w| !own.contains(&Some(w)));
                    (
                        mine.is_some_and(|w| now.contains(&Some(w))),
                        other.is_some_and(|w| now.contains(&Some(w))),
                    )
                };
                let before = side(&own.0, &theirs.0, &now.0);
                let after = side(&own.1, &theirs.1, &now.1);
                let keeps_own = before.0 || after.0;
                let takes_theirs = before.1 || after.1;
                if takes_theirs && !keeps_own {
                    return Err(FactRefusal::Swapped(
                        self.shown_role(role, kept),
                        self.shown_role(other, other_kept),
                    ));
                }
            }
        }
        Ok(())
    }

    fn shown_role(&self, role: &Role<'_>, kept: &Range<usize>) -> Shown {
        match role {
            Role::Figure(_) => self.shown_kept(kept.start),
            Role::Words(i, _) => shown_value(self.placed[*i].filled),
        }
    }
}

/// The values that could lose their role word to another, found by word:
/// only a value with a kept neighbour that stands by another value in the
/// answer can have traded with it, and values alike (the same value with
/// the same neighbours) are one. So the roles are read in time linear in
/// the values, not quadratic.
struct RoleIndex<'t> {
    /// For each side (before, after): a neighbour word, and the first value
    /// of each kind that has it there, in order.
    by_word: [HashMap<&'t str, Vec<usize>>; 2],
}

impl<'t> RoleIndex<'t> {
    fn new(
        values: &[(Range<usize>, Range<usize>, Role<'_>)],
        around: &[(Neighbours<'t>, Neighbours<'t>)],
    ) -> Self {
        let mut seen: HashSet<(RoleKind<'_>, (Neighbours<'t>, Neighbours<'t>))> = HashSet::new();
        let mut by_word: [HashMap<&'t str, Vec<usize>>; 2] = Default::default();
        for (j, (_, _, role)) in values.iter().enumerate() {
            let kind = match role {
                Role::Figure(figure) => RoleKind::Figure(figure),
                Role::Words(_, words) => RoleKind::Words(words.to_lowercase()),
            };
            if !seen.insert((kind, around[j])) {
                continue;
            }
            for (side, words) in [&around[j].0, &around[j].1].into_iter().enumerate() {
                for word in words.iter().flatten() {
                    let list = by_word[side].entry(*word).or_default();
                    if list.last() != Some(&j) {
                        list.push(j);
                    }
                }
            }
        }
        RoleIndex { by_word }
    }

    /// The values, in order, with a kept neighbour among `now`'s on its side.
    fn candidates(&self, now: &(Neighbours<'_>, Neighbours<'_>)) -> Vec<usize> {
        let mut out: Vec<usize> = [&now.0, &now.1]
            .into_iter()
            .enumerate()
            .flat_map(|(side, words)| {
                words
                    .iter()
                    .flatten()
                    .filter_map(move |word| self.by_word[side].get(word))
                    .flatten()
                    .copied()
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A value as the role index tells values alike.
#[derive(PartialEq, Eq, Hash)]
enum RoleKind<'f> {
    Figure(&'f Figure),
    Words(String),
}

/// What a value is, for telling which could trade places.
enum Role<'f> {
    Figure(&'f Figure),
    /// A filled value of words only: the index of its placement, its words.
    Words(usize, &'f str),
}

impl Role<'_> {
    fn could_trade_with(&self, other: &Role<'_>) -> bool {
        match (self, other) {
            (Role::Figure(a), Role::Figure(b)) => a.could_trade_with(b),
            (Role::Words(_, a), Role::Words(_, b)) => !same_words(a, b),
            _ => false,
        }
    }
}

/// Whether two values are the same words, case aside (without
/// allocating for the usual ASCII values).
fn same_words(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
        || (!a.is_ascii() || !b.is_ascii()) && a.to_lowercase() == b.to_lowercase()
}

/// What a token is to the words that tie values to roles.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// A figure, a filled value or a sentence break: no role word past it.
    Stop,
    /// A word too common to tie anything (`the`, `and`): read past.
    Filler,
    /// A word that may tie a value to its role.
    Word,
}

/// The slot of each token (`classes`: each token's class).
fn slots(
    tokens: &[Token],
    classes: &[Class],
    values: impl Iterator<Item = Range<usize>>,
) -> Vec<Slot> {
    let mut slots: Vec<Slot> = tokens
        .iter()
        .zip(classes)
        .map(|(t, class)| match &t.kind {
            Kind::Word(_) if class.filler => Slot::Filler,
            Kind::Word(_) => Slot::Word,
            _ => Slot::Stop,
        })
        .collect();
    for range in values {
        slots[range].fill(Slot::Stop);
    }
    slots
}

/// Up to [`ROLE_WORDS`] words on one side of a value, nearest first.
type Neighbours<'t> = [Option<&'t str>; ROLE_WORDS];

/// The words before token `at` that may tie it to a role, nearest first.
fn neighbours_before<'t>(tokens: &'t [Token], at: usize, slots: &[Slot]) -> Neighbours<'t> {
    neighbours(tokens, (0..at).rev(), slots)
}

/// The words after the tokens before `end` (see [`neighbours_before`]).
fn neighbours_after<'t>(tokens: &'t [Token], end: usize, slots: &[Slot]) -> Neighbours<'t> {
    neighbours(tokens, end..tokens.len(), slots)
}

fn neighbours<'t>(
    tokens: &'t [Token],
    order: impl Iterator<Item = usize>,
    slots: &[Slot],
) -> Neighbours<'t> {
    let mut out = [None; ROLE_WORDS];
    let words = order
        .take_while(|&i| slots[i] != Slot::Stop)
        .filter(|&i| slots[i] == Slot::Word)
        .filter_map(|i| match &tokens[i].kind {
            Kind::Word(w) => Some(w.as_ref()),
            _ => None,
        });
    for (slot, word) in out.iter_mut().zip(words) {
        *slot = Some(word);
    }
    out
}
