//! References from skill.md: every response name used must exist, with the
//! reference engine's codes, pointing at the name in skill.md.

use utter_compiler::codes;
use utter_tests::{checked, registry, with_code};

const MEMORY: &str = "schema:\n  public:\n    reason: {}\n  private:\n    confirmed: {}\n";
const OTHER_MEMORY: &str = "schema:\n  private:\n    secret: {}\n";
const RESPONSES: &str = "responses:
  utter_notice:
    - This call is recorded.
  utter_warning:
    - Card locked.
  utter_done:
    - Done.
  utter_failed:
    - Failed.
  utter_confirm:
    - Shall I?
  utter_cancelled:
    - Cancelled.
  utter_fee:
    - Free.
  utter_ask:
    - Which one?
";

const SKILL_MD: &str = r#"---
name: Card
description: Replace a card
utter:
  - utter_notice:
      on: activate
  - utter_warning:
      when: 'session.s.reason == "stolen"'
tool_constraints:
  - lookup
  - order:
      requires: session.s.confirmed
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm
        utter_on_user_denial: utter_cancelled
      on_success: utter_done
      on_failure: utter_failed
---

Help with the card. The reason so far is @memory.s.reason.

if: session.s.reason == 'lost'
Ask where it was lost.

:::ordered_block id=main
steps:
  - id: fee
    action: utter_fee
  - id: ask
    collect: card
    utterance: utter_ask
  - id: listen
    action: action_listen
  - id: free_text
    collect: note
    utterance: Tell me more
:::
"#;

fn project_with(skill_md: &str) -> utter_compiler::Checked {
    checked(&[
        ("skills/s/memory.yml", MEMORY),
        ("skills/s/responses.yml", RESPONSES),
        ("skills/s/skill.md", skill_md),
        ("skills/t/memory.yml", OTHER_MEMORY),
    ])
}

/// `(line, column)` of every finding with `code`, all in skills/s/skill.md.
fn at(checked: &utter_compiler::Checked, code: &str) -> Vec<(usize, usize)> {
    with_code(checked, code)
        .iter()
        .map(|f| {
            assert_eq!(f.file, "skills/s/skill.md", "{f:?}");
            (f.line, f.column)
        })
        .collect()
}

#[test]
fn a_complete_skill_has_no_findings() {
    let checked = project_with(SKILL_MD);
    assert!(checked.findings.is_empty(), "{:#?}", checked.findings);
}

#[test]
fn utter_triggers_must_name_responses() {
    let checked = project_with(&SKILL_MD.replace("  - utter_warning:", "  - utter_warnin:"));
    assert_eq!(at(&checked, codes::TRIGGER_UNKNOWN_RESPONSE), [(7, 5)]);
    let f = with_code(&checked, codes::TRIGGER_UNKNOWN_RESPONSE)[0];
    assert_eq!(f.response.as_deref(), Some("utter_warnin"));
    assert!(
        f.suggestion.as_deref() == Some("utter_warning"),
        "{}",
        f.message
    );
}

#[test]
fn tool_outcomes_must_name_responses() {
    let checked =
        project_with(&SKILL_MD.replace("on_failure: utter_failed", "on_failure: utter_fail"));
    assert_eq!(at(&checked, codes::TOOL_UNKNOWN_OUTCOME), [(18, 19)]);
    let checked =
        project_with(&SKILL_MD.replace("on_success: utter_done", "on_success: utter_don"));
    assert_eq!(at(&checked, codes::TOOL_UNKNOWN_OUTCOME), [(17, 19)]);
}

#[test]
fn confirmations_must_name_responses() {
    let checked = project_with(
        &SKILL_MD
            .replace(
                "utter_for_confirmation: utter_confirm",
                "utter_for_confirmation: utter_confirmation",
            )
            .replace(
                "utter_on_user_denial: utter_cancelled",
                "utter_on_user_denial: utter_canceled",
            ),
    );
    assert_eq!(
        at(&checked, codes::TOOL_UNKNOWN_CONFIRMATION),
        [(15, 33), (16, 31)]
    );
}

#[test]
fn step_actions_and_utterances_must_name_responses() {
    let checked = project_with(
        &SKILL_MD
            .replace("action: utter_fee", "action: utter_fees")
            .replace("utterance: utter_ask", "utterance: utter_asks"),
    );
    assert_eq!(at(&checked, codes::RESPONSE_MISSING), [(29, 13), (32, 16)]);
    let checked = project_with(&SKILL_MD.replace("action: action_listen", "action: transfer"));
    assert_eq!(at(&checked, codes::ACTION_UNKNOWN), [(34, 13)]);
    // `utter:` is an alias of `action:`.
    let checked = project_with(&SKILL_MD.replace("action: utter_fee", "utter: utter_nothing"));
    assert_eq!(at(&checked, codes::RESPONSE_MISSING), [(29, 12)]);
}

#[test]
fn when_conditions_use_the_condition_rules() {
    let checked = project_with(&SKILL_MD.replace(
        r#"'session.s.reason == "stolen"'"#,
        r#"'session.s.reason is "stolen"'"#,
    ));
    assert_eq!(at(&checked, codes::SKILL_INVALID_UTTER), [(8, 31)]);
    let checked =
        project_with(&SKILL_MD.replace(r#"'session.s.reason == "stolen"'"#, "'session.t.secret'"));
    assert_eq!(at(&checked, codes::SKILL_INVALID_UTTER), [(8, 14)]);
}

#[test]
fn prose_must_use_memory_tokens_and_valid_if_conditions() {
    let checked = project_with(&SKILL_MD.replace("@memory.s.reason", "session.s.reason"));
    assert_eq!(at(&checked, codes::PROSE_SESSION_REFERENCE), [(21, 42)]);
    // The fix, `@memory.s.reason`, is the help.
    assert!(
        with_code(&checked, codes::PROSE_SESSION_REFERENCE)[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("@memory.s.reason"))
    );
    let checked = project_with(&SKILL_MD.replace(
        "if: session.s.reason == 'lost'",
        "if: session.s.reason = 'lost'",
    ));
    assert_eq!(at(&checked, codes::PROSE_INVALID_IF), [(23, 22)]);
    let checked =
        project_with(&SKILL_MD.replace("if: session.s.reason == 'lost'", "if: session.t.secret"));
    assert_eq!(at(&checked, codes::PROSE_UNKNOWN_MEMORY_KEY), [(23, 5)]);
}

#[test]
fn frontmatter_must_be_delimited() {
    let checked = project_with(&SKILL_MD.replacen("---\n", "", 1));
    assert_eq!(at(&checked, codes::SKILL_INVALID_FRONTMATTER), [(1, 1)]);
    let checked = project_with("---\nname: x\n");
    assert_eq!(at(&checked, codes::SKILL_INVALID_FRONTMATTER), [(1, 1)]);
}

#[test]
fn referenced_responses_with_empty_text_are_reported() {
    let checked = checked(&[
        ("skills/s/memory.yml", MEMORY),
        (
            "skills/s/responses.yml",
            &RESPONSES.replace("- Done.", "- text: '  '"),
        ),
        ("skills/s/skill.md", SKILL_MD),
    ]);
    let found = with_code(&checked, codes::EMPTY_BODY);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].file.as_str(), found[0].response.as_deref()),
        ("skills/s/responses.yml", Some("utter_done"))
    );
}

#[test]
fn the_registry_exposes_what_each_skill_references() {
    let reg = registry(&[
        ("skills/s/memory.yml", MEMORY),
        ("skills/s/responses.yml", RESPONSES),
        ("skills/s/skill.md", SKILL_MD),
        ("skills/t/memory.yml", OTHER_MEMORY),
    ]);
    let name = |utter_compiler::ResponseIndex(i)| reg.responses[i].name.as_str();
    let refs = reg.skill_refs("s").expect("skill s");
    assert_eq!(
        refs.on_activate
            .iter()
            .map(|&i| name(i))
            .collect::<Vec<_>>(),
        ["utter_notice"]
    );
    assert_eq!(name(refs.when[0].0), "utter_warning");
    let tool = &refs.tools[0];
    assert_eq!(
        (
            tool.tool.as_str(),
            tool.on_success.map(name),
            tool.on_failure.map(name),
            tool.utter_for_confirmation.map(name),
            tool.utter_on_user_denial.map(name)
        ),
        (
            "order",
            Some("utter_done"),
            Some("utter_failed"),
            Some("utter_confirm"),
            Some("utter_cancelled")
        )
    );
    let steps: Vec<(&str, &str)> = refs
        .steps
        .iter()
        .map(|s| (s.step.as_str(), name(s.response)))
        .collect();
    assert_eq!(steps, [("fee", "utter_fee"), ("ask", "utter_ask")]);
    let memory = utter_tests::memory(&[("s", "reason", "stolen".into())]);
    let ctx = utter::Context::for_skill_id(&memory, "s", &["s"]).unwrap();
    assert!(reg.holds(&refs.when[0].1, &ctx));
    assert!(
        reg.skill_refs("t")
            .is_some_and(|t| t.on_activate.is_empty())
    );
}
