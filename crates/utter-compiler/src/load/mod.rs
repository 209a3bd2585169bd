//! Loading: project files from disk, YAML into spanned nodes, and the walks
//! from nodes to raw responses and memory declarations.

pub mod agent_yml;
pub mod layout;
pub mod memory;
pub mod project;
pub mod responses;
pub mod settings;
pub mod skill_md;
pub mod yaml;

use std::ops::Range;

use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use yaml::{Node, NodeKind};

/// One file being walked: its source and where its findings go.
pub struct FileCx<'a> {
    /// The file being walked.
    pub source: &'a SourceFile,
    /// Where its findings go.
    pub findings: &'a mut Vec<Finding>,
}

/// A mapping's entries: key text, then key span and value node.
pub type Entries<'n> = Vec<(String, (Range<usize>, &'n Node))>;

impl FileCx<'_> {
    /// Reports a finding at `span` of this file.
    pub fn report(
        &mut self,
        code: &'static str,
        severity: Severity,
        span: Range<usize>,
        message: impl Into<String>,
    ) {
        self.findings
            .push(self.source.finding(code, severity, span, message));
    }

    /// Gives the finding reported last its fix (`help:`).
    pub fn help(&mut self, help: impl Into<String>) {
        if let Some(last) = self.findings.last_mut() {
            last.help = Some(help.into());
        }
    }

    /// Gives the finding reported last a did-you-mean, when there is one.
    pub fn suggest(&mut self, replacement: Option<&str>) {
        if let Some(replacement) = replacement
            && let Some(last) = self.findings.pop()
        {
            self.findings.push(last.with_suggestion(replacement));
        }
    }

    /// Reports a finding about `response` (and `variant`) at `span`.
    pub fn report_in(
        &mut self,
        code: &'static str,
        severity: Severity,
        span: Range<usize>,
        response: &str,
        variant: Option<usize>,
        message: impl Into<String>,
    ) {
        let mut finding = self.source.finding(code, severity, span, message);
        finding.response = Some(response.to_owned());
        finding.variant = variant;
        self.findings.push(finding);
    }

    /// The entries of `node` as a mapping with scalar keys; reports (with
    /// `shape_code`) anything else, and duplicate keys.
    pub fn mapping<'n>(
        &mut self,
        node: &'n Node,
        what: &str,
        shape_code: &'static str,
    ) -> Option<Entries<'n>> {
        self.mapping_with(node, what, shape_code, codes::YAML_DUPLICATE_KEY)
    }

    /// [`FileCx::mapping`], reporting duplicate keys with `duplicate_code`.
    /// Duplicates stay in the result (the later one wins where it matters,
    /// as in the reference engine), but never silently.
    pub fn mapping_with<'n>(
        &mut self,
        node: &'n Node,
        what: &str,
        shape_code: &'static str,
        duplicate_code: &'static str,
    ) -> Option<Entries<'n>> {
        let NodeKind::Map(pairs) = &node.kind else {
            self.report(
                shape_code,
                Severity::Error,
                node.span.clone(),
                format!("{what} must be a mapping, found {}", node.describe()),
            );
            return None;
        };
        let mut out: Entries<'n> = Vec::with_capacity(pairs.len());
        // First occurrence of each key: duplicates found in O(1) each.
        let mut first_at: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(pairs.len());
        for (key, value) in pairs {
            let Some(scalar) = key.as_scalar() else {
                self.report(
                    shape_code,
                    Severity::Error,
                    key.span.clone(),
                    format!(
                        "keys of {what} must be plain names, found {}",
                        key.describe()
                    ),
                );
                continue;
            };
            if let Some(&first) = first_at.get(scalar.value.as_str()) {
                let (line, _) = self.source.line_col(first);
                let mut finding = self
                    .source
                    .finding(
                        duplicate_code,
                        Severity::Error,
                        key.span.clone(),
                        format!("`{}` is defined twice in {what}", scalar.value),
                    )
                    .with_help("remove one of them or rename it: the later one would silently win");
                finding.note = Some(format!("first defined on line {line}"));
                // A response defined twice is named like every response finding.
                if duplicate_code == codes::DUPLICATE_RESPONSE {
                    finding.response = Some(scalar.value.clone());
                }
                self.findings.push(finding);
            }
            first_at
                .entry(scalar.value.as_str())
                .or_insert(key.span.start);
            out.push((scalar.value.clone(), (key.span.clone(), value)));
        }
        Some(out)
    }
}
