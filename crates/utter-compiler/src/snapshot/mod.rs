//! The agent's wording under review: one deterministic, diff-friendly file
//! recording, for every response in name order and every variant
//! (reachable, unreachable or undecided), its wording exactly as written:
//! file, skill view, position, condition, rephrase flag and template text.
//! Beside it, as annotations, what the variant analysis says: a memory
//! state that delivers the variant and the example text it delivers, or why
//! it is never delivered. Every string is written by
//! [`quote`](crate::diagnostics::escape::quote), so two different wordings
//! never give the same file and no wording can pose as its structure.
//! `utter snapshot` writes it, `utter snapshot --check` and [`check`] (for
//! a user's own `cargo test`) compare it.

pub mod changes;
mod condition_index;
mod deliver;
pub mod diff;
pub mod file;
pub mod html;
#[cfg(feature = "serde")]
mod serialize;
mod shortcut;
#[cfg(test)]
mod testing;

use std::fmt::Write as _;
use std::path::Path;

use crate::analysis::{self, Verdict, VerdictKind, Why, Witness, describe_witness};
use crate::diagnostics::escape::{escape, quote};
use crate::lower::Registry;
pub use deliver::{
    Encoded, ExamplePiece, Filling, conditions_read, deliver_state, deliver_witness, example,
    example_line, example_text,
};

/// The first lines of every snapshot.
pub const HEADER: &str = "# utter snapshot, format 3: the reviewed wording of this agent. Every response and\n# variant as written (file, skill view, wording id, condition, rephrase flag, text), then\n# what the variant analysis says of it (lines starting with `~`). `fingerprint` identifies\n# the whole wording: the compiled agent's WORDING_FINGERPRINT (docs/audit.md). Strings\n# are quoted: \\\\ \\\" \\n \\t \\r, and \\u{..} for control and invisible characters.\n# Do not edit by hand: `utter snapshot` writes it, `utter snapshot --check` fails when\n# anything in it changes.\n";

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
    /// The id of its wording ([`crate::wording`]).
    pub wording: utter::WordingId,
    /// The text as written in responses.yml.
    pub source_text: String,
    /// Its condition as written.
    pub condition: Option<String>,
    /// Whether it is the response's default.
    pub default: bool,
    /// `metadata.rephrase`.
    pub rephrase: bool,
    /// What the analysis claims of it.
    pub kind: VerdictKind,
    /// Why it is unreachable, or why nothing is claimed.
    pub reason: Option<String>,
    /// The witness, when there is one, and as people read it.
    pub witness: Option<Witness>,
    /// The witness as people read it (`session.x.y = 3, ...`).
    pub witness_shown: Option<String>,
    /// The text the witness delivers.
    pub text: Option<String>,
    /// The same text piece by piece: wording, filled values, unset
    /// placeholders.
    pub example: Option<Vec<ExamplePiece>>,
    /// Its placeholders that a memory state delivering it leaves unset
    /// (the customer gets them as written), each with such a state.
    pub may_be_unset: Vec<(String, Witness)>,
    /// For a rephrased variant, what a rephrase must keep (the fact guard):
    /// its placeholders as written, then the figures of its text.
    pub guarded: Vec<String>,
}

impl VariantView {
    /// `delivered when: ...`, `never delivered: ...` or `not analysed: ...`.
    pub fn verdict(&self) -> String {
        let words = self.kind.words();
        match (self.kind, &self.witness_shown, &self.reason) {
            (VerdictKind::Reachable, Some(w), _) => format!("{words} when: {w}"),
            (_, _, why) => format!("{words}: {}", why.as_deref().unwrap_or_default()),
        }
    }

    /// Its condition in words ([`crate::condition::in_words`]).
    pub fn condition_words(&self) -> Option<String> {
        crate::condition::words_of(self.condition.as_deref()?)
    }

    /// When it is delivered ([`crate::wording::Selection`]).
    pub fn selection(&self) -> crate::wording::Selection<'_> {
        crate::wording::Selection::of(self.condition.as_deref(), self.default)
    }

    /// When it is delivered, as the snapshot writes it: `if '<condition>'`,
    /// `default`, or `without condition` (neither).
    pub fn when(&self) -> String {
        self.selection().label(quote)
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
    /// How many memory states the analysis enumerated.
    pub states: usize,
    /// Why the analysis stopped before seeing every state, if it did.
    pub stopped: Option<String>,
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

/// Why a condition is never true when the cause is the view: the private
/// entries of another skill it reads, which read as `None` here.
fn unreadable_note(
    registry: &Registry,
    variant: &crate::lower::Variant,
    view: Option<&str>,
    why: &Why,
) -> String {
    let (Why::NeverTrue { .. }, Some(condition)) = (why, &variant.condition) else {
        return String::new();
    };
    let hidden: Vec<String> = condition
        .refs()
        .into_iter()
        .filter_map(|&id| registry.entries.get(id))
        .filter(|e| !e.visibility.readable_in(&e.namespace, view))
        .map(|e| {
            format!(
                "`session.{}.{}` (private to skill `{}`)",
                e.namespace, e.name, e.namespace
            )
        })
        .collect();
    if hidden.is_empty() {
        return String::new();
    }
    let active = view.map_or("no skill is active".to_owned(), |v| {
        format!("skill `{v}` is active")
    });
    format!(
        "; it reads {}, which read as None while {active}",
        hidden.join(" and ")
    )
}

/// Response number `index` under `view`, analysed.
pub fn response_view(registry: &Registry, index: usize, view: Option<&str>) -> ResponseView {
    let analysis = analysis::analyse(registry, index, view, &mut analysis::Budget::response());
    view_with(registry, index, view, &analysis)
}

/// Response number `index` under `view`, with its variants' verdicts.
fn view_with(
    registry: &Registry,
    index: usize,
    view: Option<&str>,
    analysis: &analysis::ResponseAnalysis,
) -> ResponseView {
    let (verdicts, may_be_unset) = (&analysis.variants, &analysis.may_be_unset);
    let response = &registry.responses[index];
    // Once per response: an example per variant asks it.
    let read = conditions_read(response);
    let variants = verdicts
        .iter()
        .enumerate()
        .map(|(i, verdict)| {
            let variant = &response.variants[i];
            let kind = verdict.kind();
            let (reason, witness) = match verdict {
                Verdict::Reachable(w) => (None, Some(w.clone())),
                Verdict::Unreachable(why) => (
                    Some(
                        reason(registry, verdicts, why)
                            + &unreadable_note(registry, variant, view, why),
                    ),
                    None,
                ),
                Verdict::Undecided(why) => (Some(why.clone()), None),
            };
            // The text a witness delivers, exactly; the example that
            // reviewers read, with sample values where it leaves
            // placeholders unset.
            let at = (index, i);
            let delivered = witness
                .as_ref()
                .map(|w| example_text(&example(registry, at, view, w, Filling::AsWitnessed)));
            let example = witness.as_ref().map(|w| {
                example(
                    registry,
                    at,
                    view,
                    w,
                    Filling::Natural {
                        conditions_read: &read,
                    },
                )
            });
            VariantView {
                index: i,
                wording: variant.wording,
                source_text: variant.text.clone(),
                condition: variant.condition_text.clone(),
                default: response.default == Some(i),
                rephrase: variant.rephrase,
                kind,
                reason,
                text: delivered,
                example,
                witness_shown: witness
                    .as_ref()
                    .map(|w| describe_witness(&registry.entries, w)),
                witness,
                may_be_unset: may_be_unset.get(i).cloned().unwrap_or_default(),
                guarded: if variant.rephrase {
                    guarded_facts(&variant.pieces)
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    ResponseView {
        name: response.name.clone(),
        file: response.file.clone(),
        view: view.map(str::to_owned),
        variants,
        states: analysis.states,
        stopped: analysis.stopped.clone(),
    }
}

/// What a rephrase of a variant must keep: each placeholder as written
/// (the value it fills in), then each figure of the text around them.
pub fn guarded_facts(pieces: &[utter::Piece<String, Vec<usize>>]) -> Vec<String> {
    let mut facts = Vec::new();
    for piece in pieces {
        if let utter::Piece::Session { raw, .. } | utter::Piece::Bare { raw, .. } = piece {
            facts.push(raw.clone());
        }
    }
    for piece in pieces {
        if let utter::Piece::Text(text) = piece {
            facts.extend(utter::figures(text));
        }
    }
    facts
}

/// Every response the snapshot lists, in name order.
pub fn responses(registry: &Registry, options: Options) -> Vec<ResponseView> {
    let mut order: Vec<usize> = (0..registry.responses.len())
        .filter(|&i| options.bundled || !crate::bundled::is_bundled(&registry.responses[i].file))
        .collect();
    order.sort_by(|&a, &b| registry.responses[a].name.cmp(&registry.responses[b].name));
    // Responses with the same conditions and default in the same view get
    // the same verdicts: analysed once.
    let mut seen: std::collections::HashMap<String, analysis::ResponseAnalysis> =
        std::collections::HashMap::new();
    let mut budget = analysis::Budget::project();
    order
        .into_iter()
        .map(|i| {
            let view = analysis::home_view(registry, i);
            let r = &registry.responses[i];
            let mut key = String::from(view.unwrap_or("\u{0}"));
            for (v, variant) in r.variants.iter().enumerate() {
                // Length-prefixed: no condition text can pose as two.
                let text = variant.condition_text.as_deref();
                let _ = write!(
                    key,
                    "|{}{}:{}",
                    u8::from(r.default == Some(v)),
                    text.map_or(usize::MAX, str::len),
                    text.unwrap_or_default()
                );
                // Which placeholders may be unset depends on them too.
                for piece in &variant.pieces {
                    if let utter::Piece::Session { raw, .. } | utter::Piece::Bare { raw, .. } =
                        piece
                    {
                        let _ = write!(key, "{{{}:{raw}", raw.len());
                    }
                }
            }
            let found = seen
                .entry(key)
                .or_insert_with(|| analysis::analyse(registry, i, view, &mut budget));
            view_with(registry, i, view, found)
        })
        .collect()
}

/// One line of analysis: escaped so that it stays one line.
fn one_line(text: &str) -> String {
    escape(text).into_owned()
}

/// The snapshot of `registry`.
pub fn render(registry: &Registry, options: Options) -> String {
    let mut out = String::from(HEADER);
    let _ = writeln!(out, "fingerprint {}", registry.wording_fingerprint());
    for response in responses(registry, options) {
        let view = response.view.as_deref().map_or("none".to_owned(), quote);
        let _ = write!(
            out,
            "\nresponse {}\n  file {}\n  view {view}\n",
            quote(&response.name),
            quote(&response.file)
        );
        if let Some(why) = &response.stopped {
            let _ = writeln!(out, "  ~ {}", one_line(why));
        }
        for v in &response.variants {
            let _ = write!(
                out,
                "\n  variant {}\n    id {}\n    {}\n    rephrase {}\n    text {}\n    ~ {}\n",
                v.index,
                v.wording,
                v.when(),
                v.rephrase,
                quote(&v.source_text),
                one_line(&v.verdict())
            );
            if !v.guarded.is_empty() {
                let facts: Vec<String> = v.guarded.iter().map(|f| quote(f)).collect();
                let _ = writeln!(out, "    ~ a rephrase must keep: {}", facts.join(", "));
            }
            for (placeholder, state) in &v.may_be_unset {
                let _ = writeln!(
                    out,
                    "    ~ may be unset: {} (delivered as written, e.g., when {})",
                    quote(placeholder),
                    one_line(&describe_witness(&registry.entries, state))
                );
            }
            // Wording alone needs no example: the text line is what is delivered.
            if let Some(example) = v
                .example
                .as_ref()
                .filter(|e| e.iter().any(|p| !matches!(p, ExamplePiece::Wording(_))))
            {
                let _ = writeln!(out, "    ~ example: {}", example_line(example));
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
    let agent = crate::Agent::open(dir.as_ref(), crate::OpenOptions::default())
        .map_err(|e| Mismatch::Read(e.to_string()))?;
    let registry = agent
        .registry()
        .map_err(|errors| Mismatch::Invalid(errors.to_vec()))?;
    let expected = file::read(snapshot.as_ref()).map_err(|e| Mismatch::Read(e.to_string()))?;
    let found = render(registry, Options::default());
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
