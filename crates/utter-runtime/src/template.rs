//! Interpolation of a selected variant's text: one pass over precompiled
//! pieces; substituted values are never scanned again.

use std::borrow::Cow;
use std::fmt::{self, Write};

use crate::memory::{Context, Entry};
use crate::value::write_py_str;

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

impl<S: AsRef<str>, C: AsRef<[usize]>> Piece<S, C> {
    fn write_to<N: AsRef<str>>(
        &self,
        out: &mut impl Write,
        entries: &[Entry<N>],
        ctx: &Context<'_>,
    ) -> fmt::Result {
        let (entry, raw) = match self {
            Piece::Text(text) => return out.write_str(text.as_ref()),
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
            return out.write_str(raw.as_ref());
        };
        let value = ctx.read(entry);
        match (&entry.unset_text, value.is_none()) {
            (_, false) => write_py_str(out, value),
            (Some(text), true) => out.write_str(text.as_ref()),
            // Unset or unreadable: left exactly as written.
            (None, true) => out.write_str(raw.as_ref()),
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
pub fn render<'a, S: AsRef<str>, C: AsRef<[usize]>, N: AsRef<str>>(
    pieces: &'a [Piece<S, C>],
    entries: &[Entry<N>],
    ctx: &Context<'_>,
) -> Cow<'a, str> {
    match pieces {
        [] => Cow::Borrowed(""),
        [Piece::Text(text)] => Cow::Borrowed(text.as_ref()),
        _ => {
            let mut counter = Counter(0);
            for piece in pieces {
                // Counting cannot fail.
                let _ = piece.write_to(&mut counter, entries, ctx);
            }
            let mut out = String::with_capacity(counter.0);
            for piece in pieces {
                // Writing into a String cannot fail.
                let _ = piece.write_to(&mut out, entries, ctx);
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
