//! Any bytes as a project (split into responses.yml, memory.yml, a skill's
//! files at 0xFF bytes): checking never panics, findings point inside their
//! files, the same input gives the same findings, and a valid project
//! delivers every response and generates code.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utter_compiler::{Agent, OpenOptions, ProjectFiles, codegen};

const PATHS: [&str; 5] = [
    "responses.yml",
    "memory.yml",
    "skills/s/responses.yml",
    "skills/s/memory.yml",
    "skills/s/skill.md",
];

fuzz_target!(|data: &[u8]| {
    let files = ProjectFiles::from_files(
        PATHS
            .iter()
            .zip(data.split(|&b| b == 0xFF))
            .map(|(p, b)| (p.to_string(), b.to_vec())),
    );
    let (checked, lowered) =
        Agent::from_files(files.clone(), OpenOptions::default()).into_registry();
    for f in &checked.findings {
        if let Some(source) = checked.source(&f.file) {
            assert!(
                f.span.start <= f.span.end && f.span.end <= source.text.len(),
                "{f:?}"
            );
        }
    }
    assert_eq!(
        Agent::from_files(files.clone(), OpenOptions::default())
            .into_checked()
            .findings,
        checked.findings
    );
    if let Ok(registry) = lowered {
        let memory = utter::MapMemory::new();
        let interpreter = registry.interpreter();
        let skills = registry.skills.iter().map(|s| Some(s.as_str()));
        for skill in [None].into_iter().chain(skills) {
            let ctx = match skill {
                Some(s) => utter::Context::for_skill_id(&memory, s, &registry.skills)
                    .expect("a skill of the registry"),
                None => utter::Context::new(&memory),
            };
            for response in &registry.responses {
                let d = interpreter.deliver(&response.name, &ctx);
                assert!(d.fallback || d.variant.is_some());
            }
        }
        // Output stays bounded whatever the input: aliases expand at most to
        // the YAML budgets (16 MiB of text, 250,000 nodes a document).
        let generated = codegen::generate(&registry).to_string();
        assert!(
            generated.len() <= 128 << 20,
            "{} bytes of code from {} bytes of input",
            generated.len(),
            data.len()
        );
    }
});
