//! The strict runtime loader: the reference engine's refusal of a project
//! at load time, through the front door ([`Agent`]).

use std::fmt;
use std::path::Path;

use crate::agent::{Agent, Options as OpenOptions};
use crate::diagnostics::{Finding, codes};
use crate::load::project::{ProjectFiles, ReadError};
use crate::lower::Registry;

/// Why the strict loader refused a project.
#[derive(Debug)]
pub enum RegistryError {
    /// The agent folder or a file could not be read.
    Read(ReadError),
    /// A malformed variant (unknown key, non-string condition, neither a
    /// mapping nor a string): code `responses.registry.invalid_variant`.
    /// Loading stopped at this file.
    InvalidVariant(Box<Finding>),
    /// Other error findings: code `mantle.validate_project.project_validation_error`.
    Invalid(Vec<Finding>),
}

impl RegistryError {
    /// The finding code of the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            RegistryError::Read(_) => codes::IO_UNREADABLE,
            RegistryError::InvalidVariant(_) => codes::REGISTRY_INVALID_VARIANT,
            RegistryError::Invalid(_) => codes::PROJECT_VALIDATION_ERROR,
        }
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::Read(e) => write!(f, "{e}"),
            RegistryError::InvalidVariant(finding) => write!(
                f,
                "[{}] {}:{}:{}: {}{}",
                self.code(),
                finding.file,
                finding.line,
                finding.column,
                finding.subject(),
                finding.message
            ),
            RegistryError::Invalid(findings) => {
                write!(
                    f,
                    "[{}] project validation found {} problem(s):",
                    self.code(),
                    findings.len()
                )?;
                for finding in findings {
                    write!(f, "\n  - [{}] {}", finding.code, finding.one_line())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RegistryError {}

/// Whether a finding is one the strict runtime loader raises on.
fn is_strict_variant_error(f: &Finding) -> bool {
    f.is_error()
        && f.variant.is_some()
        && (f.code == codes::INVALID_VARIANT_KEY || f.code == codes::INVALID_VARIANT_SHAPE)
}

impl Registry {
    /// The strict runtime load of a packaged agent: the first malformed
    /// variant, in merge order, stops loading with
    /// `responses.registry.invalid_variant`; any other error finding refuses
    /// the project as a whole. Nothing unvalidated is ever delivered.
    pub fn load_strict(dir: &Path) -> Result<Registry, RegistryError> {
        let agent = Agent::open(dir, OpenOptions::default()).map_err(RegistryError::Read)?;
        Self::strict(agent)
    }

    /// [`Registry::load_strict`] on files already read (in their dialect,
    /// with their bundled layer).
    pub fn from_files_strict(files: &ProjectFiles) -> Result<Registry, RegistryError> {
        let options = OpenOptions {
            dialect: Some(files.dialect()),
            without_bundled_defaults: files.without_bundled_defaults(),
        };
        Self::strict(Agent::from_files(files.clone(), options))
    }

    /// The strict load of an opened agent.
    fn strict(agent: Agent) -> Result<Registry, RegistryError> {
        let (checked, registry) = agent.into_registry();
        // Findings are sorted by file; the strict loader stops at the first
        // bad variant in merge order, so follow the order files were loaded in.
        for source in &checked.sources {
            if let Some(finding) = checked
                .findings
                .iter()
                .find(|f| f.file == source.label && is_strict_variant_error(f))
            {
                return Err(RegistryError::InvalidVariant(Box::new(finding.clone())));
            }
        }
        registry.map_err(RegistryError::Invalid)
    }
}
