//! The fact guard on rephrasing: a rephrased text is delivered only when it
//! states the facts of the reviewed one, no fact more, none changed;
//! otherwise the reviewed text is delivered and the caller is told why.
//!
//! Both texts are read as a reader reads them ([`read`]): numbers by value
//! in any script, grouping and notation, in words too, with their sign and
//! what they measure; times, dates and codes. Then ([`compare`]) every value
//! filled into a placeholder must be there, the figures must be the same,
//! values that could trade places keep the words that tie them to their
//! roles, and the number of negations is the same. docs/typed-api.md states
//! the rules with an example of each.

mod additions;
mod compare;
pub(crate) mod contacts;
pub(crate) mod figure;
mod foreign;
pub(crate) mod languages;
mod lex;
pub(crate) mod lexicon;
pub(crate) mod number;
mod polarity;
pub(crate) mod read;
mod scoped;
mod spoken;
mod words;

use std::fmt;

use crate::escape::escape;
use crate::format::write_py_str;
use crate::resolve::Resolved;

/// What a rephrase of a delivery must keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FactGuard {
    /// Guarded (the default): every figure of the delivered text, and these
    /// values filled into placeholders, must be in the rephrased text.
    On {
        /// Each value filled into a placeholder, in order.
        filled: FilledValues,
    },
    /// Not guarded: the caller relaxed it for this delivery
    /// ([`Delivery::relax_fact_guard`](crate::Delivery::relax_fact_guard)).
    Off,
}

impl Default for FactGuard {
    fn default() -> Self {
        FactGuard::On {
            filled: FilledValues::default(),
        }
    }
}

/// The values filled into a delivered text's placeholders, in order: a
/// slice to read. None at all (most deliveries: a literal text, a variant
/// that does not rephrase) is one null pointer, so a [`Delivery`] of such a
/// variant is built and dropped without a call.
///
/// [`Delivery`]: crate::Delivery
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilledValues(Option<Box<[Filled]>>);

impl std::ops::Deref for FilledValues {
    type Target = [Filled];

    fn deref(&self) -> &[Filled] {
        self.0.as_deref().unwrap_or_default()
    }
}

impl From<Vec<Filled>> for FilledValues {
    fn from(values: Vec<Filled>) -> Self {
        FilledValues((!values.is_empty()).then(|| values.into_boxed_slice()))
    }
}

impl FromIterator<Filled> for FilledValues {
    fn from_iter<I: IntoIterator<Item = Filled>>(values: I) -> Self {
        Vec::from_iter(values).into()
    }
}

/// A value a placeholder filled into the delivered text. `Debug` hides the
/// value of a personal one (`pii: true`), as every refusal and event does.
#[derive(Clone, PartialEq, Eq)]
pub struct Filled {
    /// The entry it was read from, as `session.<namespace>.<name>`: what a
    /// refusal names.
    pub entry: String,
    /// The value as delivered.
    pub value: String,
    /// The entry is declared `pii: true`: no refusal, `Display` or event
    /// ever shows the value.
    pub pii: bool,
    /// Where the value starts in the delivered text (bytes), when utter
    /// filled it in: what the tagged rephrase request tags.
    at: Option<usize>,
}

/// How `Debug` writes a personal value (`pii: true`): never the value.
pub(crate) const HIDDEN: &str = "<personal, hidden>";

/// A personal value as `Debug` writes it: [`HIDDEN`].
pub(crate) struct Hidden;

impl fmt::Debug for Hidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(HIDDEN)
    }
}

/// An optional personal value as `Debug` writes it: `None`, or
/// `Some(<personal, hidden>)`. The generated memory's `Debug` writes each
/// `pii: true` entry so.
pub struct Personal<'a, T>(pub &'a Option<T>);

impl<T> fmt::Debug for Personal<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(_) => f.debug_tuple("Some").field(&Hidden).finish(),
            None => f.write_str("None"),
        }
    }
}

impl fmt::Debug for Filled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value: &dyn fmt::Debug = if self.pii { &Hidden } else { &self.value };
        f.debug_struct("Filled")
            .field("entry", &self.entry)
            .field("value", value)
            .field("pii", &self.pii)
            .field("at", &self.at)
            .finish()
    }
}

impl Filled {
    /// A value of `entry` (`session.<namespace>.<name>`), not personal data.
    pub fn new(entry: impl Into<String>, value: impl Into<String>) -> Self {
        Filled {
            entry: entry.into(),
            value: value.into(),
            pii: false,
            at: None,
        }
    }

    /// Where the value starts in the delivered text (bytes), when utter
    /// filled it in (`None` for a value made with [`Filled::new`]).
    pub fn at(&self) -> Option<usize> {
        self.at
    }

    /// This value, marked as personal data (`pii: true`).
    #[must_use]
    pub fn personal(mut self) -> Self {
        self.pii = true;
        self
    }
}

/// A fact as a refusal shows it: its text as written, unless it is personal
/// data, and the entry whose value it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The fact as written; `None` when it is, or may repeat, the value of
    /// an entry declared `pii: true`.
    pub text: Option<String>,
    /// The entry (`session.<namespace>.<name>`) whose value it is, when a
    /// placeholder filled it in.
    pub entry: Option<String>,
}

impl fmt::Display for Shown {
    /// Escaped: a value never writes a line of its own or a terminal
    /// escape into a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.text, &self.entry) {
            (Some(text), Some(entry)) => {
                write!(f, "`{}` (the value of {})", escape(text), escape(entry))
            }
            (Some(text), None) => write!(f, "`{}`", escape(text)),
            (None, Some(entry)) => write!(f, "the value of {}", escape(entry)),
            (None, None) => f.write_str("a figure that may repeat personal data"),
        }
    }
}

/// Why the guard refused a rephrased text (the reviewed text was delivered).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FactRefusal {
    /// A value a placeholder filled in is missing (its words, figures or
    /// code).
    LostValue(Shown),
    /// A figure of the reviewed text (a number with its sign and what it
    /// measures, a time, a date, a code) stands changed in the rephrased
    /// one: the first figure lost, and the first figure added.
    Changed {
        /// The figure of the reviewed text.
        reviewed: Shown,
        /// The figure of the rephrased text in its place.
        answer: Shown,
    },
    /// A figure of the reviewed text is missing.
    Lost(Shown),
    /// A figure the reviewed text does not have.
    Added(Shown),
    /// Two values that could trade places did: the first stands where the
    /// reviewed text ties the second to its role.
    Swapped(Shown, Shown),
    /// A negation (`no`, `not`, `never`, `without`, `n't`, ...) was added or
    /// removed.
    Negation {
        /// Negations in the reviewed text.
        reviewed: usize,
        /// Negations in the rephrased text.
        answer: usize,
    },
    /// The rephrased text says the opposite word (`open` where the reviewed
    /// text says `closed`).
    Opposite {
        /// The word of the reviewed text.
        reviewed: &'static str,
        /// Its opposite, in the rephrased text.
        answer: &'static str,
    },
    /// A word turned into its opposite by a prefix (`covered` →
    /// `uncovered`), or back.
    OppositeWord {
        /// The word of the reviewed text.
        reviewed: String,
        /// The word of the rephrased text in its place.
        answer: String,
    },
    /// A character that hides text (a bidirectional control, a zero-width
    /// or tag character) or could pass for another (a Cyrillic `а`, a
    /// non-ASCII digit) where the reviewed text uses none of its kind.
    Disguised(char),
    /// The rephrased text keeps too little of what the reviewed text says:
    /// `kept` of its `of` content words (at least one in five is needed).
    TooLittleKept {
        /// Content words kept.
        kept: usize,
        /// Content words of the reviewed text.
        of: usize,
    },
    /// A tagged answer lacks the tag of a fact (`<f2/>`).
    TagLost(String),
    /// A tagged answer holds a fact's tag more than once.
    TagRepeated(String),
    /// A tagged answer holds a tag no fact has, or a tag written other than
    /// exactly (`<f 1/>`, `</f1>`): shown as written, escaped.
    TagAltered(String),
    /// A tagged answer states a fact outside the tags: a figure, a date, a
    /// time, a code, an email address, a web address or a phone number.
    FactOutsideTags(Shown),
    /// The answer is longer than the guard reads (a multiple of the
    /// reviewed text's length: [`MAX_ANSWER_GROWTH`], plus
    /// [`MAX_ANSWER_SLACK`] bytes); it was not read.
    TooLong {
        /// The reviewed text's length in bytes.
        reviewed: usize,
        /// The answer's length in bytes.
        answer: usize,
    },
}

/// How many times the reviewed text's length an answer may be (plus
/// [`MAX_ANSWER_SLACK`]): a rephrase says the same thing, so a longer answer
/// is refused before it is read.
pub const MAX_ANSWER_GROWTH: usize = 4;

/// Bytes an answer may have beyond [`MAX_ANSWER_GROWTH`] times the reviewed
/// text (a short text may be rephrased at more length).
pub const MAX_ANSWER_SLACK: usize = 256;

/// `refusal` with every text that may repeat a personal value hidden.
fn hide_personal(refusal: FactRefusal, filled: &[Filled]) -> FactRefusal {
    let hide = |shown: Shown| Shown {
        text: shown.text.filter(|t| !may_repeat_personal(t, filled)),
        entry: shown.entry,
    };
    match refusal {
        FactRefusal::Changed { reviewed, answer } => FactRefusal::Changed {
            reviewed: hide(reviewed),
            answer: hide(answer),
        },
        FactRefusal::Added(shown) => FactRefusal::Added(hide(shown)),
        other => other,
    }
}

/// Whether `text` (a figure or phrase a refusal would show) may repeat the
/// value of a `pii: true` entry: it holds that value's digits or code, or
/// the value holds its own. Such text is never shown.
pub(crate) fn may_repeat_personal(text: &str, filled: &[Filled]) -> bool {
    let compact = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let shown = compact(text);
    let digits: String = shown.chars().filter(char::is_ascii_digit).collect();
    let figures = |s: &str| -> Vec<figure::Figure> {
        read::read(s, &lexicon::ENGLISH)
            .into_iter()
            .filter_map(|t| match t.kind {
                read::Kind::Figure(f) => Some(f),
                _ => None,
            })
            .collect()
    };
    let shown_figures = figures(text);
    filled.iter().filter(|f| f.pii).any(|f| {
        let value = compact(&f.value);
        let alike = || {
            let own = figures(&f.value);
            shown_figures.iter().any(|s| {
                own.iter()
                    .any(|o| o.same_value(s) || o.digits() == s.digits())
            })
        };
        !value.is_empty()
            && (shown.contains(&value)
                || value.contains(&shown)
                || (!digits.is_empty() && value.contains(&digits))
                || alike())
    })
}

/// The refusal of an answer too long to read, if it is.
pub(crate) fn too_long(reviewed: usize, answer: usize) -> Option<FactRefusal> {
    let limit = reviewed
        .saturating_mul(MAX_ANSWER_GROWTH)
        .saturating_add(MAX_ANSWER_SLACK);
    (answer > limit).then_some(FactRefusal::TooLong { reviewed, answer })
}

impl fmt::Display for FactRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FactRefusal::LostValue(value) => write!(f, "the rephrased text lost {value}"),
            FactRefusal::Changed { reviewed, answer } => {
                write!(f, "the rephrased text changes {reviewed} to {answer}")
            }
            FactRefusal::Lost(figure) => write!(f, "the rephrased text lost {figure}"),
            FactRefusal::Added(figure) => write!(f, "the rephrased text adds {figure}"),
            FactRefusal::Swapped(first, second) => write!(
                f,
                "the rephrased text puts {first} where the reviewed text has {second}"
            ),
            FactRefusal::Negation { reviewed, answer } => write!(
                f,
                "the rephrased text has {answer} negation{} where the reviewed text has {reviewed}",
                if *answer == 1 { "" } else { "s" }
            ),
            FactRefusal::Opposite { reviewed, answer } => write!(
                f,
                "the rephrased text says `{answer}` where the reviewed text says `{reviewed}`"
            ),
            FactRefusal::OppositeWord { reviewed, answer } => write!(
                f,
                "the rephrased text says `{}` where the reviewed text says `{}`",
                escape(answer),
                escape(reviewed)
            ),
            FactRefusal::Disguised(c) => write!(
                f,
                "the rephrased text holds {}, a character that hides or disguises text",
                c.escape_unicode()
            ),
            FactRefusal::TooLittleKept { kept, of } => write!(
                f,
                "the rephrased text keeps {kept} of the reviewed text's {of} content words"
            ),
            FactRefusal::TagLost(tag) => {
                write!(f, "the rephrased text lost the tag `{}`", escape(tag))
            }
            FactRefusal::TagRepeated(tag) => {
                write!(f, "the rephrased text repeats the tag `{}`", escape(tag))
            }
            FactRefusal::TagAltered(tag) => write!(
                f,
                "the rephrased text holds `{}`, which is no tag of the request",
                escape(tag)
            ),
            FactRefusal::FactOutsideTags(fact) => {
                write!(f, "the rephrased text states {fact} outside the tags")
            }
            FactRefusal::TooLong { reviewed, answer } => write!(
                f,
                "the rephrased text is {answer} bytes long, more than the guard reads for a reviewed text of {reviewed}"
            ),
        }
    }
}

impl std::error::Error for FactRefusal {}

/// Whether `answer` keeps the facts of `reviewed`, whose placeholders
/// filled in `filled` (see the module).
pub fn check(reviewed: &str, filled: &[Filled], answer: &str) -> Result<(), FactRefusal> {
    if let Some(refusal) = too_long(reviewed.len(), answer.len()) {
        return Err(refusal);
    }
    additions::nothing_disguised(reviewed, answer)?;
    // Texts in German, French or Spanish are read as English, by value.
    let (reviewed_in, answer_in) = (foreign::language_of(reviewed), foreign::language_of(answer));
    let reviewed_english = foreign::as_english(reviewed, reviewed_in);
    let answer_english = foreign::as_english(answer, answer_in);
    let reviewed = reviewed_english.as_deref().unwrap_or(reviewed);
    let answer = answer_english.as_deref().unwrap_or(answer);
    let read = compare::check(reviewed, filled, answer, &lexicon::ENGLISH)?;
    scoped::scopes_kept((reviewed, &read.kept), (answer, &read.said))
        .map_err(|refusal| hide_personal(refusal, filled))?;
    additions::nothing_added(reviewed, answer).map_err(|refusal| hide_personal(refusal, filled))?;
    if reviewed_in != answer_in {
        // Words are compared only within one language.
        return Ok(());
    }
    // Without a negation on either side none can have moved.
    if read.negations > 0 {
        polarity::clauses_kept(reviewed, answer)?;
    }
    polarity::prefixes_kept(reviewed, answer)?;
    additions::content_kept(reviewed, answer)
}

/// The figures of `text` as written, in order: what a rephrase of it must
/// keep besides the filled values (`$7.5`, `18:40`, `UA 455`, `3 hours`).
pub fn figures(text: &str) -> Vec<String> {
    read::read(text, &lexicon::ENGLISH)
        .into_iter()
        .filter(|token| matches!(token.kind, read::Kind::Figure(_)))
        .map(|token| text[token.span].to_owned())
        .collect()
}

/// Each value a variant's resolved pieces filled in, with its entry and
/// where it stands in the delivered text.
pub(crate) fn filled_values<'p, 'v>(
    pieces: impl IntoIterator<Item = Resolved<'p, 'v>>,
) -> FilledValues {
    let mut at = 0;
    pieces
        .into_iter()
        .filter_map(|piece| match piece {
            Resolved::Value(value, from) => {
                let mut text = String::new();
                // Writing into a String cannot fail.
                let _ = write_py_str(&mut text, value);
                let start = at;
                at += text.len();
                Some(Filled {
                    entry: format!("session.{}.{}", from.namespace, from.name),
                    value: text,
                    pii: from.pii,
                    at: Some(start),
                })
            }
            Resolved::Text(text) => {
                at += text.len();
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
