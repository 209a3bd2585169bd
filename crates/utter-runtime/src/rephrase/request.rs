//! A rephrase request: the reviewed text with each fact as a tag, the
//! instructions that ask an LLM to keep the tags, and the answer checked
//! and written back (each tag replaced by its fact in the channel's form).

use std::collections::HashMap;
use std::fmt;

use super::context::{Channel, RephraseContext, Spoken};
use super::facts::{self, Fact, FactKind};
use super::{spoken, tags};
use crate::guard::contacts;
use crate::guard::languages::{Scope, Side, negation_count, scope_phrase};
use crate::guard::lexicon::ENGLISH;
use crate::guard::read::{Kind, read};
use crate::guard::{FactRefusal, Filled, Shown, too_long};

/// One fact of a request: its tag, what it is, and what utter writes in
/// the tag's place.
#[derive(Clone, PartialEq, Eq)]
pub struct TaggedFact {
    /// The tag the rephraser keeps (`<f1/>`).
    pub tag: String,
    /// What the fact is.
    pub kind: FactKind,
    /// The fact as the reviewed text writes it.
    pub reviewed: String,
    /// What utter writes in the tag's place: as reviewed for text, spoken
    /// for voice, in the conversation's language.
    pub written: String,
    /// The entry whose value it is, when a placeholder filled it in.
    pub entry: Option<String>,
    /// The value is personal data (`pii: true`): the rephraser never sees
    /// it, and `Debug` hides it.
    pub pii: bool,
}

impl fmt::Debug for TaggedFact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hidden = crate::guard::Hidden;
        let (reviewed, written): (&dyn fmt::Debug, &dyn fmt::Debug) = if self.pii {
            (&hidden, &hidden)
        } else {
            (&self.reviewed, &self.written)
        };
        f.debug_struct("TaggedFact")
            .field("tag", &self.tag)
            .field("kind", &self.kind)
            .field("reviewed", reviewed)
            .field("written", written)
            .field("entry", &self.entry)
            .field("pii", &self.pii)
            .finish()
    }
}

/// The reviewed text with every fact as a tag the rephraser must keep
/// exactly once (docs/typed-api.md, "Tagged rephrasing").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RephraseRequest {
    tagged: String,
    facts: Vec<TaggedFact>,
    context: RephraseContext,
}

impl RephraseRequest {
    /// The request for `reviewed`, whose placeholders filled in `filled`,
    /// spoken in `context`.
    pub fn new(reviewed: &str, filled: &[Filled], context: &RephraseContext) -> Self {
        let reviewed_in = context.reviewed_language.spoken();
        let found = facts::find(reviewed, filled, reviewed_in);
        let mut tagged = String::with_capacity(reviewed.len());
        let mut facts = Vec::with_capacity(found.len());
        let mut at = 0;
        for (index, fact) in found.iter().enumerate() {
            let tag = tags::tag(index + 1);
            tagged.push_str(&reviewed[at..fact.span.start]);
            tagged.push_str(&tag);
            at = fact.span.end;
            let value = fact.filled.map(|i| &filled[i]);
            facts.push(TaggedFact {
                tag,
                kind: fact.kind,
                reviewed: reviewed[fact.span.clone()].to_owned(),
                written: written(reviewed, fact, context),
                entry: value.map(|v| v.entry.clone()),
                pii: value.is_some_and(|v| v.pii),
            });
        }
        tagged.push_str(&reviewed[at..]);
        RephraseRequest {
            tagged,
            facts,
            context: context.clone(),
        }
    }

    /// The reviewed text with each fact as its tag.
    pub fn tagged_text(&self) -> &str {
        &self.tagged
    }

    /// The facts, in the order of their tags.
    pub fn facts(&self) -> &[TaggedFact] {
        &self.facts
    }

    /// The channel and languages.
    pub fn context(&self) -> &RephraseContext {
        &self.context
    }

    /// The text utter delivers without a rephrase: the tagged text with
    /// each fact written in the channel's form (the reviewed text itself
    /// on the text channel in the reviewed language).
    pub fn written_text(&self) -> String {
        self.fill(&self.tagged)
    }

    /// The instructions and the tagged text, ready to send to an LLM.
    /// Personal values are never in it.
    pub fn prompt(&self) -> String {
        let mut out = String::new();
        out.push_str("Rephrase ONLY the message below in your own words so that it fits naturally into the conversation. Do not add new information.\n");
        out.push_str(&format!("Write it in {}.\n", self.context.language.name()));
        if self.context.channel == Channel::Voice {
            out.push_str("It will be spoken: write natural spoken text in short sentences, with no markdown, lists or decorative formatting.\n");
        }
        if !self.facts.is_empty() {
            out.push_str(concat!(
                "\nThe message holds facts written as tags such as <f1/>. Rules for the tags:\n",
                "- Copy every tag exactly as written (`<f` + its number + `/>`), each exactly once.\n",
                "- Keep each tag's role: do not swap two tags of the same kind.\n",
                "- Never write a fact yourself: no number, amount, date, time, code, email address, web address or phone number outside a tag, not even in words.\n",
                "- Do not add or remove a negation.\n",
                "- Write the words around a tag so the sentence reads well with the fact in its place; utter replaces each tag by its fact after you answer.\n",
                "\nThe facts:\n",
            ));
            for fact in &self.facts {
                let shown = if fact.pii {
                    "(personal, not shown)".to_owned()
                } else {
                    format!("\"{}\"", fact.written.replace('"', "'"))
                };
                out.push_str(&format!(
                    "{} is {}: {shown}\n",
                    fact.tag,
                    fact.kind.description()
                ));
            }
        }
        out.push_str("\nThe message:\n");
        out.push_str(&self.tagged);
        out.push('\n');
        out
    }

    /// The answer with each tag replaced by its fact, when it keeps every
    /// tag exactly once (same-kind tags in their order), states no fact
    /// outside them and keeps the negations; else why not. `strict: false`
    /// (the guard relaxed) still needs the tags, and checks no more.
    pub fn write_back(&self, answer: &str, strict: bool) -> Result<String, FactRefusal> {
        if let Some(refusal) = too_long(self.tagged.len(), answer.len()) {
            return Err(refusal);
        }
        let found = tags::find(answer);
        let mut seen = vec![false; self.facts.len()];
        let mut order = Vec::with_capacity(self.facts.len());
        for tag in &found {
            let number = tag.number.filter(|n| (1..=self.facts.len()).contains(n));
            let Some(number) = number else {
                return Err(FactRefusal::TagAltered(answer[tag.span.clone()].to_owned()));
            };
            if std::mem::replace(&mut seen[number - 1], true) {
                return Err(FactRefusal::TagRepeated(tags::tag(number)));
            }
            order.push(number - 1);
        }
        if let Some(lost) = seen.iter().position(|s| !s) {
            return Err(FactRefusal::TagLost(tags::tag(lost + 1)));
        }
        if strict {
            self.roles_kept(&order)?;
            self.nothing_outside(answer, &found)?;
            self.negations_kept(answer, &found)?;
        }
        Ok(self.fill(answer))
    }

    /// Tags of one kind stay in the reviewed order: two amounts, dates or
    /// values could otherwise trade roles.
    fn roles_kept(&self, order: &[usize]) -> Result<(), FactRefusal> {
        // Each kind's tags must come in increasing order: one pass, the
        // last of each kind kept.
        let mut last: HashMap<FactKind, usize> = HashMap::new();
        for &at in order {
            let kind = self.facts[at].kind;
            if let Some(&before) = last.get(&kind)
                && before > at
            {
                return Err(FactRefusal::Swapped(self.shown(before), self.shown(at)));
            }
            last.insert(kind, at);
        }
        Ok(())
    }

    fn shown(&self, index: usize) -> Shown {
        let fact = &self.facts[index];
        Shown {
            text: (!fact.pii).then(|| fact.reviewed.clone()),
            entry: fact.entry.clone(),
        }
    }

    /// No figure, number word, contact or personal value outside the tags.
    fn nothing_outside(&self, answer: &str, found: &[tags::Found]) -> Result<(), FactRefusal> {
        for segment in segments(answer, found) {
            let outside = |text: &str| FactRefusal::FactOutsideTags(self.shown_outside(text));
            if let Some((span, _)) = contacts::find(segment).into_iter().next() {
                return Err(outside(&segment[span]));
            }
            for token in read(segment, &ENGLISH) {
                if matches!(token.kind, Kind::Figure(_)) {
                    return Err(outside(&segment[token.span]));
                }
            }
            if let Some(word) = number_word(segment, self.context.language.spoken()) {
                return Err(outside(&word));
            }
            if let Some(value) = self
                .facts
                .iter()
                .find(|f| f.pii && contains_word(segment, &f.reviewed))
            {
                return Err(FactRefusal::FactOutsideTags(Shown {
                    text: None,
                    entry: value.entry.clone(),
                }));
            }
        }
        Ok(())
    }

    /// A fact outside the tags as a refusal shows it: hidden when it may
    /// repeat a personal value.
    fn shown_outside(&self, text: &str) -> Shown {
        let personal = self.facts.iter().any(|f| {
            f.pii && (f.reviewed.contains(text.trim()) || text.contains(f.reviewed.as_str()))
        });
        Shown {
            text: (!personal).then(|| text.to_owned()),
            entry: None,
        }
    }

    fn negations_kept(&self, answer: &str, found: &[tags::Found]) -> Result<(), FactRefusal> {
        let (Some(reviewed_in), Some(answered_in)) = (
            self.context.reviewed_language.spoken(),
            self.context.language.spoken(),
        ) else {
            return Ok(());
        };
        let reviewed = negation_count(
            &untagged(&self.tagged, &tags::find(&self.tagged)),
            reviewed_in,
        );
        let said = negation_count(&untagged(answer, found), answered_in);
        if reviewed != said {
            return Err(FactRefusal::Negation {
                reviewed,
                answer: said,
            });
        }
        Ok(())
    }

    /// `text` with each exact tag of this request replaced by its fact.
    fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 16 * self.facts.len());
        let mut at = 0;
        for tag in tags::find(text) {
            let Some(fact) = tag.number.and_then(|n| self.facts.get(n.wrapping_sub(1))) else {
                continue;
            };
            out.push_str(&text[at..tag.span.start]);
            out.push_str(&fact.written);
            at = tag.span.end;
        }
        out.push_str(&text[at..]);
        out
    }
}

/// The text between the tags.
fn segments<'a>(text: &'a str, found: &[tags::Found]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(found.len() + 1);
    let mut at = 0;
    for tag in found {
        out.push(&text[at..tag.span.start]);
        at = tag.span.end;
    }
    out.push(&text[at..]);
    out
}

/// The text with its tags left out (a space each).
fn untagged(text: &str, found: &[tags::Found]) -> String {
    segments(text, found).join(" ")
}

fn contains_word(text: &str, word: &str) -> bool {
    let word = word.trim();
    !word.is_empty() && text.to_lowercase().contains(&word.to_lowercase())
}

/// A number written in words in German, French or Spanish (English's are
/// read by the figure reader): a word of 2 or more, or any larger number
/// (`un`, `ein`, `una` are articles as often as numbers).
fn number_word(segment: &str, language: Option<Spoken>) -> Option<String> {
    let language = match language? {
        Spoken::English => return None,
        Spoken::German => text2num::Language::german(),
        Spoken::French => text2num::Language::french(),
        Spoken::Spanish => text2num::Language::spanish(),
    };
    let replaced = text2num::replace_numbers_in_text(segment, &language, 2.0);
    if replaced == segment {
        return None;
    }
    let shown = replaced
        .split_whitespace()
        .find(|w| w.chars().any(|c| c.is_ascii_digit()) && !segment.contains(*w))
        .unwrap_or("a number")
        .to_owned();
    Some(shown)
}

/// What utter writes in a fact's place (see [`TaggedFact::written`]).
fn written(reviewed: &str, fact: &Fact, context: &RephraseContext) -> String {
    let same_language = context.language.primary() == context.reviewed_language.primary();
    let as_reviewed = &reviewed[fact.span.clone()];
    let target = context.language.spoken();
    let core_text = &reviewed[fact.core.clone()];
    let core = match (context.channel, target) {
        (Channel::Voice, Some(language)) => {
            spoken_core(reviewed, fact, &context.language, language)
        }
        _ if same_language => return as_reviewed.to_owned(),
        _ => core_text.to_owned(),
    };
    let scope = |part: &Option<(std::ops::Range<usize>, Scope)>, side: Side| {
        part.as_ref().map(|(span, scope)| {
            let translated = target
                .filter(|_| !same_language)
                .and_then(|l| scope_phrase(*scope, side, l));
            translated.map_or_else(|| reviewed[span.clone()].to_owned(), str::to_owned)
        })
    };
    let mut out = String::new();
    if let Some(before) = scope(&fact.before, Side::Before) {
        out.push_str(&before);
        out.push(' ');
    }
    out.push_str(&core);
    if let Some(after) = scope(&fact.after, Side::After) {
        out.push(' ');
        out.push_str(&after);
    }
    out
}

/// A fact's core as said in `language`: a contact by its symbols, else
/// each figure spoken and the words between kept.
fn spoken_core(
    reviewed: &str,
    fact: &Fact,
    language: &super::Language,
    spoken_in: Spoken,
) -> String {
    let core = &reviewed[fact.core.clone()];
    match fact.kind {
        FactKind::Email | FactKind::WebAddress => return spoken::address(core, spoken_in),
        FactKind::Phone => return spoken::phone(core, spoken_in),
        _ => {}
    }
    let mut out = String::new();
    let mut at = fact.core.start;
    for (span, figure) in &fact.figures {
        if span.start < at {
            continue;
        }
        out.push_str(&reviewed[at..span.start]);
        let written = &reviewed[span.clone()];
        match spoken::figure(figure, written, fact.code_like, language) {
            Some(said) => out.push_str(&said),
            None => out.push_str(written),
        }
        at = span.end;
    }
    out.push_str(&reviewed[at..fact.core.end]);
    out
}
