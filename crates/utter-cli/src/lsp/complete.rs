//! Completion: what may be typed at the cursor, by where the cursor is.

use lsp_types::{CompletionItem, CompletionItemKind};
use utter_compiler::Checked;
use utter_compiler::load::memory::MemoryDecl;

use super::features::is_word;
use super::project::Project;
use utter_compiler::load::layout::skill_of;

/// Completion items for the text before the cursor (`prefix`, the line up
/// to the cursor) in the file `label`.
pub fn complete(project: &Project, label: &str, prefix: &str) -> Vec<CompletionItem> {
    let at = Cursor {
        checked: &project.checked,
        label,
        prefix,
        own: skill_of(label),
    };
    let completers: [Completer; 5] = [
        session_reference,
        categorical_value,
        placeholder,
        response_name,
        variant_key,
    ];
    completers
        .iter()
        .find_map(|complete| complete(&at))
        .unwrap_or_default()
}

/// What may be typed in one situation, if the cursor is in it.
type Completer = fn(&Cursor<'_>) -> Option<Vec<CompletionItem>>;

/// Where completion was asked: the file, the text before the cursor on its
/// line, and the skill the file belongs to.
struct Cursor<'a> {
    checked: &'a Checked,
    label: &'a str,
    prefix: &'a str,
    own: Option<&'a str>,
}

impl Cursor<'_> {
    /// Whether a file here may read the entry.
    fn readable(&self, d: &MemoryDecl) -> bool {
        d.visibility.readable_in(&d.namespace, self.own)
    }
}

fn item(label: String, kind: CompletionItemKind, detail: String) -> CompletionItem {
    CompletionItem {
        label,
        kind: Some(kind),
        detail: Some(detail),
        ..Default::default()
    }
}

/// `session.<ns>.` -> entries; `session.` -> namespaces.
fn session_reference(at: &Cursor<'_>) -> Option<Vec<CompletionItem>> {
    let tail: String = at
        .prefix
        .chars()
        .rev()
        .take_while(|c| is_word(*c))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let rest = tail.strip_prefix("session.")?;
    let readable = at.checked.memory.iter().filter(|d| at.readable(d));
    Some(match rest.split_once('.') {
        Some((namespace, _)) => readable
            .filter(|d| d.namespace == namespace)
            .map(|d| {
                item(
                    d.name.clone(),
                    CompletionItemKind::FIELD,
                    format!("{} ({})", d.ty, d.file),
                )
            })
            .collect(),
        None => {
            let mut namespaces: Vec<&str> = readable.map(|d| d.namespace.as_str()).collect();
            namespaces.sort_unstable();
            namespaces.dedup();
            namespaces
                .into_iter()
                .map(|n| {
                    item(
                        n.to_owned(),
                        CompletionItemKind::MODULE,
                        "memory namespace".into(),
                    )
                })
                .collect()
        }
    })
}

/// `session.<ns>.<entry> == ` of a categorical entry -> its values.
fn categorical_value(at: &Cursor<'_>) -> Option<Vec<CompletionItem>> {
    let trimmed = at.prefix.trim_end().trim_end_matches(['"', '\'']);
    let (namespace, entry, d) = ["==", "!="].into_iter().find_map(|op| {
        let left = trimmed.trim_end().strip_suffix(op)?;
        let reference = left.trim_end().rsplit(|c: char| !is_word(c)).next()?;
        let (namespace, entry) = reference.strip_prefix("session.")?.split_once('.')?;
        let d = at
            .checked
            .memory
            .iter()
            .find(|d| d.namespace == namespace && d.name == entry)?;
        Some((namespace, entry, d))
    })?;
    let quoted = at.prefix.trim_end().ends_with(['"', '\'']);
    Some(
        d.values
            .iter()
            .map(|v| {
                let text = if quoted {
                    v.clone()
                } else {
                    format!("\"{v}\"")
                };
                item(
                    text,
                    CompletionItemKind::ENUM_MEMBER,
                    format!("a value of {namespace}.{entry}"),
                )
            })
            .collect(),
    )
}

/// Inside `{` of a template -> placeholders.
fn placeholder(at: &Cursor<'_>) -> Option<Vec<CompletionItem>> {
    let open = at.prefix.rfind('{')?;
    if at.prefix[open..].contains('}') || !at.label.ends_with("responses.yml") {
        return None;
    }
    let memory = &at.checked.memory;
    let qualified = memory.iter().filter(|d| at.readable(d)).map(|d| {
        item(
            format!("session.{}.{}", d.namespace, d.name),
            CompletionItemKind::FIELD,
            d.ty.to_string(),
        )
    });
    let bare = memory
        .iter()
        .filter(|d| d.namespace == "project" || Some(d.namespace.as_str()) == at.own)
        .map(|d| item(d.name.clone(), CompletionItemKind::FIELD, d.ty.to_string()));
    Some(qualified.chain(bare).collect())
}

/// Response names where skill.md names a response.
fn response_name(at: &Cursor<'_>) -> Option<Vec<CompletionItem>> {
    const FIELDS: [&str; 7] = [
        "action:",
        "utter:",
        "utterance:",
        "on_success:",
        "on_failure:",
        "utter_for_confirmation:",
        "utter_on_user_denial:",
    ];
    let line = at.prefix.trim_start();
    let naming = FIELDS
        .iter()
        .any(|f| line.starts_with(f) || line.starts_with(&format!("- {f}")))
        || line.starts_with("- utter_");
    (at.label.ends_with("skill.md") && naming).then(|| {
        at.checked
            .responses
            .keys()
            .map(|n| item(n.clone(), CompletionItemKind::VALUE, "response".into()))
            .collect()
    })
}

/// Variant keys in responses.yml.
fn variant_key(at: &Cursor<'_>) -> Option<Vec<CompletionItem>> {
    let line = at.prefix.trim_start();
    let keyword_only = line
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ');
    (at.label.ends_with("responses.yml") && at.prefix.len() - line.len() >= 4 && keyword_only).then(
        || {
            ["text", "condition", "metadata"]
                .into_iter()
                .map(|k| {
                    item(
                        k.to_owned(),
                        CompletionItemKind::KEYWORD,
                        "variant key".into(),
                    )
                })
                .collect()
        },
    )
}
