//! YAML 1.2 into a small node tree with byte spans, built from saphyr-parser
//! events by an explicit stack (no recursion), with limits on nesting depth
//! and alias expansion so no document can exhaust the stack or memory.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

mod node;

pub use node::{Node, NodeKind, Resolved, Scalar, Style};

/// Deepest nesting of sequences and mappings accepted.
pub const MAX_DEPTH: usize = 128;
/// Most nodes a document may expand to, aliases included ("billion laughs").
pub const MAX_NODES: usize = 250_000;

/// A document that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// Where, as a byte range.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// What kind of problem.
    pub kind: YamlErrorKind,
}

/// What kind of problem a [`YamlError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YamlErrorKind {
    /// Not valid YAML.
    Syntax,
    /// Valid, but over a limit (nesting, size, aliases).
    Limit,
    /// Valid YAML utter does not accept (a second document, a custom tag).
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
/// See [`PROJECT_MAX_NODES`].
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

    /// What was spent from `self` to leave `after`.
    pub(crate) fn spent_to(self, after: YamlBudget) -> YamlBudget {
        YamlBudget {
            nodes: self.nodes - after.nodes,
            bytes: self.bytes - after.bytes,
        }
    }

    /// Whether no spend was refused: something is left of both.
    pub(crate) fn is_left(self) -> bool {
        self.nodes > 0 && self.bytes > 0
    }

    /// Takes `spent` again (work replayed from an earlier check) when more
    /// than it is left of both, as when it was first spent; false, and
    /// nothing taken, otherwise.
    pub(crate) fn replay(&mut self, spent: YamlBudget) -> bool {
        if self.nodes > spent.nodes && self.bytes > spent.bytes {
            self.nodes -= spent.nodes;
            self.bytes -= spent.bytes;
            true
        } else {
            false
        }
    }

    /// Takes what a document costs; false (and nothing left) when it is
    /// more than what is left.
    pub(crate) fn take(&mut self, cost: YamlBudget) -> bool {
        self.spend(cost.nodes, cost.bytes)
    }

    /// The cost of one document made of `parts`, parsed as documents of
    /// their own, that share `shared` nodes (each part's root stands for
    /// one node of the whole).
    pub(crate) fn sum(parts: impl IntoIterator<Item = YamlBudget>, shared: usize) -> YamlBudget {
        let mut total = YamlBudget { nodes: 0, bytes: 0 };
        for part in parts {
            total.nodes += part.nodes;
            total.bytes += part.bytes;
        }
        total.nodes = total.nodes.saturating_sub(shared);
        total
    }

    /// A cost of `nodes` nodes and `bytes` bytes.
    pub(crate) fn of(nodes: usize, bytes: usize) -> YamlBudget {
        YamlBudget { nodes, bytes }
    }

    /// This cost without `part` of it.
    pub(crate) fn less(self, part: YamlBudget) -> YamlBudget {
        YamlBudget {
            nodes: self.nodes.saturating_sub(part.nodes),
            bytes: self.bytes.saturating_sub(part.bytes),
        }
    }

    /// The nodes, copies included.
    pub(crate) fn nodes(self) -> usize {
        self.nodes
    }

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
    let mut tree = TreeBuilder::default();
    while let Some(item) = parser.next_event() {
        let (event, span) = item.map_err(|e| scan_error(&index, &e))?;
        let at = index.span(&span);
        let finished = tree.event(event, at.clone())?;
        if tree.nodes > MAX_NODES {
            return Err(YamlError {
                span: at,
                message: format!("the document has more than {MAX_NODES} nodes"),
                kind: YamlErrorKind::Limit,
            });
        }
        if let Some((node, anchor)) = finished {
            tree.attach(node, anchor)?;
        }
    }
    let TreeBuilder {
        root,
        nodes,
        copied,
        bytes,
        ..
    } = tree;
    Ok(root.map(|root| (root, nodes + copied, bytes)))
}

/// A scanner error as a finding's error: a nesting limit or a syntax error.
fn scan_error(index: &CharIndex<'_>, e: &saphyr_parser::ScanError) -> YamlError {
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
}

/// The tree of one document as its events arrive, and what it has cost.
#[derive(Default)]
struct TreeBuilder {
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
    /// Scalar bytes built, aliases expanded.
    bytes: usize,
    /// Nodes copied by storing anchors.
    copied: usize,
    root: Option<Node>,
    documents: usize,
}

impl TreeBuilder {
    /// Takes one event; returns a node it completed, with its anchor id (0: none).
    fn event(
        &mut self,
        event: Event<'_>,
        at: Range<usize>,
    ) -> Result<Option<(Node, usize)>, YamlError> {
        Ok(match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => None,
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
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
                self.nodes += 1;
                self.bytes += value.len();
                let scalar = Scalar {
                    value: value.into_owned(),
                    style,
                    tag,
                };
                Some((
                    Node {
                        span: at,
                        kind: NodeKind::Scalar(scalar),
                    },
                    anchor,
                ))
            }
            Event::Alias(id) => Some((self.alias(id, at)?, 0)),
            Event::SequenceStart(anchor, tag) => {
                collection_tag(tag, "seq", at.clone())?;
                let frame = Frame::Seq {
                    start: at.start,
                    anchor,
                    items: Vec::new(),
                };
                push_frame(&mut self.stack, frame, at)?;
                None
            }
            Event::MappingStart(anchor, tag) => {
                collection_tag(tag, "map", at.clone())?;
                let frame = Frame::Map {
                    start: at.start,
                    anchor,
                    pairs: Vec::new(),
                    key: None,
                };
                push_frame(&mut self.stack, frame, at)?;
                None
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(&at),
        })
    }

    /// A copy of the anchored node, paid for like the original.
    fn alias(&mut self, id: usize, at: Range<usize>) -> Result<Node, YamlError> {
        let Some(target) = self.anchors.get(&id) else {
            return Err(YamlError {
                span: at,
                message: "this alias refers to an unknown anchor".into(),
                kind: YamlErrorKind::Syntax,
            });
        };
        let (target_nodes, target_bytes) = node_size(target);
        self.nodes += target_nodes;
        self.bytes += target_bytes;
        if self.nodes > MAX_NODES || self.bytes > MAX_BYTES {
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
        Ok(copy)
    }

    /// Closes the innermost list or mapping.
    fn close(&mut self, at: &Range<usize>) -> Option<(Node, usize)> {
        self.nodes += 1;
        match self.stack.pop()? {
            Frame::Seq {
                start,
                anchor,
                items,
            } => {
                let end = items.last().map_or(at.end.max(start), |n| n.span.end);
                let node = Node {
                    span: start..end.max(start),
                    kind: NodeKind::Seq(items),
                };
                Some((node, anchor))
            }
            Frame::Map {
                start,
                anchor,
                pairs,
                ..
            } => {
                let end = pairs.last().map_or(at.end.max(start), |(_, v)| v.span.end);
                let node = Node {
                    span: start..end.max(start),
                    kind: NodeKind::Map(pairs),
                };
                Some((node, anchor))
            }
        }
    }

    /// Stores a completed node's anchor and puts the node in its parent.
    fn attach(&mut self, node: Node, anchor: usize) -> Result<(), YamlError> {
        if anchor != 0 {
            // Storing an anchor copies its subtree: nested anchors would
            // copy it again and again, so copies are budgeted too.
            self.copied += node_size(&node).0;
            if self.copied > MAX_NODES {
                return Err(YamlError {
                    span: node.span.clone(),
                    message: format!(
                        "anchors in this document copy more than {MAX_NODES} nodes; \
                         refusing to build it (nested anchors over a large tree?)"
                    ),
                    kind: YamlErrorKind::Limit,
                });
            }
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { pairs, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => pairs.push((k, node)),
            },
        }
        Ok(())
    }
}

/// Parses a document embedded at byte `offset` of a larger file (a skill.md
/// frontmatter or block): spans are shifted to index the whole file. What
/// it expands to is taken from `budget`.
pub fn parse_embedded(
    text: &str,
    offset: usize,
    budget: &mut YamlBudget,
) -> Result<Option<Node>, YamlError> {
    match parse_counted(text, offset) {
        Ok(None) => Ok(None),
        Ok(Some((root, cost))) => {
            // Every document of a project draws on one budget.
            if !budget.take(cost) {
                return Err(over_budget(offset));
            }
            Ok(Some(root))
        }
        Err(e) => Err(e),
    }
}

/// The error of a document the project's budget cannot pay for.
pub(crate) fn over_budget(offset: usize) -> YamlError {
    YamlError {
        span: offset..offset,
        message: format!(
            "the project's YAML expands past {PROJECT_MAX_NODES} nodes or {PROJECT_MAX_BYTES} bytes in all; \
             refusing to read more of it (alias bombs spread over many files or blocks?)"
        ),
        kind: YamlErrorKind::Limit,
    }
}

/// [`parse_embedded`] without paying: the tree, spans shifted by `offset`,
/// and what it costs (nodes, copies included, and bytes).
pub(crate) fn parse_counted(
    text: &str,
    offset: usize,
) -> Result<Option<(Node, YamlBudget)>, YamlError> {
    match parse_sized(text) {
        Ok(None) => Ok(None),
        Ok(Some((mut root, nodes, bytes))) => {
            root.move_spans(0, offset);
            Ok(Some((root, YamlBudget { nodes, bytes })))
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
mod tests;
