//! The structure ARCHITECTURE.md promises, checked on the source tree: no
//! import circle between the top-level modules of a crate, imports only
//! down the pipeline, and size by meaning (no function over 120 lines but a
//! code template that says so; files are not measured by lines).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: [&str; 5] = [
    "crates/utter-compiler/src",
    "crates/utter-runtime/src",
    "crates/utter-cli/src",
    "crates/utter/src",
    "crates/utter-playground/src",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a listing").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The names the crate root re-exports (`pub use module::{A, b as C};`),
/// each with the top-level module it comes from: `crate::A` names that
/// module as surely as `crate::module::A`.
fn root_reexports(src: &Path) -> BTreeMap<String, String> {
    let root = ["lib.rs", "main.rs"]
        .iter()
        .find_map(|f| std::fs::read_to_string(src.join(f)).ok())
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    for statement in root.split(';') {
        let Some((_, path)) = statement.rsplit_once("pub use ") else {
            continue;
        };
        let Some((module, rest)) = path.split_once("::") else {
            continue;
        };
        let names = rest.trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',') {
            let exported = name.split(" as ").last().unwrap_or_default().trim();
            let exported = exported.rsplit("::").next().unwrap_or_default();
            if !exported.is_empty() {
                out.insert(exported.to_owned(), module.trim().to_owned());
            }
        }
    }
    out
}

/// Top-level module -> the top-level modules it names through `crate::`,
/// directly or through a re-export of the crate root (test modules
/// excluded).
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let reexports = root_reexports(src);
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a path");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if module == "lib" || module == "main" || rel.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        // Code only: doc links name items without importing them.
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or_default()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let is_module =
                src.join(format!("{name}.rs")).exists() || src.join(&name).join("mod.rs").exists();
            let target = if is_module {
                Some(name)
            } else {
                reexports.get(&name).cloned()
            };
            if let Some(target) = target.filter(|t| !t.is_empty() && *t != module) {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// A circle through `start`, if any.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![vec![start.to_owned()]];
    let mut seen = BTreeSet::new();
    while let Some(path) = stack.pop() {
        let last = path.last().expect("a non-empty path");
        for next in edges.get(last).into_iter().flatten() {
            if next == start {
                return Some(path.clone());
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push(longer);
            }
        }
    }
    None
}

#[test]
fn no_import_circles_between_modules() {
    for src in CRATES {
        let edges = imports(&workspace().join(src));
        assert!(
            // The facade and the playground have no modules that import
            // each other (the playground: its transport calls the root).
            !edges.is_empty() || src.ends_with("utter/src") || src.ends_with("playground/src"),
            "{src}: no imports found"
        );
        for module in edges.keys() {
            assert_eq!(circle(&edges, module), None, "{src}: an import circle");
        }
    }
}

/// Each code line (comments and test modules aside) of every crate's
/// sources but `owner`, as `(file:line, line)`.
fn code_lines(owner: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&workspace().join(krate), &mut files);
        for file in files {
            if file.ends_with(owner) || file.ends_with("tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            // Test modules come last in a file: only what precedes them.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (n, line) in code.lines().enumerate() {
                if !line.trim_start().starts_with("//") {
                    out.push((format!("{}:{}", file.display(), n + 1), line.to_owned()));
                }
            }
        }
    }
    out
}

/// When a variant is delivered is named in one place
/// (`wording::Selection`): no other source spells its labels.
#[test]
fn a_variant_s_selection_is_named_in_one_place() {
    let offenders: Vec<String> = code_lines("wording/selection.rs")
        .into_iter()
        .filter(|(_, line)| {
            [
                "\"without condition\"",
                "\"never selected\"",
                "\"default\".to_owned()",
            ]
            .iter()
            .any(|label| line.contains(label))
        })
        .map(|(at, line)| format!("{at}: {}", line.trim()))
        .collect();
    assert!(
        offenders.is_empty(),
        "labels spelt outside the model: {offenders:#?}"
    );
}

/// Every finding code is named through `codes` (so `codes::ALL` lists it and
/// docs/format.md can be checked against it): no code is spelt in a string
/// in the sources outside `codes.rs` (test modules aside), whole or inside
/// a format string (`title=utter.snapshot.changed::`).
#[test]
fn every_code_is_named_through_codes() {
    let mut offenders = Vec::new();
    for (at, line) in code_lines("diagnostics/codes.rs") {
        for prefix in ["utter.", "mantle."] {
            for (start, _) in line.match_indices(prefix) {
                let before = line[..start].chars().next_back();
                let in_string = line[..start].contains('"');
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') || !in_string {
                    continue;
                }
                let word: String = line[start..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '.' || *c == '_')
                    .collect();
                let word = word.trim_end_matches('.');
                if word.matches('.').count() >= 2 {
                    offenders.push(format!("{at}: {word}"));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "codes spelt out: {offenders:#?}");
}

/// docs/format.md names every finding code of `codes::ALL` (or the group it
/// belongs to, as `utter.yaml.{syntax, ...}`).
#[test]
fn the_format_guide_names_every_code() {
    let guide = std::fs::read_to_string(workspace().join("docs/format.md")).unwrap();
    let missing: Vec<&str> = utter_compiler::diagnostics::codes::ALL
        .iter()
        .map(|(code, _)| *code)
        .filter(|code| {
            let (group, last) = code.rsplit_once('.').unwrap_or(("", code));
            // `group.{a, b}` (across lines), or `group.a` / `b` on one line.
            let grouped = guide.match_indices(&format!("{group}.{{")).any(|(at, _)| {
                guide[at..]
                    .split('}')
                    .next()
                    .is_some_and(|list| list.split([',', '{', ' ', '\n']).any(|w| w == last))
            });
            let slashed = guide
                .lines()
                .any(|l| l.contains(&format!("`{group}.")) && l.contains(&format!("/ `{last}`")));
            !guide.contains(code) && !grouped && !slashed
        })
        .collect();
    assert!(
        missing.is_empty(),
        "codes docs/format.md does not name: {missing:#?}"
    );
}

/// Whether a file is bundled is decided in one place,
/// `utter_compiler::bundled::is_bundled`: its label prefix is spelt nowhere
/// else in the sources (test modules aside).
#[test]
fn the_origin_of_a_file_is_tested_in_one_place() {
    let offenders: Vec<String> = code_lines("utter-compiler/src/bundled.rs")
        .into_iter()
        .filter(|(_, line)| line.contains("\"<bundled>"))
        .map(|(at, _)| at)
        .collect();
    assert!(
        offenders.is_empty(),
        "bundled labels spelt out: {offenders:#?}"
    );
}

/// The readability rule (which entries a view may read) is written once, in
/// `Visibility::readable_in`: nowhere else compares a visibility with
/// `Private` to decide a read (declarations name the variant, and generated
/// typed views ask `depends_on_active_skill`).
#[test]
fn readability_is_decided_in_one_place() {
    let offenders: Vec<String> = code_lines("utter-runtime/src/memory.rs")
        .into_iter()
        .filter(|(_, line)| {
            let compact: String = line.split_whitespace().collect();
            compact.contains("==Visibility::Private")
                || compact.contains("!=Visibility::Private")
                || compact.contains("==utter::Visibility::Private")
                || compact.contains("!=utter::Visibility::Private")
                || compact.contains("Some(Visibility::Private)=>")
        })
        .map(|(at, line)| format!("{at}: {}", line.trim()))
        .collect();
    assert!(
        offenders.is_empty(),
        "readability decided outside Visibility::readable_in: {offenders:#?}"
    );
}

/// The compiler's pipeline in dependency order: a module imports only from
/// modules before it (the leaves before `load` are shared by every step;
/// `agent`, the front door, opens, checks and lowers, and every back end
/// after it opens agents through it).
#[test]
fn the_compiler_imports_only_down_the_pipeline() {
    const ORDER: [&str; 18] = [
        "unicode",
        "diagnostics",
        "bundled",
        "condition",
        "template",
        "load",
        "memo",
        "names",
        "wording",
        "validate",
        "lower",
        "analysis",
        "edit",
        "agent",
        "interpret",
        "snapshot",
        "codegen",
        "strict",
    ];
    let edges = imports(&workspace().join("crates/utter-compiler/src"));
    let rank = |m: &str| ORDER.iter().position(|o| *o == m);
    let mut upward = Vec::new();
    for (module, named) in &edges {
        let from = rank(module).unwrap_or_else(|| panic!("`{module}` is not in ORDER"));
        for to in named {
            let to_rank = rank(to).unwrap_or_else(|| panic!("`{to}` is not in ORDER"));
            if to_rank > from {
                upward.push(format!("{module} -> {to}"));
            }
        }
    }
    assert!(upward.is_empty(), "imports up the pipeline: {upward:#?}");
}

/// Equality is asked of the operator table (`CmpOp::is_equality`), never
/// spelled as a pattern: a new ordering must not pass for an equality.
#[test]
fn equality_is_asked_of_the_operator_table() {
    let mut files = Vec::new();
    for src in CRATES {
        rust_files(&workspace().join(src), &mut files);
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for spelled in ["CmpOp::Eq | CmpOp::Ne", "CmpOp::Ne | CmpOp::Eq"] {
            assert!(
                !text.contains(spelled),
                "{} spells `{spelled}`: ask `op.is_equality()`",
                file.display()
            );
        }
    }
}

/// The binary's main.rs is a dispatcher: every other file of the CLI
/// reaches what it needs through a module (`crate::open::load`), never an
/// item of main.rs itself (`crate::load`).
#[test]
fn the_cli_main_is_a_dispatcher_no_module_imports() {
    let src = workspace().join("crates/utter-cli/src");
    let main = std::fs::read_to_string(src.join("main.rs")).unwrap();
    let modules: BTreeSet<&str> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    assert!(
        modules.len() > 5,
        "main.rs declares the modules: {modules:?}"
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut from_main = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("main.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            // `crate::{a::X, b}` names each of a, b; `crate::a::X` names a.
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(list) => list[..list.find('}').unwrap_or(list.len())]
                    .split(',')
                    .map(|item| item.trim().split("::").next().unwrap_or("").trim())
                    .filter(|name| !name.is_empty())
                    .collect(),
                None => vec![
                    rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next()
                        .unwrap_or(""),
                ],
            };
            for name in names {
                if !modules.contains(name) {
                    from_main.push(format!("{}: crate::{name}", file.display()));
                }
            }
        }
    }
    assert!(
        from_main.is_empty(),
        "files that import main.rs's own items: {from_main:#?}"
    );
}

/// GitHub workflow commands are written in one place (`output::workflow_command`),
/// where every property and message is escaped.
#[test]
fn workflow_commands_have_one_writer() {
    let src = workspace().join("crates/utter-cli/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let writers: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            ["\"::error", "\"::warning", "\"::notice", "\"::{"]
                .iter()
                .any(|start| text.contains(start))
        })
        .map(|f| f.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert_eq!(writers, ["output.rs"], "files that write workflow commands");
}

/// The functions of the library sources (tests aside) with their length in
/// lines, from `fn` to the closing brace at its indentation (the sources
/// are rustfmt-formatted).
fn function_lengths() -> Vec<(String, usize)> {
    let mut files = Vec::new();
    for src in CRATES.iter().chain(&["build-support/utter-build/src"]) {
        rust_files(&workspace().join(src), &mut files);
    }
    let mut out = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("tests.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        // Test modules are at the end of a file: cut there.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        let lines: Vec<&str> = code.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            let is_fn = [
                "fn ",
                "pub fn ",
                "pub(crate) fn ",
                "pub(super) fn ",
                "const fn ",
            ]
            .iter()
            .any(|start| trimmed.starts_with(start));
            if !is_fn || trimmed.ends_with(';') {
                continue;
            }
            let end = lines[at..]
                .iter()
                .position(|l| *l == format!("{indent}}}"))
                .unwrap_or(0);
            let name = trimmed
                .split("fn ")
                .nth(1)
                .unwrap_or("")
                .split(['(', '<'])
                .next()
                .unwrap_or("");
            out.push((format!("{}:{}", file.display(), name), end + 1));
        }
    }
    out
}

/// Size by meaning: no function over 120 lines but a code template (its
/// first lines say so).
#[test]
fn functions_stay_short() {
    const LIMIT: usize = 120;
    const TEMPLATES: &[&str] = &[
        "codegen/memory.rs:typed_memory",
        "codegen/lookup.rs:common_items",
    ];
    let mut long = Vec::new();
    for (function, lines) in function_lengths() {
        if lines > LIMIT && !TEMPLATES.iter().any(|t| function.ends_with(t)) {
            long.push(format!("{function}: {lines} lines"));
        }
    }
    assert!(long.is_empty(), "functions over {LIMIT} lines: {long:#?}");
    // The measure finds what it should: the longest template is long.
    assert!(
        function_lengths()
            .iter()
            .any(|(f, n)| f.ends_with("codegen/memory.rs:typed_memory") && *n > LIMIT),
        "the function lengths are read"
    );
}
