//! The files of an agent project: read from disk (or built in memory for
//! tests), before any parsing.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

pub use super::layout::{ROOT_FILES, SKILL_FILES, is_agent_file};

/// The largest file utter reads; a larger one is a finding, never loaded.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The raw files of one project, keyed by `/`-separated path relative to the
/// agent folder. Skill folders are listed in sorted order, without the ones
/// whose name starts with `_` or `.`.
#[derive(Clone, Debug, Default)]
pub struct ProjectFiles {
    /// The agent folder, when read from disk.
    pub root: Option<PathBuf>,
    /// Each file read, by label (its path in the agent folder, `/`-separated).
    pub files: BTreeMap<String, Vec<u8>>,
    /// Skill ids: the folder names under `skills/`.
    pub skills: Vec<String>,
    /// Every folder listed and file read, for rebuild tracking (only paths
    /// that exist: a missing optional file would rebuild on every build).
    pub scanned: Vec<PathBuf>,
    /// Files over [`MAX_FILE_BYTES`], with their size: not read.
    pub oversized: BTreeMap<String, u64>,
    /// What was found and not read, and why: each becomes a finding.
    pub skipped: Vec<(String, Skipped)>,
    /// Check and compile without the bundled defaults (the packaged system
    /// responses and the default skills), for agents that use neither.
    /// Set only by [`crate::Agent`] from its options.
    pub(crate) without_bundled_defaults: bool,
    /// The flavour of the format: after reading, as the agent's `utter.yml`
    /// declares it (Mantle when it does not); [`crate::Agent`] replaces it
    /// with the caller's choice (a command-line or macro option), if any.
    /// Nothing outside the compiler sets it.
    pub(crate) dialect: crate::bundled::Dialect,
}

/// Why a path in the agent folder was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// A symlink whose target lies outside the agent folder: never followed
    /// (it could show a secret in a finding, or read a device).
    OutsideLink(PathBuf),
    /// A symlink to nothing.
    Dangling,
    /// A symlink that cannot be followed: it loops, or leads through a
    /// folder that cannot be read.
    Unfollowable,
    /// A FIFO, socket or device where a file is expected: never opened
    /// (reading one can hang or never end).
    NotAFile,
    /// A name with a control character (a newline would become a cargo
    /// directive) or that is not UTF-8.
    OddName,
    /// A plain file directly under `skills/`, where skill folders go.
    FileInSkills,
    /// A folder inside a skill folder that holds agent files: skills are
    /// not nested, so they are not read.
    Nested,
}

impl Skipped {
    /// Whether the project is refused for it (else it is only reported).
    pub fn is_error(&self) -> bool {
        matches!(
            self,
            Skipped::OutsideLink(_) | Skipped::NotAFile | Skipped::OddName
        )
    }

    /// What a finding says of it.
    pub fn message(&self) -> String {
        match self {
            Skipped::OutsideLink(target) => format!(
                "is a symlink to `{}`, outside the agent folder; utter follows symlinks only within the agent folder, so it was not read (copy the file in, or link to a file inside the folder)",
                target.display()
            ),
            Skipped::Dangling => "is a symlink to nothing; it is ignored".to_owned(),
            Skipped::Unfollowable => "is a symlink that cannot be followed (it loops, or leads through a folder that cannot be read); it is ignored".to_owned(),
            Skipped::NotAFile => "is not a regular file (a FIFO, socket or device); it was not opened".to_owned(),
            Skipped::OddName => "has a name with a control character, or one that is not UTF-8; rename it (it was not read, and no build directive names it)".to_owned(),
            Skipped::FileInSkills => "is a file directly under `skills/`, where only skill folders are read; it is ignored".to_owned(),
            Skipped::Nested => "is a folder inside a skill folder holding agent files; skills are not nested, so it is not read (move it to `skills/<id>/`)".to_owned(),
        }
    }
}

/// The project cannot be read at all.
#[derive(Debug)]
pub enum ReadError {
    /// The folder does not exist or is not a folder; a folder beside it
    /// whose name is close, if there is one.
    NotADirectory(PathBuf),
    /// The folder holds none of an agent's files (see
    /// [`ProjectFiles::is_agent`]); the agent folders one or two levels
    /// below it, if any (a repository's root given for its agent).
    NotAnAgent(PathBuf, Vec<String>),
    /// A file or folder could not be read.
    Io {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotADirectory(p) => {
                write!(
                    f,
                    "agent folder `{}` does not exist or is not a folder",
                    p.display()
                )?;
                match near_folder(p) {
                    Some(near) => {
                        write!(f, "; did you mean `{}`?", p.with_file_name(near).display())
                    }
                    None => Ok(()),
                }
            }
            ReadError::NotAnAgent(p, below) => {
                write!(
                    f,
                    "`{}` is not an agent folder: it holds no `responses.yml`, no `memory.yml` and no `skills/<id>/` folder with a `skill.md`, `responses.yml` or `memory.yml`",
                    p.display()
                )?;
                let shown: Vec<String> = below
                    .iter()
                    .map(|a| format!("`{}`", p.join(a).display()))
                    .collect();
                match shown.as_slice() {
                    [] => Ok(()),
                    [one] => write!(f, "; did you mean {one}?"),
                    many => write!(f, "; the agent folders below it are {}", many.join(", ")),
                }
            }
            ReadError::Io { path, error } => write!(f, "cannot read `{}`: {error}", path.display()),
        }
    }
}

impl std::error::Error for ReadError {}

/// The name of a folder beside `path` whose name is close to its last
/// component (a did-you-mean for a misspelt agent folder).
pub fn near_folder(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let folders: Vec<String> = std::fs::read_dir(parent)
        .ok()?
        .take(4096)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.chars().any(char::is_control))
        .collect();
    crate::diagnostics::did_you_mean(name, folders.iter().map(String::as_str)).map(str::to_owned)
}

/// The agent folders one or two levels below `dir` (as `a` or `a/b`,
/// sorted, at most 8): folders holding a `responses.yml`, a `memory.yml`
/// or a `skills/` folder. Links are not followed, hidden folders and
/// build output are skipped, and at most 4,096 entries are listed per
/// folder, so a large tree costs little.
pub fn agents_below(dir: &Path) -> Vec<String> {
    fn folders(dir: &Path) -> Vec<(String, PathBuf)> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        entries
            .take(4096)
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
            .filter(|(name, _)| {
                !name.starts_with('.')
                    && !name.chars().any(char::is_control)
                    && !matches!(name.as_str(), "target" | "node_modules" | "skills")
            })
            .collect()
    }
    let is_agent = |p: &Path| {
        ["responses.yml", "memory.yml"]
            .iter()
            .any(|f| std::fs::symlink_metadata(p.join(f)).is_ok_and(|m| m.is_file()))
            || std::fs::symlink_metadata(p.join("skills")).is_ok_and(|m| m.is_dir())
    };
    let mut found = Vec::new();
    for (name, path) in folders(dir) {
        if is_agent(&path) {
            found.push(name);
            continue;
        }
        for (inner, inner_path) in folders(&path) {
            if is_agent(&inner_path) {
                found.push(format!("{name}/{inner}"));
            }
        }
    }
    found.sort();
    found.truncate(8);
    found
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ReadError + '_ {
    move |error| ReadError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// What is at a path utter looks for.
enum Found {
    Nothing,
    Bytes(Vec<u8>),
    TooLarge(u64),
    Skipped(Skipped),
}

/// Whether a file's bytes are read, or only what it is (its text is laid
/// over it).
#[derive(Clone, Copy, PartialEq)]
enum Bytes {
    Read,
    Unread,
}

/// Whether `name` may be read and named in a build directive.
fn plain_name(name: &str) -> bool {
    !name.chars().any(char::is_control)
}

/// Reads at most `limit` bytes of `path` when it is a regular file; the
/// read itself is bounded, whatever the file system says of its size.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Result<Vec<u8>, u64>> {
    let file = std::fs::File::open(path)?;
    // Room for what the file system says it holds (a hint, within the
    // limit): one allocation rather than one per doubling.
    let hint = file.metadata().map_or(0, |m| m.len().min(limit + 1));
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0) + 1);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    let len = bytes.len() as u64;
    Ok(if len > limit { Err(len) } else { Ok(bytes) })
}

/// What a path in the agent folder is, following a symlink only when its
/// target lies inside `root` (canonical).
enum Kind {
    Missing,
    File,
    Dir,
    Skipped(Skipped),
}

fn kind(path: &Path, root: &Path) -> Result<Kind, ReadError> {
    let link = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Kind::Missing),
        Err(e) => return Err(io_error(path)(e)),
    };
    if link.file_type().is_symlink() {
        let target = match std::fs::canonicalize(path) {
            Ok(target) => target,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Kind::Skipped(Skipped::Dangling));
            }
            // A link that loops (or leads through something unreadable) is
            // a warning like a dangling one, not the end of the check.
            Err(_) => return Ok(Kind::Skipped(Skipped::Unfollowable)),
        };
        if !target.starts_with(root) {
            return Ok(Kind::Skipped(Skipped::OutsideLink(target)));
        }
    }
    // Not a link: what `symlink_metadata` said is what `metadata` would.
    let meta = if link.file_type().is_symlink() {
        std::fs::metadata(path).map_err(io_error(path))?
    } else {
        link
    };
    Ok(if meta.is_dir() {
        Kind::Dir
    } else if meta.is_file() {
        Kind::File
    } else {
        Kind::Skipped(Skipped::NotAFile)
    })
}

/// Reads `path` if it is a file of at most [`MAX_FILE_BYTES`].
fn read_optional(path: &Path, root: &Path, bytes: Bytes) -> Result<Found, ReadError> {
    match kind(path, root)? {
        Kind::Missing => Ok(Found::Nothing),
        Kind::Dir => Ok(Found::Skipped(Skipped::NotAFile)),
        Kind::Skipped(why) => Ok(Found::Skipped(why)),
        // Its text is laid over it: only its size is read.
        Kind::File if bytes == Bytes::Unread => match std::fs::metadata(path) {
            Ok(meta) if meta.len() > MAX_FILE_BYTES => Ok(Found::TooLarge(meta.len())),
            Ok(_) => Ok(Found::Bytes(Vec::new())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Found::Nothing),
            Err(e) => Err(io_error(path)(e)),
        },
        Kind::File => match read_bounded(path, MAX_FILE_BYTES) {
            Ok(Ok(bytes)) => Ok(Found::Bytes(bytes)),
            Ok(Err(size)) => Ok(Found::TooLarge(size)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Found::Nothing),
            Err(e) => Err(io_error(path)(e)),
        },
    }
}

impl ProjectFiles {
    /// The dialect these files are checked in: the agent's `utter.yml`'s
    /// (Mantle when it declares none), or what [`crate::OpenOptions`] chose.
    pub fn dialect(&self) -> crate::bundled::Dialect {
        self.dialect
    }

    /// Whether these files are checked without the bundled defaults.
    pub fn without_bundled_defaults(&self) -> bool {
        self.without_bundled_defaults
    }

    /// Reads the project in `dir`.
    pub fn read(dir: &Path) -> Result<Self, ReadError> {
        Self::read_beneath(dir, &|_| false)
    }

    /// Reads the project in `dir` beneath texts that will be laid over some
    /// of its files ([`ProjectFiles::overlay`]; `laid_over(label)`): what
    /// those files hold on disk is not read (an editor's unsaved buffers,
    /// a big file each keystroke), what they are is.
    pub fn read_beneath(dir: &Path, laid_over: &dyn Fn(&str) -> bool) -> Result<Self, ReadError> {
        let mut project = Self::read_tree(dir, laid_over)?;
        if project.is_agent() {
            project.dialect = project.declared_dialect().unwrap_or_default();
            Ok(project)
        } else {
            Err(ReadError::NotAnAgent(dir.to_path_buf(), agents_below(dir)))
        }
    }

    /// The dialect the agent's `utter.yml` declares, if it does: what
    /// [`ProjectFiles::dialect`] is after [`ProjectFiles::read`], unless the
    /// caller chooses.
    pub fn declared_dialect(&self) -> Option<crate::bundled::Dialect> {
        self.files
            .get(super::settings::SETTINGS_FILE)
            .and_then(|bytes| super::settings::declared_dialect(bytes))
    }

    /// The one rule for what an agent folder is, shared by the CLI, the
    /// macro and build.rs: it holds a `responses.yml` or a `memory.yml`, or
    /// a skill folder holding a `skill.md`, `responses.yml` or `memory.yml`
    /// (an agent that keeps all its wording in prose has no responses).
    pub fn is_agent(&self) -> bool {
        // Anything in `skills/` (a skipped skill folder has no file label).
        let in_skills = |label: &str| {
            (label.strip_prefix(super::layout::SKILLS)).is_some_and(|rest| rest.starts_with('/'))
        };
        let agent_file = |label: &str| ROOT_FILES.contains(&label) || in_skills(label);
        self.files.keys().any(|label| agent_file(label))
            || self.oversized.keys().any(|label| agent_file(label))
            || self.skipped.iter().any(|(label, _)| agent_file(label))
    }

    fn read_tree(dir: &Path, laid_over: &dyn Fn(&str) -> bool) -> Result<Self, ReadError> {
        let bytes = |label: &str| match laid_over(label) {
            true => Bytes::Unread,
            false => Bytes::Read,
        };
        if !dir.is_dir() {
            return Err(ReadError::NotADirectory(dir.to_path_buf()));
        }
        let root = std::fs::canonicalize(dir).map_err(io_error(dir))?;
        let mut project = ProjectFiles {
            root: Some(dir.to_path_buf()),
            ..Default::default()
        };
        project.scanned.push(dir.to_path_buf());
        for name in ROOT_FILES.iter().chain([&super::settings::SETTINGS_FILE]) {
            let path = dir.join(name);
            project.take(
                name.to_string(),
                path,
                read_optional(&dir.join(name), &root, bytes(name))?,
            );
        }
        let skills_dir = dir.join("skills");
        match kind(&skills_dir, &root)? {
            Kind::Dir => {}
            Kind::Missing => return Ok(project),
            Kind::File => {
                project
                    .skipped
                    .push(("skills".to_owned(), Skipped::FileInSkills));
                return Ok(project);
            }
            Kind::Skipped(why) => {
                project.skipped.push(("skills".to_owned(), why));
                return Ok(project);
            }
        }
        project.scanned.push(skills_dir.clone());
        let mut ids = Vec::new();
        for entry in std::fs::read_dir(&skills_dir).map_err(io_error(&skills_dir))? {
            let entry = entry.map_err(io_error(&skills_dir))?;
            let path = entry.path();
            let Ok(name) = entry.file_name().into_string() else {
                let shown = entry.file_name().to_string_lossy().into_owned();
                project
                    .skipped
                    .push((super::layout::skill_folder(&shown), Skipped::OddName));
                continue;
            };
            if name.starts_with('_') || name.starts_with('.') {
                continue;
            }
            let label = super::layout::skill_folder(&name);
            if !plain_name(&name) {
                project.skipped.push((label, Skipped::OddName));
                continue;
            }
            match kind(&path, &root)? {
                Kind::Dir => ids.push(name),
                Kind::File => project.skipped.push((label, Skipped::FileInSkills)),
                Kind::Missing => {}
                Kind::Skipped(why) => project.skipped.push((label, why)),
            }
        }
        // Directory order is the sorted order, whatever the OS lists.
        ids.sort();
        for id in &ids {
            let skill_dir = skills_dir.join(id);
            project.scanned.push(skill_dir.clone());
            for name in SKILL_FILES {
                let path = skill_dir.join(name);
                let label = format!("{}/{name}", super::layout::skill_folder(id));
                let found = read_optional(&path, &root, bytes(&label))?;
                project.take(label, path, found);
            }
            project.report_nested(&skill_dir, id, &root)?;
        }
        project.skills = ids;
        Ok(project)
    }

    /// Folders inside a skill folder that hold agent files: reported, not read.
    fn report_nested(&mut self, skill_dir: &Path, id: &str, root: &Path) -> Result<(), ReadError> {
        let mut nested = Vec::new();
        for entry in std::fs::read_dir(skill_dir).map_err(io_error(skill_dir))? {
            let entry = entry.map_err(io_error(skill_dir))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !matches!(kind(&path, root)?, Kind::Dir) {
                continue;
            }
            if SKILL_FILES.iter().any(|f| path.join(f).exists()) {
                nested.push(format!("{}/{name}", super::layout::skill_folder(id)));
            }
        }
        nested.sort();
        self.skipped
            .extend(nested.into_iter().map(|label| (label, Skipped::Nested)));
        Ok(())
    }

    fn take(&mut self, label: String, path: PathBuf, found: Found) {
        match found {
            Found::Nothing => return,
            Found::Bytes(bytes) => {
                self.files.insert(label, bytes);
            }
            Found::TooLarge(size) => {
                self.oversized.insert(label, size);
            }
            Found::Skipped(why) => {
                self.skipped.push((label, why));
                return;
            }
        }
        self.scanned.push(path);
    }

    /// Lays `text` over the file at `label` (an unsaved editor buffer):
    /// its skill joins the skills when it is new. `false` (nothing laid)
    /// when utter does not read such a file.
    pub fn overlay(&mut self, label: String, text: String) -> bool {
        self.overlay_bytes(label, text.into_bytes())
    }

    /// [`ProjectFiles::overlay`] of the bytes of a text (a buffer the
    /// caller reuses from overlay to overlay).
    pub fn overlay_bytes(&mut self, label: String, bytes: Vec<u8>) -> bool {
        if !is_agent_file(&label) {
            return false;
        }
        if let Some(id) = super::layout::skill_of(&label)
            && let Err(at) = self.skills.binary_search_by(|s| s.as_str().cmp(id))
        {
            self.skills.insert(at, id.to_owned());
        }
        self.files.insert(label, bytes);
        true
    }

    /// An in-memory project (tests, fuzzing): `(path, text)` pairs; skills are
    /// the folders named by `skills/<id>/...` paths.
    pub fn from_files<P: Into<String>, T: Into<Vec<u8>>>(
        files: impl IntoIterator<Item = (P, T)>,
    ) -> Self {
        let mut project = ProjectFiles::default();
        for (path, text) in files {
            let path = path.into();
            if let Some(id) = super::layout::skill_of(&path)
                && !id.starts_with(['_', '.'])
                && !project.skills.iter().any(|s| s == id)
            {
                project.skills.push(id.to_owned());
            }
            let bytes: Vec<u8> = text.into();
            if bytes.len() as u64 > MAX_FILE_BYTES {
                project.oversized.insert(path, bytes.len() as u64);
            } else {
                project.files.insert(path, bytes);
            }
        }
        project.skills.sort();
        project.dialect = project.declared_dialect().unwrap_or_default();
        project
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading beneath unsaved texts gives what reading all and laying the
    /// texts over gives, without reading what they cover.
    #[test]
    fn a_folder_read_beneath_unsaved_texts_is_the_folder_read_and_overlaid() {
        let dir = std::env::temp_dir().join(format!("utter-beneath-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("skills/pay")).unwrap();
        std::fs::write(dir.join("responses.yml"), "responses: {}\n").unwrap();
        std::fs::write(dir.join("memory.yml"), "n:\n  type: int\n").unwrap();
        std::fs::write(dir.join("skills/pay/responses.yml"), "on disk").unwrap();
        let unsaved = [
            ("skills/pay/responses.yml", "responses:\n  a: [x]\n"),
            ("skills/new/responses.yml", "responses: {}\n"),
        ];
        let laid = |mut files: ProjectFiles| {
            for (label, text) in unsaved {
                files.overlay(label.to_owned(), text.to_owned());
            }
            format!("{files:?}")
        };
        let read_all = ProjectFiles::read(&dir).unwrap();
        let laid_over = |label: &str| unsaved.iter().any(|(l, _)| *l == label);
        let beneath = ProjectFiles::read_beneath(&dir, &laid_over).unwrap();
        assert_eq!(beneath.files["skills/pay/responses.yml"], b"");
        assert_eq!(laid(beneath), laid(read_all));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_files_an_agent_folder_is_read_from_are_the_ones_that_count() {
        let dir = std::env::temp_dir().join(format!("utter-agent-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let labels = [
            "responses.yml",
            "memory.yml",
            "utter.yml",
            "domain.yml",
            "skills/pay/responses.yml",
            "skills/pay/memory.yml",
            "skills/pay/skill.md",
            "skills/pay/notes.md",
            "skills/_draft/responses.yml",
            "skills/.hidden/responses.yml",
        ];
        for label in labels {
            let path = dir.join(label);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "{}\n").unwrap();
        }
        let read = ProjectFiles::read(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        for label in labels {
            assert_eq!(
                is_agent_file(label),
                read.files.contains_key(label),
                "{label}"
            );
        }
        for odd in [
            "skills/responses.yml",
            "skills//responses.yml",
            "skills/a/b/skill.md",
            "skills/a\nb/skill.md",
        ] {
            assert!(!is_agent_file(odd), "{odd:?}");
        }
    }
}
