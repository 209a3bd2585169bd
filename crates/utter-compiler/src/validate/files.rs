//! Files into sources and YAML trees: decoding (UTF-8, a BOM dropped) and
//! parsing, with the findings for what does not decode or parse.

use std::cell::Cell;

use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::yaml::YamlBudget;
use crate::load::yaml::{self, Node, YamlErrorKind};

/// Decodes a file (UTF-8, a leading BOM dropped) into a source; a file that
/// is not UTF-8 is a finding (the source keeps its lossy text for display).
/// Returns whether it decoded.
pub(crate) fn decode_file(
    label: &str,
    bytes: &[u8],
    sources: &mut Vec<SourceFile>,
    findings: &mut Vec<Finding>,
) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            sources.push(SourceFile::new(label, text));
            true
        }
        Err(e) => {
            let source = SourceFile::new(label, String::from_utf8_lossy(bytes).into_owned());
            // Lossy decoding keeps every valid byte before the first bad one.
            let at = e.valid_up_to();
            let bad = &bytes[at..at + e.error_len().unwrap_or(bytes.len() - at)];
            let shown: Vec<String> = bad.iter().map(|b| format!("0x{b:02X}")).collect();
            // Latin-1 / Windows-1252 files are the usual source of such bytes.
            let guess = if bad.len() == 1 && bad[0] >= 0x80 {
                " (a byte like this usually means the file was saved as Latin-1 or Windows-1252)"
            } else {
                ""
            };
            findings.push(
                source
                    .finding(
                        codes::YAML_ENCODING,
                        Severity::Error,
                        at..at + 1,
                        format!(
                            "the file is not valid UTF-8: byte {} at offset {at}{guess}",
                            shown.join(" ")
                        ),
                    )
                    .with_help(
                        "re-save the file as UTF-8 (for example `iconv -f WINDOWS-1252 -t UTF-8`)",
                    ),
            );
            sources.push(source);
            false
        }
    }
}

/// Parses the YAML in `range` of a source; a syntax error is a finding.
pub(crate) fn parse_yaml(
    source: &SourceFile,
    range: std::ops::Range<usize>,
    findings: &mut Vec<Finding>,
    budget: &Cell<YamlBudget>,
) -> Option<Option<Node>> {
    let mut left = budget.get();
    let parsed = yaml::parse_embedded(&source.text[range.clone()], range.start, &mut left);
    budget.set(left);
    match parsed {
        Ok(root) => Some(root),
        Err(e) => {
            let code = match e.kind {
                YamlErrorKind::Syntax => codes::YAML_SYNTAX,
                YamlErrorKind::Limit => codes::YAML_LIMIT,
                YamlErrorKind::Unsupported => codes::YAML_UNSUPPORTED,
            };
            let end = e.span.end.max(e.span.start + 1);
            // A tab in the indentation: point at the tab itself.
            let tab = (e.kind == YamlErrorKind::Syntax && e.message.contains("tab"))
                .then(|| indentation_tab(&source.text, e.span.start))
                .flatten();
            let span = tab.map_or(e.span.start..end, |at| at..at + 1);
            let mut finding = source.finding(code, Severity::Error, span, e.message);
            if tab.is_some() {
                finding.help =
                    Some("indent with spaces: YAML does not allow tabs in indentation".to_owned());
            } else if e.kind == YamlErrorKind::Syntax {
                finding.help = indentation_hint(&source.text, e.span.start);
            }
            findings.push(finding);
            None
        }
    }
}

/// The offset of the first tab in the indentation of the line holding `at`
/// (or of the line before, where the parser noticed it late).
fn indentation_tab(text: &str, at: usize) -> Option<usize> {
    let at = at.min(text.len());
    let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    for _ in 0..2 {
        let line = text[start..].lines().next().unwrap_or("");
        let indent = line.len() - line.trim_start_matches([' ', '\t', '-']).len();
        if let Some(tab) = line[..indent].find('\t') {
            return Some(start + tab);
        }
        if start == 0 {
            break;
        }
        start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    None
}

/// When the line of a syntax error is indented to a column no line above it
/// opens (the usual cause: one space too many or too few), says so.
fn indentation_hint(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let depth = line.len() - line.trim_start_matches(' ').len();
    if line.trim().is_empty() {
        return None;
    }
    // The columns the lines above open: their own, and a list item's content.
    let mut open: Vec<usize> = vec![0];
    for above in text[..line_start].lines() {
        let trimmed = above.trim_start_matches(' ');
        if trimmed.trim().is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let d = above.len() - trimmed.len();
        open.retain(|&o| o <= d);
        open.push(d);
        let mut rest = trimmed;
        let mut col = d;
        while let Some(after) = rest.strip_prefix("- ") {
            col += 2;
            open.push(col);
            rest = after.trim_start_matches(' ');
            col += after.len() - rest.len();
        }
        // `key:` with nothing after it opens the next level.
        if rest.trim_end().ends_with(':') {
            open.push(col + 2);
        }
    }
    open.sort_unstable();
    open.dedup();
    if open.contains(&depth) {
        return None;
    }
    let columns: Vec<String> = open.iter().map(|c| (c + 1).to_string()).collect();
    Some(format!(
        "inconsistent indentation: this line starts in column {}, but the lines above open columns {}; YAML nests by indentation, so align it with the key it belongs to",
        depth + 1,
        columns.join(", ")
    ))
}

/// Decodes and parses a whole YAML file.
pub(super) fn parse_file(
    label: &str,
    bytes: &[u8],
    sources: &mut Vec<SourceFile>,
    findings: &mut Vec<Finding>,
    budget: &Cell<YamlBudget>,
) -> Option<Option<Node>> {
    if !decode_file(label, bytes, sources, findings) {
        return None;
    }
    let source = sources.last().expect("decode_file pushed the source");
    parse_yaml(source, 0..source.text.len(), findings, budget)
}

/// What the lines before byte `before` of a file that does not parse hold:
/// the longest prefix of whole lines that parses (at most 64 tried), so a
/// syntax error loses only what follows it.
pub(super) fn parse_prefix(text: &str, before: usize, budget: &Cell<YamlBudget>) -> Option<Node> {
    let mut cut = text[..before.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    for _ in 0..64 {
        if cut == 0 {
            return None;
        }
        let mut left = budget.get();
        let parsed = yaml::parse_embedded(&text[..cut], 0, &mut left);
        budget.set(left);
        if let Ok(Some(root)) = parsed {
            return Some(root);
        }
        cut = text[..cut - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    None
}
