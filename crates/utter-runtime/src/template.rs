//! Interpolation of a selected variant's text: one pass over precompiled
//! pieces; substituted values are never scanned again.

use std::borrow::Cow;
use std::fmt::{self, Write};

use crate::delivery::Delivery;
use crate::guard::{FactGuard, filled_values};
use crate::memory::{Entry, Reader};
use crate::piece::{Piece, Variant, literal_text, text_capacity};
use crate::program::{Choice, CompactVariant, Program};
use crate::resolve::{Resolved, bare_entry, resolve_entry};
use crate::writer::{Out, Writer, written};

impl<S: AsRef<str>, C: AsRef<[usize]>> Piece<S, C> {
    /// Resolves the piece against the view.
    fn resolve<'p, 'v, N: AsRef<str>, V, R: Reader>(
        &'p self,
        entries: &'p [Entry<N, V>],
        ctx: &'v R,
    ) -> Resolved<'p, 'v> {
        match self {
            Piece::Text(text) => Resolved::Text(text.as_ref()),
            Piece::Session { entry, raw } => resolve_entry(entries.get(*entry), raw.as_ref(), ctx),
            Piece::Bare { candidates, raw } => {
                let entry = bare_entry(candidates.as_ref().iter().copied(), entries, ctx);
                resolve_entry(entry, raw.as_ref(), ctx)
            }
        }
    }
}

/// Renders `pieces` for the view. A single literal piece is borrowed as it
/// is; anything else is written in one pass into one `String` of
/// [`text_capacity`] (measured faster than resolving every piece first to
/// size the buffer exactly; every piece is resolved once).
pub fn render<'a, S: AsRef<str>, C: AsRef<[usize]>, N: AsRef<str>, V, R: Reader>(
    pieces: &'a [Piece<S, C>],
    entries: &[Entry<N, V>],
    ctx: &R,
) -> Cow<'a, str> {
    match literal_text(pieces) {
        Some(text) => Cow::Borrowed(text),
        None => {
            let mut out = String::with_capacity(text_capacity(pieces));
            // Writing into a String cannot fail.
            let _ = write_pieces(&mut out, pieces, entries, ctx);
            Cow::Owned(out)
        }
    }
}

/// Writes `pieces` for the view into `out`, piece by piece: no allocation.
/// The fact guard of a rephrased variant's delivery: the values `pieces`
/// fill in from `ctx`. Out of line: only a rephrased text with
/// placeholders pays for it.
#[inline(never)]
pub(crate) fn fact_guard<S: AsRef<str>, C: AsRef<[usize]>, N: AsRef<str>, V, R: Reader>(
    pieces: &[Piece<S, C>],
    entries: &[Entry<N, V>],
    ctx: &R,
) -> FactGuard {
    FactGuard::On {
        filled: filled_values(pieces.iter().map(|p| p.resolve(entries, ctx))),
    }
}

pub fn write_pieces<S: AsRef<str>, C: AsRef<[usize]>, N: AsRef<str>, V, R: Reader>(
    out: &mut impl Write,
    pieces: &[Piece<S, C>],
    entries: &[Entry<N, V>],
    ctx: &R,
) -> fmt::Result {
    for piece in pieces {
        piece.resolve(entries, ctx).write(out)?;
    }
    Ok(())
}

/// A selected response, not yet rendered: `Display` (or
/// [`Rendered::write_to`]) writes its text straight from memory into the
/// caller's buffer, so a reused `String` makes delivery allocation-free.
pub struct Rendered<'r, R> {
    /// The response's name.
    pub response: &'static str,
    /// The selected variant (0-based, YAML order); `None` for the fail-closed name.
    pub variant: Option<usize>,
    /// Whether the selected variant asks to be reworded.
    pub rephrase: bool,
    /// The id of the selected variant's reviewed wording (`None` for the
    /// fail-closed name).
    pub wording: Option<crate::WordingId>,
    body: Body<R>,
    entries: &'static [Entry],
    reader: &'r R,
}

/// What a [`Rendered`] writes.
enum Body<R> {
    /// Text without placeholders (also the fail-closed name).
    Literal(&'static str),
    /// Pieces of straight-line generated code.
    Pieces(&'static [Piece]),
    /// A variant's generated writer (straight-line code), the variant's
    /// capacity, and its pieces (for the facts a rephrase must keep).
    Written(Writer<R>, usize, &'static [Piece]),
    /// A variant of a compact (table-driven) agent.
    Compact(Program<'static>, CompactVariant),
    /// A text rendered from a reloaded program (development hot reload),
    /// and its fact guard.
    #[cfg(feature = "hot-reload")]
    Owned(String, FactGuard),
}

impl<'r, R: Reader> Rendered<'r, R> {
    #[doc(hidden)]
    pub fn new(
        response: &'static str,
        selected: Option<(usize, &'static Variant, Option<Writer<R>>)>,
        entries: &'static [Entry],
        reader: &'r R,
    ) -> Self {
        let wording = selected.as_ref().map(|(_, v, _)| v.wording);
        let (variant, rephrase, body) = match selected {
            Some((index, v, writer)) => (
                Some(index),
                v.rephrase,
                match (v.literal, writer) {
                    (Some(text), _) => Body::Literal(text),
                    (None, Some(write)) => Body::Written(write, v.capacity, v.pieces),
                    (None, None) => Body::Pieces(v.pieces),
                },
            ),
            // The fail-closed text is the name itself.
            None => (None, false, Body::Literal(response)),
        };
        Rendered {
            response,
            variant,
            rephrase,
            wording,
            body,
            entries,
            reader,
        }
    }

    /// Response number `response` of a compact agent, selected by compiled
    /// code or by the program (see `Program::deliver_selected`).
    #[doc(hidden)]
    pub fn compact_selected(
        program: Program<'static>,
        response: usize,
        compiled: Choice,
        entries: &'static [Entry],
        reader: &'r R,
    ) -> Self {
        let (name, selected) = program.rendered_selected(response, compiled, entries, reader);
        let wording = selected.as_ref().map(|(_, _, v)| v.wording());
        crate::wording::record(
            name,
            selected.as_ref().map(|(index, _, _)| *index),
            wording,
            selected.as_ref().is_some_and(|(_, rephrase, _)| *rephrase),
            reader.skill_id(),
        );
        let (variant, rephrase, body) = match selected {
            Some((index, rephrase, variant)) => (
                Some(index),
                rephrase,
                program
                    .literal_of(variant)
                    .map_or(Body::Compact(program, variant), Body::Literal),
            ),
            None => (None, false, Body::Literal(name)),
        };
        Rendered {
            response: name,
            variant,
            rephrase,
            wording,
            body,
            entries,
            reader,
        }
    }

    /// A selection already rendered into `text` (by a program reloaded in
    /// development, which lives shorter than `'static`).
    #[cfg(feature = "hot-reload")]
    #[doc(hidden)]
    pub fn owned(delivery: Delivery<'static>, entries: &'static [Entry], reader: &'r R) -> Self {
        Rendered {
            response: delivery.response,
            variant: delivery.variant,
            rephrase: delivery.rephrase,
            wording: delivery.wording,
            body: Body::Owned(delivery.text.into_owned(), delivery.guard),
            entries,
            reader,
        }
    }

    /// What a rephrase of this text must keep: the values its placeholders
    /// filled in (collected only when the variant asks to be rephrased).
    fn guard(&self) -> FactGuard {
        if !self.rephrase {
            return FactGuard::default();
        }
        match &self.body {
            Body::Literal(_) => FactGuard::default(),
            Body::Pieces(pieces) | Body::Written(_, _, pieces) => {
                fact_guard(pieces, self.entries, self.reader)
            }
            Body::Compact(program, variant) => FactGuard::On {
                filled: program.filled_values(*variant, self.entries, self.reader),
            },
            #[cfg(feature = "hot-reload")]
            Body::Owned(_, guard) => guard.clone(),
        }
    }

    /// True when the response name is delivered as literal text.
    pub fn fallback(&self) -> bool {
        self.variant.is_none()
    }

    /// Writes the text into `out`.
    #[inline]
    pub fn write_to(&self, out: &mut impl Write) -> fmt::Result {
        match &self.body {
            Body::Literal(text) => out.write_str(text),
            Body::Pieces(pieces) => write_pieces(out, pieces, self.entries, self.reader),
            Body::Written(write, _, _) => {
                let mut out = Out::Any(out);
                write.write(self.reader, &mut out);
                out.result()
            }
            Body::Compact(program, variant) => {
                program.write_variant(out, *variant, self.entries, self.reader)
            }
            #[cfg(feature = "hot-reload")]
            Body::Owned(text, _) => out.write_str(text),
        }
    }

    /// Appends the text to `out`: [`write_to`](Self::write_to) for a
    /// `String`, the fastest way to render into a buffer you reuse (a
    /// generated writer's literal pieces become `push_str` of known
    /// length).
    #[inline]
    pub fn push_to(&self, out: &mut String) {
        // Every arm spelt out, not `write_to` for the rest: a call that
        // needs the whole `Rendered` made the literal case 20 instructions
        // slower (the struct built on the stack). Writing into a String
        // cannot fail.
        match &self.body {
            Body::Literal(text) => out.push_str(text),
            Body::Written(write, _, _) => write.write(self.reader, &mut Out::String(out)),
            Body::Pieces(pieces) => {
                let _ = write_pieces(out, pieces, self.entries, self.reader);
            }
            Body::Compact(program, variant) => {
                let _ = program.write_variant(out, *variant, self.entries, self.reader);
            }
            #[cfg(feature = "hot-reload")]
            Body::Owned(text, _) => out.push_str(text),
        }
    }

    /// The same as a [`Delivery`] (its text borrowed when literal).
    pub fn to_delivery(&self) -> Delivery<'static> {
        match self.variant {
            None => Delivery::fallback(self.response),
            Some(index) => Delivery {
                text: match &self.body {
                    Body::Literal(text) => Cow::Borrowed(text),
                    Body::Pieces(pieces) => render(pieces, self.entries, self.reader),
                    Body::Written(write, capacity, _) => {
                        Cow::Owned(written(*write, self.reader, *capacity))
                    }
                    Body::Compact(program, variant) => {
                        Cow::Owned(program.render_variant(*variant, self.entries, self.reader))
                    }
                    #[cfg(feature = "hot-reload")]
                    Body::Owned(text, _) => Cow::Owned(text.clone()),
                },
                response: self.response,
                variant: Some(index),
                rephrase: self.rephrase,
                fallback: false,
                wording: self.wording,
                guard: self.guard(),
            },
        }
    }
}

impl<R: Reader> fmt::Display for Rendered<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl<R> fmt::Debug for Rendered<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rendered")
            .field("response", &self.response)
            .field("variant", &self.variant)
            .field("rephrase", &self.rephrase)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Context, MapMemory, Visibility};
    use crate::types::EntryType;
    use crate::value::Value;

    const ENTRIES: [Entry; 3] = [
        Entry {
            id: 0,
            namespace: "card",
            name: "reason",
            visibility: Visibility::Private,
            unset_text: None,
            ty: EntryType::Any,
            values: &[],
            pii: false,
        },
        Entry {
            id: 1,
            namespace: "project",
            name: "reason",
            visibility: Visibility::Project,
            unset_text: None,
            ty: EntryType::Any,
            values: &[],
            pii: false,
        },
        Entry {
            id: 2,
            namespace: "resume",
            name: "task",
            visibility: Visibility::Private,
            unset_text: Some("your previous request"),
            ty: EntryType::Text,
            values: &[],
            pii: false,
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
        let skill = |id| Context::for_skill_id(&memory, id, &["card", "other"]).unwrap();
        assert_eq!(r(&skill("card")), "why: lost");
        assert_eq!(r(&Context::new(&memory)), "why: policy");
        assert_eq!(r(&skill("other")), "why: policy");
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
            render(
                &pieces,
                &ENTRIES,
                &Context::for_skill_id(&memory, "card", &["card"]).unwrap()
            ),
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
