//! Any bytes as a project *tree* on disk: folders, files, symlinks (to
//! anywhere, `/dev/zero` and `/etc/passwd` included) and FIFOs with any
//! names. Reading never panics, hangs or reads outside the agent folder,
//! and no build directive carries a name from the tree.
#![no_main]

use std::path::{Component, Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use utter_compiler::{Agent, OpenOptions, ProjectFiles};

/// Targets a symlink may point at: inside, outside, special files.
const TARGETS: &[&str] = &[
    "/dev/zero",
    "/etc/passwd",
    "/",
    "..",
    "../..",
    "skills",
    "responses.yml",
    "nowhere",
];
const NAMES: &[&str] = &[
    "responses.yml",
    "memory.yml",
    "skill.md",
    "skills",
    "s",
    "_x",
    ".h",
    "a\nb",
    "cargo::x=1",
    "é",
];

/// A relative path built from the input, never leaving the tree.
fn path_of(bytes: &[u8]) -> PathBuf {
    let mut path = PathBuf::new();
    for chunk in bytes.chunks(1).take(4) {
        let name = NAMES[chunk[0] as usize % NAMES.len()];
        path.push(name);
    }
    path.components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect()
}

/// Creates the folders of `rel` under `root`, each a real folder: never
/// through a symlink the input made (it may point at `/`). `false` when a
/// component is anything but a folder.
fn make_parents(root: &Path, rel: &Path) -> bool {
    let mut at = root.to_path_buf();
    let Some(parent) = rel.parent() else {
        return true;
    };
    for component in parent.components() {
        at.push(component);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_dir() => {}
            Ok(_) => return false,
            Err(_) => {
                if std::fs::create_dir(&at).is_err() {
                    return false;
                }
            }
        }
    }
    true
}

/// Builds the tree. The harness itself must never write outside `root`:
/// every entry is new (`create_new`, `mkdir`, `symlink` and `mkfifo` all
/// refuse an existing path and never follow a final symlink), and its
/// folders are real folders made here.
fn build(root: &Path, data: &[u8]) {
    for record in data.split(|&b| b == 0xFF).take(32) {
        let [kind, rest @ ..] = record else { continue };
        let (name, content) = rest.split_at(rest.len().min(3));
        let rel = path_of(name);
        if rel.as_os_str().is_empty() || !make_parents(root, &rel) {
            continue;
        }
        let path = root.join(&rel);
        if std::fs::symlink_metadata(&path).is_ok() {
            continue;
        }
        let _ = match kind % 4 {
            0 => std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .and_then(|mut f| std::io::Write::write_all(&mut f, content)),
            1 => std::fs::create_dir(&path),
            2 => std::os::unix::fs::symlink(
                TARGETS[content.first().copied().unwrap_or(0) as usize % TARGETS.len()],
                &path,
            ),
            _ => std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .map(|_| ()),
        };
    }
}

fuzz_target!(|data: &[u8]| {
    let root = std::env::temp_dir().join(format!("utter-fuzz-tree-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("a temporary folder");
    build(&root, data);
    if let Ok(files) = ProjectFiles::read(&root) {
        for label in files.files.keys() {
            assert!(!label.contains('\n'), "{label:?}");
        }
        let checked = Agent::from_files(files.clone(), OpenOptions::default()).into_checked();
        for finding in &checked.findings {
            assert!(
                !finding.message.contains("root:x:0:0"),
                "a file outside was read"
            );
        }
    }
    let mut directives = Vec::new();
    let _ = utter_build::Builder::new("agent").compile_paths(
        &root,
        &root.join("out.rs"),
        &mut directives,
    );
    for line in String::from_utf8_lossy(&directives).lines() {
        assert!(
            line.starts_with("cargo::rerun-if-changed=")
                || line.starts_with("cargo::warning=")
                || line.starts_with("cargo::error="),
            "{line:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
});
