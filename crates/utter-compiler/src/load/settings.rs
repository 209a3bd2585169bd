//! `utter.yml`: what an agent folder says about itself, read by every way
//! in (the CLI, the macro, build.rs, the language server, the hot reload),
//! so that they agree. Today one setting: the dialect.
//!
//! ```yaml
//! dialect: maestro   # or mantle (the default)
//! ```
//!
//! An explicit choice (`--dialect`, `include_responses!(.., maestro)`,
//! `Builder::dialect`) overrides it.

use super::FileCx;
use super::yaml::Node;
use crate::bundled::Dialect;
use crate::diagnostics::{Severity, SourceFile, codes};

/// The settings file's name, at the agent folder's root.
pub const SETTINGS_FILE: &str = "utter.yml";

/// What `utter.yml` declares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The dialect the agent is written in, when it says.
    pub dialect: Option<Dialect>,
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
                    let written = match value.as_scalar() {
                        Some(scalar) => format!("`{}`", scalar.value),
                        None => value.describe().to_owned(),
                    };
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
            other => {
                cx.report(
                    codes::SETTINGS_INVALID,
                    Severity::Error,
                    key_span,
                    format!("`{other}` is not a setting of utter.yml; remove it (the one setting is `dialect`)"),
                );
            }
        }
    }
    settings
}

/// The dialect `text` (an `utter.yml`) declares, problems aside: what the
/// readers of a folder use before it is checked (the check reports them).
pub fn declared_dialect(text: &[u8]) -> Option<Dialect> {
    let text = std::str::from_utf8(text).ok()?;
    let root = super::yaml::parse(text).ok()??;
    let source = SourceFile::new(SETTINGS_FILE, text);
    let mut findings = Vec::new();
    let mut cx = FileCx {
        source: &source,
        findings: &mut findings,
    };
    walk(&mut cx, Some(&root)).dialect
}
