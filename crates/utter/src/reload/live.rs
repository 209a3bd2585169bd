//! The `hot-reload` feature: a watcher per agent folder, a full check of
//! every edit, and an atomic swap of the program deliveries read.
//!
//! Deliveries take the current program as an `Arc` under a read lock held
//! for one clone, so a swap never waits for a delivery and a delivery in
//! flight finishes on the program it started with. Reloads are serialised
//! by the control lock; deliveries never take it once watching started.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::Duration;

use notify::Watcher as _;
use utter_compiler::codegen::{self, reload::schema_fingerprint, reload::wording_fingerprint};
use utter_compiler::diagnostics::escape::escape;
use utter_compiler::{Agent, OpenOptions, Registry};
use utter_runtime::program::ProgramData;
use utter_runtime::{Delivery, Entry, Reader};

use super::events::{ReloadError, ReloadEvent};
use super::{CompiledAgent, HotReload};

/// How long the folder must be quiet after a change before it is read:
/// editors save in several steps (truncate, write, rename).
const QUIET: Duration = Duration::from_millis(100);

/// A reloaded agent: its entries (as the program's pieces name them) and program.
struct Loaded {
    entries: Vec<Entry<String, Vec<String>>>,
    program: ProgramData,
}

type Reporter = Arc<dyn Fn(&ReloadEvent) + Send + Sync>;

/// What reloads change, behind one lock.
struct Control {
    folder: Option<PathBuf>,
    /// Dropping it ends its thread (the event channel closes).
    watcher: Option<notify::RecommendedWatcher>,
    reporter: Option<Reporter>,
    /// Per response, the fingerprint of the wording delivered now (`None`:
    /// the compiled wording).
    wording: Option<Vec<u64>>,
    /// Which folder is watched: what the path named when watching began.
    identity: Option<FolderId>,
    /// Bumped by every watch and stop: a watcher's thread of an older
    /// epoch ends.
    epoch: u64,
    /// Whether the last outcome reported was bad (rejected, incompatible,
    /// folder gone): the next clean one says so.
    out_of_sync: bool,
}

/// A folder's identity: device and inode where there are some, else its
/// canonical path. A folder renamed away keeps it; one put in its place
/// (a new folder, a symlink to another) has another.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FolderId {
    #[cfg(unix)]
    inode: (u64, u64),
    #[cfg(not(unix))]
    canonical: PathBuf,
}

impl FolderId {
    /// The folder `path` names now (symlinks followed); `None` if none.
    fn of(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok().filter(|m| m.is_dir())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Some(FolderId {
                inode: (metadata.dev(), metadata.ino()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = metadata;
            Some(FolderId {
                canonical: path.canonicalize().ok()?,
            })
        }
    }
}

/// How often a watcher looks at what its path names when no event comes
/// (a rename of the folder itself may not be reported), and how often a
/// folder that is gone is looked for.
const FOLDER_CHECK: Duration = Duration::from_millis(500);

pub(crate) struct Live {
    agent: &'static CompiledAgent,
    current: RwLock<Option<Arc<Loaded>>>,
    started: AtomicBool,
    generation: AtomicU64,
    control: Mutex<Control>,
}

impl Live {
    pub(crate) const fn new(agent: &'static CompiledAgent) -> Self {
        Live {
            agent,
            current: RwLock::new(None),
            started: AtomicBool::new(false),
            generation: AtomicU64::new(0),
            control: Mutex::new(Control {
                folder: None,
                watcher: None,
                reporter: None,
                wording: None,
                identity: None,
                epoch: 0,
                out_of_sync: false,
            }),
        }
    }

    pub(crate) fn agent(&self) -> &'static CompiledAgent {
        self.agent
    }

    /// The delivery from the reloaded program, if one is loaded; the first
    /// call starts watching the folder the agent was compiled from.
    pub(crate) fn deliver<R: Reader>(
        &'static self,
        response: usize,
        reader: &R,
    ) -> Option<Delivery<'static>> {
        if !self.started.load(Ordering::Acquire) {
            self.start_compiled_folder();
        }
        let loaded = self
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()?;
        let name = *self.agent.responses.get(response)?;
        let delivery = loaded
            .program
            .program()
            .deliver(response, &loaded.entries, reader);
        Some(if delivery.fallback {
            Delivery::fallback(name)
        } else {
            Delivery {
                text: Cow::Owned(delivery.text.into_owned()),
                response: name,
                variant: delivery.variant,
                rephrase: delivery.rephrase,
                fallback: false,
                wording: delivery.wording,
                guard: delivery.guard,
            }
        })
    }

    fn control(&self) -> MutexGuard<'_, Control> {
        // A reporter that panicked poisons nothing we rely on: the state
        // is swapped whole.
        self.control.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Watches the folder recorded at compile time, once, unless a folder
    /// was chosen already.
    fn start_compiled_folder(&'static self) {
        let mut control = self.control();
        if self.started.swap(true, Ordering::AcqRel) {
            return;
        }
        let event = match self.agent.folder {
            Some(folder) => match self.watch_locked(&mut control, PathBuf::from(folder)) {
                Ok(event) => event,
                Err(error) => ReloadEvent::WatchFailed(error),
            },
            None => ReloadEvent::WatchFailed(ReloadError {
                message: "the agent's folder was not recorded (code from `utter expand`): call `hot_reload().watch(folder)`".into(),
            }),
        };
        report(&mut control, &event);
    }

    /// Starts watching `folder` (replacing any watcher) and loads it.
    /// Its parent is watched too (not recursively): a folder removed and
    /// made again is told by the events on its name there, since the new
    /// folder may get the old one's inode.
    fn watch_locked(
        &'static self,
        control: &mut Control,
        folder: PathBuf,
    ) -> Result<ReloadEvent, ReloadError> {
        control.watcher = None;
        control.epoch += 1;
        let epoch = control.epoch;
        let (sender, receiver) = mpsc::channel();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                // The receiver is gone once this watcher is replaced.
                let _ = sender.send(event);
            })
            .map_err(|e| watch_error(&folder, &e))?;
        // Events name paths as they were watched: one absolute spelling.
        let watched = std::path::absolute(&folder).map_err(|e| watch_error(&folder, &e))?;
        watcher
            .watch(&watched, notify::RecursiveMode::Recursive)
            .map_err(|e| watch_error(&folder, &e))?;
        // Best effort: without it (a root folder), the periodic look at
        // what the path names still follows a replaced folder.
        if let Some(parent) = watched.parent() {
            let _ = watcher.watch(parent, notify::RecursiveMode::NonRecursive);
        }
        std::thread::Builder::new()
            .name("utter-hot-reload".into())
            .spawn(move || self.follow(&receiver, epoch, &watched))
            .map_err(|e| watch_error(&folder, &e))?;
        control.watcher = Some(watcher);
        control.identity = FolderId::of(&folder);
        control.folder = Some(folder);
        Ok(self.reload_locked(control))
    }

    /// The watcher's thread: a reload after each burst of changes, until
    /// the watcher is replaced or dropped. When the path names another
    /// folder than the one watched (renamed, replaced by a new folder or a
    /// symlink), it watches what the path names now; when it names none,
    /// it says so and waits for the folder to come back. `watched` is the
    /// folder's absolute path, as events name it.
    fn follow(
        &'static self,
        events: &mpsc::Receiver<notify::Result<notify::Event>>,
        epoch: u64,
        watched: &Path,
    ) {
        loop {
            let mut burst = Burst::default();
            match events.recv_timeout(FOLDER_CHECK) {
                Ok(event) => {
                    burst.add(&event, watched);
                    // Wait for quiet: a save is several events.
                    while let Ok(event) = events.recv_timeout(QUIET) {
                        burst.add(&event, watched);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
            let mut control = self.control();
            if control.epoch != epoch {
                return;
            }
            let Some(folder) = control.folder.clone() else {
                return;
            };
            let now = FolderId::of(&folder);
            if now.is_none() {
                control.watcher = None;
                let event = ReloadEvent::WatchFailed(ReloadError {
                    message: format!(
                        "the agent folder `{}` was removed or moved away: the last good wording stays until it is back",
                        folder.display()
                    ),
                });
                report(&mut control, &event);
                drop(control);
                self.wait_for_folder(&folder, epoch);
                return;
            }
            if burst.folder_itself || now != control.identity {
                // Another folder at the path (or the same made again, its
                // watch gone with the old one): watch it; a new thread follows.
                match self.watch_locked(&mut control, folder.clone()) {
                    Ok(event) => report(&mut control, &event),
                    Err(error) => {
                        report(&mut control, &ReloadEvent::WatchFailed(error));
                        drop(control);
                        self.wait_for_folder(&folder, epoch);
                    }
                }
                return;
            }
            if burst.relevant {
                let event = self.reload_locked(&mut control);
                report(&mut control, &event);
            }
        }
    }

    /// Looks for `folder` until it is back and watched (a watch that fails,
    /// the folder gone again meanwhile, is tried again), or a newer watch
    /// or a stop replaced this one.
    fn wait_for_folder(&'static self, folder: &Path, epoch: u64) {
        let mut epoch = epoch;
        loop {
            std::thread::sleep(FOLDER_CHECK);
            let mut control = self.control();
            if control.epoch != epoch {
                return;
            }
            if FolderId::of(folder).is_none() {
                continue;
            }
            match self.watch_locked(&mut control, folder.to_path_buf()) {
                Ok(event) => {
                    report(&mut control, &event);
                    return;
                }
                // The failed watch took an epoch of its own: wait under it.
                Err(error) => {
                    epoch = control.epoch;
                    report(&mut control, &ReloadEvent::WatchFailed(error));
                }
            }
        }
    }

    /// Reads and checks the folder; swaps in its program when it is valid,
    /// compatible and delivers other wording.
    fn reload_locked(&self, control: &mut Control) -> ReloadEvent {
        let Some(folder) = control.folder.clone() else {
            return ReloadEvent::WatchFailed(ReloadError {
                message: "no agent folder is watched".into(),
            });
        };
        let registry = match self.load(&folder) {
            Ok(registry) => registry,
            Err(event) => return event,
        };
        let reasons = incompatibilities(self.agent, &registry);
        if !reasons.is_empty() {
            return ReloadEvent::RebuildNeeded { reasons };
        }
        let wording: Vec<u64> = registry.responses.iter().map(wording_fingerprint).collect();
        let before = control.wording.as_deref().unwrap_or(self.agent.wording);
        let changed: Vec<String> = registry
            .responses
            .iter()
            .zip(wording.iter().zip(before))
            .filter(|(_, (now, then))| now != then)
            .map(|(response, _)| response.name.clone())
            .collect();
        if changed.is_empty() {
            return ReloadEvent::Unchanged;
        }
        let loaded = Loaded {
            program: registry.encode(),
            entries: registry.entries,
        };
        // Back to the compiled code when the wording is the compiled one again.
        let back_to_compiled = wording.as_slice() == self.agent.wording;
        let next = (!back_to_compiled).then(|| Arc::new(loaded));
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = next;
        self.generation.fetch_add(1, Ordering::AcqRel);
        control.wording = (!back_to_compiled).then_some(wording);
        ReloadEvent::Reloaded { changed }
    }

    /// The folder's registry, checked as the compiled agent was.
    fn load(&self, folder: &Path) -> Result<Registry, ReloadEvent> {
        // As the agent was compiled: its dialect and bundled layer.
        let options = OpenOptions {
            dialect: Some(self.agent.dialect),
            without_bundled_defaults: self.agent.without_bundled_defaults,
        };
        let agent = Agent::open(folder, options).map_err(|e| ReloadEvent::Rejected {
            findings: vec![escape(&e.to_string()).into_owned()],
        })?;
        let (checked, registry) = agent.into_registry();
        let shown = folder.display().to_string();
        registry.map_err(|errors| ReloadEvent::Rejected {
            findings: errors
                .iter()
                .map(|f| codegen::error_message(f, &checked, &shown))
                .collect(),
        })
    }
}

/// What a burst of watcher events says.
#[derive(Default)]
struct Burst {
    /// Something in the folder may have changed what the agent reads.
    relevant: bool,
    /// The folder's own name was created, removed or renamed (seen in
    /// its parent): whatever is there now must be watched afresh.
    folder_itself: bool,
}

impl Burst {
    fn add(&mut self, event: &notify::Result<notify::Event>, watched: &Path) {
        use notify::EventKind;
        use notify::event::{AccessKind, AccessMode};
        let Ok(event) = event else {
            // A lost event (queue overflow) may hide anything.
            self.relevant = true;
            self.folder_itself = true;
            return;
        };
        // Our own reads are access events: they must not trigger another reload.
        let change = match event.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) => false,
            _ => true,
        };
        if !change {
            return;
        }
        // The parent's other entries are none of the agent's business.
        let inside = event.paths.is_empty() || event.paths.iter().any(|p| p.starts_with(watched));
        self.relevant |= inside;
        self.folder_itself |= matches!(
            event.kind,
            EventKind::Create(_)
                | EventKind::Remove(_)
                | EventKind::Modify(notify::event::ModifyKind::Name(_))
        ) && event.paths.iter().any(|p| p == watched);
    }
}

fn watch_error(folder: &Path, error: &dyn fmt::Display) -> ReloadError {
    ReloadError {
        message: format!(
            "cannot watch `{}` for a hot reload: {error}",
            folder.display()
        ),
    }
}

/// Tells the registered reporter, else standard error (a development tool
/// must be seen without setting up a logger); `Unchanged` is not news,
/// unless it ends a bad state: then it is told as `InSync`.
fn report(control: &mut Control, event: &ReloadEvent) {
    let was_out_of_sync = std::mem::replace(
        &mut control.out_of_sync,
        matches!(
            event,
            ReloadEvent::Rejected { .. }
                | ReloadEvent::RebuildNeeded { .. }
                | ReloadEvent::WatchFailed(_)
        ),
    );
    let event = match event {
        ReloadEvent::Unchanged if was_out_of_sync => &ReloadEvent::InSync,
        ReloadEvent::Unchanged => return,
        event => event,
    };
    match &control.reporter {
        Some(reporter) => reporter(event),
        None => eprintln!("utter hot reload: {event}"),
    }
}

/// What differs between the compiled agent and `registry` in what the
/// typed API names, one reason each; empty when compatible.
fn incompatibilities(agent: &CompiledAgent, registry: &Registry) -> Vec<String> {
    let mut reasons = Vec::new();
    let names: Vec<&str> = registry.responses.iter().map(|r| r.name.as_str()).collect();
    differences(&mut reasons, "response", agent.responses, &names);
    let skills: Vec<&str> = registry.skills.iter().map(String::as_str).collect();
    differences(&mut reasons, "skill", agent.skills, &skills);
    let key = |ns: &str, name: &str| format!("{ns}.{name}");
    let compiled: Vec<String> = agent
        .entries
        .iter()
        .map(|e| key(e.namespace, e.name))
        .collect();
    let edited: Vec<String> = registry
        .entries
        .iter()
        .map(|e| key(&e.namespace, &e.name))
        .collect();
    let compiled_keys: Vec<&str> = compiled.iter().map(String::as_str).collect();
    let edited_keys: Vec<&str> = edited.iter().map(String::as_str).collect();
    differences(&mut reasons, "memory entry", &compiled_keys, &edited_keys);
    for entry in &registry.entries {
        let Some(old) = agent
            .entries
            .iter()
            .find(|e| e.namespace == entry.namespace && e.name == entry.name)
        else {
            continue;
        };
        let name = key(&entry.namespace, &entry.name);
        if old.ty != entry.ty {
            reasons.push(format!(
                "memory entry `{name}` changed type from {} to {}",
                old.ty.name(),
                entry.ty.name()
            ));
        } else if old.values != entry.values.as_slice() {
            reasons.push(format!("the values of memory entry `{name}` changed"));
        } else if old.visibility != entry.visibility {
            reasons.push(format!("the visibility of memory entry `{name}` changed"));
        }
    }
    if reasons.is_empty() && schema_fingerprint(registry) != agent.schema {
        reasons.push("what a skill.md references (responses or `when:` triggers) changed".into());
    }
    reasons
}

/// "`kind` `x` added/removed" for each name in one list and not the other.
fn differences(reasons: &mut Vec<String>, kind: &str, compiled: &[&str], edited: &[&str]) {
    for name in edited.iter().filter(|n| !compiled.contains(n)) {
        reasons.push(format!("{kind} `{name}` added"));
    }
    for name in compiled.iter().filter(|n| !edited.contains(n)) {
        reasons.push(format!("{kind} `{name}` removed"));
    }
}

impl HotReload {
    fn live(self) -> Option<&'static Live> {
        self.reload.live.as_ref()
    }

    /// Watches `folder` instead of the one the agent was compiled from
    /// (a copy, a checkout elsewhere), replacing any watcher, and loads it
    /// now: the returned event says what it did (also told to the reporter).
    ///
    /// # Errors
    /// When the folder cannot be watched (it does not exist, say).
    pub fn watch(self, folder: impl Into<PathBuf>) -> Result<ReloadEvent, ReloadError> {
        let live = self.live().ok_or_else(unavailable)?;
        let mut control = live.control();
        live.started.store(true, Ordering::Release);
        let event = live.watch_locked(&mut control, folder.into())?;
        report(&mut control, &event);
        Ok(event)
    }

    /// Reads the watched folder now, without waiting for the watcher
    /// (which starts if it had not).
    pub fn reload_now(self) -> ReloadEvent {
        let Some(live) = self.live() else {
            return ReloadEvent::WatchFailed(unavailable());
        };
        if !live.started.load(Ordering::Acquire) {
            live.start_compiled_folder();
        }
        let mut control = live.control();
        let event = live.reload_locked(&mut control);
        report(&mut control, &event);
        event
    }

    /// Sends every reload's outcome to `reporter` instead of standard
    /// error (to route it into `log` or `tracing`, or to a UI). It runs on
    /// the watcher's thread; `Unchanged` is not reported.
    pub fn on_event(self, reporter: impl Fn(&ReloadEvent) + Send + Sync + 'static) {
        if let Some(live) = self.live() {
            live.control().reporter = Some(Arc::new(reporter));
        }
    }

    /// How many times reloaded wording took effect.
    #[must_use]
    pub fn generation(self) -> u64 {
        self.live()
            .map_or(0, |live| live.generation.load(Ordering::Acquire))
    }

    /// The folder being watched, if any.
    #[must_use]
    pub fn folder(self) -> Option<PathBuf> {
        self.live()?.control().folder.clone()
    }

    /// Stops watching and delivers the compiled wording again (until
    /// [`HotReload::watch`] or [`HotReload::reload_now`]).
    pub fn stop(self) {
        let Some(live) = self.live() else { return };
        let mut control = live.control();
        control.watcher = None;
        control.epoch += 1;
        control.out_of_sync = false;
        control.wording = None;
        live.started.store(true, Ordering::Release);
        let previous = live
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if previous.is_some() {
            live.generation.fetch_add(1, Ordering::AcqRel);
        }
    }
}

fn unavailable() -> ReloadError {
    ReloadError {
        message: "this agent has errors and was not compiled: nothing to reload".into(),
    }
}
