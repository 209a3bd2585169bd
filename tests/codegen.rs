//! The generated code: compile errors through `include_responses!`
//! (trybuild), a reviewed snapshot of the expansion (insta), determinism
//! and rebuild tracking.

use std::path::{Path, PathBuf};

use utter_compiler::{Agent, OpenOptions, ProjectFiles, codegen};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn example_agent() -> PathBuf {
    manifest_dir().join("../examples/card-agent")
}

fn example_source() -> String {
    let files = ProjectFiles::read(&example_agent()).expect("the example agent reads");
    let registry = Agent::from_files(files.clone(), OpenOptions::default())
        .into_registry()
        .1
        .expect("the example agent is valid");
    codegen::pretty(codegen::generate(&registry), codegen::HEADER).expect("generated code parses")
}

/// trybuild builds the cases in `<target>/tests/trybuild/utter-tests`, so
/// `include_responses!` resolves paths there: link the fixtures in (askama's approach).
fn trybuild_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    // <target>/<profile>/deps/codegen-<hash>
    let target = exe.ancestors().nth(3).expect("target dir").to_path_buf();
    target.join("tests").join("trybuild").join("utter-tests")
}

fn link_fixtures() {
    let dir = trybuild_dir();
    std::fs::create_dir_all(&dir).expect("trybuild dir");
    let link = dir.join("ui-fixtures");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(manifest_dir().join("ui-fixtures"), &link).expect("fixture link");
}

/// The snapshot as a compilable program, for trybuild's `pass`.
fn snapshot_program() -> PathBuf {
    let snap = std::fs::read_to_string(
        manifest_dir().join("snapshots/codegen__card_agent_expansion.snap"),
    )
    .expect("the expansion snapshot exists");
    // An insta snapshot: a `---`-delimited header, then the body.
    let body = snap.splitn(3, "---\n").nth(2).expect("snapshot body");
    let program = format!(
        "mod responses {{\n{body}\n}}\n\nfn main() {{\n    let memory = responses::memory();\n    let ctx = utter::Context::new(&memory);\n    for r in responses::Response::ALL {{\n        let _ = responses::deliver(*r, &ctx);\n    }}\n}}\n"
    );
    let dir = trybuild_dir().join("pass");
    std::fs::create_dir_all(&dir).expect("pass dir");
    let path = dir.join("expanded_card_agent.rs");
    std::fs::write(&path, program).expect("pass program");
    path
}

#[test]
fn compile_errors_and_expanded_code_compile() {
    link_fixtures();
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/fail/*.rs");
    cases.pass("ui/pass/*.rs");
    cases.pass(snapshot_program());
}

#[test]
fn card_agent_expansion() {
    insta::assert_snapshot!(example_source());
}

#[test]
fn expansions_are_byte_identical() {
    assert_eq!(example_source(), example_source());
    let open = || Agent::open(&example_agent(), OpenOptions::default()).unwrap();
    let a = codegen::expand(&open(), proc_macro2::Span::call_site(), &[]).to_string();
    let b = codegen::expand(&open(), proc_macro2::Span::call_site(), &[]).to_string();
    assert_eq!(a, b);
}

#[test]
fn the_expansion_tracks_every_file_it_read() {
    let files = ProjectFiles::read(&example_agent()).unwrap();
    let read: Vec<PathBuf> = files
        .files
        .keys()
        .map(|label| example_agent().join(label))
        .collect();
    let paths: Vec<&Path> = read.iter().map(PathBuf::as_path).collect();
    let agent = Agent::from_files(files, OpenOptions::default());
    let tokens = codegen::expand(&agent, proc_macro2::Span::call_site(), &paths).to_string();
    assert!(read.len() >= 8, "{read:?}");
    for path in &read {
        let include = format!("include_bytes ! ({:?})", path.display().to_string());
        assert!(
            tokens.contains(&include),
            "no tracking of {}",
            path.display()
        );
    }
}

mod card_agent {
    utter::include_responses!("../examples/card-agent");
}

#[test]
fn generated_skills_expose_their_typed_responses() {
    use card_agent::{Response, Skill};
    assert_eq!(
        Skill::ALL,
        [
            Skill::CardDisambiguation,
            Skill::CardReplace,
            Skill::DefaultCompleted,
            Skill::DefaultContinueInterrupted,
            Skill::DefaultCustomerSatisfaction,
            Skill::DefaultSessionStart,
            Skill::DefaultSilenceTimeout,
            Skill::DefaultSilenceTimeoutHangup,
            Skill::DefaultUnsupportedRequestHandler,
            Skill::IdentityCheck
        ],
        "bundled default skills are part of the typed skill set"
    );
    assert_eq!(Skill::from_id("card_replace"), Some(Skill::CardReplace));
    assert_eq!(Skill::CardReplace.id(), "card_replace");
    let skill = Skill::CardReplace.responses();
    assert_eq!(skill.on_activate, [Response::UtterRecordingNotice]);
    let tool = skill.tool("process_card_replacement").expect("constraint");
    assert_eq!(tool.on_success, Some(Response::UtterCardReplaceCompleted));
    assert_eq!(tool.on_failure, Some(Response::UtterReplacementFailed));
    assert_eq!(
        tool.utter_for_confirmation,
        Some(Response::UtterConfirmOrder)
    );
    assert_eq!(
        tool.utter_on_user_denial,
        Some(Response::UtterReplacementCancelled)
    );
    let step = skill.step("order", "ask_shipping").expect("step");
    assert_eq!(
        (step.kind, step.response),
        (utter::StepKind::Utterance, Response::UtterAskShipping)
    );
    let alias = Skill::IdentityCheck
        .responses()
        .step("verify", "failed")
        .expect("utter: alias");
    assert_eq!(alias.response, Response::UtterIdentityFailed);

    let mut memory = card_agent::memory();
    let ctx = utter::Context::for_skill(&memory, Skill::CardReplace);
    assert!(!skill.when[0].holds(&ctx));
    memory
        .set("card_replace", "replacement_reason", "stolen")
        .unwrap();
    let ctx = utter::Context::for_skill(&memory, Skill::CardReplace);
    assert_eq!(skill.when[0].response, Response::UtterStolenWarning);
    assert!(skill.when[0].holds(&ctx));
}

#[test]
fn large_agents_compile_compact_unless_told_otherwise() {
    let generated = |files: Vec<(String, String)>, strategy: codegen::Strategy| {
        let files = ProjectFiles::from_files(
            files
                .into_iter()
                .map(|(path, text)| (path, text.into_bytes())),
        );
        let registry = Agent::from_files(files.clone(), OpenOptions::default())
            .into_registry()
            .1
            .expect("a valid synthetic project");
        codegen::generate_with(&registry, strategy).to_string()
    };
    let is_compact = |code: &str| code.contains("static PROGRAM");
    let auto = codegen::Strategy::Auto;
    let budget = codegen::STRAIGHT_LINE_BUDGET;
    // Responses of one shape: the budget counts responses (the bundled
    // system responses and default skills too, and their few shapes).
    let scaled = |responses| utter_synth::scaled_project(responses, 2);
    assert!(!is_compact(&generated(scaled(budget - 150), auto)));
    assert!(is_compact(&generated(scaled(budget + 1), auto)));
    // Each distinct shape costs `SHAPE_COST` responses: as many responses
    // as the budget has shapes are compact when each has its own shape,
    // straight-line when they share 10.
    let shapes = (budget / codegen::SHAPE_COST).min(1_000);
    assert!(is_compact(&generated(
        utter_synth::shaped_project(shapes, shapes),
        auto
    )));
    assert!(!is_compact(&generated(
        utter_synth::shaped_project(shapes, 10),
        auto
    )));
    assert!(!is_compact(&generated(
        utter_synth::shaped_project(shapes, shapes),
        codegen::Strategy::StraightLine
    )));
    assert!(is_compact(&generated(
        scaled(3),
        codegen::Strategy::Compact
    )));
    assert!(!is_compact(&generated(
        scaled(budget + 1),
        codegen::Strategy::StraightLine
    )));
    // The private module says which form was picked and why.
    let said = |code: &str, text: &str| code.contains(text);
    let few = generated(utter_synth::shaped_project(shapes, 10), auto);
    assert!(said(
        &few,
        "Responses compiled as straight-line code: build cost"
    ));
    let many = generated(utter_synth::shaped_project(shapes, shapes), auto);
    assert!(said(&many, "Responses compiled as the compact form"));
    assert!(said(&many, &format!("of a budget of {budget}")));
    assert!(said(
        &generated(scaled(budget + 1), auto),
        "responses exceed the straight-line budget"
    ));
    assert!(said(
        &generated(scaled(3), codegen::Strategy::Compact),
        "as asked."
    ));
    // Both forms select by compiled code; only straight-line code has a
    // static of variant records per response.
    let compact = generated(scaled(3), codegen::Strategy::Compact);
    let straight = generated(scaled(3), codegen::Strategy::StraightLine);
    assert!(compact.contains("fn s0") && straight.contains("fn s0"));
    assert!(!compact.contains("static V0") && straight.contains("static V0"));
    // The compact form compiles the selection of the first
    // `COMPILED_SELECTIONS` responses with conditions, and of no more: the
    // program walks the others' conditions.
    let compiled = codegen::COMPILED_SELECTIONS;
    let arms = |code: &str| code.matches("=> Compiled (s0 (r ,").count();
    assert_eq!(arms(&compact), 3);
    assert_eq!(
        arms(&generated(
            scaled(compiled + 40),
            codegen::Strategy::Compact
        )),
        compiled
    );
}

#[test]
fn the_budget_counts_responses_and_shapes() {
    use codegen::{SHAPE_COST, STRAIGHT_LINE_BUDGET, Strategy};
    let auto = Strategy::Auto;
    assert!(!auto.is_compact(STRAIGHT_LINE_BUDGET - 2 * SHAPE_COST, 2));
    assert!(auto.is_compact(STRAIGHT_LINE_BUDGET - 2 * SHAPE_COST, 3));
    assert!(auto.is_compact(STRAIGHT_LINE_BUDGET + 1, 0));
    assert!(auto.is_compact(usize::MAX, usize::MAX));
    assert!(!Strategy::StraightLine.is_compact(usize::MAX, usize::MAX));
    assert!(Strategy::Compact.is_compact(0, 0));
}

/// The audit trail: the compiled agent's fingerprint is the committed
/// snapshot's, and every delivery names the id the snapshot prints beside
/// the variant it delivered.
#[test]
fn deliveries_name_the_reviewed_wording_of_the_snapshot() {
    use card_agent::{Response, Skill};
    let snap = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/card-agent/responses.snap"),
    )
    .unwrap();
    let fingerprint = snap
        .lines()
        .find_map(|l| l.strip_prefix("fingerprint "))
        .expect("the snapshot's fingerprint line");
    assert_eq!(card_agent::WORDING_FINGERPRINT, fingerprint);
    // (response, variant) -> id, as the snapshot prints them.
    let mut ids = std::collections::HashMap::new();
    let (mut response, mut variant) = (String::new(), 0usize);
    for line in snap.lines() {
        if let Some(name) = line.strip_prefix("response ") {
            response = name.trim_matches('"').to_owned();
        } else if let Some(n) = line.trim().strip_prefix("variant ") {
            variant = n.parse().unwrap();
        } else if let Some(id) = line.trim().strip_prefix("id ") {
            ids.insert((response.clone(), variant), id.to_owned());
        }
    }
    let mut checked = 0;
    let mut memory = card_agent::Memory::new();
    memory.project.customer_name = Some("Ada".into());
    for skill in [None, Some(Skill::CardReplace), Some(Skill::IdentityCheck)] {
        let view = memory.view(skill);
        for &r in Response::ALL {
            let d = view.deliver(r);
            assert_eq!(view.render(r).wording, d.wording);
            let (Some(variant), false) = (d.variant, r.is_bundled()) else {
                continue;
            };
            let shown = d
                .wording
                .expect("a delivered variant has an id")
                .to_string();
            assert_eq!(
                ids.get(&(r.name().to_owned(), variant)),
                Some(&shown),
                "{r:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} deliveries checked");
    assert_eq!(
        card_agent::deliver_name("utter_no_such", &utter::Context::new(&memory)).wording,
        None
    );
}
