//! The one way in: an agent folder (or files in memory) opened with
//! explicit options, checked and lowered once. Every entry point
//! opens agents through it: the CLI, the macro, build.rs, the language
//! server, the hot reload, the strict loader and the snapshot check.

use std::path::Path;

use crate::bundled::Dialect;
use crate::diagnostics::Finding;
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
    pub fn from_files(mut files: ProjectFiles, options: Options) -> Agent {
        files.dialect = options
            .dialect
            .unwrap_or_else(|| files.declared_dialect().unwrap_or_default());
        files.without_bundled_defaults = options.without_bundled_defaults;
        let (checked, usable) = crate::check_and_lower(&files);
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
