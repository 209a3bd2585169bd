//! Types declared in memory.yml: findings for conditions their types decide,
//! for malformed declarations, and for placeholders.

use utter_compiler::{Checked, Finding, Severity, codes};
use utter_tests::{checked, with_code};

const MEMORY: &str = "\
schema:
  public:
    size:
      type: categorical
      enum_values: [small, large]
    count: {type: int}
    fee: {type: float}
    flag: {type: bool}
    name: {type: text}
    labels: {type: list}
    extra: {type: any}
";

/// Checks one response with one conditioned variant.
fn with_condition(condition: &str) -> Checked {
    let responses = format!(
        "responses:\n  utter_x:\n    - text: hit\n      condition: '{condition}'\n    - text: miss\n"
    );
    checked(&[
        ("skills/s/memory.yml", MEMORY),
        ("skills/s/responses.yml", &responses),
    ])
}

fn type_findings(checked: &Checked) -> Vec<&Finding> {
    checked
        .findings
        .iter()
        .filter(|f| f.code.starts_with("utter.validation.condition."))
        .collect()
}

#[test]
fn a_categorical_compared_with_a_value_outside_enum_values_is_an_error() {
    let c = with_condition("session.s.size == \"lage\"");
    let found = with_code(&c, codes::UNKNOWN_ENUM_VALUE);
    assert_eq!(found.len(), 1, "{:?}", c.findings);
    let f = found[0];
    assert_eq!(f.severity, Severity::Error);
    assert_eq!((f.line, f.column), (4, 37), "points at the literal");
    assert_eq!(f.help.as_deref(), Some("did you mean `large`?"));
    assert_eq!(
        f.suggestion.as_deref(),
        Some("\"large\""),
        "replaces the literal, quotes kept"
    );
    assert!(f.message.contains("never holds"), "{}", f.message);
    assert_eq!(f.response.as_deref(), Some("utter_x"));
    assert_eq!(f.variant, Some(0));
    let ne = with_condition("session.s.size != \"huge\"");
    let found = with_code(&ne, codes::UNKNOWN_ENUM_VALUE);
    assert!(found[0].message.contains("always holds"), "{found:?}");
}

#[test]
fn an_ordering_between_incompatible_types_is_an_error() {
    let c = with_condition("session.s.count > \"3\"");
    let found = with_code(&c, codes::TYPE_MISMATCH);
    assert_eq!(found.len(), 1, "{:?}", c.findings);
    assert_eq!(found[0].severity, Severity::Error);
    // At the literal, with the fix as help and as a replacement.
    assert_eq!((found[0].line, found[0].column), (4, 37));
    assert_eq!(
        found[0].help.as_deref(),
        Some("write the number without quotes: `3`")
    );
    assert_eq!(found[0].suggestion.as_deref(), Some("3"));
    for condition in [
        "session.s.name < 5",
        "session.s.flag >= \"x\"",
        "session.s.labels < 1",
        "session.s.extra < None",
        "3 <= session.s.size",
        "session.s.count < session.s.name",
    ] {
        let c = with_condition(condition);
        assert_eq!(
            with_code(&c, codes::TYPE_MISMATCH).len(),
            1,
            "{condition}: {:?}",
            c.findings
        );
    }
}

#[test]
fn an_equality_the_types_decide_is_an_error() {
    for (condition, verdict) in [
        ("session.s.count == \"3\"", "never holds"),
        ("session.s.count != \"3\"", "always holds"),
        ("session.s.name == 3", "never holds"),
        ("session.s.flag == 2", "never holds"),
        ("session.s.labels == \"a\"", "never holds"),
    ] {
        let c = with_condition(condition);
        let found = with_code(&c, codes::NEVER_EQUAL);
        assert_eq!(found.len(), 1, "{condition}: {:?}", c.findings);
        assert!(found[0].message.contains(verdict), "{}", found[0].message);
        assert!(found[0].is_error());
    }
}

#[test]
fn python_semantics_stay_the_reference() {
    // `True == 1`, `1 == 1.0`, `None` possible everywhere, `any` takes all.
    for condition in [
        "session.s.flag == 1",
        "session.s.flag == True",
        "session.s.count == 3.0",
        "session.s.fee > 2",
        "session.s.count < 2.5",
        "session.s.size == \"small\"",
        "session.s.size < \"m\"",
        "session.s.name == None",
        "session.s.count != None",
        "session.s.extra == \"x\"",
        "session.s.extra < 3",
        "session.s.labels == session.s.extra",
        "session.s.count < session.s.fee",
        "not session.s.flag",
        "session.s.flag and session.s.count > 1 or session.s.name == \"x\"",
    ] {
        let c = with_condition(condition);
        assert!(
            type_findings(&c).is_empty(),
            "{condition}: {:?}",
            c.findings
        );
        assert!(!c.has_errors(), "{condition}: {:?}", c.findings);
    }
}

#[test]
fn a_condition_that_can_never_be_true_is_a_warning() {
    let c = with_condition("\"a\" == \"b\"");
    let found = with_code(&c, codes::NEVER_TRUE);
    assert_eq!(found.len(), 1, "{:?}", c.findings);
    assert_eq!(found[0].severity, Severity::Warning);
    let c = with_condition("session.s.flag and False");
    assert_eq!(with_code(&c, codes::NEVER_TRUE).len(), 1);
    // One root cause, one finding: no `never_true` after a comparison error.
    let c = with_condition("session.s.count == \"3\"");
    assert!(
        with_code(&c, codes::NEVER_TRUE).is_empty(),
        "{:?}",
        c.findings
    );
}

#[test]
fn an_unknown_memory_key_is_not_followed_by_type_findings() {
    let c = with_condition("session.s.cont > \"3\"");
    assert_eq!(with_code(&c, codes::UNKNOWN_MEMORY_KEY).len(), 1);
    assert!(type_findings(&c).is_empty(), "{:?}", c.findings);
}

#[test]
fn memory_types_are_checked_with_did_you_mean() {
    let c = checked(&[(
        "skills/s/memory.yml",
        "schema:\n  public:\n    a: {type: integer}\n    b: {type: strng}\n    c: {type: str}\n    d: {type: [x]}\n",
    )]);
    let found = with_code(&c, codes::MEMORY_UNKNOWN_TYPE);
    assert_eq!(found.len(), 3, "{:?}", c.findings);
    assert_eq!(found[0].suggestion.as_deref(), Some("int"));
    assert_eq!((found[0].line, found[0].column), (3, 15));
    assert_eq!(found[1].suggestion.as_deref(), Some("text"));
    assert!(
        found[2].message.contains("must be a type name"),
        "{}",
        found[2].message
    );
    assert!(found.iter().all(|f| f.is_error()));
    // `str` is the reference's own spelling of `text`.
    let c_decl = c.memory.iter().find(|d| d.name == "c").unwrap();
    assert_eq!(c_decl.ty, utter::EntryType::Text);
}

#[test]
fn malformed_enum_values_are_findings() {
    let c = checked(&[(
        "skills/s/memory.yml",
        "schema:\n  public:\n    a: {type: categorical, enum_values: small}\n    b: {type: categorical, enum_values: [x, x, 3]}\n    c: {type: categorical}\n    d: {type: int, enum_values: [x]}\n",
    )]);
    let found = with_code(&c, codes::MEMORY_INVALID_ENUM_VALUES);
    let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(found.len(), 5, "{messages:?}");
    assert!(messages[0].contains("must be a list of strings"));
    assert!(messages[1].contains("listed twice"));
    assert!(messages[2].contains("quote it"));
    assert!(messages[3].contains("lists no `enum_values`"));
    assert!(messages[4].contains("is ignored"));
    let severities: Vec<Severity> = found.iter().map(|f| f.severity).collect();
    assert_eq!(
        severities,
        [
            Severity::Error,
            Severity::Error,
            Severity::Error,
            Severity::Warning,
            Severity::Warning
        ]
    );
}

#[test]
fn placeholders_of_lists_are_noted_and_unknown_ones_get_a_hint() {
    let c = checked(&[
        ("skills/s/memory.yml", MEMORY),
        (
            "skills/s/responses.yml",
            "responses:\n  utter_x:\n    - text: \"{labels} / {session.s.labels} / {nme}\"\n",
        ),
    ]);
    let notes = with_code(&c, codes::PLACEHOLDER_REPR);
    assert_eq!(notes.len(), 2, "{:?}", c.findings);
    assert!(notes.iter().all(|n| n.severity == Severity::Note));
    let unknown = with_code(&c, codes::UNKNOWN_PLACEHOLDER);
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].suggestion.as_deref(), Some("{name}"));
    // The typo is the one error.
    assert_eq!(c.errors().count(), 1, "{:?}", c.findings);
}

#[test]
fn generated_names_that_meet_are_findings() {
    let c = checked(&[
        (
            "skills/a/memory.yml",
            "schema:\n  public:\n    reason: {type: categorical, enum_values: [x-y, x_y]}\n",
        ),
        (
            "skills/b/memory.yml",
            "schema:\n  public:\n    reason: {type: categorical, enum_values: [p]}\n    view: {type: categorical, enum_values: [q]}\n",
        ),
    ]);
    let found = with_code(&c, codes::RUST_NAME_COLLISION);
    assert_eq!(found.len(), 1, "{:?}", c.findings);
    assert!(found[0].message.contains("`XY`"), "{}", found[0].message);
}

#[test]
fn literals_of_the_wrong_type_have_the_fix_as_help_and_replacement() {
    // A quoted boolean for a bool entry: written without quotes.
    let c = with_condition("session.s.flag == \"true\"");
    let found = with_code(&c, codes::NEVER_EQUAL);
    assert_eq!(found.len(), 1, "{:?}", c.findings);
    assert_eq!(
        found[0].help.as_deref(),
        Some("write the boolean without quotes: `True`")
    );
    assert_eq!(found[0].suggestion.as_deref(), Some("True"));
    // A number for a text entry: quote it (no replacement: the quotes
    // depend on how the YAML scalar is written).
    let c = with_condition("session.s.name == 5");
    let found = with_code(&c, codes::NEVER_EQUAL);
    assert_eq!(
        found[0].help.as_deref(),
        Some("quote the value to compare text: `'5'`")
    );
    assert_eq!(found[0].suggestion, None);
    // A number for a categorical entry: its values, quoted.
    let c = with_condition("session.s.size == 2");
    let found = with_code(&c, codes::NEVER_EQUAL);
    assert_eq!(found.len(), 1, "{:?}", c.findings);
    let help = found[0].help.as_deref().unwrap();
    assert!(
        help.starts_with("compare with one of its values, quoted: `'"),
        "{help}"
    );
}
