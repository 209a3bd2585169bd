//! The one way in: an agent folder (or files in memory) opened with
//! explicit options, checked and lowered once. Every entry point
//! opens agents through it: the CLI, the macro, build.rs, the language
//! server, the hot reload, the strict loader and the snapshot check.

use std::path::Path;

use crate::bundled::Dialect;
use crate::diagnostics::{Finding, SourceFile};
use crate::load::project::{ProjectFiles, ReadError};
use crate::lower::Registry;
use crate::validate::Checked;

/// How an agent is opened: values passed in, never fields set afterwards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The dialect, when the caller chooses (a command-line or macro
    /// option); `None`: what the agent's `utter.yml` declares, else Mantle.
    pub dialect: Option<Dialect>,
    /// Check and compile without the bundled defaults (the packaged system
    /// responses and the default skills).
    pub without_bundled_defaults: bool,
}

/// What a check of an agent keeps for the next check of it (the language
/// server checks on every keystroke): each `responses.yml` file's check,
/// each response's lowering and each set of conditions' verdicts, under
/// one *schema* (every file but the `responses.yml` files, the skills and
/// the options). An edit of one `responses.yml` file checks that file
/// again, merges the files and lowers and analyses what it changed; any
/// other edit starts afresh.
///
/// Reuse is exact: what is kept is a pure function of its key within one
/// schema, and the project-wide budgets (YAML, did-you-mean hints,
/// analysis work) are replayed: a result is kept only when no budget
/// refused it anything, and reused only when what is left covers what it
/// spent. `tests/incremental.rs` edits random files of random agents and
/// compares every result with a check from scratch.
#[derive(Debug, Default)]
pub struct CheckCache {
    schema: Vec<u8>,
    pub(crate) units: crate::validate::UnitMemo,
    pub(crate) lowered: crate::lower::LoweringMemo,
    pub(crate) verdicts: crate::analysis::VerdictMemo,
    /// What an edit inside one response may be checked against.
    last: Option<crate::edit::LastCheck>,
}

impl CheckCache {
    /// A cache that keeps results from check to check.
    pub fn new() -> Self {
        CheckCache {
            schema: Vec::new(),
            units: crate::validate::UnitMemo::enabled(),
            lowered: crate::memo::Memo::enabled(),
            verdicts: crate::memo::Memo::enabled(),
            last: None,
        }
    }

    /// The findings of `files` when they are those of the last check with
    /// this cache but for one edit inside one response of a
    /// `responses.yml` (not its name): that response alone is read,
    /// checked and analysed again, so the time does not grow with the
    /// file. `None` when the edit may change more (another file, a name,
    /// the file's shape, a budget near its end): then check the files
    /// ([`Agent::from_files_with`]). The findings, sorted, are those a
    /// check from scratch gives; those of the edited file point into
    /// [`CheckCache::checked_source`]. The next edit may be checked against
    /// them.
    pub fn findings_after_edit(
        &mut self,
        files: &ProjectFiles,
        options: Options,
    ) -> Option<Vec<Finding>> {
        let last = self.last.as_mut()?;
        // Files read as the options say already (the usual case) are not
        // copied: the caller may keep them, and their buffers.
        let dialect =
            (options.dialect).unwrap_or_else(|| files.declared_dialect().unwrap_or_default());
        let prepared;
        let files = if files.dialect == dialect
            && files.without_bundled_defaults == options.without_bundled_defaults
        {
            files
        } else {
            prepared = with_options(files.clone(), options);
            &prepared
        };
        let edited =
            crate::edit::findings_after_edit(last, files, &mut self.units, &mut self.verdicts);
        if edited.is_none() {
            // What the failed attempt updated is not to be trusted.
            self.last = None;
        }
        edited
    }

    /// The `responses.yml` called `label` as the last check with this cache
    /// read it, or as [`CheckCache::findings_after_edit`] last edited it:
    /// where the findings of that file point. `None` when no check kept it
    /// (it was not checked part by part).
    pub fn checked_source(&self, label: &str) -> Option<&SourceFile> {
        self.last.as_ref()?.source(label)
    }

    /// A cache that keeps nothing: a one-off check.
    pub(crate) fn disabled() -> Self {
        CheckCache::default()
    }

    /// How many `responses.yml` files the last check took from the one
    /// before instead of checking them again.
    pub fn reused_files(&self) -> usize {
        self.units.reused()
    }

    /// How many responses of the files that changed the last check took
    /// from the one before instead of reading and checking them again (a
    /// file of the plain shape is checked response by response).
    pub fn reused_responses(&self) -> usize {
        self.units.reused_responses()
    }

    /// Starts a check of `files`: what was kept under another schema is
    /// dropped, and so is what the check before did not use.
    pub(crate) fn begin(&mut self, files: &ProjectFiles) {
        let schema = crate::memo::schema_key(files);
        let changed = schema != self.schema;
        if changed {
            self.schema = schema;
            self.lowered.clear();
            self.verdicts.clear();
        }
        self.units.turn(changed);
        self.lowered.turn();
        self.verdicts.turn();
    }
}

/// An opened agent: its files, the check of them, and the lowered registry
/// (lowered once, by the check, whose analysis reads it).
#[derive(Debug)]
pub struct Agent {
    files: ProjectFiles,
    checked: Checked,
    /// The lowering of the responses free of errors themselves (every
    /// response when the project has none).
    usable: Registry,
    /// The error findings, when there are any.
    errors: Vec<Finding>,
}

impl Agent {
    /// Reads the agent folder `dir` and checks it.
    ///
    /// # Errors
    /// When `dir` is no folder, not an agent, or cannot be read.
    pub fn open(dir: &Path, options: Options) -> Result<Agent, ReadError> {
        Ok(Agent::from_files(ProjectFiles::read(dir)?, options))
    }

    /// Checks `files` (read from disk, laid over with unsaved text, or
    /// built in memory); the dialect is the option's, else the files' own.
    pub fn from_files(files: ProjectFiles, options: Options) -> Agent {
        Agent::from_files_with(files, options, &mut CheckCache::disabled())
    }

    /// [`Agent::from_files`], reusing what `cache` kept from the check of
    /// an earlier version of the same agent (the language server's
    /// keystrokes): the result is the same as a check from scratch.
    pub fn from_files_with(files: ProjectFiles, options: Options, cache: &mut CheckCache) -> Agent {
        let files = with_options(files, options);
        let (checked, usable) = check_and_lower(&files, cache);
        let errors = checked.errors().cloned().collect();
        Agent {
            files,
            checked,
            usable,
            errors,
        }
    }

    /// The files read (and what was scanned, for rebuild tracking).
    pub fn files(&self) -> &ProjectFiles {
        &self.files
    }

    /// The checked project: every file, finding and merged response.
    pub fn checked(&self) -> &Checked {
        &self.checked
    }

    /// The checked project, taken.
    pub fn into_checked(self) -> Checked {
        self.checked
    }

    /// The dialect the agent was checked in.
    pub fn dialect(&self) -> Dialect {
        self.files.dialect
    }

    /// The lowered registry, or the error findings when the project has
    /// errors.
    ///
    /// # Errors
    /// The error findings of a project that has errors.
    pub fn registry(&self) -> Result<&Registry, &[Finding]> {
        if !self.errors.is_empty() {
            Err(&self.errors)
        } else {
            // Without errors every response is usable: the lowering is
            // the registry, done once.
            Ok(&self.usable)
        }
    }

    /// The lowering of the responses that are free of errors themselves
    /// and read only valid entries: what can be explained, rendered and
    /// reviewed while other parts of the project still have errors.
    pub fn usable_registry(&self) -> &Registry {
        &self.usable
    }

    /// The checked project and the lowering of its usable responses
    /// ([`Agent::usable_registry`]), taken.
    pub fn into_checked_and_usable(self) -> (Checked, Registry) {
        (self.checked, self.usable)
    }

    /// [`Agent::registry`], taken with the checked project.
    ///
    /// # Errors
    /// The error findings of a project that has errors.
    pub fn into_registry(self) -> (Checked, Result<Registry, Vec<Finding>>) {
        let registry = if !self.errors.is_empty() {
            Err(self.errors)
        } else {
            Ok(self.usable)
        };
        (self.checked, registry)
    }
}

/// Checks the whole project: every file and the merged registry, then the
/// variants of each response together, for every response that is valid
/// on its own and reads only valid entries (a broken response is not
/// analysed: no cascades; an error elsewhere does not hide the analysis).
/// The compiler's own tests ask it; everyone else opens an [`Agent`].
#[cfg(test)]
pub(crate) fn check(files: &ProjectFiles) -> Checked {
    check_and_lower(files, &mut CheckCache::disabled()).0
}

/// `files` as `options` have them read: their dialect (the one declared
/// unless told), with or without the bundled defaults.
fn with_options(mut files: ProjectFiles, options: Options) -> ProjectFiles {
    files.dialect = options
        .dialect
        .unwrap_or_else(|| files.declared_dialect().unwrap_or_default());
    files.without_bundled_defaults = options.without_bundled_defaults;
    files
}

/// [`check`], and the lowering of the usable responses the analysis read
/// (the whole registry when the project has no errors). The pipeline in
/// its order: validate, lower, analyse.
pub(crate) fn check_and_lower(files: &ProjectFiles, cache: &mut CheckCache) -> (Checked, Registry) {
    cache.begin(files);
    let mut checked = crate::validate::validate(files, &mut cache.units);
    let registry = crate::lower::lower_usable_with(&checked, &cache.units, &mut cache.lowered);
    let (mut found, left) =
        crate::analysis::findings_with(&checked, &registry, &mut cache.verdicts);
    checked.lints.apply(&mut found);
    if cache.units.is_enabled() {
        let outcome = (&checked, &registry);
        cache.last = crate::edit::LastCheck::record(files, outcome, &found, &mut cache.units, left);
    }
    checked.findings.extend(found);
    crate::diagnostics::sort_findings(&mut checked.findings);
    (checked, registry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn maestro_example() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/maestro-agent")
    }

    #[test]
    fn an_agent_opens_in_its_own_dialect_unless_told_otherwise() {
        let agent = Agent::open(&maestro_example(), Options::default()).unwrap();
        assert_eq!(agent.dialect(), Dialect::Maestro);
        assert!(agent.checked().findings.is_empty());
        assert!(agent.registry().is_ok());
        let told = Options {
            dialect: Some(Dialect::Mantle),
            ..Options::default()
        };
        let agent = Agent::open(&maestro_example(), told).unwrap();
        assert_eq!(agent.dialect(), Dialect::Mantle);
        // As Mantle, `utter_greet` is not bundled: an error, no registry.
        assert_eq!(agent.registry().err().map(<[Finding]>::len), Some(1));
        let (checked, registry) = agent.into_registry();
        assert!(checked.has_errors() && registry.is_err());
    }

    #[test]
    fn options_are_applied_to_files_in_memory() {
        let files = ProjectFiles::from_files([(
            "responses.yml",
            "responses:\n  utter_a:\n    - text: a\n",
        )]);
        let bare = Options {
            without_bundled_defaults: true,
            ..Options::default()
        };
        let agent = Agent::from_files(files.clone(), bare);
        let names = |agent: &Agent| agent.registry().unwrap().responses.len();
        assert_eq!(names(&agent), 1);
        assert!(names(&Agent::from_files(files, Options::default())) > 1);
    }
}
