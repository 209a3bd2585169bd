//! Interpolation of a selected variant's text: one pass over precompiled
//! pieces; substituted values are never scanned again.

use std::borrow::Cow;
use std::fmt::{self, Write};

use crate::memory::{Context, Entry};
use crate::value::{ValueRef, write_py_str};

/// One piece of a variant's text, split at compile time.
#[derive(Clone, Copy, Debug)]
pub enum Piece<'a> {
    /// Literal text.
    Text(&'a str),
    /// `{session.<ns>.<entry>}`: read through the active view.
    Session { entry: &'a Entry<'a>, raw: &'a str },
    /// `{entry}`: the active skill's own entry of that name, else the project
    /// entry. `candidates` are the declared entries with that name.
    Bare {
        candidates: &'a [&'a Entry<'a>],
        raw: &'a str,
    },
}

impl<'a> Piece<'a> {
    fn value<'m>(&self, ctx: &Context<'m>) -> Option<(ValueRef<'m>, &'a Entry<'a>)> {
        let entry: &'a Entry<'a> = match *self {
            Piece::Text(_) => return None,
            Piece::Session { entry, .. } => entry,
            Piece::Bare { candidates, .. } => {
                let own = ctx
                    .skill()
                    .and_then(|skill| candidates.iter().find(|e| e.namespace == skill));
                *own.or_else(|| candidates.iter().find(|e| e.namespace == "project"))?
            }
        };
        Some((ctx.read(entry), entry))
    }

    fn write_to(&self, out: &mut impl Write, ctx: &Context<'_>) -> fmt::Result {
        let raw = match *self {
            Piece::Text(text) => return out.write_str(text),
            Piece::Session { raw, .. } | Piece::Bare { raw, .. } => raw,
        };
        match self.value(ctx) {
            Some((value, _)) if !value.is_none() => write_py_str(out, value),
            Some((
                _,
                Entry {
                    unset_text: Some(text),
                    ..
                },
            )) => out.write_str(text),
            // Unset, unreadable or undeclared: left exactly as written.
            _ => out.write_str(raw),
        }
    }
}

/// Counts bytes instead of storing them, to size the output exactly.
struct Counter(usize);

impl Write for Counter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// Fills the placeholders of `pieces` from `ctx`. A text without placeholders
/// is borrowed (no allocation); otherwise the result is built in exactly one
/// allocation (its length is measured first).
pub fn render<'a>(pieces: &'a [Piece<'a>], ctx: &Context<'_>) -> Cow<'a, str> {
    match pieces {
        [] => Cow::Borrowed(""),
        [Piece::Text(text)] => Cow::Borrowed(text),
        _ => {
            let mut counter = Counter(0);
            for piece in pieces {
                // Counting cannot fail.
                let _ = piece.write_to(&mut counter, ctx);
            }
            let mut out = String::with_capacity(counter.0);
            for piece in pieces {
                // Writing into a String cannot fail.
                let _ = piece.write_to(&mut out, ctx);
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

    const OWN: Entry<'static> = Entry {
        id: 0,
        namespace: "card",
        name: "reason",
        visibility: Visibility::Private,
        unset_text: None,
    };
    const PROJECT: Entry<'static> = Entry {
        id: 1,
        namespace: "project",
        name: "reason",
        visibility: Visibility::Project,
        unset_text: None,
    };
    const TASK: Entry<'static> = Entry {
        id: 2,
        namespace: "resume",
        name: "task",
        visibility: Visibility::Private,
        unset_text: Some("your previous request"),
    };

    #[test]
    fn bare_placeholders_prefer_the_active_skill() {
        let memory = MapMemory::new()
            .with("card", "reason", "lost")
            .with("project", "reason", "policy");
        let pieces = [
            Piece::Text("why: "),
            Piece::Bare {
                candidates: &[&OWN, &PROJECT],
                raw: "{reason}",
            },
        ];
        assert_eq!(
            render(&pieces, &Context::for_skill(&memory, "card")),
            "why: lost"
        );
        assert_eq!(render(&pieces, &Context::new(&memory)), "why: policy");
        assert_eq!(
            render(&pieces, &Context::for_skill(&memory, "other")),
            "why: policy"
        );
    }

    #[test]
    fn unset_and_none_are_left_as_written() {
        let memory = MapMemory::new().with("card", "reason", Value::None);
        let pieces = [
            Piece::Session {
                entry: &OWN,
                raw: "{session.card.reason}",
            },
            Piece::Text("/"),
            Piece::Session {
                entry: &TASK,
                raw: "{session.resume.task}",
            },
        ];
        assert_eq!(
            render(&pieces, &Context::for_skill(&memory, "card")),
            "{session.card.reason}/your previous request"
        );
    }

    #[test]
    fn values_are_never_rescanned() {
        let memory = MapMemory::new().with("project", "reason", "{session.card.reason}");
        let pieces = [
            Piece::Session {
                entry: &PROJECT,
                raw: "{session.project.reason}",
            },
            Piece::Text("!"),
        ];
        assert_eq!(
            render(&pieces, &Context::new(&memory)),
            "{session.card.reason}!"
        );
    }

    #[test]
    fn literal_text_is_borrowed() {
        let memory = MapMemory::new();
        let pieces = [Piece::Text("hello")];
        assert!(matches!(
            render(&pieces, &Context::new(&memory)),
            Cow::Borrowed("hello")
        ));
    }
}
