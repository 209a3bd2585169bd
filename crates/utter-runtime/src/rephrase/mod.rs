//! Rephrasing that cannot change a fact: the tagged protocol. The
//! rephraser gets the reviewed text with each fact (every filled value,
//! every figure with what measures and scopes it, every date, time, code,
//! email, web address and phone number) as a tag it must keep exactly once,
//! plus the channel and the conversation's language; utter writes each fact
//! back itself, as reviewed for text and spoken for voice. An answer that
//! drops, repeats or alters a tag, or states a fact outside the tags, is
//! refused. docs/typed-api.md ("Tagged rephrasing") states the protocol.

mod context;
mod facts;
mod request;
mod spoken;
mod tags;

pub use context::{Channel, Language, RephraseContext};
pub use facts::FactKind;
pub use request::{RephraseRequest, TaggedFact};

/// Rewords a tagged request (an LLM call): the answer keeps every tag.
pub trait TaggedRephraser {
    /// Why rewording failed (the reviewed text is delivered then).
    type Error;
    /// The request's text, reworded with its tags kept.
    fn rephrase(&mut self, request: &RephraseRequest) -> Result<String, Self::Error>;
}

impl<E, F: FnMut(&RephraseRequest) -> Result<String, E>> TaggedRephraser for F {
    type Error = E;
    fn rephrase(&mut self, request: &RephraseRequest) -> Result<String, E> {
        self(request)
    }
}

/// [`TaggedRephraser`] for an asynchronous LLM call.
pub trait AsyncTaggedRephraser {
    /// Why rewording failed (the reviewed text is delivered then).
    type Error;
    /// The request's text, reworded with its tags kept.
    fn rephrase(
        &mut self,
        request: &RephraseRequest,
    ) -> impl Future<Output = Result<String, Self::Error>> + Send;
}

#[cfg(test)]
mod tests;
