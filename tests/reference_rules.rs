//! Project rules of the reference engine (rasa-pro 3.21.0) that go beyond
//! one response: which skill folders load, who sees a memory `description`,
//! and the packaged system responses. Expected findings are the ones
//! `rasa.mantle.validation.collect_project_findings` reported on the same
//! fixture (`tests/fixtures/reference-rules`; `conformance/run.sh` re-runs
//! it), less its configuration findings (`agent.yml`, `integrations.yml`).

use std::path::Path;

use utter_compiler::{Agent, OpenOptions, Severity, codes};
use utter_tests::{checked, deliver, memory, registry, with_code};

fn fixture() -> utter_compiler::Checked {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/reference-rules");
    Agent::open(&dir, OpenOptions::default())
        .expect("the fixture reads")
        .into_checked()
}

#[test]
fn project_findings_match_the_reference() {
    let c = fixture();
    let mut got: Vec<(&str, &str, usize, Severity)> = c
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Note)
        .map(|f| (f.code, f.file.as_str(), f.line, f.severity))
        .collect();
    got.sort();
    // One line per finding the reference reported, with the entry it named.
    let mut expected = vec![
        // 'skills/nomd' has no skill.md.
        (
            codes::SKILL_FAILED_TO_LOAD,
            "skills/nomd",
            1,
            Severity::Error,
        ),
        // 'skills/req': skill-level requires is no longer supported.
        (
            codes::SKILL_FAILED_TO_LOAD,
            "skills/req/skill.md",
            3,
            Severity::Error,
        ),
        // project field 'described'.
        (
            codes::DESCRIPTION_NOT_EXPOSED,
            "memory.yml",
            3,
            Severity::Error,
        ),
        // project field 'settable'.
        (
            codes::PROJECT_LLM_SETTABLE,
            "memory.yml",
            6,
            Severity::Error,
        ),
        // 'not_exposed' in skill 'desc'.
        (
            codes::DESCRIPTION_NOT_EXPOSED,
            "skills/desc/memory.yml",
            5,
            Severity::Error,
        ),
        // 'required' (llm_settable, no description).
        (
            codes::DESCRIPTION_REQUIRED,
            "skills/desc/memory.yml",
            6,
            Severity::Error,
        ),
        // 'collected_missing' (collected, no description anywhere).
        (
            codes::DESCRIPTION_REQUIRED,
            "skills/desc/memory.yml",
            11,
            Severity::Error,
        ),
        // 'both': memory and collect step describe it.
        (
            codes::COLLECT_DESCRIPTION_OVERRIDES,
            "skills/desc/memory.yml",
            16,
            Severity::Warning,
        ),
        // 'blanked': the last collect step's blank description wins.
        (
            codes::DESCRIPTION_REQUIRED,
            "skills/desc/memory.yml",
            17,
            Severity::Error,
        ),
        // private 'seeded' declares seed: true.
        (
            codes::SKILL_SEED,
            "skills/desc/memory.yml",
            22,
            Severity::Error,
        ),
    ];
    expected.sort();
    assert_eq!(got, expected);
    // `collected_ok` is described by its collect step only: no finding, and
    // `utter_hangup_goodbye` (a packaged system response) is no `response.missing`.
    assert!(with_code(&c, codes::RESPONSE_MISSING).is_empty());
}

#[test]
fn descriptions_become_docs_but_comments_do_too() {
    // The reference refuses `description` on most entries; a comment right
    // above an entry documents it instead (in the generated code's rustdoc).
    let c = checked(&[(
        "memory.yml",
        "# Intro of the file.\n\n# Whether the caller is verified.\n# Set by the CRM.\nverified: {type: bool}\nplain: {type: text}\n",
    )]);
    let comment = |name: &str| {
        c.memory
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| d.comment.clone())
    };
    assert_eq!(
        comment("verified").as_deref(),
        Some("Whether the caller is verified. Set by the CRM.")
    );
    assert_eq!(comment("plain"), None);
    assert!(c.findings.is_empty(), "{:?}", c.findings);
}

#[test]
fn packaged_system_responses_are_delivered_and_overridable() {
    let plain = registry(&[("responses.yml", "responses:\n  utter_hi:\n    - text: hi\n")]);
    let empty = memory(&[]);
    for name in [
        "utter_set_memory_button_skipped",
        "utter_incoming_message_rejected",
        "utter_outgoing_text_rejected",
        "utter_precondition_unmet",
        "utter_hangup_goodbye",
        "utter_model_request_hook_error",
        "utter_tool_call_hook_error",
        "utter_model_call_error",
    ] {
        let (text, variant, _, fallback) = deliver(&plain, name, None, &empty);
        assert!(!fallback && variant == Some(0), "{name} is packaged");
        assert_ne!(text, name);
    }
    let overridden = registry(&[(
        "responses.yml",
        "responses:\n  utter_hangup_goodbye:\n    - text: Bye from us.\n",
    )]);
    assert_eq!(
        deliver(&overridden, "utter_hangup_goodbye", None, &empty).0,
        "Bye from us."
    );
}

#[test]
fn an_unreadable_interrupted_task_name_is_said_to_deliver_its_unset_text() {
    let c = checked(&[
        (
            "skills/default_continue_interrupted/memory.yml",
            "schema:\n  private:\n    interrupted_task_name: {type: text}\n",
        ),
        (
            "skills/a/responses.yml",
            "responses:\n  utter_x:\n    - text: 'Back to {session.default_continue_interrupted.interrupted_task_name}.'\n",
        ),
    ]);
    let warnings = with_code(&c, codes::UNKNOWN_PLACEHOLDER);
    assert_eq!(warnings.len(), 1, "{:?}", c.findings);
    assert!(
        warnings[0]
            .message
            .ends_with("so it is delivered as `your previous request`"),
        "{}",
        warnings[0].message
    );
}
