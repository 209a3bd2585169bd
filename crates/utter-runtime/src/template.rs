//! Interpolation of a selected variant's text: one pass over precompiled
//! pieces; substituted values are never scanned again.

use std::borrow::Cow;
use std::fmt::Write;

use crate::memory::{Context, Entry};
use crate::value::{ValueRef, py_str_len_bound, write_py_str};

/// One piece of a variant's text, split at compile time. Generated code holds
/// `Piece<&'static str, &'static [usize]>`; the interpreter owned strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<S = &'static str, C = &'static [usize]> {
    /// Literal text.
    Text(S),
    /// `{session.<ns>.<entry>}`: reads entry `entry` (an id) through the view.
    Session { entry: usize, raw: S },
    /// `{entry}`: the active skill's own entry of that name, else the project
    /// entry; `candidates` are the ids of the declared entries with that name.
    Bare { candidates: C, raw: S },
}

/// What a piece delivers: literal text, or a memory value to format.
enum Resolved<'p, 'v> {
    Text(&'p str),
    Value(ValueRef<'v>),
}

impl<S: AsRef<str>, C: AsRef<[usize]>> Piece<S, C> {
    /// Resolves the piece against the view: its text, the value it reads,
    /// or the placeholder as written (no such entry, or unset without an
    /// `unset_text`).
    fn resolve<'p, 'v, N: AsRef<str>>(
        &'p self,
        entries: &'p [Entry<N>],
        ctx: &'v Context<'_>,
    ) -> Resolved<'p, 'v> {
        let (entry, raw) = match self {
            Piece::Text(text) => return Resolved::Text(text.as_ref()),
            Piece::Session { entry, raw } => (entries.get(*entry), raw),
            Piece::Bare { candidates, raw } => {
                let named = |ns: &str| {
                    candidates
                        .as_ref()
                        .iter()
                        .filter_map(|&id| entries.get(id))
                        .find(|e| e.namespace.as_ref() == ns)
                };
                let own = ctx.skill().and_then(named);
                (own.or_else(|| named("project")), raw)
            }
        };
        let Some(entry) = entry else {
            return Resolved::Text(raw.as_ref());
        };
        let value = ctx.read(entry);
        match (&entry.unset_text, value.is_none()) {
            (_, false) => Resolved::Value(value),
            (Some(text), true) => Resolved::Text(text.as_ref()),
            // Unset or unreadable: left exactly as written.
            (None, true) => Resolved::Text(raw.as_ref()),
        }
    }
}

/// The text of `pieces` when it has no placeholder (no pieces, or one
/// literal): what [`render`] borrows as it is, and what the code generator
/// delivers as a constant.
pub fn literal_text<S: AsRef<str>, C>(pieces: &[Piece<S, C>]) -> Option<&str> {
    match pieces {
        [] => Some(""),
        [Piece::Text(text)] => Some(text.as_ref()),
        _ => None,
    }
}

/// Renders `pieces` for the view. A single literal piece is borrowed as it
/// is; anything else is written into one `String`, allocated once at an
/// upper bound of its length (numbers are formatted only once).
pub fn render<'a, S: AsRef<str>, C: AsRef<[usize]>, N: AsRef<str>>(
    pieces: &'a [Piece<S, C>],
    entries: &[Entry<N>],
    ctx: &Context<'_>,
) -> Cow<'a, str> {
    match literal_text(pieces) {
        Some(text) => Cow::Borrowed(text),
        None => {
            let capacity = pieces
                .iter()
                .map(|piece| match piece.resolve(entries, ctx) {
                    Resolved::Text(text) => text.len(),
                    Resolved::Value(value) => py_str_len_bound(value),
                })
                .sum();
            let mut out = String::with_capacity(capacity);
            for piece in pieces {
                // Writing into a String cannot fail.
                let _ = match piece.resolve(entries, ctx) {
                    Resolved::Text(text) => out.write_str(text),
                    Resolved::Value(value) => write_py_str(&mut out, value),
                };
            }
            Cow::Owned(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{MapMemory, Visibility};
    use crate::value::Value;

    const ENTRIES: [Entry; 3] = [
        Entry {
            id: 0,
            namespace: "card",
            name: "reason",
            visibility: Visibility::Private,
            unset_text: None,
        },
        Entry {
            id: 1,
            namespace: "project",
            name: "reason",
            visibility: Visibility::Project,
            unset_text: None,
        },
        Entry {
            id: 2,
            namespace: "resume",
            name: "task",
            visibility: Visibility::Private,
            unset_text: Some("your previous request"),
        },
    ];

    #[test]
    fn bare_placeholders_prefer_the_active_skill() {
        let memory = MapMemory::new()
            .with("card", "reason", "lost")
            .with("project", "reason", "policy");
        let pieces: [Piece; 2] = [
            Piece::Text("why: "),
            Piece::Bare {
                candidates: &[0, 1],
                raw: "{reason}",
            },
        ];
        let r = |ctx: &Context<'_>| render(&pieces, &ENTRIES, ctx).into_owned();
        assert_eq!(r(&Context::for_skill(&memory, "card")), "why: lost");
        assert_eq!(r(&Context::new(&memory)), "why: policy");
        assert_eq!(r(&Context::for_skill(&memory, "other")), "why: policy");
    }

    #[test]
    fn unset_and_none_are_left_as_written() {
        let memory = MapMemory::new().with("card", "reason", Value::None);
        let pieces: [Piece; 3] = [
            Piece::Session {
                entry: 0,
                raw: "{session.card.reason}",
            },
            Piece::Text("/"),
            Piece::Session {
                entry: 2,
                raw: "{session.resume.task}",
            },
        ];
        assert_eq!(
            render(&pieces, &ENTRIES, &Context::for_skill(&memory, "card")),
            "{session.card.reason}/your previous request"
        );
    }

    #[test]
    fn values_are_never_rescanned() {
        let memory = MapMemory::new().with("project", "reason", "{session.card.reason}");
        let pieces: [Piece; 2] = [
            Piece::Session {
                entry: 1,
                raw: "{session.project.reason}",
            },
            Piece::Text("!"),
        ];
        assert_eq!(
            render(&pieces, &ENTRIES, &Context::new(&memory)),
            "{session.card.reason}!"
        );
    }

    #[test]
    fn literal_text_is_borrowed_and_owned_pieces_work() {
        let memory = MapMemory::new().with("project", "reason", 2.5);
        let pieces: [Piece; 1] = [Piece::Text("hello")];
        assert!(matches!(
            render(&pieces, &ENTRIES, &Context::new(&memory)),
            Cow::Borrowed("hello")
        ));
        let owned: Vec<Piece<String, Vec<usize>>> = vec![
            Piece::Text("x=".to_owned()),
            Piece::Bare {
                candidates: vec![1],
                raw: "{reason}".to_owned(),
            },
        ];
        assert_eq!(render(&owned, &ENTRIES, &Context::new(&memory)), "x=2.5");
    }
}
