//! What checking a `responses.yml` gave, whole or part by part, and the
//! memo that keeps it from check to check ([`crate::CheckCache`]): the
//! data `merge.rs` and `by_response.rs` make and read, apart from both.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::schema::Schema;
use crate::diagnostics::{Finding, SourceFile};
use crate::load::responses::RawResponse;
use crate::load::yaml::YamlBudget;
use crate::memo::Memo;

/// What checking one unit's `responses.yml` gave, whatever the other
/// files say (within one schema): its source, its findings, its responses
/// with their checked conditions (`None` when the file did not parse, with
/// the names recovered from its text), and the budgets it spent.
#[derive(Debug)]
pub(crate) struct UnitOutcome {
    /// Unique among the outcomes of one cache: the lowering of a response
    /// is kept by it and the response's name.
    pub(crate) id: u64,
    pub(super) source: Option<SourceFile>,
    pub(super) findings: Vec<Finding>,
    pub(super) responses: Option<Vec<(Arc<RawResponse>, Conditions)>>,
    pub(super) recovered: Vec<String>,
    pub(super) yaml_spent: YamlBudget,
    pub(super) hints_spent: usize,
    /// Its parts, when it was checked part by part.
    pub(super) parts: Option<Arc<FileParts>>,
}

impl UnitOutcome {
    /// A file that parsed, checked response by response (its id and the
    /// budgets it spent are set by [`unit_outcome`]).
    pub(super) fn by_response(
        source: SourceFile,
        findings: Vec<Finding>,
        responses: Vec<(Arc<RawResponse>, Conditions)>,
    ) -> Self {
        UnitOutcome {
            id: 0,
            source: Some(source),
            findings,
            responses: Some(responses),
            recovered: Vec::new(),
            yaml_spent: YamlBudget::PROJECT,
            hints_spent: 0,
            parts: None,
        }
    }
}

/// The outcomes of `responses.yml` files kept from check to check (see
/// [`crate::CheckCache`]): by label, with the text each is of.
#[derive(Debug, Default)]
pub(crate) struct UnitMemo {
    pub(super) outcomes: Memo<String, (Vec<u8>, Arc<UnitOutcome>)>,
    /// The outcome each file of this check has (by [`UnitOutcome::id`]).
    current: std::collections::HashMap<String, u64>,
    /// The ids given so far.
    ids: u64,
    /// Files whose outcome this check reused.
    pub(super) reused: usize,
    /// The outcomes of responses checked one by one (one big file).
    responses: PartMemo,
    /// Responses whose outcome this check reused.
    pub(super) reused_responses: usize,
    /// The outcome id of each response (by its address) of this check that
    /// was checked on its own: what its lowering is kept by.
    content: std::collections::HashMap<usize, u64>,
    /// The files of this check that were checked part by part, by label.
    parts: std::collections::HashMap<String, Arc<FileParts>>,
    /// What the YAML and did-you-mean budgets had left when this check's
    /// validation ended.
    pub(crate) left: Option<(YamlBudget, usize)>,
    /// The memory schema this check's validation read.
    pub(crate) schema: Option<Schema>,
}

impl UnitMemo {
    pub(crate) fn enabled() -> Self {
        UnitMemo {
            outcomes: Memo::enabled(),
            ..UnitMemo::default()
        }
    }

    /// Whether it keeps outcomes from check to check.
    pub(crate) fn is_enabled(&self) -> bool {
        self.outcomes.is_enabled()
    }

    /// Starts a check (`schema_changed`: nothing kept can be reused).
    pub(crate) fn turn(&mut self, schema_changed: bool) {
        if schema_changed {
            self.outcomes.clear();
        }
        self.outcomes.turn();
        self.responses.turn(schema_changed);
        self.current.clear();
        self.content.clear();
        self.parts.clear();
        self.left = None;
        self.schema = None;
        self.reused = 0;
        self.reused_responses = 0;
    }

    /// How many responses of changed files the check took from the one
    /// before.
    pub(crate) fn reused_responses(&self) -> usize {
        self.reused_responses
    }

    /// The id the lowering of `raw` (of this check) is kept by.
    pub(crate) fn content_id(&self, raw: &Arc<RawResponse>, label: &str) -> Option<u64> {
        let by_response = self.content.get(&(Arc::as_ptr(raw) as usize)).copied();
        by_response.or_else(|| self.unit_id(label))
    }

    /// Counts the responses of a part this check reused.
    pub(super) fn reused_part(&mut self, part: &PartOutcome) {
        self.reused_responses += part.responses_len();
    }

    pub(crate) fn next_id(&mut self) -> u64 {
        self.ids += 1;
        self.ids
    }

    pub(super) fn kept_part(&mut self, label: &str, lines: &str) -> Option<Arc<PartOutcome>> {
        self.responses.get(label, lines)
    }

    pub(super) fn keep_part(&mut self, label: &str, lines: &str, outcome: Arc<PartOutcome>) {
        if self.outcomes.is_enabled() {
            self.responses.put(label, lines, outcome);
        }
    }

    pub(super) fn note_content(&mut self, raw: &Arc<RawResponse>, id: u64) {
        if self.outcomes.is_enabled() {
            self.content.insert(Arc::as_ptr(raw) as usize, id);
        }
    }

    /// How many files the check took from the one before.
    pub(crate) fn reused(&self) -> usize {
        self.reused
    }

    /// The outcome id of the file `label` in this check, when kept.
    pub(crate) fn unit_id(&self, label: &str) -> Option<u64> {
        self.current.get(label).copied()
    }

    pub(super) fn kept(&mut self, label: &str, bytes: &[u8]) -> Option<Arc<UnitOutcome>> {
        let (text, outcome) = self.outcomes.get(label)?;
        (text == bytes).then_some(outcome)
    }

    pub(super) fn note(&mut self, label: &str, outcome: &UnitOutcome) {
        if self.outcomes.is_enabled() {
            self.current.insert(label.to_owned(), outcome.id);
            if let Some(parts) = &outcome.parts {
                self.parts.insert(label.to_owned(), Arc::clone(parts));
            }
        }
    }

    /// The files of this check that were checked part by part, and their
    /// parts.
    pub(crate) fn parted_files(&self) -> impl Iterator<Item = (&String, &Arc<FileParts>)> {
        self.parts.iter()
    }

    /// Keeps the outcome of the part `lines` of the file `label` (read
    /// again after an edit inside it) for the next check.
    pub(crate) fn keep_edited_part(&mut self, label: &str, lines: &str, outcome: Arc<PartOutcome>) {
        self.keep_part(label, lines, outcome);
    }
}

pub(super) type Conditions =
    Vec<Option<std::sync::Arc<crate::condition::Expr<crate::condition::MemoryRef>>>>;

/// A file checked part by part: where its parts are, and what each gave
/// (an outcome may have been read where its lines were before an edit
/// above them: [`PartOutcome::findings_at`] moves what it found).
#[derive(Clone, Debug)]
pub(crate) struct FileParts {
    /// The top-level keys, `responses:` last.
    pub(crate) header: Range<usize>,
    /// The indentation of the response names.
    pub(crate) indent: usize,
    /// Each part's lines, and its outcome.
    pub(crate) parts: Vec<(Range<usize>, Arc<PartOutcome>)>,
}

/// What reading and checking a part of the file (one response's lines,
/// or a few responses' that parse only together) gave, at the place it was
/// read (see the module).
#[derive(Debug)]
pub(crate) struct PartOutcome {
    /// Unique among the outcomes of one cache (the lowering of its
    /// responses is kept by it).
    pub(super) id: u64,
    /// The byte and 1-based line where its lines began.
    pub(super) at: (usize, usize),
    pub(super) responses: Vec<(Arc<RawResponse>, Conditions)>,
    /// The findings of reading it, then those of checking it.
    pub(super) read: Vec<Finding>,
    pub(super) checked: Vec<Finding>,
    pub(super) cost: YamlBudget,
    pub(super) hints_spent: usize,
}

impl PartOutcome {
    /// How many responses it read.
    pub(super) fn responses_len(&self) -> usize {
        self.responses.len()
    }

    /// The responses it read, with their checked conditions.
    pub(crate) fn responses(&self) -> &[(Arc<RawResponse>, Conditions)] {
        &self.responses
    }

    /// Its findings (reading, then checking) at byte `start`, line `line`
    /// (1-based), where its lines are now.
    pub(crate) fn findings_at(&self, (start, line): (usize, usize)) -> Vec<Finding> {
        let moved = ((self.at.0, start), (self.at.1, line));
        (self.read.iter().chain(&self.checked))
            .map(|f| f.moved(moved.0, moved.1))
            .collect()
    }

    /// Whether a finding of it has a note (which may name a line).
    pub(crate) fn has_notes(&self) -> bool {
        self.read
            .iter()
            .chain(&self.checked)
            .any(|f| f.note.is_some())
    }

    /// What parsing it cost, and the did-you-mean hints its check spent.
    pub(crate) fn spent(&self) -> (YamlBudget, usize) {
        (self.cost, self.hints_spent)
    }

    /// The same outcome for the same lines at byte `at.0`, line `at.1`.
    pub(super) fn moved_to(&self, at: (usize, usize)) -> PartOutcome {
        let (bytes, lines) = ((self.at.0, at.0), (self.at.1, at.1));
        PartOutcome {
            id: self.id,
            at,
            responses: (self.responses.iter())
                .map(|(raw, conditions)| {
                    (Arc::new(raw.moved(bytes.0, bytes.1)), conditions.clone())
                })
                .collect(),
            read: self.read.iter().map(|f| f.moved(bytes, lines)).collect(),
            checked: self.checked.iter().map(|f| f.moved(bytes, lines)).collect(),
            cost: self.cost,
            hints_spent: self.hints_spent,
        }
    }
}

/// The outcomes of parts by file: what the next check can take.
#[derive(Debug, Default)]
pub(crate) struct PartMemo {
    kept: HashMap<String, crate::memo::Memo<String, Arc<PartOutcome>>>,
}

impl PartMemo {
    pub(super) fn turn(&mut self, schema_changed: bool) {
        if schema_changed {
            self.kept.clear();
        }
        for memo in self.kept.values_mut() {
            memo.turn();
        }
        self.kept.retain(|_, memo| !memo.is_empty());
    }

    pub(super) fn get(&mut self, label: &str, lines: &str) -> Option<Arc<PartOutcome>> {
        self.kept.get_mut(label)?.get(lines)
    }

    pub(super) fn put(&mut self, label: &str, lines: &str, outcome: Arc<PartOutcome>) {
        let memo = match self.kept.get_mut(label) {
            Some(memo) => memo,
            None => self
                .kept
                .entry(label.to_owned())
                .or_insert_with(crate::memo::Memo::enabled),
        };
        memo.put(lines.to_owned(), outcome);
    }
}
