//! What a delivery produces, and the optional rephrasing step after it.

use std::borrow::Cow;

/// The outcome of delivering one response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery<'a> {
    /// The interpolated text of the selected variant, or the response name
    /// itself when nothing could be selected (`fallback`).
    pub text: Cow<'a, str>,
    /// The name of the response that was asked for.
    pub response: &'a str,
    /// The 0-based index of the selected variant in its YAML list.
    pub variant: Option<usize>,
    /// Whether the selected variant asks to be reworded (`metadata.rephrase`).
    pub rephrase: bool,
    /// True when the response name was delivered as literal text: the name is
    /// unknown, or every variant is conditioned and none holds.
    pub fallback: bool,
}

impl<'a> Delivery<'a> {
    /// The fail-closed delivery of `name`: the name itself, never rephrased.
    pub fn fallback(name: &'a str) -> Self {
        Delivery {
            text: Cow::Borrowed(name),
            response: name,
            variant: None,
            rephrase: false,
            fallback: true,
        }
    }

    /// The text to send, after asking `rephraser` to reword it when the
    /// selected variant opts in. Falls back to the literal text when the
    /// rephraser fails or answers with blank text; blank text is never sent
    /// for rephrasing.
    pub fn speak<R: Rephraser>(self, rephraser: &mut R) -> Spoken<'a, R::Error> {
        if !self.rephrase || self.fallback || self.text.trim().is_empty() {
            return Spoken {
                text: self.text,
                rephrased: false,
                error: None,
            };
        }
        match rephraser.rephrase(&self.text) {
            Ok(reworded) if !reworded.trim().is_empty() => Spoken {
                text: Cow::Owned(reworded),
                rephrased: true,
                error: None,
            },
            Ok(_) => Spoken {
                text: self.text,
                rephrased: false,
                error: None,
            },
            Err(error) => Spoken {
                text: self.text,
                rephrased: false,
                error: Some(error),
            },
        }
    }
}

/// Rewords a response text in context (an LLM call in a real agent).
pub trait Rephraser {
    type Error;
    fn rephrase(&mut self, text: &str) -> Result<String, Self::Error>;
}

impl<E, F: FnMut(&str) -> Result<String, E>> Rephraser for F {
    type Error = E;
    fn rephrase(&mut self, text: &str) -> Result<String, E> {
        self(text)
    }
}

/// The text that is finally sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spoken<'a, E> {
    pub text: Cow<'a, str>,
    /// True when the text is the rephraser's.
    pub rephrased: bool,
    /// The rephraser's error, when it failed and the literal text was used.
    pub error: Option<E>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(text: &'static str, rephrase: bool) -> Delivery<'static> {
        Delivery {
            text: Cow::Borrowed(text),
            response: "utter_x",
            variant: Some(0),
            rephrase,
            fallback: false,
        }
    }

    #[test]
    fn rephrases_only_when_asked() {
        let mut calls = 0;
        let mut upper = |t: &str| -> Result<String, ()> {
            calls += 1;
            Ok(t.to_uppercase())
        };
        let spoken = delivery("hi", true).speak(&mut upper);
        assert_eq!((spoken.text.as_ref(), spoken.rephrased), ("HI", true));
        let spoken = delivery("hi", false).speak(&mut upper);
        assert_eq!((spoken.text.as_ref(), spoken.rephrased), ("hi", false));
        let spoken = Delivery::fallback("utter_gone").speak(&mut upper);
        assert_eq!(spoken.text, "utter_gone");
        let spoken = delivery("  ", true).speak(&mut upper);
        assert_eq!(spoken.text, "  ");
        assert_eq!(calls, 1, "blank, fallback and opt-out texts are never sent");
    }

    #[test]
    fn falls_back_to_the_literal_text() {
        let mut blank = |_: &str| -> Result<String, &'static str> { Ok(" \n".into()) };
        let spoken = delivery("hi", true).speak(&mut blank);
        assert_eq!((spoken.text.as_ref(), spoken.rephrased), ("hi", false));
        let mut failing = |_: &str| -> Result<String, &'static str> { Err("timeout") };
        let spoken = delivery("hi", true).speak(&mut failing);
        assert_eq!(spoken.text, "hi");
        assert_eq!(spoken.error, Some("timeout"));
    }
}
