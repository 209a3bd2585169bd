//! One validation pass over a project: the files it has read, the findings
//! so far and the YAML budget they share; the units (root and skills) in
//! merge order; and the checks of the folder itself (files not read, the
//! settings file, skill ids).

use crate::load::layout::{FileKind, file_of};
use crate::load::settings::Settings;
use std::cell::Cell;

use super::Scope;
use super::files::parse_file;
use crate::bundled;
use crate::diagnostics::{Finding, Severity, SourceFile, codes};
use crate::load::FileCx;
use crate::load::project::ProjectFiles;
use crate::load::yaml::{Node, YamlBudget};

/// What the checks of one project share.
pub(super) struct Pass {
    /// Every file read (decoded), in reading order.
    pub(super) sources: Vec<SourceFile>,
    pub(super) findings: Vec<Finding>,
    /// Every YAML document of the project draws on this one budget.
    pub(super) yaml_budget: Cell<YamlBudget>,
}

impl Pass {
    pub(super) fn new() -> Self {
        Pass {
            sources: Vec::new(),
            findings: Vec::new(),
            yaml_budget: Cell::new(YamlBudget::PROJECT),
        }
    }

    /// Decodes and parses a YAML file; its source is pushed either way (the
    /// last one), its findings reported: `None` when it does not parse,
    /// `Some(None)` when it is empty.
    pub(super) fn parse(&mut self, label: &str, bytes: &[u8]) -> Option<Option<Node>> {
        parse_file(
            label,
            bytes,
            &mut self.sources,
            &mut self.findings,
            &self.yaml_budget,
        )
    }

    /// The file read last, ready to report into.
    pub(super) fn last_file(&mut self) -> FileCx<'_> {
        FileCx {
            source: self.sources.last().expect("a file was read"),
            findings: &mut self.findings,
        }
    }

    /// Files the read refused, ignored or cut at the size limit.
    pub(super) fn report_unread_files(&mut self, files: &ProjectFiles) {
        for label in files.oversized.keys() {
            let limit = crate::load::project::MAX_FILE_BYTES;
            self.findings.push(SourceFile::new(label.clone(), "").finding(
            codes::YAML_LIMIT,
            Severity::Error,
            0..0,
            // The read stops past the limit: a larger size is not known.
            format!("the file is too large: more than {limit} bytes (utter reads files of at most {limit} bytes)"),
        )
        .with_help("split its responses or entries over skill files, or shorten it"));
        }

        for (label, why) in &files.skipped {
            let (code, severity) = if why.is_error() {
                (codes::IO_REFUSED, Severity::Error)
            } else {
                (codes::IO_IGNORED, Severity::Warning)
            };
            self.findings
                .push(SourceFile::new(label.clone(), "").finding(
                    code,
                    severity,
                    0..0,
                    why.message(),
                ));
        }
    }

    /// The agent's own settings (its dialect), read before the check chose
    /// the bundled layer: here each problem in the file is reported.
    pub(super) fn check_settings(&mut self, files: &ProjectFiles) -> Settings {
        let settings = crate::load::settings::SETTINGS_FILE;
        if let Some(bytes) = files.files.get(settings)
            && let Some(root) = self.parse(settings, bytes)
        {
            let mut cx = self.last_file();
            return crate::load::settings::walk(&mut cx, root.as_ref());
        }
        Settings::default()
    }

    /// Skill ids the reference engine refuses.
    pub(super) fn check_skill_ids(&mut self, files: &ProjectFiles) {
        for id in &files.skills {
            let folder = crate::load::layout::skill_folder(id);
            let problem = if id == "project" || id == "system" {
                Some((
                    codes::SKILL_RESERVED_ID,
                    format!(
                        "skill id `{id}` is reserved for the `{id}` memory namespace; rename the folder"
                    ),
                ))
            } else if !files.files.contains_key(&format!("{folder}/skill.md")) {
                // The reference does not load the skill (nor its memory). Its
                // files are still checked here, as written, so that this one
                // finding is all the author sees.
                Some((
                    codes::SKILL_FAILED_TO_LOAD,
                    format!(
                        "skill folder `{folder}` has no `skill.md`, so the skill does not load and its memory.yml is ignored; add `{folder}/skill.md` (frontmatter with a `description:`), or remove the folder"
                    ),
                ))
            } else if id.contains('.') {
                Some((
                    codes::SKILL_INVALID_ID,
                    format!(
                        "skill id `{id}` contains `.`, which would make `session.{id}.<entry>` ambiguous; rename the folder"
                    ),
                ))
            } else {
                None
            };
            if let Some((code, message)) = problem {
                self.findings.push(SourceFile::new(folder, "").finding(
                    code,
                    Severity::Error,
                    0..0,
                    message,
                ));
            }
        }
    }
}

/// The bundled default skills the project is checked with.
pub(super) fn bundled_skills(files: &ProjectFiles) -> &'static [bundled::BundledSkill] {
    if files.without_bundled_defaults {
        &[]
    } else {
        bundled::skills(files.dialect)
    }
}

/// One skill or the root, in merge order, with its files' labels and bytes.
pub(super) struct Unit<'a> {
    pub(super) scope: Scope,
    pub(super) responses: Option<(String, &'a [u8])>,
    pub(super) memory: Option<(String, &'a [u8])>,
    pub(super) bundled: bool,
}

pub(super) fn units(files: &ProjectFiles) -> Vec<Unit<'_>> {
    // Merge order: packaged system responses, default skills, project skills, root.
    let mut units = vec![Unit {
        scope: Scope::Root,
        responses: Some((
            bundled::label("system", "responses.yml"),
            bundled::system_responses(files.dialect).as_bytes(),
        )),
        memory: None,
        bundled: true,
    }];
    if files.without_bundled_defaults {
        units.clear();
    }
    for skill in bundled_skills(files) {
        let project_memory = files
            .files
            .contains_key(&file_of(Some(skill.id), FileKind::Memory));
        units.push(Unit {
            scope: Scope::Skill(skill.id.to_owned()),
            responses: skill
                .responses
                .map(|t| (bundled::label(skill.id, "responses.yml"), t.as_bytes())),
            // A project skill with the same id brings its own memory.yml instead.
            memory: skill
                .memory
                .filter(|_| !project_memory)
                .map(|t| (bundled::label(skill.id, "memory.yml"), t.as_bytes())),
            bundled: true,
        });
    }
    let file = |label: String| files.files.get(&label).map(|b| (label, b.as_slice()));
    for id in &files.skills {
        units.push(Unit {
            scope: Scope::Skill(id.clone()),
            responses: file(file_of(Some(id), FileKind::Responses)),
            memory: file(file_of(Some(id), FileKind::Memory)),
            bundled: false,
        });
    }
    units.push(Unit {
        scope: Scope::Root,
        responses: file("responses.yml".to_owned()),
        memory: file("memory.yml".to_owned()),
        bundled: false,
    });
    units
}
