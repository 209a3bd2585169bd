//! The interpreter: delivers responses of a [`Registry`] at run time, with
//! the same semantics as generated code (both call the `utter` runtime for
//! comparisons, truthiness and interpolation).

use std::fmt;
use std::path::Path;

use utter::{Context, Delivery, EvalError, ValueRef, compare, render};

use crate::condition::Expr;
use crate::diagnostics::{Finding, codes};
use crate::load::project::{ProjectFiles, ReadError};
use crate::lower::{Registry, Response, lower};
use crate::validate::check;

impl Registry {
    /// Evaluates a condition: Python semantics, `and`/`or`/comparisons yield
    /// bools, errors propagate unless short-circuited away.
    pub fn eval<'a>(
        &'a self,
        expr: &'a Expr<usize>,
        ctx: &Context<'a>,
    ) -> Result<ValueRef<'a>, EvalError> {
        Ok(match expr {
            Expr::Or(items) => {
                for item in items {
                    if self.eval(item, ctx)?.truthy() {
                        return Ok(ValueRef::Bool(true));
                    }
                }
                ValueRef::Bool(false)
            }
            Expr::And(items) => {
                for item in items {
                    if !self.eval(item, ctx)?.truthy() {
                        return Ok(ValueRef::Bool(false));
                    }
                }
                ValueRef::Bool(true)
            }
            Expr::Not(inner) => ValueRef::Bool(!self.eval(inner, ctx)?.truthy()),
            Expr::Compare { first, rest } => {
                let mut left = self.eval(first, ctx)?;
                for (op, operand) in rest {
                    let right = self.eval(operand, ctx)?;
                    if !compare(*op, left, right)? {
                        return Ok(ValueRef::Bool(false));
                    }
                    left = right;
                }
                ValueRef::Bool(true)
            }
            Expr::Ref(id) => match self.entries.get(*id) {
                Some(entry) => ctx.read(entry),
                None => ValueRef::None,
            },
            Expr::Lit(l) => l.value(),
        })
    }

    /// Whether a condition holds: true, or skipped (false) on an evaluation error.
    pub fn holds(&self, expr: &Expr<usize>, ctx: &Context<'_>) -> bool {
        matches!(self.eval(expr, ctx), Ok(v) if v.truthy())
    }

    /// The variant of `response` to deliver: the first conditioned variant
    /// that holds, else the default; `None` when nothing can be selected.
    pub fn select(&self, response: &Response, ctx: &Context<'_>) -> Option<usize> {
        let conditions = response
            .variants
            .iter()
            .map(|v| v.condition.as_ref().map(|c| self.holds(c, ctx)));
        utter::select(conditions, response.default)
    }

    /// Delivers `name`: the selected variant, interpolated; or the name itself
    /// (not rephrased) when it is unknown or nothing can be selected.
    pub fn deliver<'a>(&'a self, name: &'a str, ctx: &Context<'_>) -> Delivery<'a> {
        let Some(response) = self.response(name) else {
            return Delivery::fallback(name);
        };
        let Some(index) = self.select(response, ctx) else {
            return Delivery::fallback(name);
        };
        let variant = &response.variants[index];
        Delivery {
            text: render(&variant.pieces, &self.entries, ctx),
            response: name,
            variant: Some(index),
            rephrase: variant.rephrase,
            fallback: false,
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
    pub fn code(&self) -> &'static str {
        match self {
            RegistryError::Read(_) => "utter.io.unreadable",
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
        let files = ProjectFiles::read(dir).map_err(RegistryError::Read)?;
        Self::from_files_strict(&files)
    }

    /// [`Registry::load_strict`] on files already read.
    pub fn from_files_strict(files: &ProjectFiles) -> Result<Registry, RegistryError> {
        let checked = check(files);
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
        lower(&checked).map_err(RegistryError::Invalid)
    }
}
