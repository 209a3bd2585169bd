//! Writes the benchmark agents (one for the delivery cases, scaled ones of
//! 10 to 10,000 responses) under `$OUT_DIR/agents` and their generated code.

use std::path::{Path, PathBuf};

use utter_compiler::{Agent, OpenOptions, ProjectFiles, codegen};

/// The delivery cases, each a response of the `bench` agent.
const BENCH_RESPONSES: &str = r#"responses:
  utter_literal:
    - text: Thanks for calling. Goodbye!
  utter_first_true:
    - text: First condition holds.
      condition: session.bench.reason == "lost"
    - text: Second.
      condition: session.bench.reason == "stolen"
    - text: Third.
      condition: session.bench.count > 100
    - text: Default.
  utter_last_true:
    - text: One.
      condition: session.bench.reason == "stolen"
    - text: Two.
      condition: session.bench.reason == "damaged"
    - text: Three.
      condition: session.bench.count > 100
    - text: Last condition holds.
      condition: session.bench.reason == "lost" and session.bench.count == 3
    - text: Default.
  utter_default_after_10:
    - text: c0
      condition: session.bench.count == 10
    - text: c1
      condition: session.bench.count == 11
    - text: c2
      condition: session.bench.count == 12
    - text: c3
      condition: session.bench.count == 13
    - text: c4
      condition: session.bench.count == 14
    - text: c5
      condition: session.bench.count == 15
    - text: c6
      condition: session.bench.count == 16
    - text: c7
      condition: session.bench.count == 17
    - text: c8
      condition: session.bench.count == 18
    - text: c9
      condition: session.bench.count == 19
    - text: Default after ten false conditions.
  utter_error_skipped:
    - text: Skipped, the comparison is an error.
      condition: session.bench.reason < 5
    - text: The next condition holds.
      condition: session.bench.reason == "lost"
    - text: Default.
  utter_three_placeholders:
    - text: "Card {session.bench.card}, reason {session.bench.reason}, fee {fee}."
"#;

const BENCH_MEMORY: &str =
    "schema:\n  public:\n    reason: {}\n    card: {}\n    count: {}\n  private:\n    fee: {}\n";

/// The same agent with memory.yml types: what the typed path runs on. The
/// error case orders an `any` entry holding a string (an ordering of the
/// declared categorical against an int would be a finding).
const TYPED_MEMORY: &str = "schema:\n  public:\n    reason: {type: categorical, enum_values: [lost, stolen, damaged]}\n    card: {type: text}\n    count: {type: int}\n    note: {type: any}\n  private:\n    fee: {type: float}\n";

/// Agents of (responses, distinct shapes of selection) whose straight-line
/// build cost `build_cost.py --shapes` measures (what
/// `STRAIGHT_LINE_BUDGET` was set from).
const SHAPED: [(usize, usize); 8] = [
    (1_000, 1),
    (1_000, 100),
    (1_000, 200),
    (1_000, 300),
    (1_000, 1_000),
    (1_500, 1),
    (2_000, 1),
    (2_100, 1),
];

fn write_agent(dir: &Path, files: &[(String, String)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent folder"))
            .expect("OUT_DIR is writable");
        std::fs::write(path, text).expect("OUT_DIR is writable");
    }
}

fn generate(out: &Path, name: &str, files: &[(String, String)]) {
    generate_as(out, name, files, codegen::Strategy::Auto);
}

fn generate_as(out: &Path, name: &str, files: &[(String, String)], strategy: codegen::Strategy) {
    write_agent(&out.join("agents").join(name), files);
    let project = ProjectFiles::from_files(
        files
            .iter()
            .map(|(p, t)| (p.clone(), t.clone().into_bytes())),
    );
    let registry = Agent::from_files(project.clone(), OpenOptions::default())
        .into_registry()
        .1
        .unwrap_or_else(|e| panic!("agent {name} is invalid: {:?}", e[0].one_line()));
    std::fs::write(
        out.join(format!("gen_{name}.rs")),
        codegen::generate_with(&registry, strategy).to_string(),
    )
    .expect("OUT_DIR is writable");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    generate(
        &out,
        "bench",
        &[
            (
                "skills/bench/memory.yml".to_owned(),
                BENCH_MEMORY.to_owned(),
            ),
            (
                "skills/bench/skill.md".to_owned(),
                utter_synth::SKILL_MD.to_owned(),
            ),
            (
                "skills/bench/responses.yml".to_owned(),
                BENCH_RESPONSES.to_owned(),
            ),
        ],
    );
    let typed = [
        (
            "skills/bench/memory.yml".to_owned(),
            TYPED_MEMORY.to_owned(),
        ),
        (
            "skills/bench/skill.md".to_owned(),
            utter_synth::SKILL_MD.to_owned(),
        ),
        (
            "skills/bench/responses.yml".to_owned(),
            BENCH_RESPONSES.replace("session.bench.reason < 5", "session.bench.note < 5"),
        ),
    ];
    generate(&out, "typed", &typed);
    // The same agent in the compact form large agents get.
    generate_as(&out, "typed_compact", &typed, codegen::Strategy::Compact);
    // 1,500: straight-line by the build budget, and `select` in two parts.
    for n in [10, 100, 1_000, 1_500, 10_000] {
        generate(&out, &format!("n{n}"), &utter_synth::scaled_project(n, 3));
    }
    // For the build-cost script only (benches/build_cost.py): no code.
    write_agent(
        &out.join("agents").join("n3000"),
        &utter_synth::scaled_project(3_000, 3),
    );
    for (responses, shapes) in SHAPED {
        write_agent(
            &out.join("agents")
                .join(format!("shaped-n{responses}-s{shapes}")),
            &utter_synth::shaped_project(responses, shapes),
        );
    }
}
