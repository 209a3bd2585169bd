//! The `utter` binary as a process: exit codes, output shapes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn utter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_utter"))
        .args(args)
        .output()
        .expect("utter runs")
}

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/card-agent")
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A temporary project folder holding `files`; a skill folder without a
/// `skill.md` gets a minimal one (a skill needs one to load).
fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("utter-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        if let Some(skill) = path
            .parent()
            .filter(|p| p.parent().is_some_and(|s| s.ends_with("skills")))
            && !skill.join("skill.md").exists()
        {
            std::fs::write(
                skill.join("skill.md"),
                "---\ndescription: test\n---\nBody.\n",
            )
            .unwrap();
        }
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const INVALID: &[(&str, &str)] = &[
    ("skills/s/memory.yml", "schema:\n  public:\n    x: {}\n"),
    (
        "skills/s/responses.yml",
        "responses:\n  utter_a:\n    - text: hi\n      conditon: session.s.x\n  utter_b:\n    - text: ''\n  utter_c:\n    - text: c\n      condition: session.s.y\n    - d\n",
    ),
];

#[test]
fn check_passes_on_the_example() {
    let out = utter(&["check", &example()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains("0 errors"), "{}", stdout(&out));
    let out = utter(&["check", &example(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).trim(), "{\"findings\":[]}");
}

#[test]
fn check_reports_every_error_with_exit_1() {
    let dir = project("invalid", INVALID);
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(
            "error[mantle.validation.response.invalid_variant_key]: response `utter_a`, variant 0:"
        ),
        "{text}"
    );
    assert!(text.contains(" --> skills/s/responses.yml:4:7"), "{text}");
    assert!(text.contains("^^^^^^^^"), "{text}");
    assert!(
        text.contains("error[mantle.validation.response.empty_body]"),
        "{text}"
    );
    assert!(
        text.contains("error[mantle.validation.response.unknown_memory_key]"),
        "{text}"
    );
    assert!(text.contains("3 errors"), "{text}");

    let out = utter(&["check", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout(&out);
    assert!(json.starts_with("{\"findings\":[{\"code\":\"mantle.validation.response.invalid_variant_key\",\"severity\":\"error\",\"file\":\"skills/s/responses.yml\",\"response\":\"utter_a\",\"variant\":0,\"line\":4,\"column\":7,\"message\":"), "{json}");
    assert_eq!(json.matches("\"code\":").count(), 3, "{json}");
}

#[test]
fn check_cannot_run_exits_2() {
    let out = utter(&["check", "/definitely/not/here"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("/definitely/not/here"),
        "{}",
        stderr(&out)
    );
    for args in [
        vec!["check", ".", "--format", "xml"],
        vec!["check", ".", "extra"],
        vec!["frobnicate"],
        vec![],
        vec!["render", "."],
        vec!["check", "--skill", "x"],
    ] {
        let out = utter(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("error: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn render_delivers_text_and_json() {
    let dir = project(
        "memory",
        &[(
            "memory.json",
            r#"{"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}, "project": {"customer_name": "Ada"}}"#,
        )],
    );
    let memory = dir.join("memory.json");
    let memory = memory.to_str().unwrap();
    let out = utter(&[
        "render",
        &example(),
        "utter_card_replacement_fee",
        "--skill",
        "card_replace",
        "--memory",
        memory,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "A fee of $7.5 applies for lost-card replacement.\n"
    );

    let out = utter(&[
        "render",
        &example(),
        "utter_card_replacement_fee",
        "--memory",
        memory,
        "--format",
        "json",
    ]);
    assert_eq!(
        stdout(&out).trim(),
        r#"{"text":"Standard replacement is free.","response":"utter_card_replacement_fee","variant":0,"rephrase":false,"fallback":false}"#,
        "without --skill the private fee is not readable"
    );

    let out = utter(&["render", &example(), "utter_unknown", "--format", "json"]);
    assert_eq!(
        stdout(&out).trim(),
        r#"{"text":"utter_unknown","response":"utter_unknown","variant":null,"rephrase":false,"fallback":true}"#
    );
}

#[test]
fn render_refuses_bad_input() {
    let dir = project(
        "bad-memory",
        &[
            ("broken.json", "{\"project\": {\"customer_name\": }"),
            (
                "undeclared.json",
                "{\"project\": {\"customer_nam\": \"Ada\"}}",
            ),
        ],
    );
    let out = utter(&[
        "render",
        &example(),
        "utter_goodbye",
        "--memory",
        dir.join("broken.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("broken.json:1:31: expected a JSON value"),
        "{}",
        stderr(&out)
    );

    let out = utter(&[
        "render",
        &example(),
        "utter_goodbye",
        "--memory",
        dir.join("undeclared.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("did you mean `project.customer_name`?"),
        "{}",
        stderr(&out)
    );

    let out = utter(&[
        "render",
        &example(),
        "utter_goodbye",
        "--skill",
        "card_replac",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `card_replace`?"),
        "{}",
        stderr(&out)
    );

    let out = utter(&[
        "render",
        &example(),
        "utter_goodbye",
        "--memory",
        "/no/such/memory.json",
    ]);
    assert_eq!(out.status.code(), Some(2));

    let invalid = project("render-invalid", INVALID);
    let out = utter(&["render", invalid.to_str().unwrap(), "utter_a"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("empty_body"), "{}", stderr(&out));
}

#[test]
fn expand_prints_the_generated_code() {
    let out = utter(&["expand", &example()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = stdout(&out);
    assert!(code.starts_with("// @generated by utter"), "{code}");
    assert!(code.contains("pub enum Response {\n"), "{code}");
    assert!(
        code.contains("pub fn deliver(\n    response: Response,"),
        "{code}"
    );
    assert_eq!(
        code,
        stdout(&utter(&["expand", &example()])),
        "deterministic"
    );

    let invalid = project("expand-invalid", INVALID);
    let out = utter(&["expand", invalid.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
}

#[test]
fn check_lists_every_skill_md_mistake_in_one_run() {
    let dir = project(
        "skill-md",
        &[
            (
                "skills/s/memory.yml",
                "schema:\n  public:\n    reason: {}\n",
            ),
            (
                "skills/s/responses.yml",
                "responses:\n  utter_ok:\n    - fine\n",
            ),
            (
                "skills/s/skill.md",
                "---\nutter:\n  - utter_trigger_gone:\n      on: activate\ntool_constraints:\n  - order:\n      on_success: utter_success_gone\n      requires_confirmation:\n        enabled: true\n        utter_for_confirmation: utter_confirm_gone\n---\n\nUse session.s.reason here.\n\n:::ordered_block id=main\nsteps:\n  - id: a\n    action: utter_step_gone\n  - id: b\n    action: do_something\n:::\n",
            ),
        ],
    );
    let out = utter(&["check", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout(&out);
    for (code, line) in [
        ("mantle.validation.verbatim_trigger.unknown_response", 3),
        (
            "mantle.validation.tool_constraint.unknown_on_success_or_failure",
            7,
        ),
        (
            "mantle.validation.tool_constraint.unknown_requires_confirmation_response",
            10,
        ),
        (
            "mantle.validation.prose.session_reference_in_instructions",
            13,
        ),
        ("mantle.validation.response.missing", 18),
        ("mantle.validation.action.unknown", 20),
    ] {
        let needle =
            format!("\"code\":\"{code}\",\"severity\":\"error\",\"file\":\"skills/s/skill.md\"");
        let at = json
            .find(&needle)
            .unwrap_or_else(|| panic!("{code} missing from {json}"));
        let finding = &json[at..at + json[at..].find('}').expect("object end")];
        assert!(
            finding.contains(&format!("\"line\":{line},")),
            "{code} not on line {line}: {finding}"
        );
    }
    assert_eq!(json.matches("\"code\":").count(), 6, "{json}");
}

#[test]
fn check_output_is_identical_across_runs_and_listing_orders() {
    let skills = ["zeta", "alpha", "mid", "beta"];
    let files = |order: &[&str]| -> Vec<(String, String)> {
        order
            .iter()
            .flat_map(|s| {
                [
                    (format!("skills/{s}/memory.yml"), "schema:\n  private:\n    x: {}\n".to_owned()),
                    (
                        format!("skills/{s}/responses.yml"),
                        format!("responses:\n  utter_shared:\n    - from {s}\n  utter_{s}:\n    - text: ''\n    - text: a\n      condition: session.{s}.y\n"),
                    ),
                ]
            })
            .collect()
    };
    let forward = files(&skills);
    let mut reversed_order = skills;
    reversed_order.reverse();
    let reversed = files(&reversed_order);
    let as_refs = |v: &Vec<(String, String)>| {
        v.iter()
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect::<Vec<_>>()
    };
    let a = project(
        "order-a",
        &as_refs(&forward)
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect::<Vec<_>>(),
    );
    let b = project(
        "order-b",
        &as_refs(&reversed)
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect::<Vec<_>>(),
    );
    let run = |dir: &PathBuf| {
        stdout(&utter(&[
            "check",
            dir.to_str().unwrap(),
            "--format",
            "json",
        ]))
    };
    let first = run(&a);
    assert_eq!(first.matches("\"code\"").count(), 11, "{first}");
    assert_eq!(
        first,
        run(&a),
        "same project, another process (another hash seed)"
    );
    assert_eq!(first, run(&b), "skill folders created in another order");
}

const PIZZA: &[(&str, &str)] = &[
    (
        "skills/order_pizza/memory.yml",
        "schema:\n  public:\n    pizza_size:\n      type: categorical\n      enum_values: [small, large]\n    topping_count:\n      type: int\n",
    ),
    (
        "skills/order_pizza/responses.yml",
        "responses:\n  utter_size:\n    - text: Huge!\n      condition: session.order_pizza.pizza_size == \"huge\"\n    - text: Many!\n      condition: session.order_pizza.topping_count > \"3\"\n    - text: Which size?\n",
    ),
];

#[test]
fn check_reports_what_the_declared_types_decide() {
    let dir = project("pizza", PIZZA);
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("error[utter.validation.condition.unknown_enum_value]"),
        "{text}"
    );
    assert!(
        text.contains("skills/order_pizza/responses.yml:4:18"),
        "the categorical at its line and column: {text}"
    );
    assert!(
        text.contains("error[utter.validation.condition.type_mismatch]"),
        "{text}"
    );
    assert!(
        text.contains("skills/order_pizza/responses.yml:6:18"),
        "the int at its line and column: {text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn expand_shows_a_categorical_entry_as_an_enum() {
    let files = [
        PIZZA[0],
        (
            "skills/order_pizza/responses.yml",
            "responses:\n  utter_size:\n    - text: Large!\n      condition: session.order_pizza.pizza_size == \"large\"\n    - text: Which size?\n",
        ),
    ];
    let dir = project("pizza-enum", &files);
    let out = utter(&["expand", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = stdout(&out);
    assert!(code.contains("pub enum PizzaSize {"), "{code}");
    assert!(
        code.contains("Small = 0,") && code.contains("Large = 1,"),
        "{code}"
    );
    assert!(
        code.contains("pub pizza_size: ::core::option::Option<PizzaSize>"),
        "{code}"
    );
    assert!(
        code.contains("pub topping_count: ::core::option::Option<i64>"),
        "{code}"
    );
    let select = code
        .lines()
        .find(|l| l.contains("r.holds_value(&E"))
        .expect("the categorical comparison is an enum comparison");
    assert!(select.contains(", 1) { Some(0) }"), "{select}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_refuses_a_memory_value_of_the_wrong_type() {
    let dir = project("pizza-memory", PIZZA);
    let memory = dir.join("memory.json");
    std::fs::write(&memory, "{\"order_pizza\": {\"topping_count\": \"three\"}}").unwrap();
    let files = [
        PIZZA[0],
        (
            "skills/order_pizza/responses.yml",
            "responses:\n  utter_size:\n    - text: Which size?\n",
        ),
    ];
    let dir = project("pizza-memory-valid", &files);
    let out = utter(&[
        "render",
        dir.to_str().unwrap(),
        "utter_size",
        "--memory",
        memory.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains(
            "memory entry `order_pizza.topping_count` is declared `int`; refused 'three' (str)"
        ),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_fails_on_a_folder_without_an_agent() {
    let dir = project("empty", &[("README.md", "not an agent")]);
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("holds no `responses.yml`"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn deny_warnings_fails_on_warnings() {
    let dir = project(
        "warnings",
        &[(
            "responses.yml",
            "responses:\n  utter_x:\n    - text: \"{nope}\"\n",
        )],
    );
    let path = dir.to_str().unwrap();
    assert_eq!(utter(&["check", path]).status.code(), Some(0));
    let out = utter(&["check", path, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 warning"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_of_an_unknown_response_warns_with_a_hint() {
    let out = utter(&["render", &example(), "utter_goodby"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).trim(), "utter_goodby", "delivered as its name");
    assert!(
        stderr(&out).contains("no response `utter_goodby` (did you mean `utter_goodbye`?)"),
        "{}",
        stderr(&out)
    );
}
