//! What a delivery produces, and the optional rephrasing step after it.

use std::borrow::Cow;
use std::convert::Infallible;

use crate::guard::{FactGuard, FactRefusal, Filled};
use crate::rephrase::{
    AsyncTaggedRephraser, Channel, RephraseContext, RephraseRequest, TaggedRephraser,
};

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
    /// The id of the selected variant's reviewed wording (`None` for the
    /// fail-closed name): the id the snapshot prints beside the variant.
    pub wording: Option<crate::WordingId>,
    /// What a rephrase must keep: on by default, with the values filled into
    /// the variant's placeholders (collected only for a variant that asks to
    /// be rephrased). See [`Delivery::speak`].
    pub guard: FactGuard,
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
            wording: None,
            guard: FactGuard::default(),
        }
    }

    /// This delivery with the fact guard off: its rephrase is delivered
    /// whatever facts it changed. For one call where the caller checks the
    /// rephrased text itself; the default is guarded.
    #[must_use]
    pub fn relax_fact_guard(mut self) -> Self {
        self.guard = FactGuard::Off;
        self
    }

    /// Whether the text goes to a rephraser: the variant opts in, it is not
    /// a fallback, and the text is not blank. The one rule every path shares.
    pub fn wants_rephrase(&self) -> bool {
        self.rephrase && !self.fallback && !self.text.trim().is_empty()
    }

    /// The spoken text given the rephraser's answer (`None`: not asked):
    /// the reworded text when it keeps the facts (the fact guard), else the
    /// reviewed one, also when the rephraser failed or came back blank. The
    /// one place every rephrase path (`speak`, `speak_with`, `speak_async`)
    /// goes through.
    fn spoken<E>(self, answer: Option<Result<String, E>>) -> Spoken<'a, E> {
        let asked = answer.is_some();
        let (response, wording) = (self.response, self.wording);
        let spoken = self.spoken_from(answer);
        if asked {
            record(response, wording, &spoken);
        }
        spoken
    }

    fn spoken_from<E>(self, answer: Option<Result<String, E>>) -> Spoken<'a, E> {
        let unguarded = matches!(self.guard, FactGuard::Off);
        match answer {
            Some(Ok(reworded)) if !reworded.trim().is_empty() => {
                let kept = match &self.guard {
                    FactGuard::On { filled } => crate::guard::check(&self.text, filled, &reworded),
                    FactGuard::Off => Ok(()),
                };
                match kept {
                    Ok(()) => Spoken::used(Cow::Owned(reworded), unguarded),
                    Err(refusal) => Spoken::reviewed(self.text).refused(refusal),
                }
            }
            Some(Err(error)) => Spoken::reviewed(self.text).failed(error),
            Some(Ok(_)) => Spoken::reviewed(self.text).blank(),
            None => Spoken::reviewed(self.text),
        }
    }

    /// The text to send, after asking `rephraser` to reword it when the
    /// selected variant opts in. Falls back to the literal text when the
    /// rephraser fails or answers with blank text; blank text is never sent
    /// for rephrasing.
    pub fn speak<R: Rephraser>(self, rephraser: &mut R) -> Spoken<'a, R::Error> {
        let answer = self
            .wants_rephrase()
            .then(|| rephraser.rephrase(&self.text));
        self.spoken(answer)
    }

    /// [`Delivery::speak`] with a rephraser that cannot fail:
    /// `delivery.speak_with(|t| t.to_uppercase())`.
    pub fn speak_with(self, mut rephrase: impl FnMut(&str) -> String) -> Spoken<'a, Infallible> {
        self.speak(&mut |t: &str| Ok::<_, Infallible>(rephrase(t)))
    }

    /// [`Delivery::speak`] with an asynchronous rephraser (an LLM call),
    /// under the same rules. Runtime-agnostic; the future is `Send` when the
    /// rephraser's is, so it runs on a multi-threaded executor.
    pub async fn speak_async<R: AsyncRephraser>(self, rephraser: &mut R) -> Spoken<'a, R::Error> {
        let answer = if self.wants_rephrase() {
            Some(rephraser.rephrase(&self.text).await)
        } else {
            None
        };
        self.spoken(answer)
    }
}

impl<'a> Delivery<'a> {
    /// The tagged rephrase request of this delivery in `context`: its text
    /// with each fact as a tag (docs/typed-api.md, "Tagged rephrasing"),
    /// for a caller that drives its own LLM call; answer it with
    /// [`RephraseRequest::write_back`].
    pub fn rephrase_request(&self, context: &RephraseContext) -> RephraseRequest {
        let filled: &[Filled] = match &self.guard {
            FactGuard::On { filled } => filled,
            FactGuard::Off => &[],
        };
        RephraseRequest::new(&self.text, filled, context)
    }

    /// [`Delivery::speak`] with the tagged protocol: the rephraser gets the
    /// text with each fact as a tag and the context; utter writes each fact
    /// back itself, in the channel's form (spoken in the conversation's
    /// language for voice, also when nothing is rephrased). An answer that
    /// drops, repeats or alters a tag, or states a fact outside them, is
    /// refused, so a fact cannot change.
    pub fn speak_tagged<R: TaggedRephraser>(
        self,
        rephraser: &mut R,
        context: &RephraseContext,
    ) -> Spoken<'a, R::Error> {
        let Some(request) = self.tagged_request(context) else {
            return self.spoken(None::<Result<String, R::Error>>);
        };
        let answer = self.wants_rephrase().then(|| rephraser.rephrase(&request));
        self.spoken_tagged(&request, answer)
    }

    /// [`Delivery::speak_tagged`] with a rephraser that cannot fail.
    pub fn speak_tagged_with(
        self,
        mut rephrase: impl FnMut(&RephraseRequest) -> String,
        context: &RephraseContext,
    ) -> Spoken<'a, Infallible> {
        self.speak_tagged(
            &mut |r: &RephraseRequest| Ok::<_, Infallible>(rephrase(r)),
            context,
        )
    }

    /// [`Delivery::speak_tagged`] with an asynchronous rephraser.
    pub async fn speak_tagged_async<R: AsyncTaggedRephraser>(
        self,
        rephraser: &mut R,
        context: &RephraseContext,
    ) -> Spoken<'a, R::Error> {
        let Some(request) = self.tagged_request(context) else {
            return self.spoken(None::<Result<String, R::Error>>);
        };
        let answer = if self.wants_rephrase() {
            Some(rephraser.rephrase(&request).await)
        } else {
            None
        };
        self.spoken_tagged(&request, answer)
    }

    /// The request, unless the text goes out as it is: a fallback, or a
    /// text channel delivery that does not rephrase.
    fn tagged_request(&self, context: &RephraseContext) -> Option<RephraseRequest> {
        let as_is = self.fallback || (context.channel == Channel::Text && !self.wants_rephrase());
        (!as_is).then(|| self.rephrase_request(context))
    }

    /// What [`Delivery::spoken`] is for the tagged protocol: the answer
    /// written back when it keeps every fact, else the request's text with
    /// its facts written in the channel's form.
    fn spoken_tagged<E>(
        self,
        request: &RephraseRequest,
        answer: Option<Result<String, E>>,
    ) -> Spoken<'a, E> {
        let strict = matches!(self.guard, FactGuard::On { .. });
        let asked = answer.is_some();
        let (response, wording) = (self.response, self.wording);
        let written = || Spoken::reviewed(Cow::Owned(request.written_text()));
        let spoken = match answer {
            Some(Ok(answer)) if !answer.trim().is_empty() => {
                match request.write_back(&answer, strict) {
                    Ok(text) => Spoken::used(Cow::Owned(text), !strict),
                    Err(refusal) => written().refused(refusal),
                }
            }
            Some(Err(error)) => written().failed(error),
            Some(Ok(_)) => written().blank(),
            None => written(),
        };
        if asked {
            record(response, wording, &spoken);
        }
        spoken
    }
}

/// The `utter::rephrase` event of an asked rephrase.
fn record<E>(response: &str, wording: Option<crate::WordingId>, spoken: &Spoken<'_, E>) {
    let outcome = match spoken.outcome() {
        RephraseOutcome::Used => "used",
        RephraseOutcome::UsedUnguarded => "used_unguarded",
        RephraseOutcome::Refused(_) => "refused",
        RephraseOutcome::Failed(_) => "failed",
        RephraseOutcome::Blank => "blank",
        RephraseOutcome::NotAsked => "not_asked",
    };
    crate::wording::record_rephrase(response, wording, outcome, spoken.refused.as_ref());
}

/// Rewords a response text asynchronously (an LLM call in an async agent).
/// Implemented by hand; `async fn rephrase` in the impl is the usual form.
pub trait AsyncRephraser {
    /// Why rewording failed (the literal text is delivered then).
    type Error;
    /// `text`, reworded.
    fn rephrase(&mut self, text: &str) -> impl Future<Output = Result<String, Self::Error>> + Send;
}

/// Rewords a response text in context (an LLM call in a real agent).
pub trait Rephraser {
    /// Why rewording failed (the literal text is delivered then).
    type Error;
    /// `text`, reworded.
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
    /// The text to say.
    pub text: Cow<'a, str>,
    /// True when the text is the rephraser's.
    pub rephrased: bool,
    /// The rephraser's error, when it failed and the literal text was used.
    pub error: Option<E>,
    /// Why the fact guard refused the rephrased text (the reviewed text was
    /// used): a value or number lost, a number added, two numbers swapped.
    pub refused: Option<FactRefusal>,
    /// The rephraser answered with blank text (the reviewed text was used).
    pub answered_blank: bool,
    /// The rephrased text was used with the fact guard relaxed
    /// ([`Delivery::relax_fact_guard`]): no fact was checked.
    pub unguarded: bool,
}

impl<'a, E> Spoken<'a, E> {
    /// The reviewed text, not rephrased (nothing asked yet).
    fn reviewed(text: Cow<'a, str>) -> Self {
        Spoken {
            text,
            rephrased: false,
            error: None,
            refused: None,
            answered_blank: false,
            unguarded: false,
        }
    }

    /// The rephrased text, used (`unguarded`: with the guard relaxed).
    fn used(text: Cow<'a, str>, unguarded: bool) -> Self {
        Spoken {
            rephrased: true,
            unguarded,
            ..Spoken::reviewed(text)
        }
    }

    fn refused(mut self, refusal: FactRefusal) -> Self {
        self.refused = Some(refusal);
        self
    }

    fn failed(mut self, error: E) -> Self {
        self.error = Some(error);
        self
    }

    fn blank(mut self) -> Self {
        self.answered_blank = true;
        self
    }
}

impl<E> Spoken<'_, E> {
    /// What happened to the rephrase, for a log line.
    pub fn outcome(&self) -> RephraseOutcome<'_, E> {
        match (&self.error, &self.refused, self.rephrased) {
            (Some(error), _, _) => RephraseOutcome::Failed(error),
            (None, Some(refusal), _) => RephraseOutcome::Refused(refusal),
            (None, None, true) if self.unguarded => RephraseOutcome::UsedUnguarded,
            (None, None, true) => RephraseOutcome::Used,
            (None, None, false) if self.answered_blank => RephraseOutcome::Blank,
            (None, None, false) => RephraseOutcome::NotAsked,
        }
    }
}

/// What happened to a rephrase ([`Spoken::outcome`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RephraseOutcome<'s, E> {
    /// Not asked: the variant does not opt in, it is a fallback, or the text
    /// is blank.
    NotAsked,
    /// Asked, and the rephraser answered with blank text: the reviewed text
    /// was delivered.
    Blank,
    /// The rephrased text was delivered.
    Used,
    /// The rephrased text was delivered with the fact guard relaxed: no
    /// fact was checked.
    UsedUnguarded,
    /// The fact guard refused the rephrased text: the reviewed one was delivered.
    Refused(&'s FactRefusal),
    /// The rephraser failed: the reviewed text was delivered.
    Failed(&'s E),
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
            wording: Some(crate::WordingId(7)),
            guard: FactGuard::default(),
        }
    }

    /// A rephrased variant whose text filled in `rush` and `4242`.
    fn shipping() -> Delivery<'static> {
        Delivery {
            guard: FactGuard::On {
                filled: vec![
                    crate::Filled::new("session.card.last_four", "4242"),
                    crate::Filled::new("session.card.speed", "rush"),
                ]
                .into(),
            },
            ..delivery(
                "Your card ending 4242 ships via rush delivery in 2 days.",
                true,
            )
        }
    }

    /// Every tagged path: the rephraser sees tags, never the facts; an
    /// answer keeping them is written back; one that loses a tag gets the
    /// reviewed text; on voice the facts are spoken, rephrased or not.
    #[test]
    fn every_tagged_rephrase_path_writes_the_facts_back() {
        let text = RephraseContext::default();
        let voice = RephraseContext::voice(crate::Language::ENGLISH);
        let keeps = |r: &RephraseRequest| {
            assert_eq!(
                r.tagged_text(),
                "Your card ending <f1/> ships via <f2/> delivery in <f3/>."
            );
            Ok::<_, ()>("In <f3/>, your card ending <f1/> ships by <f2/> delivery.".to_owned())
        };
        let spoken = shipping().speak_tagged(&mut { keeps }, &text);
        assert_eq!(
            spoken.text,
            "In 2 days, your card ending 4242 ships by rush delivery."
        );
        assert_eq!(spoken.outcome(), RephraseOutcome::Used);
        let spoken = shipping().speak_tagged(&mut { keeps }, &voice);
        assert_eq!(
            spoken.text,
            "In two days, your card ending four two four two ships by rush delivery."
        );
        let spoken =
            shipping().speak_tagged_with(|_| "Your card ships in <f3/>.".to_owned(), &text);
        assert_eq!(spoken.text, shipping().text);
        assert_eq!(spoken.refused, Some(FactRefusal::TagLost("<f1/>".into())));
        let mut llm = Llm {
            calls: 0,
            fail: false,
        };
        let spoken = block_on(shipping().speak_tagged_async(&mut llm, &voice));
        assert_eq!(llm.calls, 1);
        assert_eq!(
            spoken.text,
            "Your card ending four two four two ships via rush delivery in two days."
        );
        assert!(matches!(spoken.refused, Some(FactRefusal::TagLost(_))));
        // Not rephrased: text goes out as it is, voice spoken.
        let spoken = delivery("Fee: $5.", false).speak_tagged_with(|_| unreachable!(), &text);
        assert!(matches!(spoken.text, Cow::Borrowed("Fee: $5.")));
        let spoken = delivery("Fee: $5.", false).speak_tagged_with(|_| unreachable!(), &voice);
        assert_eq!(spoken.text, "Fee: five dollars.");
        let spoken = Delivery::fallback("utter_gone").speak_tagged_with(|_| unreachable!(), &voice);
        assert_eq!(spoken.text, "utter_gone");
    }

    /// Every rephrase path refuses an answer that changes a fact, delivers
    /// the reviewed text and says why; a faithful answer is used; relaxed,
    /// anything goes.
    #[test]
    fn every_rephrase_path_keeps_the_facts() {
        let wrong = |_: &str| Ok::<_, ()>("Your card ending 4224 ships soon.".to_owned());
        let faithful = |_: &str| {
            Ok::<_, ()>("Your card ending 4242 arrives by RUSH delivery, in 2 days!".to_owned())
        };
        let refused = FactRefusal::LostValue(crate::Shown {
            text: Some("4242".into()),
            entry: Some("session.card.last_four".into()),
        });
        let spoken = shipping().speak(&mut { wrong });
        assert_eq!(spoken.text, shipping().text);
        assert_eq!(spoken.outcome(), RephraseOutcome::Refused(&refused));
        let spoken = shipping().speak_with(|_| "Your card ending 4224 ships soon.".to_owned());
        assert_eq!(
            (spoken.rephrased, spoken.refused.as_ref()),
            (false, Some(&refused))
        );
        let mut llm = Llm {
            calls: 0,
            fail: false,
        };
        // «...» keeps everything: used.
        let spoken = block_on(shipping().speak_async(&mut llm));
        assert_eq!(spoken.outcome(), RephraseOutcome::Used);
        let spoken = shipping().speak(&mut { faithful });
        assert!(spoken.rephrased && spoken.refused.is_none(), "{spoken:?}");
        let spoken = shipping().relax_fact_guard().speak(&mut { wrong });
        assert_eq!(spoken.text, "Your card ending 4224 ships soon.");
        // Relaxed, said so: the audit tells an unchecked rephrase apart.
        assert_eq!(spoken.outcome(), RephraseOutcome::UsedUnguarded);
        let spoken = delivery("hi", false).speak(&mut { wrong });
        assert_eq!(spoken.outcome(), RephraseOutcome::NotAsked);
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
        // A blank answer is its own outcome, not "not asked".
        assert_eq!(spoken.outcome(), RephraseOutcome::Blank);
        let spoken =
            delivery("hi", true).speak_tagged_with(|_| " ".into(), &RephraseContext::default());
        assert_eq!(spoken.outcome(), RephraseOutcome::Blank);
        let spoken = delivery("Fee: $5.", true)
            .relax_fact_guard()
            .speak_tagged_with(|_| "It costs <f1/>.".into(), &RephraseContext::default());
        assert_eq!(spoken.outcome(), RephraseOutcome::UsedUnguarded);
        let mut failing = |_: &str| -> Result<String, &'static str> { Err("timeout") };
        let spoken = delivery("hi", true).speak(&mut failing);
        assert_eq!(spoken.text, "hi");
        assert_eq!(spoken.error, Some("timeout"));
    }

    #[test]
    fn an_infallible_closure_needs_no_types() {
        let spoken = delivery("hi", true).speak_with(|t| t.to_uppercase());
        assert_eq!((spoken.text.as_ref(), spoken.rephrased), ("HI", true));
        let spoken = Delivery::fallback("utter_gone").speak_with(|t| t.to_uppercase());
        assert_eq!(spoken.text, "utter_gone");
    }

    /// Polls a future that never waits (no runtime needed for the test).
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        loop {
            if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }

    struct Llm {
        calls: usize,
        fail: bool,
    }

    /// Answers with the tagged text's first tag alone.
    impl AsyncTaggedRephraser for Llm {
        type Error = &'static str;
        async fn rephrase(&mut self, request: &RephraseRequest) -> Result<String, &'static str> {
            self.calls += 1;
            Ok(format!("«{}»", &request.tagged_text()[..22]))
        }
    }

    impl AsyncRephraser for Llm {
        type Error = &'static str;
        async fn rephrase(&mut self, text: &str) -> Result<String, &'static str> {
            self.calls += 1;
            if self.fail {
                Err("timeout")
            } else {
                Ok(format!("«{text}»"))
            }
        }
    }

    #[test]
    fn the_async_path_follows_the_same_rules() {
        let mut llm = Llm {
            calls: 0,
            fail: false,
        };
        let spoken = block_on(delivery("hi", true).speak_async(&mut llm));
        assert_eq!((spoken.text.as_ref(), spoken.rephrased), ("«hi»", true));
        let spoken = block_on(delivery("hi", false).speak_async(&mut llm));
        assert_eq!(spoken.text, "hi");
        let spoken = block_on(Delivery::fallback("utter_gone").speak_async(&mut llm));
        assert_eq!(spoken.text, "utter_gone");
        let spoken = block_on(delivery(" ", true).speak_async(&mut llm));
        assert_eq!(spoken.text, " ");
        assert_eq!(llm.calls, 1);
        let mut failing = Llm {
            calls: 0,
            fail: true,
        };
        let spoken = block_on(delivery("hi", true).speak_async(&mut failing));
        assert_eq!(
            (spoken.text.as_ref(), spoken.error),
            ("hi", Some("timeout"))
        );
    }

    #[test]
    fn contexts_and_memories_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<crate::Context<'static>>();
        send_sync::<crate::MapMemory>();
        send_sync::<crate::SlotMemory<'static>>();
        send_sync::<Delivery<'static>>();
    }
}
