//! Finding codes. Those under `mantle.` are the reference engine's, spelled
//! exactly as it spells them; those under `utter.` are checks of our own.
//!
//! Each code is declared once with its description: the constant's
//! documentation and [`ALL`] come from the same line.

/// Declares each code constant, documented with its description, and
/// [`ALL`], every code with its description.
macro_rules! codes {
    ($($name:ident = $code:literal, $description:expr;)*) => {
        $(
            #[doc = $description]
            pub const $name: &str = $code;
        )*

        /// Every code and what it means.
        pub const ALL: &[(&str, &str)] = &[$(($name, $description)),*];
    };
}

codes! {
    INVALID_VARIANT_SHAPE = "mantle.validation.response.invalid_variant_shape",
        "A response is not a non-empty list, a variant is neither a mapping nor a string, or `text`, `condition` or `metadata` has the wrong type.";
    INVALID_VARIANT_KEY = "mantle.validation.response.invalid_variant_key",
        "A variant has a key other than `text`, `condition` and `metadata`.";
    EMPTY_BODY = "mantle.validation.response.empty_body",
        "A variant's `text` is empty or whitespace.";
    INVALID_CONDITION = "mantle.validation.response.invalid_condition",
        "A `condition` is outside the condition grammar (comparisons of `session.<ns>.<entry>` and literals with `and`, `or`, `not`).";
    UNKNOWN_MEMORY_KEY = "mantle.validation.response.unknown_memory_key",
        "A condition reads a memory entry that is not declared, or not readable from that file.";
    DEFAULT_REQUIRED = "mantle.validation.response.default_required",
        "A response with conditioned variants has no default (unconditioned) variant.";
    MULTIPLE_DEFAULTS = "mantle.validation.response.multiple_defaults",
        "A response with conditioned variants has more than one default variant.";
    RESPONSE_MISSING = "mantle.validation.response.missing",
        "A skill.md step or collect utterance names a response no responses.yml defines.";
    ACTION_UNKNOWN = "mantle.validation.action.unknown",
        "A skill.md step's `action:` is neither a response (`utter_*`) nor `action_listen`.";
    TOOL_UNKNOWN_OUTCOME = "mantle.validation.tool_constraint.unknown_on_success_or_failure",
        "A tool constraint's `on_success:`/`on_failure:` names no response.";
    TOOL_UNKNOWN_CONFIRMATION = "mantle.validation.tool_constraint.unknown_requires_confirmation_response",
        "A tool constraint's confirmation response names no response.";
    TRIGGER_UNKNOWN_RESPONSE = "mantle.validation.verbatim_trigger.unknown_response",
        "A skill.md `utter:` trigger names no response.";
    PROSE_SESSION_REFERENCE = "mantle.validation.prose.session_reference_in_instructions",
        "Skill prose names `session.<ns>.<entry>`; write `@memory.<ns>.<entry>`.";
    PROSE_INVALID_IF = "mantle.validation.prose.invalid_if_expression",
        "A prose `if:` condition is outside the condition grammar.";
    PROSE_EMPTY_IF = "mantle.validation.prose.empty_if_condition",
        "A prose `if:` has no condition.";
    PROSE_UNKNOWN_MEMORY_KEY = "mantle.validation.prose.unknown_memory_key",
        "A prose `if:` condition reads an entry that is not readable.";
    SKILL_INVALID_UTTER = "skill.markdown.invalid_utter",
        "A malformed `utter:` trigger in skill.md frontmatter.";
    SKILL_INVALID_TOOL_CONSTRAINTS = "skill.markdown.invalid_tool_constraints",
        "Malformed `tool_constraints` in skill.md frontmatter.";
    SKILL_INVALID_FRONTMATTER = "skill.markdown.invalid_frontmatter_delimiter",
        "skill.md frontmatter is not delimited by `---` lines or is not a mapping.";
    SKILL_INVALID_BLOCK = "utter.skill.invalid_ordered_block",
        "A malformed `:::ordered_block` in skill.md.";
    SKILL_RESERVED_ID = "mantle.validation.skill.reserved_id",
        "A skill folder is named `project` or `system`.";
    SKILL_INVALID_ID = "mantle.validation.skill.invalid_id",
        "A skill folder name contains `.`.";
    SKILL_FAILED_TO_LOAD = "mantle.validation.skill.failed_to_load",
        "A skill folder does not load: no skill.md, a skill-level `requires:`, or a bare `complete_when:`.";
    DESCRIPTION_NOT_EXPOSED = "mantle.validation.memory.description_not_exposed",
        "A memory `description` nobody sees: on a project entry, or on a skill entry that is neither `llm_settable` nor collected.";
    DESCRIPTION_REQUIRED = "mantle.validation.memory.description_required",
        "A skill entry the model can set has no description.";
    COLLECT_DESCRIPTION_OVERRIDES = "mantle.validation.memory.collect_description_overrides",
        "An entry is described both in memory.yml and by the collect step that fills it.";
    PROJECT_LLM_SETTABLE = "mantle.validation.memory.project_llm_settable",
        "A project entry declares `llm_settable: true`.";
    SKILL_SEED = "mantle.validation.memory.skill_seed",
        "A skill entry declares `seed: true`; only project entries are seeded.";
    REGISTRY_INVALID_VARIANT = "responses.registry.invalid_variant",
        "The strict runtime loader met a malformed variant.";
    PROJECT_VALIDATION_ERROR = "mantle.validate_project.project_validation_error",
        "The project failed validation.";
    YAML_SYNTAX = "utter.yaml.syntax",
        "A file is not valid YAML.";
    YAML_DUPLICATE_KEY = "utter.yaml.duplicate_key",
        "A YAML mapping has the same key twice.";
    YAML_LIMIT = "utter.yaml.limit_exceeded",
        "A file exceeds a size, depth or alias limit.";
    YAML_ENCODING = "utter.yaml.invalid_encoding",
        "A file is not UTF-8.";
    YAML_UNSUPPORTED = "utter.yaml.unsupported",
        "A YAML feature utter does not accept (tags, complex keys).";
    FILE_SHAPE = "utter.validation.file.invalid_shape",
        "A file's top level has the wrong shape.";
    FILE_UNKNOWN_KEY = "utter.validation.file.unknown_key",
        "A file has an unknown top-level key.";
    DUPLICATE_RESPONSE = "utter.validation.response.duplicate_name",
        "A response name is defined twice in one file.";
    DEFINED_BY_TWO_SKILLS = "utter.validation.response.defined_by_two_skills",
        "Two skills define the same response name; the later replaces the earlier.";
    SNAPSHOT_CHANGED = "utter.snapshot.changed",
        "`utter snapshot --check`: the agent's wording no longer matches the reviewed snapshot (a GitHub annotation's title).";
    HIDDEN_BY_ROOT = "utter.validation.response.hidden_by_root",
        "A skill defines a response the project root's responses.yml defines too: the root's is delivered, the skill's never.";
    INVALID_REPHRASE = "utter.validation.response.invalid_rephrase",
        "`metadata.rephrase` is not a boolean.";
    UNKNOWN_PLACEHOLDER = "utter.validation.response.unknown_placeholder",
        "A placeholder can never be filled, so it is delivered as written.";
    MEMORY_SHAPE = "utter.validation.memory.invalid_shape",
        "A memory.yml declaration has the wrong shape.";
    RUST_NAME_COLLISION = "utter.codegen.name_collision",
        "Two names map to the same Rust identifier.";
    MEMORY_ACCESS_IGNORED = "utter.validation.memory.access_not_enforced",
        "`access:` in memory.yml is not enforced.";
    INVISIBLE_CHARACTER = "utter.validation.invisible_character",
        "A name or condition holds an invisible or mixed-script character.";
    IO_REFUSED = "utter.io.refused",
        "A file is refused: a symlink out of the agent folder, a special file, or a name with a control character.";
    IO_IGNORED = "utter.io.ignored",
        "A file or folder is not read: not where agent files go, or a dangling symlink.";
    IO_UNREADABLE = "utter.io.unreadable",
        "The agent folder could not be read (it is missing, not a folder, or not an agent).";
    MEMORY_UNKNOWN_TYPE = "utter.validation.memory.unknown_type",
        "A memory entry has an unknown `type:`.";
    MEMORY_INVALID_ENUM_VALUES = "utter.validation.memory.invalid_enum_values",
        "`enum_values` is malformed, or does not fit the entry's type.";
    UNKNOWN_ENUM_VALUE = "utter.validation.condition.unknown_enum_value",
        "A categorical entry is compared with a value outside its `enum_values`.";
    TYPE_MISMATCH = "utter.validation.condition.type_mismatch",
        "An ordering comparison fails for every value the declared type allows.";
    NEVER_EQUAL = "utter.validation.condition.never_equal",
        "An equality can never hold for the declared type.";
    NEVER_TRUE = "utter.validation.condition.never_true",
        "A whole condition can never be true.";
    PLACEHOLDER_REPR = "utter.validation.placeholder.renders_repr",
        "A placeholder of a list or json entry is delivered as Python writes the value.";
    FLOAT_MONEY = "utter.validation.placeholder.float_money",
        "A placeholder of a float entry stands next to a currency: it is delivered as Python writes a float (`49.9`, `15.0`, `1e+20`).";
    MAESTRO_CONDITION = "utter.maestro.conditional_variant",
        "A variant of a Maestro agent has a `condition`: Maestro delivers the first entry of each response.";
    UNREACHABLE_VARIANT = "utter.analysis.unreachable_variant",
        "A variant is never delivered: earlier variants win whenever its condition holds, or its condition never holds.";
    UNREACHABLE_DEFAULT = "utter.analysis.unreachable_default",
        "The conditions cover every value memory can hold: the default is never delivered (it stays as the required fallback).";
    NO_CONDITIONED_VARIANT = "utter.analysis.no_conditioned_variant_delivered",
        "No conditioned variant of a response is ever delivered: it always delivers its default.";
    SETTINGS_INVALID = "utter.settings.invalid",
        "`utter.yml` (the agent's own settings: its dialect) holds something utter does not read.";
    PLACEHOLDER_MAY_BE_UNSET = "utter.analysis.placeholder_may_be_unset",
        "Memory can leave a placeholder unset when its variant is delivered: the customer gets it as written (opt-in: `utter check --unset-placeholders`).";
}

/// What `code` means (the code itself when unknown).
pub fn describe(code: &str) -> &str {
    ALL.iter()
        .find(|(c, _)| *c == code)
        .map_or(code, |(_, d)| d)
}

/// The codes whose level a project sets in `utter.yml`'s `lints:`: utter's
/// own findings that are warnings or notes, and the unknown placeholder
/// (an error by default; delivered as written when lowered, as the
/// reference does). The reference engine's findings, and utter's errors
/// that guard that the agent compiles, keep their level.
pub const LINTABLE: &[&str] = &[
    UNKNOWN_PLACEHOLDER,
    PLACEHOLDER_MAY_BE_UNSET,
    PLACEHOLDER_REPR,
    FLOAT_MONEY,
    UNREACHABLE_VARIANT,
    UNREACHABLE_DEFAULT,
    NO_CONDITIONED_VARIANT,
    NEVER_TRUE,
    HIDDEN_BY_ROOT,
    DEFINED_BY_TWO_SKILLS,
    MEMORY_ACCESS_IGNORED,
    INVISIBLE_CHARACTER,
    IO_IGNORED,
];

#[cfg(test)]
mod code_table_tests {
    /// Codes are unique, and each is described in a sentence.
    #[test]
    fn every_code_is_described_once() {
        assert!(super::ALL.len() > 40);
        let mut seen = std::collections::HashSet::new();
        for (code, description) in super::ALL {
            assert!(seen.insert(*code), "{code} twice");
            assert!(description.ends_with('.'), "{code}: {description}");
        }
    }

    /// A project sets the level of utter's own codes only.
    #[test]
    fn lintable_codes_are_utter_s() {
        for code in super::LINTABLE {
            assert!(code.starts_with("utter."), "{code}");
            assert!(super::ALL.iter().any(|(c, _)| c == code), "{code}");
        }
    }
}
