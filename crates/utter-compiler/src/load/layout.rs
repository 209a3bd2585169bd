//! The agent folder's layout, in one place: which files utter reads, and
//! which skill a file's path belongs to. Paths are labels: `/`-separated,
//! relative to the agent folder (`skills/<id>/responses.yml`).

/// The files utter reads at the project root.
pub const ROOT_FILES: &[&str] = &["responses.yml", "memory.yml"];
/// The files utter reads in every skill folder.
pub const SKILL_FILES: &[&str] = &["responses.yml", "memory.yml", "skill.md"];
/// The folder that holds the skill folders.
pub const SKILLS: &str = "skills";

/// The kinds of file a skill folder (or the root) holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `responses.yml`.
    Responses,
    /// `memory.yml`.
    Memory,
    /// `skill.md` (a skill's only).
    SkillDoc,
}

impl FileKind {
    /// The file's name.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Responses => "responses.yml",
            FileKind::Memory => "memory.yml",
            FileKind::SkillDoc => "skill.md",
        }
    }
}

/// The skill whose folder holds the file at `label` (`None`: a root file,
/// or no file of a skill folder).
pub fn skill_of(label: &str) -> Option<&str> {
    let (id, _) = label.strip_prefix("skills/")?.split_once('/')?;
    (!id.is_empty()).then_some(id)
}

/// The label of the file of `kind` of `skill` (`None`: the root's).
pub fn file_of(skill: Option<&str>, kind: FileKind) -> String {
    match skill {
        Some(id) => format!("{}/{}", skill_folder(id), kind.name()),
        None => kind.name().to_owned(),
    }
}

/// The label of the folder of `skill`.
pub fn skill_folder(skill: &str) -> String {
    format!("{SKILLS}/{skill}")
}

/// The namespace a memory file declares: `project` for the root's,
/// the skill's id for a skill's (`None`: no memory file).
pub fn memory_namespace(label: &str) -> Option<&str> {
    if label == FileKind::Memory.name() {
        return Some("project");
    }
    skill_of(label).filter(|id| label == file_of(Some(id), FileKind::Memory))
}

/// Whether a skill folder named `id` is read (not `_draft`, `.hidden`, nor
/// a name holding control characters).
pub fn is_skill_folder(id: &str) -> bool {
    !id.is_empty() && !id.starts_with(['_', '.']) && !id.chars().any(char::is_control)
}

/// Whether reading an agent folder reads the file at `label`: a root file,
/// `utter.yml`, or a skill file in a skill folder that is not skipped. For
/// tools that take files from elsewhere (the playground, the language
/// server's unsaved files) and must say which ones count.
pub fn is_agent_file(label: &str) -> bool {
    if ROOT_FILES.contains(&label) || label == super::settings::SETTINGS_FILE {
        return true;
    }
    let Some((id, name)) = label
        .strip_prefix("skills/")
        .and_then(|rest| rest.split_once('/'))
    else {
        return false;
    };
    SKILL_FILES.contains(&name) && is_skill_folder(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_skills_round_trip() {
        for kind in [FileKind::Responses, FileKind::Memory, FileKind::SkillDoc] {
            let label = file_of(Some("card"), kind);
            assert_eq!(skill_of(&label), Some("card"));
            assert!(is_agent_file(&label), "{label}");
            assert_eq!(skill_of(kind.name()), None);
        }
        assert_eq!(memory_namespace("memory.yml"), Some("project"));
        assert_eq!(memory_namespace("skills/card/memory.yml"), Some("card"));
        assert_eq!(memory_namespace("skills/card/responses.yml"), None);
        assert_eq!(memory_namespace("skills/card/x/memory.yml"), None);
        assert_eq!(skill_of("skills/"), None);
        assert_eq!(skill_of("skills//responses.yml"), None);
        assert!(!is_agent_file("skills/_draft/responses.yml"));
        assert!(!is_agent_file("skills/.hidden/responses.yml"));
        assert!(!is_agent_file("skills/a\nb/responses.yml"));
        assert!(!is_agent_file("skills/card/notes.md"));
        assert!(is_agent_file("utter.yml"));
        assert!(!is_agent_file("tools/x.yml"));
    }
}
