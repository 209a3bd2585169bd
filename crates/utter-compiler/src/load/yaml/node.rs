//! The node tree a document becomes: scalars with their style and YAML 1.2
//! core-schema resolution, lists and mappings, each with its byte span.

use std::ops::Range;

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `text`.
    Plain,
    /// `'text'`.
    SingleQuoted,
    /// `"text"`.
    DoubleQuoted,
    /// `|` block.
    Literal,
    /// `>` block.
    Folded,
}

/// A scalar as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    /// Its text, unescaped.
    pub value: String,
    /// How it is written.
    pub style: Style,
    /// A core-schema tag's suffix (`str`, `int`, ...), if tagged.
    pub tag: Option<String>,
}

/// What a scalar means under the YAML 1.2 core schema.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved<'a> {
    /// `null`, `~` or empty.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// Anything else: a string.
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

/// What a node is.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A scalar.
    Scalar(Scalar),
    /// A list.
    Seq(Vec<Node>),
    /// A mapping, its pairs in order.
    Map(Vec<(Node, Node)>),
}

/// A node of the tree, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Byte range in the source (quotes included for quoted scalars).
    pub span: Range<usize>,
    /// What it is.
    pub kind: NodeKind,
}

impl Node {
    /// This node and every node in it, their spans moved from a text at
    /// byte `from` to the same text at byte `to`.
    pub(crate) fn move_spans(&mut self, from: usize, to: usize) {
        self.span = crate::diagnostics::moved(&self.span, from, to);
        match &mut self.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Seq(items) => items.iter_mut().for_each(|n| n.move_spans(from, to)),
            NodeKind::Map(pairs) => pairs.iter_mut().for_each(|(k, v)| {
                k.move_spans(from, to);
                v.move_spans(from, to);
            }),
        }
    }

    /// The scalar, if it is one.
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

    /// The span in the source of `span` inside a scalar's value, as exactly
    /// as the source allows: by offset where the value appears verbatim
    /// (plain, or quoted without escapes, on one line); else, in any style
    /// (a `|` or `>` block, escapes, folded lines), where the same text
    /// stands in the source, when the source holds it as many times as the
    /// value does (the n-th in the value is the n-th in the source); else
    /// the whole scalar.
    pub fn subspan(&self, source: &str, span: &Range<usize>) -> Range<usize> {
        let start = self.value_offset(source, span.start);
        let end = self.value_offset(source, span.end);
        let verbatim = !(start == self.span.start && span.start != 0) && end > start;
        if verbatim {
            return start..end;
        }
        self.by_occurrence(source, span)
            .unwrap_or_else(|| self.span.clone())
    }

    /// `span` of the value found by its text in the source (see
    /// [`Node::subspan`]).
    fn by_occurrence(&self, source: &str, span: &Range<usize>) -> Option<Range<usize>> {
        let value = &self.as_scalar()?.value;
        let target = value.get(span.clone()).filter(|t| !t.is_empty())?;
        let raw = source.get(self.span.clone())?;
        let nth = value
            .match_indices(target)
            .position(|(at, _)| at == span.start)?;
        let in_raw: Vec<usize> = raw.match_indices(target).map(|(at, _)| at).collect();
        if in_raw.len() != value.match_indices(target).count() {
            return None;
        }
        let at = self.span.start + in_raw[nth];
        Some(at..at + target.len())
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
