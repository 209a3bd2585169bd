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
    let connection = transport::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
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
    }
    Ok(())
}

/// `work()`, or `otherwise` if it panics (a bug must not end the session).
fn guarded<T>(work: impl FnOnce() -> T, otherwise: T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or(otherwise)
}

/// The largest document checked (as a file on disk would be).
const MAX_DOCUMENT: usize = utter_compiler::load::project::MAX_FILE_BYTES as usize;
/// The most text all open documents may hold together.
const MAX_OPEN_TEXT: usize = 64 * 1024 * 1024;

#[derive(Default)]
struct Server {
    /// Unsaved text of open documents, by absolute path.
    overlays: HashMap<PathBuf, String>,
    /// Open documents that are not checked, and why (too large, or over
    /// the budget of open text): a diagnostic says so.
    refused: HashMap<PathBuf, String>,
    /// Checked projects, by agent folder.
    projects: HashMap<PathBuf, Project>,
    /// Agent folders whose documents changed since their last check.
    dirty: BTreeSet<PathBuf>,
}

fn params<P: serde::de::DeserializeOwned>(value: serde_json::Value) -> Option<P> {
    serde_json::from_value(value).ok()
}

impl Server {
    /// Takes a document change: the text is kept (within the limits) and
    /// its project marked for a check.
    fn notify(&mut self, n: Notification) {
        let changed: Option<(Uri, Option<String>)> = match n.method.as_str() {
            DidOpenTextDocument::METHOD => params::<lsp_types::DidOpenTextDocumentParams>(n.params)
                .map(|p| (p.text_document.uri, Some(p.text_document.text))),
            DidChangeTextDocument::METHOD => {
                params::<lsp_types::DidChangeTextDocumentParams>(n.params).and_then(|p| {
                    // Full sync: the last change holds the whole text.
                    let text = p.content_changes.into_iter().next_back()?.text;
                    Some((p.text_document.uri, Some(text)))
                })
            }
            DidCloseTextDocument::METHOD => {
                params::<lsp_types::DidCloseTextDocumentParams>(n.params)
                    .map(|p| (p.text_document.uri, None))
            }
            DidSaveTextDocument::METHOD => params::<lsp_types::DidSaveTextDocumentParams>(n.params)
                .map(|p| (p.text_document.uri.clone(), p.text)),
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
        if let Some(text) = text {
            let open: usize = self.overlays.values().map(String::len).sum();
            if text.len() > MAX_DOCUMENT {
                self.refused.insert(path.clone(), format!(
                    "this document is {} bytes, more than the {MAX_DOCUMENT} utter reads from a file; it is not checked",
                    text.len()
                ));
            } else if open + text.len() > MAX_OPEN_TEXT {
                self.refused.insert(path.clone(), format!(
                    "the open documents hold more than {MAX_OPEN_TEXT} bytes together; this one is not checked (close some)"
                ));
            } else {
                self.overlays.insert(path.clone(), text);
            }
        }
        if let Some(root) = agent_root(&path) {
            self.dirty.insert(root);
        }
    }

    /// Checks every changed project; their diagnostics.
    fn check_dirty(&mut self) -> Vec<Notification> {
        let dirty = std::mem::take(&mut self.dirty);
        dirty
            .into_iter()
            .flat_map(|root| self.recheck(root))
            .collect()
    }

    /// Checks the project a request is about if it changed, so the answer
    /// sees the latest text; its diagnostics.
    fn check_for(&mut self, request: &Request) -> Vec<Notification> {
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
            Some(root) if self.dirty.remove(&root) => self.recheck(root),
            _ => Vec::new(),
        }
    }

    /// Checks the project again and publishes every file's diagnostics
    /// (empty ones for files fixed since).
    fn recheck(&mut self, root: PathBuf) -> Vec<Notification> {
        let previous = self
            .projects
            .get(&root)
            .map(|p| p.published.clone())
            .unwrap_or_default();
        let mut project = Project::load(&root, &self.overlays);
        let mut labels: BTreeSet<String> = project
            .checked
            .findings
            .iter()
            .filter(|f| !f.file.starts_with('<'))
            .map(|f| f.file.clone())
            .collect();
        project.published = labels.clone();
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
                        code: Some(lsp_types::NumberOrString::String("utter.io.refused".into())),
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
        self.projects.insert(root, project);
        out
    }

    /// The project of a document and its label there.
    fn locate(&mut self, uri: &Uri) -> Option<(&Project, String)> {
        let path = text::path_of(uri)?;
        let root = agent_root(&path)?;
        if !self.projects.contains_key(&root) {
            let project = Project::load(&root, &self.overlays);
            self.projects.insert(root.clone(), project);
        }
        let project = self.projects.get(&root)?;
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
