//! Whole random agents, compiled four ways each (see build.rs); the test
//! in `whole_agents.rs` compares them with the interpreter.
//! Generated code must meet clippy's pedantic lints too (CI's `cargo
//! clippy -D warnings` denies them here), through the macro and build.rs.
#![deny(warnings)]
#![deny(clippy::pedantic)]
#![allow(missing_docs)]

use utter::{Context, SkillResponses};

/// One delivery as compared: text, variant, rephrase, fallback, wording id,
/// and the fact guard a rephrase of it must pass.
pub type Delivered = (
    String,
    Option<usize>,
    bool,
    bool,
    Option<utter::WordingId>,
    utter::FactGuard,
);

/// What one compiled module delivered for one memory and skill view.
#[derive(Debug, Default, PartialEq)]
pub struct Run {
    /// Per assignment, whether the typed memory accepted it.
    pub accepted: Vec<bool>,
    /// Per name: text, variant, rephrase flag, fallback flag.
    pub deliveries: Vec<Delivered>,
    /// What the active skill's skill.md references, one line each.
    pub references: Vec<String>,
    /// `Response::ALL` and `Skill::ALL`, by name.
    pub responses: Vec<String>,
    pub skills: Vec<String>,
}

/// Writes to make: `(namespace, entry, value)`.
pub type Assignments = [(String, String, utter::Value)];

/// One compiled module of an accepted agent.
pub struct Compiled {
    pub seed: u64,
    pub module: &'static str,
    pub run: fn(&Assignments, Option<&str>, &[String]) -> Run,
}

/// The references of a skill, one line each, `when:` triggers evaluated
/// in `ctx`: what the interpreter's side lists the same way.
pub fn references<R: Copy>(
    refs: &SkillResponses<R>,
    name: impl Fn(R) -> &'static str,
    ctx: &Context<'_>,
) -> Vec<String> {
    let option = |r: Option<R>| r.map_or("-", &name);
    let mut lines = Vec::new();
    for &r in refs.on_activate {
        lines.push(format!("activate {}", name(r)));
    }
    for trigger in refs.when {
        lines.push(format!(
            "when {} {:?}",
            name(trigger.response),
            (trigger.condition)(ctx).unwrap_or(false)
        ));
    }
    for tool in refs.tools {
        lines.push(format!(
            "tool {} {} {} {} {}",
            tool.tool,
            option(tool.on_success),
            option(tool.on_failure),
            option(tool.utter_for_confirmation),
            option(tool.utter_on_user_denial)
        ));
    }
    for step in refs.steps {
        lines.push(format!(
            "step {} {} {:?} {}",
            step.block,
            step.step,
            step.kind,
            name(step.response)
        ));
    }
    lines
}

include!(concat!(env!("OUT_DIR"), "/agents.rs"));
