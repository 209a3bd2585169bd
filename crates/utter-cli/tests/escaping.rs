//! The one escaping rule on every output path of the `utter` binary: names,
//! texts, paths and memory keys holding control, C1 and bidi characters (an
//! OSC title, a hyperlink, a screen clear, CSI as U+009B, RLO) and
//! directive-looking text never reach the terminal as they are, and no
//! line of data starts a workflow command.

use std::path::{Path, PathBuf};
use std::process::Command;

use utter_compiler::diagnostics::escape::is_unsafe;

const HOSTILE: &str = "\u{1b}]0;TITLE\u{7}\u{9b}2J\u{202e}\u{2066}\r\u{b}";

/// An agent whose every corner holds hostile characters.
fn hostile_agent() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("utter-escaping-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    // YAML's own escapes put the characters into names and texts.
    let long = "x".repeat(5000);
    write(
        "responses.yml",
        &format!(
            "responses:\n  \"utter_\\e]8;;http://x\\a\\e[2J\\u202e\\x9b\":\n    - text: \"{{reasn}} \\e]0;T\\a\"\n  \"utter_long\\e[2J\":\n    - text: \"{long} {{missing}} \\e[2J\"\n"
        ),
    );
    write("memory.yml", "\"reason\\e\": {type: text}\n");
    // The typo'd placeholders stay warnings: `render` runs on this agent.
    write(
        "utter.yml",
        "lints:\n  utter.validation.response.unknown_placeholder: warn\n",
    );
    // A skill folder named with an OSC title sequence, CR and VT: refused.
    write(
        &format!("skills/{HOSTILE}/skill.md"),
        "---\ndescription: d\n---\nBody.\n",
    );
    // A self-looping symlink named to inject a workflow command and a cargo directive.
    let evil = dir.join("skills/s");
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::write(evil.join("skill.md"), "---\ndescription: d\n---\nBody.\n").unwrap();
    #[cfg(unix)]
    {
        let link = evil.join("responses.yml");
        std::os::unix::fs::symlink(&link, &link).unwrap();
        let name =
            dir.join("skills/\n::error file=x,line=1::INJECTED\ncargo::rustc-env=PWNED=yes\n");
        std::os::unix::fs::symlink(&name, &name).unwrap();
    }
    write(
        "memory.json",
        "{\"project\": {\"\\u001b]0;T\\u0007\\n::error::INJECTED\": 1, \"reason\\u001b\": \"\\u001b[2J\"}}",
    );
    dir
}

fn run(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_utter"))
        .args(args)
        .output()
        .expect("utter runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_output_path_escapes_data() {
    let dir = hostile_agent();
    let agent = dir.to_str().unwrap();
    let memory = dir.join("memory.json");
    let memory = memory.to_str().unwrap();
    let (out, err) = run(&["check", agent, "--color", "never"]);
    assert!(out.contains("utter.io.refused"), "{out}");
    assert!(out.contains("unknown_placeholder"), "{out}");
    assert!(out.contains("\\u{1b}"), "shown escaped: {out}");
    no_line_starts_with_data("check", &out, None);
    no_line_starts_with_data("check stderr", &err, None);
    let (out, err) = run(&["check", agent, "--format", "github"]);
    no_line_starts_with_data("check --format github", &out, Some(agent));
    no_line_starts_with_data("check --format github stderr", &err, None);
    let (out, err) = run(&["check", agent, "--color", "always"]);
    // Colour codes are utter's own; strip them, then nothing else may steer.
    let plain = strip_sgr(&out);
    no_line_starts_with_data("check --color always", &plain, None);
    no_line_starts_with_data("check --color always stderr", &err, None);
    // Render needs a project without errors: the refused folders go.
    for entry in std::fs::read_dir(dir.join("skills")).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n != "s") {
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
    for name in ["utter_x\u{1b}[2J", "utter_long\u{1b}[2J"] {
        let (out, err) = run(&["render", agent, name, "--memory", memory]);
        assert!(err.contains("not readable and is ignored"), "{err}");
        no_line_starts_with_data("render stderr", &err, None);
        // The delivered text is the product: printed as delivered.
        assert!(!out.is_empty());
    }
    let (_, err) = run(&[
        "render",
        &format!("{agent}/gone\n::error::INJECTED{HOSTILE}"),
        "utter_x",
    ]);
    assert!(err.starts_with("error: agent folder"), "{err}");
    no_line_starts_with_data("a fatal error", &err, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ESC [ ... m`, the colour codes `--color always` adds.
fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find('m') {
            Some(end) if after[..end].chars().all(|c| c.is_ascii_digit() || c == ';') => {
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str("\u{1b}[");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn a_fifo_as_memory_is_refused_not_read() {
    let dir = std::env::temp_dir().join(format!("utter-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("responses.yml"),
        "responses:\n  utter_a:\n    - text: a\n",
    )
    .unwrap();
    let fifo = dir.join("memory.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo is not available: skipped");
        return;
    }
    // Would block forever if opened; it must fail at once.
    let (_, err) = run(&[
        "render",
        dir.to_str().unwrap(),
        "utter_a",
        "--memory",
        fifo.to_str().unwrap(),
    ]);
    assert!(err.contains("is not a regular file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_self_looping_skill_file_is_a_warning_not_the_end() {
    let dir = std::env::temp_dir().join(format!("utter-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let skill = dir.join("skills/s");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("skill.md"), "---\ndescription: d\n---\nBody.\n").unwrap();
    std::fs::write(
        dir.join("responses.yml"),
        "responses:\n  utter_a:\n    - text: a\n",
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(skill.join("responses.yml"), skill.join("responses.yml")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_utter"))
        .args(["check", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("cannot be followed"), "{text}");
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// Strings that try to start a line of their own: a workflow command, a
/// cargo directive, a terminal escape, a C1 next-line, a line separator,
/// a bidi override.
const PAYLOADS: &[&str] = &[
    "\n::error file=x,line=1::FORGED",
    "\r\ncargo::rustc-env=PWNED=1",
    "\u{1b}[2J\u{1b}]0;TITLE\u{7}",
    "\u{85}::warning::NEL",
    "\u{2028}::notice::LS",
    "\u{202e}::error::RLO",
];

/// The payloads above, and strings drawn (from a fixed seed) out of the
/// pieces hostile text is made of, quotes and backslashes among them.
fn payloads() -> Vec<String> {
    const PIECES: &[&str] = &[
        "\n", "\r", "::", "cargo::", "error", " file=", "\u{1b}[", "\u{85}", "\u{2028}",
        "\u{202e}", "\"", "'", "\\", "{", "}", "x", " ", "\t", "\u{7}", "%0A",
    ];
    let mut out: Vec<String> = PAYLOADS.iter().map(|p| (*p).to_owned()).collect();
    let mut state: u64 = 0x5EED_1DEA;
    for _ in 0..6 {
        let mut payload = String::new();
        for _ in 0..8 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            payload.push_str(PIECES[(state >> 33) as usize % PIECES.len()]);
        }
        out.push(payload);
    }
    out
}

/// `text` exactly, between `quote`s, with the escapes YAML's double-quoted
/// scalars and Python's string literals share (`\\`, `\"` or `\'`,
/// `\U0000xxxx`).
fn quoted(text: &str, quote: char) -> String {
    let mut out = String::from(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => out.push_str(&format!("\\U{:08x}", u32::from(c))),
        }
    }
    out.push(quote);
    out
}

/// A YAML double-quoted scalar holding `text` exactly.
fn yaml_quoted(text: &str) -> String {
    quoted(text, '"')
}

/// A Python string literal (for a condition) holding `text` exactly.
fn python_quoted(text: &str) -> String {
    quoted(text, '\'')
}

/// An agent with `payload` in a response name, its texts, a condition's
/// literal, a categorical value and the memory: valid, so every command
/// runs on it. `version` changes the wording (for `diff` and `--check`).
fn agent_holding(dir: &Path, payload: &str, version: &str) {
    let _ = std::fs::create_dir_all(dir);
    let name = yaml_quoted(&format!("utter_a{payload}"));
    let text = yaml_quoted(&format!("Hi {payload} {{session.project.kind}} {version}"));
    let default = yaml_quoted(&format!("Default {payload}"));
    let condition = yaml_quoted(&format!(
        "session.project.kind == {}",
        python_quoted(payload)
    ));
    std::fs::write(
        dir.join("responses.yml"),
        format!(
            "responses:\n  {name}:\n    - text: {text}\n      condition: {condition}\n    - text: {default}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("memory.yml"),
        format!(
            "kind:\n  type: categorical\n  enum_values: [{}, plain]\n",
            yaml_quoted(payload)
        ),
    )
    .unwrap();
    let memory = serde_json::json!({"project": {"kind": payload}});
    std::fs::write(dir.join("memory.json"), memory.to_string()).unwrap();
}

/// No line of `text` starts with data: no workflow command but utter's
/// own (on `github` output, naming the agent's file), no cargo directive,
/// no unsafe character.
fn no_line_starts_with_data(what: &str, text: &str, github_file: Option<&str>) {
    for line in text.lines() {
        assert!(
            !line.chars().any(is_unsafe),
            "{what}: an unescaped character in {line:?}"
        );
        let own = github_file.is_some_and(|file| {
            ["::error", "::warning", "::notice"]
                .iter()
                .any(|level| line.starts_with(&format!("{level} file={file}")))
        });
        assert!(
            !line.starts_with("::") || own,
            "{what}: a line that starts a workflow command: {line:?}"
        );
        assert!(
            !line.starts_with("cargo::"),
            "{what}: a directive: {line:?}"
        );
    }
}

/// Every command and format, on agents that hold each payload in every
/// field: no output line (stdout or stderr) starts with data. The one
/// exception is `render`'s text on stdout, which is the delivered text
/// itself (the product, printed as delivered).
#[test]
fn no_command_or_format_starts_a_line_with_data() {
    let root = std::env::temp_dir().join(format!("utter-line-starts-{}", std::process::id()));
    for (n, payload) in payloads().iter().enumerate() {
        let payload = payload.as_str();
        let dir = root.join(format!("agent{n}"));
        let edited = root.join(format!("edited{n}"));
        agent_holding(&dir, payload, "one");
        agent_holding(&edited, payload, "two");
        let (a, b) = (dir.to_str().unwrap(), edited.to_str().unwrap());
        let memory = dir.join("memory.json");
        let memory = memory.to_str().unwrap();
        let name = format!("utter_a{payload}");
        let snap = dir.join("responses.snap");
        let checked = run(&["check", a, "--format", "json"]);
        assert!(
            checked.0.contains("\"errors\":0"),
            "{payload:?}: {}",
            checked.0
        );
        let commands: Vec<Vec<&str>> = vec![
            vec!["check", a],
            vec!["check", a, "--format", "json"],
            vec!["check", a, "--format", "sarif"],
            vec!["check", a, "--format", "github"],
            vec!["explain", a, &name],
            vec!["explain", a, &name, "--format", "json"],
            vec!["render", a, &name, "--memory", memory, "--format", "json"],
            vec!["render", a, &name, "--memory", memory, "--explain"],
            vec![
                "render",
                a,
                &name,
                "--memory",
                memory,
                "--explain",
                "--format",
                "json",
            ],
            vec!["expand", a],
            vec!["snapshot", a],
            vec!["snapshot", b, "--check", "--out", snap.to_str().unwrap()],
            vec![
                "snapshot",
                b,
                "--check",
                "--out",
                snap.to_str().unwrap(),
                "--format",
                "json",
            ],
            vec![
                "snapshot",
                b,
                "--check",
                "--out",
                snap.to_str().unwrap(),
                "--format",
                "github",
            ],
            vec!["snapshot", a, "--format", "html"],
            vec!["diff", a, b],
            vec!["diff", a, b, "--format", "markdown"],
            vec!["diff", a, b, "--format", "json"],
            vec!["diff", a, b, "--format", "html"],
        ];
        for args in &commands {
            let (out, err) = run(args);
            let what = format!("{payload:?} {:?}", &args[..args.len().min(4)]);
            let github = args
                .contains(&"github")
                .then_some(if args[0] == "snapshot" {
                    snap.to_str().unwrap()
                } else {
                    a
                });
            // `render`'s text on stdout is the delivered text (the product).
            let product = args[0] == "render" && !args.contains(&"json");
            if !product {
                no_line_starts_with_data(&format!("{what} stdout"), &out, github);
            }
            no_line_starts_with_data(&format!("{what} stderr"), &err, None);
        }
        // The snapshot file itself: every string quoted.
        let written = std::fs::read_to_string(&snap).unwrap();
        no_line_starts_with_data(&format!("{payload:?} the snapshot file"), &written, None);
        // render's text is the product: delivered as written, payload and all.
        let (out, _) = run(&["render", a, &name, "--memory", memory]);
        assert!(out.contains(payload), "{payload:?}: {out:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
