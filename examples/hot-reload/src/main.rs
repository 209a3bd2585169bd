//! Edit the wording of a running agent.
//!
//! `cargo run --features hot-reload` greets every two seconds; edit
//! `agent/responses.yml` while it runs and the next greeting has the new
//! wording (an invalid or incompatible edit is reported and changes nothing).
//!
//! `cargo run --features hot-reload -- --self-edit` does the edit itself on
//! a copy of the agent and exits 0 once the running process delivered it
//! (what CI runs).

mod responses {
    utter::include_responses!("agent");
}

use responses::{Memory, Response, Tier};

fn memory() -> Memory {
    let mut memory = Memory::new();
    memory.project.customer_name = Some("Ada".into());
    memory.project.tier = Some(Tier::Gold);
    memory
}

#[cfg(feature = "hot-reload")]
fn main() {
    use std::time::Duration;

    if std::env::args().any(|a| a == "--self-edit") {
        std::process::exit(self_edit::run());
    }
    responses::hot_reload().on_event(|event| println!("[hot reload] {event}"));
    let memory = memory();
    loop {
        let delivery = memory.view(None).deliver(Response::UtterGreet);
        println!("{}", delivery.text);
        std::thread::sleep(Duration::from_secs(2));
    }
}

#[cfg(not(feature = "hot-reload"))]
fn main() {
    let delivery = memory().view(None).deliver(Response::UtterGreet);
    println!("{}", delivery.text);
    println!("(built without the `hot-reload` feature: run `cargo run --features hot-reload`)");
}

#[cfg(feature = "hot-reload")]
mod self_edit {
    use std::path::{Path, PathBuf};
    use std::sync::mpsc;
    use std::time::Duration;

    use super::{Response, memory, responses};

    /// Copies the agent, watches the copy, edits a text and waits until a
    /// delivery of this process shows it. Returns the exit code.
    pub fn run() -> i32 {
        let copy =
            std::env::temp_dir().join(format!("utter-hot-reload-demo-{}", std::process::id()));
        let code = match edit_and_wait(&copy) {
            Ok(()) => 0,
            Err(message) => {
                eprintln!("self-edit failed: {message}");
                1
            }
        };
        let _ = std::fs::remove_dir_all(&copy);
        code
    }

    fn edit_and_wait(copy: &Path) -> Result<(), String> {
        let agent = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("agent");
        copy_folder(&agent, copy).map_err(|e| format!("copying the agent: {e}"))?;
        let (sender, events) = mpsc::channel();
        let hot = responses::hot_reload();
        hot.on_event(move |event| {
            let _ = sender.send(event.clone());
        });
        hot.watch(copy).map_err(|e| e.to_string())?;
        let memory = memory();
        let before = memory
            .view(None)
            .deliver(Response::UtterGreet)
            .text
            .into_owned();
        println!("before: {before}");

        let file = copy.join("responses.yml");
        let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        let edited = text.replace("welcome back!", "lovely to hear from you again!");
        std::fs::write(&file, edited).map_err(|e| e.to_string())?;
        let event = events
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| "no reload within 30 s of the edit".to_owned())?;
        println!("[hot reload] {event}");
        let after = memory
            .view(None)
            .deliver(Response::UtterGreet)
            .text
            .into_owned();
        println!("after: {after}");
        if after == "Hello Ada, lovely to hear from you again!" {
            Ok(())
        } else {
            Err(format!("the running process still delivers `{after}`"))
        }
    }

    fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            let target = to.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                copy_folder(&entry.path(), &target)?;
            } else {
                std::fs::copy(entry.path(), target)?;
            }
        }
        Ok(())
    }
}
