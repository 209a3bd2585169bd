//! How findings are printed: rustc-style for people, JSON for scripts, SARIF
//! 2.1.0 for code scanning and workflow commands for GitHub Actions.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value as Json, json};
use utter_compiler::diagnostics::{codes, render_finding_in};
use utter_compiler::{Checked, Finding, Severity};

/// The version of the JSON output's shape (bumped when a field changes meaning).
pub const JSON_VERSION: u32 = 2;

/// `value` as JSON text, every character the escaping rule calls unsafe
/// (C1 controls such as NEL, bidi controls, line and paragraph separators)
/// written as `\uXXXX` as JSON's own controls are: valid JSON a script
/// reads as before, that no terminal or log takes as a line break or an
/// escape. Every JSON document utter prints goes through here.
pub fn json_text(value: &Json) -> String {
    use serde::Serialize as _;
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, SafeJson);
    value
        .serialize(&mut serializer)
        .expect("a JSON value serializes");
    String::from_utf8(out).expect("JSON text is UTF-8")
}

/// serde_json's compact form, unsafe characters escaped (see [`json_text`]).
struct SafeJson;

impl serde_json::ser::Formatter for SafeJson {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            if utter_compiler::diagnostics::escape::is_unsafe(c) {
                writer.write_all(&fragment.as_bytes()[start..at])?;
                // JSON escapes a character beyond the BMP (a tag
                // character) as its UTF-16 surrogate pair.
                for unit in c.encode_utf16(&mut [0; 2]) {
                    write!(writer, "\\u{:04x}", unit)?;
                }
                start = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// Counts of one check.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
    /// Project files read (bundled files not counted).
    pub files: usize,
}

impl Summary {
    pub fn of(checked: &Checked) -> Summary {
        let count = |s: Severity| checked.findings.iter().filter(|f| f.severity == s).count();
        Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            notes: count(Severity::Note),
            files: checked
                .sources
                .iter()
                .filter(|s| !utter_compiler::bundled::is_bundled(&s.label))
                .count(),
        }
    }
}

/// The path of a finding's file as the user can open it: under the agent
/// folder as it was given (so relative to the current directory when that
/// was), `/`-separated. Bundled files keep their `<bundled>/` label.
pub fn display_path(dir: &Path, label: &str) -> String {
    // No file on disk: a bundled file, or standard input (`<stdin>`).
    if utter_compiler::bundled::is_bundled(label) || label.starts_with('<') {
        return label.to_owned();
    }
    let joined = dir.join(label);
    let shown = joined.strip_prefix(".").unwrap_or(&joined);
    shown.to_string_lossy().replace('\\', "/")
}

/// rustc-style findings, each followed by a blank line, with paths as the
/// user can open them.
pub fn human(checked: &Checked, findings: &[Finding], dir: &Path, color: bool) -> String {
    let mut out = String::new();
    for finding in findings {
        let mut shown = finding.clone();
        shown.file = display_path(dir, &finding.file);
        out.push_str(&render_finding_in(
            &shown,
            checked.source(&finding.file),
            color,
        ));
        out.push_str("\n\n");
    }
    out
}

fn finding_json(f: &Finding, dir: &Path) -> Json {
    let mut json = serde_json::to_value(f).expect("a finding serializes");
    json["path"] = Json::String(display_path(dir, &f.file));
    json
}

/// The JSON document of `utter check --format json` (see docs/cli-and-ci.md).
pub fn json(checked: &Checked, dir: &Path) -> String {
    let s = Summary::of(checked);
    let document = json!({
        "version": JSON_VERSION,
        "tool": {"name": "utter", "version": env!("CARGO_PKG_VERSION")},
        "summary": {"errors": s.errors, "warnings": s.warnings, "notes": s.notes, "files": s.files},
        "findings": checked.findings.iter().map(|f| finding_json(f, dir)).collect::<Vec<_>>(),
    });
    json_text(&document)
}

/// A fatal error (utter could not run) as JSON, so a script reading stdout
/// always gets a document.
pub fn json_fatal(message: &str) -> String {
    json_text(&json!({
        "version": JSON_VERSION,
        "tool": {"name": "utter", "version": env!("CARGO_PKG_VERSION")},
        "error": message,
    }))
}

/// A delivery as JSON: `{"text","response","variant","rephrase","fallback"}`.
pub fn delivery(d: &utter::Delivery<'_>, explanation: Option<&utter::Explanation<'_>>) -> String {
    let mut value = serde_json::to_value(d).expect("a delivery serializes");
    if let Some(object) = value.as_object_mut() {
        // Versioned: docs/schemas/render.v1.json.
        object.insert("schema".to_owned(), "utter/render/v1".into());
        if let Some(explanation) = explanation {
            object.insert("explanation".to_owned(), explanation_json(explanation));
        }
    }
    json_text(&value)
}

/// `render --explain --format json`'s `explanation`: each conditioned
/// variant's outcome (`true`, `false` or `{"error": ...}`, and whether
/// delivery evaluates it), the default, the variant delivered, and the
/// rule that chose it (`condition`, `default` or `name`).
fn explanation_json(e: &utter::Explanation<'_>) -> serde_json::Value {
    let conditions: Vec<serde_json::Value> = e
        .conditions
        .iter()
        .map(|c| {
            let outcome = match &c.outcome {
                Ok(holds) => serde_json::Value::Bool(*holds),
                Err(error) => serde_json::json!({ "error": error.to_string() }),
            };
            serde_json::json!({
                "variant": c.variant,
                "condition": c.condition,
                "outcome": outcome,
                "evaluated_at_delivery": c.evaluated_at_delivery,
            })
        })
        .collect();
    let rule = match (e.delivered, e.condition_won()) {
        (Some(_), true) => "condition",
        (Some(_), false) => "default",
        (None, _) => "name",
    };
    serde_json::json!({
        "known": e.known,
        "conditions": conditions,
        "default_variant": e.default,
        "delivered_variant": e.delivered,
        "rule": rule,
        "in_words": e.to_string(),
    })
}

/// A path as a URI path: every byte outside RFC 3986's unreserved set and
/// `/` percent-encoded (SARIF locations, the language server's `file://`).
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Subject, message, then `note:` and `help:` lines: a finding as plain text.
fn full_message(f: &Finding) -> String {
    let mut text = format!("{}{}", f.subject(), f.message);
    if let Some(note) = &f.note {
        text.push_str(&format!("\nnote: {note}"));
    }
    if let Some(help) = &f.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    text
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// SARIF 2.1.0: one run, a rule per finding code (with its description),
/// results with their region, and `fixes` where a finding has a suggestion.
pub fn sarif(checked: &Checked, dir: &Path) -> String {
    let mut rules: BTreeMap<&str, Severity> = BTreeMap::new();
    for f in &checked.findings {
        let level = rules.entry(f.code).or_insert(f.severity);
        *level = (*level).min(f.severity);
    }
    let index: BTreeMap<&str, usize> = rules.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let rules_json: Vec<Json> = rules
        .iter()
        .map(|(code, severity)| {
            let about = codes::describe(code);
            json!({
                "id": code,
                "shortDescription": {"text": about},
                "help": {"text": about},
                "defaultConfiguration": {"level": sarif_level(*severity)},
            })
        })
        .collect();
    let results: Vec<Json> = checked
        .findings
        .iter()
        .map(|f| {
            let region = json!({
                "startLine": f.line,
                "startColumn": f.column,
                "endLine": f.end_line,
                "endColumn": f.end_column,
            });
            let location = json!({"uri": uri(&display_path(dir, &f.file))});
            let text = full_message(f);
            let mut result = json!({
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": sarif_level(f.severity),
                "message": {"text": text},
                "locations": [{"physicalLocation": {"artifactLocation": location, "region": region}}],
            });
            if let Some(replacement) = &f.suggestion {
                result["fixes"] = json!([{
                    "description": {"text": f.help.clone().unwrap_or_default()},
                    "artifactChanges": [{
                        "artifactLocation": location,
                        "replacements": [{
                            "deletedRegion": region,
                            "insertedContent": {"text": replacement},
                        }],
                    }],
                }]);
            }
            result
        })
        .collect();
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "utter",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/utter-rs/utter",
                "rules": rules_json,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    json_text(&document)
}

/// A workflow command's data: `%`, CR and LF as GitHub wants them, every
/// other unsafe character as everywhere (`diagnostics::escape`).
pub fn escape_data(s: &str) -> String {
    let lines: Vec<String> = s
        .split('\n')
        .map(|line| {
            line.split('\r')
                .map(|part| {
                    utter_compiler::diagnostics::escape::escape(&part.replace('%', "%25"))
                        .into_owned()
                })
                .collect::<Vec<_>>()
                .join("%0D")
        })
        .collect();
    lines.join("%0A")
}

/// A workflow command's property: also `:` and `,`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Where a workflow command points: a line, or a span of lines and columns.
#[derive(Clone, Copy)]
pub enum At {
    Line(usize),
    Span {
        line: usize,
        column: usize,
        end_line: usize,
        end_column: usize,
    },
}

/// One GitHub Actions workflow command line, `::<level> file=..,line=..,
/// title=..::message`, every property and the message escaped: the one
/// writer of them (`check --format github`, `snapshot --check --format github`).
pub fn workflow_command(level: &str, file: &str, at: At, title: &str, message: &str) -> String {
    let place = match at {
        At::Line(line) => format!("line={line}"),
        At::Span {
            line,
            column,
            end_line,
            end_column,
        } => format!("line={line},col={column},endLine={end_line},endColumn={end_column}"),
    };
    format!(
        "::{level} file={},{place},title={}::{}\n",
        escape_property(file),
        escape_property(title),
        escape_data(message),
    )
}

/// GitHub Actions workflow commands, one line per finding:
/// `::error file=..,line=..,col=..,endLine=..,endColumn=..,title=CODE::message`.
pub fn github(checked: &Checked, dir: &Path) -> String {
    let mut out = String::new();
    for f in &checked.findings {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let at = At::Span {
            line: f.line,
            column: f.column,
            end_line: f.end_line,
            end_column: f.end_column,
        };
        let file = display_path(dir, &f.file);
        out.push_str(&workflow_command(
            level,
            &file,
            at,
            f.code,
            &full_message(f),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_their_separators() {
        assert_eq!(escape_property("a:b,c%\nd"), "a%3Ab%2Cc%25%0Ad");
        assert_eq!(escape_data("a:b,c%\r\n"), "a:b,c%25%0D%0A");
        assert_eq!(escape_data("x\u{1b}[2J\u{202e}"), "x\\u{1b}[2J\\u{202e}");
    }

    #[test]
    fn uris_percent_encode_all_but_unreserved() {
        assert_eq!(
            uri("skills/a b/responses.yml"),
            "skills/a%20b/responses.yml"
        );
        assert_eq!(uri("é"), "%C3%A9");
    }

    #[test]
    fn paths_are_under_the_folder_as_given() {
        assert_eq!(
            display_path(Path::new("."), "responses.yml"),
            "responses.yml"
        );
        assert_eq!(
            display_path(Path::new("agents/x"), "skills/s/memory.yml"),
            "agents/x/skills/s/memory.yml"
        );
        assert_eq!(
            display_path(Path::new("x"), "<bundled>/a/responses.yml"),
            "<bundled>/a/responses.yml"
        );
    }
}
