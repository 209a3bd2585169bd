//! Diagnostics quality: one mistake gives one finding (no follow-on
//! findings), root cause first, and the fix as a help.

use utter_compiler::{Agent, OpenOptions, codes};
use utter_tests::{checked, project, with_code};

#[test]
fn a_misspelt_condition_key_is_not_also_a_second_default() {
    let c = checked(&[
        ("memory.yml", "x: {type: int}\n"),
        (
            "responses.yml",
            "responses:\n  utter_a:\n    - text: one\n      conditon: session.project.x == 1\n    - text: two\n      condition: session.project.x == 2\n    - text: three\n",
        ),
    ]);
    let codes_found: Vec<&str> = c.findings.iter().map(|f| f.code).collect();
    assert_eq!(
        codes_found,
        [codes::INVALID_VARIANT_KEY],
        "{:?}",
        c.findings
    );
}

#[test]
fn references_into_a_file_that_does_not_parse_are_not_reported() {
    let skill_md = "---\ndescription: d\nutter:\n  - utter_greet:\n      on: activate\n---\n\n:::ordered_block id=main\nsteps:\n  - id: bye\n    action: utter_bye\n  - id: gone\n    action: utter_gone\n:::\n";
    let c = checked(&[
        (
            "skills/s/responses.yml",
            "responses:\n  utter_greet:\n    - text: Hello!\n  utter_bye:\n    - text: Bye!\n     condition: x\n",
        ),
        ("skills/s/skill.md", skill_md),
    ]);
    let found: Vec<(&str, Option<&str>)> = c
        .findings
        .iter()
        .map(|f| (f.code, f.response.as_deref()))
        .collect();
    // The syntax error, and the one reference no file names.
    assert_eq!(
        found,
        [
            (codes::YAML_SYNTAX, None),
            (codes::RESPONSE_MISSING, Some("utter_gone"))
        ],
        "{:?}",
        c.findings
    );
    assert!(c.unusable_responses.contains("utter_bye"));
    let syntax = &with_code(&c, codes::YAML_SYNTAX)[0];
    let help = syntax.help.as_deref().unwrap_or_default();
    assert!(
        help.starts_with("inconsistent indentation: this line starts in column 6"),
        "{help}"
    );
}

#[test]
fn a_malformed_response_is_not_also_missing() {
    let c = checked(&[
        ("skills/s/responses.yml", "responses:\n  utter_bye: Bye!\n"),
        (
            "skills/s/skill.md",
            "---\ndescription: d\n---\n\n:::ordered_block id=main\nsteps:\n  - id: bye\n    action: utter_bye\n:::\n",
        ),
    ]);
    let codes_found: Vec<&str> = c.findings.iter().map(|f| f.code).collect();
    assert_eq!(
        codes_found,
        [codes::INVALID_VARIANT_SHAPE],
        "{:?}",
        c.findings
    );
}

#[test]
fn an_encoding_error_names_the_byte_and_the_fix() {
    let files = project(&[("responses.yml", "")]);
    let mut files = files;
    files.files.insert(
        "responses.yml".into(),
        b"responses:\n  utter_a:\n    - text: caf\xe9\n".to_vec(),
    );
    let c = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
    let f = &with_code(&c, codes::YAML_ENCODING)[0];
    assert!(
        f.message.contains("byte 0xE9 at offset 37"),
        "{}",
        f.message
    );
    assert!(f.message.contains("Latin-1"), "{}", f.message);
    assert!(f.help.as_deref().is_some_and(|h| h.contains("UTF-8")));
    assert_eq!((f.line, f.column), (3, 16));
}

#[test]
fn a_correctly_indented_syntax_error_gets_no_indentation_hint() {
    let c = checked(&[(
        "responses.yml",
        "responses:\n  utter_a:\n    - text: \"unterminated\n",
    )]);
    let f = &with_code(&c, codes::YAML_SYNTAX)[0];
    assert_eq!(f.help, None, "{f:?}");
}

#[test]
fn an_entry_written_outside_schema_is_named_where_it_is_read() {
    let c = checked(&[
        ("skills/a/memory.yml", "reason: {type: text}\n"),
        (
            "skills/a/responses.yml",
            "responses:\n  utter_a:\n    - text: hi\n      condition: session.a.reason == 'x'\n    - text: d\n",
        ),
    ]);
    let warning = &with_code(&c, codes::FILE_UNKNOWN_KEY)[0];
    assert!(
        warning
            .help
            .as_deref()
            .is_some_and(|h| h.contains("schema:"))
    );
    let error = &with_code(&c, codes::UNKNOWN_MEMORY_KEY)[0];
    assert!(
        error
            .message
            .contains("written at the top level of skills/a/memory.yml, where it is ignored"),
        "{}",
        error.message
    );
    assert!(
        error
            .help
            .as_deref()
            .is_some_and(|h| h.starts_with("move it under `schema:`")),
        "{:?}",
        error.help
    );
}

/// A skill memory.yml whose attributes sit one level too far left: one
/// error at the entry (the reference fails to load the skill), the fix as a
/// help, and no follow-on finding for the placeholder that reads it.
#[test]
fn misindented_skill_attributes_are_one_error_with_the_fix() {
    let c = checked(&[
        (
            "skills/card/memory.yml",
            "schema:\n  public:\n    replacement_fee:\n    type: float\n    reason: {type: text}\n",
        ),
        ("skills/card/skill.md", "---\ndescription: d\n---\nBody.\n"),
        (
            "skills/card/responses.yml",
            "responses:\n  utter_fee:\n    - text: \"fee {session.card.replacement_fee} {reason}\"\n",
        ),
    ]);
    let found: Vec<&str> = c.findings.iter().map(|f| f.code).collect();
    assert_eq!(found, [codes::SKILL_FAILED_TO_LOAD], "{:?}", c.findings);
    let f = &c.findings[0];
    assert!(f.is_error());
    assert!(
        f.message.starts_with("entry `replacement_fee` has no declaration: `type: float` below it is one level too far left"),
        "{}",
        f.message
    );
    assert_eq!(
        f.help.as_deref(),
        Some("indent `type: float` by two more spaces, under `replacement_fee:`")
    );
    assert_eq!((f.line, f.column), (3, 5));
}

/// In a skill, any entry declared as something else than a mapping fails to
/// load the skill in the reference; in the project memory.yml it is read
/// as `any` there, so utter warns.
#[test]
fn entry_declarations_that_are_not_mappings() {
    let skill = |memory: &str| {
        checked(&[
            ("skills/s/memory.yml", memory),
            ("skills/s/skill.md", "---\ndescription: d\n---\nBody.\n"),
            (
                "skills/s/responses.yml",
                "responses:\n  utter_a:\n    - text: a\n",
            ),
        ])
    };
    for memory in [
        "schema:\n  public:\n    fee: float\n",
        "schema:\n  public:\n    fee:\n",
        "schema:\n  private:\n    fee: [a, b]\n",
    ] {
        let c = skill(memory);
        let found: Vec<&str> = c.findings.iter().map(|f| f.code).collect();
        assert_eq!(
            found,
            [codes::SKILL_FAILED_TO_LOAD],
            "{memory:?}: {:?}",
            c.findings
        );
        assert!(
            c.findings[0].message.starts_with("entry `fee` "),
            "{}",
            c.findings[0].message
        );
        assert!(c.findings[0].help.is_some());
    }
    let project = |memory: &str| {
        checked(&[
            ("memory.yml", memory),
            (
                "responses.yml",
                "responses:\n  utter_a:\n    - text: \"{session.project.fee}\"\n",
            ),
        ])
    };
    let c = project("fee:\ntype: float\n");
    let found: Vec<(&str, bool)> = c.findings.iter().map(|f| (f.code, f.is_error())).collect();
    assert_eq!(found, [(codes::MEMORY_SHAPE, false)], "{:?}", c.findings);
    // As the reference reads it: `fee` and `type`, both `any`.
    let names: Vec<&str> = c
        .memory
        .iter()
        .filter(|d| d.namespace == "project")
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(names, ["fee", "type"]);
    let c = project("fee: float\n");
    assert_eq!(
        with_code(&c, codes::MEMORY_SHAPE).len(),
        1,
        "{:?}",
        c.findings
    );
    // `fee:` alone is an `any` entry, as written: no finding.
    assert!(project("fee:\n").findings.is_empty());
}

/// A memory.yml that does not parse gives its own finding only: references
/// into its namespace (conditions, both placeholder forms, skill.md) are
/// not reported, and the entries declared before the error are kept.
#[test]
fn a_memory_yml_that_does_not_parse_causes_no_other_finding() {
    let c = checked(&[
        (
            "skills/card/memory.yml",
            "schema:\n  public:\n    fee: {type: float}\n    reason: {type: text}\n   bad: [\n    count: {type: int}\n",
        ),
        (
            "skills/card/skill.md",
            "---\ndescription: d\nutter:\n  - utter_x:\n      when: session.card.count > 1\n---\nBody.\n\nif: session.card.count > 2\nSay it.\n",
        ),
        (
            "skills/card/responses.yml",
            "responses:\n  utter_x:\n    - text: \"fee {session.card.fee} {count} {session.card.count}\"\n      condition: session.card.count > 1 and session.card.fee > 2\n    - text: \"x {reason}\"\n",
        ),
    ]);
    let found: Vec<&str> = c.findings.iter().map(|f| f.code).collect();
    assert_eq!(found, [codes::YAML_SYNTAX], "{:?}", c.findings);
    let kept: Vec<&str> = c
        .memory
        .iter()
        .filter(|d| d.namespace == "card")
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(kept, ["fee", "reason"]);
    // A reference into a namespace that parses is still checked.
    let c = checked(&[
        ("memory.yml", "a: [\n"),
        (
            "skills/s/memory.yml",
            "schema:\n  public:\n    n: {type: int}\n",
        ),
        ("skills/s/skill.md", "---\ndescription: d\n---\nBody.\n"),
        (
            "skills/s/responses.yml",
            "responses:\n  utter_y:\n    - text: \"{session.s.nn}\"\n",
        ),
    ]);
    let found: Vec<&str> = c.findings.iter().map(|f| f.code).collect();
    assert_eq!(
        found,
        [codes::YAML_SYNTAX, codes::UNKNOWN_PLACEHOLDER],
        "{:?}",
        c.findings
    );
}

/// A placeholder nothing can fill is an error by default; `utter.yml`'s
/// `lints:` sets the level of utter's own findings as Cargo's `[lints]`
/// does, every way in alike (they all check through here); codes it
/// cannot set, unknown codes and unknown levels are errors naming what
/// is allowed.
#[test]
fn lint_levels_as_cargo_s() {
    let typo = (
        "responses.yml",
        "responses:\n  utter_a:\n    - text: 'Hello {nmae}'\n  utter_b:\n    - text: b\n      condition: session.project.n > 3 and session.project.n < 2\n    - text: c\n",
    );
    let memory = ("memory.yml", "name: {type: text}\nn: {type: int}\n");
    let severity = |c: &utter_compiler::Checked, code: &str| {
        with_code(c, code)
            .iter()
            .map(|f| f.severity.as_str())
            .collect::<Vec<_>>()
    };
    // By default: the typo is an error (with its did-you-mean), the
    // dead conditioned variant a warning, and no response is lost to either.
    let c = checked(&[typo, memory]);
    assert_eq!(severity(&c, codes::UNKNOWN_PLACEHOLDER), ["error"]);
    assert_eq!(
        with_code(&c, codes::UNKNOWN_PLACEHOLDER)[0]
            .suggestion
            .as_deref(),
        Some("{name}")
    );
    assert_eq!(
        severity(&c, codes::NO_CONDITIONED_VARIANT),
        ["warning"],
        "{:?}",
        c.findings
    );
    // Lowered, raised, allowed.
    let settings = (
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholder: warn\n  utter.analysis.no_conditioned_variant_delivered: deny\n",
    );
    let c = checked(&[typo, memory, settings]);
    assert_eq!(severity(&c, codes::UNKNOWN_PLACEHOLDER), ["warning"]);
    assert_eq!(severity(&c, codes::NO_CONDITIONED_VARIANT), ["error"]);
    let allowed = (
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholder: allow\n",
    );
    let c = checked(&[typo, memory, allowed]);
    assert!(with_code(&c, codes::UNKNOWN_PLACEHOLDER).is_empty());
    assert!(!c.has_errors(), "{:?}", c.findings);
    // What cannot be set, each saying why.
    let wrong = (
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholdr: warn\n  mantle.validation.response.default_required: allow\n  utter.codegen.name_collision: warn\n  utter.analysis.no_conditioned_variant_delivered: loud\n",
    );
    let c = checked(&[typo, memory, wrong]);
    let said: Vec<(usize, &str, Option<&str>)> = c
        .findings
        .iter()
        .filter(|f| f.file == "utter.yml")
        .map(|f| (f.line, f.message.as_str(), f.suggestion.as_deref()))
        .collect();
    assert_eq!(said.len(), 4, "{said:?}");
    assert!(said[0].1.contains("is no finding code"), "{said:?}");
    assert_eq!(said[0].2, Some(codes::UNKNOWN_PLACEHOLDER));
    assert!(
        said[1]
            .1
            .contains("the reference engine's finding and keeps its level")
    );
    assert!(
        said[2]
            .1
            .contains("keeps its level: it guards that the agent compiles")
    );
    assert!(said[3].1.ends_with("`loud`, which is no level"), "{said:?}");
    let help = c
        .findings
        .iter()
        .filter(|f| f.file == "utter.yml")
        .nth(3)
        .unwrap();
    assert_eq!(
        help.help.as_deref(),
        Some("write `allow`, `warn` or `deny`")
    );
    // The settings that failed set nothing: the defaults hold.
    assert_eq!(severity(&c, codes::UNKNOWN_PLACEHOLDER), ["error"]);
}

/// A placeholder the engine fills with its text for an unset value stays
/// a warning: the customer reads that text, not braces.
#[test]
fn a_placeholder_the_engine_fills_stays_a_warning() {
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
    let found = with_code(&c, codes::UNKNOWN_PLACEHOLDER);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity.as_str(), "warning");
}

/// A float placeholder next to a currency is a warning whose help gives
/// the recipe (a text entry the application formats); elsewhere, or for a
/// text entry, nothing is said; `lints:` allows it.
#[test]
fn a_float_next_to_a_currency_is_a_warning() {
    let memory = ("memory.yml", "fee: {type: float}\nlabel: {type: text}\n");
    let found = |texts: &[&str], settings: Option<&str>| -> Vec<usize> {
        let mut responses = String::from("responses:\n");
        for (i, text) in texts.iter().enumerate() {
            responses.push_str(&format!("  utter_{i}:\n    - text: '{text}'\n"));
        }
        let mut files = vec![memory, ("responses.yml", responses.as_str())];
        if let Some(settings) = settings {
            files.push(("utter.yml", settings));
        }
        let c = checked(&files);
        with_code(&c, codes::FLOAT_MONEY)
            .iter()
            .map(|f| {
                assert_eq!(f.severity.as_str(), "warning");
                assert!(f.help.as_deref().unwrap().contains("`text` entry"));
                f.response.as_deref().unwrap()[6..].parse().unwrap()
            })
            .collect()
    };
    let texts = [
        "A fee of ${fee} applies.",
        "The fee is {fee} EUR.",
        "That is {fee} euros.",
        "Costs € {fee}.",
        "USD {fee} in total.",
        "Your score is {fee} points.",
        "A fee of ${label} applies.",
        "{fee}% of $10",
    ];
    assert_eq!(found(&texts, None), [0, 1, 2, 3, 4]);
    let allow = "lints:\n  utter.validation.placeholder.float_money: allow\n";
    assert!(found(&texts, Some(allow)).is_empty());
}

/// Each of `words` written as the text of one variant in a YAML style, and
/// where (line, column, 1-based) each placeholder `{nmae}` stands in the
/// file.
fn scalar_in_style(words: &[&str], style: usize) -> (String, Vec<(usize, usize)>) {
    let head = "responses:\n  utter_a:\n    - text: ";
    let mut body = String::new();
    match style {
        // plain, one line (not starting with `{`: a flow mapping)
        0 => body.push_str(&format!("Say {}", words.join(" "))),
        // single-quoted: `'` doubled
        1 => body.push_str(&format!("'{}'", words.join(" ").replace('\'', "''"))),
        // double-quoted, a `\n` escape between words
        2 => body.push_str(&format!("\"{}\"", words.join(" \\n "))),
        // literal block, one word a line
        3 => body.push_str(&format!("|\n        {}", words.join("\n        "))),
        // folded block
        _ => body.push_str(&format!(">-\n        {}", words.join("\n        "))),
    }
    let file = format!("{head}{body}\n");
    let mut at = Vec::new();
    for (offset, _) in file.match_indices("{nmae}") {
        let line = file[..offset].matches('\n').count() + 1;
        // Columns count characters.
        let line_start = file[..offset].rfind('\n').map_or(0, |n| n + 1);
        let column = file[line_start..offset].chars().count() + 1;
        at.push((line, column));
    }
    (file, at)
}

proptest::proptest! {
    /// A finding about a placeholder points at the placeholder itself, in
    /// every scalar style: plain, quoted with escapes, literal and folded
    /// blocks (it pointed at the block's first line).
    #[test]
    fn a_placeholder_finding_points_at_the_placeholder_in_every_style(
        words in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("{nmae}"),
                proptest::strategy::Just("Hello"),
                proptest::strategy::Just("it's"),
                proptest::strategy::Just("fee"),
                proptest::strategy::Just("é"),
            ],
            1..8,
        ),
        style in 0usize..5,
    ) {
        let (file, expected) = scalar_in_style(&words, style);
        let c = checked(&[
            ("memory.yml", "name: {type: text}\n"),
            ("responses.yml", file.as_str()),
        ]);
        let mut found: Vec<(usize, usize)> = with_code(&c, codes::UNKNOWN_PLACEHOLDER)
            .iter()
            .map(|f| (f.line, f.column))
            .collect();
        found.sort_unstable();
        proptest::prop_assert_eq!(found, expected, "{}", file);
    }
}
