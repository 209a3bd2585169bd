//! `memory.yml` into declared entries: a skill's `schema.public` /
//! `schema.private`, or the project's flat map (the `project` namespace).

use std::ops::Range;

use utter::{EntryType, Visibility};

use super::yaml::{Node, NodeKind, Resolved};
use super::{Entries, FileCx};
use crate::diagnostics::{Severity, codes, did_you_mean};

/// One declared entry.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryDecl {
    /// A skill id, or `project`.
    pub namespace: String,
    /// The entry's name.
    pub name: String,
    /// Who may read it.
    pub visibility: Visibility,
    /// The file that declares it and the span of its name there.
    pub file: String,
    /// The span of its name in `file`.
    pub span: Range<usize>,
    /// `type:` (`any` when absent or unknown; an unknown one is a finding).
    pub ty: EntryType,
    /// `enum_values:` of a categorical entry, in declared order.
    pub values: Vec<String>,
    /// `description:`, `pii:` and `initial_value:` (as written), for docs.
    pub description: Option<String>,
    /// `pii: true`.
    pub pii: bool,
    /// `initial_value:` as written.
    pub initial_value: Option<String>,
    /// Spans of `description:`, of `llm_settable: true` and of `seed: true`,
    /// for the reference engine's description and seeding rules.
    pub description_span: Option<Range<usize>>,
    /// Where `llm_settable: true` is written.
    pub llm_settable: Option<Range<usize>>,
    /// Where `seed: true` is written.
    pub seed: Option<Range<usize>>,
    /// The `#` comment lines right above the entry's name, joined: the
    /// documentation of an entry the reference allows no `description` on.
    pub comment: Option<String>,
}

/// The `#` comment lines directly above the line at byte `at` of `text`.
fn comment_above(text: &str, at: usize) -> Option<String> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = Vec::new();
    for line in text[..line_start].lines().rev() {
        match line.trim_start().strip_prefix('#') {
            Some(comment) => lines.push(comment.trim()),
            None => break,
        }
    }
    lines.reverse();
    let joined = lines.join(" ");
    (!joined.trim().is_empty()).then(|| joined.trim().to_owned())
}

/// Type names people write for the types `memory.yml` knows.
const TYPE_SYNONYMS: &[(&str, &str)] = &[
    ("string", "text"),
    ("integer", "int"),
    ("number", "float"),
    ("double", "float"),
    ("boolean", "bool"),
    ("array", "list"),
    ("object", "json"),
    ("dict", "json"),
    ("map", "json"),
    ("enum", "categorical"),
];

/// What an entry's attributes say about its type and docs.
struct Attributes {
    ty: EntryType,
    values: Vec<String>,
    description: Option<String>,
    pii: bool,
    initial_value: Option<String>,
    description_span: Option<Range<usize>>,
    llm_settable: Option<Range<usize>>,
    seed: Option<Range<usize>>,
}

/// Reads the attributes of one entry; problems are findings. A non-mapping
/// value is an empty declaration, as in the reference engine.
fn attributes(cx: &mut FileCx<'_>, name: &str, node: &Node) -> Attributes {
    let mut out = Attributes {
        ty: EntryType::Any,
        values: Vec::new(),
        description: None,
        pii: false,
        initial_value: None,
        description_span: None,
        llm_settable: None,
        seed: None,
    };
    let is_true = |n: &Node| {
        matches!(
            n.as_scalar().map(|s| s.resolve()),
            Some(Resolved::Bool(true))
        )
    };
    let NodeKind::Map(pairs) = &node.kind else {
        return out;
    };
    let text = |n: &Node| match &n.kind {
        NodeKind::Scalar(s) => Some(s.value.clone()),
        _ => None,
    };
    let mut type_span = None;
    let mut values_node = None;
    for (key, value) in pairs {
        let Some(key_text) = key.as_scalar().map(|k| k.value.as_str()) else {
            continue;
        };
        match key_text {
            "type" => {
                type_span = Some(value.span.clone());
                match value.as_scalar().map(|s| (s.resolve(), s.value.as_str())) {
                    Some((Resolved::Str(t), _)) => match EntryType::from_name(t) {
                        Some(ty) => out.ty = ty,
                        None => {
                            // A typo of a type's name or of a synonym (`strng`).
                            let lower = t.to_ascii_lowercase();
                            let names = EntryType::NAMES.iter().copied();
                            let near = did_you_mean(
                                &lower,
                                names.chain(TYPE_SYNONYMS.iter().map(|(a, _)| *a)),
                            );
                            let fix = near.map(|n| {
                                TYPE_SYNONYMS
                                    .iter()
                                    .find(|(a, _)| *a == n)
                                    .map_or(n, |(_, real)| *real)
                            });
                            cx.report(
                                codes::MEMORY_UNKNOWN_TYPE,
                                Severity::Error,
                                value.span.clone(),
                                format!("entry `{name}` has unknown type `{t}`"),
                            );
                            match fix {
                                Some(fix) => cx.suggest(Some(fix)),
                                None => cx
                                    .help(format!("the types are {}", EntryType::NAMES.join(", "))),
                            }
                        }
                    },
                    _ => cx.report(
                        codes::MEMORY_UNKNOWN_TYPE,
                        Severity::Error,
                        value.span.clone(),
                        format!(
                            "`type` of entry `{name}` must be a type name such as `text`, found {}",
                            value.describe()
                        ),
                    ),
                }
            }
            "enum_values" => values_node = Some(value),
            "description" => {
                out.description = text(value);
                out.description_span = Some(value.span.clone());
            }
            "pii" => out.pii = is_true(value),
            "llm_settable" if is_true(value) => out.llm_settable = Some(value.span.clone()),
            "seed" if is_true(value) => out.seed = Some(value.span.clone()),
            "initial_value" => out.initial_value = text(value),
            _ => {}
        }
    }
    match (&values_node, out.ty) {
        (Some(node), EntryType::Categorical) => {
            out.values = enum_values(cx, name, node);
        }
        (Some(node), ty) => {
            if !matches!(&node.kind, NodeKind::Scalar(s) if s.resolve() == Resolved::Null) {
                cx.report(
                    codes::MEMORY_INVALID_ENUM_VALUES,
                    Severity::Warning,
                    node.span.clone(),
                    format!("`enum_values` of entry `{name}` is ignored: its type is `{ty}`, not `categorical`"),
                );
            }
        }
        (None, _) => {}
    }
    let malformed = values_node.is_some();
    if out.ty == EntryType::Categorical && out.values.is_empty() && !malformed {
        cx.report(
            codes::MEMORY_INVALID_ENUM_VALUES,
            Severity::Warning,
            type_span.unwrap_or(node.span.clone()),
            format!("categorical entry `{name}` lists no `enum_values`, so any text is accepted; list them (`enum_values: [a, b]`) to have them checked"),
        );
    }
    if out.ty == EntryType::Categorical && out.values.is_empty() {
        out.ty = EntryType::Text;
    }
    out
}

/// The `enum_values` of a categorical entry: a list of distinct strings.
fn enum_values(cx: &mut FileCx<'_>, name: &str, node: &Node) -> Vec<String> {
    let NodeKind::Seq(items) = &node.kind else {
        cx.report(
            codes::MEMORY_INVALID_ENUM_VALUES,
            Severity::Error,
            node.span.clone(),
            format!(
                "`enum_values` of entry `{name}` must be a list of strings, such as `[lost, stolen]`, found {}",
                node.describe()
            ),
        );
        return Vec::new();
    };
    let mut values: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        match item.as_scalar() {
            Some(s) if matches!(s.resolve(), Resolved::Str(_)) => {
                if values.contains(&s.value) {
                    cx.report(
                        codes::MEMORY_INVALID_ENUM_VALUES,
                        Severity::Error,
                        item.span.clone(),
                        format!("`{}` is listed twice in `enum_values` of entry `{name}`", s.value),
                    );
                } else {
                    values.push(s.value.clone());
                }
            }
            Some(s) => cx.report(
                codes::MEMORY_INVALID_ENUM_VALUES,
                Severity::Error,
                item.span.clone(),
                format!(
                    "`enum_values` of entry `{name}` holds {} `{}`; categorical values are strings (quote it: `\"{}\"`)",
                    s.type_name(),
                    s.value,
                    s.value
                ),
            ),
            None => cx.report(
                codes::MEMORY_INVALID_ENUM_VALUES,
                Severity::Error,
                item.span.clone(),
                format!("`enum_values` of entry `{name}` must hold strings, found {}", item.describe()),
            ),
        }
    }
    values
}

/// The keys of an entry's declaration.
const ATTRIBUTE_KEYS: &[&str] = &[
    "type",
    "enum_values",
    "description",
    "pii",
    "initial_value",
    "privacy_rules",
    "llm_settable",
    "seed",
    "anonymization",
    "mutable",
];

/// Per entry with an empty declaration, the entries right after it whose
/// names are attribute keys: its attributes, written one level too far left.
fn misindented_attributes(entries: &Entries<'_>) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    let mut index = 0;
    while index < entries.len() {
        let (_, (_, node)) = &entries[index];
        let attrs: Vec<usize> = (index + 1..entries.len())
            .take_while(|&i| ATTRIBUTE_KEYS.contains(&entries[i].0.as_str()))
            .collect();
        if is_null(node) && !attrs.is_empty() {
            index += attrs.len();
            out.push((index - attrs.len(), attrs));
        }
        index += 1;
    }
    out
}

/// Reports the declaration of entry `name` that is not a mapping of
/// attributes (`attributes`: those written one level too far left under
/// it). The reference fails to load a skill for it, and reads a project
/// entry as `any`: an error in a skill, a warning in the project.
fn not_a_mapping(
    cx: &mut FileCx<'_>,
    name: &str,
    span: Range<usize>,
    node: &Node,
    visibility: Visibility,
    attributes: &[String],
) {
    let in_skill = visibility != Visibility::Project;
    if !in_skill && attributes.is_empty() && is_null(node) {
        // `x:` alone in the project memory.yml: an `any` entry, as written.
        return;
    }
    let (code, severity, consequence) = if in_skill {
        (
            codes::SKILL_FAILED_TO_LOAD,
            Severity::Error,
            "a skill's entries must be mappings of attributes, so the skill fails to load",
        )
    } else {
        (
            codes::MEMORY_SHAPE,
            Severity::Warning,
            "it is read as an `any` entry",
        )
    };
    if let Some(first) = attributes.first() {
        let key = first.split(':').next().unwrap_or_default().trim();
        let more = if attributes.len() > 1 {
            " and what follows it"
        } else {
            ""
        };
        let extra = if in_skill {
            String::new()
        } else {
            format!(" (and `{key}` as an entry of its own)")
        };
        cx.report(
            code,
            severity,
            span,
            format!(
                "entry `{name}` has no declaration: `{first}`{more} below it is one level too far left, so it reads as an entry named `{key}`; {consequence}{extra}"
            ),
        );
        cx.help(format!(
            "indent `{first}`{more} by two more spaces, under `{name}:`"
        ));
        return;
    }
    let found = if is_null(node) {
        "has no declaration".to_owned()
    } else {
        format!(
            "is declared as {}, not as a mapping of attributes",
            node.describe()
        )
    };
    cx.report(
        code,
        severity,
        span,
        format!("entry `{name}` {found}; {consequence}"),
    );
    cx.help(format!(
        "declare its attributes, e.g. `{name}: {{type: text}}`"
    ));
}

fn is_null(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Scalar(s) if s.resolve() == Resolved::Null)
}

fn declare(
    cx: &mut FileCx<'_>,
    node: &Node,
    what: &str,
    namespace: &str,
    visibility: Visibility,
    out: &mut Vec<MemoryDecl>,
) {
    if is_null(node) {
        return;
    }
    let Some(entries) = cx.mapping(node, what, codes::MEMORY_SHAPE) else {
        return;
    };
    // Names already declared in this file (public and private), by name.
    let mut seen: std::collections::HashMap<String, Visibility> =
        out.iter().map(|d| (d.name.clone(), d.visibility)).collect();
    let misindented = misindented_attributes(&entries);
    let source = cx.source.text.clone();
    let attribute_text = |index: usize| {
        let (_, (span, node)) = &entries[index];
        source
            .get(span.start..node.span.end)
            .unwrap_or_default()
            .to_owned()
    };
    let mut not_mappings = Vec::new();
    for (index, (name, (span, node))) in entries.iter().enumerate() {
        if misindented.iter().any(|(_, attrs)| attrs.contains(&index))
            || matches!(node.kind, NodeKind::Map(_))
        {
            continue;
        }
        let attributes: Vec<String> = misindented
            .iter()
            .find(|(owner, _)| *owner == index)
            .map(|(_, attrs)| attrs.iter().map(|&i| attribute_text(i)).collect())
            .unwrap_or_default();
        not_mappings.push((name.clone(), span.clone(), *node, attributes));
    }
    for (name, span, node, attributes) in not_mappings {
        not_a_mapping(cx, &name, span, node, visibility, &attributes);
    }
    for (index, (name, (span, attributes_node))) in entries.into_iter().enumerate() {
        // A skill's attributes written one level too far left are no entries
        // (the project memory.yml declares them, as the reference does).
        if visibility != Visibility::Project
            && misindented.iter().any(|(_, attrs)| attrs.contains(&index))
        {
            continue;
        }
        if name.is_empty() {
            cx.report(
                codes::MEMORY_SHAPE,
                Severity::Error,
                span,
                "a memory entry needs a name",
            );
            continue;
        }
        if let Some(&prev) = seen.get(name.as_str())
            && prev != visibility
        {
            {
                cx.report(
                    codes::MEMORY_SHAPE,
                    Severity::Error,
                    span,
                    format!("`{name}` is declared both public and private; declare it once"),
                );
                continue;
            }
        }
        if let Some(c) = name.chars().find(|&c| crate::unicode::is_deceptive(c)) {
            cx.report(
                codes::INVISIBLE_CHARACTER,
                Severity::Warning,
                span.clone(),
                format!(
                    "entry name `{}` holds the invisible character U+{:04X}, which makes it look like another name; remove it",
                    name.escape_debug(),
                    c as u32
                ),
            );
        }
        if let Some((a, b)) = crate::unicode::mixed_scripts(&name) {
            cx.report(
                codes::INVISIBLE_CHARACTER,
                Severity::Warning,
                span.clone(),
                format!("entry name `{name}` mixes {a} and {b} letters, so it can look like another name; spell it in one script"),
            );
        }
        seen.entry(name.clone()).or_insert(visibility);
        let comment = comment_above(&cx.source.text, span.start);
        let attributes = attributes(cx, &name, attributes_node);
        out.push(MemoryDecl {
            namespace: namespace.to_owned(),
            name,
            visibility,
            file: cx.source.label.clone(),
            span,
            ty: attributes.ty,
            values: attributes.values,
            description: attributes.description,
            pii: attributes.pii,
            initial_value: attributes.initial_value,
            description_span: attributes.description_span,
            llm_settable: attributes.llm_settable,
            seed: attributes.seed,
            comment,
        });
    }
}

/// A skill's `memory.yml`: `schema: {public: {...}, private: {...}}`.
/// Top-level keys other than `schema:`/`access:` are reported and pushed to
/// `misplaced`: they are usually entries written without `schema:`.
pub fn walk_skill(
    cx: &mut FileCx<'_>,
    root: Option<&Node>,
    skill: &str,
    misplaced: &mut Vec<String>,
) -> Vec<MemoryDecl> {
    let mut out = Vec::new();
    let Some(root) = root else { return out };
    if is_null(root) {
        return out;
    }
    let Some(pairs) = cx.mapping(root, "a skill memory.yml file", codes::MEMORY_SHAPE) else {
        return out;
    };
    for (key, (key_span, value)) in pairs {
        match key.as_str() {
            "schema" => {
                if is_null(value) {
                    continue;
                }
                let Some(parts) = cx.mapping(value, "`schema`", codes::MEMORY_SHAPE) else {
                    continue;
                };
                for (part, (part_span, node)) in parts {
                    match part.as_str() {
                        "public" => declare(cx, node, "`schema.public`", skill, Visibility::Public, &mut out),
                        "private" => declare(cx, node, "`schema.private`", skill, Visibility::Private, &mut out),
                        other => {
                            cx.report(
                                codes::FILE_UNKNOWN_KEY,
                                Severity::Error,
                                part_span,
                                format!("unknown key `{other}` under `schema`"),
                            );
                            match did_you_mean(other, ["public", "private"]) {
                                Some(s) => cx.suggest(Some(s)),
                                None => cx.help("entries go under `public:` or `private:`"),
                            }
                        }
                    }
                }
            }
            "access" => cx.report(
                codes::MEMORY_ACCESS_IGNORED,
                Severity::Warning,
                key_span,
                "`access:` (deny_read / deny_write) is not enforced; every public entry stays readable by every skill",
            ),
            other => {
                misplaced.push(other.to_owned());
                cx.report(
                    codes::FILE_UNKNOWN_KEY,
                    Severity::Warning,
                    key_span,
                    format!("unknown top-level key `{other}` is ignored"),
                );
                match did_you_mean(other, ["schema"]) {
                    Some(s) => cx.suggest(Some(s)),
                    None => cx.help("a skill memory.yml declares entries under `schema:` (`schema: {public: {...}, private: {...}}`)"),
                }
            }
        }
    }
    out
}

/// The project's root `memory.yml`: a flat map of entry name to attributes.
pub fn walk_project(cx: &mut FileCx<'_>, root: Option<&Node>) -> Vec<MemoryDecl> {
    let mut out = Vec::new();
    if let Some(root) = root {
        declare(
            cx,
            root,
            "the project memory.yml",
            "project",
            Visibility::Project,
            &mut out,
        );
    }
    out
}
