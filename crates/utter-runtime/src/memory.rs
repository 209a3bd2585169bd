//! Memory: declared entries, the stores that hold their values, and the view
//! of the skill that is active while a response is delivered.

use std::collections::HashMap;
use std::fmt;

use crate::types::{EntryType, SetError};
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

impl Visibility {
    /// The readability rule, owned here once: whether an entry of
    /// `namespace` may be read while `active` is the active skill (`None`:
    /// the project-root view, which any skill may deliver). Project and public
    /// entries are readable everywhere; a private entry only while its own
    /// skill is active. The compiler, the analysis and the language server ask
    /// this function; generated typed views specialise it per entry and are
    /// tested against it.
    #[inline]
    pub fn readable_in(self, namespace: &str, active: Option<&str>) -> bool {
        match self {
            Visibility::Project | Visibility::Public => true,
            Visibility::Private => active == Some(namespace),
        }
    }

    /// Whether readability depends on the active skill (so generated code
    /// needs a guard for it).
    #[inline]
    pub fn depends_on_active_skill(self) -> bool {
        matches!(self, Visibility::Private)
    }
}

/// A declared memory entry. A compiled registry numbers its entries densely
/// (`id` = index in its entry table, sorted by namespace then name), so
/// [`SlotMemory`] reads in O(1). Generated code holds `Entry<&'static str>`;
/// the interpreter holds `Entry<String, Vec<String>>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<S = &'static str, V = &'static [&'static str]> {
    /// The entry's id: its index in the agent's entry table.
    pub id: usize,
    /// A skill id, or `project`.
    pub namespace: S,
    /// The entry's name.
    pub name: S,
    /// Who may read it.
    pub visibility: Visibility,
    /// Text a placeholder shows while the entry is unset, instead of being left
    /// as written (the reference engine's one such entry is
    /// `default_continue_interrupted.interrupted_task_name`).
    pub unset_text: Option<S>,
    /// The declared `type:`.
    pub ty: EntryType,
    /// The `enum_values` of a categorical entry (empty otherwise).
    pub values: V,
    /// Declared `pii: true`: its values are personal data, never shown by
    /// a fact-guard refusal or a `tracing` event.
    pub pii: bool,
}

impl<S: AsRef<str>, V> Entry<S, V> {
    /// What a [`Memory`] is asked with.
    #[inline]
    pub fn key(&self) -> EntryKey<'_> {
        EntryKey {
            id: self.id,
            namespace: self.namespace.as_ref(),
            name: self.name.as_ref(),
        }
    }

    /// The value this entry stores for `value` (see [`EntryType::accept`]),
    /// or an error naming the entry, its type and the value. Lists and
    /// dicts nested deeper than [`crate::value::MAX_VALUE_DEPTH`] are refused.
    pub fn accept<T: AsRef<str>>(&self, value: Value) -> Result<Value, SetError>
    where
        V: AsRef<[T]>,
    {
        if crate::value::value_depth(&value) > crate::value::MAX_VALUE_DEPTH {
            return Err(SetError::TooDeep {
                namespace: self.namespace.as_ref().to_owned(),
                name: self.name.as_ref().to_owned(),
            });
        }
        self.ty
            .accept(value, self.values.as_ref())
            .map_err(|value| SetError::WrongType {
                namespace: self.namespace.as_ref().to_owned(),
                name: self.name.as_ref().to_owned(),
                declared: self.ty,
                values: self
                    .values
                    .as_ref()
                    .iter()
                    .map(|v| v.as_ref().to_owned())
                    .collect(),
                value,
            })
    }
}

/// The declared entry `namespace.name` of a table sorted by namespace, then
/// name (binary search).
pub fn find_entry<'t, S: AsRef<str>, V>(
    table: &'t [Entry<S, V>],
    namespace: &str,
    name: &str,
) -> Result<&'t Entry<S, V>, SetError> {
    table
        .binary_search_by(|e| (e.namespace.as_ref(), e.name.as_ref()).cmp(&(namespace, name)))
        .map(|i| &table[i])
        .map_err(|_| SetError::Undeclared {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        })
}

/// An entry as a memory store sees it: its dense id and its names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryKey<'a> {
    /// The entry's id: its index in the agent's entry table.
    pub id: usize,
    /// A skill id, or `project`.
    pub namespace: &'a str,
    /// The entry's name.
    pub name: &'a str,
}

/// Memory that takes dynamic values checked against the declared types, as
/// the generated typed `Memory` does: what `utter::json::FromJson` fills a
/// memory through.
pub trait SetMemory {
    /// Sets `namespace.name` to `value`; an undeclared entry or a value of
    /// another type is an error and nothing is stored.
    fn set_value(&mut self, namespace: &str, name: &str, value: Value) -> Result<(), SetError>;
}

/// A store of memory values, read through the declared entry.
pub trait Memory {
    /// The value of the entry; [`ValueRef::None`] when unset.
    fn get(&self, entry: EntryKey<'_>) -> ValueRef<'_>;
}

impl<M: Memory + ?Sized> Memory for &M {
    #[inline]
    fn get(&self, entry: EntryKey<'_>) -> ValueRef<'_> {
        (**self).get(entry)
    }
}

/// Array-backed memory for one registry's entry table: O(1) reads by entry
/// id. Values are checked against the declared types when they are set.
#[derive(Clone, Debug)]
pub struct SlotMemory<'t, S = &'static str, V = &'static [&'static str]> {
    table: &'t [Entry<S, V>],
    slots: Vec<Option<Value>>,
}

impl<'t, S: AsRef<str>, V> SlotMemory<'t, S, V> {
    /// Empty memory for the entries of one registry (its `ENTRIES` table).
    pub fn new(table: &'t [Entry<S, V>]) -> Self {
        // Sized by the largest id, so a table with gaps in its ids works too.
        let len = table.iter().map(|e| e.id + 1).max().unwrap_or(0);
        SlotMemory {
            table,
            slots: vec![None; len],
        }
    }

    /// The declared entry `namespace.name`, if any.
    pub fn entry(&self, namespace: &str, name: &str) -> Option<&'t Entry<S, V>> {
        find_entry(self.table, namespace, name).ok()
    }

    /// Sets `namespace.name`; an undeclared entry or a value of another type
    /// than the declared one is an error, and nothing is stored.
    pub fn set<T: AsRef<str>>(
        &mut self,
        namespace: &str,
        name: &str,
        value: impl Into<Value>,
    ) -> Result<(), SetError>
    where
        V: AsRef<[T]>,
    {
        let entry = find_entry(self.table, namespace, name)?;
        let value = entry.accept(value.into())?;
        self.slots[entry.id] = Some(value);
        Ok(())
    }

    /// Clears `namespace.name` (reads as unset again).
    pub fn unset(&mut self, namespace: &str, name: &str) -> Result<(), SetError> {
        let id = find_entry(self.table, namespace, name)?.id;
        self.slots[id] = None;
        Ok(())
    }
}

impl<S: AsRef<str>, V> Memory for SlotMemory<'_, S, V> {
    #[inline]
    fn get(&self, entry: EntryKey<'_>) -> ValueRef<'_> {
        let Some(Some(value)) = self.slots.get(entry.id) else {
            return ValueRef::None;
        };
        let same = |e: &Entry<S, V>| {
            e.id == entry.id
                && e.namespace.as_ref() == entry.namespace
                && e.name.as_ref() == entry.name
        };
        // Dense tables (every generated one) answer at the id's position.
        debug_assert!(
            self.table.get(entry.id).is_some_and(same) || self.table.iter().any(same),
            "SlotMemory used with an entry of another registry"
        );
        value.as_ref()
    }
}

/// Map-backed memory keyed by namespace and entry name; works with any
/// registry. It stores values as given (no declared types to check them
/// against): compiled code still evaluates them with Python semantics.
#[derive(Clone, Debug, Default)]
pub struct MapMemory {
    values: HashMap<String, HashMap<String, Value>>,
}

impl MapMemory {
    /// An empty memory.
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
    fn get(&self, entry: EntryKey<'_>) -> ValueRef<'_> {
        self.values
            .get(entry.namespace)
            .and_then(|ns| ns.get(entry.name))
            .map_or(ValueRef::None, Value::as_ref)
    }
}

/// A skill of a compiled agent: the generated `Skill` enum implements this,
/// so a view is built from a skill that exists, never from a typo.
pub trait SkillId: Copy {
    /// The skill id: its folder name and memory namespace.
    fn id(self) -> &'static str;
}

/// A skill id that names no skill of the agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSkill {
    /// The id given.
    pub id: String,
    /// The closest known id, when the unknown one looks like a typo of it.
    pub did_you_mean: Option<String>,
}

impl fmt::Display for UnknownSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the agent has no skill `{}`", self.id)?;
        if let Some(near) = &self.did_you_mean {
            write!(f, " (did you mean `{near}`?)")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownSkill {}

impl UnknownSkill {
    /// `id` is unknown among `known`: the error, with a did-you-mean.
    pub fn new<'k>(id: &str, known: impl IntoIterator<Item = &'k str>) -> Self {
        UnknownSkill {
            id: id.to_owned(),
            did_you_mean: nearest(id, known),
        }
    }
}

/// The name of `known` closest to `name`, when `name` looks like a typo of
/// it (at most a third of its characters edited).
fn nearest<'k>(name: &str, known: impl IntoIterator<Item = &'k str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    known
        .into_iter()
        .map(|k| (crate::suggest::edit_distance(name, k, limit + 1), k))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, k)| k.to_owned())
}

/// A response name that names no response of the agent (what
/// `"...".parse::<Response>()` returns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownResponse {
    /// The name given.
    pub name: String,
    /// The closest known name, when the unknown one looks like a typo of it.
    pub did_you_mean: Option<String>,
}

impl UnknownResponse {
    /// `name` is unknown among `known`: the error, with a did-you-mean.
    pub fn new<'k>(name: &str, known: impl IntoIterator<Item = &'k str>) -> Self {
        UnknownResponse {
            name: name.to_owned(),
            did_you_mean: nearest(name, known),
        }
    }
}

impl fmt::Display for UnknownResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the agent has no response `{}`", self.name)?;
        if let Some(near) = &self.did_you_mean {
            write!(f, " (did you mean `{near}`?)")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownResponse {}

/// The memory as one skill sees it while a response is delivered.
///
/// Readable: project entries, every skill's public entries, and the active
/// skill's private entries. With no active skill the view is the one the
/// project-root `responses.yml` is checked against (project + public).
#[derive(Clone, Copy)]
pub struct Context<'m> {
    memory: &'m (dyn Memory + Sync),
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
    pub fn new(memory: &'m (dyn Memory + Sync)) -> Self {
        Context {
            memory,
            skill: None,
        }
    }

    /// The view while `skill` is active: `Skill::CardReplace` of the
    /// generated `Skill` enum.
    pub fn for_skill(memory: &'m (dyn Memory + Sync), skill: impl SkillId) -> Self {
        Context {
            memory,
            skill: Some(skill.id()),
        }
    }

    /// The view of the skill whose id arrived as data (a string from an
    /// orchestrator): an id that is not among `known` (the agent's
    /// `SKILL_IDS`) is an error, never a silently different view.
    pub fn for_skill_id<K: AsRef<str>>(
        memory: &'m (dyn Memory + Sync),
        id: &'m str,
        known: &[K],
    ) -> Result<Self, UnknownSkill> {
        if known.iter().any(|k| k.as_ref() == id) {
            Ok(Context {
                memory,
                skill: Some(id),
            })
        } else {
            Err(UnknownSkill::new(id, known.iter().map(AsRef::as_ref)))
        }
    }

    /// The active skill's id, if any.
    pub fn skill(&self) -> Option<&'m str> {
        self.skill
    }

    /// Whether the active view may read `entry`.
    #[inline]
    pub fn can_read<S: AsRef<str>, V>(&self, entry: &Entry<S, V>) -> bool {
        entry
            .visibility
            .readable_in(entry.namespace.as_ref(), self.skill)
    }

    /// The value of `entry` in this view: `None` when unset or not readable.
    #[inline]
    pub fn read<S: AsRef<str>, V>(&self, entry: &Entry<S, V>) -> ValueRef<'m> {
        if !self.can_read(entry) {
            return ValueRef::None;
        }
        self.memory.get(entry.key())
    }
}

/// How compiled code reads memory: a [`Context`] over any [`Memory`], or a
/// generated typed view. Every implementation has the semantics of
/// [`Context::read`]; the provided methods are shortcuts a typed view may
/// answer faster.
pub trait Reader {
    /// The active skill's id, if any.
    fn skill_id(&self) -> Option<&str>;

    /// The value of `entry` in this view: `None` when unset or not readable.
    fn value<S: AsRef<str>, V>(&self, entry: &Entry<S, V>) -> ValueRef<'_>;

    /// Whether categorical `entry` holds its value number `index`
    /// (`value(entry) == entry.values[index]`).
    #[inline]
    fn holds_value(&self, entry: &Entry, index: usize) -> bool {
        crate::fast::eq_str(self.value(entry), entry.values[index])
    }

    /// Whether categorical `entry` holds `text`, its value number `index`
    /// (`value(entry) == text`): [`Reader::holds_value`] for entries of any
    /// representation, what the compact form calls. A typed view answers
    /// by the value's number; `text` is the answer for any other reader.
    #[inline]
    fn holds_text<S: AsRef<str>, V>(&self, entry: &Entry<S, V>, index: usize, text: &str) -> bool {
        let _ = index;
        crate::fast::eq_str(self.value(entry), text)
    }
}

impl Reader for Context<'_> {
    #[inline]
    fn skill_id(&self) -> Option<&str> {
        self.skill
    }

    #[inline]
    fn value<S: AsRef<str>, V>(&self, entry: &Entry<S, V>) -> ValueRef<'_> {
        self.read(entry)
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
            ty: EntryType::Any,
            values: &[],
            pii: false,
        },
        Entry {
            id: 1,
            namespace: "card",
            name: "summary",
            visibility: Visibility::Public,
            unset_text: None,
            ty: EntryType::Any,
            values: &[],
            pii: false,
        },
        Entry {
            id: 2,
            namespace: "project",
            name: "name",
            visibility: Visibility::Project,
            unset_text: None,
            ty: EntryType::Any,
            values: &[],
            pii: false,
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
        let other = Context::for_skill_id(&memory, "billing", &["billing", "card"]).unwrap();
        assert!(other.read(&TABLE[0]).is_none());
        let own = Context::for_skill_id(&memory, "card", &["billing", "card"]).unwrap();
        assert!(matches!(own.read(&TABLE[0]), ValueRef::Str("lost")));
    }

    #[test]
    fn unknown_skill_ids_are_errors_with_a_hint() {
        let memory = MapMemory::new();
        let err = Context::for_skill_id(&memory, "card_replac", &["card_replace", "billing"])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the agent has no skill `card_replac` (did you mean `card_replace`?)"
        );
    }

    #[test]
    fn slot_memory_checks_declared_types() {
        let table: &[Entry] = &[Entry {
            id: 3,
            namespace: "card",
            name: "reason",
            visibility: Visibility::Public,
            unset_text: None,
            ty: EntryType::Categorical,
            values: &["lost", "stolen"],
            pii: false,
        }];
        let mut memory = SlotMemory::new(table);
        memory.set("card", "reason", "lost").unwrap();
        let err = memory.set("card", "reason", "huge").unwrap_err();
        assert!(matches!(err, SetError::WrongType { .. }), "{err}");
        assert!(matches!(
            Context::new(&memory).read(&table[0]),
            ValueRef::Str("lost")
        ));
    }

    #[test]
    fn values_nested_too_deep_are_refused() {
        let mut memory = SlotMemory::new(TABLE);
        let mut deep = Value::Int(1);
        for _ in 0..crate::value::MAX_VALUE_DEPTH {
            deep = Value::List(vec![deep]);
        }
        memory.set("card", "summary", deep.clone()).unwrap();
        let err = memory
            .set("card", "summary", Value::List(vec![deep]))
            .unwrap_err();
        assert!(matches!(err, SetError::TooDeep { .. }), "{err}");
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
