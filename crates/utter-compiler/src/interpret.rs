//! The interpreter: delivers responses of a [`Registry`] at run time, with
//! the same semantics as generated code (both call the `utter` runtime for
//! comparisons, truthiness and interpolation).

use std::fmt;
use std::path::Path;

use utter::program::{Program, ProgramData};
use utter::{Context, Delivery, EvalError};

use crate::check;
use crate::condition::Expr;
use crate::diagnostics::{Finding, codes};
use crate::load::project::{ProjectFiles, ReadError};
use crate::lower::{Registry, lower};

impl Registry {
    /// Evaluates a condition (a `when:` trigger, say) with the runtime's
    /// evaluator: whether its value is truthy, or why it cannot be evaluated.
    pub fn eval(&self, expr: &Expr<usize>, ctx: &Context<'_>) -> Result<bool, EvalError> {
        let mut program = ProgramData::default();
        let at = program.condition(expr) as usize;
        program.program().evaluate(at, &self.entries, ctx)
    }

    /// Whether a condition holds: true, or skipped (false) on an evaluation error.
    pub fn holds(&self, expr: &Expr<usize>, ctx: &Context<'_>) -> bool {
        matches!(self.eval(expr, ctx), Ok(true))
    }

    /// The registry ready to deliver: its responses encoded once.
    pub fn interpreter(&self) -> Interpreter<'_> {
        Interpreter {
            registry: self,
            program: self.encode(),
        }
    }
}

/// Delivers the responses of a [`Registry`] at run time: the registry and
/// its program (the encoded responses the runtime's evaluator walks).
#[derive(Clone, Debug)]
pub struct Interpreter<'r> {
    registry: &'r Registry,
    program: ProgramData,
}

impl<'r> Interpreter<'r> {
    /// The registry it delivers.
    pub fn registry(&self) -> &'r Registry {
        self.registry
    }

    /// The encoded responses.
    pub fn program(&self) -> Program<'_> {
        self.program.program()
    }

    /// The variant of `response` (by index in `responses`) to deliver: the
    /// first conditioned variant that holds, else the default; `None` when
    /// nothing can be selected.
    pub fn select(&self, response: usize, ctx: &Context<'_>) -> Option<usize> {
        self.program().select(response, &self.registry.entries, ctx)
    }

    /// Delivers `name`: the selected variant, interpolated; or the name itself
    /// (not rephrased) when it is unknown or nothing can be selected.
    pub fn deliver<'a>(&'a self, name: &'a str, ctx: &Context<'_>) -> Delivery<'a> {
        match self
            .registry
            .responses
            .binary_search_by(|r| r.name.as_str().cmp(name))
        {
            Ok(index) => self.program().deliver(index, &self.registry.entries, ctx),
            Err(_) => Delivery::fallback(name),
        }
    }
}

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
        let agent =
            crate::Agent::open(dir, crate::OpenOptions::default()).map_err(RegistryError::Read)?;
        Self::strict(agent.checked())
    }

    /// [`Registry::load_strict`] on files already read.
    pub fn from_files_strict(files: &ProjectFiles) -> Result<Registry, RegistryError> {
        Self::strict(&check(files))
    }

    /// The strict load of a checked project.
    fn strict(checked: &crate::Checked) -> Result<Registry, RegistryError> {
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
        lower(checked).map_err(RegistryError::Invalid)
    }
}
