//! What a hot reload reports: its outcomes, each shown escaped.

use std::fmt;

use utter_compiler::diagnostics::escape::escape;

/// What a reload did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReloadEvent {
    /// The edit took effect: these responses deliver their new wording now.
    Reloaded {
        /// The responses whose wording changed.
        changed: Vec<String>,
    },
    /// Nothing a delivery reads changed (a file saved as it was).
    Unchanged,
    /// The edited agent has errors, each rendered as `utter check` shows
    /// it: nothing changed, the last good wording stays.
    Rejected {
        /// The error findings, rendered.
        findings: Vec<String>,
    },
    /// The edit changes what the typed API names: nothing changed until
    /// the crate is rebuilt.
    RebuildNeeded {
        /// Each difference, in words (`response \`utter_x\` added`).
        reasons: Vec<String>,
    },
    /// The folder cannot be watched (or was removed or moved away): the
    /// last good wording stays.
    WatchFailed(ReloadError),
    /// After a rejected edit, an incompatible one or a folder that was
    /// gone, the agent checks clean again and delivers the wording it did
    /// before: nothing else changed.
    InSync,
}

impl fmt::Display for ReloadEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReloadEvent::Reloaded { changed } => {
                let names: Vec<String> =
                    changed.iter().map(|n| format!("`{}`", escape(n))).collect();
                write!(f, "reloaded {}", names.join(", "))
            }
            ReloadEvent::Unchanged => f.write_str("nothing to reload"),
            ReloadEvent::Rejected { findings } => {
                // Each line escaped: a finding quotes the agent's own text.
                f.write_str("the edit was not applied: the agent has errors")?;
                for line in findings.iter().flat_map(|finding| finding.lines()) {
                    write!(f, "\n{}", escape(line))?;
                }
                Ok(())
            }
            ReloadEvent::RebuildNeeded { reasons } => {
                let reasons: Vec<String> = reasons.iter().map(|r| escape(r).into_owned()).collect();
                write!(f, "rebuild needed: {}", reasons.join("; "))
            }
            ReloadEvent::WatchFailed(error) => write!(f, "{error}"),
            ReloadEvent::InSync => f.write_str(
                "back in sync: the agent checks clean again and delivers the wording it did before",
            ),
        }
    }
}

/// Why an agent folder cannot be watched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReloadError {
    pub(super) message: String,
}

impl fmt::Display for ReloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(&self.message))
    }
}

impl std::error::Error for ReloadError {}
