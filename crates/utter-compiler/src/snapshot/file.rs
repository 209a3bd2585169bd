//! The snapshot file, treated as hostile: it is read and written only as a
//! regular file, never through a symbolic link or as a special file (a
//! FIFO would hang the check, a device or a procfs file would be read or
//! overwritten), read with a size bound, and written atomically (a
//! temporary file in the same folder, then a rename), so a failed write
//! never leaves half a snapshot behind.

use std::fmt;
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest snapshot read: far above any agent's (20,000 variants
/// write about 4 MiB), and small enough that a hostile one is read and
/// compared in bounded memory.
pub const MAX_SNAPSHOT_BYTES: u64 = 32 * 1024 * 1024;

/// Why the snapshot file was not read or written.
#[derive(Debug)]
pub enum FileError {
    /// Nothing is at the path.
    Missing(PathBuf),
    /// The path is a symbolic link.
    Link(PathBuf),
    /// The path is a folder, a FIFO, a device or a socket.
    NotAFile(PathBuf),
    /// The file was replaced or written while it was read.
    Changed(PathBuf),
    /// The file holds more than [`MAX_SNAPSHOT_BYTES`].
    TooLarge(PathBuf),
    /// The file is not UTF-8 text.
    NotText(PathBuf),
    /// The file system refused.
    Io(PathBuf, io::Error),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown =
            |p: &Path| crate::diagnostics::escape::escape(&p.display().to_string()).into_owned();
        match self {
            FileError::Missing(p) => write!(f, "no snapshot at `{}`", shown(p)),
            FileError::Link(p) => write!(
                f,
                "the snapshot `{}` is a symbolic link: utter reads and writes the snapshot only as a regular file (replace the link with the file, or pass the file's own path with `--out`)",
                shown(p)
            ),
            FileError::NotAFile(p) => write!(
                f,
                "the snapshot `{}` is not a regular file (a folder, FIFO, device or socket): remove it, or pass another path with `--out`",
                shown(p)
            ),
            FileError::Changed(p) => write!(
                f,
                "the snapshot `{}` changed while it was read (another program wrote it meanwhile): run the command again once it is written",
                shown(p)
            ),
            FileError::TooLarge(p) => write!(
                f,
                "the snapshot `{}` is larger than {} MiB: not a snapshot utter wrote",
                shown(p),
                MAX_SNAPSHOT_BYTES >> 20
            ),
            FileError::NotText(p) => write!(
                f,
                "the snapshot `{}` is not UTF-8 text: not a snapshot utter wrote",
                shown(p)
            ),
            FileError::Io(p, e) => write!(f, "cannot access the snapshot `{}`: {e}", shown(p)),
        }
    }
}

impl std::error::Error for FileError {}

/// What is at `path`, without following a link: `Ok(None)` for nothing.
fn regular(path: &Path) -> Result<Option<std::fs::Metadata>, FileError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FileError::Io(path.to_path_buf(), e)),
        Ok(m) if m.file_type().is_symlink() => Err(FileError::Link(path.to_path_buf())),
        Ok(m) if !m.is_file() => Err(FileError::NotAFile(path.to_path_buf())),
        Ok(m) => Ok(Some(m)),
    }
}

/// Whether two metadata name the same file (on Unix: device and inode).
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.is_file() == b.is_file()
    }
}

/// Reads the snapshot at `path`.
pub fn read(path: &Path) -> Result<String, FileError> {
    let io = |e| FileError::Io(path.to_path_buf(), e);
    let Some(before) = regular(path)? else {
        return Err(FileError::Missing(path.to_path_buf()));
    };
    let file = std::fs::File::open(path).map_err(io)?;
    // The path may have been swapped for something else since it was looked at.
    let opened = file.metadata().map_err(io)?;
    if !opened.is_file() {
        return Err(FileError::NotAFile(path.to_path_buf()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SNAPSHOT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_SNAPSHOT_BYTES {
        return Err(FileError::TooLarge(path.to_path_buf()));
    }
    let read = ReadAs {
        same_file: same_file(&before, &opened),
        said_len: opened.len(),
        read_len: bytes.len() as u64,
    };
    read.verdict(path)?;
    String::from_utf8(bytes).map_err(|_| FileError::NotText(path.to_path_buf()))
}

/// What reading a regular file found, against what was looked at first.
struct ReadAs {
    /// The path still names the file looked at (not swapped meanwhile).
    same_file: bool,
    /// The size the open file says it has.
    said_len: u64,
    /// The bytes read.
    read_len: u64,
}

impl ReadAs {
    /// A pseudo-file (procfs, sysfs) says it is empty and yields bytes: no
    /// snapshot. A file swapped or written meanwhile changed while read.
    fn verdict(&self, path: &Path) -> Result<(), FileError> {
        if self.said_len == 0 && self.read_len > 0 {
            return Err(FileError::NotAFile(path.to_path_buf()));
        }
        if !self.same_file || self.read_len != self.said_len {
            return Err(FileError::Changed(path.to_path_buf()));
        }
        Ok(())
    }
}

/// Writes `contents` to `path` atomically: into a new temporary file in
/// the same folder, then renamed over `path`. A link or special file at
/// `path` is refused, not followed.
pub fn write(path: &Path, contents: &str) -> Result<(), FileError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let io = |e| FileError::Io(path.to_path_buf(), e);
    regular(path)?;
    let name = path
        .file_name()
        .ok_or_else(|| FileError::NotAFile(path.to_path_buf()))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut temporary = None;
    for _ in 0..100 {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(
            ".{}.{}.tmp",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let tmp = folder.join(tmp_name);
        // `create_new` never follows a link and never reuses a file.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => {
                temporary = Some((tmp, file));
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io(e)),
        }
    }
    let Some((tmp, mut file)) = temporary else {
        return Err(io(io::Error::other("no free temporary file name")));
    };
    let written = file
        .write_all(contents.as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            // Closed before the rename (Windows renames no open file).
            #[allow(clippy::drop_non_drop)] // a File is plain data on wasm32
            drop(file);
            std::fs::rename(&tmp, path)
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("utter-snapfile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_snapshot_is_written_whole_and_read_back() {
        let dir = scratch("plain");
        let path = dir.join("responses.snap");
        write(&path, "one\n").unwrap();
        write(&path, "two\n").unwrap();
        assert_eq!(read(&path).unwrap(), "two\n");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(matches!(
            read(&dir.join("none.snap")),
            Err(FileError::Missing(_))
        ));
        assert!(matches!(read(&dir), Err(FileError::NotAFile(_))));
        assert!(matches!(write(&dir, "x"), Err(FileError::NotAFile(_))));
        std::fs::write(dir.join("bin.snap"), [0xff, 0xfe]).unwrap();
        assert!(matches!(
            read(&dir.join("bin.snap")),
            Err(FileError::NotText(_))
        ));
    }

    /// A file swapped or written while it was read is said to have changed,
    /// not to be a special file; a pseudo-file is no file.
    #[test]
    fn a_file_written_meanwhile_changed_while_read() {
        let path = Path::new("responses.snap");
        let verdict = |same_file, said_len, read_len| {
            ReadAs {
                same_file,
                said_len,
                read_len,
            }
            .verdict(path)
        };
        assert!(verdict(true, 10, 10).is_ok());
        assert!(matches!(verdict(false, 10, 10), Err(FileError::Changed(_))));
        assert!(matches!(verdict(true, 10, 12), Err(FileError::Changed(_))));
        assert!(matches!(verdict(true, 0, 12), Err(FileError::NotAFile(_))));
        let shown = FileError::Changed(path.to_path_buf()).to_string();
        assert!(shown.contains("changed while it was read"), "{shown}");
        #[cfg(target_os = "linux")]
        assert!(matches!(
            read(Path::new("/proc/self/status")),
            Err(FileError::NotAFile(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_and_special_files_are_refused_never_followed() {
        let dir = scratch("links");
        let target = dir.join("outside.txt");
        std::fs::write(&target, "keep me\n").unwrap();
        let link = dir.join("responses.snap");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(write(&link, "x"), Err(FileError::Link(_))));
        assert!(matches!(read(&link), Err(FileError::Link(_))));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
        for special in ["/dev/zero", "/dev/null"] {
            let p = Path::new(special);
            if p.exists() {
                assert!(matches!(read(p), Err(FileError::NotAFile(_))), "{special}");
                assert!(
                    matches!(write(p, "x"), Err(FileError::NotAFile(_))),
                    "{special}"
                );
            }
        }
        let self_environ = Path::new("/proc/self/environ");
        if self_environ.exists() {
            // procfs calls it a regular file of no bytes, and it yields the environment.
            assert!(matches!(read(self_environ), Err(FileError::NotAFile(_))));
        }
        let fifo = dir.join("fifo.snap");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            assert!(matches!(read(&fifo), Err(FileError::NotAFile(_))));
            assert!(matches!(write(&fifo, "x"), Err(FileError::NotAFile(_))));
        }
    }
}
