//! `responses.yml` into raw responses, leniently: every shape problem becomes
//! a finding and the walk goes on, so one run reports everything.

use std::ops::Range;

use super::FileCx;
use super::yaml::{Node, NodeKind, Resolved};
use crate::diagnostics::{Severity, codes, did_you_mean, moved};

/// The keys a variant mapping may have.
pub const VARIANT_KEYS: &[&str] = &["condition", "metadata", "text"];

/// A variant's `condition:` as written.
#[derive(Clone, Debug, PartialEq)]
pub enum ConditionField {
    /// No `condition`, or `condition: null`: a default variant.
    Absent,
    /// A string condition (possibly blank, which is then reported).
    Text {
        /// The condition's text.
        text: String,
        /// Its node (for spans).
        node: Node,
    },
    /// Not a string: reported, and counted as a default like the reference does.
    Invalid,
}

/// A variant as read from responses.yml.
#[derive(Clone, Debug, PartialEq)]
pub struct RawVariant {
    /// 0-based position in the YAML list.
    pub index: usize,
    /// The variant's span.
    pub span: Range<usize>,
    /// Its `text`.
    pub text: String,
    /// True when `text` is not a scalar (reported once, as a shape problem).
    pub text_invalid: bool,
    /// Where the text is (the variant itself for a plain-string variant).
    pub text_node: Option<Node>,
    /// Its `condition`.
    pub condition: ConditionField,
    /// `metadata.rephrase`.
    pub rephrase: bool,
}

/// A response as read from responses.yml.
#[derive(Clone, Debug, PartialEq)]
pub struct RawResponse {
    /// Its name.
    pub name: String,
    /// The span of its name.
    pub name_span: Range<usize>,
    /// Its variants, in YAML order.
    pub variants: Vec<RawVariant>,
    /// False when the value is not a non-empty list: such a response is
    /// reported and left out of the registry.
    pub well_formed: bool,
    /// A variant has an unknown key or a wrong shape: whether it was meant
    /// to be conditioned is unknown, so defaults are not counted (no cascade).
    pub malformed_variant: bool,
}

impl RawResponse {
    /// This response as read from the same text moved from byte `from` of
    /// its file to byte `to`.
    pub(crate) fn moved(&self, from: usize, to: usize) -> RawResponse {
        let mut response = self.clone();
        response.name_span = moved(&self.name_span, from, to);
        for variant in &mut response.variants {
            variant.span = moved(&variant.span, from, to);
            if let Some(node) = &mut variant.text_node {
                node.move_spans(from, to);
            }
            if let ConditionField::Text { node, .. } = &mut variant.condition {
                node.move_spans(from, to);
            }
        }
        response
    }
}

/// Walks the root node of a `responses.yml` file.
pub fn walk(cx: &mut FileCx<'_>, root: Option<&Node>) -> Vec<RawResponse> {
    let Some(root) = root else { return Vec::new() };
    let Some(pairs) = cx.mapping(root, "a responses.yml file", codes::FILE_SHAPE) else {
        return Vec::new();
    };
    let mut responses = Vec::new();
    for (key, (key_span, value)) in pairs {
        match key.as_str() {
            "responses" => {
                if let NodeKind::Scalar(s) = &value.kind
                    && s.resolve() == Resolved::Null
                {
                    continue;
                }
                let Some(entries) = cx.mapping_with(
                    value,
                    "`responses`",
                    codes::FILE_SHAPE,
                    codes::DUPLICATE_RESPONSE,
                ) else {
                    continue;
                };
                for (name, located) in entries {
                    responses.push(walk_response(cx, name, located));
                }
            }
            "version" => {}
            other => {
                cx.report(
                    codes::FILE_UNKNOWN_KEY,
                    Severity::Error,
                    key_span,
                    format!("unknown top-level key `{other}`"),
                );
                match did_you_mean(other, ["responses"]) {
                    Some(s) => cx.suggest(Some(s)),
                    None => cx.help(
                        "a responses.yml file holds `responses:` (and an optional `version:`)",
                    ),
                }
            }
        }
    }
    responses
}

fn walk_response(
    cx: &mut FileCx<'_>,
    name: String,
    (name_span, value): (Range<usize>, &Node),
) -> RawResponse {
    let mut response = RawResponse {
        name,
        name_span: name_span.clone(),
        variants: Vec::new(),
        well_formed: false,
        malformed_variant: false,
    };
    let items = match &value.kind {
        NodeKind::Seq(items) if !items.is_empty() => items,
        _ => {
            let found = match &value.kind {
                NodeKind::Seq(_) => "an empty list".to_owned(),
                _ => value.describe().to_owned(),
            };
            let span = if value.span.is_empty() {
                name_span
            } else {
                value.span.clone()
            };
            cx.report_in(
                codes::INVALID_VARIANT_SHAPE,
                Severity::Error,
                span,
                &response.name,
                None,
                format!(
                    "must be a non-empty list of variants (each a mapping with a `text` field, or a plain string), found {found}"
                ),
            );
            return response;
        }
    };
    response.well_formed = true;
    for (index, item) in items.iter().enumerate() {
        let before = cx.findings.len();
        if let Some(variant) = walk_variant(cx, &response.name, index, item) {
            response.variants.push(variant);
        }
        response.malformed_variant |= cx.findings[before..].iter().any(|f| {
            f.code == codes::INVALID_VARIANT_KEY || f.code == codes::INVALID_VARIANT_SHAPE
        });
    }
    response
}

fn walk_variant(
    cx: &mut FileCx<'_>,
    response: &str,
    index: usize,
    node: &Node,
) -> Option<RawVariant> {
    let shape_error = |cx: &mut FileCx<'_>, span: Range<usize>, message: String| {
        cx.report_in(
            codes::INVALID_VARIANT_SHAPE,
            Severity::Error,
            span,
            response,
            Some(index),
            message,
        );
    };
    let pairs = match &node.kind {
        NodeKind::Scalar(s) => {
            if s.resolve() == Resolved::Null {
                shape_error(
                    cx,
                    node.span.clone(),
                    "a variant must be a mapping with a `text` field or a plain string, found null"
                        .into(),
                );
                return None;
            }
            return Some(RawVariant {
                index,
                span: node.span.clone(),
                text: s.value.clone(),
                text_invalid: false,
                text_node: Some(node.clone()),
                condition: ConditionField::Absent,
                rephrase: false,
            });
        }
        NodeKind::Seq(_) => {
            shape_error(
                cx,
                node.span.clone(),
                "a variant must be a mapping with a `text` field or a plain string, found a list"
                    .into(),
            );
            return None;
        }
        NodeKind::Map(_) => cx.mapping(node, "a variant", codes::INVALID_VARIANT_SHAPE)?,
    };
    let mut variant = RawVariant {
        index,
        span: node.span.clone(),
        text: String::new(),
        text_invalid: false,
        text_node: None,
        condition: ConditionField::Absent,
        rephrase: false,
    };
    let mut unknown: Vec<(String, Range<usize>)> = Vec::new();
    for (key, (key_span, value)) in pairs {
        match key.as_str() {
            "text" => match &value.kind {
                NodeKind::Scalar(s) => {
                    if s.resolve() != Resolved::Null {
                        variant.text = s.value.clone();
                    }
                    variant.text_node = Some(value.clone());
                }
                _ => {
                    variant.text_invalid = true;
                    shape_error(
                        cx,
                        value.span.clone(),
                        format!("`text` must be a string, found {}", value.describe()),
                    );
                }
            },
            "condition" => variant.condition = walk_condition(cx, value, &shape_error),
            "metadata" => variant.rephrase = walk_metadata(cx, response, index, value),
            _ => unknown.push((key, key_span)),
        }
    }
    report_unknown_keys(cx, response, index, &unknown);
    Some(variant)
}

/// A variant's `condition:` value: a string expression, or a finding
/// (with the quoting that makes a bare value an expression).
fn walk_condition(
    cx: &mut FileCx<'_>,
    value: &Node,
    shape_error: &dyn Fn(&mut FileCx<'_>, Range<usize>, String),
) -> ConditionField {
    let scalar = value.as_scalar();
    match scalar.map(|s| s.resolve()) {
        Some(Resolved::Null) => ConditionField::Absent,
        Some(Resolved::Str(text)) => ConditionField::Text {
            text: text.to_owned(),
            node: value.clone(),
        },
        _ => {
            let hint = scalar
                .map(|s| {
                    format!(
                        "; quote it (condition: '{}') if you mean it as an expression",
                        s.value
                    )
                })
                .unwrap_or_default();
            shape_error(
                cx,
                value.span.clone(),
                format!(
                    "`condition` must be a string expression, found {}{hint}",
                    value.describe()
                ),
            );
            ConditionField::Invalid
        }
    }
}

/// One finding for a variant's unknown keys, at the first: each named,
/// with a did-you-mean or why it is not supported.
fn report_unknown_keys(
    cx: &mut FileCx<'_>,
    response: &str,
    index: usize,
    unknown: &[(String, Range<usize>)],
) {
    if let Some((_, first_span)) = unknown.first() {
        let listed: Vec<String> = unknown.iter().map(|(k, _)| format!("`{k}`")).collect();
        let mut notes = Vec::new();
        // A did-you-mean for the first unknown key is the machine fix.
        let mut suggestion = None;
        for (i, (key, _)) in unknown.iter().enumerate() {
            if key == "channel" || key == "buttons" {
                notes.push(format!(
                    "`{key}` is not supported in this release; remove it"
                ));
            } else if let Some(s) = did_you_mean(key, VARIANT_KEYS.iter().copied()) {
                notes.push(format!("did you mean `{s}` instead of `{key}`?"));
                if i == 0 {
                    suggestion = Some(s);
                }
            }
        }
        cx.report_in(
            codes::INVALID_VARIANT_KEY,
            Severity::Error,
            first_span.clone(),
            response,
            Some(index),
            format!(
                "unknown variant key(s) {}; allowed keys are `condition`, `metadata` and `text`",
                listed.join(", ")
            ),
        );
        if let Some(s) = suggestion {
            cx.suggest(Some(s));
        }
        if !notes.is_empty() {
            cx.help(notes.join("; "));
        }
    }
}

/// Returns `metadata.rephrase`; anything but a boolean there is a finding.
fn walk_metadata(cx: &mut FileCx<'_>, response: &str, index: usize, node: &Node) -> bool {
    if let NodeKind::Scalar(s) = &node.kind
        && s.resolve() == Resolved::Null
    {
        return false;
    }
    let before = cx.findings.len();
    let Some(pairs) = cx.mapping(node, "`metadata`", codes::INVALID_VARIANT_SHAPE) else {
        // The shape finding names the response and variant, as every variant finding does.
        for finding in &mut cx.findings[before..] {
            finding.response = Some(response.to_owned());
            finding.variant = Some(index);
        }
        return false;
    };
    let mut rephrase = false;
    for (key, (_, value)) in pairs {
        if key != "rephrase" {
            // Other metadata is the agent's own business (the reference engine
            // stamps it onto the delivered event); utter carries no meaning for it.
            continue;
        }
        match value.as_scalar().map(|s| s.resolve()) {
            Some(Resolved::Bool(b)) => rephrase = b,
            _ => {
                let written = value.as_scalar().map(|s| s.value.as_str()).unwrap_or("");
                let fix = match written.to_ascii_lowercase().as_str() {
                    "yes" | "on" | "y" | "\"true\"" | "true" => Some("true"),
                    "no" | "off" | "n" | "\"false\"" | "false" => Some("false"),
                    _ => None,
                };
                let hint = fix.map_or(String::new(), |b| format!(" (write `{b}`)"));
                cx.report_in(
                    codes::INVALID_REPHRASE,
                    Severity::Error,
                    value.span.clone(),
                    response,
                    Some(index),
                    format!(
                        "`metadata.rephrase` must be a boolean (`true` or `false`), found {}{hint}",
                        value.describe()
                    ),
                );
                // The fix as a machine-applicable replacement (editor quick
                // fix, SARIF `fixes`), or the choice in words.
                match fix {
                    Some(b) => cx.suggest(Some(b)),
                    None => cx.help("write `true` (a model may rephrase this variant) or `false`"),
                }
            }
        }
    }
    rephrase
}

/// The response names of a `responses.yml` that does not parse, as far as
/// its lines show them: the keys indented once under a top-level
/// `responses:`. Used to avoid follow-on errors, never to deliver.
pub fn recover_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_responses = false;
    let mut indent = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let depth = line.len() - trimmed.len();
        if depth == 0 {
            in_responses = line.trim_end() == "responses:";
            indent = None;
            continue;
        }
        if !in_responses || depth != *indent.get_or_insert(depth) {
            continue;
        }
        if let Some((key, _)) = trimmed.split_once(':')
            && !key.is_empty()
            && !key.starts_with(['-', '"', '\'', '[', '{', '?', '&', '*'])
            && !key.contains(char::is_whitespace)
        {
            names.push(key.to_owned());
        }
    }
    names
}

#[cfg(test)]
mod recover_tests {
    #[test]
    fn names_under_responses_are_recovered_from_a_broken_file() {
        let text = "version: '1'\nresponses:\n  utter_a:\n    - text: a\n  # note\n  utter_b: [\n      - broken\n   utter_c:\nother:\n  utter_d: x\n";
        assert_eq!(super::recover_names(text), ["utter_a", "utter_b"]);
    }
}
