//! A variant's text as the compiler splits it: literal pieces and
//! placeholders, and what follows from them alone (a literal text, the
//! capacity to render into). A leaf: rendering (`template`) and the program
//! format (`program`) both build on it.

use crate::format::LONGEST_NUMBER;

/// One piece of a variant's text, split at compile time. Generated code holds
/// `Piece<&'static str, &'static [usize]>`; the interpreter owned strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<S = &'static str, C = &'static [usize]> {
    /// Literal text.
    Text(S),
    /// `{session.<ns>.<entry>}`: reads entry `entry` (an id) through the view.
    Session {
        /// The entry's id.
        entry: usize,
        /// The placeholder as written (delivered when nothing fills it).
        raw: S,
    },
    /// `{entry}`: the active skill's own entry of that name, else the project
    /// entry; `candidates` are the ids of the declared entries with that name.
    Bare {
        /// The ids of the declared entries with that name.
        candidates: C,
        /// The placeholder as written (delivered when nothing fills it).
        raw: S,
    },
}

/// One variant of a compiled response.
pub struct Variant {
    /// Its text, split into pieces.
    pub pieces: &'static [Piece],
    /// The text when it has no placeholder: delivered without rendering.
    pub literal: Option<&'static str>,
    /// Its `metadata.rephrase`.
    pub rephrase: bool,
    /// The id of its reviewed wording.
    pub wording: crate::WordingId,
    /// The capacity a rendered text starts with: its literal bytes plus
    /// the longest number per placeholder (longer strings grow it).
    pub capacity: usize,
    /// When the text has placeholders: the number of its shape's generated
    /// writer (see `writer::Writer`), and the texts that writer writes.
    pub writer: Option<(usize, &'static [&'static str])>,
}

/// The text of `pieces` when it has no placeholder (no pieces, or one
/// literal): what [`render`](crate::render) borrows as it is, and what the code generator
/// delivers as a constant.
pub fn literal_text<S: AsRef<str>, C>(pieces: &[Piece<S, C>]) -> Option<&str> {
    match pieces {
        [] => Some(""),
        [Piece::Text(text)] => Some(text.as_ref()),
        _ => None,
    }
}

/// The capacity a rendered text's `String` starts with: its literal bytes
/// and the longest number (24 bytes, `-2.2250738585072014e-308`) per
/// placeholder; a longer string value grows it. The one rule every form of
/// rendering sizes its buffer by.
pub fn text_capacity<S: AsRef<str>, C>(pieces: &[Piece<S, C>]) -> usize {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => text.as_ref().len(),
            Piece::Session { .. } | Piece::Bare { .. } => LONGEST_NUMBER,
        })
        .sum()
}
