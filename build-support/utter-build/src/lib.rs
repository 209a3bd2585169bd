//! build.rs support for **utter**: compiles an agent project into
//! `$OUT_DIR/responses.rs`, formatted with prettyplease.
//!
//! ```toml
//! [dependencies]
//! utter = "0.1"
//! [build-dependencies]
//! utter-build = "0.1"
//! ```
//!
//! ```text
//! // build.rs
//! fn main() {
//!     utter_build::compile("agent");
//! }
//! ```
//!
//! ```ignore
//! // src/main.rs
//! mod responses {
//!     include!(concat!(env!("OUT_DIR"), "/responses.rs"));
//! }
//! ```
//!
//! Findings are printed as `cargo::error=` / `cargo::warning=` lines
//! (rustc-style, with `file:line:col` and the source line), so an invalid
//! project fails the build with its findings and nothing else.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use utter_compiler::diagnostics::escape::escape;
use utter_compiler::{Agent, Checked, OpenOptions, codegen};

pub use utter_compiler::bundled::Dialect;
pub use utter_compiler::codegen::{SHAPE_COST, STRAIGHT_LINE_BUDGET, Strategy};

/// Compiles the agent folder `dir` (relative to `CARGO_MANIFEST_DIR`) into
/// `$OUT_DIR/responses.rs`, reporting every finding to cargo. An invalid
/// project fails the build cleanly (cargo prints the findings and stops).
pub fn compile(dir: impl AsRef<Path>) {
    Builder::new(dir).compile();
}

/// Settings for one compilation.
#[derive(Clone, Debug)]
pub struct Builder {
    dir: PathBuf,
    out_file: String,
    without_bundled_defaults: bool,
    strategy: Strategy,
    /// Chosen by [`Builder::dialect`]; else the agent's `utter.yml`.
    dialect: Option<Dialect>,
}

/// Why a compilation produced no code.
#[derive(Debug)]
pub enum Error {
    /// `CARGO_MANIFEST_DIR` or `OUT_DIR` is not set (not run by cargo).
    Env(&'static str),
    /// The project could not be read.
    Read(utter_compiler::ReadError),
    /// The project has error findings (already reported).
    Findings(usize),
    /// Writing the output failed.
    Write(PathBuf, io::Error),
    /// The generated code could not be formatted (a bug in utter).
    Format(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Env(var) => write!(f, "{var} is not set; utter_build runs from a build script"),
            Error::Read(e) => write!(f, "{e}"),
            Error::Findings(n) => write!(f, "the agent project has {n} error(s)"),
            Error::Write(path, e) => write!(f, "cannot write `{}`: {e}", path.display()),
            Error::Format(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

/// What a successful compilation wrote.
#[derive(Clone, Debug)]
pub struct Output {
    /// The generated file.
    pub path: PathBuf,
    /// How many responses it compiles.
    pub responses: usize,
    /// How many warnings were reported.
    pub warnings: usize,
}

impl Builder {
    /// Compile the agent folder `dir`, relative to `CARGO_MANIFEST_DIR`.
    pub fn new(dir: impl AsRef<Path>) -> Self {
        Builder {
            dir: dir.as_ref().to_path_buf(),
            out_file: "responses.rs".to_owned(),
            without_bundled_defaults: false,
            strategy: Strategy::Auto,
            dialect: None,
        }
    }

    /// How responses are compiled: straight-line code (fastest delivery),
    /// compact data (fastest build for large agents), or by build cost (the
    /// default: compact when responses plus [`SHAPE_COST`] per distinct
    /// shape exceed [`STRAIGHT_LINE_BUDGET`]).
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// The flavour of the format: Mantle or Maestro (the first entry of
    /// each response is delivered; a `condition` is an error). Without it,
    /// the agent's `utter.yml` decides (`dialect: maestro`), else Mantle.
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = Some(dialect);
        self
    }

    /// Compile without the bundled defaults (the packaged system responses
    /// and the default skills), for an agent that uses neither.
    pub fn without_bundled_defaults(mut self) -> Self {
        self.without_bundled_defaults = true;
        self
    }

    /// The file name under `OUT_DIR` (default `responses.rs`).
    pub fn out_file(mut self, name: impl Into<String>) -> Self {
        self.out_file = name.into();
        self
    }

    /// Compiles, printing cargo directives to stdout; failures are reported
    /// as `cargo::error=` lines, which fail the build without a panic dump.
    pub fn compile(self) {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        if let Err(e) = self.compile_to(&mut out) {
            report_failure(&e, &mut out);
        }
    }

    /// Compiles, writing cargo directives to `directives`.
    pub fn compile_to(self, directives: &mut impl Write) -> Result<Output, Error> {
        let manifest_dir =
            std::env::var_os("CARGO_MANIFEST_DIR").ok_or(Error::Env("CARGO_MANIFEST_DIR"))?;
        let out_dir = std::env::var_os("OUT_DIR").ok_or(Error::Env("OUT_DIR"))?;
        let dir = Path::new(&manifest_dir).join(&self.dir);
        let out_path = Path::new(&out_dir).join(&self.out_file);
        self.compile_paths(&dir, &out_path, directives)
    }

    /// Compiles `dir` into `out_path`, writing cargo directives to `directives`.
    pub fn compile_paths(
        &self,
        dir: &Path,
        out_path: &Path,
        directives: &mut impl Write,
    ) -> Result<Output, Error> {
        let write_err = |e: io::Error| Error::Write(out_path.to_path_buf(), e);
        let options = OpenOptions {
            dialect: self.dialect,
            without_bundled_defaults: self.without_bundled_defaults,
        };
        let agent = Agent::open(dir, options).map_err(Error::Read)?;
        let files = agent.files();
        // Folders too (cargo watches a folder's whole tree), so that a new
        // skill folder or file is noticed; only paths that exist, each once.
        let mut tracked = std::collections::BTreeSet::new();
        let mut untracked = false;
        for path in std::iter::once(&dir.to_path_buf()).chain(&files.scanned) {
            match directive_path(path) {
                Some(path) => {
                    if tracked.insert(path.clone()) {
                        let _ = writeln!(directives, "cargo::rerun-if-changed={path}");
                    }
                }
                None => untracked = true,
            }
        }
        if untracked {
            let _ = writeln!(
                directives,
                "cargo::warning=utter: a path that is not UTF-8 or holds a control character is not tracked for rebuilds"
            );
        }
        let checked = agent.checked();
        let warnings = report(checked, &self.dir.display().to_string(), directives);
        let registry = match agent.registry() {
            Ok(registry) => registry,
            Err(errors) => {
                // Keep a file in place so an `include!` never adds its own error.
                let skeleton = codegen::pretty(codegen::skeleton(checked), codegen::HEADER)
                    .map_err(Error::Format)?;
                std::fs::write(out_path, skeleton).map_err(write_err)?;
                return Err(Error::Findings(errors.len()));
            }
        };
        // The output lives in OUT_DIR, so the absolute folder is no machine
        // detail leaking into committed code; a path that is not UTF-8 is
        // not recorded (a hot reload then needs `watch(folder)`).
        let folder = std::path::absolute(dir)
            .ok()
            .and_then(|path| path.to_str().map(str::to_owned))
            .map_or(
                codegen::OriginFolder::Unknown,
                codegen::OriginFolder::Absolute,
            );
        let origin = codegen::Origin {
            folder,
            dialect: agent.dialect(),
            without_bundled_defaults: self.without_bundled_defaults,
        };
        let source = codegen::pretty(
            codegen::generate_from(registry, self.strategy, &origin),
            codegen::HEADER,
        )
        .map_err(Error::Format)?;
        // Unchanged output is not rewritten, so dependents are not rebuilt.
        if std::fs::read_to_string(out_path).ok().as_deref() != Some(source.as_str()) {
            std::fs::write(out_path, &source).map_err(write_err)?;
        }
        Ok(Output {
            path: out_path.to_path_buf(),
            responses: registry.responses.len(),
            warnings,
        })
    }
}

/// A failure as a `cargo::error=` line (findings were reported already).
/// A path in it is data, escaped as every finding is: a file name may hold
/// a newline, which would start a directive of its own.
pub fn report_failure(error: &Error, directives: &mut impl Write) {
    if !matches!(error, Error::Findings(_)) {
        let _ = writeln!(
            directives,
            "cargo::error=utter: {}",
            escape(&error.to_string())
        );
    }
}

/// `path` as it may stand in a cargo directive: UTF-8 without control
/// characters (a newline would start a directive of its own); else `None`.
fn directive_path(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    (!text.chars().any(char::is_control)).then(|| text.to_owned())
}

/// Prints every finding as cargo directives; returns the warning count.
fn report(checked: &Checked, prefix: &str, directives: &mut impl Write) -> usize {
    let mut warnings = 0;
    // Notes (how a value will be written) are for `utter check`, not for
    // every build.
    for finding in checked
        .findings
        .iter()
        .filter(|f| f.severity != utter_compiler::Severity::Note)
    {
        let directive = if finding.is_error() {
            "cargo::error="
        } else {
            warnings += 1;
            "cargo::warning="
        };
        let message = codegen::error_message(finding, checked, prefix);
        for line in message.lines().filter(|l| !l.trim().is_empty()) {
            // Data from the YAML files is shown, never obeyed: no control
            // character reaches cargo (or the terminal) as it is.
            let _ = writeln!(directives, "{directive}{}", escape(line));
        }
    }
    warnings
}
