//! The `utter` binary as a process: exit codes, output shapes. One file
//! for the one binary (a case per command and option,
//! each short, read top to bottom like the `--help` they follow).

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

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `deliver-batch` on the example agent fed `input`: its exit code and its
/// answers, one JSON value a line.
fn deliver_batch(input: &[u8]) -> (Option<i32>, Vec<serde_json::Value>) {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_utter"))
        .args(["deliver-batch", &example()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("utter runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().expect("answers");
    let answers = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code(), answers)
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
    let doc = json(&out);
    assert_eq!(doc["version"], 2);
    assert_eq!(doc["findings"], serde_json::json!([]));
    assert_eq!(
        doc["summary"],
        serde_json::json!({"errors": 0, "warnings": 0, "notes": 0, "files": 12})
    );
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
    // Paths are under the folder as given, so a terminal or an editor opens them.
    let path = format!(" --> {}/skills/s/responses.yml:4:7", dir.display());
    assert!(text.contains(&path), "{text}");
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
    let doc = json(&out);
    let findings = doc["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 3, "{doc}");
    let first = &findings[0];
    assert_eq!(
        first,
        &serde_json::json!({
            "code": "mantle.validation.response.invalid_variant_key",
            "severity": "error",
            "file": "skills/s/responses.yml",
            "path": format!("{}/skills/s/responses.yml", dir.display()),
            "response": "utter_a",
            "variant": 0,
            "line": 4,
            "column": 7,
            "end_line": 4,
            "end_column": 15,
            "message": "unknown variant key(s) `conditon`; allowed keys are `condition`, `metadata` and `text`",
            "note": null,
            "help": "did you mean `condition` instead of `conditon`?",
            "suggestion": "condition",
        })
    );
    assert_eq!(doc["summary"]["errors"], 3);
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
    let out = utter(&[]);
    assert_eq!(out.status.code(), Some(2), "no command: usage, exit 2");
    assert!(stderr(&out).contains("Usage: utter"), "{}", stderr(&out));
    for args in [
        vec!["check", ".", "--format", "xml"],
        vec!["check", ".", "extra"],
        vec!["frobnicate"],
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
        json(&out),
        serde_json::json!({"schema": "utter/render/v1", "text": "Standard replacement is free.", "response": "utter_card_replacement_fee", "variant": 0, "rephrase": false, "fallback": false, "wording_id": "706747c61076fb5c"}),
        "without --skill the private fee is not readable"
    );

    let out = utter(&["render", &example(), "utter_unknown", "--format", "json"]);
    assert_eq!(
        json(&out),
        serde_json::json!({"schema": "utter/render/v1", "text": "utter_unknown", "response": "utter_unknown", "variant": null, "rephrase": false, "fallback": true, "wording_id": null})
    );
}

/// `deliver-batch` answers a line per request as `render` does, but a
/// value its entry does not take is left out and listed (the reference
/// engine leaves it out), where `render` refuses the document.
#[test]
fn deliver_batch_answers_each_line_and_lists_refused_values() {
    let requests = [
        r#"{"response": "utter_card_replacement_fee", "skill": "card_replace", "memory": {"card_replace": {"replacement_reason": "lost", "replacement_fee": "seven"}, "project": {"customer_nam": "Ada"}}}"#,
        r#"{"response": "utter_card_replacement_fee", "skill": "card_replace", "memory": {"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}}}"#,
        r#"{"response": "utter_goodbye", "skill": "card_replac"}"#,
        "not json",
    ];
    let (code, answers) = deliver_batch((requests.join("\n") + "\n").as_bytes());
    assert_eq!(code, Some(0));
    assert_eq!(answers.len(), 4);
    // The fee `seven` is left out: the variant without a fee is delivered.
    assert_eq!(
        answers[0]["refused"].as_array().map(Vec::len),
        Some(2),
        "{}",
        answers[0]
    );
    assert!(
        answers[0]["refused"][1]
            .as_str()
            .unwrap()
            .contains("customer_name")
    );
    assert_eq!(
        answers[1]["text"],
        "A fee of $7.5 applies for lost-card replacement."
    );
    assert_eq!(answers[1]["refused"], serde_json::json!([]));
    assert!(
        answers[2]["error"]
            .as_str()
            .unwrap()
            .contains("card_replace"),
        "{}",
        answers[2]
    );
    assert!(
        answers[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("not a JSON request")
    );
    assert_ne!(answers[0]["text"], answers[1]["text"]);
}

/// `render --channel voice` writes the facts spoken, in `--lang` or the
/// language agent.yml declares; a tag that is not one is refused. The
/// same context in `deliver-batch` requests.
#[test]
fn render_speaks_facts_in_the_channel_and_language_asked() {
    let sample = format!("{}/sample-memory.json", example());
    let render = |extra: &[&str]| {
        let mut args = vec![
            "render",
            "",
            "utter_card_replacement_fee",
            "--skill",
            "card_replace",
            "--memory",
            &sample,
        ];
        let dir = example();
        args[1] = &dir;
        args.extend_from_slice(extra);
        let out = utter(&args);
        (out.status.code(), stdout(&out), stderr(&out))
    };
    let (code, text, _) = render(&[]);
    assert_eq!(
        (code, text.as_str()),
        (
            Some(0),
            "A fee of $7.5 applies for lost-card replacement.\n"
        )
    );
    let (_, text, _) = render(&["--channel", "voice"]);
    assert_eq!(
        text,
        "A fee of seven dollars and fifty cents applies for lost-card replacement.\n"
    );
    let (_, text, _) = render(&["--channel", "voice", "--lang", "de-DE"]);
    assert_eq!(
        text,
        "A fee of sieben Dollar und fünfzig Cent applies for lost-card replacement.\n"
    );
    let (code, _, err) = render(&["--lang", "en; rm -rf /"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("is not a BCP 47 language tag"), "{err}");
    // The agent's declared language is the default conversation language.
    let dir = project(
        "agent-language",
        &[
            ("agent.yml", "agent:\n  language: fr\n  persona: x\n"),
            (
                "responses.yml",
                "responses:\n  utter_fee:\n    - text: Les frais sont de 20 €, payables avant le 21 juillet.\n",
            ),
        ],
    );
    let out = utter(&[
        "render",
        dir.to_str().unwrap(),
        "utter_fee",
        "--channel",
        "voice",
    ]);
    assert_eq!(
        stdout(&out),
        "Les frais sont de vingt euros, payables avant le vingt et un juillet.\n",
        "{}",
        stderr(&out)
    );
    std::fs::write(dir.join("agent.yml"), "agent:\n  language: [fr]\n").unwrap();
    let out = utter(&[
        "render",
        dir.to_str().unwrap(),
        "utter_fee",
        "--channel",
        "voice",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`agent.language` is a list"),
        "{}",
        stderr(&out)
    );
    // deliver-batch takes the same context per request.
    let memory =
        r#""memory": {"card_replace": {"replacement_reason": "lost", "replacement_fee": 7.5}}"#;
    let requests = [
        format!(
            r#"{{"response": "utter_card_replacement_fee", "skill": "card_replace", {memory}, "channel": "voice", "language": "es"}}"#
        ),
        format!(
            r#"{{"response": "utter_card_replacement_fee", "skill": "card_replace", {memory}, "channel": "radio"}}"#
        ),
        format!(
            r#"{{"response": "utter_card_replacement_fee", "skill": "card_replace", {memory}, "language": "1"}}"#
        ),
    ];
    let (_, answers) = deliver_batch((requests.join("\n") + "\n").as_bytes());
    assert_eq!(
        answers[0]["text"],
        "A fee of siete dólares con cincuenta centavos applies for lost-card replacement."
    );
    assert!(
        answers[1]["error"]
            .as_str()
            .unwrap()
            .contains("`text` or `voice`")
    );
    assert!(answers[2]["error"].as_str().unwrap().contains("BCP 47"));
}

/// JSON output escapes invisible and tag characters and still reads back
/// as the text itself (a character beyond the BMP as its surrogate pair).
#[test]
fn render_json_escapes_invisible_characters_and_reads_back() {
    let text = "Fee\u{200B}: 5\u{E0041}\u{E007F} now";
    let dir = project(
        "invisible-json",
        &[(
            "responses.yml",
            &format!("responses:\n  utter_fee:\n    - text: \"{text}\"\n"),
        )],
    );
    let out = utter(&[
        "render",
        dir.to_str().unwrap(),
        "utter_fee",
        "--format",
        "json",
    ]);
    let raw = stdout(&out);
    assert!(
        !raw.contains('\u{E0041}') && !raw.contains('\u{200B}'),
        "{raw}"
    );
    assert!(raw.contains("\\udb40\\udc41"), "{raw}");
    assert_eq!(json(&out)["text"], text);
}

/// A request that is not UTF-8 is answered with an error on its line and
/// the batch goes on.
#[test]
fn deliver_batch_answers_a_line_that_is_not_utf8_and_goes_on() {
    let (code, answers) =
        deliver_batch(b"{\"response\": \"utter_\xff\"}\n{\"response\": \"utter_goodbye\"}\n");
    assert_eq!(code, Some(0));
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(answers[0]["error"].as_str().unwrap().contains("not UTF-8"));
    assert!(answers[1]["text"].is_string(), "{}", answers[1]);
}

/// `explain` marks a rephrased variant on a line of its own, never on the
/// condition's line (where it read as part of the condition).
#[test]
fn explain_marks_a_rephrased_variant_on_its_own_line() {
    let dir = project(
        "explain-rephrased",
        &[
            ("memory.yml", "vip:\n  type: bool\n"),
            (
                "responses.yml",
                "responses:\n  utter_hi:\n    - text: Welcome back!\n      condition: session.project.vip\n      metadata:\n        rephrase: true\n    - text: Hello.\n",
            ),
        ],
    );
    let out = utter(&["explain", dir.to_str().unwrap(), "utter_hi"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<&str> = text.lines().collect();
    let condition = lines
        .iter()
        .position(|l| l.starts_with("  variant 0 if `session.project.vip`"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!lines[condition].contains("rephrased"), "{text}");
    assert!(
        lines[condition..]
            .iter()
            .take(4)
            .any(|l| *l == "    rephrased (metadata.rephrase)"),
        "{text}"
    );
    assert_eq!(
        text.matches("rephrased (metadata.rephrase)").count(),
        1,
        "{text}"
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
        stderr(&out).contains("broken.json:1:31: expected value"),
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
    let doc = json(&out);
    let findings = doc["findings"].as_array().expect("findings");
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
        let finding = findings
            .iter()
            .find(|f| f["code"] == code)
            .unwrap_or_else(|| panic!("{code} missing from {doc}"));
        assert_eq!(finding["severity"], "error");
        assert_eq!(finding["file"], "skills/s/skill.md");
        assert_eq!(finding["line"], line, "{code}: {finding}");
    }
    assert_eq!(findings.len(), 6, "{doc}");
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
    // The document without the paths, which name the folder.
    let run = |dir: &PathBuf| {
        let mut doc = json(&utter(&[
            "check",
            dir.to_str().unwrap(),
            "--format",
            "json",
        ]));
        for f in doc["findings"].as_array_mut().expect("findings") {
            f.as_object_mut().expect("a finding").remove("path");
        }
        doc
    };
    let first = run(&a);
    assert_eq!(
        first["findings"].as_array().map(Vec::len),
        Some(11),
        "{first}"
    );
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
        text.contains("skills/order_pizza/responses.yml:4:52"),
        "the unknown value at its line and column: {text}"
    );
    assert!(
        text.contains("error[utter.validation.condition.type_mismatch]"),
        "{text}"
    );
    // At the quoted number, with the fix.
    assert!(
        text.contains("skills/order_pizza/responses.yml:6:54"),
        "the quoted number at its line and column: {text}"
    );
    assert!(
        text.contains("help: write the number without quotes: `3`"),
        "{text}"
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
        .find(|l| l.contains("r.holds_value(e0"))
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
        stderr(&out)
            .contains("is not an agent folder: it holds no `responses.yml`, no `memory.yml`"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A repository's root given for its agent names the agent folders below
/// it (one or two levels down).
#[test]
fn a_folder_above_agents_names_them() {
    let dir = project(
        "above",
        &[
            ("README.md", "a repository"),
            ("agent/responses.yml", "responses:\n  utter_a:\n    - a\n"),
        ],
    );
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let agent = dir.join("agent");
    assert!(
        stderr(&out).contains(&format!("; did you mean `{}`?", agent.display())),
        "{}",
        stderr(&out)
    );
    std::fs::create_dir_all(dir.join("bots/two")).unwrap();
    std::fs::write(dir.join("bots/two/memory.yml"), "x: {type: int}\n").unwrap();
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert!(
        stderr(&out).contains(&format!(
            "; the agent folders below it are `{}`, `{}`",
            agent.display(),
            dir.join("bots/two").display()
        )),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// An agent that keeps its wording in prose (skills with a skill.md and no
/// responses.yml, as `rasa init` creates) is an agent: it is checked.
#[test]
fn an_agent_without_responses_is_checked() {
    let dir = project(
        "prose-only",
        &[(
            "skills/view_transactions/skill.md",
            "---\ndescription: Show recent transactions\n---\nList them.\n",
        )],
    );
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("ok: "), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_misspelt_agent_folder_gets_a_did_you_mean() {
    let dir = project("near", &[("agent/responses.yml", "responses: {}\n")]);
    let out = utter(&["check", dir.join("agnet").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("does not exist or is not a folder; did you mean `"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).trim_end().ends_with("/agent`?"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn deny_warnings_fails_on_warnings() {
    let typo = (
        "responses.yml",
        "responses:\n  utter_x:\n    - text: \"{nope}\"\n",
    );
    // A placeholder nothing fills is an error by default...
    let dir = project("warnings", &[typo]);
    let out = utter(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("error[utter.validation.response.unknown_placeholder]"));
    let _ = std::fs::remove_dir_all(dir);
    // ... and a warning where utter.yml lowers it.
    let lowered = (
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholder: warn\n",
    );
    let dir = project("warnings", &[typo, lowered]);
    let path = dir.to_str().unwrap();
    assert_eq!(utter(&["check", path]).status.code(), Some(0));
    let out = utter(&["check", path, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 warning"), "{}", stdout(&out));
    // A failing check never says `ok`.
    let verdict = stdout(&out).lines().last().unwrap_or_default().to_owned();
    assert!(
        verdict.starts_with("error: ") && verdict.ends_with("(warnings denied)"),
        "{verdict}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn only_check_mentions_deny_warnings() {
    for command in ["render", "expand"] {
        let out = utter(&[command, "--help"]);
        assert!(
            !stdout(&out).contains("deny-warnings"),
            "{command}: {}",
            stdout(&out)
        );
    }
    assert!(stdout(&utter(&["check", "--help"])).contains("--deny-warnings"));
}

#[test]
fn a_misspelt_categorical_value_points_at_the_literal_with_a_fix() {
    let dir = project(
        "lsot",
        &[
            (
                "skills/card/memory.yml",
                "schema:\n  public:\n    reason: {type: categorical, enum_values: [lost, stolen]}\n",
            ),
            (
                "skills/card/responses.yml",
                "responses:\n  utter_x:\n    - text: a\n      condition: session.card.reason == \"lsot\"\n    - text: b\n    - text: c\n",
            ),
        ],
    );
    let out = utter(&["check", dir.to_str().unwrap(), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let findings = json["findings"].as_array().unwrap();
    let enum_value = findings
        .iter()
        .find(|f| f["code"] == "utter.validation.condition.unknown_enum_value")
        .expect("the finding");
    // `condition: session.card.reason == "lsot"`: the literal starts in column 41.
    assert_eq!(
        (enum_value["line"].as_u64(), enum_value["column"].as_u64()),
        (Some(4), Some(41))
    );
    assert_eq!(enum_value["end_column"].as_u64(), Some(47));
    assert_eq!(enum_value["suggestion"], "\"lost\"");
    // Two defaults: the finding points at the second one, and is the
    // response's (`variant: null`), as the reference's is.
    let defaults = findings
        .iter()
        .find(|f| f["code"] == "mantle.validation.response.multiple_defaults")
        .expect("the finding");
    assert_eq!(
        (defaults["line"].as_u64(), defaults["variant"].as_u64()),
        (Some(6), None)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_tab_in_indentation_points_at_the_tab() {
    let dir = project(
        "tab",
        &[("responses.yml", "responses:\n  utter_t:\n\t- text: x\n")],
    );
    let out = utter(&["check", dir.to_str().unwrap(), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let f = &json["findings"][0];
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(
        f["help"],
        "indent with spaces: YAML does not allow tabs in indentation"
    );
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

mod schema;

/// A project with an error carrying a suggestion, a warning and a note.
const MIXED: &[(&str, &str)] = &[
    (
        "skills/s/memory.yml",
        "schema:\n  public:\n    reason: {type: text}\n    tags: {type: list}\n",
    ),
    (
        "skills/s/responses.yml",
        "responses:\n  utter_a:\n    - text: 'Tags: {session.s.tags}, {nmae}'\n      condition: session.s.reasn == \"x\"\n    - text: b\n",
    ),
    (
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholder: warn\n",
    ),
];

/// `explain`, `diff` and `render` JSON follow their versioned schemas
/// (docs/schemas, `additionalProperties: false`: a key the schema does not
/// document fails), over agents with every verdict, a rephrased variant,
/// a witness JSON cannot hold, moved states and a changed file.
#[test]
fn json_outputs_follow_their_versioned_schemas() {
    let schema = |name: &str| -> serde_json::Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/schemas")
            .join(name);
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("the schema parses")
    };
    let valid = |name: &str, doc: &serde_json::Value| {
        let schema = schema(name);
        let errors = schema::Validator::new(&schema).validate(doc);
        assert!(errors.is_empty(), "{name}: {errors:#?}\n{doc}");
        // The validator sees a key the schema does not document.
        let mut extra = doc.clone();
        extra["undocumented"] = true.into();
        assert_eq!(
            schema::Validator::new(&schema).validate(&extra).len(),
            1,
            "{name}"
        );
    };
    let before = project("schema-before", SHADOWED);
    let mut changed = SHADOWED.to_vec();
    changed[1].1 = "responses:\n  utter_fee:\n    - text: A fee of {session.card.reason} applies.\n      condition: session.card.reason == 'stolen'\n      metadata:\n        rephrase: true\n    - text: Standard.\n  utter_new:\n    - text: New.\n";
    let after = project("schema-after", &changed);
    let nan = project(
        "schema-nan",
        &[
            (
                "skills/s/memory.yml",
                "schema:\n  public:\n    f: {type: float}\n",
            ),
            (
                "skills/s/responses.yml",
                "responses:\n  utter_nan:\n    - text: not a number {session.s.f}\n      condition: not (session.s.f >= 0) and not (session.s.f < 0) and session.s.f != None\n    - text: other\n",
            ),
        ],
    );
    let (b, a, n) = (
        before.to_str().unwrap(),
        after.to_str().unwrap(),
        nan.to_str().unwrap(),
    );
    for (dir, response) in [(b, "utter_fee"), (a, "utter_fee"), (n, "utter_nan")] {
        let out = utter(&["explain", dir, response, "--format", "json"]);
        valid("explain.v1.json", &json(&out));
    }
    let example = example();
    let out = utter(&[
        "explain",
        &example,
        "utter_card_replacement_fee",
        "--skill",
        "card_replace",
        "--format",
        "json",
    ]);
    valid("explain.v1.json", &json(&out));
    let out = utter(&["diff", b, a, "--format", "json"]);
    let diff = json(&out);
    assert!(
        !diff["changed"][0]["moved"].as_array().unwrap().is_empty(),
        "{diff}"
    );
    assert_eq!(diff["added"], serde_json::json!(["utter_new"]));
    valid("diff.v1.json", &diff);
    let out = utter(&["diff", a, b, "--format", "json"]);
    valid("diff.v1.json", &json(&out));
    let memory = before.join("memory.json");
    std::fs::write(&memory, r#"{"card": {"reason": "lost"}}"#).unwrap();
    let memory = memory.to_str().unwrap();
    let render = [
        "render",
        b,
        "utter_fee",
        "--skill",
        "card",
        "--memory",
        memory,
    ];
    for args in [
        [&render[..], &["--format", "json"]].concat(),
        [&render[..], &["--explain", "--format", "json"]].concat(),
        vec!["render", b, "utter_nope", "--explain", "--format", "json"],
    ] {
        valid("render.v1.json", &json(&utter(&args)));
    }
    for dir in [before, after, nan] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let dir = project("sarif", MIXED);
    let out = utter(&["check", dir.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("data/sarif-2.1.0.json")).expect("the schema parses");
    let errors = schema::Validator::new(&schema).validate(&doc);
    assert!(errors.is_empty(), "{errors:#?}\n{doc}");
    // The validator does see a broken document.
    let mut broken = doc.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    assert_eq!(schema::Validator::new(&schema).validate(&broken).len(), 2);

    let run = &doc["runs"][0];
    let results = run["results"].as_array().expect("results");
    let levels: Vec<&str> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    // By file and position, as every format orders them.
    assert_eq!(levels, ["note", "warning", "error"], "{doc}");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    for r in results {
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"]);
        assert!(
            rule["help"]["text"].as_str().is_some_and(|t| t.len() > 20),
            "{rule}"
        );
    }
    // The unknown key's did-you-mean is a fix replacing the reference.
    let error = &results[2];
    assert_eq!(
        error["ruleId"],
        "mantle.validation.response.unknown_memory_key"
    );
    let location = &error["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        format!("{}/skills/s/responses.yml", dir.display())
    );
    assert_eq!(
        location["region"],
        serde_json::json!({"startLine": 4, "startColumn": 18, "endLine": 4, "endColumn": 33})
    );
    let replacement = &error["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(replacement["insertedContent"]["text"], "session.s.reason");
    assert_eq!(replacement["deletedRegion"], location["region"]);
}

#[test]
fn github_format_prints_workflow_commands() {
    let dir = project("github", MIXED);
    let out = utter(&["check", dir.to_str().unwrap(), "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let path = format!("{}/skills/s/responses.yml", dir.display());
    assert!(lines[0].starts_with("::notice file="), "{text}");
    assert!(lines[1].starts_with("::warning file="), "{text}");
    assert!(
        lines[2].starts_with(&format!(
            "::error file={path},line=4,col=18,endLine=4,endColumn=33,title=mantle.validation.response.unknown_memory_key::response `utter_a`, variant 0: references memory key `s.reasn`"
        )),
        "{text}"
    );
    assert!(
        lines[2].ends_with("%0Ahelp: did you mean `session.s.reason`?"),
        "{text}"
    );
    assert!(lines[3].starts_with("error: "), "the summary line: {text}");
    assert_eq!(lines.len(), 4, "{text}");
    // In GitHub Actions it is the default.
    let out = Command::new(env!("CARGO_BIN_EXE_utter"))
        .args(["check", dir.to_str().unwrap()])
        .env("GITHUB_ACTIONS", "true")
        .output()
        .expect("utter runs");
    assert_eq!(stdout(&out), text);
}

#[test]
fn json_fatal_errors_still_print_a_document() {
    let out = utter(&["check", "/definitely/not/here", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc = json(&out);
    assert_eq!(doc["version"], 2);
    assert!(
        doc["error"]
            .as_str()
            .is_some_and(|e| e.contains("/definitely/not/here")),
        "{doc}"
    );
}

#[test]
fn render_reads_memory_from_standard_input() {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_utter"))
        .args([
            "render",
            &example(),
            "utter_card_replacement_fee",
            "--skill",
            "card_replace",
            "--memory",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("utter runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(br#"{"card_replace": {"replacement_reason": "lost", "replacement_fee": 10.5}}"#)
        .expect("written");
    let out = child.wait_with_output().expect("utter ends");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("10.5"), "{}", stdout(&out));
}

#[test]
fn help_completions_and_colour() {
    let out = utter(&["help", "check"]);
    assert_eq!(out.status.code(), Some(0));
    for flag in [
        "--format",
        "--deny-warnings",
        "sarif",
        "github",
        "Exit codes",
    ] {
        assert!(stdout(&out).contains(flag), "{flag}: {}", stdout(&out));
    }
    assert_eq!(stdout(&out), stdout(&utter(&["check", "--help"])));
    let out = utter(&["chek"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'check'"), "{}", stderr(&out));
    for shell in ["bash", "zsh", "fish"] {
        let out = utter(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).contains("deny-warnings"), "{shell}");
    }
    let dir = project("colour", INVALID);
    let coloured = utter(&["check", dir.to_str().unwrap(), "--color", "always"]);
    assert!(
        stdout(&coloured).contains("\u{1b}["),
        "{}",
        stdout(&coloured)
    );
    let plain = utter(&["check", dir.to_str().unwrap()]);
    assert!(
        !stdout(&plain).contains('\u{1b}'),
        "not a terminal: no colour"
    );
}

const SHADOWED: &[(&str, &str)] = &[
    (
        "skills/card/memory.yml",
        "schema:\n  public:\n    reason: {type: categorical, enum_values: [lost, stolen, damaged]}\n",
    ),
    (
        "skills/card/responses.yml",
        "responses:\n  utter_fee:\n    - text: A fee applies.\n      condition: session.card.reason == 'lost' or session.card.reason == 'stolen'\n    - text: Free this month.\n      condition: session.card.reason == 'lost'\n    - text: Standard.\n",
    ),
];

#[test]
fn check_reports_a_shadowed_variant() {
    let dir = project("shadowed", SHADOWED);
    let out = utter(&["check", dir.to_str().unwrap(), "--format", "json"]);
    let json = json(&out);
    let found: Vec<(&str, u64)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap(),
                f["variant"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(found, [("utter.analysis.unreachable_variant", 1)], "{json}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn explain_gives_a_witness_or_a_reason_for_every_variant() {
    let dir = project("explain", SHADOWED);
    let path = dir.to_str().unwrap();
    let out = utter(&["explain", path, "utter_fee", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = json(&out);
    assert_eq!(json["skill"], "card");
    let variants = json["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3);
    assert_eq!(variants[0]["verdict"], "reachable");
    assert_eq!(
        variants[0]["witness"],
        serde_json::json!({"card": {"reason": "lost"}})
    );
    assert_eq!(variants[0]["example"], "A fee applies.");
    assert_eq!(variants[1]["verdict"], "unreachable");
    assert!(
        variants[1]["reason"]
            .as_str()
            .unwrap()
            .starts_with("shadowed by variant 0"),
        "{json}"
    );
    assert!(variants[1]["witness"].is_null());
    assert_eq!(variants[2]["witness"], serde_json::json!({}));
    assert_eq!(variants[2]["example"], "Standard.");
    // Each witness, given to `render --memory`, delivers its variant's text.
    for v in variants.iter().filter(|v| v["verdict"] == "reachable") {
        let memory = dir.join(format!("witness-{}.json", v["index"]));
        std::fs::write(&memory, v["witness"].to_string()).unwrap();
        let out = utter(&[
            "render",
            path,
            "utter_fee",
            "--skill",
            "card",
            "--memory",
            memory.to_str().unwrap(),
            "--format",
            "json",
        ]);
        let delivered = serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap();
        assert_eq!(delivered["variant"], v["index"], "{delivered}");
    }
    // People's form names the shadowing variant and its example.
    let out = utter(&["explain", path, "utter_fee"]);
    assert!(stdout(&out).contains("never delivered: shadowed by variant 0 (delivered, e.g., when session.card.reason = 'lost')"), "{}", stdout(&out));
    let out = utter(&["explain", path, "utter_nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `utter_fee`?"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn render_explain_says_why_the_variant_won() {
    let dir = project("render-explain", SHADOWED);
    let memory = dir.join("m.json");
    std::fs::write(&memory, r#"{"card": {"reason": "lost"}}"#).unwrap();
    let out = utter(&[
        "render",
        dir.to_str().unwrap(),
        "utter_fee",
        "--skill",
        "card",
        "--memory",
        memory.to_str().unwrap(),
        "--explain",
    ]);
    assert_eq!(stdout(&out).trim(), "A fee applies.");
    let err = stderr(&out);
    assert!(
        err.contains(
            "variant 0 `session.card.reason == 'lost' or session.card.reason == 'stolen'`: true"
        ),
        "{err}"
    );
    assert!(err.contains("variant 1 `session.card.reason == 'lost'`: true (not evaluated at delivery: an earlier variant won)"), "{err}");
    assert!(
        err.contains("delivered: variant 0, the first whose condition is true"),
        "{err}"
    );
    // With `--format json` the explanation is the `explanation` key of the
    // one object on stdout, and stderr stays free of it.
    let out = utter(&[
        "render",
        dir.to_str().unwrap(),
        "utter_fee",
        "--skill",
        "card",
        "--memory",
        memory.to_str().unwrap(),
        "--explain",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("delivered: variant"),
        "{}",
        stderr(&out)
    );
    let rendered = json(&out);
    assert_eq!(rendered["text"], "A fee applies.");
    let explanation = &rendered["explanation"];
    assert_eq!(explanation["rule"], "condition");
    assert_eq!(explanation["delivered_variant"], 0);
    assert_eq!(explanation["default_variant"], 2);
    assert_eq!(explanation["conditions"][0]["outcome"], true);
    assert_eq!(explanation["conditions"][1]["evaluated_at_delivery"], false);
    assert!(
        explanation["in_words"].as_str().is_some_and(
            |t| t.ends_with("delivered: variant 0, the first whose condition is true\n")
        ),
        "{explanation}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_example_agents_wording_matches_its_checked_in_snapshot() {
    let out = utter(&["snapshot", &example(), "--check"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).starts_with("ok: the wording matches"),
        "{}",
        stdout(&out)
    );
}

/// Writes `files` over a copy of SHADOWED into the folder `name`.
fn shadowed_with(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let mut all: Vec<(&str, &str)> = SHADOWED.to_vec();
    for (path, text) in files {
        all.retain(|(p, _)| p != path);
        all.push((path, text));
    }
    project(name, &all)
}

#[test]
fn snapshot_check_fails_on_every_kind_of_wording_change() {
    let dir = shadowed_with("snap", &[]);
    let path = dir.to_str().unwrap();
    assert_eq!(utter(&["snapshot", path]).status.code(), Some(0));
    assert_eq!(utter(&["snapshot", path, "--check"]).status.code(), Some(0));
    let responses = dir.join("skills/card/responses.yml");
    let original = std::fs::read_to_string(&responses).unwrap();
    for (what, from, to, shows) in [
        (
            "a changed text",
            "Standard.",
            "Standard fee.",
            "    + text \"Standard fee.\"",
        ),
        (
            "a condition that moves a wording",
            "or session.card.reason == 'stolen'",
            "or session.card.reason == 'damaged'",
            "damaged",
        ),
        (
            "a flipped rephrase flag",
            "    - text: Standard.\n",
            "    - text: Standard.\n      metadata:\n        rephrase: true\n",
            "    + rephrase true",
        ),
    ] {
        std::fs::write(&responses, original.replace(from, to)).unwrap();
        let out = utter(&["snapshot", path, "--check"]);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stdout(&out));
        let text = stdout(&out);
        assert!(text.contains(shows), "{what}: {text}");
        assert!(
            text.contains(&format!("once it is reviewed, run `utter snapshot {path}`")),
            "{text}"
        );
        let out = utter(&["snapshot", path, "--check", "--format", "github"]);
        assert!(
            stdout(&out).starts_with("::error file="),
            "{what}: {}",
            stdout(&out)
        );
        let out = utter(&["snapshot", path, "--check", "--format", "json"]);
        assert_eq!(json(&out)["changed"], true, "{what}");
        std::fs::write(&responses, &original).unwrap();
    }
    // Accepted once reviewed: written again, it matches.
    std::fs::write(&responses, original.replace("Standard.", "Standard fee.")).unwrap();
    assert_eq!(utter(&["snapshot", path]).status.code(), Some(0));
    assert_eq!(utter(&["snapshot", path, "--check"]).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

/// A snapshot that Git or an editor wrote with CR LF, a byte-order mark or
/// trailing spaces holds the same wording: `--check` says so by name, not
/// with line pairs that look the same.
#[test]
fn snapshot_check_names_invisible_differences() {
    let dir = shadowed_with("snap-invisible", &[]);
    let path = dir.to_str().unwrap();
    assert_eq!(utter(&["snapshot", path]).status.code(), Some(0));
    let snap = dir.join("responses.snap");
    let written = std::fs::read_to_string(&snap).unwrap();
    let lines = written.lines().count();
    std::fs::write(&snap, format!("\u{feff}{}", written.replace('\n', " \r\n"))).unwrap();
    let out = utter(&["snapshot", path, "--check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("holds the reviewed wording, written with characters a line diff does not show: the file starts with a byte-order mark (U+FEFF); "), "{text}");
    assert!(text.contains(&format!("{lines} lines end in CR LF (\\r\\n) where utter writes LF; {lines} lines end in spaces or tabs")), "{text}");
    assert!(
        text.contains("error: the snapshot file is not written as utter writes it"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "{text}");
    let out = utter(&["snapshot", path, "--check", "--format", "json"]);
    assert_eq!(
        json(&out)["summary"]["invisible"].as_array().unwrap().len(),
        3
    );
    assert_eq!(
        json(&out)["summary"]["changed"].as_array().unwrap().len(),
        0
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn snapshots_are_deterministic_whatever_the_listing_order() {
    let skills = |order: &[&str]| {
        let mut files: Vec<(String, String)> = Vec::new();
        for s in order {
            files.push((
                format!("skills/{s}/memory.yml"),
                "schema:\n  public:\n    n: {type: int}\n".to_owned(),
            ));
            files.push((format!("skills/{s}/responses.yml"), format!("responses:\n  utter_{s}:\n    - text: \"{s} {{session.{s}.n}}\"\n      condition: session.{s}.n > 2\n    - text: other\n")));
        }
        files
    };
    let write = |name: &str, order: &[&str]| {
        let files = skills(order);
        let borrowed: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        project(name, &borrowed)
    };
    let (a, b) = (
        write("order-a", &["zeta", "alpha", "mid"]),
        write("order-b", &["mid", "zeta", "alpha"]),
    );
    let snap = |dir: &PathBuf, out: &str| {
        let file = dir.join(out);
        assert_eq!(
            utter(&[
                "snapshot",
                dir.to_str().unwrap(),
                "--out",
                file.to_str().unwrap()
            ])
            .status
            .code(),
            Some(0)
        );
        std::fs::read_to_string(file).unwrap()
    };
    let first = snap(&a, "1.snap");
    assert_eq!(first, snap(&a, "2.snap"), "two runs");
    assert_eq!(first, snap(&b, "1.snap"), "another listing order");
    assert!(
        first.contains("    text \"zeta {session.zeta.n}\""),
        "{first}"
    );
    let _ = std::fs::remove_dir_all(a);
    let _ = std::fs::remove_dir_all(b);
}

#[test]
fn diff_shows_each_kind_of_change_and_what_needs_review_first() {
    let old = shadowed_with("diff-old", &[]);
    let changed = "responses:\n  utter_fee:\n    - text: A fee applies.\n      condition: session.card.reason == 'lost'\n    - text: Free this month.\n      condition: session.card.reason == 'stolen'\n    - text: Standard, reviewed.\n      metadata:\n        rephrase: true\n  utter_new:\n    - text: New.\n";
    let new = shadowed_with("diff-new", &[("skills/card/responses.yml", changed)]);
    let (o, n) = (old.to_str().unwrap(), new.to_str().unwrap());
    let out = utter(&["diff", o, n]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let review = text.split("Added").next().unwrap();
    assert!(review.starts_with("Review first"), "{text}");
    assert!(
        review.contains("utter_fee variant 2: was delivered verbatim, is now rephrased by an LLM"),
        "{text}"
    );
    // `stolen` delivered the fee and now delivers the free wording.
    assert!(review.contains("when session.card.reason = 'stolen': delivered \"A fee applies.\", now \"Free this month.\""), "{text}");
    assert!(
        text.contains("Added\n  utter_new\n    variant 0 (default): \"New.\""),
        "{text}"
    );
    assert!(
        text.contains("variant 2 text: \"Standard.\" -> \"Standard, reviewed.\""),
        "{text}"
    );
    assert!(
        text.contains("variant 1 reachability: unreachable -> reachable"),
        "{text}"
    );
    let md = stdout(&utter(&["diff", o, n, "--format", "markdown"]));
    assert!(
        md.starts_with("### Review first\n- `utter_fee` variant 2"),
        "{md}"
    );
    let j = json(&utter(&["diff", o, n, "--format", "json"]));
    assert_eq!(j["added"], serde_json::json!(["utter_new"]));
    assert_eq!(j["changed"][0]["now_rephrased"], serde_json::json!([2]));
    let removed = stdout(&utter(&["diff", n, o]));
    assert!(removed.contains("Removed\n  utter_new\n"), "{removed}");
    assert_eq!(stdout(&utter(&["diff", o, o])), "no wording changed\n");
    let _ = std::fs::remove_dir_all(old);
    let _ = std::fs::remove_dir_all(new);
}

/// Only NaN delivers this variant: JSON cannot hold it, so there is no
/// witness document (never a wrong or null memory) but the state in words,
/// and its text is still shown.
#[test]
fn a_witness_json_cannot_hold_is_null() {
    let dir = project(
        "nan",
        &[
            (
                "skills/s/memory.yml",
                "schema:\n  public:\n    f: {type: float}\n",
            ),
            (
                "skills/s/responses.yml",
                "responses:\n  utter_nan:\n    - text: not a number\n      condition: not (session.s.f >= 0) and not (session.s.f < 0) and session.s.f != None\n    - text: other\n",
            ),
        ],
    );
    let out = utter(&[
        "explain",
        dir.to_str().unwrap(),
        "utter_nan",
        "--format",
        "json",
    ]);
    let j = json(&out);
    assert_eq!(j["variants"][0]["verdict"], "reachable", "{j}");
    // No memory document (render would refuse a null one): words instead.
    assert!(j["variants"][0].get("witness").is_none(), "{j}");
    assert_eq!(
        j["variants"][0]["witness_in_words"], "session.s.f = nan",
        "{j}"
    );
    assert_eq!(j["variants"][0]["example"], "not a number");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_without_a_folder_checks_each_agent_below_a_repository_root() {
    let root = project("repo-root", &[("README.md", "not an agent\n")]);
    for (agent, text) in [("agent", "Hello."), ("bots/second", "")] {
        let dir = root.join(agent);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("responses.yml"),
            format!("responses:\n  utter_hi:\n    - text: {text:?}\n"),
        )
        .unwrap();
    }
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_utter"))
            .args(args)
            .current_dir(&root)
            .output()
            .unwrap()
    };
    // Both checked; the second has an empty text, so the run fails.
    let out = run(&["check", "--color", "never"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let shown = stdout(&out);
    assert!(shown.contains("ok: agent checked"), "{shown}");
    assert!(shown.contains("error: bots/second checked"), "{shown}");
    // A folder named explicitly is that folder only: not an agent, exit 2.
    let out = run(&["check", "."]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("agent"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_maestro_agent_is_checked_as_maestro_without_being_told() {
    let agent = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/maestro-agent");
    let out = utter(&["check", agent.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(json(&out)["findings"].as_array().unwrap().len(), 0);
    // The command line's choice wins: as Mantle, `utter_greet` is unknown.
    let out = utter(&[
        "check",
        agent.to_str().unwrap(),
        "--dialect",
        "mantle",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}

/// `utter snapshot --format html` writes the review report: one page with
/// every response of the snapshot, each variant's wording id beside it.
#[test]
fn snapshot_writes_a_self_contained_review_page() {
    let out = utter(&["snapshot", &example(), "--format", "html"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    let snap = std::fs::read_to_string(Path::new(&example()).join("responses.snap")).unwrap();
    let responses = snap.lines().filter(|l| l.starts_with("response ")).count();
    assert_eq!(
        page.matches("<details class=\"response\"").count(),
        responses
    );
    // A header a reviewer signs: the agent, the fingerprint, the day, the counts.
    let fingerprint = snap
        .lines()
        .find_map(|l| l.strip_prefix("fingerprint "))
        .unwrap();
    assert!(
        page.contains(fingerprint.trim_matches('"')),
        "the fingerprint"
    );
    assert!(page.contains("<th>Made on</th>") && page.contains("<th>Signature</th>"));
    assert!(page.contains(&format!("{responses} responses, ")));
    for id in snap.lines().filter_map(|l| l.trim().strip_prefix("id ")) {
        assert!(
            page.contains(&format!("<code>{id}</code>")),
            "wording id {id}"
        );
    }
    assert!(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"));
    let both = utter(&["snapshot", &example(), "--format", "html", "--check"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    // With SOURCE_DATE_EPOCH the page is made byte for byte again, dated by it.
    let dated = || {
        Command::new(env!("CARGO_BIN_EXE_utter"))
            .args(["snapshot", &example(), "--format", "html"])
            .env("SOURCE_DATE_EPOCH", "1796601600")
            .output()
            .expect("utter runs")
    };
    let (first, second) = (dated(), dated());
    assert_eq!(first.stdout, second.stdout);
    assert!(stdout(&first).contains("<th>Made on</th><td>2026-12-07</td>"));
}

/// `utter diff --format html`: the changed words marked, on one page.
#[test]
fn diff_writes_a_page_with_the_changed_words_marked() {
    let old = project(
        "diff-html-old",
        &[(
            "responses.yml",
            "responses:\n  utter_a:\n    - text: Hi <b>there</b>\n",
        )],
    );
    let new = project(
        "diff-html-new",
        &[(
            "responses.yml",
            "responses:\n  utter_a:\n    - text: Hello <b>there</b>\n",
        )],
    );
    let out = utter(&[
        "diff",
        &old.display().to_string(),
        &new.display().to_string(),
        "--format",
        "html",
    ]);
    let page = stdout(&out);
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", stderr(&out));
    assert!(
        page.contains("<del>Hi</del>") && page.contains("<ins>Hello</ins>"),
        "{page}"
    );
    assert!(!page.contains("<b>"), "{page}");
}

/// docs/cli-and-ci.md's synopsis names every option of every command as
/// `--help` lists it (the options every command takes on the last line),
/// and every value of a `--format` or `--strategy`.
#[test]
fn the_synopsis_names_every_option() {
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli-and-ci.md"),
    )
    .unwrap();
    let synopsis = docs
        .split("```text\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the synopsis block");
    let every = synopsis
        .lines()
        .find(|l| l.starts_with("# every command takes"))
        .expect("the line of the options every command takes");
    for command in ["check", "render", "expand", "explain", "snapshot", "diff"] {
        let line = synopsis
            .lines()
            .find(|l| l.starts_with(&format!("utter {command} ")))
            .unwrap_or_else(|| panic!("no synopsis line for {command}"));
        let help = stdout(&utter(&[command, "--help"]));
        for option in help.lines().map(str::trim_start) {
            let Some(flag) = option.split_whitespace().find(|w| w.starts_with("--")) else {
                continue;
            };
            if !option.starts_with("--") && !option.starts_with('-')
                || ["--help", "--version"].contains(&flag)
            {
                continue;
            }
            assert!(
                line.contains(flag) || every.contains(flag),
                "`utter {command}`'s {flag} is missing from the synopsis"
            );
            if let Some(values) = option
                .split("[possible values: ")
                .nth(1)
                .and_then(|v| v.split(']').next())
            {
                let written = if line.contains(flag) { line } else { every };
                for value in values.split(", ") {
                    assert!(
                        written.contains(value),
                        "`utter {command} {flag} {value}` is missing from the synopsis"
                    );
                }
            }
        }
    }
}

/// A project with errors says what was not done, in words, for each command.
#[test]
fn a_project_with_errors_says_what_was_not_done() {
    let dir = project(
        "not-done",
        &[(
            "responses.yml",
            "responses:\n  utter_a:\n    - condition: x\n",
        )],
    );
    let path = dir.to_str().unwrap();
    for (args, done) in [
        (vec!["snapshot", path], "nothing written to the snapshot"),
        (vec!["render", path, "utter_a"], "nothing rendered"),
        (vec!["expand", path], "nothing generated"),
    ] {
        let out = utter(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let last = stderr(&out)
            .trim_end()
            .lines()
            .last()
            .unwrap_or("")
            .to_owned();
        assert!(last.ends_with(done), "{args:?}: {last}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A folder name from outside is data: the check summary shows it escaped,
/// so no line starts with what the name holds (a forged workflow command)
/// and no terminal escape reaches stdout.
#[cfg(unix)]
#[test]
fn the_check_summary_shows_a_hostile_folder_name_as_data() {
    let base = project("hostile-folder", &[]);
    let dir = base.join("agent\n::error::forged\u{1b}[31m");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("responses.yml"),
        "responses:\n  utter_a:\n    - text: a\n",
    )
    .unwrap();
    for format in ["human", "github"] {
        let out = utter(&["check", dir.to_str().unwrap(), "--format", format]);
        let text = stdout(&out);
        assert!(
            !text.lines().any(|l| l.starts_with("::error::forged")),
            "{format}: {text}"
        );
        assert!(!text.contains('\u{1b}'), "{format}: {text:?}");
    }
    let _ = std::fs::remove_dir_all(base);
}

/// `explain` and `render --explain` escape every string from the agent
/// before the text is assembled: a newline in a response text, condition
/// literal or value never starts a line of its own.
#[test]
fn explanations_never_start_a_line_with_data() {
    let dir = project(
        "explain-hostile",
        &[
            ("memory.yml", "mode:\n  type: text\n"),
            (
                "responses.yml",
                "responses:\n  utter_a:\n    - text: \"first\\n::error file=x.yml,line=1::forged\"\n      condition: \"session.project.mode == 'x\\u2028::error file=x.yml,line=1::forged'\"\n    - text: \"b\\n::error file=x.yml,line=1::forged\"\n",
            ),
        ],
    );
    let path = dir.to_str().unwrap();
    let memory = dir.join("m.json");
    std::fs::write(
        &memory,
        "{\"project\": {\"mode\": \"x\\n::error file=x.yml,line=1::forged\"}}",
    )
    .unwrap();
    for args in [
        vec!["explain", path, "utter_a"],
        vec![
            "render",
            path,
            "utter_a",
            "--explain",
            "--memory",
            memory.to_str().unwrap(),
        ],
    ] {
        let out = utter(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        // `render`'s stdout is the product, the delivered text exactly (its
        // JSON form escapes); everything around it is checked.
        let product = args[0] == "render";
        let all = if product {
            stderr(&out)
        } else {
            format!("{}{}", stdout(&out), stderr(&out))
        };
        assert!(all.contains("forged"), "{args:?}: the data is shown: {all}");
        for line in all.lines() {
            assert!(!line.starts_with("::error"), "{args:?}: {line}");
        }
        assert!(!all.contains('\u{2028}'), "{args:?}: {all:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A hostile snapshot file costs a check linear work: a million lines the
/// agent never writes are counted, not diffed; a file of the agent's own
/// lines repeated is diffed with the printed diff cut; a file over the
/// size limit is refused, saying so.
#[test]
fn hostile_snapshot_files_are_checked_in_bounded_work() {
    let dir = project(
        "hostile-snapshot",
        &[("responses.yml", "responses:\n  utter_a:\n    - text: a\n")],
    );
    let path = dir.to_str().unwrap();
    let snap = dir.join("hostile.snap");
    let foreign: String = (0..1_000_000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(&snap, foreign).unwrap();
    let out = utter(&["snapshot", path, "--check", "--out", snap.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    // Summed up in a few lines; the JSON's line diff counted, not diffed.
    assert!(
        stdout(&out)
            .contains("changed: responses 0 changed, 1 added, 0 removed\n  added \"utter_a\"\n"),
        "{}",
        stdout(&out)
    );
    // `--check --format json` against the hostile file: its line diff.
    let json_diff = || {
        let out = utter(&[
            "snapshot",
            path,
            "--check",
            "--format",
            "json",
            "--out",
            snap.to_str().unwrap(),
        ]);
        json(&out)["diff"].as_str().unwrap().to_owned()
    };
    let diff = json_diff();
    assert!(
        diff.starts_with(
            "1000000 of the 1000000 lines of the snapshot file are not in the agent's snapshot"
        ),
        "{diff}"
    );
    let ours = utter(&[
        "snapshot",
        path,
        "--out",
        dir.join("ours.snap").to_str().unwrap(),
    ]);
    assert_eq!(ours.status.code(), Some(0));
    let ours = std::fs::read_to_string(dir.join("ours.snap")).unwrap();
    let repeated: String = ours
        .lines()
        .cycle()
        .take(200_000)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&snap, repeated).unwrap();
    let out = utter(&["snapshot", path, "--check", "--out", snap.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let printed = stdout(&out);
    assert!(printed.lines().count() < 40, "{printed}");
    let diff = json_diff();
    assert!(
        diff.lines().count() < 2_100,
        "{} lines",
        diff.lines().count()
    );
    assert!(diff.contains("the rest of the diff is not shown (cut at 2000 lines)"));
    std::fs::write(&snap, vec![b'x'; 33 * 1024 * 1024]).unwrap();
    let out = utter(&["snapshot", path, "--check", "--out", snap.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is larger than 32 MiB"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}
