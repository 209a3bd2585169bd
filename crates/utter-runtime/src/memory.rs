//! Memory: declared entries, the stores that hold their values, and the view
//! of the skill that is active while a response is delivered.

use std::collections::HashMap;
use std::fmt;

use crate::value::{Value, ValueRef};

/// Who may read an entry (from `memory.yml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Visibility {
    /// Declared in the root `memory.yml`: the `project` namespace, readable everywhere.
    Project,
    /// Under `schema.public` of a skill: readable by every skill.
    Public,
    /// Under `schema.private` of a skill: readable only while that skill is active.
    Private,
}

/// A declared memory entry. A compiled registry numbers its entries densely
/// (`id` = index in its entry table, sorted by namespace then name), so
/// [`SlotMemory`] reads in O(1). Generated code holds `Entry<&'static str>`;
/// the interpreter holds `Entry<String>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<S = &'static str> {
    pub id: usize,
    /// A skill id, or `project`.
    pub namespace: S,
    pub name: S,
    pub visibility: Visibility,
    /// Text a placeholder shows while the entry is unset, instead of being left
    /// as written (the reference engine's one such entry is
    /// `default_continue_interrupted.interrupted_task_name`).
    pub unset_text: Option<S>,
}

impl<S: AsRef<str>> Entry<S> {
    /// What a [`Memory`] is asked with.
    #[inline]
    pub fn key(&self) -> EntryKey<'_> {
        EntryKey {
            id: self.id,
            namespace: self.namespace.as_ref(),
            name: self.name.as_ref(),
        }
    }
}

/// An entry as a memory store sees it: its dense id and its names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryKey<'a> {
    pub id: usize,
    pub namespace: &'a str,
    pub name: &'a str,
}

/// A store of memory values, read through the declared entry.
pub trait Memory {
    /// The value of the entry, or `None` when unset.
    fn get(&self, entry: EntryKey<'_>) -> Option<&Value>;
}

impl<M: Memory + ?Sized> Memory for &M {
    fn get(&self, entry: EntryKey<'_>) -> Option<&Value> {
        (**self).get(entry)
    }
}

/// An entry name that no `memory.yml` of the registry declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndeclaredEntry {
    pub namespace: String,
    pub name: String,
}

impl fmt::Display for UndeclaredEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "memory entry `{}.{}` is not declared in any memory.yml",
            self.namespace, self.name
        )
    }
}

impl std::error::Error for UndeclaredEntry {}

/// Array-backed memory for one registry's entry table: O(1) reads by entry id.
#[derive(Clone, Debug)]
pub struct SlotMemory<'t, S = &'static str> {
    table: &'t [Entry<S>],
    slots: Vec<Option<Value>>,
}

impl<'t, S: AsRef<str>> SlotMemory<'t, S> {
    /// Empty memory for the entries of one registry (its `ENTRIES` table).
    pub fn new(table: &'t [Entry<S>]) -> Self {
        SlotMemory {
            table,
            slots: vec![None; table.len()],
        }
    }

    /// The declared entry `namespace.name`, if any (binary search: tables are
    /// sorted by namespace, then name).
    pub fn entry(&self, namespace: &str, name: &str) -> Option<&'t Entry<S>> {
        let table: &'t [Entry<S>] = self.table;
        table
            .binary_search_by(|e| (e.namespace.as_ref(), e.name.as_ref()).cmp(&(namespace, name)))
            .ok()
            .map(|i| &table[i])
    }

    fn slot(&mut self, namespace: &str, name: &str) -> Result<&mut Option<Value>, UndeclaredEntry> {
        let id = self
            .entry(namespace, name)
            .ok_or_else(|| UndeclaredEntry {
                namespace: namespace.to_owned(),
                name: name.to_owned(),
            })?
            .id;
        Ok(&mut self.slots[id])
    }

    /// Sets `namespace.name`; an undeclared entry is an error, never dropped.
    pub fn set(
        &mut self,
        namespace: &str,
        name: &str,
        value: impl Into<Value>,
    ) -> Result<(), UndeclaredEntry> {
        *self.slot(namespace, name)? = Some(value.into());
        Ok(())
    }

    /// Clears `namespace.name` (reads as unset again).
    pub fn unset(&mut self, namespace: &str, name: &str) -> Result<(), UndeclaredEntry> {
        *self.slot(namespace, name)? = None;
        Ok(())
    }
}

impl<S: AsRef<str>> Memory for SlotMemory<'_, S> {
    #[inline]
    fn get(&self, entry: EntryKey<'_>) -> Option<&Value> {
        let slot = self.slots.get(entry.id)?;
        debug_assert!(
            self.table.get(entry.id).is_some_and(
                |e| e.namespace.as_ref() == entry.namespace && e.name.as_ref() == entry.name
            ),
            "SlotMemory used with an entry of another registry"
        );
        slot.as_ref()
    }
}

/// Map-backed memory keyed by namespace and entry name; works with any registry.
#[derive(Clone, Debug, Default)]
pub struct MapMemory {
    values: HashMap<String, HashMap<String, Value>>,
}

impl MapMemory {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `namespace.name` to `value`.
    pub fn set(&mut self, namespace: &str, name: &str, value: impl Into<Value>) {
        self.values
            .entry(namespace.to_owned())
            .or_default()
            .insert(name.to_owned(), value.into());
    }

    /// Builder form of [`MapMemory::set`].
    pub fn with(mut self, namespace: &str, name: &str, value: impl Into<Value>) -> Self {
        self.set(namespace, name, value);
        self
    }
}

impl Memory for MapMemory {
    fn get(&self, entry: EntryKey<'_>) -> Option<&Value> {
        self.values.get(entry.namespace)?.get(entry.name)
    }
}

/// The memory as one skill sees it while a response is delivered.
///
/// Readable: project entries, every skill's public entries, and the active
/// skill's private entries. With no active skill the view is the one the
/// project-root `responses.yml` is checked against (project + public).
#[derive(Clone, Copy)]
pub struct Context<'m> {
    memory: &'m dyn Memory,
    skill: Option<&'m str>,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("skill", &self.skill)
            .finish_non_exhaustive()
    }
}

impl<'m> Context<'m> {
    /// The view with no active skill.
    pub fn new(memory: &'m dyn Memory) -> Self {
        Context {
            memory,
            skill: None,
        }
    }

    /// The view of `skill` (a skill id, the folder name under `skills/`).
    pub fn for_skill(memory: &'m dyn Memory, skill: &'m str) -> Self {
        Context {
            memory,
            skill: Some(skill),
        }
    }

    /// The active skill, if any.
    pub fn skill(&self) -> Option<&'m str> {
        self.skill
    }

    /// Whether the active view may read `entry`.
    #[inline]
    pub fn can_read<S: AsRef<str>>(&self, entry: &Entry<S>) -> bool {
        match entry.visibility {
            Visibility::Project | Visibility::Public => true,
            Visibility::Private => self.skill == Some(entry.namespace.as_ref()),
        }
    }

    /// The value of `entry` in this view: `None` when unset or not readable.
    #[inline]
    pub fn read<S: AsRef<str>>(&self, entry: &Entry<S>) -> ValueRef<'m> {
        if !self.can_read(entry) {
            return ValueRef::None;
        }
        self.memory
            .get(entry.key())
            .map_or(ValueRef::None, Value::as_ref)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[Entry] = &[
        Entry {
            id: 0,
            namespace: "card",
            name: "reason",
            visibility: Visibility::Private,
            unset_text: None,
        },
        Entry {
            id: 1,
            namespace: "card",
            name: "summary",
            visibility: Visibility::Public,
            unset_text: None,
        },
        Entry {
            id: 2,
            namespace: "project",
            name: "name",
            visibility: Visibility::Project,
            unset_text: None,
        },
    ];

    #[test]
    fn private_entries_read_only_in_their_skill() {
        let mut memory = SlotMemory::new(TABLE);
        memory.set("card", "reason", "lost").unwrap();
        memory.set("card", "summary", "rush").unwrap();
        let root = Context::new(&memory);
        assert!(root.read(&TABLE[0]).is_none());
        assert!(matches!(root.read(&TABLE[1]), ValueRef::Str("rush")));
        let other = Context::for_skill(&memory, "billing");
        assert!(other.read(&TABLE[0]).is_none());
        let own = Context::for_skill(&memory, "card");
        assert!(matches!(own.read(&TABLE[0]), ValueRef::Str("lost")));
    }

    #[test]
    fn undeclared_entries_are_errors() {
        let mut memory = SlotMemory::new(TABLE);
        let err = memory.set("card", "nope", 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "memory entry `card.nope` is not declared in any memory.yml"
        );
        assert!(memory.set("project", "name", "Ada").is_ok());
        memory.unset("project", "name").unwrap();
        assert!(Context::new(&memory).read(&TABLE[2]).is_none());
    }

    #[test]
    fn map_memory_reads_by_name() {
        let memory = MapMemory::new().with("project", "name", "Ada");
        assert!(matches!(
            Context::new(&memory).read(&TABLE[2]),
            ValueRef::Str("Ada")
        ));
    }
}
