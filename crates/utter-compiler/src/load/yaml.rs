//! YAML 1.2 into a small node tree with byte spans, built from saphyr-parser
//! events by an explicit stack (no recursion), with limits on nesting depth
//! and alias expansion so no document can exhaust the stack or memory.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

/// Deepest nesting of sequences and mappings accepted.
pub const MAX_DEPTH: usize = 128;
/// Most nodes a document may expand to, aliases included ("billion laughs").
pub const MAX_NODES: usize = 250_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    pub value: String,
    pub style: Style,
    /// A core-schema tag's suffix (`str`, `int`, ...), if tagged.
    pub tag: Option<String>,
}

/// What a scalar means under the YAML 1.2 core schema.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
}

impl Scalar {
    /// Resolves the scalar by the core schema: only plain scalars (or explicit
    /// tags) are typed; quoted and block scalars are always strings.
    pub fn resolve(&self) -> Resolved<'_> {
        let v = self.value.as_str();
        match self.tag.as_deref() {
            Some("str") => return Resolved::Str(v),
            Some("null") => return Resolved::Null,
            Some("bool") | Some("int") | Some("float") => return resolve_plain(v),
            _ => {}
        }
        if self.style != Style::Plain {
            return Resolved::Str(v);
        }
        resolve_plain(v)
    }

    /// The name of the scalar's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.resolve() {
            Resolved::Null => "null",
            Resolved::Bool(_) => "a boolean",
            Resolved::Int(_) => "an integer",
            Resolved::Float(_) => "a float",
            Resolved::Str(_) => "a string",
        }
    }
}

fn resolve_plain(v: &str) -> Resolved<'_> {
    match v {
        "" | "~" | "null" | "Null" | "NULL" => return Resolved::Null,
        "true" | "True" | "TRUE" => return Resolved::Bool(true),
        "false" | "False" | "FALSE" => return Resolved::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Resolved::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return Resolved::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Resolved::Float(f64::NAN),
        _ => {}
    }
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return v.parse().map_or(Resolved::Str(v), Resolved::Int);
    }
    if let Some(hex) = v.strip_prefix("0x")
        && !hex.is_empty()
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return i64::from_str_radix(hex, 16).map_or(Resolved::Str(v), Resolved::Int);
    }
    if let Some(oct) = v.strip_prefix("0o")
        && !oct.is_empty()
        && oct.bytes().all(|b| (b'0'..=b'7').contains(&b))
    {
        return i64::from_str_radix(oct, 8).map_or(Resolved::Str(v), Resolved::Int);
    }
    if is_core_float(digits)
        && let Ok(f) = v.parse::<f64>()
    {
        return Resolved::Float(f);
    }
    Resolved::Str(v)
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?` (sign stripped).
fn is_core_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Byte range in the source (quotes included for quoted scalars).
    pub span: Range<usize>,
    pub kind: NodeKind,
}

impl Node {
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.kind {
            NodeKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// A short description of the node's kind, for messages.
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            NodeKind::Scalar(s) => s.type_name(),
            NodeKind::Seq(_) => "a list",
            NodeKind::Map(_) => "a mapping",
        }
    }

    /// The byte offset in the source of character `offset` of a scalar's value,
    /// when the value appears verbatim in the source (plain or quoted without
    /// escapes on one line); else the start of the node.
    pub fn value_offset(&self, source: &str, offset: usize) -> usize {
        let Some(scalar) = self.as_scalar() else {
            return self.span.start;
        };
        let Some(raw) = source.get(self.span.clone()) else {
            return self.span.start;
        };
        let inner = match scalar.style {
            Style::Plain => Some(raw),
            Style::SingleQuoted => raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')),
            Style::DoubleQuoted => raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')),
            Style::Literal | Style::Folded => None,
        };
        match inner {
            Some(inner) if inner == scalar.value => {
                let lead = raw.len() - inner.len();
                let lead = if scalar.style == Style::Plain {
                    0
                } else {
                    lead / 2
                };
                self.span.start + lead + offset.min(inner.len())
            }
            _ => self.span.start,
        }
    }
}

/// A document that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub span: Range<usize>,
    pub message: String,
    pub kind: YamlErrorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YamlErrorKind {
    Syntax,
    Limit,
    Unsupported,
}

/// Char index → byte offset, by checkpoints every 64 characters.
struct CharIndex<'s> {
    text: &'s str,
    checkpoints: Vec<usize>,
}

impl<'s> CharIndex<'s> {
    fn new(text: &'s str) -> Self {
        let checkpoints = text
            .char_indices()
            .step_by(64)
            .map(|(byte, _)| byte)
            .collect();
        CharIndex { text, checkpoints }
    }

    fn byte(&self, char_index: usize) -> usize {
        let Some(&base) = self.checkpoints.get(char_index / 64) else {
            return self.text.len();
        };
        self.text[base..]
            .char_indices()
            .nth(char_index % 64)
            .map_or(self.text.len(), |(i, _)| base + i)
    }

    fn span(&self, span: &Span) -> Range<usize> {
        let start = self.byte(span.start.index());
        let end = self.byte(span.end.index()).max(start);
        start..end
    }
}

enum Frame {
    Seq {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        start: usize,
        anchor: usize,
        pairs: Vec<(Node, Node)>,
        key: Option<Node>,
    },
}

/// The nodes and scalar bytes of a subtree (what copying it costs).
fn node_size(node: &Node) -> (usize, usize) {
    let (mut nodes, mut bytes) = (0, 0);
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        nodes += 1;
        match &node.kind {
            NodeKind::Scalar(s) => bytes += s.value.len(),
            NodeKind::Seq(items) => pending.extend(items),
            NodeKind::Map(pairs) => pending.extend(pairs.iter().flat_map(|(k, v)| [k, v])),
        }
    }
    (nodes, bytes)
}

/// Most scalar bytes a document may expand to through aliases (twice the
/// largest file): a 4 MB scalar aliased 200,000 times is refused, not built.
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// What all YAML of one project (every file and skill.md block) may expand
/// to, in nodes and bytes: a thousand small bombs cost no more than one.
pub const PROJECT_MAX_NODES: usize = 2_000_000;
pub const PROJECT_MAX_BYTES: usize = 64 * 1024 * 1024;

/// What the YAML of one project may still expand to: every document of a
/// check draws on one budget (the check owns it), so a thousand small
/// bombs cost no more than one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YamlBudget {
    nodes: usize,
    bytes: usize,
}

impl YamlBudget {
    /// A whole project's budget.
    pub const PROJECT: YamlBudget = YamlBudget {
        nodes: PROJECT_MAX_NODES,
        bytes: PROJECT_MAX_BYTES,
    };

    /// Takes `nodes` and `bytes`; false (and nothing left) when they are
    /// more than what is left.
    fn spend(&mut self, nodes: usize, bytes: usize) -> bool {
        match (self.nodes.checked_sub(nodes), self.bytes.checked_sub(bytes)) {
            (Some(n), Some(b)) => {
                (self.nodes, self.bytes) = (n, b);
                true
            }
            _ => {
                (self.nodes, self.bytes) = (0, 0);
                false
            }
        }
    }
}

fn scalar_tag(tag: Option<Cow<'_, Tag>>, at: Range<usize>) -> Result<Option<String>, YamlError> {
    let Some(tag) = tag else { return Ok(None) };
    if tag.is_yaml_core_schema() {
        return match tag.suffix.as_str() {
            s @ ("str" | "int" | "float" | "bool" | "null") => Ok(Some(s.to_owned())),
            other => Err(YamlError {
                span: at,
                message: format!("the tag `!!{other}` is not supported here"),
                kind: YamlErrorKind::Unsupported,
            }),
        };
    }
    if tag.handle == "!" && tag.suffix.is_empty() {
        // The non-specific tag `!` makes a scalar a string.
        return Ok(Some("str".to_owned()));
    }
    Err(YamlError {
        span: at,
        message: format!("the custom tag `{tag}` is not supported"),
        kind: YamlErrorKind::Unsupported,
    })
}

fn collection_tag(
    tag: Option<Cow<'_, Tag>>,
    expected: &str,
    at: Range<usize>,
) -> Result<(), YamlError> {
    match tag {
        None => Ok(()),
        Some(tag) if tag.is_yaml_core_schema() && tag.suffix == expected => Ok(()),
        Some(tag) => Err(YamlError {
            span: at,
            message: format!("the tag `{tag}` is not supported here"),
            kind: YamlErrorKind::Unsupported,
        }),
    }
}

/// Parses one YAML document. `Ok(None)` for an empty stream.
pub fn parse(text: &str) -> Result<Option<Node>, YamlError> {
    Ok(parse_sized(text)?.map(|(root, _, _)| root))
}

/// [`parse`], with what the document cost: nodes (copies included) and bytes.
fn parse_sized(text: &str) -> Result<Option<(Node, usize, usize)>, YamlError> {
    let index = CharIndex::new(text);
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut nodes = 0usize;
    // Scalar bytes built, aliases expanded; and what storing anchors copied.
    let mut bytes = 0usize;
    let mut copied = 0usize;
    let mut root: Option<Node> = None;
    let mut documents = 0usize;

    while let Some(item) = parser.next_event() {
        let (event, span) = item.map_err(|e| {
            let at = index.byte(e.marker().index());
            // The scanner has its own nesting limit for flow collections.
            if e.info().contains("recursion limit") {
                return YamlError {
                    span: at..at,
                    message: "lists and mappings are nested too deeply".into(),
                    kind: YamlErrorKind::Limit,
                };
            }
            YamlError {
                span: at..at,
                message: e.info().to_owned(),
                kind: YamlErrorKind::Syntax,
            }
        })?;
        let at = index.span(&span);
        let finished: Option<(Node, usize)> = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => None,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(YamlError {
                        span: at,
                        message:
                            "a second YAML document starts here; the file must hold one document"
                                .into(),
                        kind: YamlErrorKind::Unsupported,
                    });
                }
                None
            }
            Event::Scalar(value, style, anchor, tag) => {
                let tag = scalar_tag(tag, at.clone())?;
                let style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted => Style::SingleQuoted,
                    ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                };
                nodes += 1;
                bytes += value.len();
                Some((
                    Node {
                        span: at,
                        kind: NodeKind::Scalar(Scalar {
                            value: value.into_owned(),
                            style,
                            tag,
                        }),
                    },
                    anchor,
                ))
            }
            Event::Alias(id) => {
                let Some(target) = anchors.get(&id) else {
                    return Err(YamlError {
                        span: at,
                        message: "this alias refers to an unknown anchor".into(),
                        kind: YamlErrorKind::Syntax,
                    });
                };
                let (target_nodes, target_bytes) = node_size(target);
                nodes += target_nodes;
                bytes += target_bytes;
                if nodes > MAX_NODES || bytes > MAX_BYTES {
                    return Err(YamlError {
                        span: at,
                        message: format!(
                            "aliases expand this document past {MAX_NODES} nodes or {MAX_BYTES} bytes; \
                             refusing to expand it (an alias bomb?)"
                        ),
                        kind: YamlErrorKind::Limit,
                    });
                }
                let mut copy = target.clone();
                copy.span = at;
                Some((copy, 0))
            }
            Event::SequenceStart(anchor, tag) => {
                collection_tag(tag, "seq", at.clone())?;
                push_frame(
                    &mut stack,
                    Frame::Seq {
                        start: at.start,
                        anchor,
                        items: Vec::new(),
                    },
                    at,
                )?;
                None
            }
            Event::MappingStart(anchor, tag) => {
                collection_tag(tag, "map", at.clone())?;
                push_frame(
                    &mut stack,
                    Frame::Map {
                        start: at.start,
                        anchor,
                        pairs: Vec::new(),
                        key: None,
                    },
                    at,
                )?;
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                nodes += 1;
                match stack.pop() {
                    Some(Frame::Seq {
                        start,
                        anchor,
                        items,
                    }) => {
                        let end = items.last().map_or(at.end.max(start), |n| n.span.end);
                        Some((
                            Node {
                                span: start..end.max(start),
                                kind: NodeKind::Seq(items),
                            },
                            anchor,
                        ))
                    }
                    Some(Frame::Map {
                        start,
                        anchor,
                        pairs,
                        ..
                    }) => {
                        let end = pairs.last().map_or(at.end.max(start), |(_, v)| v.span.end);
                        Some((
                            Node {
                                span: start..end.max(start),
                                kind: NodeKind::Map(pairs),
                            },
                            anchor,
                        ))
                    }
                    None => None,
                }
            }
        };
        if nodes > MAX_NODES {
            return Err(YamlError {
                span: index.span(&span),
                message: format!("the document has more than {MAX_NODES} nodes"),
                kind: YamlErrorKind::Limit,
            });
        }
        let Some((node, anchor)) = finished else {
            continue;
        };
        if anchor != 0 {
            // Storing an anchor copies its subtree: nested anchors would
            // copy it again and again, so copies are budgeted too.
            copied += node_size(&node).0;
            if copied > MAX_NODES {
                return Err(YamlError {
                    span: node.span.clone(),
                    message: format!(
                        "anchors in this document copy more than {MAX_NODES} nodes; \
                         refusing to build it (nested anchors over a large tree?)"
                    ),
                    kind: YamlErrorKind::Limit,
                });
            }
            anchors.insert(anchor, node.clone());
        }
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { pairs, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => pairs.push((k, node)),
            },
        }
    }
    Ok(root.map(|root| (root, nodes + copied, bytes)))
}

/// Parses a document embedded at byte `offset` of a larger file (a skill.md
/// frontmatter or block): spans are shifted to index the whole file. What
/// it expands to is taken from `budget`.
pub fn parse_embedded(
    text: &str,
    offset: usize,
    budget: &mut YamlBudget,
) -> Result<Option<Node>, YamlError> {
    fn shift(node: &mut Node, offset: usize) {
        node.span = node.span.start + offset..node.span.end + offset;
        match &mut node.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Seq(items) => items.iter_mut().for_each(|n| shift(n, offset)),
            NodeKind::Map(pairs) => pairs.iter_mut().for_each(|(k, v)| {
                shift(k, offset);
                shift(v, offset);
            }),
        }
    }
    match parse_sized(text) {
        Ok(None) => Ok(None),
        Ok(Some((mut root, nodes, bytes))) => {
            // Every document of a project draws on one budget.
            if !budget.spend(nodes, bytes) {
                return Err(YamlError {
                    span: offset..offset,
                    message: format!(
                        "the project's YAML expands past {PROJECT_MAX_NODES} nodes or {PROJECT_MAX_BYTES} bytes in all; \
                         refusing to read more of it (alias bombs spread over many files or blocks?)"
                    ),
                    kind: YamlErrorKind::Limit,
                });
            }
            shift(&mut root, offset);
            Ok(Some(root))
        }
        Err(mut e) => {
            e.span = e.span.start + offset..e.span.end + offset;
            Err(e)
        }
    }
}

fn push_frame(stack: &mut Vec<Frame>, frame: Frame, at: Range<usize>) -> Result<(), YamlError> {
    if stack.len() >= MAX_DEPTH {
        return Err(YamlError {
            span: at,
            message: format!("lists and mappings are nested deeper than {MAX_DEPTH} levels"),
            kind: YamlErrorKind::Limit,
        });
    }
    stack.push(frame);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(node: &Node) -> &str {
        &node.as_scalar().unwrap().value
    }

    #[test]
    fn spans_are_bytes() {
        let text = "é: \"héllo\"\nk: v\n";
        let root = parse(text).unwrap().unwrap();
        let NodeKind::Map(pairs) = &root.kind else {
            panic!()
        };
        assert_eq!(&text[pairs[0].1.span.clone()], "\"héllo\"");
        assert_eq!(scalar(&pairs[1].0), "k");
        assert_eq!(&text[pairs[1].1.span.clone()], "v");
        assert_eq!(pairs[0].1.value_offset(text, 1), text.find("éllo").unwrap());
    }

    #[test]
    fn core_schema_is_yaml_1_2() {
        let root = parse("[yes, no, on, true, ~, 1.5, 0x1F, '1', 1e3, .inf, 12abc]")
            .unwrap()
            .unwrap();
        let NodeKind::Seq(items) = root.kind else {
            panic!()
        };
        let got: Vec<_> = items
            .iter()
            .map(|n| format!("{:?}", n.as_scalar().unwrap().resolve()))
            .collect();
        assert_eq!(
            got,
            [
                "Str(\"yes\")",
                "Str(\"no\")",
                "Str(\"on\")",
                "Bool(true)",
                "Null",
                "Float(1.5)",
                "Int(31)",
                "Str(\"1\")",
                "Float(1000.0)",
                "Float(inf)",
                "Str(\"12abc\")"
            ]
        );
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let err = parse(&text).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::Limit);
    }

    #[test]
    fn alias_bombs_by_bytes_are_refused() {
        // A 1 MB scalar aliased 100 times: few nodes, 100 MB of text.
        let big = "x".repeat(1 << 20);
        let mut text = format!("a: &a {big}\nb: [");
        text.push_str(&vec!["*a"; 100].join(", "));
        text.push_str("]\n");
        let err = parse(&text).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::Limit);
        assert!(err.message.contains("bytes"), "{}", err.message);
    }

    #[test]
    fn nested_anchors_over_a_large_tree_are_refused() {
        let mut tree = format!("[{}]", vec!["x"; 100_000].join(", "));
        for i in 0..40 {
            tree = format!("&n{i} [{tree}]");
        }
        let text = format!("root: {tree}\n");
        let err = parse(&text).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::Limit);
        assert!(err.message.contains("copy"), "{}", err.message);
    }

    #[test]
    fn the_project_budget_spans_documents() {
        let mut budget = YamlBudget::PROJECT;
        let doc = format!("[{}]", vec!["x"; 200_000].join(", "));
        let mut refused = false;
        for _ in 0..20 {
            if parse_embedded(&doc, 0, &mut budget).is_err_and(|e| e.message.contains("in all")) {
                refused = true;
                break;
            }
        }
        assert!(
            refused,
            "twenty documents of 200,000 nodes exceed the project budget"
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "[".repeat(10_000);
        assert!(parse(&text).is_err());
        let text = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(parse(&text).unwrap_err().kind, YamlErrorKind::Limit);
    }

    #[test]
    fn second_documents_and_custom_tags_are_refused() {
        assert!(parse("a: 1\n---\nb: 2\n").is_err());
        assert!(parse("a: !custom 1\n").is_err());
        assert_eq!(parse("").unwrap(), None);
    }
}
