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

/// No unsafe character but the newlines that end lines; no line of data
/// starts a workflow command (`github` output's own commands excepted).
fn assert_shown_not_obeyed(what: &str, text: &str, github: bool) {
    for line in text.lines() {
        assert!(
            !line.chars().any(is_unsafe),
            "{what}: an unescaped character in {line:?}"
        );
        let own_command = github
            && (line.starts_with("::error file=")
                || line.starts_with("::warning file=")
                || line.starts_with("::notice file="));
        assert!(
            !line.starts_with("::") || own_command,
            "{what}: a line that starts a workflow command: {line:?}"
        );
        assert!(
            !line.starts_with("cargo::"),
            "{what}: a cargo directive: {line:?}"
        );
    }
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
    assert_shown_not_obeyed("check", &out, false);
    assert_shown_not_obeyed("check stderr", &err, false);
    let (out, err) = run(&["check", agent, "--format", "github"]);
    assert_shown_not_obeyed("check --format github", &out, true);
    assert_shown_not_obeyed("check --format github stderr", &err, false);
    let (out, err) = run(&["check", agent, "--color", "always"]);
    // Colour codes are utter's own; strip them, then nothing else may steer.
    let plain = strip_sgr(&out);
    assert_shown_not_obeyed("check --color always", &plain, false);
    assert_shown_not_obeyed("check --color always stderr", &err, false);
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
        assert_shown_not_obeyed("render stderr", &err, false);
        // The delivered text is the product: printed as delivered.
        assert!(!out.is_empty());
    }
    let (_, err) = run(&[
        "render",
        &format!("{agent}/gone\n::error::INJECTED{HOSTILE}"),
        "utter_x",
    ]);
    assert!(err.starts_with("error: agent folder"), "{err}");
    assert_shown_not_obeyed("a fatal error", &err, false);
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
