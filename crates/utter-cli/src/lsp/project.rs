//! An agent project as the editor sees it: the files on disk with the open
//! documents' unsaved text laid over them, checked as a whole (a change in
//! one file changes findings in another).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use utter_compiler::{Agent, CheckCache, Checked, OpenOptions, ProjectFiles, Registry, SourceFile};

/// The agent folder a file belongs to: the folder holding `skills/` for a
/// file in `skills/<id>/`, else the file's own folder.
pub fn agent_root(file: &Path) -> Option<PathBuf> {
    let dir = file.parent()?;
    let skills = dir.parent();
    if skills.is_some_and(|s| s.file_name().is_some_and(|n| n == "skills")) {
        return skills?.parent().map(Path::to_path_buf);
    }
    Some(dir.to_path_buf())
}

/// The files of the agent folder `root` with the open documents'
/// unsaved text (`overlays`, by absolute path) laid over them.
fn files_of(root: &Path, overlays: &HashMap<PathBuf, String>) -> ProjectFiles {
    files_reusing(root, overlays, None)
}

/// [`files_of`], the texts laid into the buffers of `spare` (files read
/// before): a keystroke in a big document allocates nothing of its size.
fn files_reusing(
    root: &Path,
    overlays: &HashMap<PathBuf, String>,
    spare: Option<ProjectFiles>,
) -> ProjectFiles {
    let mut buffers = spare.map(|files| files.files).unwrap_or_default();
    let laid: Vec<(String, &String)> = (overlays.iter())
        .filter_map(|(path, text)| {
            let rel = path.strip_prefix(root).ok()?;
            Some((rel.to_string_lossy().replace('\\', "/"), text))
        })
        .collect();
    // What an open document holds on disk is not read: its text is laid
    // over it. An unreadable folder (deleted, permissions) checks as empty.
    let laid_over = |label: &str| laid.iter().any(|(l, _)| l == label);
    let mut files = ProjectFiles::read_beneath(root, &laid_over).unwrap_or_default();
    for (label, text) in laid {
        let mut bytes = buffers.remove(&label).unwrap_or_default();
        bytes.clear();
        bytes.extend_from_slice(text.as_bytes());
        files.overlay_bytes(label, bytes);
    }
    files
}

/// One checked project.
pub struct Project {
    pub root: PathBuf,
    pub checked: Checked,
    /// The lowered project (its error-free responses, when it has
    /// errors): what the variant analysis reads.
    pub registry: Option<Registry>,
    /// Analysed responses by index: each analysed once per version of the
    /// project, however many hovers ask.
    pub views: std::cell::RefCell<HashMap<usize, utter_compiler::snapshot::ResponseView>>,
    /// What the next check of this project can reuse of this one.
    pub cache: CheckCache,
    /// Whether an edit was taken since the check (`take_edit`).
    edited: bool,
    /// The files the last edit was checked in: their buffers are reused.
    spare: Option<ProjectFiles>,
}

impl Project {
    /// Reads `root`, lays `overlays` (absolute path -> text) over it, checks
    /// (reusing what `cache` kept from the check of an earlier version).
    pub fn load(
        root: &Path,
        overlays: &HashMap<PathBuf, String>,
        mut cache: CheckCache,
    ) -> Project {
        let files = files_of(root, overlays);
        // The agent's own dialect, as the unsaved utter.yml says it.
        let agent = Agent::from_files_with(files, OpenOptions::default(), &mut cache);
        // Errors elsewhere do not hide the analysis of a response that is
        // error-free itself (hover shows its verdicts).
        let (checked, usable) = agent.into_checked_and_usable();
        Project {
            root: root.to_path_buf(),
            registry: Some(usable),
            views: std::cell::RefCell::default(),
            checked,
            cache,
            edited: false,
            spare: None,
        }
    }

    /// Takes an edit inside one response of a `responses.yml` since this
    /// project was checked: its findings, that response alone
    /// checked again (the rest of the project as checked is not updated:
    /// ask for a check before reading it). False, and nothing changed,
    /// when the edit may change more.
    pub fn take_edit(&mut self, overlays: &HashMap<PathBuf, String>) -> bool {
        let files = files_reusing(&self.root, overlays, self.spare.take());
        let edited = (self.cache).findings_after_edit(&files, OpenOptions::default());
        self.spare = Some(files);
        let Some(findings) = edited else {
            return false;
        };
        self.checked.findings = findings;
        self.edited = true;
        true
    }

    /// The file `label` as checked (the edited text, after an edit taken).
    pub fn source(&self, label: &str) -> Option<&SourceFile> {
        let edited = self.cache.checked_source(label).filter(|_| self.edited);
        edited.or_else(|| self.checked.source(label))
    }

    /// The label of an absolute path in this project.
    pub fn label(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.root).ok()?;
        Some(rel.to_string_lossy().replace('\\', "/"))
    }

    /// The text of a file as checked.
    pub fn text(&self, label: &str) -> Option<&str> {
        self.source(label).map(|s| s.text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_root_is_above_skills() {
        assert_eq!(
            agent_root(Path::new("/a/agent/skills/s/skill.md")),
            Some(PathBuf::from("/a/agent"))
        );
        assert_eq!(
            agent_root(Path::new("/a/agent/responses.yml")),
            Some(PathBuf::from("/a/agent"))
        );
    }

    /// The editor reads a Maestro agent as Maestro: its utter.yml says so,
    /// and an unsaved edit of utter.yml counts.
    #[test]
    fn the_agent_declares_its_dialect_to_the_editor() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/maestro-agent");
        let project = Project::load(&root, &HashMap::new(), CheckCache::new());
        assert_eq!(
            project.checked.dialect,
            utter_compiler::bundled::Dialect::Maestro
        );
        assert!(
            project.checked.findings.is_empty(),
            "{:?}",
            project.checked.findings
        );
        let overlay = HashMap::from([(root.join("utter.yml"), "dialect: mantle\n".to_owned())]);
        let as_mantle = Project::load(&root, &overlay, CheckCache::new());
        assert!(
            as_mantle
                .checked
                .findings
                .iter()
                .any(|f| f.response.as_deref() == Some("utter_greet")),
            "{:?}",
            as_mantle.checked.findings
        );
    }
}
