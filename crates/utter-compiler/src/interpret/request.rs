//! One response delivered for a memory document: what `utter render`,
//! `utter deliver-batch` and the playground each ask of an agent, answered
//! one way (the memory read, the skill's view made, the response delivered
//! and, on request, explained).

use utter::json::{JsonError, NotStored, RefusedValues};
use utter::{Context, Delivery, Explanation, SlotMemory, UnknownSkill};

use super::Interpreter;

/// A response to deliver, in a skill's view, for a memory document.
#[derive(Clone, Copy, Debug)]
pub struct Request<'q> {
    /// The response's name.
    pub response: &'q str,
    /// The skill whose view of memory the conditions and placeholders
    /// read; `None`: the project's.
    pub skill: Option<&'q str>,
    /// The memory document, `{"<namespace>": {"<entry>": value}}`; blank:
    /// nothing is set.
    pub memory: &'q str,
    /// What a value its entry's type does not take does to the request.
    pub refused_values: RefusedValues,
    /// Whether to explain the delivery too.
    pub explain: bool,
}

/// What a [`Request`] delivered.
#[derive(Debug)]
pub struct Answer<'a> {
    /// The delivery.
    pub delivery: Delivery<'a>,
    /// Why that variant was delivered (when asked).
    pub explanation: Option<Explanation<'a>>,
    /// What the document set that memory did not keep: each undeclared
    /// entry is said with [`crate::Registry::undeclared_entry`].
    pub not_stored: NotStored,
}

/// Why a [`Request`] delivered nothing.
#[derive(Debug)]
pub enum RequestError {
    /// The memory document is not one, or (with [`RefusedValues::Stop`])
    /// it sets a value its entry does not take: at that place.
    Memory(JsonError),
    /// The agent has no skill of that id.
    Skill(UnknownSkill),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Memory(error) => error.fmt(f),
            RequestError::Skill(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for RequestError {}

impl Interpreter<'_> {
    /// Answers `request`: its memory read into the agent's declared
    /// entries, its response delivered in the skill's view.
    ///
    /// # Errors
    /// A memory document that cannot be read (see [`RequestError`]), an
    /// unknown skill.
    pub fn answer<'a>(&'a self, request: &Request<'a>) -> Result<Answer<'a>, RequestError> {
        let registry = self.registry();
        let mut memory = SlotMemory::new(&registry.entries);
        let not_stored = if request.memory.trim().is_empty() {
            NotStored::default()
        } else {
            memory
                .read_document(request.memory, request.refused_values)
                .map_err(RequestError::Memory)?
        };
        let ctx = match request.skill {
            Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
                .map_err(RequestError::Skill)?,
            None => Context::new(&memory),
        };
        Ok(Answer {
            delivery: self.deliver(request.response, &ctx),
            explanation: request
                .explain
                .then(|| registry.explain(request.response, &ctx)),
            not_stored,
        })
    }
}

#[cfg(test)]
mod tests;
