//! A `responses.yml` file checked response by response, so that an edit
//! inside one big file (the language server, a keystroke) reads and checks
//! again only the responses whose own lines changed.
//!
//! Only a file of the plain shape is split: top-level keys at column 0,
//! `responses:` the last of them, then each response a key at one
//! indentation starting with a letter, digit or `_`, its lines indented
//! deeper. Each response's lines are parsed as a YAML document of their
//! own (with the responses before it when they do not parse alone: an
//! alias of an anchor above) and checked as the whole file checks them;
//! what that gave is kept by the lines' text and moved when the lines move.
//! Anything else (a file of another shape, lines that do not parse, a name
//! defined twice, a budget near its end) is checked whole, as before: the
//! two ways give the same result, which tests/incremental.rs checks.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use super::outcomes::{FileParts, PartOutcome, UnitMemo, UnitOutcome};
use super::pass::{Pass, Unit};
use super::responses::{CheckedConditions, validate_response};
use super::schema::Schema;
use crate::bundled;
use crate::diagnostics::{Finding, SourceFile};
use crate::load::FileCx;
use crate::load::project::ProjectFiles;
use crate::load::responses as load_responses;
use crate::load::yaml::{self, MAX_NODES, Node, NodeKind, Resolved, YamlBudget};

/// Where a file of the plain shape (see the module) holds its parts.
#[derive(Debug, PartialEq)]
pub(super) struct Layout {
    /// The top-level keys, `responses:` last.
    header: Range<usize>,
    /// Each response's lines, in order.
    responses: Vec<Range<usize>>,
    /// The indentation of the response names.
    indent: usize,
}

/// The layout of `text`, when it has the plain shape.
pub(super) fn layout(text: &str) -> Option<Layout> {
    let mut after_responses = false;
    let mut indent = None;
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start_matches(' ');
        if trimmed.trim_end().is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let depth = body.len() - trimmed.len();
        let key_line = trimmed.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        match indent {
            _ if !after_responses => {
                if depth != 0 || !key_line {
                    return None;
                }
                if trimmed.starts_with("responses") {
                    after_responses = trimmed.trim_end() == "responses:";
                    if !after_responses {
                        return None;
                    }
                }
            }
            None if depth > 0 && key_line => {
                indent = Some(depth);
                starts.push(start);
            }
            Some(k) if depth > k => {}
            Some(k) if depth == k && key_line => starts.push(start),
            _ => return None,
        }
    }
    let first = *starts.first()?;
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    Some(Layout {
        header: 0..first,
        responses: starts.iter().zip(ends).map(|(&s, e)| s..e).collect(),
        indent: indent?,
    })
}

/// The file checked response by response, with the outcomes kept from the
/// check before; `None` when it must be checked whole (see the module).
/// Spends the YAML budget only when it succeeds; the caller gives back
/// the hints spent when it does not.
pub(super) fn check_by_response(
    scratch: &mut Pass,
    files: &ProjectFiles,
    unit: &Unit<'_>,
    (label, bytes): (&str, &[u8]),
    schema: &Schema,
    memo: &mut UnitMemo,
) -> Option<UnitOutcome> {
    // What the whole file's check decodes: no BOM, valid UTF-8.
    let text = std::str::from_utf8(bytes).ok()?;
    if text.starts_with('\u{feff}') {
        return None;
    }
    let layout = layout(text)?;
    let source = SourceFile::new(label, text);
    let (header, header_cost) = yaml::parse_counted(&text[layout.header.clone()], 0).ok()??;
    let responses_key = responses_key(&header)?;
    let mut findings = Vec::new();
    load_responses::walk(
        &mut FileCx {
            source: &source,
            findings: &mut findings,
        },
        Some(&header),
    );
    let mut parts = Parts {
        label,
        indent: layout.indent,
        source: &source,
        root: (&header, responses_key),
        maestro: files.dialect == bundled::Dialect::Maestro && !unit.bundled,
        scope: &unit.scope,
        schema,
        clean: CheckedConditions::new(),
        // Parts read again with the ones before them could make the work
        // quadratic (a thousand aliases of one anchor): past twice the
        // file, it is read whole.
        parse_left: 2 * text.len() + 64 * 1024,
    };
    let mut outcomes: Vec<(Range<usize>, Arc<PartOutcome>)> =
        Vec::with_capacity(layout.responses.len());
    for lines in layout.responses {
        match parts.outcome(lines.clone(), memo) {
            Ok(outcome) => outcomes.push((lines, outcome)),
            // Lines that do not parse alone may parse with the parts before
            // (an alias of an anchor there): read again as one part with
            // one more of them at a time (`parse_left` bounds the work).
            Err(Unread::Alone) => {
                let mut joined = lines;
                let outcome = loop {
                    let (before, read) = outcomes.pop()?;
                    // Its check is done again, with these lines.
                    schema.hints.reset(schema.hints.left() + read.hints_spent);
                    joined = before.start..joined.end;
                    match parts.outcome(joined.clone(), memo) {
                        Ok(outcome) => break outcome,
                        Err(Unread::Alone) => {}
                        Err(Unread::Never) => return None,
                    }
                };
                outcomes.push((joined, outcome));
            }
            Err(Unread::Never) => return None,
        }
    }
    let file_parts = FileParts {
        header: layout.header,
        indent: layout.indent,
        parts: outcomes,
    };
    let outcomes: Vec<Arc<PartOutcome>> = (file_parts.parts.iter())
        .map(|(_, o)| Arc::clone(o))
        .collect();
    let raws = || {
        outcomes
            .iter()
            .flat_map(|o| o.responses.iter().map(|(raw, _)| raw))
    };
    let mut names = HashSet::with_capacity(response_count(&outcomes));
    if !raws().all(|raw| names.insert(raw.name.as_str())) {
        // A name defined twice is said by the whole file's check.
        return None;
    }
    // The whole document: the header, its `responses: null` a mapping of
    // every part's pairs (each part's own mapping stands for none).
    let parts_cost = outcomes.iter().map(|o| o.cost);
    let cost = YamlBudget::sum([header_cost].into_iter().chain(parts_cost), outcomes.len());
    let mut left = scratch.yaml_budget.get();
    if cost.nodes() > MAX_NODES / 2 || !left.take(cost) || !left.is_left() {
        return None;
    }
    scratch.yaml_budget.set(left);
    let mut outcome = assemble(source, findings, &outcomes, memo);
    outcome.parts = Some(Arc::new(file_parts));
    Some(outcome)
}

/// The part on `lines` of a `responses.yml` (`source`, checked part by
/// part as `parts` says) read and checked again alone, as the check of the
/// whole file does it: after an edit inside the part. `None` when its
/// lines are not responses that parse alone.
pub(crate) fn recheck_part(
    (files, schema): (&ProjectFiles, &Schema),
    parts: &FileParts,
    source: &SourceFile,
    lines: Range<usize>,
    id: u64,
) -> Option<PartOutcome> {
    let units = super::pass::units(files);
    let of_source = |u: &&Unit<'_>| (u.responses.as_ref()).is_some_and(|(l, _)| *l == source.label);
    let unit = units.iter().find(of_source)?;
    let (header, _) = yaml::parse_counted(&source.text[parts.header.clone()], 0).ok()??;
    let mut part = Parts {
        label: &source.label,
        indent: parts.indent,
        source,
        root: (&header, responses_key(&header)?),
        maestro: files.dialect == bundled::Dialect::Maestro && !unit.bundled,
        scope: &unit.scope,
        schema,
        clean: CheckedConditions::new(),
        parse_left: usize::MAX,
    };
    let at = (lines.start, source.line_index(lines.start) + 1);
    part.check(lines, at, id)
}

fn response_count(outcomes: &[Arc<PartOutcome>]) -> usize {
    outcomes.iter().map(|o| o.responses.len()).sum()
}

/// Why a part was not read.
enum Unread {
    /// Its lines do not parse alone (or are not responses alone).
    Alone,
    /// A budget is spent: the file is checked whole.
    Never,
}

/// The `responses` key of a header whose last pair is `responses:` (null).
fn responses_key(header: &Node) -> Option<&Node> {
    let NodeKind::Map(pairs) = &header.kind else {
        return None;
    };
    let (key, value) = pairs.last()?;
    let is_null = matches!(&value.kind, NodeKind::Scalar(s) if s.resolve() == Resolved::Null);
    let is_responses = matches!(&key.kind, NodeKind::Scalar(s) if s.value == "responses");
    (is_null && is_responses).then_some(key)
}

/// The mapping of the responses on `lines` of `text`, and what it costs,
/// exactly as the whole file's parse has them. Lines followed by more
/// responses are parsed with a last name after them (at `indent`), which
/// is then taken away: a node that ends the lines ends where the next
/// token begins (a block scalar's span runs to the next name), as in the
/// whole file.
fn parse_part(text: &str, lines: Range<usize>, indent: usize) -> Option<(Node, YamlBudget)> {
    const END: &str = "__utter_end_of_part__";
    let part_text = &text[lines.clone()];
    if lines.end == text.len() {
        let (part, cost) = yaml::parse_counted(part_text, lines.start).ok()??;
        return matches!(&part.kind, NodeKind::Map(_)).then_some((part, cost));
    }
    let followed = format!("{part_text}{:indent$}{END}: 0\n", "");
    let (mut part, cost) = yaml::parse_counted(&followed, lines.start).ok()??;
    let NodeKind::Map(pairs) = &mut part.kind else {
        return None;
    };
    let (end, _) = pairs.pop()?;
    let at = lines.end + indent;
    let is_end = matches!(&end.kind, NodeKind::Scalar(s) if s.value == END);
    if !is_end || end.span.start != at || pairs.is_empty() {
        return None;
    }
    part.span.end = part.span.end.min(at);
    // The name and its value: two nodes, and their bytes.
    Some((part, cost.less(YamlBudget::of(2, END.len() + 1))))
}

/// What checking a part of the file needs.
struct Parts<'p> {
    label: &'p str,
    /// The indentation of the response names.
    indent: usize,
    source: &'p SourceFile,
    /// The header and its `responses` key.
    root: (&'p Node, &'p Node),
    /// Maestro delivers the first entry: a condition is an error.
    maestro: bool,
    scope: &'p super::Scope,
    schema: &'p Schema,
    clean: CheckedConditions,
    /// The bytes the parts may still parse (see `check_by_response`).
    parse_left: usize,
}

impl Parts<'_> {
    /// The outcome of the part on `lines`: kept from the check before
    /// (moved where it moved), or read and checked now.
    fn outcome(
        &mut self,
        lines: Range<usize>,
        memo: &mut UnitMemo,
    ) -> Result<Arc<PartOutcome>, Unread> {
        let text = &self.source.text[lines.clone()];
        let at = (lines.start, self.source.line_index(lines.start) + 1);
        if let Some(kept) = memo.kept_part(self.label, text) {
            if !self.schema.hints.replay(kept.hints_spent) {
                return Err(Unread::Never);
            }
            if kept.at == at {
                memo.reused_part(&kept);
                return Ok(kept);
            }
            // A note may name a line ("first defined on line 4"): such a
            // part is read again where it moved.
            if kept
                .read
                .iter()
                .chain(&kept.checked)
                .all(|f| f.note.is_none())
            {
                let moved = Arc::new(kept.moved_to(at));
                memo.reused_part(&moved);
                memo.keep_part(self.label, text, Arc::clone(&moved));
                return Ok(moved);
            }
            self.schema
                .hints
                .reset(self.schema.hints.left() + kept.hints_spent);
        }
        self.parse_left = (self.parse_left.checked_sub(lines.len())).ok_or(Unread::Never)?;
        let hints_before = self.schema.hints.left();
        let Some(outcome) = self.check(lines, at, memo.next_id()) else {
            self.schema.hints.reset(hints_before);
            return Err(Unread::Alone);
        };
        let outcome = Arc::new(outcome);
        if self.schema.hints.left() == 0 {
            return Err(Unread::Never);
        }
        memo.keep_part(self.label, text, Arc::clone(&outcome));
        Ok(outcome)
    }

    /// Reads and checks the responses on `lines` as the whole file's check
    /// does; `None` when they are not responses that parse alone.
    fn check(&mut self, lines: Range<usize>, at: (usize, usize), id: u64) -> Option<PartOutcome> {
        let (part, cost) = parse_part(&self.source.text, lines.clone(), self.indent)?;
        let (header, key) = self.root;
        let root = Node {
            span: header.span.clone(),
            kind: NodeKind::Map(vec![(key.clone(), part)]),
        };
        let mut read = Vec::new();
        let mut cx = FileCx {
            source: self.source,
            findings: &mut read,
        };
        let raws = load_responses::walk(&mut cx, Some(&root));
        let hints_before = self.schema.hints.left();
        let mut checked = Vec::new();
        let mut cx = FileCx {
            source: self.source,
            findings: &mut checked,
        };
        let mut responses = Vec::with_capacity(raws.len());
        for raw in raws {
            if self.maestro {
                super::responses::report_maestro_conditions(&mut cx, &raw);
            }
            let conditions =
                validate_response(&mut cx, self.schema, self.scope, &raw, &mut self.clean);
            responses.push((Arc::new(raw), conditions));
        }
        let inside = |f: &Finding| lines.start <= f.span.start && f.span.end <= lines.end;
        if responses.is_empty() || !read.iter().chain(&checked).all(inside) {
            return None;
        }
        Some(PartOutcome {
            id,
            at,
            responses,
            read,
            checked,
            cost,
            hints_spent: hints_before - self.schema.hints.left(),
        })
    }
}

/// The file's outcome from its parts, in the order the whole file's check
/// gives it: the header's findings, every response's reading, then every
/// response's check.
fn assemble(
    source: SourceFile,
    mut findings: Vec<Finding>,
    outcomes: &[Arc<PartOutcome>],
    memo: &mut UnitMemo,
) -> UnitOutcome {
    findings.extend(outcomes.iter().flat_map(|o| o.read.iter().cloned()));
    findings.extend(outcomes.iter().flat_map(|o| o.checked.iter().cloned()));
    let mut responses = Vec::with_capacity(response_count(outcomes));
    for outcome in outcomes {
        for (raw, conditions) in &outcome.responses {
            memo.note_content(raw, outcome.id);
            responses.push((Arc::clone(raw), conditions.clone()));
        }
    }
    UnitOutcome::by_response(source, findings, responses)
}

#[cfg(test)]
mod tests;
