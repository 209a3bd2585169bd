//! Findings: every problem found in a project, with its code and location,
//! and their rendering (rustc-style snippets through annotate-snippets).

use std::fmt::Write as _;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

/// Finding codes. Those under `mantle.` are the reference engine's, spelled
/// exactly as it spells them; those under `utter.` are checks of our own.
pub mod codes {
    pub const INVALID_VARIANT_SHAPE: &str = "mantle.validation.response.invalid_variant_shape";
    pub const INVALID_VARIANT_KEY: &str = "mantle.validation.response.invalid_variant_key";
    pub const EMPTY_BODY: &str = "mantle.validation.response.empty_body";
    pub const INVALID_CONDITION: &str = "mantle.validation.response.invalid_condition";
    pub const UNKNOWN_MEMORY_KEY: &str = "mantle.validation.response.unknown_memory_key";
    pub const DEFAULT_REQUIRED: &str = "mantle.validation.response.default_required";
    pub const MULTIPLE_DEFAULTS: &str = "mantle.validation.response.multiple_defaults";
    pub const RESPONSE_MISSING: &str = "mantle.validation.response.missing";
    pub const ACTION_UNKNOWN: &str = "mantle.validation.action.unknown";
    pub const TOOL_UNKNOWN_OUTCOME: &str =
        "mantle.validation.tool_constraint.unknown_on_success_or_failure";
    pub const TOOL_UNKNOWN_CONFIRMATION: &str =
        "mantle.validation.tool_constraint.unknown_requires_confirmation_response";
    pub const TRIGGER_UNKNOWN_RESPONSE: &str =
        "mantle.validation.verbatim_trigger.unknown_response";
    pub const PROSE_SESSION_REFERENCE: &str =
        "mantle.validation.prose.session_reference_in_instructions";
    pub const PROSE_INVALID_IF: &str = "mantle.validation.prose.invalid_if_expression";
    pub const PROSE_EMPTY_IF: &str = "mantle.validation.prose.empty_if_condition";
    pub const PROSE_UNKNOWN_MEMORY_KEY: &str = "mantle.validation.prose.unknown_memory_key";
    pub const SKILL_INVALID_UTTER: &str = "skill.markdown.invalid_utter";
    pub const SKILL_INVALID_TOOL_CONSTRAINTS: &str = "skill.markdown.invalid_tool_constraints";
    pub const SKILL_INVALID_FRONTMATTER: &str = "skill.markdown.invalid_frontmatter_delimiter";
    pub const SKILL_INVALID_BLOCK: &str = "utter.skill.invalid_ordered_block";
    pub const SKILL_RESERVED_ID: &str = "mantle.validation.skill.reserved_id";
    pub const SKILL_INVALID_ID: &str = "mantle.validation.skill.invalid_id";
    pub const SKILL_FAILED_TO_LOAD: &str = "mantle.validation.skill.failed_to_load";
    pub const DESCRIPTION_NOT_EXPOSED: &str = "mantle.validation.memory.description_not_exposed";
    pub const DESCRIPTION_REQUIRED: &str = "mantle.validation.memory.description_required";
    pub const COLLECT_DESCRIPTION_OVERRIDES: &str =
        "mantle.validation.memory.collect_description_overrides";
    pub const PROJECT_LLM_SETTABLE: &str = "mantle.validation.memory.project_llm_settable";
    pub const SKILL_SEED: &str = "mantle.validation.memory.skill_seed";
    /// The strict runtime loader's error code.
    pub const REGISTRY_INVALID_VARIANT: &str = "responses.registry.invalid_variant";
    /// The strict runtime loader's code when project validation has errors.
    pub const PROJECT_VALIDATION_ERROR: &str = "mantle.validate_project.project_validation_error";

    pub const YAML_SYNTAX: &str = "utter.yaml.syntax";
    pub const YAML_DUPLICATE_KEY: &str = "utter.yaml.duplicate_key";
    pub const YAML_LIMIT: &str = "utter.yaml.limit_exceeded";
    pub const YAML_ENCODING: &str = "utter.yaml.invalid_encoding";
    pub const YAML_UNSUPPORTED: &str = "utter.yaml.unsupported";
    pub const FILE_SHAPE: &str = "utter.validation.file.invalid_shape";
    pub const FILE_UNKNOWN_KEY: &str = "utter.validation.file.unknown_key";
    pub const DUPLICATE_RESPONSE: &str = "utter.validation.response.duplicate_name";
    pub const DEFINED_BY_TWO_SKILLS: &str = "utter.validation.response.defined_by_two_skills";
    pub const INVALID_REPHRASE: &str = "utter.validation.response.invalid_rephrase";
    pub const UNKNOWN_PLACEHOLDER: &str = "utter.validation.response.unknown_placeholder";
    pub const MEMORY_SHAPE: &str = "utter.validation.memory.invalid_shape";
    pub const RUST_NAME_COLLISION: &str = "utter.codegen.name_collision";
    pub const MEMORY_ACCESS_IGNORED: &str = "utter.validation.memory.access_not_enforced";
    pub const INVISIBLE_CHARACTER: &str = "utter.validation.invisible_character";
    pub const IO_REFUSED: &str = "utter.io.refused";
    pub const IO_IGNORED: &str = "utter.io.ignored";
    pub const MEMORY_UNKNOWN_TYPE: &str = "utter.validation.memory.unknown_type";
    pub const MEMORY_INVALID_ENUM_VALUES: &str = "utter.validation.memory.invalid_enum_values";
    pub const UNKNOWN_ENUM_VALUE: &str = "utter.validation.condition.unknown_enum_value";
    pub const TYPE_MISMATCH: &str = "utter.validation.condition.type_mismatch";
    pub const NEVER_EQUAL: &str = "utter.validation.condition.never_equal";
    pub const NEVER_TRUE: &str = "utter.validation.condition.never_true";
    pub const PLACEHOLDER_REPR: &str = "utter.validation.placeholder.renders_repr";

    /// Every code with what it means (SARIF rules, `--explain`-style help).
    pub const ALL: &[(&str, &str)] = &[
        (
            INVALID_VARIANT_SHAPE,
            "A response is not a non-empty list, a variant is neither a mapping nor a string, or `text`, `condition` or `metadata` has the wrong type.",
        ),
        (
            INVALID_VARIANT_KEY,
            "A variant has a key other than `text`, `condition` and `metadata`.",
        ),
        (EMPTY_BODY, "A variant's `text` is empty or whitespace."),
        (
            INVALID_CONDITION,
            "A `condition` is outside the condition grammar (comparisons of `session.<ns>.<entry>` and literals with `and`, `or`, `not`).",
        ),
        (
            UNKNOWN_MEMORY_KEY,
            "A condition reads a memory entry that is not declared, or not readable from that file.",
        ),
        (
            DEFAULT_REQUIRED,
            "A response with conditioned variants has no default (unconditioned) variant.",
        ),
        (
            MULTIPLE_DEFAULTS,
            "A response with conditioned variants has more than one default variant.",
        ),
        (
            RESPONSE_MISSING,
            "A skill.md step or collect utterance names a response no responses.yml defines.",
        ),
        (
            ACTION_UNKNOWN,
            "A skill.md step's `action:` is neither a response (`utter_*`) nor `action_listen`.",
        ),
        (
            TOOL_UNKNOWN_OUTCOME,
            "A tool constraint's `on_success:`/`on_failure:` names no response.",
        ),
        (
            TOOL_UNKNOWN_CONFIRMATION,
            "A tool constraint's confirmation response names no response.",
        ),
        (
            TRIGGER_UNKNOWN_RESPONSE,
            "A skill.md `utter:` trigger names no response.",
        ),
        (
            PROSE_SESSION_REFERENCE,
            "Skill prose names `session.<ns>.<entry>`; write `@memory.<ns>.<entry>`.",
        ),
        (
            PROSE_INVALID_IF,
            "A prose `if:` condition is outside the condition grammar.",
        ),
        (PROSE_EMPTY_IF, "A prose `if:` has no condition."),
        (
            PROSE_UNKNOWN_MEMORY_KEY,
            "A prose `if:` condition reads an entry that is not readable.",
        ),
        (
            SKILL_INVALID_UTTER,
            "A malformed `utter:` trigger in skill.md frontmatter.",
        ),
        (
            SKILL_INVALID_TOOL_CONSTRAINTS,
            "Malformed `tool_constraints` in skill.md frontmatter.",
        ),
        (
            SKILL_INVALID_FRONTMATTER,
            "skill.md frontmatter is not delimited by `---` lines or is not a mapping.",
        ),
        (
            SKILL_INVALID_BLOCK,
            "A malformed `:::ordered_block` in skill.md.",
        ),
        (
            SKILL_RESERVED_ID,
            "A skill folder is named `project` or `system`.",
        ),
        (SKILL_INVALID_ID, "A skill folder name contains `.`."),
        (
            SKILL_FAILED_TO_LOAD,
            "A skill folder does not load: no skill.md, a skill-level `requires:`, or a bare `complete_when:`.",
        ),
        (
            DESCRIPTION_NOT_EXPOSED,
            "A memory `description` nobody sees: on a project entry, or on a skill entry that is neither `llm_settable` nor collected.",
        ),
        (
            DESCRIPTION_REQUIRED,
            "A skill entry the model can set has no description.",
        ),
        (
            COLLECT_DESCRIPTION_OVERRIDES,
            "An entry is described both in memory.yml and by the collect step that fills it.",
        ),
        (
            PROJECT_LLM_SETTABLE,
            "A project entry declares `llm_settable: true`.",
        ),
        (
            SKILL_SEED,
            "A skill entry declares `seed: true`; only project entries are seeded.",
        ),
        (
            REGISTRY_INVALID_VARIANT,
            "The strict runtime loader met a malformed variant.",
        ),
        (PROJECT_VALIDATION_ERROR, "The project failed validation."),
        (YAML_SYNTAX, "A file is not valid YAML."),
        (YAML_DUPLICATE_KEY, "A YAML mapping has the same key twice."),
        (YAML_LIMIT, "A file exceeds a size, depth or alias limit."),
        (YAML_ENCODING, "A file is not UTF-8."),
        (
            YAML_UNSUPPORTED,
            "A YAML feature utter does not accept (tags, complex keys).",
        ),
        (FILE_SHAPE, "A file's top level has the wrong shape."),
        (FILE_UNKNOWN_KEY, "A file has an unknown top-level key."),
        (
            DUPLICATE_RESPONSE,
            "A response name is defined twice in one file.",
        ),
        (
            DEFINED_BY_TWO_SKILLS,
            "Two skills define the same response name; the later replaces the earlier.",
        ),
        (INVALID_REPHRASE, "`metadata.rephrase` is not a boolean."),
        (
            UNKNOWN_PLACEHOLDER,
            "A placeholder can never be filled, so it is delivered as written.",
        ),
        (
            MEMORY_SHAPE,
            "A memory.yml declaration has the wrong shape.",
        ),
        (
            RUST_NAME_COLLISION,
            "Two names map to the same Rust identifier.",
        ),
        (
            MEMORY_ACCESS_IGNORED,
            "`access:` in memory.yml is not enforced.",
        ),
        (
            INVISIBLE_CHARACTER,
            "A name or condition holds an invisible or mixed-script character.",
        ),
        (
            IO_REFUSED,
            "A file is refused: a symlink out of the agent folder, a special file, or a name with a control character.",
        ),
        (
            IO_IGNORED,
            "A file or folder is not read: not where agent files go, or a dangling symlink.",
        ),
        (
            MEMORY_UNKNOWN_TYPE,
            "A memory entry has an unknown `type:`.",
        ),
        (
            MEMORY_INVALID_ENUM_VALUES,
            "`enum_values` is malformed, or does not fit the entry's type.",
        ),
        (
            UNKNOWN_ENUM_VALUE,
            "A categorical entry is compared with a value outside its `enum_values`.",
        ),
        (
            TYPE_MISMATCH,
            "An ordering comparison fails for every value the declared type allows.",
        ),
        (
            NEVER_EQUAL,
            "An equality can never hold for the declared type.",
        ),
        (NEVER_TRUE, "A whole condition can never be true."),
        (
            PLACEHOLDER_REPR,
            "A placeholder of a list or json entry is delivered as Python writes the value.",
        ),
    ];

    /// What `code` means (the code itself when unknown).
    pub fn describe(code: &str) -> &str {
        ALL.iter()
            .find(|(c, _)| *c == code)
            .map_or(code, |(_, d)| d)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    /// Information that never fails a check (how a value will be written).
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One problem in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    /// Path relative to the agent folder, `/`-separated.
    pub file: String,
    pub response: Option<String>,
    /// 0-based index of the variant in its YAML list.
    pub variant: Option<usize>,
    /// 1-based line and column (columns count characters).
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// Byte range in the file the finding points at.
    pub span: Range<usize>,
    /// 1-based line and column just past the span's end.
    pub end_line: usize,
    pub end_column: usize,
    /// How to fix it, shown as rustc's `help:`.
    pub help: Option<String>,
    /// A fact that explains it (where the other definition is), shown as `note:`.
    pub note: Option<String>,
    /// A replacement for [`Finding::span`] that fixes it (a did-you-mean):
    /// `fixes` in SARIF, `suggestion` in JSON.
    pub suggestion: Option<String>,
}

impl Finding {
    /// Adds the fix, shown as `help:`.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a did-you-mean: `help: did you mean `{replacement}`?` and the
    /// replacement for the finding's span.
    pub fn with_suggestion(mut self, replacement: impl Into<String>) -> Self {
        let replacement = replacement.into();
        self.help = Some(format!("did you mean `{replacement}`?"));
        self.suggestion = Some(replacement);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `response `x`, variant 2: ` (or less) before the message.
    pub fn subject(&self) -> String {
        match (&self.response, self.variant) {
            (Some(r), Some(v)) => format!("response `{r}`, variant {v}: "),
            (Some(r), None) => format!("response `{r}`: "),
            _ => String::new(),
        }
    }

    /// `file:line:col: code: subject message`, without the help.
    pub fn headline(&self) -> String {
        format!(
            "{}:{}:{}: {}: {}{}",
            self.file,
            self.line,
            self.column,
            self.code,
            self.subject(),
            self.message
        )
    }

    /// The self-contained one-line form: `file:line:col: code: subject
    /// message (help: ...)`.
    pub fn one_line(&self) -> String {
        let mut line = self.headline();
        if let Some(note) = &self.note {
            line.push_str(&format!(" (note: {note})"));
        }
        if let Some(help) = &self.help {
            line.push_str(&format!(" (help: {help})"));
        }
        line
    }
}

/// A source file of the project, as text, with a line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path relative to the agent folder (or `<bundled>/...`).
    pub label: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// Byte offset of every 64th character, so columns cost O(log n) even
    /// on a megabyte-long line.
    char_checkpoints: Vec<usize>,
}

/// Lines longer than this are reported without a source snippet.
const MAX_SNIPPET_LINE: usize = 4096;

impl SourceFile {
    pub fn new(label: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let char_checkpoints = text.char_indices().step_by(64).map(|(i, _)| i).collect();
        SourceFile {
            label: label.into(),
            text,
            line_starts,
            char_checkpoints,
        }
    }

    /// How many characters precede byte `offset` (a char boundary).
    fn char_index(&self, offset: usize) -> usize {
        let block = self
            .char_checkpoints
            .partition_point(|&b| b <= offset)
            .saturating_sub(1);
        let base = self.char_checkpoints.get(block).copied().unwrap_or(0);
        block * 64 + self.text[base..offset].chars().count()
    }

    /// 1-based line and character column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_boundary(offset);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let column = self.char_index(offset) - self.char_index(self.line_starts[line]);
        (line + 1, column + 1)
    }

    /// The byte range of the line holding `offset`, without its `\n`.
    pub fn line_range(&self, offset: usize) -> Range<usize> {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        start..end.max(start)
    }

    /// The largest char boundary at or before `offset`, within the text.
    pub fn floor_boundary(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// A finding located at `span` of this file.
    pub fn finding(
        &self,
        code: &'static str,
        severity: Severity,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Finding {
        let start = self.floor_boundary(span.start);
        let end = self.floor_boundary(span.end.max(start));
        let (line, column) = self.line_col(start);
        let (end_line, end_column) = self.line_col(end);
        Finding {
            code,
            severity,
            file: self.label.clone(),
            response: None,
            variant: None,
            line,
            column,
            message: message.into(),
            span: start..end,
            end_line,
            end_column,
            help: None,
            note: None,
            suggestion: None,
        }
    }
}

/// Renders a finding rustc-style: `error[code]: message`, ` --> file:line:col`
/// and the source line with a caret.
pub fn render_finding(finding: &Finding, source: Option<&SourceFile>) -> String {
    render_finding_in(finding, source, false)
}

/// [`render_finding`], with ANSI colours when `color` is set.
pub fn render_finding_in(finding: &Finding, source: Option<&SourceFile>, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let title = format!("{}{}", finding.subject(), finding.message);
    let level = match finding.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    };
    // The snippet is the finding's line alone: rendering cost does not grow
    // with the file, and the underline stays on that line.
    let line = source.filter(|s| !s.text.is_empty()).map(|source| {
        let start = source.floor_boundary(finding.span.start);
        // From the line index, so each finding costs O(log n) however long
        // its line; a lone `\r` still ends the snippet.
        let line = source.line_range(start);
        let (line_start, mut line_end) = (line.start, line.end);
        if line_end - line_start <= MAX_SNIPPET_LINE
            && let Some(cr) = source.text[start..line_end].find('\r')
        {
            line_end = start + cr;
        }
        let end = source
            .floor_boundary(finding.span.end)
            .clamp(start, line_end);
        (
            &source.text[line_start..line_end],
            start - line_start..end - line_start,
        )
    });
    let rendered = match line {
        Some((text, span)) if text.len() <= MAX_SNIPPET_LINE => {
            let mut group = level.primary_title(&title).id(finding.code).element(
                Snippet::source(text)
                    .line_start(finding.line)
                    .path(finding.file.as_str())
                    .annotation(AnnotationKind::Primary.span(span)),
            );
            if let Some(note) = &finding.note {
                group = group.element(Level::NOTE.message(note.as_str()));
            }
            if let Some(help) = &finding.help {
                group = group.element(Level::HELP.message(help.as_str()));
            }
            renderer.render(&[group])
        }
        _ => {
            let mut out = format!("{}[{}]: {title}\n", finding.severity.as_str(), finding.code);
            let _ = write!(
                out,
                " --> {}:{}:{}",
                finding.file, finding.line, finding.column
            );
            if let Some(note) = &finding.note {
                let _ = write!(out, "\n  = note: {note}");
            }
            if let Some(help) = &finding.help {
                let _ = write!(out, "\n  = help: {help}");
            }
            out
        }
    };
    rendered.to_string()
}

/// Findings sorted the way every output shows them: by file, position, code.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        (&a.file, a.span.start, a.code, &a.message).cmp(&(
            &b.file,
            b.span.start,
            b.code,
            &b.message,
        ))
    });
}

/// The closest of `candidates` to `word`, if close enough to be a typo
/// (an edit distance of at most a third of its length). The distance is
/// bounded, so long names cost little.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let word_len = word.chars().count();
    let limit = (word_len / 3).max(1);
    let mut best: Option<(usize, &'c str)> = None;
    for candidate in candidates {
        // Each comparison is paid from a per-thread budget, so a project of
        // thousands of typos against thousands of names stays linear: once
        // it is spent, findings come without hints.
        let cost = word_len.min(MAX_HINT_CHARS) * candidate.len().min(MAX_HINT_CHARS) + 1;
        if !HINT_BUDGET.with(|b| b.get().checked_sub(cost).map(|left| b.set(left)).is_some()) {
            return None;
        }
        if word_len > MAX_HINT_CHARS || candidate.len() > MAX_HINT_CHARS * 4 {
            continue;
        }
        let d = utter::edit_distance(word, candidate, limit);
        if d <= limit && best.is_none_or(|b| (d, candidate) < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Names longer than this get no did-you-mean (nobody misspells them).
const MAX_HINT_CHARS: usize = 64;
/// Character comparisons did-you-mean may spend per check of a project.
const HINT_BUDGET_CELLS: usize = 4_000_000;

thread_local! {
    static HINT_BUDGET: std::cell::Cell<usize> = const { std::cell::Cell::new(HINT_BUDGET_CELLS) };
}

/// Refills the did-you-mean budget: called at the start of each check.
pub fn reset_hint_budget() {
    HINT_BUDGET.with(|b| b.set(HINT_BUDGET_CELLS));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let file = SourceFile::new("r.yml", "a: é\r\nbé: x\n");
        assert_eq!(file.line_col(0), (1, 1));
        let x = file.text.find('x').unwrap();
        assert_eq!(file.line_col(x), (2, 5));
        assert_eq!(file.line_col(10_000), (3, 1));
    }

    #[test]
    fn suggestions_find_typos() {
        assert_eq!(
            did_you_mean("conditon", ["text", "condition", "metadata"]),
            Some("condition")
        );
        assert_eq!(
            did_you_mean("buttons", ["text", "condition", "metadata"]),
            None
        );
    }

    #[test]
    fn renders_rustc_style() {
        let file = SourceFile::new("responses.yml", "responses:\n  a:\n    - text: ''\n");
        let at = file.text.find("''").unwrap();
        let mut finding =
            file.finding(codes::EMPTY_BODY, Severity::Error, at..at + 2, "empty text");
        finding.response = Some("a".into());
        finding.variant = Some(0);
        let out = render_finding(&finding, Some(&file));
        assert!(
            out.starts_with(
                "error[mantle.validation.response.empty_body]: response `a`, variant 0: empty text"
            ),
            "{out}"
        );
        assert!(out.contains(" --> responses.yml:3:13"), "{out}");
        assert!(out.contains("^^"), "{out}");
    }
}

#[cfg(test)]
mod code_table_tests {
    /// Every code constant has a description in `codes::ALL`.
    #[test]
    fn every_code_is_described() {
        let source = include_str!("diagnostics.rs");
        // A constant's value is on its line or the next (rustfmt wraps long ones).
        let lines: Vec<&str> = source.lines().collect();
        let declared: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("pub const") && l.contains(": &str"))
            .filter_map(|(i, l)| {
                l.split('"')
                    .nth(1)
                    .or_else(|| lines.get(i + 1)?.split('"').nth(1))
            })
            .collect();
        assert!(declared.len() > 40, "{declared:?}");
        for code in declared {
            assert!(
                super::codes::ALL.iter().any(|(c, _)| *c == code),
                "{code} has no description"
            );
        }
    }
}
