//! Conformance with the Mantle responses.yml contract (the seed documents and
//! the semantics reference): one test per rule, in the order of the
//! reference (it is that list of rules).

use utter::Value;
use utter_compiler::{Severity, codes};
use utter_tests::{checked, deliver, memory, registry, with_code};

const CARD_MEMORY: &str = "\
schema:
  public:
    replacement_reason: {type: categorical}
    order_shipping_summary: {type: text}
  private:
    fee: {type: float}
";

const SEED_RESPONSES: &str = r#"responses:
  utter_ask_shipping:
    - text: >-
        How would you like the new card shipped: rush delivery in 1 to 2
        business days, or standard in 5 to 7?

  utter_card_replacement_fee:
    - text: Standard replacement is free.
    - text: A fee applies for lost-card replacement.
      condition: 'session.card_replace.replacement_reason == "lost"'
    - text: No fee for cards reported stolen.
      condition: 'session.card_replace.replacement_reason == "stolen"'

  utter_card_replace_completed:
    - text: >-
        All set. Your replacement card has been ordered and will ship via
        {session.card_replace.order_shipping_summary} delivery.

  utter_goodbye:
    - "Thanks for calling. Goodbye!"
"#;

fn seed_registry() -> utter_compiler::Registry {
    registry(&[
        ("skills/card_replace/memory.yml", CARD_MEMORY),
        ("skills/card_replace/responses.yml", SEED_RESPONSES),
    ])
}

fn reason(value: &str) -> utter::MapMemory {
    memory(&[("card_replace", "replacement_reason", value.into())])
}

// ---- the seed's examples ------------------------------------------------

#[test]
fn seed_folded_text_and_plain_string_variants() {
    let reg = seed_registry();
    let empty = memory(&[]);
    let (text, variant, rephrase, fallback) =
        deliver(&reg, "utter_ask_shipping", Some("card_replace"), &empty);
    assert_eq!(
        text,
        "How would you like the new card shipped: rush delivery in 1 to 2 business days, or standard in 5 to 7?"
    );
    assert_eq!((variant, rephrase, fallback), (Some(0), false, false));
    assert_eq!(
        deliver(&reg, "utter_goodbye", None, &empty).0,
        "Thanks for calling. Goodbye!"
    );
}

#[test]
fn seed_conditional_variants_select_by_memory() {
    let reg = seed_registry();
    let fee = |m| deliver(&reg, "utter_card_replacement_fee", Some("card_replace"), &m);
    assert_eq!(
        fee(reason("lost")).0,
        "A fee applies for lost-card replacement."
    );
    assert_eq!(fee(reason("lost")).1, Some(1));
    assert_eq!(fee(reason("stolen")).0, "No fee for cards reported stolen.");
    assert_eq!(fee(reason("damaged")).0, "Standard replacement is free.");
    assert_eq!(
        fee(memory(&[])).1,
        Some(0),
        "unset memory falls to the default"
    );
}

#[test]
fn seed_interpolation_fills_and_leaves_unset_as_written() {
    let reg = seed_registry();
    let set = memory(&[("card_replace", "order_shipping_summary", "rush".into())]);
    assert_eq!(
        deliver(
            &reg,
            "utter_card_replace_completed",
            Some("card_replace"),
            &set
        )
        .0,
        "All set. Your replacement card has been ordered and will ship via rush delivery."
    );
    assert_eq!(
        deliver(
            &reg,
            "utter_card_replace_completed",
            Some("card_replace"),
            &memory(&[])
        )
        .0,
        "All set. Your replacement card has been ordered and will ship via {session.card_replace.order_shipping_summary} delivery."
    );
}

// ---- selection ----------------------------------------------------------

const SELECTION: &str = r#"responses:
  default_last:
    - text: first
      condition: session.s.n == 1
    - text: second
      condition: session.s.n >= 1
    - text: fallback
  default_middle:
    - text: lost
      condition: session.s.word == "lost"
    - text: fallback
    - text: stolen
      condition: session.s.word == "stolen"
  error_skips:
    - text: errors on a string
      condition: session.s.word < 5
    - text: holds
      condition: session.s.word == "lost"
    - text: fallback
  all_unconditioned:
    - one
    - two
    - text: three
      metadata: {rephrase: true}
  rephrase_of_selected:
    - text: plain default
    - text: reworded
      condition: session.s.n == 2
      metadata: {rephrase: true}
"#;

fn selection_registry() -> utter_compiler::Registry {
    registry(&[
        (
            "skills/s/memory.yml",
            "schema:\n  private:\n    n: {}\n    word: {}\n",
        ),
        ("skills/s/responses.yml", SELECTION),
    ])
}

#[test]
fn first_true_condition_in_yaml_order_wins() {
    let reg = selection_registry();
    let m = memory(&[("s", "n", 1.into())]);
    assert_eq!(deliver(&reg, "default_last", Some("s"), &m).0, "first");
    let m = memory(&[("s", "n", 3.into())]);
    assert_eq!(deliver(&reg, "default_last", Some("s"), &m).0, "second");
    let m = memory(&[("s", "n", 0.into())]);
    assert_eq!(deliver(&reg, "default_last", Some("s"), &m).1, Some(2));
}

#[test]
fn the_default_may_stand_anywhere() {
    let reg = selection_registry();
    let word = |w: &str| memory(&[("s", "word", w.into())]);
    assert_eq!(
        deliver(&reg, "default_middle", Some("s"), &word("stolen")).1,
        Some(2)
    );
    assert_eq!(
        deliver(&reg, "default_middle", Some("s"), &word("lost")).1,
        Some(0)
    );
    assert_eq!(
        deliver(&reg, "default_middle", Some("s"), &word("other")).1,
        Some(1)
    );
}

#[test]
fn an_evaluation_error_skips_only_that_variant() {
    let reg = selection_registry();
    let m = memory(&[("s", "word", "lost".into())]);
    assert_eq!(deliver(&reg, "error_skips", Some("s"), &m).0, "holds");
    let m = memory(&[("s", "word", "else".into())]);
    assert_eq!(deliver(&reg, "error_skips", Some("s"), &m).0, "fallback");
}

#[test]
fn all_unconditioned_delivers_the_first_maestro_style() {
    let reg = selection_registry();
    let out = deliver(&reg, "all_unconditioned", Some("s"), &memory(&[]));
    assert_eq!(out, ("one".into(), Some(0), false, false));
}

#[test]
fn rephrase_follows_the_selected_variant() {
    let reg = selection_registry();
    let m = memory(&[("s", "n", 2.into())]);
    assert!(deliver(&reg, "rephrase_of_selected", Some("s"), &m).2);
    assert!(!deliver(&reg, "rephrase_of_selected", Some("s"), &memory(&[])).2);
}

#[test]
fn unknown_names_deliver_the_name_itself_without_rephrase() {
    let reg = selection_registry();
    assert_eq!(
        deliver(&reg, "utter_not_defined", Some("s"), &memory(&[])),
        ("utter_not_defined".into(), None, false, true)
    );
}

#[test]
fn nothing_selectable_fails_closed_to_the_name() {
    // No default can exist in a valid file, so the interpreter is given a
    // registry whose only variant is conditioned (as the IR allows).
    let mut reg = selection_registry();
    let response = reg
        .responses
        .iter_mut()
        .find(|r| r.name == "error_skips")
        .unwrap();
    // The interpreter encodes the registry as it is now.
    response.default = None;
    let m = memory(&[("s", "word", "else".into())]);
    assert_eq!(
        deliver(&reg, "error_skips", Some("s"), &m),
        ("error_skips".into(), None, false, true)
    );
}

// ---- conditions: the semantics table (§1.5) -----------------------------

#[test]
fn condition_table_rows() {
    // memory {"a.s": "lost", "a.n": 5}; None marks an evaluation error.
    let rows: &[(&str, Option<bool>)] = &[
        ("session.a.s == \"lost\"", Some(true)),
        ("session.a.s == 'LOST'", Some(false)),
        ("session.a.unset", Some(false)),
        ("not session.a.unset", Some(true)),
        ("session.a.unset == None", Some(true)),
        ("session.a.unset < 5", None),
        ("session.a.n == 5.0", Some(true)),
        ("1 < session.a.n < 10", Some(true)),
        ("session.a.s < 5", None),
        ("session.a.s == 5", Some(false)),
        // Further rules of §1.5.
        ("session.a.flag == 1", Some(true)),
        ("session.a.n == 5 == True", Some(false)),
        ("True or session.a.unset < 1", Some(true)),
        ("session.a.unset < 1 or True", None),
        ("session.a.s == (session.a.unset or 'x')", Some(false)),
        ("session.a.flag == (session.a.unset or 'x')", Some(true)),
        ("\"True\"", Some(true)),
        ("\"\"", Some(false)),
        ("session.a.zero", Some(false)),
        ("session.a.zero != None", Some(true)),
        ("not session.a.s == 'y'", Some(true)),
        ("session.a.s > 'l' and session.a.s < 'm'", Some(true)),
        ("session.a.n <= 5 < 6 > 2", Some(true)),
        ("session.a.n < 1 < session.a.unset", Some(false)),
        ("session.a.list == session.a.list", Some(true)),
        ("session.a.list", Some(true)),
        ("session.a.empty", Some(false)),
    ];
    let mut responses = String::from("responses:\n");
    for (i, (cond, _)) in rows.iter().enumerate() {
        responses.push_str(&format!(
            "  r{i}:\n    - text: yes\n      condition: {}\n    - text: no\n",
            yaml_quote(cond)
        ));
    }
    let reg = registry(&[
        (
            "skills/a/memory.yml",
            "schema:\n  private:\n    s: {}\n    n: {}\n    unset: {}\n    flag: {}\n    zero: {}\n    list: {}\n    empty: {}\n",
        ),
        ("skills/a/responses.yml", &responses),
    ]);
    let m = memory(&[
        ("a", "s", "lost".into()),
        ("a", "n", 5.into()),
        ("a", "flag", true.into()),
        ("a", "zero", 0.into()),
        ("a", "list", Value::from(vec!["x"])),
        ("a", "empty", Value::List(vec![])),
    ]);
    let ctx = utter::Context::for_skill_id(&m, "a", &reg.skills).unwrap();
    for (i, (cond, want)) in rows.iter().enumerate() {
        let response = reg.response(&format!("r{i}")).unwrap();
        let expr = response.variants[0].condition.as_ref().unwrap();
        let got = reg.eval(expr, &ctx).ok();
        assert_eq!(got, *want, "condition {cond:?}");
        let expected_variant = if *want == Some(true) { 0 } else { 1 };
        assert_eq!(
            deliver(&reg, &format!("r{i}"), Some("a"), &m).1,
            Some(expected_variant),
            "selection for {cond:?}"
        );
    }
}

fn yaml_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

#[test]
fn surrounding_whitespace_is_ignored_in_conditions() {
    // The reference engine accepts ` session.a.b` at train time and then
    // always fails it at delivery; utter strips it in both places.
    let reg = registry(&[
        ("skills/a/memory.yml", "schema:\n  public:\n    b: {}\n"),
        (
            "skills/a/responses.yml",
            "responses:\n  r:\n    - text: hit\n      condition: '  session.a.b == 1  '\n    - text: miss\n",
        ),
    ]);
    let m = memory(&[("a", "b", 1.into())]);
    assert_eq!(deliver(&reg, "r", Some("a"), &m).0, "hit");
}

// ---- readability --------------------------------------------------------

const READABILITY_MEMORY: &[(&str, &str)] = &[
    ("memory.yml", "tier: {type: text}\n"),
    (
        "skills/a/memory.yml",
        "schema:\n  public:\n    pub_a: {}\n  private:\n    priv_a: {}\n",
    ),
    (
        "skills/b/memory.yml",
        "schema:\n  public:\n    pub_b: {}\n  private:\n    priv_b: {}\n",
    ),
];

fn readability_findings(file: &str, condition: &str) -> Vec<(String, usize, usize)> {
    let responses = format!(
        "responses:\n  r:\n    - text: x\n      condition: {}\n    - text: y\n",
        yaml_quote(condition)
    );
    let mut files = READABILITY_MEMORY.to_vec();
    files.push((file, &responses));
    let checked = checked(&files);
    with_code(&checked, codes::UNKNOWN_MEMORY_KEY)
        .into_iter()
        .map(|f| (f.file.clone(), f.line, f.column))
        .collect()
}

#[test]
fn a_skill_file_reads_its_own_fields_public_fields_and_project() {
    for ok in [
        "session.a.pub_a",
        "session.a.priv_a",
        "session.b.pub_b",
        "session.project.tier",
    ] {
        assert!(
            readability_findings("skills/a/responses.yml", ok).is_empty(),
            "{ok}"
        );
    }
    assert_eq!(
        readability_findings("skills/a/responses.yml", "session.b.priv_b"),
        [("skills/a/responses.yml".to_owned(), 4, 19)]
    );
    assert_eq!(
        readability_findings("skills/a/responses.yml", "session.a.typo").len(),
        1
    );
    assert_eq!(
        readability_findings("skills/a/responses.yml", "session.system.x").len(),
        1
    );
}

#[test]
fn the_root_file_reads_only_what_every_skill_can() {
    assert!(
        readability_findings("responses.yml", "session.project.tier or session.b.pub_b").is_empty()
    );
    assert_eq!(
        readability_findings("responses.yml", "session.a.priv_a").len(),
        1
    );
    let msg = {
        let responses = "responses:\n  r:\n    - text: x\n      condition: session.system.turns\n    - text: y\n";
        let mut files = READABILITY_MEMORY.to_vec();
        files.push(("responses.yml", responses));
        let checked = checked(&files);
        with_code(&checked, codes::UNKNOWN_MEMORY_KEY)[0]
            .message
            .clone()
    };
    assert!(msg.contains("system"), "{msg}");
}

#[test]
fn private_fields_read_as_none_outside_their_skill() {
    let mut files = READABILITY_MEMORY.to_vec();
    files.push((
        "skills/a/responses.yml",
        "responses:\n  r:\n    - text: 'secret {session.a.priv_a}'\n      condition: session.a.priv_a\n    - text: 'none {session.a.priv_a}'\n",
    ));
    let reg = registry(&files);
    let m = memory(&[("a", "priv_a", "x".into())]);
    assert_eq!(deliver(&reg, "r", Some("a"), &m).0, "secret x");
    assert_eq!(
        deliver(&reg, "r", Some("b"), &m).0,
        "none {session.a.priv_a}"
    );
    assert_eq!(deliver(&reg, "r", None, &m).0, "none {session.a.priv_a}");
}

// ---- interpolation --------------------------------------------------------

fn interpolation_registry(text: &str) -> utter_compiler::Registry {
    let responses = format!("responses:\n  r:\n    - text: {}\n", yaml_quote(text));
    let mut files = READABILITY_MEMORY.to_vec();
    files.push(("memory.yml", "tier: {}\npub_a: {}\nshared: {}\n"));
    files.push(("skills/a/responses.yml", &responses));
    // Placeholders nothing fills, delivered as written as the reference
    // does (an error by default in utter).
    files.push((
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholder: warn\n",
    ));
    files.push((
        "skills/b/memory.yml",
        "schema:\n  public:\n    pub_b: {}\n  private:\n    priv_b: {}\n    shared: {}\n",
    ));
    registry(&files)
}

fn interpolate(text: &str, skill: Option<&str>, values: &[(&str, &str, Value)]) -> String {
    deliver(&interpolation_registry(text), "r", skill, &memory(values)).0
}

#[test]
fn session_placeholders_read_the_active_view() {
    let v = [
        ("a", "pub_a", Value::from("A")),
        ("b", "priv_b", Value::from("secret")),
        ("project", "tier", Value::from("gold")),
    ];
    assert_eq!(
        interpolate("{session.a.pub_a}/{session.project.tier}", Some("b"), &v),
        "A/gold"
    );
    assert_eq!(
        interpolate("{session.b.priv_b}", Some("a"), &v),
        "{session.b.priv_b}"
    );
    assert_eq!(interpolate("{session.b.priv_b}", Some("b"), &v), "secret");
}

#[test]
fn bare_placeholders_read_own_fields_then_project() {
    let v = [
        ("b", "shared", Value::from("skill value")),
        ("project", "shared", Value::from("project value")),
        ("project", "pub_a", Value::from("project pub_a")),
        ("a", "pub_a", Value::from("a's pub_a")),
    ];
    assert_eq!(interpolate("{shared}", Some("b"), &v), "skill value");
    assert_eq!(interpolate("{shared}", Some("a"), &v), "project value");
    assert_eq!(interpolate("{shared}", None, &v), "project value");
    assert_eq!(interpolate("{pub_a}", Some("a"), &v), "a's pub_a");
    assert_eq!(
        interpolate("{pub_b}", Some("a"), &v),
        "{pub_b}",
        "other skills are not bare-readable"
    );
}

#[test]
fn values_format_as_python_str() {
    let cases: &[(Value, &str)] = &[
        (Value::Bool(true), "True"),
        (Value::Int(42), "42"),
        (Value::Float(5.0), "5.0"),
        (Value::Float(0.1), "0.1"),
        (Value::Float(1e16), "1e+16"),
        (Value::from(vec!["a", "b"]), "['a', 'b']"),
        (Value::None, "{tier}"),
    ];
    for (value, want) in cases {
        let got = interpolate("{tier}", None, &[("project", "tier", value.clone())]);
        assert_eq!(got, *want, "{value:?}");
    }
}

#[test]
fn interpolation_is_one_pass_and_follows_the_placeholder_rules() {
    let v = [
        ("project", "tier", Value::from("{session.project.pub_a}")),
        ("project", "pub_a", Value::from("P")),
    ];
    assert_eq!(
        interpolate("{tier} {pub_a}", None, &v),
        "{session.project.pub_a} P"
    );
    assert_eq!(
        interpolate("{ tier } {1x} {{pub_a}}", None, &v),
        "{ tier } {1x} {P}"
    );
    assert_eq!(
        interpolate("{session.tier} {session.project.pub_a.x}", None, &v),
        "{session.tier} {session.project.pub_a.x}"
    );
}

#[test]
fn the_interrupted_task_name_has_a_fallback_text() {
    let reg = registry(&[]);
    let out = deliver(
        &reg,
        "utter_ask_wants_to_resume",
        Some("default_continue_interrupted"),
        &memory(&[]),
    );
    assert!(
        out.0
            .starts_with("We were in the middle of your previous request."),
        "{}",
        out.0
    );
    let m = memory(&[(
        "default_continue_interrupted",
        "interrupted_task_name",
        "your card order".into(),
    )]);
    let out = deliver(
        &reg,
        "utter_ask_wants_to_resume",
        Some("default_continue_interrupted"),
        &m,
    );
    assert!(
        out.0
            .starts_with("We were in the middle of your card order."),
        "{}",
        out.0
    );
}

// ---- merge order --------------------------------------------------------------

#[test]
fn later_sources_override_earlier_ones() {
    let reg = registry(&[
        (
            "skills/a_first/responses.yml",
            "responses:\n  utter_x:\n    - from a_first\n  utter_y:\n    - y from a_first\n",
        ),
        (
            "skills/b_second/responses.yml",
            "responses:\n  utter_x:\n    - from b_second\n",
        ),
        (
            "responses.yml",
            "responses:\n  utter_y:\n    - y from root\n  utter_silence_timeout_check_in:\n    - overridden\n",
        ),
    ]);
    let m = memory(&[]);
    assert_eq!(deliver(&reg, "utter_x", None, &m).0, "from b_second");
    assert_eq!(deliver(&reg, "utter_y", None, &m).0, "y from root");
    assert_eq!(
        deliver(&reg, "utter_silence_timeout_check_in", None, &m).0,
        "overridden"
    );
    // Bundled defaults are there when not overridden, and opt into rephrasing.
    let bundled = deliver(&reg, "utter_ask_csat_score", None, &m);
    assert!(bundled.2 && !bundled.3, "{bundled:?}");
}

#[test]
fn two_skills_defining_one_name_is_a_warning_overriding_a_default_is_silent() {
    let checked = checked(&[
        (
            "skills/a/responses.yml",
            "responses:\n  utter_x:\n    - a\n  utter_greet_custom:\n    - a\n",
        ),
        (
            "skills/b/responses.yml",
            "responses:\n  utter_x:\n    - b\n  utter_ask_csat_score:\n    - mine\n",
        ),
        (
            "responses.yml",
            "responses:\n  utter_greet_custom:\n    - the root wins\n",
        ),
    ]);
    let warnings = with_code(&checked, codes::DEFINED_BY_TWO_SKILLS);
    assert_eq!(warnings.len(), 1, "{:?}", checked.findings);
    assert_eq!(
        (
            warnings[0].file.as_str(),
            warnings[0].line,
            warnings[0].severity
        ),
        ("skills/b/responses.yml", 2, Severity::Warning)
    );
    assert_eq!(
        warnings[0].note.as_deref(),
        Some("also defined in skills/a/responses.yml:2")
    );
    // The root's definition hides skill a's: said at the hidden one, naming
    // the one delivered (a bundled default overridden stays silent).
    let hidden = with_code(&checked, codes::HIDDEN_BY_ROOT);
    assert_eq!(hidden.len(), 1, "{:?}", checked.findings);
    assert_eq!(
        (hidden[0].file.as_str(), hidden[0].line, hidden[0].severity),
        ("skills/a/responses.yml", 4, Severity::Warning)
    );
    assert_eq!(hidden[0].response.as_deref(), Some("utter_greet_custom"));
    assert_eq!(
        hidden[0].note.as_deref(),
        Some("the definition delivered: responses.yml:2")
    );
    assert_eq!(
        registry(&[
            (
                "skills/a/responses.yml",
                "responses:\n  utter_x:\n    - from the skill\n"
            ),
            (
                "responses.yml",
                "responses:\n  utter_x:\n    - from the root\n"
            ),
        ])
        .interpreter()
        .deliver(
            "utter_x",
            &utter::Context::new(&utter::MapMemory::default())
        )
        .text,
        "from the root"
    );
    assert!(!checked.has_errors());
}

#[test]
fn underscore_skill_folders_are_skipped() {
    let reg = registry(&[(
        "skills/_draft/responses.yml",
        "responses:\n  utter_draft:\n    - x\n",
    )]);
    assert!(reg.response("utter_draft").is_none());
}

// ---- findings: every code with file, response, variant, line, column -----

/// `(code, response, variant, line, column)` of every finding in `file`.
/// `(code, response, variant, line, column)`.
type Located = (String, Option<String>, Option<usize>, usize, usize);

fn located(files: &[(&str, &str)]) -> Vec<Located> {
    let checked = checked(files);
    checked
        .findings
        .iter()
        .map(|f| {
            (
                f.code.to_owned(),
                f.response.clone(),
                f.variant,
                f.line,
                f.column,
            )
        })
        .collect()
}

fn one(
    code: &str,
    response: &str,
    variant: Option<usize>,
    line: usize,
    column: usize,
) -> (String, Option<String>, Option<usize>, usize, usize) {
    (
        code.to_owned(),
        Some(response.to_owned()),
        variant,
        line,
        column,
    )
}

#[test]
fn invalid_variant_shape_is_reported_for_every_bad_shape() {
    let got = located(&[(
        "skills/s/responses.yml",
        "responses:\n  empty_list: []\n  mapping:\n    text: x\n  scalar: hello\n  null_variant:\n    - ~\n  list_variant:\n    - [a]\n  bad_condition:\n    - text: a\n      condition: true\n    - text: b\n  bad_text:\n    - text: [a]\n",
    )]);
    assert_eq!(
        got,
        [
            one(codes::INVALID_VARIANT_SHAPE, "empty_list", None, 2, 15),
            one(codes::INVALID_VARIANT_SHAPE, "mapping", None, 4, 5),
            one(codes::INVALID_VARIANT_SHAPE, "scalar", None, 5, 11),
            one(codes::INVALID_VARIANT_SHAPE, "null_variant", Some(0), 7, 7),
            one(codes::INVALID_VARIANT_SHAPE, "list_variant", Some(0), 9, 7),
            one(
                codes::INVALID_VARIANT_SHAPE,
                "bad_condition",
                Some(0),
                12,
                18
            ),
            one(codes::INVALID_VARIANT_SHAPE, "bad_text", Some(0), 15, 13),
        ]
    );
}

#[test]
fn invalid_variant_key_names_typos_and_unsupported_keys() {
    let checked = checked(&[(
        "skills/s/responses.yml",
        "responses:\n  r:\n    - text: a\n      conditon: x\n    - text: b\n      channel: voice\n      buttons: []\n",
    )]);
    let found = with_code(&checked, codes::INVALID_VARIANT_KEY);
    assert_eq!(found.len(), 2);
    assert_eq!(
        (found[0].variant, found[0].line, found[0].column),
        (Some(0), 4, 7)
    );
    assert_eq!(found[0].suggestion.as_deref(), Some("condition"));
    assert!(
        found[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("did you mean `condition` instead of `conditon`?")),
        "{:?}",
        found[0].help
    );
    assert_eq!((found[1].variant, found[1].line), (Some(1), 6));
    assert!(
        found[1].message.contains("`channel`, `buttons`"),
        "{}",
        found[1].message
    );
    assert!(
        found[1]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("`buttons` is not supported")),
        "{:?}",
        found[1].help
    );
}

#[test]
fn empty_body_for_blank_and_missing_text() {
    let got = located(&[(
        "skills/s/responses.yml",
        "responses:\n  r:\n    - text: '   '\n    - metadata: {rephrase: true}\n    - text:\n",
    )]);
    assert_eq!(
        got,
        [
            one(codes::EMPTY_BODY, "r", Some(0), 3, 13),
            one(codes::EMPTY_BODY, "r", Some(1), 4, 7),
            one(codes::EMPTY_BODY, "r", Some(2), 5, 11),
        ]
    );
}

#[test]
fn invalid_condition_points_into_the_expression() {
    let got = located(&[
        ("skills/s/memory.yml", "schema:\n  public:\n    x: {}\n"),
        (
            "skills/s/responses.yml",
            "responses:\n  r:\n    - text: a\n      condition: session.s.x in 'ab'\n    - text: b\n      condition: ''\n    - text: c\n      condition: \"session.s.x == true\"\n    - text: d\n",
        ),
    ]);
    assert_eq!(
        got,
        [
            one(codes::INVALID_CONDITION, "r", Some(0), 4, 30),
            one(codes::INVALID_CONDITION, "r", Some(1), 6, 18),
            one(codes::INVALID_CONDITION, "r", Some(2), 8, 34),
        ]
    );
}

#[test]
fn unknown_memory_key_points_at_the_reference() {
    let checked = checked(&[
        (
            "skills/s/memory.yml",
            "schema:\n  public:\n    reason: {}\n",
        ),
        (
            "skills/s/responses.yml",
            "responses:\n  r:\n    - text: a\n      condition: session.s.reason == 'x' or session.s.reasn == 'y'\n    - text: b\n",
        ),
    ]);
    let found = with_code(&checked, codes::UNKNOWN_MEMORY_KEY);
    assert_eq!(found.len(), 1);
    let f = found[0];
    assert_eq!(
        (
            f.file.as_str(),
            f.response.as_deref(),
            f.variant,
            f.line,
            f.column
        ),
        ("skills/s/responses.yml", Some("r"), Some(0), 4, 45)
    );
    // The did-you-mean is a help with a replacement for the reference.
    assert_eq!(f.suggestion.as_deref(), Some("session.s.reason"));
    assert_eq!(f.help.as_deref(), Some("did you mean `session.s.reason`?"));
    assert_eq!(f.end_column - f.column, "session.s.reasn".len());
}

#[test]
fn default_rules() {
    let got = located(&[
        ("skills/s/memory.yml", "schema:\n  public:\n    x: {}\n"),
        (
            "skills/s/responses.yml",
            "responses:\n  none:\n    - text: a\n      condition: session.s.x\n  two:\n    - a\n    - text: b\n      condition: session.s.x\n    - c\n  many_plain:\n    - a\n    - b\n",
        ),
    ]);
    assert_eq!(
        got,
        [
            one(codes::DEFAULT_REQUIRED, "none", None, 2, 3),
            // At the second default, the one in excess; reported for the
            // response (`variant: null`), as the reference reports it.
            one(codes::MULTIPLE_DEFAULTS, "two", None, 9, 7),
            // The errors elsewhere do not hide the analysis of a response
            // that is valid itself.
            one(codes::UNREACHABLE_VARIANT, "many_plain", Some(1), 12, 7),
        ]
    );
    let checked = checked(&[
        ("skills/s/memory.yml", "schema:\n  public:\n    x: {}\n"),
        (
            "skills/s/responses.yml",
            "responses:\n  two:\n    - a\n    - text: b\n      condition: session.s.x\n    - c\n",
        ),
    ]);
    assert!(
        with_code(&checked, codes::MULTIPLE_DEFAULTS)[0]
            .message
            .contains("index(es) 0, 2")
    );
}

#[test]
fn findings_accumulate_across_files() {
    let checked = checked(&[
        ("skills/a/responses.yml", "responses:\n  r1: []\n"),
        (
            "skills/b/responses.yml",
            "responses:\n  r2:\n    - text: ''\n",
        ),
        (
            "responses.yml",
            "responses:\n  r3:\n    - text: x\n      condition: nope\n    - y\n",
        ),
    ]);
    let files: Vec<&str> = checked.findings.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "responses.yml",
            "skills/a/responses.yml",
            "skills/b/responses.yml"
        ]
    );
}

#[test]
fn duplicate_names_in_one_file_are_a_finding() {
    let checked = checked(&[(
        "responses.yml",
        "responses:\n  r:\n    - a\n  r:\n    - b\n",
    )]);
    let found = with_code(&checked, codes::DUPLICATE_RESPONSE);
    assert_eq!((found.len(), found[0].line, found[0].column), (1, 4, 3));
    assert_eq!(found[0].note.as_deref(), Some("first defined on line 2"));
}

#[test]
fn rephrase_must_be_a_boolean() {
    let got = located(&[(
        "responses.yml",
        "responses:\n  r:\n    - text: a\n      metadata:\n        rephrase: 'false'\n    - text: b\n      metadata: {rephrase: yes}\n",
    )]);
    assert_eq!(
        got,
        [
            one(codes::INVALID_REPHRASE, "r", Some(0), 5, 19),
            one(codes::INVALID_REPHRASE, "r", Some(1), 7, 28),
        ]
    );
    // The fix is machine-applicable where the intent is clear, in words otherwise.
    let checked = checked(&[(
        "responses.yml",
        "responses:\n  r:\n    - text: a\n      metadata:\n        rephrase: 'false'\n    - text: b\n      metadata: {rephrase: yes}\n    - text: c\n      metadata: {rephrase: maybe}\n",
    )]);
    let found = with_code(&checked, codes::INVALID_REPHRASE);
    let fixes: Vec<Option<&str>> = found.iter().map(|f| f.suggestion.as_deref()).collect();
    assert_eq!(fixes, [Some("false"), Some("true"), None]);
    assert!(
        found[2]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("`true`") && h.contains("`false`")),
        "{:?}",
        found[2].help
    );
}

#[test]
fn yaml_1_2_keeps_norway_strings() {
    let reg = registry(&[(
        "responses.yml",
        "responses:\n  r:\n    - text: no\n  s:\n    - yes\n  t:\n    - 1.0\n",
    )]);
    let m = memory(&[]);
    assert_eq!(deliver(&reg, "r", None, &m).0, "no");
    assert_eq!(deliver(&reg, "s", None, &m).0, "yes");
    assert_eq!(deliver(&reg, "t", None, &m).0, "1.0");
}

#[test]
fn yaml_errors_and_reserved_skill_ids_are_findings() {
    let checked = checked(&[
        (
            "responses.yml",
            "responses:\n  r:\n    - text: 'unterminated\n",
        ),
        ("skills/project/responses.yml", "responses: {}\n"),
        ("skills/a.b/responses.yml", "responses: {}\n"),
    ]);
    assert_eq!(with_code(&checked, codes::YAML_SYNTAX).len(), 1);
    assert_eq!(
        with_code(&checked, codes::SKILL_RESERVED_ID)[0].file,
        "skills/project"
    );
    assert_eq!(
        with_code(&checked, codes::SKILL_INVALID_ID)[0].file,
        "skills/a.b"
    );
}

/// rasa-pro 3.21.0 dropped `utter_ask_how_to_help` from
/// `default_completed`: an agent delivering it without defining it is told,
/// as the reference tells it (`conformance/bundled_layer.py` compares the
/// whole layer with the installed reference).
#[test]
fn the_bundled_layer_has_no_utter_ask_how_to_help() {
    assert!(registry(&[]).response("utter_ask_how_to_help").is_none());
    let checked = checked(&[(
        "skills/s/skill.md",
        "---\ndescription: d\nutter:\n  - utter_ask_how_to_help:\n      on: activate\n---\nBody.\n",
    )]);
    assert_eq!(
        with_code(&checked, codes::TRIGGER_UNKNOWN_RESPONSE).len(),
        1,
        "{:?}",
        checked.findings
    );
}

#[test]
fn bundled_defaults_are_clean() {
    let checked = checked(&[]);
    assert!(checked.findings.is_empty(), "{:?}", checked.findings);
    let reg = registry(&[]);
    for name in [
        "utter_ask_wants_to_continue",
        "utter_ask_wants_to_resume",
        "utter_ask_csat_score",
        "utter_thank_you_for_feedback",
        "utter_decline_in_domain_out_of_scope",
        "utter_decline_out_of_domain_out_of_scope",
        "utter_silence_timeout_check_in",
        "utter_inform_hangup",
    ] {
        let r = reg
            .response(name)
            .unwrap_or_else(|| panic!("{name} is bundled"));
        assert!(
            r.variants.iter().all(|v| v.rephrase),
            "{name} opts into rephrasing"
        );
    }
}

// ---- the strict runtime loader ---------------------------------------------

#[test]
fn strict_loading_stops_at_the_first_malformed_variant() {
    use utter_compiler::RegistryError;
    let files = utter_tests::project(&[
        (
            "skills/a/responses.yml",
            "responses:\n  ok:\n    - fine\n  bad:\n    - text: x\n      buttons: []\n",
        ),
        (
            "skills/b/responses.yml",
            "responses:\n  bad2:\n    - text: x\n      condition: 5\n",
        ),
    ]);
    let err = utter_compiler::Registry::from_files_strict(&files).unwrap_err();
    assert_eq!(err.code(), "responses.registry.invalid_variant");
    let RegistryError::InvalidVariant(finding) = &err else {
        panic!("{err}")
    };
    assert_eq!(
        (finding.file.as_str(), finding.line),
        ("skills/a/responses.yml", 6)
    );

    let files = utter_tests::project(&[(
        "skills/b/responses.yml",
        "responses:\n  bad2:\n    - text: x\n      condition: 5\n    - y\n",
    )]);
    let err = utter_compiler::Registry::from_files_strict(&files).unwrap_err();
    assert_eq!(err.code(), "responses.registry.invalid_variant");

    let files = utter_tests::project(&[("responses.yml", "responses:\n  r:\n    - text: ''\n")]);
    let err = utter_compiler::Registry::from_files_strict(&files).unwrap_err();
    assert_eq!(
        err.code(),
        "mantle.validate_project.project_validation_error"
    );
    assert!(err.to_string().contains("empty_body"), "{err}");

    let files = utter_tests::project(&[("responses.yml", "responses:\n  r:\n    - fine\n")]);
    assert!(utter_compiler::Registry::from_files_strict(&files).is_ok());
}

#[test]
fn the_example_agent_is_clean_and_delivers() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/card-agent");
    let reg = utter_compiler::Registry::load_strict(&dir).unwrap_or_else(|e| panic!("{e}"));
    let m = memory(&[
        ("card_replace", "replacement_reason", "stolen".into()),
        ("project", "customer_name", "Ada".into()),
    ]);
    assert_eq!(
        deliver(&reg, "utter_card_replacement_fee", Some("card_replace"), &m).0,
        "No fee for cards reported stolen."
    );
    assert_eq!(
        deliver(&reg, "utter_ask_wants_to_continue", None, &m).0,
        "Is there anything else I can help you with, Ada?"
    );
}

#[test]
fn names_that_meet_in_rust_are_a_finding() {
    let checked = checked(&[(
        "responses.yml",
        "responses:\n  utter_a:\n    - a\n  utterA:\n    - b\n  utter-a:\n    - c\n",
    )]);
    let found = with_code(&checked, codes::RUST_NAME_COLLISION);
    let names: Vec<_> = found
        .iter()
        .map(|f| (f.response.clone().unwrap(), f.line))
        .collect();
    assert_eq!(names, [("utter_a".to_owned(), 2), ("utterA".to_owned(), 4)]);
}

/// rasa-pro 3.21.0 declares the bundled default skills' memory under
/// `public:` (its `default_skills/*/memory.yml`): project skills and the
/// root file read it, in conditions and placeholders.
#[test]
fn bundled_default_skill_memory_is_public() {
    let reg = registry(&[
        (
            "skills/s/responses.yml",
            "responses:\n  utter_s:\n    - text: more\n      condition: session.default_completed.wants_to_continue\n    - text: done\n",
        ),
        (
            "responses.yml",
            "responses:\n  utter_resume:\n    - text: \"Back to {session.default_continue_interrupted.interrupted_task_name}.\"\n",
        ),
    ]);
    let m = memory(&[
        ("default_completed", "wants_to_continue", true.into()),
        (
            "default_continue_interrupted",
            "interrupted_task_name",
            "your order".into(),
        ),
    ]);
    assert_eq!(deliver(&reg, "utter_s", Some("s"), &m).0, "more");
    assert_eq!(
        deliver(&reg, "utter_resume", None, &m).0,
        "Back to your order."
    );
    assert_eq!(
        deliver(&reg, "utter_resume", Some("s"), &m).0,
        "Back to your order."
    );
}

/// Findings about a response name it; variant findings name the variant too.
#[test]
fn duplicate_and_metadata_findings_name_their_response() {
    let c = checked(&[(
        "responses.yml",
        "responses:\n  utter_a:\n    - text: a\n      metadata: [rephrase]\n  utter_a:\n    - text: b\n",
    )]);
    let duplicate = with_code(&c, codes::DUPLICATE_RESPONSE);
    assert_eq!(duplicate.len(), 1, "{:?}", c.findings);
    assert_eq!(duplicate[0].response.as_deref(), Some("utter_a"));
    let shape = with_code(&c, codes::INVALID_VARIANT_SHAPE);
    assert_eq!(shape.len(), 1, "{:?}", c.findings);
    assert_eq!(
        (shape[0].response.as_deref(), shape[0].variant),
        (Some("utter_a"), Some(0))
    );
}

/// The tricky-case fixture of the variant analysis: exactly these findings
/// (its witnesses are delivered by the reference in `conformance/witnesses.py`).
#[test]
fn the_analysis_fixture_gets_exact_findings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/analysis-agent");
    let checked = utter_compiler::Agent::open(&dir, utter_compiler::OpenOptions::default())
        .unwrap()
        .into_checked();
    let found: Vec<(&str, Option<&str>, Option<usize>)> = checked
        .findings
        .iter()
        .map(|f| (f.code, f.response.as_deref(), f.variant))
        .collect();
    assert_eq!(
        found,
        [
            (
                codes::NO_CONDITIONED_VARIANT,
                Some("utter_empty_chain"),
                None
            ),
            (
                codes::NO_CONDITIONED_VARIANT,
                Some("utter_int_between"),
                None
            ),
            (
                codes::NO_CONDITIONED_VARIANT,
                Some("utter_empty_string"),
                None
            ),
            (codes::UNREACHABLE_DEFAULT, Some("utter_covered"), Some(2)),
            (codes::UNREACHABLE_VARIANT, Some("utter_shadowed"), Some(1)),
        ],
        "{:?}",
        checked.findings
    );
}

/// What a user's own `cargo test` calls to keep the wording under review:
/// the example agent matches its checked-in snapshot, and a changed text
/// does not (with the line and the command that accepts it).
#[test]
fn the_wording_is_checked_from_rust() {
    let agent = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/card-agent");
    utter_compiler::snapshot::check(&agent, agent.join("responses.snap"))
        .expect("reviewed wording");
    let snap = std::fs::read_to_string(agent.join("responses.snap")).unwrap();
    let edited = snap.replacen(
        "Standard replacement is free.",
        "Standard replacement costs $5.",
        1,
    );
    match utter_compiler::snapshot::compare(&edited, &snap) {
        Err(utter_compiler::snapshot::Mismatch::Changed {
            expected, found, ..
        }) => {
            assert!(
                expected.contains("costs $5") && found.contains("is free"),
                "{expected} / {found}"
            );
        }
        other => panic!("{other:?}"),
    }
    let message = utter_compiler::snapshot::compare(&edited, &snap)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("run `utter snapshot` to accept it"),
        "{message}"
    );
}
