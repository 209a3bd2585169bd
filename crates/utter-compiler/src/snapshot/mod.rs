//! The agent's wording under review: one deterministic, diff-friendly file
//! listing, for every response in name order, each variant with its
//! condition, rephrase flag and view, a memory state that delivers it (from
//! the variant analysis) and the exact text that state delivers, or why it
//! is never delivered. `utter snapshot` writes it, `utter snapshot --check`
//! and [`check`] (for a user's own `cargo test`) compare it.

pub mod diff;

use std::fmt::Write as _;
use std::path::Path;

use utter::{Context, SlotMemory};

use crate::analysis::{self, Verdict, Why, Witness, describe_witness};
use crate::lower::Registry;

/// The first lines of every snapshot.
pub const HEADER: &str = "# The wording of this agent, as utter delivers it: every response, every variant,\n# a memory that delivers it and the exact text. Reviewed wording: do not edit by hand;\n# `utter snapshot` writes it, `utter snapshot --check` fails when the wording changed.\n";

/// What goes into a snapshot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Also the bundled responses the project does not override.
    pub bundled: bool,
}

/// One variant as the snapshot (and `utter diff`) sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantView {
    /// Its index in the response (YAML order).
    pub index: usize,
    /// The text as written in responses.yml.
    pub source_text: String,
    /// Its condition as written.
    pub condition: Option<String>,
    /// Whether it is the response's default.
    pub default: bool,
    /// `metadata.rephrase`.
    pub rephrase: bool,
    /// `reachable`, `unreachable` or `undecided`.
    pub kind: &'static str,
    /// Why it is unreachable, or why nothing is claimed.
    pub reason: Option<String>,
    /// The witness, when there is one, and as people read it.
    pub witness: Option<Witness>,
    /// The witness as people read it (`session.x.y = 3, ...`).
    pub witness_shown: Option<String>,
    /// The text the witness delivers.
    pub text: Option<String>,
}

impl VariantView {
    /// `delivered when: ...`, `never delivered: ...` or `not analysed: ...`.
    pub fn verdict(&self) -> String {
        match (self.kind, &self.witness_shown, &self.reason) {
            ("reachable", Some(w), _) => format!("delivered when: {w}"),
            ("unreachable", _, Some(why)) => format!("never delivered: {why}"),
            (_, _, why) => format!("not analysed: {}", why.as_deref().unwrap_or_default()),
        }
    }
}

/// One response as the snapshot sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ResponseView {
    /// The response.
    pub name: String,
    /// The file that defines it.
    pub file: String,
    /// The skill view it is analysed in (`None`: no skill active).
    pub view: Option<String>,
    /// Its variants, in YAML order.
    pub variants: Vec<VariantView>,
}

/// What `witness` delivers for response `name` in `view`.
pub fn deliver_witness(
    registry: &Registry,
    name: &str,
    view: Option<&str>,
    witness: &Witness,
) -> String {
    let state: Vec<(&str, &str, &utter::Value)> = witness
        .0
        .iter()
        .map(|(id, value)| {
            let e = &registry.entries[*id];
            (e.namespace.as_str(), e.name.as_str(), value)
        })
        .collect();
    deliver_state(registry, name, view, &state)
}

/// What a memory state (entries by name: another registry's witness, say)
/// delivers for response `name` in `view`; entries this registry does not
/// declare, or whose type refuses the value, stay unset.
pub fn deliver_state(
    registry: &Registry,
    name: &str,
    view: Option<&str>,
    state: &[(&str, &str, &utter::Value)],
) -> String {
    let mut memory = SlotMemory::new(&registry.entries);
    for (namespace, entry, value) in state {
        let _ = memory.set(namespace, entry, (*value).clone());
    }
    let ctx = match view {
        Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
            .unwrap_or_else(|_| Context::new(&memory)),
        None => Context::new(&memory),
    };
    // Only this response is encoded: a snapshot delivers every witness of
    // every response, and encoding the whole registry each time is quadratic.
    let Some(response) = registry.response(name) else {
        return name.to_owned();
    };
    let mut program = utter::program::ProgramData::default();
    response.encode_into(&mut program);
    program
        .program()
        .deliver(0, &registry.entries, &ctx)
        .text
        .into_owned()
}

/// Why a variant is never delivered, in words.
pub fn reason(registry: &Registry, verdicts: &[Verdict], why: &Why) -> String {
    match why {
        Why::NeverTrue { error: Some(e) } => {
            format!("its condition is an error for every value its entries can hold ({e})")
        }
        Why::NeverTrue { error: None } => {
            "its condition is never true for the values its entries can hold".to_owned()
        }
        Why::Shadowed(by) => {
            let parts: Vec<String> = by
                .iter()
                .map(|v| match &verdicts[*v] {
                    Verdict::Reachable(w) => format!(
                        "variant {v} (delivered, e.g., when {})",
                        describe_witness(&registry.entries, w)
                    ),
                    _ => format!("variant {v}"),
                })
                .collect();
            format!("shadowed by {}", parts.join(" and "))
        }
        Why::Covered => "a condition above it holds for every value memory can hold".to_owned(),
        Why::NotTheDefault => {
            "no variant has a condition, so the first is always delivered".to_owned()
        }
    }
}

/// Response number `index` under `view`, analysed.
pub fn response_view(registry: &Registry, index: usize, view: Option<&str>) -> ResponseView {
    let response = &registry.responses[index];
    let analysis = analysis::analyse(registry, index, view);
    let variants = analysis
        .variants
        .iter()
        .enumerate()
        .map(|(i, verdict)| {
            let variant = &response.variants[i];
            let (kind, reason, witness) = match verdict {
                Verdict::Reachable(w) => ("reachable", None, Some(w.clone())),
                Verdict::Unreachable(why) => (
                    "unreachable",
                    Some(reason(registry, &analysis.variants, why)),
                    None,
                ),
                Verdict::Undecided(why) => ("undecided", Some(why.clone()), None),
            };
            VariantView {
                index: i,
                source_text: variant.text.clone(),
                condition: variant.condition_text.clone(),
                default: response.default == Some(i),
                rephrase: variant.rephrase,
                kind,
                reason,
                text: witness
                    .as_ref()
                    .map(|w| deliver_witness(registry, &response.name, view, w)),
                witness_shown: witness
                    .as_ref()
                    .map(|w| describe_witness(&registry.entries, w)),
                witness,
            }
        })
        .collect();
    ResponseView {
        name: response.name.clone(),
        file: response.file.clone(),
        view: view.map(str::to_owned),
        variants,
    }
}

/// Every response the snapshot lists, in name order.
pub fn responses(registry: &Registry, options: Options) -> Vec<ResponseView> {
    (0..registry.responses.len())
        .filter(|&i| options.bundled || !registry.responses[i].file.starts_with('<'))
        .map(|i| response_view(registry, i, analysis::home_view(registry, i)))
        .collect()
}

/// One line of data: escaped so it stays one line (a text's own lines are
/// written as lines of their own, indented).
fn one_line(text: &str) -> String {
    crate::diagnostics::escape::escape(text).into_owned()
}

/// The snapshot of `registry`.
pub fn render(registry: &Registry, options: Options) -> String {
    let mut out = String::from(HEADER);
    for response in responses(registry, options) {
        let view = response
            .view
            .as_deref()
            .map_or("no skill active".to_owned(), |s| {
                format!("skill `{}` active", one_line(s))
            });
        let _ = write!(
            out,
            "\n## {}\n{} ({view})\n",
            one_line(&response.name),
            one_line(&response.file)
        );
        for v in &response.variants {
            let kind = match (&v.condition, v.default) {
                (Some(c), _) => format!("if `{}`", one_line(c)),
                (None, true) => "default".to_owned(),
                (None, false) => "without condition".to_owned(),
            };
            let rephrase = if v.rephrase { "rephrased" } else { "verbatim" };
            let _ = write!(
                out,
                "\n  {}. {kind} [{rephrase}]\n  {}\n",
                v.index,
                one_line(&v.verdict())
            );
            if let Some(text) = &v.text {
                out.push_str("  | ");
                let lines: Vec<String> = text.split('\n').map(one_line).collect();
                out.push_str(&lines.join("\n  | "));
                out.push('\n');
            }
        }
    }
    out
}

/// Why a snapshot does not match.
#[derive(Debug)]
pub enum Mismatch {
    /// The agent has error findings: no wording to compare.
    Invalid(Vec<crate::Finding>),
    /// The agent or the snapshot could not be read.
    Read(String),
    /// The wording changed: the first line that differs, and the command
    /// that writes the snapshot again once the change is reviewed.
    Changed {
        /// The 1-based line of the snapshot.
        line: usize,
        /// What the snapshot says there.
        expected: String,
        /// What the agent says now.
        found: String,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Invalid(errors) => write!(
                f,
                "the agent has {} error(s); run `utter check`",
                errors.len()
            ),
            Mismatch::Read(e) => write!(f, "{e}"),
            Mismatch::Changed {
                line,
                expected,
                found,
            } => write!(
                f,
                "the wording changed without review: line {line} of the snapshot is `{expected}`, the agent now gives `{found}`; review the change (`utter snapshot --check` shows the whole diff), then run `utter snapshot` to accept it"
            ),
        }
    }
}

impl std::error::Error for Mismatch {}

/// Compares the agent in `dir` with the snapshot at `snapshot`: what a
/// user's own `cargo test` calls to keep the wording under review.
///
/// ```no_run
/// #[test]
/// fn wording_is_reviewed() {
///     let agent = concat!(env!("CARGO_MANIFEST_DIR"), "/agent");
///     let snap = concat!(env!("CARGO_MANIFEST_DIR"), "/agent/responses.snap");
///     if let Err(e) = utter_compiler::snapshot::check(agent, snap) {
///         panic!("{e}");
///     }
/// }
/// ```
pub fn check(dir: impl AsRef<Path>, snapshot: impl AsRef<Path>) -> Result<(), Mismatch> {
    let files =
        crate::ProjectFiles::read(dir.as_ref()).map_err(|e| Mismatch::Read(e.to_string()))?;
    let registry = crate::lower(&crate::check(&files)).map_err(Mismatch::Invalid)?;
    let snapshot = snapshot.as_ref();
    let expected = std::fs::read_to_string(snapshot).map_err(|e| {
        Mismatch::Read(format!(
            "cannot read the snapshot `{}`: {e}",
            snapshot.display()
        ))
    })?;
    let found = render(&registry, Options::default());
    compare(&expected, &found)
}

/// `Ok` when `expected` and `found` are the same text; else where they differ.
pub fn compare(expected: &str, found: &str) -> Result<(), Mismatch> {
    if expected == found {
        return Ok(());
    }
    let (mut e, mut f) = (expected.lines(), found.lines());
    let mut line = 1;
    loop {
        match (e.next(), f.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (a, b) => {
                return Err(Mismatch::Changed {
                    line,
                    expected: a.unwrap_or("(end of file)").to_owned(),
                    found: b.unwrap_or("(end of file)").to_owned(),
                });
            }
        }
    }
}
