//! `utter lsp` end to end: a scripted JSON-RPC client over stdio drives a
//! session on a copy of the example agent (the client and
//! the sessions share this file, each session one test).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Diagnostics published so far, latest per URI.
    diagnostics: std::collections::HashMap<String, Vec<Value>>,
}

impl Drop for Client {
    /// A failed test must not leave the server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_utter"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("utter lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                reader.read_exact(&mut body).expect("a whole message");
                let message: Value = serde_json::from_slice(&body).expect("JSON");
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            next_id: 1,
            diagnostics: Default::default(),
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("written");
        self.stdin.flush().expect("flushed");
    }

    fn receive(&mut self) -> Value {
        let message = self
            .incoming
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers");
        if message["method"] == "textDocument/publishDiagnostics" {
            let uri = message["params"]["uri"].as_str().unwrap().to_owned();
            let list = message["params"]["diagnostics"].as_array().unwrap().clone();
            self.diagnostics.insert(uri, list);
        }
        message
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == id {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The hover text at `position` of `uri`.
    fn hover(&mut self, uri: &str, position: Value) -> String {
        let hover = self.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position}),
        );
        hover["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// The labels of the completion items at `position` of `uri`.
    fn completion_labels(&mut self, uri: &str, position: Value) -> Vec<String> {
        let items = self.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": position}),
        );
        items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Waits until the diagnostics of `uri` are published, then returns them.
    fn diagnostics_of(&mut self, uri: &str) -> Vec<Value> {
        self.diagnostics.remove(uri);
        loop {
            if let Some(list) = self.diagnostics.get(uri) {
                return list.clone();
            }
            self.receive();
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The position (0-based line, UTF-16 column) of the first `needle` in `text`, plus `extra` columns.
fn position_of(text: &str, needle: &str, extra: u32) -> Value {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in the text"));
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..at].encode_utf16().count();
    json!({"line": line, "character": column as u32 + extra})
}

#[test]
fn a_scripted_editor_session() {
    let agent: PathBuf = std::env::temp_dir().join(format!("utter-lsp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/card-agent"),
        &agent,
    );
    let responses = agent.join("skills/card_replace/responses.yml");
    let responses_uri = uri(&responses);
    let skill_md = agent.join("skills/card_replace/skill.md");
    let memory = agent.join("skills/card_replace/memory.yml");
    let original = std::fs::read_to_string(&responses).unwrap();

    let mut client = Client::start();
    let init = client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&agent), "capabilities": {}}),
    );
    let caps = &init["capabilities"];
    for cap in [
        "definitionProvider",
        "referencesProvider",
        "hoverProvider",
        "completionProvider",
        "codeActionProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap}: {init}");
    }
    client.notify("initialized", json!({}));

    // A typo in the open (unsaved) document: diagnosed from its text, not the disk.
    let typo = original.replacen(
        "session.card_replace.replacement_reason == \"stolen\"",
        "session.card_replace.replacment_reason == \"stolen\"",
        1,
    );
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": responses_uri, "languageId": "yaml", "version": 1, "text": typo}}),
    );
    let diagnostics = client.diagnostics_of(&responses_uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "mantle.validation.response.unknown_memory_key");
    assert_eq!(d["severity"], 1);
    assert_eq!(
        d["range"]["start"],
        position_of(&typo, "session.card_replace.replacment_reason", 0)
    );

    // The did-you-mean is a quick fix.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": responses_uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let edit = &actions[0]["edit"]["changes"][&responses_uri][0];
    assert_eq!(
        edit["newText"], "session.card_replace.replacement_reason",
        "{actions}"
    );
    assert_eq!(edit["range"], d["range"]);

    // Fixed in the editor: the diagnostics clear, and the re-check is timed.
    let started = Instant::now();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": responses_uri, "version": 2}, "contentChanges": [{"text": original}]}),
    );
    assert_eq!(client.diagnostics_of(&responses_uri), Vec::<Value>::new());
    eprintln!(
        "re-check after a change, example agent: {:?}",
        started.elapsed()
    );

    // Go to definition: skill.md step -> response; condition -> memory.yml.
    let skill_text = std::fs::read_to_string(&skill_md).unwrap();
    let found = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&skill_md)}, "position": position_of(&skill_text, "utter_card_replacement_fee", 3)}),
    );
    assert_eq!(found[0]["uri"], responses_uri.as_str(), "{found}");
    assert_eq!(
        found[0]["range"]["start"],
        position_of(&original, "utter_card_replacement_fee:", 0)
    );
    let found = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": responses_uri}, "position": position_of(&original, "session.card_replace.replacement_reason", 25)}),
    );
    let memory_text = std::fs::read_to_string(&memory).unwrap();
    assert_eq!(found[0]["uri"], uri(&memory), "{found}");
    assert_eq!(
        found[0]["range"]["start"],
        position_of(&memory_text, "replacement_reason:", 0)
    );

    // References of the entry: its declaration, conditions, skill.md.
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": responses_uri}, "position": position_of(&original, "session.card_replace.replacement_reason", 25), "context": {"includeDeclaration": true}}),
    );
    let files: Vec<&str> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert!(files.contains(&uri(&memory).as_str()), "{refs}");
    assert!(files.contains(&responses_uri.as_str()), "{refs}");
    assert!(files.contains(&uri(&skill_md).as_str()), "{refs}");

    // Hover: a response's variants; an entry's type and values.
    let shown = client.hover(
        &uri(&skill_md),
        position_of(&skill_text, "utter_card_replacement_fee", 3),
    );
    assert!(
        shown.contains("utter_card_replacement_fee") && shown.contains("Standard replacement"),
        "{shown}"
    );
    let shown = client.hover(
        &responses_uri,
        position_of(&original, "session.card_replace.replacement_reason", 25),
    );
    assert!(
        shown.contains("categorical") && shown.contains("stolen"),
        "{shown}"
    );

    // Completion: entries after `session.<ns>.`, values after `==`.
    let typing = original.replacen(
        "condition: 'session.card_replace.replacement_reason == \"stolen\"'",
        "condition: 'session.card_replace.",
        1,
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": responses_uri, "version": 3}, "contentChanges": [{"text": typing}]}),
    );
    let labels = client.completion_labels(
        &responses_uri,
        position_of(&typing, "condition: 'session.card_replace.\n", 33),
    );
    assert!(
        labels.iter().any(|l| l == "replacement_reason")
            && labels.iter().any(|l| l == "shipping_speed"),
        "{labels:?}"
    );
    // The user has typed `== "` inside the YAML string.
    let typing = original.replacen("== \"stolen\"'", "== \"'", 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": responses_uri, "version": 4}, "contentChanges": [{"text": typing}]}),
    );
    let at = typing.find("== \"'").unwrap() + 4;
    let line = typing[..at].matches('\n').count();
    let column = at - typing[..at].rfind('\n').unwrap() - 1;
    let labels =
        client.completion_labels(&responses_uri, json!({"line": line, "character": column}));
    assert_eq!(labels, ["lost", "stolen", "damaged", "not_received"]);

    // A change in one file re-checks the others: removing the entry from
    // memory.yml breaks the (unchanged) responses.yml.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": responses_uri, "version": 5}, "contentChanges": [{"text": original}]}),
    );
    assert_eq!(client.diagnostics_of(&responses_uri), Vec::<Value>::new());
    let memory_uri = uri(&memory);
    let without = memory_text.replacen("    replacement_reason:", "    replaced_reason:", 1);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": memory_uri, "languageId": "yaml", "version": 1, "text": without}}),
    );
    let diagnostics = client.diagnostics_of(&responses_uri);
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "mantle.validation.response.unknown_memory_key"),
        "{diagnostics:?}"
    );
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": memory_uri}}),
    );
    assert_eq!(client.diagnostics_of(&responses_uri), Vec::<Value>::new());

    // A malformed file is a diagnostic, and the server keeps serving.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": responses_uri, "version": 6}, "contentChanges": [{"text": "responses:\n  utter_x: [\n\u{0}\u{feff}{{"}]}),
    );
    let diagnostics = client.diagnostics_of(&responses_uri);
    assert!(!diagnostics.is_empty());
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&skill_md)}, "position": {"line": 9999, "character": 9999}}),
    );
    assert!(hover.is_null(), "{hover}");

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let status = client.child.wait().expect("the server exits");
    assert!(status.success(), "{status}");
    let _ = std::fs::remove_dir_all(&agent);
}

/// Neovim's built-in LSP client against the server: run when `nvim` is on
/// the PATH (CI installs it), skipped with a message otherwise.
#[test]
fn a_neovim_session() {
    let Ok(version) = Command::new("nvim").arg("--version").output() else {
        eprintln!("skipped: `nvim` is not installed (apt-get install neovim)");
        return;
    };
    eprintln!(
        "{}",
        String::from_utf8_lossy(&version.stdout)
            .lines()
            .next()
            .unwrap_or("")
    );
    let agent = std::env::temp_dir().join(format!("utter-nvim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/card-agent"),
        &agent,
    );
    let responses = agent.join("skills/card_replace/responses.yml");
    let text = std::fs::read_to_string(&responses).unwrap();
    std::fs::write(
        &responses,
        text.replacen(
            "session.card_replace.replacement_reason == \"stolen\"",
            "session.card_replace.replacment_reason == \"stolen\"",
            1,
        ),
    )
    .unwrap();
    let out = agent.join("nvim-out.txt");
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-u"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim/session.lua"))
        .env("UTTER_BIN", env!("CARGO_BIN_EXE_utter"))
        .env("UTTER_NVIM_OUT", &out)
        .env("UTTER_NVIM_FILE", &responses)
        .env("UTTER_NVIM_ROOT", &agent)
        .stdin(Stdio::null())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "{status}");
    let report = std::fs::read_to_string(&out).expect("the session wrote its report");
    assert!(
        report.contains("diagnostic 14:19 mantle.validation.response.unknown_memory_key"),
        "{report}"
    );
    let memory = uri(&agent.join("skills/card_replace/memory.yml"));
    assert!(
        report.contains(&format!("definition {memory} 2")),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&agent);
}

#[test]
fn definition_lists_the_overridden_definitions_too() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-override-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    for (path, text) in [
        (
            "skills/a/responses.yml",
            "responses:\n  utter_shared:\n    - text: from a\n",
        ),
        (
            "skills/b/responses.yml",
            "responses:\n  utter_other:\n    - text: o\n  utter_shared:\n    - text: from b\n",
        ),
        (
            "skills/a/skill.md",
            "---\ndescription: a\n---\n\n:::ordered_block id=main\nsteps:\n  - id: s\n    action: utter_shared\n:::\n",
        ),
        ("skills/b/skill.md", "---\ndescription: b\n---\nBody.\n"),
    ] {
        let path = agent.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    let skill_md = agent.join("skills/a/skill.md");
    let found = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&skill_md)}, "position": {"line": 7, "character": 16}}),
    );
    let places: Vec<(String, u64)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap().to_owned(),
                l["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            (uri(&agent.join("skills/b/responses.yml")), 3),
            (uri(&agent.join("skills/a/responses.yml")), 1)
        ],
        "the delivered definition first: {found}"
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// Runs `utter lsp` on raw bytes; its exit code and stderr.
fn raw_session(input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_utter"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("utter lsp starts");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().expect("the server ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Hostile and malformed frames end the server with a logged error and a
/// non-zero exit, at once and without allocating what a frame claims.
#[test]
fn malformed_frames_end_the_server_loudly() {
    let huge_line = vec![b'A'; 1 << 20];
    for (what, input) in [
        (
            "a huge length",
            b"Content-Length: 1000000000000\r\n\r\n".to_vec(),
        ),
        ("a negative length", b"Content-Length: -5\r\n\r\n".to_vec()),
        ("no length", b"Content-Type: x\r\n\r\n{}".to_vec()),
        ("invalid JSON", b"Content-Length: 3\r\n\r\n{]}".to_vec()),
        ("an endless header line", huge_line),
        (
            "a body cut short",
            b"Content-Length: 600000000\r\n\r\n{\"jsonrpc\"".to_vec(),
        ),
    ] {
        let started = Instant::now();
        let (code, stderr) = raw_session(&input);
        assert_eq!(code, Some(1), "{what}: {stderr}");
        assert!(stderr.starts_with("utter lsp: "), "{what}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(20), "{what}");
    }
    // LF-only headers are accepted, and the end of the input ends a session cleanly.
    let mut input = String::new();
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ] {
        input.push_str(&format!("Content-Length: {}\n\n{body}", body.len()));
    }
    let (code, stderr) = raw_session(input.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
}

fn open(client: &mut Client, path: &Path, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(path), "languageId": "yaml", "version": 1, "text": text}}),
    );
}

/// A document over the file-size cap is not checked: a diagnostic says so.
#[test]
fn an_oversized_document_is_refused_with_a_diagnostic() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-big-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    std::fs::create_dir_all(&agent).unwrap();
    let file = agent.join("responses.yml");
    std::fs::write(&file, "responses:\n  utter_a:\n    - text: a\n").unwrap();
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    let big = format!(
        "responses:\n  utter_a:\n    - text: \"{}\"\n",
        "x".repeat(9 << 20)
    );
    open(&mut client, &file, &big);
    let diagnostics = client.diagnostics_of(&uri(&file));
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let message = diagnostics[0]["message"].as_str().unwrap();
    assert!(message.contains("it is not checked"), "{message}");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// A burst of changes is checked as one: far fewer diagnostics than changes,
/// the last text wins, and a hover sent after the burst is answered.
#[test]
fn a_burst_of_changes_is_coalesced() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-burst-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    std::fs::create_dir_all(&agent).unwrap();
    let file = agent.join("responses.yml");
    let text = |n: usize| {
        let mut t = String::from("responses:\n");
        for r in 0..2000 {
            t.push_str(&format!("  utter_{r}:\n    - text: \"{{nope{n}}}\"\n"));
        }
        t
    };
    std::fs::write(&file, text(0)).unwrap();
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    open(&mut client, &file, &text(0));
    let changes = 200;
    for n in 1..=changes {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(&file), "version": n + 1}, "contentChanges": [{"text": text(n)}]}),
        );
    }
    let id = client.next_id;
    client.next_id += 1;
    client.send(
        json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri(&file)}, "position": {"line": 1, "character": 4}}}),
    );
    let mut published = 0;
    loop {
        let message = client.receive();
        if message["method"] == "textDocument/publishDiagnostics" {
            published += 1;
        }
        if message["id"] == id {
            break;
        }
    }
    assert!(
        published < changes / 4,
        "{published} checks for {changes} changes"
    );
    // The hover saw the last text: its diagnostics are the last change's.
    let last = client
        .diagnostics
        .get(&uri(&file))
        .cloned()
        .unwrap_or_default();
    assert!(
        last.first().is_some_and(|d| d["message"]
            .as_str()
            .unwrap()
            .contains(&format!("nope{changes}"))),
        "{:?}",
        last.first()
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// Memory references in skill.md prose (`@memory.<ns>.<entry>`), `collect:`
/// steps and the declarations in memory.yml itself answer hover,
/// definition and references.
#[test]
fn memory_symbols_everywhere_answer() {
    let agent: PathBuf = std::env::temp_dir().join(format!("utter-lsp-mem-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/card-agent"),
        &agent,
    );
    let skill_md = agent.join("skills/card_replace/skill.md");
    let memory = agent.join("skills/card_replace/memory.yml");
    let skill_text = std::fs::read_to_string(&skill_md).unwrap();
    let memory_text = std::fs::read_to_string(&memory).unwrap();
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    let definition_line = |client: &mut Client, file: &Path, position: Value| {
        let found = client.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": uri(file)}, "position": position}),
        );
        let first = &found.as_array().expect("locations")[0];
        (
            first["uri"].as_str().unwrap().to_owned(),
            first["range"]["start"]["line"].as_u64().unwrap(),
        )
    };
    let declared_at = memory_text[..memory_text.find("replacement_reason:").unwrap()]
        .matches('\n')
        .count() as u64;
    // `@memory.card_replace.replacement_reason` in prose.
    let at = position_of(&skill_text, "@memory.card_replace.replacement_reason", 12);
    let hover = client.hover(&uri(&skill_md), at.clone());
    assert!(hover.contains("replacement_reason"), "{hover}");
    assert_eq!(
        definition_line(&mut client, &skill_md, at),
        (uri(&memory), declared_at)
    );
    // `collect: shipping_speed`.
    let at = position_of(&skill_text, "collect: shipping_speed", 12);
    let shipping_at = memory_text[..memory_text.find("shipping_speed:").unwrap()]
        .matches('\n')
        .count() as u64;
    assert_eq!(
        definition_line(&mut client, &skill_md, at),
        (uri(&memory), shipping_at)
    );
    // The declaration itself: hover, definition (itself) and references.
    let at = position_of(&memory_text, "replacement_reason:", 3);
    let hover = client.hover(&uri(&memory), at.clone());
    assert!(hover.contains("categorical"), "{hover}");
    assert_eq!(
        definition_line(&mut client, &memory, at.clone()),
        (uri(&memory), declared_at)
    );
    let references = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&memory)}, "position": at, "context": {"includeDeclaration": true}}),
    );
    assert!(
        references.as_array().is_some_and(|r| r.len() >= 2),
        "{references}"
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// Hover on a variant tells when it is delivered, or why it never is.
#[test]
fn hover_on_a_variant_shows_its_verdict() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-verdict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    let responses = "responses:\n  utter_fee:\n    - text: A fee applies.\n      condition: session.card.reason == 'lost' or session.card.reason == 'stolen'\n    - text: Free this month.\n      condition: session.card.reason == 'lost'\n    - text: Standard.\n";
    for (path, text) in [
        (
            "skills/card/memory.yml",
            "schema:\n  public:\n    reason: {type: categorical, enum_values: [lost, stolen, damaged]}\n",
        ),
        ("skills/card/skill.md", "---\ndescription: d\n---\nBody.\n"),
        ("skills/card/responses.yml", responses),
    ] {
        let path = agent.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let file = agent.join("skills/card/responses.yml");
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    let hover = client.hover(&uri(&file), position_of(responses, "Free this month", 2));
    assert!(
        hover.contains("never delivered: shadowed by variant 0"),
        "{hover}"
    );
    let hover = client.hover(&uri(&file), position_of(responses, "A fee applies", 2));
    assert!(
        hover.contains("delivered when: session.card.reason = 'lost'"),
        "{hover}"
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// A misspelt categorical value (`"lsot"`) is a diagnostic on the literal
/// whose quick fix writes the value, quotes kept.
#[test]
fn a_misspelt_value_has_a_quick_fix_on_the_literal() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-lsot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    let responses = "responses:\n  utter_fee:\n    - text: a\n      condition: session.card.reason == \"lsot\"\n    - text: b\n";
    for (path, text) in [
        (
            "skills/card/memory.yml",
            "schema:\n  public:\n    reason: {type: categorical, enum_values: [lost, stolen]}\n",
        ),
        ("skills/card/skill.md", "---\ndescription: d\n---\nBody.\n"),
        ("skills/card/responses.yml", responses),
    ] {
        let path = agent.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let file = uri(&agent.join("skills/card/responses.yml"));
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    open(
        &mut client,
        &agent.join("skills/card/responses.yml"),
        responses,
    );
    let diagnostics = client.diagnostics_of(&file);
    let d = diagnostics
        .iter()
        .find(|d| d["code"] == "utter.validation.condition.unknown_enum_value")
        .expect("the finding");
    assert_eq!(d["range"]["start"], position_of(responses, "\"lsot\"", 0));
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": file}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let edit = &actions[0]["edit"]["changes"][&file][0];
    assert_eq!(edit["newText"], "\"lost\"", "{actions}");
    assert_eq!(edit["range"], d["range"]);
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// Hover markdown never makes markup of the agent's data: names,
/// wording, witness values and descriptions are text, whatever they hold.
#[test]
fn hover_shows_hostile_data_as_text() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    let memory = "# see [docs](command:workbench.action.reloadWindow) <img src=https://evil.invalid/x.png> *now* `x` www.evil.invalid\nn: {type: text}\n";
    let responses = "responses:\n  \"utter_`a` *b*\":\n    - text: \"Reply *YES* <b>x</b> [l](https://evil.invalid)\"\n      condition: session.project.n == \"<img src=x>\"\n    - text: Default.\n";
    for (path, text) in [("memory.yml", memory), ("responses.yml", responses)] {
        std::fs::write(
            {
                std::fs::create_dir_all(&agent).unwrap();
                agent.join(path)
            },
            text,
        )
        .unwrap();
    }
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    let hovers = [
        client.hover(
            &uri(&agent.join("memory.yml")),
            position_of(memory, "n: {type", 0),
        ),
        client.hover(
            &uri(&agent.join("responses.yml")),
            position_of(responses, "Reply", 2),
        ),
    ];
    for md in &hovers {
        assert!(!md.is_empty(), "a hover: {hovers:?}");
        for event in pulldown_cmark::Parser::new_ext(md, pulldown_cmark::Options::all()) {
            use pulldown_cmark::{Event, Tag};
            match event {
                Event::Start(tag @ (Tag::Link { .. } | Tag::Image { .. } | Tag::Emphasis)) => {
                    panic!("markup from data: {tag:?} in {md}")
                }
                Event::Html(h) | Event::InlineHtml(h) => panic!("HTML from data: {h} in {md}"),
                _ => {}
            }
        }
    }
    assert!(hovers[0].contains("reloadWindow"), "{}", hovers[0]);
    assert!(hovers[1].contains("delivered when"), "{}", hovers[1]);
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}

/// A well-framed message nested deeper than the parser goes is refused
/// alone: a request gets an error answer, and the session goes on.
#[test]
fn a_message_nested_too_deep_is_refused_and_the_session_goes_on() {
    let mut client = Client::start();
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("initialized", json!({}));
    let mut nested = json!([]);
    for _ in 0..125 {
        nested = json!([nested]);
    }
    client.send(
        json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": nested}),
    );
    let refusal = loop {
        let message = client.receive();
        if message["id"] == 99 {
            break message;
        }
    };
    assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    assert!(
        refusal["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("nested 127 levels deep")),
        "{refusal}"
    );
    // The session goes on.
    client.request("shutdown", Value::Null);
}

/// The server asks for incremental sync, and an editor's ranged changes
/// (UTF-16 columns, several in one notification) give the diagnostics of
/// the text they make; a ranged change to a document the server does not
/// hold is refused with a diagnostic, not applied to nothing.
#[test]
fn ranged_changes_are_applied_as_the_editor_made_them() {
    let agent = std::env::temp_dir().join(format!("utter-lsp-ranged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&agent);
    std::fs::create_dir_all(&agent).unwrap();
    let file = agent.join("responses.yml");
    let text =
        "responses:\n  utter_a:\n    - text: \"Café 😀 {nope}\"\n  utter_b:\n    - text: b\n";
    std::fs::write(&file, text).unwrap();
    let mut client = Client::start();
    let init = client.request("initialize", json!({"processId": null, "capabilities": {}}));
    assert_eq!(init["capabilities"]["textDocumentSync"], 2, "{init}");
    client.notify("initialized", json!({}));
    open(&mut client, &file, text);
    assert_eq!(client.diagnostics_of(&uri(&file)).len(), 1);
    // `{nope}` is after the emoji (two UTF-16 units): replace it, then
    // add a response below, in one notification.
    let nope = position_of(text, "{nope}", 0);
    let after = |p: &Value, n: u32| json!({"line": p["line"], "character": p["character"].as_u64().unwrap() as u32 + n});
    let end = position_of(text, "b\n", 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [
            {"range": {"start": nope, "end": after(&nope, 6)}, "text": "x"},
            {"range": {"start": end, "end": end}, "text": "\n  utter_c:\n    - text: \"{nope2}\""},
        ]}),
    );
    let diagnostics = client.diagnostics_of(&uri(&file));
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(
        diagnostics[0]["range"]["start"]["line"], 6,
        "{diagnostics:?}"
    );
    // A document never opened: its ranged change is refused, said so.
    let other = agent.join("memory.yml");
    std::fs::write(&other, "n:\n  type: int\n").unwrap();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&other), "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "m"},
        ]}),
    );
    let refused = client.diagnostics_of(&uri(&other));
    assert!(
        refused[0]["message"]
            .as_str()
            .unwrap()
            .contains("does not hold its text"),
        "{refused:?}"
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&agent);
}
