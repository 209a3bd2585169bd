//! The review outputs under hostile data: the snapshot file is never
//! reached through a link or special file, and names and wording from the
//! agent never become Markdown markup or lines of their own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

fn utter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_utter"))
        .args(args)
        .output()
        .expect("utter runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("utter-review-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
    }
    dir
}

/// Wording a reviewer must see exactly as it is, never as markup.
const HOSTILE: &[&str] = &[
    "Reply *YES* or _no_",
    "<b>bold</b> </details> <img src=x onerror=alert(1)>",
    "ask @admins and see [the terms](https://example.invalid) or https://example.invalid",
    "<!-- everything after this hides",
    "a `tick` and ``two``",
    "line one\n::error file=README.md::forged\n## heading",
];

/// A YAML double-quoted scalar.
fn yaml(s: &str) -> String {
    format!("{s:?}")
}

fn agent(name: &str, texts: &[&str], extra_response: Option<&str>) -> PathBuf {
    let mut responses = String::from("responses:\n");
    responses.push_str(&format!("  {}:\n", yaml("utter_`tick`\n::add-mask::x")));
    for (i, t) in texts.iter().enumerate() {
        responses.push_str(&format!("    - text: {}\n", yaml(t)));
        if i + 1 < texts.len() {
            responses.push_str(&format!("      condition: session.project.n == {i}\n"));
        }
    }
    if let Some(extra) = extra_response {
        responses.push_str(&format!(
            "  {}:\n    - text: {}\n",
            yaml(extra),
            yaml(HOSTILE[0])
        ));
    }
    project(
        name,
        &[
            ("memory.yml", "n: {type: int}\n"),
            ("responses.yml", &responses),
        ],
    )
}

#[test]
fn markdown_diff_shows_hostile_wording_as_text() {
    let old = agent(
        "md-old",
        &["Plain.", "Also plain.", "Default."],
        Some("utter_<b>gone</b>"),
    );
    let mut new_texts: Vec<&str> = HOSTILE.to_vec();
    new_texts.push("Default.");
    let new = agent("md-new", &new_texts, Some("utter_*added* @here"));
    let out = utter(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "markdown",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let md = text(&out.stdout);
    // Data never starts a line: every line is a heading, a list item or blank.
    for line in md.lines() {
        let t = line.trim_start();
        assert!(
            t.is_empty() || t.starts_with("### ") || t.starts_with("- "),
            "a line made of data: {line:?}\n{md}"
        );
    }
    let mut code = Vec::new();
    let mut depth = 0usize;
    let mut deepest = 0usize;
    for event in Parser::new(&md) {
        match event {
            Event::Start(Tag::List(_)) => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            Event::End(TagEnd::List(_)) => depth -= 1,
            Event::Start(
                tag @ (Tag::Emphasis
                | Tag::Strong
                | Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::HtmlBlock),
            ) => panic!("markup made of data: {tag:?}\n{md}"),
            Event::Html(h) | Event::InlineHtml(h) => panic!("HTML made of data: {h}\n{md}"),
            Event::Code(c) => code.push(c.into_string()),
            _ => {}
        }
    }
    assert_eq!(deepest, 2, "variants are nested under their response\n{md}");
    // Every hostile wording is shown whole, quoted, in one code span.
    for hostile in HOSTILE {
        let quoted = utter_compiler::diagnostics::escape::quote(hostile);
        assert!(
            code.iter().any(|c| c.trim() == quoted),
            "{hostile:?} not shown as {quoted}\n{md}"
        );
    }
    assert!(
        code.iter().any(|c| c.contains("utter_*added* @here")),
        "{md}"
    );
    assert!(code.iter().any(|c| c.contains("utter_<b>gone</b>")), "{md}");
    assert!(
        code.iter()
            .any(|c| c.contains("utter_`tick`\\u{a}::add-mask::x")),
        "{md}"
    );
    // The text form: no line of data.
    let out = utter(&["diff", old.to_str().unwrap(), new.to_str().unwrap()]);
    let plain = text(&out.stdout);
    assert!(
        plain
            .lines()
            .all(|l| !l.starts_with("::") && !l.starts_with("##")),
        "{plain}"
    );
    let _ = std::fs::remove_dir_all(old);
    let _ = std::fs::remove_dir_all(new);
}

#[test]
fn diff_reports_a_swap_as_one_move_and_states_as_memory_documents() {
    let old = agent("swap-old", &["First.", "Second.", "Default."], None);
    let new = project(
        "swap-new",
        &[
            ("memory.yml", "n: {type: int}\n"),
            (
                "responses.yml",
                &format!(
                    "responses:\n  {}:\n    - text: Second.\n      condition: session.project.n == 1\n    - text: First.\n      condition: session.project.n == 0\n    - text: Default.\n",
                    yaml("utter_`tick`\n::add-mask::x")
                ),
            ),
        ],
    );
    let out = utter(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = doc["changed"][0]["changes"].as_array().unwrap();
    let fields: Vec<&str> = changes
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    // One of the two left the order of the rest: one move, not two.
    assert_eq!(fields, ["moved"], "{doc}");
    for m in doc["changed"][0]["moved"].as_array().unwrap() {
        assert!(m["memory"]["project"]["n"].is_i64(), "{m}");
    }
    let _ = std::fs::remove_dir_all(old);
    let _ = std::fs::remove_dir_all(new);
}

#[cfg(unix)]
#[test]
fn the_snapshot_is_never_written_or_read_through_a_link() {
    let dir = agent("links", &["One.", "Default."], None);
    let outside = std::env::temp_dir().join(format!("utter-review-outside-{}", std::process::id()));
    std::fs::write(&outside, "keep me\n").unwrap();
    let snap = dir.join("responses.snap");
    std::os::unix::fs::symlink(&outside, &snap).unwrap();
    let d = dir.to_str().unwrap();
    for args in [vec!["snapshot", d], vec!["snapshot", d, "--check"]] {
        let out = utter(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("symbolic link"),
            "{}",
            text(&out.stderr)
        );
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me\n");
    std::fs::remove_file(&snap).unwrap();
    for special in ["/dev/zero", "/proc/self/environ"] {
        if Path::new(special).exists() {
            let out = utter(&["snapshot", d, "--check", "--out", special]);
            assert_eq!(out.status.code(), Some(2), "{special}");
            assert!(
                text(&out.stderr).contains("not a regular file"),
                "{special}"
            );
            assert!(
                text(&out.stdout).is_empty(),
                "{special}: nothing of it printed"
            );
        }
    }
    // Written once, it checks clean.
    assert_eq!(utter(&["snapshot", d]).status.code(), Some(0));
    assert_eq!(utter(&["snapshot", d, "--check"]).status.code(), Some(0));
    let _ = std::fs::remove_file(outside);
    let _ = std::fs::remove_dir_all(dir);
}

/// An error in one response hides neither the analysis of the others in
/// `check` nor their explanation; the broken response is not analysed.
#[test]
fn the_analysis_survives_unrelated_errors() {
    let dir = project(
        "unrelated",
        &[
            ("memory.yml", "g: {type: float}\n"),
            (
                "responses.yml",
                "responses:\n  utter_r:\n    - text: v\n      condition: session.project.g > 1\n    - text: w\n      condition: session.project.g > 2\n    - text: d\n  utter_broken:\n    - text: x\n      condition: session.project.nope > 1\n    - text: x\n      condition: session.project.nope > 2\n    - text: y\n",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let out = utter(&["check", d, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_owned(),
                f["response"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert!(
        codes.contains(&(
            "utter.analysis.unreachable_variant".into(),
            "utter_r".into()
        )),
        "{codes:?}"
    );
    assert!(
        !codes
            .iter()
            .any(|(c, r)| c.starts_with("utter.analysis") && r == "utter_broken"),
        "no cascade: {codes:?}"
    );
    let out = utter(&["explain", d, "utter_r"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("shadowed by variant 0"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("explained all the same"));
    let out = utter(&["explain", d, "utter_broken"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

/// `explain` and the snapshot name the placeholders a delivering state
/// may leave unset, with such a state; one the condition guarantees is not.
#[test]
fn placeholders_that_may_be_unset_are_named_with_a_state() {
    let dir = project(
        "unset",
        &[
            ("memory.yml", "x: {type: int}\ny: {type: int}\n"),
            (
                "responses.yml",
                "responses:\n  utter_r:\n    - text: \"x is {session.project.x}\"\n      condition: session.project.y == 1 or session.project.x > 0\n    - text: \"y is {session.project.y}\"\n      condition: session.project.y > 5\n    - text: d\n",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let out = utter(&["explain", d, "utter_r", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let unset = &doc["variants"][0]["may_be_unset"];
    assert_eq!(unset[0]["placeholder"], "{session.project.x}", "{doc}");
    assert_eq!(
        unset[0]["witness"],
        serde_json::json!({"project": {"y": 1}}),
        "{doc}"
    );
    // `y > 5` holds only when y is set.
    assert_eq!(
        doc["variants"][1]["may_be_unset"],
        serde_json::json!([]),
        "{doc}"
    );
    assert_eq!(utter(&["snapshot", d]).status.code(), Some(0));
    let snap = std::fs::read_to_string(dir.join("responses.snap")).unwrap();
    assert!(
        snap.contains("~ may be unset: \"{session.project.x}\" (delivered as written, e.g., when session.project.y = 1)"),
        "{snap}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `explain` and `render` print the warnings of the response asked about,
/// and only a count of the rest.
#[test]
fn explain_and_render_show_only_their_responses_warnings() {
    let shadowed = |name: &str| {
        format!(
            "  {name}:\n    - text: v\n      condition: session.project.g > 1\n    - text: w\n      condition: session.project.g > 2\n    - text: d\n"
        )
    };
    let responses = format!(
        "responses:\n{}{}{}",
        shadowed("utter_a"),
        shadowed("utter_b"),
        shadowed("utter_c")
    );
    let dir = project(
        "noise",
        &[
            ("memory.yml", "g: {type: float}\n"),
            ("responses.yml", &responses),
        ],
    );
    let d = dir.to_str().unwrap();
    for args in [vec!["explain", d, "utter_a"], vec!["render", d, "utter_a"]] {
        let out = utter(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("response `utter_a`, variant 1"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("utter_b") && !err.contains("utter_c"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("note: 2 more warnings about other responses"),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A variant dead only because the view cannot read another skill's
/// private entries says so.
#[test]
fn a_variant_dead_in_another_view_names_the_private_entries() {
    let skill_md = "---\ndescription: d\n---\nBody.\n";
    let dir = project(
        "private",
        &[
            ("skills/a/skill.md", skill_md),
            ("skills/b/skill.md", skill_md),
            (
                "skills/a/memory.yml",
                "schema:\n  private:\n    x: {type: int}\n",
            ),
            (
                "skills/a/responses.yml",
                "responses:\n  utter_r:\n    - text: v\n      condition: session.a.x == 1\n    - text: d\n",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let out = utter(&["explain", d, "utter_r"]);
    assert!(
        text(&out.stdout).contains("delivered when: session.a.x = 1"),
        "{}",
        text(&out.stdout)
    );
    let out = utter(&["explain", d, "utter_r", "--skill", "b"]);
    let shown = text(&out.stdout);
    assert!(
        shown.contains("it reads `session.a.x` (private to skill `a`), which read as None while skill `b` is active"),
        "{shown}{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_notes_unset_placeholders_only_when_asked() {
    let dir = project(
        "unset-notes",
        &[
            ("memory.yml", "x: {type: int}\ny: {type: int}\n"),
            (
                "responses.yml",
                "responses:\n  utter_r:\n    - text: \"Pay {session.project.x}.\"\n      condition: session.project.y == 1\n    - text: \"Now {session.project.x}.\"\n      condition: session.project.x > 0\n    - text: Nothing.\n",
            ),
        ],
    );
    let d = dir.to_str().unwrap();
    let code = "utter.analysis.placeholder_may_be_unset";
    let plain = utter(&["check", d, "--format", "json"]);
    assert!(
        !text(&plain.stdout).contains(code),
        "{}",
        text(&plain.stdout)
    );
    let asked = utter(&["check", d, "--format", "json", "--unset-placeholders"]);
    // A note: the check still passes.
    assert_eq!(asked.status.code(), Some(0), "{}", text(&asked.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&asked.stdout).unwrap();
    let notes: Vec<&serde_json::Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == code)
        .collect();
    // Variant 0 can be delivered with x unset; variant 1 only with x > 0.
    assert_eq!(notes.len(), 1, "{doc}");
    assert_eq!(notes[0]["variant"], 0, "{doc}");
    assert_eq!(notes[0]["severity"], "note", "{doc}");
    // At the placeholder, not the whole text.
    assert_eq!(
        (
            &notes[0]["line"],
            &notes[0]["column"],
            &notes[0]["end_column"]
        ),
        (&3.into(), &18.into(), &37.into()),
        "{doc}"
    );
    let message = notes[0]["message"].as_str().unwrap();
    assert!(
        message.contains("{session.project.x}") && message.contains("session.project.y = 1"),
        "{message}"
    );
    let human = utter(&["check", d, "--unset-placeholders", "--color", "never"]);
    assert!(
        text(&human.stdout).contains(&format!("note[{code}]")),
        "{}",
        text(&human.stdout)
    );
    // Raised in utter.yml it is checked without the flag, at that level;
    // `allow` silences it even with the flag.
    for (level, exit, severity) in [
        ("deny", 1, Some("error")),
        ("warn", 0, Some("warning")),
        ("allow", 0, None),
    ] {
        std::fs::write(
            dir.join("utter.yml"),
            format!("lints:\n  {code}: {level}\n"),
        )
        .unwrap();
        for flag in [&[][..], &["--unset-placeholders"][..]] {
            let mut args = vec!["check", d, "--format", "json"];
            args.extend_from_slice(flag);
            let out = utter(&args);
            let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let found: Vec<&serde_json::Value> = doc["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["code"] == code)
                .collect();
            match severity {
                Some(severity) => {
                    assert_eq!(found.len(), 1, "{level} {flag:?}: {doc}");
                    assert_eq!(found[0]["severity"], severity, "{level} {flag:?}: {doc}");
                }
                None => assert!(found.is_empty(), "{level} {flag:?}: {doc}"),
            }
            assert_eq!(out.status.code(), Some(exit), "{level} {flag:?}: {doc}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
