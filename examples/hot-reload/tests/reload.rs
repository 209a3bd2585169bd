//! The development hot reload, end to end: a running process, a copy of
//! the agent folder edited on disk, the file watcher, and deliveries through
//! every public path. Each test compiles the agent into its own module, so
//! each has its own reloadable state.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use utter::{HotReload, ReloadEvent};

macro_rules! agent_module {
    ($name:ident $(, $option:ident)?) => {
        mod $name {
            utter::include_responses!("agent" $(, $option)?);
        }
    };
}

agent_module!(text_edit);
agent_module!(condition_edit);
agent_module!(rephrase_edit);
agent_module!(broken_edit);
agent_module!(incompatible_edit);
agent_module!(concurrent);
agent_module!(compact_form, compact);
agent_module!(back_to_compiled);
agent_module!(skill_edit);
agent_module!(escaped_report);
agent_module!(undone_edit);
agent_module!(folder_recreated);
agent_module!(folder_replaced);
agent_module!(folder_churned);

/// The Maestro example (its utter.yml declares the dialect).
mod maestro_agent {
    utter::include_responses!("../maestro-agent");
}

/// A copy of the example agent in a fresh folder, removed on drop.
struct AgentCopy {
    folder: PathBuf,
}

impl AgentCopy {
    fn new(test: &str) -> Self {
        Self::of("agent", test)
    }

    /// A copy of the agent folder `source` (relative to this crate).
    fn of(source: &str, test: &str) -> Self {
        let folder =
            std::env::temp_dir().join(format!("utter-hot-reload-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        copy_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join(source), &folder);
        AgentCopy { folder }
    }

    /// Replaces each `from` with its `to` in `file` (which must hold
    /// them), in one save.
    fn edit_all(&self, file: &str, edits: &[(&str, &str)]) {
        let mut text = self.read(file);
        for (from, to) in edits {
            assert!(text.contains(from), "`{from}` is not in {file}");
            text = text.replacen(from, to, 1);
        }
        self.write(file, &text);
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        self.edit_all(file, &[(from, to)]);
    }

    /// Saves `file` as editors do: written beside the folder, then renamed
    /// into place, so no reload can see it half written.
    fn write(&self, file: &str, text: &str) {
        let staging = self.folder.with_extension("staging");
        std::fs::write(&staging, text).expect("the file writes");
        std::fs::rename(&staging, self.folder.join(file)).expect("the file moves into place");
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.folder.join(file)).expect("the file reads")
    }
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a temporary folder");
    for entry in std::fs::read_dir(from).expect("the agent lists") {
        let entry = entry.expect("the agent lists");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("the agent copies");
        }
    }
}

impl Drop for AgentCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Watches `copy` and returns the reported events.
fn watch(hot: HotReload, copy: &AgentCopy) -> Receiver<ReloadEvent> {
    let (sender, events) = mpsc::channel();
    hot.on_event(move |event| {
        let _ = sender.send(event.clone());
    });
    let first = hot.watch(&copy.folder).expect("the copy can be watched");
    assert_eq!(
        first,
        ReloadEvent::Unchanged,
        "the copy is the compiled agent"
    );
    assert_eq!(hot.folder().as_deref(), Some(copy.folder.as_path()));
    events
}

/// The next reported event (the watcher's), waiting generously.
fn next(events: &Receiver<ReloadEvent>) -> ReloadEvent {
    events
        .recv_timeout(Duration::from_secs(30))
        .expect("the watcher reports the edit")
}

#[test]
fn a_changed_text_reaches_the_typed_view_and_context_paths() {
    use text_edit::{Memory, Response, Tier, deliver, deliver_name, hot_reload};
    let copy = AgentCopy::new("text");
    let events = watch(hot_reload(), &copy);
    let mut memory = Memory::new();
    memory.project.customer_name = Some("Ada".into());
    memory.project.tier = Some(Tier::Gold);
    let view = memory.view(None);
    assert_eq!(
        view.deliver(Response::UtterGreet).text,
        "Hello Ada, welcome back!"
    );

    copy.edit("responses.yml", "welcome back!", "good to see you!");
    let reloaded = next(&events);
    assert_eq!(reloaded.to_string(), "reloaded `utter_greet`");
    assert_eq!(
        reloaded,
        ReloadEvent::Reloaded {
            changed: vec!["utter_greet".into()]
        }
    );
    assert_eq!(hot_reload().generation(), 1);
    let expected = "Hello Ada, good to see you!";
    let delivery = view.deliver(Response::UtterGreet);
    assert_eq!(
        (delivery.text.as_ref(), delivery.variant),
        (expected, Some(0))
    );
    assert_eq!(delivery.response, "utter_greet");
    assert_eq!(view.render(Response::UtterGreet).to_string(), expected);
    assert_eq!(
        view.render(Response::UtterGreet).to_delivery().text,
        expected
    );
    let ctx = view.context();
    assert_eq!(deliver(Response::UtterGreet, &ctx).text, expected);
    assert_eq!(deliver_name("utter_greet", &ctx).text, expected);
    // Untouched responses deliver as before; unknown names still fail closed.
    assert_eq!(view.deliver(Response::UtterGoodbye).text, "Goodbye!");
    assert!(deliver_name("utter_nope", &ctx).fallback);
}

#[test]
fn a_changed_condition_selects_by_the_new_condition() {
    use condition_edit::{Memory, Response, Tier, hot_reload};
    let copy = AgentCopy::new("condition");
    let events = watch(hot_reload(), &copy);
    let mut memory = Memory::new();
    memory.project.customer_name = Some("Ada".into());
    memory.project.tier = Some(Tier::Silver);
    assert_eq!(
        memory.view(None).deliver(Response::UtterGreet).variant,
        Some(1)
    );

    copy.edit(
        "responses.yml",
        r#"session.project.tier == "gold""#,
        r#"session.project.tier == "silver""#,
    );
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    let delivery = memory.view(None).deliver(Response::UtterGreet);
    assert_eq!(
        (delivery.text.as_ref(), delivery.variant),
        ("Hello Ada, welcome back!", Some(0))
    );
    // A state the old condition chose now falls through.
    memory.project.tier = Some(Tier::Gold);
    assert_eq!(
        memory.view(None).deliver(Response::UtterGreet).variant,
        Some(1)
    );
}

#[test]
fn a_changed_rephrase_flag_takes_effect() {
    use rephrase_edit::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("rephrase");
    let events = watch(hot_reload(), &copy);
    let mut memory = Memory::new();
    memory.project.fee = Some(7.5);
    let before = memory.view(None).deliver(Response::UtterFee);
    assert_eq!(
        (before.text.as_ref(), before.rephrase),
        ("The fee is 7.5 euros.", true)
    );

    copy.edit("responses.yml", "rephrase: true", "rephrase: false");
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    let after = memory.view(None).deliver(Response::UtterFee);
    assert_eq!(
        (after.text.as_ref(), after.rephrase),
        ("The fee is 7.5 euros.", false)
    );
    assert!(!memory.view(None).render(Response::UtterFee).rephrase);
}

#[test]
fn a_broken_edit_keeps_the_last_good_wording_and_reports_the_finding() {
    use broken_edit::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("broken");
    let events = watch(hot_reload(), &copy);
    let memory = Memory::new();
    copy.edit("responses.yml", "Goodbye!", "Bye for now!");
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Bye for now!"
    );

    // A condition that does not parse, and a text edit in the same save.
    copy.edit_all(
        "responses.yml",
        &[
            ("Bye for now!", "See you!"),
            ("session.project.tier ==", "session.project.tier ==="),
        ],
    );
    let ReloadEvent::Rejected { findings } = next(&events) else {
        panic!("the broken edit is rejected");
    };
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0].contains("responses.yml:4:"), "{}", findings[0]);
    assert!(findings[0].contains("utter_greet"), "{}", findings[0]);
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Bye for now!"
    );
    assert_eq!(hot_reload().generation(), 1);
    // The fix takes effect with the text edit.
    copy.edit(
        "responses.yml",
        "session.project.tier ===",
        "session.project.tier ==",
    );
    assert_eq!(
        next(&events),
        ReloadEvent::Reloaded {
            changed: vec!["utter_goodbye".into()]
        }
    );
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "See you!"
    );
}

#[test]
fn an_incompatible_edit_asks_for_a_rebuild_and_changes_nothing() {
    use incompatible_edit::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("incompatible");
    let events = watch(hot_reload(), &copy);
    let memory = Memory::new();
    let responses = copy.read("responses.yml");
    copy.write(
        "responses.yml",
        &format!("{responses}\n  utter_thanks:\n    - Thanks!\n").replace("Goodbye!", "Bye!"),
    );
    assert_eq!(
        next(&events),
        ReloadEvent::RebuildNeeded {
            reasons: vec!["response `utter_thanks` added".into()]
        }
    );
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Goodbye!"
    );
    copy.write("responses.yml", &responses);
    // Back as compiled: nothing to do, and the reporter hears once that
    // the agent is back in sync (from this reload or the watcher's).
    assert_eq!(hot_reload().reload_now(), ReloadEvent::Unchanged);
    assert_eq!(next(&events), ReloadEvent::InSync);

    copy.edit("memory.yml", "type: float", "type: int");
    assert_eq!(
        next(&events),
        ReloadEvent::RebuildNeeded {
            reasons: vec!["memory entry `project.fee` changed type from float to int".into()]
        }
    );
    copy.edit_all(
        "memory.yml",
        &[
            ("type: int", "type: float"),
            ("[gold, silver]", "[gold, silver, bronze]"),
        ],
    );
    assert_eq!(
        hot_reload().reload_now(),
        ReloadEvent::RebuildNeeded {
            reasons: vec!["the values of memory entry `project.tier` changed".into()]
        }
    );
    assert_eq!(hot_reload().generation(), 0);
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Goodbye!"
    );
}

#[test]
fn what_a_skill_md_references_is_compiled_and_asks_for_a_rebuild() {
    use skill_edit::{Skill, hot_reload};
    let copy = AgentCopy::new("skill");
    let events = watch(hot_reload(), &copy);
    let skill_md = "skills/farewell/skill.md";
    // Prose is not compiled: nothing to reload.
    copy.edit(
        skill_md,
        "Say goodbye and end",
        "Thank them, say goodbye and end",
    );
    assert_eq!(hot_reload().reload_now(), ReloadEvent::Unchanged);
    copy.edit(skill_md, "  - utter_goodbye:", "  - utter_greet:");
    assert_eq!(
        next(&events),
        ReloadEvent::RebuildNeeded {
            reasons: vec![
                "what a skill.md references (responses or `when:` triggers) changed".into()
            ]
        }
    );
    assert_eq!(hot_reload().generation(), 0);
    let on_activate: Vec<&str> = Skill::Farewell
        .responses()
        .on_activate
        .iter()
        .map(|r| r.name())
        .collect();
    assert_eq!(on_activate, ["utter_goodbye"]);
}

/// Two versions of the agent whose every delivery says which version and
/// variant it comes from, swapped back and forth while threads deliver:
/// each delivery is wholly one version's (text, variant and rephrase flag).
#[test]
fn concurrent_deliveries_never_see_a_torn_state() {
    use concurrent::{Memory, Response, Tier, deliver, hot_reload};
    use std::sync::atomic::{AtomicBool, Ordering};

    let copy = AgentCopy::new("concurrent");
    let compiled = copy.read("responses.yml");
    let version = |tag: &str, rephrase: bool| {
        compiled
            .replace("Hello {customer_name}, welcome back!", &format!("{tag}0 {{customer_name}}"))
            .replace("Hello {customer_name}!", &format!("{tag}1 {{customer_name}}"))
            .replace("Hello there!", &format!("{tag}2"))
            .replace(
                "  utter_goodbye:\n    - Goodbye!",
                &format!("  utter_goodbye:\n    - text: {tag}\n      metadata:\n        rephrase: {rephrase}"),
            )
    };
    let (a, b) = (version("A", true), version("B", false));
    let hot = hot_reload();
    let _events = watch(hot, &copy);
    let stop = AtomicBool::new(false);
    let seen = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let stop = &stop;
                scope.spawn(move || {
                    // Deliveries of version A and of version B this thread saw.
                    let mut seen = [0u64; 2];
                    let mut memory = Memory::new();
                    memory.project.customer_name = Some("Ada".into());
                    let mut checked = 0u64;
                    while !stop.load(Ordering::Relaxed) || checked < 1_000 {
                        memory.project.tier =
                            [Some(Tier::Gold), Some(Tier::Silver), None][thread % 3];
                        let view = memory.view(None);
                        let greet = if checked.is_multiple_of(2) {
                            view.deliver(Response::UtterGreet)
                        } else {
                            deliver(Response::UtterGreet, &view.context())
                        };
                        let variant = greet.variant.expect("a variant");
                        let text = greet.text.as_ref();
                        let consistent = text.starts_with("Hello")
                            || text == format!("A{variant} Ada")
                            || text == format!("B{variant} Ada");
                        assert!(consistent, "torn delivery: {text:?} as variant {variant}");
                        let bye = view.deliver(Response::UtterGoodbye);
                        let consistent = match bye.text.as_ref() {
                            "Goodbye!" => !bye.rephrase,
                            "A" => {
                                seen[0] += 1;
                                bye.rephrase
                            }
                            "B" => {
                                seen[1] += 1;
                                !bye.rephrase
                            }
                            other => panic!("unexpected {other:?}"),
                        };
                        assert!(consistent, "torn delivery: {bye:?}");
                        checked += 1;
                    }
                    seen
                })
            })
            .collect();
        for round in 0..60 {
            copy.write("responses.yml", if round % 2 == 0 { &a } else { &b });
            assert!(matches!(
                hot.reload_now(),
                ReloadEvent::Reloaded { .. } | ReloadEvent::Unchanged
            ));
        }
        stop.store(true, Ordering::Relaxed);
        threads
            .into_iter()
            .map(|t| t.join().expect("no delivery thread panicked"))
            .fold([0, 0], |sum, seen| [sum[0] + seen[0], sum[1] + seen[1]])
    });
    assert!(hot.generation() >= 60, "{} swaps", hot.generation());
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "both versions delivered: {seen:?}"
    );
}

#[test]
fn the_compact_form_reloads_too() {
    use compact_form::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("compact");
    let events = watch(hot_reload(), &copy);
    let mut memory = Memory::new();
    memory.project.fee = Some(12.0);
    copy.edit(
        "responses.yml",
        "The fee is {fee} euros.",
        "That will be {fee} euros.",
    );
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    assert_eq!(
        memory.view(None).deliver(Response::UtterFee).text,
        "That will be 12.0 euros."
    );
    assert_eq!(
        memory.view(None).render(Response::UtterFee).to_string(),
        "That will be 12.0 euros."
    );
}

#[test]
fn the_compiled_wording_comes_back_when_the_edit_is_undone_or_stopped() {
    use back_to_compiled::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("back");
    let events = watch(hot_reload(), &copy);
    let memory = Memory::new();
    copy.edit("responses.yml", "Goodbye!", "Ciao!");
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Ciao!"
    );
    copy.edit("responses.yml", "Ciao!", "Goodbye!");
    assert_eq!(
        next(&events),
        ReloadEvent::Reloaded {
            changed: vec!["utter_goodbye".into()]
        }
    );
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Goodbye!"
    );
    assert_eq!(hot_reload().generation(), 2);

    copy.edit("responses.yml", "Goodbye!", "Ciao!");
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    hot_reload().stop();
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Goodbye!"
    );
    assert_eq!(hot_reload().generation(), 4);
}

#[test]
fn a_folder_that_cannot_be_watched_is_an_error() {
    let missing =
        std::env::temp_dir().join(format!("utter-hot-reload-missing-{}", std::process::id()));
    let error = text_edit_unwatched::hot_reload()
        .watch(&missing)
        .expect_err("a missing folder cannot be watched");
    assert!(error.to_string().contains("cannot watch"), "{error}");
}

agent_module!(text_edit_unwatched);

/// Events until one that is not `WatchFailed` (a folder briefly gone while
/// it is replaced may or may not be seen); the last `WatchFailed` seen too.
fn next_settled(events: &Receiver<ReloadEvent>) -> (ReloadEvent, Option<ReloadEvent>) {
    let mut gone = None;
    loop {
        match next(events) {
            event @ ReloadEvent::WatchFailed(_) => gone = Some(event),
            event => return (event, gone),
        }
    }
}

#[test]
fn a_rejected_edit_is_reported_without_raw_control_characters() {
    use escaped_report::hot_reload;
    let copy = AgentCopy::new("escaped");
    let events = watch(hot_reload(), &copy);
    // A response named with an OSC title, a clear-screen and a carriage
    // return (YAML escapes), and an empty text: an error naming it.
    let responses = copy.read("responses.yml");
    copy.write(
        "responses.yml",
        &format!("{responses}\n  \"utter_x\\e]0;owned\\a\\e[2J\\r\":\n    - text: \"\"\n"),
    );
    let event = next(&events);
    let ReloadEvent::Rejected { findings } = &event else {
        panic!("{event:?}");
    };
    // The finding as data holds the name as written; shown, it is escaped.
    assert!(
        findings.iter().any(|f| f.contains('\u{1b}')),
        "{findings:?}"
    );
    let shown = event.to_string();
    assert!(
        !shown.chars().any(|c| c.is_control() && c != '\n'),
        "{shown:?}"
    );
    assert!(shown.contains("owned"), "{shown}");
}

#[test]
fn undoing_a_broken_edit_says_the_agent_is_back_in_sync() {
    use undone_edit::hot_reload;
    let copy = AgentCopy::new("undone");
    let events = watch(hot_reload(), &copy);
    copy.edit(
        "responses.yml",
        "session.project.tier ==",
        "session.project.tier ===",
    );
    assert!(matches!(next(&events), ReloadEvent::Rejected { .. }));
    copy.edit(
        "responses.yml",
        "session.project.tier ===",
        "session.project.tier ==",
    );
    assert_eq!(next(&events), ReloadEvent::InSync);
    assert!(ReloadEvent::InSync.to_string().contains("back in sync"));
    assert_eq!(hot_reload().generation(), 0);
}

#[test]
fn a_folder_removed_and_created_again_is_watched_again() {
    use folder_recreated::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("recreated");
    let events = watch(hot_reload(), &copy);
    let memory = Memory::new();
    std::fs::remove_dir_all(&copy.folder).unwrap();
    // A reload may catch the folder half removed (rejected) first.
    let gone = loop {
        match next(&events) {
            ReloadEvent::WatchFailed(gone) => break gone,
            ReloadEvent::Rejected { .. } => {}
            other => panic!("a removed folder is reported, not {other:?}"),
        }
    };
    assert!(gone.to_string().contains("removed or moved away"), "{gone}");
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Goodbye!"
    );
    // Created again, with an edit: watched again and reloaded.
    copy_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("agent"),
        &copy.folder,
    );
    copy.edit("responses.yml", "Goodbye!", "Back again!");
    let (event, _) = next_settled(&events);
    assert_eq!(
        event,
        ReloadEvent::Reloaded {
            changed: vec!["utter_goodbye".into()]
        }
    );
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Back again!"
    );
    // Edits after that are followed too.
    copy.edit("responses.yml", "Back again!", "And again!");
    assert!(matches!(next(&events), ReloadEvent::Reloaded { .. }));
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "And again!"
    );
}

/// 500 cycles of the folder removed and made again (copied in, or a
/// prepared copy renamed into place: the new folder often gets the old
/// one's inode), then an edit: delivered, and edits after it too. The
/// watcher learns of each re-creation from the parent's events, not from
/// the folder's identity, and a watch that fails because the folder went
/// again meanwhile is tried again.
#[test]
fn a_folder_removed_and_made_again_500_times_is_still_followed() {
    use folder_churned::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("churned");
    let events = watch(hot_reload(), &copy);
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("agent");
    let prepared = copy.folder.with_extension("next");
    for cycle in 0..500 {
        std::fs::remove_dir_all(&copy.folder).unwrap();
        if cycle % 2 == 0 {
            copy_folder(&source, &copy.folder);
        } else {
            let _ = std::fs::remove_dir_all(&prepared);
            copy_folder(&source, &prepared);
            std::fs::rename(&prepared, &copy.folder).unwrap();
        }
    }
    copy.edit("responses.yml", "Goodbye!", "Still here!");
    let memory = Memory::new();
    let started = std::time::Instant::now();
    let delivered = |text: &str| memory.view(None).deliver(Response::UtterGoodbye).text == text;
    while !delivered("Still here!") {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the edit after 500 re-creations was never delivered; events: {:?}",
            events.try_iter().collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    eprintln!(
        "delivered {:?} after the last re-creation",
        started.elapsed()
    );
    // Followed from then on.
    copy.edit("responses.yml", "Still here!", "And after that!");
    let started = std::time::Instant::now();
    while !delivered("And after that!") {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "an edit after the re-created folder settled was never delivered"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    hot_reload().stop();
    let _ = std::fs::remove_dir_all(&prepared);
}

#[cfg(unix)]
#[test]
fn a_folder_renamed_and_replaced_by_a_symlink_is_followed() {
    use folder_replaced::{Memory, Response, hot_reload};
    let copy = AgentCopy::new("replaced");
    let events = watch(hot_reload(), &copy);
    let memory = Memory::new();
    // The old folder moves away (still watched by inode), another takes
    // its path through a symlink.
    let moved = copy.folder.with_extension("old");
    let other = AgentCopy::new("replaced-target");
    other.edit("responses.yml", "Goodbye!", "From the other folder!");
    let _ = std::fs::remove_dir_all(&moved);
    std::fs::rename(&copy.folder, &moved).unwrap();
    std::os::unix::fs::symlink(&other.folder, &copy.folder).unwrap();
    let (event, _) = next_settled(&events);
    assert_eq!(
        event,
        ReloadEvent::Reloaded {
            changed: vec!["utter_goodbye".into()]
        }
    );
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "From the other folder!"
    );
    // An edit in the moved folder is not what the path names: ignored;
    // an edit through the path is followed.
    std::fs::write(
        moved.join("responses.yml"),
        std::fs::read_to_string(moved.join("responses.yml"))
            .unwrap()
            .replace("Goodbye!", "Stale!"),
    )
    .unwrap();
    other.edit("responses.yml", "From the other folder!", "Followed!");
    let (event, _) = next_settled(&events);
    assert!(matches!(event, ReloadEvent::Reloaded { .. }), "{event:?}");
    assert_eq!(
        memory.view(None).deliver(Response::UtterGoodbye).text,
        "Followed!"
    );
    hot_reload().stop();
    let _ = std::fs::remove_file(&copy.folder);
    let _ = std::fs::remove_dir_all(&moved);
}

/// A Maestro agent reloads as Maestro, as it was compiled: under Mantle its
/// skill's `on: activate` greeting (`utter_greet`, bundled by Maestro) would
/// not exist and the edit would be rejected.
#[test]
fn a_maestro_agent_reloads_in_its_dialect() {
    use maestro_agent::{Memory, Response, Skill, hot_reload};
    let copy = AgentCopy::of("../maestro-agent", "maestro");
    let events = watch(hot_reload(), &copy);
    let mut memory = Memory::new();
    memory.order_status.order_id = Some("A-17".into());
    let view = memory.view(Skill::OrderStatus);
    let before = view.deliver(Response::UtterOrderHelp);
    copy.edit(
        "skills/order_status/responses.yml",
        "I can tell you where your order is.",
        "I can tell you where order A-17 is.",
    );
    assert_eq!(
        next(&events),
        ReloadEvent::Reloaded {
            changed: vec!["utter_order_help".into()]
        }
    );
    let after = view.deliver(Response::UtterOrderHelp);
    assert_eq!(after.text, "I can tell you where order A-17 is.");
    // The edited wording is another reviewed wording: another id.
    assert!(before.wording.is_some() && after.wording.is_some());
    assert_ne!(before.wording, after.wording);
}
