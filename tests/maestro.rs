//! The Maestro dialect: the first entry of each response is delivered, a
//! `condition` is a finding, and the bundled `default_session_start` greets
//! with `utter_greet`, which a project may deliver and override.

use utter_compiler::bundled::Dialect;
use utter_compiler::{Agent, OpenOptions, ProjectFiles, codes};

mod maestro_agent {
    utter::include_responses!("../examples/maestro-agent", maestro);
}

/// The same agent without the option: its utter.yml says `dialect: maestro`.
mod maestro_declared {
    utter::include_responses!("../examples/maestro-agent");
}

#[test]
fn the_agent_declares_its_dialect_to_every_way_in() {
    use utter_compiler::codes;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/maestro-agent");
    // Read: the declared dialect, clean.
    let files = ProjectFiles::read(&dir).expect("the example reads");
    assert_eq!(files.dialect(), Dialect::Maestro);
    assert!(
        Agent::from_files(files.clone(), OpenOptions::default())
            .into_checked()
            .findings
            .is_empty()
    );
    // The macro: the bundled greeting exists.
    assert!(maestro_declared::Response::UtterGreet.is_bundled());
    // A bad setting is a finding at its place, and Mantle stays the default.
    let bad = ProjectFiles::from_files([
        ("responses.yml", "responses:\n  utter_a:\n    - text: a\n"),
        ("utter.yml", "dialect: maestr\ncolour: red\n"),
    ]);
    assert_eq!(bad.dialect(), Dialect::Mantle);
    let checked = Agent::from_files(bad.clone(), OpenOptions::default()).into_checked();
    let dialect = checked
        .findings
        .iter()
        .find(|f| f.file == "utter.yml")
        .expect("a finding at the dialect");
    assert_eq!(
        dialect.message,
        "`dialect` is `maestr`, which is no dialect (the dialects are `mantle` and `maestro`)"
    );
    let found: Vec<(&str, usize, Option<&str>)> = checked
        .findings
        .iter()
        .filter(|f| f.file == "utter.yml")
        .map(|f| (f.code, f.line, f.help.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (
                codes::SETTINGS_INVALID,
                1,
                Some("write `dialect: mantle` or `dialect: maestro`")
            ),
            (
                codes::SETTINGS_INVALID,
                2,
                Some("remove it (the settings are `dialect` and `lints`)")
            ),
        ]
    );
}

/// `files` checked in `dialect`, as the CLI's `--dialect` opens them.
fn in_dialect(files: ProjectFiles, dialect: Dialect) -> utter_compiler::Checked {
    let options = utter_compiler::OpenOptions {
        dialect: Some(dialect),
        ..Default::default()
    };
    utter_compiler::Agent::from_files(files, options).into_checked()
}

fn example(dialect: Dialect) -> utter_compiler::Checked {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/maestro-agent");
    let files = ProjectFiles::read(&dir).expect("the example reads");
    in_dialect(files, dialect)
}

#[test]
fn the_maestro_example_checks_clean_compiles_and_delivers() {
    assert!(
        example(Dialect::Maestro).findings.is_empty(),
        "{:?}",
        example(Dialect::Maestro).findings
    );
    use maestro_agent::{Memory, Response, Skill};
    let mut memory = Memory::new();
    memory.order_status.order_id = Some("A-17".into());
    memory.order_status.status = Some(maestro_agent::Status::Shipped);
    memory.project.customer_name = Some("Ada".into());
    let view = memory.view(Skill::OrderStatus);
    assert_eq!(
        view.deliver(Response::UtterOrderStatus).text,
        "Order A-17 is shipped."
    );
    assert_eq!(
        view.deliver(Response::UtterGoodbye).text,
        "Thanks for calling, Ada. Goodbye!"
    );
    // The bundled greeting, delivered by the skill's `on: activate` trigger.
    let greet = view.deliver(Response::UtterGreet);
    assert!(greet.rephrase && !greet.fallback, "{greet:?}");
    assert_eq!(
        Skill::OrderStatus.responses().on_activate,
        [Response::UtterGreet]
    );
    assert!(Response::UtterGreet.is_bundled() && Response::UtterAskHowToHelp.is_bundled());
    // The bundled session start greets: its table says so.
    assert_eq!(
        Skill::DefaultSessionStart.responses().on_activate,
        [Response::UtterGreet]
    );
}

/// Under Mantle the same agent reports what Mantle would: 3.21.0's bundled
/// layer has no `utter_greet`.
#[test]
fn the_same_agent_under_mantle_misses_utter_greet() {
    let checked = example(Dialect::Mantle);
    let found: Vec<(&str, Option<&str>)> = checked
        .findings
        .iter()
        .map(|f| (f.code, f.response.as_deref()))
        .collect();
    assert_eq!(
        found,
        [(codes::TRIGGER_UNKNOWN_RESPONSE, Some("utter_greet"))]
    );
}

#[test]
fn a_condition_in_a_maestro_agent_is_an_error_with_the_fix() {
    let files = ProjectFiles::from_files([(
        "responses.yml".to_owned(),
        b"responses:\n  utter_greet:\n    - text: Hi VIP\n      condition: session.project.vip\n    - text: Hi\n".to_vec(),
    ), ("memory.yml".to_owned(), b"vip: {type: bool}\n".to_vec())]);
    let checked = in_dialect(files.clone(), Dialect::Maestro);
    let found: Vec<(&str, Option<usize>)> = checked
        .findings
        .iter()
        .map(|f| (f.code, f.variant))
        .collect();
    assert_eq!(
        found,
        [(codes::MAESTRO_CONDITION, Some(0))],
        "{:?}",
        checked.findings
    );
    assert!(
        checked.findings[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("--dialect mantle"))
    );
    // The project's `utter_greet` overrides the bundled one.
    assert!(in_dialect(files, Dialect::Mantle).findings.is_empty());
}

/// Under Maestro a second plain variant is never delivered, and the help
/// says to remove it: never to add a `condition`, which Maestro refuses.
#[test]
fn maestro_help_never_suggests_a_condition() {
    let files = ProjectFiles::from_files([(
        "responses.yml",
        "responses:\n  utter_a:\n    - one\n    - two\n",
    )]);
    let checked = in_dialect(files.clone(), Dialect::Maestro);
    let finding = checked
        .findings
        .iter()
        .find(|f| f.code == codes::UNREACHABLE_VARIANT)
        .expect("the second variant is never delivered");
    let help = finding.help.as_deref().unwrap_or_default();
    assert!(help.starts_with("remove it"), "{help}");
    assert!(!help.contains("condition"), "{help}");
}
