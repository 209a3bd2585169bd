//! `utter lsp`: a language server over stdio for the files of agent
//! projects (`responses.yml`, `memory.yml`, `skills/*/skill.md`).
//!
//! Built on `lsp-server` + `lsp-types`, the synchronous pair rust-analyzer
//! uses: a check is milliseconds and runs on the message loop, so an async
//! runtime would add dependencies and nothing else.

mod complete;
mod features;
mod project;
mod text;
mod transport;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, References, Request as _,
};
use lsp_types::{
    CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability, CompletionOptions,
    CompletionParams, CompletionResponse, GotoDefinitionParams, GotoDefinitionResponse, Hover,
    HoverContents, HoverParams, HoverProviderCapability, MarkupContent, MarkupKind, OneOf,
    PublishDiagnosticsParams, ReferenceParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};

use project::{Project, agent_root};

/// Runs the server until the client says `exit` (or the input ends).
pub fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (connection, backlog) = transport::stdio();
    let capabilities = ServerCapabilities {
        // Incremental: a keystroke sends its edit, not the whole document
        // (a big responses.yml is hundreds of kilobytes each time).
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                [".", "{", "=", " ", "\"", "'", ":"]
                    .map(str::to_owned)
                    .to_vec(),
            ),
            ..Default::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    };
    connection.initialize(serde_json::to_value(capabilities)?)?;
    let mut server = Server::default();
    // Messages are taken in batches of what has arrived: changes in a
    // batch only update the documents, and a project is checked once per
    // batch (or before a request about it is answered), so a burst of
    // edits costs one check, and requests are answered between checks.
    while let Ok(first) = connection.receiver.recv() {
        let batch: Vec<Message> = std::iter::once(first)
            .chain(connection.receiver.try_iter())
            .inspect(|_| backlog.taken())
            .collect();
        for message in batch {
            match message {
                Message::Request(request) if request.method == "shutdown" => {
                    connection
                        .sender
                        .send(Message::Response(Response::new_ok(request.id, ())))?;
                }
                Message::Request(request) => {
                    for n in guarded(|| server.check_for(&request), Vec::new()) {
                        connection.sender.send(Message::Notification(n))?;
                    }
                    let id = request.id.clone();
                    // A bug must not end the editor's session: answer with an error.
                    let response = guarded(
                        || server.request(request),
                        Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            "utter: internal error".into(),
                        ),
                    );
                    connection.sender.send(Message::Response(response))?;
                }
                Message::Notification(n) if n.method == "exit" => return Ok(()),
                Message::Notification(notification) => {
                    guarded(|| server.notify(notification), ());
                }
                Message::Response(_) => {}
            }
        }
        for n in guarded(|| server.check_dirty(), Vec::new()) {
            connection.sender.send(Message::Notification(n))?;
        }
        // Freed once the diagnostics are on their way, not before.
        server.retired.clear();
    }
    Ok(())
}

/// How much of a project a check after a change brings up to date.
#[derive(Clone, Copy, PartialEq)]
enum Check {
    /// Its findings, from the edited response alone when the change is a
    /// keystroke inside one (`Project::take_edit`), else everything.
    EditAlone,
    /// Everything: a request reads where each response is.
    Whole,
}

/// `work()`, or `otherwise` if it panics (a bug must not end the session).
fn guarded<T>(work: impl FnOnce() -> T, otherwise: T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or(otherwise)
}

/// The largest document checked (as a file on disk would be).
const MAX_DOCUMENT: usize = utter_compiler::load::project::MAX_FILE_BYTES as usize;
/// The most text all open documents may hold together.
const MAX_OPEN_TEXT: usize = 64 * 1024 * 1024;
/// The most open documents kept (each may be its own project).
const MAX_OPEN_DOCUMENTS: usize = 1_000;
/// The most checked projects kept; the least recently used beyond are
/// dropped and checked again when next asked about (their published
/// diagnostics are remembered, so fixed files are still cleared).
const MAX_PROJECTS: usize = 32;

#[derive(Default)]
struct Server {
    /// Unsaved text of open documents, by absolute path.
    overlays: HashMap<PathBuf, String>,
    /// Open documents that are not checked, and why (too large, or over
    /// the budget of open text): a diagnostic says so.
    refused: HashMap<PathBuf, String>,
    /// Checked projects, by agent folder, with when each was last used.
    projects: HashMap<PathBuf, (Project, u64)>,
    /// The clock of `projects`' uses.
    clock: u64,
    /// Per agent folder, the files diagnostics were last published for.
    published: HashMap<PathBuf, BTreeSet<String>>,
    /// Agent folders whose documents changed since their last check.
    dirty: BTreeSet<PathBuf>,
    /// Agent folders whose last edit was checked as one response alone:
    /// their findings are current, the rest of their check is not (a
    /// request about one checks the project first).
    unmodelled: BTreeSet<PathBuf>,
    /// Projects replaced by a check, freed after its diagnostics are sent.
    retired: Vec<Project>,
}

fn params<P: serde::de::DeserializeOwned>(value: serde_json::Value) -> Option<P> {
    serde_json::from_value(value).ok()
}

impl Server {
    /// Takes a document change: the text is kept (within the limits) and
    /// its project marked for a check.
    fn notify(&mut self, n: Notification) {
        // The document's new text (`None`: closed, read from disk again),
        // or why it cannot be known.
        let changed: Option<(Uri, Option<Result<String, String>>)> = match n.method.as_str() {
            DidOpenTextDocument::METHOD => params::<lsp_types::DidOpenTextDocumentParams>(n.params)
                .map(|p| (p.text_document.uri, Some(Ok(p.text_document.text)))),
            DidChangeTextDocument::METHOD => {
                params::<lsp_types::DidChangeTextDocumentParams>(n.params).and_then(|p| {
                    let path = text::path_of(&p.text_document.uri)?;
                    let held = self.overlays.remove(&path);
                    let edited = text::apply_changes(held, p.content_changes);
                    Some((p.text_document.uri, Some(edited)))
                })
            }
            DidCloseTextDocument::METHOD => {
                params::<lsp_types::DidCloseTextDocumentParams>(n.params)
                    .map(|p| (p.text_document.uri, None))
            }
            DidSaveTextDocument::METHOD => params::<lsp_types::DidSaveTextDocumentParams>(n.params)
                .map(|p| (p.text_document.uri.clone(), p.text.map(Ok))),
            _ => None,
        };
        let Some((uri, text)) = changed else {
            return;
        };
        let Some(path) = text::path_of(&uri) else {
            return;
        };
        self.overlays.remove(&path);
        self.refused.remove(&path);
        match text {
            Some(Ok(text)) => self.hold(&path, text),
            Some(Err(why)) => {
                self.refused.insert(path.clone(), why);
            }
            None => {}
        }
        if let Some(root) = agent_root(&path) {
            self.dirty.insert(root);
        }
    }

    /// Keeps the text of the open document `path`, or says why not.
    fn hold(&mut self, path: &std::path::Path, text: String) {
        let open: usize = self.overlays.values().map(String::len).sum();
        let refused = if text.len() > MAX_DOCUMENT {
            format!(
                "this document is {} bytes, more than the {MAX_DOCUMENT} utter reads from a file; it is not checked",
                text.len()
            )
        } else if self.overlays.len() >= MAX_OPEN_DOCUMENTS {
            if self.refused.len() >= MAX_OPEN_DOCUMENTS {
                // Not even a diagnostic is kept beyond this: logged.
                eprintln!(
                    "utter lsp: more than {MAX_OPEN_DOCUMENTS} documents open and as many refused; {} is ignored",
                    utter_compiler::diagnostics::escape::escape(&path.display().to_string())
                );
                return;
            }
            format!(
                "more than {MAX_OPEN_DOCUMENTS} documents are open; this one is not checked (close some)"
            )
        } else if open + text.len() > MAX_OPEN_TEXT {
            format!(
                "the open documents hold more than {MAX_OPEN_TEXT} bytes together; this one is not checked (close some)"
            )
        } else {
            self.overlays.insert(path.to_path_buf(), text);
            return;
        };
        self.refused.insert(path.to_path_buf(), refused);
    }

    /// Checks every changed project; their diagnostics.
    fn check_dirty(&mut self) -> Vec<Notification> {
        let dirty = std::mem::take(&mut self.dirty);
        dirty
            .into_iter()
            .flat_map(|root| self.recheck(root, Check::EditAlone))
            .collect()
    }

    /// Checks the project a request is about if it changed, so the answer
    /// sees the latest text; its diagnostics. Completion and quick fixes
    /// read the findings, the text and the names, which a keystroke
    /// checked alone keeps current; the others read every response's
    /// place, and check the whole project after one.
    fn check_for(&mut self, request: &Request) -> Vec<Notification> {
        let reads_places = matches!(
            request.method.as_str(),
            GotoDefinition::METHOD | References::METHOD | HoverRequest::METHOD
        );
        let uri = request
            .params
            .pointer("/textDocument/uri")
            .and_then(|u| u.as_str())
            .and_then(|u| u.parse::<Uri>().ok());
        let root = uri
            .as_ref()
            .and_then(text::path_of)
            .and_then(|p| agent_root(&p));
        match root {
            Some(root) => {
                let changed = self.dirty.remove(&root);
                match (changed, reads_places && self.unmodelled.contains(&root)) {
                    (_, true) => self.recheck(root, Check::Whole),
                    (true, false) => self.recheck(root, Check::EditAlone),
                    (false, false) => Vec::new(),
                }
            }
            None => Vec::new(),
        }
    }

    /// Checks the project again and publishes every file's diagnostics
    /// (empty ones for files fixed since).
    fn recheck(&mut self, root: PathBuf, check: Check) -> Vec<Notification> {
        let previous = self.published.remove(&root).unwrap_or_default();
        let project = match self.projects.remove(&root) {
            Some((mut old, _)) => {
                // A keystroke inside one response: that response alone.
                if check == Check::EditAlone && old.take_edit(&self.overlays) {
                    self.unmodelled.insert(root.clone());
                    old
                } else {
                    let cache = std::mem::take(&mut old.cache);
                    self.retired.push(old);
                    self.unmodelled.remove(&root);
                    Project::load(&root, &self.overlays, cache)
                }
            }
            None => {
                self.unmodelled.remove(&root);
                Project::load(&root, &self.overlays, utter_compiler::CheckCache::new())
            }
        };
        let mut labels: BTreeSet<String> = project
            .checked
            .findings
            .iter()
            .filter(|f| !utter_compiler::bundled::is_bundled(&f.file))
            .map(|f| f.file.clone())
            .collect();
        if labels.is_empty() {
            self.published.remove(&root);
        } else {
            self.published.insert(root.clone(), labels.clone());
        }
        labels.extend(previous);
        // Every open document of the project hears about each change, so a
        // client always sees the state of what it shows.
        labels.extend(self.overlays.keys().filter_map(|p| project.label(p)));
        labels.extend(self.refused.keys().filter_map(|p| project.label(p)));
        let out = labels
            .into_iter()
            .map(|label| {
                let path = root.join(&label);
                let diagnostics = match self.refused.get(&path) {
                    Some(why) => vec![lsp_types::Diagnostic {
                        severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                        code: Some(lsp_types::NumberOrString::String(
                            utter_compiler::codes::IO_REFUSED.into(),
                        )),
                        source: Some("utter".to_owned()),
                        message: why.clone(),
                        ..Default::default()
                    }],
                    None => features::diagnostics(&project, &label),
                };
                let params = PublishDiagnosticsParams::new(text::uri_of(&path), diagnostics, None);
                Notification::new(PublishDiagnostics::METHOD.to_owned(), params)
            })
            .collect();
        self.keep(root, project);
        out
    }

    /// Keeps `project` as the most recently used, dropping the least
    /// recently used beyond [`MAX_PROJECTS`].
    fn keep(&mut self, root: PathBuf, project: Project) {
        self.clock += 1;
        self.projects.insert(root, (project, self.clock));
        while self.projects.len() > MAX_PROJECTS {
            let oldest = self
                .projects
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(root, _)| root.clone());
            match oldest {
                Some(root) => self.projects.remove(&root),
                None => break,
            };
        }
    }

    /// The project of a document and its label there.
    fn locate(&mut self, uri: &Uri) -> Option<(&Project, String)> {
        let path = text::path_of(uri)?;
        let root = agent_root(&path)?;
        match self.projects.get_mut(&root) {
            Some((_, used)) => {
                self.clock += 1;
                *used = self.clock;
            }
            None => {
                let project =
                    Project::load(&root, &self.overlays, utter_compiler::CheckCache::new());
                self.unmodelled.remove(&root);
                self.keep(root.clone(), project);
            }
        }
        let (project, _) = self.projects.get(&root)?;
        let label = project.label(&path)?;
        Some((project, label))
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result: Option<serde_json::Value> = match request.method.as_str() {
            GotoDefinition::METHOD => params::<GotoDefinitionParams>(request.params).map(|p| {
                let at = p.text_document_position_params;
                let found = self
                    .symbol(&at.text_document.uri, at.position)
                    .map(|(project, symbol)| features::definition(project, &symbol));
                json(found.map(GotoDefinitionResponse::Array))
            }),
            References::METHOD => params::<ReferenceParams>(request.params).map(|p| {
                let at = p.text_document_position;
                let found = self
                    .symbol(&at.text_document.uri, at.position)
                    .map(|(project, symbol)| features::references(project, &symbol));
                json(found)
            }),
            HoverRequest::METHOD => params::<HoverParams>(request.params).map(|p| {
                let at = p.text_document_position_params;
                let found = self
                    .symbol(&at.text_document.uri, at.position)
                    .and_then(|(project, symbol)| features::hover(project, &symbol))
                    .map(|value| Hover {
                        contents: HoverContents::Markup(MarkupContent {
                            kind: MarkupKind::Markdown,
                            value,
                        }),
                        range: None,
                    });
                json(found)
            }),
            Completion::METHOD => params::<CompletionParams>(request.params).map(|p| {
                let at = p.text_document_position;
                let items = self.locate(&at.text_document.uri).map(|(project, label)| {
                    let text = project.text(&label).unwrap_or("");
                    let offset = text::offset(text, at.position);
                    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
                    complete::complete(project, &label, &text[line_start..offset])
                });
                json(items.map(CompletionResponse::Array))
            }),
            CodeActionRequest::METHOD => params::<CodeActionParams>(request.params).map(|p| {
                let actions = self.locate(&p.text_document.uri).map(|(project, label)| {
                    features::code_actions(project, &label, p.range.start, p.range.end)
                        .into_iter()
                        .map(CodeActionOrCommand::CodeAction)
                        .collect::<Vec<_>>()
                });
                json(actions)
            }),
            _ => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("utter does not serve `{}`", request.method),
                );
            }
        };
        match result {
            Some(value) => Response::new_ok(id, value),
            None => Response::new_err(id, ErrorCode::InvalidParams as i32, "invalid params".into()),
        }
    }

    fn symbol(
        &mut self,
        uri: &Uri,
        position: lsp_types::Position,
    ) -> Option<(&Project, features::Symbol)> {
        let (project, label) = self.locate(uri)?;
        let text = project.text(&label)?;
        let at = text::offset(text, position);
        let symbol = features::symbol_at(project, &label, at)?;
        Some((project, symbol))
    }
}

fn json<T: serde::Serialize>(value: T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// `count` agent folders under a fresh temporary folder, each with a
    /// `responses.yml` of `text`.
    fn agents(name: &str, count: usize, text: &str) -> Vec<PathBuf> {
        let base = std::env::temp_dir().join(format!("utter-lsp-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        (0..count)
            .map(|i| {
                let dir = base.join(format!("a{i}"));
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("responses.yml"), text).unwrap();
                dir
            })
            .collect()
    }

    fn uri(dir: &Path) -> Uri {
        text::uri_of(&dir.join("responses.yml"))
    }

    #[test]
    fn projects_are_dropped_least_recently_used_first() {
        let dirs = agents(
            "lru",
            MAX_PROJECTS + 8,
            "responses:\n  utter_a:\n    - text: a\n",
        );
        let mut server = Server::default();
        for dir in &dirs {
            assert!(server.locate(&uri(dir)).is_some());
            // The first stays in use: it is never the least recently used.
            assert!(server.locate(&uri(&dirs[0])).is_some());
        }
        assert_eq!(server.projects.len(), MAX_PROJECTS);
        assert!(server.projects.contains_key(&dirs[0]));
        assert!(!server.projects.contains_key(&dirs[1]));
        assert!(server.projects.contains_key(&dirs[MAX_PROJECTS + 7]));
        // A dropped project is checked again when asked about.
        assert!(server.locate(&uri(&dirs[1])).is_some());
        assert!(server.projects.contains_key(&dirs[1]));
        let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
    }

    /// Keystrokes sent as incremental changes inside the responses of a
    /// big root responses.yml are checked one response alone, and publish
    /// what a fresh server publishes for the whole text; a request after
    /// them is answered from a check of the whole project.
    #[test]
    fn a_keystroke_in_one_response_publishes_what_a_fresh_server_does() {
        let root = std::env::temp_dir().join(format!("utter-lsp-{}-keystroke", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            root.join("memory.yml"),
            "count:\n  type: int\nname:\n  type: text\n",
        )
        .unwrap();
        let mut text = "responses:\n".to_owned();
        for i in 0..20 {
            text += &format!(
                "  utter_r{i}:\n    - text: Hello {{name}} {i}\n      condition: session.project.count > {i}\n    - text: Bye {i}\n"
            );
        }
        let path = root.join("responses.yml");
        std::fs::write(&path, &text).unwrap();
        let uri = text::uri_of(&path);
        let change =
            |version: i32, at: lsp_types::Position, end: lsp_types::Position, new: &str| {
                Notification::new(
                    DidChangeTextDocument::METHOD.to_owned(),
                    lsp_types::DidChangeTextDocumentParams {
                        text_document: lsp_types::VersionedTextDocumentIdentifier::new(
                            uri.clone(),
                            version,
                        ),
                        content_changes: vec![lsp_types::TextDocumentContentChangeEvent {
                            range: Some(lsp_types::Range::new(at, end)),
                            range_length: None,
                            text: new.to_owned(),
                        }],
                    },
                )
            };
        let diagnostics = |notes: Vec<Notification>| -> Vec<String> {
            notes.into_iter().map(|n| n.params.to_string()).collect()
        };
        let mut server = Server::default();
        server.notify(Notification::new(
            DidOpenTextDocument::METHOD.to_owned(),
            lsp_types::DidOpenTextDocumentParams {
                text_document: lsp_types::TextDocumentItem::new(
                    uri.clone(),
                    "yaml".into(),
                    1,
                    text.clone(),
                ),
            },
        ));
        server.check_dirty();
        // Typed into texts and conditions: a typo, a line added above
        // later responses, an impossible condition, each undone.
        let keystrokes: [(&str, &str); 5] = [
            ("Hello {name} 3", "Hello {nmae} 3"),
            (
                "Bye 5\n",
                "Bye 5\n      metadata:\n        rephrase: true\n",
            ),
            ("count > 7\n", "count > 7 and session.project.count < 2\n"),
            ("Hello {nmae} 3", "Hello {name} 3"),
            ("Bye 12", "Bye 1{count}2"),
        ];
        for (version, (from, to)) in keystrokes.iter().enumerate() {
            let at = text.find(from).unwrap();
            let start = text::position(&text, at);
            let end = text::position(&text, at + from.len());
            text.replace_range(at..at + from.len(), to);
            server.notify(change(version as i32 + 2, start, end, to));
            let published = diagnostics(server.check_dirty());
            assert!(
                server.unmodelled.contains(&root),
                "keystroke {version} was checked alone"
            );
            let mut fresh = Server::default();
            fresh.overlays.insert(path.clone(), text.clone());
            fresh.dirty.insert(root.clone());
            assert_eq!(
                published,
                diagnostics(fresh.check_dirty()),
                "keystroke {version}"
            );
            if version == 0 {
                // The quick fix of the typo, where it is now, without a
                // check of the whole project.
                let at = text::position(&text, text.find("{nmae}").unwrap());
                let request = Request::new(
                    lsp_server::RequestId::from(9),
                    CodeActionRequest::METHOD.to_owned(),
                    serde_json::json!({
                        "textDocument": {"uri": uri.as_str()},
                        "range": {"start": at, "end": at},
                        "context": {"diagnostics": []},
                    }),
                );
                assert!(server.check_for(&request).is_empty());
                assert!(server.unmodelled.contains(&root));
                let answer = server.request(request).response_result.unwrap();
                let fixes: Vec<lsp_types::CodeAction> = serde_json::from_value(answer).unwrap();
                let edit = &fixes[0].edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri][0];
                assert_eq!((edit.range.start, edit.new_text.as_str()), (at, "{name}"));
            }
        }
        assert!(
            server.projects[&root]
                .0
                .checked
                .findings
                .iter()
                .any(|f| f.code == utter_compiler::codes::UNREACHABLE_VARIANT
                    || f.code == utter_compiler::codes::NO_CONDITIONED_VARIANT),
            "the impossible condition is found"
        );
        // A request sees the project as it is now: the name moved down.
        let at = text.find("utter_r15:").unwrap();
        let request = Request::new(
            lsp_server::RequestId::from(1),
            GotoDefinition::METHOD.to_owned(),
            GotoDefinitionParams {
                text_document_position_params: lsp_types::TextDocumentPositionParams::new(
                    lsp_types::TextDocumentIdentifier::new(uri.clone()),
                    text::position(&text, at + 2),
                ),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            },
        );
        server.check_for(&request);
        assert!(!server.unmodelled.contains(&root));
        let answer = server.request(request).response_result.unwrap();
        let locations: Vec<lsp_types::Location> = serde_json::from_value(answer).unwrap();
        assert_eq!(locations[0].range.start, text::position(&text, at));
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A server that reuses its last check (the `CheckCache`) publishes
    /// what a fresh server publishes for the same text, edit after edit.
    #[test]
    fn a_check_reusing_the_last_one_publishes_what_a_fresh_server_does() {
        let card = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/card-agent");
        let root = std::env::temp_dir().join(format!("utter-lsp-{}-reuse", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for entry in std::fs::read_dir(&card).unwrap() {
            let entry = entry.unwrap();
            let skill = entry.path();
            if entry.file_name() == "skills" {
                for s in std::fs::read_dir(&skill).unwrap() {
                    let s = s.unwrap();
                    let to = root.join("skills").join(s.file_name());
                    std::fs::create_dir_all(&to).unwrap();
                    for f in std::fs::read_dir(s.path()).unwrap() {
                        let f = f.unwrap();
                        std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
                    }
                }
            } else if entry.file_type().unwrap().is_file() {
                std::fs::create_dir_all(&root).unwrap();
                std::fs::copy(&skill, root.join(entry.file_name())).unwrap();
            }
        }
        let path = root.join("skills/card_replace/responses.yml");
        let original = std::fs::read_to_string(&path).unwrap();
        let open = |text: &str| {
            Notification::new(
                DidOpenTextDocument::METHOD.to_owned(),
                lsp_types::DidOpenTextDocumentParams {
                    text_document: lsp_types::TextDocumentItem::new(
                        text::uri_of(&path),
                        "yaml".into(),
                        1,
                        text.to_owned(),
                    ),
                },
            )
        };
        // Each file's diagnostics; a file cleared (published empty, as the
        // long-lived server does for a fixed file) is a file without.
        let diagnostics = |notes: Vec<Notification>| -> BTreeSet<String> {
            notes
                .into_iter()
                .map(|n| serde_json::from_value::<PublishDiagnosticsParams>(n.params).unwrap())
                .filter(|p| !p.diagnostics.is_empty())
                .map(|p| serde_json::to_string(&p).unwrap())
                .collect()
        };
        let edits = [
            original.replace("replacement_reason ==", "replacement_reasn =="),
            original.clone(),
            original.replace("utter_confirm_order:", "utter_confirm_order:\n  - bad"),
            original.replace("{shipping_speed}", "{shiping_speed}"),
            original.replace("  utter_stolen_warning:", "  utter_card_replacement_fee:"),
            original.clone(),
            original.replace("responses:", "responses: ["),
            original.clone(),
        ];
        let mut server = Server::default();
        let mut reused = false;
        let mut with_findings = 0;
        for (step, text) in edits.iter().enumerate() {
            server.notify(open(text));
            let kept = diagnostics(server.check_dirty());
            reused |= server
                .projects
                .values()
                .any(|(p, _)| p.cache.reused_files() > 0);
            let mut fresh = Server::default();
            fresh.notify(open(text));
            with_findings += usize::from(!kept.is_empty());
            assert_eq!(kept, diagnostics(fresh.check_dirty()), "edit {step}");
        }
        assert!(reused, "the checks reused earlier ones");
        assert!(with_findings >= 4, "{with_findings} edits had findings");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_dropped_project_still_clears_the_diagnostics_it_published() {
        let dirs = agents(
            "clear",
            MAX_PROJECTS + 1,
            "responses:\n  utter_a:\n    - text: a\n",
        );
        let mut server = Server::default();
        let change = |text: &str| {
            Notification::new(
                DidOpenTextDocument::METHOD.to_owned(),
                lsp_types::DidOpenTextDocumentParams {
                    text_document: lsp_types::TextDocumentItem::new(
                        uri(&dirs[0]),
                        "yaml".into(),
                        1,
                        text.to_owned(),
                    ),
                },
            )
        };
        // Diagnostics per file name, as published.
        let published = |notes: Vec<Notification>| -> Vec<(String, usize)> {
            notes
                .into_iter()
                .map(|n| {
                    let p: PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                    let name = p.uri.as_str().rsplit('/').next().unwrap().to_owned();
                    (name, p.diagnostics.len())
                })
                .collect()
        };
        // A broken memory.yml on disk, not open: its diagnostics are published.
        let memory = dirs[0].join("memory.yml");
        std::fs::write(&memory, "x: {type: integr}\n").unwrap();
        server.notify(change("responses:\n  utter_a:\n    - text: a\n"));
        assert_eq!(
            published(server.check_dirty()),
            [
                ("memory.yml".to_owned(), 1),
                ("responses.yml".to_owned(), 0)
            ]
        );
        for dir in &dirs[1..] {
            server.locate(&uri(dir));
        }
        assert!(!server.projects.contains_key(&dirs[0]));
        // Fixed on disk: the client still hears that memory.yml is clean.
        std::fs::write(&memory, "x: {type: int}\n").unwrap();
        server.notify(change("responses:\n  utter_a:\n    - text: b\n"));
        assert_eq!(
            published(server.check_dirty()),
            [
                ("memory.yml".to_owned(), 0),
                ("responses.yml".to_owned(), 0)
            ]
        );
        let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
    }
}
