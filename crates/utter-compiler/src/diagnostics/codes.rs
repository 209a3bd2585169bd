//! Finding codes. Those under `mantle.` are the reference engine's, spelled
//! exactly as it spells them; those under `utter.` are checks of our own.

pub const INVALID_VARIANT_SHAPE: &str = "mantle.validation.response.invalid_variant_shape";
pub const INVALID_VARIANT_KEY: &str = "mantle.validation.response.invalid_variant_key";
pub const EMPTY_BODY: &str = "mantle.validation.response.empty_body";
pub const INVALID_CONDITION: &str = "mantle.validation.response.invalid_condition";
pub const UNKNOWN_MEMORY_KEY: &str = "mantle.validation.response.unknown_memory_key";
pub const DEFAULT_REQUIRED: &str = "mantle.validation.response.default_required";
pub const MULTIPLE_DEFAULTS: &str = "mantle.validation.response.multiple_defaults";
pub const RESPONSE_MISSING: &str = "mantle.validation.response.missing";
pub const ACTION_UNKNOWN: &str = "mantle.validation.action.unknown";
pub const TOOL_UNKNOWN_OUTCOME: &str =
    "mantle.validation.tool_constraint.unknown_on_success_or_failure";
pub const TOOL_UNKNOWN_CONFIRMATION: &str =
    "mantle.validation.tool_constraint.unknown_requires_confirmation_response";
pub const TRIGGER_UNKNOWN_RESPONSE: &str = "mantle.validation.verbatim_trigger.unknown_response";
pub const PROSE_SESSION_REFERENCE: &str =
    "mantle.validation.prose.session_reference_in_instructions";
pub const PROSE_INVALID_IF: &str = "mantle.validation.prose.invalid_if_expression";
pub const PROSE_EMPTY_IF: &str = "mantle.validation.prose.empty_if_condition";
pub const PROSE_UNKNOWN_MEMORY_KEY: &str = "mantle.validation.prose.unknown_memory_key";
pub const SKILL_INVALID_UTTER: &str = "skill.markdown.invalid_utter";
pub const SKILL_INVALID_TOOL_CONSTRAINTS: &str = "skill.markdown.invalid_tool_constraints";
pub const SKILL_INVALID_FRONTMATTER: &str = "skill.markdown.invalid_frontmatter_delimiter";
pub const SKILL_INVALID_BLOCK: &str = "utter.skill.invalid_ordered_block";
pub const SKILL_RESERVED_ID: &str = "mantle.validation.skill.reserved_id";
pub const SKILL_INVALID_ID: &str = "mantle.validation.skill.invalid_id";
pub const SKILL_FAILED_TO_LOAD: &str = "mantle.validation.skill.failed_to_load";
pub const DESCRIPTION_NOT_EXPOSED: &str = "mantle.validation.memory.description_not_exposed";
pub const DESCRIPTION_REQUIRED: &str = "mantle.validation.memory.description_required";
pub const COLLECT_DESCRIPTION_OVERRIDES: &str =
    "mantle.validation.memory.collect_description_overrides";
pub const PROJECT_LLM_SETTABLE: &str = "mantle.validation.memory.project_llm_settable";
pub const SKILL_SEED: &str = "mantle.validation.memory.skill_seed";
/// The strict runtime loader's error code.
pub const REGISTRY_INVALID_VARIANT: &str = "responses.registry.invalid_variant";
/// The strict runtime loader's code when project validation has errors.
pub const PROJECT_VALIDATION_ERROR: &str = "mantle.validate_project.project_validation_error";

pub const YAML_SYNTAX: &str = "utter.yaml.syntax";
pub const YAML_DUPLICATE_KEY: &str = "utter.yaml.duplicate_key";
pub const YAML_LIMIT: &str = "utter.yaml.limit_exceeded";
pub const YAML_ENCODING: &str = "utter.yaml.invalid_encoding";
pub const YAML_UNSUPPORTED: &str = "utter.yaml.unsupported";
pub const FILE_SHAPE: &str = "utter.validation.file.invalid_shape";
pub const FILE_UNKNOWN_KEY: &str = "utter.validation.file.unknown_key";
pub const DUPLICATE_RESPONSE: &str = "utter.validation.response.duplicate_name";
pub const DEFINED_BY_TWO_SKILLS: &str = "utter.validation.response.defined_by_two_skills";
pub const INVALID_REPHRASE: &str = "utter.validation.response.invalid_rephrase";
pub const UNKNOWN_PLACEHOLDER: &str = "utter.validation.response.unknown_placeholder";
pub const MEMORY_SHAPE: &str = "utter.validation.memory.invalid_shape";
pub const RUST_NAME_COLLISION: &str = "utter.codegen.name_collision";
pub const MEMORY_ACCESS_IGNORED: &str = "utter.validation.memory.access_not_enforced";
pub const INVISIBLE_CHARACTER: &str = "utter.validation.invisible_character";
pub const IO_REFUSED: &str = "utter.io.refused";
pub const IO_IGNORED: &str = "utter.io.ignored";
pub const MEMORY_UNKNOWN_TYPE: &str = "utter.validation.memory.unknown_type";
pub const MEMORY_INVALID_ENUM_VALUES: &str = "utter.validation.memory.invalid_enum_values";
pub const UNKNOWN_ENUM_VALUE: &str = "utter.validation.condition.unknown_enum_value";
pub const TYPE_MISMATCH: &str = "utter.validation.condition.type_mismatch";
pub const NEVER_EQUAL: &str = "utter.validation.condition.never_equal";
pub const NEVER_TRUE: &str = "utter.validation.condition.never_true";
pub const PLACEHOLDER_REPR: &str = "utter.validation.placeholder.renders_repr";
pub const MAESTRO_CONDITION: &str = "utter.maestro.conditional_variant";
pub const UNREACHABLE_VARIANT: &str = "utter.analysis.unreachable_variant";
pub const UNREACHABLE_DEFAULT: &str = "utter.analysis.unreachable_default";
pub const NO_CONDITIONED_VARIANT: &str = "utter.analysis.no_conditioned_variant_delivered";

/// Every code with what it means (SARIF rules, `--explain`-style help).
pub const ALL: &[(&str, &str)] = &[
    (
        INVALID_VARIANT_SHAPE,
        "A response is not a non-empty list, a variant is neither a mapping nor a string, or `text`, `condition` or `metadata` has the wrong type.",
    ),
    (
        INVALID_VARIANT_KEY,
        "A variant has a key other than `text`, `condition` and `metadata`.",
    ),
    (EMPTY_BODY, "A variant's `text` is empty or whitespace."),
    (
        INVALID_CONDITION,
        "A `condition` is outside the condition grammar (comparisons of `session.<ns>.<entry>` and literals with `and`, `or`, `not`).",
    ),
    (
        UNKNOWN_MEMORY_KEY,
        "A condition reads a memory entry that is not declared, or not readable from that file.",
    ),
    (
        DEFAULT_REQUIRED,
        "A response with conditioned variants has no default (unconditioned) variant.",
    ),
    (
        MULTIPLE_DEFAULTS,
        "A response with conditioned variants has more than one default variant.",
    ),
    (
        RESPONSE_MISSING,
        "A skill.md step or collect utterance names a response no responses.yml defines.",
    ),
    (
        ACTION_UNKNOWN,
        "A skill.md step's `action:` is neither a response (`utter_*`) nor `action_listen`.",
    ),
    (
        TOOL_UNKNOWN_OUTCOME,
        "A tool constraint's `on_success:`/`on_failure:` names no response.",
    ),
    (
        TOOL_UNKNOWN_CONFIRMATION,
        "A tool constraint's confirmation response names no response.",
    ),
    (
        TRIGGER_UNKNOWN_RESPONSE,
        "A skill.md `utter:` trigger names no response.",
    ),
    (
        PROSE_SESSION_REFERENCE,
        "Skill prose names `session.<ns>.<entry>`; write `@memory.<ns>.<entry>`.",
    ),
    (
        PROSE_INVALID_IF,
        "A prose `if:` condition is outside the condition grammar.",
    ),
    (PROSE_EMPTY_IF, "A prose `if:` has no condition."),
    (
        PROSE_UNKNOWN_MEMORY_KEY,
        "A prose `if:` condition reads an entry that is not readable.",
    ),
    (
        SKILL_INVALID_UTTER,
        "A malformed `utter:` trigger in skill.md frontmatter.",
    ),
    (
        SKILL_INVALID_TOOL_CONSTRAINTS,
        "Malformed `tool_constraints` in skill.md frontmatter.",
    ),
    (
        SKILL_INVALID_FRONTMATTER,
        "skill.md frontmatter is not delimited by `---` lines or is not a mapping.",
    ),
    (
        SKILL_INVALID_BLOCK,
        "A malformed `:::ordered_block` in skill.md.",
    ),
    (
        SKILL_RESERVED_ID,
        "A skill folder is named `project` or `system`.",
    ),
    (SKILL_INVALID_ID, "A skill folder name contains `.`."),
    (
        SKILL_FAILED_TO_LOAD,
        "A skill folder does not load: no skill.md, a skill-level `requires:`, or a bare `complete_when:`.",
    ),
    (
        DESCRIPTION_NOT_EXPOSED,
        "A memory `description` nobody sees: on a project entry, or on a skill entry that is neither `llm_settable` nor collected.",
    ),
    (
        DESCRIPTION_REQUIRED,
        "A skill entry the model can set has no description.",
    ),
    (
        COLLECT_DESCRIPTION_OVERRIDES,
        "An entry is described both in memory.yml and by the collect step that fills it.",
    ),
    (
        PROJECT_LLM_SETTABLE,
        "A project entry declares `llm_settable: true`.",
    ),
    (
        SKILL_SEED,
        "A skill entry declares `seed: true`; only project entries are seeded.",
    ),
    (
        REGISTRY_INVALID_VARIANT,
        "The strict runtime loader met a malformed variant.",
    ),
    (PROJECT_VALIDATION_ERROR, "The project failed validation."),
    (YAML_SYNTAX, "A file is not valid YAML."),
    (YAML_DUPLICATE_KEY, "A YAML mapping has the same key twice."),
    (YAML_LIMIT, "A file exceeds a size, depth or alias limit."),
    (YAML_ENCODING, "A file is not UTF-8."),
    (
        YAML_UNSUPPORTED,
        "A YAML feature utter does not accept (tags, complex keys).",
    ),
    (FILE_SHAPE, "A file's top level has the wrong shape."),
    (FILE_UNKNOWN_KEY, "A file has an unknown top-level key."),
    (
        DUPLICATE_RESPONSE,
        "A response name is defined twice in one file.",
    ),
    (
        DEFINED_BY_TWO_SKILLS,
        "Two skills define the same response name; the later replaces the earlier.",
    ),
    (INVALID_REPHRASE, "`metadata.rephrase` is not a boolean."),
    (
        UNKNOWN_PLACEHOLDER,
        "A placeholder can never be filled, so it is delivered as written.",
    ),
    (
        MEMORY_SHAPE,
        "A memory.yml declaration has the wrong shape.",
    ),
    (
        RUST_NAME_COLLISION,
        "Two names map to the same Rust identifier.",
    ),
    (
        MEMORY_ACCESS_IGNORED,
        "`access:` in memory.yml is not enforced.",
    ),
    (
        INVISIBLE_CHARACTER,
        "A name or condition holds an invisible or mixed-script character.",
    ),
    (
        IO_REFUSED,
        "A file is refused: a symlink out of the agent folder, a special file, or a name with a control character.",
    ),
    (
        IO_IGNORED,
        "A file or folder is not read: not where agent files go, or a dangling symlink.",
    ),
    (
        MEMORY_UNKNOWN_TYPE,
        "A memory entry has an unknown `type:`.",
    ),
    (
        MEMORY_INVALID_ENUM_VALUES,
        "`enum_values` is malformed, or does not fit the entry's type.",
    ),
    (
        UNKNOWN_ENUM_VALUE,
        "A categorical entry is compared with a value outside its `enum_values`.",
    ),
    (
        TYPE_MISMATCH,
        "An ordering comparison fails for every value the declared type allows.",
    ),
    (
        NEVER_EQUAL,
        "An equality can never hold for the declared type.",
    ),
    (NEVER_TRUE, "A whole condition can never be true."),
    (
        PLACEHOLDER_REPR,
        "A placeholder of a list or json entry is delivered as Python writes the value.",
    ),
    (
        MAESTRO_CONDITION,
        "A variant of a Maestro agent has a `condition`: Maestro delivers the first entry of each response.",
    ),
    (
        UNREACHABLE_VARIANT,
        "A variant is never delivered: earlier variants win whenever its condition holds, or its condition never holds.",
    ),
    (
        UNREACHABLE_DEFAULT,
        "The conditions cover every value memory can hold: the default is never delivered (it stays as the required fallback).",
    ),
    (
        NO_CONDITIONED_VARIANT,
        "No conditioned variant of a response is ever delivered: it always delivers its default.",
    ),
];

/// What `code` means (the code itself when unknown).
pub fn describe(code: &str) -> &str {
    ALL.iter()
        .find(|(c, _)| *c == code)
        .map_or(code, |(_, d)| d)
}

#[cfg(test)]
mod code_table_tests {
    /// Every code constant has a description in `codes::ALL`.
    #[test]
    fn every_code_is_described() {
        let source = include_str!("codes.rs");
        // A constant's value is on its line or the next (rustfmt wraps long ones).
        let lines: Vec<&str> = source.lines().collect();
        let declared: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("pub const") && l.contains(": &str"))
            .filter_map(|(i, l)| {
                l.split('"')
                    .nth(1)
                    .or_else(|| lines.get(i + 1)?.split('"').nth(1))
            })
            .collect();
        assert!(declared.len() > 40, "{declared:?}");
        for code in declared {
            assert!(
                super::ALL.iter().any(|(c, _)| *c == code),
                "{code} has no description"
            );
        }
    }
}
