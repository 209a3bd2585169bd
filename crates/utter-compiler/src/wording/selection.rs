//! When a variant is delivered, named one way on every surface (the
//! snapshot, the review pages, `explain`, `diff`, the language server's
//! hover, the playground and the generated rustdoc): `if <condition>`,
//! `default` or `without condition`.

/// When a variant is delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection<'a> {
    /// When its condition (as written) holds and no earlier one does.
    If(&'a str),
    /// The response's default: when no condition holds.
    Default,
    /// Neither: a variant without a condition after the response's
    /// default, never delivered.
    WithoutCondition,
}

impl<'a> Selection<'a> {
    /// The selection of a variant with `condition` (as written), which is
    /// or is not its response's default.
    pub fn of(condition: Option<&'a str>, default: bool) -> Self {
        match (condition, default) {
            (Some(c), _) => Selection::If(c.trim()),
            (None, true) => Selection::Default,
            (None, false) => Selection::WithoutCondition,
        }
    }

    /// The word every surface shows: `if`, `default` or `without
    /// condition` (the JSON key `selection`).
    pub fn word(self) -> &'static str {
        match self {
            Selection::If(_) => "if",
            Selection::Default => "default",
            Selection::WithoutCondition => "without condition",
        }
    }

    /// The condition as written, for a conditioned variant.
    pub fn condition(self) -> Option<&'a str> {
        match self {
            Selection::If(c) => Some(c),
            _ => None,
        }
    }

    /// The label: `if ` and the condition as `shown` marks it up (quoted,
    /// escaped, in code), or the word.
    pub fn label(self, shown: impl FnOnce(&str) -> String) -> String {
        match self {
            Selection::If(c) => format!("if {}", shown(c)),
            other => other.word().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_is_named_one_way() {
        let quoted = |c: &str| format!("`{c}`");
        assert_eq!(
            Selection::of(Some(" x > 1 "), false).label(quoted),
            "if `x > 1`"
        );
        assert_eq!(Selection::of(Some("x"), true).word(), "if");
        assert_eq!(Selection::of(None, true).label(quoted), "default");
        assert_eq!(
            Selection::of(None, false).label(quoted),
            "without condition"
        );
        assert_eq!(Selection::of(Some("x"), false).condition(), Some("x"));
        assert_eq!(Selection::of(None, true).condition(), None);
    }
}
