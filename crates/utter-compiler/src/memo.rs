//! What a check keeps for the next check of the same agent (the language
//! server checks on every keystroke; [`crate::CheckCache`] holds one memo
//! per step): results by key, each stamped with the last check that used
//! it, so a result no longer used is dropped and the memo holds at most two
//! checks' worth. Below every step of the pipeline: it knows none of them.

use std::collections::HashMap;
use std::hash::Hash;

use crate::load::project::ProjectFiles;

/// Results of earlier checks by key (see the module). A disabled memo
/// (a one-off check) keeps nothing.
#[derive(Debug)]
pub(crate) struct Memo<K, V> {
    enabled: bool,
    /// The check under way.
    check: u64,
    kept: HashMap<K, (V, u64)>,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            enabled: false,
            check: 0,
            kept: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// A memo that keeps results from check to check.
    pub(crate) fn enabled() -> Self {
        Memo {
            enabled: true,
            ..Memo::default()
        }
    }

    pub(crate) fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Whether nothing is kept.
    pub(crate) fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Starts a check: what the check before did not use is dropped.
    pub(crate) fn turn(&mut self) {
        let before = self.check;
        self.kept.retain(|_, (_, used)| *used == before);
        self.check += 1;
    }

    /// Drops everything (what was kept belongs to another schema).
    pub(crate) fn clear(&mut self) {
        self.kept.clear();
    }

    /// The result kept for `key`, kept again for the next check.
    pub(crate) fn get<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let (value, used) = self.kept.get_mut(key)?;
        *used = self.check;
        Some(value.clone())
    }

    pub(crate) fn put(&mut self, key: K, value: V) {
        if self.enabled {
            self.kept.insert(key, (value, self.check));
        }
    }
}

/// Everything a check reads but the text of the `responses.yml` files,
/// exactly: within one such *schema*, a `responses.yml` file checks, and a
/// response lowers, the same.
pub(crate) fn schema_key(files: &ProjectFiles) -> Vec<u8> {
    let mut key = Vec::new();
    let mut put = |bytes: &[u8]| {
        key.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        key.extend_from_slice(bytes);
    };
    put(files.dialect().name().as_bytes());
    put(&[u8::from(files.without_bundled_defaults())]);
    for skill in &files.skills {
        put(skill.as_bytes());
    }
    for (label, bytes) in &files.files {
        put(label.as_bytes());
        if !label.ends_with("responses.yml") {
            put(bytes);
        }
    }
    for (label, size) in &files.oversized {
        put(label.as_bytes());
        put(&size.to_le_bytes());
    }
    for (label, why) in &files.skipped {
        put(label.as_bytes());
        put(format!("{why:?}").as_bytes());
    }
    key
}
