//! Where a delivery is spoken: its channel and its language.

use std::borrow::Cow;
use std::fmt;

pub(crate) use crate::guard::languages::Spoken;

/// The channel a delivery goes out on: what form utter writes facts in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Channel {
    /// Text (the default): each fact as reviewed.
    #[default]
    Text,
    /// Voice: each fact spoken in the conversation's language (money with
    /// its minor unit, dates and years as said, codes character by
    /// character), as Mantle's voice rules ask of its rephraser.
    Voice,
}

/// A language as a BCP 47 tag (`en`, `en-GB`, `de-CH`). utter writes spoken
/// forms and reads negations in English, German, French and Spanish; in
/// another language a fact is written as reviewed (a speech engine reads
/// figures in its own language).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Language(Cow<'static, str>);

impl Language {
    /// English, the default when an agent declares none.
    pub const ENGLISH: Language = Language(Cow::Borrowed("en"));

    /// The language of a BCP 47 tag, as given.
    pub fn new(tag: impl Into<Cow<'static, str>>) -> Self {
        Language(tag.into())
    }

    /// The tag as given.
    pub fn tag(&self) -> &str {
        &self.0
    }

    /// The primary language subtag, lowercase (`de` for `de-CH`).
    pub fn primary(&self) -> String {
        let primary = self.0.split(['-', '_']).next().unwrap_or_default();
        primary.to_ascii_lowercase()
    }

    /// The region subtag, uppercase, when the tag has one (`GB` for `en-GB`).
    pub fn region(&self) -> Option<String> {
        self.0
            .split(['-', '_'])
            .skip(1)
            .find(|part| part.len() == 2 && part.chars().all(|c| c.is_ascii_alphabetic()))
            .map(str::to_ascii_uppercase)
    }

    pub(crate) fn spoken(&self) -> Option<Spoken> {
        match self.primary().as_str() {
            "en" => Some(Spoken::English),
            "de" => Some(Spoken::German),
            "fr" => Some(Spoken::French),
            "es" => Some(Spoken::Spanish),
            _ => None,
        }
    }

    /// Whether dates are said month first (`July twenty-first`): English
    /// in the United States and where no region is named, and its
    /// territories that write month first.
    pub(crate) fn month_first(&self) -> bool {
        self.spoken() == Some(Spoken::English)
            && matches!(
                self.region().as_deref(),
                None | Some("US" | "PH" | "UM" | "AS" | "GU" | "PR" | "VI" | "MP")
            )
    }

    /// The language's name in English, for the rephraser's instructions.
    pub(crate) fn name(&self) -> Cow<'static, str> {
        match self.spoken() {
            Some(Spoken::English) => "English".into(),
            Some(Spoken::German) => "German".into(),
            Some(Spoken::French) => "French".into(),
            Some(Spoken::Spanish) => "Spanish".into(),
            None => format!("the language tagged `{}`", self.0).into(),
        }
    }
}

impl Default for Language {
    fn default() -> Self {
        Language::ENGLISH
    }
}

impl fmt::Debug for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Language({:?})", self.0)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a rephrase is spoken: the channel, the conversation's language,
/// and the language the reviewed text is written in (the agent's declared
/// language). Default: text, English, English.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RephraseContext {
    /// The channel.
    pub channel: Channel,
    /// The conversation's language: what the answer is asked in, and what
    /// utter writes spoken facts in.
    pub language: Language,
    /// The language of the reviewed text (the agent's `agent.language`).
    pub reviewed_language: Language,
}

impl RephraseContext {
    /// Text in `language`, reviewed in that language too.
    pub fn text(language: Language) -> Self {
        RephraseContext {
            channel: Channel::Text,
            reviewed_language: language.clone(),
            language,
        }
    }

    /// Voice in `language`, reviewed in that language too.
    pub fn voice(language: Language) -> Self {
        RephraseContext {
            channel: Channel::Voice,
            reviewed_language: language.clone(),
            language,
        }
    }

    /// This context with the reviewed text in `language` (the agent's
    /// declared language, when the conversation's differs).
    #[must_use]
    pub fn reviewed_in(mut self, language: Language) -> Self {
        self.reviewed_language = language;
        self
    }
}
