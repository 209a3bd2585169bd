//! Hostile input: every resource limit gives a finding in bounded time and
//! memory; generated code stays well-formed for any name or text; values are
//! never re-expanded; output is deterministic.

use proptest::prelude::*;
use utter_compiler::{Agent, OpenOptions, codegen, codes};
use utter_tests::{checked, deliver, memory, project, registry, with_code};

fn codes_of(checked: &utter_compiler::Checked) -> Vec<&'static str> {
    checked.findings.iter().map(|f| f.code).collect()
}

#[test]
fn alias_bombs_are_refused() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    text.push_str("responses:\n  r:\n    - *a11\n");
    let checked = checked(&[("responses.yml", &text)]);
    assert_eq!(codes_of(&checked), [codes::YAML_LIMIT]);
    assert!(
        checked.findings[0].message.contains("alias"),
        "{}",
        checked.findings[0].message
    );
}

#[test]
fn deep_yaml_nesting_is_refused() {
    let flow = format!("responses: {}", "[".repeat(100_000));
    let checked = checked(&[("responses.yml", &flow)]);
    assert_eq!(checked.findings.len(), 1, "{:?}", checked.findings);
    let closed = format!(
        "responses:\n  r:\n    - {}x{}\n",
        "[".repeat(500),
        "]".repeat(500)
    );
    assert_eq!(codes_of(&checked_one(&closed)), [codes::YAML_LIMIT]);
    let block = format!("responses:\n  r:\n{}\n", "- ".repeat(5_000));
    assert_eq!(checked_one(&block).findings.len(), 1);
}

fn checked_one(responses: &str) -> utter_compiler::Checked {
    checked(&[("responses.yml", responses)])
}

#[test]
fn deep_condition_nesting_is_a_finding() {
    let condition = format!(
        "{}session.project.x{}",
        "(".repeat(5_000),
        ")".repeat(5_000)
    );
    let text =
        format!("responses:\n  r:\n    - text: a\n      condition: '{condition}'\n    - b\n");
    let parens = checked(&[("memory.yml", "x: {}\n"), ("responses.yml", &text)]);
    assert_eq!(codes_of(&parens), [codes::INVALID_CONDITION]);
    assert!(parens.findings[0].message.contains("nested deeper"));
    let nots = format!("{}session.project.x", "not ".repeat(5_000));
    let text = format!("responses:\n  r:\n    - text: a\n      condition: '{nots}'\n    - b\n");
    let nots = checked(&[("memory.yml", "x: {}\n"), ("responses.yml", &text)]);
    assert_eq!(codes_of(&nots), [codes::INVALID_CONDITION]);
}

#[test]
fn oversized_files_are_not_read() {
    let huge = "#".repeat(9 * 1024 * 1024);
    let checked = checked(&[("responses.yml", &huge)]);
    assert_eq!(codes_of(&checked), [codes::YAML_LIMIT]);
    assert!(checked.findings[0].message.contains("too large"));
    // Read from disk, wherever it is, an agent whose only file is too
    // large is an agent with a file too large, not "not an agent folder".
    for place in ["responses.yml", "skills/a/responses.yml", "memory.yml"] {
        let dir = std::env::temp_dir().join(format!(
            "utter-oversized-{}-{}",
            std::process::id(),
            place.replace('/', "-")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(place);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &huge).unwrap();
        let files =
            utter_compiler::ProjectFiles::read(&dir).unwrap_or_else(|e| panic!("{place}: {e}"));
        let checked = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
        assert!(
            checked
                .findings
                .iter()
                .any(|f| f.code == codes::YAML_LIMIT && f.message.contains("too large")),
            "{place}: {:?}",
            checked.findings
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn large_valid_files_check_and_interpret() {
    let mut text = String::from("responses:\n");
    for i in 0..20_000 {
        text.push_str(&format!(
            "  utter_{i}:\n    - text: Response number {i} for {{name}}.\n"
        ));
    }
    let reg = registry(&[("memory.yml", "name: {}\n"), ("responses.yml", &text)]);
    let m = memory(&[("project", "name", "Ada".into())]);
    assert_eq!(
        deliver(&reg, "utter_19999", None, &m).0,
        "Response number 19999 for Ada."
    );
}

#[test]
fn megabyte_lines_keep_positions_and_short_reports() {
    let long = "x".repeat(1 << 20);
    let text = format!(
        "responses:\n  r:\n    - text: \"{long}\"\n      conditon: y\n  s: {{a: \"{long}\", b: 1}}\n"
    );
    let checked = checked(&[("responses.yml", &text)]);
    let key = with_code(&checked, codes::INVALID_VARIANT_KEY);
    assert_eq!((key[0].line, key[0].column), (4, 7));
    let shape = with_code(&checked, codes::INVALID_VARIANT_SHAPE);
    assert_eq!((shape[0].line, shape[0].column), (5, 6));
    let rendered =
        utter_compiler::diagnostics::render_finding(shape[0], checked.source("responses.yml"));
    assert!(
        rendered.len() < 1_000,
        "a report must not print a megabyte line"
    );
    assert!(rendered.contains(" --> responses.yml:5:6"), "{rendered}");
}

#[test]
fn non_utf8_bytes_are_a_finding_at_their_position() {
    let mut bytes = b"responses:\n  r:\n    - text: caf".to_vec();
    bytes.extend([0xE9, b'\n']);
    let files = utter_compiler::ProjectFiles::from_files([("responses.yml".to_owned(), bytes)]);
    let checked = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
    assert_eq!(codes_of(&checked), [codes::YAML_ENCODING]);
    assert_eq!(
        (checked.findings[0].line, checked.findings[0].column),
        (3, 16)
    );
}

#[test]
fn bom_and_crlf_keep_lines_and_columns_right() {
    let text = "\u{feff}responses:\r\n  r:\r\n    - text: ''\r\n  s:\r\n    - text: x\r\n      conditon: y\r\n";
    let checked = checked(&[("responses.yml", text)]);
    let empty = with_code(&checked, codes::EMPTY_BODY);
    assert_eq!((empty[0].line, empty[0].column), (3, 13));
    let key = with_code(&checked, codes::INVALID_VARIANT_KEY);
    assert_eq!((key[0].line, key[0].column), (6, 7));
    let reg = registry(&[(
        "responses.yml",
        "\u{feff}responses:\r\n  r:\r\n    - |\r\n      two\r\n      lines\r\n",
    )]);
    assert_eq!(deliver(&reg, "r", None, &memory(&[])).0, "two\nlines\n");
}

#[test]
fn memory_values_are_never_expanded_again() {
    let reg = registry(&[
        ("memory.yml", "a: {}\nb: {}\n"),
        (
            "responses.yml",
            "responses:\n  r:\n    - '{a} and {session.project.b}'\n",
        ),
    ]);
    let m = memory(&[
        ("project", "a", "{b}".into()),
        ("project", "b", "{session.project.a}".into()),
    ]);
    assert_eq!(
        deliver(&reg, "r", None, &m).0,
        "{b} and {session.project.a}"
    );
}

/// Names and texts that could break generated Rust if escaped wrongly.
fn adversarial() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "\"",
        "#",
        "\"#",
        "r#",
        "\\",
        "{",
        "}",
        "{x}",
        "{session.project.a}",
        "self",
        "Self",
        "fn",
        "type",
        "é",
        "日",
        "😀",
        " ",
        "-",
        ".",
        "_",
        "0",
        "a",
        "Z",
        "\t",
        "'",
        "*/",
        "/*",
        "//",
        "\u{202e}",
        "\u{0}",
    ]);
    prop::collection::vec(atoms, 1..8).prop_map(|parts| parts.concat())
}

fn yaml_quoted(s: &str) -> String {
    utter_synth::yaml_string(s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any name and text a YAML file can hold gives parseable Rust whose
    /// string literals hold exactly the original text, or a finding.
    #[test]
    fn generated_code_is_well_formed_for_any_name_and_text(names in prop::collection::vec(adversarial(), 1..6), text in adversarial()) {
        let mut yaml = String::from("responses:\n");
        for name in &names {
            yaml.push_str(&format!("  {}:\n    - text: {}\n", yaml_quoted(name), yaml_quoted(&format!("{text}!"))));
        }
        let files = project(&[("memory.yml", "a: {}\n"), ("responses.yml", &yaml)]);
        let (checked, registry) = Agent::from_files(files.clone(), OpenOptions::default()).into_registry();
        let Ok(registry) = registry else {
            // Refused with findings (duplicate names, names alike in Rust, ...).
            prop_assert!(checked.has_errors());
            return Ok(());
        };
        let code = codegen::generate(&registry);
        let file: syn::File = syn::parse2(code).map_err(|e| TestCaseError::fail(format!("does not parse: {e}")))?;
        let mut literals = Vec::new();
        collect_strings(&file, &mut literals);
        for name in &names {
            prop_assert!(literals.iter().any(|l| l == name), "name {name:?} lost");
        }
    }
}

fn collect_strings(file: &syn::File, out: &mut Vec<String>) {
    struct Strings<'a>(&'a mut Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Strings<'_> {
        fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
            self.0.push(lit.value());
        }
    }
    syn::visit::Visit::visit_file(&mut Strings(out), file);
}

/// A temporary agent folder on disk holding `files`.
fn disk_project(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("utter-fs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn check_dir(dir: &std::path::Path) -> utter_compiler::Checked {
    Agent::open(dir, OpenOptions::default())
        .expect("the folder reads")
        .into_checked()
}

const HELLO: &str = "responses:\n  utter_hi:\n    - text: Hi\n";

#[test]
fn symlinks_out_of_the_agent_folder_are_refused_unread() {
    use std::os::unix::fs::symlink;
    let secret = std::env::temp_dir().join(format!("utter-secret-{}", std::process::id()));
    std::fs::write(&secret, "responses:\n  SECRET_TOKEN_12345: [x\n").unwrap();
    let dir = disk_project("outside", &[("skills/a/responses.yml", HELLO)]);
    symlink(&secret, dir.join("responses.yml")).unwrap();
    symlink("/dev/zero", dir.join("memory.yml")).unwrap();
    let checked = check_dir(&dir);
    let refused = with_code(&checked, codes::IO_REFUSED);
    assert_eq!(refused.len(), 2, "{:?}", checked.findings);
    assert!(
        refused
            .iter()
            .all(|f| f.message.contains("outside the agent folder"))
    );
    let shown = format!("{:?}", checked.findings);
    assert!(
        !shown.contains("SECRET_TOKEN"),
        "the target's content is never shown"
    );
    // A link inside the folder is followed.
    std::fs::remove_file(dir.join("responses.yml")).unwrap();
    symlink(
        dir.join("skills/a/responses.yml"),
        dir.join("responses.yml"),
    )
    .unwrap();
    std::fs::remove_file(dir.join("memory.yml")).unwrap();
    let checked = check_dir(&dir);
    assert!(
        with_code(&checked, codes::IO_REFUSED).is_empty(),
        "{:?}",
        checked.findings
    );
    assert!(checked.responses.contains_key("utter_hi"));
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_file(secret);
}

#[test]
fn special_files_are_never_opened() {
    let dir = disk_project("fifo", &[]);
    let fifo = dir.join("responses.yml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    // Opening a FIFO for reading blocks until a writer comes: it must not be opened.
    let checked = check_dir(&dir);
    let refused = with_code(&checked, codes::IO_REFUSED);
    assert_eq!(refused.len(), 1, "{:?}", checked.findings);
    assert!(refused[0].message.contains("not a regular file"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn reads_are_bounded_whatever_the_size_says() {
    let path = std::path::Path::new("/dev/zero");
    let read = utter_compiler::load::project::read_bounded(path, 1024).unwrap();
    assert_eq!(read, Err(1025), "stops one byte past the limit");
}

#[test]
fn what_is_ignored_is_said() {
    use std::os::unix::fs::symlink;
    let dir = disk_project(
        "ignored",
        &[
            ("skills/notes.md", "not a skill"),
            ("skills/a/responses.yml", HELLO),
            ("skills/a/skill.md", utter_tests::MINIMAL_SKILL_MD),
            ("skills/a/sub/responses.yml", HELLO),
            ("skills/a/tools/helper.py", "pass"),
        ],
    );
    symlink(dir.join("nowhere"), dir.join("skills/dangling")).unwrap();
    let checked = check_dir(&dir);
    let ignored: Vec<(&str, &str)> = with_code(&checked, codes::IO_IGNORED)
        .iter()
        .map(|f| (f.file.as_str(), f.message.as_str()))
        .collect();
    assert_eq!(ignored.len(), 3, "{ignored:?}");
    assert!(ignored.iter().any(
        |(f, m)| *f == "skills/notes.md" && m.contains("not a skill")
            || m.contains("only skill folders")
    ));
    assert!(
        ignored
            .iter()
            .any(|(f, m)| *f == "skills/dangling" && m.contains("symlink to nothing"))
    );
    assert!(
        ignored
            .iter()
            .any(|(f, m)| *f == "skills/a/sub" && m.contains("not nested"))
    );
    assert!(!checked.has_errors(), "{:?}", checked.findings);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn names_with_control_characters_are_refused() {
    let dir = disk_project("odd", &[("skills/ok/responses.yml", HELLO)]);
    std::fs::create_dir_all(dir.join("skills/bad\nname")).unwrap();
    let files = utter_compiler::ProjectFiles::read(&dir).unwrap();
    assert_eq!(files.skills, ["ok"]);
    assert!(
        files
            .scanned
            .iter()
            .all(|p| !p.to_string_lossy().contains('\n'))
    );
    let checked = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
    assert_eq!(with_code(&checked, codes::IO_REFUSED).len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn invisible_characters_in_names_and_conditions_are_warnings() {
    let checked = checked(&[
        (
            "skills/s/memory.yml",
            "schema:\n  public:\n    \"is\u{200b}_admin\": {}\n    flag: {}\n",
        ),
        (
            "skills/s/responses.yml",
            "responses:\n  \"utter_\u{202e}x\":\n    - text: a\n      condition: \"session.s.flag == 'a\u{2066}'\"\n    - text: b\n",
        ),
    ]);
    let found = with_code(&checked, codes::INVISIBLE_CHARACTER);
    assert_eq!(found.len(), 3, "{:?}", checked.findings);
    assert!(found.iter().any(|f| f.message.contains("U+200B")));
    assert!(found.iter().any(|f| f.message.contains("U+202E")));
    assert!(found.iter().any(|f| f.message.contains("U+2066")));
}

#[test]
fn names_mixing_scripts_are_warnings() {
    let checked = checked(&[
        (
            "skills/s/memory.yml",
            "schema:\n  public:\n    \"p\u{0430}y\": {}\n    \"Ωmega\": {}\n",
        ),
        (
            "responses.yml",
            "responses:\n  \"utter_\u{0440}ay\":\n    - text: a\n  utter_ok:\n    - text: b\n",
        ),
    ]);
    let found = with_code(&checked, codes::INVISIBLE_CHARACTER);
    assert_eq!(found.len(), 3, "{:?}", checked.findings);
    assert!(found.iter().all(|f| f.message.contains("mixes")));
}

#[test]
fn names_of_generated_items_are_findings() {
    let checked = checked(&[(
        "responses.yml",
        "responses:\n  ALL:\n    - text: a\n  COUNT:\n    - text: b\n  all:\n    - text: c\n",
    )]);
    let found = with_code(&checked, codes::RUST_NAME_COLLISION);
    assert_eq!(found.len(), 2, "{:?}", checked.findings);
    assert!(
        found[0].message.contains("the generated item `Response::"),
        "{}",
        found[0].message
    );
}

#[test]
fn pretty_printed_code_shows_bidi_and_carriage_returns_escaped() {
    let registry = registry(&[(
        "responses.yml",
        "responses:\n  \"rtl\u{202e}x\":\n    - text: \"a\\rb\u{2067}c\"\n  \"cr\\rname\":\n    - text: d\n",
    )]);
    let code = codegen::pretty(codegen::generate(&registry), codegen::HEADER).expect("parses");
    for line in code.lines().filter(|l| l.trim_start().starts_with("//")) {
        assert!(
            !line
                .chars()
                .any(|c| c.is_control() || utter_compiler::is_deceptive(c)),
            "a raw control or bidi character in a comment: {line:?}"
        );
    }
    assert!(
        !code.contains('\r'),
        "no carriage return anywhere in the file"
    );
    assert!(code.contains("rtl\\u{202e}x"), "shown escaped in the docs");
}
