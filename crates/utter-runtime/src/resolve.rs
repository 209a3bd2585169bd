//! What a placeholder delivers in a view: the one resolution rule both
//! static pieces (`template`) and encoded ones (`program`) follow.

use std::fmt::{self, Write};

use crate::format::write_py_str;
use crate::memory::{Entry, Reader};
use crate::value::ValueRef;

/// What a piece delivers: literal text, or a memory value to format and
/// the entry it came from (for the fact guard).
#[derive(Clone, Copy)]
pub(crate) enum Resolved<'p, 'v> {
    Text(&'p str),
    Value(ValueRef<'v>, FilledFrom<'p>),
}

/// The entry a filled value was read from.
#[derive(Clone, Copy)]
pub(crate) struct FilledFrom<'p> {
    pub namespace: &'p str,
    pub name: &'p str,
    pub pii: bool,
}

impl Resolved<'_, '_> {
    pub(crate) fn write(self, out: &mut impl Write) -> fmt::Result {
        match self {
            Resolved::Text(text) => out.write_str(text),
            Resolved::Value(value, _) => write_py_str(out, value),
        }
    }
}

/// The entry a `{name}` placeholder reads: the active skill's own entry of
/// that name, else the project's; `candidates` are the ids of the declared
/// entries called `name`.
pub(crate) fn bare_entry<'e, N: AsRef<str>, V, R: Reader>(
    candidates: impl Iterator<Item = usize> + Clone,
    entries: &'e [Entry<N, V>],
    ctx: &R,
) -> Option<&'e Entry<N, V>> {
    let named = |ns: &str| {
        candidates
            .clone()
            .filter_map(|id| entries.get(id))
            .find(|e| e.namespace.as_ref() == ns)
    };
    ctx.skill_id().and_then(named).or_else(|| named("project"))
}

/// What a placeholder reading `entry` delivers: the value, the entry's
/// `unset_text` when unset, or the placeholder as written (no such entry,
/// or unset without an `unset_text`).
pub(crate) fn resolve_entry<'p, 'v, N: AsRef<str>, V, R: Reader>(
    entry: Option<&'p Entry<N, V>>,
    raw: &'p str,
    ctx: &'v R,
) -> Resolved<'p, 'v> {
    let Some(entry) = entry else {
        return Resolved::Text(raw);
    };
    let value = ctx.value(entry);
    match (&entry.unset_text, value.is_none()) {
        (_, false) => Resolved::Value(
            value,
            FilledFrom {
                namespace: entry.namespace.as_ref(),
                name: entry.name.as_ref(),
                pii: entry.pii,
            },
        ),
        (Some(text), true) => Resolved::Text(text.as_ref()),
        // Unset or unreadable: left exactly as written.
        (None, true) => Resolved::Text(raw),
    }
}
