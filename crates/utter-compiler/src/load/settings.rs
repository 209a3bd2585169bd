//! `utter.yml`: what an agent folder says about itself, read by every way
//! in (the CLI, the macro, build.rs, the language server, the hot reload,
//! the playground), so that they agree: the dialect, and the level of
//! utter's own findings, as Cargo's `[lints]`.
//!
//! ```yaml
//! dialect: maestro   # or mantle (the default)
//! lints:
//!   utter.validation.response.unknown_placeholder: warn   # allow, warn or deny
//! ```
//!
//! An explicit dialect (`--dialect`, `include_responses!(.., maestro)`,
//! `Builder::dialect`) overrides the file's.

use super::FileCx;
use super::yaml::Node;
use crate::bundled::Dialect;
use crate::diagnostics::{Finding, Severity, SourceFile, codes, did_you_mean};

/// The settings file's name, at the agent folder's root.
pub const SETTINGS_FILE: &str = "utter.yml";

/// What `utter.yml` declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The dialect the agent is written in, when it says.
    pub dialect: Option<Dialect>,
    /// The levels it sets for findings.
    pub lints: Lints,
}

/// A level a project sets for a finding code, as Cargo's lints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Not reported.
    Allow,
    /// A warning.
    Warn,
    /// An error.
    Deny,
}

impl Level {
    fn from_name(name: &str) -> Option<Level> {
        match name {
            "allow" => Some(Level::Allow),
            "warn" => Some(Level::Warn),
            "deny" => Some(Level::Deny),
            _ => None,
        }
    }
}

/// The levels `utter.yml` sets, by code (one of [`codes::LINTABLE`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lints(Vec<(&'static str, Level)>);

impl Lints {
    /// The level set for `code`, if any.
    pub fn level(&self, code: &str) -> Option<Level> {
        // The later of two levels set for one code wins, as the duplicate
        // key's finding says.
        self.0.iter().rfind(|(c, _)| *c == code).map(|(_, l)| *l)
    }

    /// `findings` at the levels set: an allowed one dropped, the others
    /// made warnings or errors.
    pub fn apply(&self, findings: &mut Vec<Finding>) {
        if self.0.is_empty() {
            return;
        }
        findings.retain_mut(|f| match self.level(f.code) {
            None => true,
            Some(Level::Allow) => false,
            Some(Level::Warn) => {
                f.severity = Severity::Warning;
                true
            }
            Some(Level::Deny) => {
                f.severity = Severity::Error;
                true
            }
        });
    }
}

/// The settings in `root` (the parsed `utter.yml`), each problem reported
/// to `cx`.
pub fn walk(cx: &mut FileCx<'_>, root: Option<&Node>) -> Settings {
    let mut settings = Settings::default();
    let Some(root) = root else {
        return settings;
    };
    let Some(entries) = cx.mapping(root, "utter.yml", codes::SETTINGS_INVALID) else {
        return settings;
    };
    for (key, (key_span, value)) in entries {
        match key.as_str() {
            "dialect" => match value.as_scalar().and_then(|s| Dialect::from_name(&s.value)) {
                Some(dialect) => settings.dialect = Some(dialect),
                None => {
                    // Name the value written and the dialects there are.
                    let written = written(value);
                    cx.report(
                        codes::SETTINGS_INVALID,
                        Severity::Error,
                        value.span.clone(),
                        format!(
                            "`dialect` is {written}, which is no dialect (the dialects are `mantle` and `maestro`); write `dialect: mantle` or `dialect: maestro`"
                        ),
                    );
                }
            },
            "lints" => settings.lints = lints(cx, value),
            other => {
                cx.report(
                    codes::SETTINGS_INVALID,
                    Severity::Error,
                    key_span,
                    format!("`{other}` is not a setting of utter.yml; remove it (the settings are `dialect` and `lints`)"),
                );
                cx.suggest(did_you_mean(other, ["dialect", "lints"]));
            }
        }
    }
    settings
}

/// A value as a message names it: a scalar as written, else its kind.
fn written(value: &Node) -> String {
    match value.as_scalar() {
        Some(scalar) => format!("`{}`", scalar.value),
        None => value.describe().to_owned(),
    }
}

/// `lints:`: a mapping of finding codes to `allow`, `warn` or `deny`.
fn lints(cx: &mut FileCx<'_>, value: &Node) -> Lints {
    let mut lints = Lints::default();
    let Some(entries) = cx.mapping(value, "`lints`", codes::SETTINGS_INVALID) else {
        return lints;
    };
    for (code, (code_span, level)) in entries {
        let Some(known) = lintable(cx, &code, code_span) else {
            continue;
        };
        match level.as_scalar().and_then(|s| Level::from_name(&s.value)) {
            Some(level) => lints.0.push((known, level)),
            None => {
                let written = written(level);
                cx.report(
                    codes::SETTINGS_INVALID,
                    Severity::Error,
                    level.span.clone(),
                    format!("the level of `{code}` is {written}, which is no level; write `allow`, `warn` or `deny`"),
                );
            }
        }
    }
    lints
}

/// `code` as one of [`codes::LINTABLE`], or the error saying why not.
fn lintable(cx: &mut FileCx<'_>, code: &str, span: std::ops::Range<usize>) -> Option<&'static str> {
    if let Some(known) = codes::LINTABLE.iter().find(|c| **c == code) {
        return Some(known);
    }
    let known = codes::ALL.iter().any(|(c, _)| *c == code);
    let message = if !known {
        format!(
            "`{code}` is no finding code; the codes a project sets the level of are those of `utter` warnings and notes, and `{}`",
            codes::UNKNOWN_PLACEHOLDER
        )
    } else if code.starts_with("utter.") {
        format!(
            "`{code}` keeps its level: it guards that the agent compiles (or is an error in some cases and a warning in others)"
        )
    } else {
        format!(
            "`{code}` is the reference engine's finding and keeps its level: a project the reference refuses is refused"
        )
    };
    cx.report(codes::SETTINGS_INVALID, Severity::Error, span, message);
    if !known {
        cx.suggest(did_you_mean(code, codes::LINTABLE.iter().copied()));
    } else {
        cx.help(format!(
            "the codes whose level a project sets: {}",
            codes::LINTABLE.join(", ")
        ));
    }
    None
}

/// The settings in `text` (an `utter.yml`), problems aside.
pub fn declared(text: &[u8]) -> Settings {
    let Some(text) = std::str::from_utf8(text).ok() else {
        return Settings::default();
    };
    let Ok(Some(root)) = super::yaml::parse(text) else {
        return Settings::default();
    };
    let source = SourceFile::new(SETTINGS_FILE, text);
    let mut findings = Vec::new();
    let mut cx = FileCx {
        source: &source,
        findings: &mut findings,
    };
    walk(&mut cx, Some(&root))
}

/// The dialect `text` (an `utter.yml`) declares, problems aside: what the
/// readers of a folder use before it is checked (the check reports them).
pub fn declared_dialect(text: &[u8]) -> Option<Dialect> {
    declared(text).dialect
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code listed twice takes its later level, as the duplicate key's
    /// finding says.
    #[test]
    fn a_code_listed_twice_takes_the_later_level() {
        let code = codes::LINTABLE[0];
        let text = format!("lints:\n  {code}: deny\n  {code}: allow\n");
        assert_eq!(
            declared(text.as_bytes()).lints.level(code),
            Some(Level::Allow)
        );
        let text = format!("lints:\n  {code}: allow\n  {code}: deny\n");
        assert_eq!(
            declared(text.as_bytes()).lints.level(code),
            Some(Level::Deny)
        );
    }
}
