//! The default skills bundled with the reference engine (its `default_skills`),
//! with the same skill ids, response names and memory entries, worded by us.
//! A project overrides any of their responses by name, and a skill's memory
//! by providing `skills/<id>/memory.yml`.

/// One bundled skill: its id and the texts of its files, if any.
pub struct BundledSkill {
    /// The skill id.
    pub id: &'static str,
    /// Its `responses.yml`, if it has one.
    pub responses: Option<&'static str>,
    /// Its `memory.yml`, if it has one.
    pub memory: Option<&'static str>,
}

macro_rules! skill {
    ($id:literal, responses, memory) => {
        BundledSkill {
            id: $id,
            responses: Some(include_str!(concat!("../bundled/", $id, "/responses.yml"))),
            memory: Some(include_str!(concat!("../bundled/", $id, "/memory.yml"))),
        }
    };
    ($id:literal, responses) => {
        BundledSkill {
            id: $id,
            responses: Some(include_str!(concat!("../bundled/", $id, "/responses.yml"))),
            memory: None,
        }
    };
    ($id:literal) => {
        BundledSkill {
            id: $id,
            responses: None,
            memory: None,
        }
    };
}

pub use utter::Dialect;

/// The bundled default skills of `dialect`, sorted by id.
pub fn skills(dialect: Dialect) -> &'static [BundledSkill] {
    match dialect {
        Dialect::Mantle => SKILLS,
        Dialect::Maestro => MAESTRO_SKILLS,
    }
}

/// The packaged system responses of `dialect`.
pub fn system_responses(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Mantle => SYSTEM_RESPONSES,
        Dialect::Maestro => include_str!("../bundled/maestro/system/responses.yml"),
    }
}

/// The Maestro layer (rasa-pro 3.20.5's ids, names, memory and flags; our
/// wording): no `default_silence_timeout_hangup`.
pub const MAESTRO_SKILLS: &[BundledSkill] = &[
    BundledSkill {
        id: "default_completed",
        responses: Some(include_str!(
            "../bundled/maestro/default_completed/responses.yml"
        )),
        memory: Some(include_str!("../bundled/default_completed/memory.yml")),
    },
    skill!("default_continue_interrupted", responses, memory),
    skill!("default_customer_satisfaction", responses, memory),
    BundledSkill {
        id: "default_session_start",
        responses: Some(include_str!(
            "../bundled/maestro/default_session_start/responses.yml"
        )),
        memory: None,
    },
    skill!("default_silence_timeout", responses),
    skill!("default_unsupported_request_handler", responses, memory),
];

/// Sorted by id: the order they are merged in (the Mantle layer).
pub const SKILLS: &[BundledSkill] = &[
    skill!("default_completed", responses, memory),
    skill!("default_continue_interrupted", responses, memory),
    skill!("default_customer_satisfaction", responses, memory),
    skill!("default_session_start"),
    skill!("default_silence_timeout", responses),
    skill!("default_silence_timeout_hangup", responses),
    skill!("default_unsupported_request_handler", responses, memory),
];

/// The packaged system responses (the reference engine's
/// `default_responses.yml`): merge layer 1, below the default skills.
pub const SYSTEM_RESPONSES: &str = include_str!("../bundled/system/responses.yml");

/// Where the label of every bundled file starts.
const LABEL_PREFIX: &str = "<bundled>/";

/// The file label of a bundled skill's file, as findings show it.
pub fn label(id: &str, file: &str) -> String {
    format!("{LABEL_PREFIX}{id}/{file}")
}

/// Whether a file label names a bundled file rather than the project's:
/// the one test of a file's origin.
pub fn is_bundled(label: &str) -> bool {
    label.starts_with(LABEL_PREFIX)
}

/// Entries whose placeholder shows a text while unset instead of being left
/// as written: the reference engine's one special case.
pub const UNSET_TEXTS: &[(&str, &str, &str)] = &[(
    "default_continue_interrupted",
    "interrupted_task_name",
    "your previous request",
)];
