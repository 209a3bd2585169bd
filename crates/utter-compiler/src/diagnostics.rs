//! Findings: every problem found in a project, with its code and location,
//! and their rendering (rustc-style snippets through annotate-snippets).

use std::fmt::Write as _;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

pub mod codes;
pub mod escape;
#[cfg(feature = "serde")]
mod serialize;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The project does not compile.
    Error,
    /// Compiles, but probably not what the author meant.
    Warning,
    /// Information that never fails a check (how a value will be written).
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`.
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
    /// Its code (see [`codes`]).
    pub code: &'static str,
    /// How much it matters.
    pub severity: Severity,
    /// Path relative to the agent folder, `/`-separated.
    pub file: String,
    /// The response it is about, if any.
    pub response: Option<String>,
    /// 0-based index of the variant in its YAML list.
    pub variant: Option<usize>,
    /// 1-based line and column (columns count characters).
    pub line: usize,
    /// See `line`.
    pub column: usize,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Byte range in the file the finding points at.
    pub span: Range<usize>,
    /// 1-based line and column just past the span's end.
    pub end_line: usize,
    /// See `end_line`.
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

    /// This finding of a text that began at byte `from`, line `from_line`,
    /// of its file and begins at byte `to`, line `to_line` now (the text
    /// begins a line both times, so columns stay).
    pub(crate) fn moved(
        &self,
        (from, to): (usize, usize),
        (from_line, to_line): (usize, usize),
    ) -> Finding {
        Finding {
            span: moved(&self.span, from, to),
            line: self.line - from_line + to_line,
            end_line: self.end_line - from_line + to_line,
            ..self.clone()
        }
    }

    /// Whether it fails the check.
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
#[derive(Clone)]
pub struct SourceFile {
    /// Path relative to the agent folder (or `<bundled>/...`).
    pub label: String,
    /// The decoded text.
    pub text: String,
    line_starts: Vec<usize>,
    /// How many characters precede each [`CHAR_BLOCK`] bytes of the text
    /// (and all of it, last), so a column costs O(1) and at most one
    /// block's count, even on a megabyte-long line: counted when a column
    /// on a line longer than a block is first asked.
    block_chars: std::sync::OnceLock<Vec<usize>>,
}

impl std::fmt::Debug for SourceFile {
    /// What the file is; not what was counted of it so far.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceFile")
            .field("label", &self.label)
            .field("text", &self.text)
            .field("line_starts", &self.line_starts)
            .finish_non_exhaustive()
    }
}

/// The bytes of the text per entry of [`SourceFile`]'s character counts.
const CHAR_BLOCK: usize = 4096;

/// How many characters begin in `bytes`: the bytes that do not continue
/// a UTF-8 sequence (`10xxxxxx`).
pub fn char_starts(bytes: &[u8]) -> usize {
    // Bit 7 set and bit 6 clear, per byte.
    let continuing = count_marked(bytes, |w| w & !(w << 1), |b| b & 0xc0 == 0x80);
    bytes.len() - continuing
}

/// How many `\n` bytes `bytes` holds.
pub fn newlines(bytes: &[u8]) -> usize {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let zero_bytes = |w: u64| {
        let x = w ^ 0x0a0a_0a0a_0a0a_0a0a;
        // The high bit of each byte that is zero (exact: no carries).
        !(((x & LOW) + LOW) | x | LOW)
    };
    count_marked(bytes, zero_bytes, |b| b == b'\n')
}

/// How many bytes of `bytes` are marked: eight at a time, `mark(word)`
/// setting the high bit of each byte it marks; `marked(byte)` for the
/// bytes after the last whole word. Counted per byte lane, summed every
/// 255 words (no popcount instruction is assumed).
fn count_marked(bytes: &[u8], mark: impl Fn(u64) -> u64, marked: impl Fn(u8) -> bool) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const PAIRS: u64 = 0x00ff_00ff_00ff_00ff;
    let sum_lanes = |lanes: u64| {
        let pairs = (lanes & PAIRS) + ((lanes >> 8) & PAIRS);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
    };
    let whole = bytes.len() - bytes.len() % 8;
    let (words, rest) = bytes.split_at(whole);
    let mut total = 0;
    for run in words.chunks(8 * 255) {
        let lanes = run.chunks_exact(8).fold(0u64, |lanes, w| {
            let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
            lanes + ((mark(w) & HIGH) >> 7)
        });
        total += sum_lanes(lanes);
    }
    total + rest.iter().filter(|&&b| marked(b)).count()
}

/// The characters before each block of `text`, and before its end.
fn block_chars(text: &str) -> Vec<usize> {
    let mut counts = Vec::with_capacity(text.len() / CHAR_BLOCK + 2);
    let mut before = 0;
    counts.push(0);
    for block in text.as_bytes().chunks(CHAR_BLOCK) {
        before += char_starts(block);
        counts.push(before);
    }
    counts
}

/// `span`, of a text that began at byte `from` of its file and begins at
/// `to` now.
pub(crate) fn moved(span: &Range<usize>, from: usize, to: usize) -> Range<usize> {
    span.start - from + to..span.end - from + to
}

/// Lines longer than this are reported without a source snippet.
const MAX_SNIPPET_LINE: usize = 4096;

impl SourceFile {
    /// A file called `label` holding `text`.
    pub fn new(label: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            label: label.into(),
            block_chars: std::sync::OnceLock::new(),
            text,
            line_starts,
        }
    }

    /// Replaces bytes `start..end` (on character boundaries) with
    /// `replacement` (an edit): the same as [`SourceFile::new`] of the
    /// edited text, the line index of the text around the edit moved
    /// rather than read, and the text not copied.
    pub(crate) fn edit(&mut self, Range { start, end }: Range<usize>, replacement: &str) {
        self.text.replace_range(start..end, replacement);
        // A line starts after each `\n`: those before the edit stay, those
        // it replaced go, those after it move.
        let kept = self.line_starts.partition_point(|&s| s <= start);
        let after = self.line_starts.partition_point(|&s| s <= end);
        let added: Vec<usize> = (replacement.match_indices('\n'))
            .map(|(i, _)| start + i + 1)
            .collect();
        let moved_from = kept + added.len();
        self.line_starts.splice(kept..after, added);
        for line_start in &mut self.line_starts[moved_from..] {
            *line_start = *line_start - end + start + replacement.len();
        }
        self.block_chars = std::sync::OnceLock::new();
    }

    /// How many characters precede byte `offset` (a char boundary).
    fn char_index(&self, offset: usize) -> usize {
        let block = offset / CHAR_BLOCK;
        let blocks = self.block_chars.get_or_init(|| block_chars(&self.text));
        let counted = blocks.get(block).copied().unwrap_or(0);
        counted + char_starts(&self.text.as_bytes()[block * CHAR_BLOCK..offset])
    }

    /// How many characters `start..end` holds (boundaries): counted when
    /// short, else from the block counts.
    fn chars_between(&self, start: usize, end: usize) -> usize {
        if end - start <= CHAR_BLOCK {
            return char_starts(&self.text.as_bytes()[start..end]);
        }
        self.char_index(end) - self.char_index(start)
    }

    /// 1-based line and character column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_boundary(offset);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let column = self.chars_between(self.line_starts[line], offset);
        (line + 1, column + 1)
    }

    /// The 0-based line holding byte `offset`, from the line index (O(log n)).
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    /// How many characters of its line precede byte `offset` (O(log n),
    /// however long the line).
    pub fn char_column(&self, offset: usize) -> usize {
        self.line_col(offset).1 - 1
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
        let (message, help) = split_fix(message.into());
        Finding {
            code,
            severity,
            file: self.label.clone(),
            response: None,
            variant: None,
            line,
            column,
            message,
            span: start..end,
            end_line,
            end_column,
            help,
            note: None,
            suggestion: None,
        }
    }
}

/// The words a fix starts with, as messages write them after `; `.
const FIX_VERBS: &[&str] = &[
    "add",
    "declare",
    "describe",
    "interpolate",
    "keep",
    "list",
    "move",
    "omit",
    "provide",
    "quote",
    "remove",
    "rename",
    "spell",
    "use",
    "write",
];

/// A message written as `problem; fix` split into the problem and the fix
/// (the finding's `help:`), so that every finding states its fix the same
/// way: the first `; ` outside a code span followed by an imperative.
fn split_fix(message: String) -> (String, Option<String>) {
    let mut in_code = false;
    let mut at = None;
    for (i, c) in message.char_indices() {
        match c {
            '`' => in_code = !in_code,
            ';' if !in_code => {
                let rest = &message[i + 1..];
                let word: String = rest
                    .trim_start_matches(' ')
                    .chars()
                    .take_while(char::is_ascii_alphabetic)
                    .collect();
                if rest.starts_with(' ') && FIX_VERBS.contains(&word.as_str()) {
                    at = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    match at {
        Some(i) => {
            let help = message[i + 1..].trim().to_owned();
            let mut problem = message;
            problem.truncate(i);
            (problem, Some(help))
        }
        None => (message, None),
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
    // Data is shown, never obeyed (see `escape`).
    let title = escape::escape(&format!("{}{}", finding.subject(), finding.message)).into_owned();
    let file = escape::escape(&finding.file);
    let note = finding.note.as_deref().map(escape::escape);
    let help = finding.help.as_deref().map(escape::escape);
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
            // Unsafe characters masked one for one, the span moved with them.
            let masked = escape::mask(text);
            let moved = |at: usize| {
                let chars = text[..at].chars().count();
                masked
                    .char_indices()
                    .nth(chars)
                    .map_or(masked.len(), |(i, _)| i)
            };
            let span = moved(span.start)..moved(span.end);
            let mut group = level.primary_title(&title).id(finding.code).element(
                Snippet::source(&*masked)
                    .line_start(finding.line)
                    .path(&*file)
                    .annotation(AnnotationKind::Primary.span(span)),
            );
            if let Some(note) = &note {
                group = group.element(Level::NOTE.message(&**note));
            }
            if let Some(help) = &help {
                group = group.element(Level::HELP.message(&**help));
            }
            renderer.render(&[group])
        }
        _ => {
            let mut out = format!("{}[{}]: {title}\n", finding.severity.as_str(), finding.code);
            let _ = write!(out, " --> {file}:{}:{}", finding.line, finding.column);
            if let Some(note) = &note {
                let _ = write!(out, "\n  = note: {note}");
            }
            if let Some(help) = &help {
                let _ = write!(out, "\n  = help: {help}");
            }
            out
        }
    };
    rendered.to_string()
}

/// Findings sorted the way every output shows them: by file, position, code.
pub fn sort_findings(findings: &mut [Finding]) {
    // A total order: two findings alike but for their response (found by
    // iterating a hash map) come out in the same order on every run.
    findings.sort_by(|a, b| {
        (
            &a.file,
            a.span.start,
            a.code,
            &a.message,
            &a.response,
            a.variant,
        )
            .cmp(&(
                &b.file,
                b.span.start,
                b.code,
                &b.message,
                &b.response,
                b.variant,
            ))
    });
}

/// The closest of `candidates` to `word`, if close enough to be a typo
/// (an edit distance of at most a third of its length). The distance is
/// bounded, so long names cost little; a check of a whole project asks
/// through its [`HintBudget`] instead.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    HintBudget::new().did_you_mean(word, candidates)
}

/// [`did_you_mean`] as a message says it: `` (did you mean `x`?)`` after
/// the name, or nothing.
pub fn did_you_mean_hint<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    did_you_mean(word, candidates)
        .map(|near| format!(" (did you mean `{near}`?)"))
        .unwrap_or_default()
}

/// Names longer than this get no did-you-mean (nobody misspells them).
const MAX_HINT_CHARS: usize = 64;

/// What did-you-mean hints may still spend in one check, in character
/// comparisons: a project of thousands of typos against thousands of names
/// stays linear; once it is spent, findings come without hints.
#[derive(Debug)]
pub struct HintBudget(std::cell::Cell<usize>);

impl Default for HintBudget {
    fn default() -> Self {
        Self::new()
    }
}

impl HintBudget {
    /// The budget of one check of a project.
    pub const fn new() -> Self {
        HintBudget(std::cell::Cell::new(4_000_000))
    }

    /// What is left.
    pub(crate) fn left(&self) -> usize {
        self.0.get()
    }

    /// Leaves `left` again (work undone: a check that took another way).
    pub(crate) fn reset(&self, left: usize) {
        self.0.set(left);
    }

    /// Takes `spent` again (hints replayed from an earlier check) when more
    /// than it is left, as when it was first spent; false, and nothing
    /// taken, otherwise.
    pub(crate) fn replay(&self, spent: usize) -> bool {
        match self.0.get().checked_sub(spent) {
            Some(left) if left > 0 => {
                self.0.set(left);
                true
            }
            _ => false,
        }
    }

    /// [`did_you_mean`], each comparison paid from this budget.
    pub fn did_you_mean<'c>(
        &self,
        word: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> Option<&'c str> {
        let word_len = word.chars().count();
        let limit = (word_len / 3).max(1);
        let mut best: Option<(usize, &'c str)> = None;
        for candidate in candidates {
            let cost = word_len.min(MAX_HINT_CHARS) * candidate.len().min(MAX_HINT_CHARS) + 1;
            let Some(left) = self.0.get().checked_sub(cost) else {
                self.0.set(0);
                return None;
            };
            self.0.set(left);
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

    proptest::proptest! {
        /// Columns count characters across blocks of any text; a file
        /// edited is the file of the edited text, line index and all.
        #[test]
        fn columns_and_edits_agree_with_counting_from_the_start(
            pieces in proptest::collection::vec("[a\né😀\r]{0,40}|a{4090,4100}", 0..6),
            at in 0usize..20_000, len in 0usize..50, replacement in "[b\nü]{0,8}",
        ) {
            let text: String = pieces.concat();
            proptest::prop_assert_eq!(char_starts(text.as_bytes()), text.chars().count());
            proptest::prop_assert_eq!(newlines(text.as_bytes()), text.matches('\n').count());
            let file = SourceFile::new("r.yml", text.as_str());
            for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)).step_by(97) {
                let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
                let line = text[..offset].matches('\n').count() + 1;
                let column = text[line_start..offset].chars().count() + 1;
                proptest::prop_assert_eq!(file.line_col(offset), (line, column));
            }
            let start = file.floor_boundary(at);
            let end = file.floor_boundary(start + len);
            let mut edited_text = text.clone();
            edited_text.replace_range(start..end, &replacement);
            let mut edited = file.clone();
            edited.edit(start..end, &replacement);
            let fresh = SourceFile::new("r.yml", edited_text);
            proptest::prop_assert_eq!(format!("{edited:?}"), format!("{fresh:?}"));
        }
    }

    #[test]
    fn a_fix_after_a_semicolon_is_the_help() {
        let (message, help) = split_fix("has an empty `text`; provide non-whitespace text".into());
        assert_eq!(message, "has an empty `text`");
        assert_eq!(help.as_deref(), Some("provide non-whitespace text"));
        // Not an imperative, or inside a code span: left as it is.
        let kept = "is a symlink to nothing; it is ignored";
        assert_eq!(split_fix(kept.into()), (kept.to_owned(), None));
        let kept = "response `a; remove b` is unknown";
        assert_eq!(split_fix(kept.into()), (kept.to_owned(), None));
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
