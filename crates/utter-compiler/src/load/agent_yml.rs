//! `agent.yml`'s `agent.language`: the language the agent is written and
//! spoken in (Mantle: a BCP 47 tag, `en` when absent or blank). utter reads
//! only this key, for the delivery context of rephrasing (the channel and
//! the conversation's language); the rest of the file is the reference
//! engine's.

use std::path::Path;

use super::yaml::{self, Node, NodeKind, Resolved};

/// The file's name, at the agent folder's root.
pub const AGENT_FILE: &str = "agent.yml";

/// The language when the agent declares none (Mantle's default).
pub const DEFAULT_LANGUAGE: &str = "en";

/// Why `agent.language` could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageError(pub String);

impl std::fmt::Display for LanguageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The language `agent.yml` in `dir` declares: `Ok(None)` when the file or
/// the key is absent or blank (Mantle then speaks English).
pub fn declared_language(dir: &Path) -> Result<Option<String>, LanguageError> {
    let path = dir.join(AGENT_FILE);
    let metadata = match std::fs::metadata(&path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(LanguageError(format!("{AGENT_FILE}: {e}"))),
    };
    if !metadata.is_file() || metadata.len() > super::project::MAX_FILE_BYTES {
        return Err(LanguageError(format!(
            "{AGENT_FILE}: not a regular file of at most {} bytes",
            super::project::MAX_FILE_BYTES
        )));
    }
    let text =
        std::fs::read_to_string(&path).map_err(|e| LanguageError(format!("{AGENT_FILE}: {e}")))?;
    language_in(&text)
}

/// The language an `agent.yml` text declares.
pub fn language_in(text: &str) -> Result<Option<String>, LanguageError> {
    let root =
        yaml::parse(text).map_err(|e| LanguageError(format!("{AGENT_FILE}: {}", e.message)))?;
    let Some(agent) = root.as_ref().and_then(|root| value_of(root, "agent")) else {
        return Ok(None);
    };
    let Some(language) = value_of(agent, "language") else {
        return Ok(None);
    };
    let Some(scalar) = language.as_scalar() else {
        return Err(LanguageError(format!(
            "{AGENT_FILE}: `agent.language` is {}, not a language tag",
            language.describe()
        )));
    };
    let tag = match scalar.resolve() {
        Resolved::Null => return Ok(None),
        Resolved::Str(tag) => tag.trim(),
        _ => scalar.value.trim(),
    };
    if tag.is_empty() {
        return Ok(None);
    }
    if !is_language_tag(tag) {
        return Err(LanguageError(format!(
            "{AGENT_FILE}: `agent.language` is `{tag}`, not a BCP 47 language tag such as `en` or `de-CH`"
        )));
    }
    Ok(Some(tag.to_owned()))
}

fn value_of<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    let NodeKind::Map(pairs) = &node.kind else {
        return None;
    };
    pairs
        .iter()
        .find(|(k, _)| k.as_scalar().is_some_and(|s| s.value == key))
        .map(|(_, v)| v)
}

/// A BCP 47 tag's shape: letters, digits and `-` subtags of 1 to 8, the
/// first of 2 to 3 letters (or 4 to 8, registered languages).
pub fn is_language_tag(tag: &str) -> bool {
    let mut subtags = tag.split(['-', '_']);
    let primary = subtags.next().unwrap_or_default();
    let primary_ok =
        (2..=8).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
    primary_ok
        && subtags
            .all(|s| (1..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_language_is_read() {
        assert_eq!(
            language_in("agent:\n  language: de-CH\n  persona: x\n"),
            Ok(Some("de-CH".into()))
        );
        assert_eq!(language_in("agent:\n  persona: x\n"), Ok(None));
        assert_eq!(language_in("agent:\n  language: ''\n"), Ok(None));
        assert_eq!(language_in("rules: []\n"), Ok(None));
        assert_eq!(language_in(""), Ok(None));
        assert!(language_in("agent:\n  language: [en]\n").is_err());
        assert!(language_in("agent:\n  language: 'en; rm -rf'\n").is_err());
        assert!(language_in("agent: [").is_err());
    }
}
