//! An edit inside one response of a `responses.yml`, checked as that
//! response alone: the language server's keystroke, in a big file or in
//! one of many.
//!
//! The check before it ([`LastCheck`]) kept its findings apart (validation,
//! analysis), the parts of each file it checked part by part and what each
//! budget had left. When the only change since is an edit inside one
//! response's lines (not its name's), that part is read, checked, lowered
//! and analysed again; its findings replace its old ones and the findings
//! after it move with the text. Nothing else can change, provided the
//! response keeps its name and shape, is the definition delivered (a
//! skill's response no other file defines), no error of it breaks the
//! whole file, its work fits in what the budgets had left, and no note
//! names a line that moved: each is checked, and anything else is `None`
//! (then the project is checked, as before). `tests/incremental.rs`
//! compares every result with a check from scratch.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use utter::Entry;

use crate::analysis::{Budget, VerdictMemo, one_response_findings};
use crate::diagnostics::{Finding, SourceFile, codes, sort_findings};
use crate::load::layout::skill_of;
use crate::load::project::ProjectFiles;
use crate::load::settings::Lints;
use crate::load::yaml::YamlBudget;
use crate::lower::{Broken, Registry, entry_ids, lower_one};
use crate::validate::{Checked, FileParts, MergedResponse, PartOutcome, Schema, Scope, UnitMemo};

/// What an edit after a check may be checked against (see the module).
#[derive(Debug)]
pub(crate) struct LastCheck {
    /// The files checked, but those in `parted`.
    files: ProjectFiles,
    /// The `responses.yml` files checked part by part, by label.
    parted: BTreeMap<String, PartedFile>,
    /// The response names defined more than once: which definition is
    /// delivered is not one file's to say.
    defined_twice: HashSet<String>,
    /// The findings of validation (lint levels applied, sorted), then of
    /// the analysis (lint levels applied).
    validated: Vec<Finding>,
    analysed: Vec<Finding>,
    lints: Lints,
    /// What the lowering and analysis of one response read.
    entries: Vec<Entry<String, Vec<String>>>,
    skills: Vec<String>,
    /// What the YAML, did-you-mean and analysis budgets had left.
    left: (YamlBudget, usize, Budget),
    /// The memory schema the check read (the memory files do not change).
    schema: Schema,
}

/// A `responses.yml` checked part by part, edits included.
#[derive(Debug)]
struct PartedFile {
    source: SourceFile,
    parts: FileParts,
    /// Which memory its conditions read.
    scope: Scope,
}

impl LastCheck {
    /// The file `label` as checked, edits included, when it was checked
    /// part by part.
    pub(crate) fn source(&self, label: &str) -> Option<&SourceFile> {
        self.parted.get(label).map(|file| &file.source)
    }

    /// What the check of `files` leaves for an edit: `None` unless a
    /// `responses.yml` of it was checked part by part.
    pub(crate) fn record(
        files: &ProjectFiles,
        (checked, registry): (&Checked, &Registry),
        analysed: &[Finding],
        units: &mut UnitMemo,
        analysis_left: Budget,
    ) -> Option<LastCheck> {
        let (yaml_left, hints_left) = units.left?;
        let schema = units.schema.take()?;
        let parted: BTreeMap<String, PartedFile> = (units.parted_files())
            .filter(|(label, _)| files.files.contains_key(*label))
            .filter_map(|(label, parts)| {
                let file = PartedFile {
                    source: checked.source(label)?.clone(),
                    parts: FileParts::clone(parts),
                    scope: skill_of(label).map_or(Scope::Root, |id| Scope::Skill(id.to_owned())),
                };
                Some((label.clone(), file))
            })
            .collect();
        if parted.is_empty() {
            return None;
        }
        let others = ProjectFiles {
            root: files.root.clone(),
            files: (files.files.iter())
                .filter(|(label, _)| !parted.contains_key(*label))
                .map(|(label, bytes)| (label.clone(), bytes.clone()))
                .collect(),
            skills: files.skills.clone(),
            // Not what a check reads.
            scanned: Vec::new(),
            oversized: files.oversized.clone(),
            skipped: files.skipped.clone(),
            without_bundled_defaults: files.without_bundled_defaults,
            dialect: files.dialect,
        };
        let defined_twice = (checked.definitions.iter())
            .filter(|(_, defined)| defined.len() > 1)
            .map(|(name, _)| name.clone())
            .collect();
        Some(LastCheck {
            files: others,
            parted,
            defined_twice,
            validated: checked.findings.clone(),
            analysed: analysed.to_vec(),
            lints: checked.lints.clone(),
            entries: registry.entries.clone(),
            skills: registry.skills.clone(),
            left: (yaml_left, hints_left, analysis_left),
            schema,
        })
    }
}

/// Where an edit is: the bytes it replaced (of the text before) and the
/// length of what replaced them.
struct Edit {
    start: usize,
    old_end: usize,
    new_end: usize,
    /// How many bytes it was moved earlier ([`Edit::earlier`]).
    slid: usize,
}

/// The most bytes an edit is moved earlier to find it inside a part.
const MAX_EARLIER: usize = 256;

impl Edit {
    /// The one range where `old` and `new` (UTF-8 outside the range) differ,
    /// on character boundaries.
    fn between(a: &[u8], b: &[u8]) -> Edit {
        // Not inside a character: not before a byte `10xxxxxx`.
        let boundary = |text: &[u8], at: usize| text.get(at).is_none_or(|&c| c & 0xc0 != 0x80);
        let mut start = common_prefix(a, b, |i| i);
        while !(boundary(a, start) && boundary(b, start)) {
            start -= 1;
        }
        let most = a.len().min(b.len()) - start;
        let suffix = common_prefix(&a[a.len() - most..], &b[b.len() - most..], |i| most - 1 - i);
        let mut edit = Edit {
            start,
            old_end: a.len() - suffix,
            new_end: b.len() - suffix,
            slid: 0,
        };
        // The bytes after both ends are the same: both are boundaries or not.
        while !boundary(a, edit.old_end) {
            edit.old_end += 1;
            edit.new_end += 1;
        }
        edit
    }

    /// The same insertion (or deletion) one byte earlier, when the byte
    /// before it is the (ASCII) byte it ends with; `None` for a
    /// replacement, at the start, or after [`MAX_EARLIER`] bytes.
    fn earlier(&self, old: &[u8], new: &[u8]) -> Option<Edit> {
        let (inserted, deleted) = (self.old_end == self.start, self.new_end == self.start);
        let last = match (inserted, deleted) {
            (true, false) => new[self.new_end - 1],
            (false, true) => old[self.old_end - 1],
            _ => return None,
        };
        let before = *old.get(self.start.checked_sub(1)?)?;
        (before == last && last.is_ascii() && self.slid < MAX_EARLIER).then(|| Edit {
            start: self.start - 1,
            old_end: self.old_end - 1,
            new_end: self.new_end - 1,
            slid: self.slid + 1,
        })
    }

    /// Where byte `at` (of the text before, not inside the edit) is now.
    fn moved(&self, at: usize) -> usize {
        at - self.old_end + self.new_end
    }
}

/// The part whose lines after its name's hold the edit, but its last byte.
fn part_holding(parts: &FileParts, old: &[u8], edit: &Edit) -> Option<usize> {
    let k = (parts.parts).partition_point(|(lines, _)| lines.end <= edit.start);
    let (lines, _) = parts.parts.get(k)?;
    let name_line = old[lines.start..lines.end]
        .iter()
        .position(|&b| b == b'\n')?;
    let inside = lines.start + name_line < edit.start && edit.old_end < lines.end;
    inside.then_some(k)
}

/// How many bytes `a` and `b` have in common from their start, or (with
/// `at` counting from the end, `|i| len - 1 - i`) from their end: a block
/// at a time, then a byte at a time.
fn common_prefix(a: &[u8], b: &[u8], at: impl Fn(usize) -> usize) -> usize {
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let block = |i: usize| {
        let (x, y) = (at(i), at(i + BLOCK - 1));
        let range = x.min(y)..x.max(y) + 1;
        a[range.clone()] == b[range]
    };
    let mut same = 0;
    while same + BLOCK <= n && block(same) {
        same += BLOCK;
    }
    same + (same..n).take_while(|&i| a[at(i)] == b[at(i)]).count()
}

/// The findings of `files` (sorted, as a check from scratch gives them)
/// after one edit inside one response of a `responses.yml` since `last`
/// (see the module), `last` updated to them; `None` when the edit may
/// change more than that response's findings (`last` is then of no use).
pub(crate) fn findings_after_edit(
    last: &mut LastCheck,
    files: &ProjectFiles,
    units: &mut UnitMemo,
    verdicts: &mut VerdictMemo,
) -> Option<Vec<Finding>> {
    let label = the_one_changed(last, files)?;
    // Taken out while the rest of `last` is read; put back when done.
    let mut file = last.parted.remove(&label)?;
    let new = files.files.get(&label)?;
    let old = file.source.text.as_bytes();
    let mut edit = Edit::between(old, new);
    // An insertion or deletion may be placed a few bytes earlier: a line
    // added after a response's last begins, as found, on the next name's.
    let k = loop {
        match part_holding(&file.parts, old, &edit) {
            Some(k) => break k,
            None => edit = edit.earlier(old, new)?,
        }
    };
    // The rest of the text is the checked one: only what replaced its
    // bytes is read as UTF-8.
    let replacement = std::str::from_utf8(&new[edit.start..edit.new_end]).ok()?;
    let lines_moved =
        lines_of(replacement) != lines_of(&file.source.text[edit.start..edit.old_end]);
    let (lines, outcome) = file.parts.parts[k].clone();
    let edited = lines.start..edit.moved(lines.end);
    file.source.edit(edit.start..edit.old_end, replacement);
    let source = &file.source;
    if !still_one_part(&source.text[edited.clone()], file.parts.indent) {
        return None;
    }
    let at = (lines.start, source.line_index(lines.start) + 1);
    // Hints as many as were left: a check that spends them all declines.
    last.schema.hints.reset(last.left.1);
    let fresh = crate::validate::recheck_part(
        (files, &last.schema),
        &file.parts,
        source,
        edited.clone(),
        units.next_id(),
    )?;
    let (validated, new_left) =
        revalidate(last, (&outcome, &fresh), (at, lines_moved), &edit, &file)?;
    let (analysed, analysis_left) = reanalyse(last, &fresh, &validated, (&edit, &file), verdicts)?;
    let mut findings = validated.clone();
    findings.extend(analysed.iter().cloned());
    sort_findings(&mut findings);

    let fresh = Arc::new(fresh);
    units.keep_edited_part(
        &label,
        &file.source.text[edited.clone()],
        Arc::clone(&fresh),
    );
    file.parts.parts[k] = (edited, fresh);
    for (lines, _) in &mut file.parts.parts[k + 1..] {
        *lines = edit.moved(lines.start)..edit.moved(lines.end);
    }
    last.parted.insert(label, file);
    last.validated = validated;
    last.analysed = analysed;
    last.left = (new_left.0, new_left.1, analysis_left);
    Some(findings)
}

/// The label of the one file of `last.parted` whose bytes `files` changed,
/// when nothing else differs.
fn the_one_changed(last: &LastCheck, files: &ProjectFiles) -> Option<String> {
    let (old, new) = (&last.files, files);
    let same_reading = old.dialect == new.dialect
        && old.without_bundled_defaults == new.without_bundled_defaults
        && old.skills == new.skills
        && old.oversized == new.oversized
        && old.skipped == new.skipped
        && new.files.len() == old.files.len() + last.parted.len();
    if !same_reading {
        return None;
    }
    let mut changed = None;
    for (label, bytes) in &new.files {
        match last.parted.get(label) {
            Some(file) if file.source.text.as_bytes() == bytes.as_slice() => {}
            Some(_) if changed.is_none() => changed = Some(label),
            Some(_) => return None,
            None if old.files.get(label) == Some(bytes) => {}
            None => return None,
        }
    }
    changed.cloned()
}

/// Whether the lines of `part` are still one response's: after its name's
/// line, every line is blank, a comment or deeper than `indent`; and it
/// ends its last line.
fn still_one_part(part: &str, indent: usize) -> bool {
    let body = part.split_inclusive('\n').skip(1).all(|line| {
        let trimmed = line.trim_start_matches(' ');
        let blank = trimmed.trim_end().is_empty() || trimmed.starts_with('#');
        blank || line.len() - trimmed.len() > indent
    });
    body && part.ends_with('\n')
}

/// The validation findings after the edit, and what the YAML and
/// did-you-mean budgets have left: the part's `old` findings replaced by
/// the `fresh` ones, those after the edit moved.
fn revalidate(
    last: &LastCheck,
    (old, fresh): (&PartOutcome, &PartOutcome),
    (at, lines_moved): ((usize, usize), bool),
    edit: &Edit,
    file: &PartedFile,
) -> Option<(Vec<Finding>, (YamlBudget, usize))> {
    let ([(old_raw, _)], [(new_raw, _)]) = (old.responses(), fresh.responses()) else {
        return None;
    };
    if old_raw.name != new_raw.name || old_raw.well_formed != new_raw.well_formed {
        return None;
    }
    // The root's definition is the one delivered; a skill's only when no
    // other file defines the name.
    if file.scope != Scope::Root && last.defined_twice.contains(&new_raw.name) {
        return None;
    }
    // Its work fits in what was left, whatever it gives back.
    let (cost, hints) = fresh.spent();
    let (mut yaml, hints_left, _) = last.left;
    if !yaml.take(cost) || !yaml.is_left() || hints >= hints_left {
        return None;
    }
    let mut before = old.findings_at(at);
    let mut after = fresh.findings_at(at);
    last.lints.apply(&mut before);
    last.lints.apply(&mut after);
    // An error naming no response makes every response of the file
    // unusable; a note may name a line the edit moved.
    let breaks_the_file = |f: &Finding| f.is_error() && f.response.is_none();
    if before.iter().chain(&after).any(breaks_the_file) || old.has_notes() || fresh.has_notes() {
        return None;
    }
    let mut validated = without_each(&last.validated, &before)?;
    let others_noted = validated
        .iter()
        .chain(&last.analysed)
        .any(|f| f.note.is_some());
    if lines_moved && others_noted {
        return None;
    }
    move_after_edit(&mut validated, edit, &file.source)?;
    validated.extend(after);
    sort_findings(&mut validated);
    Some((validated, (yaml, hints_left - hints)))
}

/// The analysis findings after the edit, and what its budget has left: the
/// response's old ones replaced by those of its analysis now (none when it
/// is not usable), those after the edit moved.
fn reanalyse(
    last: &LastCheck,
    fresh: &PartOutcome,
    validated: &[Finding],
    (edit, file): (&Edit, &PartedFile),
    verdicts: &mut VerdictMemo,
) -> Option<(Vec<Finding>, Budget)> {
    let source = &file.source;
    let [(raw, conditions)] = fresh.responses() else {
        return None;
    };
    let name = Some(raw.name.as_str());
    let mut analysed: Vec<Finding> = (last.analysed.iter())
        .filter(|f| !(f.file == source.label && f.response.as_deref() == name))
        .cloned()
        .collect();
    move_after_edit(&mut analysed, edit, source)?;
    let merged = MergedResponse {
        scope: file.scope.clone(),
        file: source.label.clone(),
        raw: Arc::clone(raw),
        conditions: conditions.clone(),
    };
    let has_errors = validated.iter().any(Finding::is_error);
    let usable = !has_errors || Broken::of(validated).spares(&merged, &entry_ids(&last.entries));
    let mut budget = last.left.2.clone();
    if !raw.well_formed || !usable {
        return Some((analysed, budget));
    }
    let line = source.line_index(raw.name_span.start) + 1;
    let registry = Registry {
        entries: last.entries.clone(),
        declarations: Vec::new(),
        skills: last.skills.clone(),
        responses: vec![lower_one(&merged, line, &last.entries)],
        skill_refs: Vec::new(),
    };
    let never_true: Vec<usize> = (validated.iter())
        .filter(|f| f.code == codes::NEVER_TRUE && f.response.as_deref() == name)
        .filter_map(|f| f.variant)
        .collect();
    let reported = |variant: usize| never_true.contains(&variant);
    let dialect = last.files.dialect;
    let mut found = one_response_findings(
        (&registry, 0),
        (raw, source),
        &reported,
        (dialect, verdicts, &mut budget),
    )?;
    last.lints.apply(&mut found);
    analysed.extend(found);
    Some((analysed, budget))
}

/// `findings` without one of each of `gone`; `None` if one is not there.
fn without_each(findings: &[Finding], gone: &[Finding]) -> Option<Vec<Finding>> {
    let mut kept = findings.to_vec();
    for finding in gone {
        let at = kept.iter().position(|f| f == finding)?;
        kept.remove(at);
    }
    Some(kept)
}

/// How many lines `text` ends.
fn lines_of(text: &str) -> usize {
    crate::diagnostics::newlines(text.as_bytes())
}

/// Moves the findings of the edited file (`source`) after the edit where
/// their text is now; `None` if one overlaps it.
fn move_after_edit(findings: &mut [Finding], edit: &Edit, source: &SourceFile) -> Option<()> {
    for f in findings.iter_mut().filter(|f| f.file == source.label) {
        // A span touching the edit's start could be on either side of it.
        let after = f.span.start >= edit.old_end && f.span.start > edit.start;
        let before = f.span.end <= edit.start && f.span.start < edit.start;
        if after {
            f.span = edit.moved(f.span.start)..edit.moved(f.span.end);
            (f.line, f.column) = source.line_col(f.span.start);
            (f.end_line, f.end_column) = source.line_col(f.span.end);
        } else if !before {
            return None;
        }
    }
    Some(())
}
