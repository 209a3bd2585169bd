//! What the server answers: diagnostics, definitions, references, hover,
//! completion and quick fixes, all from one checked project.

use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    Location, NumberOrString, Position, TextEdit, Uri, WorkspaceEdit,
};
use utter::Visibility;
use utter_compiler::diagnostics::escape::{markdown_code, markdown_text, quote};
use utter_compiler::load::layout::{FileKind, file_of, skill_of};
use utter_compiler::load::responses::ConditionField;
use utter_compiler::wording::Selection;
use utter_compiler::{Finding, Severity, SourceFile};

use super::project::Project;
use super::text::{range, range_in, uri_of};

/// What the word under the cursor names.
#[derive(Debug, PartialEq)]
pub enum Symbol {
    Response(String),
    Memory {
        namespace: String,
        entry: String,
    },
    /// A variant of a response, where it is defined.
    Variant {
        response: String,
        variant: usize,
    },
}

pub(super) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// The word around byte `at` of `text` and its span.
fn word_at(text: &str, at: usize) -> Option<(&str, std::ops::Range<usize>)> {
    let at = at.min(text.len());
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(text.len(), |(i, _)| at + i);
    let word = text[start..end].trim_matches('.');
    (!word.is_empty()).then_some((word, start..end))
}

/// The symbol at byte `at` of the file `label`.
pub fn symbol_at(project: &Project, label: &str, at: usize) -> Option<Symbol> {
    let text = project.text(label)?;
    let checked = &project.checked;
    let Some((word, span)) = word_at(text, at) else {
        return variant_at(project, label, at);
    };
    // A declaration in memory.yml names itself.
    if let Some(decl) = checked
        .memory
        .iter()
        .find(|d| d.file == label && d.span.contains(&at.min(text.len().saturating_sub(1))))
    {
        return Some(Symbol::Memory {
            namespace: decl.namespace.clone(),
            entry: decl.name.clone(),
        });
    }
    // `@memory.<ns>.<entry>` in skill.md prose (`@` is not part of a word).
    let at_sign = text[..span.start].ends_with('@');
    let memory_ref = word
        .strip_prefix("session.")
        .or_else(|| at_sign.then(|| word.strip_prefix("memory.")).flatten());
    if let Some(rest) = memory_ref
        && let Some((namespace, entry)) = rest.split_once('.')
    {
        return Some(Symbol::Memory {
            namespace: namespace.to_owned(),
            entry: entry.to_owned(),
        });
    }
    if checked.responses.contains_key(word) || checked.unusable_responses.contains(word) {
        return Some(Symbol::Response(word.to_owned()));
    }
    // `collect: <entry>` in an ordered block names an entry of its skill.
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..span.start]
        .trim_start()
        .trim_start_matches("- ");
    if label.ends_with("skill.md")
        && line.trim_end() == "collect:"
        && let Some(symbol) = entry_named(project, label, word)
    {
        return Some(symbol);
    }
    if let Some(symbol) = bare_placeholder(project, label, text, word, at) {
        return Some(symbol);
    }
    variant_at(project, label, at)
}

/// What the variant analysis says of variant `variant` of `response`, in
/// the view it is validated under: "delivered when: ...", "never
/// delivered: ...", or why nothing is claimed.
fn variant_verdict(project: &Project, response: &str, variant: usize) -> Option<String> {
    let registry = project.registry.as_ref()?;
    let index = registry.responses.iter().position(|r| r.name == response)?;
    let view = utter_compiler::analysis::home_view(registry, index);
    let mut views = project.views.borrow_mut();
    let shown = views
        .entry(index)
        .or_insert_with(|| utter_compiler::snapshot::response_view(registry, index, view));
    // The verdict as every surface words it.
    Some(shown.variants.get(variant)?.verdict())
}

/// The variant whose YAML covers byte `at` of `label`.
fn variant_at(project: &Project, label: &str, at: usize) -> Option<Symbol> {
    project
        .checked
        .responses
        .iter()
        .filter(|(_, r)| r.file == label)
        .find_map(|(name, r)| {
            let v = r.raw.variants.iter().find(|v| v.span.contains(&at))?;
            Some(Symbol::Variant {
                response: name.clone(),
                variant: v.index,
            })
        })
}

/// A bare `{entry}` placeholder at `at`: the file's own skill's entry, then the project's.
fn bare_placeholder(
    project: &Project,
    label: &str,
    text: &str,
    word: &str,
    at: usize,
) -> Option<Symbol> {
    // Inside `{...}`: a bare `{entry}` placeholder.
    let before = &text[..at.min(text.len())];
    let inside = before
        .rfind('{')
        .is_some_and(|o| !before[o..].contains('}'));
    inside.then(|| entry_named(project, label, word)).flatten()
}

/// The entry called `word` as a file of `label` names it bare: its own
/// skill's entry, else the project's.
fn entry_named(project: &Project, label: &str, word: &str) -> Option<Symbol> {
    let owner = skill_of(label).unwrap_or("project");
    [owner, "project"].into_iter().find_map(|namespace| {
        project
            .checked
            .memory
            .iter()
            .any(|d| d.namespace == namespace && d.name == word)
            .then(|| Symbol::Memory {
                namespace: namespace.to_owned(),
                entry: word.to_owned(),
            })
    })
}

fn location(project: &Project, file: &str, span: &std::ops::Range<usize>) -> Option<Location> {
    if utter_compiler::bundled::is_bundled(file) {
        return None; // no file to open
    }
    let text = project.text(file)?;
    Some(Location::new(
        uri_of(&project.root.join(file)),
        range(text, span),
    ))
}

/// Where the symbol is defined.
pub fn definition(project: &Project, symbol: &Symbol) -> Vec<Location> {
    let checked = &project.checked;
    match symbol {
        Symbol::Variant { response, variant } => checked
            .responses
            .get(response)
            .and_then(|r| {
                let v = r.raw.variants.iter().find(|v| v.index == *variant)?;
                location(project, &r.file, &v.span)
            })
            .into_iter()
            .collect(),
        Symbol::Response(name) => {
            // The definition delivered first, then those it overrides (or
            // that override it): the same name in another responses.yml.
            // The loader's spans, in merge order: the last is delivered.
            let definitions = checked.definitions.get(name).map_or(&[][..], Vec::as_slice);
            definitions
                .iter()
                .rev()
                .filter_map(|(file, span)| location(project, file, span))
                .collect()
        }
        Symbol::Memory { namespace, entry } => checked
            .memory
            .iter()
            .filter(|d| d.namespace == *namespace && d.name == *entry)
            .filter_map(|d| location(project, &d.file, &d.span))
            .collect(),
    }
}

/// Every place that names the symbol, the definition included.
pub fn references(project: &Project, symbol: &Symbol) -> Vec<Location> {
    let mut out = definition(project, symbol);
    let checked = &project.checked;
    match symbol {
        Symbol::Variant { .. } => {}
        Symbol::Response(name) => {
            for (skill, doc) in &checked.skill_docs {
                let file = file_of(Some(skill), FileKind::SkillDoc);
                let refs = doc
                    .triggers
                    .iter()
                    .map(|t| &t.response)
                    .chain(doc.steps.iter().map(|s| &s.response))
                    .chain(doc.tools.iter().flat_map(|t| {
                        [
                            &t.on_success,
                            &t.on_failure,
                            &t.utter_for_confirmation,
                            &t.utter_on_user_denial,
                        ]
                        .into_iter()
                        .flatten()
                    }));
                out.extend(
                    refs.filter(|r| r.name == *name)
                        .filter_map(|r| location(project, &file, &r.span)),
                );
            }
        }
        Symbol::Memory { namespace, entry } => {
            let needles = [
                format!("session.{namespace}.{entry}"),
                format!("@memory.{namespace}.{entry}"),
            ];
            for source in &checked.sources {
                if utter_compiler::bundled::is_bundled(&source.label) {
                    continue;
                }
                for needle in &needles {
                    for (at, _) in source.text.match_indices(needle.as_str()) {
                        let end = at + needle.len();
                        // Whole words only: not `session.a.bc` for `session.a.b`.
                        if source.text[end..].chars().next().is_some_and(is_word) {
                            continue;
                        }
                        out.extend(location(project, &source.label, &(at..end)));
                    }
                }
            }
        }
    }
    out
}

/// Markdown describing the symbol.
pub fn hover(project: &Project, symbol: &Symbol) -> Option<String> {
    let checked = &project.checked;
    match symbol {
        Symbol::Variant { response, variant } => {
            let verdict = variant_verdict(project, response, *variant)?;
            Some(format!(
                "**{}**, variant {variant}: {}",
                markdown_code(response),
                markdown_text(&verdict)
            ))
        }
        Symbol::Response(name) => {
            let r = checked.responses.get(name)?;
            let line = checked
                .source(&r.file)
                .map_or(0, |s| s.line_col(r.raw.name_span.start).0);
            let mut md = format!(
                "**{}** — {}\n",
                markdown_code(name),
                markdown_code(&format!("{}:{line}", r.file))
            );
            // The reference counts a variant whose condition is not text
            // as a default, as the lowering does.
            let default = r
                .raw
                .variants
                .iter()
                .position(|v| condition_of(v).is_none());
            for (index, v) in r.raw.variants.iter().enumerate() {
                let selection = Selection::of(condition_of(v), default == Some(index));
                let condition = selection.label(markdown_code);
                let rephrase = if v.rephrase { " *(rephrased)*" } else { "" };
                md.push_str(&format!(
                    "\n{}. {condition}: {}{rephrase}",
                    v.index,
                    markdown_code(&quote(&v.text))
                ));
                if let Some(verdict) = variant_verdict(project, name, v.index) {
                    md.push_str(&format!(" — {}", markdown_text(&verdict)));
                }
            }
            Some(md)
        }
        Symbol::Memory { namespace, entry } => {
            let d = checked
                .memory
                .iter()
                .find(|d| d.namespace == *namespace && d.name == *entry)?;
            let visibility = match d.visibility {
                Visibility::Project => "project entry, readable everywhere",
                Visibility::Public => "public: readable by every skill",
                Visibility::Private => "private: readable while its skill is active",
            };
            let mut md = format!(
                "**{}**: `{}`, {visibility}",
                markdown_code(&format!("session.{namespace}.{entry}")),
                d.ty
            );
            if !d.values.is_empty() {
                let values: Vec<String> = d.values.iter().map(|v| markdown_code(v)).collect();
                md.push_str(&format!("\n\nValues: {}", values.join(", ")));
            }
            if let Some(doc) = d.description.as_ref().or(d.comment.as_ref()) {
                md.push_str(&format!("\n\n{}", markdown_text(doc)));
            }
            md.push_str(&format!("\n\nDeclared in {}", markdown_code(&d.file)));
            Some(md)
        }
    }
}

/// A file's text, URI and findings.
fn file_findings<'p>(
    project: &'p Project,
    label: &'p str,
) -> Option<(&'p SourceFile, Uri, impl Iterator<Item = &'p Finding>)> {
    let text = project.source(label)?;
    let uri = uri_of(&project.root.join(label));
    let findings = project
        .checked
        .findings
        .iter()
        .filter(move |f| f.file == label);
    Some((text, uri, findings))
}

/// The diagnostics of one file.
pub fn diagnostics(project: &Project, label: &str) -> Vec<Diagnostic> {
    let Some((text, uri, findings)) = file_findings(project, label) else {
        return Vec::new();
    };
    findings.map(|f| diagnostic(f, text, &uri)).collect()
}

fn diagnostic(f: &Finding, text: &SourceFile, uri: &Uri) -> Diagnostic {
    let severity = match f.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    };
    let mut message = format!("{}{}", f.subject(), f.message);
    if let Some(help) = &f.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let at = range_in(text, &f.span);
    Diagnostic {
        range: at,
        severity: Some(severity),
        code: Some(NumberOrString::String(f.code.to_owned())),
        source: Some("utter".to_owned()),
        message,
        related_information: f.note.as_ref().map(|note| {
            vec![DiagnosticRelatedInformation {
                location: Location::new(uri.clone(), at),
                message: note.clone(),
            }]
        }),
        ..Default::default()
    }
}

/// Quick fixes (did-you-mean replacements) for findings touching `lines`.
pub fn code_actions(
    project: &Project,
    label: &str,
    start: Position,
    end: Position,
) -> Vec<CodeAction> {
    let Some((text, uri, findings)) = file_findings(project, label) else {
        return Vec::new();
    };
    findings
        .filter_map(|f| {
            let replacement = f.suggestion.as_ref()?;
            let at = range_in(text, &f.span);
            if at.end < start || at.start > end {
                return None;
            }
            let edit = TextEdit::new(at, replacement.clone());
            Some(CodeAction {
                title: format!("Replace with `{replacement}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(f, text, &uri)]),
                edit: Some(WorkspaceEdit {
                    changes: Some([(uri.clone(), vec![edit])].into_iter().collect()),
                    ..Default::default()
                }),
                is_preferred: Some(true),
                ..Default::default()
            })
        })
        .collect()
}

/// A variant's condition as written, when it has one that is text.
fn condition_of(variant: &utter_compiler::load::responses::RawVariant) -> Option<&str> {
    match &variant.condition {
        ConditionField::Text { text, .. } => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod scaling {
    use std::collections::HashMap;
    use std::fmt::Write as _;
    use std::path::Path;

    use super::super::project::Project;

    /// Positions come from the line index: every diagnostic of a file of
    /// 20,000 findings is at its finding's line and column, in UTF-16 units
    /// past a multi-byte character. (How long it takes is measured, not
    /// asserted: docs/reliability.md, "language server load".)
    #[test]
    fn diagnostics_are_at_their_findings_in_a_large_file() {
        let root = Path::new("/nonexistent-utter-agent");
        let n = 20_000;
        let mut yaml = String::from("responses:\n");
        for i in 0..n {
            let _ = writeln!(yaml, "  utter_r{i}:\n    - text: \"\u{e9}{{nope{i}}}\"");
        }
        let overlays = HashMap::from([(root.join("responses.yml"), yaml)]);
        let project = Project::load(root, &overlays, utter_compiler::CheckCache::new());
        let diagnostics = super::diagnostics(&project, "responses.yml");
        assert_eq!(diagnostics.len(), n);
        for (i, d) in diagnostics.iter().enumerate().step_by(997) {
            // Line 2 + 2i (0-based), after `    - text: "é`: 14 UTF-16 units.
            assert_eq!(d.range.start.line as usize, 2 + 2 * i, "{d:?}");
            assert_eq!(d.range.start.character, 14, "{d:?}");
        }
    }
}
