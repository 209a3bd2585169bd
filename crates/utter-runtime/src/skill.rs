//! What a skill's `skill.md` delivers, as typed responses: generated code
//! fills these tables so an agent delivers `on: activate`, `on_success` and
//! step responses without looking names up.

use crate::memory::Context;
use crate::value::EvalError;

/// The responses one skill references. `R` is the generated `Response` enum.
#[derive(Debug)]
pub struct SkillResponses<R: 'static> {
    /// The skill id (its folder name).
    pub skill: &'static str,
    /// `utter:` triggers with `on: activate`, in file order.
    pub on_activate: &'static [R],
    /// `utter:` triggers with `when:`: deliver when the condition becomes true
    /// (a rising edge: the agent remembers the previous value).
    pub when: &'static [WhenTrigger<R>],
    /// Tool constraints that name responses.
    pub tools: &'static [ToolResponses<R>],
    /// Ordered-block steps that deliver a response.
    pub steps: &'static [StepResponse<R>],
}

impl<R> SkillResponses<R> {
    /// The responses of tool `name`, if its constraint names any.
    pub fn tool(&self, name: &str) -> Option<&ToolResponses<R>> {
        self.tools.iter().find(|t| t.tool == name)
    }

    /// The response of step `step` in ordered block `block`, if it has one.
    pub fn step(&self, block: &str, step: &str) -> Option<&StepResponse<R>> {
        self.steps
            .iter()
            .find(|s| s.block == block && s.step == step)
    }
}

/// An `utter:` trigger with a `when:` condition.
pub struct WhenTrigger<R> {
    /// The response.
    pub response: R,
    /// The compiled condition, evaluated in the skill's view.
    pub condition: fn(&Context<'_>) -> Result<bool, EvalError>,
}

impl<R> WhenTrigger<R> {
    /// Whether the condition holds now (an evaluation error counts as false).
    pub fn holds(&self, ctx: &Context<'_>) -> bool {
        matches!((self.condition)(ctx), Ok(true))
    }
}

impl<R: core::fmt::Debug> core::fmt::Debug for WhenTrigger<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WhenTrigger")
            .field("response", &self.response)
            .finish_non_exhaustive()
    }
}

/// The responses a tool constraint names.
#[derive(Debug)]
pub struct ToolResponses<R> {
    /// The tool's name.
    pub tool: &'static str,
    /// `on_success:`.
    pub on_success: Option<R>,
    /// `on_failure:`.
    pub on_failure: Option<R>,
    /// `utter_for_confirmation:`.
    pub utter_for_confirmation: Option<R>,
    /// `utter_on_user_denial:`.
    pub utter_on_user_denial: Option<R>,
}

/// How a step uses its response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// `action:` (or its alias `utter:`): deliver, then advance.
    Action,
    /// `utterance:` of a `collect:` step: the question asked for the value.
    Utterance,
}

/// An ordered-block step that delivers a response.
#[derive(Debug)]
pub struct StepResponse<R> {
    /// The ordered block's `id`.
    pub block: &'static str,
    /// The step's `id`.
    pub step: &'static str,
    /// `action:` or `utter:`.
    pub kind: StepKind,
    /// The response.
    pub response: R,
}
