//! The files of an agent project: read from disk (or built in memory for
//! tests), before any parsing.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The files utter reads in every skill folder.
pub const SKILL_FILES: &[&str] = &["responses.yml", "memory.yml", "skill.md"];
/// The largest file utter reads; a larger one is a finding, never loaded.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The files utter reads at the project root.
pub const ROOT_FILES: &[&str] = &["responses.yml", "memory.yml"];

/// The raw files of one project, keyed by `/`-separated path relative to the
/// agent folder. Skill folders are listed in sorted order, without the ones
/// whose name starts with `_` or `.`.
#[derive(Clone, Debug, Default)]
pub struct ProjectFiles {
    /// The agent folder, when read from disk.
    pub root: Option<PathBuf>,
    pub files: BTreeMap<String, Vec<u8>>,
    /// Skill ids: the folder names under `skills/`.
    pub skills: Vec<String>,
    /// Every folder listed and file read (or looked for), for rebuild tracking.
    pub scanned: Vec<PathBuf>,
    /// Files over [`MAX_FILE_BYTES`], with their size: not read.
    pub oversized: BTreeMap<String, u64>,
}

/// The project cannot be read at all.
#[derive(Debug)]
pub enum ReadError {
    NotADirectory(PathBuf),
    Io { path: PathBuf, error: io::Error },
    NonUtf8Name(PathBuf),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotADirectory(p) => {
                write!(
                    f,
                    "agent folder `{}` does not exist or is not a folder",
                    p.display()
                )
            }
            ReadError::Io { path, error } => write!(f, "cannot read `{}`: {error}", path.display()),
            ReadError::NonUtf8Name(p) => {
                write!(f, "skill folder name `{}` is not valid UTF-8", p.display())
            }
        }
    }
}

impl std::error::Error for ReadError {}

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
}

/// Reads `path` if it is a file of at most [`MAX_FILE_BYTES`].
fn read_optional(path: &Path) -> Result<Found, ReadError> {
    let size = match std::fs::metadata(path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(io_error(path)(e)),
    };
    if size > MAX_FILE_BYTES {
        return Ok(Found::TooLarge(size));
    }
    match std::fs::read(path) {
        Ok(bytes) => Ok(Found::Bytes(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Found::Nothing),
        Err(e) => Err(io_error(path)(e)),
    }
}

impl ProjectFiles {
    /// Reads the project in `dir`.
    pub fn read(dir: &Path) -> Result<Self, ReadError> {
        if !dir.is_dir() {
            return Err(ReadError::NotADirectory(dir.to_path_buf()));
        }
        let mut project = ProjectFiles {
            root: Some(dir.to_path_buf()),
            ..Default::default()
        };
        project.scanned.push(dir.to_path_buf());
        for name in ROOT_FILES {
            let path = dir.join(name);
            project.take(name.to_string(), read_optional(&path)?);
            project.scanned.push(path);
        }
        let skills_dir = dir.join("skills");
        if skills_dir.is_dir() {
            project.scanned.push(skills_dir.clone());
            let mut ids = Vec::new();
            for entry in std::fs::read_dir(&skills_dir).map_err(io_error(&skills_dir))? {
                let entry = entry.map_err(io_error(&skills_dir))?;
                let path = entry.path();
                if !path.is_dir() {
                    continue;
                }
                let name = entry
                    .file_name()
                    .into_string()
                    .map_err(|_| ReadError::NonUtf8Name(path.clone()))?;
                if name.starts_with('_') || name.starts_with('.') {
                    continue;
                }
                ids.push(name);
            }
            // Directory order is the sorted order, whatever the OS lists.
            ids.sort();
            for id in &ids {
                let skill_dir = skills_dir.join(id);
                project.scanned.push(skill_dir.clone());
                for name in SKILL_FILES {
                    let path = skill_dir.join(name);
                    project.take(format!("skills/{id}/{name}"), read_optional(&path)?);
                    project.scanned.push(path);
                }
            }
            project.skills = ids;
        }
        Ok(project)
    }

    fn take(&mut self, label: String, found: Found) {
        match found {
            Found::Nothing => {}
            Found::Bytes(bytes) => {
                self.files.insert(label, bytes);
            }
            Found::TooLarge(size) => {
                self.oversized.insert(label, size);
            }
        }
    }

    /// An in-memory project (tests, fuzzing): `(path, text)` pairs; skills are
    /// the folders named by `skills/<id>/...` paths.
    pub fn from_files<P: Into<String>, T: Into<Vec<u8>>>(
        files: impl IntoIterator<Item = (P, T)>,
    ) -> Self {
        let mut project = ProjectFiles::default();
        for (path, text) in files {
            let path = path.into();
            if let Some(rest) = path.strip_prefix("skills/")
                && let Some((id, _)) = rest.split_once('/')
            {
                {
                    if !id.starts_with('_')
                        && !id.starts_with('.')
                        && !project.skills.iter().any(|s| s == id)
                    {
                        project.skills.push(id.to_owned());
                    }
                }
            }
            let bytes: Vec<u8> = text.into();
            if bytes.len() as u64 > MAX_FILE_BYTES {
                project.oversized.insert(path, bytes.len() as u64);
            } else {
                project.files.insert(path, bytes);
            }
        }
        project.skills.sort();
        project
    }
}
